import { randomUUID } from 'node:crypto';
import {
  EventStore,
  InMemoryEventStore,
  StoredEvent,
  SubscribeOptions,
  SubscriptionInterest,
} from '@app/event-store';
import { LogFollower } from '../src/log-follower';
import { TailPage, TailReader } from '../src/log-tail';
import { MemoryReadStore } from '../src/projections/memory-read-store';
import { ProjectionRunner } from '../src/projections/runner';
import { FightService } from '../src/fight-service';
import { countingReads, plainSheet } from './helpers';

const sheet = plainSheet;

async function appendOthers(store: EventStore, count: number): Promise<StoredEvent[]> {
  for (let i = 0; i < count; i++)
    await store.append(`other-${i}`, [{ id: randomUUID(), type: 'Other', data: { i } }], {
      expectedRevision: 'no_stream',
    });
  return store.readAll({});
}

describe('TailReader (docs/event-store.md "One tail read")', () => {
  it('given pages the follower read, when a consumer reads on from a checkpoint inside them, then the store is not read', async () => {
    const log = new InMemoryEventStore();
    const all = await appendOthers(log, 6);
    const { store, reads } = countingReads(log);
    const tail = new TailReader(store);
    tail.offer({ after: undefined, events: all.slice(0, 3) });
    tail.offer({ after: all[2].checkpoint, events: all.slice(3) });

    expect(await tail.readAll(undefined, 2)).toEqual(all.slice(0, 2));
    expect(await tail.readAll(all[1].checkpoint, 10)).toEqual(all.slice(2));
    expect(reads()).toBe(0);
  });

  it('given pages that do not reach the checkpoint, or a gap between pages, then what they lack is read from the store', async () => {
    const log = new InMemoryEventStore();
    const all = await appendOthers(log, 6);
    const { store, reads } = countingReads(log);
    const tail = new TailReader(store);
    tail.offer({ after: all[1].checkpoint, events: all.slice(2, 4) });
    // Behind the held pages: read from the store, all of it.
    expect(await tail.readAll(all[0].checkpoint, 10)).toEqual(all.slice(1));
    expect(reads()).toBe(1);
    // A page that does not follow the last one replaces them: nothing between is taken for read.
    tail.offer({ after: all[4].checkpoint, events: all.slice(5) });
    expect(await tail.readAll(all[3].checkpoint, 10)).toEqual(all.slice(4));
    expect(reads()).toBe(2);
    // At the end of what is held: the store says whether more came.
    expect(await tail.readAll(all[5].checkpoint, 10)).toEqual([]);
    expect(reads()).toBe(3);
  });

  it('given a log follower handing its pages to a projection runner, when fights are played, then the runner folds them without reading the log itself', async () => {
    const log = new InMemoryEventStore();
    const { store, reads } = countingReads(log);
    const runner = new ProjectionRunner(store, new MemoryReadStore(), undefined, undefined, {
      tail: new TailReader(store),
    });
    await runner.start(60_000);
    const bootReads = reads();
    const follower = new LogFollower(log, () => undefined, new Set([(p: TailPage) => runner.offer(p)]));
    follower.start(undefined);
    try {
      const service = new FightService(log);
      const { fightId } = await service.create({
        system: 'narateer',
        name: 'F',
        dice: { mode: 'fair' },
        combatants: [{ id: 'a', name: 'A', side: 'x', sheet }],
      });
      let seq = 0;
      for (let i = 0; i < 5; i++)
        ({ seq } = await service.execute(fightId, { type: 'AddNote', text: `n${i}` }));
      while (((await runner.read.getFight(fightId))?.seq ?? 0) < seq)
        await new Promise((r) => setImmediate(r));
      expect(reads() - bootReads).toBe(0);
    } finally {
      follower.stop();
      await runner.stop();
    }
  });
});

