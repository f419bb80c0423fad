import type { RuleCommand } from '@app/rules';
import {
  AP_COST,
  canStep,
  handsFor,
  distance,
  Facing,
  facings,
  FIST,
  inFrontArc,
  isMeleeOrUnarmed,
  neighbours,
  same,
  Space,
  Weapon,
} from '@app/rules/archsoul';
import { ArchsoulTurn } from './strategy';

/**
 * Legal options read from the view and the sheets, so strategies propose what the decider accepts (archsoul.txt:
 * The Action Economy, The Battle Map); the decider still judges every proposal and rolls every die.
 */

export function dist(t: ArchsoulTurn): number {
  return distance(t.view.map.grid, t.me.position!, t.foe.position!);
}

export function has(t: ArchsoulTurn, condition: string): boolean {
  return t.me.conditions.some((c) => c.condition === condition);
}

/** The combatant's own item lying on the battle map (dropped by a critical failure, a Shatter, …), if it does. */
export function lying(t: ArchsoulTurn, id: string): ArchsoulTurn['view']['ground'][number] | undefined {
  return t.view.ground.find((g) => g.ownerId === t.me.id && g.itemId === id && g.ammunition === undefined);
}

/**
 * A weapon of the sheet chosen by `pick` (the first that matches) that can be had: not destroyed, and not lying on
 * the ground anywhere but in the combatant's own space.
 */
export function weapon(t: ArchsoulTurn, pick: (w: Weapon) => boolean): Weapon | undefined {
  return t.sheet.weapons.find((w) => {
    if (!pick(w) || t.me.weapons.find((v) => v.id === w.id)?.destroyed) return false;
    const g = lying(t, w.id);
    return !g || same(g.space, t.me.position!);
  });
}

/**
 * archsoul.txt: Draw Simple Item (1 AP) / Draw Awkward Item (2 AP: a two-handed weapon, a shield; it may span
 * turns, S25): the command that gets `id` into hand, dropping held items not in `keep` first (a free
 * action) when the hands are full; undefined once it is held.
 */
export function ready(t: ArchsoulTurn, id: string, keep: readonly string[]): RuleCommand | undefined {
  if (t.me.held.includes(id)) return undefined;
  const g = lying(t, id);
  // archsoul.txt: Draw Simple Item: "pick an item up from the ground" (1 AP; it triggers reactive attacks).
  if (g)
    return same(g.space, t.me.position!) && t.me.ap >= AP_COST.drawSimpleItem
      ? { type: 'DrawSimpleItem', combatantId: t.me.id, groundId: g.groundId }
      : undefined;
  // S51: two hands; the view counts the empty ones.
  if (handsFor(t.sheet, id) > t.me.freeHands) {
    const drop = t.me.held.find((h) => !keep.includes(h));
    if (drop) return { type: 'DropItem', combatantId: t.me.id, itemId: drop };
  }
  const awkward =
    t.sheet.shield?.id === id || t.sheet.weapons.find((w) => w.id === id)?.stowage === 'awkward';
  if (awkward)
    return t.me.ap >= 1 ? { type: 'DrawAwkwardItem', combatantId: t.me.id, itemId: id } : undefined;
  return t.me.ap >= AP_COST.drawSimpleItem
    ? { type: 'DrawSimpleItem', combatantId: t.me.id, itemId: id }
    : undefined;
}

function free(t: ArchsoulTurn, s: Space): boolean {
  return !t.view.combatants.some((c) => c.position && same(c.position, s));
}

/**
 * Breadth-first over the battle map (steps the map allows: S19), at most `steps` steps: the shortest
 * path to the first space `goal` accepts, or, with `fallback`, to the reachable space it scores lowest.
 */
export function pathTo(
  t: ArchsoulTurn,
  steps: number,
  goal: (s: Space) => boolean,
  fallback?: (s: Space) => number,
): Space[] | undefined {
  const map = t.view.map;
  const start = t.me.position!;
  const seen = new Set([`${start.x},${start.y}`]);
  let frontier: Space[][] = [[]];
  let best: { path: Space[]; score: number } | undefined;
  for (let depth = 0; depth < steps; depth++) {
    const next: Space[][] = [];
    for (const path of frontier) {
      const at = path.length > 0 ? path[path.length - 1] : start;
      for (const n of neighbours(map.grid, at)) {
        const k = `${n.x},${n.y}`;
        if (seen.has(k) || !canStep(map, at, n) || !free(t, n)) continue;
        seen.add(k);
        const p = [...path, n];
        if (goal(n)) return p;
        const score = fallback?.(n);
        if (score !== undefined && (!best || score < best.score)) best = { path: p, score };
        next.push(p);
      }
    }
    frontier = next;
  }
  return best?.path;
}

