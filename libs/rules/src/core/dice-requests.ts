import { DiceSource } from '../dice/roll';
import {
  DiceNeed,
  DiceShortfall,
  LeftOver,
  MANUAL_FIELDS,
  ManualDice,
  ManualFaces,
  ManualField,
  notAFace,
} from '../dice/manual';
import { ContractViolation, FACES_MAX } from './contract';
import { arr, str } from './fields';
import { CommandActor, FightCore, PendingDecision, RuleCommand, RuleEvent, RuleSystem } from './types';
import { waitingFor } from './lifecycle';
import { RollHandedOver } from './handed-over';

export { RollHandedOver } from './handed-over';
import { ensure, RuleViolation } from './violation';

export const DICE_REQUESTED = 'DiceRequested';
export const DICE_REQUEST_CANCELLED = 'DiceRequestCancelled';
export const PROVIDE_DICE = 'ProvideDice';

/** `DiceRequested` data: the command held as sent, with its faces, and what it still needs. */
export interface DiceRequestedData {
  command: RuleCommand;
  awaiting: string;
  need: { field: ManualField; count: number; sides: number; reason: string };
  /** The pending decision `command` answers; it comes back when the request is cancelled. */
  previous?: PendingDecision;
  [key: string]: unknown;
}

/** While a dice request stands, C4 lets through its answer and what the lifecycle allows at any time. */
const WHILE_ASKING = new Set([PROVIDE_DICE, 'CancelPending', 'AddNote', 'EndFight']);
/** Events that leave a dice request standing; any other event is the held command's, decided whole. */
const KEEP_ASKING = new Set([DICE_REQUESTED, DICE_REQUEST_CANCELLED, 'GmNoteAdded']);

const WHAT: Record<ManualField, string> = {
  dice: 'a later pool, which depends on the dice already rolled',
  rerollFaces: 'a reroll',
  followUpFaces: 'a follow-up roll (a check, a table or a roll-off)',
};

/**
 * C13 (C6): a command whose later dice are not among its manual faces is held,
 * and a pending decision asks for them; `ProvideDice` completes it, `CancelPending` drops it. Wraps any
 * rule system, which never sees the request.
 */
export function withDiceRequests<S extends FightCore>(system: RuleSystem<S>): RuleSystem<S> {
  return {
    ...system,
    commands: {
      ...system.commands,
      [PROVIDE_DICE]:
        'Manual dice: the faces a dice request waits for (`dice`, `rerollFaces`, `followUpFaces`); completes the held command (docs/rulings.md C13).',
    },
    decide(state, command, dice) {
      if (command.type === PROVIDE_DICE) return provide(system, state, dice);
      if (!state.diceRequest) {
        const events = decideHolding(system, state, command, dice);
        if (dice instanceof ManualDice && system.heldAction)
          refuseFacesOfHeldAction(system, state, command, events, dice);
        return events;
      }
      if (!WHILE_ASKING.has(command.type)) waitingFor(state.pending!);
      if (command.type === 'CancelPending') return cancel(state, command);
      return system.decide(state, command, dice);
    },
    evolve(state, event) {
      return evolveAsking(system, state, event);
    },
    actorOf(state, command): CommandActor | undefined {
      if (command.type !== PROVIDE_DICE) return system.actorOf?.(state, command);
      // C3, C11: the GM may always answer; a player only for the combatant the request awaits.
      const awaiting = state.pending?.kind === 'dice' ? state.pending.awaiting : 'gm';
      return awaiting === 'gm' ? undefined : { combatantId: awaiting, field: 'type' };
    },
  };
}

function asked(
  held: RuleCommand,
  shortfall: DiceShortfall,
  awaiting: string,
  previous: PendingDecision | undefined,
): RuleEvent[] {
  const { field, count, sides } = shortfall.need;
  const reason = `${held.type} needs ${count} more d${sides} face(s) in ${field}: ${WHAT[field]}`;
  const data: DiceRequestedData = { command: held, awaiting, need: { field, count, sides, reason } };
  if (previous) data.previous = previous;
  return [{ type: DICE_REQUESTED, data }];
}

/** The settled events stand; the rest waits for its roller, over the pending decision they leave. */
function decideHandingOver<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
  dice: DiceSource,
): RuleEvent[] {
  try {
    return system.decide(state, command, dice);
  } catch (e) {
    if (!(e instanceof RollHandedOver) || !(dice instanceof ManualDice)) throw e;
    return [...e.settled, ...asked(e.rest, e, e.awaiting, e.settled.reduce(system.evolve, state).pending)];
  }
}

