import { Pool } from 'pg';
import { retryOnConnectionLoss } from '@app/event-store';
import { SnapshotStore, StoredSnapshot } from './snapshot-store';

/** Lowercase identifiers, as the event store takes them. */
const IDENT = /^[a-z_][a-z0-9_]{0,29}$/;

/**
 * Snapshots in a table beside the events (the event store's schema), on a small pool of their own: one
 * statement at a time, never inside a transaction, so they never hold the log's readers back for long
 * (docs/event-store.md "PostgreSQL: never skip a late commit").
 */
export class PostgresSnapshotStore implements SnapshotStore {
  private readonly pool: Pool;
  private readonly table: string;
  private ready: Promise<void> | undefined;

  constructor(
    connectionString: string,
    private readonly schema = 'public',
  ) {
    if (!IDENT.test(schema)) throw new RangeError(`invalid PostgreSQL identifier "${schema}"`);
    this.table = `"${schema}".fight_snapshots`;
    this.pool = new Pool({
      connectionString,
      max: 2,
      application_name: 'fight-snapshots',
      statement_timeout: 5000,
      connectionTimeoutMillis: 5000,
      idle_in_transaction_session_timeout: 5000,
    });
    this.pool.on('error', () => undefined);
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      await this.pool.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await this.pool.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (fight_id text PRIMARY KEY, version text NOT NULL,
           seq integer NOT NULL, payload text NOT NULL, saved_at timestamptz NOT NULL DEFAULT now())`,
      );
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async load(fightId: string): Promise<StoredSnapshot | undefined> {
    await this.start();
    const { rows } = await retryOnConnectionLoss(() =>
      this.pool.query<{ version: string; seq: number; payload: string }>(
        `SELECT version, seq, payload FROM ${this.table} WHERE fight_id = $1`,
        [fightId],
      ),
    );
    return rows[0] && { fightId, version: rows[0].version, seq: rows[0].seq, payload: rows[0].payload };
  }

  async save(s: StoredSnapshot): Promise<void> {
    await this.start();
    await this.pool.query(
      `INSERT INTO ${this.table} AS t (fight_id, version, seq, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (fight_id) DO UPDATE SET version = excluded.version, seq = excluded.seq,
         payload = excluded.payload, saved_at = now()
       WHERE t.version <> excluded.version OR t.seq < excluded.seq`,
      [s.fightId, s.version, s.seq, s.payload],
    );
  }

  async close(): Promise<void> {
    await this.ready?.catch(() => undefined);
    await this.pool.end();
  }
}
