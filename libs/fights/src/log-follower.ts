import { EventStore, StoredEvent, SubscriptionInterest } from '@app/event-store';
import { TailPage } from './log-tail';

/** Events handed on in one page at most, so a long catch-up reaches the consumers as it goes. */
const PAGE = 500;

/**
 * Follows the global log from where the caller's own read of it stopped, so events other instances write
 * reach this one; after a failure it takes up again from the last event delivered. This is the one tail
 * read of the instance (docs/event-store.md "One tail read"): what it reads goes to the cache event by
 * event, then, page by page, to every `onPage` listener (the projections, the webhook outbox). Delivery
 * waits for the turn of the event loop after the read, so a commit's response leaves first and the events
 * of a burst go together.
 *
 * With an `interest`, a store that can (PostgreSQL) passes over the events this instance does not need
 * (docs/event-store.md "Selective follow"); a page that follows such a gap says so (`partial`).
 */
export class LogFollower {
  private readonly stopping = new AbortController();
  private pending: StoredEvent[] = [];
  private pendingAfter: string | undefined;
  private flushing?: NodeJS.Immediate;
  /** Where the last delivered event stands. */
  private delivered: string | undefined;
  /** The store passed over events since the last one delivered: the next page does not follow on. */
  private gap = false;
  private pendingPartial = false;

  constructor(
    private readonly store: EventStore,
    private readonly deliver: (e: StoredEvent) => void,
    private readonly onPage: ReadonlySet<(page: TailPage) => void> = new Set(),
    private readonly interest?: Omit<SubscriptionInterest, 'passedOver'>,
  ) {}

  start(after: string | undefined): void {
    this.delivered = after;
    void this.follow(after);
  }

  stop(): void {
    this.stopping.abort();
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    this.pending = [];
  }

  private async follow(after: string | undefined): Promise<void> {
    try {
      const interest = this.interest;
      const live = this.store.subscribeAll({
        after,
        signal: this.stopping.signal,
        ...(interest && {
          interest: {
            prefix: interest.prefix,
            selective: () => interest.selective(),
            wants: (stream, revision) => interest.wants(stream, revision),
            always: () => interest.always(),
            passedOver: () => this.passedOver(),
          },
        }),
      });
      for await (const e of live) this.take(e);
    } catch {
      if (!this.stopping.signal.aborted) {
        this.flush();
        setTimeout(() => void this.follow(this.delivered), 1000).unref();
      }
    }
  }

  /** Before an event that may follow a gap: the events before it that follow on without one go as a page of their own. */
  private passedOver(): void {
    if (!this.pendingPartial) this.flush();
    this.gap = true;
  }

  private take(e: StoredEvent): void {
    if (this.pending.length === 0) {
      this.pendingAfter = this.delivered;
      this.pendingPartial = this.gap;
      this.gap = false;
    } else if (this.pendingPartial) this.gap = false;
    this.pending.push(e);
    this.delivered = e.checkpoint;
    if (this.pending.length >= PAGE) this.flush();
    else this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending.length === 0 || this.stopping.signal.aborted) return;
    const page: TailPage = {
      after: this.pendingAfter,
      events: this.pending,
      ...(this.pendingPartial && { partial: true }),
    };
    this.pending = [];
    // A listener that throws must not cost the others their events (nor the process its life: this runs on its own turn).
    for (const e of page.events) guard(() => this.deliver(e));
    for (const listener of this.onPage) guard(() => listener(page));
  }
}

function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // The listener's own business; the log goes on.
  }
}
