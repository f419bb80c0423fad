import { sha256 } from '@noble/hashes/sha2.js';
import { DiceSource, Roll } from '../dice/roll';
import { DRAW_KEY_MAX, seedKey, toHex } from '../dice/seeded';
import { PROTO_KEY, PROTO_KEY_REFUSED } from './contract';
import { arr, bad, bool, ID_PATTERN, obj, oneOf, str } from './fields';
import {
  CombatantCore,
  CommandActor,
  DiceMode,
  FieldCombatant,
  FightCore,
  PendingDecision,
  RuleCommand,
  RuleEvent,
  SystemId,
} from './types';
import { ensure, violation } from './violation';
import { isLifecycleEvent, MAX_COMBATANTS } from './lifecycle-contract';
import { HandOverStep, settledBefore } from './handed-over';

/**
 * The fight lifecycle every system shares: start, combatants,
 * initiative, rounds, activations, GM notes, end. A system plugs in its sheet,
 * its initiative roll and its round-end effects through these hooks.
 */
export interface LifecycleHooks<S extends FightCore> {
  system: SystemId;
  /** Validates and normalises a sheet; throws a RuleViolation naming the field. */
  validateSheet(sheet: unknown, field: string): unknown;
  /** Builds the system's combatant state from a joined combatant. */
  newCombatant(base: CombatantCore): S['combatants'][string];
  /** Rolls initiative for `ids`; returns each roll and the full order with `ids` slotted in. */
  rollInitiative(state: S, ids: string[], dice: DiceSource): InitiativeResult;
  /** Whether the combatant gets activations (not Collapsed, Withdrawn, Down…). */
  canActivate(state: S, id: string): boolean;
  /** Events that happen when a combatant's activation starts, after ActivationStarted. */
  onActivationStart?(state: S, id: string, dice: DiceSource): RuleEvent[];
  /** Events that happen when a combatant's activation ends, after ActivationEnded; a pending decision they open holds the round's end. */
  onActivationEnd?(state: S, id: string, dice: DiceSource): RuleEvent[];
  /** Events that happen when a round starts, after RoundStarted. */
  onRoundStart?(state: S, dice: DiceSource): RuleEvent[];
  /**
   * Events at the end of a round, before RoundEnded (Lingering Harm ticks…). When they open a pending decision,
   * RoundEnded waits: the system emits it once the decision is answered.
   */
  onRoundEnd?(state: S, dice: DiceSource): RuleEvent[];
  evolve(this: void, state: S, event: RuleEvent): S;
  /** The rule a second RollInitiative is refused by, as the system's text says it (default N16). */
  initiativeRolledOnce?: string;
  /** C4: every command that answers a pending decision of each kind, when the system takes more than its `answer`. */
  answers?: Readonly<Record<string, readonly string[]>>;
}

export interface InitiativeRoll {
  combatantId: string;
  roll: Roll;
  total: number;
}

export interface InitiativeResult {
  rolls: InitiativeRoll[];
  order: string[];
  /** Groups still tied after the system's tie-breaks: the GM decides (C3). */
  ties: string[][];
}

export const LIFECYCLE_COMMANDS: Record<string, string> = {
  StartFight: 'Create the fight: name, dice mode, options and the first combatants (sent by POST /fights).',
  AddCombatant: 'Add a combatant with a sheet; after initiative it rolls and is slotted in.',
  RemoveCombatant: 'Remove a combatant from the fight.',
  RollInitiative: 'Roll initiative for everyone; `tieBreak` (ids) orders groups still tied.',
  SetInitiative: 'GM gives the initiative order explicitly (`order`: every combatant id).',
  StartRound: 'Open the next round.',
  StartActivation: "Start a combatant's activation (default: the next in order who has not acted).",
  EndActivation: 'End the running activation; the last one ends the round.',
  EndRound: 'GM ends the open round early.',
  AddNote: 'GM note (free text, optional combatantId).',
  CancelPending: 'GM cancels the pending decision (RULINGS.md C4).',
  EndFight: 'End the fight and reveal the dice seed.',
};

const ANYTIME = new Set(['AddNote', 'CancelPending', 'EndFight']);

