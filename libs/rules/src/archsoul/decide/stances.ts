import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ArchsoulCommand } from '../contract';
import { ensure } from '../../core/violation';
import { SOUL_DEFENCE_TEST } from '../data';
import { ev } from '../events';
import { distance, same, sightLines, Space } from '../grid';
import { poolOf } from '../rolls';
import { ArchsoulCombatant, ArchsoulState, hasCondition, hasFrontArc, partyOf } from '../state';
import { acting, onMap, spend } from './common';
import { triggerReactions } from './reactions';

const stance = (c: ArchsoulCombatant, condition: 'holdFirm' | 'shieldIntercept', reason: string): RuleEvent =>
  ev('ConditionApplied', { combatantId: c.id, condition, amount: 1, untilNextTurn: true, reason });

/** archsoul.txt: Hold Firm (2 AP): until your next turn, attacks against your back arc count as against your front arc. */
export function holdFirm(state: ArchsoulState, command: ArchsoulCommand<'HoldFirm'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  // S32: Hold Firm needs a front arc; checked before S33's grapple roll, which the gate's dry run reaches first.
  ensure(
    hasFrontArc(c),
    'ARCHSOUL_NO_FRONT_ARC',
    `archsoul.txt: Being Grappled: "You also do not have a front arc while grappled"; Hold Firm treats attacks as against the front arc, and ${c.id} has none (ruling S32)`,
    'combatantId',
  );
  ensure(
    !hasCondition(c, 'holdFirm'),
    'ARCHSOUL_STANCE_ACTIVE',
    `archsoul.txt: Defensive Maneuvers: ${c.id} already holds firm until its next turn`,
    'type',
  );
  return [spend(c, 'holdFirm'), stance(c, 'holdFirm', 'Hold Firm')];
}

/** archsoul.txt: Shield Intercept (1 AP): only with a shield; projectiles fired through your space are harder. */
export function shieldIntercept(
  state: ArchsoulState,
  command: ArchsoulCommand<'ShieldIntercept'>,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const sh = c.sheet.shield;
  ensure(
    sh && c.held.includes(sh.id) && !c.weapons[sh.id]?.destroyed,
    'ARCHSOUL_SHIELD_INTERCEPT_NO_SHIELD',
    `archsoul.txt: Shield Intercept: "may only be performed if you have a shield" (held, ruling S32); ${c.id} holds none`,
    'combatantId',
  );
  ensure(
    !hasCondition(c, 'shieldIntercept'),
    'ARCHSOUL_STANCE_ACTIVE',
    `archsoul.txt: Defensive Maneuvers: ${c.id} already intercepts until its next turn`,
    'type',
  );
  return [spend(c, 'shieldIntercept'), stance(c, 'shieldIntercept', 'Shield Intercept')];
}

/**
 * archsoul.txt: Shield Intercept: +1 to a projectile's attack roll for each interceptor (holding its shield)
 * whose space the shot must cross: strictly between shooter and target on the line of sight (S23; on a hex, on both
 * nudged lines, S32), allies and enemies alike.
 */
export function interceptors(state: ArchsoulState, a: ArchsoulCombatant, to: Space): number {
  const from = a.position!;
  const lines = sightLines(state.map.grid, from, to);
  let n = 0;
  for (const id of state.joined) {
    const c = state.combatants[id];
    if (
      id === a.id ||
      !c.position ||
      same(c.position, to) ||
      same(c.position, from) ||
      !hasCondition(c, 'shieldIntercept')
    )
      continue;
    if (!c.sheet.shield || !c.held.includes(c.sheet.shield.id)) continue;
    if (lines.every((l) => l.some((s) => same(s, c.position!)))) n++;
  }
  return n;
}

/** archsoul.txt: Soul Shield (3 AP, soul magic): a willing target in an adjacent space; triggers reactive attacks (Reactive Attack). */
export function soulShield(state: ArchsoulState, command: ArchsoulCommand<'SoulShield'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  const id = combatantId(state, command.targetId, 'targetId');
  const t = state.combatants[id];
  ensure(
    id !== c.id,
    'ARCHSOUL_SOUL_SHIELD_TARGET',
    'archsoul.txt: Soul Shield: "one willing target in an adjacent square" (another combatant)',
    'targetId',
  );
  ensure(
    partyOf(t.side) === partyOf(c.side),
    'ARCHSOUL_SOUL_SHIELD_UNWILLING',
    `ruling S32: only allies are willing targets of Soul Shield; ${id} is a foe`,
    'targetId',
  );
  ensure(
    t.position && distance(state.map.grid, c.position!, t.position) === 1,
    'ARCHSOUL_SOUL_SHIELD_NOT_ADJACENT',
    `archsoul.txt: Soul Shield: the target must be in an adjacent space; ${id} is not`,
    'targetId',
  );
  const paid = spend(c, 'soulShield');
  const reactors = triggerReactions(state, c.id, 'soulMagic', c.position!, {
    type: 'SoulShield',
    payload: { combatantId: c.id, targetId: id },
  });
  return [paid, ...(reactors.length > 0 ? reactors : performSoulShield(c, id))];
}

export function performSoulShield(c: ArchsoulCombatant, targetId: string): RuleEvent[] {
  return [
    ev('ConditionApplied', {
      combatantId: targetId,
      condition: 'soulShield',
      amount: 1,
      untilNextTurn: true,
      reason: `Soul Shield from ${c.id}`,
      sourceId: c.id,
    }),
  ];
}

/** archsoul.txt: Soul Shield: the target may use the caster's defensive stats (S32: the better pool is chosen). */
export function soulDefencePool(state: ArchsoulState, t: ArchsoulCombatant): number {
  const own = poolOf(t, SOUL_DEFENCE_TEST.attribute, SOUL_DEFENCE_TEST.skill);
  const casters = t.conditions
    .filter((k) => k.condition === 'soulShield' && k.sourceId && state.combatants[k.sourceId])
    .map((k) => poolOf(state.combatants[k.sourceId!], SOUL_DEFENCE_TEST.attribute, SOUL_DEFENCE_TEST.skill));
  return Math.max(own, ...casters);
}

/** archsoul.txt: Sneak Attack: one of the "consecutive actions ... studying your opponent" (1 AP each, S30). */
export function study(state: ArchsoulState, command: ArchsoulCommand<'Study'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const id = combatantId(state, command.targetId, 'targetId');
  ensure(id !== c.id, 'ARCHSOUL_SELF_TARGET', 'one studies an opponent', 'targetId');
  const count = c.study?.targetId === id ? c.study.count + 1 : 1;
  return [spend(c, 'study'), ev('StudyTaken', { combatantId: c.id, targetId: id, count })];
}
