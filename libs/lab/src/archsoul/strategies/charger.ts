import type { RuleCommand } from '@app/rules';
import { AP_COST, canStep, CHARGE, distance, neighbours, Space } from '@app/rules/archsoul';
import { ArchsoulTurn, ArchsoulStrategy } from '../strategy';
import { dist, face, footTurn, pathTo, reactWithBest, ready, recover, strike, weapon } from '../options';

/**
 * archsoul.txt: Charge (3 AP, mounted): "Move up to 6 times your mount's base speed in a straight line and then
 * perform a melee attack with a Flail or a Lance", at least 3 spaces, the mount's speed added to the damage pool.
 * The straight run from `from` toward the foe that ends within the weapon's reach, or undefined.
 */
function chargePath(t: ArchsoulTurn, from: Space, reach: number): Space[] | undefined {
  const grid = t.view.map.grid;
  const foe = t.foe.position!;
  const mount = t.me.mount;
  if (!mount) return undefined;
  const k = distance(grid, from, foe);
  for (const n of neighbours(grid, { x: 0, y: 0 })) {
    if (foe.x - from.x !== n.x * k || foe.y - from.y !== n.y * k) continue;
    const end = Math.min(reach, k - CHARGE.minSpaces);
    if (end < 1) return undefined;
    const steps = k - end;
    if (steps > CHARGE.speedMultiple * mount.speed) return undefined;
    const path: Space[] = [];
    for (let i = 1; i <= steps; i++) {
      const s = { x: from.x + n.x * i, y: from.y + n.y * i };
      const prev = i === 1 ? from : path[i - 2];
      if (
        !canStep(t.view.map, prev, s) ||
        t.view.combatants.some((c) => c.position && c.position.x === s.x && c.position.y === s.y)
      )
        return undefined;
      path.push(s);
    }
    return path;
  }
  return undefined;
}

/**
 * Stays mounted and keeps a Flail or Lance in hand: charges when a turn starts with a straight run of 3 or more
 * spaces to the foe; otherwise rides (Move, 1 AP, the mount's speed) to the nearest space a charge can start from,
 * and when the foe is already in reach with no room to charge, attacks it (2 AP).
 */
export const charger: ArchsoulStrategy = {
  id: 'charger',
  description:
    'Mounted with a lance: Charges (3 AP) when a straight run of 3+ spaces is open, else rides to where one is, or attacks in reach.',
  next(t) {
    const me = t.me;
    const w = weapon(t, (x) => x.type === 'melee' && x.properties.some((p) => CHARGE.weapons.includes(p)));
    if (!w)
      return footTurn(
        t,
        weapon(t, (x) => x.type === 'melee'),
        (arm) => strike(t, arm),
      );
    const prelude = recover(t) ?? ready(t, w.id, [w.id]);
    if (prelude) return prelude;
    if (!me.mounted) return face(t) ?? strike(t, w);
    const run = me.ap >= AP_COST.charge ? chargePath(t, me.position!, w.reach) : undefined;
    if (run)
      return {
        type: 'Charge',
        combatantId: me.id,
        path: run,
        targetId: t.foe.id,
        weaponId: w.id,
      } satisfies RuleCommand;
    if ((me.ap === AP_COST.charge || dist(t) > w.reach) && !chargePath(t, me.position!, w.reach)) {
      const toStart =
        me.ap >= AP_COST.move
          ? pathTo(t, me.speed, (s) => chargePath(t, s, w.reach) !== undefined)
          : undefined;
      if (toStart) return { type: 'Move', combatantId: me.id, path: toStart };
    }
    return strike(t, w) ?? face(t);
  },
  react: reactWithBest,
};