describe('selective follow (docs/event-store.md "Selective follow")', () => {
  /** A store whose subscription yields what the test pushes, calling `passedOver` where told. */
  function scriptedStore(log: EventStore) {
    let interest: SubscriptionInterest | undefined;
    let push: ((step: StoredEvent | 'gap') => void) | undefined;
    const queue: Array<StoredEvent | 'gap'> = [];
    const store: EventStore = Object.create(log) as EventStore;
    store.subscribeAll = (options?: SubscribeOptions) => {
      interest = options?.interest;
      return (async function* () {
        for (;;) {
          const step = queue.shift() ?? (await new Promise<StoredEvent | 'gap'>((r) => (push = r)));
          push = undefined;
          if (step === 'gap') interest?.passedOver();
          else yield step;
        }
      })();
    };
    return {
      store,
      interest: () => interest,
      feed: (...steps: Array<StoredEvent | 'gap'>) => {
        for (const s of steps) {
          const waiting = push;
          push = undefined;
          if (waiting) waiting(s);
          else queue.push(s);
        }
      },
    };
  }

  /** Waits until the follower has handed on `count` pages in all (it hands what it took on the turn after). */
  const handedOn = async (pages: TailPage[], count: number) => {
    for (const started = Date.now(); pages.length < count; await new Promise((r) => setImmediate(r)))
      if (Date.now() - started > 10_000) throw new Error(`${pages.length} pages handed on, not ${count}`);
  };

  it('given events the store passed over, then the pages after the gap say so, and contiguous ones do not', async () => {
    const log = new InMemoryEventStore();
    const all = await appendOthers(log, 6);
    const scripted = scriptedStore(log);
    const pages: TailPage[] = [];
    const follower = new LogFollower(
      scripted.store,
      () => undefined,
      new Set([(p: TailPage) => pages.push(p)]),
      {
        prefix: 'other-',
        selective: () => true,
        wants: () => false,
        always: () => [],
      },
    );
    follower.start(undefined);
    try {
      scripted.feed(all[0], all[1]);
      await handedOn(pages, 1);
      // Selected reads mark every event: the contiguous page before them goes out alone.
      scripted.feed('gap', all[3], 'gap', all[4]);
      await handedOn(pages, 2);
      scripted.feed(all[5]);
      await handedOn(pages, 3);
      expect(
        pages.map((p) => ({ after: p.after, ids: p.events.map((e) => e.id), partial: !!p.partial })),
      ).toEqual([
        { after: undefined, ids: [all[0].id, all[1].id], partial: false },
        { after: all[1].checkpoint, ids: [all[3].id, all[4].id], partial: true },
        { after: all[4].checkpoint, ids: [all[5].id], partial: false },
      ]);
      expect(scripted.interest()?.prefix).toBe('other-');
    } finally {
      follower.stop();
    }
  });

  it('given a partial page, then a tail reader drops what it held and reads the store', async () => {
    const log = new InMemoryEventStore();
    const all = await appendOthers(log, 6);
    const { store, reads } = countingReads(log);
    const tail = new TailReader(store);
    tail.offer({ after: undefined, events: all.slice(0, 2) });
    tail.offer({ after: all[1].checkpoint, events: [all[3]], partial: true });
    expect(await tail.readAll(all[1].checkpoint, 10)).toEqual(all.slice(2));
    expect(reads()).toBe(1);
  });

  it('given a fight service, then it wants the events of fights it holds or watches and lacks, and only while not the owner', async () => {
    const log = new InMemoryEventStore();
    const scripted = scriptedStore(log);
    const service = new FightService(scripted.store);
    service.start(undefined);
    try {
      const interest = scripted.interest()!;
      expect(interest.prefix).toBe('fight-');
      expect(interest.selective()).toBe(false);
      let owner = true;
      service.wholeLog = () => owner;
      owner = false;
      expect(interest.selective()).toBe(true);

      const input = {
        system: 'narateer',
        name: 'F',
        dice: { mode: 'fair' as const },
        combatants: [{ id: 'a', name: 'A', side: 'x', sheet }],
      };
      const held = await service.create(input);
      const stream = `fight-${held.fightId}`;
      // Held at seq 2 (revisions 0 and 1): its own commit is no news, the next one is.
      expect(held.seq).toBe(2);
      expect(interest.wants(stream, 1n)).toBe(false);
      expect(interest.wants(stream, 2n)).toBe(true);
      expect(interest.wants(stream)).toBe(true);

      const other = await service.create(input);
      service.cache.forget(other.fightId);
      const otherStream = `fight-${other.fightId}`;
      expect(interest.wants(otherStream, 5n)).toBe(false);
      expect([...interest.always()]).toEqual([]);
      const watching = await service.watch(other.fightId, other.seq);
      expect(interest.wants(otherStream, 5n)).toBe(true);
      expect([...interest.always()]).toEqual([otherStream]);
      await watching.return?.();
      expect([...interest.always()]).toEqual([]);
      // Watching loaded it into the cache, which folds on what comes next.
      expect(interest.wants(otherStream, 5n)).toBe(service.cache.get(other.fightId) !== undefined);
      service.cache.forget(other.fightId);
      expect(interest.wants(otherStream, 5n)).toBe(false);
    } finally {
      service.stop();
    }
  });
});
