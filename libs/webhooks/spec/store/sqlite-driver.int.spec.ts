import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
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
      try {
        // A turn of the event loop later the write still waits: it met the lock and did not hold the thread
        // (SQLite's own wait would have held it until it gave up, and the write would have failed by now).
        await new Promise((r) => setImmediate(r));
        await new Promise((r) => setTimeout(r, 5));
        expect(settled).toBe(false);
      } finally {
        // The holder can finish only because the thread is free; the write goes in after it.
        release();
      }
      await holder;
      await waiting;
      const rows = await b.query<{ name: string }>(
        `SELECT name FROM webhook_checkpoint WHERE name IN ('a', 'b') ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['a', 'b']);
    },
  );
});

/**
 * The outbox's worker opens its own connection while the service's thread writes: the open (its schema
 * and the heads' mark, a write after reads) waits for the other's lock instead of failing with
 * SQLITE_BUSY, which moved the outbox off its worker for the rest of the process's life.
 */
describe('SqliteDriver, opened while another thread writes the file', () => {
  let dir: string;
  let writer: Worker | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-open-'));
  });
  afterEach(async () => {
    await writer?.terminate();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a thread committing all the while, then every open succeeds', async () => {
    const file = join(dir, 'webhooks.sqlite');
    await new SqliteDriver(file).close();
    writer = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData, { timeout: 5000 });
       const upsert = db.prepare("INSERT INTO webhook_checkpoint (name, checkpoint) VALUES (?, 'x') " +
         "ON CONFLICT (name) DO UPDATE SET checkpoint = excluded.checkpoint");
       let i = 0;
       const loop = () => { for (let k = 0; k < 50; k++) upsert.run('n' + (i++ % 10)); setImmediate(loop); };
       loop();
       parentPort.postMessage('writing');`,
      { eval: true, workerData: file },
    );
    await new Promise((resolve) => writer!.once('message', resolve));
    const failures: string[] = [];
    for (let i = 0; i < 300; i++) {
      try {
        await new SqliteDriver(file).close();
      } catch (e) {
        failures.push((e as { code?: string }).code ?? String(e));
      }
    }
    expect(failures).toEqual([]);
  });
});
