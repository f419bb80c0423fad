import { DiceSource } from '../dice/roll';
import { Attribute, DIE_SIDES, IMPROVISED, LIFTING_DIFFERENCE, MAX_DIFFICULTY, MIN_DIFFICULTY } from './data';
import { Weapon } from './sheet';
import { TestResult } from './events';
import { ArchsoulCombatant } from './state';

export type Modifier = { reason: string; amount: number };

/** The pool of "Attribute/Skill": attribute + skill (S1); Soulpower lowered by a critical failure (soul table 6). */
export function poolOf(
  c: ArchsoulCombatant,
  attribute: Attribute | undefined,
  skill: string | undefined,
  weapon?: Weapon,
): number {
  let n = 0;
  const cap = weapon ? liftingRow(c, weapon)?.attributeMax : undefined;
  // archsoul.txt: Lifting, Throwing, and Improvised Weapons: "Attribute Maximum" caps Athletics and Precision with the object.
  const capped = (v: number) =>
    cap != null && (attribute === 'athletics' || attribute === 'precision') ? Math.min(v, cap) : v;
  if (attribute)
    n += capped(
      Math.max(0, c.sheet.attributes[attribute] - (attribute === 'soulpower' ? c.soulpowerLoss : 0)),
    );
  if (skill) n += c.sheet.skills[skill] ?? 0;
  return n;
}

/**
 * S1: each die showing the difficulty or more is a success; difficulty 2..6, and each step
 * above 6 removes one die. S2: a critical failure is zero successes with more than half the dice on 1.
 */
export function rollTest(
  dice: DiceSource,
  pool: number,
  base: number,
  modifiers: Modifier[] = [],
): TestResult {
  const wanted = modifiers.reduce((d, m) => d + m.amount, base);
  const removed = Math.max(0, wanted - MAX_DIFFICULTY);
  const difficulty = Math.min(MAX_DIFFICULTY, Math.max(MIN_DIFFICULTY, wanted));
  const count = Math.max(0, pool - removed);
  const roll = dice.roll(count, DIE_SIDES, 'pool');
  let successes = 0;
  let ones = 0;
  for (const f of roll.faces) {
    if (f >= difficulty) successes++;
    if (f === 1) ones++;
  }
  return {
    pool,
    difficulty,
    removed,
    roll,
    successes,
    criticalFailure: successes === 0 && ones * 2 > roll.faces.length,
    modifiers: modifiers.filter((m) => m.amount !== 0),
  };
}

/**
 * archsoul.txt: Lifting, Throwing, and Improvised Weapons: the row for Athletics minus the object's Lifting
 * Strength Athletics (S37: 4 or more is the last row; 0 or less: unusable, undefined here).
 */
export function liftingRow(c: ArchsoulCombatant, w: Weapon): (typeof LIFTING_DIFFERENCE)[number] | undefined {
  if (w.liftingAthletics === undefined || (w.weightLb ?? 0) <= IMPROVISED.tableFromPounds) return undefined;
  const diff = c.sheet.attributes.athletics - w.liftingAthletics;
  if (diff <= 0) return undefined;
  return LIFTING_DIFFERENCE[Math.min(diff, LIFTING_DIFFERENCE.length) - 1];
}

/** archsoul.txt: Lifting, Throwing, and Improvised Weapons: "If the Athletics Difference is 0 or less, the object cannot be used as a weapon". */
export function usableAsWeapon(c: ArchsoulCombatant, w: Weapon): boolean {
  return (
    w.liftingAthletics === undefined || (w.weightLb ?? 0) <= IMPROVISED.tableFromPounds || !!liftingRow(c, w)
  );
}
