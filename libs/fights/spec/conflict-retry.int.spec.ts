import { EventStore, InMemoryEventStore, ReadStreamOptions } from '@app/event-store';
import { FightEvent } from '@app/fight-log';
import { AppError } from '../src/errors';
import { CommandInput, CreateFightInput, DECLARED_FOR } from '../src/command-admission';
import { CONFLICT_RETRIES } from '../src/fight-commands';
import { FightService } from '../src/fight-service';
import { exchange, plainSheet, scratch, SharedLog, sharedLogEngines, weaponSheet } from './helpers';

const PG_URL = process.env.EVENT_STORE_PG_URL;

const space = scratch(PG_URL);
const engines = sharedLogEngines(PG_URL, space, 'command-conflict');

const note = (text: string, more: { commandId?: string; expectedSeq?: number } = {}) => ({
  type: 'AddNote',
  text,
  ...more,
});
/** An event as the rules decided it, without what differs between two fights (ids, times, hashes). */
const decided = (e: FightEvent) => ({ seq: e.seq, type: e.type, data: e.data });

/**
 * Two instances on one log, neither following it (as one that passes over a fight's events,
 * docs/event-store.md "Selective follow"), so each one's cached fight is behind what the other wrote.
 * `beforeAppend` runs before each append `here` makes to a fight: the other instance writes first.
 */
