import { ensure } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import {
  AttackModifier,
  CLEAVE,
  FEINT_TEST,
  KNOCKDOWN_TEST,
  MODIFIER_COMBINATIONS,
  SHATTER,
  SNEAK_ATTACK,
  SPECIAL_ATTACKS,
  SpecialAttack,
} from '../data';
import { distance, Facing, same, Space } from '../grid';
import { handsOf } from '../hands';
import { Modifier } from '../rolls';
import { isMeleeOrUnarmed, Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState, hasCondition } from '../state';
import { checkFacing, reachOf, unhidden } from './common';

/** The fields of an attack command that reach the attack (Attack's, as the contract declares them). */
export type AttackInput = Partial<
  Pick<
    ArchsoulCommand<'Attack'>,
    | 'special'
    | 'feint'
    | 'sneak'
    | 'knockdown'
    | 'shatter'
    | 'cleave'
    | 'modifier'
    | 'damageModifier'
    | 'criticalNarration'
    | 'limbArmoured'
    | 'unarmedStyle'
  >
>;

/** archsoul.txt: Maneuvers: a special attack and attack modifiers, as carried by Attack / ReactiveAttack. */
export interface AttackOptions {
  special?: SpecialAttack;
  feint?: { skill?: 'confusion' | 'acting'; facing?: Facing };
  sneak: boolean;
  knockdown: boolean;
  shatter?: { itemId: string };
  cleave?: { spaces: Space[] };
  modifiers: AttackModifier[];
}

export function readOptions(state: ArchsoulState, input: AttackInput): AttackOptions {
  const o: AttackOptions = {
    sneak: input.sneak ?? false,
    knockdown: input.knockdown ?? false,
    modifiers: [],
  };
  if (input.special !== undefined) o.special = input.special;
  if (input.feint !== undefined && input.feint !== false) {
    o.feint = input.feint === true ? {} : { ...input.feint };
    if (o.feint.facing !== undefined) checkFacing(state, o.feint.facing, 'feint.facing');
    o.modifiers.push('feint');
  }
  if (o.sneak) o.modifiers.push('sneak');
  if (o.knockdown) o.modifiers.push('knockdown');
  if (input.shatter !== undefined) {
    o.shatter = { itemId: input.shatter.itemId };
    o.modifiers.push('shatter');
  }
  if (input.cleave !== undefined) {
    o.cleave = { spaces: input.cleave.spaces };
    o.modifiers.push('cleave');
  }
  return o;
}

const allowed = (a: AttackModifier, b: AttackModifier) =>
  MODIFIER_COMBINATIONS.some(([p, q]) => (p === a && q === b) || (p === b && q === a));

/**
 * archsoul.txt: Special Attacks and Attack Modifiers: the conditions checked when the attack is declared
 * (S27–S31). `t` is absent for a Cleave.
 */
export function checkOptions(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  t: ArchsoulCombatant | undefined,
  o: AttackOptions,
  action: 'attack' | 'reactive',
): void {
  checkCombinations(o.modifiers);
  if (o.special) checkSpecial(a, w, o.special, action);
  if (o.feint && t) {
    ensure(
      !t.sheet.animalIntelligence,
      'ARCHSOUL_FEINT_ANIMAL_INTELLIGENCE',
      `archsoul.txt: Feint: "cannot be used against creatures with animal-like intelligence" (${t.id})`,
      'feint',
    );
  }
  if (o.knockdown)
    ensure(
      isMeleeOrUnarmed(w) || w.type === 'ranged' || w.type === 'thrown',
      'ARCHSOUL_KNOCKDOWN_WEAPON',
      `archsoul.txt: Knockdown: a weapon attack (melee, unarmed or ranged); not ${w.type}`,
      'knockdown',
    );
  if (o.shatter && t) checkShatter(w, t, o.shatter.itemId);
  if (o.sneak && t) checkSneak(state, a, w, t);
  if (o.cleave) checkCleave(state, a, w, o.cleave.spaces, action, t);
}

