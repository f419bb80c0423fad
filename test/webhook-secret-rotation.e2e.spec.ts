import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { removeDir, startApp, TestApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';

useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '40' });

/** A receiver on 127.0.0.1 that answers 204 and keeps every request. */
async function receiver() {
  const requests: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * docs/webhooks.md "What a receiver gets": every secret that signs adds its signature, space-separated; a
 * rotation's old secret keeps signing for that rotation's overlap, whatever rotations come after it.
 */
onEveryEngine(
  (engine, opts, cleanup) =>
    describe(`webhook secret rotation (${engine})`, () => {
      let t: TestApp;
      let hook: Awaited<ReturnType<typeof receiver>>;
      beforeAll(async () => {
        hook = await receiver();
        t = await startApp(opts);
      });
      afterAll(async () => {
        await t.close();
        await hook.close();
        removeDir(t.dataDir);
        await cleanup?.();
      });

      const create = async () => {
        const res = await t.http.post('/webhooks/endpoints').send({ url: hook.url }).expect(201);
        return { id: res.body.endpoint.id as string, secret: res.body.secret as string };
      };
      const rotate = async (id: string, overlapSeconds: number) =>
        (await t.http.post(`/webhooks/endpoints/${id}/rotate-secret`).send({ overlapSeconds }).expect(200))
          .body as { endpoint: { previousSecretExpiresAt: string | null }; secret: string };
      /** A ping's request as the receiver got it: which of `secrets` verify it, and how many signatures it has. */
      const pinged = async (id: string, secrets: string[]) => {
        const ping = await t.http.post(`/webhooks/endpoints/${id}/ping`).expect(200);
        const got = hook.requests.find((r) => r.headers['webhook-id'] === ping.body.delivery.id)!;
        const verifies = (s: string) => {
          try {
            new Webhook(s).verify(got.body, got.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        };
        return {
          verified: secrets.map(verifies),
          signatures: String(got.headers['webhook-signature']).split(' ').length,
        };
      };

      it('given a rotation with a 600 s overlap, when the secret is rotated again, then the next delivery is signed by all three secrets', async () => {
        const { id, secret: s0 } = await create();
        const first = await rotate(id, 600);
        const second = await rotate(id, 60);
        expect(await pinged(id, [s0, first.secret, second.secret])).toEqual({
          verified: [true, true, true],
          signatures: 3,
        });
        // The last overlap to end is the first rotation's.
        const endsAt = Date.parse(second.endpoint.previousSecretExpiresAt!);
        expect(endsAt - Date.now()).toBeGreaterThan(500_000);
        expect(endsAt - Date.now()).toBeLessThanOrEqual(600_000);
      });

      it('given a rotation with a 600 s overlap, when the next rotation has none, then the first secret still signs and the replaced one does not', async () => {
        const { id, secret: s0 } = await create();
        const first = await rotate(id, 600);
        const second = await rotate(id, 0);
        expect(await pinged(id, [s0, first.secret, second.secret])).toEqual({
          verified: [true, false, true],
          signatures: 2,
        });
      });

      it('given three rotations at once, then each answers 200 and every secret they returned, and the first, signs the next delivery', async () => {
        const { id, secret: s0 } = await create();
        const rotated = await Promise.all([rotate(id, 600), rotate(id, 600), rotate(id, 600)]);
        expect(new Set(rotated.map((r) => r.secret)).size).toBe(3);
        expect(await pinged(id, [s0, ...rotated.map((r) => r.secret)])).toEqual({
          verified: [true, true, true, true],
          signatures: 4,
        });
      });

      it('given nine previous secrets signing, when another rotation would keep a tenth, then 409 WEBHOOK_SECRET_LIMIT; a rotation without overlap still works', async () => {
        const { id } = await create();
        for (let i = 0; i < 9; i++) await rotate(id, 600);
        const refused = await t.http
          .post(`/webhooks/endpoints/${id}/rotate-secret`)
          .send({ overlapSeconds: 600 })
          .expect(409);
        expect(refused.body).toMatchObject({ code: 'WEBHOOK_SECRET_LIMIT', field: 'overlapSeconds' });
        const last = await rotate(id, 0);
        expect((await pinged(id, [last.secret])).signatures).toBe(10);
      });
    }),
  { prefix: 'whrot', what: 'webhook secret rotation', title: 'webhook secret rotation' },
);
