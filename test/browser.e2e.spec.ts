import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../apps/api/src/create-app';
import { removeDir, TEST_ADMIN_KEY } from './support/app';
import { describeInBrowserFor, launchChromium } from './support/chromium';

/** A frontend in a real browser, on another origin: CORS as browsers enforce it, and a plain EventSource. */
const describeInBrowser = describeInBrowserFor('test/browser.e2e.spec.ts');

describeInBrowser('a browser frontend on another origin', () => {
  let app: INestApplication;
  let api = '';
  let page: Server;
  let origin = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let apiKey = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'crs-browser-'));

  beforeAll(async () => {
    // The frontend's own origin: a blank page on another port.
    page = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>frontend</title>'),
    );
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    ({ app } = await createApp(
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        bodyLimit: '256kb',
        auditBodyLimit: '20mb',
        adminApiKey: TEST_ADMIN_KEY,
        corsOrigins: [origin],
        rateLimitPerSecond: 1000,
      },
      { logger: false },
    ));
    await app.listen(0, '127.0.0.1');
    api = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const tenant = await fetch(`${api}/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'browser' }),
    });
    apiKey = ((await tenant.json()) as { apiKey: string }).apiKey;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((r) => page?.close(r));
    removeDir(dataDir);
  });

  it('a cross-origin POST with x-request-id and an idempotency-style header goes through, and JS reads x-request-id', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(origin);
    const result = await tab.evaluate(
      async ({ api, apiKey }) => {
        const res = await fetch(`${api}/fights`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'x-request-id': 'browser-1',
            'idempotency-key': 'k-1',
          },
          body: JSON.stringify({ system: 'narateer', combatants: [] }),
        });
        return {
          status: res.status,
          requestId: res.headers.get('x-request-id'),
          location: res.headers.get('location'),
          body: await res.json(),
        };
      },
      { api, apiKey },
    );
    expect(result.status).toBe(201);
    expect(result.requestId).toBe('browser-1');
    const exposed = await fetch(`${api}/fights`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-request-id,idempotency-key',
      },
    });
    expect(exposed.status).toBeLessThan(300);
    expect(exposed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-request-id');
    await tab.close();
  });

  it('JS reads every header a client library needs: Location, ETag, RateLimit, RateLimit-Policy, Link, X-Next-Cursor, WWW-Authenticate', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(origin);
    const read = await tab.evaluate(
      async ({ api, apiKey }) => {
        const names = [
          'location',
          'etag',
          'ratelimit',
          'ratelimit-policy',
          'link',
          'x-next-cursor',
          'www-authenticate',
          'x-request-id',
        ];
        const seen = (res: Response) => Object.fromEntries(names.map((n) => [n, res.headers.get(n)]));
        const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
        const created = [];
        for (let i = 0; i < 2; i++)
          created.push(
            await fetch(`${api}/fights`, {
              method: 'POST',
              headers: auth,
              body: JSON.stringify({ system: 'narateer' }),
            }),
          );
        let list = await fetch(`${api}/fights?limit=1`, { headers: auth });
        // The list reads a projection a moment behind the log: ask until the second fight is on it.
        for (let i = 0; i < 200 && !list.headers.get('link'); i++)
          list = await fetch(`${api}/fights?limit=1`, { headers: auth });
        const refused = await fetch(`${api}/fights`);
        return {
          created: seen(created[0]),
          body: (await created[0].json()) as { fightId: string; seq: number; view: { headHash: string } },
          list: seen(list),
          refused: seen(refused),
        };
      },
      { api, apiKey },
    );
    expect(read.created).toMatchObject({
      location: `/fights/${read.body.fightId}`,
      etag: `W/"${read.body.seq}-${read.body.view.headHash}"`,
      'x-request-id': expect.any(String),
    });
    expect(read.created.ratelimit).toMatch(/r=\d+;t=\d+/);
    expect(read.created['ratelimit-policy']).toMatch(/q=1000;w=1/);
    expect(read.list.link).toBe(`</fights?limit=1&cursor=${read.list['x-next-cursor']}>; rel="next"`);
    expect(read.refused['www-authenticate']).toBe('Bearer');
    await tab.close();
  });

  it('another origin is refused by the browser', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(`http://localhost:${new URL(origin).port}`); // same server, a different origin (localhost, not 127.0.0.1)
    const outcome = await tab.evaluate(
      async (api) =>
        fetch(`${api}/systems`).then(
          (r) => `status ${r.status}`,
          (e: Error) => `blocked: ${e.name}`,
        ),
      api,
    );
    expect(outcome).toMatch(/^blocked/);
    await tab.close();
  });

  it('a plain EventSource.onmessage gets every event, in order, with ?messages=unnamed', async () => {
    const created = await fetch(`${api}/fights`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ system: 'narateer', combatants: [] }),
    });
    const { fightId } = (await created.json()) as { fightId: string };
    const tab = await browser.context.newPage();
    await tab.goto(origin);
    await tab.evaluate(
      ({ url }) => {
        const w = globalThis as unknown as { got: Array<{ seq: number; type: string }>; es: EventSource };
        w.got = [];
        w.es = new EventSource(url);
        w.es.onmessage = (m) => w.got.push(JSON.parse(m.data));
      },
      { url: `${api}/fights/${fightId}/stream?messages=unnamed&token=${encodeURIComponent(apiKey)}` },
    );
    await tab.waitForFunction(() => (globalThis as unknown as { got: unknown[] }).got.length >= 1);
    await fetch(`${api}/fights/${fightId}/commands`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'AddNote', text: 'live' }),
    });
    await tab.waitForFunction(() =>
      (globalThis as unknown as { got: Array<{ type: string }> }).got.some((e) => e.type === 'GmNoteAdded'),
    );
    const got = await tab.evaluate(() =>
      (globalThis as unknown as { got: Array<{ seq: number; type: string }> }).got.map((e) => [
        e.seq,
        e.type,
      ]),
    );
    expect(got).toEqual([
      [1, 'FightStarted'],
      [2, 'GmNoteAdded'],
    ]);
    await tab.evaluate(() => (globalThis as unknown as { es: EventSource }).es.close());
    await tab.close();
  });

  it('a plain EventSource gets FightEnded, then stops reconnecting: the stream ends and the resumed one is 204', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { fightId } = (await (await post('/fights', { system: 'narateer', combatants: [] })).json()) as {
      fightId: string;
    };
    const tab = await browser.context.newPage();
    await tab.goto(origin);
    await tab.evaluate(
      ({ url }) => {
        const w = globalThis as unknown as { got: string[]; opens: number; es: EventSource };
        w.got = [];
        w.opens = 0;
        w.es = new EventSource(url);
        w.es.onopen = () => w.opens++;
        w.es.onmessage = (m) => w.got.push(`${m.lastEventId} ${JSON.parse(m.data).type}`);
      },
      { url: `${api}/fights/${fightId}/stream?messages=unnamed&token=${encodeURIComponent(apiKey)}` },
    );
    await tab.waitForFunction(() => (globalThis as unknown as { got: unknown[] }).got.length >= 1);
    await post(`/fights/${fightId}/commands`, { type: 'EndFight' });
    // The stream ends after FightEnded; EventSource comes back (retry: 2000) with Last-Event-ID 2, gets 204, and closes.
    await tab.waitForFunction(
      () => (globalThis as unknown as { es: EventSource }).es.readyState === 2,
      undefined,
      {
        timeout: 15_000,
      },
    );
    const seen = await tab.evaluate(() => {
      const w = globalThis as unknown as { got: string[]; opens: number };
      return { got: w.got, opens: w.opens };
    });
    expect(seen).toEqual({ got: ['1 FightStarted', '2 FightEnded'], opens: 1 });
    await tab.close();
  });
});
