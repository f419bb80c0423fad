import { EventStore } from '@app/event-store';
import { fightStream, secretStream } from '@app/fight-log';
import { seedCommitment } from '@app/rules';
import { AppError } from '../src/errors';
import { CreateFightInput } from '../src/command-admission';
import { creationFightId } from '../src/fight-commands';
import { FightService } from '../src/fight-service';
import { plainSheet, scratch, SharedLog, sharedLogEngines } from './helpers';

const PG_URL = process.env.EVENT_STORE_PG_URL;
const space = scratch(PG_URL);

const engines = sharedLogEngines(PG_URL, space, 'idempotent-creation');

const GM = { name: 'gm:key1', scope: 'all' as const, tenantId: 'tenant-a' };

const duel = (more: Partial<CreateFightInput> = {}): CreateFightInput => ({
  system: 'narateer',
  name: 'Duel at the ford',
  combatants: [
    { id: 'mira', name: 'Mira', side: 'a', sheet: plainSheet },
    { id: 'orin', name: 'Orin', side: 'b', sheet: plainSheet },
  ],
  ...more,
});

/** `store`, except that appends to the streams `fails` picks throw (the process stopped there) while it is set. */
function faulty(store: EventStore, fails: { stream?: (name: string) => boolean }): EventStore {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'append')
        return async (...[stream, events, options]: Parameters<EventStore['append']>) => {
          if (fails.stream?.(stream)) throw new Error(`the process stopped before appending to ${stream}`);
          return target.append(stream, events, options);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(engines)('a fight created with an idempotency key (commandId) on %s', (_name, open) => {
  let engine: SharedLog;
  beforeEach(async () => {
    engine = await open();
  });
  afterEach(() => engine.close());

  it('given a creation sent twice with the same key, then one fight: the second answers its first events, replayed, and appends nothing', async () => {
    const service = new FightService(engine.here);
    const first = await service.create(duel({ commandId: 'create-1' }), GM);
    const second = await service.create(duel({ commandId: 'create-1' }), GM);
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.fightId).toBe(first.fightId);
    expect(first.fightId).toBe(creationFightId('tenant-a', 'create-1'));
    expect(second.events.map((e) => e.hash)).toEqual(first.events.map((e) => e.hash));
    expect(second.events.every((e) => e.commandId === 'create-1')).toBe(true);
    expect(await engine.here.readStream(fightStream(first.fightId))).toHaveLength(first.events.length);
    expect(await engine.here.readStream(secretStream(first.fightId))).toHaveLength(1);
  });

  it('given the fight has moved on since, then the retry answers the creation’s events with the fight as it is now', async () => {
    const service = new FightService(engine.here);
    const first = await service.create(duel({ commandId: 'create-2' }), GM);
    const noted = await service.execute(first.fightId, { type: 'AddNote', text: 'later' }, GM);
    const again = await new FightService(engine.there).create(duel({ commandId: 'create-2' }), GM);
    expect([again.replayed, again.seq, again.events.length]).toEqual([true, noted.seq, first.events.length]);
  });

  it('given one attempt reading the seed before another attempt of the same creation seals it and makes the fight, when it reads on, then it answers that fight, replayed, not COMMAND_ID_REUSED', async () => {
    const fightId = creationFightId('tenant-a', 'create-race');
    let readSeed!: () => void;
    const seedRead = new Promise<void>((resolve) => (readSeed = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The late attempt's first read of the sealed seed happens at once, and its answer (no seed yet) reaches it only
    // once the other attempt has made the fight.
    let held = false;
    const late = new Proxy(engine.there, {
      get(target, prop) {
        if (prop === 'readStream')
          return async (...[stream, options]: Parameters<EventStore['readStream']>) => {
            const events = await target.readStream(stream, options);
            if (stream === secretStream(fightId) && !held) {
              held = true;
              readSeed();
              await released;
            }
            return events;
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const slow = new FightService(late).create(duel({ commandId: 'create-race' }), GM);
    await seedRead;
    const first = await new FightService(engine.here).create(duel({ commandId: 'create-race' }), GM);
    release();
    const again = await slow;
    expect([first.replayed, again.replayed, again.fightId]).toEqual([false, true, first.fightId]);
    expect(again.events.map((e) => e.hash)).toEqual(first.events.map((e) => e.hash));
  });

  it('given the same key with other fields, then 422 COMMAND_ID_REUSED naming commandId, and nothing appended', async () => {
    const service = new FightService(engine.here);
    const first = await service.create(duel({ commandId: 'create-3' }), GM);
    const error = await service
      .create(duel({ commandId: 'create-3', name: 'Another fight' }), GM)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, code: 'COMMAND_ID_REUSED', field: 'commandId' });
    expect(await engine.here.readStream(fightStream(first.fightId))).toHaveLength(first.events.length);
  });

  it('given two tenants, or no key, then the same key makes a fight per tenant and no key a new fight each time', async () => {
    const service = new FightService(engine.here);
    const a = await service.create(duel({ commandId: 'shared-key' }), GM);
    const b = await service.create(duel({ commandId: 'shared-key' }), { ...GM, tenantId: 'tenant-b' });
    expect([a.replayed, b.replayed]).toEqual([false, false]);
    expect(b.fightId).not.toBe(a.fightId);
    const [x, y] = [await service.create(duel(), GM), await service.create(duel(), GM)];
    expect(x.fightId).not.toBe(y.fightId);
  });

  it('given an attempt that stopped after sealing the seed, then the retry creates the fight with that seed, and a third attempt replays it', async () => {
    const fails: { stream?: (name: string) => boolean } = {
      stream: (s) => s === fightStream(creationFightId('tenant-a', 'create-4')),
    };
    const owned: string[] = [];
    const broken = new FightService(faulty(engine.here, fails));
    await expect(
      broken.create(duel({ commandId: 'create-4' }), GM, async (id) => void owned.push(id)),
    ).rejects.toThrow('the process stopped');
    const fightId = creationFightId('tenant-a', 'create-4');
    const [seal] = await engine.here.readStream(secretStream(fightId));
    expect(seal).toBeDefined();

    const retry = await new FightService(engine.there).create(
      duel({ commandId: 'create-4' }),
      GM,
      async (id) => void owned.push(id),
    );
    expect([retry.fightId, retry.replayed]).toEqual([fightId, false]);
    // The commitment in FightStarted is the sealed seed's: the fight ends revealing a seed that matches it.
    const ended = await new FightService(engine.there).execute(fightId, { type: 'EndFight' }, GM);
    const seed = (seal.data as { seed: string }).seed;
    expect(ended.events.at(-1)?.data).toMatchObject({ seed });
    expect(retry.events[0].data).toMatchObject({ dice: { commitment: seedCommitment(seed) } });
    const third = await new FightService(engine.here).create(duel({ commandId: 'create-4' }), GM);
    expect([third.replayed, third.events.map((e) => e.hash)]).toEqual([
      true,
      retry.events.map((e) => e.hash),
    ]);
    expect(owned).toEqual([fightId, fightId]);
  });

  it('given an attempt that stopped after sealing a seeded fight’s seed, then a retry with another seed is COMMAND_ID_REUSED', async () => {
    const fightId = creationFightId('tenant-a', 'create-5');
    const fails = { stream: (s: string) => s === fightStream(fightId) };
    const seeded = (seed: string) => duel({ commandId: 'create-5', dice: { mode: 'seeded', seed } });
    await expect(
      new FightService(faulty(engine.here, fails)).create(seeded('seed-one'), GM),
    ).rejects.toThrow();
    await expect(new FightService(engine.here).create(seeded('seed-two'), GM)).rejects.toMatchObject({
      code: 'COMMAND_ID_REUSED',
      field: 'commandId',
    });
    const made = await new FightService(engine.here).create(seeded('seed-one'), GM);
    expect([made.fightId, made.replayed]).toEqual([fightId, false]);
  });

  it('given the same creation sent at once on two instances, then one fight, created once: every other answer replays it', async () => {
    const [here, there] = [new FightService(engine.here), new FightService(engine.there)];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? here : there).create(duel({ commandId: 'create-6' }), GM),
      ),
    );
    expect(new Set(answers.map((a) => a.fightId)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.events.map((e) => e.hash).join()))).toEqual(
      new Set([answers[0].events.map((e) => e.hash).join()]),
    );
    expect(await engine.here.readStream(fightStream(answers[0].fightId))).toHaveLength(
      answers[0].events.length,
    );
  });
});
