import { FightCache, FightViewResult, LoadedFight, viewResult } from '../fight-cache';
import { FightReads } from '../fight-reads';
import { FightFeed } from './fight-feed';
import { LiveFightStream } from './live-stream';

/** A fight's events and views as they happen (SSE, GraphQL subscriptions, the overlay). */
export class LiveViews {
  /**
   * The view of each folded fight, computed once and handed to every view subscriber of that fight: a
   * change folds a new fight object, so it keys its view, and the same object lets the GraphQL layer
   * execute and serialise it once per selection and audience (as it does for the events all share).
   */
  private readonly views = new WeakMap<LoadedFight, FightViewResult>();

  constructor(
    private readonly cache: FightCache,
    private readonly feed: FightFeed,
    private readonly reads: FightReads,
  ) {}

  /** Every event after `after`, then live; see LiveFightStream. */
  async watch(fightId: string, after = 0): Promise<LiveFightStream> {
    await this.cache.load(fightId);
    return new LiveFightStream(
      after,
      (from) => this.reads.events(fightId, from),
      (deliver) => this.feed.on(fightId, deliver),
    );
  }

  /** The view now, then after each change (bursts coalesce into their last view). */
  async watchViews(fightId: string): Promise<AsyncIterableIterator<FightViewResult>> {
    const now = await this.reads.view(fightId);
    const events = await this.watch(fightId, now.seq);
    let first: FightViewResult | undefined = now;
    let lastSeq = now.seq;
    const iterator: AsyncIterableIterator<FightViewResult> = {
      next: async () => {
        if (first) {
          const value = first;
          first = undefined;
          return { value, done: false };
        }
        for (;;) {
          const r = await events.next();
          if (r.done) return { value: undefined, done: true };
          const view = await this.viewAtLeast(fightId, r.value.seq);
          if (view.seq <= lastSeq) continue;
          lastSeq = view.seq;
          return { value: view, done: false };
        }
      },
      return: async () => {
        await events.return();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  private async viewAtLeast(fightId: string, seq: number): Promise<FightViewResult> {
    const cached = this.cache.get(fightId);
    return this.viewOf(cached && cached.seq >= seq ? cached : await this.cache.refresh(fightId));
  }

  private viewOf(fight: LoadedFight): FightViewResult {
    let view = this.views.get(fight);
    if (!view) this.views.set(fight, (view = viewResult(fight)));
    return view;
  }
}
