/** What the batcher needs of a `ws` WebSocket. */
export interface TextSocket {
  readonly readyState: number;
  readonly OPEN: number;
  /** Bytes sent and not yet handed to the network: what the client has not read. */
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code: number, reason: string): void;
}

/** Unsent bytes at which a subscription's catch-up of history waits before it reads on. */
export const CATCH_UP_HIGH_WATER = 1024 * 1024;
/**
 * Unsent bytes past which a connection is closed, 1013 (Try Again Later): a client that does not read
 * what it subscribed to would otherwise hold every frame since in this process. It reconnects with the
 * last seq it saw (fightEvents' `after`) and misses nothing.
 */
export const SLOW_CONSUMER_LIMIT = 16 * 1024 * 1024;
/** How often a waiting catch-up looks at the connection's unsent bytes again. */
const BACKLOG_CHECK_MS = 20;

/** …and of the TCP socket under it (the upgraded request's `socket`). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * The text frames for one WebSocket connection, queued while a command's events fan out and written
 * together once they have: corked, so a subscriber gets the events of one command in one write.
 * A write is a system call that costs more than the rest of a delivery; one per event per subscriber
 * was where most of the fan-out time went.
 */
export class FrameBatcher {
  private queue: string[] = [];
  /** What catch-ups wait on while the connection's unsent frames are past CATCH_UP_HIGH_WATER. */
  private drained?: Promise<void>;

  constructor(
    private readonly ws: TextSocket,
    private readonly tcp: Corkable,
    private readonly schedule: (batcher: FrameBatcher) => void,
  ) {}

  send(frame: string): void {
    if (this.queue.push(frame) === 1) this.schedule(this);
  }

  flush(): void {
    const frames = this.queue;
    if (frames.length === 0) return;
    this.queue = [];
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.tcp.cork();
    try {
      for (const frame of frames) this.ws.send(frame);
    } finally {
      this.tcp.uncork();
    }
    if (this.ws.bufferedAmount > SLOW_CONSUMER_LIMIT)
      this.ws.close(1013, `slow consumer: more than ${SLOW_CONSUMER_LIMIT} bytes unsent`);
  }

  /**
   * While the client has CATCH_UP_HIGH_WATER bytes or more left to read, a promise that resolves once
   * it has fewer (or the connection has gone); else undefined. One wait per connection, however many
   * subscriptions share it.
   */
  backlog(): Promise<void> | undefined {
    if (!this.backlogged()) return undefined;
    return (this.drained ??= new Promise((resolve) => {
      const look = () => {
        if (this.backlogged()) return void setTimeout(look, BACKLOG_CHECK_MS).unref();
        this.drained = undefined;
        resolve();
      };
      setTimeout(look, BACKLOG_CHECK_MS).unref();
    }));
  }

  private backlogged(): boolean {
    return this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount >= CATCH_UP_HIGH_WATER;
  }
}

/** Flushes every batcher that got a frame, once, after the code that queued them has run. */
export class FlushQueue {
  private dirty: FrameBatcher[] = [];

  readonly add = (batcher: FrameBatcher): void => {
    if (this.dirty.push(batcher) === 1) queueMicrotask(this.run);
  };

  private readonly run = (): void => {
    const dirty = this.dirty;
    this.dirty = [];
    for (const batcher of dirty) {
      try {
        batcher.flush();
      } catch {
        // Only a connection already going away can refuse a frame; graphql-ws closes it. The others still get theirs.
      }
    }
  };
}
