import { useApp } from './support/app';
import { stats, twoBinders } from './support/arcana-beast-sheets';
import { tableOf } from './support/fight-calls';

/**
 * A35–A37 end to end: the players' sides (options.playerSides), the Devolution Test rolled by the
 * knocked-out beast's own player, a Devolution onto an unlocked Stage, and Turn Order that "remains fixed".
 */
const binder = (beastId: string) => ({ kind: 'binder', beastId, stats: stats(1, 2), hp: 10, stamina: 3 });
// Ember: Stage 2 (d8) with Stages 0 and 2 unlocked, no Stage 1.
const ember = {
  kind: 'beast',
  stats: stats(3, 2, 3),
  hp: 4,
  stamina: 2,
  stage: 2,
  stages: [{ stage: 0 }, { stage: 2 }],
  attacks: [{ id: 'claw', name: 'Claw', range: 'melee', ranks: 1 }],
};
const pip = {
  kind: 'beast',
  stats: stats(2, 3),
  hp: 6,
  stamina: 2,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'peck', name: 'Peck', range: 'melee', ranks: 1 }],
};
const fang = {
  kind: 'beast',
  stats: stats(3, 2),
  hp: 3,
  stamina: 1,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
};
const setup = {
  system: 'arcana-beast',
  name: 'Ash and Bo against Rook, a rival Binder',
  dice: { mode: 'manual' },
  options: { playerSides: ['heroes'] },
  combatants: twoBinders(
    [
      { id: 'fang', name: 'Fang', side: 'rivals', sheet: fang },
      { id: 'rook', name: 'Rook', side: 'rivals', sheet: binder('fang') },
    ],
    { ember, pip, binder },
  ),
};
type Ev = { type: string; data: any };
const types = (events: Ev[]) => events.map((e) => e.type);
const find = (events: Ev[], type: string) => events.find((e) => e.type === type)!.data;
const combatant = (view: any, id: string) => view.combatants.find((c: { id: string }) => c.id === id);

