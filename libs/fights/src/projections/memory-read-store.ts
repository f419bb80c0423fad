import { FightFilter, FightKey, FightQuery, FightRow, ProjectionName, ReadStore, ReadTx } from './read-store';
import { ReadWrites } from './read-writes';

const clone = <T>(v: T): T => structuredClone(v);

/** Plain string order (ids and ISO times are ASCII: byte order), as SQLite's BINARY and PostgreSQL's "C" collation compare, never the locale's. */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const compareKeys = (a: FightKey, b: FightKey): number =>
  cmp(a.createdAt, b.createdAt) || cmp(a.fightId, b.fightId);

export class MemoryReadStore implements ReadStore {
  readonly engine = 'memory';
  private checkpoints = new Map<string, string>();
  private fights = new Map<string, FightRow>();
  private lock: Promise<unknown> = Promise.resolve();

  async checkpoint(projection: ProjectionName) {
    return this.checkpoints.get(projection);
  }

  apply(
    projections: readonly ProjectionName[],
    expected: string | undefined,
    next: string,
    fn: (tx: ReadTx) => void | Promise<void>,
  ): Promise<boolean> {
    const run = this.lock.then(async () => {
      if (projections.some((p) => this.checkpoints.get(p) !== expected)) return false;
      const writes = new ReadWrites();
      await fn(writes.tx());
      // Nothing is kept until `fn` has returned, so a failed batch leaves nothing behind.
      // As the SQL stores upsert: a fight keeps the tenant, system and creation time it was first written with.
      for (const [id, { row }] of writes.fights) {
        const first = this.fights.get(id);
        this.fights.set(
          id,
          clone(
            first
              ? { ...row, tenantId: first.tenantId, system: first.system, createdAt: first.createdAt }
              : row,
          ),
        );
      }
      for (const p of projections) this.checkpoints.set(p, next);
      return true;
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  async reset(projection: ProjectionName) {
    this.checkpoints.delete(projection);
    if (projection === 'fight-views') this.fights.clear();
  }

  async getFight(fightId: string) {
    return clone(this.fights.get(fightId));
  }

  async listFights(q: FightQuery) {
    const after = q.after;
    const all = this.matching(q)
      .filter((f) => !after || compareKeys(f, after) < 0)
      .sort((a, b) => compareKeys(b, a));
    const from = after ? 0 : (q.offset ?? 0);
    return clone(all.slice(from, from + q.limit));
  }

  async countFights(q: FightFilter) {
    return this.matching(q).length;
  }

  private matching(q: FightFilter): FightRow[] {
    return [...this.fights.values()].filter(
      (f) =>
        (q.tenantId === undefined || f.tenantId === q.tenantId) &&
        (!q.system || f.system === q.system) &&
        (!q.status || f.status === q.status),
    );
  }

  async close() {}
}
