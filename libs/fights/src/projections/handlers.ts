import { StoredEvent } from '@app/event-store';
import { FightCore, findSystem } from '@app/rules';
import {
  evolveState,
  FIGHT_STREAM_PREFIX,
  FightEvent,
  foldFight,
  isUndo,
  toFightEvent,
} from '@app/fight-log';
import { CombatantRow, ProjectionName, ReadTx } from './read-store';

/** A fight as the projections fold it: the rules state, and what its first event said. */
export interface Folded {
  state: FightCore;
  createdAt: string;
  tenantId: string;
}

/** A fight's fold after its event `seq`. */
export interface Fold {
  seq: number;
  folded: Folded;
}

export interface HandlerContext {
  /** The fight's first `count` events, as stored: a fight not held, or an undo, is folded from its start (libs/fight-log). */
  readFight(fightId: string, count: number): Promise<StoredEvent[]>;
  /** The view of the fight at `seq` with `headHash` if one was built already (the command path's). */
  heldView?(fightId: string, seq: number, headHash: string): Record<string, unknown> | undefined;
}

/** Each projection: the rows of one fight whose fold changed, from its fold and view. */
const WRITERS: Record<
  ProjectionName,
  (tx: ReadTx, fightId: string, fold: Fold, last: FightEvent, view: Record<string, unknown>) => void
> = {
  'fight-views': (tx, fightId, { folded }, last, view) =>
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
};

function entriesOf(view: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(view.combatants) ? (view.combatants as Array<Record<string, unknown>>) : [];
}

/** A fight's combatant rows (`GET /fights/:id/combatants`): the entries of its view, in order. */
export function combatantRows(
  fightId: string,
  system: string,
  view: Record<string, unknown>,
): CombatantRow[] {
  return entriesOf(view).map((c) => ({
    fightId,
    combatantId: String(c.id),
    system,
    name: String(c.name),
    side: typeof c.side === 'string' ? c.side : 'default',
    summary: c,
  }));
}

export function fightView(folded: Folded, last: FightEvent): Record<string, unknown> {
  const system = findSystem(folded.state.system)!;
  return { ...system.view(folded.state), seq: last.seq, headHash: last.hash };
}

/**
 * The folds a runner holds between passes, the least recently used dropped past `max`. They are the
 * state after the checkpoint `at`, the runner's last commit: a pass that starts from any other
 * checkpoint (another runner committed meanwhile) must not use them.
 */
export class FoldCache {
  private readonly folds = new Map<string, Fold>();
  /** The checkpoint the folds stand at. */
  at: string | undefined;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.folds.size;
  }

  get(fightId: string): Fold | undefined {
    return this.folds.get(fightId);
  }

  /** The folds of a committed batch, and the checkpoint it moved to. */
  absorb(folds: ReadonlyMap<string, Fold>, at: string): void {
    for (const [fightId, fold] of folds) {
      this.folds.delete(fightId);
      this.folds.set(fightId, fold);
    }
    while (this.folds.size > this.max) this.folds.delete(this.folds.keys().next().value!);
    this.at = at;
  }
}

/**
 * Folds pages of the global log into every named projection, in memory, until `write`. All of them
 * fold alike (a fold is a function of the log), so each event is folded once for all. A fight starts
 * from the runner's cache (`held`, the state at the pass's checkpoint), from its FightStarted, or else
 * from its own stream read up to the event (after a restart, an eviction, another runner's commit):
 * the read models keep no fold of their own. Each changed fight is written once per batch.
 */
export class ProjectionBatch {
  /** The fights folded in this batch: their fold after the last event seen. */
  readonly folds = new Map<string, Fold>();
  /** The fights changed in this batch, and the last event each folded. */
  private readonly changed = new Map<string, FightEvent>();
  /** Each fight's last seq in the batch, for whoever waits on a projection. */
  readonly latest = new Map<string, number>();

  constructor(
    private readonly ctx: HandlerContext,
    private readonly projections: readonly ProjectionName[],
    private readonly held?: FoldCache,
  ) {}

  /** Folds a page. A read of a fight's stream that fails fails the page (and the pass: nothing is committed). */
  async add(page: readonly StoredEvent[]): Promise<void> {
    for (const stored of page) {
      if (!stored.stream.startsWith(FIGHT_STREAM_PREFIX)) continue;
      const e = toFightEvent(stored);
      this.latest.set(e.fightId, e.seq);
      const current = this.folds.get(e.fightId) ?? this.held?.get(e.fightId);
      if (current && e.seq <= current.seq) continue;
      const next =
        current && e.seq === current.seq + 1 && !isUndo(e)
          ? evolved(current, e)
          : await this.fromStream(e, stored, current);
      if (!next) continue;
      this.folds.set(e.fightId, next);
      this.changed.set(e.fightId, e);
    }
  }

  write(tx: ReadTx): void {
    for (const [fightId, last] of this.changed) {
      const fold = this.folds.get(fightId)!;
      const { folded } = fold;
      let view: Record<string, unknown>;
      try {
        view = this.ctx.heldView?.(fightId, last.seq, last.hash) ?? fightView(folded, last);
      } catch {
        // A view that cannot be built leaves the read models at their last good version.
        continue;
      }
      for (const p of this.projections) {
        try {
          WRITERS[p](tx, fightId, fold, last, view);
        } catch {
          // As above.
        }
      }
    }
  }

  /**
   * The fold after `e` from the fight's stream up to it: for a fight not held (after its start, from
   * its FightStarted alone), and for an undo. Undefined when the rule system cannot fold it: the fight
   * stays at its last good fold, so one bad fight never stops every projection.
   */
  private async fromStream(
    e: FightEvent,
    stored: StoredEvent,
    current: Fold | undefined,
  ): Promise<Fold | undefined> {
    const log = e.seq === 1 ? [stored] : await this.ctx.readFight(e.fightId, e.seq);
    const first = log[0];
    const system =
      first?.type === 'FightStarted'
        ? findSystem(String((first.data as { system?: unknown }).system))
        : undefined;
    if (!system || log.length !== e.seq) return undefined;
    try {
      const state = foldFight(system, e.fightId, log.map(toFightEvent));
      const base = current?.folded;
      return {
        seq: e.seq,
        folded: {
          state,
          createdAt: base?.createdAt ?? String(first.metadata.at),
          tenantId:
            base?.tenantId ?? (typeof first.metadata.tenantId === 'string' ? first.metadata.tenantId : ''),
        },
      };
    } catch {
      return undefined;
    }
  }
}

/** The fold after `e`, the event right after `current`; undefined when the rule system cannot fold it. */
function evolved(current: Fold, e: FightEvent): Fold | undefined {
  try {
    const state = evolveState(findSystem(current.folded.state.system)!, current.folded.state, e);
    return (
      state && {
        seq: e.seq,
        folded: { ...current.folded, state },
      }
    );
  } catch {
    return undefined;
  }
}
