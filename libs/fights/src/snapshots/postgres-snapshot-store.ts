import { Pool } from 'pg';
import { retryOnConnectionLoss } from '@app/event-store';
import { SnapshotStore, StoredPart, StoredSnapshot } from './snapshot-store';

/** Lowercase identifiers, as the event store takes them. */
const IDENT = /^[a-z_][a-z0-9_]{0,29}$/;

/**
 * Snapshots in a table beside the events (the event store's schema), their command index parts in another,
 * on a small pool of their own: one
 * statement at a time, never inside a transaction, so they never hold the log's readers back for long
 * (docs/event-store.md "PostgreSQL: never skip a late commit").
 */
export class PostgresSnapshotStore implements SnapshotStore {
  private readonly pool: Pool;
  private readonly table: string;
  private readonly parts: string;
  private ready: Promise<void> | undefined;

  constructor(
    connectionString: string,
    private readonly schema = 'public',
  ) {
    if (!IDENT.test(schema)) throw new RangeError(`invalid PostgreSQL identifier "${schema}"`);
    this.table = `"${schema}".fight_snapshots`;
    this.parts = `"${schema}".fight_snapshot_parts`;
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
      await this.pool.query(
        `CREATE TABLE IF NOT EXISTS ${this.parts} (fight_id text NOT NULL, from_seq integer NOT NULL,
           to_seq integer NOT NULL, entries text NOT NULL, PRIMARY KEY (fight_id, from_seq))`,
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
      this.pool.query<{ version: string; seq: number; payload: string; parts: StoredPart[] }>(
        `SELECT s.version, s.seq, s.payload, coalesce((
           SELECT json_agg(json_build_object('fromSeq', p.from_seq, 'toSeq', p.to_seq, 'entries', p.entries)
                           ORDER BY p.from_seq)
           FROM ${this.parts} p WHERE p.fight_id = s.fight_id AND p.from_seq < s.seq), '[]') AS parts
         FROM ${this.table} s WHERE s.fight_id = $1`,
        [fightId],
      ),
    );
    const row = rows[0];
    return row && { fightId, version: row.version, seq: row.seq, payload: row.payload, parts: row.parts };
  }

  async save(s: StoredSnapshot): Promise<void> {
    await this.start();
    // One statement: the parts are kept first (a snapshot row is never seen without the parts it needs).
    await this.pool.query(
      `WITH kept AS (
         INSERT INTO ${this.parts} AS p (fight_id, from_seq, to_seq, entries)
         SELECT $1, f, t, e FROM unnest($5::integer[], $6::integer[], $7::text[]) AS u(f, t, e)
         ON CONFLICT (fight_id, from_seq) DO UPDATE SET to_seq = excluded.to_seq, entries = excluded.entries
         WHERE p.to_seq < excluded.to_seq)
       INSERT INTO ${this.table} AS t (fight_id, version, seq, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (fight_id) DO UPDATE SET version = excluded.version, seq = excluded.seq,
         payload = excluded.payload, saved_at = now()
       WHERE t.version <> excluded.version OR t.seq < excluded.seq`,
      [
        s.fightId,
        s.version,
        s.seq,
        s.payload,
        s.parts.map((p) => p.fromSeq),
        s.parts.map((p) => p.toSeq),
        s.parts.map((p) => p.entries),
      ],
    );
  }

  async close(): Promise<void> {
    await this.ready?.catch(() => undefined);
    await this.pool.end();
  }
}
