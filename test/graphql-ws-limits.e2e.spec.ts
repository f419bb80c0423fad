import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { removeDir, startApp, type TestApp } from './support/app';
import { byteLimit } from '../apps/api/src/config';

/** Documents sent over the WebSocket get the limits of POST /graphql, before anything runs. */
describe('graphql-ws: the same document limits as POST /graphql', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ listen: true });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  /** The first message a subscription gets: an error's extensions, or 'next'/'complete'. */
  async function firstOutcome(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ code?: unknown; statusCode?: unknown; field?: unknown } | 'next' | 'complete'> {
    const client = createClient({
      url: t.url!.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${t.apiKey}` },
    });
    try {
      return await new Promise((resolve) => {
        client.subscribe(
          { query, variables },
          {
            next: () => resolve('next'),
            error: (e: unknown) =>
              resolve(
                ((Array.isArray(e) ? e[0] : e) as { extensions?: { code?: unknown; statusCode?: unknown } })
                  .extensions ?? {},
              ),
            complete: () => resolve('complete'),
          },
        );
      });
    } finally {
      await client.dispose();
    }
  }

  it('a fragment bomb is refused as QUERY_TOO_COMPLEX or QUERY_TOO_DEEP, and the server still answers', async () => {
    const levels = 30;
    let doc = 'subscription { fightEvents(fightId: "x") { ...F0 } }\n';
    for (let i = 0; i < levels; i++)
      doc += `fragment F${i} on FightEventModel { seq ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'type'} }\n`;
    const outcome = await firstOutcome(doc);
    expect(outcome).toMatchObject({ statusCode: 400 });
    expect(['QUERY_TOO_COMPLEX', 'QUERY_TOO_DEEP']).toContain((outcome as { code: string }).code);
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
  });

  it('more tokens than POST /graphql allows is QUERY_TOO_LARGE', async () => {
    const outcome = await firstOutcome(
      `subscription { fightEvents(fightId: "x") { ${'seq '.repeat(2500)} } }`,
    );
    expect(outcome).toMatchObject({ code: 'QUERY_TOO_LARGE', statusCode: 400 });
  });

  it('a NUL in a string literal is INVALID_STRING', async () => {
    const outcome = await firstOutcome('subscription { fightEvents(fightId: "a\\u0000b") { seq } }');
    expect(outcome).toMatchObject({ code: 'INVALID_STRING', statusCode: 400 });
  });

  it('a NUL or a lone surrogate in a variable is INVALID_STRING naming the variable, on every engine alike', async () => {
    const query = 'subscription S($id: ID!) { fightEvents(fightId: $id) { seq } }';
    for (const id of ['a\u0000b', 'x\ud800y'])
      expect(await firstOutcome(query, { id })).toMatchObject({
        code: 'INVALID_STRING',
        statusCode: 400,
        field: 'id',
      });
  });

  it('a variable the operation does not declare is BAD_USER_INPUT naming it, as POST /graphql answers it', async () => {
    const { fightId } = (
      await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)
    ).body;
    const query = 'subscription S($id: ID!) { fightEvents(fightId: $id, after: 0) { seq } }';
    expect(await firstOutcome(query, { id: fightId, after: 5 })).toMatchObject({
      code: 'BAD_USER_INPUT',
      statusCode: 400,
      field: 'after',
      message: 'variable $after is not declared by the operation S',
    });
    expect(await firstOutcome(query, { id: fightId })).toBe('next');
  });

  it('an ordinary subscription still runs', async () => {
    const { fightId } = (
      await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)
    ).body;
    expect(
      await firstOutcome(`subscription { fightEvents(fightId: "${fightId}", after: 0) { seq type } }`),
    ).toBe('next');
  });
});

/**
 * A WebSocket message is bounded as a POST /graphql body is (BODY_LIMIT, 256 KB in the tests): a larger
 * one closes the socket with 1009 Message Too Big before it is parsed, from connection_init on.
 * The app bounds them at start (WsMessageLimit, BODY_LIMIT from its config): nothing here sets it.
 */
describe('graphql-ws: a message larger than BODY_LIMIT closes the socket with 1009', () => {
  let t: TestApp;
  const limit = byteLimit('256kb', 'BODY_LIMIT');
  beforeAll(async () => {
    t = await startApp({ listen: true, config: { bodyLimit: '256kb' } });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  /** Opens a graphql-transport-ws socket, sends `messages` in turn, and resolves with the close code, or the types of the messages seen once there are `enough` (or after 3 s). */
  function exchange(messages: unknown[], enough = Infinity): Promise<{ code?: number; seen: string[] }> {
    const socket = new WebSocket(t.url!.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const seen: string[] = [];
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve({ seen });
      }, 3000);
      socket.on('error', () => undefined);
      socket.on('open', () => socket.send(JSON.stringify(messages.shift())));
      socket.on('message', (data) => {
        seen.push(JSON.parse((data as Buffer).toString()).type);
        if (seen.length >= enough) {
          clearTimeout(timer);
          socket.removeAllListeners('close');
          socket.terminate();
          return resolve({ seen });
        }
        const next = messages.shift();
        if (next) socket.send(JSON.stringify(next));
      });
      socket.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, seen });
      });
    });
  }

  const init = { type: 'connection_init', payload: { authorization: '' } };
  const subscribe = (text: string) => ({
    id: '1',
    type: 'subscribe',
    payload: {
      query: 'subscription S($f: ID!) { fightEvents(fightId: $f) { seq } }',
      variables: { f: text },
    },
  });

  it('given a key, when a subscribe message carries a variable larger than BODY_LIMIT, then 1009 before it is run', async () => {
    init.payload.authorization = `Bearer ${t.apiKey}`;
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const outcome = await exchange([init, subscribe('x'.repeat(limit + 1))]);
      expect(outcome).toEqual({ code: 1009, seen: ['connection_ack'] });
      // The client's mistake, not the server's: graphql-ws logs nothing as an internal error.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('given no key yet, when connection_init itself is larger than BODY_LIMIT, then 1009', async () => {
    const outcome = await exchange([{ type: 'connection_init', payload: { pad: 'x'.repeat(limit) } }]);
    expect(outcome).toEqual({ code: 1009, seen: [] });
  });

  it('given a key, when a subscribe message is just under BODY_LIMIT, then it is judged as usual (an error for its id, the socket open)', async () => {
    init.payload.authorization = `Bearer ${t.apiKey}`;
    const outcome = await exchange([init, subscribe('x'.repeat(limit - 1000))], 2);
    expect(outcome.code).toBeUndefined();
    expect(outcome.seen[0]).toBe('connection_ack');
    expect(outcome.seen[1]).toMatch(/^(error|next|complete)$/);
  });
});
