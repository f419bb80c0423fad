/** Push-mode consumer of a PushIterator: called synchronously, in order. */
export interface PushObserver<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
  /**
   * Backpressure: while what the observer writes to is full, a promise that resolves once it can take
   * more (else undefined). A source that reads ahead (a catch-up of history) waits on it before reading
   * on; values as they happen are never held back.
   */
  busy?(): Promise<void> | undefined;
}

/**
 * An async iterator its source pushes into, read either by `next()` or, with no promise per value, by
 * `observe()`. An explicit iterator (not an async generator), so `return()` frees it at once. What it holds
 * for a reader that is not waiting is the subclass's choice: every value (live-stream.ts) or only the
 * latest (view-subscription.ts). After `fail()` the reader gets the error once its queue is read; after
 * `finish()` (the source has nothing more to give: the fight has ended) it gets what is held, then the end;
 * after `return()` it gets nothing more, and an observer is completed unless it already had an error.
 */
export abstract class PushIterator<T> implements AsyncIterableIterator<T> {
  protected closed = false;
  /** Set once the source has said it has nothing more (finish): what is held is still read. */
  protected finished = false;
  /** Set once the source failed, with what it failed with. */
  protected failure: { error: unknown } | undefined;
  private observer?: PushObserver<T>;
  private waiter?: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void };

  /** The oldest value held, removed; undefined when none is. */
  protected abstract take(): T | undefined;
  /** Holds a value no reader was waiting for. */
  protected abstract hold(value: T): void;
  /** Drops what is held and lets go of the source; called once, by the first `return()`. */
  protected abstract release(): void;

  /** A value from the source: to the observer, to a waiting `next()`, or held. */
  protected emit(value: T): void {
    if (this.observer) return this.observer.next(value);
    const w = this.waiter;
    this.waiter = undefined;
    if (w) w.resolve({ value, done: false });
    else this.hold(value);
  }

  /**
   * The source has nothing more to give: a reader gets what is held, then the end (a waiting `next()` at
   * once, as nothing is held while one waits); an observer, which has had everything, is completed.
   */
  protected finish(): void {
    if (this.finished || this.closed || this.failure) return;
    this.finished = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.resolve({ value: undefined, done: true });
    this.observer?.complete();
  }

  /** Whether the observer, if any, asks the source to wait before reading ahead (PushObserver.busy). */
  protected observerBusy(): Promise<void> | undefined {
    return this.observer?.busy?.();
  }

  /** The source failed: a waiting `next()` and the observer hear of it, later reads after what is held. */
  protected fail(error: unknown): void {
    if (this.failure || this.finished) return;
    this.failure = { error };
    this.waiter?.reject(error);
    this.waiter = undefined;
    if (!this.closed) this.observer?.error(error);
  }

  /** Hands every value, those already held first, to `observer` instead of `next()`; `return()` completes it. */
  observe(observer: PushObserver<T>): void {
    this.observer = observer;
    for (let value = this.take(); value !== undefined; value = this.take()) observer.next(value);
    if (this.failure) observer.error(this.failure.error);
    else if (this.closed || this.finished) observer.complete();
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.take();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.closed || this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.closed) {
      const observer = this.failure || this.finished ? undefined : this.observer;
      this.closed = true;
      this.release();
      this.waiter?.resolve({ value: undefined, done: true });
      this.waiter = undefined;
      observer?.complete();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
