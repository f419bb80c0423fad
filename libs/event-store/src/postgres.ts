import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { checkExpectedRevision, prepareEvents, replayedResult, type PreparedEvent } from './append-rules';
import { CommitNotifier } from './notifier';
import { PgListener } from './postgres-listener';
import { parseLimit } from './position';
import { pgSql, type PgSql } from './postgres-sql';
import { subscribeToLog, type LogPage } from './subscription';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
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
  /** An open transaction holds every reader back (EVENT-STORE.md), so none may idle for long. */
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

type PageRow = { held: boolean } & (EventRow | { [K in keyof EventRow]: null });

const UNIQUE_VIOLATION = '23505';
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
  private starting: Promise<void> | undefined;

  constructor(options: PostgresEventStoreOptions) {
    this.sql = pgSql(options.schema ?? 'public', options.table ?? 'events');
    const onError = options.onError ?? ((error: Error) => console.warn(`event store (postgres): ${error.message}`));
    const config: PoolConfig = {
      connectionString: options.connectionString,
      application_name: 'event-store',
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 10_000,
      statement_timeout: options.statementTimeoutMs ?? 30_000,
    };
    this.pool = new Pool({ ...config, max: options.poolSize ?? 10 });
    this.pool.on('error', onError);
    this.commits = new CommitNotifier({ intervalMs: options.pollIntervalMs ?? 1000, changed: () => true });
    this.listener = new PgListener(config, this.sql.channel, () => this.commits.notify(), onError);
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

  async append(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const prepared = prepareEvents(events);
    await this.start();
    const fast = await this.appendExact(stream, prepared, options.expectedRevision);
    if (fast) return fast;
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query('BEGIN');
          const result = await this.appendIn(client, stream, prepared, options.expectedRevision);
          await client.query('COMMIT');
          if (result.checkpoints.length > 0) this.announce();
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          // Lost a race on (stream, revision) or event id: the re-check turns it into
          // WrongExpectedRevision, DuplicateEventId, the original result, or (for 'any') a retry.
          if (!broken && isUniqueViolation(error) && attempt < MAX_ATTEMPTS) continue;
          throw error;
        }
      }
    } finally {
      client.release(broken);
    }
  }

  async readStream(stream: string, options: { from?: bigint } = {}): Promise<StoredEvent[]> {
    await this.start();
    const { rows } = await this.pool.query<EventRow>(this.sql.readStream, [stream, String(options.from ?? 0n)]);
    return rows.map(fromRow);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    return (await this.readPage(options.after, options.limit)).events;
  }

  subscribeAll(options?: SubscribeOptions): AsyncIterable<StoredEvent> {
    return this.subscribeWhenStarted(options);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    await this.start();
    const { rows } = await this.pool.query<{ rev: string | null }>(this.sql.revision, [stream]);
    return rows[0].rev === null ? undefined : BigInt(rows[0].rev);
  }

  async close(): Promise<void> {
    if (this.commits.closed) return;
    this.commits.close();
    await this.starting?.catch(() => undefined);
    await this.listener.stop();
    await this.pool.end();
  }

  private async setUp(): Promise<void> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [this.sql.table]);
      if (!rows[0].found) await this.createTable(client);
    } finally {
      client.release();
    }
    await this.listener.start();
  }

  private async createTable(client: PoolClient): Promise<void> {
    try {
      await client.query('BEGIN');
      // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog; serialize them.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SCHEMA_LOCK]);
      await client.query(this.sql.createSchema);
      await client.query(this.sql.createTable);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async *subscribeWhenStarted(options?: SubscribeOptions): AsyncGenerator<StoredEvent> {
    await this.start();
    yield* subscribeToLog({ commits: this.commits, readPage: (after, limit) => this.readPage(after, limit) }, options);
  }

  private async readPage(after: string | undefined, limit: number | undefined): Promise<LogPage> {
    const [tx, gp] = parseCheckpoint(after);
    const max = parseLimit(limit);
    await this.start();
    const { rows } = await this.pool.query<PageRow>(this.sql.readAll, [tx, gp, max < 0 ? null : max]);
    return { events: rows.flatMap((row) => (row.id === null ? [] : [fromRow(row)])), heldBack: rows[0].held };
  }

  /**
   * The common case in one round trip: an exact expected revision, nothing replayed, no race.
   * Anything else (a conflict, a replay, a lost race) inserts nothing and returns undefined:
   * the transactional path below then gives the exact answer.
   */
  private notifying = false;
  private notifyAgain = false;

  /**
   * Wakes every reader (LISTEN/NOTIFY) after a commit. A NOTIFY inside the append's
   * transaction serialised concurrent commits on the notification queue, so it is sent
   * afterwards, and appends that finish while one is in flight share the next one:
   * readers re-read from their checkpoint, one wake-up is enough.
   */
  private announce(): void {
    this.commits.notify();
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    void (async () => {
      try {
        do {
          this.notifyAgain = false;
          await this.pool.query(this.sql.notify, [this.sql.channel]).catch(() => this.commits.notify());
          // Under a steady write load, let a millisecond of commits share the next wake-up.
          if (this.notifyAgain) await new Promise((r) => setTimeout(r, 1));
        } while (this.notifyAgain && !this.commits.closed);
      } finally {
        this.notifying = false;
      }
    })();
  }

  private async appendExact(stream: string, events: PreparedEvent[], expected: ExpectedRevision): Promise<AppendResult | undefined> {
    if (expected === 'any' || events.length === 0) return undefined;
    const first = expected === 'no_stream' ? 0n : expected + 1n;
    try {
      const added = await this.pool.query<{ tx: string; gp: string }>(this.sql.insertAfter, [
        stream,
        String(first),
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => e.data),
        events.map((e) => e.metadata),
        expected === 'no_stream' ? '-1' : String(expected),
      ]);
      this.announce();
      if (added.rows.length !== events.length) return undefined;
      return { nextRevision: first + BigInt(events.length - 1), checkpoints: added.rows.map((r) => `${r.tx}:${r.gp}`) };
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
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
    const first = (current ?? -1n) + 1n;
    const added = await client.query<{ tx: string; gp: string }>(this.sql.insert, [
      stream,
      String(first),
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.data),
      events.map((e) => e.metadata),
    ]);
    return { nextRevision: first + BigInt(events.length - 1), checkpoints: added.rows.map((r) => `${r.tx}:${r.gp}`) };
  }
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

function parseCheckpoint(checkpoint: string | undefined): [string, string] {
  if (checkpoint === undefined) return ['0', '0'];
  const match = /^(\d{1,20}):(\d{1,19})$/.exec(checkpoint);
  if (!match) throw new RangeError(`invalid checkpoint "${checkpoint}"`);
  return [match[1], match[2]];
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}
