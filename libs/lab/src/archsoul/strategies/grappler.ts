import { AP_COST, FIST } from '@app/rules/archsoul';
import { approach, dismount, dist, face, has, reactWithBest } from '../options';
import { ArchsoulStrategy } from '../strategy';

/**
 * archsoul.txt: Grappling: empty hands, Grab (2 AP; it provokes the target's reactive attack), then the grapple's
 * Attack (1 AP: opposed grapple rolls, unarmed damage) with every AP left; it never escapes its own grapple.
 */
export const grappler: ArchsoulStrategy = {
  id: 'grappler',
  description:
    'Empty-handed: closes in, Grabs (2 AP), then makes the grapple’s Attack (1 AP) with every AP it has.',
  next(t) {
    const me = t.me;
    if (has(t, 'prone'))
      return me.ap >= AP_COST.standUp ? { type: 'StandUp', combatantId: me.id } : undefined;
    const dropped =
      me.held.length > 0 ? { type: 'DropItem', combatantId: me.id, itemId: me.held[0] } : undefined;
    const grappling = t.view.grapples.some(
      (g) => g.memberIds.includes(me.id) && g.memberIds.includes(t.foe.id),
    );
    if (grappling)
      return me.ap >= AP_COST.grappleAttack
        ? { type: 'GrappleAttack', combatantId: me.id, targetId: t.foe.id }
        : undefined;
    const inReach = dist(t) <= FIST.reach;
    const grab =
      inReach && me.ap >= AP_COST.grab ? { type: 'Grab', combatantId: me.id, targetId: t.foe.id } : undefined;
    return (
      dismount(t) ?? dropped ?? face(t) ?? grab ?? (inReach ? undefined : approach(t, FIST.reach)) ?? face(t)
    );
  },
  react: reactWithBest,
};