export interface CombatantInput {
  id: string;
  name: string;
  side: string;
  sheet: unknown;
}

export function readCombatant<S extends FightCore>(
  raw: unknown,
  field: string,
  state: S,
  hooks: LifecycleHooks<S>,
  taken: Set<string>,
): CombatantInput {
  const c = obj(raw, field);
  let id = c.id === undefined ? undefined : str(c.id, `${field}.id`, { pattern: ID_PATTERN });
  if (id === PROTO_KEY) bad(`${field}.id`, PROTO_KEY_REFUSED);
  const removed = state.removed ?? [];
  if (id === undefined) {
    let n = state.joined.length + taken.size + 1;
    while (Object.hasOwn(state.combatants, `c${n}`) || taken.has(`c${n}`) || removed.includes(`c${n}`)) n++;
    id = `c${n}`;
  }
  ensure(
    !Object.hasOwn(state.combatants, id) && !taken.has(id),
    'COMBATANT_ID_TAKEN',
    `combatant id ${id} is already in this fight`,
    `${field}.id`,
  );
  // C11: an id names one combatant for the whole fight; what the fight keeps under it never passes to a newcomer.
  ensure(
    !removed.includes(id),
    'COMBATANT_ID_TAKEN',
    `docs/rulings.md C11: combatant id ${id} belonged to a combatant removed from this fight; ids are not reused, give the newcomer another`,
    `${field}.id`,
  );
  taken.add(id);
  const side =
    c.side === undefined ? 'default' : str(c.side, `${field}.side`, { max: 40, pattern: ID_PATTERN });
  if (side === PROTO_KEY) bad(`${field}.side`, PROTO_KEY_REFUSED);
  return {
    id,
    name: str(c.name, `${field}.name`, { max: 100 }),
    side,
    sheet: hooks.validateSheet(c.sheet, `${field}.sheet`),
  };
}

/**
 * The commands that answer a pending decision: its `answer`, and those its `detail.alsoAccepts` names (an
 * Opportunity Attack offer is answered by taking it or declining it).
 */
export function answersTo(pending: PendingDecision): string[] {
  const also = pending.detail?.alsoAccepts;
  const extra = Array.isArray(also) ? also.filter((a): a is string => typeof a === 'string') : [];
  return [pending.answer, ...extra.filter((a) => a !== pending.answer)];
}

/** Who the open round still waits for, in initiative order: not yet activated this round, and able to act. */
export function waitingIn<S extends FightCore>(
  state: S,
  hooks: Pick<LifecycleHooks<S>, 'canActivate'>,
): string[] {
  return state.order.filter((id) => !state.actedThisRound.includes(id) && hooks.canActivate(state, id));
}

/**
 * N59, A68: whether a command decided on `before` may leave the open round no one to wait for: a round open between
 * two activations, someone still waiting.
 */
export function roundMayEmpty<S extends FightCore>(
  before: S,
  hooks: Pick<LifecycleHooks<S>, 'canActivate'>,
): boolean {
  return before.roundOpen && before.activeId === undefined && waitingIn(before, hooks).length > 0;
}

/**
 * N59, A68: the round's end, as the last EndActivation would have given it, when the command left the open round
 * no one to wait for and nothing pending (`after`: the state after the command's events).
 */
export function roundEndsEmpty<S extends FightCore>(
  after: S,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  if (!after.roundOpen || after.activeId !== undefined || after.pending || waitingIn(after, hooks).length > 0)
    return [];
  return decideLifecycle(after, { type: 'EndRound' }, dice, hooks) ?? [];
}

/** C4: the refusal of a command that does not answer the pending decision, naming every command that does. */
export function waitingFor(
  pending: PendingDecision,
  accepted: readonly string[] = answersTo(pending),
): never {
  return violation(
    'PENDING_DECISION',
    `RULINGS.md C4: waiting for ${pending.awaiting} to answer ${pending.kind} with ${accepted.join(' or ')}`,
    'type',
  );
}

