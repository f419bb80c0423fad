import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { removeDir, startApp, type TestApp } from './support/app';

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

  it('an ordinary subscription still runs', async () => {
    const { fightId } = (
      await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)
    ).body;
    expect(
      await firstOutcome(`subscription { fightEvents(fightId: "${fightId}", after: 0) { seq type } }`),
    ).toBe('next');
  });
});
