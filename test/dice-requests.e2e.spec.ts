import { party } from '../libs/rules/spec/arcana-beast/helpers';
import { useApp } from './support/app';
import { tableOf } from './support/fight-calls';
import { base as aBase, bow } from './support/archsoul-sheets';
import { mira, opening, orin, swing } from './support/narateer-sheets';

/** C13 end to end: a manual command short of its later dice is held, asked for, answered, audited. */
const narateer = {
  system: 'narateer',
  dice: { mode: 'manual' },
  combatants: [
    { id: 'mira', name: 'Mira', sheet: mira },
    { id: 'orin', name: 'Orin', sheet: orin },
  ],
};
const nOpening = [...opening, swing('mira', 0)];
// N2, N22: Mira's die, then Orin's Full Guard die, which has Advantage: one reroll.
const fullGuard = {
  type: 'RespondToExchange',
  combatantId: 'orin',
  response: 'fullGuard',
  boost: 0,
  dice: [1, 6],
};

const archsoul = {
  system: 'archsoul',
  dice: { mode: 'manual' },
  options: { arrowBreakage: false },
  combatants: [
    { id: 'ilsa', name: 'Ilsa', side: 'heroes', sheet: { ...aBase, weapons: [bow] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...aBase, weapons: [bow] } },
  ],
};
const aOpening = [
  { type: 'SetMap', grid: 'hex' },
  { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: 0, y: -3 }, facing: 'S' },
  { type: 'SetInitiative', order: ['ilsa', 'scout'] },
  { type: 'StartRound' },
];
// S15, S20: zero successes with three 1s is a critical failure; the bow table's 4 snaps back for 2 damage.
const fumble = { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow', dice: [1, 1, 1, 2] };

// A5, A31: with initiativeTies 'reroll', Ember (d8) and Pip tie on 1 success; the GM rolls them again.
const arcana = {
  system: 'arcana-beast',
  dice: { mode: 'manual' },
  options: { initiativeTies: 'reroll' },
  combatants: party.map((f) => ({ id: f.id, name: f.id, side: f.side, sheet: f.sheet })),
};
const tiedInitiative = { type: 'RollInitiative', dice: [4, 1, 6, 1, 1, 1, 1, 4, 4] };

const bare = (events: Array<{ type: string; data: unknown }>) =>
  events.map((e) => ({ type: e.type, data: e.data }));

describe('dice requests end to end (docs/rulings.md C13, RULINGS.md C6)', () => {
  const t = useApp();

  const create = async (setup: object) =>
    (await t.http.post('/fights').send(setup).expect(201)).body.fightId as string;
  const rest =
    (id: string) =>
    (cmd: Record<string, unknown>, status = 200, key?: string) => {
      const req = key
        ? t.anon.post(`/fights/${id}/commands`).set('authorization', `Bearer ${key}`)
        : t.http.post(`/fights/${id}/commands`);
      return req.send(cmd).expect(status);
    };
  const gql =
    (id: string) =>
    async ({ type, ...payload }: Record<string, unknown>) => {
      const res = await t.gql(
        `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq events { type data } view } }`,
        { f: id, i: { type, payload } },
      );
      return res;
    };
  const verified = async (id: string) => {
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    const report = (await t.http.post('/audit/verify').send(log).expect(200)).body;
    expect(report).toMatchObject({
      ok: true,
      checks: { chain: { status: 'ok' }, decisions: { status: 'ok' }, view: { status: 'ok' } },
    });
    return log;
  };

  it('Narateer through REST: the responder is asked for its Edge reroll, only its player may answer, the log verifies and undo steps back through it', async () => {
    const upFront = await create(narateer);
    for (const cmd of nOpening) await rest(upFront)(cmd);
    const whole = (await rest(upFront)({ ...fullGuard, rerollFaces: [6] })).body.events;

    const id = await create(narateer);
    const send = rest(id);
    for (const cmd of nOpening) await send(cmd);
    const { token } = tableOf(t, id);
    const [miraPlayer, orinPlayer] = [await token('mira'), await token('orin')];

    // The command's own pools are C6's: a response without them is refused, nothing appended.
    expect((await send({ ...fullGuard, dice: [] }, 422, orinPlayer)).body).toMatchObject({
      code: 'DICE_MANUAL_FACES_MISSING',
      field: 'dice[0]',
    });
    const asked = (await send(fullGuard, 200, orinPlayer)).body;
    expect(asked.events.map((e: any) => e.type)).toEqual(['DiceRequested']);
    expect(asked.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'orin',
      answer: 'ProvideDice',
      detail: {
        commandType: 'RespondToExchange',
        field: 'rerollFaces',
        count: 1,
        sides: 6,
        reason: expect.any(String),
      },
    });
    expect(asked.view.pending.detail).not.toHaveProperty('command');
    expect((await send({ type: 'EndActivation' }, 422)).body.code).toBe('PENDING_DECISION');
    expect((await send({ type: 'ProvideDice', rerollFaces: [6] }, 403, miraPlayer)).body).toMatchObject({
      code: 'NOT_YOUR_COMBATANT',
    });
    expect((await send({ type: 'ProvideDice', rerollFaces: [6, 6] }, 422, orinPlayer)).body).toMatchObject({
      code: 'DICE_MANUAL_FACES_EXTRA',
      field: 'rerollFaces[1]',
    });

    const done = (await send({ type: 'ProvideDice', rerollFaces: [6] }, 200, orinPlayer)).body;
    expect(bare(done.events)).toEqual(bare(whole));
    expect(done.view.pending).toBeNull();
    await verified(id);

    // C8: undo takes back the answer (the request stands again), then the request (the response is awaited again).
    const back = (await send({ type: 'UndoCommands', count: 1 })).body;
    expect(back.view.pending).toMatchObject({ kind: 'dice', awaiting: 'orin' });
    const before = (await send({ type: 'UndoCommands', count: 1 })).body;
    expect(before.view.pending).toMatchObject({
      kind: 'exchangeResponse',
      awaiting: 'orin',
      answer: 'RespondToExchange',
    });
    await verified(id);

    // CancelPending (the GM's) drops a request and brings back the response it held.
    await send(fullGuard, 200, orinPlayer);
    await send({ type: 'CancelPending' }, 403, orinPlayer);
    const cancelled = (await send({ type: 'CancelPending', reason: 'wrong die' })).body;
    expect(cancelled.events.map((e: any) => e.type)).toEqual(['DiceRequestCancelled']);
    expect(cancelled.view.pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'orin' });
    await verified(id);
  });

  it('Narateer through GraphQL: the same answer, the same events', async () => {
    const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
      i: narateer,
    });
    const id = created.data.createFight.fightId as string;
    const send = gql(id);
    for (const cmd of nOpening) expect((await send(cmd)).errors).toBeUndefined();
    const asked = (await send(fullGuard)).data.command;
    expect(asked.events.map((e: any) => e.type)).toEqual(['DiceRequested']);
    expect(asked.view.pending).toMatchObject({ kind: 'dice', detail: { field: 'rerollFaces', count: 1 } });
    const done = (await send({ type: 'ProvideDice', rerollFaces: [6] })).data.command;
    expect(done.events.find((e: any) => e.type === 'ExchangeResolved').data).toMatchObject({
      outcome: 'guarded',
      winnerId: 'orin',
    });
    await verified(id);
  });

  it('Archsoul through GraphQL: a critical failure asks for its table die; the log verifies', async () => {
    const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
      i: archsoul,
    });
    const id = created.data.createFight.fightId as string;
    const send = gql(id);
    for (const cmd of aOpening) expect((await send(cmd)).errors).toBeUndefined();
    const asked = (await send(fumble)).data.command;
    expect(asked.events.map((e: any) => e.type)).toEqual(['DiceRequested']);
    expect(asked.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'ilsa',
      answer: 'ProvideDice',
      detail: { commandType: 'Attack', field: 'followUpFaces', count: 1, sides: 6 },
    });
    const refused = await send({ type: 'ProvideDice', followUpFaces: [4, 4] });
    expect(refused.errors?.[0].extensions.code).toBe('DICE_MANUAL_FACES_EXTRA');
    const done = (await send({ type: 'ProvideDice', followUpFaces: [4] })).data.command;
    expect(done.events.map((e: any) => e.type)).toContain('CriticalFailureRolled');
    expect(done.events.find((e: any) => e.type === 'WoundsApplied').data).toMatchObject({
      combatantId: 'ilsa',
      damage: 2,
    });
    expect(done.view.pending).toBeNull();

    const upFront = await create(archsoul);
    for (const cmd of aOpening) await rest(upFront)(cmd);
    const whole = (await rest(upFront)({ ...fumble, followUpFaces: [4] })).body.events;
    expect(bare(done.events)).toEqual(bare(whole));
    await verified(id);
  });
  it('Arcana Beast through REST: tied beasts’ initiative rerolls are asked of the GM, whom no player can stand in for', async () => {
    const upFront = await create(arcana);
    const whole = (await rest(upFront)({ ...tiedInitiative, rerollFaces: [8, 8, 1, 1, 1] })).body.events;

    const id = await create(arcana);
    const send = rest(id);
    const asked = (await send(tiedInitiative)).body;
    expect(asked.events.map((e: any) => e.type)).toEqual(['DiceRequested']);
    expect(asked.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'gm',
      answer: 'ProvideDice',
      detail: { commandType: 'RollInitiative', field: 'rerollFaces', count: 2 },
    });
    const ash = (
      await t.http
        .post(`/fights/${id}/tokens`)
        .send({ role: 'player', combatantIds: ['ash'] })
        .expect(201)
    ).body.token as string;
    expect((await send({ type: 'ProvideDice', rerollFaces: [8, 8, 1, 1, 1] }, 403, ash)).body.code).toBe(
      'GM_ONLY',
    );
    const done = (await send({ type: 'ProvideDice', rerollFaces: [8, 8, 1, 1, 1] })).body;
    expect(bare(done.events)).toEqual(bare(whole));
    expect(done.view.pending).toBeNull();
    await verified(id);
  });
});
