import { createHash } from 'node:crypto';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { checkExpectedRevision, prepareEvents, replayedResult, type PreparedEvent } from './append-rules';
import { CommitNotifier } from './notifier';
import { GroupCommit, type PendingAppend } from './postgres-batch';
import { inTransaction, retryOnConnectionLoss, withClient } from './postgres-connection';
import { PgListener } from './postgres-listener';
import { parseLimit } from './position';
import { disjointPrefixes } from './prefixed';
import { pgSql, type PgSql } from './postgres-sql';
import { subscribeToLog, type LogPage, type LogSelection } from './subscription';
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

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Lowercase identifiers, at most 30 characters; tests use one schema per run. */
  schema?: string;
  table?: string;
  poolSize?: number;
  /** Fallback for wake-ups NOTIFY cannot give: a commit held back behind an older open transaction. */
  pollIntervalMs?: number;
  /** An open transaction holds every reader back (docs/event-store.md), so none may idle for long. */
  idleInTransactionTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Errors of idle pool clients and of the LISTEN connection, which the store survives. */
  onError?: (error: Error) => void;
}

interface EventRow {
  tx: string;
  gp: string;
  stream_id: string;
  rev: string;
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  stored_at: Date;
}

/** A row the append statements inserted. */
interface AddedRow {
  stream: string;
  rev: string;
  tx: string;
  gp: string;
}

type PageRow = { held: boolean } & (EventRow | { [K in keyof EventRow]: null });
type SelectedRow = { held: boolean; head: string | null; passed: string } & (
  EventRow | { [K in keyof EventRow]: null }
);
type PrefixedRow = { head: string | null } & (EventRow | { [K in keyof EventRow]: null });

const UNIQUE_VIOLATION = '23505';
const DEADLOCK = '40P01';
/** A retried append only loses to a committed one, so retries are bounded by concurrent writers. */
const MAX_ATTEMPTS = 100;
const SCHEMA_LOCK = 'event-store schema';

/** Checkpoint `"<xid>:<global_position>"`; the log is ordered by both. Needs PostgreSQL 13+ (xid8). */
export class PostgresEventStore implements EventStore {
  readonly engine = 'postgres';
  private readonly commits: CommitNotifier;
  readonly sql: PgSql;
  private readonly pool: Pool;
  private readonly listener: PgListener;
  private readonly batches: GroupCommit;
  /** Named, so each connection plans them once. */
  private readonly appendOne: { name: string; text: string };
  private readonly appendBatch: { name: string; text: string };
  private starting: Promise<void> | undefined;

  constructor(options: PostgresEventStoreOptions) {
    this.sql = pgSql(options.schema ?? 'public', options.table ?? 'events');
    const onError =
      options.onError ?? ((error: Error) => console.warn(`event store (postgres): ${error.message}`));
    const config: PoolConfig = {
      connectionString: options.connectionString,
      application_name: 'event-store',
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 10_000,
      statement_timeout: options.statementTimeoutMs ?? 30_000,
    };
    this.pool = new Pool({ ...config, max: options.poolSize ?? 10 });
    this.pool.on('error', onError);
    this.commits = new CommitNotifier({ intervalMs: options.pollIntervalMs ?? 1000, changed: () => true });
    this.listener = new PgListener(
      config,
      this.sql.channel,
      (payload) => this.commits.notify(notifiedStreams(payload)),
      onError,
    );
    // One batch at a time: the next one fills while this one commits (its NOTIFY serialises commits anyway).
    this.batches = new GroupCommit((batch) => this.commitBatch(batch), 1);
    this.appendOne = named(this.sql.appendOne);
    this.appendBatch = named(this.sql.appendBatch);
  }

