import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { FightFilter, FightQuery, FightRow, ProjectionName, ReadStore, ReadTx } from './read-store';
import { ReadWrites } from './read-writes';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (name TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at TEXT NOT NULL);
DROP TABLE IF EXISTS projection_folds;
CREATE TABLE IF NOT EXISTS fight_views (fight_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, system TEXT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL, seq INTEGER NOT NULL, head_hash TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, view TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS fight_views_list ON fight_views (created_at DESC, fight_id DESC);
CREATE INDEX IF NOT EXISTS fight_views_tenant_list ON fight_views (tenant_id, created_at DESC, fight_id DESC);
DROP TABLE IF EXISTS combatant_summaries;
DELETE FROM projection_checkpoints WHERE name = 'combatants';
`;

/**
 * A fight's row holds its whole view (about 2 KB for a Narateer duel): with SQLite's default 4 KiB pages,
 * a row just past half a page leaves the rest of its page empty (docs/event-store.md "Read side pages").
 */
export const READ_PAGE_SIZE = 8192;

interface FightSqlRow {
  fight_id: string;
  tenant_id: string;
  system: string;
  name: string;
  status: string;
  seq: number;
  head_hash: string;
  created_at: string;
  updated_at: string;
  view: string;
}

const toFight = (r: FightSqlRow): FightRow => ({
  fightId: r.fight_id,
  tenantId: r.tenant_id,
  system: r.system,
  name: r.name,
  status: r.status,
  seq: r.seq,
  headHash: r.head_hash,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  view: JSON.parse(r.view) as FightRow['view'],
});

function fightFilter(q: FightFilter): { where: string[]; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    args.push(value);
  };
  if (q.tenantId !== undefined) add('tenant_id = ?', q.tenantId);
  if (q.system) add('system = ?', q.system);
  if (q.status) add('status = ?', q.status);
  return { where, args };
}

/** How many fights match (exported for the plan test): a tenant's are counted on its list index alone. */
export function countFightsSql(q: FightFilter): { sql: string; args: unknown[] } {
  const { where, args } = fightFilter(q);
  return {
    sql: `SELECT count(*) AS n FROM fight_views ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
    args,
  };
}

/**
 * A page of fights (exported for the plan test): a keyset page starts right after its key, the row
 * values comparing as the (tenant_id, created_at, fight_id) index sorts, so it reads only its own rows.
 */
export function listFightsSql(q: FightQuery): { sql: string; args: unknown[] } {
  const { where, args } = fightFilter(q);
  if (q.after) {
    where.push('(created_at, fight_id) < (?, ?)');
    args.push(q.after.createdAt, q.after.fightId);
  }
  args.push(q.limit);
  if (!q.after) args.push(q.offset ?? 0);
  return {
    sql: `SELECT * FROM fight_views ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, fight_id DESC LIMIT ?${q.after ? '' : ' OFFSET ?'}`,
    args,
  };
}

/** Fight rows kept parsed between reads (getFight), the least recently read dropped past it. */
const ROWS_HELD = 1000;

/**
 * Read models in their own SQLite file beside the event log (DATA_DIR/read.sqlite).
 *
 * `getFight` keeps the rows it read, parsed: a fight read again costs neither the row's read nor
 * its view's JSON.parse. A row held is dropped when this store writes that fight, and every row when
 * another connection has written the file since (`PRAGMA data_version`, which changes exactly then:
 * the CLI's `projections rebuild` while the server runs, say), looked at on the first read of each
 * turn of the event loop. The rows are shared: not to be changed.
 */
export class SqliteReadStore implements ReadStore {
  readonly engine = 'sqlite';
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly rows = new Map<string, FightRow>();
  private readonly dataVersion: Database.Statement;
  private seenVersion: unknown;
  private versionLooked = false;
  /** The file's version when writtenByOthers last looked (the fold worker's connection). */
  private othersVersion: unknown;

