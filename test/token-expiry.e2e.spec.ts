import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { sheet, useApp } from './support/app';
import { stoppedClock } from './support/clock';

/** Only stops a broken build from hanging: the streams below end a moment after the clock passes the expiry. */
const GIVE_UP_MS = 60_000;

const giveUp = <T>(what: string, p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: still open after ${GIVE_UP_MS} ms`)), GIVE_UP_MS).unref(),
    ),
  ]);

/** Reads an SSE response to its end; `onText` sees the text so far after every chunk. */
async function readToEnd(res: Response, onText: (text: string) => void = () => undefined): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    onText(text);
  }
}

/** The `data` of every `event: error` message. */
const errorEvents = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.split('\n').includes('event: error'))
    .map((block) =>
      JSON.parse(
        block
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ),
    );

describe('an expired token ends its open streams, as a revoked one does', () => {
  const t = useApp({ listen: true });
  let fightId = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    fightId = (
      await t.http
        .post('/fights')
        .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] })
        .expect(201)
    ).body.fightId;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => Promise.resolve(c.dispose())));
  });
  afterEach(() => jest.useRealTimers());

  const spectator = async (expiresInMs?: number) =>
    (
      await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({
          role: 'spectator',
          ...(expiresInMs ? { expiresAt: new Date(Date.now() + expiresInMs).toISOString() } : {}),
        })
        .expect(201)
    ).body as { token: string; tokenId: string };
  const note = (text: string) =>
    t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text }).expect(200);
  const openStream = (token: string) =>
    fetch(`${t.url}/fights/${fightId}/stream?token=${encodeURIComponent(token)}`);

  function gqlClient(token: string): Client {
    const client = createClient({
      url: `${t.url!.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    clients.push(client);
    return client;
  }

  /** Resolves once `seen` has a result; rejects if the subscription ends before one. */
  async function firstOf(seen: unknown[], ending: Promise<unknown>): Promise<void> {
    let over = false;
    void ending.then(
      () => (over = true),
      () => (over = true),
    );
    while (seen.length === 0) {
      if (over) throw new Error(`ended before a first result: ${JSON.stringify(await ending)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Subscribes and resolves with how it ended: its error (graphql-ws `error` message) or 'complete'; `seen` counts its results. */
  function subscription(client: Client, query: string, seen: unknown[] = []): Promise<any> {
    return new Promise((resolve) =>
      client.subscribe(
        { query },
        { next: (r) => seen.push(r), error: resolve, complete: () => resolve('complete') },
      ),
    );
  }

  it('SSE: events flow until expiry, then the stream ends with event: error TOKEN_EXPIRED, and the token is 401 everywhere', async () => {
    const clock = stoppedClock();
    const { token } = await spectator(1500);
    const res = await openStream(token);
    expect(res.status).toBe(200);
    let posted = false;
    let expired = false;
    const text = await giveUp(
      'SSE stream',
      readToEnd(res, (so) => {
        if (!posted && so.includes('retry:')) {
          posted = true;
          void note('before expiry').then(() => undefined);
        }
        // Delivered while the token is valid: now the clock comes to its expiry.
        if (!expired && so.includes('"before expiry"')) {
          expired = true;
          clock.pass(1500);
        }
      }),
    );
    expect(text).toContain('"before expiry"');
    expect(errorEvents(text)).toEqual([
      { statusCode: 401, code: 'TOKEN_EXPIRED', message: expect.any(String), field: 'authorization' },
    ]);
    // The overlay reconnects and reads this 401 as "revoked or has expired".
    expect((await openStream(token)).status).toBe(401);
    await t.anon.get(`/fights/${fightId}`).set('authorization', `Bearer ${token}`).expect(401);
  });

  it('SSE: a revoked token ends the stream with event: error CREDENTIALS_REVOKED', async () => {
    const { token, tokenId } = await spectator();
    const res = await openStream(token);
    let revoked = false;
    const text = await giveUp(
      'SSE stream',
      readToEnd(res, (so) => {
        if (!revoked && so.includes('retry:')) {
          revoked = true;
          void t.http
            .delete(`/fights/${fightId}/tokens/${tokenId}`)
            .expect(204)
            .then(() => undefined);
        }
      }),
    );
    expect(errorEvents(text).map((e) => e.code)).toEqual(['CREDENTIALS_REVOKED']);
  });

  it('SSE: an expiry further away than a timer can wait (30 days) does not end the stream early', async () => {
    const { token } = await spectator(30 * 24 * 3600 * 1000);
    const ctl = new AbortController();
    const res = await fetch(`${t.url}/fights/${fightId}/stream?token=${encodeURIComponent(token)}`, {
      signal: ctl.signal,
    });
    let posted = false;
    const text = await giveUp(
      'SSE stream',
      readToEnd(res, (so) => {
        if (!posted && so.includes('retry:')) {
          posted = true;
          void note('far expiry').then(() => undefined);
        }
        if (so.includes('"far expiry"')) ctl.abort();
      }).catch((e: Error) => (e.name === 'AbortError' ? 'aborted' : Promise.reject(e))),
    );
    expect(text).toBe('aborted');
  });

  it('GraphQL: fightEvents delivers until expiry, then ends with an error whose code is TOKEN_EXPIRED', async () => {
    const clock = stoppedClock();
    const { token } = await spectator(1500);
    const seen: unknown[] = [];
    const ending = giveUp(
      'fightEvents',
      subscription(
        gqlClient(token),
        `subscription { fightEvents(fightId: "${fightId}") { seq type } }`,
        seen,
      ),
    );
    // Delivered while the token is valid (it fails here if the subscription ends first): now the expiry.
    await giveUp('a first result', firstOf(seen, ending));
    clock.pass(1500);
    const ended = await ending;
    expect(seen.length).toBeGreaterThan(0);
    expect(ended).not.toBe('complete');
    expect(ended[0]).toMatchObject({
      message: expect.any(String),
      extensions: { statusCode: 401, code: 'TOKEN_EXPIRED', field: 'authorization' },
    });
  });

  it('GraphQL: fightView (a pulled source) ends the same way at expiry', async () => {
    const clock = stoppedClock();
    const { token } = await spectator(1500);
    const seen: unknown[] = [];
    const ending = giveUp(
      'fightView',
      subscription(gqlClient(token), `subscription { fightView(fightId: "${fightId}") { seq } }`, seen),
    );
    await giveUp('a first result', firstOf(seen, ending));
    clock.pass(1500);
    const ended = await ending;
    expect(seen.length).toBeGreaterThan(0);
    expect(ended[0]?.extensions).toMatchObject({ statusCode: 401, code: 'TOKEN_EXPIRED' });
  });

  it('GraphQL: a revoked token ends its subscription with CREDENTIALS_REVOKED', async () => {
    const { token, tokenId } = await spectator();
    const seen: unknown[] = [];
    const ended = subscription(
      gqlClient(token),
      `subscription { fightEvents(fightId: "${fightId}") { seq } }`,
      seen,
    );
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 20));
    await t.http.delete(`/fights/${fightId}/tokens/${tokenId}`).expect(204);
    expect((await giveUp('fightEvents', ended))[0]?.extensions).toMatchObject({
      statusCode: 401,
      code: 'CREDENTIALS_REVOKED',
    });
  });
});
