import { FightEvent } from '@app/fight-log';

type Listener = (e: FightEvent) => void;

/**
 * Fans fight events out to this process's subscribers. It is fed from the store's
 * global log (so events written by any instance arrive) and, for lower latency,
 * by this instance's own appends. An event arrives by both paths; only the first
 * copy goes out. A seq at or below one already published cannot be news to a
 * listener that was there then (it has it, or saw the gap and re-reads the store)
 * nor to a later one (its catch-up read finds it in the store).
 */
export class FightFeed {
  private readonly fights = new Map<string, { listeners: Set<Listener>; published: number }>();

  publish(e: FightEvent): void {
    const fight = this.fights.get(e.fightId);
    if (!fight || e.seq <= fight.published) return;
    fight.published = e.seq;
    for (const l of fight.listeners) l(e);
  }

  on(fightId: string, listener: Listener): () => void {
    let fight = this.fights.get(fightId);
    if (!fight) this.fights.set(fightId, (fight = { listeners: new Set(), published: 0 }));
    const { listeners } = fight;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.fights.get(fightId) === fight) this.fights.delete(fightId);
    };
  }

  /** Whether some listener here follows this fight and has not been given its events up to `seq`. */
  publishedBefore(fightId: string, seq: number): boolean {
    const fight = this.fights.get(fightId);
    return fight !== undefined && fight.published < seq;
  }

  /** The fights some listener here follows. */
  watched(): IterableIterator<string> {
    return this.fights.keys();
  }

  get subscribers(): number {
    let n = 0;
    for (const fight of this.fights.values()) n += fight.listeners.size;
    return n;
  }
}
