/**
 * The event-store port (see docs/event-store.md): append with an expected revision,
 * read a stream, read the global log from an opaque checkpoint, subscribe.
 * Stream revisions are 0-based here; the fight layer exposes `seq = revision + 1`.
 */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface NewEvent {
  /** UUID; re-appending identical ids returns the first result and writes nothing. */
  id: string;
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  stream: string;
  /** 0-based position in its stream. */
  revision: bigint;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  /** Opaque, engine-specific position in the global log: pass it back as `after`. */
  checkpoint: string;
  /** ISO time the engine stored the event. */
  storedAt: string;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: bigint;
  /** Global checkpoints of the appended events, in order. */
  checkpoints: string[];
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

/** The same event id was appended before with different content or to another place. */
export class DuplicateEventId extends Error {
  constructor(readonly eventId: string) {
    super(`event id ${eventId} already stored with different content`);
    this.name = 'DuplicateEventId';
  }
}

export interface ReadStreamOptions {
  /** The first revision to read; absent = from the start. */
  from?: bigint;
  /** At most this many events (a positive integer); absent = to the end of the stream. */
  limit?: number;
}

export interface ReadAllOptions {
  /** Checkpoint of the last event already seen; absent = from the start. */
  after?: string;
  limit?: number;
}

/** What `readPrefixed` read: a few small streams and the point of the log they were read at. */
export interface PrefixedRead {
  /** In global order: every event up to `head` whose stream's name starts with one of the prefixes. */
  events: StoredEvent[];
  /** The log's head at the moment of the read (absent: the log was empty). Following the log `after` it misses nothing and repeats nothing. */
  head?: string;
}

export interface PrefixedReadOptions {
  /** Only events strictly after this checkpoint (a head an earlier read returned): what came since. */
  after?: string;
}

export interface SubscribeOptions {
  after?: string;
  /** Optional filter applied on the read side (e.g. one stream prefix). */
  filter?: (e: StoredEvent) => boolean;
  signal?: AbortSignal;
  /**
   * Which events the subscriber can do without. A hint: a store that can (PostgreSQL) then neither wakes
   * for their commits nor reads them; the others deliver every event.
   */
  interest?: SubscriptionInterest;
}

/**
 * The events a subscriber needs, asked afresh at each wake-up and each read, so it may change while the
 * subscription runs. Only streams named with `prefix` can be left out, and only while `selective()`.
 * Every event of the other streams and of those in `always()` is delivered, in order, once. So is every
 * event of a stream `wants` accepts (asked with the stream's revision) when a wake-up names it or a read
 * passes over it, however late or lost the wake-up. A stream the subscriber comes to need later must be
 * read by it from the store once (its own catch-up): events of it committed while it was not needed may
 * have been passed over.
 */
export interface SubscriptionInterest {
  readonly prefix: string;
  /** False: every event is needed now. */
  selective(): boolean;
  /** Whether a commit to this stream (named with the prefix) up to `revision` (when known) is worth a read. */
  wants(stream: string, revision?: bigint): boolean;
  /** Streams named with the prefix whose events every read must bring, whether or not a commit named them. */
  always(): Iterable<string>;
  /** Called before an event that may not follow the one delivered before it without a gap (events were passed over). */
  passedOver(): void;
}

export interface EventStore {
  readonly engine: 'memory' | 'sqlite' | 'postgres' | 'kurrentdb';
  append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /** One stream's events in revision order, from `from`, at most `limit`: a page costs its own length, not the stream's. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Events strictly after `after`, in global order, at most `limit`. */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /**
   * The streams whose names start with one of `prefixes`, and the head of the log at the same
   * moment: so a process folds its small streams (access) at boot without reading the whole log,
   * then follows the log from `head`.
   */
  readPrefixed(prefixes: readonly string[], options?: PrefixedReadOptions): Promise<PrefixedRead>;
  /** Catch-up then live, with no gap or repeat at the switch; ends when `signal` aborts. */
  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent>;
  /** Current revision of a stream, or undefined if it does not exist. */
  streamRevision(stream: string): Promise<bigint | undefined>;
  /**
   * The checkpoint of the log's last event (undefined: the log is empty). Every event committed before
   * the call is at or before it, and a reader of the global log reaches it (on PostgreSQL once the
   * transactions older than it have ended), so a reader that is there has read every such event.
   */
  head(): Promise<string | undefined>;
  /** Orders two checkpoints of this log: negative when `a` comes first, 0 for the same position. */
  compareCheckpoints(a: string, b: string): number;
  close(): Promise<void>;
}
