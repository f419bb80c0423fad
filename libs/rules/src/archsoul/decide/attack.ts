import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { run, Run } from '../../core/run';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import { ATTACK_TABLE, DEFAULT_DIFFICULTY, SOUL_DEFENCE_TEST, SPECIAL_ATTACKS } from '../data';
import { ArchsoulEventData, ev, isArchsoulEvent, TestResult } from '../events';
import { evolve } from '../evolve';
import { distance, Space } from '../grid';
import { landingAtRange, lineOfSight } from '../map';
import { Modifier, rollTest } from '../rolls';
import { isMeleeOrUnarmed, Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState, hasCondition } from '../state';
import { acting, onMap, reachOf, spend, unhidden, weaponOf } from './common';
import { criticalFailure } from './critical';
import {
  AttackInput,
  AttackOptions,
  checkNotAfterQuick,
  checkOptions,
  maneuverModifiers,
  readOptions,
} from './maneuvers';
import { feint, knockdown, shatter } from './modifiers';
import { performCleave, randomAdjacent } from './area';
import { soulDefencePool } from './stances';
import {
  armourStruck,
  attackModifiers,
  attackPool,
  damageTest,
  defenceAgainst,
  harderSpent,
  metalLimb,
  wound,
} from './damage';
import { triggerReactions } from './reactions';
import {
  checkLiftable,
  checkLimbArmoured,
  checkNotGrappledWeapon,
  checkUnarmedStyle,
  thrownWeapon,
} from './weapons';

/** Range, reach and line of sight (archsoul.txt: Unarmed "adjacent spaces", Ranged/Thrown Weapon; S23). */
function checkReach(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant): void {
  const d = distance(state.map.grid, a.position!, t.position!);
  if (isMeleeOrUnarmed(w)) {
    ensure(
      d <= reachOf(w),
      'ARCHSOUL_OUT_OF_REACH',
      w.type === 'unarmed'
        ? `archsoul.txt: Unarmed: "These may only be performed against targets in adjacent spaces"; ${t.id} is ${d} away`
        : `archsoul.txt: Attacking: ${w.name} reaches ${w.reach} space(s); ${t.id} is ${d} away`,
      'targetId',
    );
    ensure(
      unhidden(state, a.position!, t.position!),
      'ARCHSOUL_NO_LINE_OF_SIGHT',
      `ruling S73: a wall or blocked space stands between ${a.id} and ${t.id}; a melee or unarmed attack does not reach through it`,
      'targetId',
    );
    return;
  }
  ensure(
    d <= w.maximumRange!,
    'ARCHSOUL_OUT_OF_RANGE',
    `archsoul.txt: Ranged Weapon: ${t.id} is ${d} spaces away, beyond ${w.name}'s maximum range ${w.maximumRange}`,
    'targetId',
  );
  ensure(
    lineOfSight(state.map, a.position!, t.position!),
    'ARCHSOUL_NO_LINE_OF_SIGHT',
    `archsoul.txt: The Battle Map / ruling S23: a wall or blocked space stands between ${a.id} and ${t.id}`,
    'targetId',
  );
}

function target(state: ArchsoulState, a: ArchsoulCombatant, raw: string | undefined): ArchsoulCombatant {
  const id = combatantId(state, raw, 'targetId');
  ensure(id !== a.id, 'ARCHSOUL_SELF_TARGET', 'an attack targets someone else', 'targetId');
  onMap(state.combatants[id], 'targetId');
  return state.combatants[id];
}

/**
 * archsoul.txt: Attack (2 AP), Quick Attack (1 AP), Reckless Attack (3 AP) and the attack modifiers. Projectile
 * and soul-magic attacks trigger reactive attacks first (S8, S18).
 */
