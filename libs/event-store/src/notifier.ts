export interface Poll {
  intervalMs: number;
  /** True when the log may have grown outside this process; errors are ignored (the next tick retries). */
  changed(): boolean | Promise<boolean>;
}

/** Wakes subscribers when the log may have grown: on local commit, on NOTIFY, or by a slow poll. */
export class CommitNotifier {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private isClosed = false;

  constructor(private readonly poll?: Poll) {}

  get closed(): boolean {
    return this.isClosed;
  }

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.poll && !this.timer && !this.isClosed) this.startPolling(this.poll);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopPolling();
    };
  }

  notify(): void {
    for (const listener of [...this.listeners]) listener();
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
