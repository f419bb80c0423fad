import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  checkExpectedRevision,
  prepareEvents,
  replayedResult,
  revisionMatches,
  type PreparedEvent,
} from './append-rules';
import { CommitNotifier } from './notifier';
import { fromPositionRow, parseLimit, parsePosition, type PositionRow } from './position';
import { disjointPrefixes, prefixEnd } from './prefixed';
import { createSchema, type SqliteStatements } from './sqlite-schema';
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

export interface SqliteEventStoreOptions {
  /**
   * NORMAL (default): in WAL mode a commit survives a crash of the process but the last
   * commits can be lost on power failure or OS crash; the file is never corrupted.
   * FULL fsyncs every commit (~1.7k against ~4k single-event appends/s, docs/event-store.md).
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** How long a write waits for another process's lock. It blocks the event loop meanwhile. */
  busyTimeoutMs?: number;
  /** Fallback that notices commits of other processes on the same file. */
  pollIntervalMs?: number;
}

interface PendingAppend {
  stream: string;
  events: PreparedEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** An append written: its result and the rows it wrote. */
interface Inserted {
  result: AppendResult;
  rows: PositionRow[];
}

type Outcome = Inserted | { result: AppendResult; rows?: undefined } | { error: unknown };

/**
 * Events read per query by readStream: about 5 ms of the thread each under load (2,000 took 18 ms,
 * the longest stall of another request while a 10,000-event fight's log was exported).
 */
const STREAM_PAGE = 500;
/**
 * Rows of this connection's latest commits kept for its subscribers (OwnCommits), at least this many and
 * at most twice: trimmed in one copy when the run doubles, not one copy of the whole run per commit (that
 * cost a single-event append 5–15 µs of CPU, a 16 KB array copied and collected each time). Older rows
 * are read from the file.
 */
const OWN_KEEP = 2000;

/**
 * The rows this connection committed last, a run of consecutive positions: a subscriber that reads right
 * after one of its own commits (the instance's log follower, woken by it) takes them from here instead of
 * reading back from the file what was written a moment ago. Positions are whole numbers, so a run that
 * starts right after a subscriber's checkpoint is exactly what the log holds after it, up to the run's end.
 * What other connections committed after the run comes with the next read from the file, which their
 * commits' wake-up (the poll of `data_version`) brings about as it always did.
 */
class OwnCommits {
  private rows: PositionRow[] = [];

  /** A commit's rows, in position order: they extend the run when they follow it, else start a new one. */
  add(rows: readonly PositionRow[]): void {
    for (const row of rows) {
      const end = this.rows[this.rows.length - 1];
      if (end && row.global_position !== end.global_position + 1) this.rows = [];
      this.rows.push(row);
    }
    if (this.rows.length > 2 * OWN_KEEP) this.rows = this.rows.slice(this.rows.length - OWN_KEEP);
  }

  /** The events right after position `after`, at most `limit` (-1: no limit), when the run holds the next one. */
  after(after: number, limit: number): StoredEvent[] | undefined {
    const first = this.rows[0]?.global_position;
    if (first === undefined) return undefined;
    const from = after + 1 - first;
    if (from < 0 || from >= this.rows.length) return undefined;
    return this.rows.slice(from, limit < 0 ? undefined : from + limit).map(fromPositionRow);
  }

  clear(): void {
    this.rows = [];
  }
}

/** One connection, one writer: appends queued in the same tick share one transaction (group commit). */
export class SqliteEventStore implements EventStore {
  readonly engine = 'sqlite';
  private readonly commits: CommitNotifier;
  private readonly db: Database.Database;
  private readonly sql: SqliteStatements;
  private readonly writeBatch: Database.Transaction<(batch: PendingAppend[]) => Outcome[]>;
  /** Inside writeBatch: the inserts of one append under a savepoint, undone together if one fails. */
  private readonly insertAll: Database.Transaction<(p: PendingAppend, first: number) => Inserted>;
  private queue: PendingAppend[] = [];
  private flushScheduled: NodeJS.Immediate | undefined;
  private readonly own = new OwnCommits();
  /** How many times the poll has seen another connection commit to the file. */
  private othersSeen = 0;

