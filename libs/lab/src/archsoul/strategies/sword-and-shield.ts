import { footTurn, reactWithBest, strike, weapon } from '../options';
import { ArchsoulStrategy } from '../strategy';

/** A one-handed melee weapon (Draw Simple Item, 1 AP) and the shield (Draw Awkward Item, 2 AP); one Attack (2 AP) a turn. */
export const swordAndShield: ArchsoulStrategy = {
  id: 'swordAndShield',
  description:
    'Draws a one-handed melee weapon and the shield, closes in and makes one Attack (2 AP) a turn.',
  next(t) {
    const w = weapon(t, (x) => x.type === 'melee' && !x.twoHanded && !x.properties.includes('lance'));
    return footTurn(t, w, (arm) => strike(t, arm), t.sheet.shield ? [t.sheet.shield.id] : []);
  },
  react: reactWithBest,
};
