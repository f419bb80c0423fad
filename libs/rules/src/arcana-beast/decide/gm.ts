import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArcanaCommandOf } from '../contract';
import { ev } from '../events';
import { dieFor, rollPool, rollTest } from '../rolls';
import { Stat } from '../data';
import { ArcanaBeastState, ArcanaCombatant } from '../state';
import { anchor, bonusDice, known, poolFor } from './common';

/** A8/A28: positioning tags are set and cleared by the GM, optionally against one opponent. */
export function setTag(state: ArcanaBeastState, command: ArcanaCommandOf<'SetTag'>): RuleEvent[] {
  const id = known(state, command.combatantId, 'combatantId').id;
  const tag = command.tag;
  const againstId =
    command.againstId === undefined ? undefined : known(state, command.againstId, 'againstId').id;
  ensure(
    againstId === undefined || anchor(state, againstId) !== anchor(state, id),
    'ARCANA_INVALID_TARGET',
    `ruling A28: a tag may name one opponent; ${againstId} is ${againstId === id ? `${id} itself` : `in ${id}'s place (a Binder and its own beast are always Close, A17)`}`,
    'againstId',
  );
  const existing = state.combatants[id].tags.find((t) => t.tag === tag);
  if (existing && existing.againstId === againstId) return [];
  return [ev('TagSet', { combatantId: id, tag, againstId })];
}

export function clearTag(state: ArcanaBeastState, command: ArcanaCommandOf<'ClearTag'>): RuleEvent[] {
  const id = known(state, command.combatantId, 'combatantId').id;
  const tag = command.tag;
  return state.combatants[id].tags.some((t) => t.tag === tag)
    ? [ev('TagCleared', { combatantId: id, tag })]
    : [];
}

export function applyCondition(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'ApplyCondition'>,
): RuleEvent[] {
  const id = known(state, command.combatantId, 'combatantId').id;
  const condition = command.condition;
  return state.combatants[id].conditions.includes(condition)
    ? []
    : [ev('ConditionApplied', { combatantId: id, condition })];
}

export function removeCondition(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'RemoveCondition'>,
): RuleEvent[] {
  const id = known(state, command.combatantId, 'combatantId').id;
  const condition = command.condition;
  return state.combatants[id].conditions.includes(condition)
    ? [ev('ConditionRemoved', { combatantId: id, condition })]
    : [];
}

/** What the GM adds to a Test's pool (A25): Quality ranks, +1 dice (A30), Boost and Setback. */
interface GmModifiers {
  ranks?: number;
  bonusDice?: number;
  boost?: boolean;
  setback?: boolean;
}

/** A Test's pool with the GM's modifiers, as poolFor builds every roll's (A26: Assist dice and Bond Surge apply). */
function gmPool(state: ArcanaBeastState, c: ArcanaCombatant, purpose: string, stat: Stat, m: GmModifiers) {
  return poolFor(
    state,
    c,
    purpose,
    stat,
    m.ranks ?? 0,
    bonusDice(m.bonusDice),
    m.boost ? ['GM: Boost'] : [],
    m.setback ? ['GM: Setback'] : [],
  );
}

/** arcana-beast.txt: Tests with a Difficulty (A1, A25): stat dice + Quality ranks + bonus dice, Boost/Setback. */
export function rollTestCommand(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'RollTest'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = known(state, command.combatantId, 'combatantId');
  const { spec, spent } = gmPool(state, c, 'test', command.stat, command);
  const test = rollTest(spec, dieFor(c), command.difficulty, dice);
  return [...spent, ev('TestRolled', { combatantId: c.id, reason: command.reason, test })];
}

/** arcana-beast.txt: opposed tests (A25): more successes wins; equal is a tie the GM settles. */
export function rollOpposedTest(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'RollOpposedTest'>,
  dice: DiceSource,
): RuleEvent[] {
  const a = known(state, command.aId, 'aId');
  const b = known(state, command.bId, 'bId');
  ensure(a.id !== b.id, 'ARCANA_INVALID_TARGET', 'ruling A25: an opposed test needs two combatants', 'bId');
  // A26: an opposed test is a roll like any other. A25: each side's Quality ranks, +1 dice, Boost and Setback, as a
  // RollTest's ("Relevant Qualities or Talents add dice", "Surprised … Setback").
  const pa = gmPool(state, a, 'opposed', command.aStat, {
    ranks: command.aRanks,
    bonusDice: command.aBonusDice,
    boost: command.aBoost,
    setback: command.aSetback,
  });
  const pb = gmPool(state, b, 'opposed', command.bStat ?? command.aStat, {
    ranks: command.bRanks,
    bonusDice: command.bBonusDice,
    boost: command.bBoost,
    setback: command.bSetback,
  });
  const ra = rollPool(pa.spec, dieFor(a), dice);
  const rb = rollPool(pb.spec, dieFor(b), dice);
  const winnerId = ra.successes === rb.successes ? null : ra.successes > rb.successes ? a.id : b.id;
  return [
    ...pa.spent,
    ...pb.spent,
    ev('OpposedTestRolled', { a: ra, b: rb, winnerId, reason: command.reason }),
  ];
}
