import { GraphQLError } from 'graphql';
import type { PushObserver as Observer } from '@app/fights';
import type { ApiError } from '../common/api-error';

type Source<T> = AsyncIterator<T> & { observe?(observer: Observer<T>): void };

/**
 * A subscription's source that can be ended from outside with an error (its token expired or was
 * revoked): FanoutSubscription passes a source's failure on, so graphql-ws ends the operation with an
 * `error` message whose extensions carry the error's code. Push sources stay push (observe), pulled
 * ones pulled (next).
 */
export class EndableStream<T> implements AsyncIterableIterator<T> {
  readonly observe?: (observer: Observer<T>) => void;
  private observer?: Observer<T>;
  private failure?: GraphQLError;
  private rejectNext?: (error: unknown) => void;

  constructor(
    private readonly source: Source<T>,
    private readonly onEnd: () => void,
  ) {
    if (typeof source.observe === 'function') this.observe = (observer) => this.observeSource(observer);
  }

  /** Ends the stream now with `why`, in the one error shape. */
  fail(why: ApiError): void {
    if (this.failure) return;
    this.failure = new GraphQLError(why.message, { extensions: { ...why } });
    this.onEnd();
    void this.source.return?.();
    this.observer?.error(this.failure);
    this.rejectNext?.(this.failure);
    this.rejectNext = undefined;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.rejectNext = reject;
      this.source.next().then(
        (r) => {
          this.rejectNext = undefined;
          if (r.done) this.onEnd();
          resolve(r);
        },
        (error: unknown) => {
          this.rejectNext = undefined;
          reject(error);
        },
      );
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.onEnd();
    return this.source.return?.() ?? Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private observeSource(observer: Observer<T>): void {
    this.observer = observer;
    if (this.failure) return observer.error(this.failure);
    this.source.observe!({
      next: (value) => !this.failure && observer.next(value),
      error: (error) => !this.failure && observer.error(error),
      // The source has ended (the fight has: FightEnded), so the credential is watched no more.
      complete: () => {
        if (this.failure) return;
        this.onEnd();
        observer.complete();
      },
      busy: () => observer.busy?.(),
    });
  }
}
