import type { StoreFactory } from './factory';
import type { EventStore, PrefixedRead, StoredEvent } from '../port';
import { ids, logOf, newEvent, newEvents, sleep } from './helpers';

async function seed(store: EventStore): Promise<string[]> {
  const appended: string[] = [];
  for (let i = 0; i < 10; i++) {
    const events = newEvents(1 + (i % 3));
    await store.append(`s-${i % 3}`, events, { expectedRevision: 'any' });
    appended.push(...ids(events));
  }
  return appended;
}

/**
 * readPrefixed once it holds `count` events and its head is the end of the log (PostgreSQL holds
 * commits back while an older transaction anywhere in the cluster is open, as `logOf` says).
 */
async function prefixedOf(store: EventStore, prefixes: string[], count: number): Promise<PrefixedRead> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const read = await store.readPrefixed(prefixes);
    const settled = read.events.length >= count && (await store.readAll({ after: read.head })).length === 0;
    if (settled || Date.now() > deadline) return read;
    await sleep(10);
  }
}

export function readContract(open: StoreFactory): void {
  describe('reading', () => {
    it('readStream reads one stream in revision order, from a revision', async () => {
      const store = await open();
      const events = newEvents(5);
      await store.append('s', events.slice(0, 2), { expectedRevision: 'no_stream' });
      await store.append('other', [newEvent()], { expectedRevision: 'no_stream' });
      await store.append('s', events.slice(2), { expectedRevision: 1n });
      expect(ids(await store.readStream('s'))).toEqual(ids(events));
      const fromThree = await store.readStream('s', { from: 3n });
      expect(fromThree.map((e) => e.revision)).toEqual([3n, 4n]);
      expect(ids(fromThree)).toEqual(ids(events.slice(3)));
      expect(await store.readStream('s', { from: 5n })).toEqual([]);
      expect(await store.readStream('missing')).toEqual([]);
      expect(await store.streamRevision('missing')).toBeUndefined();
    });

    it('readStream reads at most `limit` events, from a revision', async () => {
      const store = await open();
      const events = newEvents(7);
      await store.append('s', events, { expectedRevision: 'no_stream' });
      await store.append('other', newEvents(2), { expectedRevision: 'no_stream' });
      expect(ids(await store.readStream('s', { limit: 3 }))).toEqual(ids(events.slice(0, 3)));
      const page = await store.readStream('s', { from: 2n, limit: 4 });
      expect(page.map((e) => e.revision)).toEqual([2n, 3n, 4n, 5n]);
      expect(ids(page)).toEqual(ids(events.slice(2, 6)));
      expect(ids(await store.readStream('s', { from: 5n, limit: 10 }))).toEqual(ids(events.slice(5)));
      expect(ids(await store.readStream('s', { limit: 7 }))).toEqual(ids(events));
      expect(await store.readStream('s', { from: 7n, limit: 1 })).toEqual([]);
      expect(await store.readStream('missing', { limit: 1 })).toEqual([]);
      for (const limit of [0, -1, 1.5])
        await expect(store.readStream('s', { limit })).rejects.toThrow(RangeError);
    });

    it('readAll reads the global log in order, after a checkpoint, in pages', async () => {
      const store = await open();
      const appended = await seed(store);
      const all = await logOf(store, appended.length);
      expect(ids(all)).toEqual(appended);
      const pages: StoredEvent[] = [];
      for (let page = await store.readAll({ limit: 3 }); page.length > 0;) {
        expect(page.length).toBeLessThanOrEqual(3);
        pages.push(...page);
        page = await store.readAll({ after: page[page.length - 1].checkpoint, limit: 3 });
      }
      expect(pages).toEqual(all);
      expect(ids(await store.readAll({ after: all[6].checkpoint }))).toEqual(appended.slice(7));
      expect(await store.readAll({ after: all[all.length - 1].checkpoint })).toEqual([]);
      expect(new Set(all.map((e) => e.checkpoint)).size).toBe(all.length);
    });

    it('readPrefixed reads the streams named by prefix, in global order, and the head of the log', async () => {
      const store = await open();
      expect(await store.readPrefixed(['access-'])).toEqual({ events: [] });
      const streams = [
        'access-1',
        'fight-1',
        'tenant-a',
        'access',
        'accessx',
        'access.y',
        'access-2',
        'tenant-a',
        'zz',
        'é-1',
        'éa',
      ];
      const appended: Record<string, string[]> = {};
      for (const stream of streams) {
        const events = newEvents(stream === 'access-2' ? 2 : 1);
        await store.append(stream, events, { expectedRevision: 'any' });
        (appended[stream] ??= []).push(...ids(events));
      }
      const log = await logOf(store, 12);
      const read = await prefixedOf(store, ['tenant-', 'access-', 'é-'], 6);
      const wanted = log.filter((e) => /^(access-|tenant-|é-)/.test(e.stream));
      expect(ids(read.events)).toEqual(ids(wanted));
      expect(ids(read.events)).toEqual([
        ...appended['access-1'],
        appended['tenant-a'][0],
        ...appended['access-2'],
        appended['tenant-a'][1],
        ...appended['é-1'],
      ]);
      // Each event as readAll gives it, checkpoint included.
      expect(read.events).toEqual(wanted);
      expect(read.head).toBe(log[log.length - 1].checkpoint);
      // Following the log from the head gives what came after, and nothing read before.
      const later = [newEvent(), newEvent()];
      await store.append('access-3', [later[0]], { expectedRevision: 'no_stream' });
      await store.append('fight-2', [later[1]], { expectedRevision: 'no_stream' });
      expect(ids(await logOf(store, 2, read.head))).toEqual(ids(later));
      // …and so does readPrefixed after that head: the prefixed streams' new events, and the new head.
      const since = await store.readPrefixed(['tenant-', 'access-', 'é-'], { after: read.head });
      expect(ids(since.events)).toEqual([later[0].id]);
      const end = await logOf(store, 2, read.head);
      expect(since.head).toBe(end[end.length - 1].checkpoint);
      expect(await store.readPrefixed(['access-'], { after: since.head })).toEqual({
        events: [],
        head: since.head,
      });
      // A prefix another one covers, or one named twice, reads no stream twice.
      const overlapping = await prefixedOf(store, ['access-', 'access-1', 'access-'], 4);
      expect(ids(overlapping.events)).toEqual([
        ...appended['access-1'],
        ...appended['access-2'],
        later[0].id,
      ]);
      expect(await store.readPrefixed([])).toMatchObject({ events: [] });
      await expect(store.readPrefixed([''])).rejects.toThrow(RangeError);
    });

    it('head is the checkpoint of the last event, and checkpoints order as the log does', async () => {
      const store = await open();
      expect(await store.head()).toBeUndefined();
      const appended = await seed(store);
      // Read before the log is: every commit made before the call is at or before it.
      const head = await store.head();
      const log = await logOf(store, appended.length);
      expect(head).toBe(log[log.length - 1].checkpoint);
      for (let i = 1; i < log.length; i++) {
        expect(store.compareCheckpoints(log[i - 1].checkpoint, log[i].checkpoint)).toBeLessThan(0);
        expect(store.compareCheckpoints(log[i].checkpoint, log[i - 1].checkpoint)).toBeGreaterThan(0);
        expect(store.compareCheckpoints(log[i].checkpoint, log[i].checkpoint)).toBe(0);
      }
      expect(() => store.compareCheckpoints('not a checkpoint', head!)).toThrow(RangeError);
    });

    it('rejects a malformed checkpoint or limit', async () => {
      const store = await open();
      await expect(store.readAll({ after: 'not a checkpoint' })).rejects.toThrow(RangeError);
      await expect(store.readAll({ limit: 0 })).rejects.toThrow(RangeError);
    });
  });
}
