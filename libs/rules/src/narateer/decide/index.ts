import { decideLifecycle, LifecycleHooks } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { NarateerState } from '../state';

export const hooks: LifecycleHooks<NarateerState> = {
  system: 'narateer',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate: (state, id) => state.combatants[id] !== undefined && state.combatants[id].vitality > 0,
  evolve,
};

export function decide(state: NarateerState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const lifecycle = decideLifecycle(state, command, dice, hooks);
  if (lifecycle) return lifecycle;
  return violation('UNKNOWN_COMMAND', `narateer has no command ${String(command.type)}`, 'type');
}
