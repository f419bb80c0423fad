import { bad } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import { SIZED_CONDITIONS } from '../data';
import { ev } from '../events';
import { ArchsoulState, grapplesOf, hasCondition } from '../state';
import { endGrapplesOf } from './grapple';
import { wound } from './damage';
import { knockedDown, offTheMount } from './prone';

export function applyCondition(
  state: ArchsoulState,
  command: ArchsoulCommand<'ApplyCondition'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  // Ruling S104: only a slow, a loss of Defense and a harder next attack have a size (S20); another condition's amount
  // would be recorded and never read.
  if (command.amount !== undefined && !SIZED_CONDITIONS.includes(command.condition))
    bad(
      'amount',
      `is the size of ${SIZED_CONDITIONS.join(', ')} (speed, Defense or difficulty lost or added); ${command.condition} has none (ruling S104)`,
    );
  // Ruling S92: a rider the GM lays on the ground comes off its mount first, as a rider knocked down does (S35).
  const dismounted =
    command.condition === 'prone'
      ? offTheMount(state.combatants[id], 'ruling S92: laid on the ground by the GM (ruling S35)')
      : [];
  return [
    ...dismounted,
    ev('ConditionApplied', {
      combatantId: id,
      condition: command.condition,
      amount: command.amount ?? 1,
      untilNextTurn: command.untilNextTurn ?? false,
      reason: command.reason ?? 'GM',
    }),
  ];
}

export function removeCondition(
  state: ArchsoulState,
  command: ArchsoulCommand<'RemoveCondition'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const condition = command.condition;
  ensure(
    hasCondition(state.combatants[id], condition),
    'ARCHSOUL_NO_SUCH_CONDITION',
    `${id} is not ${condition}`,
    'condition',
  );
  // Ruling S91: "grappled" is being in a grapple (Being Grappled); the GM who frees a combatant ends its grapples, so
  // its partners are freed too unless another grapple holds them (as a fall does, S47).
  if (condition === 'grappled' && grapplesOf(state, id).length > 0)
    return endGrapplesOf(state, id, `GM: ${id} is no longer grappled (ruling S91)`);
  return [ev('ConditionRemoved', { combatantId: id, condition, reason: 'GM' })];
}

/** S24: Soul attack effects (and anything else that deals HP damage) applied by the GM. */
export function applyDamage(state: ArchsoulState, command: ArchsoulCommand<'ApplyDamage'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  return [wound(state, id, command.damage, command.source ?? 'GM')];
}

/**
 * S40: archsoul.txt gives no fall damage formula ("Falling Time": no action); the GM states the damage.
 * The faller lands prone; a rider comes off its mount, which stays where the fall began; S47: every grapple the faller
 * is in ends, whoever controls it.
 */
export function fall(state: ArchsoulState, command: ArchsoulCommand<'Fall'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const c = state.combatants[id];
  const { damage, metres } = command;
  const out: RuleEvent[] = [
    ev('Fell', { combatantId: id, ...(metres === undefined ? {} : { metres }), damage }),
  ];
  out.push(...endGrapplesOf(state, id, `${id} fell (RULINGS.md S47)`));
  out.push(...knockedDown(c, 'fell (RULINGS.md S40)', 'RULINGS.md S40: fell'));
  out.push(wound(state, id, damage, metres === undefined ? 'fall' : `fall (${metres} m)`));
  return out;
}
