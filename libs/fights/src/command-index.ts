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

  /** The first seq of every command whose id may be `commandId`, oldest first; empty: certainly new. */
  candidates(commandId: string): readonly number[] {
    const seen = this.first.get(commandKey(commandId));
    return seen === undefined ? [] : typeof seen === 'number' ? [seen] : seen;
  }
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
