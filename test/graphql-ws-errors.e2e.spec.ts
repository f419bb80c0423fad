import { removeDir, startApp, type TestApp } from './support/app';
import { RawWsClient as RawClient } from './support/ws-client';

/** graphql-ws refuses what POST /graphql refuses, with the same codes, one operation at a time. */
describe('graphql-ws: a refused operation is an error message in the one shape, the socket stays open', () => {
  let t: TestApp;
  let fightId = '';
  beforeAll(async () => {
    t = await startApp({ listen: true });
    fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
      .fightId;
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  const addNote = (text: string) =>
    t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text }).expect(200);

  it('given a live fightEvents subscription, when an unparsable operation is sent beside it, then an error for that id alone (400 GRAPHQL_PARSE_FAILED) and the live one goes on', async () => {
    const client = await RawClient.connect(t);
    try {
      client.subscribe('1', `subscription { fightEvents(fightId: "${fightId}", after: 0) { seq type } }`);
      await client.next((m) => m.id === '1' && m.type === 'next');
      client.subscribe('2', 'subscription{');
      expect(await client.errorOf('2')).toMatchObject({
        code: 'GRAPHQL_PARSE_FAILED',
        statusCode: 400,
        message: expect.stringMatching(/^Syntax Error/),
      });
      await addNote('after the refusal');
      const live = await client.next(
        (m) => m.id === '1' && m.type === 'next' && JSON.stringify(m.payload).includes('GmNoteAdded'),
      );
      expect(live.payload).toMatchObject({ data: { fightEvents: { type: 'GmNoteAdded' } } });
      expect(client.closed).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it('given live subscriptions on one connection, every message is a text frame whose UTF-8 is the event as committed', async () => {
    const client = await RawClient.connect(t);
    try {
      const query = `subscription { fightEvents(fightId: "${fightId}", after: 0) { seq type data } }`;
      client.subscribe('a', query);
      client.subscribe('b', query);
      const text = 'Ünïcödé ⚔ “quoted” \\ 🐉';
      const { body } = await addNote(text);
      const seq = (body as { seq: number }).seq;
      for (const id of ['a', 'b']) {
        const m = await client.next(
          (x) => x.id === id && x.type === 'next' && JSON.stringify(x.payload).includes(`"seq":${seq}`),
        );
        expect(m.payload).toEqual({ data: { fightEvents: { seq, type: 'GmNoteAdded', data: { text } } } });
      }
      expect(client.binaryFrames).toBe(0);
    } finally {
      client.close();
    }
  });

  it('given graphql-ws, when a field does not exist, then 400 GRAPHQL_VALIDATION_FAILED as over HTTP', async () => {
    const client = await RawClient.connect(t);
    try {
      client.subscribe('v', `subscription { fightView(fightId: "${fightId}") { nope } }`);
      expect(await client.errorOf('v')).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400 });
      client.subscribe('l', `subscription { fightEvents(fightId: "${fightId}", after: "x") { seq } }`);
      expect(await client.errorOf('l')).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400 });
      expect(client.closed).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it('given graphql-ws, when a variable does not fit its type, then 400 BAD_USER_INPUT naming it, an error and never a next', async () => {
    const client = await RawClient.connect(t);
    try {
      client.subscribe(
        'c',
        'subscription S($f: ID!, $a: Int) { fightEvents(fightId: $f, after: $a) { seq } }',
        {
          variables: { f: fightId, a: 'x' },
        },
      );
      expect(await client.errorOf('c')).toMatchObject({
        code: 'BAD_USER_INPUT',
        statusCode: 400,
        field: 'a',
      });
      client.subscribe('m', 'subscription S($f: ID!) { fightEvents(fightId: $f) { seq } }', {
        variables: {},
      });
      expect(await client.errorOf('m')).toMatchObject({
        code: 'BAD_USER_INPUT',
        statusCode: 400,
        field: 'f',
      });
    } finally {
      client.close();
    }
  });

  it('given graphql-ws, when operationName names no operation or two operations come unnamed, then 400 OPERATION_RESOLUTION_FAILURE', async () => {
    const client = await RawClient.connect(t);
    try {
      const two = 'query A { systems { id } } query B { systems { name } }';
      client.subscribe('u', two, { operationName: 'C' });
      expect(await client.errorOf('u')).toMatchObject({
        code: 'OPERATION_RESOLUTION_FAILURE',
        statusCode: 400,
        message: 'Unknown operation named "C".',
      });
      client.subscribe('n', two);
      expect(await client.errorOf('n')).toMatchObject({
        code: 'OPERATION_RESOLUTION_FAILURE',
        statusCode: 400,
      });
      // A named one among them still runs.
      client.subscribe('a', two, { operationName: 'A' });
      const answer = await client.next((m) => m.id === 'a' && m.type === 'next');
      expect(answer.payload).toMatchObject({ data: { systems: expect.any(Array) } });
    } finally {
      client.close();
    }
  });
});