function decideHolding<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
  dice: DiceSource,
): RuleEvent[] {
  try {
    return decideHandingOver(system, state, command, dice);
  } catch (e) {
    if (!(e instanceof DiceShortfall) || !(dice instanceof ManualDice)) throw e;
    const { revealedSeed: _seed, ...sent } = command;
    const faces = dice.handOver();
    const held = { ...sent, ...faces } as RuleCommand;
    const never = unanswerable(command.type, e, faces) ?? unreadFaces(system, state, held, faces, e.need);
    if (never) throw never;
    const actor = system.actorOf?.(state, command)?.combatantId;
    return asked(held, e, actor || 'gm', state.pending);
  }
}

/**
 * C18: what refuses every answer to the request the short draw would make, whatever its faces show, as it refuses the
 * whole command sent up front: a draw longer than a list of faces holds (the contract), or a face the draw was given
 * in part that its die cannot show. Undefined when some answer may complete it.
 */
function unanswerable(type: string, shortfall: DiceShortfall, faces: ManualFaces): RuleViolation | undefined {
  const { field, count, sides } = shortfall.need;
  const total = shortfall.have + count;
  if (total > FACES_MAX)
    return new ContractViolation([
      {
        field,
        code: 'INVALID_FIELD',
        message: `${field} must have at most ${FACES_MAX} items: docs/rulings.md C18: ${type} rolls ${total} face(s) in ${field}, more than the list holds, so no answer can complete it`,
      },
    ]);
  const list = faces[field] ?? [];
  for (let i = shortfall.from; i < shortfall.have; i++) {
    const bad = notAFace(field, i, list[i], sides);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * C13, C18: the refusal of faces of `faces` that no way of completing `command` reads, or undefined. The command is
 * decided again with the faces it waits for filled in: every combination when there are few (a d6 pair, a table die),
 * each face repeated when there are many, and so on for each later shortfall, within PROBE_BUDGET decisions. One
 * completion that reads every face holds the command; otherwise the first face none of those tried reads is for no
 * roll, even when the budget ran out first. The shortfalls whose completions read more of the faces sent are tried
 * first (a completion that reads them all is found there soonest: an exchange with Edge on both sides and its later
 * faces given in part); among equals, in the order found, each request's completions before those of the requests
 * they make in turn: a chain with no end (a tie rolled again and again) would otherwise spend the budget on its first
 * branch.
 */
function unreadFaces<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
  faces: ManualFaces,
  need: DiceNeed,
): RuleViolation | undefined {
  const unread = MANUAL_FIELDS.some((f) => f !== need.field && (faces[f]?.length ?? 0) > 0);
  if (!unread) return undefined;
  let budget = PROBE_BUDGET;
  const most: Record<ManualField, number> = { dice: 0, rerollFaces: 0, followUpFaces: 0 };
  const open: Shortfall[] = [{ given: faces, short: need, sent: 0 }];
  search: while (open.length > 0) {
    const { given, short } = open.splice(nextToTry(open), 1)[0];
    for (const filler of completions(short.count, short.sides)) {
      if (budget-- <= 0) break search;
      const next: ManualFaces = { ...given, [short.field]: [...(given[short.field] ?? []), ...filler] };
      const { read, more, done } = completed(system, state, command, next);
      if (done) return undefined;
      for (const f of MANUAL_FIELDS) most[f] = Math.max(most[f], read[f]);
      if (more) open.push({ given: next, short: more, sent: facesRead(faces, read, more) });
    }
  }
  for (const field of MANUAL_FIELDS) {
    const got = faces[field]?.length ?? 0;
    if (field !== need.field && got > most[field])
      return facesForNoRoll({ field, used: most[field], got }, need);
  }
  return undefined;
}

/** A completion still short: its faces so far, what it needs, and how many of the faces sent it read. */
interface Shortfall {
  given: ManualFaces;
  short: DiceNeed;
  sent: number;
}

/** The shortfall to try next: the first found of those that read most of the faces sent. */
function nextToTry(open: Shortfall[]): number {
  let best = 0;
  for (let i = 1; i < open.length; i++) if (open[i].sent > open[best].sent) best = i;
  return best;
}

/** How many of the faces sent a completion read: the short draw reads the whole of its list. */
function facesRead(faces: ManualFaces, read: Record<ManualField, number>, more: DiceNeed): number {
  let n = 0;
  for (const f of MANUAL_FIELDS) {
    const sent = faces[f]?.length ?? 0;
    n += f === more.field ? sent : Math.min(read[f], sent);
  }
  return n;
}

/**
 * One completion of a held command, decided as the whole command would be: `done` when it reads every face (or hands
 * over another combatant's roll, A36, N61, whose faces come with its own answer), short of `more` faces when some
 * answer could still complete it, or neither.
 */
function completed<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
  faces: ManualFaces,
): { read: Record<ManualField, number>; more?: DiceNeed; done?: boolean } {
  const probe = new ManualDice(faces);
  try {
    system.decide(state, { ...command, ...faces }, probe);
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
    if (e instanceof DiceShortfall && !(e instanceof RollHandedOver))
      return { read: probe.reads(), more: unanswerable(command.type, e, faces) ? undefined : e.need };
    if (!(e instanceof RollHandedOver)) return { read: probe.reads() };
  }
  return { read: probe.reads(), done: !probe.leftOver() };
}

