import { join } from 'node:path';
import { EventStore, InMemoryEventStore, PostgresEventStore, SqliteEventStore } from '@app/event-store';
import { FightService } from '../../src/fight-service';
import { createSnapshotStore } from '../../src/snapshots/create-snapshot-store';
import { snapshotVersion } from '../../src/snapshots/fight-snapshot';
import { PostgresSnapshotStore } from '../../src/snapshots/postgres-snapshot-store';
import { MemorySnapshotStore, SnapshotStore } from '../../src/snapshots/snapshot-store';
import { findSystem } from '@app/rules';
import { exchange, scratch, weaponSheet } from '../helpers';

/**
 * Snapshots behave alike on every engine (docs/event-store.md "Snapshots"): the store's keep-the-latest rule,
 * and a service that loads a long fight cold from a snapshot seeing what a full fold sees.
 */

const PG_URL = process.env.EVENT_STORE_PG_URL;
const EVERY = 20;

interface Engine {
  events: EventStore;
  snapshots: SnapshotStore;
  close(): Promise<void>;
}

const space = scratch(PG_URL);

const engines: Array<[string, () => Promise<Engine>]> = [
  [
    'memory',
    async () => {
      const events = new InMemoryEventStore();
      const snapshots = createSnapshotStore(events)!;
      return { events, snapshots, close: () => events.close() };
    },
  ],
  [
    'sqlite',
    async () => {
      const dir = space.dir('crs-snap-');
      const events = new SqliteEventStore(join(dir, 'events.sqlite'));
      const snapshots = createSnapshotStore(events)!;
      return {
        events,
        snapshots,
        close: async () => {
          await snapshots.close();
          await events.close();
        },
      };
    },
  ],
];
if (PG_URL)
  engines.push([
    'postgres',
    async () => {
      const schema = space.schema('snap_test_');
      const events = new PostgresEventStore({ connectionString: PG_URL, schema });
      await events.start();
      const snapshots = createSnapshotStore(events, { url: PG_URL, schema })!;
      expect(snapshots).toBeInstanceOf(PostgresSnapshotStore);
      return {
        events,
        snapshots,
        close: async () => {
          await snapshots.close();
          await events.close();
        },
      };
    },
  ]);
