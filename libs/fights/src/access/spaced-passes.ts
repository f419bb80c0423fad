import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Passes of `work`, one at a time and at least `spacingMs` apart (from one's start to the next's), each
 * shared by everyone who asked for it meanwhile: however many ask, `work` runs no more often than that.
 * A caller may name something the pass should look at besides (`work` gets what its callers named, each once).
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
        const wait = this.startedAt + this.spacingMs - this.now();
        if (wait > 0) await sleep(wait);
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
