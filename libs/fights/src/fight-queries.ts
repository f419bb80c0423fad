import { seqOutOfRange } from './errors';
import { FightService, FightViewResult } from './fight-service';
import { CombatantRow, FightFilter, FightKey, FightQuery, FightRow } from './projections/read-store';
import { ProjectionRunner } from './projections/runner';
import { combatantRows } from './projections/handlers';
import { Principal } from './access/principal';

/** How long a query waits for the read side to fold what it must show (`minSeq`, the fight list); then it answers. */
const WAIT_MS = 2000;

/** Queries read the projections (the live read side); commands answer with fresh state themselves. */
export class FightQueries {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly fights: FightService,
  ) {}

  /**
   * The projected view; with `minSeq`, waits (briefly) until the projection has reached it. A `minSeq`
   * past the fight's last event (read from the log, not the projection) names no state: 422
   * SEQ_OUT_OF_RANGE at once, as `?at=` past the end is, not a view older than asked after the wait.
   * `seen` is the latest state the client holds (the seq of an ETag it revalidates): the answer is never
   * older than that while the fight has it, so a view a command answered with is not replaced by the read
   * side's older one (If-None-Match then gets its 304).
   */
  async fight(fightId: string, minSeq = 0, seen = 0): Promise<FightViewResult> {
    const row = await this.runner.read.getFight(fightId);
    if (row && row.seq >= minSeq && row.seq >= seen) return toView(row);
    const fresh = await this.fights.view(fightId);
    if (fresh.seq < minSeq) throw seqOutOfRange(fresh.seq, 'minSeq');
    // The client has seen a later state than the read side has written (an ETag a command answered with): the
    // state now, never an older one than it holds; a seq no state of the fight has is no reason to wait or refuse.
    if (row && row.seq >= minSeq) return fresh.seq > row.seq ? fresh : toView(row);
    const target = Math.max(minSeq, row ? 0 : fresh.seq);
    await this.runner.waitFor(
      'fight-views',
      fightId,
      target,
      WAIT_MS,
      async () => (await this.runner.read.getFight(fightId))?.seq ?? 0,
    );
    const caught = await this.runner.read.getFight(fightId);
    return caught && caught.seq >= target ? toView(caught) : fresh;
  }

  /**
   * Waits (up to WAIT_MS) until the fight list holds every event committed before the call, so a client
   * lists its own writes: true when it does, false when the read side was still behind after the wait
   * (the list is then answered as it stands).
   */
  listCaughtUp(): Promise<boolean> {
    return this.runner.caughtUp('fight-views', WAIT_MS);
  }

  /**
   * A tenant sees its own fights; a token, only its fight. One row more than the page is read, so
   * `next` (the key of the page's last fight, when more follow) costs no count.
   */
  async listFor(p: Principal, q: FightQuery): Promise<FightPage> {
    const rows = await this.rowsFor(p, { ...q, limit: q.limit + 1 });
    const items = rows.slice(0, q.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(summarise),
      limit: q.limit,
      ...(q.after ? {} : { offset: q.offset ?? 0 }),
      next: rows.length > q.limit && last ? { createdAt: last.createdAt, fightId: last.fightId } : undefined,
    };
  }

  /** How many fights the principal's list holds with these filters (a scan: only when asked). */
  async countFor(p: Principal, q: FightFilter): Promise<number> {
    if (p.kind === 'tenant') return this.runner.read.countFights({ ...q, tenantId: p.tenantId });
    if (p.kind === 'admin') return this.runner.read.countFights(q);
    return (await this.rowsFor(p, { ...q, limit: 1 })).length;
  }

  private async rowsFor(p: Principal, q: FightQuery): Promise<FightRow[]> {
    if (p.kind === 'tenant') return this.runner.read.listFights({ ...q, tenantId: p.tenantId });
    if (p.kind === 'admin') return this.runner.read.listFights(q);
    const row = await this.runner.read.getFight(p.fightId);
    const fits =
      row &&
      (!q.system || row.system === q.system) &&
      (!q.status || row.status === q.status) &&
      (!q.after ||
        row.createdAt < q.after.createdAt ||
        (row.createdAt === q.after.createdAt && row.fightId < q.after.fightId));
    const from = q.after ? 0 : (q.offset ?? 0);
    return (fits ? [row] : []).slice(from, from + q.limit);
  }

  /**
   * A fight's combatants: the entries of the view `fight` answers, in order, so they are always those of
   * `GET /fights/:id` at the same seq (with `minSeq`, the same wait and the same 422 SEQ_OUT_OF_RANGE).
   */
  async combatants(fightId: string, minSeq = 0): Promise<CombatantRow[]> {
    const { view } = await this.fight(fightId, minSeq);
    return combatantRows(fightId, String(view.system), view);
  }
}

/** A page of fights: `offset` only when it was asked by offset (or from the start), `next` when more follow. */
export interface FightPage {
  items: FightSummary[];
  limit: number;
  offset?: number;
  next?: FightKey;
}

export type FightSummary = Omit<FightRow, 'view' | 'headHash' | 'tenantId'> & {
  round: number;
  combatants: number;
};

const summarise = ({ view, headHash: _h, tenantId: _t, ...summary }: FightRow): FightSummary => ({
  ...summary,
  round: typeof view.round === 'number' ? view.round : 0,
  combatants: Array.isArray(view.combatants) ? view.combatants.length : 0,
});

/**
 * The answer of a row, one per row: a row the read store holds is read again by every GET of that
 * state, and the edge keeps the text of an answer it wrote with the answer object (withViewText).
 */
const views = new WeakMap<FightRow, FightViewResult>();
const toView = (row: FightRow): FightViewResult => {
  let view = views.get(row);
  if (!view) views.set(row, (view = { fightId: row.fightId, seq: row.seq, view: row.view }));
  return view;
};