  /** Creates the schema and starts listening; every other method awaits it. */
  start(): Promise<void> {
    if (this.commits.closed) return Promise.reject(new Error('event store is closed'));
    this.starting ??= this.setUp().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /**
   * An append whose connection was lost may or may not have committed. It is sent again, the
   * same events with the same ids: if the first one landed, the retry is recognised as a replay
   * (idempotency by event id) and gets the first one's result, and the unique event id keeps it
   * from being written twice even when the first one commits only later.
   */
  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const prepared = prepareEvents(events);
    return retryOnConnectionLoss(async () => {
      await this.start();
      if (prepared.length === 0) return this.appendAlone(stream, prepared, options.expectedRevision);
      return new Promise<AppendResult>((resolve, reject) =>
        this.batches.add({ stream, events: prepared, expected: options.expectedRevision, resolve, reject }),
      );
    });
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const limit = parseLimit(options.limit);
    await this.start();
    // LIMIT NULL: no limit.
    const { rows } = await this.query<EventRow>(this.sql.readStream, [
      stream,
      String(options.from ?? 0n),
      limit < 0 ? null : limit,
    ]);
    return rows.map(fromRow);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    return (await this.readPage(options.after, options.limit)).events;
  }

  async readPrefixed(prefixes: readonly string[], options: PrefixedReadOptions = {}): Promise<PrefixedRead> {
    const wanted = disjointPrefixes(prefixes);
    const [tx, gp] = parseCheckpoint(options.after);
    await this.start();
    const { rows } = await this.query<PrefixedRow>(this.sql.readPrefixed, [wanted, tx, gp]);
    const events = rows.flatMap((row) => (row.id === null ? [] : [fromRow(row)]));
    return rows[0].head === null ? { events } : { events, head: rows[0].head };
  }

  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent> {
    return this.subscribeWhenStarted(options);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    await this.start();
    const { rows } = await this.query<{ rev: string | null }>(this.sql.revision, [stream]);
    return rows[0].rev === null ? undefined : BigInt(rows[0].rev);
  }

  /**
   * The last committed event in (transaction, position) order, not only those below the horizon readers
   * stop at: a commit the caller has seen is at or before it even while an older transaction is open.
   */
  async head(): Promise<string | undefined> {
    await this.start();
    const { rows } = await this.query<{ head: string }>(this.sql.head, []);
    return rows[0]?.head;
  }

  compareCheckpoints(a: string, b: string): number {
    const [x, y] = [parseCheckpoint(a), parseCheckpoint(b)].map(([tx, gp]) => [BigInt(tx), BigInt(gp)]);
    const d = x[0] !== y[0] ? x[0] - y[0] : x[1] - y[1];
    return d === 0n ? 0 : d < 0n ? -1 : 1;
  }

  /** Reads: a lost connection is retried on a fresh one. */
  private query<R extends object>(text: string, values: unknown[]): Promise<{ rows: R[] }> {
    return retryOnConnectionLoss(() => this.pool.query<R>(text, values));
  }

  async close(): Promise<void> {
    if (this.commits.closed) return;
    this.commits.close();
    await this.starting?.catch(() => undefined);
    await this.listener.stop();
    await this.pool.end();
  }

  private async setUp(): Promise<void> {
    const { rows } = await this.pool.query<{ found: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS found',
      [this.sql.table],
    );
    if (!rows[0].found || (await this.jsonbColumns(this.pool)).length > 0) {
      await inTransaction(this.pool, async (client) => {
        // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog; serialize them.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SCHEMA_LOCK]);
        await client.query(this.sql.createSchema);
        await client.query(this.sql.createTable);
        // An earlier version's table stores jsonb, which reorders members: converted once, by the
        // first instance to take the lock (docs/event-store.md). It rewrites the table, as long as the log.
        const jsonb = await this.jsonbColumns(client);
        if (jsonb.length > 0) {
          await client.query('SET LOCAL statement_timeout = 0');
          await client.query(this.sql.toJson(jsonb));
        }
      });
    }
    await this.listener.start();
  }

  private async jsonbColumns(on: Pool | PoolClient): Promise<string[]> {
    const { rows } = await on.query<{ name: string }>(this.sql.jsonbColumns, [this.sql.table]);
    return rows.map((r) => r.name);
  }

  private async *subscribeWhenStarted(options?: SubscribeOptions): AsyncGenerator<StoredEvent> {
    await this.start();
    yield* subscribeToLog(
      {
        commits: this.commits,
        readPage: (after, limit, selection) =>
          selection ? this.readSelected(after, limit, selection) : this.readPage(after, limit),
      },
      options,
    );
  }

  private async readPage(after: string | undefined, limit: number | undefined): Promise<LogPage> {
    const [tx, gp] = parseCheckpoint(after);
    const max = parseLimit(limit);
    await this.start();
    const { rows } = await this.query<PageRow>(this.sql.readAll, [tx, gp, max < 0 ? null : max]);
    return { events: rows.flatMap((row) => (row.id === null ? [] : [fromRow(row)])), heldBack: rows[0].held };
  }

