import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { PostgresEventStore, SqliteEventStore, type EventStore, type NewEvent } from '@app/event-store';
import { newEventId } from '@app/fight-log';

/** A typical fight event: an ExchangeResolved with its envelope metadata (~0.9 KB of JSON), its id a UUIDv7 as the service makes them. */
function sampleEvent(stream: string, seq: number): NewEvent {
  return {
    id: newEventId(),
    type: 'ExchangeResolved',
    data: {
      exchangeId: `x${seq}`,
      outcome: 'hit',
      winnerId: 'mira',
      hitMargin: 2,
      attacker: {
        combatantId: 'mira',
        skill: 'melee',
        roll: { sides: 6, faces: [6, 3, 5], draw: seq * 2 },
        edge: 'none',
        sources: { advantage: [], disadvantage: [] },
        faces: [6, 3, 5],
        total: 3,
      },
      responder: {
        combatantId: 'orin',
        skill: 'melee',
        roll: { sides: 6, faces: [2, 4], draw: seq * 2 + 1 },
        edge: 'none',
        sources: { advantage: [], disadvantage: [] },
        faces: [2, 4],
        total: 1,
      },
    },
    metadata: {
      fightId: stream,
      v: 1,
      at: new Date().toISOString(),
      actor: 'gm',
      commandId: randomUUID(),
      drawsUsed: seq * 2 + 1,
      hash: 'f'.repeat(64),
    },
  };
}

export interface AppendFigures {
  writers: number;
  events: number;
  adapterEventsPerSec: number;
  rawEventsPerSec: number;
  ratio: number;
  /** Mean rows per transaction in the raw run (SQLite: the group-commit batch). */
  rawRowsPerTx?: number;
  /** Mean rows per transaction the adapter wrote (PostgreSQL: its group-commit batch, from the table). */
  adapterRowsPerTx?: number;
}

/** `writers` concurrent writers, each appending single-event appends to its own stream, in sequence. */
async function driveWriters(
  writers: number,
  perWriter: number,
  append: (w: number, i: number) => Promise<unknown>,
): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) await append(w, i);
    }),
  );
  return performance.now() - t0;
}

/** Events prepared before the clock starts, so both sides time storage only. */
function prepare(writers: number, perWriter: number, prefix: string): NewEvent[][] {
  return Array.from({ length: writers }, (_, w) =>
    Array.from({ length: perWriter }, (_, i) => sampleEvent(`${prefix}-${w}`, i)),
  );
}

async function adapterRun(
  store: EventStore,
  writers: number,
  perWriter: number,
  prefix: string,
): Promise<number> {
  const events = prepare(writers, perWriter, prefix);
  return driveWriters(writers, perWriter, (w, i) =>
    store.append(`${prefix}-${w}`, [events[w][i]], {
      expectedRevision: i === 0 ? 'no_stream' : BigInt(i - 1),
    }),
  );
}

// ---------- SQLite ----------

/** The same table, indexes and pragmas as SqliteEventStore; inserts only, group-committed the same way (setImmediate). */
class RawSqlite {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly tx: Database.Transaction<(rows: unknown[][]) => void>;
  private queue: Array<{ row: unknown[]; resolve: () => void }> = [];
  private scheduled = false;
  transactions = 0;
  rows = 0;

  constructor(file: string) {
    // The adapter's schema, created by the adapter itself, then closed.
    new SqliteEventStore(file).close().catch(() => undefined);
    this.db = new Database(file, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.insert = this.db.prepare(
      'INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.tx = this.db.transaction((rows: unknown[][]) => {
      for (const r of rows) this.insert.run(...r);
    });
  }

