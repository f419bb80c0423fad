import type {
  JSONEventData,
  KurrentDBClient,
  ReadStreamOptions,
  RegexFilter,
} from '@kurrent/kurrentdb-client';
import { checkExpectedRevision, prepareEvents, replayedResult, type PreparedEvent } from './append-rules';
import { EventIdClaims, type HeldClaim } from './kurrentdb-claims';
import {
  comparePositions,
  decodeCheckpoint,
  encodeCheckpoint,
  isStreamNotFound,
  isWrongExpectedVersion,
  toStreamState,
  toWrongExpectedRevision,
  type LogPosition,
} from './kurrentdb-codec';
import { KurrentNames } from './kurrentdb-names';
import { KurrentTail } from './kurrentdb-tail';
import { describeError, kurrentTarget, type KurrentTarget } from './kurrentdb-url';
import { CommitNotifier } from './notifier';
import { parseLimit } from './position';
import { scanPrefixed } from './prefixed';
import { subscribeToLog } from './subscription';
import {
  DuplicateEventId,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type PrefixedRead,
  type PrefixedReadOptions,
  type ReadAllOptions,
  type ReadStreamOptions as StreamReadOptions,
  type StoredEvent,
  type SubscribeOptions,
} from './port';

/** Each retry follows another append's success, so this only bounds a pathological race (postgres.ts allows as many). */
const MAX_ANY_ATTEMPTS = 100;

export interface KurrentEventStoreOptions {
  /** `kurrentdb://`, `kurrentdb+discover://`, `esdb://` or `esdb+discover://`, with the client's options. */
  url: string;
  /** Prefix of every stream of this store; empty (the default) keeps stream names as they are. */
  namespace?: string;
  /** Fallback for wake-ups the live subscription cannot give (while it reconnects). */
  pollIntervalMs?: number;
  /** Errors of the live subscription, which the store survives. */
  onError?: (error: Error) => void;
}

/** A recorded event as both client read paths give it. */
interface Recorded {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  created: Date;
  position?: LogPosition;
}

/**
 * KurrentDB (EventStoreDB) through `@kurrent/kurrentdb-client`. Streams are KurrentDB streams; the
 * global log is `$all` without system streams and claim streams; the checkpoint is an event's
 * `$all` position (kurrentdb-codec.ts). Ids are kept unique by claims (kurrentdb-claims.ts), and
 * checkpoints of new events come from reading them back (an append answers one position).
 * Subscribers read `$all` from their checkpoint whenever a live subscription to its end sees a
 * new event, as the other engines do on their wake-ups (subscription.ts). Needs KurrentDB 22.6+
 * (stream reads carry positions). The client loads on first connect: about 0.2 s and a native
 * addon that processes on the other engines should not pay for.
 */
export class KurrentEventStore implements EventStore {
  readonly engine = 'kurrentdb';
  private readonly commits: CommitNotifier;
  private readonly claims: EventIdClaims;
  private readonly tail: KurrentTail;
  private readonly filter: RegexFilter;

  private constructor(
    private readonly client: KurrentDBClient,
    private readonly names: KurrentNames,
    target: KurrentTarget,
    options: KurrentEventStoreOptions,
  ) {
    const onError =
      options.onError ?? ((error: Error) => console.warn(`event store (kurrentdb): ${error.message}`));
    this.commits = new CommitNotifier({ intervalMs: options.pollIntervalMs ?? 1000, changed: () => true });
    this.claims = new EventIdClaims(client, names);
    this.filter = { filterOn: 'streamName', regex: names.logRegex, checkpointInterval: 1000 };
    this.tail = new KurrentTail(
      () => client.subscribeToAll({ fromPosition: 'end', filter: this.filter }),
      () => this.commits.notify(),
      (error) => onError(new Error(describeError(error, target))),
    );
  }