/** C13: `ProvideDice` merges its faces into the held command's and decides it again, from before the request. */
function provide<S extends FightCore>(system: RuleSystem<S>, state: S, dice: DiceSource): RuleEvent[] {
  ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
  const request = state.diceRequest;
  ensure(
    request && state.pending?.kind === 'dice',
    'NO_DICE_REQUEST',
    'docs/rulings.md C13: no dice request is waiting for faces',
    'type',
  );
  ensure(
    dice instanceof ManualDice,
    'DICE_NOT_MANUAL',
    'RULINGS.md C2: only a manual fight asks for dice',
    'type',
  );
  const given = dice.handOver();
  const held = request.command;
  const merged: RuleCommand = { ...held };
  let supplied = 0;
  for (const field of MANUAL_FIELDS) {
    const faces = arr(given[field], field, { max: 200, optional: true }) as number[];
    supplied += faces.length;
    if (faces.length > 0) merged[field] = [...faceList(held, field), ...faces];
  }
  const need = state.pending.detail as { field: ManualField; count: number; sides: number };
  ensure(
    supplied > 0,
    'DICE_MANUAL_FACES_MISSING',
    `docs/rulings.md C13: ProvideDice carries no faces; ${held.type} waits for ${need.count} d${need.sides} in ${need.field}`,
    `${need.field}[0]`,
  );
  const before = resumed(state);
  const manual = new ManualDice(merged as ManualFaces);
  try {
    const events = decideHandingOver(system, before, merged, manual);
    manual.assertAllUsed();
    return events;
  } catch (e) {
    if (!(e instanceof DiceShortfall)) throw e instanceof RuleViolation ? relative(e, held) : e;
    const faces = manual.handOver();
    const never = unanswerable(held.type, e, faces) ?? unreadFaces(system, before, merged, faces, e.need);
    if (never) throw relative(never, held);
    return asked({ ...merged, ...faces }, e, state.pending.awaiting, request.previous);
  }
}

/**
 * C13: a command a system holds before it rolls (Archsoul's reactive attacks, S18) leaves its faces
 * unread; they are for the roll its resume makes, after whatever happens first, and are refused naming that command.
 */
function refuseFacesOfHeldAction<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
  events: RuleEvent[],
  dice: ManualDice,
): void {
  const left = dice.leftOver();
  if (!left || system.heldAction!(state)) return;
  const held = system.heldAction!(events.reduce(system.evolve, state));
  if (!held) return;
  const before = left.used === 0 ? '' : ` (it rolls ${left.used} of them first)`;
  throw new RuleViolation(
    'DICE_ACTION_HELD',
    `RULINGS.md C6, docs/rulings.md C13: manual dice: ${command.type} is held before it rolls (${held.reason}); its faces in ${left.field}${before} belong on the ${held.answer} from ${held.awaiting} that performs it: send ${command.type} without them`,
    left.field,
  );
}

function cancel<S extends FightCore>(state: S, command: RuleCommand): RuleEvent[] {
  const request = state.diceRequest!;
  const reason = command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 1000 });
  return [
    {
      type: DICE_REQUEST_CANCELLED,
      data: { commandType: request.command.type, restored: request.previous?.kind, reason },
    },
  ];
}

