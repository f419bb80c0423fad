import { attackStep, command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/**
 * arcana-beast.txt: Encourage (+1 Dodge die, Spirit Test Diff 1) every turn; the beast attacks, but takes Defend
 * ("Boost on all Dodge rolls until next turn") instead while its HP is at or below half.
 */
export const guardian: ArcanaStrategy = {
  id: 'guardian',
  description:
    'Encourage every turn (+1 Dodge die); the beast attacks, or Defends once its HP is at half or less.',
  next: (t) =>
    turnOf(
      t,
      (c) => command(c, 'Encourage'),
      (c) =>
        c.turn.action === undefined && c.me.state === 'Active' && c.me.hp * 2 <= c.me.maxHp
          ? { type: 'Defend', combatantId: c.me.id }
          : attackStep(c),
    ),
};