/** Returns the events for a lifecycle command, or undefined when `command` is not one. */
export function decideLifecycle<S extends FightCore>(
  state: S,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] | undefined {
  if (!Object.hasOwn(LIFECYCLE_COMMANDS, command.type)) return undefined;
  if (command.type === 'StartFight') return startFight(state, command, hooks);
  ensure(state.status !== 'new', 'FIGHT_NOT_STARTED', 'the fight has not been started', 'type');
  ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
  if (state.pending && !ANYTIME.has(command.type) && command.type !== state.pending.answer)
    waitingFor(state.pending, hooks.answers?.[state.pending.kind]);
  switch (command.type) {
    case 'AddCombatant':
      return addCombatant(state, command, dice, hooks);
    case 'RemoveCombatant':
      return removeCombatant(state, command, dice, hooks);
    case 'RollInitiative':
      return rollInitiative(state, command, dice, hooks);
    case 'SetInitiative':
      return setInitiative(state, command);
    case 'StartRound':
      return startRound(state, dice, hooks);
    case 'StartActivation':
      return startActivation(state, command, dice, hooks);
    case 'EndActivation':
      return endActivation(state, dice, hooks);
    case 'EndRound':
      return endRound(state, dice, hooks);
    case 'AddNote':
      return [
        {
          type: 'GmNoteAdded',
          data: {
            text: str(command.text, 'text', { max: 4000 }),
            combatantId: optionalCombatant(state, command.combatantId),
          },
        },
      ];
    case 'CancelPending':
      ensure(state.pending, 'NO_PENDING_DECISION', 'there is no pending decision to cancel', 'type');
      return [
        {
          type: 'PendingCancelled',
          data: {
            kind: state.pending.kind,
            reason: command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 1000 }),
          },
        },
      ];
    case 'EndFight':
      return endFight(state, command);
  }
  return undefined;
}

function startFight<S extends FightCore>(
  state: S,
  command: RuleCommand,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  ensure(state.status === 'new', 'FIGHT_ALREADY_STARTED', 'the fight has already started', 'type');
  const dice = obj(command.dice, 'dice');
  const mode = oneOf<DiceMode>(dice.mode, 'dice.mode', ['fair', 'seeded', 'manual']);
  const drawKey = str(dice.drawKey, 'dice.drawKey', { optional: true, max: DRAW_KEY_MAX });
  ensure(
    drawKey === undefined || mode === 'seeded',
    'DICE_DRAW_KEY_NOT_ALLOWED',
    `docs/rulings.md C14: only seeded dice take a drawKey; ${mode} dice cannot be reproduced in another fight`,
    'dice.drawKey',
  );
  const taken = new Set<string>();
  const combatants = arr(command.combatants, 'combatants', { max: MAX_COMBATANTS, optional: true }).map(
    (c, i) => readCombatant(c, `combatants[${i}]`, state, hooks, taken),
  );
  return [
    {
      type: 'FightStarted',
      data: {
        system: hooks.system,
        name: command.name === undefined ? 'Untitled fight' : str(command.name, 'name', { max: 200 }),
        dice: {
          mode,
          commitment: str(dice.commitment, 'dice.commitment', { pattern: /^[0-9a-f]{64}$/ }),
          clientSeed:
            dice.clientSeed === undefined ? '' : str(dice.clientSeed, 'dice.clientSeed', { max: 200 }),
          ...(drawKey !== undefined && { drawKey }),
        },
        options: command.options === undefined ? {} : obj(command.options, 'options'),
      },
    },
    ...combatants.map((c) => ({ type: 'CombatantJoined', data: { ...c } })),
  ];
}

function addCombatant<S extends FightCore>(
  state: S,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  // C15: no more than StartFight takes, and SetInitiative's order can name.
  ensure(
    state.joined.length < MAX_COMBATANTS,
    'FIGHT_FULL',
    `docs/rulings.md C15: a fight holds at most ${MAX_COMBATANTS} combatants at once; remove one before adding another`,
    'combatant',
  );
  const c = readCombatant(command.combatant, 'combatant', state, hooks, new Set());
  const joined: RuleEvent = { type: 'CombatantJoined', data: { ...c } };
  if (state.order.length === 0) {
    // C10: before initiative a joiner rolls nothing (it rolls with everyone at RollInitiative): nothing can tie.
    if (command.tieBreak !== undefined)
      bad(
        'tieBreak',
        `is not used before initiative is rolled: ${c.id} rolls with everyone at RollInitiative (docs/rulings.md C10)`,
      );
    return [joined];
  }
  // N16: a late joiner rolls and is slotted in.
  const after = hooks.evolve(state, joined);
  const tieBreak = tieBreakIds(after, command.tieBreak);
  const result = hooks.rollInitiative(after, [c.id], dice);
  return [joined, initiativeEvent(result, tieBreak)];
}

