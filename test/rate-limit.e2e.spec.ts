import WebSocket from 'ws';
import { KeyThrottlerGuard } from '../apps/api/src/auth/key-throttler.guard';
import { removeDir, startApp, TestApp } from './support/app';

/**
 * The window is a second: the clock stands still while a test sends its requests, so none spans two
 * windows, and each test starts ten seconds after the last, when every earlier window (the admin key's
 * too) has ended.
 */
let frozenAt = Date.now();
const frozenClock = () => jest.spyOn(Date, 'now').mockReturnValue((frozenAt += 10_000));

describe('rate limits: standard headers, one error shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ rateLimitPerSecond: 3, listen: true });
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });
  afterEach(() => jest.restoreAllMocks());

  it('a 2xx carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-10), nothing suffixed', async () => {
    frozenClock();
    const key = (await t.tenant('headers')).apiKey;
    const first = await t.anon.get('/fights').set('authorization', `Bearer ${key}`).expect(200);
    expect(first.headers['ratelimit-policy']).toBe('"per-key";q=3;w=1');
    expect(first.headers['ratelimit']).toBe('"per-key";r=2;t=1');
    const second = await t.anon.get('/fights').set('authorization', `Bearer ${key}`).expect(200);
    expect(second.headers['ratelimit']).toBe('"per-key";r=1;t=1');
    expect(Object.keys(first.headers).filter((h) => /per-second|x-ratelimit/i.test(h))).toEqual([]);
    expect(first.headers['retry-after']).toBeUndefined();
  });

  it('the request over the limit is 429 RATE_LIMITED with Retry-After, whatever the route', async () => {
    frozenClock();
    const key = (await t.tenant('burst')).apiKey;
    const auth = { authorization: `Bearer ${key}` };
    await t.anon.get('/fights').set(auth).expect(200);
    await t.anon.get('/systems').set(auth).expect(200);
    await t.anon.get('/projections').set(auth).expect(200);
    const limited = await t.anon.get('/fights').set(auth).expect(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['ratelimit']).toBe('"per-key";r=0;t=1');
    expect(limited.headers['ratelimit-policy']).toBe('"per-key";q=3;w=1');
    expect(limited.body).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^at most 3 requests per 1 s with one key or token/),
    });
    expect(limited.body.message).not.toMatch(/ThrottlerException/);
    // Another key has its own quota.
    await t.anon
      .get('/fights')
      .set('authorization', `Bearer ${(await t.tenant('calm')).apiKey}`)
      .expect(200);
  });

  it('operations over graphql-ws count against the key of their connection, in the window of its HTTP requests: the one over the limit is refused RATE_LIMITED', async () => {
    frozenClock();
    const key = (await t.tenant('socket')).apiKey;
    await t.anon.get('/fights').set('authorization', `Bearer ${key}`).expect(200);
    const socket = new WebSocket(`${t.url!.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: Array<{ id?: string; type: string; payload?: any }> = [];
    socket.on('message', (data) => messages.push(JSON.parse((data as Buffer).toString())));
    const next = async (match: (m: (typeof messages)[number]) => boolean) => {
      // A bound on a hang only.
      for (let i = 0; i < 3000 && !messages.some(match); i++) await new Promise((r) => setTimeout(r, 10));
      return messages.find(match);
    };
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }));
      expect(await next((m) => m.type === 'connection_ack')).toBeDefined();
      for (const id of ['1', '2', '3'])
        socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: '{ fights { total } }' } }));
      const answers = await Promise.all(['1', '2', '3'].map((id) => next((m) => m.id === id)));
      // A query's result, as over HTTP: data, or errors in the one shape.
      expect(answers.map((m) => m?.payload?.errors?.[0]?.extensions?.code ?? 'data')).toEqual([
        'data',
        'data',
        'RATE_LIMITED',
      ]);
      expect(answers[2]?.payload?.errors?.[0]?.extensions).toMatchObject({ statusCode: 429 });
      // The window is the key's: its next HTTP request is over the limit too.
      await t.anon.get('/fights').set('authorization', `Bearer ${key}`).expect(429);
    } finally {
      socket.terminate();
    }
  });

  it('a new window starts once the last one has passed', async () => {
    const clock = frozenClock();
    const key = (await t.tenant('later')).apiKey;
    const auth = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 3; i++) await t.anon.get('/fights').set(auth).expect(200);
    await t.anon.get('/fights').set(auth).expect(429);
    clock.mockReturnValue(Date.now() + 1000);
    expect((await t.anon.get('/fights').set(auth).expect(200)).headers['ratelimit']).toBe(
      '"per-key";r=2;t=1',
    );
  });
});

describe('rate limits off (RATE_LIMIT_PER_SECOND=0)', () => {
  it('registers no guard: no rate-limit headers, no 429, the guard never runs', async () => {
    const guard = jest.spyOn(KeyThrottlerGuard.prototype, 'canActivate');
    const t = await startApp({ rateLimitPerSecond: 0 });
    try {
      const results = await Promise.all(Array.from({ length: 60 }, () => t.http.get('/fights')));
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      for (const r of results)
        expect(Object.keys(r.headers).filter((h) => /ratelimit|retry-after/i.test(h))).toEqual([]);
      expect(guard).not.toHaveBeenCalled();
    } finally {
      guard.mockRestore();
      await t.close();
      removeDir(t.dataDir);
    }
  });

  it('with a limit the same guard runs on every request', async () => {
    const guard = jest.spyOn(KeyThrottlerGuard.prototype, 'canActivate');
    const t = await startApp({ rateLimitPerSecond: 1000 });
    try {
      await t.http.get('/fights').expect(200);
      expect(guard).toHaveBeenCalled();
    } finally {
      guard.mockRestore();
      await t.close();
      removeDir(t.dataDir);
    }
  });
});
