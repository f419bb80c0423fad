import { CombatantRow, FightQuery, FightRow, Fold, ProjectionName, ReadStore, ReadTx } from './read-store';

const clone = <T>(v: T): T => structuredClone(v);

export class MemoryReadStore implements ReadStore {
  readonly engine = 'memory';
  private checkpoints = new Map<string, string>();
  private folds = new Map<string, Fold>();
  private fights = new Map<string, FightRow>();
  private combatants = new Map<string, CombatantRow[]>();
  private lock: Promise<unknown> = Promise.resolve();

  async checkpoint(projection: ProjectionName) {
    return this.checkpoints.get(projection);
  }

  apply(projection: ProjectionName, expected: string | undefined, next: string, fn: (tx: ReadTx) => Promise<void>): Promise<boolean> {
    const run = this.lock.then(async () => {
      if (this.checkpoints.get(projection) !== expected) return false;
      // Work on copies so a failed batch leaves nothing behind.
      const folds = new Map(this.folds);
      const fights = new Map(this.fights);
      const combatants = new Map(this.combatants);
      await fn({
        getFold: async (p, id) => clone(folds.get(`${p}/${id}`)),
        putFold: async (p, id, fold) => void folds.set(`${p}/${id}`, clone(fold)),
        putFight: async (row) => void fights.set(row.fightId, clone(row)),
        replaceCombatants: async (id, rows) => void combatants.set(id, clone(rows)),
      });
      this.folds = folds;
      this.fights = fights;
      this.combatants = combatants;
      this.checkpoints.set(projection, next);
      return true;
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  async reset(projection: ProjectionName) {
    this.checkpoints.delete(projection);
    for (const key of [...this.folds.keys()]) if (key.startsWith(`${projection}/`)) this.folds.delete(key);
    if (projection === 'fight-views') this.fights.clear();
    else this.combatants.clear();
  }

  async getFight(fightId: string) {
    return clone(this.fights.get(fightId));
  }

  async listFights(q: FightQuery) {
    const all = [...this.fights.values()]
      .filter((f) => (q.tenantId === undefined || f.tenantId === q.tenantId) && (!q.system || f.system === q.system) && (!q.status || f.status === q.status))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.fightId.localeCompare(a.fightId));
    return { items: clone(all.slice(q.offset, q.offset + q.limit)), total: all.length };
  }

  async listCombatants(fightId: string) {
    return clone(this.combatants.get(fightId) ?? []);
  }

  async close() {}
}
