import { bool, int, oneOf, str } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { Stat, STATS, Tag, TAGS } from '../data';
import { ev } from '../events';
import { dieFor, rollPool, rollTest } from '../rolls';
import { ArcanaBeastState } from '../state';
import { bonusDice, poolFor } from './common';

/** RULINGS.md A8/A28: positioning tags are set and cleared by the GM, optionally against one opponent. */
export function setTag(state: ArcanaBeastState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const tag = oneOf<Tag>(command.tag, 'tag', TAGS);
  const againstId = command.againstId === undefined ? undefined : combatantId(state, command.againstId, 'againstId');
  const existing = state.combatants[id].tags.find((t) => t.tag === tag);
  if (existing && existing.againstId === againstId) return [];
  return [ev('TagSet', { combatantId: id, tag, againstId })];
}

export function clearTag(state: ArcanaBeastState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const tag = oneOf<Tag>(command.tag, 'tag', TAGS);
  return state.combatants[id].tags.some((t) => t.tag === tag) ? [ev('TagCleared', { combatantId: id, tag })] : [];
}

export function applyCondition(state: ArcanaBeastState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const condition = str(command.condition, 'condition', { max: 60 });
  return state.combatants[id].conditions.includes(condition) ? [] : [ev('ConditionApplied', { combatantId: id, condition })];
}

export function removeCondition(state: ArcanaBeastState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const condition = str(command.condition, 'condition', { max: 60 });
  return state.combatants[id].conditions.includes(condition) ? [ev('ConditionRemoved', { combatantId: id, condition })] : [];
}

/** arcana-beast.txt: Tests with a Difficulty (RULINGS.md A1, A25): stat dice + Quality ranks + bonus dice, Boost/Setback. */
export function rollTestCommand(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const c = state.combatants[combatantId(state, command.combatantId, 'combatantId')];
  const stat = oneOf<Stat>(command.stat, 'stat', STATS);
  const difficulty = int(command.difficulty, 'difficulty', { min: 0, max: 20 });
  const ranks = int(command.ranks ?? 0, 'ranks', { min: 0, max: 10 });
  const boost = bool(command.boost, 'boost', false) ? ['GM: Boost'] : [];
  const setback = bool(command.setback, 'setback', false) ? ['GM: Setback'] : [];
  const { spec, spent } = poolFor(state, c, 'test', stat, ranks, bonusDice(command.bonusDice), boost, setback);
  const test = rollTest(spec, dieFor(c), difficulty, dice);
  return [...spent, ev('TestRolled', { combatantId: c.id, reason: command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 200 }), test })];
}

/** arcana-beast.txt: opposed tests (RULINGS.md A25): more successes wins; equal is a tie the GM settles. */
export function rollOpposedTest(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const a = state.combatants[combatantId(state, command.aId, 'aId')];
  const b = state.combatants[combatantId(state, command.bId, 'bId')];
  ensure(a.id !== b.id, 'ARCANA_INVALID_TARGET', 'RULINGS.md A25: an opposed test needs two combatants', 'bId');
  const aStat = oneOf<Stat>(command.aStat, 'aStat', STATS);
  const bStat = oneOf<Stat>(command.bStat ?? aStat, 'bStat', STATS);
  // RULINGS.md A26: an opposed test is a roll like any other — Assist dice and Bond Surge apply.
  const pa = poolFor(state, a, 'opposed', aStat, 0, [], [], []);
  const pb = poolFor(state, b, 'opposed', bStat, 0, [], [], []);
  const ra = rollPool(pa.spec, dieFor(a), dice);
  const rb = rollPool(pb.spec, dieFor(b), dice);
  const winnerId = ra.successes === rb.successes ? null : ra.successes > rb.successes ? a.id : b.id;
  return [...pa.spent, ...pb.spent, ev('OpposedTestRolled', { a: ra, b: rb, winnerId, reason: command.reason === undefined ? undefined : str(command.reason, 'reason', { max: 200 }) })];
}
