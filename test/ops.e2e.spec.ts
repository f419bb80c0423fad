import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { removeDir, sheet, useApp } from './support/app';
import { kill, startServer, tenantKey } from './support/server';

describe('operations: health and metrics', () => {
  const t = useApp();

  it('/health/live and /health/ready answer without a key; ready checks the store and the projections', async () => {
    expect((await t.anon.get('/health/live').expect(200)).body).toMatchObject({ status: 'ok' });
    const ready = await t.anon.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { eventStore: { status: 'up', engine: 'sqlite' }, projections: { status: 'up', 'fight-views': expect.any(Number) } } });
  });

  it('/metrics reports command latency by system and type, events appended and open subscriptions', async () => {
    const { body } = await t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'manual' }, combatants: [{ id: 'a', name: 'A', sheet: sheet() }] }).expect(201);
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'AddNote', text: 'measured' }).expect(200);
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'StartRound' }).expect(422);
    const text = (await t.anon.get('/metrics').expect(200)).text;
    expect(text).toMatch(/crs_command_duration_seconds_count\{system="narateer",type="AddNote",outcome="ok"\} 1/);
    expect(text).toMatch(/crs_command_duration_seconds_count\{system="narateer",type="StartRound",outcome="rejected"\} 1/);
    expect(text).toMatch(/crs_events_appended_total\{system="narateer"\} 1/);
    expect(text).toMatch(/crs_open_subscriptions 0/);
    expect(text).toMatch(/crs_projection_lag_events\{projection="fight-views"\} \d+/);
    expect(text).toMatch(/crs_webhook_deliveries\{status="pending"\} 0/);
    expect(text).toMatch(/crs_webhook_failed_attempts 0/);
    expect(text).toMatch(/crs_webhook_deliveries_pruned_total 0/);
  });
});

describe('structured logs', () => {
  it('log lines are JSON with a request id that reaches the events’ metadata; keys and tokens never appear', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crs-log-'));
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let out = '';
    server.proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const key = await tenantKey(server.url);
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-request-id': 'req-42' };
      const created = await fetch(`${server.url}/fights`, { method: 'POST', headers, body: JSON.stringify({ system: 'narateer', combatants: [] }) });
      expect(created.headers.get('x-request-id')).toBe('req-42');
      const fightId = ((await created.json()) as { fightId: string }).fightId;
      await fetch(`${server.url}/fights/${fightId}?token=${key}`);
      const log = (await (await fetch(`${server.url}/fights/${fightId}/log`, { headers })).json()) as { entries: Array<{ type: string }> };
      expect(log.entries[0].type).toBe('FightStarted');
      await new Promise((r) => setTimeout(r, 300));
      const lines = out.split('\n').filter((l) => l.startsWith('{'));
      expect(lines.length).toBeGreaterThan(2);
      const parsed = lines.map((l) => JSON.parse(l));
      expect(parsed.some((l) => l.req?.id === 'req-42')).toBe(true);
      expect(out).not.toContain(key);
      // The secret is everything after `crs_<id>_`; it may itself contain `_`.
      const secret = key.replace(/^crs_[0-9a-f]{16}_/, '');
      expect(secret).toHaveLength(43);
      expect(out).not.toContain(secret);
    } finally {
      await kill(server.proc, 'SIGTERM');
    }
    const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
    const metadata = (db.prepare("SELECT metadata FROM events WHERE type = 'FightStarted'").get() as { metadata: string }).metadata;
    db.close();
    expect(JSON.parse(metadata)).toMatchObject({ requestId: 'req-42' });
    removeDir(dataDir);
  });
});
