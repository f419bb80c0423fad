import { FightEvent } from '@app/fight-log';

/** Push-mode consumer of a LiveFightStream: called synchronously, in seq order. */
export interface LiveObserver {
  next(e: FightEvent): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * One subscriber's view of a fight: every event after `after`, in seq order, with
 * no gap and no repeat. Live events are registered before the catch-up read, held
 * while it runs, and de-duplicated by seq; a gap triggers a re-read from the store.
 * An explicit iterator (not an async generator) so `return()` frees it at once.
 * Read it either by `next()` or, with no promise per event, by `observe()`.
 */
export class LiveFightStream implements AsyncIterableIterator<FightEvent> {
  private readonly ready: FightEvent[] = [];
  private held: FightEvent[] = [];
  private waiter?: { resolve: (r: IteratorResult<FightEvent>) => void; reject: (e: unknown) => void };
  private observer?: LiveObserver;
  private repairing = false;
  private closed = false;
  /** Set once the source failed, with what it failed with. */
  private failure: { error: unknown } | undefined;
  private off?: () => void;

  constructor(
    private last: number,
    private readonly read: (after: number) => Promise<FightEvent[]>,
    listen: (deliver: (e: FightEvent) => void) => () => void,
  ) {
    this.off = listen((e) => this.deliver(e));
    this.repair();
  }

  get lastSeq(): number {
    return this.last;
  }

  private deliver(e: FightEvent): void {
    if (this.closed || e.seq <= this.last) return;
    if (this.repairing) return void this.held.push(e);
    if (e.seq > this.last + 1) {
      this.held.push(e);
      return this.repair();
    }
    this.last = e.seq;
    if (this.observer) this.observer.next(e);
    else if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: e, done: false });
    } else this.ready.push(e);
  }

  private repair(): void {
    this.repairing = true;
    this.read(this.last).then(
      (events) => {
        this.repairing = false;
        const held = this.held;
        this.held = [];
        for (const e of [...events, ...held.sort((a, b) => a.seq - b.seq)]) this.deliver(e);
      },
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    this.failure = { error };
    this.off?.();
    if (this.waiter) this.waiter.reject(error);
    this.waiter = undefined;
    if (!this.closed) this.observer?.error(error);
  }

  /** Hands every event, those already queued first, to `observer` instead of `next()`; `return()` completes it. */
  observe(observer: LiveObserver): void {
    this.observer = observer;
    for (const e of this.ready.splice(0)) observer.next(e);
    if (this.failure) observer.error(this.failure.error);
    else if (this.closed) observer.complete();
  }

  next(): Promise<IteratorResult<FightEvent>> {
    const e = this.ready.shift();
    if (e) return Promise.resolve({ value: e, done: false });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<FightEvent>> {
    const observer = this.closed ? undefined : this.observer;
    this.closed = true;
    this.off?.();
    this.ready.length = 0;
    this.waiter?.resolve({ value: undefined, done: true });
    this.waiter = undefined;
    observer?.complete();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
