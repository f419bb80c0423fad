import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqlDriver, SqlExec } from './driver';
import { WEBHOOK_SCHEMA } from './schema';

/** `$n` → `?`, and the order in which the parameters appear (computed once per SQL text). */
function positional(sql: string): { text: string; order: number[] } {
  const order: number[] = [];
  return { text: sql.replace(/\$(\d+)/g, (_, n: string) => (order.push(Number(n) - 1), '?')), order };
}

/**
 * SQLite (a file in DATA_DIR, or `:memory:` for the memory engine). One connection: every
 * statement and transaction runs under one queue, so an async transaction is never interleaved.
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
    this.db = new Database(file, { timeout: 5000 });
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.transaction(() => {
      for (const statement of WEBHOOK_SCHEMA) this.migrate(statement);
    })();
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

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.serial(() => this.exec.query<T>(sql, params));
  }

  run(sql: string, params?: unknown[]): Promise<number> {
    return this.serial(() => this.exec.run(sql, params));
  }

  tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      this.db.exec('BEGIN IMMEDIATE');
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
