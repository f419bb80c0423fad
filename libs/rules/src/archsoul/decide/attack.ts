import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import { ATTACK_TABLE, DEFAULT_DIFFICULTY, IMPROVISED, SHATTER, SOUL_DEFENCE_TEST, SPACE_METRES, SPECIAL_ATTACKS } from '../data';
import { ev, TestResult } from '../events';
import { evolve } from '../evolve';
import { distance, inFrontArc, neighbours, same, Space } from '../grid';
import { canStep, landingAtRange, lineOfSight } from '../map';
import { liftingRow, Modifier, poolOf, rollTest } from '../rolls';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState, conditionTotal, hasCondition, hasFrontArc } from '../state';
import { acting, onMap, spend, weaponOf } from './common';
import { criticalFailure } from './critical';
import { AttackInput, checkNotAfterQuick, checkOptions, maneuverModifiers, readOptions } from './maneuvers';
import { feint, knockdown, shatter } from './modifiers';
import { performCleave } from './area';
import { interceptors, soulDefencePool } from './stances';
import { triggerReactions } from './reactive';

/** Range, reach and line of sight (archsoul.txt: Unarmed "adjacent spaces", Ranged/Thrown Weapon; RULINGS.md S23). */
function checkReach(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant): void {
  const d = distance(state.map.grid, a.position!, t.position!);
  if (w.type === 'melee' || w.type === 'unarmed') {
    ensure(d <= w.reach, 'ARCHSOUL_OUT_OF_REACH', `archsoul.txt: Attacking: ${w.name} reaches ${w.reach} space(s); ${t.id} is ${d} away`, 'targetId');
    return;
  }
  ensure(d <= w.maximumRange!, 'ARCHSOUL_OUT_OF_RANGE', `archsoul.txt: Ranged Weapon: ${t.id} is ${d} spaces away, beyond ${w.name}'s maximum range ${w.maximumRange}`, 'targetId');
  ensure(lineOfSight(state.map, a.position!, t.position!), 'ARCHSOUL_NO_LINE_OF_SIGHT', `archsoul.txt: The Battle Map / RULINGS.md S23: a wall or blocked space stands between ${a.id} and ${t.id}`, 'targetId');
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
export function attack(state: ArchsoulState, command: ArchsoulCommand<'Attack'>, dice: DiceSource): RuleEvent[] {
  const a = acting(state, command, 'attackerId');
  onMap(a, 'attackerId');
  checkNotAfterQuick(a);
  const o = readOptions(state, command);
  const t = o.cleave && command.targetId === undefined ? undefined : target(state, a, command.targetId);
  const w = weaponOf(a, command.weaponId, 'weaponId');
  ensure(w.type !== 'thrown', 'ARCHSOUL_USE_THROW', 'archsoul.txt: Throw an Item (1 AP) makes thrown weapon attacks', 'weaponId');
  ensure(!a.weapons[w.id]?.jammed, 'ARCHSOUL_WEAPON_JAMMED', `archsoul.txt: Critical Failure Tables (firearm 1): ${w.name} is jammed; ClearJam first`, 'weaponId');
  checkNotGrappledWeapon(a, w, 'weaponId');
  ensure(!w.ammunition || (a.weapons[w.id].ammunition ?? 0) > 0, 'ARCHSOUL_NO_AMMUNITION', `archsoul.txt: Recovering Projectile Weapons: ${w.name} has no ${w.ammunition?.kind} left`, 'weaponId');
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
    const reactors = triggerReactions(state, a.id, trigger, a.position!, { type: 'Attack', payload: { ...payload, weaponId: w.id } });
    if (reactors.length > 0) return [paid, ...reactors];
  }
  const s = evolve(state, paid);
  return [paid, ...performAttack(s, s.combatants[a.id], w, s.combatants[t!.id], command, dice, 'attack')];
}

/** archsoul.txt: Throw an Item (1 AP): a held item with throwing ranges, at a target; triggers reactive attacks. */
export function throwItem(state: ArchsoulState, command: ArchsoulCommand<'ThrowItem'>, dice: DiceSource): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkNotAfterQuick(c);
  const itemId = command.itemId;
  const w = thrownWeapon(c, itemId);
  checkNotGrappledWeapon(c, w, 'itemId');
  checkLiftable(c, w);
  const t = target(state, c, command.targetId);
  checkReach(state, c, w, t);
  const paid = spend(c, 'throwItem');
  const { dice: _d, rerollFaces: _r, followUpFaces: _f, ...payload } = command;
  const reactors = triggerReactions(state, c.id, 'rangedAttack', c.position!, { type: 'ThrowItem', payload });
  if (reactors.length > 0) return [paid, ...reactors];
  const s = evolve(state, paid);
  return [paid, ...performThrow(s, s.combatants[c.id], itemId, s.combatants[t.id], command, dice)];
}

