import { DiceSource, DrawKind } from '../dice/roll';
import { BINDER_DIE, CRITICAL_FACE, DIE_BY_STAGE, Stat, SUCCESS_FACE } from './data';
import { DiceBonus, RolledPool, TestResult } from './events';
import { ArcanaCombatant } from './state';

export interface PoolSpec {
  combatantId: string;
  purpose: string;
  stat: Stat;
  statValue: number;
  ranks: number;
  bonuses: DiceBonus[];
  boost: string[];
  setback: string[];
}

/** A4: beast die by Stage; a Binder always rolls d6. */
export function dieFor(c: ArcanaCombatant, stage = c.stage): number {
  return c.sheet.kind === 'binder' ? BINDER_DIE : DIE_BY_STAGE[stage];
}

/**
 * A1, A3, A12: stat + ranks + every +1 die; one extra die for a net Boost (drop the lowest)
 * or Setback (drop the highest); successes and 6+ faces on kept dice. One pool is one draw (C5).
 */
export function rollPool(
  spec: PoolSpec,
  sides: number,
  dice: DiceSource,
  kind: DrawKind = 'pool',
): RolledPool {
  const count = Math.max(0, spec.statValue + spec.ranks + spec.bonuses.reduce((t, b) => t + b.dice, 0));
  const edge =
    spec.boost.length > 0 === spec.setback.length > 0 ? 'none' : spec.boost.length > 0 ? 'boost' : 'setback';
  const roll = dice.roll(count + (edge === 'none' ? 0 : 1), sides, kind);
  let kept = roll.faces;
  let dropped: RolledPool['dropped'];
  if (edge !== 'none' && kept.length > 0) {
    let index = 0;
    for (let i = 1; i < kept.length; i++)
      if (edge === 'boost' ? kept[i] < kept[index] : kept[i] > kept[index]) index = i;
    dropped = { index, face: kept[index] };
    kept = kept.filter((_, i) => i !== index);
  }
  const pool: RolledPool = {
    combatantId: spec.combatantId,
    purpose: spec.purpose,
    stat: spec.stat,
    statValue: spec.statValue,
    ranks: spec.ranks,
    bonuses: spec.bonuses,
    dice: count,
    sides,
    edge,
    boostSources: spec.boost,
    setbackSources: spec.setback,
    roll,
    kept,
    successes: kept.filter((f) => f >= SUCCESS_FACE).length,
    sixes: kept.filter((f) => f >= CRITICAL_FACE).length,
  };
  if (dropped) pool.dropped = dropped;
  return pool;
}

/** A1: a Test with Difficulty N passes with N or more successes. */
export function rollTest(
  spec: PoolSpec,
  sides: number,
  difficulty: number,
  dice: DiceSource,
  kind: DrawKind = 'pool',
): TestResult {
  const pool = rollPool(spec, sides, dice, kind);
  return { ...pool, difficulty, passed: pool.successes >= difficulty };
}

/**
 * A6: the Qualities a pool names, each with the ranks it adds: the sheet's own (an own key, never an
 * inherited name), one entry per name as listed, so a name listed twice adds twice. The view shows these (view.ts).
 */
export function qualitiesOf(c: ArcanaCombatant, names: string[]): { name: string; ranks: number }[] {
  return names.map((name) => ({
    name,
    ranks: Object.hasOwn(c.sheet.qualities, name) ? c.sheet.qualities[name] : 0,
  }));
}

/** A6: the ranks the Qualities add to a pool, "Stat + Quality/Attack Ranks + modifiers". */
export function qualityRanks(c: ArcanaCombatant, names: string[]): number {
  return qualitiesOf(c, names).reduce((t, q) => t + q.ranks, 0);
}
