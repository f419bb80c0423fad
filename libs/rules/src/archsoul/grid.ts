import { Space, squareDistance } from '../core/space';

/**
 * S5: the battle map's geometry. Hex (default): pointy-topped hexes in axial coordinates
 * (x = q, y = r, r growing downward); the six facings point at the six corners. Square (option): x right,
 * y up; eight facings.
 */
export type { Space } from '../core/space';
export { key, same } from '../core/space';

export type GridKind = 'hex' | 'square';
export const HEX_FACINGS = ['N', 'NE', 'SE', 'S', 'SW', 'NW'] as const;
export const SQUARE_FACINGS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Facing = (typeof SQUARE_FACINGS)[number];

/** Hex edge steps, each with the two corner facings beside it (S5). */
const HEX_STEPS: readonly { dx: number; dy: number; facings: [Facing, Facing] }[] = [
  { dx: 1, dy: 0, facings: ['NE', 'SE'] },
  { dx: 1, dy: -1, facings: ['N', 'NE'] },
  { dx: 0, dy: -1, facings: ['NW', 'N'] },
  { dx: -1, dy: 0, facings: ['NW', 'SW'] },
  { dx: -1, dy: 1, facings: ['SW', 'S'] },
  { dx: 0, dy: 1, facings: ['S', 'SE'] },
];

const SQUARE_VECTORS: Record<Facing, [number, number]> = {
  N: [0, 1],
  NE: [1, 1],
  E: [1, 0],
  SE: [1, -1],
  S: [0, -1],
  SW: [-1, -1],
  W: [-1, 0],
  NW: [-1, 1],
};

export function facings(grid: GridKind): readonly Facing[] {
  return grid === 'hex' ? HEX_FACINGS : SQUARE_FACINGS;
}

export function distance(grid: GridKind, a: Space, b: Space): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (grid === 'square') return squareDistance(a, b);
  return (Math.abs(dx) + Math.abs(dy) + Math.abs(dx + dy)) / 2;
}

/** The adjacent spaces, in a fixed order (hex: E, NE, NW, W, SW, SE; square: N, NE, E, … clockwise). */
export function neighbours(grid: GridKind, s: Space): Space[] {
  if (grid === 'hex') return HEX_STEPS.map((d) => ({ x: s.x + d.dx, y: s.y + d.dy }));
  return SQUARE_FACINGS.map((f) => ({ x: s.x + SQUARE_VECTORS[f][0], y: s.y + SQUARE_VECTORS[f][1] }));
}

/**
 * archsoul.txt: The Battle Map (arcs), S5: the front arc is every space strictly on the facing
 * side of the line through the character square to its facing; spaces on the line are back arc.
 * Hex: the signs below are the dot product with the corner direction, times 4 (exact in integers).
 */
export function inFrontArc(grid: GridKind, self: Space, facing: Facing, other: Space): boolean {
  const dx = other.x - self.x;
  const dy = other.y - self.y;
  if (grid === 'square') {
    const [fx, fy] = SQUARE_VECTORS[facing];
    return dx * fx + dy * fy > 0;
  }
  switch (facing) {
    case 'N':
      return dy < 0;
    case 'NE':
      return dx > 0;
    case 'SE':
      return dx + dy > 0;
    case 'S':
      return dy > 0;
    case 'SW':
      return dx < 0;
    case 'NW':
      return dx + dy < 0;
    // A hex's facings are its six corners: E and W are square-grid facings only.
    case 'E':
    case 'W':
      return false;
  }
}

/** S5: the facings a step may leave its mover with (hex: the two corners beside the edge; square: the step's direction). */
export function stepFacings(grid: GridKind, from: Space, to: Space): Facing[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  if (grid === 'hex') return [...(HEX_STEPS.find((s) => s.dx === dx && s.dy === dy)?.facings ?? [])];
  const f = SQUARE_FACINGS.find((k) => SQUARE_VECTORS[k][0] === dx && SQUARE_VECTORS[k][1] === dy);
  return f ? [f] : [];
}

/** S5: default facing after a step: the one of `options` nearer the previous facing (first on a tie). */
export function nearestFacing(grid: GridKind, previous: Facing, options: Facing[]): Facing {
  const list = facings(grid);
  const n = list.length;
  const gap = (f: Facing) => {
    const d = Math.abs(list.indexOf(f) - list.indexOf(previous)) % n;
    return Math.min(d, n - d);
  };
  return options.reduce((best, f) => (gap(f) < gap(best) ? f : best), options[0]);
}

