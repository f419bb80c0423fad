import { EventStore, StoredEvent } from '@app/event-store';

/** A run of the global log the follower read: the events right after `after`, in order. */
export interface TailPage {
  after: string | undefined;
  events: readonly StoredEvent[];
  /** Events were passed over before or between these (a selective follow): they do not follow `after` without a gap. */
  partial?: boolean;
}

/** Events a reader keeps at most; older ones are dropped and read from the store again if asked for. */
const KEEP = 20_000;

/**
 * How a checkpointed consumer of the global log (the projections, the webhook outbox) reads it: from the
 * pages the log follower already read and handed it (one tail read for all, docs/event-store.md "One tail
 * read"), from the store for anything those pages do not hold. The pages come from the follower's own
 * subscription, so on PostgreSQL they obey the same horizon and hold no event out of order. Each consumer
 * keeps its own checkpoint: it asks for the events after it, and gets what the store would give.
 */
export class TailReader {
  /** Contiguous: `events` follow `start` in the log, with nothing between them. */
  private start: string | undefined;
  private events: StoredEvent[] = [];
  private held = false;

  constructor(
    private readonly store: EventStore,
    private readonly keep = KEEP,
  ) {}

  /** Keeps a page; one that does not follow the last one replaces what is held; a partial one empties it. */
  offer(page: TailPage): void {
    if (page.partial) return this.clear();
    if (page.events.length === 0) return;
    const end = this.held ? (this.events[this.events.length - 1]?.checkpoint ?? this.start) : undefined;
    if (!this.held || end !== page.after) {
      this.start = page.after;
      this.events = [];
      this.held = true;
    }
    this.events.push(...page.events);
    if (this.events.length > this.keep) this.trim(this.events.length - this.keep);
  }

  /** Forgets every page (a consumer that stops listening for a while). */
  clear(): void {
    this.held = false;
    this.start = undefined;
    this.events = [];
  }

  /** Events strictly after `after`, at most `limit`: from the held pages when they reach `after`, else from the store. */
  async readAll(after: string | undefined, limit: number): Promise<StoredEvent[]> {
    const from = this.indexAfter(after);
    if (from !== undefined && from < this.events.length) {
      // What comes before `after` is read: this consumer no longer needs it.
      this.trim(from);
      return this.events.slice(0, limit);
    }
    return this.store.readAll({ after, limit });
  }

  /** Where the events after `after` start in `events`, or undefined when the held pages do not reach it. */
  private indexAfter(after: string | undefined): number | undefined {
    if (!this.held) return undefined;
    if (after === this.start) return 0;
    if (after === undefined) return undefined;
    // Usually the first few: a consumer reads on from where its last read ended.
    const i = this.events.findIndex((e) => e.checkpoint === after);
    return i < 0 ? undefined : i + 1;
  }

  private trim(count: number): void {
    if (count <= 0) return;
    this.start = this.events[count - 1].checkpoint;
    this.events = this.events.slice(count);
  }
}