export function attack(
  state: ArchsoulState,
  command: ArchsoulCommand<'Attack'>,
  dice: DiceSource,
): RuleEvent[] {
  const a = acting(state, command, 'attackerId');
  onMap(a, 'attackerId');
  checkNotAfterQuick(a);
  const o = readOptions(state, command);
  const t = o.cleave && command.targetId === undefined ? undefined : target(state, a, command.targetId);
  const w = weaponOf(a, command.weaponId, 'weaponId');
  checkUnarmedStyle(w, command.unarmedStyle);
  checkLimbArmoured(w, command.limbArmoured);
  ensure(
    w.type !== 'thrown',
    'ARCHSOUL_USE_THROW',
    'archsoul.txt: Throw an Item (1 AP) makes thrown weapon attacks',
    'weaponId',
  );
  // Ruling S95: a blow shoots nothing. The ammunition a sheet counts is shots (archsoul.txt: Ranged Weapon: "projectile
  // weapons, such as guns or bows"; Recovering Projectile Weapons), and the firearm table's jam stops them ("requiring
  // a full round to clear before reloading"): neither concerns a melee or unarmed attack.
  ensure(
    isMeleeOrUnarmed(w) || !a.weapons[w.id]?.jammed,
    'ARCHSOUL_WEAPON_JAMMED',
    `archsoul.txt: Critical Failure Tables (firearm 1): ${w.name} is jammed; ClearJam first`,
    'weaponId',
  );
  checkNotGrappledWeapon(a, w, 'weaponId');
  ensure(
    isMeleeOrUnarmed(w) || !w.ammunition || (a.weapons[w.id].ammunition ?? 0) > 0,
    'ARCHSOUL_NO_AMMUNITION',
    `archsoul.txt: Recovering Projectile Weapons: ${w.name} has no ${w.ammunition?.kind} left`,
    'weaponId',
  );
  checkLiftable(a, w);
  if (t) checkReach(state, a, w, t);
  checkOptions(state, a, w, t, o, 'attack');
  const paid = spend(a, o.special ? SPECIAL_ATTACKS[o.special].ap : 'attack');
  if (o.cleave) {
    const s = evolve(state, paid);
    return [paid, ...performCleave(s, s.combatants[a.id], w, o, command, dice)];
  }
  const trigger = w.soulMagic ? 'soulMagic' : w.type === 'ranged' ? 'rangedAttack' : undefined;
  if (trigger) {
    const { dice: _d, rerollFaces: _r, followUpFaces: _f, ...payload } = command;
    const reactors = triggerReactions(state, a.id, trigger, a.position!, {
      type: 'Attack',
      payload: { ...payload, weaponId: w.id },
    });
    if (reactors.length > 0) return [paid, ...reactors];
  }
  const s = evolve(state, paid);
  return [
    paid,
    ...performAttack(
      s,
      {
        attacker: s.combatants[a.id],
        weapon: w,
        target: s.combatants[t!.id],
        input: command,
        action: 'attack',
      },
      dice,
    ),
  ];
}

/** archsoul.txt: Throw an Item (1 AP): a held item with throwing ranges, at a target; triggers reactive attacks. */
export function throwItem(
  state: ArchsoulState,
  command: ArchsoulCommand<'ThrowItem'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkNotAfterQuick(c);
  const itemId = command.itemId;
  const w = thrownWeapon(c, itemId);
  checkNotGrappledWeapon(c, w, 'itemId');
  checkLiftable(c, w);
  const t = target(state, c, command.targetId);
  checkReach(state, c, w, t);
  // S68: "These maneuvers can modify other weapon attacks", and a throw is one.
  checkOptions(state, c, w, t, readOptions(state, command), 'attack');
  const paid = spend(c, 'throwItem');
  const { dice: _d, rerollFaces: _r, followUpFaces: _f, ...payload } = command;
  const reactors = triggerReactions(state, c.id, 'rangedAttack', c.position!, { type: 'ThrowItem', payload });
  if (reactors.length > 0) return [paid, ...reactors];
  const s = evolve(state, paid);
  return [paid, ...performThrow(s, s.combatants[c.id], itemId, s.combatants[t.id], command, dice)];
}

export function performThrow(
  state: ArchsoulState,
  c: ArchsoulCombatant,
  itemId: string,
  t: ArchsoulCombatant,
  input: AttackInput,
  dice: DiceSource,
): RuleEvent[] {
  return performAttack(
    state,
    { attacker: c, weapon: thrownWeapon(c, itemId), target: t, input, action: 'throw' },
    dice,
  );
}

/** One attack for performAttack: who attacks whom with which weapon, as which action, with the command's choices. */
export interface AttackParams {
  attacker: ArchsoulCombatant;
  weapon: Weapon;
  target: ArchsoulCombatant;
  input: AttackInput;
  action: 'attack' | 'throw' | 'reactive';
  /** Dice added to the damage pool (Charge: the mount's speed, also on a Polearm's reactive attack); none by default. */
  bonusDice?: number;
}

