/**
 * Which commandIds a fight has seen, for idempotency, in a few bytes per command
 * (a cached fight must stay small however long it runs). Keys are 30-bit hashes, so
 * V8 stores them unboxed; a hit is confirmed against the log, which also settles a
 * collision (then the command is simply new).
 */
export class CommandIndex {
  private readonly first = new Map<number, number>();

  add(commandId: string, seq: number): void {
    const key = hash30(commandId);
    if (!this.first.has(key)) this.first.set(key, seq);
  }

  firstSeq(commandId: string): number | undefined {
    return this.first.get(hash30(commandId));
  }
}

/** FNV-1a over UTF-16 code units, folded to 30 bits (a V8 small integer). */
function hash30(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 2) & 0x3fffffff;
}
