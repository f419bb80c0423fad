import type { StoreFactory } from './factory';
import type { EventStore, StoredEvent, SubscriptionInterest } from '../port';
import { collect, ids, logOf, newEvent, newEvents, sleep } from './helpers';

/** Long enough for a repeated delivery to show up; every engine wakes readers well within it. */
const SETTLE_MS = 150;

const burst = (store: EventStore, count: number, prefix: string): Promise<unknown> =>
  Promise.all(
    Array.from({ length: count }, (_, i) =>
      store.append(`${prefix}-${i % 7}`, [newEvent({ i })], { expectedRevision: 'any' }),
    ),
  );

export function subscribeContract(open: StoreFactory): void {
  describe('subscribeAll', () => {
    it('catches up, then goes live with no gap or repeat at the switch', async () => {
      const store = await open();
      // More than one catch-up page, so the switch happens after a paged catch-up.
      await store.append('seed', newEvents(510), { expectedRevision: 'no_stream' });
      const seeded = await logOf(store, 510);
      const lastSeeded = seeded[seeded.length - 1].checkpoint;
      const bursts: Promise<unknown>[] = [];
      // The filter runs as each event is delivered: appends land exactly as catch-up turns live.
      const subscriber = collect(store, {
        filter: (e: StoredEvent) => {
          if (e.checkpoint === lastSeeded || e.checkpoint === seeded[0].checkpoint)
            bursts.push(burst(store, 20, e.checkpoint));
          return true;
        },
      });
      bursts.push(burst(store, 20, 'during-catch-up'));
      await subscriber.until(550);
      await Promise.all(bursts);
      bursts.push(burst(store, 30, 'live'));
      await Promise.all(bursts);
      const expected = await logOf(store, 600);
      expect(expected).toHaveLength(600);
      await subscriber.until(expected.length);
      await sleep(SETTLE_MS);
      expect(ids(await subscriber.stop())).toEqual(ids(expected));
    });

    it('starts after a checkpoint and applies the filter', async () => {
      const store = await open();
      await store.append('a', newEvents(3), { expectedRevision: 'no_stream' });
      const [, second] = await logOf(store, 3);
      const subscriber = collect(store, {
        after: second.checkpoint,
        filter: (e) => e.stream.startsWith('keep'),
      });
      await store.append('keep-1', newEvents(2), { expectedRevision: 'no_stream' });
      await store.append('drop-1', newEvents(2), { expectedRevision: 'no_stream' });
      await store.append('keep-2', newEvents(1), { expectedRevision: 'no_stream' });
      await subscriber.until(3);
      await sleep(SETTLE_MS);
      expect((await subscriber.stop()).map((e) => e.stream)).toEqual(['keep-1', 'keep-1', 'keep-2']);
    });

    it('with an interest, delivers every event of the streams it needs, in order and once, whatever it passes over', async () => {
      const store = await open();
      const watched = new Set(['fx-watched']);
      const held = new Set<string>();
      const passed: number[] = [];
      const received: StoredEvent[] = [];
      const interest: SubscriptionInterest = {
        prefix: 'fx-',
        selective: () => true,
        wants: (stream) => held.has(stream) || watched.has(stream),
        always: () => watched,
        passedOver: () => void passed.push(received.length),
      };
      const subscriber = collect(store, {
        interest,
        filter: (e) => {
          received.push(e);
          return true;
        },
      });
      await store.append('other', newEvents(2), { expectedRevision: 'no_stream' });
      await store.append('fx-skipped', newEvents(3), { expectedRevision: 'no_stream' });
      await store.append('fx-watched', newEvents(2), { expectedRevision: 'no_stream' });
      held.add('fx-held');
      await store.append('fx-held', newEvents(2), { expectedRevision: 'no_stream' });
      await store.append('fx-skipped', newEvents(1), { expectedRevision: 2n });
      await store.append('other', newEvents(1), { expectedRevision: 1n });
      const log = await logOf(store, 11);
      const needed = log.filter((e) => e.stream !== 'fx-skipped');
      await subscriber.until(needed.length);
      await sleep(SETTLE_MS);
      const got = await subscriber.stop();
      // Events of streams it needs: all, in the log's order, once. Others only if the store cannot pass them over.
      expect(ids(got.filter((e) => e.stream !== 'fx-skipped'))).toEqual(ids(needed));
      const at = got.map((e) => log.findIndex((l) => l.id === e.id));
      expect(at).toEqual([...new Set(at)].sort((a, b) => a - b));
      // A store that passed something over said so before each event that may not follow on.
      if (got.length < log.length) expect(passed.length).toBeGreaterThan(0);
      else expect(passed).toEqual([]);
    });

    it('ends when its signal aborts, and when the store closes', async () => {
      const store = await open();
      await store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
      const aborted = new AbortController();
      aborted.abort();
      const none: StoredEvent[] = [];
      for await (const e of store.subscribeAll({ signal: aborted.signal })) none.push(e);
      expect(none).toEqual([]);

      const live = collect(store);
      await live.until(2);
      const started = Date.now();
      expect(await live.stop()).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(2000);

      const open2 = collect(store);
      await open2.until(2);
      const iterator = store.subscribeAll()[Symbol.asyncIterator]();
      await iterator.next();
      await iterator.next();
      const pending = iterator.next();
      await store.close();
      expect(await pending).toEqual({ done: true, value: undefined });
      expect(await open2.stop()).toHaveLength(2);
    });
  });
}
