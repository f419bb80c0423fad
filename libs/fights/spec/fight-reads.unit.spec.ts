import { InMemoryEventStore } from '@app/event-store';
import { buildFightLog } from '@app/audit';
import {
  FightEvent,
  foldFight,
  fightStream,
  isUndo,
  toFightEvent,
  toLogEntry,
  undoneList,
} from '@app/fight-log';
import { findSystem } from '@app/rules';
import { FightCache } from '../src/fight-cache';
import { FightReads, mapInTurns } from '../src/fight-reads';
import { TravelStops } from '../src/travel-stops';
import { FightService } from '../src/fight-service';
import { MemorySnapshotStore } from '../src/snapshots/snapshot-store';
import { plainSheet } from './helpers';

describe('mapInTurns', () => {
  it('maps every item in order, letting the event loop turn after each few hundred', async () => {
    const turnedAt: number[] = [];
    let mapped = 0;
    const tick = () => {
      turnedAt.push(mapped);
      if (turnedAt.length < 5) setImmediate(tick);
    };
    setImmediate(tick);
    const out = await mapInTurns(
      Array.from({ length: 1200 }, (_, i) => i),
      (i) => {
        mapped++;
        return i * 2;
      },
    );
    expect(out).toEqual(Array.from({ length: 1200 }, (_, i) => i * 2));
    // Other work ran between the chunks, never in the middle of one.
    expect(turnedAt.slice(0, 2)).toEqual([500, 1000]);
  });
});

describe('the exported log of a fight this instance does not hold', () => {
  it('takes its head view from the latest snapshot, not from a fold of the whole log, and says the same', async () => {
    const store = new InMemoryEventStore();
    const snapshots = new MemorySnapshotStore();
    const writer = new FightService(store, undefined, { snapshots, snapshotEvery: 10 });
    const { fightId } = await writer.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [{ id: 'x', name: 'X', side: 'p', sheet: plainSheet }],
    });
    for (let i = 0; i < 40; i++) await writer.execute(fightId, { type: 'AddNote', text: `note ${i}` });
    await writer.cache.flushSnapshots();

    const system = findSystem('narateer')!;
    const evolve = jest.spyOn(system, 'evolve');
    const fresh = new FightService(store, undefined, { snapshots, snapshotEvery: 10 });
    const log = await fresh.exportLog(fightId);
    const evolved = evolve.mock.calls.length;
    evolve.mockRestore();

    const stored = await store.readStream(fightStream(fightId));
    expect(log.events).toBe(stored.length);
    // The events after the snapshot (at seq 40), not the 42 of the whole log.
    expect(evolved).toBeLessThan(10);
    expect(log).toEqual(buildFightLog(stored.map(toLogEntry)));
  });
});

describe('the view of a long fight at an earlier seq', () => {
  it('is the fold of the log up to it, folded in turns that let other work run', async () => {
    const store = new InMemoryEventStore();
    const fights = new FightService(store);
    const { fightId } = await fights.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [{ id: 'x', name: 'X', side: 'p', sheet: plainSheet }],
    });
    for (let i = 0; i < 1100; i++) await fights.execute(fightId, { type: 'AddNote', text: `note ${i}` });
    const events = (await store.readStream(fightStream(fightId))).map(toFightEvent).slice(0, 1050);
    const system = findSystem('narateer')!;
    const expected = {
      ...system.view(foldFight(system, fightId, events)),
      seq: 1050,
      headHash: events[1049].hash,
    };

    let turned = false;
    setImmediate(() => (turned = true));
    const at = await fights.viewAt(fightId, 1050);
    expect(turned).toBe(true);
    expect(at).toEqual({ fightId, seq: 1050, view: expected });
  });
});

/** A store that counts the events its readStream hands back: what a read cost. */
class CountingStore extends InMemoryEventStore {
  read = 0;
  override async readStream(...args: Parameters<InMemoryEventStore['readStream']>) {
    const events = await super.readStream(...args);
    this.read += events.length;
    return events;
  }
}

