import { DiceSource } from '../dice/roll';
import { dots, EdgeKind, NARATEER_DIE_SIDES, Skill } from './data';
import { EdgeSources, RolledSide } from './events';

/** narateer.txt: Combat Modifiers — one source of each applies; one of each cancels (N2). */
export function netEdge(sources: EdgeSources): EdgeKind | 'none' {
  const adv = sources.advantage.length > 0;
  if (adv === sources.disadvantage.length > 0) return 'none';
  return adv ? 'advantage' : 'disadvantage';
}

export function totalDots(faces: number[]): number {
  let t = 0;
  for (let i = 0; i < faces.length; i++) t += dots(faces[i]);
  return t;
}

/** narateer.txt: Combat Exchange Flow step 7: roll all committed AD (one draw per pool, C5). */
export function rollPool(
  combatantId: string,
  skill: Skill,
  count: number,
  sources: EdgeSources,
  dice: DiceSource,
): RolledSide {
  const roll = dice.roll(count, NARATEER_DIE_SIDES, 'pool');
  return {
    combatantId,
    skill,
    roll,
    edge: netEdge(sources),
    sources,
    faces: roll.faces,
    total: totalDots(roll.faces),
  };
}

/**
 * N2: Advantage rerolls the die with the fewest dots (lowest face, first position) and keeps
 * the better; Disadvantage rerolls the die with the most dots (highest face, first) and keeps the worse;
 * equal dots keep the original.
 */
export function applyEdge(side: RolledSide, dice: DiceSource): RolledSide {
  if (side.edge === 'none' || side.faces.length === 0) return side;
  const adv = side.edge === 'advantage';
  const faces = side.faces;
  let index = 0;
  for (let i = 1; i < faces.length; i++)
    if (adv ? faces[i] < faces[index] : faces[i] > faces[index]) index = i;
  const roll = dice.roll(1, NARATEER_DIE_SIDES, 'reroll');
  const original = faces[index];
  const better = dots(roll.faces[0]) - dots(original);
  const kept = (adv ? better > 0 : better < 0) ? 'reroll' : 'original';
  let next = faces;
  if (kept === 'reroll') {
    next = faces.slice();
    next[index] = roll.faces[0];
  }
  const reroll = { index, original, roll, kept } as const;
  return {
    combatantId: side.combatantId,
    skill: side.skill,
    roll: side.roll,
    edge: side.edge,
    sources: side.sources,
    reroll,
    faces: next,
    total: totalDots(next),
  };
}