describe.each(engines)('a command whose append meets another instance on %s', (_name, open) => {
  let engine: SharedLog;
  let here: FightService;
  let there: FightService;
  let beforeAppend: (() => Promise<void>) | undefined;
  let appends: number;
  let streamReads: Array<ReadStreamOptions | undefined>;
  beforeEach(async () => {
    engine = await open();
    appends = 0;
    streamReads = [];
    beforeAppend = undefined;
    const watched = new Proxy(engine.here, {
      get(target, prop) {
        if (prop === 'append')
          return async (...args: Parameters<EventStore['append']>) => {
            appends++;
            await beforeAppend?.();
            return target.append(...args);
          };
        if (prop === 'readStream')
          return (stream: string, options?: ReadStreamOptions) => {
            streamReads.push(options);
            return target.readStream(stream, options);
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    here = new FightService(watched);
    there = new FightService(engine.there);
  });
  afterEach(() => engine.close());

  /** A fight both instances hold at its head. */
  async function heldByBoth(dice: CreateFightInput['dice'] = { mode: 'manual' }, sheet: object = plainSheet) {
    const { fightId } = await here.create({
      system: 'narateer',
      dice,
      combatants: [
        { id: 'mira', name: 'Mira', side: 'a', sheet },
        { id: 'orin', name: 'Orin', side: 'b', sheet },
      ],
    });
    const { seq } = await there.execute(fightId, note('held there'));
    await here.execute(fightId, note('held here'));
    expect(here.cache.get(fightId)!.seq).toBe(seq + 1);
    appends = 0;
    streamReads = [];
    return fightId;
  }

  /** The other instance writes `commands` one by one, each before one of this instance's appends. */
  function othersWriteFirst(fightId: string, commands: CommandInput[]): void {
    const queue = [...commands];
    beforeAppend = async () => {
      const next = queue.shift();
      if (next) await there.execute(fightId, next);
    };
  }

  const notes = (count: number) => Array.from({ length: count }, (_, i) => note(`elsewhere ${i + 1}`));

  it('given others append before each of its first decisions but the last allowed, then it is decided again on the fight read on from its cache, and lands once', async () => {
    const fightId = await heldByBoth();
    const head = here.cache.get(fightId)!.seq;
    othersWriteFirst(fightId, notes(CONFLICT_RETRIES));
    const result = await here.execute(fightId, note('whenever'));
    expect(result).toMatchObject({ seq: head + CONFLICT_RETRIES + 1, replayed: false });
    expect(appends).toBe(CONFLICT_RETRIES + 1);
    // Each retry read only the events it missed, from the cached fight's seq on: never the whole stream again.
    expect(streamReads.length).toBe(CONFLICT_RETRIES);
    for (const options of streamReads) expect(Number(options?.from)).toBeGreaterThanOrEqual(head);
    const log = await there.events(fightId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((e) => e.type === 'GmNoteAdded').map((e) => (e.data as { text: string }).text)).toEqual(
      ['held there', 'held here', ...notes(CONFLICT_RETRIES).map((n) => n.text), 'whenever'],
    );
  });

  it('given others append before each of its decisions, then it stays 409 CONCURRENCY_CONFLICT and appends nothing', async () => {
    const fightId = await heldByBoth();
    const head = here.cache.get(fightId)!.seq;
    othersWriteFirst(fightId, notes(CONFLICT_RETRIES + 2));
    const refused = await here.execute(fightId, note('never')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: 'CONCURRENCY_CONFLICT' });
    expect(appends).toBe(CONFLICT_RETRIES + 1);
    const log = await there.events(fightId);
    expect(log.length).toBe(head + CONFLICT_RETRIES + 1);
    expect(log.some((e) => (e.data as { text?: string }).text === 'never')).toBe(false);
    // The next command is decided on the fight read on from the cache.
    beforeAppend = undefined;
    expect((await here.execute(fightId, note('later'))).seq).toBe(head + CONFLICT_RETRIES + 2);
  });

  it('given an expectedSeq, then a conflict is answered at once with EXPECTED_SEQ_MISMATCH, naming the seq the fight is at', async () => {
    const fightId = await heldByBoth();
    const head = here.cache.get(fightId)!.seq;
    othersWriteFirst(
      fightId,
      [1, 2, 3].map((i) => note(`elsewhere ${i}`)),
    );
    const refused = await here
      .execute(fightId, note('only at my seq', { expectedSeq: head }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, code: 'EXPECTED_SEQ_MISMATCH' });
    expect((refused as Error).message).toContain(`at seq ${head + 1}`);
    expect(appends).toBe(1);
    expect((await there.events(fightId)).length).toBe(head + 1);
  });

  it('given the same commandId sent to the other instance first, then its retry here replays that result', async () => {
    const fightId = await heldByBoth();
    const head = here.cache.get(fightId)!.seq;
    const first = await there.execute(fightId, note('once', { commandId: 'cmd-once' }));
    const again = await here.execute(fightId, note('once', { commandId: 'cmd-once' }));
    expect(again.replayed).toBe(true);
    expect(again.events).toEqual(first.events);
    expect(appends).toBe(1);
    // Sent to both at once, between other commands: exactly one is applied.
    othersWriteFirst(fightId, [note('elsewhere'), note('twice', { commandId: 'cmd-twice' })]);
    const both = await Promise.all([
      here.execute(fightId, note('twice', { commandId: 'cmd-twice' })),
      there.execute(fightId, note('twice', { commandId: 'cmd-twice' })),
    ]);
    expect(both.filter((r) => !r.replayed).length).toBe(1);
    expect(both[0].events).toEqual(both[1].events);
    const log = await there.events(fightId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((e) => e.commandId === 'cmd-once').length).toBe(1);
    expect(log.filter((e) => e.commandId === 'cmd-twice').length).toBe(1);
    expect(log.length).toBe(head + 3);
  });

  it('given seeded dice, then a decision made again draws on from the other instance’s draws, as one instance would have', async () => {
    const dice = {
      mode: 'seeded' as const,
      seed: 'conflict-seed',
      clientSeed: 'c',
      drawKey: 'conflict-draws',
    };
    const fightId = await heldByBoth(dice, weaponSheet);
    for (const command of [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation', combatantId: 'mira' },
    ])
      await here.execute(fightId, command);
    await there.view(fightId);
    // The other instance rolls dice between this instance's decisions.
    appends = 0;
    othersWriteFirst(fightId, [exchange('mira', 'orin'), note('between rolls')]);
    await here.execute(fightId, exchange('mira', 'orin'));
    expect(appends).toBe(3);
    const log = await there.events(fightId);

    // The same commands in the order they landed, one instance, the same seed and draw key.
    const alone = new FightService(new InMemoryEventStore());
    const serial = await alone.create({
      system: 'narateer',
      dice,
      combatants: [
        { id: 'mira', name: 'Mira', side: 'a', sheet: weaponSheet },
        { id: 'orin', name: 'Orin', side: 'b', sheet: weaponSheet },
      ],
    });
    for (const command of [
      note('held there'),
      note('held here'),
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation', combatantId: 'mira' },
      exchange('mira', 'orin'),
      note('between rolls'),
      exchange('mira', 'orin'),
    ])
      await alone.execute(serial.fightId, command);
    const expected = await alone.events(serial.fightId);
    const rolled = log.filter((e) => e.type === 'ExchangeResolved');
    expect(rolled.length).toBe(2);
    expect(JSON.stringify(rolled[0].data)).not.toEqual(JSON.stringify(rolled[1].data));
    expect(log.slice(1).map(decided)).toEqual(expected.slice(1).map(decided));
  });

  it('given the other instance made a command legal that this one’s stale copy refuses, then it is judged again on the fight read on, and lands', async () => {
    const fightId = await heldByBoth();
    await there.execute(fightId, { type: 'SetInitiative', order: ['mira', 'orin'] });
    // This instance still holds the fight without an initiative order: StartRound is refused there.
    const result = await here.execute(fightId, { type: 'StartRound' });
    expect(result.replayed).toBe(false);
    expect(result.events.map((e) => e.type)).toContain('RoundStarted');
    const log = await there.events(fightId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  });

  it('given a command the fight as it stands refuses, then it is refused after one read of what it missed, and nothing is appended', async () => {
    const fightId = await heldByBoth();
    const refused = await here.execute(fightId, { type: 'StartRound' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INITIATIVE_NOT_SET' });
    expect(streamReads.length).toBe(1);
    expect(appends).toBe(0);
  });

  it('given a command its system’s contract refuses, then it is refused on the fight held, without reading the store, whatever the other instance wrote', async () => {
    const fightId = await heldByBoth();
    await there.execute(fightId, note('moved on elsewhere'));
    const refused = await here
      .execute(fightId, { type: 'AddNote', text: 'typo', colour: 'red' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'colour' });
    const wrongType = await here.execute(fightId, { type: 'AddNote', text: 7 }).catch((e: unknown) => e);
    expect(wrongType).toMatchObject({ code: 'INVALID_FIELD', field: 'text' });
    const wrongSystem = await here
      .execute(fightId, { ...note('x'), [DECLARED_FOR]: { system: 'archsoul', via: 'archsoulCommand' } })
      .catch((e: unknown) => e);
    expect(wrongSystem).toMatchObject({ code: 'WRONG_SYSTEM' });
    expect(streamReads.length).toBe(0);
    expect(appends).toBe(0);
  });
});
