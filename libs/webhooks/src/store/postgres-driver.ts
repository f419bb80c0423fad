import { Pool } from 'pg';
import { inTransaction, withClient } from '@app/event-store';
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
    if (!/^[a-z_][a-z0-9_]{0,29}$/.test(schema))
      throw new Error(`invalid webhook-store schema name ${schema}`);
    // An application_name in the url wins over this one (node-postgres), so an operator can tell instances apart.
    this.pool = new Pool({
      connectionString,
      max: 4,
      options: `-c search_path=${schema}`,
      application_name: 'webhook-store',
    });
    // Idle clients whose connection the server ended; the pool drops them and opens new ones.
    this.pool.on('error', (error) => console.warn(`webhook store (postgres): ${error.message}`));
  }

  /** A start that failed (the database was unreachable) is tried again by the next call. */
  private start(): Promise<void> {
    this.ready ??= withClient(this.pool, async (c, broken) => {
      try {
        await c.query(`SELECT pg_advisory_lock(hashtext('webhook-store schema'))`);
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
        for (const statement of WEBHOOK_SCHEMA) await c.query(statement);
      } finally {
        // A session that may still hold the lock is not handed to anyone else.
        await c.query(`SELECT pg_advisory_unlock(hashtext('webhook-store schema'))`).catch(broken);
      }
    }).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
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

  /** On a held client: it has an 'error' listener until released, and one that lost its connection is destroyed. */
  async tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
    await this.start();
    return inTransaction(this.pool, (c) =>
      fn({
        query: async <R>(sql: string, params: unknown[] = []) => (await c.query(sql, params)).rows as R[],
        run: async (sql, params = []) => (await c.query(sql, params)).rowCount ?? 0,
      }),
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
