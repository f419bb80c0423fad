import { RuleEvent } from '../../core/types';
import { DiceSource } from '../../dice/roll';
import { ATTACK_TABLE, DEFAULT_DIFFICULTY, SHATTER } from '../data';
import { ev, TestResult } from '../events';
import { distance, inFrontArc, same, Space } from '../grid';
import { liftingRow, Modifier, poolOf, rollTest } from '../rolls';
import { Weapon } from '../sheet';
import {
  ArchsoulCombatant,
  ArchsoulState,
  conditionTotal,
  hasCondition,
  hasFrontArc,
  shieldBonusNow,
} from '../state';
import { AttackInput } from './maneuvers';
import { interceptors } from './stances';

/**
 * archsoul.txt: Armor Advantages: the armour an attack on `t` strikes. Shatter: "Weapons that are strong or weak
 * against plate armor apply that adjustment while shattering a shield"; any other item has none (S31).
 */
export function armourStruck(t: ArchsoulCombatant, input: AttackInput): string | undefined {
  if (!input.shatter) return t.sheet.armour?.type;
  return input.shatter.itemId === t.sheet.shield?.id ? SHATTER.shieldArmour : undefined;
}

/** The pool of an attack roll with `w` (the attack-type table); S37: its Lifting row's Attribute Maximum caps it. */
export function attackPool(c: ArchsoulCombatant, w: Weapon): number {
  const row = ATTACK_TABLE[w.type];
  const stat = row.attack[w.attackRoll] ?? row.attack[0];
  return poolOf(c, stat.attribute, stat.skill, w);
}

/** archsoul.txt: Melee Weapon: "Attack and damage rolls with improvised or broken weapons have increased difficulty" (S22). */
export function weaponModifiers(c: ArchsoulCombatant, w: Weapon): Modifier[] {
  const mods: Modifier[] = [];
  if (w.improvised) mods.push({ reason: 'improvised weapon', amount: 1 });
  if (c.weapons[w.id]?.broken) mods.push({ reason: 'broken weapon', amount: 1 });
  return mods;
}

/** archsoul.txt: Lifting, Throwing, and Improvised Weapons: the Athletics difference's difficulty, on attack and damage rolls (S37). */
export function liftingModifiers(c: ArchsoulCombatant, w: Weapon): Modifier[] {
  const lifting = liftingRow(c, w);
  return lifting?.difficulty
    ? [{ reason: 'heavy improvised weapon (Athletics difference)', amount: lifting.difficulty }]
    : [];
}

export function attackModifiers(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  t: ArchsoulCombatant,
  input: AttackInput,
  aimedAt: Space = t.position!,
): Modifier[] {
  return attackModifiersAt(state, a, w, armourStruck(t, input), input, aimedAt);
}

/**
 * The attack roll's modifiers for an attack aimed at `aimedAt` that strikes `armour` (undefined: none, or nobody there,
 * as in an area with no one in it): only the armour advantages need a target; the range, the weapon's own penalties,
 * a critical failure's "difficulty of next attack", the GM's modifier and Shield Intercept do not.
 */
export function attackModifiersAt(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  armour: string | undefined,
  input: AttackInput,
  aimedAt: Space,
): Modifier[] {
  const mods: Modifier[] = [];
  // archsoul.txt: Armor Advantages.
  if (armour && w.strongAgainst.includes(armour))
    mods.push({ reason: `strong against ${armour}`, amount: -1 });
  if (armour && w.weakAgainst.includes(armour)) mods.push({ reason: `weak against ${armour}`, amount: 1 });
  const d = distance(state.map.grid, a.position!, aimedAt);
  if ((w.type === 'ranged' || w.type === 'thrown') && d > w.accurateRange!)
    mods.push({ reason: 'beyond accurate range', amount: 1 });
  if (w.type === 'unarmed' && input.unarmedStyle === 'other')
    mods.push({ reason: 'unarmed attack other than a punch', amount: 1 });
  if (w.thrown?.heavy && w.type === 'thrown')
    mods.push({ reason: 'cumbersome throw (Athletics)', amount: 1 });
  mods.push(...weaponModifiers(a, w));
  const harder = conditionTotal(a, 'nextAttackHarder');
  if (harder) mods.push({ reason: 'critical failure: next attack harder', amount: harder });
  if (input.modifier !== undefined) mods.push({ reason: 'situational (GM)', amount: input.modifier });
  mods.push(...liftingModifiers(a, w));
  // S63: the shot is fired at where it is aimed (an area's centre), so only spaces on the way there intercept it.
  const intercept = interceptors(state, a, aimedAt);
  if (intercept > 0 && (w.type === 'ranged' || w.type === 'thrown' || w.type === 'elemental'))
    mods.push({ reason: 'Shield Intercept', amount: intercept });
  return mods;
}

