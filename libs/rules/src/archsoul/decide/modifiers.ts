import { RuleEvent } from '../../core/types';
import { run } from '../../core/run';
import { DiceSource } from '../../dice/roll';
import { DEFAULT_DIFFICULTY, FEINT_DEFENCE_TEST, FEINT_TEST, KNOCKDOWN_TEST } from '../data';
import { ev, TestResult } from '../events';
import { evolve } from '../evolve';
import { Modifier, poolOf, rollTest, usableAsWeapon } from '../rolls';
import { FIST, Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import {
  armourStruck,
  attackPool,
  damageTest,
  defenceAgainst,
  harderSpent,
  liftingModifiers,
  metalLimb,
  weaponModifiers,
} from './damage';
import { AttackInput, AttackOptions, feintStats } from './maneuvers';
import { knockedDown as toTheGround } from './prone';

/**
 * archsoul.txt: Feint: Precision/Confusion or Precision/Acting at 5 against Intellect/Read Emotions at 4; on a
 * success the opponent is rotated (feint.facing) before the declared attack (S28).
 */
export function feint(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  t: ArchsoulCombatant,
  o: AttackOptions,
  dice: DiceSource,
  push: (...e: RuleEvent[]) => void,
): boolean {
  const { skill, mods } = feintStats(a, t, o);
  const test = rollTest(dice, poolOf(a, FEINT_TEST.attribute, skill), FEINT_TEST.difficulty, mods);
  const defence = rollTest(
    dice,
    poolOf(t, FEINT_DEFENCE_TEST.attribute, FEINT_DEFENCE_TEST.skill),
    FEINT_DEFENCE_TEST.difficulty,
  );
  const success = test.successes > defence.successes;
  const facing = success && o.feint?.facing && o.feint.facing !== t.facing ? o.feint.facing : undefined;
  push(
    ev('FeintResolved', {
      attackerId: a.id,
      targetId: t.id,
      feint: test,
      defence,
      success,
      ...(facing ? { facing } : {}),
    }),
  );
  if (facing) push(ev('Turned', { combatantId: t.id, facing }));
  return success;
}

/**
 * archsoul.txt: Knockdown: the opponent rolls Athletics/Resolve at 3; a damage roll above it knocks it down (S22: with
 * a metal limb's +1); the damage is ignored.
 */
export function knockdown(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  t: ArchsoulCombatant,
  input: AttackInput,
  dmgMods: Modifier[],
  dice: DiceSource,
  bonusDice = 0,
): RuleEvent[] {
  const resist = rollTest(
    dice,
    poolOf(t, KNOCKDOWN_TEST.attribute, KNOCKDOWN_TEST.skill),
    KNOCKDOWN_TEST.difficulty,
  );
  const damageRoll = damageTest(a, w, armourStruck(t, input), input, dice, dmgMods, bonusDice);
  const knockedDown = damageRoll.successes + metalLimb(a, w, input) > resist.successes;
  const events = [
    ev('KnockdownResolved', { attackerId: a.id, targetId: t.id, damageRoll, resist, knockedDown }),
  ];
  if (knockedDown) events.push(...toTheGround(t, `Knockdown by ${a.id}`));
  return events;
}

/** S31: a shield rolls and strikes as a melee weapon with no base damage. */
function asWeapon(t: ArchsoulCombatant, itemId: string): Weapon {
  const w = t.sheet.weapons.find((x) => x.id === itemId);
  if (w) return w;
  const sh = t.sheet.shield!;
  return {
    ...FIST,
    id: sh.id,
    name: sh.name,
    type: 'melee',
    criticalTable: 'melee',
    handling: 'regular',
    hardness: sh.hardness,
  };
}

/** A Shatter attack as rolled: who attacks whom with which weapon, and the item it targets (S31). */
export interface ShatterAttempt {
  attacker: ArchsoulCombatant;
  weapon: Weapon;
  target: ArchsoulCombatant;
  /** The targeted item: one of the target's weapons, or its shield. */
  itemId: string;
  /** The attacker's roll. */
  test: TestResult;
  input: AttackInput;
  /** The maneuvers' damage modifiers. */
  dmgMods: Modifier[];
  /** Dice added to the attacker's damage roll (Charge: the mount's speed, also on a Polearm's reactive attack). */
  bonusDice?: number;
  action: 'attack' | 'throw' | 'reactive';
  /** The distance the exchange records. */
  distanceNow: number;
  /** The special attack and maneuvers the exchange records. */
  tag: Record<string, unknown>;
}

/**
 * archsoul.txt: Shatter: the opponent makes a weapon attack roll with the targeted item instead of defending;
 * the higher roll deals damage to the other's weapon or item, less its hardness; a tie damages nothing.
 */
export function shatter(state: ArchsoulState, attempt: ShatterAttempt, dice: DiceSource): RuleEvent[] {
  const { attacker: a, weapon: w, target: t, itemId, test, action, distanceNow, tag } = attempt;
  const r = run(state, evolve);
  const { events, push } = r;
  const item = asWeapon(t, itemId);
  const defence = itemDefence(t, item, dice);
  const winner =
    test.successes > defence.successes ? 'attacker' : test.successes < defence.successes ? 'defender' : 'tie';
  push(
    ev('ExchangeResolved', {
      attackerId: a.id,
      targetId: t.id,
      weaponId: w.id,
      attackType: w.type,
      action,
      distance: distanceNow,
      // S5, S31: the arc the attack came from, recorded as for any attack; a Shatter counts neither Defense nor Shield Bonus.
      targetArc: defenceAgainst(state, w, t, a.position!).front ? 'front' : 'back',
      attack: test,
      defense: 0,
      shieldBonus: 0,
      resistance: defence.successes,
      hit: winner === 'attacker',
      ...tag,
    }),
  );
  push(...harderSpent(a));
  const damaged = damageRoll(attempt, item, winner, dice);
  const damage = damaged ? Math.max(0, damaged.roll.successes + damaged.bonus - damaged.item.hardness) : 0;
  push(
    ev('ShatterResolved', {
      attackerId: a.id,
      targetId: t.id,
      itemId,
      dropped: false,
      defence,
      winner,
      ...(damaged
        ? { damagedId: damaged.owner.id, damagedItemId: damaged.item.id, damageRoll: damaged.roll }
        : {}),
      hardness: damaged?.item.hardness ?? 0,
      damage,
    }),
  );
  if (damaged && damage > 0) push(itemDamaged(r.state(), damaged, damage));
  return events;
}

/**
 * The targeted item's weapon attack roll, in place of the target's defence (S31): the item's own pool and
 * difficulty, as in an attack with it (improvised or broken, S22; a heavy object's Lifting row, S37).
 */
function itemDefence(t: ArchsoulCombatant, item: Weapon, dice: DiceSource): TestResult {
  // S69: "If the Athletics Difference is 0 or less, the object cannot be used as a weapon": no weapon attack roll, no dice.
  if (!usableAsWeapon(t, item)) return rollTest(dice, 0, DEFAULT_DIFFICULTY);
  const mods = [...weaponModifiers(t, item), ...liftingModifiers(t, item)];
  return rollTest(dice, attackPool(t, item), DEFAULT_DIFFICULTY, mods);
}

/** The item a Shatter damages: whose, which, the damage roll and what a metal limb adds to it (S22). */
interface Damaged {
  owner: ArchsoulCombatant;
  item: Weapon;
  roll: TestResult;
  bonus: number;
}

/** The higher roll damages the other's item; a tie damages nothing. */
function damageRoll(
  attempt: ShatterAttempt,
  item: Weapon,
  winner: 'attacker' | 'defender' | 'tie',
  dice: DiceSource,
): Damaged | undefined {
  const { attacker: a, weapon: w, target: t, input, dmgMods, bonusDice } = attempt;
  if (winner === 'attacker')
    return {
      owner: t,
      item,
      roll: damageTest(a, w, armourStruck(t, input), input, dice, dmgMods, bonusDice),
      bonus: metalLimb(a, w, input),
    };
  // S31: an unarmed attacker has no item for the defender to damage; the weapon struck is no shield, so no armour counts.
  if (winner === 'defender' && a.weapons[w.id])
    return {
      owner: a,
      item: w,
      roll: damageTest(t, item, undefined, {}, dice),
      bonus: metalLimb(t, item, {}),
    };
  return undefined;
}

/** The damage, less hardness, taken off the item's HP. */
function itemDamaged(state: ArchsoulState, damaged: Damaged, damage: number): RuleEvent {
  const ws = state.combatants[damaged.owner.id].weapons[damaged.item.id];
  const hp = ws.hp === undefined ? undefined : Math.max(0, ws.hp - damage);
  // S31 (as S20): an item brought to 0 HP is broken.
  return ev('WeaponChanged', {
    combatantId: damaged.owner.id,
    weaponId: damaged.item.id,
    broken: ws.broken || hp === 0,
    destroyed: ws.destroyed,
    jammed: ws.jammed,
    ...(hp === undefined ? {} : { hp }),
    reason: `Shatter: ${damage} damage after hardness ${damaged.item.hardness}`,
  });
}
