import { CoalescedRun } from '../coalesced-run';
import { FightCache, FightViewResult, viewResult } from '../fight-cache';
import { LiveFightStream } from './live-stream';
import { ViewSubscription } from './view-subscription';

/**
 * The view of one fight for all of this instance's view subscribers: read once when the first one
 * subscribes and once per change after (a burst coalesces into its last view), on one event stream, and
 * handed to every subscriber as the same object. The GraphQL layer keys its executed and serialised
 * payloads by that object, so N subscribers of one audience cost one read and one execution per change,
 * not N. It ends when its last subscriber leaves, or once the fight has ended: its subscribers get the
 * view after `FightEnded`, then the end (nothing can follow it).
 */
export class SharedView {
  private readonly subscribers = new Set<ViewSubscription>();
  private readonly updates = new CoalescedRun(
    () => this.update(),
    (e) => this.fail(e),
  );
  private readonly started: Promise<void>;
  private current!: FightViewResult;
  private events?: LiveFightStream;
  /** The highest seq heard of: the view is brought at least that far. */
  private wanted = 0;
  /** Subscribers waiting for the first read: the view does not end under them. */
  private joining = 0;
  private ended = false;
  /** The fight has ended: its event stream is over (LiveFightStream), and so is this view once it has caught up. */
  private over = false;
  private failure?: { error: unknown };

  constructor(
    private readonly fightId: string,
    private readonly cache: FightCache,
    open: (after: number) => Promise<LiveFightStream>,
    private readonly onEnd: () => void,
  ) {
    this.started = this.start(open);
  }

  /** A new subscriber: the view now, then after each change. */
  async join(): Promise<ViewSubscription> {
    this.joining++;
    try {
      await this.started;
    } finally {
      this.joining--;
    }
    if (this.failure) throw this.failure.error;
    if (this.over) {
      // The fight has ended: the view now, and nothing after it.
      const done = new ViewSubscription(this.current, () => undefined);
      done.end();
      return done;
    }
    const s = new ViewSubscription(this.current, (left) => this.leave(left));
    this.subscribers.add(s);
    return s;
  }

  private async start(open: (after: number) => Promise<LiveFightStream>): Promise<void> {
    try {
      this.current = viewResult(await this.cache.refresh(this.fightId));
      this.wanted = this.current.seq;
      this.events = await open(this.current.seq);
      this.events.observe({
        next: (e) => {
          this.wanted = Math.max(this.wanted, e.seq);
          this.updates.kick();
        },
        error: (e) => this.fail(e),
        complete: () => {
          this.over = true;
          this.updates.kick();
        },
      });
    } catch (e) {
      this.fail(e);
    }
  }

  private async update(): Promise<void> {
    const cached = this.cache.get(this.fightId);
    const fight = cached && cached.seq >= this.wanted ? cached : await this.cache.refresh(this.fightId);
    if (this.ended) return;
    if (fight.seq > this.current.seq) {
      this.current = viewResult(fight);
      for (const s of this.subscribers) s.push(this.current);
    }
    if (this.over && this.current.seq >= this.wanted) this.close();
  }

  /** The fight has ended and every subscriber has its last view pushed: each reads it, then the end. */
  private close(): void {
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    this.end();
    for (const s of subscribers) s.end();
  }

  private leave(s: ViewSubscription): void {
    this.subscribers.delete(s);
    if (this.subscribers.size === 0 && this.joining === 0) this.end();
  }

  private fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    this.end();
    for (const s of subscribers) s.fail(error);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    void this.updates.close();
    void this.events?.return();
    this.onEnd();
  }
}
