import { Answers, checkEntry } from '../../core/entry';
import { RollHandedOver, settledBefore } from '../../core/handed-over';
import { decideLifecycle, LifecycleHooks, roundEndsEmpty, roundMayEmpty } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { DiceShortfall } from '../../dice/manual';
import { DiceSource } from '../../dice/roll';
import { actorOf } from '../actors';
import { parseOrRefuse } from '../../core/contract';
import { NARATEER_COMMAND_SCHEMAS, NarateerCommand, NarateerCommandType } from '../contract';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { NarateerState } from '../state';
import {
  canActivate,
  onActivationEnd,
  onActivationStart,
  onRoundEnd,
  onRoundStart,
  ticksAfterCancel,
} from './activation';
import { applyCondition, removeCondition } from './conditions';
import { declareExchange } from './exchange';
import { applyLingeringHarm, treatLingeringHarm } from './lingering';
import { move, setPosition } from './movement';
import { declineOpportunity, queueAfterCancel, takeOpportunityAttack } from './opportunity';
import { respondToExchange } from './respond';
import { reloadWeapon, spendDice } from './resources';
import { allocateWounds } from './allocation';
import { applyWoundsCommand, CONTINUATION_CHECK } from './wounds';
import { decideContinuation } from './continuation';

export const hooks: LifecycleHooks<NarateerState> = {
  system: 'narateer',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate,
  onActivationStart,
  onActivationEnd,
  onRoundStart,
  onRoundEnd,
  evolve,
};

/** C4: the commands that answer each pending decision. */
const ANSWERS: Answers = {
  exchangeResponse: ['RespondToExchange'],
  woundAllocation: ['AllocateWounds'],
  opportunityAttack: ['TakeOpportunityAttack', 'DeclineOpportunity'],
};

export function decide(state: NarateerState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  try {
    return decideCommand(state, command, dice);
  } catch (e) {
    // N61: a Continuation Check of the combatant the command acts for stays with the command, held whole (C13).
    if (e instanceof RollHandedOver && e.awaiting === actingFor(state, command))
      throw new DiceShortfall(e.need, e.have);
    throw e;
  }
}

/** Who a command acts for (C11, C13): its acting combatant, or the GM; a held check's rest, its checking combatant. */
function actingFor(state: NarateerState, command: RuleCommand): string {
  if (command.type === CONTINUATION_CHECK) return String(command.combatantId);
  return actorOf(state, command)?.combatantId || 'gm';
}

/**
 * The command's events. N61: when a Continuation Check in them is handed over to its roller, what the command does
 * after it waits with it (settledBefore): the round's end N59 gives, among the rest.
 */
function decideCommand(state: NarateerState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  if (command.type === CONTINUATION_CHECK) return decideContinuation(state, command, dice, hooks);
  const mayEmpty = roundMayEmpty(state, hooks) || queueMayEmpty(state);
  const leftEmpty = mayEmpty ? { step: 'roundLeftEmpty' } : undefined;
  // N62: a round's start may leave it with no one to wait for, whatever it waited for before.
  const opensRound = command.type === 'StartRound';
  const lifecycle = settledBefore(
    [],
    () => decideLifecycle(state, command, dice, hooks),
    command.type === 'RemoveCombatant' ? leftEmpty : opensRound ? { step: 'roundLeftEmpty' } : undefined,
  );
  if (lifecycle && command.type === 'CancelPending') {
    const queued = [...lifecycle, ...queueAfterCancel(state)];
    // N59 with N28: the ticks of that moment that still tick may leave the round no one to wait for.
    const ticked = [
      ...queued,
      ...settledBefore(
        queued,
        () => ticksAfterCancel(state, lifecycle.reduce(evolve, state), dice),
        leftEmpty,
      ),
    ];
    return [...ticked, ...settledBefore(ticked, () => roundLeftEmpty(mayEmpty, state, ticked, dice))];
  }
  if (lifecycle && (command.type === 'RemoveCombatant' || opensRound))
    return [
      ...lifecycle,
      ...settledBefore(lifecycle, () => roundLeftEmpty(mayEmpty || opensRound, state, lifecycle, dice)),
    ];
  if (lifecycle) return lifecycle;
  checkEntry('narateer', NARATEER_COMMAND_SCHEMAS, ANSWERS, state, command);
  const events = settledBefore([], () => dispatch(state, command, dice), leftEmpty);
  return [...events, ...settledBefore(events, () => roundLeftEmpty(mayEmpty, state, events, dice))];
}