/** A dice request folds into a pending decision; the wrapped system folds everything else, from before it. */
function evolveAsking<S extends FightCore>(system: RuleSystem<S>, state: S, event: RuleEvent): S {
  switch (event.type) {
    case DICE_REQUESTED: {
      const d = event.data as DiceRequestedData;
      const pending: PendingDecision = {
        kind: 'dice',
        awaiting: d.awaiting,
        answer: PROVIDE_DICE,
        detail: { commandType: d.command.type, ...d.need },
      };
      return { ...state, pending, diceRequest: { command: d.command, previous: d.previous } };
    }
    case DICE_REQUEST_CANCELLED:
      // A system may fold it too: the roll a held rest was waiting for is not owed any more (A36).
      return system.evolve(resumed(state), event);
  }
  if (state.diceRequest && !KEEP_ASKING.has(event.type))
    return system.evolve(
      event.type === 'FightEnded' ? { ...state, diceRequest: undefined } : resumed(state),
      event,
    );
  return system.evolve(state, event);
}

/** How many decisions a held command's faces are checked with (C13, C18). */
const PROBE_BUDGET = 256;
/**
 * Up to this many combinations, every one is tried; above it, every multiset of faces (each once, in rising order) when
 * they are as few, else each face repeated.
 */
const EVERY_COMBINATION = 64;

/**
 * The faces a short draw of `count` d`sides` might show, as a completion is probed with. A pool's outcome rarely
 * depends on the order of its faces, so where the orders are too many each multiset stands for them all: 56 for 3 d6,
 * where each face repeated (6) showed no total of 4 or 5 dots, the only ones some exchanges read a later face on.
 */
function completions(count: number, sides: number): number[][] {
  if (sides ** count <= EVERY_COMBINATION) return sequences(count, sides, 1, false);
  if (multisets(count, sides) <= EVERY_COMBINATION) return sequences(count, sides, 1, true);
  return Array.from({ length: sides }, (_, f) => Array<number>(count).fill(f + 1));
}

/** Every list of `count` faces from `from` to `sides`, or (`rising`) only those whose faces never fall. */
function sequences(count: number, sides: number, from: number, rising: boolean): number[][] {
  if (count === 0) return [[]];
  const out: number[][] = [];
  for (let f = from; f <= sides; f++)
    for (const rest of sequences(count - 1, sides, rising ? f : 1, rising)) out.push([f, ...rest]);
  return out;
}

/** How many multisets of `count` faces a d`sides` has: C(sides + count - 1, count). */
function multisets(count: number, sides: number): number {
  let n = 1;
  for (let i = 1; i <= count; i++) n = (n * (sides - 1 + i)) / i;
  return Math.round(n);
}

/** C13: faces a held command could never use are refused when they are sent, not once the last face comes. */
function facesForNoRoll(left: LeftOver, need: DiceNeed): RuleViolation {
  return new RuleViolation(
    'DICE_MANUAL_FACES_EXTRA',
    `RULINGS.md C6, docs/rulings.md C13: manual dice: this command rolls ${left.used} face(s) in ${left.field}, got ${left.got}, whatever the ${need.count} face(s) it still needs in ${need.field} show: the faces from ${left.field}[${left.used}] on are for no roll`,
    `${left.field}[${left.used}]`,
  );
}

/** The state as it was before the request: the held command's own pending decision, if any, back. */
function resumed<S extends FightCore>(state: S): S {
  return { ...state, pending: state.diceRequest?.previous, diceRequest: undefined };
}

function faceList(command: RuleCommand, field: ManualField): number[] {
  const list = command[field];
  return Array.isArray(list) ? (list as number[]) : [];
}

/** A refusal naming a face of the merged lists names it in ProvideDice's own list, or says it is the held command's. */
function relative(e: RuleViolation, held: RuleCommand): RuleViolation {
  const m = /^(dice|rerollFaces|followUpFaces)\[(\d+)\]$/.exec(e.field ?? '');
  if (!m) return e;
  const before = faceList(held, m[1] as ManualField).length;
  const index = Number(m[2]);
  if (index < before)
    return new RuleViolation(
      e.code,
      `${e.message} (a face the held ${held.type} carries: CancelPending drops it, to be sent again)`,
      e.field,
    );
  return new RuleViolation(e.code, e.message, `${m[1]}[${index - before}]`);
}