/** S29: which attack modifiers may modify the same attack. */
function checkCombinations(mods: AttackModifier[]): void {
  mods.forEach((m, i) =>
    mods
      .slice(0, i)
      .forEach((p) =>
        ensure(
          allowed(p, m),
          'ARCHSOUL_MANEUVER_COMBINATION',
          `archsoul.txt: Attack Modifiers / ruling S29: ${p} and ${m} cannot modify the same attack (allowed: feint with knockdown or shatter; sneak with knockdown or shatter)`,
          m,
        ),
      ),
  );
}

/** archsoul.txt: Quick Attack and Reckless Attack; S27. */
function checkSpecial(
  a: ArchsoulCombatant,
  w: Weapon,
  special: SpecialAttack,
  action: 'attack' | 'reactive',
): void {
  ensure(
    action === 'attack',
    'ARCHSOUL_SPECIAL_NOT_REACTIVE',
    `ruling S27: a ${special} attack is an action of your own turn (it costs AP), not a reactive attack`,
    'special',
  );
  if (special === 'quick') {
    ensure(
      !w.twoHanded,
      'ARCHSOUL_QUICK_ATTACK_ONE_HANDED',
      `archsoul.txt: Quick Attack: "a one-handed weapon"; ${w.name} is two-handed`,
      'weaponId',
    );
    ensure(
      !a.attackedWith.includes(w.id),
      'ARCHSOUL_QUICK_ATTACK_WEAPON_USED',
      `archsoul.txt: Quick Attack: a weapon "you have not yet made an attack with this round"; ${a.id} attacked with ${w.name} (ruling S27)`,
      'weaponId',
    );
  }
  if (special === 'reckless')
    ensure(
      isMeleeOrUnarmed(w),
      'ARCHSOUL_RECKLESS_ATTACK_MELEE',
      `archsoul.txt: Reckless Attack: "a strong attack with a melee weapon"; ${w.name} is ${w.type}`,
      'weaponId',
    );
}

/** archsoul.txt: Shatter: a weapon attack on a held weapon or shield (S31, S44). */
function checkShatter(w: Weapon, t: ArchsoulCombatant, id: string): void {
  ensure(
    isMeleeOrUnarmed(w) || w.type === 'ranged' || w.type === 'thrown',
    'ARCHSOUL_SHATTER_WEAPON',
    `archsoul.txt: Shatter: a weapon attack (melee, unarmed or ranged); not ${w.type}`,
    'shatter',
  );
  // S44: an ordinary item has no weapon attack roll to defend with; the GM lists it as an improvised weapon (S37).
  ensure(
    !t.sheet.items.some((x) => x.id === id),
    'ARCHSOUL_SHATTER_ORDINARY_ITEM',
    `ruling S44: Shatter targets a held weapon or shield, whose "weapon attack roll" defends it; ${id} is an ordinary item (the GM may list it as an improvised weapon, S37)`,
    'shatter.itemId',
  );
  const item =
    t.sheet.weapons.find((x) => x.id === id) ?? (t.sheet.shield?.id === id ? t.sheet.shield : undefined);
  ensure(
    item && t.held.includes(id) && !t.weapons[id]?.destroyed,
    'ARCHSOUL_SHATTER_ITEM',
    `archsoul.txt: Shatter: "an object carried by an opponent" that it could attack with (ruling S31: a held weapon or shield); ${t.id} holds no ${id}`,
    'shatter.itemId',
  );
}

