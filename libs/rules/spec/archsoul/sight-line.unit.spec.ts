/**
 * S23: the line of sight is every space whose interior the straight segment between the two space centres enters,
 * in order (S38 at a square’s corners). Square grid: centres at integer (x, y), a space is the unit square round its
 * centre. Hex grid (S5, axial q = x, r = y): the centre of (q, r) lies at X = q + r/2, Y = r·√3/2, and a hex is the set
 * of points nearer its centre than any other; the segment is shifted by the nudge (q + n, r + 2n), n = ±10⁻⁶.
 * Default sheet (helpers.ts): a bow shot rolls Precision 2 + Ranged Weapons 2 = 4 dice at 4 within accurate range 5;
 * a javelin throw Precision 2 + Primitive Attacks 1 = 3 dice at 4 within accurate range 3; Defense 1.
 */
import { distance, GridKind, line, Space } from '../../src/archsoul/grid';
import { bow, exact, fight, find, foe, hero, javelin, refused, then, types } from './helpers';
import { rng } from '../seeded-random';

const SEED = Number(process.env.FUZZ_SEED ?? 20261211);
const shoot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' };
/** a with a bow at (0, 0), v at `at`, on the grid and map given. */
const duel = (at: [number, number], map: Record<string, unknown>) =>
  fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', at, 'S')], {
    map,
    options: { arrowBreakage: false },
  });
/** The shot taken (4 dice: 1, 2, 3, 2, none reaching 4): its events. */
const shot = (events: ReturnType<typeof fight>) => types(exact(events, shoot, { dice: [1, 2, 3, 2] }));

