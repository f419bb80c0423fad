import { RuleEvent } from '../../core/types';
import { run } from '../../core/run';
import { ensure } from '../../core/violation';
import { DiceSource, Roll } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import {
  ATTACK_TABLE,
  DEFAULT_DIFFICULTY,
  DIE_SIDES,
  MAX_DIFFICULTY,
  MIN_DIFFICULTY,
  SPACE_METRES,
} from '../data';
import { ev, TestResult } from '../events';
import { evolve } from '../evolve';
import { distance, neighbours, same, Space } from '../grid';
import { canStep, lineOfSight } from '../map';
import { Modifier } from '../rolls';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import {
  attackModifiers,
  attackModifiersAt,
  armourStruck,
  attackPool,
  damageSetup,
  defenceAgainst,
  harderSpent,
  metalLimb,
  wound,
} from './damage';
import { checkLiftable, checkNotGrappledWeapon, thrownWeapon } from './weapons';
import { acting, occupant, onMap, spend, weaponOf } from './common';
import { criticalFailure } from './critical';
import { AttackInput, AttackOptions, checkNotAfterQuick, maneuverModifiers } from './maneuvers';
import { triggerReactions } from './reactions';

const clamp = (d: number) => Math.min(MAX_DIFFICULTY, Math.max(MIN_DIFFICULTY, d));

/** One area attack for resolveArea: who attacks with which weapon, the area, and everyone in it. */
interface AreaStrike {
  attacker: ArchsoulCombatant;
  weapon: Weapon;
  spaces: Space[];
  targets: ArchsoulCombatant[];
  /** The centre the modifiers and arcs are seen from (a Cleave instead takes each target's space for modifiers, the attacker's for arcs). */
  origin: Space;
  /** Where the area was aimed (S57): its centre, or the first space a Cleave names. */
  aim: Space;
  /** Attack modifiers for every target. */
  shared: Modifier[];
  /** The maneuvers' damage modifiers. */
  dmgMods: Modifier[];
  input: AttackInput;
  action: 'attack' | 'cleave' | 'throw';
}

/**
 * archsoul.txt: Area of Effect Attacks: "a single attack roll against everything within the attack's area,
 * with every individual target defending separately"; "make one dice roll to attack and recount it for each
 * difficulty level needed" (S34); "All targets hit are then affected by the same damage roll".
 */
function resolveArea(state: ArchsoulState, area: AreaStrike, dice: DiceSource): RuleEvent[] {
  const { attacker: a, weapon: w, spaces, targets, origin, aim, shared, dmgMods, input, action } = area;
  const r = run(state, evolve);
  const { events, push } = r;
  const row = ATTACK_TABLE[w.type];
  // S37: the object's Attribute Maximum caps Athletics and Precision in the attack roll too.
  const pool = attackPool(a, w);
  const perTarget = targets.map((t) => {
    const mods = [
      ...attackModifiers(r.state(), a, w, t, input, action === 'cleave' ? t.position! : origin),
      ...shared,
    ];
    return { t, wanted: mods.reduce((d, m) => d + m.amount, DEFAULT_DIFFICULTY) };
  });
  // archsoul.txt: Ranged Weapon / Thrown Weapon: "Attacks made outside of your weapon's accurate range … have the
  // difficulty of the attack roll increased by 1": with nobody in the area the one roll is still made at the difficulty
  // every modifier that needs no target sets (range, Shield Intercept, the weapon's own, "difficulty of next attack"),
  // which decides a critical failure (S57) and a thrown roll of 0 (S58).
  const unaimed = [
    ...attackModifiersAt(r.state(), a, w, undefined, input, action === 'cleave' ? aim : origin),
    ...shared,
  ];
  const test = areaRoll(pool, perTarget, shared, unaimed, dice);
  const results = perTarget.map(({ t, wanted }) => targetResult(r.state(), area, test, t, wanted));
  push(
    ev('AreaAttackResolved', {
      attackerId: a.id,
      weaponId: w.id,
      action,
      spaces,
      attack: test,
      targets: results,
    }),
  );
  push(...harderSpent(a));
  const hit = results.filter((r) => r.hit).map((h) => r.state().combatants[h.targetId]);
  if (hit.length > 0 && row.damage) {
    const dmg = areaDamage(a, w, hit, input, dmgMods, dice);
    // archsoul.txt: Unarmed: +1 to the damage roll with metal armour on the limb (S22), an unarmed Cleave's too (S56).
    const bonus = metalLimb(a, w, input);
    hit.forEach((t, i) =>
      push(wound(r.state(), t.id, dmg[i].successes + bonus, `${a.id}:${w.id}`, dmg[i], bonus)),
    );
  }
  // S57: the table is rolled whoever the area holds; "your target" is whoever stands where the area was aimed.
  if (test.criticalFailure) {
    const aimed = occupant(r.state(), aim, a.id);
    push(
      ...criticalFailure(
        r.state(),
        {
          attacker: r.state().combatants[a.id],
          weapon: w,
          target: aimed,
          aim,
          input,
          action: 'attack',
          damageMods: dmgMods,
        },
        dice,
      ).events,
    );
  }
  return events;
}