/**
 * archsoul.txt: Being Grappled: "you may not attack with a weapon"; RULINGS.md S48: melee, ranged and thrown attacks
 * (anything thrown at a target is a thrown weapon attack) are weapon attacks; unarmed attacks and soul magic are not,
 * and take the grapple roll of any other action (S33).
 */
export function checkNotGrappledWeapon(a: ArchsoulCombatant, w: Weapon, field: string): void {
  ensure(w.type === 'unarmed' || w.soulMagic || !hasCondition(a, 'grappled'), 'ARCHSOUL_GRAPPLED', `archsoul.txt: Being Grappled: ${a.id} may not attack with a weapon (${w.name}; RULINGS.md S48)`, field);
}

/** archsoul.txt: Lifting, Throwing, and Improvised Weapons: "If the Athletics Difference is 0 or less, the object cannot be used as a weapon". */
export function checkLiftable(c: ArchsoulCombatant, w: Weapon): void {
  if (w.liftingAthletics === undefined || (w.weightLb ?? 0) <= IMPROVISED.tableFromPounds) return;
  ensure(liftingRow(c, w), 'ARCHSOUL_TOO_HEAVY', `archsoul.txt: Lifting, Throwing, and Improvised Weapons: ${c.id}'s Athletics ${c.sheet.attributes.athletics} does not exceed ${w.name}'s lifting Athletics ${w.liftingAthletics}`, 'weaponId');
}

export function thrownWeapon(c: ArchsoulCombatant, itemId: string): Weapon {
  const w = c.sheet.weapons.find((x) => x.id === itemId);
  const item = w ?? c.sheet.items.find((x) => x.id === itemId);
  ensure(item && c.held.includes(itemId), 'ARCHSOUL_ITEM_NOT_HELD', `archsoul.txt: Throw an Item: "an item you are holding"; ${c.id} holds no ${itemId}`, 'itemId');
  const t0 = item.thrown;
  ensure(t0, 'ARCHSOUL_NOT_THROWABLE', `${item.name} has no throwing ranges on the sheet`, 'itemId');
  // archsoul.txt: Lifting table: "Accurate Throw Range" for heavy objects (RULINGS.md S37).
  const row = w ? liftingRow(c, w) : undefined;
  const t = row ? { ...t0, accurateRange: Math.min(t0.accurateRange, Math.max(1, Math.floor(row.accurateMetres / SPACE_METRES))) } : t0;
  return {
    id: item.id, name: item.name, type: 'thrown', damage: t.damage, reach: 0, accurateRange: t.accurateRange, maximumRange: t.maximumRange,
    strongAgainst: w?.strongAgainst ?? [], weakAgainst: w?.weakAgainst ?? [], armourPiercing: w?.armourPiercing ?? false, improvised: w ? w.improvised : true,
    broken: w?.broken ?? false, criticalTable: 'melee', soulMagic: false, attackRoll: t.heavy ? 1 : 0, stowage: item.stowage, held: true, thrown: t,
    ...(w?.weightLb !== undefined ? { weightLb: w.weightLb } : {}), ...(w?.liftingAthletics !== undefined ? { liftingAthletics: w.liftingAthletics } : {}),
    handling: w?.handling ?? 'regular', twoHanded: w?.twoHanded ?? false, hardness: w?.hardness ?? 0, closeCombat: false, properties: [], ...(w?.areaRadius ? { areaRadius: w.areaRadius } : {}),
  };
}

export function performThrow(state: ArchsoulState, c: ArchsoulCombatant, itemId: string, t: ArchsoulCombatant, input: AttackInput, dice: DiceSource): RuleEvent[] {
  return performAttack(state, c, thrownWeapon(c, itemId), t, input, dice, 'throw');
}