  /** The events of the selected streams only (docs/event-store.md "Selective follow"). */
  private async readSelected(
    after: string | undefined,
    limit: number,
    selection: LogSelection,
  ): Promise<LogPage> {
    const [tx, gp] = parseCheckpoint(after);
    await this.start();
    const { rows } = await this.query<SelectedRow>(this.sql.readSelected, [
      tx,
      gp,
      limit,
      selection.prefix,
      selection.streams,
    ]);
    const events = rows.flatMap((row) => (row.id === null ? [] : [fromRow(row)]));
    const passed = Object.entries(JSON.parse(rows[0].passed) as Record<string, string>);
    const page: LogPage = {
      events,
      heldBack: rows[0].held,
      selected: true,
      passed: new Map(passed.map(([stream, revision]) => [stream, BigInt(revision)])),
    };
    if (events.length < limit && rows[0].head !== null) page.end = rows[0].head;
    return page;
  }

  /**
   * One statement for every append of the batch. Those it leaves out (a conflict, a replay)
   * take the transactional path for their exact answer. A unique key lost to another open
   * transaction fails the whole statement, so then each append takes that path.
   */
  private async commitBatch(batch: PendingAppend[]): Promise<void> {
    const [first] = batch;
    // The lone append with an exact revision, the single writer's case, has a lighter statement.
    const query =
      batch.length === 1 && first.expected !== 'any'
        ? {
            ...this.appendOne,
            values: oneValues(first.stream, afterRevision(first.expected), first.events, this.sql.channel),
          }
        : { ...this.appendBatch, values: batchValues(batch, this.sql.channel) };
    let rows: AddedRow[];
    try {
      ({ rows } = await this.pool.query<AddedRow>(query));
    } catch (error) {
      // A lost connection fails every append of the batch, and each `append` sends its own again.
      if (!isUniqueViolation(error) && errorCode(error) !== DEADLOCK) throw error;
      rows = [];
    }
    if (rows.length > 0) this.notifyLocally(rows);
    const added = new Map<string, AddedRow[]>();
    for (const row of rows) {
      const mine = added.get(row.stream);
      if (mine) mine.push(row);
      else added.set(row.stream, [row]);
    }
    for (const p of batch) {
      const mine = added.get(p.stream);
      if (mine)
        p.resolve({
          nextRevision: BigInt(mine[mine.length - 1].rev),
          checkpoints: mine.map((r) => `${r.tx}:${r.gp}`),
        });
      else this.appendAlone(p.stream, p.events, p.expected).then(p.resolve, p.reject);
    }
  }

  /**
   * Wakes this process's readers at once rather than when NOTIFY comes back, but after the turn of the
   * event loop that resolves the appends: by then their writers hold what they wrote (a follower that
   * has it need not read it again).
   */
  private notifyLocally(rows: ReadonlyArray<{ stream: string; rev: string }>): void {
    const streams = new Map<string, bigint>();
    for (const r of rows) {
      const rev = BigInt(r.rev);
      if (rev > (streams.get(r.stream) ?? -1n)) streams.set(r.stream, rev);
    }
    setImmediate(() => this.commits.notify(streams));
  }

  /**
   * Every append `fill` makes through `append` lands in one transaction on one connection, or none
   * does (store copy, AtomicAppends). Readers see the whole of it at once, at its commit; while it is
   * open it holds them back (docs/event-store.md), so `fill` should not idle past the idle timeout.
   */
  async atomically<T>(fill: (append: EventStore['append']) => Promise<T>): Promise<T> {
    await this.start();
    const result = await inTransaction(this.pool, (client) =>
      fill((stream, events, { expectedRevision }) =>
        this.appendIn(client, stream, prepareEvents(events), expectedRevision),
      ),
    );
    this.commits.notify();
    return result;
  }

