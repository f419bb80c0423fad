import { randomUUID } from 'node:crypto';
import { InMemoryEventStore } from '@app/event-store';
import { findSystem } from '@app/rules';
import { fightStream } from '@app/fight-log';
import { FightService } from '../../src/fight-service';
import { MemoryReadStore } from '../../src/projections/memory-read-store';
import { PROJECTIONS, ProjectionName, ReadStore, ReadTx } from '../../src/projections/read-store';
import { ProjectionRunner } from '../../src/projections/runner';
import { plainSheet } from '../helpers';

const sheet = plainSheet;

/** Fights on an in-memory log: `notes` GM notes each (one event a note), every tenth undone unless `undo` is false. */
async function playFights(
  store: InMemoryEventStore,
  count: number,
  notes: number,
  undo = true,
): Promise<string[]> {
  const service = new FightService(store);
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
  for (let n = 0; n < notes; n++) {
    for (const id of ids)
      await service.execute(
        id,
        undo && n % 10 === 9 ? { type: 'UndoCommands', count: 1 } : { type: 'AddNote', text: `n${n}` },
      );
  }
  return ids;
}

/** Many GM notes appended straight to the log (faster than deciding each), as FightService would store them. */
async function appendNotes(store: InMemoryEventStore, fightId: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += 500) {
    const from = (await store.streamRevision(fightStream(fightId)))!;
    const events = Array.from({ length: Math.min(500, count - done) }, (_, i) => ({
      id: randomUUID(),
      type: 'GmNoteAdded',
      data: { text: `bulk ${done + i}` },
      metadata: {
        fightId,
        v: 1,
        at: new Date().toISOString(),
        actor: 'gm',
        commandId: randomUUID(),
        drawsUsed: 0,
        hash: `h${done + i}`,
      },
    }));
    await store.append(fightStream(fightId), events, { expectedRevision: from });
  }
}

/** Every read model and fold of the given fights. */
async function snapshot(read: ReadStore, fights: string[]) {
  return {
    list: await read.listFights({ limit: 100, offset: 0 }),
    combatants: await Promise.all(fights.map((f) => read.listCombatants(f))),
    folds: await Promise.all(
      PROJECTIONS.map(async (p) =>
        [...(await read.folds(p, fights)).values()].map((f) => ({ ...f, state: JSON.parse(f.state) })),
      ),
    ),
    checkpoints: await Promise.all(PROJECTIONS.map((p) => read.checkpoint(p))),
  };
}

/** Counts commits; `failNext` makes the next commit throw after its writes were collected. */
class CountingReadStore extends MemoryReadStore {
  commits: ProjectionName[][] = [];
  failNext = false;
  override apply(
    projections: readonly ProjectionName[],
    expected: string | undefined,
    next: string,
    fn: (tx: ReadTx) => void | Promise<void>,
  ) {
    return super.apply(projections, expected, next, async (tx) => {
      await fn(tx);
      if (this.failNext) {
        this.failNext = false;
        throw new Error('crash before commit');
      }
      this.commits.push([...projections]);
    });
  }
}

describe('ProjectionRunner', () => {
  const narateer = findSystem('narateer')!;
  afterEach(() => jest.restoreAllMocks());

  it('projections at one checkpoint fold each event once and commit together', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 3, 20, false);
    const log = await store.readAll();
    const read = new CountingReadStore();
    const evolve = jest.spyOn(narateer, 'evolve');
    await new ProjectionRunner(store, read).catchUpAll();
    expect(read.commits).toEqual([[...PROJECTIONS]]);
    expect(evolve).toHaveBeenCalledTimes(log.filter((e) => e.stream.startsWith('fight-')).length);
    const { list, combatants, folds, checkpoints } = await snapshot(read, fights);
    expect(list).toHaveLength(3);
    expect(combatants.map((c) => c.map((x) => x.combatantId))).toEqual(fights.map(() => ['a', 'b']));
    expect(folds[0]).toEqual(folds[1]);
    expect(checkpoints).toEqual([log[log.length - 1].checkpoint, log[log.length - 1].checkpoint]);
  });

  it('a long catch-up commits every 20,000 events or so; together, projections end as each alone does', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 3, 10);
    for (const fight of fights) await appendNotes(store, fight, 7000);
    const together = new CountingReadStore();
    await new ProjectionRunner(store, together).catchUpAll();
    expect(together.commits.length).toBeGreaterThan(1);
    const apart = new CountingReadStore();
    for (const name of PROJECTIONS) await new ProjectionRunner(store, apart, [name]).catchUp(name);
    expect(apart.commits.every((c) => c.length === 1)).toBe(true);
    expect(await snapshot(apart, fights)).toEqual(await snapshot(together, fights));
  });

  it('projections at different checkpoints catch up apart, then move together', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 10);
    const read = new CountingReadStore();
    const runner = new ProjectionRunner(store, read);
    await runner.catchUpAll();
    await playFights(store, 1, 5);
    await runner.catchUp('combatants');
    read.commits = [];
    await runner.catchUpAll();
    expect(read.commits).toEqual([['fight-views']]);
    await playFights(store, 1, 5);
    await runner.catchUpAll();
    expect(read.commits).toEqual([['fight-views'], [...PROJECTIONS]]);
    const fresh = new MemoryReadStore();
    await new ProjectionRunner(store, fresh).catchUpAll();
    expect((await snapshot(read, fights)).folds).toEqual((await snapshot(fresh, fights)).folds);
  });

  it('a commit that fails applies nothing; the next pass applies every event exactly once', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 3, 12);
    const read = new CountingReadStore();
    read.failNext = true;
    const runner = new ProjectionRunner(store, read);
    await expect(runner.catchUpAll()).rejects.toThrow('crash before commit');
    expect(await read.checkpoint('fight-views')).toBeUndefined();
    expect(await read.listFights({ limit: 10, offset: 0 })).toEqual([]);
    await runner.catchUpAll();
    const clean = new MemoryReadStore();
    await new ProjectionRunner(store, clean).catchUpAll();
    expect(await snapshot(read, fights)).toEqual(await snapshot(clean, fights));
  });

  it('projections whose stored folds differ at one checkpoint each fold on from their own', async () => {
    const store = new InMemoryEventStore();
    const [fight] = await playFights(store, 1, 3);
    const read = new MemoryReadStore();
    await new ProjectionRunner(store, read).catchUpAll();
    const checkpoint = await read.checkpoint('fight-views');
    const [views] = (await read.folds('fight-views', [fight])).values();
    const renamed = JSON.parse(views.state);
    renamed.state.name = 'Renamed by an older build';
    await read.apply(['fight-views'], checkpoint, checkpoint!, (tx) =>
      tx.putFold('fight-views', fight, { ...views, state: renamed }),
    );
    await new FightService(store).execute(fight, { type: 'AddNote', text: 'after' });
    const evolve = jest.spyOn(narateer, 'evolve');
    await new ProjectionRunner(store, read).catchUpAll();
    expect(evolve).toHaveBeenCalledTimes(2);
    expect((await read.getFight(fight))?.name).toBe('Renamed by an older build');
    const [combatants] = (await read.folds('combatants', [fight])).values();
    expect(JSON.parse(combatants.state).state.name).toBe('F0');
  });
});
