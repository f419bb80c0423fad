import WebSocket from 'ws';
import { removeDir, startApp, type TestApp } from './support/app';

interface Message {
  id?: string;
  type: string;
  payload?: unknown;
}

/** A graphql-transport-ws connection spoken by hand: every message and the close code are seen as they come. */
class RawClient {
  readonly messages: Message[] = [];
  /** Messages that came in binary frames: a browser's WebSocket hands those over as a Blob, not text. */
  binaryFrames = 0;
  closed?: { code: number; reason: string };
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.binaryFrames++;
      const message = JSON.parse((data as Buffer).toString()) as Message;
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      this.messages.push(message);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async connect(t: TestApp): Promise<RawClient> {
    const socket = new WebSocket(t.url!.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const client = new RawClient(socket);
    client.send({ type: 'connection_init', payload: { authorization: `Bearer ${t.apiKey}` } });
    await client.next((m) => m.type === 'connection_ack');
    return client;
  }

  send(message: Message): void {
    this.socket.send(JSON.stringify(message));
  }

  subscribe(id: string, query: string, extra: { variables?: unknown; operationName?: string } = {}): void {
    this.send({ id, type: 'subscribe', payload: { query, ...extra } });
  }

  /**
   * The first message (from now on or already here) that `match` takes; fails when the socket closes first.
   * `timeoutMs` is only a bound on a hang: a loaded machine may take seconds to answer.
   */
  async next(match: (m: Message) => boolean, timeoutMs = 60_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed ${this.closed.code} ${this.closed.reason}`);
      if (Date.now() > deadline) throw new Error('no such message');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The error message for operation `id`: its first error's extensions. */
  async errorOf(id: string): Promise<Record<string, unknown>> {
    const m = await this.next((x) => x.id === id && x.type !== 'next');
    expect(m.type).toBe('error');
    return (m.payload as Array<{ extensions: Record<string, unknown> }>)[0].extensions;
  }

  async closedWith(timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.closed?.code ?? -1;
  }

  close(): void {
    this.socket.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

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
