import { seqOutOfRange } from '../errors';
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

  /**
   * Every event after `after`, then live, until `FightEnded`; see LiveFightStream. An `after` past the fight's last seq (read
   * on from the store: another instance may have written since) names no event this fight has had: 422
   * SEQ_OUT_OF_RANGE naming `field` (what the client called it), as `?minSeq=` past it is, rather than a
   * stream that stays silent until the fight catches up with it.
   */
  async watch(fightId: string, after = 0, field = 'after'): Promise<LiveFightStream> {
    let fight = await this.cache.load(fightId);
    if (after > fight.seq) {
      fight = await this.cache.refresh(fightId);
      if (after > fight.seq) throw seqOutOfRange(fight.seq, field);
    }
    return new LiveFightStream(
      after,
      (from, limit) => this.reads.events(fightId, from, limit),
      (deliver) => this.feed.on(fightId, deliver),
      undefined,
      // The fight has ended and `after` is its last event (FightEnded): nothing will follow.
      fight.state.status === 'ended' && after >= fight.seq,
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
