/** What the batcher needs of a `ws` WebSocket. */
export interface TextSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string): void;
}

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
