import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoalescedRun } from '@app/fights';
import { WebhookStore } from './store/types';

const DAY_MS = 86_400_000;

export interface PruneSchedule {
  /** The first pass, once the boot has settled. */
  firstAfterMs: number;
  everyMs: number;
  /** Deliveries deleted per transaction: a large backlog goes in many short write locks, not one long one. */
  batchSize: number;
}

export const DEFAULT_PRUNE_SCHEDULE: PruneSchedule = {
  firstAfterMs: 60_000,
  everyMs: 3_600_000,
  batchSize: 500,
};

/**
 * Retention of the delivery log (WEBHOOK_RETENTION_DAYS): deletes finished deliveries, with their
 * attempts, once they finished longer ago than the retention. Pending deliveries stay whatever their
 * age, so nothing is lost and the per-fight ordering (which only looks at pending ones) never changes.
 * Every instance runs one: a pass is conditional deletes, so concurrent passes only share the work.
 */
export class WebhookPruner {
  /** Called with the number deleted after each batch that deleted some. */
  readonly onPruned = new Set<(count: number) => void>();
  private readonly passes = new CoalescedRun(
    () => this.prune(),
    (e) => this.onError(e),
  );
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly retentionDays: number,
    private readonly clock: () => number = Date.now,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly schedule: PruneSchedule = DEFAULT_PRUNE_SCHEDULE,
  ) {}

  start(): void {
    if (this.retentionDays === 0 || this.closed) return;
    this.timers.push(
      setTimeout(() => this.kick(), this.schedule.firstAfterMs),
      setInterval(() => this.kick(), this.schedule.everyMs),
    );
    for (const t of this.timers) t.unref();
  }

  /** No more passes; waits for the batch in hand. */
  async stop(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    await this.passes.close();
  }

  kick(): void {
    if (!this.closed) this.passes.kick();
  }

  /** One pass: batches until one comes back short (or the pruner stops); returns how many deliveries it deleted. */
  async prune(): Promise<number> {
    if (this.retentionDays === 0) return 0;
    const before = this.clock() - this.retentionDays * DAY_MS;
    let total = 0;
    while (!this.closed) {
      const count = await this.store.pruneFinished(before, this.schedule.batchSize);
      total += count;
      if (count > 0) for (const listener of this.onPruned) listener(count);
      if (count < this.schedule.batchSize) break;
      // Lets the dispatcher's and the outbox's writes in between two batches.
      await nextTurn();
    }
    return total;
  }
}
