import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SeededDice, seedKey } from '@app/rules';

/** seeded.ts as it was before the keyed-state change: a new key schedule and UTF-8 encoding per block. */
function legacyFaces(
  opts: { seed: string; fightId: string; clientSeed?: string },
  draw: number,
  count: number,
  sides: number,
): number[] {
  const key = seedKey(opts.seed);
  const limit = 256 - (256 % sides);
  const faces: number[] = [];
  for (let block = 0; faces.length < count; block++) {
    const bytes = hmac(sha256, key, utf8.encode(`${opts.fightId}:${opts.clientSeed ?? ''}:${draw}:${block}`));
    for (const b of bytes) {
      if (b < limit) faces.push(1 + (b % sides));
      if (faces.length === count) break;
    }
  }
  return faces;
}
const utf8 = new TextEncoder();

export interface DiceFigures {
  legacyDrawsPerSec: number;
  drawsPerSec: number;
  speedup: number;
  /** A new SeededDice per command, as FightService does: the key state is built once per command. */
  firstDrawPerSec: number;
  identical: boolean;
}

/** Draws of 3d6 (a typical pool) per second, before and after, and a check that the faces are identical. */
export function benchDice(ms = 600): DiceFigures {
  const opts = { seed: 'b'.repeat(64), fightId: '3f1c2a9e-1111-4222-8333-444455556666', clientSeed: 'bench' };
  const rate = (fn: (i: number) => unknown): number => {
    for (let i = 0; i < 20000; i++) fn(i);
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) for (let k = 0; k < 1000; k++) fn(n++);
    return (n / (performance.now() - t0)) * 1000;
  };
  const dice = new SeededDice({ ...opts, drawsUsed: 0 });
  const drawsPerSec = rate(() => dice.roll(3, 6));
  const legacyDrawsPerSec = rate((i) => legacyFaces(opts, i + 1, 3, 6));
  const firstDrawPerSec = rate((i) => new SeededDice({ ...opts, drawsUsed: i }).roll(3, 6));
  const check = new SeededDice({ ...opts, drawsUsed: 0 });
  let identical = true;
  for (let i = 1; i <= 2000 && identical; i++)
    identical =
      JSON.stringify(check.roll(1 + (i % 40), [2, 6, 12, 20, 100][i % 5]).faces) ===
      JSON.stringify(legacyFaces(opts, i, 1 + (i % 40), [2, 6, 12, 20, 100][i % 5]));
  return {
    legacyDrawsPerSec,
    drawsPerSec,
    speedup: drawsPerSec / legacyDrawsPerSec,
    firstDrawPerSec,
    identical,
  };
}
