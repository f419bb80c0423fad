import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';

/**
 * Passes of `work`, one at a time and at least `spacingMs` apart (from one's start to the next's), each
 * shared by everyone who asked for it meanwhile: however many ask, `work` runs no more often than that.
 * A caller may name something the pass should look at besides (`work` gets what its callers named, each once).
 *
 * A pass never starts in the same turn of the event loop as it was asked for, nor as the one before it
 * ended: everyone asking in one burst, and everyone a pass has just answered who asks again, joins one
 * pass, however long the last one took (a slow pass could otherwise split its callers into groups that
 * take turns, each pass serving half of them).
 */
export class SpacedPasses {
  /** Those waiting for a pass that has not started yet, and what they named. */
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private named = new Set<string>();
  private running = false;
  private startedAt = -Infinity;

  constructor(
    private readonly work: (named: ReadonlySet<string>) => Promise<void>,
    private readonly spacingMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves once a pass that started after this call has finished (rejects with its error). */
  next(name?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (name !== undefined) this.named.add(name);
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        await turn();
        // A timer may wake a little early by this clock (Node times it from the loop's cached time).
        for (let wait; (wait = this.startedAt + this.spacingMs - this.now()) > 0;) await sleep(wait);
        const pass = this.waiting;
        const named = this.named;
        this.waiting = [];
        this.named = new Set();
        this.startedAt = this.now();
        try {
          await this.work(named);
          for (const w of pass) w.resolve();
        } catch (e) {
          for (const w of pass) w.reject(e);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