export function attackModifiers(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant, input: AttackInput, aimedAt: Space = t.position!): Modifier[] {
  const mods: Modifier[] = [];
  const shatter = input.shatter;
  // archsoul.txt: Shatter: "Weapons that are strong or weak against plate armor apply that adjustment while shattering a shield" (S31: other items none).
  const armour = shatter ? (shatter.itemId === t.sheet.shield?.id ? SHATTER.shieldArmour : undefined) : t.sheet.armour?.type;
  // archsoul.txt: Armor Advantages.
  if (armour && w.strongAgainst.includes(armour)) mods.push({ reason: `strong against ${armour}`, amount: -1 });
  if (armour && w.weakAgainst.includes(armour)) mods.push({ reason: `weak against ${armour}`, amount: 1 });
  const d = distance(state.map.grid, a.position!, aimedAt);
  if ((w.type === 'ranged' || w.type === 'thrown') && d > w.accurateRange!) mods.push({ reason: 'beyond accurate range', amount: 1 });
  if (w.type === 'unarmed' && input.unarmedStyle === 'other') mods.push({ reason: 'unarmed attack other than a punch', amount: 1 });
  if (w.thrown?.heavy && w.type === 'thrown') mods.push({ reason: 'cumbersome throw (Athletics)', amount: 1 });
  if (w.improvised) mods.push({ reason: 'improvised weapon', amount: 1 });
  if (a.weapons[w.id]?.broken) mods.push({ reason: 'broken weapon', amount: 1 });
  const harder = conditionTotal(a, 'nextAttackHarder');
  if (harder) mods.push({ reason: 'critical failure: next attack harder', amount: harder });
  if (input.modifier !== undefined) mods.push({ reason: 'situational (GM)', amount: input.modifier });
  const lifting = liftingRow(a, w);
  if (lifting?.difficulty) mods.push({ reason: 'heavy improvised weapon (Athletics difference)', amount: lifting.difficulty });
  const intercept = interceptors(state, a, t.position!);
  if (intercept > 0 && (w.type === 'ranged' || w.type === 'thrown' || w.type === 'elemental')) mods.push({ reason: 'Shield Intercept', amount: intercept });
  return mods;
}

/** RULINGS.md S4, S22: the damage roll. */
export function damageTest(a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant | undefined, input: AttackInput, dice: DiceSource, extra: Modifier[] = [], bonusDice = 0): TestResult {
  const row = ATTACK_TABLE[w.type].damage!;
  const tech = w.type === 'elemental' && w.attackRoll === 1;
  // archsoul.txt: Charge: "The dice pool for the damage roll of this attack is increased by the base movement speed of your mount".
  const pool = (tech ? 0 : poolOf(a, row.attribute, row.skill, w)) + (row.baseDamage || tech ? w.damage : 0) + bonusDice;
  const mods: Modifier[] = [];
  if (w.improvised) mods.push({ reason: 'improvised weapon', amount: 1 });
  if (a.weapons[w.id]?.broken) mods.push({ reason: 'broken weapon', amount: 1 });
  const armour = t?.sheet.armour?.type;
  if (w.armourPiercing && armour && w.strongAgainst.includes(armour)) mods.push({ reason: `armour piercing, strong against ${armour}`, amount: -1 });
  if (w.armourPiercing && armour && w.weakAgainst.includes(armour)) mods.push({ reason: `armour piercing, weak against ${armour}`, amount: 1 });
  if (input.damageModifier !== undefined) mods.push({ reason: 'situational (GM)', amount: input.damageModifier });
  const lifting = liftingRow(a, w);
  if (lifting?.difficulty) mods.push({ reason: 'heavy improvised weapon (Athletics difference)', amount: lifting.difficulty });
  return rollTest(dice, pool, DEFAULT_DIFFICULTY, [...mods, ...extra]);
}

export function wound(state: ArchsoulState, id: string, damage: number, source: string, roll?: TestResult, bonus = 0): RuleEvent {
  const hpBefore = state.combatants[id].hp;
  const hp = Math.max(0, hpBefore - damage);
  return ev('WoundsApplied', { combatantId: id, source, ...(roll ? { damageRoll: roll } : {}), bonus, damage, hpBefore, hp, down: hp === 0 });
}

/** RULINGS.md S10 and Hold Firm: the arc an attack from `from` strikes, and the target's resistance to it. */
export function defenceAgainst(state: ArchsoulState, w: Weapon, t: ArchsoulCombatant, from: Space): { front: boolean; defense: number; shieldBonus: number } {
  const row = ATTACK_TABLE[w.type];
  // archsoul.txt: Hold Firm: "attacks against your back arc are treated as if they were attacking your front arc".
  const front = hasFrontArc(t) && (hasCondition(t, 'holdFirm') || same(from, t.position!) || inFrontArc(state.map.grid, t.position!, t.facing, from));
  const defense = Math.max(0, t.sheet.defense - conditionTotal(t, 'defenseDown'));
  const shield = t.sheet.shield;
  const shieldBonus = row.resistedBy === 'defenseAndShield' && front && shield && t.held.includes(shield.id) && !t.weapons[shield.id]?.destroyed ? shield.bonus : 0;
  return { front, defense, shieldBonus };
}

