import { FightEvent } from '../fight-event';

type Listener = (e: FightEvent) => void;

/**
 * Fans fight events out to this process's subscribers. It is fed from the store's
 * global log (so events written by any instance arrive) and, for lower latency,
 * by this instance's own appends; subscribers drop repeats by seq.
 */
export class FightFeed {
  private readonly listeners = new Map<string, Set<Listener>>();

  publish(e: FightEvent): void {
    const set = this.listeners.get(e.fightId);
    if (set) for (const l of set) l(e);
  }

  on(fightId: string, listener: Listener): () => void {
    let set = this.listeners.get(fightId);
    if (!set) this.listeners.set(fightId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(fightId) === set) this.listeners.delete(fightId);
    };
  }

  get subscribers(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
