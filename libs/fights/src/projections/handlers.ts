import { StoredEvent } from '@app/event-store';
import { FightCore, findSystem, RuleSystem } from '@app/rules';
import {
  evolveState,
  FIGHT_STREAM_PREFIX,
  FightEvent,
  foldFight,
  isUndo,
  toFightEvent,
} from '@app/fight-log';
import { ProjectionName, ReadStore, ReadTx, StoredFold } from './read-store';

interface Folded {
  state: FightCore;
  createdAt: string;
  tenantId: string;
}

export interface HandlerContext {
  /** The fight's whole log: an undo is folded from the start (libs/fight-log). */
  readFight(fightId: string): Promise<FightEvent[]>;
}

/** One fight's fold, shared by the projections whose stored folds were identical. */
interface Lineage {
  projections: ProjectionName[];
  current?: { seq: number; folded: Folded };
  /** The last event folded since the batch began: the fight changed. */
  last?: FightEvent;
}

/** Each projection: the rows of one fight whose fold changed, from its fold and view. */
const WRITERS: Record<
  ProjectionName,
  (tx: ReadTx, fightId: string, folded: Folded, last: FightEvent, view: Record<string, unknown>) => void
> = {
  'fight-views': (tx, fightId, folded, last, view) =>
    tx.putFight({
      fightId,
      tenantId: folded.tenantId,
      system: folded.state.system,
      name: folded.state.name,
      status: folded.state.status,
      seq: last.seq,
      headHash: last.hash,
      createdAt: folded.createdAt,
      updatedAt: last.at,
      view,
    }),
  combatants: (tx, fightId, folded, _last, view) => {
    const listed = Array.isArray(view.combatants) ? (view.combatants as Array<Record<string, unknown>>) : [];
    tx.replaceCombatants(
      fightId,
      listed.map((c) => ({
        fightId,
        combatantId: String(c.id),
        system: folded.state.system,
        name: String(c.name),
        side: typeof c.side === 'string' ? c.side : 'default',
        summary: c,
      })),
    );
  },
};

export function fightView(folded: Folded, last: FightEvent): Record<string, unknown> {
  const system = findSystem(folded.state.system)!;
  return { ...system.view(folded.state), seq: last.seq, headHash: last.hash };
}

/**
 * Folds pages of the global log into every named projection, in memory, until `write`. Each
 * fight's stored folds are read once; projections whose folds are identical (the usual case:
 * they move together) share one fold; each changed fight is written once per batch.
 */
export class ProjectionBatch {
  private readonly fights = new Map<string, Lineage[]>();
  /** Each fight's last seq in the batch, for whoever waits on a projection. */
  readonly latest = new Map<string, number>();

  constructor(
    private readonly read: ReadStore,
    private readonly ctx: HandlerContext,
    private readonly projections: readonly ProjectionName[],
  ) {}

  async add(page: StoredEvent[]): Promise<void> {
    const events: Array<{ stored: StoredEvent; e: FightEvent }> = [];
    const unseen = new Set<string>();
    for (const stored of page) {
      if (!stored.stream.startsWith(FIGHT_STREAM_PREFIX)) continue;
      const e = toFightEvent(stored);
      events.push({ stored, e });
      if (!this.fights.has(e.fightId)) unseen.add(e.fightId);
    }
    await this.load([...unseen]);
    for (const { stored, e } of events) {
      this.latest.set(e.fightId, e.seq);
      const lineages = this.fights.get(e.fightId)!;
      // An undo is folded from the fight's whole log up to it (libs/fight-log).
      const history = isUndo(e)
        ? await this.ctx.readFight(e.fightId).then(
            (all) => all.filter((x) => x.seq <= e.seq),
            (failed: unknown) => ({ failed }),
          )
        : [];
      for (const lineage of lineages) {
        this.fold(lineage, stored, e, (system, state) => {
          const next = evolveState(system, state, e);
          if (next) return next;
          if (!Array.isArray(history)) throw history.failed;
          return foldFight(system, e.fightId, history);
        });
      }
    }
  }

  write(tx: ReadTx): void {
    for (const [fightId, lineages] of this.fights) {
      for (const { projections, current, last } of lineages) {
        if (!current || !last) continue;
        for (const p of projections)
          tx.putFold(p, fightId, { seq: last.seq, headHash: last.hash, state: current.folded });
        let view: Record<string, unknown>;
        try {
          view = fightView(current.folded, last);
        } catch {
          // A view that cannot be built leaves the read models at their last good version.
          continue;
        }
        for (const p of projections) {
          try {
            WRITERS[p](tx, fightId, current.folded, last, view);
          } catch {
            // As above.
          }
        }
      }
    }
  }

  private async load(fightIds: string[]): Promise<void> {
    if (fightIds.length === 0) return;
    const stored = await Promise.all(this.projections.map((p) => this.read.folds(p, fightIds)));
    for (const fightId of fightIds) {
      const lineages = new Map<string, { from?: StoredFold; projections: ProjectionName[] }>();
      this.projections.forEach((p, i) => {
        const from = stored[i].get(fightId);
        const key = from ? `${from.seq}\n${from.headHash}\n${from.state}` : '';
        const lineage = lineages.get(key);
        if (lineage) lineage.projections.push(p);
        else lineages.set(key, { from, projections: [p] });
      });
      this.fights.set(
        fightId,
        [...lineages.values()].map(({ from, projections }) => ({
          projections,
          current: from && { seq: from.seq, folded: JSON.parse(from.state) as Folded },
        })),
      );
    }
  }

  private fold(
    lineage: Lineage,
    stored: StoredEvent,
    e: FightEvent,
    next: (system: RuleSystem<FightCore>, state: FightCore) => FightCore,
  ): void {
    const { current } = lineage;
    if (current && e.seq <= current.seq) return;
    let base = current?.folded;
    if (!base) {
      const system = e.type === 'FightStarted' ? findSystem(String(e.data.system)) : undefined;
      if (!system) return;
      base = {
        state: system.start(e.fightId),
        createdAt: e.at,
        tenantId: typeof stored.metadata.tenantId === 'string' ? stored.metadata.tenantId : '',
      };
    }
    let state: FightCore;
    try {
      state = next(findSystem(base.state.system)!, base.state);
    } catch {
      // One fight a rule system cannot fold must not stop every projection: it stays at its last good seq.
      return;
    }
    lineage.current = { seq: e.seq, folded: { ...base, state } };
    lineage.last = e;
  }
}
