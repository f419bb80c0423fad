import { checkExpectedRevision, prepareEvents, replayedResult } from './append-rules';
import { CommitNotifier } from './notifier';
import { fromPositionRow, parseLimit, parsePosition, type PositionRow } from './position';
import { disjointPrefixes, hasPrefix } from './prefixed';
import { subscribeToLog } from './subscription';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  PrefixedRead,
  PrefixedReadOptions,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  SubscribeOptions,
} from './port';

/** For tests and demos. Rows keep JSON text so reads behave like the durable engines (fresh copies). */
export class InMemoryEventStore implements EventStore {
  readonly engine = 'memory';
  private readonly commits = new CommitNotifier();
  private readonly log: PositionRow[] = [];
  private readonly streams = new Map<string, PositionRow[]>();
  private readonly byId = new Map<string, PositionRow>();

  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    this.assertOpen();
    const prepared = prepareEvents(events);
    const found = prepared.flatMap((p) => this.byId.get(p.id) ?? []).map(fromPositionRow);
    const replayed = replayedResult(stream, prepared, found);
    if (replayed) return replayed;
    const rows = this.streams.get(stream) ?? [];
    const current = rows.length > 0 ? BigInt(rows.length - 1) : undefined;
    checkExpectedRevision(stream, options.expectedRevision, current);
    if (prepared.length === 0) return { nextRevision: current ?? -1n, checkpoints: [] };
    const storedAt = new Date().toISOString();
    const added = prepared.map((p, i) => ({
      global_position: this.log.length + 1 + i,
      stream_id: stream,
      stream_revision: rows.length + i,
      event_id: p.id,
      type: p.type,
      data: p.data,
      metadata: p.metadata,
      stored_at: storedAt,
    }));
    rows.push(...added);
    this.log.push(...added);
    for (const row of added) this.byId.set(row.event_id, row);
    this.streams.set(stream, rows);
    this.commits.notify();
    return {
      nextRevision: BigInt(rows.length - 1),
      checkpoints: added.map((r) => String(r.global_position)),
    };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const from = Math.max(0, Number(options.from ?? 0n));
    const limit = parseLimit(options.limit);
    return (this.streams.get(stream) ?? [])
      .slice(from, limit < 0 ? undefined : from + limit)
      .map(fromPositionRow);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const start = parsePosition(options.after);
    const limit = parseLimit(options.limit);
    return this.log.slice(start, limit < 0 ? undefined : start + limit).map(fromPositionRow);
  }

  async readPrefixed(prefixes: readonly string[], options: PrefixedReadOptions = {}): Promise<PrefixedRead> {
    const wanted = disjointPrefixes(prefixes);
    const events = this.log
      .slice(parsePosition(options.after))
      .filter((row) => hasPrefix(row.stream_id, wanted))
      .map(fromPositionRow);
    return this.log.length === 0 ? { events } : { events, head: String(this.log.length) };
  }

  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent> {
    const readPage = async (after: string | undefined, limit: number) => ({
      events: await this.readAll({ after, limit }),
    });
    return subscribeToLog({ commits: this.commits, readPage }, options);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    const length = this.streams.get(stream)?.length ?? 0;
    return length > 0 ? BigInt(length - 1) : undefined;
  }

  async head(): Promise<string | undefined> {
    return this.log.length === 0 ? undefined : String(this.log.length);
  }

  compareCheckpoints(a: string, b: string): number {
    return parsePosition(a) - parsePosition(b);
  }

  async close(): Promise<void> {
    this.commits.close();
  }

  private assertOpen(): void {
    if (this.commits.closed) throw new Error('event store is closed');
  }
}