describe('Arcana Beast end to end: whose side, and who rolls a Devolution Test (RULINGS.md A35–A37)', () => {
  const t = useApp();

  it('through REST: a rival’s beast knocks Ember out, Ash’s player rolls its Devolution Test (Stage 0: no Stage 1 unlocked), Pip knocks Fang out with no Critical Gauge; the log verifies', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId as string;
    const { gm, token, as } = tableOf(t, id);
    const [ash, bo, rook] = [as(await token('ash')), as(await token('bo')), as(await token('rook'))];

    await gm({ type: 'SetInitiative', order: ['fang', 'rook', 'pip', 'bo', 'ember', 'ash'] });
    await gm({ type: 'SetBand', aId: 'fang', bId: 'ember', band: 'close' });
    await gm({ type: 'SetBand', aId: 'pip', bId: 'fang', band: 'close' });
    await gm({ type: 'StartRound' });
    await gm({ type: 'StartActivation' });

    // Fang bites Ember: 3 d6, 3 successes against Ember's Dodge 2 d8 (0): 3 + 1 + 3 = 7, Ember is Knocked Out.
    // Rook's player sends no faces for the Devolution Test: the bite stands, and Ash's player is asked for them.
    const bite = await rook({ type: 'Attack', attackerId: 'fang', targetId: 'ember', dice: [5, 5, 5, 1, 1] });
    expect(types(bite.events)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DiceRequested',
    ]);
    expect(find(bite.events, 'KnockedOut')).toEqual({ combatantId: 'ember', playerSide: true });
    expect(bite.view.criticalGauge).toBe(1);
    expect(bite.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'ash',
      answer: 'ProvideDice',
      detail: { commandType: 'DevolutionTest', field: 'followUpFaces', count: 3, sides: 8 },
    });
    expect(combatant(bite.view, 'ember')).toMatchObject({
      state: 'KnockedOut',
      hp: 0,
      stage: 2,
      harms: ['Harm (reduced to 0 HP)'],
    });

    // The test is Ember's: Rook's player may not roll it; Ash's player does. "pass = Stage 1", but Ember has no Stage 1: Stage 0.
    expect((await rook({ type: 'ProvideDice', followUpFaces: [8, 6, 5] }, 403)).code).toBe(
      'NOT_YOUR_COMBATANT',
    );
    expect(
      (await gm({ type: 'DevolutionTest', combatantId: 'ember', followUpFaces: [8, 6, 5] }, 422)).code,
    ).toBe('PENDING_DECISION');
    // Undo takes the answer back: the request stands again, and Ash's player rolls once more.
    await ash({ type: 'ProvideDice', followUpFaces: [1, 1, 1] });
    const undone = await gm({ type: 'UndoCommands', count: 1 });
    expect(undone.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'ash',
      detail: { commandType: 'DevolutionTest' },
    });
    expect(combatant(undone.view, 'ember')).toMatchObject({ stage: 2 });
    const test = await ash({ type: 'ProvideDice', followUpFaces: [8, 6, 5] });
    expect(types(test.events)).toEqual(['DevolutionTested', 'StageDevolved']);
    expect(find(test.events, 'DevolutionTested')).toMatchObject({
      combatantId: 'ember',
      stageBefore: 2,
      stageAfter: 0,
      test: { difficulty: 3, successes: 3, passed: true },
    });
    expect(find(test.events, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 2,
      to: 0,
      reason: 'knockedOut',
    });
    expect(test.view.pending).toBeNull();
    expect(combatant(test.view, 'ember')).toMatchObject({ stage: 0, dieSides: 6 });
    expect(
      (await gm({ type: 'DevolutionTest', combatantId: 'ember', followUpFaces: [8, 6, 5] }, 422)).code,
    ).toBe('UNKNOWN_COMMAND');

    // Pip pecks Fang: 3 d6, 3 successes against 2 d6 (0): 2 + 1 + 3 = 6. Fang is Rook's, not the players': it drops out.
    await gm({ type: 'EndActivation' });
    await gm({ type: 'StartActivation' });
    const peck = await bo({ type: 'Attack', attackerId: 'pip', targetId: 'fang', dice: [5, 5, 5, 1, 1] });
    expect(types(peck.events)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt', 'KnockedOut']);
    expect(find(peck.events, 'KnockedOut')).toEqual({ combatantId: 'fang', playerSide: false });
    expect(peck.view.criticalGauge).toBe(1);
    expect(combatant(peck.view, 'fang')).toMatchObject({ state: 'KnockedOut', harms: [], stage: 1 });

    // "Turn Order … remains fixed": a second roll is refused, citing the Arcana Beast text.
    const again = await gm({ type: 'RollInitiative', dice: [4, 4, 4, 4, 4, 4, 4] }, 422);
    expect(again).toMatchObject({ code: 'INITIATIVE_ALREADY_SET', field: 'type' });
    expect(again.message).toMatch(/^arcana-beast\.txt: Initiative & Turn Order: .*remains fixed/);

    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    const report = (await t.http.post('/audit/verify').send(log).expect(200)).body;
    expect(report).toMatchObject({
      ok: true,
      checks: { chain: { status: 'ok' }, decisions: { status: 'ok' }, view: { status: 'ok' } },
    });
  });

  it('options.playerSides must be distinct side ids, refused with 422 naming the field; GET /systems/arcana-beast declares the option and lists A35–A37', async () => {
    const bad = async (playerSides: unknown) =>
      (
        await t.http
          .post('/fights')
          .send({ ...setup, options: { playerSides } })
          .expect(422)
      ).body;
    expect(await bad('heroes')).toMatchObject({ code: 'INVALID_FIELD', field: 'options.playerSides' });
    expect(await bad(['heroes', 'heroes'])).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'options.playerSides',
    });
    expect(await bad(['the heroes'])).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'options.playerSides[0]',
    });
    const system = (await t.http.get('/systems/arcana-beast').expect(200)).body;
    expect(system.optionsSchema.properties.playerSides).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expect(system.rulings.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining(['A35', 'A36', 'A37']),
    );
    expect(system.commands.map((c: { type: string }) => c.type)).not.toContain('DevolutionTest');
  });
});