/** archsoul.txt: Cleave: up to 2 adjacent spaces within reach, with a regular melee weapon, on your own turn (S30). */
function checkCleave(
  state: ArchsoulState,
  a: ArchsoulCombatant,
  w: Weapon,
  sp: Space[],
  action: 'attack' | 'reactive',
  t: ArchsoulCombatant | undefined,
): void {
  ensure(
    action === 'attack',
    'ARCHSOUL_CLEAVE_NOT_REACTIVE',
    'archsoul.txt: Cleave: "This maneuver cannot be applied to reactive attacks"',
    'cleave',
  );
  // archsoul.txt: Unarmed: "treated the same as melee weapon attacks for the purposes of maneuvers" (ruling S56).
  const close = isMeleeOrUnarmed(w);
  ensure(
    close && w.handling === 'regular',
    'ARCHSOUL_CLEAVE_WEAPON',
    `archsoul.txt: Cleave: "a melee weapon that is not light or semi-light" (unarmed counts, ruling S56); ${w.name} is ${close ? w.handling : w.type}`,
    'weaponId',
  );
  ensure(
    sp.length >= 1,
    'ARCHSOUL_CLEAVE_SPACES',
    'archsoul.txt: Cleave: select up to 2 adjacent spaces',
    'cleave.spaces',
  );
  // archsoul.txt: Unarmed: "only … against targets in adjacent spaces", whatever reach a recorded sheet gives (S26).
  const reach = reachOf(w);
  sp.forEach((s, i) => {
    const d = distance(state.map.grid, a.position!, s);
    ensure(
      d >= 1 && d <= reach && unhidden(state, a.position!, s),
      'ARCHSOUL_CLEAVE_SPACES',
      `archsoul.txt: Cleave: spaces "within your weapon's range" (${reach}), no wall between (ruling S73)`,
      `cleave.spaces[${i}]`,
    );
  });
  if (sp.length === 2)
    ensure(
      distance(state.map.grid, sp[0], sp[1]) === 1,
      'ARCHSOUL_CLEAVE_SPACES',
      'archsoul.txt: Cleave: "up to 2 adjacent spaces" (adjacent to each other, ruling S30)',
      'cleave.spaces[1]',
    );
  // Ruling S104: a Cleave strikes "everything within the attack's area" (Area of Effect Attacks), its spaces; a target
  // named outside them would be checked and never struck.
  if (t)
    ensure(
      sp.some((s) => same(s, t.position!)),
      'ARCHSOUL_CLEAVE_TARGET',
      `archsoul.txt: Cleave: "make an area of effect melee weapon attack against those spaces": ${t.id} stands in none of them (ruling S104)`,
      'targetId',
    );
}

/** archsoul.txt: Sneak Attack (S30). */
function checkSneak(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant): void {
  ensure(
    hasCondition(t, 'unaware'),
    'ARCHSOUL_SNEAK_TARGET_AWARE',
    `archsoul.txt: Sneak Attack: "must be made against a target that is caught unaware"; the GM marks ${t.id} unaware (ApplyCondition unaware)`,
    'sneak',
  );
  const studied = a.study?.targetId === t.id ? a.study.count : 0;
  ensure(
    studied >= SNEAK_ATTACK.studyActions,
    'ARCHSOUL_SNEAK_NOT_STUDIED',
    `archsoul.txt: Sneak Attack: "at least three consecutive actions ... studying your opponent"; ${a.id} has ${studied} on ${t.id} (Study, ruling S30)`,
    'sneak',
  );
  // Ruling S94: "a ranged attack" is any attack not made in melee (ranged, thrown, elemental, soul), each with the
  // accurate range its sheet gives.
  if (!isMeleeOrUnarmed(w)) {
    const d = distance(state.map.grid, a.position!, t.position!);
    ensure(
      d <= w.accurateRange!,
      'ARCHSOUL_SNEAK_OUT_OF_ACCURATE_RANGE',
      `archsoul.txt: Sneak Attack: a ranged sneak attack must be within the weapon's accurate range (${w.accurateRange}); ${t.id} is ${d} away`,
      'sneak',
    );
  }
  ensure(
    t.sheet.anatomy !== 'unfamiliar',
    'ARCHSOUL_SNEAK_UNFAMILIAR_ANATOMY',
    `archsoul.txt: Sneak Attack: "You cannot perform a sneak attack against an opponent with unfamiliar anatomy" (${t.id})`,
    'sneak',
  );
  const need =
    t.sheet.creature && Object.hasOwn(SNEAK_ATTACK.creatureSkill, t.sheet.creature)
      ? SNEAK_ATTACK.creatureSkill[t.sheet.creature]
      : undefined;
  if (need)
    ensure(
      (a.sheet.skills[need.skill] ?? 0) >= need.ranks,
      'ARCHSOUL_SNEAK_CREATURE_SKILL',
      `archsoul.txt: Sneak Attack: ${need.ranks} ranks in ${need.skill} to sneak attack a ${t.sheet.creature}; ${a.id} has ${a.sheet.skills[need.skill] ?? 0}`,
      'sneak',
    );
}

