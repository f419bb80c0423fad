import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { run } from '../../core/run';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import { ATTACK_TABLE, DEFAULT_DIFFICULTY, SOUL_DEFENCE_TEST, SPECIAL_ATTACKS } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { distance, neighbours, Space } from '../grid';
import { canStep, landingAtRange, lineOfSight } from '../map';
import { poolOf, rollTest } from '../rolls';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState, conditionTotal, hasCondition } from '../state';
import { acting, onMap, spend, weaponOf } from './common';
import { criticalFailure } from './critical';
import { AttackInput, checkNotAfterQuick, checkOptions, maneuverModifiers, readOptions } from './maneuvers';
import { feint, knockdown, shatter } from './modifiers';
import { performCleave } from './area';
import { soulDefencePool } from './stances';
import { attackModifiers, damageTest, defenceAgainst, wound } from './damage';
import { triggerReactions } from './reactions';
import { checkLiftable, checkNotGrappledWeapon, thrownWeapon } from './weapons';

/** Range, reach and line of sight (archsoul.txt: Unarmed "adjacent spaces", Ranged/Thrown Weapon; S23). */
function checkReach(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant): void {
  const d = distance(state.map.grid, a.position!, t.position!);
  if (w.type === 'melee' || w.type === 'unarmed') {
    ensure(
      d <= w.reach,
      'ARCHSOUL_OUT_OF_REACH',
      `archsoul.txt: Attacking: ${w.name} reaches ${w.reach} space(s); ${t.id} is ${d} away`,
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
    `archsoul.txt: The Battle Map / RULINGS.md S23: a wall or blocked space stands between ${a.id} and ${t.id}`,
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
  ensure(
    w.type !== 'thrown',
    'ARCHSOUL_USE_THROW',
    'archsoul.txt: Throw an Item (1 AP) makes thrown weapon attacks',
    'weaponId',
  );
  ensure(
    !a.weapons[w.id]?.jammed,
    'ARCHSOUL_WEAPON_JAMMED',
    `archsoul.txt: Critical Failure Tables (firearm 1): ${w.name} is jammed; ClearJam first`,
    'weaponId',
  );
  checkNotGrappledWeapon(a, w, 'weaponId');
  ensure(
    !w.ammunition || (a.weapons[w.id].ammunition ?? 0) > 0,
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
  const { attacker: a, weapon: w, input, action, bonusDice = 0 } = attack;
  let t = attack.target;
  const r = run(state, evolve);
  const { events, push } = r;
  const o = readOptions(state, input);
  const [atkMods, dmgMods] = maneuverModifiers(a, w, o);
  const tag = {
    ...(o.special ? { special: o.special } : {}),
    ...(o.modifiers.length ? { maneuvers: o.modifiers } : {}),
  };
  const row = ATTACK_TABLE[w.type];
  const stat = row.attack[w.attackRoll] ?? row.attack[0];
  if (o.feint && !feint(r.state(), a, t, o, dice, push)) {
    const d0 = defenceAgainst(r.state(), w, t, a.position!);
    push(
      ev('ExchangeResolved', {
        attackerId: a.id,
        targetId: t.id,
        weaponId: w.id,
        attackType: w.type,
        action,
        distance: distance(r.state().map.grid, a.position!, t.position!),
        targetArc: d0.front ? 'front' : 'back',
        defense: d0.defense,
        shieldBonus: d0.shieldBonus,
        resistance: d0.defense + d0.shieldBonus,
        hit: false,
        ...tag,
        automaticMiss: 'archsoul.txt: Feint: the feint failed; the declared attack automatically misses',
      }),
    );
    return events;
  }
  t = r.state().combatants[t.id];
  if (o.shatter && t.sheet.shatterResponse === 'drop' && o.shatter.itemId !== t.sheet.shield?.id) {
    // archsoul.txt: Shatter: "Your opponent may drop the targeted item instead of making an attack roll" (S31: the sheet's policy).
    const item = t.sheet.weapons.find((x) => x.id === o.shatter!.itemId)!;
    push(
      ev('ItemDropped', {
        combatantId: t.id,
        itemId: item.id,
        groundId: `g${r.state().groundCount + 1}`,
        name: item.name,
        space: t.position!,
        reason: 'Shatter: dropped instead of being targeted',
      }),
    );
    push(
      ev('ShatterResolved', {
        attackerId: a.id,
        targetId: t.id,
        itemId: item.id,
        dropped: true,
        hardness: 0,
        damage: 0,
      }),
    );
    return events;
  }
  const mods = [...attackModifiers(r.state(), a, w, t, input), ...atkMods];
  if (w.ammunition && action !== 'reactive')
    push(
      ev('AmmunitionSpent', {
        combatantId: a.id,
        weaponId: w.id,
        left: (a.weapons[w.id].ammunition ?? 1) - 1,
      }),
    );
  const test = rollTest(dice, poolOf(a, stat.attribute, stat.skill, w), DEFAULT_DIFFICULTY, mods);
  const distanceNow = distance(r.state().map.grid, a.position!, t.position!);
  if (o.shatter) {
    push(
      ...shatter(
        r.state(),
        {
          attacker: a,
          weapon: w,
          target: t,
          itemId: o.shatter.itemId,
          test,
          input,
          dmgMods,
          action,
          distanceNow,
          tag,
        },
        dice,
      ),
    );
    return events;
  }
  const soulDefence =
    row.resistedBy === 'soulpowerResolve'
      ? rollTest(dice, soulDefencePool(r.state(), t), SOUL_DEFENCE_TEST.difficulty)
      : undefined;
  const { front, defense, shieldBonus } = defenceAgainst(r.state(), w, t, a.position!);
  const resistance = soulDefence ? soulDefence.successes : defense + shieldBonus;
  const hit = test.successes > resistance;
  push(
    ev('ExchangeResolved', {
      attackerId: a.id,
      targetId: t.id,
      weaponId: w.id,
      attackType: w.type,
      action,
      distance: distanceNow,
      targetArc: front ? 'front' : 'back',
      attack: test,
      defense,
      shieldBonus,
      resistance,
      ...(soulDefence ? { soulDefence } : {}),
      hit,
      ...tag,
    }),
  );
  if (conditionTotal(a, 'nextAttackHarder'))
    push(
      ev('ConditionRemoved', {
        combatantId: a.id,
        condition: 'nextAttackHarder',
        reason: 'applied to this attack',
      }),
    );
  if (hit && row.damage && o.knockdown)
    push(...knockdown(r.state(), a, w, t, input, dmgMods, dice, bonusDice));
  else if (hit && row.damage) {
    const roll = damageTest(a, w, t, input, dice, dmgMods, bonusDice);
    // archsoul.txt: Unarmed: +1 with metal armour on the limb (S22: added to the damage dealt).
    const bonus = w.type === 'unarmed' && (input.limbArmoured ?? a.sheet.metalGauntlets) === true ? 1 : 0;
    push(wound(r.state(), t.id, roll.successes + bonus, `${a.id}:${w.id}`, roll, bonus));
  }
  if (o.sneak && hasCondition(r.state().combatants[t.id], 'unaware'))
    push(
      ev('ConditionRemoved', {
        combatantId: t.id,
        condition: 'unaware',
        reason: 'RULINGS.md S30: a sneak attack reveals the attacker',
      }),
    );
  // archsoul.txt: Sneak Attack: "Sneak attacks made with a melee weapon cannot critically miss".
  const canFumble = !(o.sneak && (w.type === 'melee' || w.type === 'unarmed'));
  let landedElsewhere = false;
  if (test.criticalFailure && canFumble) {
    const crit = criticalFailure(
      r.state(),
      { attacker: r.state().combatants[a.id], weapon: w, target: r.state().combatants[t.id], input, action },
      dice,
    );
    push(...crit.events);
    landedElsewhere = crit.redirectedTo !== undefined || crit.dropped;
    if (crit.redirectedTo)
      push(...landing(r.state(), a, w, r.state().combatants[crit.redirectedTo].position!, 'hit', dice));
  }
  if (!landedElsewhere && (w.type === 'thrown' || (w.type === 'ranged' && w.ammunition))) {
    let space: Space;
    let reason: string;
    if (hit) [space, reason] = [t.position!, 'hit: drops in the target’s space'];
    else if (w.type === 'thrown' && test.successes === 0)
      [space, reason] = [
        randomAdjacent(r.state(), t.position!, dice),
        'a roll of 0: lands in a random adjacent space',
      ];
    else
      [space, reason] = [
        landingAtRange(r.state().map, a.position!, t.position!, w.maximumRange!),
        'miss: drops at maximum range',
      ];
    push(...landing(r.state(), a, w, space, reason, dice));
  }
  return events;
}

/** S21: a 0-success throw: a follow-up d6 (hex) or d8 (square) names the neighbour; blocked → the target's space. */
function randomAdjacent(state: ArchsoulState, at: Space, dice: DiceSource): Space {
  const around = neighbours(state.map.grid, at);
  const face = dice.roll(1, around.length, 'followUp').faces[0];
  const space = around[face - 1];
  return canStep(state.map, at, space) ? space : at;
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
  if (kind === 'bullet')
    return [
      ev('ProjectileLanded', {
        combatantId: a.id,
        weaponId: w.id,
        itemId: `${w.id}:${kind}`,
        name: kind,
        space,
        ammunition: kind,
        broken: true,
        reason: 'firearm ammunition cannot be recovered',
      }),
    ];
  if ((kind === 'arrow' || kind === 'bolt') && state.options.arrowBreakage !== false) {
    const breakRoll = dice.roll(1, 6, 'followUp');
    if (breakRoll.faces[0] === 1)
      return [
        ev('ProjectileLanded', {
          combatantId: a.id,
          weaponId: w.id,
          itemId: `${w.id}:${kind}`,
          name: kind,
          space,
          ammunition: kind,
          broken: true,
          breakRoll,
          reason: `${reason}; broke (1 in 6)`,
        }),
      ];
    return [
      ev('ProjectileLanded', {
        combatantId: a.id,
        weaponId: w.id,
        itemId: `${w.id}:${kind}`,
        name: kind,
        space,
        groundId,
        ammunition: kind,
        broken: false,
        breakRoll,
        reason,
      }),
    ];
  }
  return [
    ev('ProjectileLanded', {
      combatantId: a.id,
      weaponId: w.id,
      itemId: `${w.id}:${kind}`,
      name: kind,
      space,
      groundId,
      ammunition: kind,
      broken: false,
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
