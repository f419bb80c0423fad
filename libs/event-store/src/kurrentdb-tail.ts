import type { AllStreamSubscription } from '@kurrent/kurrentdb-client';

const RESUBSCRIBE_MS = 1000;

/**
 * One live subscription to the end of `$all` per store, used only as a wake-up: subscribers read
 * the log themselves from their own checkpoint (subscription.ts), so an event seen here twice, or
 * missed while resubscribing, costs a read, never a gap. While it is down the store's polling
 * keeps readers going.
 */
export class KurrentTail {
  private subscription: AllStreamSubscription | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly subscribe: () => AllStreamSubscription,
    private readonly onEvent: () => void,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    if (this.subscription || this.retry || this.stopped) return;
    let subscription: AllStreamSubscription;
    try {
      subscription = this.subscribe();
    } catch (error) {
      this.onError(error as Error);
      return this.later();
    }
    this.subscription = subscription;
    // Appends that landed before the server confirmed the subscription: readers look once.
    subscription.on('confirmation', () => this.onEvent());
    subscription.on('data', () => this.onEvent());
    subscription.on('error', (error: Error) => this.lost(subscription, error));
    subscription.on('end', () => this.lost(subscription));
    subscription.on('close', () => this.lost(subscription));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.unsubscribe().catch(() => undefined);
  }

  private lost(subscription: AllStreamSubscription, error?: Error): void {
    if (subscription !== this.subscription) return;
    this.subscription = undefined;
    if (error) this.onError(error);
    subscription.unsubscribe().catch(() => undefined);
    this.later();
  }

  private later(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start();
    }, RESUBSCRIBE_MS);
    this.retry.unref();
  }
}
