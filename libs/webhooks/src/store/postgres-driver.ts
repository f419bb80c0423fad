import { Pool } from 'pg';
import { SqlDriver, SqlExec } from './driver';
import { WEBHOOK_SCHEMA } from './schema';

/** PostgreSQL, in the event store's schema; several instances share the tables. */
export class PostgresDriver implements SqlDriver {
  readonly engine = 'postgres';
  readonly lockClause = 'FOR UPDATE OF d SKIP LOCKED';
  private readonly pool: Pool;
  private ready?: Promise<void>;

  constructor(
    connectionString: string,
    private readonly schema = 'public',
  ) {
    if (!/^[a-z_][a-z0-9_]{0,29}$/.test(schema)) throw new Error(`invalid webhook-store schema name ${schema}`);
    this.pool = new Pool({ connectionString, max: 4, options: `-c search_path=${schema}` });
    this.pool.on('error', () => undefined);
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      const c = await this.pool.connect();
      try {
        await c.query(`SELECT pg_advisory_lock(hashtext('webhook-store schema'))`);
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
        for (const statement of WEBHOOK_SCHEMA) await c.query(statement);
      } finally {
        await c.query(`SELECT pg_advisory_unlock(hashtext('webhook-store schema'))`).catch(() => undefined);
        c.release();
      }
    })();
    return this.ready;
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    await this.start();
    return (await this.pool.query(sql, params)).rows as T[];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    await this.start();
    return (await this.pool.query(sql, params)).rowCount ?? 0;
  }

  async tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
    await this.start();
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const result = await fn({
        query: async <R>(sql: string, params: unknown[] = []) => (await c.query(sql, params)).rows as R[],
        run: async (sql, params = []) => (await c.query(sql, params)).rowCount ?? 0,
      });
      await c.query('COMMIT');
      return result;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