/** archsoul.txt: Attacking and the attack-type table; S3, S4, S10; Maneuvers (S27–S32). */
export function performAttack(state: ArchsoulState, attack: AttackParams, dice: DiceSource): RuleEvent[] {
  const { attacker: a, weapon: w, input } = attack;
  const r = run(state, evolve);
  const { events, push } = r;
  const o = readOptions(state, input);
  const [atkMods, dmgMods] = maneuverModifiers(a, w, o);
  const tag = maneuverTag(o);
  if (o.feint && !feint(r.state(), a, attack.target, o, dice, push)) {
    push(feintMissed(r.state(), attack, tag));
    return events;
  }
  const t = r.state().combatants[attack.target.id];
  if (o.shatter && t.sheet.shatterResponse === 'drop' && o.shatter.itemId !== t.sheet.shield?.id) {
    push(...droppedForShatter(r.state(), { ...attack, target: t }, o.shatter.itemId, tag));
    // S30/S31: the sneak attack was made, unrolled, so it removes "unaware" as a rolled one does (S67: it used the study).
    revealed(r, o, t.id);
    return events;
  }
  const mods = [...attackModifiers(r.state(), a, w, t, input), ...atkMods];
  // S95: a shot spends one; a blow (a reactive attack is always one) none.
  if (w.ammunition && !isMeleeOrUnarmed(w))
    push(
      ev('AmmunitionSpent', {
        combatantId: a.id,
        weaponId: w.id,
        left: (a.weapons[w.id].ammunition ?? 1) - 1,
      }),
    );
  const test = rollTest(dice, attackPool(a, w), DEFAULT_DIFFICULTY, mods);
  const distanceNow = distance(r.state().map.grid, a.position!, t.position!);
  const rolled: RolledAttack = { ...attack, target: t, options: o, dmgMods, test, distanceNow, tag };
  if (o.shatter) {
    const struck = shatter(r.state(), { ...rolled, itemId: o.shatter.itemId }, dice);
    push(...struck);
    revealed(r, o, t.id);
    // S29: a sneak may join a Shatter, and a melee one still cannot critically miss (fumbles). S68: a
    // thrown item or a shot lands as S21 says, a win over the item's roll counting as a hit.
    const won = struck.some((e) => isArchsoulEvent(e) && e.type === 'ExchangeResolved' && e.data.hit);
    fumbleAndLanding(r, rolled, won, dice);
    return events;
  }
  const hit = resolveExchange(r, rolled, dice);
  strike(r, rolled, hit, dice);
  fumbleAndLanding(r, rolled, hit, dice);
  return events;
}

/** The special attack and maneuvers an exchange records. */
type ManeuverTag = Pick<ArchsoulEventData<'ExchangeResolved'>, 'special' | 'maneuvers'>;

function maneuverTag(o: AttackOptions): ManeuverTag {
  return {
    ...(o.special ? { special: o.special } : {}),
    ...(o.modifiers.length ? { maneuvers: o.modifiers } : {}),
  };
}

/** archsoul.txt: Feint: after a failed feint "the declared attack automatically misses": the exchange, unrolled. */
function feintMissed(state: ArchsoulState, attack: AttackParams, tag: ManeuverTag): RuleEvent {
  return unrolledMiss(
    state,
    attack,
    tag,
    'archsoul.txt: Feint: the feint failed; the declared attack automatically misses',
  );
}

/** An exchange that misses without an attack roll (a failed feint, an item dropped against a Shatter). */
function unrolledMiss(
  state: ArchsoulState,
  attack: AttackParams,
  tag: ManeuverTag,
  automaticMiss: string,
): RuleEvent {
  const { attacker: a, weapon: w, target: t, action } = attack;
  const d0 = defenceAgainst(state, w, t, a.position!);
  // S31: a Shatter counts neither Defense nor Shield Bonus ("Instead of using a defense value against your attack
  // roll"), rolled or not; the arc is recorded as for any attack.
  const counted = tag.maneuvers?.includes('shatter') ? { defense: 0, shieldBonus: 0 } : d0;
  return ev('ExchangeResolved', {
    attackerId: a.id,
    targetId: t.id,
    weaponId: w.id,
    attackType: w.type,
    action,
    distance: distance(state.map.grid, a.position!, t.position!),
    targetArc: d0.front ? 'front' : 'back',
    defense: counted.defense,
    shieldBonus: counted.shieldBonus,
    resistance: counted.defense + counted.shieldBonus,
    hit: false,
    ...tag,
    automaticMiss,
  });
}

/**
 * archsoul.txt: Shatter: "Your opponent may drop the targeted item instead of making an attack roll" (S31: the sheet's
 * policy). The attack was still made with the weapon (Quick Attack: "a weapon you have not yet made an attack with"),
 * unrolled, and struck nothing: the exchange records it as a miss, which also ends a reactive attack's turn (S18).
 */
