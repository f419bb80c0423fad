import { bool, int, oneOf, str } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { Condition, CONDITIONS } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { ArchsoulState, grapplesOf, hasCondition } from '../state';
import { endGrapple } from './grapple';
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

/**
 * RULINGS.md S40: archsoul.txt gives no fall damage formula ("Falling Time": no action); the GM states the damage.
 * The faller lands prone; a rider comes off its mount, which stays where the fall began; S47: every grapple the faller
 * is in ends, whoever controls it.
 */
export function fall(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const c = state.combatants[id];
  const damage = int(command.damage, 'damage', { min: 0, max: 1000 });
  const metres = command.metres === undefined ? undefined : int(command.metres, 'metres', { min: 0, max: 10000 });
  const out: RuleEvent[] = [ev('Fell', { combatantId: id, ...(metres === undefined ? {} : { metres }), damage })];
  let s = state;
  for (const g of grapplesOf(state, id)) {
    const ended = endGrapple(s, g, `${id} fell (RULINGS.md S47)`);
    out.push(...ended);
    s = ended.reduce(evolve, s);
  }
  if (c.mounted) out.push(ev('Dismounted', { combatantId: id, reason: 'RULINGS.md S40: fell', ...(c.position ? { at: c.position } : {}) }));
  if (!hasCondition(c, 'prone')) out.push(ev('ConditionApplied', { combatantId: id, condition: 'prone', amount: 1, untilNextTurn: false, reason: 'fell (RULINGS.md S40)' }));
  out.push(wound(state, id, damage, metres === undefined ? 'fall' : `fall (${metres} m)`));
  return out;
}
