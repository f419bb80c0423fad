import { verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { commandKey } from '../src/command-index';
import { FightService } from '../src/fight-service';
import { plainSheet } from './helpers';

/** As a client receives it (JSON drops undefined fields). */
const json = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const sheet = plainSheet;

/** The first two ids `cmd-0`, `cmd-1`, … whose index keys collide (found in about 190,000 tries). */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const id = `cmd-${i}`;
    const other = seen.get(commandKey(id));
    if (other !== undefined) return [other, id];
    seen.set(commandKey(id), id);
  }
}

describe('commandId idempotency is exact, whatever the index keys', () => {
  const [a, b] = collidingPair();
  const store = new InMemoryEventStore();
  const service = new FightService(store);
  const create = () =>
    service.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'x', name: 'X', side: 'p', sheet },
        { id: 'y', name: 'Y', side: 'q', sheet },
      ],
    });
  const note = (s: FightService, fightId: string, commandId: string, text: string) =>
    s.execute(fightId, { type: 'AddNote', text, commandId });
  const notes = async (fightId: string) =>
    (await service.events(fightId))
      .filter((e) => e.type === 'GmNoteAdded')
      .map((e) => [e.commandId, e.data.text]);

  it('the pair really collides', () => {
    expect(a).not.toBe(b);
    expect(commandKey(a)).toBe(commandKey(b));
  });

  it('the second id of a colliding pair appends; resending either is replayed with its own first result; the log verifies', async () => {
    const { fightId } = await create();
    const first = await note(service, fightId, a, 'first');
    expect(first.replayed).toBe(false);
    await note(service, fightId, 'between', 'between');
    const second = await note(service, fightId, b, 'second');
    expect(second.replayed).toBe(false);
    expect(second.events.map((e) => e.data.text)).toEqual(['second']);

    const againB = await note(service, fightId, b, 'second');
    expect(againB).toMatchObject({ replayed: true, events: json(second.events) });
    const againA = await note(service, fightId, a, 'first');
    expect(againA).toMatchObject({ replayed: true, events: json(first.events) });
    expect(await notes(fightId)).toEqual([
      [a, 'first'],
      ['between', 'between'],
      [b, 'second'],
    ]);

    const report = verifyFightLog(await service.exportLog(fightId));
    expect(report.firstDivergence).toBeUndefined();
    expect(report.ok).toBe(true);
  });

  it('a service that loads the fight from the log (no cache) tells the pair apart too', async () => {
    const { fightId } = await create();
    await note(service, fightId, a, 'first');
    await note(service, fightId, 'between', 'between');
    const cold = new FightService(store);
    const second = await note(cold, fightId, b, 'second');
    expect(second.replayed).toBe(false);
    const colder = new FightService(store);
    expect(await note(colder, fightId, b, 'second')).toMatchObject({
      replayed: true,
      events: json(second.events),
    });
    expect(await note(colder, fightId, a, 'first')).toMatchObject({ replayed: true });
    expect(await notes(fightId)).toEqual([
      [a, 'first'],
      ['between', 'between'],
      [b, 'second'],
    ]);
    expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
  });

  it('a command of several events is one entry: resending it replays all of them', async () => {
    const { fightId } = await create();
    await service.execute(fightId, { type: 'RollInitiative', dice: [6, 6, 1, 1, 1, 1] });
    await service.execute(fightId, { type: 'StartRound' });
    const started = await service.execute(fightId, { type: 'StartActivation', commandId: a });
    expect(started.events.map((e) => e.type)).toEqual(['ActivationStarted', 'DiceRefreshed']);
    const cold = new FightService(store);
    expect(await cold.execute(fightId, { type: 'StartActivation', commandId: a })).toMatchObject({
      replayed: true,
      events: json(started.events),
    });
    const second = await cold.execute(fightId, { type: 'AddNote', text: 'second', commandId: b });
    expect(second.replayed).toBe(false);
    expect(await cold.execute(fightId, { type: 'AddNote', text: 'second', commandId: b })).toMatchObject({
      replayed: true,
      events: json(second.events),
    });
  });
});