  constructor(
    readonly file: string,
    options: SqliteEventStoreOptions = {},
  ) {
    mkdirSync(dirname(file), { recursive: true });
    // `timeout` is SQLite's busy_timeout.
    this.db = new Database(file, { timeout: options.busyTimeoutMs ?? 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
    this.sql = createSchema(this.db);
    this.commits = new CommitNotifier({
      intervalMs: options.pollIntervalMs ?? 1000,
      changed: this.watchOtherWriters(() => this.othersSeen++),
    });
    // Every check of an append runs before its first write, so a refused append has written
    // nothing and needs no savepoint; an error during the inserts (I/O, disk full) fails the batch.
    this.writeBatch = this.db.transaction((batch: PendingAppend[]) =>
      batch.map((p): Outcome => {
        const fast = this.insertFresh(p);
        if (fast) return fast;
        let plan: { replayed: AppendResult } | { first: number };
        try {
          plan = this.check(p);
        } catch (error) {
          return { error };
        }
        return 'replayed' in plan ? { result: plan.replayed } : this.insert(p, plan.first);
      }),
    );
    this.insertAll = this.db.transaction((p: PendingAppend, first: number) => this.insert(p, first));
  }

  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (this.commits.closed) throw new Error('event store is closed');
    const prepared = prepareEvents(events);
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events: prepared, expected: options.expectedRevision, resolve, reject });
      this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  /**
   * A page of STREAM_PAGE events at a time with a turn of the event loop between pages: SQLite reads
   * block the thread, and a 50,000-event stream read at once would stall every other request. A
   * stream shorter than a page costs one query, as before.
   */
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    let from = options.from ?? 0n;
    const limit = parseLimit(options.limit);
    const events: StoredEvent[] = [];
    for (;;) {
      const wanted = limit < 0 ? STREAM_PAGE : Math.min(STREAM_PAGE, limit - events.length);
      const page = (this.sql.readStream.all(stream, from, wanted) as PositionRow[]).map(fromPositionRow);
      for (const e of page) events.push(e);
      if (page.length < STREAM_PAGE || events.length === limit) return events;
      from = page[page.length - 1].revision + 1n;
      await nextTurn();
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const rows = this.sql.readAll.all(
      parsePosition(options.after),
      parseLimit(options.limit),
    ) as PositionRow[];
    return rows.map(fromPositionRow);
  }

  async readPrefixed(prefixes: readonly string[], options: PrefixedReadOptions = {}): Promise<PrefixedRead> {
    const wanted = disjointPrefixes(prefixes);
    const after = parsePosition(options.after);
    // One read transaction: the head and the streams are of the same moment, whoever else writes the file.
    return this.db.transaction((): PrefixedRead => {
      const { head } = this.sql.head.get() as { head: number | null };
      if (head === null) return { events: [] };
      const rows: PositionRow[] = [];
      for (const p of wanted) {
        const end = prefixEnd(p);
        const found = (
          end === undefined
            ? this.sql.prefixedOpen.all(p, after, head)
            : this.sql.prefixed.all(p, end, after, head)
        ) as PositionRow[];
        for (const row of found) if (row.stream_id.startsWith(p)) rows.push(row);
      }
      rows.sort((a, b) => a.global_position - b.global_position);
      return { events: rows.map(fromPositionRow), head: String(head) };
    })();
  }

  /**
   * Reads right after this connection's own commits take their rows from memory (OwnCommits), unless the
   * poll has seen another connection commit since the subscription last read the file: that poll's
   * wake-up is the only one those commits get, so the read it brings about must be of the file.
   */
  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent> {
    let readAt = -1;
    const readPage = async (after: string | undefined, limit: number) => {
      const own = readAt === this.othersSeen ? this.own.after(parsePosition(after), limit) : undefined;
      if (own) return { events: own };
      readAt = this.othersSeen;
      return { events: await this.readAll({ after, limit }) };
    };
    return subscribeToLog({ commits: this.commits, readPage }, options);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    const { rev } = this.sql.revision.get(stream) as { rev: number | null };
    return rev === null ? undefined : BigInt(rev);
  }

  async head(): Promise<string | undefined> {
    const { head } = this.sql.head.get() as { head: number | null };
    return head === null ? undefined : String(head);
  }

