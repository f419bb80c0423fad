import { fightNotFound } from './errors';
import { FightService, FightViewResult } from './fight-service';
import { CombatantRow, FightQuery, FightRow } from './projections/read-store';
import { ProjectionRunner } from './projections/runner';
import { Principal } from './access/principal';

const WAIT_MS = 2000;

/** Queries read the projections (issue "Live read side"); commands answer with fresh state themselves. */
export class FightQueries {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly fights: FightService,
  ) {}

  /** The projected view; with `minSeq`, waits (briefly) until the projection has reached it. */
  async fight(fightId: string, minSeq = 0): Promise<FightViewResult> {
    const row = await this.runner.read.getFight(fightId);
    if (row && row.seq >= minSeq) return toView(row);
    const fresh = await this.fights.view(fightId);
    const target = Math.max(minSeq, row ? 0 : fresh.seq);
    await this.runner.waitFor('fight-views', fightId, target, WAIT_MS, async () => (await this.runner.read.getFight(fightId))?.seq ?? 0);
    const caught = await this.runner.read.getFight(fightId);
    return caught && caught.seq >= target ? toView(caught) : fresh;
  }

  /** A tenant sees its own fights; a token, only its fight. */
  async listFor(p: Principal, q: FightQuery): ReturnType<FightQueries['list']> {
    if (p.kind === 'tenant') return this.list({ ...q, tenantId: p.tenantId });
    if (p.kind === 'admin') return this.list(q);
    const row = await this.runner.read.getFight(p.fightId);
    const items = row && (!q.system || row.system === q.system) && (!q.status || row.status === q.status) ? [row] : [];
    return {
      items: items.slice(q.offset, q.offset + q.limit).map(summarise),
      total: items.length,
      limit: q.limit,
      offset: q.offset,
    };
  }

  async list(q: FightQuery): Promise<{ items: FightSummary[]; total: number; limit: number; offset: number }> {
    const { items, total } = await this.runner.read.listFights(q);
    return {
      items: items.map(summarise),
      total,
      limit: q.limit,
      offset: q.offset,
    };
  }

  async combatants(fightId: string): Promise<CombatantRow[]> {
    const rows = await this.runner.read.listCombatants(fightId);
    if (rows.length === 0 && !(await this.runner.read.getFight(fightId))) {
      await this.fights.view(fightId).catch(() => {
        throw fightNotFound(fightId);
      });
    }
    return rows;
  }
}

export type FightSummary = Omit<FightRow, 'view' | 'headHash' | 'tenantId'> & { round: number; combatants: number };

const summarise = ({ view, headHash: _h, tenantId: _t, ...summary }: FightRow): FightSummary => ({
  ...summary,
  round: typeof view.round === 'number' ? view.round : 0,
  combatants: Array.isArray(view.combatants) ? view.combatants.length : 0,
});

const toView = (row: FightRow): FightViewResult => ({ fightId: row.fightId, seq: row.seq, view: row.view });