/** archsoul.txt: Attacking and the attack-type table; RULINGS.md S3, S4, S10; Maneuvers (S27–S32). */
export function performAttack(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant, input: AttackInput, dice: DiceSource, action: 'attack' | 'throw' | 'reactive', bonusDice = 0): RuleEvent[] {
  const events: RuleEvent[] = [];
  let s = state;
  const push = (...es: RuleEvent[]) => es.forEach((e) => { events.push(e); s = evolve(s, e); });
  const o = readOptions(state, input);
  const [atkMods, dmgMods] = maneuverModifiers(a, w, o);
  const tag = { ...(o.special ? { special: o.special } : {}), ...(o.modifiers.length ? { maneuvers: o.modifiers } : {}) };
  const row = ATTACK_TABLE[w.type];
  const stat = row.attack[w.attackRoll] ?? row.attack[0];
  if (o.feint && !feint(s, a, t, o, dice, push)) {
    const d0 = defenceAgainst(s, w, t, a.position!);
    push(ev('ExchangeResolved', { attackerId: a.id, targetId: t.id, weaponId: w.id, attackType: w.type, action, distance: distance(s.map.grid, a.position!, t.position!), targetArc: d0.front ? 'front' : 'back', defense: d0.defense, shieldBonus: d0.shieldBonus, resistance: d0.defense + d0.shieldBonus, hit: false, ...tag, automaticMiss: 'archsoul.txt: Feint: the feint failed; the declared attack automatically misses' }));
    return events;
  }
  t = s.combatants[t.id];
  if (o.shatter && t.sheet.shatterResponse === 'drop' && o.shatter.itemId !== t.sheet.shield?.id) {
    // archsoul.txt: Shatter: "Your opponent may drop the targeted item instead of making an attack roll" (S31: the sheet's policy).
    const item = t.sheet.weapons.find((x) => x.id === o.shatter!.itemId)!;
    push(ev('ItemDropped', { combatantId: t.id, itemId: item.id, groundId: `g${s.groundCount + 1}`, name: item.name, space: t.position!, reason: 'Shatter: dropped instead of being targeted' }));
    push(ev('ShatterResolved', { attackerId: a.id, targetId: t.id, itemId: item.id, dropped: true, hardness: 0, damage: 0 }));
    return events;
  }
  const mods = [...attackModifiers(s, a, w, t, input), ...atkMods];
  if (w.ammunition && action !== 'reactive') push(ev('AmmunitionSpent', { combatantId: a.id, weaponId: w.id, left: (a.weapons[w.id].ammunition ?? 1) - 1 }));
  const test = rollTest(dice, poolOf(a, stat.attribute, stat.skill, w), DEFAULT_DIFFICULTY, mods);
  const distanceNow = distance(s.map.grid, a.position!, t.position!);
  if (o.shatter) {
    push(...shatter(s, a, w, t, o.shatter.itemId, test, input, dmgMods, dice, action, distanceNow, tag));
    return events;
  }
  const soulDefence = row.resistedBy === 'soulpowerResolve' ? rollTest(dice, soulDefencePool(s, t), SOUL_DEFENCE_TEST.difficulty) : undefined;
  const { front, defense, shieldBonus } = defenceAgainst(s, w, t, a.position!);
  const resistance = soulDefence ? soulDefence.successes : defense + shieldBonus;
  const hit = test.successes > resistance;
  push(ev('ExchangeResolved', { attackerId: a.id, targetId: t.id, weaponId: w.id, attackType: w.type, action, distance: distanceNow, targetArc: front ? 'front' : 'back', attack: test, defense, shieldBonus, resistance, ...(soulDefence ? { soulDefence } : {}), hit, ...tag }));
  if (conditionTotal(a, 'nextAttackHarder')) push(ev('ConditionRemoved', { combatantId: a.id, condition: 'nextAttackHarder', reason: 'applied to this attack' }));
  if (hit && row.damage && o.knockdown) push(...knockdown(s, a, w, t, input, dmgMods, dice, bonusDice));
  else if (hit && row.damage) {
    const roll = damageTest(a, w, t, input, dice, dmgMods, bonusDice);
    // archsoul.txt: Unarmed: +1 with metal armour on the limb (RULINGS.md S22: added to the damage dealt).
    const bonus = w.type === 'unarmed' && (input.limbArmoured ?? a.sheet.metalGauntlets) === true ? 1 : 0;
    push(wound(s, t.id, roll.successes + bonus, `${a.id}:${w.id}`, roll, bonus));
  }
  if (o.sneak && hasCondition(s.combatants[t.id], 'unaware')) push(ev('ConditionRemoved', { combatantId: t.id, condition: 'unaware', reason: 'RULINGS.md S30: a sneak attack reveals the attacker' }));
  // archsoul.txt: Sneak Attack: "Sneak attacks made with a melee weapon cannot critically miss".
  const canFumble = !(o.sneak && (w.type === 'melee' || w.type === 'unarmed'));
  let landedElsewhere = false;
  if (test.criticalFailure && canFumble) {
    const crit = criticalFailure(s, s.combatants[a.id], w, s.combatants[t.id], input, dice, action);
    push(...crit.events);
    landedElsewhere = crit.redirectedTo !== undefined || crit.dropped;
    if (crit.redirectedTo) push(...landing(s, a, w, s.combatants[crit.redirectedTo].position!, 'hit', dice));
  }
  if (!landedElsewhere && (w.type === 'thrown' || (w.type === 'ranged' && w.ammunition))) {
    let space: Space;
    let reason: string;
    if (hit) [space, reason] = [t.position!, 'hit: drops in the target’s space'];
    else if (w.type === 'thrown' && test.successes === 0) [space, reason] = [randomAdjacent(s, t.position!, dice), 'a roll of 0: lands in a random adjacent space'];
    else [space, reason] = [landingAtRange(s.map, a.position!, t.position!, w.maximumRange!), 'miss: drops at maximum range'];
    push(...landing(s, a, w, space, reason, dice));
  }
  return events;
}

