import WebSocket from 'ws';
import { useApp } from './support/app';
import { soloFight } from './support/fight-calls';

/**
 * RFC 7493 (I-JSON) section 2.3: "Objects in I-JSON messages MUST NOT have members with names that
 * are not unique." JSON.parse keeps the last of two, so a body that names a member twice was taken
 * as its last without a word: it is 400 DUPLICATE_KEY naming the member's path, on every JSON body
 * (REST, POST /graphql, POST /audit/verify as JSON and NDJSON) and every graphql-ws message.
 */
describe('a JSON body that names a member twice', () => {
  const t = useApp({ listen: true });
  let fightId: string;
  const events = async () =>
    (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
  const post = (path: string, text: string, type = 'application/json') =>
    t.http.post(path).set('content-type', type).send(text);

  beforeAll(async () => {
    fightId = await soloFight(t);
  });

  it('given commandId twice in a command, answers 400 DUPLICATE_KEY naming commandId and appends nothing', async () => {
    const before = await events();
    const res = await post(
      `/fights/${fightId}/commands`,
      '{"type":"AddNote","text":"twice","commandId":"a","commandId":"b"}',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      code: 'DUPLICATE_KEY',
      message: 'commandId is sent more than once in its object; a member name may appear once (RFC 7493)',
      field: 'commandId',
    });
    expect(await events()).toBe(before);
  });

  it('given a name twice deep in a body, names its path; a name written with an escape is the same name', async () => {
    const sheet = '{"agility":2,"might":2,"wits":2}';
    const nested = await post(
      '/fights',
      `{"system":"narateer","dice":{"mode":"manual"},"combatants":[{"id":"a","name":"A","name":"B","sheet":${sheet}}]}`,
    );
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ code: 'DUPLICATE_KEY', field: 'combatants[0].name' });
    const escaped = await post(
      `/fights/${fightId}/commands`,
      '{"type":"AddNote","text":"a","\\u0074ext":"b"}',
    );
    expect(escaped.status).toBe(400);
    expect(escaped.body).toMatchObject({ code: 'DUPLICATE_KEY', field: 'text' });
  });

  it('given the same name in different objects, and colons inside strings, the body is read as before', async () => {
    const before = await events();
    const res = await post(
      `/fights/${fightId}/commands`,
      '{"type":"AddNote","text":"a: b {\\"text\\": 1} [\\"type\\":]"}',
    );
    expect(res.status).toBe(200);
    expect(res.body.events[0].data).toEqual({ text: 'a: b {"text": 1} ["type":]' });
    expect(await events()).toBe(before + 1);
  });

  it('given a name twice in a POST /graphql body, answers in the GraphQL shape naming the member (a variable by its name)', async () => {
    const inVariables = await post(
      '/graphql',
      '{"query":"query($id: ID!) { fight(fightId: $id) { fightId } }","variables":{"id":"a","id":"b"}}',
    );
    expect(inVariables.status).toBe(400);
    expect(inVariables.body).toEqual({
      errors: [
        {
          message: 'id is sent more than once in its object; a member name may appear once (RFC 7493)',
          extensions: {
            statusCode: 400,
            code: 'DUPLICATE_KEY',
            message: 'id is sent more than once in its object; a member name may appear once (RFC 7493)',
            field: 'id',
          },
        },
      ],
    });
    const query = await post('/graphql', '{"query":"{ __typename }","query":"{ systems { id } }"}');
    expect(query.status).toBe(400);
    expect(query.body.errors[0].extensions).toMatchObject({ code: 'DUPLICATE_KEY', field: 'query' });
  });

  it('given a fight log to verify with a name twice, as JSON or on an NDJSON line, answers 400 DUPLICATE_KEY naming it', async () => {
    const log = (await t.http.get(`/fights/${fightId}/log`).expect(200)).body as object;
    const text = JSON.stringify(log);
    expect((await post('/audit/verify', text)).status).toBe(200);
    const json = await post('/audit/verify', `{"format":"x",${text.slice(1)}`);
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ code: 'DUPLICATE_KEY', field: 'format' });
    const ndjson = (await t.http.get(`/fights/${fightId}/log?format=ndjson`).expect(200)).text;
    const lines = ndjson.split('\n');
    expect((await post('/audit/verify', ndjson, 'application/x-ndjson')).status).toBe(200);
    lines[1] = `{"x":1,"x":2,${lines[1].slice(1)}`;
    const line = await post('/audit/verify', lines.join('\n'), 'application/x-ndjson');
    expect(line.status).toBe(400);
    expect(line.body).toMatchObject({ code: 'DUPLICATE_KEY', field: 'entries[0].x' });
    expect(line.body.message).toMatch(/^line 2: entries\[0\]\.x is sent more than once/);
  });

  describe('over graphql-ws', () => {
    /** A socket past connection_ack, and every message it gets. */
    async function connected() {
      const socket = new WebSocket(`${t.url!.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      const messages: Array<{ type: string; id?: string; payload?: any }> = [];
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8'))));
      await new Promise((resolve) => socket.on('open', resolve));
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${t.apiKey}` } }),
      );
      await until(() => messages.some((m) => m.type === 'connection_ack'));
      return { socket, messages, closed };
    }

    it('given a variable twice in a subscribe message, ends that operation alone with DUPLICATE_KEY naming it', async () => {
      const { socket, messages, closed } = await connected();
      socket.send(
        '{"type":"subscribe","id":"1","payload":{"query":"subscription($id: ID!) { fightEvents(fightId: $id) { seq } }",' +
          `"variables":{"id":"${fightId}","id":"other"}}}`,
      );
      await until(() => messages.some((m) => m.id === '1'));
      expect(messages.find((m) => m.id === '1')).toMatchObject({
        type: 'error',
        payload: [{ extensions: { statusCode: 400, code: 'DUPLICATE_KEY', field: 'id' } }],
      });
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
      await closed;
    });

    it('given a message whose type is named twice, closes the socket with 4400 as for any message it cannot read', async () => {
      const { socket, closed } = await connected();
      socket.send('{"type":"ping","type":"subscribe","id":"2","payload":{"query":"{ __typename }"}}');
      // Only a bound on a hang: the server closes at once, but a loaded machine may take seconds to say so.
      const open = new Promise((resolve) => setTimeout(() => resolve('still open'), 60_000).unref());
      expect(await Promise.race([closed, open])).toBe(4400);
      socket.terminate();
    });
  });
});

/** Waits until `done` holds, as long as a loaded machine takes (60 s is only a bound on a hang). */
async function until(done: () => boolean, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > deadline) throw new Error('timed out waiting');
}
