import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventStoreContract } from '../src/contract';
import { collect, ids, newEvents, outcome, sleep } from '../src/contract/helpers';
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

  describe('its own commits, handed to its subscribers', () => {
    it('a subscriber takes what this store just committed from memory, each event as the file holds it', async () => {
      const store = open(freshFile());
      await store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
      const first = collect(store);
      const second = collect(store);
      await Promise.all([first.until(2), second.until(2)]);
      const reads = jest.spyOn(store, 'readAll');
      // One batch (one turn): fresh appends, a refused one, a retry of the first, several events in one.
      const batch = [newEvents(1), newEvents(3), newEvents(1)];
      const outcomes = await Promise.all([
        outcome(store.append('t', batch[0], { expectedRevision: 'no_stream' })),
        outcome(store.append('s', batch[1], { expectedRevision: 1n })),
        outcome(store.append('s', newEvents(1), { expectedRevision: 9n })),
        outcome(store.append('t', batch[0], { expectedRevision: 'no_stream' })),
        outcome(store.append('u', batch[2], { expectedRevision: 'any' })),
      ]);
      expect(outcomes.map((o) => 'ok' in o)).toEqual([true, true, false, true, true]);
      // Then appends one at a time, each waking the subscribers on its own.
      const later = newEvents(4);
      for (const e of later) await store.append('v', [e], { expectedRevision: 'any' });
      await Promise.all([first.until(11), second.until(11)]);
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      const file = await store.readAll();
      expect(ids(file)).toEqual([...ids(file.slice(0, 2)), ...ids(batch.flat()), ...ids(later)].slice(0, 11));
      const [a, b] = await Promise.all([first.stop(), second.stop()]);
      expect(a).toEqual(file);
      expect(b).toEqual(file);
      // Each subscriber its own copy, as a read from the file gives.
      expect(a[5].data).not.toBe(b[5].data);
    });

    it('commits of another connection between its own come once and in order', async () => {
      const file = freshFile();
      const store = new SqliteEventStore(file, { pollIntervalMs: 20 });
      stores.push(store);
      const other = open(file);
      const subscriber = collect(store);
      const mine = (): Promise<unknown> => store.append('mine', newEvents(1), { expectedRevision: 'any' });
      const theirs = (): Promise<unknown> =>
        other.append('theirs', newEvents(1), { expectedRevision: 'any' });
      await mine();
      await subscriber.until(1);
      // Theirs right after mine: the next own commit does not follow on from the run held.
      await theirs();
      await mine();
      await subscriber.until(3);
      // Mine, then theirs before the subscriber can read: it gets mine from memory, theirs by the poll.
      await Promise.all([mine(), theirs()]);
      await mine();
      // Several events in one transaction of its own (a store copy's): read from the file.
      await store.atomically(async (append) => {
        await append('copied', newEvents(2), { expectedRevision: 'any' });
      });
      await mine();
      await subscriber.until(9, 60_000);
      const log = await store.readAll();
      expect(log).toHaveLength(9);
      expect(ids(await subscriber.stop())).toEqual(ids(log));
    });

    it('another connection’s commit the poll saw before a read after an own commit is read from the file', async () => {
      const file = freshFile();
      const store = new SqliteEventStore(file, { pollIntervalMs: 10 });
      stores.push(store);
      const other = open(file);
      const events = store.subscribeAll()[Symbol.asyncIterator]();
      try {
        await store.append('mine', newEvents(1), { expectedRevision: 'any' });
        expect((await events.next()).value).toMatchObject({ stream: 'mine', checkpoint: '1' });
        // The subscriber holds on: an own commit, then theirs, and the poll sees theirs (its one wake-up).
        await store.append('mine', newEvents(1), { expectedRevision: 'any' });
        await other.append('theirs', newEvents(1), { expectedRevision: 'any' });
        await sleep(200);
        expect((await events.next()).value).toMatchObject({ stream: 'mine', checkpoint: '2' });
        const next = await Promise.race([events.next(), sleep(3000).then(() => 'no event')]);
        expect(next).toMatchObject({ value: { stream: 'theirs', checkpoint: '3' } });
      } finally {
        void events.return?.();
      }
    });
  });
});