describe('Line of sight follows the segment between centres (archsoul.txt: The Battle Map, ruling S23, S38)', () => {
  // Square, (0, 0) to (5, 2): the segment is y = 0.4·x. It crosses the column boundaries x = 0.5, 1.5, 2.5, 3.5, 4.5
  // at y = 0.2, 0.6, 1.0, 1.4, 1.8, and the row boundaries y = 0.5, 1.5 at x = 1.25, 3.75. In order: (0,0), x = 0.5
  // into (1,0), x = 1.25 (row) into (1,1), x = 1.5 into (2,1), x = 2.5 into (3,1), x = 3.5 into (4,1), x = 3.75 (row)
  // into (4,2), x = 4.5 into (5,2). So (1,1) is entered for 1.25 < x < 1.5. (2,0) is not: for 1.5 < x < 2.5, y is
  // 0.6 to 1.0, row 1.
  it('S23: given a square grid, a at (0,0) and v at (5,2), when a shoots v past a blocked space the segment enters at (1,1), then there is no line of sight; a blocked space at (2,0) beside the segment does not hide v', () => {
    expect(refused(duel([5, 2], { grid: 'square', blocked: [{ x: 1, y: 1 }] }), shoot)).toMatchObject({
      code: 'ARCHSOUL_NO_LINE_OF_SIGHT',
      field: 'targetId',
    });
    expect(shot(duel([5, 2], { grid: 'square', blocked: [{ x: 2, y: 0 }] }))).toContain('ExchangeResolved');
  });

  // Same segment: it passes from (1,0) into (1,1) across their shared edge at (1.25, 0.5).
  it('S23: given a square grid, a at (0,0) and v at (5,2), when a wall stands between (1,0) and (1,1), the edge the segment crosses at (1.25, 0.5), then there is no line of sight', () => {
    const events = duel([5, 2], {
      grid: 'square',
      walls: [
        [
          { x: 1, y: 0 },
          { x: 1, y: 1 },
        ],
      ],
    });
    expect(refused(events, shoot)).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
  });

  // Hex, (0,0) to (3,1): the centres are (0, 0) and (3.5, √3/2), so P(t) = (3.5t, t·√3/2). The edge between (1,0)
  // (centre (1, 0)) and (1,1) (centre (1.5, √3/2)) is where (P − (1.25, √3/4))·(0.5, √3/2) = 0:
  // 1.75t − 0.625 + 0.75t − 0.375 = 2.5t − 1 = 0, t = 0.4. The edge between (1,1) and (2,0) (centre (2, 0)):
  // (P − (1.75, √3/4))·(0.5, −√3/2) = 1.75t − 0.875 − 0.75t + 0.375 = t − 0.5 = 0, t = 0.5. So the segment is in (1,1)
  // for 0.4 < t < 0.5 (at t = 0.45, P = (1.575, 0.390): 0.232 squared from (1,1)’s centre, 0.333 from (2,0)’s, 0.483
  // from (1,0)’s). Its line is (0,0), (1,0), (1,1), (2,0), (2,1), (3,1) with either nudge. (3,0), centre (3, 0), is
  // |3 × √3/2 − 0 × 3.5| / |(3.5, √3/2)| = 0.72 from the segment’s line, beyond a hex’s corners (1/√3 = 0.577).
  it('S23: given a hex grid, a at (0,0) and v at (3,1), when a shoots v past a blocked hex (1,1) the segment clips between t = 0.4 and 0.5, then there is no line of sight; a blocked hex at (3,0) off the segment does not hide v', () => {
    expect(refused(duel([3, 1], { blocked: [{ x: 1, y: 1 }] }), shoot)).toMatchObject({
      code: 'ARCHSOUL_NO_LINE_OF_SIGHT',
      field: 'targetId',
    });
    expect(shot(duel([3, 1], { blocked: [{ x: 3, y: 0 }] }))).toContain('ExchangeResolved');
  });

  // Square diagonals pass exactly through corners: (0,0) to (3,3) through (0.5, 0.5), (1.5, 1.5), (2.5, 2.5), and
  // (0,0) to (3,−3) through (0.5, −0.5), (1.5, −1.5), (2.5, −2.5). The line steps diagonally there and enters neither
  // space beside a corner, so blocked spaces there do not block (S38); walls at a corner block unless one orthogonal
  // way round it is free of walls, so a wall bent round (0,0)’s corner towards v blocks.
  it('S38: given a square grid and v on a diagonal from a, when the spaces beside the corners the segment passes are blocked, then v is in sight; when a wall is bent round the first corner, then it is not', () => {
    for (const [at, beside] of [
      [
        [3, 3],
        [
          [1, 0],
          [0, 1],
          [2, 1],
          [1, 2],
        ],
      ],
      [
        [3, -3],
        [
          [1, 0],
          [0, -1],
          [2, -1],
          [1, -2],
        ],
      ],
    ] as [[number, number], [number, number][]][]) {
      const blocked = beside.map(([x, y]) => ({ x, y }));
      expect(shot(duel(at, { grid: 'square', blocked }))).toContain('ExchangeResolved');
      const origin = { x: 0, y: 0 };
      const bent = duel(at, {
        grid: 'square',
        walls: [
          [origin, { x: 1, y: 0 }],
          [origin, { x: 0, y: Math.sign(at[1]) }],
        ],
      });
      expect(refused(bent, shoot)).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
    }
  });

  // Square, a javelin thrown at v (2,1) that misses flies on to maximum range 6: 6/2 = 3 times (2, 1) = (6, 3). The
  // segment y = x/2 crosses the column boundaries x = k + 0.5 at y = 0.25, 0.75, …, 2.75 and the row boundaries
  // y = 0.5, 1.5, 2.5 at x = 1, 3, 5: (0,0), (1,0), (1,1), (2,1), (3,1), (3,2), (4,2), (5,2), (5,3), (6,3). It is in
  // (5,2) for 4.5 < x < 5, so a blocked (5,2) stops it in (4,2). The line to v, (0,0), (1,0), (1,1), (2,1), is clear.
  it('S23: given a square grid and a javelin thrown from (0,0) at v (2,1), when it misses, then it drops in (4,2), before the blocked space (5,2) its segment to maximum range clips', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [javelin] }), foe('v', [2, 1], 'S')], {
      map: { grid: 'square', blocked: [{ x: 5, y: 2 }] },
    });
    // 3 dice at 4: 4, 2, 3 = 1 success, not above Defense 1 (and not 0, which lands beside the target).
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 2, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false });
    expect(find(out, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 4, y: 2 } });
  });

  // The square (0,0) to (5,2) segment above enters (1,1): an interceptor standing there is crossed by the shot.
  it('S32: given b intercepting with a shield at (1,1) on a square grid, when a shoots v at (5,2) from (0,0), then the shot passes through b’s space and is 1 harder', () => {
    let events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        hero('b', [1, 1], 'N', { shield: { bonus: 1 } }),
        foe('v', [5, 2], 'S'),
      ],
      { map: { grid: 'square' }, options: { arrowBreakage: false } },
    );
    events = then(events, { type: 'ShieldIntercept', combatantId: 'b' });
    const out = exact(events, shoot, { dice: [1, 2, 3, 2] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, attack: { difficulty: 5 } });
  });
});