describe('reads of a part of a long fight', () => {
  let store: CountingStore;
  let fights: FightService;
  let fightId: string;
  beforeAll(async () => {
    store = new CountingStore();
    fights = new FightService(store);
    ({ fightId } = await fights.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [{ id: 'x', name: 'X', side: 'p', sheet: plainSheet }],
    }));
    await fights.execute(fightId, { type: 'AddNote', text: 'early', commandId: 'early' });
    for (let i = 0; i < 300; i++) await fights.execute(fightId, { type: 'AddNote', text: `note ${i}` });
  });
  beforeEach(() => (store.read = 0));

  it('given a page of events, reads that page and no more of the fight', async () => {
    const page = await fights.events(fightId, 100, 25);
    expect(page.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => 101 + i));
    expect(store.read).toBe(25);
    // The last page: what is left after seq 290, fewer than 25.
    const length = (await store.readStream(fightStream(fightId))).length;
    expect((await fights.events(fightId, 290, 25)).map((e) => e.seq)).toEqual(
      Array.from({ length: length - 290 }, (_, i) => 291 + i),
    );
  });

  it('given a seq early in the fight, reads the log up to it and no further', async () => {
    const at = await fights.viewAt(fightId, 50);
    expect(at.seq).toBe(50);
    expect(store.read).toBe(50);
  });

  it('given an early command sent again, answers its first result from its own events, not the rest of the fight', async () => {
    const [first] = (await store.readStream(fightStream(fightId))).filter(
      (e) => (e.metadata as { commandId?: string }).commandId === 'early',
    );
    store.read = 0;
    const again = await fights.execute(fightId, { type: 'AddNote', text: 'early', commandId: 'early' });
    expect(again.events.map((e) => [e.seq, e.commandId, e.data])).toEqual([
      [Number(first.revision) + 1, 'early', { text: 'early' }],
    ]);
    expect(again.replayed).toBe(true);
    // A page of a few events from the command's first: not the 300 after it.
    expect(store.read).toBeLessThanOrEqual(16);
  });

  it('given a seq outside the fight, answers 422 naming its length; an unknown fight, 404', async () => {
    const length = (await store.readStream(fightStream(fightId))).length;
    for (const at of [0, length + 1, length + 1000])
      await expect(fights.viewAt(fightId, at)).rejects.toMatchObject({
        status: 422,
        code: 'SEQ_OUT_OF_RANGE',
        field: 'at',
        message: `at must be between 1 and ${length}`,
      });
    for (const at of [0, 5])
      await expect(fights.viewAt('no-such-fight', at)).rejects.toMatchObject({
        status: 404,
        code: 'FIGHT_NOT_FOUND',
      });
    expect((await fights.viewAt(fightId, length)).view.headHash).toBe(
      (await fights.view(fightId)).view.headHash,
    );
  });
});

describe('time travel through a long fight, from the stops of earlier folds', () => {
  const system = findSystem('narateer')!;
  let store: CountingStore;
  let fightId: string;
  let events: FightEvent[];
  /** The view a fold of the log from its first event up to `at` gives. */
  const expected = (at: number) => ({
    fightId,
    seq: at,
    view: {
      ...system.view(foldFight(system, fightId, events.slice(0, at))),
      seq: at,
      headHash: events[at - 1].hash,
    },
  });
  const readsOf = (stops = new TravelStops(7, 1000)) => new FightReads(store, new FightCache(store), stops);

  beforeAll(async () => {
    store = new CountingStore();
    const fights = new FightService(store);
    ({ fightId } = await fights.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [{ id: 'x', name: 'X', side: 'p', sheet: plainSheet }],
    }));
    const note = (text: string) => fights.execute(fightId, { type: 'AddNote', text });
    for (let i = 0; i < 20; i++) await note(`a${i}`);
    // Undos of one command and of ten: each takes back the event of a stop before it.
    await fights.execute(fightId, { type: 'UndoCommands', count: 1 });
    for (let i = 0; i < 12; i++) await note(`b${i}`);
    await fights.execute(fightId, { type: 'UndoCommands', count: 10 });
    for (let i = 0; i < 15; i++) await note(`c${i}`);
    events = (await store.readStream(fightStream(fightId))).map(toFightEvent);
  });

  it('given every seq asked in a scrambled order, each view is the fold of the log up to it', async () => {
    const reads = readsOf();
    const seqs = events.map((e) => e.seq);
    // A fixed shuffle: each seq once, far apart and close by.
    const order = seqs.map((_, i) => seqs[(i * 19) % seqs.length]);
    expect(new Set(order).size).toBe(seqs.length);
    for (const at of order) expect(await reads.viewAt(fightId, at)).toEqual(expected(at));
  });

  it('given the seqs asked one after another, each reads only from the stop before it', async () => {
    const reads = readsOf();
    const undos = events.filter(isUndo).map((e) => ({
      seq: e.seq,
      from: Math.min(...undoneList(e.data).map((u) => u.fromSeq)),
    }));
    expect(undos.map((u) => u.seq - u.from)).toEqual([1, 10]);
    let fellBack = 0;
    for (const e of events) {
      store.read = 0;
      expect(await reads.viewAt(fightId, e.seq)).toEqual(expected(e.seq));
      // The last stop before it: the fold that reaches a stop makes it, so a seq that is one is not yet.
      const stop = e.seq % 7 === 0 ? e.seq - 7 : e.seq - (e.seq % 7);
      // From the stop's own event; from the first event after an undo that takes back the stop's event or one
      // before it (then the read from the stop, and the whole way).
      const reachesBack = undos.some((u) => u.seq > stop && u.seq <= e.seq && u.from <= stop);
      if (stop === 0) expect(store.read).toBe(e.seq);
      else if (reachesBack) {
        fellBack++;
        expect(store.read).toBe(e.seq - stop + 1 + e.seq);
      } else expect(store.read).toBe(e.seq - stop + 1);
    }
    expect(fellBack).toBeGreaterThan(2);
  });

  it('keeps at most as many stops as it may, the fights asked about longest ago losing theirs first', () => {
    const stops = new TravelStops(10, 3);
    const stop = (seq: number) => ({ system, seq, state: system.start('f') });
    stops.keep('old', stop(10));
    stops.keep('old', stop(20));
    stops.keep('new', stop(10));
    expect(stops.before('old', 25)?.seq).toBe(20);
    // 'old' was asked about last: 'new' goes when a fourth stop comes.
    stops.keep('third', stop(30));
    expect(stops.before('new', 15)).toBeUndefined();
    expect(stops.before('old', 19)?.seq).toBe(10);
    expect(stops.before('third', 29)).toBeUndefined();
    expect(stops.before('third', 30)?.seq).toBe(30);
  });
});