  /** Connects and reads `$all` once, so a wrong url, an unreachable server or missing rights fail here. */
  static async connect(options: KurrentEventStoreOptions): Promise<KurrentEventStore> {
    const target = kurrentTarget(options.url);
    const names = new KurrentNames(options.namespace);
    const { KurrentDBClient } = await import('@kurrent/kurrentdb-client');
    let client: KurrentDBClient;
    try {
      client = KurrentDBClient.connectionString(target.connectionString);
    } catch (error) {
      // Not rethrown as the cause: the client's parse error carries the whole string, password included.
      // eslint-disable-next-line preserve-caught-error -- describeError says what failed without the password
      throw new Error(`KurrentDB url ${target.display} is invalid: ${describeError(error, target)}`);
    }
    const store = new KurrentEventStore(client, names, target, options);
    try {
      for await (const event of client.readAll({ maxCount: 1 })) void event;
    } catch (error) {
      await store.close();
      // eslint-disable-next-line preserve-caught-error -- as above: the client's error may carry the connection string
      throw new Error(`KurrentDB at ${target.display} did not answer: ${describeError(error, target)}`);
    }
    return store;
  }

  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    this.assertOpen();
    const streamId = this.names.stream(stream);
    const prepared = prepareEvents(events);
    const streamState = toStreamState(options.expectedRevision);
    if (prepared.length === 0) {
      const current = await this.streamRevision(stream);
      checkExpectedRevision(stream, options.expectedRevision, current);
      return { nextRevision: current ?? -1n, checkpoints: [] };
    }
    const claimed = await this.claimAll(stream, prepared);
    if (!Array.isArray(claimed)) return claimed;
    let next: bigint | AppendResult;
    try {
      next =
        streamState === 'any'
          ? await this.appendAny(stream, prepared)
          : (await this.client.appendToStream(streamId, prepared.map(toEventData), { streamState }))
              .nextExpectedRevision;
    } catch (error) {
      // Only a rejection is sure to have written nothing; after a timeout the claims stay for the retry.
      if (!isWrongExpectedVersion(error)) throw error;
      const released = await Promise.all(claimed.map((c) => this.claims.release(c)));
      const replayed = released.every(Boolean) ? undefined : await this.replay(stream, prepared);
      if (replayed) return replayed;
      throw toWrongExpectedRevision(error, stream, options.expectedRevision);
    }
    if (typeof next !== 'bigint') return next;
    this.commits.notify();
    return this.appended(stream, prepared, next);
  }

  async readStream(stream: string, options: StreamReadOptions = {}): Promise<StoredEvent[]> {
    const from = options.from !== undefined && options.from > 0n ? options.from : 'start';
    const limit = parseLimit(options.limit);
    return this.read(stream, limit < 0 ? { fromRevision: from } : { fromRevision: from, maxCount: limit });
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const after = options.after === undefined ? undefined : decodeCheckpoint(options.after);
    const limit = parseLimit(options.limit);
    this.assertOpen();
    const page: StoredEvent[] = [];
    let floor = after;
    for (;;) {
      // KurrentDB may return the event at `fromPosition` itself: one more is asked for, and skipped.
      const maxCount = limit < 0 ? undefined : limit - page.length + 1;
      let read = 0;
      for await (const { event } of this.client.readAll({
        fromPosition: floor ?? 'start',
        maxCount,
        filter: this.filter,
      })) {
        read++;
        if (!event) continue;
        const position = positionOf(event);
        if (floor && comparePositions(position, floor) <= 0) continue;
        floor = position;
        if (!this.names.inLog(event.streamId, event.type)) continue;
        page.push(this.toStored(event));
        if (page.length === limit) return page;
      }
      if (maxCount === undefined || read < maxCount) return page;
    }
  }

  /** The whole log, paged and filtered here: a server-side stream filter is not used yet. */
  readPrefixed(prefixes: readonly string[], options: PrefixedReadOptions = {}): Promise<PrefixedRead> {
    return scanPrefixed(this, prefixes, options);
  }

  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent> {
    if (!this.commits.closed) this.tail.start();
    const readPage = async (after: string | undefined, limit: number) => ({
      events: await this.readAll({ after, limit }),
    });
    return subscribeToLog({ commits: this.commits, readPage }, options);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    const [last] = await this.read(stream, { direction: 'backwards', fromRevision: 'end', maxCount: 1 });
    return last?.revision;
  }

  /** `$all` read backwards to the last event of the log as readAll gives it (not a system or claim stream's). */
  async head(): Promise<string | undefined> {
    this.assertOpen();
    for await (const { event } of this.client.readAll({
      direction: 'backwards',
      fromPosition: 'end',
      filter: this.filter,
    })) {
      if (event && this.names.inLog(event.streamId, event.type)) return encodeCheckpoint(positionOf(event));
    }
    return undefined;
  }

  compareCheckpoints(a: string, b: string): number {
    return comparePositions(decodeCheckpoint(a), decodeCheckpoint(b));
  }

  async close(): Promise<void> {
    if (this.commits.closed) return;
    this.commits.close();
    await this.tail.stop();
    await this.client.dispose();
  }

  /** Claims every id, or settles the append without writing: the first result of a retry, or a DuplicateEventId. */
  private async claimAll(stream: string, prepared: PreparedEvent[]): Promise<HeldClaim[] | AppendResult> {
    let inStream: Promise<Set<string>> | undefined;
    const isStored = (id: string) => async () =>
      (await (inStream ??= this.read(stream, {}).then((es) => new Set(es.map((e) => e.id))))).has(id);
    const settled = await Promise.allSettled(
      prepared.map((p) => this.claims.claim(stream, p, isStored(p.id))),
    );
    const claims = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const held = claims.filter((c): c is HeldClaim => c.kind === 'held');
    if (held.length === prepared.length) return held;
    try {
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      const foreign = claims.find((c) => c.kind === 'foreign');
      if (foreign) throw new DuplicateEventId(foreign.id);
      const replayed = await this.replay(stream, prepared);
      if (replayed) return replayed;
      throw new DuplicateEventId(claims.find((c) => c.kind === 'stored')?.id ?? prepared[0].id);
    } catch (error) {
      // A claim of this append whose event is stored is one another append took over: its release fails.
      await Promise.all(held.map((c) => this.claims.release(c)));
      throw error;
    }
  }

  /**
   * 'any' as the exact revision just read, retried on conflict. With ANY, KurrentDB itself would not
   * stop two appends of the same events that passed their claims together (one took the other's
   * claim over) from both landing; an exact revision does, and each retry first looks for the ids.
   */
  private async appendAny(stream: string, prepared: PreparedEvent[]): Promise<bigint | AppendResult> {
    const ids = new Set(prepared.map((p) => p.id));
    let known: bigint | undefined;
    let seen = await this.read(stream, {});
    for (let attempt = 1; ; attempt++) {
      const replayed = seen.some((e) => ids.has(e.id)) ? await this.replay(stream, prepared) : undefined;
      if (replayed) return replayed;
      known = seen.at(-1)?.revision ?? known;
      try {
        const written = await this.client.appendToStream(
          this.names.stream(stream),
          prepared.map(toEventData),
          { streamState: known ?? 'no_stream' },
        );
        return written.nextExpectedRevision;
      } catch (error) {
        if (!isWrongExpectedVersion(error) || attempt >= MAX_ANY_ATTEMPTS) throw error;
      }
      seen = await this.read(stream, { fromRevision: known === undefined ? 'start' : known + 1n });
    }
  }

  /** The original result when every id is in the stream as appended now; a DuplicateEventId when only some are. */
  private async replay(stream: string, prepared: PreparedEvent[]): Promise<AppendResult | undefined> {
    const ids = new Set(prepared.map((p) => p.id));
    return replayedResult(
      stream,
      prepared,
      (await this.read(stream, {})).filter((e) => ids.has(e.id)),
    );
  }

  /** Checkpoints are positions, which only a read gives (the append answers one position for the whole write). */
  private async appended(stream: string, prepared: PreparedEvent[], next: bigint): Promise<AppendResult> {
    const first = next - BigInt(prepared.length - 1);
    const written =
      first < 0n ? [] : await this.read(stream, { fromRevision: first, maxCount: prepared.length });
    if (written.length === prepared.length && written.every((e, i) => e.id === prepared[i].id)) {
      return { nextRevision: next, checkpoints: written.map((e) => e.checkpoint) };
    }
    // KurrentDB's own deduplication answered for an earlier identical write.
    const replayed = await this.replay(stream, prepared);
    if (replayed) return replayed;
    throw new Error(`KurrentDB acknowledged an append to ${stream}, but its events are not in the stream`);
  }

  private async read(stream: string, options: ReadStreamOptions): Promise<StoredEvent[]> {
    this.assertOpen();
    const events: StoredEvent[] = [];
    try {
      for await (const { event } of this.client.readStream(this.names.stream(stream), options))
        if (event) events.push(this.toStored(event));
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  private toStored(event: Recorded): StoredEvent {
    const metadata = event.metadata;
    return {
      id: event.id.toLowerCase(),
      stream: this.names.logical(event.streamId),
      revision: event.revision,
      type: event.type,
      data: event.data,
      metadata:
        metadata &&
        typeof metadata === 'object' &&
        !Array.isArray(metadata) &&
        !(metadata instanceof Uint8Array)
          ? (metadata as Record<string, unknown>)
          : {},
      checkpoint: encodeCheckpoint(positionOf(event)),
      storedAt: event.created.toISOString(),
    };
  }

  private assertOpen(): void {
    if (this.commits.closed) throw new Error('event store is closed');
  }
}

function positionOf(event: Recorded): LogPosition {
  if (!event.position)
    throw new Error('KurrentDB returned an event without its position: version 22.6 or newer is needed');
  return event.position;
}

function toEventData(event: PreparedEvent): JSONEventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    data: JSON.parse(event.data) as JSONEventData['data'],
    metadata: JSON.parse(event.metadata) as JSONEventData['metadata'],
  };
}
