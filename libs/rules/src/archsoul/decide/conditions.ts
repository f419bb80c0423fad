import { bool, int, oneOf, str } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { Condition, CONDITIONS } from '../data';
import { ev } from '../events';
import { ArchsoulState, hasCondition } from '../state';
import { wound } from './attack';

export function applyCondition(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const condition = oneOf<Condition>(command.condition, 'condition', CONDITIONS);
  return [ev('ConditionApplied', { combatantId: id, condition, amount: int(command.amount ?? 1, 'amount', { min: 1, max: 10 }), untilNextTurn: bool(command.untilNextTurn, 'untilNextTurn', false), reason: command.reason === undefined ? 'GM' : str(command.reason, 'reason', { max: 500 }) })];
}

export function removeCondition(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const condition = oneOf<Condition>(command.condition, 'condition', CONDITIONS);
  ensure(hasCondition(state.combatants[id], condition), 'ARCHSOUL_NO_SUCH_CONDITION', `${id} is not ${condition}`, 'condition');
  return [ev('ConditionRemoved', { combatantId: id, condition, reason: 'GM' })];
}

/** RULINGS.md S24: Soul attack effects (and anything else that deals HP damage) applied by the GM. */
export function applyDamage(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const damage = int(command.damage, 'damage', { min: 0, max: 1000 });
  return [wound(state, id, damage, command.source === undefined ? 'GM' : str(command.source, 'source', { max: 200 }))];
}
