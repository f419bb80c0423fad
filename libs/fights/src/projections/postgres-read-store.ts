import { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { inTransaction, retryOnConnectionLoss, withClient } from '@app/event-store';
import { FightFilter, FightQuery, FightRow, ProjectionName, ReadStore, ReadTx } from './read-store';
import { ReadWrites } from './read-writes';

const schemaSql = (s: string) => `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.projection_checkpoints (name text PRIMARY KEY, checkpoint text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS ${s}.fight_views (fight_id text PRIMARY KEY, tenant_id text NOT NULL, system text NOT NULL, name text NOT NULL, status text NOT NULL, seq integer NOT NULL, head_hash text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL, view json NOT NULL);
DROP INDEX IF EXISTS ${s}.fight_views_list;
CREATE INDEX IF NOT EXISTS fight_views_keyset ON ${s}.fight_views (created_at COLLATE "C" DESC, fight_id COLLATE "C" DESC);
CREATE INDEX IF NOT EXISTS fight_views_tenant_keyset ON ${s}.fight_views (tenant_id, created_at COLLATE "C" DESC, fight_id COLLATE "C" DESC);
`;

/**
 * The JSON columns are json, which keeps the text as written: members come back in the order the view
 * gave them, as on the other engines (jsonb sorts them). An earlier version created them jsonb; those
 * are converted at start (`toJson`), old rows keeping jsonb's order until rewritten.
 */
const JSON_COLUMNS = `(('fight_views', 'view'))`;

/** The read models' JSON columns still of type jsonb in schema $1. */
const jsonbColumnsSql = `
SELECT c.relname::text AS "table", a.attname::text AS "column" FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND (c.relname::text, a.attname::text) IN ${JSON_COLUMNS}
  AND a.atttypid = 'jsonb'::regtype AND NOT a.attisdropped`;

/** Converts an earlier version's jsonb columns to json; under the schema lock, so once. */
async function toJson(c: PoolClient, schema: string): Promise<void> {
  const { rows } = await c.query<{ table: string; column: string }>(jsonbColumnsSql, [schema]);
  for (const { table, column } of rows)
    await c.query(`ALTER TABLE ${schema}.${table} ALTER COLUMN ${column} TYPE json USING ${column}::json`);
}

interface FightPgRow {
  fight_id: string;
  tenant_id: string;
  system: string;
  name: string;
  status: string;
  seq: number;
  head_hash: string;
  created_at: string;
  updated_at: string;
  view: Record<string, unknown>;
}

const jsonArray = (texts: string[]): string => `[${texts.join(',')}]`;

const toFight = (r: FightPgRow): FightRow => ({
  fightId: r.fight_id,
  tenantId: r.tenant_id,
  system: r.system,
  name: r.name,
  status: r.status,
  seq: r.seq,
  headHash: r.head_hash,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  view: r.view,
});

function fightFilter(q: FightFilter): { where: string[]; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.tenantId !== undefined) where.push(`tenant_id = $${args.push(q.tenantId)}`);
  if (q.system) where.push(`system = $${args.push(q.system)}`);
  if (q.status) where.push(`status = $${args.push(q.status)}`);
  return { where, args };
}

