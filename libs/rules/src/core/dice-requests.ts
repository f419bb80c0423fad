import { DiceSource } from '../dice/roll';
import { DiceShortfall, MANUAL_FIELDS, ManualDice, ManualFaces, ManualField } from '../dice/manual';
import { arr, str } from './fields';
import { CommandActor, FightCore, PendingDecision, RuleCommand, RuleEvent, RuleSystem } from './types';
import { waitingFor } from './lifecycle';
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

/**
 * A later draw that is another combatant's roll (Arcana Beast's Devolution Test at 0 HP, RULINGS.md A36): what the
 * command decided before it stands (`settled`), and `rest`, the roll alone, is held for the faces, awaiting `awaiting`.
 * A decider used on its own surfaces it as the C6 refusal it extends.
 */
export class RollHandedOver extends DiceShortfall {
  constructor(
    shortfall: DiceShortfall,
    readonly settled: RuleEvent[],
    readonly rest: RuleCommand,
    readonly awaiting: string,
  ) {
    super(shortfall.need, shortfall.have);
  }
}

const WHAT: Record<ManualField, string> = {
  dice: 'a later pool, which depends on the dice already rolled',
  rerollFaces: 'a reroll',
  followUpFaces: 'a follow-up roll (a check, a table or a roll-off)',
};

/**
 * docs/rulings.md C13 (RULINGS.md C6): a command whose later dice are not among its manual faces is held,
 * and a pending decision asks for them; `ProvideDice` completes it, `CancelPending` drops it. Wraps any
 * rule system, which never sees the request.
 */
export function withDiceRequests<S extends FightCore>(system: RuleSystem<S>): RuleSystem<S> {
  const asked = (held: RuleCommand, shortfall: DiceShortfall, awaiting: string, previous: PendingDecision | undefined): RuleEvent[] => {
    const { field, count, sides } = shortfall.need;
    const reason = `${held.type} needs ${count} more d${sides} face(s) in ${field}: ${WHAT[field]}`;
    const data: DiceRequestedData = { command: held, awaiting, need: { field, count, sides, reason } };
    if (previous) data.previous = previous;
    return [{ type: DICE_REQUESTED, data }];
  };

  /** The settled events stand; the rest waits for its roller, over the pending decision they leave. */
  const decideHandingOver = (state: S, command: RuleCommand, dice: DiceSource): RuleEvent[] => {
    try {
      return system.decide(state, command, dice);
    } catch (e) {
      if (!(e instanceof RollHandedOver) || !(dice instanceof ManualDice)) throw e;
      return [...e.settled, ...asked(e.rest, e, e.awaiting, e.settled.reduce(system.evolve, state).pending)];
    }
  };

  const decideHolding = (state: S, command: RuleCommand, dice: DiceSource): RuleEvent[] => {
    try {
      return decideHandingOver(state, command, dice);
    } catch (e) {
      if (!(e instanceof DiceShortfall) || !(dice instanceof ManualDice)) throw e;
      const { revealedSeed: _seed, ...sent } = command;
      const held = { ...sent, ...dice.handOver() } as RuleCommand;
      const actor = system.actorOf?.(state, command)?.combatantId;
      return asked(held, e, actor || 'gm', state.pending);
    }
  };

  const provide = (state: S, dice: DiceSource): RuleEvent[] => {
    ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
    const request = state.diceRequest;
    ensure(request && state.pending?.kind === 'dice', 'NO_DICE_REQUEST', 'docs/rulings.md C13: no dice request is waiting for faces', 'type');
    ensure(dice instanceof ManualDice, 'DICE_NOT_MANUAL', 'RULINGS.md C2: only a manual fight asks for dice', 'type');
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
    ensure(supplied > 0, 'DICE_MANUAL_FACES_MISSING', `docs/rulings.md C13: ProvideDice carries no faces; ${held.type} waits for ${need.count} d${need.sides} in ${need.field}`, `${need.field}[0]`);
    const before = resumed(state);
    const manual = new ManualDice(merged as ManualFaces);
    try {
      const events = decideHandingOver(before, merged, manual);
      manual.assertAllUsed();
      return events;
    } catch (e) {
      if (e instanceof DiceShortfall) return asked({ ...merged, ...manual.handOver() } as RuleCommand, e, state.pending.awaiting, request.previous);
      throw e instanceof RuleViolation ? relative(e, held) : e;
    }
  };

  const cancel = (state: S, command: RuleCommand): RuleEvent[] => {
    const request = state.diceRequest!;
    const reason = command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 1000 });
    return [{ type: DICE_REQUEST_CANCELLED, data: { commandType: request.command.type, restored: request.previous?.kind, reason } }];
  };

  return {
    ...system,
    commands: { ...system.commands, [PROVIDE_DICE]: 'Manual dice: the faces a dice request waits for (`dice`, `rerollFaces`, `followUpFaces`); completes the held command (docs/rulings.md C13).' },
    decide(state, command, dice) {
      if (command.type === PROVIDE_DICE) return provide(state, dice);
      if (!state.diceRequest) return decideHolding(state, command, dice);
      if (!WHILE_ASKING.has(command.type)) waitingFor(state.pending!);
      if (command.type === 'CancelPending') return cancel(state, command);
      return system.decide(state, command, dice);
    },
    evolve(state, event) {
      switch (event.type) {
        case DICE_REQUESTED: {
          const d = event.data as DiceRequestedData;
          const pending: PendingDecision = { kind: 'dice', awaiting: d.awaiting, answer: PROVIDE_DICE, detail: { commandType: d.command.type, ...d.need } };
          return { ...state, pending, diceRequest: { command: d.command, previous: d.previous } };
        }
        case DICE_REQUEST_CANCELLED:
          // A system may fold it too: the roll a held rest was waiting for is not owed any more (RULINGS.md A36).
          return system.evolve(resumed(state), event);
      }
      if (state.diceRequest && !KEEP_ASKING.has(event.type)) return system.evolve(event.type === 'FightEnded' ? { ...state, diceRequest: undefined } : resumed(state), event);
      return system.evolve(state, event);
    },
    actorOf(state, command): CommandActor | undefined {
      if (command.type !== PROVIDE_DICE) return system.actorOf?.(state, command);
      // RULINGS.md C3, C11: the GM may always answer; a player only for the combatant the request awaits.
      const awaiting = state.pending?.kind === 'dice' ? state.pending.awaiting : 'gm';
      return awaiting === 'gm' ? undefined : { combatantId: awaiting, field: 'type' };
    },
  };
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
  if (index < before) return new RuleViolation(e.code, `${e.message} (a face the held ${held.type} carries)`, e.field);
  return new RuleViolation(e.code, e.message, `${m[1]}[${index - before}]`);
}
