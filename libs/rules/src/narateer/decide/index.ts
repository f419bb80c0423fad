import { decideLifecycle, LifecycleHooks } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { NARATEER_COMMANDS, NarateerCommandType } from '../commands';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { NarateerState } from '../state';
import { canActivate, onActivationStart, onRoundEnd } from './activation';
import { applyCondition, removeCondition } from './conditions';
import { declareExchange } from './exchange';
import { applyLingeringHarm, treatLingeringHarm } from './lingering';
import { move, setPosition } from './movement';
import { declineOpportunity, takeOpportunityAttack } from './opportunity';
import { respondToExchange } from './respond';
import { reloadWeapon, spendDice } from './resources';
import { allocateWounds, applyWoundsCommand } from './wounds';

export const hooks: LifecycleHooks<NarateerState> = {
  system: 'narateer',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate,
  onActivationStart,
  onRoundEnd,
  evolve,
};

/** RULINGS.md C4: the commands that answer each pending decision. */
const ANSWERS: Record<string, readonly string[]> = {
  exchangeResponse: ['RespondToExchange'],
  woundAllocation: ['AllocateWounds'],
  opportunityAttack: ['TakeOpportunityAttack', 'DeclineOpportunity'],
};

export function decide(state: NarateerState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const lifecycle = decideLifecycle(state, command, dice, hooks);
  if (lifecycle) return lifecycle;
  if (!Object.prototype.hasOwnProperty.call(NARATEER_COMMANDS, command.type)) violation('UNKNOWN_COMMAND', `narateer has no command ${String(command.type)}`, 'type');
  ensure(state.status !== 'new', 'FIGHT_NOT_STARTED', 'the fight has not been started', 'type');
  ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
  const pending = state.pending;
  if (pending && !(ANSWERS[pending.kind] ?? [pending.answer]).includes(command.type)) {
    violation('PENDING_DECISION', `RULINGS.md C4: waiting for ${pending.awaiting} to answer ${pending.kind} with ${(ANSWERS[pending.kind] ?? [pending.answer]).join(' or ')}`, 'type');
  }
  const type = command.type as NarateerCommandType;
  switch (type) {
    case 'DeclareExchange': return declareExchange(state, command, dice);
    case 'RespondToExchange': return respondToExchange(state, command, dice);
    case 'AllocateWounds': return allocateWounds(state, command, dice);
    case 'ApplyWounds': return applyWoundsCommand(state, command, dice);
    case 'ReloadWeapon': return reloadWeapon(state, command);
    case 'SpendDice': return spendDice(state, command);
    case 'ApplyLingeringHarm': return applyLingeringHarm(state, command);
    case 'TreatLingeringHarm': return treatLingeringHarm(state, command);
    case 'ApplyCondition': return applyCondition(state, command);
    case 'RemoveCondition': return removeCondition(state, command);
    case 'SetPosition': return setPosition(state, command);
    case 'Move': return move(state, command);
    case 'TakeOpportunityAttack': return takeOpportunityAttack(state, command, dice);
    case 'DeclineOpportunity': return declineOpportunity(state, command);
    default: {
      const unhandled: never = type;
      return violation('UNKNOWN_COMMAND', `narateer has no command ${String(unhandled)}`, 'type');
    }
  }
}
