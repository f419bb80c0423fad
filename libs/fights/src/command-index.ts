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
  /**
   * Every entry as it was added, (key, first seq) pairs of int32s, in seq order: what snapshots save, the
   * entries since the last one at a time (entriesAfter). A snapshot that saved the whole index cost as much
   * as the fight's whole history, every 250 events: quadratic in the fight's length.
   */
  private log = new Int32Array(16);
  /** How many int32s of `log` are entries. */
  private used = 0;
  /** A command's events arrive one after another with its id: they are one entry. */
  private last?: string;

  add(commandId: string, seq: number): void {
    if (commandId === this.last) return;
    this.last = commandId;
    this.put(commandKey(commandId), seq);
  }

  /** How many entries it holds (one per command): its share of a cached fight's size. */
  get size(): number {
    return this.used >> 1;
  }

  /** The id of the last command added, if any (its next events are the same entry). */
  get lastCommand(): string | null {
    return this.last ?? null;
  }

  /**
   * The entries of the commands whose first event is past `seq`, in the order they were added, as
   * little-endian int32 pairs (key, first seq) in base64: one part of a fight snapshot
   * (snapshots/fight-snapshot.ts), saved once and never rewritten, so a snapshot costs what happened since
   * the last one however long the fight has run. A cold load decodes it in a fraction of the time a JSON
   * array of numbers takes.
   */
  entriesAfter(seq: number): string {
    // Entries are added in seq order: the first past `seq`, found from the end (a part is recent).
    let start = this.used;
    while (start > 0 && this.log[start - 1] > seq) start -= 2;
    const words = this.log.subarray(start, this.used);
    let bytes: Buffer;
    if (LITTLE_ENDIAN) bytes = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
    else {
      bytes = Buffer.alloc(4 * words.length);
      words.forEach((w, i) => bytes.writeInt32LE(w, 4 * i));
    }
    return bytes.toString('base64');
  }

  /**
   * The index of the parts `entriesAfter` gave, one after another from the fight's start, cut at `upTo`
   * (a part may reach past the snapshot it is read with), its last command `last`; undefined when a part is
   * not such entries or holds a seq outside its range (a corrupt snapshot).
   */
  static fromParts(
    parts: ReadonlyArray<{ fromSeq: number; toSeq: number; entries: string }>,
    last: string | null,
    upTo: number,
  ): CommandIndex | undefined {
    const index = new CommandIndex();
    for (const { fromSeq, toSeq, entries } of parts) {
      const buf = Buffer.from(entries, 'base64');
      if (buf.length % 8 !== 0 || buf.toString('base64') !== entries) return undefined;
      const w = int32sOf(buf);
      for (let i = 0; i < w.length; i += 2) {
        const [key, seq] = [w[i], w[i + 1]];
        if (key < 0 || key > KEY_MASK || seq <= fromSeq || seq > toSeq) return undefined;
        if (seq <= upTo) index.put(key, seq);
      }
    }
    index.last = last ?? undefined;
    return index;
  }

  /** The first seq of every command whose id may be `commandId`, oldest first; empty: certainly new. */
  candidates(commandId: string): readonly number[] {
    const seen = this.first.get(commandKey(commandId));
    return seen === undefined ? [] : typeof seen === 'number' ? [seen] : seen;
  }

  private put(key: number, seq: number): void {
    const seen = this.first.get(key);
    if (seen === undefined) this.first.set(key, seq);
    else if (typeof seen === 'number') this.first.set(key, [seen, seq]);
    else seen.push(seq);
    if (this.used + 2 > this.log.length) {
      const grown = new Int32Array(this.log.length * 2);
      grown.set(this.log);
      this.log = grown;
    }
    this.log[this.used++] = key;
    this.log[this.used++] = seq;
  }
}

/** Keys are 30 bits. */
const KEY_MASK = 0x3fffffff;

const LITTLE_ENDIAN = endianness() === 'LE';

/** Little-endian int32s: a copied typed array on a little-endian host (fast), read one by one elsewhere. */
function int32sOf(buf: Buffer): Int32Array {
  const words = new Int32Array(buf.length / 4);
  if (LITTLE_ENDIAN) new Uint8Array(words.buffer).set(buf);
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
  return (h >>> 2) & KEY_MASK;
}