function droppedForShatter(
  state: ArchsoulState,
  attack: AttackParams,
  itemId: string,
  tag: ManeuverTag,
): RuleEvent[] {
  const { attacker: a, target: t } = attack;
  const item = t.sheet.weapons.find((x) => x.id === itemId)!;
  return [
    ev('ItemDropped', {
      combatantId: t.id,
      itemId: item.id,
      groundId: `g${state.groundCount + 1}`,
      name: item.name,
      space: t.position!,
      reason: 'Shatter: dropped instead of being targeted',
    }),
    unrolledMiss(
      state,
      attack,
      tag,
      'archsoul.txt: Shatter: the opponent dropped the targeted item instead of making an attack roll; nothing is struck',
    ),
    ev('ShatterResolved', {
      attackerId: a.id,
      targetId: t.id,
      itemId: item.id,
      dropped: true,
      hardness: 0,
      damage: 0,
    }),
  ];
}

/** An attack once its roll is made: what the exchange, the damage, a fumble and the landing read. */
interface RolledAttack extends AttackParams {
  options: AttackOptions;
  /** The maneuvers' damage modifiers. */
  dmgMods: Modifier[];
  /** The attacker's roll. */
  test: TestResult;
  /** The distance the exchange records. */
  distanceNow: number;
  tag: ManeuverTag;
}

/** The target's defence (or its soul defence roll) against the attack roll: the exchange; whether it hit. */
function resolveExchange(r: Run<ArchsoulState>, x: RolledAttack, dice: DiceSource): boolean {
  const { attacker: a, weapon: w, target: t, action, test } = x;
  const soulDefence =
    ATTACK_TABLE[w.type].resistedBy === 'soulpowerResolve'
      ? rollTest(dice, soulDefencePool(r.state(), t), SOUL_DEFENCE_TEST.difficulty)
      : undefined;
  const { front, defense, shieldBonus } = defenceAgainst(r.state(), w, t, a.position!);
  const resistance = soulDefence ? soulDefence.successes : defense + shieldBonus;
  const hit = test.successes > resistance;
  r.push(
    ev('ExchangeResolved', {
      attackerId: a.id,
      targetId: t.id,
      weaponId: w.id,
      attackType: w.type,
      action,
      distance: x.distanceNow,
      targetArc: front ? 'front' : 'back',
      attack: test,
      defense,
      shieldBonus,
      resistance,
      ...(soulDefence ? { soulDefence } : {}),
      hit,
      ...x.tag,
    }),
  );
  r.push(...harderSpent(a));
  return hit;
}

/** A hit's damage (or its Knockdown), and a sneak attack revealing the attacker (S30). */
function strike(r: Run<ArchsoulState>, x: RolledAttack, hit: boolean, dice: DiceSource): void {
  const { attacker: a, weapon: w, target: t, input, options: o, dmgMods, bonusDice = 0 } = x;
  const row = ATTACK_TABLE[w.type];
  if (hit && row.damage && o.knockdown)
    r.push(...knockdown(r.state(), a, w, t, input, dmgMods, dice, bonusDice));
  else if (hit && row.damage) {
    const roll = damageTest(a, w, armourStruck(t, input), input, dice, dmgMods, bonusDice);
    const bonus = metalLimb(a, w, input);
    r.push(wound(r.state(), t.id, roll.successes + bonus, `${a.id}:${w.id}`, roll, bonus));
  }
  revealed(r, o, t.id);
}

/** S30: "unaware", "removed by the sneak attack", hit or miss, rolled or not (an item dropped against a Shatter, S31). */
function revealed(r: Run<ArchsoulState>, o: AttackOptions, targetId: string): void {
  if (o.sneak && hasCondition(r.state().combatants[targetId], 'unaware'))
    r.push(
      ev('ConditionRemoved', {
        combatantId: targetId,
        condition: 'unaware',
        reason: 'RULINGS.md S30: a sneak attack reveals the attacker',
      }),
    );
}

/** A critical failure has a mishap; archsoul.txt: Sneak Attack: "Sneak attacks made with a melee weapon cannot critically miss". */
function fumbles(x: RolledAttack): boolean {
  const { weapon: w, options: o } = x;
  return x.test.criticalFailure && !(o.sneak && isMeleeOrUnarmed(w));
}

/** The critical failure table's mishap for an attack on its target, as things stand now. */
function mishap(r: Run<ArchsoulState>, x: RolledAttack, dice: DiceSource) {
  const { attacker: a, weapon, target: t, input, action, dmgMods, bonusDice } = x;
  const s = r.state();
  const fumble = { attacker: s.combatants[a.id], weapon, input, action, damageMods: dmgMods, bonusDice };
  return criticalFailure(s, { ...fumble, target: s.combatants[t.id], aim: t.position! }, dice);
}

