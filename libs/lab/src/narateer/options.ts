import {
  ableToAct,
  ATTACK_SKILL,
  ExchangeKind,
  FULL_GUARD_COST,
  FULL_GUARD_SKILL,
  proactiveLimit,
} from '@app/rules/narateer';
import type { NarateerCombatant, Weapon } from '@app/rules/narateer';
import { Answer, Declaration } from './strategy';

/**
 * Legal options read from the state, so strategies need not probe the decider with exceptions.
 * No positions are used in the lab, so reach and range are asserted (N25).
 */
export interface AttackOption {
  weapon: Weapon;
  usesLeft: number;
  /** narateer.txt: Skill Level In Combat: Boost ≤ SL, and cost + Boost ≤ Ready AD. */
  maxBoost: number;
}

/** narateer.txt: Ranged Exchanges: a ranged weapon must be loaded and have ammunition. */
export function canFire(c: NarateerCombatant, w: Weapon): boolean {
  if (w.kind === 'melee') return true;
  const ws = c.weapons[w.id];
  return (!w.needsLoading || ws.loaded) && ws.ammunition !== 0;
}

/** The first weapon on the sheet that can attack now, with what is left to spend; undefined when none. */
export function attackOption(c: NarateerCombatant): AttackOption | undefined {
  if (!ableToAct(c)) return undefined;
  for (const weapon of c.sheet.weapons) {
    const skill = ATTACK_SKILL[weapon.kind];
    const usesLeft = proactiveLimit(c, skill) - c.uses[weapon.kind];
    if (usesLeft <= 0 || weapon.baseAttackCost > c.ad.ready || !canFire(c, weapon)) continue;
    return {
      weapon,
      usesLeft,
      maxBoost: Math.min(c.sheet.skills[skill], c.ad.ready - weapon.baseAttackCost),
    };
  }
  return undefined;
}

export function declaration(o: AttackOption, boost: number): Declaration {
  return { weaponId: o.weapon.id, kind: o.weapon.kind, boost: Math.max(0, Math.min(boost, o.maxBoost)) };
}

/** The weapon a combatant attacks with when fresh: the first on its sheet. */
export function mainWeapon(c: NarateerCombatant): Weapon | undefined {
  return c.sheet.weapons[0];
}

/** How many exchanges `c` can press in its next activation: proactive uses, limited by refreshable AD (N5, N17). */
export function threatNextActivation(c: NarateerCombatant): number {
  const w = mainWeapon(c);
  if (!w || !ableToAct(c)) return 0;
  const refreshable = c.sheet.maxAD - c.ad.wounded;
  return Math.min(proactiveLimit(c, ATTACK_SKILL[w.kind]), Math.floor(refreshable / w.baseAttackCost));
}

/** How many more exchanges the attacker can still press in the running activation. */
export function threatThisActivation(c: NarateerCombatant): number {
  const w = mainWeapon(c);
  if (!w) return 0;
  const usesLeft = proactiveLimit(c, ATTACK_SKILL[w.kind]) - c.uses[w.kind];
  return Math.max(0, Math.min(usesLeft, Math.floor(c.ad.ready / w.baseAttackCost)));
}

/** narateer.txt: Full Guard: 1 AD, Boost within the Skill used; `boost` is capped to what is legal. */
export function fullGuard(c: NarateerCombatant, kind: ExchangeKind, boost: number): Answer | undefined {
  if (c.ad.ready < FULL_GUARD_COST) return undefined;
  const max = Math.min(c.sheet.skills[FULL_GUARD_SKILL[kind]], c.ad.ready - FULL_GUARD_COST);
  return { response: 'fullGuard', boost: Math.max(0, Math.min(boost, max)) };
}

/** narateer.txt: Clash: a weapon of the exchange's kind that can fire, its cost, Boost within the Skill. */
export function clash(c: NarateerCombatant, kind: ExchangeKind, boost: number): Answer | undefined {
  const weapon = c.sheet.weapons.find(
    (w) => w.kind === kind && canFire(c, w) && w.baseAttackCost <= c.ad.ready,
  );
  if (!weapon) return undefined;
  const max = Math.min(c.sheet.skills[ATTACK_SKILL[kind]], c.ad.ready - weapon.baseAttackCost);
  return { response: 'clash', boost: Math.max(0, Math.min(boost, max)), weaponId: weapon.id };
}

/** The cost of a Clash with the combatant's weapon of this kind (for reserves). */
export function clashCost(c: NarateerCombatant, kind: ExchangeKind): number {
  return c.sheet.weapons.find((w) => w.kind === kind)?.baseAttackCost ?? FULL_GUARD_COST;
}
