import { mkdtempSync } from 'node:fs';
import { createServer, IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { removeDir } from './support/app';
import { kill, startServer, tenantKey } from './support/server';

/** Webhooks: killing the service in the middle of retries and starting it again loses no delivery. */
describe('webhooks survive a SIGKILL in the middle of retries', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crs-hook-crash-'));
  afterAll(() => removeDir(dataDir));

  it('a receiver that fails until after the crash gets every event once, signed, in order', async () => {
    let healthy = false;
    const received: Array<{ headers: IncomingHttpHeaders; body: string; ok: boolean }> = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body, ok: healthy });
        res.writeHead(healthy ? 204 : 503).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const env = {
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: Array.from({ length: 30 }, (_, i) => (i === 0 ? 0 : 300)).join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_MS: '200',
    };
    const first = await startServer(env);
    const key = await tenantKey(first.url);
    const call = async (base: string, path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const { secret } = await call(first.url, '/webhooks/endpoints', { url, description: 'crash test' });
    const fight = await call(first.url, '/fights', { system: 'narateer', combatants: [] });
    let last = fight.seq as number;
    for (let i = 0; i < 5; i++)
      last = (await call(first.url, `/fights/${fight.fightId}/commands`, { type: 'AddNote', text: `n${i}` }))
        .seq;
    for (let i = 0; i < 200 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received.length).toBeGreaterThanOrEqual(3);
    await kill(first.proc, 'SIGKILL');
    healthy = true;

    const second = await startServer({ ...env, DATA_DIR: dataDir });
    try {
      const wh = new Webhook(secret);
      const accepted = () => {
        const seen = new Map<string, number>();
        for (const r of received.filter((x) => x.ok)) {
          wh.verify(r.body, r.headers as Record<string, string>);
          const id = String(r.headers['webhook-id']);
          if (!seen.has(id)) seen.set(id, JSON.parse(r.body).data.seq);
        }
        return [...seen.values()];
      };
      for (let i = 0; i < 1200 && accepted().length < last; i++) await new Promise((r) => setTimeout(r, 50));
      expect(accepted()).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    } finally {
      await kill(second.proc, 'SIGTERM');
      await new Promise<void>((r) => hook.close(() => r()));
    }
  }, 120000);
});
