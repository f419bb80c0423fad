import { randomUUID } from 'node:crypto';
import { InMemoryEventStore } from '@app/event-store';
import { findSystem } from '@app/rules';
import { fightStream } from '@app/fight-log';
import { FightService } from '../../src/fight-service';
import { MemoryReadStore } from '../../src/projections/memory-read-store';
import { PROJECTIONS, ProjectionName, ReadTx } from '../../src/projections/read-store';
import { ProjectionRunner } from '../../src/projections/runner';
import { FixedReadSideOwner } from '../../src/projections/read-side';
import { TailReader } from '../../src/log-tail';
import { createFights, foldedFresh, snapshot } from './read-models';

/** Fights on an in-memory log: `notes` GM notes each (one event a note), every tenth undone unless `undo` is false. */
async function playFights(
  store: InMemoryEventStore,
  count: number,
  notes: number,
  undo = true,
): Promise<string[]> {
  const service = new FightService(store);
  const ids = await createFights(service, count);
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
    const { list, views, checkpoints } = await snapshot(read, fights);
    expect(list).toHaveLength(3);
    expect(list.map((f) => f.seq).sort()).toEqual(
      fights.map((id) => log.filter((e) => e.stream === fightStream(id)).length).sort(),
    );
    const ids = (row: (typeof views)[number]) =>
      (row?.view.combatants as Array<{ id: string }>).map((c) => c.id);
    expect(views.map(ids)).toEqual(fights.map(() => ['a', 'b']));
    expect(checkpoints).toEqual([log[log.length - 1].checkpoint]);
  });

  it('caughtUp resolves once the checkpoint is at the head read at the call: at a commit heard of, or by looking again where another runner folds; else false after the wait', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 3, false);
    const read = new MemoryReadStore();
    const owner = new ProjectionRunner(store, read);
    const follower = new ProjectionRunner(store, read, PROJECTIONS, undefined, {
      owner: new FixedReadSideOwner(false),
    });
    await follower.start(60_000);
    // Nothing folds yet: answered after the wait.
    expect(await follower.caughtUp('fight-views', 50)).toBe(false);
    await owner.start(60_000);
    expect(await follower.caughtUp('fight-views', 50)).toBe(true);
    // Behind again: the owner's wait starts a pass and hears its commit.
    await appendNotes(store, fights[0], 3);
    expect(await owner.caughtUp('fight-views', 5_000)).toBe(true);
    // The follower, whose runner does not fold, looks at the checkpoint until the owner has folded there.
    await appendNotes(store, fights[1], 3);
    const waited = follower.caughtUp('fight-views', 5_000);
    await new Promise((r) => setTimeout(r, 30));
    await owner.catchUpAll();
    expect(await waited).toBe(true);
    expect(await read.checkpoint('fight-views')).toBe(await store.head());
    await Promise.all([owner.stop(), follower.stop()]);
  });

  it('catchUp applies every committed event even when the follower has handed on only part of the log', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 5, false);
    const log = await store.readAll();
    const tail = new TailReader(store);
    // The follower has read only the first half so far: its pages end short of the log.
    const half = Math.floor(log.length / 2);
    tail.offer({ after: undefined, events: log.slice(0, half) });
    const read = new MemoryReadStore();
    const runner = new ProjectionRunner(store, read, PROJECTIONS, undefined, { tail });
    for (const name of PROJECTIONS) expect(await runner.catchUp(name)).toBe(log.length);
    const { list, checkpoints } = await snapshot(read, fights);
    expect(checkpoints).toEqual(PROJECTIONS.map(() => log[log.length - 1].checkpoint));
    expect(list.map((f) => f.seq).sort()).toEqual(
      fights.map((id) => log.filter((e) => e.stream === fightStream(id)).length).sort(),
    );
  });

  it('a long catch-up commits every 20,000 events or so, and ends as one projection at a time does', async () => {
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
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('a runner holds its folds between passes: it folds only the new events and reads no stream', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 3, 5, false);
    const read = new MemoryReadStore();
    const runner = new ProjectionRunner(store, read);
    await runner.catchUpAll();
    for (const id of fights) await new FightService(store).execute(id, { type: 'AddNote', text: 'more' });
    const evolve = jest.spyOn(narateer, 'evolve');
    const readStream = jest.spyOn(store, 'readStream');
    await runner.catchUpAll();
    expect(evolve).toHaveBeenCalledTimes(3);
    expect(readStream).not.toHaveBeenCalled();
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('a runner with no folds in memory (a restart) folds each fight from its stream, undos included', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 3, 12);
    const read = new MemoryReadStore();
    await new ProjectionRunner(store, read).catchUpAll();
    for (const id of fights) {
      const service = new FightService(store);
      await service.execute(id, { type: 'AddNote', text: 'after the restart' });
      await service.execute(id, { type: 'UndoCommands', count: 2 });
      await service.execute(id, { type: 'AddNote', text: 'last' });
    }
    const readStream = jest.spyOn(store, 'readStream');
    await new ProjectionRunner(store, read).catchUpAll();
    expect(new Set(readStream.mock.calls.map(([stream]) => stream))).toEqual(
      new Set(fights.map(fightStream)),
    );
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('held folds are dropped when the checkpoint is not the one they stand at (a rebuild, another runner)', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 6, false);
    const read = new MemoryReadStore();
    const runner = new ProjectionRunner(store, read);
    await runner.catchUpAll();
    for (const name of PROJECTIONS) await read.reset(name);
    await runner.catchUpAll();
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
    for (const id of fights) await new FightService(store).execute(id, { type: 'AddNote', text: 'other' });
    await new ProjectionRunner(store, read).catchUpAll();
    for (const id of fights) await new FightService(store).execute(id, { type: 'AddNote', text: 'mine' });
    await runner.catchUpAll();
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('a fight stream that cannot be read fails the pass and commits nothing; the next pass folds it', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 4, false);
    const read = new MemoryReadStore();
    await new ProjectionRunner(store, read).catchUpAll();
    const before = await snapshot(read, fights);
    for (const id of fights) await new FightService(store).execute(id, { type: 'AddNote', text: 'x' });
    const runner = new ProjectionRunner(store, read);
    jest.spyOn(store, 'readStream').mockRejectedValueOnce(new Error('store unavailable'));
    await expect(runner.catchUpAll()).rejects.toThrow('store unavailable');
    expect(await snapshot(read, fights)).toEqual(before);
    await runner.catchUpAll();
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('writes the view the command path already built for the fight at that seq and hash, else builds its own', async () => {
    const store = new InMemoryEventStore();
    const fights = await playFights(store, 2, 3, false);
    const log = (await store.readAll()).filter((e) => e.stream === fightStream(fights[0]));
    const head = log[log.length - 1];
    const built = { marker: 'built by the command path', combatants: [] };
    const heldView = jest.fn((id: string, seq: number, hash: string) =>
      id === fights[0] && seq === log.length && hash === head.metadata.hash ? built : undefined,
    );
    const read = new MemoryReadStore();
    await new ProjectionRunner(store, read, PROJECTIONS, undefined, { heldView }).catchUpAll();
    expect((await read.getFight(fights[0]))?.view).toEqual(built);
    const fresh = await foldedFresh(store, fights);
    expect((await read.getFight(fights[1]))?.view).toEqual(
      fresh.list.find((f) => f.fightId === fights[1])?.view,
    );
    expect(heldView).toHaveBeenCalledTimes(2);
  });
});
