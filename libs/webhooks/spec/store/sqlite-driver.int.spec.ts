import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDriver } from '../../src/store/sqlite-driver';

/**
 * Two connections to one webhook store (the service's thread and the outbox's worker): a write that meets
 * the other's lock waits for it without holding the thread, then goes in.
 */
describe('SqliteDriver, two connections to one file', () => {
  let dir: string;
  let a: SqliteDriver;
  let b: SqliteDriver;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
    a = new SqliteDriver(join(dir, 'webhooks.sqlite'));
    b = new SqliteDriver(join(dir, 'webhooks.sqlite'));
  });

  afterEach(async () => {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const checkpoint = (name: string, value: string): [string, unknown[]] => [
    `INSERT INTO webhook_checkpoint (name, checkpoint) VALUES ($1, $2)`,
    [name, value],
  ];

  it.each([
    ['a statement', (d: SqliteDriver) => d.run(...checkpoint('b', '2'))],
    ['a transaction', (d: SqliteDriver) => d.tx((q) => q.run(...checkpoint('b', '2')))],
  ])(
    'given the other connection holds the write lock, then %s waits without blocking the thread, and goes in after',
    async (_, write) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const holder = a.tx(async (q) => {
        await q.run(...checkpoint('a', '1'));
        await held;
      });
      let settled = false;
      const waiting = write(b).finally(() => (settled = true));
      // The thread stays free while it waits: timers run, and the holder can finish.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      await new Promise((r) => setTimeout(r, 50));
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(5);
      expect(settled).toBe(false);
      release();
      await holder;
      await waiting;
      const rows = await b.query<{ name: string }>(
        `SELECT name FROM webhook_checkpoint WHERE name IN ('a', 'b') ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['a', 'b']);
    },
  );
});
