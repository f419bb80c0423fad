import { createServer as createHttpServer, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { removeDir, sheet, startApp, TestApp, useApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';

/**
 * Webhook receivers that misbehave (a 101 answer, a NUL in the body) and endpoint URLs of odd shapes: each
 * attempt ends and is recorded on every engine, and what can never be delivered is refused when it is set.
 */
useEnv({
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '40',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,60000',
});

/**
 * A receiver that reads the request's head and answers these raw bytes (an HTTP server could not send them),
 * then, with `close`, ends the connection.
 */
async function rawReceiver(answer: string, close = false) {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: TcpServer = createTcpServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    let head = '';
    s.on('data', (c: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += c.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      requests++;
      if (close) s.end(answer);
      else s.write(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}

/** A receiver that answers every request 200 with this body, and counts each webhook-id it gets. */
async function httpReceiver(body: string | Buffer) {
  const ids: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timed out'> =>
  Promise.race([p, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms).unref())]);

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a receiver that answers 101 Switching Protocols', () => {
  let t: TestApp;
  let switching: Awaited<ReturnType<typeof rawReceiver>>;
  let fine: Awaited<ReturnType<typeof httpReceiver>>;
  let closed = false;
  beforeAll(async () => {
    switching = await rawReceiver(
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n',
    );
    fine = await httpReceiver('ok');
    t = await startApp();
  });
  afterAll(async () => {
    // Before the fix a clean stop waited for ever on the attempts that never ended.
    if (!closed) await within(t.close(), 10000);
    await switching.close();
    await fine.close();
    removeDir(t.dataDir);
  });

  it('given a ping, then its attempt is recorded as failed with the 101, and the ping answers', async () => {
    const ep = await t.http.post('/webhooks/endpoints').send({ url: switching.url }).expect(201);
    const ping = await t.http.post(`/webhooks/endpoints/${ep.body.endpoint.id}/ping`).expect(200);
    expect(ping.body.attempts).toEqual([
      expect.objectContaining({ status: 101, error: expect.stringContaining('switched protocols') }),
    ]);
    expect(ping.body.delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 101 });
  });

  it("given more such deliveries than the dispatcher sends at once, then another tenant's endpoint still gets its deliveries, and a clean stop ends", async () => {
    const ep = await t.http.post('/webhooks/endpoints').send({ url: switching.url }).expect(201);
    // Each ping is a head of its own: 20 attempts in flight at once, more than the dispatcher's 16 slots.
    const pings = await Promise.all(
      Array.from({ length: 20 }, () => t.http.post(`/webhooks/endpoints/${ep.body.endpoint.id}/ping`)),
    );
    expect(pings.map((p) => p.body.attempts.length)).toEqual(Array(20).fill(1));

    const other = await t.tenant('Another table');
    const auth = { authorization: `Bearer ${other.apiKey}` };
    const theirs = await t.anon.post('/webhooks/endpoints').set(auth).send({ url: fine.url }).expect(201);
    const ping = await t.anon
      .post(`/webhooks/endpoints/${theirs.body.endpoint.id}/ping`)
      .set(auth)
      .expect(200);
    expect(ping.body.delivery).toMatchObject({ status: 'delivered', lastStatus: 200 });
    expect(fine.ids).toEqual([ping.body.delivery.id]);

    closed = true;
    // A bound on a hang: before the fix the stop waited on attempts that never ended.
    expect(await within(t.close(), 7000)).not.toBe('timed out');
  });
});

describe('a receiver that answers 200 and never finishes its body', () => {
  let t: TestApp;
  let cut: Awaited<ReturnType<typeof rawReceiver>>;
  let endless: Awaited<ReturnType<typeof rawReceiver>>;
  const partial = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\nreceived';
  beforeAll(async () => {
    cut = await rawReceiver(partial, true);
    endless = await rawReceiver(partial);
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
    await cut.close();
    await endless.close();
    removeDir(t.dataDir);
  });

  it.each([
    ['cuts the connection short', () => cut],
    ['keeps the rest for ever (past WEBHOOK_TIMEOUT_MS)', () => endless],
  ])(
    'given a 200 whose body it %s, then the status judges the attempt: delivered once, with what was read',
    async (_, receiver) => {
      const ep = await t.http.post('/webhooks/endpoints').send({ url: receiver().url }).expect(201);
      const ping = await t.http.post(`/webhooks/endpoints/${ep.body.endpoint.id}/ping`).expect(200);
      expect(ping.body.delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200 });
      expect(ping.body.attempts).toEqual([
        expect.objectContaining({ status: 200, responseExcerpt: 'received', error: null }),
      ]);
    },
  );
});

