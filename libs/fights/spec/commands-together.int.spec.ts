import { join } from 'node:path';
import { verifyFightLog } from '@app/audit';
import {
  EventStore,
  InMemoryEventStore,
  PostgresEventStore,
  SqliteEventStore,
  WrongExpectedRevision,
} from '@app/event-store';
import { FightEvent } from '@app/fight-log';
import { Actor, CommandInput, GM_ACTOR } from '../src/command-admission';
import { CommandOutcome } from '../src/fight-commands';
import { FightService } from '../src/fight-service';
import { exchange, plainSheet, scratch, weaponSheet } from './helpers';

const PG_URL = process.env.EVENT_STORE_PG_URL;
const space = scratch(PG_URL);

const engines: Array<[string, () => Promise<EventStore>]> = [
  ['memory', async () => new InMemoryEventStore()],
  ['sqlite', async () => new SqliteEventStore(join(space.dir('crs-together-'), 'events.sqlite'))],
];
if (PG_URL)
  engines.push([
    'postgres',
    async () => {
      const store = new PostgresEventStore({
        connectionString: PG_URL,
        schema: space.schema('together_test_'),
      });
      await store.start();
      return store;
    },
  ]);
else {
  console.warn(
    'PostgreSQL commands-together suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('commands sent together on postgres (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
}

const note = (text: string, more: Partial<CommandInput> = {}): CommandInput => ({
  type: 'AddNote',
  text,
  ...more,
});
const player: Actor = { name: 'player-mira', scope: ['mira'] };

/** What a client can tell of an answer: the events as decided (no ids, times or hashes), or the refusal. */
type Answer =
  | {
      seq: number;
      events: Array<{ seq: number; type: string; data: unknown }>;
      replayed: boolean;
      viewSeq: unknown;
    }
  | { error: string };

/** A store that can be told what to do at its next append of more than one command's events. */
function watched(store: EventStore) {
  /** The commands (distinct commandIds) of each append. */
  const appends: number[] = [];
  let fired = 0;
  let beforeNext: ((stream: string) => Promise<void>) | undefined;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'append')
        return async (...args: Parameters<EventStore['append']>) => {
          const commands = new Set(args[1].map((e) => (e.metadata as { commandId: string }).commandId));
          appends.push(commands.size);
          const before = commands.size > 1 ? beforeNext : undefined;
          if (before) {
            beforeNext = undefined;
            fired++;
          }
          await before?.(args[0]);
          return target.append(...args);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: wrapped,
    appends,
    /** Runs `act` before the next append that holds the events of more than one command. */
    beforeTogether(act: (stream: string) => Promise<void>) {
      beforeNext = act;
    },
    /** How many times an action given to beforeTogether ran. */
    fired: () => fired,
  };
}

describe.each(engines)('commands sent to one fight together on %s', (_name, open) => {
  let base: EventStore;
  let store: ReturnType<typeof watched>;
  let service: FightService;
  let done: CommandOutcome[];
  beforeEach(async () => {
    base = await open();
    store = watched(base);
    service = new FightService(store.store);
    done = [];
    service.onCommandDone.add((d) => done.push(d));
  });
  /** Other stores a test opens, closed with its own. */
  const others: EventStore[] = [];
  afterEach(async () => {
    await base.close();
    for (const other of others.splice(0)) await other.close();
  });

  const create = async (on = service) =>
    (
      await on.create({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'mira', name: 'Mira', side: 'a', sheet: plainSheet },
          { id: 'orin', name: 'Orin', side: 'b', sheet: plainSheet },
        ],
      })
    ).fightId;

  const answerOf = async (p: Promise<Awaited<ReturnType<FightService['execute']>>>): Promise<Answer> => {
    try {
      const r = await p;
      return {
        seq: r.seq,
        events: r.events.map((e: FightEvent) => ({ seq: e.seq, type: e.type, data: e.data })),
        replayed: r.replayed,
        viewSeq: r.view.seq,
      };
    } catch (e) {
      return { error: (e as { code?: string }).code ?? String(e) };
    }
  };

  /** `commands` sent at once (no answer awaited before the next is sent), and their answers. */
  const together = (on: FightService, fightId: string, commands: Array<[CommandInput, Actor?]>) =>
    Promise.all(commands.map(([c, actor]) => answerOf(on.execute(fightId, c, actor ?? GM_ACTOR))));

  /** The same commands sent one after another, each once the one before is answered. */
  const oneByOne = async (on: FightService, fightId: string, commands: Array<[CommandInput, Actor?]>) => {
    const answers: Answer[] = [];
    for (const [c, actor] of commands)
      answers.push(await answerOf(on.execute(fightId, c, actor ?? GM_ACTOR)));
    return answers;
  };

  const notesOf = async (fightId: string) =>
    (await service.events(fightId)).filter((e) => e.type === 'GmNoteAdded').map((e) => e.data.text);

  it('given 30 notes sent at once, then they land in the order sent, in far fewer appends than commands, and the log verifies', async () => {
    const fightId = await create();
    const head = (await service.view(fightId)).seq;
    store.appends.length = 0;
    const texts = Array.from({ length: 30 }, (_, i) => `note ${i}`);
    const answers = await together(
      service,
      fightId,
      texts.map((t) => [note(t)]),
    );
    expect(answers.map((a) => ('seq' in a ? a.seq : a.error))).toEqual(texts.map((_, i) => head + 1 + i));
    // Each answer shows the fight as its own command left it.
    for (const a of answers) expect('seq' in a && a.viewSeq === a.seq).toBe(true);
    expect(await notesOf(fightId)).toEqual(texts);
    // The first runs alone; those that waited for it share an append.
    expect(store.appends.length).toBeLessThanOrEqual(3);
    expect(store.appends.reduce((n, a) => n + a, 0)).toBe(30);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
    expect(done.map((d) => [d.system, d.outcome, d.events])).toEqual(texts.map(() => ['narateer', 'ok', 1]));
    // The cache holds the fight at its head, as the log folds it.
    const fresh = new FightService(base);
    expect((await fresh.view(fightId)).view).toEqual((await service.view(fightId)).view);
  });

  it('given refusals, replays, an undo, a player and expected seqs among them, then every answer is the one the same commands sent one by one get', async () => {
    const burst = (head: number): Array<[CommandInput, Actor?]> => [
      [note('first', { commandId: 'c-first' })],
      [{ type: 'DeclareExchange', attackerId: 'nobody', targetId: 'orin' }],
      [note('second', { expectedSeq: head + 1 })],
      [note('third')],
      [note('stale', { expectedSeq: head })],
      [note('first', { commandId: 'c-first' })],
      [note('first, reworded', { commandId: 'c-first' })],
      [note('player note'), player],
      [{ type: 'UndoCommands', count: 1 }],
      [note('after the undo', { commandId: 'c-after' })],
      [note('ahead', { expectedSeq: head + 50 })],
      [note('after the undo', { commandId: 'c-after' })],
      [note('last')],
    ];
    const referenceStore = await open();
    others.push(referenceStore);
    const reference = new FightService(referenceStore);
    const referenceFight = await create(reference);
    const fightId = await create();
    const head = (await service.view(fightId)).seq;
    expect((await reference.view(referenceFight)).seq).toBe(head);

    // Sent twice at once, so a round of them runs while the next waits.
    // Every command has an id of its own (besides those that repeat one), so the undo's data is alike.
    const named = (tag: string) =>
      burst(head).map(([c, actor], i): [CommandInput, Actor?] => [{ commandId: `${tag}-${i}`, ...c }, actor]);
    const commands = [...named('one'), ...named('two')];
    const expected = await oneByOne(reference, referenceFight, commands);
    store.appends.length = 0;
    const answers = await together(service, fightId, commands);
    expect(answers).toEqual(expected);
    expect(answers.filter((a) => 'error' in a).length).toBeGreaterThan(4);
    // After FightStarted, whose dice commitment is the fight's own.
    expect((await service.events(fightId)).slice(1).map((e) => [e.type, e.data])).toEqual(
      (await reference.events(referenceFight)).slice(1).map((e) => [e.type, e.data]),
    );
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
    expect(store.appends.some((n) => n > 1)).toBe(true);
  });

  it('given a burst the rules refuse whole, then each is answered after one round and once alone, not again round after round', async () => {
    const fightId = await create();
    const load = jest.spyOn(service.cache, 'load');
    const refused = Array.from({ length: 20 }, (): [CommandInput] => [{ type: 'StartRound' }]);
    const answers = await together(service, fightId, refused);
    expect(answers).toEqual(refused.map(() => ({ error: 'INITIATIVE_NOT_SET' })));
    // One load for the command that ran first, one for the round of those that waited, one for each alone.
    expect(load.mock.calls.length).toBeLessThanOrEqual(refused.length + 2);
    load.mockRestore();
  });

  it('given seeded dice, then each command of a round draws on from the draws of the one before, as one by one', async () => {
    const dice = {
      mode: 'seeded' as const,
      seed: 'together-seed',
      clientSeed: 'c',
      drawKey: 'together-draws',
    };
    const start = (on: FightService) =>
      on.create({
        system: 'narateer',
        dice,
        combatants: [
          { id: 'mira', name: 'Mira', side: 'a', sheet: weaponSheet },
          { id: 'orin', name: 'Orin', side: 'b', sheet: weaponSheet },
        ],
      });
    const exchanges = (attackerId: string, targetId: string): [CommandInput] => [
      exchange(attackerId, targetId),
    ];
    const steps: Array<[CommandInput, Actor?]> = [
      [{ type: 'SetInitiative', order: ['mira', 'orin'] }],
      [{ type: 'StartRound' }],
      [{ type: 'StartActivation', combatantId: 'mira' }],
      exchanges('mira', 'orin'),
      exchanges('mira', 'orin'),
      [note('between rolls')],
      exchanges('mira', 'orin'),
      [{ type: 'EndActivation', combatantId: 'mira' }],
      [{ type: 'StartActivation', combatantId: 'orin' }],
      exchanges('orin', 'mira'),
      exchanges('orin', 'mira'),
    ];
    const commands = steps.map(([c, actor], i): [CommandInput, Actor?] => [
      { commandId: `seeded-${i}`, ...c },
      actor,
    ]);
    const referenceStore = await open();
    others.push(referenceStore);
    const reference = new FightService(referenceStore);
    const expected = await oneByOne(reference, (await start(reference)).fightId, commands);
    const { fightId } = await start(service);
    store.appends.length = 0;
    const answers = await together(service, fightId, commands);
    expect(answers).toEqual(expected);
    const rolled = (await service.events(fightId)).filter((e) => e.type === 'ExchangeResolved');
    expect(rolled.length).toBeGreaterThan(1);
    expect(store.appends.some((n) => n > 1)).toBe(true);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
  });

  it('given another instance appends before their shared append, then each is decided again alone after it, and none is lost', async () => {
    const fightId = await create();
    const other = new FightService(base);
    await other.view(fightId);
    store.beforeTogether(async () => void (await other.execute(fightId, note('elsewhere'))));
    const texts = Array.from({ length: 10 }, (_, i) => `note ${i}`);
    const answers = await together(
      service,
      fightId,
      texts.map((t) => [note(t)]),
    );
    expect(answers.every((a) => 'seq' in a && !a.replayed)).toBe(true);
    const notes = await notesOf(fightId);
    expect(notes).toContain('elsewhere');
    expect(notes.filter((t) => t !== 'elsewhere')).toEqual(texts);
    expect(notes.length).toBe(11);
    expect(store.fired()).toBe(1);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
  });

  it('given their shared append fails without a conflict, then each runs again alone: one that did not land appends, none twice', async () => {
    const fightId = await create();
    await service.execute(fightId, note('before'));
    store.beforeTogether(() => Promise.reject(new Error('disk unplugged')));
    const texts = Array.from({ length: 8 }, (_, i) => `note ${i}`);
    const answers = await together(
      service,
      fightId,
      texts.map((t) => [note(t)]),
    );
    expect(store.fired()).toBe(1);
    expect(answers.every((a) => 'seq' in a && !a.replayed)).toBe(true);
    expect(await notesOf(fightId)).toEqual(['before', ...texts]);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
  });

  it('given their shared append lands but its answer is lost, then each runs again alone and gets its first result, appended once', async () => {
    const fightId = await create();
    await service.execute(fightId, note('before'));
    store.beforeTogether(() => Promise.resolve());
    let lost = false;
    const landsThenFails = new Proxy(store.store, {
      get(target, prop) {
        if (prop === 'append')
          return async (...args: Parameters<EventStore['append']>) => {
            const result = await target.append(...args);
            if (args[1].length > 1 && !lost) {
              lost = true;
              throw new Error('connection reset after commit');
            }
            return result;
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const flaky = new FightService(landsThenFails);
    await flaky.view(fightId);
    const texts = Array.from({ length: 8 }, (_, i) => `note ${i}`);
    const answers = await together(
      flaky,
      fightId,
      texts.map((t) => [note(t)]),
    );
    expect(lost).toBe(true);
    expect(answers.every((a) => 'seq' in a)).toBe(true);
    // The ones that shared the lost append are replays of what it wrote.
    expect(answers.filter((a) => 'seq' in a && a.replayed).length).toBeGreaterThan(1);
    expect(await notesOf(fightId)).toEqual(['before', ...texts]);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
  });

  it('given a listener fails as their shared append lands, then each command it held gets the error, those after it are run, and the fight takes commands again', async () => {
    const fightId = await create();
    let broke = false;
    const failing = () => {
      if (broke || !store.appends.some((n) => n > 1)) return;
      broke = true;
      throw new Error('listener broke');
    };
    store.appends.length = 0;
    service.onCommit.add(failing);
    const answers = await together(service, fightId, [
      [note('a')],
      [note('b')],
      [note('c')],
      [note('d', { commandId: 'c-d' })],
      // The same id again: not in the round that held the first (it runs alone after), so it is a replay.
      [note('d', { commandId: 'c-d' })],
    ]);
    expect(answers[0]).toMatchObject({ replayed: false });
    expect(answers.slice(1, 4)).toEqual([1, 2, 3].map(() => ({ error: 'Error: listener broke' })));
    expect(answers[4]).toMatchObject({
      replayed: true,
      events: [{ type: 'GmNoteAdded', data: { text: 'd' } }],
    });
    expect(await answerOf(service.execute(fightId, note('e')))).toMatchObject({ replayed: false });
    expect(await notesOf(fightId)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a conflict is what the shared append meets when the head moved: it expects the head the first was decided on', async () => {
    const fightId = await create();
    const other = new FightService(base);
    let met: unknown;
    const seen = new Proxy(store.store, {
      get(target, prop) {
        if (prop === 'append')
          return (...args: Parameters<EventStore['append']>) =>
            target.append(...args).catch((e: unknown) => {
              met ??= e;
              throw e;
            });
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const here = new FightService(seen);
    await here.view(fightId);
    store.beforeTogether(async () => void (await other.execute(fightId, note('elsewhere'))));
    await together(here, fightId, [[note('a')], [note('b')], [note('c')]]);
    expect(met).toBeInstanceOf(WrongExpectedRevision);
  });
});