/**
 * S23: the spaces whose interior the straight segment between two space centres enters, in order, both ends included;
 * each is adjacent to the one before. Square: traversed exactly; where the segment passes through a corner it steps
 * diagonally (S38 judges the walls there), and as no segment between centres runs along an edge, `nudge` changes
 * nothing. Hex: the segment shifted by (nudge, 2 × nudge) (axial), which settles one running along an edge or
 * through a corner; it leaves each hex into the neighbour whose shared edge it crosses first.
 */
export function line(grid: GridKind, a: Space, b: Space, nudge: number): Space[] {
  return grid === 'hex' ? hexLine(a, b, nudge) : squareLine(a, b);
}

/** S23: the lines sight follows: on a hex one for each nudge (clear if either is), on a square its one exact line. */
export function sightLines(grid: GridKind, a: Space, b: Space): Space[][] {
  return grid === 'hex' ? [line(grid, a, b, 1e-6), line(grid, a, b, -1e-6)] : [line(grid, a, b, 0)];
}

/**
 * Square: the segment crosses its i-th column boundary (from a) at t = (2i + 1) / 2|dx| and its j-th row boundary at
 * t = (2j + 1) / 2|dy|, compared exactly as (2i + 1)·|dy| against (2j + 1)·|dx|; equal is a corner (a diagonal step).
 */
function squareLine(a: Space, b: Space): Space[] {
  const nx = Math.abs(b.x - a.x);
  const ny = Math.abs(b.y - a.y);
  const sx = Math.sign(b.x - a.x);
  const sy = Math.sign(b.y - a.y);
  let { x, y } = a;
  const out: Space[] = [{ x, y }];
  for (let i = 0, j = 0; i < nx || j < ny;) {
    const column = i < nx ? (2 * i + 1) * ny : Infinity;
    const row = j < ny ? (2 * j + 1) * nx : Infinity;
    if (column <= row) {
      x += sx;
      i++;
    }
    if (row <= column) {
      y += sy;
      j++;
    }
    out.push({ x, y });
  }
  return out;
}

/**
 * The dot product of two axial vectors taken on the plane (a hex centre (q, r) at x = q + r/2, y = r·√3/2): exact
 * in rationals, as √3 appears only squared. Adjacent centres are 1 apart.
 */
function hexDot(q1: number, r1: number, q2: number, r2: number): number {
  return (q1 + r1 / 2) * (q2 + r2 / 2) + 0.75 * r1 * r2;
}

/**
 * Hex: a hex is the set of points nearest its centre, so the segment P(t) = a + nudge·(1, 2) + t·(b − a) leaves the
 * current hex c through the bisector with the neighbour c + s that it reaches first, at
 * t = (c + s/2 − a − nudge·(1, 2))·s / ((b − a)·s), among the neighbours it heads towards ((b − a)·s > 0).
 */
function hexLine(a: Space, b: Space, nudge: number): Space[] {
  const dq = b.x - a.x;
  const dr = b.y - a.y;
  let { x, y } = a;
  const out: Space[] = [{ x, y }];
  // A line d spaces long takes about 4d/3 steps at most; the bound only keeps a rounding fault from looping.
  const most = 2 * distance('hex', a, b) + 1;
  while ((x !== b.x || y !== b.y) && out.length <= most) {
    let first = Infinity;
    let step = HEX_STEPS[0];
    for (const s of HEX_STEPS) {
      const toward = hexDot(dq, dr, s.dx, s.dy);
      if (toward <= 0) continue;
      const t = hexDot(x - a.x + s.dx / 2 - nudge, y - a.y + s.dy / 2 - 2 * nudge, s.dx, s.dy) / toward;
      if (t < first) {
        first = t;
        step = s;
      }
    }
    x += step.dx;
    y += step.dy;
    out.push({ x, y });
  }
  return out;
}

function hexRound(q: number, r: number): Space {
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return { x: rq + 0, y: rr + 0 };
}

/** The space `steps` spaces from `a` along the line through `b` (for a projectile at maximum range). */
export function beyond(grid: GridKind, a: Space, b: Space, steps: number): Space {
  const d = distance(grid, a, b);
  const t = steps / d;
  const x = a.x + (b.x - a.x) * t;
  const y = a.y + (b.y - a.y) * t;
  return grid === 'hex' ? hexRound(x, y) : { x: Math.round(x), y: Math.round(y) };
}
