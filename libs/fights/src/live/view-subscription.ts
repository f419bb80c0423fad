import { FightViewResult } from '../fight-cache';

/** Push-mode consumer of a ViewSubscription. */
export interface ViewObserver {
  next(view: FightViewResult): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * One subscriber of a fight's shared view (shared-view.ts): the latest view it has not taken yet, so a
 * slow reader skips to the last. Read it by `next()` or, with no promise per change, by `observe()`.
 */
export class ViewSubscription implements AsyncIterableIterator<FightViewResult> {
  private pending?: FightViewResult;
  private waiter?: { resolve: (r: IteratorResult<FightViewResult>) => void; reject: (e: unknown) => void };
  private observer?: ViewObserver;
  private failure?: { error: unknown };
  private closed = false;

  constructor(
    first: FightViewResult,
    private readonly leave: (s: ViewSubscription) => void,
  ) {
    this.pending = first;
  }

  push(view: FightViewResult): void {
    if (this.closed || this.failure) return;
    if (this.observer) return this.observer.next(view);
    const w = this.waiter;
    this.waiter = undefined;
    if (w) w.resolve({ value: view, done: false });
    else this.pending = view;
  }

  fail(error: unknown): void {
    if (this.closed || this.failure) return;
    this.failure = { error };
    this.waiter?.reject(error);
    this.waiter = undefined;
    this.observer?.error(error);
  }

  observe(observer: ViewObserver): void {
    this.observer = observer;
    const first = this.pending;
    this.pending = undefined;
    if (first) observer.next(first);
    if (this.failure) observer.error(this.failure.error);
    else if (this.closed) observer.complete();
  }

  next(): Promise<IteratorResult<FightViewResult>> {
    const view = this.pending;
    this.pending = undefined;
    if (view) return Promise.resolve({ value: view, done: false });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<FightViewResult>> {
    if (!this.closed) {
      const observer = this.failure ? undefined : this.observer;
      this.closed = true;
      this.pending = undefined;
      this.leave(this);
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