function removeCombatant<S extends FightCore>(
  state: S,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const removed: RuleEvent = {
    type: 'CombatantRemoved',
    data: {
      combatantId: id,
      reason: command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 1000 }),
    },
  };
  if (state.activeId !== id) return [removed];
  // C16: the running activation leaves with its combatant; when it was the round's last, the round ends as after EndActivation.
  const after = hooks.evolve(state, removed);
  const waiting = waitingIn(after, hooks);
  if (waiting.length > 0 || after.pending) return [removed];
  return [removed, ...settledBefore([removed], () => closeRound(after, dice, hooks))];
}

function rollInitiative<S extends FightCore>(
  state: S,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  const once = hooks.initiativeRolledOnce ?? 'RULINGS.md N16: initiative is rolled once';
  ensure(
    state.order.length === 0,
    'INITIATIVE_ALREADY_SET',
    `${once}; the GM may reorder with SetInitiative`,
    'type',
  );
  const ids = state.joined.filter((id) => hooks.canActivate(state, id));
  ensure(ids.length > 0, 'NO_COMBATANTS', 'initiative needs at least one combatant who can act', 'type');
  // C10: a lone roll ties with no one, whatever it shows.
  if (ids.length === 1 && command.tieBreak !== undefined)
    bad(
      'tieBreak',
      `is not used when ${ids[0]} alone rolls initiative: nothing can tie (docs/rulings.md C10)`,
    );
  const tieBreak = tieBreakIds(state, command.tieBreak);
  return [initiativeEvent(hooks.rollInitiative(state, ids, dice), tieBreak)];
}

/**
 * C10: a `tieBreak`'s ids, checked before any die is rolled: each names a combatant of the fight, once. An id that
 * names no one, or one already named, could order no tie whatever the dice, so it is refused whether or not the roll
 * ties; a valid id stands unused when the dice leave it no tie to break. A system adds its own kinds of combatant
 * that roll no initiative (A29: a Beast Binder).
 */
export function tieBreakIds(state: FightCore, raw: unknown): string[] {
  const ids = arr(raw, 'tieBreak', { max: MAX_COMBATANTS, optional: true }).map((id, i) =>
    combatantId(state, id, `tieBreak[${i}]`),
  );
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) bad(`tieBreak[${i}]`, `names ${id} twice (docs/rulings.md C10)`);
  });
  return ids;
}

/**
 * C10: each group still tied is ordered among its own members by the tieBreak, named members first in its order, in
 * the places the group holds; a group is settled only when the tieBreak names all its members.
 */
function initiativeEvent(result: InitiativeResult, tieBreak: string[]): RuleEvent {
  let { order, ties } = result;
  if (ties.length > 0 && tieBreak.length > 0) {
    const rank = (id: string) => (tieBreak.includes(id) ? tieBreak.indexOf(id) : Number.MAX_SAFE_INTEGER);
    for (const group of ties) {
      const slots = group.map((id) => order.indexOf(id)).sort((a, b) => a - b);
      const sorted = [...group].sort((a, b) => rank(a) - rank(b));
      order = [...order];
      slots.forEach((slot, i) => (order[slot] = sorted[i]));
    }
    ties = ties.filter((g) => g.some((id) => !tieBreak.includes(id)));
  }
  return { type: 'InitiativeRolled', data: { rolls: result.rolls, order, unresolvedTies: ties } };
}

