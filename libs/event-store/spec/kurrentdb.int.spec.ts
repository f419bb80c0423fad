import { randomBytes } from 'node:crypto';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { prepareEvents } from '../src/append-rules';
import { eventStoreContract } from '../src/contract';
import { collect, ids, logOf, newEvent, newEvents, outcome } from '../src/contract/helpers';
import { KurrentEventStore, type KurrentEventStoreOptions } from '../src/kurrentdb';
import { contentDigest } from '../src/kurrentdb-codec';
import { DuplicateEventId, WrongExpectedRevision } from '../src/port';

const url = process.env.KURRENTDB_URL;

// Runs without a server, and keeps this file from counting as wholly skipped: Jest hides the
// console output of such files when it runs several, which would swallow the warning below.
it('KurrentEventStore refuses a url it cannot use before connecting, without repeating its credentials', async () => {
  await expect(
    KurrentEventStore.connect({ url: 'kurrentdb://admin:s3cret@localhost:2113?tls=false&colour=blue' }),
  ).rejects.toThrow('KurrentDB url kurrentdb://***@localhost:2113: unsupported option "colour"');
  await expect(KurrentEventStore.connect({ url: 'postgres://admin:s3cret@localhost/x' })).rejects.not.toThrow(
    /s3cret/,
  );
  await expect(
    KurrentEventStore.connect({ url: 'kurrentdb://localhost:2113', namespace: 'a b' }),
  ).rejects.toThrow(RangeError);
});

if (!url) {
  console.warn(
    '\n!!! KurrentDB event-store contract suite SKIPPED: KURRENTDB_URL is not set. Start a server ' +
      '(docker run --rm -p 2113:2113 -e KURRENTDB_INSECURE=true kurrentplatform/kurrentdb:25.0) and set ' +
      'KURRENTDB_URL=kurrentdb://localhost:2113?tls=false to run it !!!\n',
  );
  describe.skip('KurrentEventStore (SKIPPED: KURRENTDB_URL is not set)', () => {
    it('passes the event-store contract', () => undefined);
  });
} else {
  kurrentSuites(url);
}

function kurrentSuites(connectionString: string): void {
  // A namespace per store: the server is shared and keeps everything, so each test starts empty.
  const run = `es-test-${randomBytes(6).toString('hex')}`;
  let stores = 0;
  const options = (extra: Partial<KurrentEventStoreOptions> = {}): KurrentEventStoreOptions => ({
    url: connectionString,
    namespace: `${run}-${++stores}.`,
    ...extra,
  });

  eventStoreContract('KurrentEventStore', () => KurrentEventStore.connect(options()));

  describe('KurrentEventStore on a real server', () => {
    const resources: { close(): Promise<void> }[] = [];
    const open = async (opts: KurrentEventStoreOptions): Promise<KurrentEventStore> => {
      const store = await KurrentEventStore.connect(opts);
      resources.push(store);
      return store;
    };
    const rawClient = (): KurrentDBClient => {
      const client = KurrentDBClient.connectionString(connectionString);
      resources.push({ close: () => client.dispose() });
      return client;
    };
    afterEach(async () => {
      for (const r of resources.splice(0).reverse()) await r.close();
    });

    it("an append's checkpoints are the ones readAll and subscribers see", async () => {
      const store = await open(options());
      const subscriber = collect(store);
      const written = [
        await store.append('a', newEvents(3), { expectedRevision: 'no_stream' }),
        await store.append('b', newEvents(2), { expectedRevision: 'no_stream' }),
      ];
      const expected = written.flatMap((w) => w.checkpoints);
      expect((await logOf(store, 5)).map((e) => e.checkpoint)).toEqual(expected);
      await subscriber.until(5);
      expect((await subscriber.stop()).map((e) => e.checkpoint)).toEqual(expected);
      expect([...expected].sort()).toEqual(expected);
    });

    it('two stores on one database (two instances) never store one id twice', async () => {
      const shared = options();
      const [a, b] = await Promise.all([open(shared), open(shared)]);
      const event = newEvent();
      const attempts = await Promise.all([
        outcome(a.append('s', [event], { expectedRevision: 'any' })),
        outcome(b.append('t', [event], { expectedRevision: 'any' })),
        outcome(b.append('s', [event], { expectedRevision: 'any' })),
      ]);
      const log = await logOf(a, 1);
      expect(ids(log)).toEqual([event.id]);
      const stored = log[0];
      expect(attempts[1]).toEqual(
        stored.stream === 't'
          ? { ok: { nextRevision: 0n, checkpoints: [stored.checkpoint] } }
          : { error: expect.any(DuplicateEventId) },
      );
      for (const attempt of [attempts[0], attempts[2]]) {
        expect(attempt).toEqual(
          stored.stream === 's'
            ? { ok: { nextRevision: 0n, checkpoints: [stored.checkpoint] } }
            : { error: expect.any(DuplicateEventId) },
        );
      }
    });

    it('wakes a subscriber of another store through its live subscription, not by polling', async () => {
      const shared = options();
      const writer = await open(shared);
      const reader = await open({ ...shared, pollIntervalMs: 60_000 });
      const [first, second] = [newEvent(), newEvent()];
      await writer.append('s', [first], { expectedRevision: 'no_stream' });
      const subscriber = collect(reader);
      await subscriber.until(1);
      await writer.append('s', [second], { expectedRevision: 0n });
      await subscriber.until(2, 3000);
      expect(ids(await subscriber.stop())).toEqual([first.id, second.id]);
    });

    it('a claim left by an append that died before writing lets its retry through, and nothing else', async () => {
      const shared = options();
      const store = await open(shared);
      const event = newEvent({ hp: 3 });
      const digest = contentDigest(prepareEvents([event])[0]);
      await rawClient().appendToStream(`${shared.namespace}event-id-${event.id}`, {
        id: newEvent().id,
        contentType: 'application/json',
        type: 'EventIdClaimed',
        data: { stream: 's', digest },
        metadata: {},
      });
      await expect(store.append('t', [event], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
        DuplicateEventId,
      );
      await expect(
        store.append('s', [{ ...event, data: { hp: 4 } }], { expectedRevision: 'any' }),
      ).rejects.toBeInstanceOf(DuplicateEventId);
      const result = await store.append('s', [event], { expectedRevision: 'no_stream' });
      expect(await store.append('s', [event], { expectedRevision: 'no_stream' })).toEqual(result);
      expect(ids(await store.readAll())).toEqual([event.id]);
    });

    it('a rejected append releases its claims, so the same ids can go elsewhere', async () => {
      const store = await open(options());
      await store.append('s', newEvents(1), { expectedRevision: 'no_stream' });
      const events = newEvents(2);
      await expect(store.append('s', events, { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      expect((await store.append('t', events, { expectedRevision: 'no_stream' })).nextRevision).toBe(1n);
      expect((await store.readStream('t')).map((e) => e.id)).toEqual(ids(events));
    });

    it('refuses stream names KurrentDB reserves', async () => {
      const store = await open(options());
      await expect(store.append('$settings', newEvents(1), { expectedRevision: 'any' })).rejects.toThrow(
        TypeError,
      );
      await expect(store.append('event-id-x', newEvents(1), { expectedRevision: 'any' })).rejects.toThrow(
        TypeError,
      );
    });
  });
}
