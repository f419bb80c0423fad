import { footTurn, reactWithBest, strike, weapon } from '../options';
import { ArchsoulStrategy } from '../strategy';

/**
 * archsoul.txt: Reckless Attack (3 AP, +2 attack difficulty, −1 damage difficulty) with the sheet's heaviest
 * two-handed melee weapon, drawn with Draw Awkward Item; a plain Attack when a Move left only 2 AP.
 */
export const reckless: ArchsoulStrategy = {
  id: 'reckless',
  description:
    'Draws the heaviest two-handed melee weapon and makes a Reckless Attack whenever it starts a turn in reach (else a plain Attack).',
  next(t) {
    const w = weapon(t, (x) => x.type === 'melee' && x.twoHanded && !x.properties.includes('lance'));
    return footTurn(t, w, (arm) => strike(t, arm, 'reckless') ?? strike(t, arm));
  },
  react: reactWithBest,
};