function setInitiative<S extends FightCore>(state: S, command: RuleCommand): RuleEvent[] {
  const order = arr(command.order, 'order', { max: MAX_COMBATANTS }).map((id, i) =>
    combatantId(state, id, `order[${i}]`),
  );
  ensure(
    new Set(order).size === order.length,
    'INITIATIVE_ORDER_INVALID',
    'order names a combatant twice',
    'order',
  );
  const missing = state.joined.filter((id) => !order.includes(id));
  ensure(
    missing.length === 0,
    'INITIATIVE_ORDER_INVALID',
    `order must name every combatant; missing ${missing.join(', ')}`,
    'order',
  );
  return [{ type: 'InitiativeSet', data: { order } }];
}

function startRound<S extends FightCore>(state: S, dice: DiceSource, hooks: LifecycleHooks<S>): RuleEvent[] {
  ensure(
    state.order.length > 0,
    'INITIATIVE_NOT_SET',
    'roll or set initiative before the first round',
    'type',
  );
  ensure(!state.roundOpen, 'ROUND_ALREADY_OPEN', `round ${state.round} is still open`, 'type');
  const started: RuleEvent = { type: 'RoundStarted', data: { round: state.round + 1 } };
  return [
    started,
    ...settledBefore([started], () => hooks.onRoundStart?.(hooks.evolve(state, started), dice) ?? []),
  ];
}

function startActivation<S extends FightCore>(
  state: S,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  ensure(state.roundOpen, 'ROUND_NOT_OPEN', 'start a round first', 'type');
  ensure(
    !state.activeId,
    'ACTIVATION_IN_PROGRESS',
    `${state.activeId}'s activation is still running`,
    'type',
  );
  const waiting = waitingIn(state, hooks);
  let id: string;
  if (command.combatantId === undefined) {
    ensure(waiting.length > 0, 'NO_ACTIVATION_LEFT', 'everyone has acted this round', 'type');
    id = waiting[0];
  } else {
    id = combatantId(state, command.combatantId, 'combatantId');
    ensure(
      !state.actedThisRound.includes(id),
      'ALREADY_ACTED',
      `${id} has already had an activation this round`,
      'combatantId',
    );
    ensure(
      hooks.canActivate(state, id),
      'COMBATANT_CANNOT_ACT',
      `${id} cannot take an activation in its current state`,
      'combatantId',
    );
  }
  const started: RuleEvent = { type: 'ActivationStarted', data: { combatantId: id, round: state.round } };
  return [
    started,
    ...settledBefore(
      [started],
      () => hooks.onActivationStart?.(hooks.evolve(state, started), id, dice) ?? [],
    ),
  ];
}

function endActivation<S extends FightCore>(
  state: S,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  ensure(state.activeId, 'NO_ACTIVATION', 'no activation is running', 'type');
  const [ended, ...effects] = settledBefore([], () => activationEnded(state, dice, hooks), {
    step: 'closeRound',
    when: 'noneWaiting',
  });
  const after = [ended, ...effects].reduce(hooks.evolve, state);
  if (after.pending) return [ended, ...effects];
  const waiting = waitingIn(after, hooks);
  if (waiting.length > 0) return [ended, ...effects];
  return [ended, ...effects, ...settledBefore([ended, ...effects], () => closeRound(after, dice, hooks))];
}

/** ActivationEnded and what the system adds to it. */
function activationEnded<S extends FightCore>(
  state: S,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] {
  const id = state.activeId!;
  const ended: RuleEvent = { type: 'ActivationEnded', data: { combatantId: id, round: state.round } };
  return [
    ended,
    ...settledBefore([ended], () => hooks.onActivationEnd?.(hooks.evolve(state, ended), id, dice) ?? []),
  ];
}

function endRound<S extends FightCore>(state: S, dice: DiceSource, hooks: LifecycleHooks<S>): RuleEvent[] {
  ensure(state.roundOpen, 'ROUND_NOT_OPEN', 'no round is open', 'type');
  if (!state.activeId) return closeRound(state, dice, hooks);
  const ended = settledBefore([], () => activationEnded(state, dice, hooks), {
    step: 'closeRound',
    when: 'always',
  });
  const after = ended.reduce(hooks.evolve, state);
  return after.pending ? ended : [...ended, ...settledBefore(ended, () => closeRound(after, dice, hooks))];
}