/** archsoul.txt: Move (1 AP): toward the foe until it is within `reach`, or as close as one Move gets. */
export function approach(t: ArchsoulTurn, reach: number): RuleCommand | undefined {
  if (t.me.ap < AP_COST.move || dist(t) <= reach) return undefined;
  const grid = t.view.map.grid;
  const d = (s: Space) => distance(grid, s, t.foe.position!);
  const path = pathTo(t, t.me.speed, (s) => d(s) <= reach && d(s) >= 1, d);
  return path && d(path[path.length - 1]) < dist(t)
    ? { type: 'Move', combatantId: t.me.id, path }
    : undefined;
}

/** archsoul.txt: Slow Move (1 AP): one space to where the foe is exactly `range` away, keeping the facing. */
export function stepBackTo(t: ArchsoulTurn, range: number): RuleCommand | undefined {
  if (t.me.ap < AP_COST.slowMove) return undefined;
  const map = t.view.map;
  const to = neighbours(map.grid, t.me.position!).find(
    (n) => canStep(map, t.me.position!, n) && free(t, n) && distance(map.grid, n, t.foe.position!) === range,
  );
  return to ? { type: 'SlowMove', combatantId: t.me.id, to } : undefined;
}

/** archsoul.txt: "you may freely rotate your mini" on your turn: face the foe (it enters the front arc) when it is not in it. */
export function face(t: ArchsoulTurn): RuleCommand | undefined {
  const grid = t.view.map.grid;
  if (
    !t.me.hasFrontArc ||
    has(t, 'grappled') ||
    inFrontArc(grid, t.me.position!, t.me.facing, t.foe.position!)
  )
    return undefined;
  const f = facings(grid).find((x: Facing) => inFrontArc(grid, t.me.position!, x, t.foe.position!));
  return f ? { type: 'Turn', combatantId: t.me.id, facing: f } : undefined;
}

/** What every strategy does first: stand up when prone (1 AP), and break a grapple it did not want (Escape, 2 AP). */
export function recover(t: ArchsoulTurn, { escape = true } = {}): RuleCommand | undefined {
  if (has(t, 'prone'))
    return t.me.ap >= AP_COST.standUp ? { type: 'StandUp', combatantId: t.me.id } : undefined;
  if (escape && has(t, 'grappled')) {
    if (t.me.ap >= AP_COST.escape) return { type: 'Escape', combatantId: t.me.id, targetId: t.foe.id };
    return undefined;
  }
  return undefined;
}

/** archsoul.txt: Attack (2 AP), Quick (1 AP) or Reckless (3 AP) with `w` when the foe is within its reach. */
export function strike(t: ArchsoulTurn, w: Weapon, special?: 'quick' | 'reckless'): RuleCommand | undefined {
  const cost =
    special === 'quick'
      ? AP_COST.quickAttack
      : special === 'reckless'
        ? AP_COST.recklessAttack
        : AP_COST.attack;
  if (
    t.me.ap < cost ||
    t.me.quickAttacked ||
    dist(t) > w.reach ||
    (w.id !== FIST.id && !t.me.held.includes(w.id))
  )
    return undefined;
  return {
    type: 'Attack',
    attackerId: t.me.id,
    targetId: t.foe.id,
    weaponId: w.id,
    ...(special ? { special } : {}),
  };
}

/** S42: a foot fighter gets off its mount first (1 AP, no reactive attacks). */
export function dismount(t: ArchsoulTurn): RuleCommand | undefined {
  return t.me.mounted && t.me.ap >= AP_COST.dismount ? { type: 'Dismount', combatantId: t.me.id } : undefined;
}

/** A foot fighter's turn: recover, dismount, get `w` (and `also`) in hand, close to its reach, face the foe, attack. */
export function footTurn(
  t: ArchsoulTurn,
  w: Weapon | undefined,
  attack: (w: Weapon) => RuleCommand | undefined,
  also: string[] = [],
): RuleCommand | undefined {
  const arm = w ?? FIST;
  const keep = [arm.id, ...also];
  return (
    recover(t) ??
    dismount(t) ??
    (arm.id === FIST.id ? undefined : ready(t, arm.id, keep)) ??
    also.reduce<RuleCommand | undefined>((c, id) => c ?? ready(t, id, keep), undefined) ??
    face(t) ??
    attack(arm) ??
    approach(t, arm.reach) ??
    face(t)
  );
}

/**
 * archsoul.txt: Reactive Attack: the held melee or unarmed weapon that reaches the actor and rolls the most damage
 * dice (the fist when nothing else reaches).
 */
export function reactWithBest(t: ArchsoulTurn): RuleCommand {
  const d = dist(t);
  const held = t.sheet.weapons.filter((w) => isMeleeOrUnarmed(w) && t.me.held.includes(w.id) && w.reach >= d);
  const best = held.reduce<Weapon>((b, w) => (w.damage > b.damage ? w : b), FIST);
  return { type: 'ReactiveAttack', combatantId: t.me.id, weaponId: best.id };
}
