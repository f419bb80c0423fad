import { EventStore } from '@app/event-store';
import { MemoryReadStore } from '../../src/projections/memory-read-store';
import { PROJECTIONS, ReadStore } from '../../src/projections/read-store';
import { ProjectionRunner } from '../../src/projections/runner';

/** Every read model of the given fights, and the checkpoints. */
export async function snapshot(read: ReadStore, fights: string[]) {
  return {
    list: await read.listFights({ limit: 100, offset: 0 }),
    combatants: await Promise.all(fights.map((f) => read.listCombatants(f))),
    checkpoints: await Promise.all(PROJECTIONS.map((p) => read.checkpoint(p))),
  };
}

/** The read models a runner in this thread builds by folding the whole log at once. */
export async function foldedFresh(store: EventStore, fights: string[]) {
  const fresh = new MemoryReadStore();
  await new ProjectionRunner(store, fresh).catchUpAll();
  return snapshot(fresh, fights);
}
