import type { CommitNotifier } from '../src/notifier';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { eventStoreContract } from '../src/contract';
import { collect, ids, logOf, newEvent, newEvents, outcome, sleep } from '../src/contract/helpers';
import type { NewEvent, SubscriptionInterest } from '../src/port';
import { notifiedStreams, PostgresEventStore, type PostgresEventStoreOptions } from '../src/postgres';
import type { LogPage, LogSelection } from '../src/subscription';

const url = process.env.EVENT_STORE_PG_URL;

// Runs without a database, and keeps this file from counting as wholly skipped: Jest hides the
// console output of such files when it runs several, which would swallow the warning below.
it('PostgresEventStore accepts only plain identifiers as schema and table', () => {
  const connectionString = 'postgres://unused';
  expect(() => new PostgresEventStore({ connectionString, schema: 'x"; DROP TABLE y; --' })).toThrow(
    RangeError,
  );
  expect(() => new PostgresEventStore({ connectionString, table: 'Events' })).toThrow(RangeError);
  expect(() => new PostgresEventStore({ connectionString, table: 'e'.repeat(31) })).toThrow(RangeError);
});

if (!url) {
  console.warn(
    '\n!!! PostgreSQL event-store contract suite SKIPPED: set EVENT_STORE_PG_URL=postgres://postgres@127.0.0.1:5432/test to run it !!!\n',
  );
  describe.skip('PostgresEventStore (SKIPPED: EVENT_STORE_PG_URL is not set)', () => {
    it('passes the event-store contract', () => undefined);
  });
} else {
  postgresSuites(url);
}

/**
 * A poll far beyond any test: where a case says only NOTIFY (or the held-back retry) can deliver, nothing
 * else can, however long the machine takes. WAIT_MS bounds those waits: a bound on a hang, far below it.
 */
const NO_POLL_MS = 3_600_000;
const WAIT_MS = 60_000;

/** Resolves once `store` has heard a commit that names `stream` (its NOTIFY, as the store's subscribers get it). */
function heard(store: PostgresEventStore, stream: string): Promise<void> {
  return new Promise((resolve) => {
    // The store's own notifier (private: what its subscribers are woken by), read here as they hear it.
    const { commits } = store as unknown as { commits: CommitNotifier };
    const off = commits.listen((streams) => {
      if (streams?.has(stream)) {
        off();
        resolve();
      }
    });
  });
}

