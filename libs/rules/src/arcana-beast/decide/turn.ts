import { parseOrRefuse } from '../../core/contract';
import { decideLifecycle, LifecycleHooks, tieBreakIds } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ARCANA_BEAST_LIFECYCLE_OVERRIDES } from '../contract';
import { ev } from '../events';
import { initiativeRoll, reorderGroups, tiedGroups, withBinders } from '../initiative';
import { evolve } from '../evolve';
import { ArcanaBeastState, beastOfBinder, binderIdOf, combatantOf, isBeast, out } from '../state';
import { known } from './common';

/** A15/A21: turns belong to beasts; a Binder keeps the shared turn while its beast is out. */
export function canActivate(state: ArcanaBeastState, id: string): boolean {
  const c = state.combatants[id];
  if (!c || !isBeast(c)) return false;
  if (!out(c)) return true;
  const binder = combatantOf(state, binderIdOf(state, id));
  return binder !== undefined && !out(binder);
}

/**
 * A15: Defend and Guard last until the own next turn; an Intercept spends this turn's Action. The turn is shared
 * with the beast's Binder while that Binder is in the fight (A21, A35).
 */
export function onActivationStart(state: ArcanaBeastState, id: string): RuleEvent[] {
  const c = state.combatants[id];
  const binder = combatantOf(state, binderIdOf(state, id));
  return [
    ev('TurnStarted', {
      combatantId: id,
      binderId: binder?.id,
      actionForfeited: c.interceptOwed ? 'intercept' : undefined,
      defendEnded: c.defending ? true : undefined,
      guardEnded: c.guarding,
    }),
  ];
}

/**
 * A21: a Binder has no turn of its own and is listed right after its beast, as RollInitiative lists it (A29); the GM's
 * SetInitiative gives the beasts' order and is refused, not rearranged, when a Binder stands elsewhere.
 */
export function checkBinderPlaces(state: ArcanaBeastState, order: string[]): void {
  order.forEach((id, i) => {
    const beast = beastOfBinder(state, id);
    if (!beast) return;
    ensure(
      order[i - 1] === beast.id,
      'ARCANA_BINDER_ORDER',
      `ruling A21: ${id} shares ${beast.id}'s turn and is listed right after it; put ${id} right after ${beast.id}`,
      `order[${i}]`,
    );
  });
}

/** A29: RollInitiative may name the surprised, who roll with Setback. */
export function rollInitiativeCommand(
  state: ArcanaBeastState,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<ArcanaBeastState>,
): RuleEvent[] {
  const parsed = parseOrRefuse(
    ARCANA_BEAST_LIFECYCLE_OVERRIDES.RollInitiative,
    command,
    '',
    'RollInitiative',
  );
  const surprised = (parsed.surprised ?? []).map((id, i) => known(state, id, `surprised[${i}]`).id);
  checkTieBreak(state, parsed.tieBreak);
  return bindersInPlace(state, decideLifecycle({ ...state, surprised }, command, dice, hooks)!);
}

/**
 * C10, A5: `tieBreak` answers an initiative tie in advance, and ties are the beasts' (a Binder rolls no initiative,
 * A29). The lifecycle's check (tieBreakIds: ids of the fight, each once) and a Binder's id are refused whether or not
 * the roll ties. A beast's id stands when the dice leave it no tie to break.
 */
export function checkTieBreak(state: ArcanaBeastState, raw: unknown): void {
  tieBreakIds(state, raw).forEach((id, i) =>
    ensure(
      isBeast(state.combatants[id]),
      'ARCANA_NOT_A_BEAST',
      `RULINGS.md A5: initiative ties are the Arcana Beasts'; ${id} is a Beast Binder, who rolls no initiative and is listed after its beast (ruling A29)`,
      `tieBreak[${i}]`,
    ),
  );
}

/**
 * A21, A29: a Binder is listed right after its beast. The lifecycle's tieBreak (C10) swaps the tied beasts' places in
 * the order it is given, Binders included; their Binders follow them to their new places.
 */
export function bindersInPlace(state: ArcanaBeastState, events: RuleEvent[]): RuleEvent[] {
  const after = events.reduce(evolve, state);
  return events.map((e) => {
    if (e.type !== 'InitiativeRolled') return e;
    const beasts = (e.data.order as string[]).filter((id) => isBeast(after.combatants[id]));
    return { ...e, data: { ...e.data, order: withBinders(after, beasts) } };
  });
}

/** A5: the GM answers an initiative tie by rerolling the tied beasts (faces in dice). */
export function rerollInitiative(state: ArcanaBeastState, dice: DiceSource): RuleEvent[] {
  ensure(
    state.pending?.kind === 'initiativeTie',
    'ARCANA_NO_INITIATIVE_TIE',
    'RULINGS.md A5: there is no initiative tie to reroll',
    'type',
  );
  const ties = (state.pending.detail?.ties as string[][]).map((g) =>
    g.filter((id) => isBeast(state.combatants[id])),
  );
  const rolls = ties.flat().map((id) => initiativeRoll(state, id, dice, 'pool', 1));
  const totals = new Map(rolls.map((r) => [r.combatantId, r.total]));
  const beasts = state.order.filter((id) => isBeast(state.combatants[id]));
  const order = reorderGroups(beasts, ties, totals);
  const unresolved = ties.flatMap((g) =>
    tiedGroups(
      order.filter((id) => g.includes(id)),
      totals,
      g,
    ),
  );
  return [
    ev('InitiativeTieRerolled', { rolls, order: withBinders(state, order), unresolvedTies: unresolved }),
  ];
}