  /** Prepared once per SQL text: preparing on every call dominated a rebuild. */
  private stmt(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) this.statements.set(sql, (prepared = this.db.prepare(sql)));
    return prepared;
  }

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file, { timeout: 5000 });
    // Before WAL, and only a new file takes it (one made earlier keeps its size until it is deleted and rebuilt).
    this.db.pragma(`page_size = ${READ_PAGE_SIZE}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
  }

  async checkpoint(projection: ProjectionName) {
    const row = this.stmt('SELECT checkpoint FROM projection_checkpoints WHERE name = ?').get(projection) as
      { checkpoint: string } | undefined;
    return row?.checkpoint;
  }

  async apply(
    projections: readonly ProjectionName[],
    expected: string | undefined,
    next: string,
    fn: (tx: ReadTx) => void | Promise<void>,
  ): Promise<boolean> {
    // better-sqlite3 transactions are synchronous: collect the writes, then commit them at once.
    const writes = new ReadWrites();
    await fn(writes.tx());
    return this.db
      .transaction(() => {
        const current = this.stmt('SELECT checkpoint FROM projection_checkpoints WHERE name = ?');
        if (
          projections.some(
            (p) => (current.get(p) as { checkpoint: string } | undefined)?.checkpoint !== expected,
          )
        )
          return false;
        const fight = this.stmt(
          'INSERT INTO fight_views VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (fight_id) DO UPDATE SET name = excluded.name, status = excluded.status, seq = excluded.seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at, view = excluded.view',
        );
        for (const { row: r, view } of writes.fights.values())
          fight.run(
            r.fightId,
            r.tenantId,
            r.system,
            r.name,
            r.status,
            r.seq,
            r.headHash,
            r.createdAt,
            r.updatedAt,
            view,
          );
        const moved = this.stmt(
          'INSERT INTO projection_checkpoints VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at',
        );
        const at = new Date().toISOString();
        for (const p of projections) moved.run(p, next, at);
        for (const fightId of writes.fights.keys()) this.rows.delete(fightId);
        return true;
      })
      .immediate();
  }

  async reset(projection: ProjectionName) {
    this.rows.clear();
    this.db.transaction(() => {
      this.stmt('DELETE FROM projection_checkpoints WHERE name = ?').run(projection);
      this.stmt('DELETE FROM fight_views').run();
    })();
  }

  async getFight(fightId: string) {
    if (!this.versionLooked) {
      // A statement costs about as much as the read it saves: looked at once per turn of the event loop.
      this.versionLooked = true;
      setImmediate(() => (this.versionLooked = false));
      const version = this.dataVersion.get();
      if (version !== this.seenVersion) {
        this.rows.clear();
        this.seenVersion = version;
      }
    }
    const held = this.rows.get(fightId);
    if (held) {
      this.rows.delete(fightId);
      this.rows.set(fightId, held);
      return held;
    }
    const raw = this.stmt('SELECT * FROM fight_views WHERE fight_id = ?').get(fightId) as
      FightSqlRow | undefined;
    if (!raw) return undefined;
    const row = toFight(raw);
    this.rows.set(fightId, row);
    if (this.rows.size > ROWS_HELD) this.rows.delete(this.rows.keys().next().value!);
    return row;
  }

  async listFights(q: FightQuery) {
    const { sql, args } = listFightsSql(q);
    return (this.stmt(sql).all(...args) as FightSqlRow[]).map(toFight);
  }

  async countFights(q: FightFilter) {
    const { sql, args } = countFightsSql(q);
    return (this.stmt(sql).get(...args) as { n: number }).n;
  }

  /**
   * The fold worker's connection wrote these fights (fold-worker.ts): their rows are dropped, and what the
   * file's version says changed is counted as seen, so the other rows held stay. With none named, every row.
   */
  forget(fightIds?: Iterable<string>): void {
    if (fightIds) for (const fightId of fightIds) this.rows.delete(fightId);
    else this.rows.clear();
    this.seenVersion = this.dataVersion.get();
  }

  /**
   * Whether another connection has written the file since this one last asked (or since it opened): in the
   * fold worker, the only other writer is the CLI (`projections rebuild` while the server runs).
   */
  writtenByOthers(): boolean {
    const version = this.dataVersion.get();
    const changed = this.othersVersion !== undefined && version !== this.othersVersion;
    this.othersVersion = version;
    return changed;
  }

  async close() {
    this.db.close();
  }
}
