/**
 * Runs `work` one at a time: a kick while it runs asks for exactly one more run after
 * it, so bursts of commits share a pass. `delayMs` lets a burst gather first.
 */
export class CoalescedRun {
  private running = false;
  private again = false;
  private closed = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly onError: (e: unknown) => void,
    private readonly delayMs = 0,
  ) {}

  get busy(): boolean {
    return this.running;
  }

  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.current = (async () => {
      try {
        do {
          this.again = false;
          if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
          await this.work();
        } while (this.again && !this.closed);
      } catch (e) {
        this.onError(e);
      } finally {
        this.running = false;
      }
    })();
  }

  /** No more passes; resolves once the pass in hand (if any) has finished. */
  close(): Promise<void> {
    this.closed = true;
    return this.current;
  }
}
