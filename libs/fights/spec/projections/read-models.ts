import { EventStore } from '@app/event-store';
import { FightService } from '../../src/fight-service';
import { MemoryReadStore } from '../../src/projections/memory-read-store';
import { PROJECTIONS, ReadStore } from '../../src/projections/read-store';
import { ProjectionRunner } from '../../src/projections/runner';
import { plainSheet as sheet } from '../helpers';

/** Every read model of the given fights, and the checkpoints. */
export async function snapshot(read: ReadStore, fights: string[]) {
  return {
    list: await read.listFights({ limit: 100, offset: 0 }),
    views: await Promise.all(fights.map((f) => read.getFight(f))),
    checkpoints: await Promise.all(PROJECTIONS.map((p) => read.checkpoint(p))),
  };
}

/** The read models a runner in this thread builds by folding the whole log at once. */
export async function foldedFresh(store: EventStore, fights: string[]) {
  const fresh = new MemoryReadStore();
  await new ProjectionRunner(store, fresh).catchUpAll();
  return snapshot(fresh, fights);
}

/** `count` Narateer fights of two combatants on opposite sides, created through the service: their ids. */
export async function createFights(service: FightService, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { fightId } = await service.create({
      system: 'narateer',
      name: `F${i}`,
      dice: { mode: 'fair' },
      combatants: [
        { id: 'a', name: 'A', side: 'x', sheet },
        { id: 'b', name: 'B', side: 'y', sheet },
      ],
    });
    ids.push(fightId);
  }
  return ids;
}
