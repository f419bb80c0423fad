/**
 * What the Archsoul oracles (oracle.unit.spec.ts, oracle-grapple.unit.spec.ts) share: the battle map’s geometry (arcs,
 * distances, steps, lines of sight), computed from archsoul.txt (The Battle Map), S5, S14, S19 and the
 * rulings S23, S38 and S73 alone, never from the engine’s code.
 *
 * S23: “The line is every space whose interior the straight segment between the two space centres enters, in order,
 * each adjacent to the one before. On a square grid it is traversed exactly: where the segment passes exactly through a
 * corner it steps diagonally through that corner, entering neither space beside it (S38 judges the walls there). On a
 * hex grid the segment is shifted by a tiny nudge both ways, which settles one running along an edge or through a
 * corner, and sight is clear if either nudged line is.” Blocked spaces and walls block it; combatants do not (S73).
 *
 * The oracle’s own geometry: a space is a polygon on the plane (a unit square round (x, y); a pointy-topped hex of
 * circumradius 1 round (√3·(q + r/2), 1.5·r), S5’s axial coordinates), and the segment is clipped against each
 * polygon near it (Cyrus–Beck). Its interior is entered when the clipped part has a length. A hex’s nudge shifts the
 * segment by 10⁻⁷ square to itself, one way and the other. Between centres at most a few dozen spaces apart, a
 * segment that misses a corner misses it by more than 10⁻³, so the nudge settles only the touching cases, as S23 says.
 */
export type Grid = 'hex' | 'square';
export interface Space {
  x: number;
  y: number;
}
/** A wall stands between two adjacent spaces (SetMap). */
export type Wall = [Space, Space];
export interface BattleMap {
  grid: Grid;
  blocked: Space[];
  walls: Wall[];
}

/** The steps between adjacent spaces: a hex’s six neighbours (axial), a square’s eight (a diagonal counts 1, S14). */
export const STEPS: Record<Grid, [number, number][]> = {
  hex: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, -1],
    [-1, 1],
  ],
  square: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ],
};

export const same = (a: Space, b: Space) => a.x === b.x && a.y === b.y;

/** A square grid’s eight facings as steps (x right, y up, S5). */
export const SQUARE_VECTORS: Record<string, [number, number]> = {
  N: [0, 1],
  NE: [1, 1],
  E: [1, 0],
  SE: [1, -1],
  S: [0, -1],
  SW: [-1, -1],
  W: [-1, 0],
  NW: [-1, 1],
};

/**
 * S5: the front arc is every space strictly on the facing side of the line through the character square to its
 * facing. Hex (pointy-topped, axial x = q, y = r growing downward): the sign of the dot product with the corner the
 * facing points at; square (y up): the sign of the dot product with the facing’s step.
 */
export function inFrontArc(grid: Grid, self: Space, facing: string, other: Space): boolean {
  const dx = other.x - self.x;
  const dy = other.y - self.y;
  if (grid === 'square') {
    const [fx, fy] = SQUARE_VECTORS[facing];
    return dx * fx + dy * fy > 0;
  }
  const sign: Record<string, number> = {
    N: -dy,
    S: dy,
    NE: dx,
    SW: -dx,
    SE: dx + dy,
    NW: -(dx + dy),
  };
  return sign[facing] > 0;
}
const key = (s: Space) => `${s.x},${s.y}`;

/** S14: hex distance in axial coordinates; on a square grid a diagonal step counts as 1. */
export function distance(grid: Grid, a: Space, b: Space): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  return grid === 'hex'
    ? (Math.abs(dx) + Math.abs(dy) + Math.abs(dx + dy)) / 2
    : Math.max(Math.abs(dx), Math.abs(dy));
}

/** A space’s centre on the plane: pointy-topped hexes of circumradius 1 (axial, S5), or unit squares. */
export function centreOf(grid: Grid, s: Space): [number, number] {
  return grid === 'hex' ? [Math.sqrt(3) * (s.x + s.y / 2), 1.5 * s.y] : [s.x, s.y];
}

/** The space’s corners, counter-clockwise. */
function corners(grid: Grid, s: Space): [number, number][] {
  const [cx, cy] = centreOf(grid, s);
  if (grid === 'square')
    return [
      [cx - 0.5, cy - 0.5],
      [cx + 0.5, cy - 0.5],
      [cx + 0.5, cy + 0.5],
      [cx - 0.5, cy + 0.5],
    ];
  return Array.from({ length: 6 }, (_, k) => {
    const angle = ((30 + 60 * k) * Math.PI) / 180;
    return [cx + Math.cos(angle), cy + Math.sin(angle)] as [number, number];
  });
}

/**
 * The part of the segment p + t·d, 0 ≤ t ≤ 1, inside the convex polygon (Cyrus–Beck): [enter, leave], or undefined
 * when it has no length (it misses the polygon, or only touches a corner or runs along an edge).
 */
function clip(
  poly: [number, number][],
  p: [number, number],
  d: [number, number],
): [number, number] | undefined {
  let enter = 0;
  let leave = 1;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    // Outward normal of a counter-clockwise edge.
    const nx = by - ay;
    const ny = -(bx - ax);
    const num = nx * (p[0] - ax) + ny * (p[1] - ay);
    const den = nx * d[0] + ny * d[1];
    if (Math.abs(den) < 1e-15) {
      if (num >= -1e-12) return undefined;
      continue;
    }
    const t = -num / den;
    if (den < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
  }
  return leave - enter > 1e-10 ? [enter, leave] : undefined;
}

/**
 * The spaces whose interior the segment between the centres of `a` and `b`, shifted square to itself by `shift`,
 * enters, in order along it (S23).
 */
