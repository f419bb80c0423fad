import { dist, footTurn, reactWithBest, stepBackTo, strike, weapon } from '../options';
import { ArchsoulStrategy } from '../strategy';

/**
 * The sheet's longest-reaching melee weapon (a spear: reach 2): attacks from its full reach, and when the foe
 * stands closer, steps back with a Slow Move (1 AP; leaving the foe's reach provokes its reactive attack) first.
 * Facing the foe, it gets its own reactive attack when the foe steps in.
 */
export const spearman: ArchsoulStrategy = {
  id: 'spearman',
  description:
    'Draws the longest-reaching melee weapon, steps back (Slow Move) when the foe is inside its reach, attacks from full reach.',
  next(t) {
    const reach = Math.max(
      0,
      ...t.sheet.weapons
        .filter((x) => x.type === 'melee' && !x.properties.includes('lance'))
        .map((x) => x.reach),
    );
    const w = weapon(t, (x) => x.type === 'melee' && x.reach === reach && !x.properties.includes('lance'));
    const keepReach =
      w && w.reach > 1 && t.me.held.includes(w.id) && dist(t) < w.reach && t.me.ap >= 3
        ? stepBackTo(t, w.reach)
        : undefined;
    return keepReach ?? footTurn(t, w, (arm) => strike(t, arm));
  },
  react: reactWithBest,
};
