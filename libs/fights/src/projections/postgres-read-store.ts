import { Pool, PoolClient } from 'pg';
import { CombatantRow, FightQuery, FightRow, Fold, ProjectionName, ReadStore, ReadTx } from './read-store';

const schemaSql = (s: string) => `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.projection_checkpoints (name text PRIMARY KEY, checkpoint text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS ${s}.projection_folds (projection text NOT NULL, fight_id text NOT NULL, seq integer NOT NULL, head_hash text NOT NULL, state jsonb NOT NULL, PRIMARY KEY (projection, fight_id));
CREATE TABLE IF NOT EXISTS ${s}.fight_views (fight_id text PRIMARY KEY, tenant_id text NOT NULL, system text NOT NULL, name text NOT NULL, status text NOT NULL, seq integer NOT NULL, head_hash text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL, view jsonb NOT NULL);
CREATE INDEX IF NOT EXISTS fight_views_list ON ${s}.fight_views (created_at DESC, fight_id DESC);
CREATE TABLE IF NOT EXISTS ${s}.combatant_summaries (fight_id text NOT NULL, combatant_id text NOT NULL, position integer NOT NULL, system text NOT NULL, name text NOT NULL, side text NOT NULL, summary jsonb NOT NULL, PRIMARY KEY (fight_id, combatant_id));
`;

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

const toFight = (r: FightPgRow): FightRow => ({ fightId: r.fight_id, tenantId: r.tenant_id, system: r.system, name: r.name, status: r.status, seq: r.seq, headHash: r.head_hash, createdAt: r.created_at, updatedAt: r.updated_at, view: r.view });

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
    this.pool = new Pool({ connectionString, max: 4 });
    this.pool.on('error', () => undefined);
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      const c = await this.pool.connect();
      try {
        await c.query(`SELECT pg_advisory_lock(hashtext('read-store schema'))`);
        await c.query(schemaSql(this.schema));
      } finally {
        await c.query(`SELECT pg_advisory_unlock(hashtext('read-store schema'))`).catch(() => undefined);
        c.release();
      }
    })();
    return this.ready;
  }

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  async checkpoint(projection: ProjectionName) {
    await this.start();
    const r = await this.pool.query(`SELECT checkpoint FROM ${this.t('projection_checkpoints')} WHERE name = $1`, [projection]);
    return r.rows[0]?.checkpoint as string | undefined;
  }

  async apply(projection: ProjectionName, expected: string | undefined, next: string, fn: (tx: ReadTx) => Promise<void>): Promise<boolean> {
    await this.start();
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`INSERT INTO ${this.t('projection_checkpoints')} (name, checkpoint) VALUES ($1, '') ON CONFLICT DO NOTHING`, [projection]);
      const current = (await c.query(`SELECT checkpoint FROM ${this.t('projection_checkpoints')} WHERE name = $1 FOR UPDATE`, [projection])).rows[0].checkpoint as string;
      if ((current || undefined) !== expected) {
        await c.query('ROLLBACK');
        return false;
      }
      await fn(this.tx(c));
      await c.query(`UPDATE ${this.t('projection_checkpoints')} SET checkpoint = $2, updated_at = now() WHERE name = $1`, [projection, next]);
      await c.query('COMMIT');
      return true;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  private tx(c: PoolClient): ReadTx {
    return {
      getFold: async (p, id) => {
        const r = await c.query(`SELECT seq, head_hash, state FROM ${this.t('projection_folds')} WHERE projection = $1 AND fight_id = $2`, [p, id]);
        const row = r.rows[0];
        return row ? ({ seq: row.seq, headHash: row.head_hash, state: row.state } as Fold) : undefined;
      },
      putFold: async (p, id, fold) => {
        await c.query(
          `INSERT INTO ${this.t('projection_folds')} VALUES ($1, $2, $3, $4, $5) ON CONFLICT (projection, fight_id) DO UPDATE SET seq = excluded.seq, head_hash = excluded.head_hash, state = excluded.state`,
          [p, id, fold.seq, fold.headHash, JSON.stringify(fold.state)],
        );
      },
      putFight: async (r) => {
        await c.query(
          `INSERT INTO ${this.t('fight_views')} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (fight_id) DO UPDATE SET name = excluded.name, status = excluded.status, seq = excluded.seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at, view = excluded.view`,
          [r.fightId, r.tenantId, r.system, r.name, r.status, r.seq, r.headHash, r.createdAt, r.updatedAt, JSON.stringify(r.view)],
        );
      },
      replaceCombatants: async (fightId, rows: CombatantRow[]) => {
        await c.query(`DELETE FROM ${this.t('combatant_summaries')} WHERE fight_id = $1`, [fightId]);
        for (const [i, r] of rows.entries()) {
          await c.query(`INSERT INTO ${this.t('combatant_summaries')} VALUES ($1, $2, $3, $4, $5, $6, $7)`, [r.fightId, r.combatantId, i, r.system, r.name, r.side, JSON.stringify(r.summary)]);
        }
      },
    };
  }

  async reset(projection: ProjectionName) {
    await this.start();
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`DELETE FROM ${this.t('projection_checkpoints')} WHERE name = $1`, [projection]);
      await c.query(`DELETE FROM ${this.t('projection_folds')} WHERE projection = $1`, [projection]);
      await c.query(`DELETE FROM ${this.t(projection === 'fight-views' ? 'fight_views' : 'combatant_summaries')}`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  async getFight(fightId: string) {
    await this.start();
    const r = await this.pool.query(`SELECT * FROM ${this.t('fight_views')} WHERE fight_id = $1`, [fightId]);
    return r.rows[0] ? toFight(r.rows[0]) : undefined;
  }

  async listFights(q: FightQuery) {
    await this.start();
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.tenantId !== undefined) where.push(`tenant_id = $${args.push(q.tenantId)}`);
    if (q.system) where.push(`system = $${args.push(q.system)}`);
    if (q.status) where.push(`status = $${args.push(q.status)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = Number((await this.pool.query(`SELECT count(*) AS n FROM ${this.t('fight_views')} ${clause}`, args)).rows[0].n);
    const rows = (await this.pool.query(`SELECT * FROM ${this.t('fight_views')} ${clause} ORDER BY created_at DESC, fight_id DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`, [...args, q.limit, q.offset])).rows;
    return { items: rows.map(toFight), total };
  }

  async listCombatants(fightId: string) {
    await this.start();
    const r = await this.pool.query(`SELECT * FROM ${this.t('combatant_summaries')} WHERE fight_id = $1 ORDER BY position`, [fightId]);
    return r.rows.map((x) => ({ fightId: x.fight_id, combatantId: x.combatant_id, system: x.system, name: x.name, side: x.side, summary: x.summary }));
  }

  async close() {
    await this.pool.end();
  }
}
