import { EventStore } from '@app/event-store';
import { FightCore, findSystem, RuleSystem } from '@app/rules';
import { evolveState, FightEvent, foldFight, fightStream, toFightEvent } from '@app/fight-log';

interface Folded {
  seq: number;
  system: RuleSystem<FightCore>;
  state: FightCore;
}

const CACHE_LIMIT = 1000;

/** The fight view right after each event: folded forward from a cache, from the stream when the cache cannot serve. */
export class FightViewFolder {
  private readonly cache = new Map<string, Folded>();

  constructor(private readonly store: EventStore) {}

  /** Undefined when the fight cannot be folded (unknown system, a rule system error): the payload then carries no view. */
  async viewAfter(e: FightEvent): Promise<Record<string, unknown> | undefined> {
    try {
      const cached = this.cache.get(e.fightId);
      const next =
        cached && cached.seq === e.seq - 1 ? evolveState(cached.system, cached.state, e) : undefined;
      let folded: Folded;
      if (cached && next) {
        folded = { seq: e.seq, system: cached.system, state: next };
      } else {
        // Not the next event of the cached fold, or an undo: folded from the log's start up to this
        // event (libs/fight-log), as the projections do.
        const events = (await this.store.readStream(fightStream(e.fightId), { limit: e.seq })).map(
          toFightEvent,
        );
        const system = findSystem(String(events[0]?.data.system));
        if (!system || events.length !== e.seq) return undefined;
        folded = { seq: e.seq, system, state: foldFight(system, e.fightId, events) };
      }
      this.cache.delete(e.fightId);
      this.cache.set(e.fightId, folded);
      if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      return { ...folded.system.view(folded.state), seq: e.seq, headHash: e.hash };
    } catch {
      this.cache.delete(e.fightId);
      return undefined;
    }
  }
}
