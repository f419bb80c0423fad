import { Answers, checkEntry } from '../../core/entry';
import { decideLifecycle, LifecycleHooks, waitingIn } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
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
import { applyWoundsCommand } from './wounds';

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
  const lifecycle = decideLifecycle(state, command, dice, hooks);
  if (lifecycle && command.type === 'CancelPending')
    return [
      ...lifecycle,
      ...queueAfterCancel(state),
      ...ticksAfterCancel(state, lifecycle.reduce(evolve, state), dice),
    ];
  if (lifecycle && command.type === 'RemoveCombatant')
    return [...lifecycle, ...roundLeftEmpty(state, lifecycle, dice)];
  if (lifecycle) return lifecycle;
  checkEntry('narateer', NARATEER_COMMAND_SCHEMAS, ANSWERS, state, command);
  const events = dispatch(state, command, dice);
  return [...events, ...roundLeftEmpty(state, events, dice)];
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
 * knocks out its last waiting combatant) ends it, as the last EndActivation would have (C16 does so when the
 * removed combatant's activation was running): the round's end (Lingering Harm ticks, C7) comes at once, not when
 * the GM thinks to send EndRound. A decision the command leaves pending (where Wounds go) is answered first.
 */
function roundLeftEmpty(before: NarateerState, events: RuleEvent[], dice: DiceSource): RuleEvent[] {
  if (!before.roundOpen || before.activeId !== undefined || waitingIn(before, hooks).length === 0) return [];
  const after = events.reduce(evolve, before);
  if (!after.roundOpen || after.activeId !== undefined || after.pending || waitingIn(after, hooks).length > 0)
    return [];
  return decideLifecycle(after, { type: 'EndRound' }, dice, hooks) ?? [];
}

/** The command as its schema parses it (contract.ts; once, when the edge parsed it already): decide reads only typed, checked fields. */
function parsed<K extends NarateerCommandType>(type: K, command: RuleCommand): NarateerCommand<K> {
  return parseOrRefuse(NARATEER_COMMAND_SCHEMAS[type], command, '', type) as NarateerCommand<K>;
}
