import { hmac, type _HMAC } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { DiceSource, Roll } from './roll';

export interface SeededDiceOptions {
  /** Secret seed, hex (fair mode) or any string given by the caller (seeded mode). */
  seed: string;
  fightId: string;
  /**
   * C14: what takes the fight id's place in the derivation (seeded mode, recorded in
   * FightStarted); absent, the fight id is used, so the same seed alone reproduces one fight's faces.
   */
  drawKey?: string;
  clientSeed?: string;
  /** Number of draws already used in this fight; the next draw is `drawsUsed + 1`. */
  drawsUsed: number;
}

type Keyed = _HMAC<ReturnType<typeof sha256.create>>;

/**
 * HMAC-SHA256(seed, `drawKey:clientSeed:` + `n:k`) (drawKey: the fight id unless given, C14), computed from a keyed state that has
 * already absorbed the key pads and the fixed prefix: each block then costs a state copy, the
 * few suffix bytes and the final compressions, not a new key schedule and a new UTF-8 encoding.
 */
class DrawHasher {
  private readonly keyed: Keyed;
  private scratch: Keyed | undefined;
  private readonly suffix = new Uint8Array(48);
  readonly out = new Uint8Array(32);

  constructor(opts: Omit<SeededDiceOptions, 'drawsUsed'>) {
    this.keyed = hmac.create(sha256, seedKey(opts.seed)) as Keyed;
    this.keyed.update(utf8.encode(`${drawKeyOf(opts)}:${opts.clientSeed ?? ''}:`));
  }

  /** Fills `out` with the bytes of block `block` of draw `draw`. */
  block(draw: number, block: number): Uint8Array {
    const h = (this.scratch = this.keyed._cloneInto(this.scratch));
    h.update(this.encodeSuffix(`${draw}:${block}`));
    h.digestInto(this.out);
    return this.out;
  }

  /** The suffix is digits and ':' (ASCII); anything else falls back to the UTF-8 encoder. */
  private encodeSuffix(text: string): Uint8Array {
    if (text.length > this.suffix.length) return utf8.encode(text);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return utf8.encode(text);
      this.suffix[i] = c;
    }
    return this.suffix.subarray(0, text.length);
  }
}

function facesFrom(hasher: DrawHasher, draw: number, count: number, sides: number): number[] {
  if (sides < 2 || sides > 256) throw new RangeError(`cannot roll a d${sides}`);
  const limit = 256 - (256 % sides);
  const faces: number[] = [];
  for (let block = 0; faces.length < count; block++) {
    const bytes = hasher.block(draw, block);
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b < limit) faces.push(1 + (b % sides));
      if (faces.length === count) break;
    }
  }
  return faces;
}

/**
 * C2/C5: draw n's bytes are HMAC-SHA256(seed, fightId:clientSeed:n:k)
 * for blocks k = 0, 1, …, with the fight id replaced by the drawKey when one is given (C14); byte b gives face 1 + (b mod s) when
 * b < 256 − (256 mod s), and is skipped otherwise (no modulo bias).
 */
export function facesForDraw(
  opts: Omit<SeededDiceOptions, 'drawsUsed'>,
  draw: number,
  count: number,
  sides: number,
): number[] {
  if (sides < 2 || sides > 256) throw new RangeError(`cannot roll a d${sides}`);
  return facesFrom(new DrawHasher(opts), draw, count, sides);
}

const utf8 = new TextEncoder();

/** C14: the string the derivation starts with: the drawKey when given, else the fight id. */
export function drawKeyOf(opts: { fightId: string; drawKey?: string }): string {
  return opts.drawKey ?? opts.fightId;
}

/** C14: a drawKey is 1–64 characters. */
export const DRAW_KEY_MAX = 64;

export class SeededDice implements DiceSource {
  private used: number;
  private hasher: DrawHasher | undefined;
  constructor(private readonly opts: SeededDiceOptions) {
    this.used = opts.drawsUsed;
  }

  get drawsUsed(): number {
    return this.used;
  }

  roll(count: number, sides: number): Roll {
    const draw = ++this.used;
    if (count <= 0) return { sides, faces: [], draw };
    this.hasher ??= new DrawHasher(this.opts);
    return { sides, faces: facesFrom(this.hasher, draw, count, sides), draw };
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
