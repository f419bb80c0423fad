import { randomUUID } from 'node:crypto';
import { EventStore, InMemoryEventStore, StoredEvent } from '@app/event-store';
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
