import { beyond, distance, GridKind, key, line, neighbours, sightLines, Space } from './grid';

/** archsoul.txt: The Battle Map: 2 m spaces; blocked spaces and walls (between two adjacent spaces). */
export interface BattleMap {
  grid: GridKind;
  blocked: Space[];
  walls: [Space, Space][];
}

export const DEFAULT_MAP: BattleMap = { grid: 'hex', blocked: [], walls: [] };

function wallKey(a: Space, b: Space): string {
  const [p, q] = [key(a), key(b)].sort();
  return `${p}|${q}`;
}

export function isBlocked(map: BattleMap, s: Space): boolean {
  return map.blocked.some((b) => b.x === s.x && b.y === s.y);
}

function wallOn(map: BattleMap, a: Space, b: Space): boolean {
  const k = wallKey(a, b);
  return map.walls.some(([p, q]) => wallKey(p, q) === k);
}

/**
 * S38: on a square grid a diagonal step passes the corner the two spaces share; it goes through a wall
 * when neither orthogonal way round that corner is free of walls (a straight or bent wall there blocks it, a wall's
 * end does not).
 */
export function wallBetween(map: BattleMap, a: Space, b: Space): boolean {
  if (wallOn(map, a, b)) return true;
  if (map.grid !== 'square' || a.x === b.x || a.y === b.y) return false;
  const viaX = { x: b.x, y: a.y };
  const viaY = { x: a.x, y: b.y };
  return (wallOn(map, a, viaX) || wallOn(map, viaX, b)) && (wallOn(map, a, viaY) || wallOn(map, viaY, b));
}

export function isAdjacent(map: BattleMap, a: Space, b: Space): boolean {
  return distance(map.grid, a, b) === 1;
}

/** One step may be taken: adjacent, not into a blocked space, not through a wall (S19). */
export function canStep(map: BattleMap, a: Space, b: Space): boolean {
  return isAdjacent(map, a, b) && !isBlocked(map, b) && !wallBetween(map, a, b);
}

/** The spaces of a line, cut before the first blocked space or wall (the last entry is where it stops). */
function clearRun(map: BattleMap, spaces: Space[]): Space[] {
  const out: Space[] = [spaces[0]];
  for (let i = 1; i < spaces.length; i++) {
    if (isBlocked(map, spaces[i]) || wallBetween(map, spaces[i - 1], spaces[i])) break;
    out.push(spaces[i]);
  }
  return out;
}

/**
 * S23 (archsoul.txt says nothing of sight): walls and blocked spaces on the line block it; on a hex it is clear when
 * either nudged line is.
 */
export function lineOfSight(map: BattleMap, a: Space, b: Space): boolean {
  return sightLines(map.grid, a, b).some((spaces) => clearRun(map, spaces).length === spaces.length);
}

/**
 * archsoul.txt: Recovering Projectile Weapons: a miss drops at maximum range unless an obstacle stops it: in the last
 * space before the first blocked space or wall on the line (S23) to the space at maximum range.
 */
export function landingAtRange(map: BattleMap, from: Space, toward: Space, maximumRange: number): Space {
  const far = beyond(map.grid, from, toward, maximumRange);
  const run = clearRun(map, line(map.grid, from, far, 1e-6));
  return run[run.length - 1];
}

export { neighbours };
