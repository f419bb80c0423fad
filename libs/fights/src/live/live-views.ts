import { FightCache, FightViewResult } from '../fight-cache';
import { FightReads } from '../fight-reads';
import { FightFeed } from './fight-feed';
import { LiveFightStream } from './live-stream';
import { SharedView } from './shared-view';

/** A fight's events and views as they happen (SSE, GraphQL subscriptions, the overlay). */
export class LiveViews {
  /** The view each watched fight shares among its subscribers (shared-view.ts). */
  private readonly views = new Map<string, SharedView>();

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
      (from, limit) => this.reads.events(fightId, from, limit),
      (deliver) => this.feed.on(fightId, deliver),
    );
  }

  /** The view now, then after each change (bursts coalesce into their last view). */
  watchViews(fightId: string): Promise<AsyncIterableIterator<FightViewResult>> {
    let view = this.views.get(fightId);
    if (!view) {
      const created = new SharedView(
        fightId,
        this.cache,
        (after) => this.watch(fightId, after),
        () => this.views.get(fightId) === created && this.views.delete(fightId),
      );
      this.views.set(fightId, (view = created));
    }
    return view.join();
  }
}