function postgresSuites(connectionString: string): void {
  // One schema per run, dropped at the end, so parallel runs never meet.
  const schema = `es_test_${randomBytes(6).toString('hex')}`;
  let tables = 0;
  const options = (extra: Partial<PostgresEventStoreOptions> = {}): PostgresEventStoreOptions => ({
    connectionString,
    schema,
    table: `events_${++tables}`,
    ...extra,
  });

  afterAll(async () => {
    const admin = new Client({ connectionString });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  eventStoreContract('PostgresEventStore', async () => {
    const store = new PostgresEventStore(options());
    await store.start();
    return store;
  });

  describe('PostgresEventStore with several connections', () => {
    const resources: { close(): Promise<void> }[] = [];
    const open = async (opts: PostgresEventStoreOptions): Promise<PostgresEventStore> => {
      const store = new PostgresEventStore(opts);
      resources.push(store);
      await store.start();
      return store;
    };
    const rawClient = async (): Promise<Client> => {
      const client = new Client({ connectionString });
      await client.connect();
      resources.push({ close: () => client.end() });
      return client;
    };
    afterEach(async () => {
      for (const r of resources.splice(0).reverse()) await r.close();
    });
    /** A transaction of another client, left open, that has inserted `event` as the first of `stream`. */
    const openInsert = async (
      store: PostgresEventStore,
      stream: string,
      event: NewEvent,
    ): Promise<Client> => {
      const slow = await rawClient();
      await slow.query('BEGIN');
      await slow.query(
        `INSERT INTO ${store.sql.table} (stream_id, stream_revision, event_id, type, data, metadata)
         VALUES ($1, 0, $2, $3, $4, '{}')`,
        [stream, event.id, event.type, JSON.stringify(event.data)],
      );
      return slow;
    };

    it('a reader never skips a transaction that commits after a later one', async () => {
      const store = await open(options());
      const [early, late, later] = [newEvent(), newEvent(), newEvent()];
      const [checkpoint] = (await store.append('a', [early], { expectedRevision: 'no_stream' })).checkpoints;
      const subscriber = collect(store);
      await subscriber.until(1);

      const slow = await openInsert(store, 'b', late);
      await store.append('c', [later], { expectedRevision: 'no_stream' });
      // Position alone would hand out `later` now, and a checkpoint on it would skip `late` forever.
      const byPosition = await (
        await rawClient()
      ).query(`SELECT event_id::text AS id FROM ${store.sql.table} WHERE global_position > 1`);
      expect(ids(byPosition.rows)).toEqual([later.id]);
      expect(await store.readAll({ after: checkpoint })).toEqual([]);
      await sleep(100);
      expect(ids(subscriber.received)).toEqual([early.id]);

      await slow.query('SELECT pg_notify($1, $2)', [store.sql.channel, '']);
      await slow.query('COMMIT');
      expect(ids(await logOf(store, 2, checkpoint))).toEqual([late.id, later.id]);
      await subscriber.until(3);
      await sleep(100);
      expect(ids(await subscriber.stop())).toEqual([early.id, late.id, later.id]);
    });

    it('readPrefixed stops its head before a transaction still open, so following from it skips nothing', async () => {
      const store = await open(options());
      const [early, late, later] = [newEvent(), newEvent(), newEvent()];
      await store.append('access-a', [early], { expectedRevision: 'no_stream' });
      // The horizon is the server's: another session's transaction open as `early` committed (another test's)
      // holds it back too, until it ends. Once `early` is read, only the transaction opened here holds back.
      expect(ids(await logOf(store, 1))).toEqual([early.id]);
      const slow = await openInsert(store, 'access-b', late);
      await store.append('access-c', [later], { expectedRevision: 'no_stream' });
      // `later` is committed, but behind an open transaction: neither it nor the head may pass it yet.
      const read = await store.readPrefixed(['access-']);
      expect(ids(read.events)).toEqual([early.id]);
      expect(read.head).toBe(read.events[0].checkpoint);
      await slow.query('COMMIT');
      expect(ids(await logOf(store, 2, read.head))).toEqual([late.id, later.id]);
      expect(ids((await store.readPrefixed(['access-'])).events)).toEqual([early.id, late.id, later.id]);
    });

    it('events held back by a transaction that ends without NOTIFY arrive soon after it ends', async () => {
      const store = await open(options({ pollIntervalMs: NO_POLL_MS }));
      const subscriber = collect(store);
      const foreign = await rawClient();
      await foreign.query('BEGIN');
      await foreign.query('SELECT pg_current_xact_id()');
      const event = newEvent();
      await store.append('s', [event], { expectedRevision: 'no_stream' });
      await sleep(100);
      expect(subscriber.received).toEqual([]);
      await foreign.query('ROLLBACK');
      // No polling here: only the held-back retry can deliver.
      await subscriber.until(1, WAIT_MS);
      expect(ids(await subscriber.stop())).toEqual([event.id]);
    });

    it('events appended through one pool reach a subscriber on another live, by NOTIFY', async () => {
      const shared = options();
      const writer = await open(shared);
      const reader = await open({ ...shared, pollIntervalMs: NO_POLL_MS });
      const [first, second] = [newEvent(), newEvent()];
      await writer.append('s', [first], { expectedRevision: 'no_stream' });
      const subscriber = collect(reader);
      await subscriber.until(1);
      await writer.append('s', [second], { expectedRevision: 0n });
      // The reader does not poll: only NOTIFY can deliver.
      await subscriber.until(2, WAIT_MS);
      expect(ids(await subscriber.stop())).toEqual([first.id, second.id]);
    });

    it('a subscriber keeps receiving after its LISTEN connection is killed', async () => {
      const quiet = options({ pollIntervalMs: NO_POLL_MS, onError: () => undefined });
      const writer = await open(quiet);
      const reader = await open(quiet);
      const [first, second] = [newEvent(), newEvent()];
      await writer.append('s', [first], { expectedRevision: 'no_stream' });
      const subscriber = collect(reader);
      await subscriber.until(1);
      const killed = await (
        await rawClient()
      ).query(
        'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()',
        [`LISTEN "${reader.sql.channel}"`],
      );
      // Both stores listen on this table's channel; both lose their connection.
      expect(killed.rows).toEqual([{ done: true }, { done: true }]);
      await writer.append('s', [second], { expectedRevision: 0n });
      // No polling: the wake-up after reconnecting delivers it.
      await subscriber.until(2, WAIT_MS);
      expect(ids(await subscriber.stop())).toEqual([first.id, second.id]);
    });

    describe('selective follow (docs/event-store.md)', () => {
      /** An interest in every stream outside `fx-`, and in `wanted` of those inside; counts its reads. */
      const interestIn = (wanted: Set<string>) => {
        const seen = { reads: 0, passedOver: 0 };
        const interest: SubscriptionInterest = {
          prefix: 'fx-',
          selective: () => true,
          wants: (stream) => wanted.has(stream),
          always: () => {
            seen.reads++;
            return wanted;
          },
          passedOver: () => void seen.passedOver++,
        };
        return { interest, seen };
      };

      /**
       * The streams each selected read of `store` asks for from now on (sorted, joined with commas). A page
       * held back behind an open transaction is read again as it was asked until that transaction ends, and
       * the horizon is the server's: any session's transaction, another test's too, holds pages back.
       * `asked(from)` leaves those retries out.
       */
      const selectedReads = (store: PostgresEventStore) => {
        type Selecting = {
          readSelected(after: string | undefined, limit: number, selection: LogSelection): Promise<LogPage>;
        };
        const reads: Array<{ streams: string; heldBack: boolean }> = [];
        const selecting = store as unknown as Selecting;
        const read = selecting.readSelected.bind(store);
        jest.spyOn(selecting, 'readSelected').mockImplementation(async (after, limit, selection) => {
          const page = await read(after, limit, selection);
          reads.push({ streams: [...selection.streams].sort().join(','), heldBack: page.heldBack === true });
          return page;
        });
        const retry = (i: number) =>
          i > 0 && reads[i - 1].heldBack && reads[i - 1].streams === reads[i].streams;
        return {
          mark: () => reads.length,
          asked: (from: number) => reads.flatMap((r, i) => (i < from || retry(i) ? [] : [r.streams])),
        };
      };

      /** The payloads of the store's NOTIFYs from now on, as a LISTEN of another connection gets them. */
      const notifications = async (store: PostgresEventStore): Promise<string[]> => {
        const listener = await rawClient();
        const payloads: string[] = [];
        listener.on('notification', (m) => payloads.push(m.payload ?? ''));
        await listener.query(`LISTEN "${store.sql.channel}"`);
        return payloads;
      };

      it('NOTIFY names each stream a commit wrote and its last revision', async () => {
        const store = await open(options());
        const payloads = await notifications(store);
        await store.append('one', newEvents(3), { expectedRevision: 'no_stream' });
        await Promise.all([
          store.append('two', newEvents(2), { expectedRevision: 'no_stream' }),
          store.append('three', newEvents(1), { expectedRevision: 'any' }),
        ]);
        const deadline = Date.now() + WAIT_MS;
        const merged = () => Object.assign({}, ...payloads.map((p) => JSON.parse(p) as object));
        while (Object.keys(merged()).length < 3 && Date.now() < deadline) await sleep(10);
        expect(JSON.parse(payloads[0])).toEqual({ one: 2 });
        expect(merged()).toEqual({ one: 2, two: 1, three: 0 });
        expect(notifiedStreams(payloads[0])).toEqual(new Map([['one', 2n]]));
        // A lone append to a stream that exists: its last revision, from the statement's parameters.
        const heard = payloads.length;
        await store.append('one', newEvents(2), { expectedRevision: 2n });
        while (payloads.length === heard && Date.now() < deadline + WAIT_MS) await sleep(10);
        expect(payloads.slice(heard).map((p) => JSON.parse(p) as object)).toEqual([{ one: 4 }]);
      });

      it('a NOTIFY that would pass its size limit says nothing, and the commit still goes out', async () => {
        const store = await open(options());
        const payloads = await notifications(store);
        const long = 'x'.repeat(8000);
        await store.append(long, newEvents(1), { expectedRevision: 'no_stream' });
        const deadline = Date.now() + WAIT_MS;
        while (payloads.length === 0 && Date.now() < deadline) await sleep(10);
        expect(payloads).toEqual(['']);
        expect((await store.readStream(long)).map((e) => e.revision)).toEqual([0n]);
      });

      it('a payload it cannot read names nothing, so every reader reads', () => {
        for (const payload of [
          undefined,
          '',
          'not json',
          '[]',
          '{}',
          '["a"]',
          '{"a":-1}',
          '{"a":"1"}',
          '{"a":1.5}',
        ])
          expect(notifiedStreams(payload)).toBeUndefined();
        expect(notifiedStreams('{"a":1,"b":0}')).toEqual(
          new Map([
            ['a', 1n],
            ['b', 0n],
          ]),
        );
      });

      it('sleeps through commits of streams it does not want and never reads their events', async () => {
        const shared = options({ pollIntervalMs: NO_POLL_MS });
        const writer = await open(shared);
        const reader = await open(shared);
        const wanted = new Set<string>();
        const { interest, seen } = interestIn(wanted);
        const selected = selectedReads(reader);
        // Its NOTIFY heard before the subscriber starts: it cannot wake it (and make a read) after the mark.
        const otherHeard = heard(reader, 'other');
        await writer.append('other', newEvents(1), { expectedRevision: 'no_stream' });
        await otherHeard;
        const subscriber = collect(reader, { interest });
        await subscriber.until(1);
        const reads = seen.reads;
        const mark = selected.mark();
        // Every wake-up below comes to the reader before the check: each was slept through as it came.
        const lastHeard = heard(reader, 'fx-9');
        for (let i = 0; i < 10; i++)
          await writer.append(`fx-${i}`, newEvents(2), { expectedRevision: 'no_stream' });
        await lastHeard;
        await new Promise((r) => setImmediate(r));
        expect(selected.asked(mark)).toEqual([]);
        expect(subscriber.received).toHaveLength(1);

        wanted.add('fx-late');
        await writer.append('fx-late', newEvents(1), { expectedRevision: 'no_stream' });
        await writer.append('fx-3', newEvents(1), { expectedRevision: 1n });
        await writer.append('other', newEvents(1), { expectedRevision: 0n });
        await subscriber.until(3, WAIT_MS);
        await sleep(100);
        expect((await subscriber.stop()).map((e) => `${e.stream}@${e.revision}`)).toEqual([
          'other@0',
          'fx-late@0',
          'other@1',
        ]);
        expect(seen.reads).toBeGreaterThan(reads);
        expect(seen.passedOver).toBeGreaterThan(0);
      });

      it('delivers an event it wants whose NOTIFY never came, when a read another commit woke passes over it', async () => {
        const shared = options({ pollIntervalMs: NO_POLL_MS });
        const writer = await open(shared);
        const reader = await open(shared);
        // Wanted when a commit names it (a fight held in a cache), not selected on every read.
        const interest: SubscriptionInterest = {
          prefix: 'fx-',
          selective: () => true,
          wants: (stream) => stream === 'fx-quiet',
          always: () => [],
          passedOver: () => undefined,
        };
        const selected = selectedReads(reader);
        // Its NOTIFY heard before the subscriber starts: it cannot wake it (and make a read) after the mark.
        const otherHeard = heard(reader, 'other');
        await writer.append('other', newEvents(1), { expectedRevision: 'no_stream' });
        await otherHeard;
        const subscriber = collect(reader, { interest });
        await subscriber.until(1);
        // Committed without a NOTIFY (one held up past any read, or lost): only a read can find it.
        const [quiet, unwanted] = [newEvent(), newEvent()];
        await (await openInsert(writer, 'fx-quiet', quiet)).query('COMMIT');
        await (await openInsert(writer, 'fx-unwanted', unwanted)).query('COMMIT');
        await sleep(100);
        expect(subscriber.received).toHaveLength(1);
        const mark = selected.mark();
        await writer.append('other', newEvents(1), { expectedRevision: 0n });
        await subscriber.until(3, WAIT_MS);
        await sleep(100);
        expect((await subscriber.stop()).map((e) => `${e.stream}@${e.revision}`)).toEqual([
          'other@0',
          'fx-quiet@0',
          'other@1',
        ]);
        // The read the wake-up made passed over fx-quiet; the one after selected it: two, not one per commit.
        expect(selected.asked(mark)).toEqual(['', 'fx-quiet']);
      });

      it('never passes over an event it wants that commits behind an open transaction', async () => {
        const store = await open(options({ pollIntervalMs: NO_POLL_MS }));
        const { interest } = interestIn(new Set(['fx-w']));
        const subscriber = collect(store, { interest });
        const slow = await openInsert(store, 'older', newEvent());
        const [wanted] = [newEvent()];
        await store.append('fx-w', [wanted], { expectedRevision: 'no_stream' });
        await store.append('fx-skip', newEvents(3), { expectedRevision: 'no_stream' });
        await sleep(150);
        // Committed, but behind the open transaction: not yet, and the head read meanwhile stops before it.
        expect(subscriber.received).toEqual([]);
        await slow.query('COMMIT');
        await subscriber.until(2, WAIT_MS);
        await store.append('fx-w', newEvents(1), { expectedRevision: 0n });
        await subscriber.until(3, WAIT_MS);
        await sleep(100);
        expect((await subscriber.stop()).map((e) => `${e.stream}@${e.revision}`)).toEqual([
          'older@0',
          'fx-w@0',
          'fx-w@1',
        ]);
      });
    });

    const txOf = (checkpoint: string): string => checkpoint.split(':')[0];

    it('appends arriving together share one transaction, each judged against its own stream', async () => {
      const store = await open(options());
      await store.append('a', [newEvent()], { expectedRevision: 'no_stream' });
      await store.append('b', [newEvent()], { expectedRevision: 'no_stream' });
      const [a1, a2, b, c, d, e] = await Promise.all(
        [
          store.append('a', [newEvent()], { expectedRevision: 0n }),
          // Same stream and revision as the one before: it waits for the next batch, and loses.
          store.append('a', [newEvent()], { expectedRevision: 0n }),
          store.append('b', [newEvent()], { expectedRevision: 5n }),
          store.append('c', [newEvent()], { expectedRevision: 'no_stream' }),
          store.append('d', [newEvent()], { expectedRevision: 'any' }),
          store.append('e', newEvents(3), { expectedRevision: 'no_stream' }),
        ].map(outcome),
      );
      expect(a1).toMatchObject({ ok: { nextRevision: 1n } });
      expect(a2).toEqual({
        error: expect.objectContaining({ name: 'WrongExpectedRevision', expected: 0n, actual: 1n }),
      });
      expect(b).toEqual({
        error: expect.objectContaining({ name: 'WrongExpectedRevision', expected: 5n, actual: 0n }),
      });
      expect([c, d, e]).toMatchObject([
        { ok: { nextRevision: 0n } },
        { ok: { nextRevision: 0n } },
        { ok: { nextRevision: 2n } },
      ]);
      const committed = [a1, c, d, e].flatMap((o) => ('ok' in o ? o.ok.checkpoints : []));
      expect(new Set(committed.map(txOf)).size).toBe(1);
      const log = await logOf(store, 8);
      expect(log.slice(2).map((x) => `${x.stream}@${x.revision}`)).toEqual([
        'a@1',
        'c@0',
        'd@0',
        'e@0',
        'e@1',
        'e@2',
      ]);
      expect(log.slice(2).map((x) => x.checkpoint)).toEqual(committed);
    });

    /** Holds (stream 'x', revision 0) in an open foreign transaction until the store's batch waits on it. */
    async function contendedBatch(end: 'COMMIT' | 'ROLLBACK') {
      const store = await open(options());
      const foreign = await rawClient();
      const held = newEvent();
      await foreign.query('BEGIN');
      await foreign.query(
        `INSERT INTO ${store.sql.table} (stream_id, stream_revision, event_id, type, data, metadata) VALUES ('x', 0, $1, 'T', '{}', '{}')`,
        [held.id],
      );
      const outcomes = Promise.all(
        [
          store.append('x', [newEvent()], { expectedRevision: 'no_stream' }),
          store.append('y', [newEvent()], { expectedRevision: 'no_stream' }),
          store.append('z', newEvents(2), { expectedRevision: 'no_stream' }),
        ].map(outcome),
      );
      const watcher = await rawClient();
      for (let waited = 0; ; waited += 10) {
        const { rows } = await watcher.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position($1 IN query) > 0 AND query NOT LIKE 'SELECT 1 FROM pg_stat_activity%'`,
          [store.sql.table],
        );
        if (rows.length > 0) break;
        if (waited > 5000) throw new Error('the batch never waited on the foreign row');
        await sleep(10);
      }
      await foreign.query(end);
      return { store, held, outcomes: await outcomes };
    }

    it('a batch that loses a key to another open transaction still lands its other appends', async () => {
      const { store, held, outcomes } = await contendedBatch('COMMIT');
      const [x, y, z] = outcomes;
      expect(x).toEqual({ error: expect.objectContaining({ name: 'WrongExpectedRevision', actual: 0n }) });
      expect([y, z]).toMatchObject([{ ok: { nextRevision: 0n } }, { ok: { nextRevision: 1n } }]);
      expect(ids(await store.readStream('x'))).toEqual([held.id]);
      // Each then took the transactional path on its own, in no set order.
      expect((await logOf(store, 4)).map((e) => e.stream).sort()).toEqual(['x', 'y', 'z', 'z']);
    });

    it('a batch that waited on a foreign transaction which rolled back lands whole', async () => {
      const { store, outcomes } = await contendedBatch('ROLLBACK');
      expect(outcomes).toMatchObject([
        { ok: { nextRevision: 0n } },
        { ok: { nextRevision: 0n } },
        { ok: { nextRevision: 1n } },
      ]);
      const log = await logOf(store, 4);
      expect(log.map((e) => e.stream)).toEqual(['x', 'y', 'z', 'z']);
      expect(new Set(log.map((e) => txOf(e.checkpoint))).size).toBe(1);
    });

    it('stores starting together on a new table both create or find it', async () => {
      const shared = options();
      const [a, b] = await Promise.all([open(shared), open(shared)]);
      await a.append('s', [newEvent()], { expectedRevision: 'no_stream' });
      expect(await b.streamRevision('s')).toBe(0n);
    });
  });
}