else {
  console.warn(
    'PostgreSQL snapshot suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('postgres snapshots (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
}

const sheet = weaponSheet;
/** A Narateer duel that never ends (no hit wounds), seeded dice so both folds see the same rolls. */
const ROUND = [
  { type: 'StartRound' },
  { type: 'StartActivation', combatantId: 'mira' },
  exchange('mira', 'orin'),
  exchange('mira', 'orin'),
  { type: 'EndActivation' },
  { type: 'StartActivation', combatantId: 'orin' },
  exchange('orin', 'mira'),
  { type: 'EndActivation' },
];

/** As a client receives it (JSON drops undefined fields). */
const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

describe.each(engines)('snapshots on %s', (_name, open) => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await open();
  });
  const services: FightService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.cache.close();
    await engine.close();
  });

  const service = () => {
    const s = new FightService(engine.events, undefined, {
      snapshots: engine.snapshots,
      snapshotEvery: EVERY,
    });
    services.push(s);
    return s;
  };
  const fullFold = async (fightId: string) => (await new FightService(engine.events).view(fightId)).view;

  /** A fight of at least `events` events, its commands' ids `cmd-0`, `cmd-1`, …; the snapshots it asked for saved. */
  async function longFight(events: number) {
    const s = service();
    const created = await s.create({
      system: 'narateer',
      name: 'Snapshot duel',
      dice: { mode: 'seeded', seed: 'snapshot-seed', clientSeed: 'c' },
      combatants: [
        { id: 'mira', name: 'Mira', side: 'a', sheet },
        { id: 'orin', name: 'Orin', side: 'b', sheet },
      ],
    });
    const fightId = created.fightId;
    let r = await s.execute(fightId, { type: 'SetInitiative', order: ['mira', 'orin'], commandId: 'setup' });
    let i = 0;
    while (r.seq < events) {
      r = await s.execute(fightId, { ...ROUND[i % ROUND.length], commandId: `cmd-${i}` });
      i++;
    }
    // End on a whole round so an undo of the last commands is always possible.
    while (i % ROUND.length !== 0)
      await s.execute(fightId, { ...ROUND[i % ROUND.length], commandId: `cmd-${i++}` });
    await s.cache.flushSnapshots();
    await s.cache.close();
    return { fightId, commands: i };
  }

  it('a snapshot store keeps the latest snapshot of each version, and forgets nothing else', async () => {
    const { snapshots } = engine;
    const row = (version: string, seq: number, payload: string) => ({
      fightId: 'f1',
      version,
      seq,
      payload,
      parts: [],
    });
    expect(await snapshots.load('no-such-fight')).toBeUndefined();
    await snapshots.save(row('v1', 10, 'ten'));
    await snapshots.save(row('v1', 5, 'five'));
    expect(await snapshots.load('f1')).toEqual(row('v1', 10, 'ten'));
    await snapshots.save(row('v1', 12, 'twelve'));
    expect((await snapshots.load('f1'))?.payload).toBe('twelve');
    // Another build's version replaces it whatever its seq (the one this build writes is the one it reads).
    await snapshots.save(row('v2', 3, 'three'));
    expect(await snapshots.load('f1')).toEqual(row('v2', 3, 'three'));
    expect(await snapshots.load('f2')).toBeUndefined();
  });

  it('a snapshot store keeps every part, the longer of two from one seq, and loads those before the snapshot by seq', async () => {
    const { snapshots } = engine;
    const part = (fromSeq: number, toSeq: number) => ({ fromSeq, toSeq, entries: `${fromSeq}-${toSeq}` });
    const save = (seq: number, ...parts: Array<ReturnType<typeof part>>) =>
      snapshots.save({ fightId: 'f1', version: 'v1', seq, payload: `at ${seq}`, parts });
    await save(10, part(0, 10));
    await save(20, part(10, 20));
    // Another instance that loaded at 10 saves on to 25; one still at 20 saves an older part than it keeps.
    await save(25, part(10, 25));
    await save(22, part(10, 22));
    await save(30, part(25, 30));
    // A later snapshot's part, saved by an instance whose snapshot lost (the row stays at 30).
    await save(12, part(30, 40));
    expect(await snapshots.load('f1')).toEqual({
      fightId: 'f1',
      version: 'v1',
      seq: 30,
      payload: 'at 30',
      parts: [part(0, 10), part(10, 25), part(25, 30)],
    });
    await save(40, part(40, 40));
    expect((await snapshots.load('f1'))?.parts).toEqual([
      part(0, 10),
      part(10, 25),
      part(25, 30),
      part(30, 40),
    ]);
    expect(await snapshots.load('f2')).toBeUndefined();
  });

  it('given a long fight, a snapshot is saved every few events, and a cold load from it sees the full fold', async () => {
    const { fightId } = await longFight(3 * EVERY);
    const saved = await engine.snapshots.load(fightId);
    expect(saved?.seq).toBeGreaterThanOrEqual(2 * EVERY);
    const cold = service();
    const view = await cold.view(fightId);
    expect(cold.cache.get(fightId)?.snapshotSeq).toBe(saved!.seq);
    expect(json(view.view)).toEqual(json(await fullFold(fightId)));
  });

  it('given a fight loaded from its snapshot, the next snapshot saves only the commands since, and a cold load chains the parts', async () => {
    const { fightId, commands } = await longFight(2 * EVERY);
    const first = (await engine.snapshots.load(fightId))!;
    const warm = service();
    await warm.view(fightId);
    expect(warm.cache.get(fightId)?.snapshotSeq).toBe(first.seq);
    for (let i = commands; i < commands + 2 * ROUND.length; i++)
      await warm.execute(fightId, { ...ROUND[i % ROUND.length], commandId: `cmd-${i}` });
    await warm.cache.flushSnapshots();
    const second = (await engine.snapshots.load(fightId))!;
    expect(second.seq).toBeGreaterThan(first.seq);
    // The parts saved before are kept as they were; those since start where the loaded snapshot stopped.
    expect(second.parts.slice(0, first.parts.length)).toEqual(first.parts);
    const since = second.parts.slice(first.parts.length);
    expect(since.length).toBeGreaterThanOrEqual(1);
    expect(since[0].fromSeq).toBe(first.seq);
    since.slice(1).forEach((p, i) => expect(p.fromSeq).toBe(since[i].toSeq));
    expect(since[since.length - 1].toSeq).toBe(second.seq);
    const cold = service();
    expect(json((await cold.view(fightId)).view)).toEqual(json(await fullFold(fightId)));
    expect(cold.cache.get(fightId)?.snapshotSeq).toBe(second.seq);
    // Every command of both parts is known: sent again, each is answered with its first result.
    for (const i of [0, commands, commands + 2 * ROUND.length - 1])
      expect(
        (await cold.execute(fightId, { ...ROUND[i % ROUND.length], commandId: `cmd-${i}` })).replayed,
      ).toBe(true);
  });

  it('given a cold load from a snapshot, a command sent again is answered with its first result', async () => {
    const { fightId } = await longFight(3 * EVERY);
    const before = await new FightService(engine.events).events(fightId);
    const cold = service();
    const first = before.find((e) => e.commandId === 'cmd-1')!;
    const again = await cold.execute(fightId, { ...ROUND[1], commandId: 'cmd-1' });
    expect(cold.cache.get(fightId)?.snapshotSeq).toBeGreaterThan(first.seq);
    expect(again.replayed).toBe(true);
    expect(again.events).toEqual(before.filter((e) => e.commandId === 'cmd-1'));
    expect((await cold.events(fightId)).length).toBe(before.length);
  });

  it('given an undo after the snapshot, a cold load uses the snapshot and sees the full fold', async () => {
    const { fightId } = await longFight(3 * EVERY);
    const saved = await engine.snapshots.load(fightId);
    const s = new FightService(engine.events);
    await s.execute(fightId, { type: 'StartRound', commandId: 'late-round' });
    const undo = await s.execute(fightId, { type: 'UndoCommands', count: 1 });
    expect(undo.events[0].type).toBe('ActionsUndone');
    const cold = service();
    const view = await cold.view(fightId);
    expect(cold.cache.get(fightId)?.snapshotSeq).toBe(saved!.seq);
    expect(json(view.view)).toEqual(json(await fullFold(fightId)));
  });

  it('given an undo that reaches before the snapshot, a cold load folds the whole stream and sees the full fold', async () => {
    const { fightId } = await longFight(3 * EVERY);
    const saved = (await engine.snapshots.load(fightId))!;
    const s = new FightService(engine.events);
    const log = await s.events(fightId);
    // Enough commands to take back the one that holds the snapshot's last event.
    const reach = new Set(log.filter((e) => e.seq >= saved.seq).map((e) => e.commandId)).size;
    await s.execute(fightId, { type: 'UndoCommands', count: reach });
    const cold = service();
    const view = await cold.view(fightId);
    expect(cold.cache.get(fightId)?.snapshotSeq).toBeUndefined();
    expect(json(view.view)).toEqual(json(await fullFold(fightId)));
    // The full fold saves a snapshot past the undo, so the next cold load is cheap again.
    await cold.cache.flushSnapshots();
    expect((await engine.snapshots.load(fightId))?.seq).toBe(view.seq);
    const next = service();
    expect(json((await next.view(fightId)).view)).toEqual(json(view.view));
    expect(next.cache.get(fightId)?.snapshotSeq).toBe(view.seq);
  });

  it('given a corrupt snapshot row of this version, a cold load folds the whole stream', async () => {
    const { fightId } = await longFight(2 * EVERY);
    const saved = (await engine.snapshots.load(fightId))!;
    const version = snapshotVersion(findSystem('narateer')!);
    expect(saved.version).toBe(version);
    await engine.snapshots.save({
      ...saved,
      seq: saved.seq + 1,
      payload: `${'0'.repeat(64)} {"not":"it"}`,
      parts: [],
    });
    const cold = service();
    const view = await cold.view(fightId);
    expect(cold.cache.get(fightId)?.snapshotSeq).toBeUndefined();
    expect(json(view.view)).toEqual(json(await fullFold(fightId)));
  });
});

it('KurrentDB keeps no snapshots: its fights fold their whole stream', () => {
  expect(createSnapshotStore({ engine: 'kurrentdb' } as EventStore)).toBeUndefined();
  expect(createSnapshotStore(new InMemoryEventStore())).toBeInstanceOf(MemorySnapshotStore);
});
