import { endianness } from 'node:os';

/**
 * Which commandIds a fight has seen, for idempotency, in a few bytes per command
 * (a cached fight must stay small however long it runs). Keys are 30-bit hashes, so
 * V8 stores them unboxed, and a miss is certain: the id is new. A hit only names the
 * commands that share the key; the caller confirms the full id against the log
 * (FightService.replay), so two ids that collide are still two commands.
 */
export class CommandIndex {
  /** key → the first seq of the one command with that key, or of each command that shares it (a collision). */
  private readonly first = new Map<number, number | number[]>();
  /** A command's events arrive one after another with its id: they are one entry. */
  private last?: string;

  add(commandId: string, seq: number): void {
    if (commandId === this.last) return;
    this.last = commandId;
    const key = commandKey(commandId);
    const seen = this.first.get(key);
    if (seen === undefined) this.first.set(key, seq);
    else if (typeof seen === 'number') this.first.set(key, [seen, seq]);
    else seen.push(seq);
  }

  /** How many keys it holds (about one per command): its share of a cached fight's size. */
  get size(): number {
    return this.first.size;
  }

  /**
   * The index as JSON data, for a fight snapshot (snapshots/fight-snapshot.ts): its entries in order as
   * little-endian int32s in base64 (key, seq; or key | SHARED, count, seqs… for a collision), which a cold
   * load decodes in a fraction of the time a JSON array of numbers takes.
   */
  toData(): CommandIndexData {
    let n = 0;
    for (const seq of this.first.values()) n += typeof seq === 'number' ? 2 : 2 + seq.length;
    const buf = Buffer.alloc(4 * n);
    let at = 0;
    const put = (v: number) => (at = buf.writeInt32LE(v, at));
    for (const [key, seq] of this.first) {
      if (typeof seq === 'number') {
        put(key);
        put(seq);
      } else {
        put(key | SHARED);
        put(seq.length);
        for (const s of seq) put(s);
      }
    }
    return { entries: buf.toString('base64'), last: this.last ?? null };
  }

  /** The index `toData` gave; undefined when `data` is not such an index (a corrupt snapshot). */
  static fromData(data: unknown): CommandIndex | undefined {
    const { entries, last } = (data ?? {}) as Partial<CommandIndexData>;
    if (typeof entries !== 'string' || (last !== null && typeof last !== 'string')) return undefined;
    const buf = Buffer.from(entries, 'base64');
    if (buf.length % 4 !== 0) return undefined;
    const w = int32sOf(buf);
    const index = new CommandIndex();
    for (let i = 0; i < w.length;) {
      if (i + 2 > w.length) return undefined;
      const key = w[i++];
      const next = w[i++];
      if (key < 0 || next < 0) return undefined;
      if ((key & SHARED) === 0) {
        index.first.set(key, next);
        continue;
      }
      if (next < 2 || i + next > w.length) return undefined;
      const seqs = Array.from(w.subarray(i, (i += next)));
      if (seqs.some((s) => s < 0)) return undefined;
      index.first.set(key & ~SHARED, seqs);
    }
    index.last = last ?? undefined;
    return index;
  }

  /** The first seq of every command whose id may be `commandId`, oldest first; empty: certainly new. */
  candidates(commandId: string): readonly number[] {
    const seen = this.first.get(commandKey(commandId));
    return seen === undefined ? [] : typeof seen === 'number' ? [seen] : seen;
  }
}

/** A CommandIndex as JSON: its entries (CommandIndex.toData) and the id of the last command added. */
export interface CommandIndexData {
  entries: string;
  last: string | null;
}

/** Keys are 30 bits: bit 30 marks an entry of several seqs in the encoded index. */
const SHARED = 0x40000000;

/** Little-endian int32s: a copied typed array on a little-endian host (fast), read one by one elsewhere. */
function int32sOf(buf: Buffer): Int32Array {
  const words = new Int32Array(buf.length / 4);
  if (endianness() === 'LE') new Uint8Array(words.buffer).set(buf);
  else for (let i = 0; i < words.length; i++) words[i] = buf.readInt32LE(4 * i);
  return words;
}

/** FNV-1a over UTF-16 code units, folded to 30 bits (a V8 small integer). */
export function commandKey(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 2) & 0x3fffffff;
}
