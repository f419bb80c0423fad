import { canSurge, command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/**
 * Saves the Stamina: Direct every turn, and Bond Surge only for a blow that can end the fight (the foe's HP is no
 * more than the beast's Base Damage, Brawn + Stage, so any hit knocks it out).
 */
export const saver: ArcanaStrategy = {
  id: 'saver',
  description:
    'Direct every turn; saves Stamina for a Bond Surge when a single hit can knock the foe out (its HP ≤ Base Damage).',
  next: (t) =>
    turnOf(t, (c) => command(c, canSurge(c) && c.foe.hp <= c.me.baseDamage ? 'BondSurge' : 'Direct')),
};