/** How many fights match (exported for the plan test): a tenant's are counted on its keyset index. */
export function countFightsPgSql(schema: string, q: FightFilter): { sql: string; args: unknown[] } {
  const { where, args } = fightFilter(q);
  return {
    sql: `SELECT count(*) AS n FROM ${schema}.fight_views ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
    args,
  };
}

/**
 * A page of fights (exported for the plan test). Sorted and compared in the "C" collation (bytes), as
 * SQLite and the memory store compare: the same fights in the same order on every engine, whatever
 * the database's own collation; the keyset indexes are in that collation too, so a page reads only
 * its own rows.
 */
export function listFightsPgSql(schema: string, q: FightQuery): { sql: string; args: unknown[] } {
  const { where, args } = fightFilter(q);
  if (q.after)
    where.push(
      `(created_at COLLATE "C", fight_id COLLATE "C") < ($${args.push(q.after.createdAt)}, $${args.push(q.after.fightId)})`,
    );
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = `LIMIT $${args.push(q.limit)}`;
  const offset = q.after ? '' : ` OFFSET $${args.push(q.offset ?? 0)}`;
  return {
    sql: `SELECT * FROM ${schema}.fight_views ${clause} ORDER BY created_at COLLATE "C" DESC, fight_id COLLATE "C" DESC ${limit}${offset}`,
    args,
  };
}

/** Read models in PostgreSQL; several instances may run projections: the checkpoint row is the lock. */
export class PostgresReadStore implements ReadStore {
  readonly engine = 'postgres';
  private readonly pool: Pool;
  private ready?: Promise<void>;

  constructor(
    connectionString: string,
    private readonly schema = 'public',
  ) {
    if (!/^[a-z_][a-z0-9_]{0,29}$/.test(schema)) throw new Error(`invalid read-store schema name ${schema}`);
    // An application_name in the url wins over this one (node-postgres), so an operator can tell instances apart.
    this.pool = new Pool({ connectionString, max: 4, application_name: 'read-store' });
    // Idle clients whose connection the server ended; the pool drops them and opens new ones.
    this.pool.on('error', (error) => console.warn(`read store (postgres): ${error.message}`));
  }

  /** A start that failed (the database was unreachable) is tried again by the next call. */
  private start(): Promise<void> {
    this.ready ??= withClient(this.pool, async (c, broken) => {
      try {
        await c.query(`SELECT pg_advisory_lock(hashtext('read-store schema'))`);
        await c.query(schemaSql(this.schema));
        await toJson(c, this.schema);
      } finally {
        // A session that may still hold the lock is not handed to anyone else.
        await c.query(`SELECT pg_advisory_unlock(hashtext('read-store schema'))`).catch(broken);
      }
    }).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /** Reads only: a lost connection is retried on a fresh one. */
  private read<R extends QueryResultRow = Record<string, unknown>>(
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    return retryOnConnectionLoss(() => this.pool.query<R>(text, values));
  }

  async checkpoint(projection: ProjectionName) {
    await this.start();
    const r = await this.read(`SELECT checkpoint FROM ${this.t('projection_checkpoints')} WHERE name = $1`, [
      projection,
    ]);
    return r.rows[0]?.checkpoint as string | undefined;
  }

  /**
   * `fn` runs before the transaction opens: an open transaction holds back every reader of an
   * event log in the same database (docs/event-store.md), so it only writes, a few statements
   * whatever the number of rows.
   */
  async apply(
    projections: readonly ProjectionName[],
    expected: string | undefined,
    next: string,
    fn: (tx: ReadTx) => void | Promise<void>,
  ): Promise<boolean> {
    await this.start();
    const writes = new ReadWrites();
    await fn(writes.tx());
    const names = [...projections];
    return withClient(this.pool, async (c, broken) => {
      try {
        await c.query('BEGIN');
        await c.query(
          `INSERT INTO ${this.t('projection_checkpoints')} (name, checkpoint) SELECT unnest($1::text[]), '' ON CONFLICT DO NOTHING`,
          [names],
        );
        // Locked in name order, so two runners never wait on each other crosswise.
        const current = (
          await c.query<{ checkpoint: string }>(
            `SELECT checkpoint FROM ${this.t('projection_checkpoints')} WHERE name = ANY($1) ORDER BY name FOR UPDATE`,
            [names],
          )
        ).rows;
        if (current.some((r) => (r.checkpoint || undefined) !== expected)) {
          await c.query('ROLLBACK');
          return false;
        }
        await this.write(c, writes);
        await c.query(
          `UPDATE ${this.t('projection_checkpoints')} SET checkpoint = $2, updated_at = now() WHERE name = ANY($1)`,
          [names, next],
        );
        await c.query('COMMIT');
        return true;
      } catch (e) {
        await c.query('ROLLBACK').catch(broken);
        throw e;
      }
    });
  }

  /** One statement; the views travel as one JSON array, parsed once. */
  private async write(c: PoolClient, writes: ReadWrites): Promise<void> {
    const fights = [...writes.fights.values()];
    if (fights.length > 0) {
      await c.query(
        `INSERT INTO ${this.t('fight_views')} (fight_id, tenant_id, system, name, status, seq, head_hash, created_at, updated_at, view)
         SELECT * FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]),
           unnest($6::int[]), unnest($7::text[]), unnest($8::text[]), unnest($9::text[]), json_array_elements($10::json))
         ON CONFLICT (fight_id) DO UPDATE SET name = excluded.name, status = excluded.status, seq = excluded.seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at, view = excluded.view`,
        [
          fights.map((f) => f.row.fightId),
          fights.map((f) => f.row.tenantId),
          fights.map((f) => f.row.system),
          fights.map((f) => f.row.name),
          fights.map((f) => f.row.status),
          fights.map((f) => f.row.seq),
          fights.map((f) => f.row.headHash),
          fights.map((f) => f.row.createdAt),
          fights.map((f) => f.row.updatedAt),
          jsonArray(fights.map((f) => f.view)),
        ],
      );
    }
  }

  async reset(projection: ProjectionName) {
    await this.start();
    await inTransaction(this.pool, async (c) => {
      await c.query(`DELETE FROM ${this.t('projection_checkpoints')} WHERE name = $1`, [projection]);
      await c.query(`DELETE FROM ${this.t('fight_views')}`);
    });
  }

  async getFight(fightId: string) {
    await this.start();
    const r = await this.read<FightPgRow>(`SELECT * FROM ${this.t('fight_views')} WHERE fight_id = $1`, [
      fightId,
    ]);
    return r.rows[0] ? toFight(r.rows[0]) : undefined;
  }

  async listFights(q: FightQuery) {
    await this.start();
    const { sql, args } = listFightsPgSql(this.schema, q);
    return (await this.read<FightPgRow>(sql, args)).rows.map(toFight);
  }

  async countFights(q: FightFilter) {
    await this.start();
    const { sql, args } = countFightsPgSql(this.schema, q);
    return Number((await this.read<{ n: string }>(sql, args)).rows[0].n);
  }

  async close() {
    await this.pool.end();
  }
}