  compareCheckpoints(a: string, b: string): number {
    return parsePosition(a) - parsePosition(b);
  }

  /**
   * Every append `fill` makes through `append` lands in one transaction, or none does (store copy,
   * AtomicAppends). The file is locked for writing meanwhile; this store's own `append` must not be
   * used until it settles (it would join the transaction).
   */
  async atomically<T>(fill: (append: EventStore['append']) => Promise<T>): Promise<T> {
    if (this.commits.closed) throw new Error('event store is closed');
    if (this.flushScheduled) {
      clearImmediate(this.flushScheduled);
      this.flush();
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await fill(async (stream, events, { expectedRevision }) => {
        const p: PendingAppend = {
          stream,
          events: prepareEvents(events),
          expected: expectedRevision,
          resolve: () => undefined,
          reject: () => undefined,
        };
        const plan = this.check(p);
        return 'replayed' in plan ? plan.replayed : this.insert(p, plan.first).result;
      });
      this.db.exec('COMMIT');
      // Its rows are not kept for the subscribers: they read them from the file.
      this.own.clear();
      this.commits.notify();
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.commits.closed) return;
    if (this.flushScheduled) {
      clearImmediate(this.flushScheduled);
      this.flush();
    }
    this.commits.close();
    this.db.close();
  }

  private flush(): void {
    this.flushScheduled = undefined;
    const batch = this.queue;
    this.queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.writeBatch.immediate(batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    this.own.add(outcomes.flatMap((o) => ('rows' in o && o.rows ? o.rows : [])));
    outcomes.forEach((o, i) => ('result' in o ? batch[i].resolve(o.result) : batch[i].reject(o.error)));
    if (outcomes.some((o) => 'result' in o)) this.commits.notify();
  }

  /**
   * The common case, new events at the expected revision, in one read and the inserts: the UNIQUE
   * index on event_id stands in for the id lookup. An id already stored (a retry or a clash) or a
   * revision that does not match returns undefined, and the full check judges it. A single event is
   * one statement, which inserts its row or nothing; several share a savepoint (better-sqlite3 nests
   * a transaction as one), so a clash on the second leaves the first unwritten too.
   */
  private insertFresh(p: PendingAppend): Inserted | undefined {
    const { rev } = this.sql.revision.get(p.stream) as { rev: number | null };
    if (!revisionMatches(p.expected, rev === null ? undefined : BigInt(rev))) return undefined;
    const first = rev === null ? 0 : rev + 1;
    try {
      return p.events.length === 1 ? this.insert(p, first) : this.insertAll(p, first);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
      throw error;
    }
  }

  /** Idempotency and expected revision (docs/event-store.md); reads only. */
  private check(p: PendingAppend): { replayed: AppendResult } | { first: number } {
    const found = (this.sql.byIds.all(JSON.stringify(p.events.map((e) => e.id))) as PositionRow[]).map(
      fromPositionRow,
    );
    const replayed = replayedResult(p.stream, p.events, found);
    if (replayed) return { replayed };
    const { rev } = this.sql.revision.get(p.stream) as { rev: number | null };
    checkExpectedRevision(p.stream, p.expected, rev === null ? undefined : BigInt(rev));
    return { first: rev === null ? 0 : rev + 1 };
  }

  private insert(p: PendingAppend, first: number): Inserted {
    const storedAt = new Date().toISOString();
    const rows = p.events.map((e, i): PositionRow => ({
      global_position: Number(
        this.sql.insert.run(p.stream, first + i, e.id, e.type, e.data, e.metadata, storedAt).lastInsertRowid,
      ),
      stream_id: p.stream,
      stream_revision: first + i,
      event_id: e.id,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      stored_at: storedAt,
    }));
    const checkpoints = rows.map((r) => String(r.global_position));
    return { result: { nextRevision: BigInt(first + p.events.length - 1), checkpoints }, rows };
  }

  /** `data_version` changes only when another connection commits to the file. */
  private watchOtherWriters(onChange: () => void): () => boolean {
    const read = (): unknown => this.db.pragma('data_version', { simple: true });
    let seen = read();
    return () => {
      const now = read();
      const changed = now !== seen;
      seen = now;
      if (changed) onChange();
      return changed;
    };
  }
}
