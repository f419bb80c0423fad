/** A space of a battle map: Narateer's square grid (N25) and Archsoul's hex or square grid (S5). */
export interface Space {
  x: number;
  y: number;
}

/** On a square grid a diagonal step counts 1: the larger of the two coordinate differences (N25, S5). */
export function squareDistance(a: Space, b: Space): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

export function key(s: Space): string {
  return `${s.x},${s.y}`;
}

export function same(a: Space, b: Space): boolean {
  return a.x === b.x && a.y === b.y;
}
