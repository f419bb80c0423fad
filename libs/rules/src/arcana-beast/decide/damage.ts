import { RollHandedOver } from '../../core/dice-requests';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceShortfall } from '../../dice/manual';
import { DiceSource } from '../../dice/roll';
import { CRITICAL_MOVES, DEVOLUTION } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { dieFor, rollTest } from '../rolls';
import { ArcanaBeastState, ArcanaCombatant, combatantOf, controllerOf, isBeast, playerSide } from '../state';
import { poolFor } from './common';

/** A36: the held rest of a command whose Devolution Test waits for the beast's controller; never sent. */
export const DEVOLUTION_TEST = 'DevolutionTest';

/** A11: HP never goes below 0; at 0 the combatant is Knocked Out (A13). */
export function dealDamage(
  state: ArcanaBeastState,
  target: ArcanaCombatant,
  damage: number,
  attackNo?: number,
): RuleEvent[] {
  const hp = Math.max(0, target.hp - damage);
  const events = [ev('DamageDealt', { combatantId: target.id, damage, hpBefore: target.hp, hp, attackNo })];
  if (hp === 0 && !target.knockedOut) events.push(...knockOut(state, target));
  return events;
}

/**
 * arcana-beast.txt: Knockout & Devolution: at 0 HP add 1 to the Critical Gauge, gain a Harm, Stage 2+ PCs Devolve
 * (A7, A13, A21, A35). The Devolution Test its KnockedOut leaves owed is rolled once the command's
 * other events are decided (`withDueDevolution`).
 */
export function knockOut(state: ArcanaBeastState, c: ArcanaCombatant): RuleEvent[] {
  const pc = playerSide(state, c);
  const events = [ev('KnockedOut', { combatantId: c.id, playerSide: pc })];
  if (!pc) return events;
  const from = state.criticalGauge;
  const to = from + 1;
  events.push(ev('CriticalGaugeRaised', { combatantId: c.id, from, to }));
  const move = CRITICAL_MOVES.find((m) => m.threshold === to);
  if (move)
    events.push(
      ev('CriticalMoveTriggered', {
        threshold: move.threshold,
        tier: move.tier,
        meaning: move.meaning,
        gauge: to,
      }),
    );
  events.push(ev('HarmGained', { combatantId: c.id, harm: 'Harm (reduced to 0 HP)' }));
  return events;
}

/**
 * A13, A36: the Devolution Test a command's Knockout leaves owed, after the command's events. Its faces
 * come with the command (followUpFaces) or, with none, from the beast's controller: the events stand and the test
 * alone is held for them (`RollHandedOver`). Part of its faces is refused: all or none.
 */
export function withDueDevolution(
  state: ArcanaBeastState,
  events: RuleEvent[],
  dice: DiceSource,
): RuleEvent[] {
  if (!events.some((e) => e.type === 'KnockedOut')) return events;
  const after = events.reduce(evolve, state);
  const id = after.devolutionDue;
  if (id === undefined || id === state.devolutionDue) return events;
  const beast = after.combatants[id];
  try {
    return [...events, ...devolve(after, beast, dice, 'knockedOut', [])];
  } catch (e) {
    if (!(e instanceof DiceShortfall) || e.need.field !== 'followUpFaces') throw e;
    const roller = controllerOf(after, id);
    if (e.have > 0) {
      violation(
        e.code,
        `ruling A36: ${id}'s Devolution Test rolls ${e.have + e.need.count} d${e.need.sides} in followUpFaces, got ${e.have}: give all of them, or none and ${roller} is asked`,
        e.field,
      );
    }
    const rest: RuleCommand = { type: DEVOLUTION_TEST, combatantId: id };
    throw new RollHandedOver(e, events, rest, roller);
  }
}

/** A36: the held Devolution Test, decided with the faces its roller gives; refused as unknown otherwise. */
export function devolutionTest(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const id = typeof command.combatantId === 'string' ? command.combatantId : undefined;
  const beast = combatantOf(state, id);
  if (state.devolutionDue === undefined || beast === undefined || state.devolutionDue !== beast.id)
    violation('UNKNOWN_COMMAND', `arcana-beast has no command ${DEVOLUTION_TEST}`, 'type');
  ensure(
    isBeast(beast),
    'ARCANA_NOT_A_BEAST',
    `arcana-beast.txt: Devolution: ${beast.id} is a Beast Binder`,
    'combatantId',
  );
  return devolve(state, beast, dice, 'knockedOut', []);
}

/**
 * arcana-beast.txt: Devolution: from Stage 2+ an Endurance Test Diff 3 (pass Stage 1, fail Stage 0); from
 * Stage 1 Diff 2 (pass stay, fail Stage 0); rolled with the current Stage's die (A13), faces in followUpFaces (A16),
 * landing on a Stage the sheet unlocks (A37).
 */
export function devolve(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  dice: DiceSource,
  reason: 'knockedOut' | 'callBack',
  boost: string[],
): RuleEvent[] {
  const row = c.stage >= 2 ? DEVOLUTION.fromStage2Plus : DEVOLUTION.fromStage1;
  // A26: a waiting Assist die goes to the beast's next roll, a Devolution Test too.
  const { spec, spent } = poolFor(state, c, 'devolution', DEVOLUTION.stat, 0, [], boost, []);
  const test = rollTest(spec, dieFor(c), row.difficulty, dice, 'followUp');
  const stageAfter = unlockedLanding(c, test.passed ? Math.min(c.stage, row.pass) : row.fail);
  const events = [
    ...spent,
    ev('DevolutionTested', { combatantId: c.id, stageBefore: c.stage, test, stageAfter, reason }),
  ];
  if (stageAfter < c.stage)
    events.push(ev('StageDevolved', { combatantId: c.id, from: c.stage, to: stageAfter, reason }));
  return events;
}

/**
 * A37: the text's Stage when the sheet unlocks it; else the highest unlocked Stage below it; else the
 * lowest unlocked Stage. Never above the Stage the beast is at (which its sheet unlocks).
 */
function unlockedLanding(c: ArcanaCombatant, stage: number): number {
  const unlocked = isBeast(c) ? c.sheet.stages.map((s) => s.stage) : [];
  const below = unlocked.filter((s) => s <= stage);
  const landing = below.length > 0 ? Math.max(...below) : unlocked.length > 0 ? Math.min(...unlocked) : stage;
  return Math.min(landing, c.stage);
}