function dispatch(state: NarateerState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const type = command.type as NarateerCommandType;
  switch (type) {
    case 'DeclareExchange':
      return declareExchange(state, parsed(type, command), dice);
    case 'RespondToExchange':
      return respondToExchange(state, parsed(type, command), dice);
    case 'AllocateWounds':
      return allocateWounds(state, parsed(type, command), dice);
    case 'ApplyWounds':
      return applyWoundsCommand(state, parsed(type, command), dice);
    case 'ReloadWeapon':
      return reloadWeapon(state, parsed(type, command));
    case 'SpendDice':
      return spendDice(state, parsed(type, command));
    case 'ApplyLingeringHarm':
      return applyLingeringHarm(state, parsed(type, command));
    case 'TreatLingeringHarm':
      return treatLingeringHarm(state, parsed(type, command));
    case 'ApplyCondition':
      return applyCondition(state, parsed(type, command));
    case 'RemoveCondition':
      return removeCondition(state, parsed(type, command));
    case 'SetPosition':
      return setPosition(state, parsed(type, command));
    case 'Move':
      return move(state, parsed(type, command));
    case 'TakeOpportunityAttack':
      return takeOpportunityAttack(state, parsed(type, command), dice);
    case 'DeclineOpportunity':
      return declineOpportunity(state, parsed(type, command));
    default: {
      const unhandled: never = type;
      return violation('UNKNOWN_COMMAND', `narateer has no command ${String(unhandled)}`, 'type');
    }
  }
}

/**
 * N59: between activations, the command that leaves the open round no one to wait for (the GM removes, collapses or
 * withdraws its last waiting combatant; an Opportunity Attack queue ends after its mover fell, queueMayEmpty) ends it,
 * as the last EndActivation would have (C16 does so when the removed combatant's activation was running): the round's
 * end (Lingering Harm ticks, C7) comes at once, not when the GM thinks to send EndRound. A decision the command leaves
 * pending (where Wounds go) is answered first.
 * N62: so does StartRound, when its round opens with no one to wait for (its start's ticks left no one, or none was left).
 */
function roundLeftEmpty(
  mayEmpty: boolean,
  before: NarateerState,
  events: RuleEvent[],
  dice: DiceSource,
): RuleEvent[] {
  if (!mayEmpty) return [];
  return roundEndsEmpty(events.reduce(evolve, before), dice, hooks);
}

/**
 * N59 with N45: Opportunity Attacks that a Move opened while the round, between two activations, still waited for
 * someone. The queue goes on after its mover falls (N45), so the round may already wait for no one when the command
 * that settles the queue's last decision comes (an answer, the wound allocation an attack leaves, N9, or the GM's
 * CancelPending that ends it): that command ends the round, as one that leaves it no one to wait for does.
 */
function queueMayEmpty(state: NarateerState): boolean {
  return state.opportunity !== undefined && state.roundWaitedAtMove === true;
}

/** The command as its schema parses it (contract.ts; once, when the edge parsed it already): decide reads only typed, checked fields. */
function parsed<K extends NarateerCommandType>(type: K, command: RuleCommand): NarateerCommand<K> {
  return parseOrRefuse(NARATEER_COMMAND_SCHEMAS[type], command, '', type) as NarateerCommand<K>;
}