const SQRT3_2 = Math.sqrt(3) / 2;
const HEX_NEIGHBOURS = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];

/**
 * The key of the space holding the point (q, r) (axial on a hex) strictly inside it, or undefined within 1e-9 of a
 * boundary. Hex: the cube-rounded space, checked to be nearer than each of its six neighbours by more than 1e-9 (the
 * distance of a point from the bisector of two centres 1 apart is half the difference of its squared distances to
 * them); the Cartesian centre of (q, r) is (q + r/2, r·√3/2) as in the header.
 */
function cellOf(grid: GridKind, q: number, r: number): string | undefined {
  if (grid === 'square') {
    const x = Math.round(q);
    const y = Math.round(r);
    if (Math.abs(Math.abs(q - x) - 0.5) < 1e-9 || Math.abs(Math.abs(r - y) - 0.5) < 1e-9) return undefined;
    return `${x},${y}`;
  }
  let x = Math.round(q);
  let y = Math.round(r);
  const z = Math.round(-q - r);
  const ex = Math.abs(x - q);
  const ey = Math.abs(y - r);
  const ez = Math.abs(z + q + r);
  if (ex > ey && ex > ez) x = -y - z;
  else if (ey > ez) y = -x - z;
  const px = q + r / 2;
  const py = r * SQRT3_2;
  const own = (px - x - y / 2) ** 2 + (py - y * SQRT3_2) ** 2;
  for (const [dx, dy] of HEX_NEIGHBOURS) {
    const nx = x + dx + (y + dy) / 2;
    const ny = (y + dy) * SQRT3_2;
    if (((px - nx) ** 2 + (py - ny) ** 2 - own) / 2 < 1e-9) return undefined;
  }
  return `${x},${y}`;
}

describe('The line between two spaces (ruling S23)', () => {
  it('S23: given seeded origins on both grids, when the line runs to every target within 8 spaces, then it steps between adjacent spaces from a to b and holds every space that a fine sampling of its segment passes strictly inside', () => {
    const random = rng(SEED);
    const origins: Space[] = [
      { x: 0, y: 0 },
      { x: Math.floor(random() * 41) - 20, y: Math.floor(random() * 41) - 20 },
    ];
    const wrong: string[] = [];
    for (const grid of ['square', 'hex'] as GridKind[])
      for (const a of origins)
        for (let dx = -8; dx <= 8; dx++)
          for (let dy = -8; dy <= 8; dy++) {
            const b = { x: a.x + dx, y: a.y + dy };
            const d = distance(grid, a, b);
            if (d === 0 || d > 8) continue;
            for (const nudge of [1e-6, -1e-6]) {
              const spaces = line(grid, a, b, nudge);
              const name = `${grid} (${a.x},${a.y})→(${b.x},${b.y}) nudge ${nudge}`;
              const [first, last] = [spaces[0], spaces[spaces.length - 1]];
              if (first.x !== a.x || first.y !== a.y || last.x !== b.x || last.y !== b.y)
                wrong.push(`${name}: ends`);
              for (let i = 1; i < spaces.length; i++)
                if (distance(grid, spaces[i - 1], spaces[i]) !== 1) wrong.push(`${name}: step ${i}`);
              const inLine = new Set(spaces.map((s) => `${s.x},${s.y}`));
              // The square line takes no nudge (no segment between centres runs along an edge); the hex one does.
              const n = grid === 'hex' ? nudge : 0;
              // 300 points a space along the segment.
              const samples = 300 * d;
              for (let k = 0; k <= samples; k++) {
                const t = k / samples;
                const cell = cellOf(grid, a.x + n + dx * t, a.y + 2 * n + dy * t);
                if (cell !== undefined && !inLine.has(cell)) {
                  wrong.push(`${name}: misses (${cell}) at t = ${t}`);
                  break;
                }
              }
            }
          }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
