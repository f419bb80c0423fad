import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventStoreContract } from '../src/contract';
import { collect, ids, newEvents } from '../src/contract/helpers';
import { SqliteEventStore } from '../src/sqlite';

const root = mkdtempSync(join(tmpdir(), 'event-store-sqlite-'));
let runs = 0;
// A fresh, not yet existing directory per store: the store must create it.
const freshFile = (): string => join(root, `run-${++runs}`, 'events.sqlite');

afterAll(() => rmSync(root, { recursive: true, force: true }));

eventStoreContract('SqliteEventStore', async () => new SqliteEventStore(freshFile()));

describe('SqliteEventStore on its file', () => {
  const stores: SqliteEventStore[] = [];
  const open = (file: string): SqliteEventStore => {
    const store = new SqliteEventStore(file);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('keeps its events across close and reopen, in WAL mode', async () => {
    const file = freshFile();
    const first = open(file);
    const events = newEvents(3);
    const appended = await first.append('s', events, { expectedRevision: 'no_stream' });
    await first.close();
    const reopened = open(file);
    expect(ids(await reopened.readAll())).toEqual(ids(events));
    expect(await reopened.streamRevision('s')).toBe(2n);
    expect((await reopened.append('s', events, { expectedRevision: 'no_stream' })).checkpoints).toEqual(
      appended.checkpoints,
    );
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('appends queued before close are written', async () => {
    const file = freshFile();
    const store = open(file);
    const pending = store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
    await store.close();
    expect((await pending).nextRevision).toBe(1n);
    expect(await open(file).readAll()).toHaveLength(2);
  });

  it('a second instance on the same file sees the first one’s appends live, by polling', async () => {
    const file = freshFile();
    const writer = open(file);
    const reader = open(file);
    await writer.append('s', newEvents(2), { expectedRevision: 'no_stream' });
    const subscriber = collect(reader);
    await subscriber.until(2);
    const live = newEvents(3);
    await writer.append('s', live.slice(0, 1), { expectedRevision: 1n });
    // Nothing in the reader's process commits now: only its poll of the file can see this (every 1 s; the
    // wait is only a bound on a hang, for a loaded machine runs the poll's timer late).
    await subscriber.until(3, 60_000);
    await reader.append('t', live.slice(1), { expectedRevision: 'no_stream' });
    await subscriber.until(5);
    expect(ids(await subscriber.stop()).slice(2)).toEqual(ids(live));
  });
});