  /** The transactional path: replays, conflicts, 'any' lost races, empty appends. */
  private appendAlone(
    stream: string,
    events: PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    return withClient(this.pool, async (client, broken) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query('BEGIN');
          const result = await this.appendIn(client, stream, events, expected);
          await client.query('COMMIT');
          if (result.checkpoints.length > 0)
            this.notifyLocally([{ stream, rev: String(result.nextRevision) }]);
          return result;
        } catch (error) {
          let rolledBack = true;
          await client.query('ROLLBACK').catch((e: unknown) => {
            rolledBack = false;
            broken(e);
          });
          // Lost a race on (stream, revision) or event id: the re-check turns it into
          // WrongExpectedRevision, DuplicateEventId, the original result, or (for 'any') a retry.
          if (rolledBack && isUniqueViolation(error) && attempt < MAX_ATTEMPTS) continue;
          throw error;
        }
      }
    });
  }

  private async appendIn(
    client: PoolClient,
    stream: string,
    events: PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const found = await client.query<EventRow>(this.sql.byIds, [events.map((e) => e.id)]);
    const replayed = replayedResult(stream, events, found.rows.map(fromRow));
    if (replayed) return replayed;
    const { rows } = await client.query<{ rev: string | null }>(this.sql.revision, [stream]);
    const current = rows[0].rev === null ? undefined : BigInt(rows[0].rev);
    checkExpectedRevision(stream, expected, current);
    if (events.length === 0) return { nextRevision: current ?? -1n, checkpoints: [] };
    const after = current ?? -1n;
    const added = await client.query<AddedRow>({
      ...this.appendOne,
      values: oneValues(stream, String(after), events, this.sql.channel),
    });
    return {
      nextRevision: after + BigInt(events.length),
      checkpoints: added.rows.map((r) => `${r.tx}:${r.gp}`),
    };
  }
}

function named(text: string): { name: string; text: string } {
  return { name: `es_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
}

const afterRevision = (expected: bigint | 'no_stream'): string =>
  expected === 'no_stream' ? '-1' : String(expected);

/** Data and metadata are already JSON texts: joined into one array each, they need no escaping. */
const jsonArray = (texts: string[]): string => `[${texts.join(',')}]`;

function oneValues(stream: string, after: string, events: PreparedEvent[], channel: string): unknown[] {
  return [
    stream,
    after,
    events.map((e) => e.id),
    events.map((e) => e.type),
    jsonArray(events.map((e) => e.data)),
    jsonArray(events.map((e) => e.metadata)),
    channel,
  ];
}

/** The batch statement's parameters: per append, then per event (see `appendBatch`). */
function batchValues(batch: PendingAppend[], channel: string): unknown[] {
  const events = batch.flatMap((p, n) => p.events.map((e, i) => ({ n: n + 1, i: i + 1, e })));
  return [
    batch.map((p) => p.stream),
    batch.map((p) => (p.expected === 'any' ? null : afterRevision(p.expected))),
    events.map((x) => x.n),
    events.map((x) => x.i),
    events.map((x) => x.e.id),
    events.map((x) => x.e.type),
    jsonArray(events.map((x) => x.e.data)),
    jsonArray(events.map((x) => x.e.metadata)),
    channel,
  ];
}

function fromRow(row: EventRow): StoredEvent {
  return {
    id: row.id,
    stream: row.stream_id,
    revision: BigInt(row.rev),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    checkpoint: `${row.tx}:${row.gp}`,
    storedAt: row.stored_at.toISOString(),
  };
}

/**
 * The streams a commit's NOTIFY names, with their last revisions (postgres-sql.ts, notifyPayload);
 * undefined when it does not say (another writer's, or too long to say), so every reader reads.
 */
export function notifiedStreams(payload: string | undefined): Map<string, bigint> | undefined {
  if (!payload) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const streams = new Map<string, bigint>();
  for (const [stream, rev] of Object.entries(parsed)) {
    if (!Number.isSafeInteger(rev) || (rev as number) < 0) return undefined;
    streams.set(stream, BigInt(rev as number));
  }
  return streams.size > 0 ? streams : undefined;
}

function parseCheckpoint(checkpoint: string | undefined): [string, string] {
  if (checkpoint === undefined) return ['0', '0'];
  const match = /^(\d{1,20}):(\d{1,19})$/.exec(checkpoint);
  if (!match) throw new RangeError(`invalid checkpoint "${checkpoint}"`);
  return [match[1], match[2]];
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

function isUniqueViolation(error: unknown): boolean {
  return errorCode(error) === UNIQUE_VIOLATION;
}