  append(stream: string, revision: number, e: NewEvent): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({
        row: [
          stream,
          revision,
          e.id,
          e.type,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
          new Date().toISOString(),
        ],
        resolve,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    this.tx.immediate(batch.map((b) => b.row));
    this.transactions++;
    this.rows += batch.length;
    for (const b of batch) b.resolve();
  }

  close(): void {
    this.db.close();
  }
}

export async function benchSqliteAppend(opts: {
  writers: number[];
  events: number;
}): Promise<AppendFigures[]> {
  const out: AppendFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'crs-bench-sqlite-'));
  try {
    for (const writers of opts.writers) {
      const perWriter = Math.max(1, Math.floor(opts.events / writers));
      const adapterMs: number[] = [];
      const rawMs: number[] = [];
      let rowsPerTx = 0;
      // Alternate adapter and raw runs, each on a fresh file, and keep the best of each.
      for (let rep = 0; rep < 3; rep++) {
        const store = new SqliteEventStore(join(dir, `adapter-${writers}-${rep}.sqlite`));
        adapterMs.push(await adapterRun(store, writers, perWriter, 's'));
        await store.close();
        const raw = new RawSqlite(join(dir, `raw-${writers}-${rep}.sqlite`));
        const events = prepare(writers, perWriter, 's');
        rawMs.push(await driveWriters(writers, perWriter, (w, i) => raw.append(`s-${w}`, i, events[w][i])));
        rowsPerTx = raw.rows / raw.transactions;
        raw.close();
      }
      const n = perWriter * writers;
      const adapter = (n / Math.min(...adapterMs)) * 1000;
      const rawRate = (n / Math.min(...rawMs)) * 1000;
      out.push({
        writers,
        events: n,
        adapterEventsPerSec: adapter,
        rawEventsPerSec: rawRate,
        ratio: adapter / rawRate,
        rawRowsPerTx: rowsPerTx,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

export interface EventIdFigures {
  events: number;
  writers: number;
  eventsPerAppend: number;
  /** Per id kind: the best of the runs, events/s and the process's CPU µs per event. */
  v4: { eventsPerSec: number; cpuMicrosPerEvent: number };
  v7: { eventsPerSec: number; cpuMicrosPerEvent: number };
  /** v7 events/s over v4 events/s. */
  ratio: number;
}

/**
 * Why event ids are UUIDv7 (fight-event.ts): the adapter on a fresh file, `writers` writers each
 * appending 4-event appends as an exchange does, once with random UUIDv4 ids and once with UUIDv7,
 * alternating, best of each. The unique index on event ids takes a v4 id on a random page.
 */
export async function benchEventIds(opts: { events: number; writers: number }): Promise<EventIdFigures> {
  const eventsPerAppend = 4;
  const perWriter = Math.max(1, Math.floor(opts.events / opts.writers / eventsPerAppend));
  const dir = mkdtempSync(join(tmpdir(), 'crs-bench-ids-'));
  const best = { v4: { ms: Infinity, cpu: Infinity }, v7: { ms: Infinity, cpu: Infinity } };
  try {
    for (let rep = 0; rep < 2; rep++) {
      for (const kind of ['v4', 'v7'] as const) {
        const newId = kind === 'v4' ? randomUUID : newEventId;
        const store = new SqliteEventStore(join(dir, `${kind}-${rep}.sqlite`));
        const cpu0 = process.cpuUsage();
        const ms = await driveWriters(opts.writers, perWriter, (w, i) =>
          store.append(
            `s-${w}`,
            Array.from({ length: eventsPerAppend }, (_, k) => ({
              ...sampleEvent(`s-${w}`, i * eventsPerAppend + k),
              id: newId(),
            })),
            { expectedRevision: i === 0 ? 'no_stream' : BigInt(i * eventsPerAppend - 1) },
          ),
        );
        const cpu = process.cpuUsage(cpu0);
        await store.close();
        best[kind].ms = Math.min(best[kind].ms, ms);
        best[kind].cpu = Math.min(best[kind].cpu, cpu.user + cpu.system);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const events = perWriter * opts.writers * eventsPerAppend;
  const figure = (b: { ms: number; cpu: number }) => ({
    eventsPerSec: (events / b.ms) * 1000,
    cpuMicrosPerEvent: b.cpu / events,
  });
  const v4 = figure(best.v4);
  const v7 = figure(best.v7);
  return { events, writers: opts.writers, eventsPerAppend, v4, v7, ratio: v7.eventsPerSec / v4.eventsPerSec };
}

// ---------- PostgreSQL ----------

interface PgRun {
  url: string;
  schema: string;
  writers: number;
  perWriter: number;
  rep: number;
  poolSize: number;
}

/** The adapter on a table of its own: its time, and the rows per transaction its group commit wrote. */
async function adapterPgRun(r: PgRun, admin: Pool): Promise<{ ms: number; rowsPerTx: number }> {
  const table = `events_${r.writers}_${r.rep}`;
  const store = new PostgresEventStore({
    connectionString: r.url,
    schema: r.schema,
    table,
    poolSize: r.poolSize,
  });
  await store.start();
  const ms = await adapterRun(store, r.writers, r.perWriter, `s${r.rep}`);
  await store.close();
  const { rows } = await admin.query<{ perTx: string }>(
    `SELECT count(*)::float / count(DISTINCT transaction_id) AS "perTx" FROM "${r.schema}"."${table}"`,
  );
  return { ms, rowsPerTx: Number(rows[0].perTx) };
}

/** Raw: the adapter's own table DDL (another table, same schema), one INSERT per append. */
async function rawPgRun(r: PgRun): Promise<number> {
  const rawTable = `raw_${r.writers}_${r.rep}`;
  const shape = new PostgresEventStore({
    connectionString: r.url,
    schema: r.schema,
    table: rawTable,
    poolSize: 1,
  });
  await shape.start();
  await shape.close();
  const pool = new Pool({ connectionString: r.url, max: r.poolSize });
  const events = prepare(r.writers, r.perWriter, `s${r.rep}`);
  const sql = `INSERT INTO "${r.schema}"."${rawTable}" (stream_id, stream_revision, event_id, type, data, metadata) VALUES ($1, $2, $3, $4, $5::json, $6::json)`;
  const ms = await driveWriters(r.writers, r.perWriter, (w, i) => {
    const e = events[w][i];
    return pool.query(sql, [
      `s${r.rep}-${w}`,
      i,
      e.id,
      e.type,
      JSON.stringify(e.data),
      JSON.stringify(e.metadata),
    ]);
  });
  await pool.end();
  return ms;
}

export async function benchPostgresAppend(
  url: string,
  opts: { writers: number[]; events: number; poolSize?: number },
): Promise<AppendFigures[]> {
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const poolSize = opts.poolSize ?? 10;
  const admin = new Pool({ connectionString: url, max: 1 });
  const out: AppendFigures[] = [];
  try {
    for (const writers of opts.writers) {
      const perWriter = Math.max(1, Math.floor(opts.events / writers));
      const adapterMs: number[] = [];
      const rawMs: number[] = [];
      const adapterRowsPerTx: number[] = [];
      for (let rep = 0; rep < 2; rep++) {
        const run: PgRun = { url, schema, writers, perWriter, rep, poolSize };
        const adapter = await adapterPgRun(run, admin);
        adapterMs.push(adapter.ms);
        adapterRowsPerTx.push(adapter.rowsPerTx);
        rawMs.push(await rawPgRun(run));
      }
      const n = perWriter * writers;
      const adapter = (n / Math.min(...adapterMs)) * 1000;
      const rawRate = (n / Math.min(...rawMs)) * 1000;
      const meanRowsPerTx = adapterRowsPerTx.reduce((a, b) => a + b, 0) / adapterRowsPerTx.length;
      out.push({
        writers,
        events: n,
        adapterEventsPerSec: adapter,
        rawEventsPerSec: rawRate,
        ratio: adapter / rawRate,
        rawRowsPerTx: 1,
        adapterRowsPerTx: meanRowsPerTx,
      });
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.end();
  }
  return out;
}
