import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { DiceSource, Roll } from './roll';

export interface SeededDiceOptions {
  /** Secret seed, hex (fair mode) or any string given by the caller (seeded mode). */
  seed: string;
  fightId: string;
  clientSeed?: string;
  /** Number of draws already used in this fight; the next draw is `drawsUsed + 1`. */
  drawsUsed: number;
}

/**
 * RULINGS.md C2/C5: draw n's bytes are HMAC-SHA256(seed, fightId:clientSeed:n:k)
 * for blocks k = 0, 1, …; byte b gives face 1 + (b mod s) when
 * b < 256 − (256 mod s), and is skipped otherwise (no modulo bias).
 */
export function facesForDraw(opts: Omit<SeededDiceOptions, 'drawsUsed'>, draw: number, count: number, sides: number): number[] {
  if (sides < 2 || sides > 256) throw new RangeError(`cannot roll a d${sides}`);
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

export class SeededDice implements DiceSource {
  private used: number;
  constructor(private readonly opts: SeededDiceOptions) {
    this.used = opts.drawsUsed;
  }

  get drawsUsed(): number {
    return this.used;
  }

  roll(count: number, sides: number): Roll {
    const draw = ++this.used;
    return { sides, faces: count > 0 ? facesForDraw(this.opts, draw, count, sides) : [], draw };
  }
}

/** A 64-hex-digit seed is used as its 32 bytes; any other seed as its UTF-8 bytes. */
export function seedKey(seed: string): Uint8Array {
  if (/^[0-9a-f]{64}$/i.test(seed)) {
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = parseInt(seed.slice(i * 2, i * 2 + 2), 16);
    return out;
  }
  return utf8.encode(seed);
}

/** The commitment published in FightStarted: sha256 of the seed's key bytes, hex. */
export function seedCommitment(seed: string): string {
  return toHex(sha256(seedKey(seed)));
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
