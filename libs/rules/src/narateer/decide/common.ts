import { ensure, RuleViolation } from '../../core/violation';
import { CONDITIONS, PROACTIVE_USES_MINIMUM, PROACTIVE_USES_PER_SL, Skill, Vital } from '../data';
import { EdgeSources } from '../events';
import { Weapon } from '../sheet';
import { mapDistance } from '../space';
import { combatState, hasEffect, NarateerCombatant, NarateerState, unseenBy } from '../state';

export { hasEffect } from '../state';

/** N20/N26: Active and not incapacitated. */
export function ableToAct(c: NarateerCombatant): boolean {
  return combatState(c) === 'Active' && !hasEffect(c, 'incapacitated');
}

/**
 * N43: able to take an action that is not physical: Active, and no condition that takes every action. Paralyzed is
 * "aware but can't take physical actions"; Unconscious is "out cold".
 */
export function ableToActOtherThanPhysically(c: NarateerCombatant): boolean {
  if (combatState(c) !== 'Active') return false;
  return !c.conditions.some((k) => {
    const effect = CONDITIONS[k.condition]?.effect;
    return effect?.incapacitated && !effect.physicalOnly;
  });
}

/** narateer.txt: Skill Level In Combat: SL + 1 proactive uses, minimum 1. */
export function proactiveLimit(c: NarateerCombatant, skill: Skill): number {
  return Math.max(PROACTIVE_USES_MINIMUM, c.sheet.skills[skill] + PROACTIVE_USES_PER_SL);
}

export function findWeapon(c: NarateerCombatant, weaponId: string, field: string): Weapon {
  const w = c.sheet.weapons.find((x) => x.id === weaponId);
  ensure(w, 'NARATEER_UNKNOWN_WEAPON', `${c.id} carries no weapon ${weaponId}`, field);
  return w;
}

/**
 * narateer.txt: Skill Level In Combat (Boost ≤ SL) and Combat Exchange Flow steps 3–4 (Ready AD). A cost
 * the Ready AD cannot pay even without Boost is the weapon's fault, so the refusal names `costField`.
 */
export function checkCommitment(
  c: NarateerCombatant,
  skill: Skill,
  cost: number,
  boost: number,
  boostField: string,
  costField = boostField,
): void {
  checkBoost(c, skill, boost, boostField);
  checkReadyAD(c, cost, boost, boostField, costField);
}

/** narateer.txt: Combat Exchange Flow steps 3–4 and 6: the cost and a Boost already checked come from Ready AD. */
export function checkReadyAD(
  c: NarateerCombatant,
  cost: number,
  boost: number,
  boostField: string,
  costField = boostField,
): void {
  ensure(
    cost + boost <= c.ad.ready,
    'NARATEER_NOT_ENOUGH_READY_AD',
    `narateer.txt: Combat Exchange Flow: ${c.id} needs ${cost + boost} Ready AD (cost ${cost} + Boost ${boost}) and has ${c.ad.ready}; MD never pays exchange costs (RULINGS.md N17)`,
    cost > c.ad.ready ? costField : boostField,
  );
}

/** narateer.txt: Skill Level In Combat: "Maximum Boost AD = Skill Level being tested" — the sheet's, whatever the state (N68). */
export function checkBoost(c: NarateerCombatant, skill: Skill, boost: number, field: string): void {
  const sl = c.sheet.skills[skill];
  ensure(
    boost <= sl,
    'NARATEER_BOOST_OVER_SKILL',
    `narateer.txt: Skill Level In Combat: Maximum Boost AD = ${skill} Skill Level ${sl}; got ${boost}`,
    field,
  );
}

export interface WeaponReach {
  distance?: number;
  beyondEffective: boolean;
}

/** narateer.txt: Melee Exchanges (reach) and Ranged Exchanges (loaded, ammunition, Effective/Maximum Range). */
export function checkWeaponUse(
  state: NarateerState,
  user: NarateerCombatant,
  weapon: Weapon,
  foeId: string,
  given: number | undefined,
  field: string,
  givenField = field,
): WeaponReach {
  const onMap = mapDistance(state, user.id, foeId);
  const distance = onMap ?? given;
  const distanceField = onMap === undefined && given !== undefined ? givenField : field;
  if (weapon.kind === 'melee') {
    ensure(
      distance === undefined || distance <= weapon.reach,
      'NARATEER_NOT_IN_REACH',
      `narateer.txt: Melee Exchanges: ${weapon.name} reaches ${weapon.reach} Space(s); ${foeId} is ${distance} away`,
      distanceField,
    );
    return { distance, beyondEffective: false };
  }
  const ws = user.weapons[weapon.id];
  ensure(
    !weapon.needsLoading || ws.loaded,
    'NARATEER_WEAPON_NOT_LOADED',
    `narateer.txt: Ranged Exchanges: ${weapon.name} must be loaded or otherwise ready to fire`,
    field,
  );
  ensure(
    ws.ammunition === undefined || ws.ammunition > 0,
    'NARATEER_NO_AMMUNITION',
    `narateer.txt: Ranged Exchanges: ${weapon.name} has no ammunition left`,
    field,
  );
  ensure(
    distance === undefined || distance <= weapon.maximumRange!,
    'NARATEER_OUT_OF_RANGE',
    `narateer.txt: Ranged Exchanges: ${foeId} is ${distance} Spaces away, beyond ${weapon.name}'s Maximum Range ${weapon.maximumRange}`,
    distanceField,
  );
  return { distance, beyondEffective: distance !== undefined && distance > weapon.effectiveRange! };
}

/** N21: the named Vital must be allowed; default the highest after the cap. */
export function damageVital(
  c: NarateerCombatant,
  weapon: Weapon,
  named: Vital | undefined,
  field: string,
): Vital {
  if (named !== undefined) {
    ensure(
      weapon.damageVitals.includes(named),
      'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      `RULINGS.md N21: ${weapon.name} deals damage with ${weapon.damageVitals.join(' or ')}, not ${named}`,
      field,
    );
    return named;
  }
  let best = weapon.damageVitals[0];
  for (const v of weapon.damageVitals)
    if (
      Math.min(c.sheet.vitals[v], weapon.damageVitalCap) >
      Math.min(c.sheet.vitals[best], weapon.damageVitalCap)
    )
      best = v;
  return best;
}

export function edgeSources(): EdgeSources {
  return { advantage: [], disadvantage: [] };
}

/** N31: a combatant who cannot see its foe attacks with Disadvantage. */
export function cannotSee(attacker: NarateerCombatant, foe: NarateerCombatant, flagged: boolean): boolean {
  return flagged || unseenBy(foe, attacker);
}

/**
 * narateer.txt: Hidden and Unseen Creatures — "Your first attack while unseen by its target gains Advantage". N41:
 * unseen by the conditions the engine knows, and no attack on that foe yet since it became so.
 */
export function firstUnseenAttack(attacker: NarateerCombatant, foe: NarateerCombatant): boolean {
  return unseenBy(attacker, foe) && !(attacker.unseenAttacks ?? []).includes(foe.id);
}

/** The weapon's reach, or undefined when it cannot be used against the foe now. */
export function tryWeaponUse(
  state: NarateerState,
  user: NarateerCombatant,
  weapon: Weapon,
  foeId: string,
  given: number | undefined,
): WeaponReach | undefined {
  try {
    return checkWeaponUse(state, user, weapon, foeId, given, 'weaponId');
  } catch (e) {
    if (e instanceof RuleViolation) return undefined;
    throw e;
  }
}