/** The round's end effects, then RoundEnded, unless an effect opened a pending decision (the system ends the round after it). */
function closeRound<S extends FightCore>(state: S, dice: DiceSource, hooks: LifecycleHooks<S>): RuleEvent[] {
  const effects = settledBefore([], () => hooks.onRoundEnd?.(state, dice) ?? [], { step: 'roundEnded' });
  if (effects.length > 0 && !state.pending && effects.reduce(hooks.evolve, state).pending) return effects;
  return [...effects, { type: 'RoundEnded', data: { round: state.round } }];
}

/**
 * N61: the lifecycle's part of what waits for a roll handed over in a lifecycle effect, decided on the state the
 * roll leaves, as the lifecycle would have gone on: `closeRound` after an activation's end (when no one is left to
 * wait for, or always, for EndRound), `roundEnded` after the round's end effects. Undefined for another step.
 */
export function lifecycleStep<S extends FightCore>(
  state: S,
  step: HandOverStep,
  dice: DiceSource,
  hooks: LifecycleHooks<S>,
): RuleEvent[] | undefined {
  switch (step.step) {
    case 'closeRound':
      if (state.pending || (step.when === 'noneWaiting' && waitingIn(state, hooks).length > 0)) return [];
      return closeRound(state, dice, hooks);
    case 'roundEnded':
      return state.pending ? [] : [{ type: 'RoundEnded', data: { round: state.round } }];
  }
  return undefined;
}

function endFight<S extends FightCore>(state: S, command: RuleCommand): RuleEvent[] {
  const seed = str(command.revealedSeed, 'revealedSeed');
  ensure(
    toHex(sha256(seedKey(seed))) === state.dice.commitment,
    'DICE_SEED_MISMATCH',
    'RULINGS.md C2: the revealed seed does not match the commitment',
    'revealedSeed',
  );
  const winnerSide =
    command.winnerSide === undefined ? undefined : str(command.winnerSide, 'winnerSide', { max: 40 });
  if (winnerSide !== undefined) {
    // C17: the winner is a side of the fight; a side no combatant has is a typo the ended fight could not undo.
    const sides = [...new Set(Object.values(state.combatants).map((c) => c.side))];
    ensure(
      sides.includes(winnerSide),
      'SIDE_NOT_FOUND',
      `docs/rulings.md C17: no combatant of this fight is on side ${winnerSide}; its sides: ${sides.join(', ') || 'none'}`,
      'winnerSide',
    );
  }
  return [
    {
      type: 'FightEnded',
      data: {
        reason: command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 1000 }),
        seed,
        winnerSide,
        unfinished: bool(command.unfinished, 'unfinished', false),
      },
    },
  ];
}

export function combatantId(state: FightCore, raw: unknown, field: string): string {
  const id = str(raw, field, { max: 64 });
  ensure(
    Object.hasOwn(state.combatants, id),
    'COMBATANT_NOT_FOUND',
    `no combatant ${id} in this fight`,
    field,
  );
  return id;
}

function optionalCombatant(state: FightCore, raw: unknown): string | undefined {
  return raw === undefined ? undefined : combatantId(state, raw, 'combatantId');
}

export function initialCore(fightId: string, system: SystemId): FightCore {
  return {
    fightId,
    system,
    status: 'new',
    name: '',
    dice: { mode: 'fair', commitment: '', clientSeed: '' },
    options: {},
    combatants: {},
    joined: [],
    order: [],
    round: 0,
    roundOpen: false,
    actedThisRound: [],
    notes: 0,
  };
}