export function lineSpaces(grid: Grid, a: Space, b: Space, shift = 0): Space[] {
  const [x1, y1] = centreOf(grid, a);
  const [x2, y2] = centreOf(grid, b);
  const len = Math.hypot(x2 - x1, y2 - y1);
  const [nx, ny] = len ? [-(y2 - y1) / len, (x2 - x1) / len] : [0, 0];
  const p: [number, number] = [x1 + shift * nx, y1 + shift * ny];
  const d: [number, number] = [x2 - x1, y2 - y1];
  const r = distance(grid, a, b) + 1;
  const found: { s: Space; t: number }[] = [];
  const outer = grid === 'hex' ? 1 : Math.SQRT1_2;
  for (let dx = -r; dx <= r; dx++)
    for (let dy = -r; dy <= r; dy++) {
      const s = { x: a.x + dx, y: a.y + dy };
      if (distance(grid, a, s) > r) continue;
      // Only a space whose circumscribed circle the segment’s line meets can be entered.
      const [cx, cy] = centreOf(grid, s);
      if (len && Math.abs((cx - p[0]) * nx + (cy - p[1]) * ny) > outer + 1e-6) continue;
      const part = clip(corners(grid, s), p, d);
      if (part) found.push({ s, t: part[0] });
    }
  return found.sort((u, v) => u.t - v.t).map((f) => f.s);
}

/** The hex line’s two nudges (S23); the square line takes none. */
const NUDGES: Record<Grid, number[]> = { hex: [1e-7, -1e-7], square: [0] };
/** Both grids’ lines shifted a hair either way: what a line touches without entering is in one of them. */
const HAIRS: Record<Grid, number[]> = { hex: [1e-7, -1e-7], square: [1e-7, -1e-7] };
/** The lines between two spaces depend on the grid and the step between them alone: each is worked out once. */
const LINES = new Map<string, Space[][]>();

export class MapGeometry {
  private readonly blockedKeys: Set<string>;
  private readonly wallKeys: Set<string>;
  constructor(readonly map: BattleMap) {
    this.blockedKeys = new Set(map.blocked.map(key));
    this.wallKeys = new Set(map.walls.map(([p, q]) => [key(p), key(q)].sort().join('|')));
  }
  get grid(): Grid {
    return this.map.grid;
  }
  blocked(s: Space): boolean {
    return this.blockedKeys.has(key(s));
  }
  wall(p: Space, q: Space): boolean {
    return this.wallKeys.has([key(p), key(q)].sort().join('|'));
  }
  /**
   * S38: a diagonal step from p to q passes the corner the two spaces share; walls there stop it unless one of the
   * two orthogonal ways round that corner crosses no wall. Blocked spaces beside the corner do not stop it.
   */
  cornerShut(p: Space, q: Space): boolean {
    const via1 = { x: q.x, y: p.y };
    const via2 = { x: p.x, y: q.y };
    return (this.wall(p, via1) || this.wall(via1, q)) && (this.wall(p, via2) || this.wall(via2, q));
  }
  /** Whether the step between adjacent spaces crosses a wall (S19), or a shut corner on a square diagonal (S38). */
  stepShut(p: Space, q: Space): boolean {
    if (this.grid === 'square' && p.x !== q.x && p.y !== q.y) return this.cornerShut(p, q);
    return this.wall(p, q);
  }
  /** S19: a step into an open space that crosses no wall. */
  stepOpen(p: Space, q: Space): boolean {
    return distance(this.grid, p, q) === 1 && !this.blocked(q) && !this.stepShut(p, q);
  }
  /** The lines between the two centres: one on a square grid, the two nudged ones on a hex grid (S23). */
  lines(a: Space, b: Space): Space[][] {
    return this.shifted(a, b, NUDGES[this.grid]);
  }
  private shifted(a: Space, b: Space, shifts: number[]): Space[][] {
    // A line moved with its ends is the same line moved (both grids’ coordinates are translations of the plane).
    const k = `${this.grid}:${b.x - a.x},${b.y - a.y}:${shifts.join()}`;
    let found = LINES.get(k);
    if (!found) {
      const origin = { x: 0, y: 0 };
      found = shifts.map((n) => lineSpaces(this.grid, origin, { x: b.x - a.x, y: b.y - a.y }, n));
      LINES.set(k, found);
    }
    return found.map((l) => l.map((s) => ({ x: s.x + a.x, y: s.y + a.y })));
  }
  /**
   * Whether the segment from `a` to `b` touches `s` without the shot passing through it: along an edge or at a corner
   * (a hex entered by one nudged line only; a square beside a corner the line steps through, S38).
   */
  grazes(a: Space, b: Space, s: Space): boolean {
    if (same(s, a) || same(s, b) || this.through(a, b, s)) return false;
    return this.shifted(a, b, HAIRS[this.grid]).some((l) => l.some((x) => same(x, s)));
  }
  /** S23: a line is clear when no space strictly between is blocked and no step along it is shut. */
  private clear(line: Space[]): boolean {
    for (let i = 1; i < line.length; i++) {
      if (i < line.length - 1 && this.blocked(line[i])) return false;
      if (this.stepShut(line[i - 1], line[i])) return false;
    }
    return true;
  }
  /** S23 (and S73 for melee reach): sight between the two spaces; on a hex, either nudged line clear will do. */
  sight(a: Space, b: Space): boolean {
    if (same(a, b)) return true;
    return this.lines(a, b).some((l) => this.clear(l));
  }
  /**
   * S32: a shot from `a` to `b` passes through `s`: `s` lies strictly between, in a space the line enters (on a hex,
   * on both nudged lines).
   */
  through(a: Space, b: Space, s: Space): boolean {
    if (same(s, a) || same(s, b) || same(a, b)) return false;
    return this.lines(a, b).every((l) => l.some((x) => same(x, s)));
  }
}