/** How many of `faces` make difficulty `d`. */
const count = (faces: number[], d: number) => faces.filter((f) => f >= d).length;

/** S1: the dice a difficulty of `wanted` removes (above 6). */
const removedAt = (wanted: number) => Math.max(0, wanted - MAX_DIFFICULTY);

/**
 * S34: one roll of `pool` recounted at `wanted`: only its first dice count where `wanted` removes more than the
 * roll's own difficulty did (S1), as a test rolled at `wanted` would have rolled them.
 */
function recount(pool: number, roll: Roll, wanted: number, modifiers: Modifier[]): TestResult {
  const removed = removedAt(wanted);
  const faces = roll.faces.slice(0, Math.max(0, pool - removed));
  const difficulty = clamp(wanted);
  const successes = count(faces, difficulty);
  const ones = faces.filter((f) => f === 1).length;
  return {
    pool,
    difficulty,
    removed,
    roll: { ...roll, faces },
    successes,
    criticalFailure: successes === 0 && ones * 2 > faces.length,
    modifiers: modifiers.filter((m) => m.amount !== 0),
  };
}

/**
 * S34: archsoul.txt: Area of Effect Attacks: "All targets hit are then affected by the same damage roll"; Armor
 * Advantages: "This advantage does not apply to damage rolls unless your weapon has the Armor Piercing property", so
 * the one damage roll is recounted at each target's own damage difficulty ("make one dice roll … and recount it for
 * each difficulty level needed"), rolled with the dice the lowest of them removes (S1). In the order of `hit`.
 */
function areaDamage(
  a: ArchsoulCombatant,
  w: Weapon,
  hit: ArchsoulCombatant[],
  input: AttackInput,
  dmgMods: Modifier[],
  dice: DiceSource,
): TestResult[] {
  const perTarget = hit.map((t) => {
    const { pool, modifiers } = damageSetup(a, w, armourStruck(t, input), input, dmgMods);
    return {
      pool: pool ?? 0,
      modifiers,
      wanted: modifiers.reduce((d, m) => d + m.amount, DEFAULT_DIFFICULTY),
    };
  });
  const pool = perTarget[0].pool;
  const lowest = Math.min(...perTarget.map((p) => p.wanted));
  const roll = dice.roll(Math.max(0, pool - removedAt(lowest)), DIE_SIDES, 'pool');
  return perTarget.map((p) => recount(pool, roll, p.wanted, p.modifiers));
}

/**
 * S34: the one roll, with the dice the lowest difficulty wanted removes (above 6); counted at that difficulty. With
 * nobody in the area, at the difficulty of the modifiers that need no target (`unaimed`).
 */
function areaRoll(
  pool: number,
  perTarget: { wanted: number }[],
  shared: Modifier[],
  unaimed: Modifier[],
  dice: DiceSource,
): TestResult {
  const wanted = perTarget.length
    ? Math.min(...perTarget.map((p) => p.wanted))
    : unaimed.reduce((d, m) => d + m.amount, DEFAULT_DIFFICULTY);
  const roll = dice.roll(Math.max(0, pool - removedAt(wanted)), DIE_SIDES, 'pool');
  return recount(pool, roll, wanted, perTarget.length ? shared : unaimed);
}