/** RULINGS.md S21: a 0-success throw: a follow-up d6 (hex) or d8 (square) names the neighbour; blocked → the target's space. */
function randomAdjacent(state: ArchsoulState, at: Space, dice: DiceSource): Space {
  const around = neighbours(state.map.grid, at);
  const face = dice.roll(1, around.length, 'followUp').faces[0];
  const space = around[face - 1];
  return canStep(state.map, at, space) ? space : at;
}

/** archsoul.txt: Recovering Projectile Weapons; RULINGS.md S21. */
function landing(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, space: Space, reason: string, dice: DiceSource): RuleEvent[] {
  const groundId = `g${state.groundCount + 1}`;
  if (w.type === 'thrown') return [ev('ProjectileLanded', { combatantId: a.id, weaponId: w.id, itemId: w.id, name: w.name, space, groundId, broken: false, reason })];
  const kind = w.ammunition!.kind;
  if (kind === 'bullet') return [ev('ProjectileLanded', { combatantId: a.id, weaponId: w.id, itemId: `${w.id}:${kind}`, name: kind, space, ammunition: kind, broken: true, reason: 'firearm ammunition cannot be recovered' })];
  if ((kind === 'arrow' || kind === 'bolt') && state.options.arrowBreakage !== false) {
    const breakRoll = dice.roll(1, 6, 'followUp');
    if (breakRoll.faces[0] === 1) return [ev('ProjectileLanded', { combatantId: a.id, weaponId: w.id, itemId: `${w.id}:${kind}`, name: kind, space, ammunition: kind, broken: true, breakRoll, reason: `${reason}; broke (1 in 6)` })];
    return [ev('ProjectileLanded', { combatantId: a.id, weaponId: w.id, itemId: `${w.id}:${kind}`, name: kind, space, groundId, ammunition: kind, broken: false, breakRoll, reason })];
  }
  return [ev('ProjectileLanded', { combatantId: a.id, weaponId: w.id, itemId: `${w.id}:${kind}`, name: kind, space, groundId, ammunition: kind, broken: false, reason })];
}

/** Firearm table 1: "requiring a full round to clear" (RULINGS.md S20: ClearJam costs 3 AP). */
export function clearJam(state: ArchsoulState, command: ArchsoulCommand<'ClearJam'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const w = weaponOf(c, command.weaponId, 'weaponId');
  const ws = c.weapons[w.id];
  ensure(ws?.jammed, 'ARCHSOUL_NOT_JAMMED', `${w.name} is not jammed`, 'weaponId');
  return [spend(c, 'clearJam'), ev('WeaponChanged', { combatantId: c.id, weaponId: w.id, broken: ws.broken, destroyed: ws.destroyed, jammed: false, reason: 'jam cleared' })];
}
