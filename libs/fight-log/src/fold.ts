import { FightCore, RuleSystem } from '@app/rules';
import { GENESIS_HASH } from './hash-chain';
import { isUndo, UndoneCommand, undoneList } from './undo';

/**
 * The one fold of a fight's log (DESIGN.md "Events"): each event evolves the state with the fight's rule
 * system, except `ActionsUndone`, after which the state is the fold of every earlier event it does not take
 * back. The service's cache, the verifier, the projections and the webhooks all fold with what is here.
 */

export interface FoldableEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

/** An event of the log with its place in the hash chain and the dice draws used after it. */
export interface ChainedEvent extends FoldableEvent {
  hash: string;
  drawsUsed?: number;
}

/** A fight folded up to its last event: what its next command is decided on and sealed onto. */
export interface FoldedFight<S extends FightCore = FightCore> {
  system: RuleSystem<S>;
  fightId: string;
  state: S;
  /** The seq of the last event; 0 before the first. */
  seq: number;
  /** The hash of the last event (GENESIS_HASH before the first: hash-chain.ts). */
  headHash: string;
  /** Dice draws (C5) the fight has used so far; an undo never gives them back. */
  drawsUsed: number;
}

/** A fight before its first event. */
export function blankFight<S extends FightCore>(system: RuleSystem<S>, fightId: string): FoldedFight<S> {
  return { system, fightId, state: system.start(fightId), seq: 0, headHash: GENESIS_HASH, drawsUsed: 0 };
}

/**
 * The state after `event`, evolved from the state just before it; undefined for an undo, which only the
 * log before it folds (FightFolder, foldFight, foldLog).
 */
export function evolveState<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  event: FoldableEvent,
): S | undefined {
  if (isUndo(event)) return undefined;
  return system.evolve(state, { type: event.type, data: event.data });
}

/**
 * `fight` with the events that follow it folded on, in order; undefined when one of them is an undo:
 * the fight is then folded from its whole log again (foldLog). Other fields of `fight` are kept.
 */
export function evolveFight<F extends FoldedFight>(fight: F, events: readonly ChainedEvent[]): F | undefined {
  let { state, seq, headHash, drawsUsed } = fight;
  for (const e of events) {
    const next = evolveState(fight.system, state, e);
    if (next === undefined) return undefined;
    state = next;
    seq = e.seq;
    headHash = e.hash;
    drawsUsed = e.drawsUsed ?? drawsUsed;
  }
  return { ...fight, state, seq, headHash, drawsUsed };
}

/** A whole log folded from its first event, undos honoured (a log without undo keeps no state but the last). */
export function foldLog<S extends FightCore>(
  system: RuleSystem<S>,
  fightId: string,
  events: readonly ChainedEvent[],
): FoldedFight<S> {
  return foldOnto(blankFight(system, fightId), events)!;
}

/**
 * The events that follow `base` (a fight folded up to `base.seq`, e.g. from a snapshot) folded onto it, undos
 * honoured: the same fight as foldLog of the whole log. Undefined when an undo takes back an event at or before
 * `base.seq`: the state before that event is not in `base`, so the caller folds the whole log instead.
 */
export function foldOnto<S extends FightCore, F extends FoldedFight<S>>(
  base: F,
  events: readonly ChainedEvent[],
): F | undefined {
  if (!events.some(isUndo)) return evolveFight(base, events);
  const folder = new FightFolder(base.system, base.fightId, base.seq === 0 ? undefined : base);
  let { seq, headHash, drawsUsed } = base;
  for (const e of events) {
    folder.apply(e);
    if (folder.reachedBase) return undefined;
    seq = e.seq;
    headHash = e.hash;
    drawsUsed = e.drawsUsed ?? drawsUsed;
  }
  return { ...base, state: folder.state, seq, headHash, drawsUsed };
}

/**
 * Bumped whenever the fold's output for the same log changes: the fold here, or any rule system's `start` or
 * `evolve`. A snapshot of a fold (libs/fights snapshots) made under another version is ignored, never trusted.
 * libs/fight-log/spec/fold-version.unit.spec.ts fails when the fixtures fold differently under the same version.
 */
export const FOLD_VERSION = 13;

interface Kept<S> {
  seq: number;
  event: FoldableEvent;
  after: S;
}

/**
 * Folds a fight's events with its rule system, honouring `ActionsUndone`: the state after it is the
 * fold of every earlier event that is not undone. Each kept event keeps the state after it, so an
 * undo of the latest commands (the only kind the service appends) costs no re-fold at all.
 */
export class FightFolder<S extends FightCore = FightCore> {
  private kept: Kept<S>[] = [];
  private current: S;
  /** How many times `evolve` ran: lets a verifier bound the work a hostile log can cause. */
  evolveCalls = 0;
  /** Set when an undo took back an event at or before the base's seq: the state is then wrong (foldOnto). */
  reachedBase = false;
  private readonly baseSeq: number;

  /** `base`: start from a fight folded up to its seq instead of from `system.start` (foldOnto). */
  constructor(
    private readonly system: RuleSystem<S>,
    private readonly fightId: string,
    private readonly base?: { state: S; seq: number },
  ) {
    this.current = base?.state ?? system.start(fightId);
    this.baseSeq = base?.seq ?? 0;
  }

  get state(): S {
    return this.current;
  }

  apply(event: FoldableEvent): S {
    const next = evolveState(this.system, this.current, event);
    if (next === undefined) return this.undo(undoneList(event.data));
    this.evolveCalls++;
    this.current = next;
    this.kept.push({ seq: event.seq, event, after: this.current });
    return this.current;
  }

  private undo(ranges: UndoneCommand[]): S {
    if (ranges.length === 0) return this.current;
    const spans = mergeSpans(ranges);
    if (this.base && spans[0].fromSeq <= this.baseSeq) {
      this.reachedBase = true;
      return this.current;
    }
    const from = this.lowerBound(spans[0].fromSeq);
    const tail = this.kept.slice(from);
    this.kept.length = from;
    this.current =
      from > 0 ? this.kept[from - 1].after : (this.base?.state ?? this.system.start(this.fightId));
    let r = 0;
    for (const k of tail) {
      while (r < spans.length && spans[r].toSeq < k.seq) r++;
      if (r === spans.length || k.seq < spans[r].fromSeq) this.apply(k.event);
    }
    return this.current;
  }

  /** Index of the first kept event with seq ≥ `seq` (kept events are in log order). */
  private lowerBound(seq: number): number {
    let [lo, hi] = [0, this.kept.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.kept[mid].seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Sorted, disjoint seq spans covering the same seqs as `ranges`. */
function mergeSpans(ranges: UndoneCommand[]): { fromSeq: number; toSeq: number }[] {
  const sorted = [...ranges].sort((a, b) => a.fromSeq - b.fromSeq);
  const spans = [{ fromSeq: sorted[0].fromSeq, toSeq: sorted[0].toSeq }];
  for (const u of sorted.slice(1)) {
    const last = spans[spans.length - 1];
    if (u.fromSeq <= last.toSeq + 1) last.toSeq = Math.max(last.toSeq, u.toSeq);
    else spans.push({ fromSeq: u.fromSeq, toSeq: u.toSeq });
  }
  return spans;
}

/** The state after `events`, folded from `system.start(fightId)` with undos honoured. */
export function foldFight<S extends FightCore>(
  system: RuleSystem<S>,
  fightId: string,
  events: readonly FoldableEvent[],
): S {
  const folder = new FightFolder(system, fightId);
  for (const e of events) folder.apply(e);
  return folder.state;
}