/** One target's recount of the roll at its own difficulty, against its own defence. */
function targetResult(
  state: ArchsoulState,
  area: AreaStrike,
  test: TestResult,
  t: ArchsoulCombatant,
  wanted: number,
) {
  const { attacker: a, weapon: w, origin, action } = area;
  // S34: a target whose difficulty removes more dice (above 6) counts only the first dice.
  const { difficulty, successes } = recount(test.pool, test.roll, wanted, []);
  const d = defenceAgainst(state, w, t, action === 'cleave' ? a.position! : origin);
  const resistance = d.defense + d.shieldBonus;
  return {
    targetId: t.id,
    targetArc: d.front ? ('front' as const) : ('back' as const),
    difficulty,
    successes,
    defense: d.defense,
    shieldBonus: d.shieldBonus,
    resistance,
    hit: successes > resistance,
  };
}

/** archsoul.txt: Cleave: an area melee attack on up to 2 adjacent spaces within reach, +1 to attack and damage. */
export function performCleave(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  o: AttackOptions,
  input: AttackInput,
  dice: DiceSource,
): RuleEvent[] {
  const spaces = o.cleave!.spaces;
  // archsoul.txt: Area of Effect Attacks: "against everything within the attack's area": both grapplers sharing a space
  // after a Takedown (S43), not only the first found there.
  const targets = spaces.flatMap((sp) =>
    state.joined
      .map((id) => state.combatants[id])
      .filter((c) => c.id !== a.id && c.position !== undefined && same(c.position, sp)),
  );
  const [atk, dmg] = maneuverModifiers(a, w, o);
  return resolveArea(
    state,
    {
      attacker: a,
      weapon: w,
      spaces,
      targets,
      origin: a.position!,
      aim: spaces[0],
      shared: atk,
      dmgMods: dmg,
      input,
      action: 'cleave',
    },
    dice,
  );
}

/** S21: a 0-success throw: a follow-up d6 (hex) or d8 (square) names the neighbour; blocked → the target's space. */
export function randomAdjacent(state: ArchsoulState, at: Space, dice: DiceSource): Space {
  const around = neighbours(state.map.grid, at);
  const face = dice.roll(1, around.length, 'followUp').faces[0];
  const space = around[face - 1];
  return canStep(state.map, at, space) ? space : at;
}

/** S7/S14: the spaces within ⌊R / 2⌋ of the centre. */
export function areaSpaces(state: ArchsoulState, centre: Space, radiusMetres: number): Space[] {
  const r = Math.floor(radiusMetres / SPACE_METRES);
  const out: Space[] = [];
  for (let dx = -r; dx <= r; dx++)
    for (let dy = -r; dy <= r; dy++) {
      const sp = { x: centre.x + dx, y: centre.y + dy };
      if (distance(state.map.grid, centre, sp) <= r) out.push(sp);
    }
  return out;
}

function areaWeapon(a: ArchsoulCombatant, weaponId: string): Weapon {
  const sheetWeapon = a.sheet.weapons.find((x) => x.id === weaponId);
  const w = sheetWeapon?.type === 'thrown' ? thrownWeapon(a, weaponId) : weaponOf(a, weaponId, 'weaponId');
  ensure(
    w.areaRadius,
    'ARCHSOUL_NOT_AN_AREA_WEAPON',
    `archsoul.txt: Area of Effect Attacks: ${w.name} has no areaRadius on the sheet`,
    'weaponId',
  );
  ensure(
    w.type === 'ranged' || w.type === 'thrown' || w.type === 'elemental',
    'ARCHSOUL_NOT_AN_AREA_WEAPON',
    `ruling S34: AreaAttack takes a ranged, thrown or elemental weapon (melee areas are Cleave); ${w.name} is ${w.type}`,
    'weaponId',
  );
  // archsoul.txt: Lifting, Throwing, and Improvised Weapons: "If the Athletics Difference is 0 or less, the object cannot be used as a weapon" (S37).
  checkLiftable(a, w);
  return w;
}

/**
 * archsoul.txt: Area of Effect Attacks: Attack (2 AP) or Throw an Item (1 AP) at a centre space within range and
 * line of sight; everything in the area defends separately, its arc seen from the centre (S34).
 */
