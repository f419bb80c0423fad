import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { SqlDriver, SqlExec } from './driver';
import { WEBHOOK_SCHEMA } from './schema';

/** `$n` → `?`, and the order in which the parameters appear (computed once per SQL text). */
function positional(sql: string): { text: string; order: number[] } {
  const order: number[] = [];
  return { text: sql.replace(/\$(\d+)/g, (_, n: string) => (order.push(Number(n) - 1), '?')), order };
}

/** How long a write waits for another connection's write lock before it fails (SQLite's own default). */
export const SQLITE_LOCK_WAIT_MS = 5000;

/** SQLITE_BUSY and its extended codes; by its code alone (an error of another realm, as under a test runner, is no `Error` here). */
const busy = (e: unknown): boolean =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as { code?: unknown }).code === 'string' &&
  (e as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * Runs `attempt` until it does not meet another connection's lock, waiting between tries without holding
 * the thread (1, 2, 4, then 8 ms), up to SQLITE_LOCK_WAIT_MS. SQLite's own busy handler sleeps in the
 * calling thread: on the service's main thread, a write that met the outbox worker's transaction held
 * every request up to 22 ms (docs/webhooks.md "The outbox's thread").
 */
function unlocked<T>(attempt: () => T): T | Promise<T> {
  // The usual case, the lock free: no promise of its own.
  try {
    return attempt();
  } catch (e) {
    if (!busy(e)) throw e;
  }
  return (async () => {
    const deadline = performance.now() + SQLITE_LOCK_WAIT_MS;
    for (let wait = 1; ; wait = Math.min(wait * 2, 8)) {
      await sleep(wait);
      try {
        return attempt();
      } catch (e) {
        if (!busy(e) || performance.now() >= deadline) throw e;
      }
    }
  })();
}

/**
 * SQLite (a file in DATA_DIR, or `:memory:` for the memory engine). One connection: every
 * statement and transaction runs under one queue, so an async transaction is never interleaved.
 * Another connection may write the same file (the outbox on the projections' worker thread): a
 * statement or transaction that meets its lock waits for it without blocking the thread (`unlocked`).
 */
export class SqliteDriver implements SqlDriver {
  readonly lockClause = '';
  private readonly db: Database.Database;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    readonly engine: 'sqlite' | 'memory' = 'sqlite',
  ) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file, { timeout: SQLITE_LOCK_WAIT_MS });
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // IMMEDIATE: the write lock from the start, waited for. A deferred transaction reads the schema first
    // and then writes (the heads' mark): another connection's commit in between made the upgrade fail at
    // once with SQLITE_BUSY, the busy wait never tried (the outbox worker's open then gave up its thread).
    this.db
      .transaction(() => {
        for (const statement of WEBHOOK_SCHEMA) this.migrate(statement);
      })
      .immediate();
    // Opened and migrated (waiting in the thread is fine there); from now on no wait inside SQLite: a
    // locked write fails at once and `unlocked` tries it again without holding the thread.
    this.db.pragma('busy_timeout = 0');
  }

  /** SQLite has no `ADD COLUMN IF NOT EXISTS`: the column is added when the table lacks it. */
  private migrate(statement: string): void {
    const add = /^ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+) /.exec(statement);
    if (!add) return void this.db.exec(statement);
    const columns = this.db.pragma(`table_info(${add[1]})`) as Array<{ name: string }>;
    if (!columns.some((c) => c.name === add[2])) this.db.exec(statement.replace(' IF NOT EXISTS', ''));
  }

  private readonly prepared = new Map<string, { statement: Database.Statement; order: number[] }>();

  /** Each SQL text is rewritten and prepared once: preparing per call showed in profiles. */
  private statement(sql: string, params: unknown[]): [Database.Statement, unknown[]] {
    let entry = this.prepared.get(sql);
    if (!entry) {
      if (this.prepared.size > 500) this.prepared.clear();
      const { text, order } = positional(sql);
      this.prepared.set(sql, (entry = { statement: this.db.prepare(text), order }));
    }
    return [entry.statement, entry.order.map((i) => params[i])];
  }

  /** Inside a transaction, which holds the write lock: nothing to wait for. */
  private readonly exec: SqlExec = {
    query: async <T>(sql: string, params: unknown[] = []) => {
      const [statement, args] = this.statement(sql, params);
      return statement.all(...args) as T[];
    },
    run: async (sql, params = []) => {
      const [statement, args] = this.statement(sql, params);
      return statement.run(...args).changes;
    },
  };

  private serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.serial(() =>
      unlocked(() => {
        const [statement, args] = this.statement(sql, params);
        return statement.all(...args) as T[];
      }),
    );
  }

  run(sql: string, params: unknown[] = []): Promise<number> {
    return this.serial(() =>
      unlocked(() => {
        const [statement, args] = this.statement(sql, params);
        return statement.run(...args).changes;
      }),
    );
  }

  tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      await unlocked(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await fn(this.exec);
        this.db.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  async close(): Promise<void> {
    await this.serial(async () => this.db.close());
  }
}
