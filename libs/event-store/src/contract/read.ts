import type { StoreFactory } from './factory';
import type { EventStore, StoredEvent } from '../port';
import { ids, logOf, newEvent, newEvents } from './helpers';

async function seed(store: EventStore): Promise<string[]> {
  const appended: string[] = [];
  for (let i = 0; i < 10; i++) {
    const events = newEvents(1 + (i % 3));
    await store.append(`s-${i % 3}`, events, { expectedRevision: 'any' });
    appended.push(...ids(events));
  }
  return appended;
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

    it('rejects a malformed checkpoint or limit', async () => {
      const store = await open();
      await expect(store.readAll({ after: 'not a checkpoint' })).rejects.toThrow(RangeError);
      await expect(store.readAll({ limit: 0 })).rejects.toThrow(RangeError);
    });
  });
}
