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

  /** The index as plain JSON data, for a fight snapshot (snapshots/fight-snapshot.ts). */
  toData(): CommandIndexData {
    const pairs: Array<number | number[]> = [];
    for (const [key, seq] of this.first) pairs.push(key, typeof seq === 'number' ? seq : [...seq]);
    return { pairs, last: this.last ?? null };
  }

  /** The index `toData` gave; undefined when `data` is not such an index (a corrupt snapshot). */
  static fromData(data: unknown): CommandIndex | undefined {
    const { pairs, last } = (data ?? {}) as Partial<CommandIndexData>;
    if (!Array.isArray(pairs) || pairs.length % 2 !== 0) return undefined;
    if (last !== null && typeof last !== 'string') return undefined;
    const index = new CommandIndex();
    for (let i = 0; i < pairs.length; i += 2) {
      const [key, seq] = [pairs[i], pairs[i + 1]];
      if (!isSeq(key) || !(isSeq(seq) || (Array.isArray(seq) && seq.length > 1 && seq.every(isSeq))))
        return undefined;
      index.first.set(key, typeof seq === 'number' ? seq : [...seq]);
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

/** A CommandIndex as JSON: key, seq (or seqs, on a collision), key, seq…; and the id of the last command added. */
export interface CommandIndexData {
  pairs: Array<number | number[]>;
  last: string | null;
}

const isSeq = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** FNV-1a over UTF-16 code units, folded to 30 bits (a V8 small integer). */
export function commandKey(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 2) & 0x3fffffff;
}