/** The difficulty changes of a special attack and the attack modifiers: [attack, damage]. */
export function maneuverModifiers(
  a: ArchsoulCombatant,
  w: Weapon,
  o: AttackOptions,
): [Modifier[], Modifier[]] {
  const atk: Modifier[] = [];
  const dmg: Modifier[] = [];
  if (o.special === 'quick') {
    const q = SPECIAL_ATTACKS.quick;
    dmg.push({ reason: 'Quick Attack', amount: q.damage });
    if (w.handling !== 'light')
      atk.push({ reason: 'Quick Attack with a non-light weapon', amount: q.nonLight });
    // S97: "wielding a non-light weapon in your other hand" asks what a hand holds (S51), not what type it is: a
    // javelin or a flamethrower in hand counts, worn claws or soul magic fill no hand and do not, a shield is no weapon.
    const other = a.sheet.weapons.some(
      (x) => x.id !== w.id && a.held.includes(x.id) && handsOf(x) > 0 && x.handling !== 'light',
    );
    if (other)
      atk.push({ reason: 'Quick Attack: a non-light weapon in the other hand', amount: q.nonLightOtherHand });
  }
  if (o.special === 'reckless') {
    atk.push({ reason: 'Reckless Attack', amount: SPECIAL_ATTACKS.reckless.attack });
    dmg.push({ reason: 'Reckless Attack', amount: SPECIAL_ATTACKS.reckless.damage });
  }
  const ranged = w.type === 'ranged' || w.type === 'thrown';
  if (o.knockdown && ranged) {
    atk.push({ reason: 'Knockdown with a ranged weapon', amount: KNOCKDOWN_TEST.rangedPenalty });
    dmg.push({ reason: 'Knockdown with a ranged weapon', amount: KNOCKDOWN_TEST.rangedPenalty });
  }
  if (o.shatter && (ranged || w.type === 'unarmed')) {
    atk.push({ reason: 'Shatter with an unarmed or ranged attack', amount: SHATTER.unarmedOrRangedPenalty });
    dmg.push({ reason: 'Shatter with an unarmed or ranged attack', amount: SHATTER.unarmedOrRangedPenalty });
  }
  if (o.cleave) {
    atk.push({ reason: 'Cleave', amount: CLEAVE.attack });
    dmg.push({ reason: 'Cleave', amount: CLEAVE.damage });
  }
  if (o.sneak) dmg.push({ reason: 'Sneak Attack', amount: SNEAK_ATTACK.damage });
  return [atk, dmg];
}

/** archsoul.txt: Feint: the better of Precision/Confusion and Precision/Acting unless named; +1 against non-human anatomy. */
export function feintStats(
  a: ArchsoulCombatant,
  t: ArchsoulCombatant,
  o: AttackOptions,
): { skill: string; mods: Modifier[] } {
  const skill =
    o.feint?.skill ??
    ((a.sheet.skills.acting ?? 0) > (a.sheet.skills.confusion ?? 0) ? 'acting' : 'confusion');
  const mods =
    t.sheet.anatomy === 'humanlike'
      ? []
      : [{ reason: 'target without human-like anatomy', amount: FEINT_TEST.nonHumanAnatomy }];
  return { skill, mods };
}

/** archsoul.txt: Quick Attack: "you cannot make any other attacks (except for Reactive Attacks) for the remainder of your turn". */
export function checkNotAfterQuick(a: ArchsoulCombatant): void {
  ensure(
    !a.quickAttacked,
    'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
    `archsoul.txt: Quick Attack: after a Quick Attack ${a.id} makes no other attacks (except reactive ones) this turn`,
    'type',
  );
}