/** A critical failure's mishap, then where a thrown weapon or a recoverable projectile comes down (S21). */
function fumbleAndLanding(r: Run<ArchsoulState>, x: RolledAttack, hit: boolean, dice: DiceSource): void {
  const { attacker: a, weapon: w } = x;
  let landedElsewhere = false;
  if (fumbles(x)) {
    const crit = mishap(r, x, dice);
    r.push(...crit.events);
    landedElsewhere = crit.redirectedTo !== undefined || crit.dropped;
    // Only what flies lands (S21): a thrown weapon or a counted projectile; a weapon whose sheet names the bow table
    // without counting its ammunition (or a melee or unarmed one) leaves nothing on the ground.
    if (crit.redirectedTo && lands(w))
      r.push(...landing(r.state(), a, w, r.state().combatants[crit.redirectedTo].position!, 'hit', dice));
  }
  if (!landedElsewhere && lands(w)) {
    const [space, reason] = whereItLands(r.state(), x, hit, dice);
    r.push(...landing(r.state(), a, w, space, reason, dice));
  }
}

/** archsoul.txt: Recovering Projectile Weapons: a thrown object, or a projectile the sheet counts (S21). */
function lands(w: Weapon): boolean {
  return w.type === 'thrown' || (w.type === 'ranged' && w.ammunition !== undefined);
}

/** S21: a hit drops in the target's space; a thrown 0 lands beside it; any other miss drops at maximum range. */
function whereItLands(
  state: ArchsoulState,
  x: RolledAttack,
  hit: boolean,
  dice: DiceSource,
): [Space, string] {
  const { attacker: a, weapon: w, target: t } = x;
  if (hit) return [t.position!, 'hit: drops in the target’s space'];
  if (w.type === 'thrown' && x.test.successes === 0)
    return [randomAdjacent(state, t.position!, dice), 'a roll of 0: lands in a random adjacent space'];
  return [
    landingAtRange(state.map, a.position!, t.position!, w.maximumRange!),
    'miss: drops at maximum range',
  ];
}

/** archsoul.txt: Recovering Projectile Weapons; S21. */
function landing(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  space: Space,
  reason: string,
  dice: DiceSource,
): RuleEvent[] {
  const groundId = `g${state.groundCount + 1}`;
  if (w.type === 'thrown')
    return [
      ev('ProjectileLanded', {
        combatantId: a.id,
        weaponId: w.id,
        itemId: w.id,
        name: w.name,
        space,
        groundId,
        broken: false,
        reason,
      }),
    ];
  const kind = w.ammunition!.kind;
  const shot = { combatantId: a.id, weaponId: w.id, itemId: `${w.id}:${kind}`, name: kind, space };
  if (kind === 'bullet')
    return [
      ev('ProjectileLanded', {
        ...shot,
        ammunition: kind,
        broken: true,
        reason: 'firearm ammunition cannot be recovered',
      }),
    ];
  const breakRoll =
    (kind === 'arrow' || kind === 'bolt') && state.options.arrowBreakage !== false
      ? dice.roll(1, 6, 'followUp')
      : undefined;
  if (breakRoll?.faces[0] === 1)
    return [
      ev('ProjectileLanded', {
        ...shot,
        ammunition: kind,
        broken: true,
        breakRoll,
        reason: `${reason}; broke (1 in 6)`,
      }),
    ];
  // Recovered: it lies on the ground to be picked up.
  return [
    ev('ProjectileLanded', {
      ...shot,
      groundId,
      ammunition: kind,
      broken: false,
      ...(breakRoll ? { breakRoll } : {}),
      reason,
    }),
  ];
}

/** Firearm table 1: "requiring a full round to clear" (S20: ClearJam costs 3 AP). */
export function clearJam(state: ArchsoulState, command: ArchsoulCommand<'ClearJam'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const w = weaponOf(c, command.weaponId, 'weaponId');
  const ws = c.weapons[w.id];
  ensure(ws?.jammed, 'ARCHSOUL_NOT_JAMMED', `${w.name} is not jammed`, 'weaponId');
  return [
    spend(c, 'clearJam'),
    ev('WeaponChanged', {
      combatantId: c.id,
      weaponId: w.id,
      broken: ws.broken,
      destroyed: ws.destroyed,
      jammed: false,
      reason: 'jam cleared',
    }),
  ];
}
