import {
  distance,
  Facing,
  HEX_FACINGS,
  inFrontArc,
  line,
  nearestFacing,
  stepFacings,
} from '../../src/archsoul/grid';

/** archsoul.txt: The Battle Map, the three pictures (■ front, ○ back, ◘ the character), S5. */
const HEX = `
■ ■ ■ ■ ■ ■
■ ■ ■ ■ ■ ■ ■
■ ■ ■ ■ ■ ■
○ ○ ○ ◘ ○ ○ ○
○ ○ ○ ○ ○ ○
○ ○ ○ ○ ○ ○ ○
○ ○ ○ ○ ○ ○`;
const SQUARE_UP = `
■ ■ ■ ■ ■
■ ■ ■ ■ ■
○ ○ ◘ ○ ○
○ ○ ○ ○ ○
○ ○ ○ ○ ○`;
const SQUARE_DIAGONAL = `
○ ■ ■ ■ ■
○ ○ ■ ■ ■
○ ○ ◘ ■ ■
○ ○ ○ ○ ■
○ ○ ○ ○ ○`;

function cells(picture: string): string[][] {
  return picture
    .trim()
    .split('\n')
    .map((row) => row.trim().split(' '));
}

describe('Arcs (archsoul.txt: The Battle Map, RULINGS.md S5)', () => {
  it('the hex picture, cell by cell: pointy-topped axial hexes, facing N (a corner); the own row is back arc', () => {
    const rows = cells(HEX);
    let checked = 0;
    rows.forEach((row, i) => {
      const r = i - 3;
      // Pixel column X = 2q + r; rows of 7 span X = -6..6, rows of 6 span X = -5..5.
      row.forEach((cell, j) => {
        const X = (row.length === 7 ? -6 : -5) + 2 * j;
        const q = (X - r) / 2;
        if (cell === '◘') return expect([q, r]).toEqual([0, 0]);
        expect([q, r, inFrontArc('hex', { x: 0, y: 0 }, 'N', { x: q, y: r }) ? '■' : '○']).toEqual([
          q,
          r,
          cell,
        ]);
        checked++;
      });
    });
    expect(checked).toBe(44);
  });

  it('the square picture facing up: every row above is front arc', () => {
    cells(SQUARE_UP).forEach((row, i) =>
      row.forEach((cell, j) => {
        if (cell === '◘') return;
        expect(inFrontArc('square', { x: 0, y: 0 }, 'N', { x: j - 2, y: 2 - i }) ? '■' : '○').toBe(cell);
      }),
    );
  });

  it('the square picture facing up-right: dx + dy > 0 is front arc', () => {
    cells(SQUARE_DIAGONAL).forEach((row, i) =>
      row.forEach((cell, j) => {
        if (cell === '◘') return;
        expect(inFrontArc('square', { x: 0, y: 0 }, 'NE', { x: j - 2, y: 2 - i }) ? '■' : '○').toBe(cell);
      }),
    );
  });

  it('each hex corner facing has two neighbours in front (the two on the line are back arc), disjoint from the opposite facing', () => {
    const around = [
      [1, 0],
      [1, -1],
      [0, -1],
      [-1, 0],
      [-1, 1],
      [0, 1],
    ].map(([x, y]) => ({ x, y }));
    HEX_FACINGS.forEach((f, i) => {
      const opposite = HEX_FACINGS[(i + 3) % 6] as Facing;
      const front = around.filter((s) => inFrontArc('hex', { x: 0, y: 0 }, f, s));
      expect(front).toHaveLength(2);
      expect(
        around.filter((s) => inFrontArc('hex', { x: 0, y: 0 }, opposite, s)).some((s) => front.includes(s)),
      ).toBe(false);
    });
  });

  it('a hex step crosses an edge: the mover takes a corner facing beside it, by default the nearer to its previous facing', () => {
    expect(stepFacings('hex', { x: 0, y: 0 }, { x: 1, y: 0 })).toEqual(['NE', 'SE']);
    expect(nearestFacing('hex', 'N', ['NE', 'SE'])).toBe('NE');
    expect(nearestFacing('hex', 'S', ['NE', 'SE'])).toBe('SE');
    expect(stepFacings('square', { x: 0, y: 0 }, { x: 1, y: 1 })).toEqual(['NE']);
  });

  it('distances: hex axial, square with diagonals counting 1 (S14)', () => {
    expect(distance('hex', { x: 0, y: 0 }, { x: 2, y: -1 })).toBe(2);
    expect(distance('hex', { x: 0, y: 0 }, { x: 3, y: -3 })).toBe(3);
    expect(distance('square', { x: 0, y: 0 }, { x: 3, y: 2 })).toBe(3);
    expect(line('hex', { x: 0, y: 0 }, { x: 3, y: 0 }, 1e-6)).toEqual([0, 1, 2, 3].map((x) => ({ x, y: 0 })));
  });
});