onEveryEngine(
  (engine, opts, cleanup) =>
    describe(`a receiver whose answer holds U+0000 (${engine})`, () => {
      let t: TestApp;
      let nul: Awaited<ReturnType<typeof httpReceiver>>;
      beforeAll(async () => {
        nul = await httpReceiver(Buffer.from('ok\u0000then more', 'utf8'));
        t = await startApp(opts);
      });
      afterAll(async () => {
        await within(t.close(), 10000);
        await nul.close();
        removeDir(t.dataDir);
        await cleanup?.();
      });

      it('given a 200 with a NUL in its body, then the delivery is recorded delivered, once, with the NUL shown as U+FFFD', async () => {
        const ep = await t.http.post('/webhooks/endpoints').send({ url: nul.url }).expect(201);
        const id = ep.body.endpoint.id as string;
        const ping = await t.http.post(`/webhooks/endpoints/${id}/ping`).expect(200);
        // Before the fix PostgreSQL refused the excerpt: no attempt was ever recorded, and the delivery was sent
        // again each time its lease ran out.
        expect(ping.body.delivery).toMatchObject({ status: 'delivered', attempts: 1 });
        expect(ping.body.attempts).toEqual([
          expect.objectContaining({ status: 200, responseExcerpt: 'ok\uFFFDthen more' }),
        ]);

        const fight = await t.http
          .post('/fights')
          .send({
            system: 'narateer',
            name: 'NUL receiver',
            dice: { mode: 'manual' },
            combatants: [
              {
                name: 'Mira',
                sheet: sheet(),
              },
            ],
          })
          .expect(201);
        const seq = fight.body.seq as number;
        await until(async () => {
          const list = await t.http.get(`/webhooks/endpoints/${id}/deliveries?status=delivered`).expect(200);
          return list.body.length === seq + 1;
        });
        // Each webhook-id once: nothing was sent again.
        expect(new Set(nul.ids).size).toBe(nul.ids.length);
        expect(nul.ids).toHaveLength(seq + 1);
      });
    }),
  {
    prefix: 'hook_nul',
    what: 'NUL in a webhook answer',
    title: 'a receiver whose answer holds U+0000',
  },
);

describe("an endpoint URL's port and fragment", () => {
  const t = useApp();

  it.each([
    ['port 0', 'http://127.0.0.1:0/hook', 'port'],
    ['a fragment', 'http://127.0.0.1:9/hook#overlay', 'fragment'],
    ['an empty fragment', 'http://127.0.0.1:9/hook#', 'fragment'],
  ])('given %s, then create and update answer 422 INVALID_FIELD naming url', async (_, url, word) => {
    const created = await t.http.post('/webhooks/endpoints').send({ url }).expect(422);
    expect(created.body).toMatchObject({ code: 'INVALID_FIELD', field: 'url' });
    expect(created.body.message).toContain(word);
    const ep = await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201);
    const patched = await t.http
      .patch(`/webhooks/endpoints/${ep.body.endpoint.id}`)
      .send({ url })
      .expect(422);
    expect(patched.body).toMatchObject({ code: 'INVALID_FIELD', field: 'url' });
    const gql = await t.gql(
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
      { input: { url } },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_FIELD', field: 'url' });
  });

  it('given port 65535 or a query, then they are taken as sent', async () => {
    for (const url of ['http://127.0.0.1:65535/hook', 'http://127.0.0.1:9/hook?stream=main']) {
      const ep = await t.http.post('/webhooks/endpoints').send({ url }).expect(201);
      expect(ep.body.endpoint.url).toBe(url);
    }
  });
});
