import { EventStore, StoredEvent } from '@app/event-store';

/**
 * Follows the global log from where the caller's own read of it stopped, so events other instances write
 * reach this one; after a failure it takes up again from the last event delivered.
 */
export class LogFollower {
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: EventStore,
    private readonly deliver: (e: StoredEvent) => void,
  ) {}

  start(after: string | undefined): void {
    void this.follow(after);
  }

  stop(): void {
    this.stopping.abort();
  }

  private async follow(after: string | undefined): Promise<void> {
    try {
      const live = this.store.subscribeAll({ after, signal: this.stopping.signal });
      for await (const e of live) {
        this.deliver(e);
        after = e.checkpoint;
      }
    } catch {
      if (!this.stopping.signal.aborted) setTimeout(() => void this.follow(after), 1000).unref();
    }
  }
}