/** Folds a lifecycle event; returns undefined when `event` is not one. */
export function evolveLifecycle<S extends FightCore>(
  state: S,
  event: RuleEvent,
  hooks: Pick<LifecycleHooks<S>, 'newCombatant'>,
): S | undefined {
  if (!isLifecycleEvent(event)) return undefined;
  switch (event.type) {
    case 'FightStarted': {
      const d = event.data;
      return { ...state, status: 'setup', name: d.name, dice: { ...d.dice }, options: d.options };
    }
    case 'CombatantJoined': {
      const d = event.data;
      const c = hooks.newCombatant({ id: d.id, name: d.name, side: d.side, sheet: d.sheet });
      return { ...state, combatants: { ...state.combatants, [d.id]: c }, joined: [...state.joined, d.id] };
    }
    case 'CombatantRemoved':
      return withoutCombatant(state, event.data.combatantId);
    case 'InitiativeRolled': {
      const ties = event.data.unresolvedTies;
      const pending =
        ties.length > 0
          ? { kind: 'initiativeTie', awaiting: 'gm', answer: 'SetInitiative', detail: { ties } }
          : state.pending;
      return { ...state, order: event.data.order, pending };
    }
    case 'InitiativeSet':
      return {
        ...state,
        order: event.data.order,
        pending: state.pending?.kind === 'initiativeTie' ? undefined : state.pending,
      };
    case 'RoundStarted':
      return { ...state, status: 'active', round: event.data.round, roundOpen: true, actedThisRound: [] };
    case 'ActivationStarted':
      return { ...state, activeId: event.data.combatantId };
    case 'ActivationEnded':
      return {
        ...state,
        activeId: undefined,
        actedThisRound: [...state.actedThisRound, event.data.combatantId],
      };
    case 'RoundEnded':
      return { ...state, roundOpen: false, activeId: undefined };
    case 'GmNoteAdded':
      return { ...state, notes: state.notes + 1 };
    case 'PendingCancelled':
      return { ...state, pending: undefined };
    case 'FightEnded':
      return {
        ...state,
        status: 'ended',
        activeId: undefined,
        roundOpen: false,
        pending: undefined,
        dice: { ...state.dice, revealedSeed: event.data.seed },
      };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/**
 * A removed combatant leaves the roster, the order, the activation and the decision that awaited it; its id is
 * kept as removed, never to be given again (C11).
 */
function withoutCombatant<S extends FightCore>(state: S, gone: string): S {
  const { [gone]: _removed, ...rest } = state.combatants;
  const without = (ids: string[]) => ids.filter((id) => id !== gone);
  return {
    ...state,
    combatants: rest,
    joined: without(state.joined),
    removed: [...(state.removed ?? []), gone],
    order: without(state.order),
    activeId: state.activeId === gone ? undefined : state.activeId,
    pending: state.pending?.awaiting === gone ? undefined : state.pending,
  };
}

/** The parts of the view every system shares. */
export function coreView(state: FightCore): Record<string, unknown> {
  return {
    fightId: state.fightId,
    system: state.system,
    name: state.name,
    status: state.status,
    dice: {
      mode: state.dice.mode,
      commitment: state.dice.commitment,
      clientSeed: state.dice.clientSeed,
      ...(state.dice.drawKey !== undefined && { drawKey: state.dice.drawKey }),
      revealedSeed: state.dice.revealedSeed,
    },
    round: state.round,
    roundOpen: state.roundOpen,
    initiative: state.order,
    activeCombatantId: state.activeId ?? null,
    actedThisRound: state.actedThisRound,
    pending: state.pending ?? null,
  };
}

/** C3 for the lifecycle: a player may end their own combatant's activation; the rest is the GM's. */
export function lifecycleActor(state: FightCore, command: RuleCommand): CommandActor | undefined {
  if (command.type === 'EndActivation' && state.activeId)
    return { combatantId: state.activeId, field: 'type' };
  return undefined;
}

/**
 * C12: the acting combatant with those of `gmFields` the command carries (a dotted path names a
 * nested field) and the combatants it answers for; both lists are left out when empty.
 */
export function playerAct(
  acting: FieldCombatant,
  command: RuleCommand,
  gmFields: readonly string[] = [],
  speaksFor: FieldCombatant[] = [],
): CommandActor {
  const gmOnly = gmFields.filter((path) => fieldAt(command, path) !== undefined);
  return {
    ...acting,
    ...(gmOnly.length > 0 ? { gmOnly } : {}),
    ...(speaksFor.length > 0 ? { speaksFor } : {}),
  };
}

function fieldAt(command: RuleCommand, path: string): unknown {
  let value: unknown = command;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
