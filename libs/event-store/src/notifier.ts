export interface Poll {
  intervalMs: number;
  /** True when the log may have grown outside this process; errors are ignored (the next tick retries). */
  changed(): boolean | Promise<boolean>;
}

/**
 * A wake-up: the streams a commit wrote, each with the revision of its last event, when known (a
 * subscriber that needs none of them may sleep on); undefined when not (a poll, a commit that did not say).
 */
export type CommitListener = (streams?: ReadonlyMap<string, bigint>) => void;

/** Wakes subscribers when the log may have grown: on local commit, on NOTIFY, or by a slow poll. */
export class CommitNotifier {
  private readonly listeners = new Set<CommitListener>();
  private timer: NodeJS.Timeout | undefined;
  private isClosed = false;

  constructor(private readonly poll?: Poll) {}

  get closed(): boolean {
    return this.isClosed;
  }

  listen(listener: CommitListener): () => void {
    this.listeners.add(listener);
    if (this.poll && !this.timer && !this.isClosed) this.startPolling(this.poll);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopPolling();
    };
  }

  notify(streams?: ReadonlyMap<string, bigint>): void {
    for (const listener of [...this.listeners]) listener(streams);
  }

  close(): void {
    this.isClosed = true;
    this.stopPolling();
    this.notify();
  }

  private startPolling(poll: Poll): void {
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      Promise.resolve()
        .then(() => poll.changed())
        .then(
          (changed) => changed && this.notify(),
          () => undefined,
        )
        .finally(() => (busy = false));
    }, poll.intervalMs);
    // A subscriber waiting on a poll must not keep the process alive on its own.
    this.timer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
