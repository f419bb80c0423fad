import type { PreparedEvent } from './append-rules';
import type { AppendResult, ExpectedRevision } from './port';

export interface PendingAppend {
  stream: string;
  events: PreparedEvent[];
  expected: ExpectedRevision;
  // The promise's own settle functions, handed on bare to `then`.
  resolve(this: void, result: AppendResult): void;
  reject(this: void, error: unknown): void;
}

/** Bounds one statement's arrays; a batch still takes at least one append, however large. */
const MAX_BATCH_EVENTS = 2000;

/**
 * Group commit (docs/event-store.md): appends queued while a batch is in flight go together in the
 * next one, a single statement and transaction. A batch holds at most one append per stream and
 * one use of each event id, so its appends cannot collide with each other; the rest wait, in
 * arrival order, for the next batch. A stream's next append waits until the one before it has
 * its answer, even when that one left its batch to be retried alone.
 */
export class GroupCommit {
  private queue: PendingAppend[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Streams with an append taken and not yet answered. */
  private readonly busy = new Set<string>();

  constructor(
    private readonly commit: (batch: PendingAppend[]) => Promise<void>,
    private readonly maxInFlight: number,
  ) {}

  add(pending: PendingAppend): void {
    this.queue.push(pending);
    this.schedule();
  }

  /** After the current tick, so appends arriving together, and writers resuming after a batch, share one. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
        const batch = this.take();
        if (batch.length === 0) return;
        this.start(batch);
      }
    });
  }

  private start(batch: PendingAppend[]): void {
    this.inFlight++;
    this.commit(batch)
      .catch((error: unknown) => batch.forEach((p) => p.reject(error)))
      .finally(() => {
        this.inFlight--;
        this.schedule();
      });
  }

  private take(): PendingAppend[] {
    const batch: PendingAppend[] = [];
    const rest: PendingAppend[] = [];
    const streams = new Set<string>();
    const ids = new Set<string>();
    let events = 0;
    for (const p of this.queue) {
      const fits = batch.length === 0 || events + p.events.length <= MAX_BATCH_EVENTS;
      if (!fits || streams.has(p.stream) || this.busy.has(p.stream) || p.events.some((e) => ids.has(e.id))) {
        // A stream's later appends never overtake one left waiting.
        streams.add(p.stream);
        rest.push(p);
        continue;
      }
      batch.push(this.answered(p));
      streams.add(p.stream);
      for (const e of p.events) ids.add(e.id);
      events += p.events.length;
    }
    this.queue = rest;
    return batch;
  }

  private answered(p: PendingAppend): PendingAppend {
    this.busy.add(p.stream);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      this.busy.delete(p.stream);
      this.schedule();
    };
    return {
      ...p,
      resolve: (result) => {
        settle();
        p.resolve(result);
      },
      reject: (error) => {
        settle();
        p.reject(error);
      },
    };
  }
}
