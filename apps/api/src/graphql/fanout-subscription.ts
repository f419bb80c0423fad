import { ExecutionResult } from 'graphql';
import type { PushObserver } from '@app/fights';
import { FrameBatcher } from './frame-batcher';
import { PayloadJson, PayloadRenderer } from './shared-payloads';

/** Its `busy` is the connection's backlog: a catch-up waits while its unsent frames pile up (FrameBatcher.backlog). */
type Observer = PushObserver<unknown>;

/** A source that can push (LiveFightStream) instead of being pulled one promise per event. */
interface Observable {
  observe(observer: Observer): void;
}

type Source = AsyncIterator<unknown> & Partial<Observable>;

/**
 * One graphql-ws subscription whose `next` messages are written here rather than by graphql-ws: each
 * payload's shared JSON is framed with this subscription's id and queued on its connection, with no
 * promise and no execution of its own. graphql-ws sees an iterator that yields nothing, ends when the
 * source ends (it then sends `complete`, or `error` if the source failed) and that it `return()`s when
 * the client completes or goes away. Frames already queued are flushed before it ends, so `complete`
 * or `error` never overtakes them.
 */
export class FanoutSubscription implements AsyncGenerator<ExecutionResult, void, void> {
  private readonly prefix: string;
  private readonly ended: Promise<IteratorResult<ExecutionResult, void>>;
  private settle!: {
    resolve: (r: IteratorResult<ExecutionResult, void>) => void;
    reject: (e: unknown) => void;
  };
  private started = false;
  private done = false;
  /** Payloads whose JSON a resolver made asynchronous keep their order through this chain. */
  private order: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly source: Source,
    id: string,
    private readonly frames: FrameBatcher,
    private readonly payloads: PayloadRenderer,
  ) {
    this.prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
    this.ended = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  /** graphql-ws calls it once the subscription is registered: only then do frames start. */
  next(): Promise<IteratorResult<ExecutionResult, void>> {
    if (!this.started) {
      this.started = true;
      const observer: Observer = {
        next: (p) => this.deliver(p),
        error: (error) => this.end({ error }),
        complete: () => this.end(),
        busy: () => this.frames.backlog(),
      };
      if (typeof this.source.observe === 'function') this.source.observe(observer);
      else this.pull(observer);
    }
    return this.ended;
  }

  return(): Promise<IteratorResult<ExecutionResult, void>> {
    if (!this.done) {
      this.done = true;
      this.payloads.leave();
      this.settle.resolve({ value: undefined, done: true });
    }
    void this.source.return?.();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<ExecutionResult, void>> {
    return this.return();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private deliver(payload: unknown): void {
    if (this.done) return;
    let json: PayloadJson;
    try {
      json = this.payloads.render(payload);
    } catch (error) {
      return this.end({ error });
    }
    if (typeof json === 'string' && this.pending === 0) return this.frames.send(this.prefix + json + '}');
    this.pending++;
    this.order = this.order
      .then(() => json)
      .then(
        (j) => {
          this.pending--;
          if (!this.done) this.frames.send(this.prefix + j + '}');
        },
        (error: unknown) => {
          this.pending--;
          this.end({ error });
        },
      );
  }

  /** Drives a source that can only be pulled (the fight view's) into the same observer. */
  private pull(observer: Observer): void {
    void this.source.next().then(
      (r) => {
        if (r.done) return observer.complete();
        observer.next(r.value);
        if (!this.done) this.pull(observer);
      },
      (error: unknown) => observer.error(error),
    );
  }

  private end(failure?: { error: unknown }): void {
    if (this.done) return;
    if (this.pending > 0) return void this.order.then(() => this.end(failure));
    this.done = true;
    this.payloads.leave();
    this.frames.flush();
    if (failure) this.settle.reject(failure.error);
    else this.settle.resolve({ value: undefined, done: true });
  }
}
