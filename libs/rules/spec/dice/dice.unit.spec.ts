import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createHmac } from 'node:crypto';
import { ManualDice } from '../../src/dice/manual';
import { facesForDraw, SeededDice, seedCommitment } from '../../src/dice/seeded';
import { RuleViolation } from '../../src/core/violation';

/** Upper critical values of chi-square at p = 0.001 for 5 and 11 degrees of freedom. */
const CHI2_CRITICAL = { 5: 20.515, 11: 31.264 } as const;

function chiSquare(faces: number[], sides: number): number {
  const counts = new Array(sides).fill(0);
  for (const f of faces) counts[f - 1]++;
  const expected = faces.length / sides;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

describe('dice (RULINGS.md C2, C5)', () => {
  const fair = { seed: 'f'.repeat(64), fightId: 'fight-1', clientSeed: 'table-7' };

  it.each([
    [6, 5],
    [12, 11],
  ] as const)('fair d%i faces are uniform: chi-square over 60,000 faces', (sides, df) => {
    const dice = new SeededDice({ ...fair, drawsUsed: 0 });
    const faces: number[] = [];
    while (faces.length < 60000) faces.push(...dice.roll(10, sides).faces);
    expect(faces.every((f) => f >= 1 && f <= sides)).toBe(true);
    expect(chiSquare(faces, sides)).toBeLessThan(CHI2_CRITICAL[df]);
  });

  it('a biased source would fail the same chi-square test', () => {
    // The modulo-biased mapping rejection sampling avoids: 1 + (b mod 12) over all 256 byte values.
    const biased: number[] = [];
    for (let n = 1; biased.length < 60000; n++)
      for (const b of createHmac('sha256', 'k').update(String(n)).digest()) biased.push(1 + (b % 12));
    expect(chiSquare(biased.slice(0, 60000), 12)).toBeGreaterThan(CHI2_CRITICAL[11]);
  });

  it('draw n uses HMAC-SHA256(seed, fightId:clientSeed:n:k) with rejection sampling, checked against node:crypto', () => {
    const key = Buffer.from(fair.seed, 'hex');
    const bytes = createHmac('sha256', key).update('fight-1:table-7:3:0').digest();
    const expected = [...bytes]
      .filter((b) => b < 252)
      .slice(0, 5)
      .map((b) => 1 + (b % 6));
    expect(facesForDraw(fair, 3, 5, 6)).toEqual(expected);
    expect(
      Buffer.from(hmac(sha256, key, new TextEncoder().encode('x'))).equals(
        createHmac('sha256', key).update('x').digest(),
      ),
    ).toBe(true);
  });

  it('draws are numbered from 1 and continue from the draws already used', () => {
    const a = new SeededDice({ ...fair, drawsUsed: 0 });
    a.roll(2, 6);
    const second = a.roll(4, 6);
    const resumed = new SeededDice({ ...fair, drawsUsed: 1 }).roll(4, 6);
    expect(second).toEqual({ sides: 6, faces: resumed.faces, draw: 2 });
  });

  it('the commitment is sha256 of the seed bytes', () => {
    const { createHash } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    expect(seedCommitment(fair.seed)).toBe(
      createHash('sha256').update(Buffer.from(fair.seed, 'hex')).digest('hex'),
    );
    expect(seedCommitment('demo')).toBe(createHash('sha256').update('demo').digest('hex'));
  });

  it('manual faces out of range are refused naming the die', () => {
    const dice = new ManualDice({ dice: [3, 7, 2] });
    const error = (() => {
      try {
        dice.roll(3, 6);
      } catch (e) {
        return e as RuleViolation;
      }
    })();
    expect(error).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[1]' });
  });

  it('manual dice: missing faces name the first missing die, extra faces are refused', () => {
    expect(() => new ManualDice({ dice: [1] }).roll(2, 6)).toThrow(
      expect.objectContaining({ code: 'DICE_MANUAL_FACES_MISSING', field: 'dice[1]' }),
    );
    const extra = new ManualDice({ dice: [1, 2, 3] });
    extra.roll(2, 6);
    expect(() => extra.assertAllUsed()).toThrow(
      expect.objectContaining({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[2]' }),
    );
    expect(() => new ManualDice({ rerollFaces: [1.5] }).roll(1, 6, 'reroll')).toThrow(
      expect.objectContaining({ field: 'rerollFaces[0]' }),
    );
  });

  it('manual dice: a draw after the first pool that finds its field short is a DiceShortfall naming what it needs (docs/rulings.md C13)', () => {
    const later = new ManualDice({ dice: [1, 2] });
    later.roll(2, 6);
    expect(() => later.roll(3, 8)).toThrow(
      expect.objectContaining({
        name: 'DiceShortfall',
        code: 'DICE_MANUAL_FACES_MISSING',
        field: 'dice[2]',
        need: { field: 'dice', kind: 'pool', count: 3, sides: 8 },
      }),
    );
    expect(() => new ManualDice({ followUpFaces: [3] }).roll(2, 6, 'followUp')).toThrow(
      expect.objectContaining({
        name: 'DiceShortfall',
        need: expect.objectContaining({ field: 'followUpFaces', count: 1 }),
      }),
    );
    expect(() => new ManualDice({ dice: [1] }).roll(2, 6)).toThrow(
      expect.not.objectContaining({ name: 'DiceShortfall' }),
    );
    const held = new ManualDice({ dice: [1, 2, 3], followUpFaces: [4] });
    held.roll(1, 6);
    expect(held.handOver()).toEqual({ dice: [1, 2, 3], followUpFaces: [4] });
    expect(() => held.assertAllUsed()).not.toThrow();
  });
});