export function areaAttack(
  state: ArchsoulState,
  command: ArchsoulCommand<'AreaAttack'>,
  dice: DiceSource,
): RuleEvent[] {
  const a = acting(state, command, 'attackerId');
  onMap(a, 'attackerId');
  checkNotAfterQuick(a);
  const w = areaWeapon(a, command.weaponId);
  checkNotGrappledWeapon(a, w, 'weaponId');
  ensure(
    !a.weapons[w.id]?.jammed,
    'ARCHSOUL_WEAPON_JAMMED',
    `${w.name} is jammed; ClearJam first`,
    'weaponId',
  );
  ensure(
    !w.ammunition || (a.weapons[w.id].ammunition ?? 0) > 0,
    'ARCHSOUL_NO_AMMUNITION',
    `${w.name} has no ${w.ammunition?.kind} left`,
    'weaponId',
  );
  const centre = command.centre;
  const d = distance(state.map.grid, a.position!, centre);
  ensure(
    d <= w.maximumRange!,
    'ARCHSOUL_OUT_OF_RANGE',
    `archsoul.txt: Ranged Weapon: the centre is ${d} spaces away, beyond ${w.name}'s maximum range ${w.maximumRange}`,
    'centre',
  );
  ensure(
    lineOfSight(state.map, a.position!, centre),
    'ARCHSOUL_NO_LINE_OF_SIGHT',
    'ruling S23: a wall or blocked space stands before the centre',
    'centre',
  );
  const paid = spend(a, w.type === 'thrown' ? 'throwItem' : 'attack');
  // archsoul.txt: Reactive Attack: "Making a ranged attack with a thrown or projectile weapon", "Attacking with soul
  // magic": as the weapon's Attack would (S34); a technological elemental weapon is neither and provokes nothing.
  const trigger = w.soulMagic
    ? 'soulMagic'
    : w.type === 'ranged' || w.type === 'thrown'
      ? 'rangedAttack'
      : undefined;
  const { dice: _d, rerollFaces: _r, followUpFaces: _f, ...payload } = command;
  const reactors = trigger
    ? triggerReactions(state, a.id, trigger, a.position!, { type: 'AreaAttack', payload })
    : [];
  if (reactors.length > 0) return [paid, ...reactors];
  const s = evolve(state, paid);
  return [paid, ...performAreaAttack(s, s.combatants[a.id], w.id, centre, command, dice)];
}

export function performAreaAttack(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  weaponId: string,
  centre: Space,
  input: AttackInput,
  dice: DiceSource,
): RuleEvent[] {
  const w = areaWeapon(a, weaponId);
  const spaces = areaSpaces(state, centre, w.areaRadius!);
  const targets = state.joined
    .map((id) => state.combatants[id])
    .filter((c) => c.position && spaces.some((sp) => sp.x === c.position!.x && sp.y === c.position!.y));
  const pre: RuleEvent[] = [];
  if (w.ammunition)
    pre.push(
      ev('AmmunitionSpent', {
        combatantId: a.id,
        weaponId: w.id,
        left: (a.weapons[w.id].ammunition ?? 1) - 1,
      }),
    );
  const s = pre.reduce(evolve, state);
  const out = resolveArea(
    s,
    {
      attacker: s.combatants[a.id],
      weapon: w,
      spaces,
      targets: targets.map((t) => s.combatants[t.id]),
      origin: centre,
      aim: centre,
      shared: [],
      dmgMods: [],
      input,
      action: w.type === 'thrown' ? 'throw' : 'attack',
    },
    dice,
  );
  // S34: a thrown area weapon (a bomb) is spent where it lands; S58: "A roll of 0 means the item lands in a random
  // adjacent space" (Throw an Item), where 0 successes hit nobody either (no Defense is below 0).
  // S57: a bomb the critical table dropped lies where it fell, unspent, as a single throw's weapon does.
  const dropped = out.some((e) => e.type === 'ItemDropped' && (e.data as { itemId: string }).itemId === w.id);
  if (w.type === 'thrown' && !dropped) {
    const rolled = out.find((e) => e.type === 'AreaAttackResolved')!.data as { attack: TestResult };
    const scattered = rolled.attack.successes === 0;
    out.push(
      ev('ProjectileLanded', {
        combatantId: a.id,
        weaponId: w.id,
        itemId: w.id,
        name: w.name,
        space: scattered ? randomAdjacent(s, centre, dice) : centre,
        broken: true,
        reason: scattered
          ? 'area weapon spent: a roll of 0 lands in a random adjacent space (ruling S58)'
          : 'area weapon spent',
      }),
    );
  }
  return [...pre, ...out];
}
