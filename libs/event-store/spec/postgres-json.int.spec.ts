import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { logOf } from '../src/contract/helpers';
import type { NewEvent, StoredEvent } from '../src/port';
import { PostgresEventStore, type PostgresEventStoreOptions } from '../src/postgres';

const url = process.env.EVENT_STORE_PG_URL;

/** Members in no sorted order, nested, of several lengths: jsonb would give {"a":…,"zeta":…} and {"b":…,"yy":…}. */
const data = { zeta: 1, a: { yy: 1, b: 2 }, list: [{ mid: true, z: null, aa: 'x' }] };
const metadata = { z: 'last', causation: 'c', m: { y: 1, x: 2 } };
const event = (type = 'Happened'): NewEvent => ({ id: randomUUID(), type, data, metadata });
const written = (e: StoredEvent) => [JSON.stringify(e.data), JSON.stringify(e.metadata)];
const asWritten = [JSON.stringify(data), JSON.stringify(metadata)];

if (!url) {
  console.warn(
    '\n!!! PostgreSQL event-store member-order suite SKIPPED: set EVENT_STORE_PG_URL=postgres://postgres@127.0.0.1:5432/test to run it !!!\n',
  );
  describe.skip('PostgresEventStore keeps JSON members in the order written (SKIPPED: EVENT_STORE_PG_URL is not set)', () => {
    it('needs PostgreSQL', () => undefined);
  });
} else {
  memberOrderSuites(url);
}

function memberOrderSuites(connectionString: string): void {
  // One schema per run, dropped at the end, so parallel runs never meet.
  const schema = `es_json_${randomBytes(6).toString('hex')}`;
  let tables = 0;
  const options = (): PostgresEventStoreOptions => ({
    connectionString,
    schema,
    table: `events_${++tables}`,
  });
  const stores: PostgresEventStore[] = [];
  let admin: Client;
  const open = async (opts: PostgresEventStoreOptions): Promise<PostgresEventStore> => {
    const store = new PostgresEventStore(opts);
    stores.push(store);
    await store.start();
    return store;
  };
  const columnTypes = async (table: string) =>
    (
      await admin.query<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = $2 AND column_name IN ('data', 'metadata') ORDER BY column_name`,
        [schema, table],
      )
    ).rows.map((r) => `${r.column_name} ${r.data_type}`);

  beforeAll(async () => {
    admin = new Client({ connectionString });
    await admin.connect();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  describe('PostgresEventStore keeps JSON members in the order written', () => {
    it('given data and metadata with members in no sorted order, when appended alone, in a batch and atomically, then every read gives back the same JSON text', async () => {
      const opts = options();
      const store = await open(opts);
      expect(await columnTypes(opts.table!)).toEqual(['data json', 'metadata json']);
      // An exact revision alone takes the one-append statement; 'any' takes the batch statement.
      await store.append('one', [event(), event()], { expectedRevision: 'no_stream' });
      await Promise.all([
        store.append('batch-a', [event()], { expectedRevision: 'any' }),
        store.append('batch-b', [event(), event()], { expectedRevision: 'any' }),
      ]);
      await store.atomically(async (append) => {
        await append('atomic', [event()], { expectedRevision: 'no_stream' });
      });
      // The log as it reads once nothing holds it back (another session's transaction open on the server would).
      const all = await logOf(store, 6);
      expect(all.map((e) => e.stream).sort()).toEqual([
        'atomic',
        'batch-a',
        'batch-b',
        'batch-b',
        'one',
        'one',
      ]);
      for (const e of all) expect([e.stream, ...written(e)]).toEqual([e.stream, ...asWritten]);
      for (const e of await store.readStream('one')) expect(written(e)).toEqual(asWritten);
      const prefixed = await store.readPrefixed(['batch-']);
      expect(prefixed.events).toHaveLength(3);
      for (const e of prefixed.events) expect(written(e)).toEqual(asWritten);
    });

    it('given an appended event, when the same append is sent again, then it is a replay with the first result', async () => {
      const store = await open(options());
      const e = event();
      const first = await store.append('s', [e], { expectedRevision: 'no_stream' });
      expect(await store.append('s', [e], { expectedRevision: 'no_stream' })).toEqual(first);
    });
  });

  describe('PostgresEventStore on a table an earlier version created with jsonb columns', () => {
    /** The table as the earlier version made it, in this run's schema, holding one event of stream `old`. */
    const oldTable = async (table: string, old: NewEvent) => {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await admin.query(`CREATE TABLE "${schema}"."${table}" (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        event_id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_revision));
        CREATE INDEX IF NOT EXISTS "${table}_tx_gp" ON "${schema}"."${table}" (transaction_id, global_position)`);
      await admin.query(
        `INSERT INTO "${schema}"."${table}" (stream_id, stream_revision, event_id, type, data, metadata)
         VALUES ('old', 0, $1, $2, $3::jsonb, $4::jsonb)`,
        [old.id, old.type, JSON.stringify(old.data), JSON.stringify(old.metadata)],
      );
      expect(await columnTypes(table)).toEqual(['data jsonb', 'metadata jsonb']);
    };

    it('given the old table with an event, when two stores start on it at once, then its columns are json, the old event reads back and is recognised on a retry, and new events keep their order', async () => {
      const opts = options();
      const old = event('Old');
      await oldTable(opts.table!, old);
      const [store, other] = await Promise.all([open(opts), open(opts)]);
      expect(await columnTypes(opts.table!)).toEqual(['data json', 'metadata json']);

      const [stored] = await store.readStream('old');
      expect(stored).toMatchObject({ id: old.id, type: 'Old', data, metadata, revision: 0n });
      // Written before: jsonb's order, kept. The same event sent again is still the same event.
      expect(written(stored)).not.toEqual(asWritten);
      expect(await store.append('old', [old], { expectedRevision: 'no_stream' })).toEqual({
        nextRevision: 0n,
        checkpoints: [stored.checkpoint],
      });

      await store.append('old', [event()], { expectedRevision: 0n });
      await other.append('new', [event()], { expectedRevision: 'any' });
      const all = await logOf(other, 3);
      expect(all.map((e) => [e.stream, e.revision])).toEqual([
        ['old', 0n],
        ['old', 1n],
        ['new', 0n],
      ]);
      for (const e of all.slice(1)) expect(written(e)).toEqual(asWritten);
    });
  });
}
