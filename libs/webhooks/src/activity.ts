import { WebhookStore } from './store/types';

/** Whose read side this is (the fights lib's ReadSideOwner, of which only this much is needed here). */
export interface ReadSideOwnership {
  readonly owned: boolean;
  readonly onChange: Set<(owned: boolean) => void>;
}

/** An instance that owns the read side for good: the one process of an embedded store, and tests. */
export const ALWAYS_OWNED: ReadSideOwnership = { owned: true, onChange: new Set() };

export interface WebhookActivityOptions {
  /**
   * Endpoints may be created or deleted by other instances (a shared PostgreSQL store): while the log moves,
   * `heard` looks again at most this often. Unset: only this instance changes them (SQLite).
   */
  recheckMs?: number;
  clock?: () => number;
  onError?: (e: unknown) => void;
}

/**
 * Whether the webhook outbox and the dispatcher's poll run on this instance (docs/webhooks.md "Idle without
 * endpoints"): while it owns the read side and some endpoint exists. Without one, nothing reads the log for
 * webhooks, claims deliveries or polls. The outbox's checkpoint stays where it stopped, so when the first
 * endpoint comes it reads on from there and misses nothing: what it then queues is what it would have queued
 * running all along (an endpoint takes the events committed after its creation).
 */
export class WebhookActivity {
  /** Called with the new value each time `active` changes. */
  readonly onChange = new Set<(active: boolean) => void>();
  private endpoints = false;
  private lastLook = Number.NEGATIVE_INFINITY;
  private looking?: Promise<void>;
  private again = false;
  private wasActive = false;
  private stopped = false;
  private later?: NodeJS.Timeout;
  /** An instance that wins the read side looks afresh: endpoints came and went elsewhere while it did not own it. */
  private readonly onOwnerChange = (owned: boolean) => (owned ? void this.refresh() : this.emit());

  constructor(
    private readonly store: WebhookStore,
    private readonly owner: ReadSideOwnership = ALWAYS_OWNED,
    private readonly options: WebhookActivityOptions = {},
  ) {}

  get active(): boolean {
    return !this.stopped && this.owner.owned && this.endpoints;
  }

  /** Looks whether endpoints exist, then follows the ownership. */
  async start(): Promise<void> {
    this.stopped = false;
    this.owner.onChange.add(this.onOwnerChange);
    await this.refresh();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.later);
    this.later = undefined;
    this.owner.onChange.delete(this.onOwnerChange);
    this.emit();
  }

  /**
   * Looks again whether any endpoint exists (after this instance created or deleted one). Looks that
   * overlap share one; one asked during a look makes another after it.
   */
  refresh(): Promise<void> {
    if (this.looking) {
      this.again = true;
      return this.looking;
    }
    this.looking = (async () => {
      try {
        do {
          this.again = false;
          this.lastLook = this.now();
          this.endpoints = await this.store.hasEndpoints();
          this.emit();
        } while (this.again && !this.stopped);
      } catch (e) {
        this.options.onError?.(e);
      } finally {
        this.looking = undefined;
      }
    })();
    return this.looking;
  }

  /**
   * The log moved: where other instances manage endpoints too, a look now and then, at most every
   * `recheckMs` (one held back goes out when that time is up, so the last event of a burst is not left waiting).
   */
  heard(): void {
    const every = this.options.recheckMs;
    if (every === undefined || this.stopped || !this.owner.owned || this.later) return;
    const wait = this.lastLook + every - this.now();
    if (wait <= 0) {
      void this.refresh();
      return;
    }
    this.later = setTimeout(() => {
      this.later = undefined;
      if (!this.stopped) void this.refresh();
    }, wait);
    this.later.unref();
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private emit(): void {
    const active = this.active;
    if (active === this.wasActive) return;
    this.wasActive = active;
    for (const listener of this.onChange) listener(active);
  }
}
