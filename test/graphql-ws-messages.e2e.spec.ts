import WebSocket from 'ws';
import { RawWsClient as RawClient, type WsMessage as Message } from './support/ws-client';
import { connect } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { useApp } from './support/app';
import { MAX_OPERATIONS_PER_CONNECTION } from '../apps/api/src/graphql/ws-limits';

const COMMAND = `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }`;

/** What hostile and clumsy graphql-ws clients send, and what they get: a refusal in the one shape or a close code, never a guess. */
describe('graphql-ws: what a WebSocket message says is read as sent, or refused', () => {
  const t = useApp({ listen: true });
  let fightId = '';
  beforeAll(async () => {
    fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
      .fightId;
  });
  afterEach(() => jest.restoreAllMocks());

  /** The texts of the fight's GM notes, as the log has them. */
  const notes = async (): Promise<string[]> =>
    ((await t.http.get(`/fights/${fightId}/events`).expect(200)).body as { type: string; data: any }[])
      .filter((e) => e.type === 'GmNoteAdded')
      .map((e) => e.data.text as string);

  const subscribeText = (id: string, text: string) =>
    JSON.stringify({
      id,
      type: 'subscribe',
      payload: { query: COMMAND, variables: { f: fightId, i: { type: 'AddNote', payload: { text } } } },
    });

  it('given a binary frame whose bytes are no UTF-8, then the socket is closed with 4400 and nothing is appended, as a text frame is refused (1007), never read with U+FFFD', async () => {
    const before = await notes();
    const client = await RawClient.connect(t);
    try {
      const [head, tail] = subscribeText('b', 'XX').split('XX');
      client.send(Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe]), Buffer.from(tail)]), true);
      expect(await client.closedWith()).toMatchObject({ code: 4400 });
      expect(client.messages.filter((m) => m.id === 'b')).toEqual([]);
    } finally {
      client.close();
    }
    // The same message in a binary frame of valid UTF-8 is read as its text frame would be.
    const valid = await RawClient.connect(t);
    try {
      valid.send(Buffer.from(subscribeText('v', 'ünïcödé in a binary frame')), true);
      expect((await valid.next((m) => m.id === 'v' && m.type === 'next')).payload).toMatchObject({
        data: { command: { seq: expect.any(Number) } },
      });
    } finally {
      valid.close();
    }
    const after = await notes();
    expect(after.slice(before.length)).toEqual(['ünïcödé in a binary frame']);
    expect(after.some((text) => text.includes('\ufffd'))).toBe(false);
  });

  it('given frames RFC 6455 refuses (a text frame that is no UTF-8, an unmasked frame), then the close code says so and nothing is logged as an internal error of the server', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = await RawClient.connect(t);
    try {
      const [head, tail] = subscribeText('t', 'XX').split('XX');
      client.send(Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]), false);
      expect(await client.closedWith()).toMatchObject({ code: 1007 });
    } finally {
      client.close();
    }
    expect(await closeCodeAfterUnmaskedFrame(t.url!)).toBe(1002);
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    expect(logged).not.toHaveBeenCalled();
  });

  it('given a message nested deeper than 64, then it is refused as POST /graphql refuses the body (BODY_TOO_DEEP for that operation; 4400 for any other message), never run with the last of two equal names', async () => {
    const before = await notes();
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    const client = await RawClient.connect(t);
    try {
      client.send(
        `{"id":"d","type":"subscribe","payload":{"query":${JSON.stringify(COMMAND)},` +
          `"variables":{"f":"${fightId}","i":{"type":"AddNote","payload":{"text":"first","text":"second"}}},` +
          `"extensions":{"deep":${deep}}}}`,
      );
      expect(await client.errorOf('d')).toMatchObject({ code: 'BODY_TOO_DEEP', statusCode: 400 });
      client.send(
        `{"id":"e","type":"subscribe","payload":{"query":"{ systems { id } }","extensions":{"deep":${deep}}}}`,
      );
      expect(await client.errorOf('e')).toMatchObject({ code: 'BODY_TOO_DEEP', statusCode: 400 });
      client.send(`{"type":"ping","payload":{"deep":${deep}}}`);
      expect(await client.closedWith()).toMatchObject({ code: 4400 });
      expect(client.closed?.reason).toContain('deeper than 64');
    } finally {
      client.close();
    }
    expect(await notes()).toEqual(before);
  });

  it('given a subscribe message that repeats its id, then the socket is closed with 4400, neither id run', async () => {
    const client = await RawClient.connect(t);
    try {
      client.send(`{"id":"a","id":"b","type":"subscribe","payload":{"query":"{ systems { id } }"}}`);
      expect(await client.closedWith()).toMatchObject({ code: 4400 });
      expect(client.closed?.reason).toContain('id is sent twice');
      expect(client.messages.filter((m) => m.id === 'a' || m.id === 'b')).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('given extensions.persistedQuery that does not fit the query, then 400 BAD_REQUEST naming it, as POST /graphql answers, and a matching one runs', async () => {
    const query = '{ systems { id } }';
    const hash = createHash('sha256').update(query).digest('hex');
    const cases: Array<[unknown, string]> = [
      [{ version: 1, sha256Hash: 'f'.repeat(64) }, 'extensions.persistedQuery.sha256Hash'],
      [{ version: 2, sha256Hash: hash }, 'extensions.persistedQuery.version'],
      ['x', 'extensions.persistedQuery.version'],
    ];
    const client = await RawClient.connect(t);
    try {
      for (const [n, [persistedQuery, field]] of cases.entries()) {
        const overHttp = await t.http.post('/graphql').send({ query, extensions: { persistedQuery } });
        expect(overHttp.body.errors[0].extensions).toMatchObject({
          code: 'BAD_REQUEST',
          statusCode: 400,
          field,
        });
        client.send(
          JSON.stringify({
            id: `p${n}`,
            type: 'subscribe',
            payload: { query, extensions: { persistedQuery } },
          }),
        );
        expect(await client.errorOf(`p${n}`)).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400, field });
      }
      client.send(
        JSON.stringify({
          id: 'ok',
          type: 'subscribe',
          payload: { query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } },
        }),
      );
      expect((await client.next((m) => m.id === 'ok' && m.type === 'next')).payload).toMatchObject({
        data: { systems: expect.any(Array) },
      });
      expect(client.closed).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it('given a subscription its resolver refuses (no such fight, another tenant’s, after past the last seq, after < 0), then an error message for its id in the one shape, never a next with errors and a complete', async () => {
    const other = await t.tenant('Other table');
    const head = (await t.http.get(`/fights/${fightId}`).expect(200)).body.seq as number;
    const events = `subscription($f: ID!, $a: Int) { fightEvents(fightId: $f, after: $a) { seq } }`;
    const cases: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
      [
        'missing',
        events,
        { f: 'no-such-fight' },
        { statusCode: 404, code: 'FIGHT_NOT_FOUND', field: 'fightId' },
      ],
      [
        'view',
        'subscription($f: ID!) { fightView(fightId: $f) { seq } }',
        { f: 'no-such-fight' },
        { statusCode: 404, code: 'FIGHT_NOT_FOUND', field: 'fightId' },
      ],
      [
        'past',
        events,
        { f: fightId, a: head + 1 },
        { statusCode: 422, code: 'SEQ_OUT_OF_RANGE', field: 'after' },
      ],
      [
        'negative',
        events,
        { f: fightId, a: -1 },
        { statusCode: 400, code: 'VALIDATION_FAILED', field: 'after' },
      ],
    ];
    const client = await RawClient.connect(t);
    const stranger = await RawClient.connect({ url: t.url, apiKey: other.apiKey });
    try {
      for (const [id, query, variables, shape] of cases) {
        client.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
        expect(await client.errorOf(id)).toMatchObject(shape);
      }
      stranger.send(
        JSON.stringify({
          id: 'theirs',
          type: 'subscribe',
          payload: { query: events, variables: { f: fightId } },
        }),
      );
      expect(await stranger.errorOf('theirs')).toMatchObject({ statusCode: 404, code: 'FIGHT_NOT_FOUND' });
      // Nothing else came for those ids, and the connection serves on.
      await new Promise((r) => setTimeout(r, 100));
      expect(client.messages.filter((m) => m.id && m.type !== 'error')).toEqual([]);
      client.send(
        JSON.stringify({
          id: 'live',
          type: 'subscribe',
          payload: { query: events, variables: { f: fightId, a: head - 1 } },
        }),
      );
      expect((await client.next((m) => m.id === 'live' && m.type === 'next')).payload).toEqual({
        data: { fightEvents: { seq: head } },
      });
    } finally {
      client.close();
      stranger.close();
    }
  });

  it('given more operations running at once on one connection than it may run, then the one past the limit ends with 429 OPERATION_LIMIT, those running go on, and a complete frees a place', async () => {
    const head = (await t.http.get(`/fights/${fightId}`).expect(200)).body.seq as number;
    const query = `subscription($f: ID!, $a: Int) { fightEvents(fightId: $f, after: $a) { seq } }`;
    const subscribe = (id: string) =>
      client.send(
        JSON.stringify({ id, type: 'subscribe', payload: { query, variables: { f: fightId, a: head - 1 } } }),
      );
    const client = await RawClient.connect(t);
    try {
      // Each proves it runs by its first event (the fight's last).
      for (let i = 0; i < MAX_OPERATIONS_PER_CONNECTION; i++) subscribe(`s${i}`);
      for (let i = 0; i < MAX_OPERATIONS_PER_CONNECTION; i++)
        await client.next((m) => m.id === `s${i}` && m.type === 'next');
      subscribe('over');
      expect(await client.errorOf('over')).toMatchObject({ statusCode: 429, code: 'OPERATION_LIMIT' });
      client.send(JSON.stringify({ id: 's0', type: 'complete' }));
      // graphql-ws frees the place once it has ended the stream; a retry after it runs.
      let admitted: Message | undefined;
      for (let n = 0; !admitted && n < 50; n++) {
        subscribe(`again${n}`);
        const answer = await client.next((m) => m.id === `again${n}`);
        if (answer.type === 'next') admitted = answer;
      }
      expect(admitted?.payload).toEqual({ data: { fightEvents: { seq: head } } });
      expect(client.closed).toBeUndefined();
    } finally {
      client.close();
    }
  });

  /** The open subscriptions the metrics count, once they are `n` (within a bound on a loaded machine), else the last read. */
  async function openSubscriptionsReach(n: number, timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = (await t.anon.get('/metrics').expect(200)).text;
      const open = Number(/^crs_open_subscriptions (\d+)$/m.exec(text)?.[1]);
      if (open === n || Date.now() > deadline) return open;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('given a subscribe that reuses an id right after its complete, before its operation has ended, then the socket is closed with 4409 and no operation outlives it', async () => {
    const before = await openSubscriptionsReach(0, 0);
    const query = 'subscription($f: ID!) { fightEvents(fightId: $f) { seq } }';
    const subscribe = JSON.stringify({
      id: 'b',
      type: 'subscribe',
      payload: { query, variables: { f: fightId } },
    });
    const client = await RawClient.connect(t);
    try {
      // One burst: the first operation is still being set up when its id comes again.
      client.socket.send(subscribe);
      client.socket.send(JSON.stringify({ id: 'b', type: 'complete' }));
      client.socket.send(subscribe);
      expect(await client.closedWith(5000)).toMatchObject({ code: 4409 });
    } finally {
      client.close();
    }
    // Neither the first operation nor the second runs on without its socket.
    expect(await openSubscriptionsReach(before)).toBe(before);
    // An id is free again once its operation has ended: reused then, it runs.
    const again = await RawClient.connect(t);
    try {
      again.socket.send(subscribe);
      await again.next((m) => m.id === 'b' && m.type === 'next');
      again.send({ id: 'b', type: 'complete' });
      expect(await openSubscriptionsReach(before)).toBe(before);
      again.socket.send(subscribe);
      await again.next(
        (m) => m.id === 'b' && m.type === 'next' && again.messages.filter((x) => x.id === 'b').length > 1,
      );
      expect(again.closed).toBeUndefined();
    } finally {
      again.close();
    }
  });

  it('given a client that sends pings and reads nothing, then past 16 MiB of unsent pongs the socket is closed with 1013, as a subscriber that reads nothing is', async () => {
    const client = await RawClient.connect(t);
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    try {
      tcp.pause();
      const ping = JSON.stringify({ type: 'ping', payload: { x: 'p'.repeat(200_000) } });
      // 250 pings of 200 KB: 50 MB of pongs the server would hold for a client that takes none, far past 16 MiB
      // and the kernel's socket buffers on both sides, whatever their size.
      for (let i = 0; i < 250; i++) client.socket.send(ping);
      // Once every ping has left this side, the server has read all but what the kernel buffers hold: it is past
      // the limit by then, however slowly a loaded machine let it read. Only then is the close frame read.
      for (const deadline = Date.now() + 60_000; tcp.writableLength > 0 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 50));
      tcp.resume();
      expect(await client.closedWith(10_000)).toMatchObject({ code: 1013 });
    } finally {
      client.close();
    }
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
  });

  it('given a client that resets its connection with answers in flight, then nothing is logged as an internal error of the server', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = await RawClient.connect(t);
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.pause();
    const ping = JSON.stringify({ type: 'ping', payload: { x: 'p'.repeat(200_000) } });
    for (let i = 0; i < 40; i++) client.socket.send(ping);
    await new Promise((r) => setTimeout(r, 500));
    tcp.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    expect(logged).not.toHaveBeenCalled();
  });

  it('given a handshake to /graphql with a query parameter (?token=…), then 400 BAD_REQUEST naming it in the error shape, not a socket that leaves it unread', async () => {
    const refused = await refusedHandshake(`${t.url!.replace('http', 'ws')}/graphql?token=${t.apiKey}`);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field: 'token' });
    // No query, or an empty one, is the handshake every graphql-ws client makes.
    (await RawClient.connect(t, '/graphql?')).close();
  });

  it.each(['%00=1', 'a=%00', 'a%00b', 'a=%ED%A0%80', '%ZZ=1'])(
    'given a handshake to /graphql whose query string (?%s) cannot be read or stored, then the code and field REST gives the same query string',
    async (query) => {
      const refused = await refusedHandshake(`${t.url!.replace('http', 'ws')}/graphql?${query}`);
      const rest = await fetch(`${t.url}/fights?${query}`, {
        headers: { authorization: `Bearer ${t.apiKey}` },
      });
      const expected = (await rest.json()) as { code: string; field: string };
      expect(expected.code).not.toBe('BAD_REQUEST');
      expect(refused.status).toBe(rest.status);
      expect(JSON.parse(refused.body)).toMatchObject({ code: expected.code, field: expected.field });
    },
  );
});

/** The answer to a WebSocket handshake the server refuses (it fails the test when the handshake is taken). */
function refusedHandshake(url: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    socket.on('unexpected-response', (_, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    socket.on('open', () => reject(new Error('the handshake was taken')));
    socket.on('error', () => undefined);
  });
}

/** Opens a graphql-ws connection by hand, sends one unmasked text frame (RFC 6455 5.1: a client masks every frame) and returns the close code. */
function closeCodeAfterUnmaskedFrame(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () =>
      socket.write(
        'GET /graphql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
      ),
    );
    let received = Buffer.alloc(0);
    let upgraded = false;
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!upgraded) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        upgraded = true;
        received = received.subarray(end + 4);
        const ping = Buffer.from('{"type":"ping"}');
        socket.write(Buffer.concat([Buffer.from([0x81, ping.length]), ping]));
      }
      // The server's close frame: opcode 8, unmasked, its code in the first two bytes of its payload.
      if (received.length >= 4 && (received[0] & 0x0f) === 8) {
        resolve(received.readUInt16BE(2));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}