/** S20: a critical failure's "difficulty of next attack increases by 1", consumed by the attack it made harder. */
export function harderSpent(a: ArchsoulCombatant): RuleEvent[] {
  return conditionTotal(a, 'nextAttackHarder')
    ? [
        ev('ConditionRemoved', {
          combatantId: a.id,
          condition: 'nextAttackHarder',
          reason: 'applied to this attack',
        }),
      ]
    : [];
}

/**
 * S4, S22: the damage roll's pool and modifiers. `armour` is what it strikes (armourStruck; none for an item other
 * than a shield): archsoul.txt: Armor Advantages: "This advantage does not apply to damage rolls unless your weapon
 * has the Armor Piercing property". Undefined `pool`: the attack type rolls no damage (S93).
 */
export function damageSetup(
  a: ArchsoulCombatant,
  w: Weapon,
  armour: string | undefined,
  input: AttackInput,
  extra: Modifier[] = [],
  bonusDice = 0,
): { pool?: number; modifiers: Modifier[] } {
  const row = ATTACK_TABLE[w.type].damage;
  if (!row) return { modifiers: [] };
  const tech = w.type === 'elemental' && w.attackRoll === 1;
  // archsoul.txt: Charge: "The dice pool for the damage roll of this attack is increased by the base movement speed of your mount".
  const pool =
    (tech ? 0 : poolOf(a, row.attribute, row.skill, w)) + (row.baseDamage || tech ? w.damage : 0) + bonusDice;
  const mods = weaponModifiers(a, w);
  if (w.armourPiercing && armour && w.strongAgainst.includes(armour))
    mods.push({ reason: `armour piercing, strong against ${armour}`, amount: -1 });
  if (w.armourPiercing && armour && w.weakAgainst.includes(armour))
    mods.push({ reason: `armour piercing, weak against ${armour}`, amount: 1 });
  if (input.damageModifier !== undefined)
    mods.push({ reason: 'situational (GM)', amount: input.damageModifier });
  mods.push(...liftingModifiers(a, w));
  return { pool, modifiers: [...mods, ...extra] };
}

/** S4, S22: the damage roll of a single-target attack (damageSetup). */
export function damageTest(
  a: ArchsoulCombatant,
  w: Weapon,
  armour: string | undefined,
  input: AttackInput,
  dice: DiceSource,
  extra: Modifier[] = [],
  bonusDice = 0,
): TestResult {
  const { pool, modifiers } = damageSetup(a, w, armour, input, extra, bonusDice);
  // Ruling S93: a soul attack's damage is "effects vary": where a rule rolls its damage, the roll has no dice.
  if (pool === undefined) return rollTest(dice, 0, DEFAULT_DIFFICULTY);
  return rollTest(dice, pool, DEFAULT_DIFFICULTY, modifiers);
}

/**
 * archsoul.txt: Unarmed: "The damage roll is increased by 1 if you are wearing metal armor on the limb you are
 * attacking with, usually a gauntlet" (S22: the GM's limbArmoured, else the sheet's metalGauntlets for a punch only,
 * S72: a gauntlet is on the hand, and "anything else" names no limb): added to the roll's successes wherever they
 * count, as damage dealt, against a Knockdown's resistance or as damage to a shattered item.
 */
export function metalLimb(a: ArchsoulCombatant, w: Weapon, input: AttackInput): number {
  if (w.type !== 'unarmed') return 0;
  const armoured = input.limbArmoured ?? (input.unarmedStyle !== 'other' && a.sheet.metalGauntlets);
  return armoured ? 1 : 0;
}

export function wound(
  state: ArchsoulState,
  id: string,
  damage: number,
  source: string,
  roll?: TestResult,
  bonus = 0,
): RuleEvent {
  const hpBefore = state.combatants[id].hp;
  const hp = Math.max(0, hpBefore - damage);
  return ev('WoundsApplied', {
    combatantId: id,
    source,
    ...(roll ? { damageRoll: roll } : {}),
    bonus,
    damage,
    hpBefore,
    hp,
    down: hp === 0,
  });
}

/** S10 and Hold Firm: the arc an attack from `from` strikes, and the target's resistance to it. */
export function defenceAgainst(
  state: ArchsoulState,
  w: Weapon,
  t: ArchsoulCombatant,
  from: Space,
): { front: boolean; defense: number; shieldBonus: number } {
  const row = ATTACK_TABLE[w.type];
  // archsoul.txt: Hold Firm: "attacks against your back arc are treated as if they were attacking your front arc".
  const front =
    hasFrontArc(t) &&
    (hasCondition(t, 'holdFirm') ||
      same(from, t.position!) ||
      inFrontArc(state.map.grid, t.position!, t.facing, from));
  const defense = Math.max(0, t.sheet.defense - conditionTotal(t, 'defenseDown'));
  // S10: the held shield's bonus (shieldBonusNow, as the view shows it) against ranged, thrown and elemental attacks into the front arc.
  const shieldBonus = row.resistedBy === 'defenseAndShield' && front ? shieldBonusNow(t) : 0;
  return { front, defense, shieldBonus };
}
