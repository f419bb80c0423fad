import { RuleEvent } from '../../core/types';
import { DiceSource } from '../../dice/roll';
import { CRITICAL_MOVES, DEVOLUTION } from '../data';
import { ev } from '../events';
import { dieFor, rollTest } from '../rolls';
import { ArcanaBeastState, ArcanaCombatant, isBeast, playerSide } from '../state';
import { poolFor } from './common';

/** RULINGS.md A11: HP never goes below 0; at 0 the combatant is Knocked Out (A13). */
export function dealDamage(state: ArcanaBeastState, target: ArcanaCombatant, damage: number, dice: DiceSource, attackNo?: number): RuleEvent[] {
  const hp = Math.max(0, target.hp - damage);
  const events = [ev('DamageDealt', { combatantId: target.id, damage, hpBefore: target.hp, hp, attackNo })];
  if (hp === 0 && !target.knockedOut) events.push(...knockOut(state, target, dice));
  return events;
}

/** arcana-beast.txt: Knockout & Devolution: at 0 HP add 1 to the Critical Gauge, gain a Harm, Stage 2+ PCs Devolve (RULINGS.md A7, A13, A21). */
export function knockOut(state: ArcanaBeastState, c: ArcanaCombatant, dice: DiceSource): RuleEvent[] {
  const pc = playerSide(state, c);
  const events = [ev('KnockedOut', { combatantId: c.id, playerSide: pc })];
  if (!pc) return events;
  const from = state.criticalGauge;
  const to = from + 1;
  events.push(ev('CriticalGaugeRaised', { combatantId: c.id, from, to }));
  const move = CRITICAL_MOVES.find((m) => m.threshold === to);
  if (move) events.push(ev('CriticalMoveTriggered', { threshold: move.threshold, tier: move.tier, meaning: move.meaning, gauge: to }));
  events.push(ev('HarmGained', { combatantId: c.id, harm: 'Harm (reduced to 0 HP)' }));
  if (isBeast(c) && c.stage >= 1) events.push(...devolve(state, c, dice, 'knockedOut', []));
  return events;
}

/**
 * arcana-beast.txt: Devolution: from Stage 2+ an Endurance Test Diff 3 (pass Stage 1, fail Stage 0); from
 * Stage 1 Diff 2 (pass stay, fail Stage 0); rolled with the current Stage's die (A13), faces in followUpFaces (A16).
 */
export function devolve(state: ArcanaBeastState, c: ArcanaCombatant, dice: DiceSource, reason: 'knockedOut' | 'callBack', boost: string[]): RuleEvent[] {
  const row = c.stage >= 2 ? DEVOLUTION.fromStage2Plus : DEVOLUTION.fromStage1;
  // RULINGS.md A26: a waiting Assist die goes to the beast's next roll, a Devolution Test too.
  const { spec, spent } = poolFor(state, c, 'devolution', DEVOLUTION.stat, 0, [], boost, []);
  const test = rollTest(spec, dieFor(c), row.difficulty, dice, 'followUp');
  const stageAfter = test.passed ? Math.min(c.stage, row.pass) : row.fail;
  const events = [...spent, ev('DevolutionTested', { combatantId: c.id, stageBefore: c.stage, test, stageAfter, reason })];
  if (stageAfter < c.stage) events.push(ev('StageDevolved', { combatantId: c.id, from: c.stage, to: stageAfter, reason }));
  return events;
}
