import { useApp } from './support/app';
import { overGraphql, tableOf } from './support/fight-calls';
import { twoBinders, wolf } from './support/arcana-beast-sheets';

const setup = {
  system: 'arcana-beast',
  name: 'Two Binders against the wolf pack',
  dice: { mode: 'manual' },
  combatants: twoBinders([
    { id: 'wolf', name: 'Wolf', side: 'wild', sheet: wolf },
    { id: 'wolf2', name: 'Grey Wolf', side: 'wild', sheet: wolf },
  ]),
};
type Ev = { type: string; data: any };
const find = (events: Ev[], type: string) => events.find((e) => e.type === type)!.data;

describe('Arcana Beast end to end: two Binders with their beasts against wild beasts, manual dice', () => {
  const t = useApp();

  it('a whole fight through REST, each Binder played by its own token', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId;
    const { gm, token, as } = tableOf(t, id);
    const ash = as(await token('ash'));
    const bo = as(await token('bo'));

    // Initiative: Ember 2 d8 (2 successes), Pip 3 d6 (3), Wolf 2 d6 (0), Grey Wolf (1); Binders follow their beasts.
    const init = await gm({ type: 'RollInitiative', dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    expect(init.view.initiative).toEqual(['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf']);
    await gm({ type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' });
    await gm({ type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' });
    await gm({ type: 'StartRound' });

    // Round 1, Pip's turn: Bo Directs (+1 die), Pip pecks the wolf: 4 d6, 3 successes vs 1: 3 + 2 = 5.
    await gm({ type: 'StartActivation' });
    await ash({ type: 'Direct', combatantId: 'bo' }, 403);
    await bo({ type: 'Direct', combatantId: 'bo' });
    const peck = await bo({ type: 'Attack', attackerId: 'pip', targetId: 'wolf', dice: [6, 5, 4, 1, 4, 1] });
    expect(find(peck.events, 'AttackResolved')).toMatchObject({
      attack: { dice: 4, successes: 3 },
      dodge: { successes: 1 },
      baseDamage: 3,
      damage: 5,
    });
    expect(find(peck.events, 'DamageDealt')).toMatchObject({ combatantId: 'wolf', hp: 3 });
    await bo({ type: 'EndActivation' });

    // Ember's turn: a combo on the same wolf (+1 die, +1 damage): 6 d8, 3 successes vs 0: 5 + 3 + 1 = 9, the wolf drops out.
    await gm({ type: 'StartActivation' });
    const claw = await ash({
      type: 'Attack',
      attackerId: 'ember',
      targetId: 'wolf',
      dice: [8, 5, 4, 1, 1, 1, 1, 1],
    });
    expect(find(claw.events, 'AttackResolved')).toMatchObject({
      combo: { position: 2, dieBonus: 1, damageBonus: 1 },
      damage: 9,
    });
    expect(find(claw.events, 'KnockedOut')).toEqual({ combatantId: 'wolf', playerSide: false });
    await ash({ type: 'EndActivation' });

    // Grey Wolf bites Ash: Ember intercepts and takes the bite: 2 successes vs 0 on Ember's 3 d8: 3 + 2 = 5.
    await gm({ type: 'StartActivation' });
    const far = await gm({ type: 'Attack', attackerId: 'wolf2', targetId: 'ash' }, 422);
    expect(far).toMatchObject({ code: 'ARCANA_OUT_OF_RANGE', field: 'targetId' });
    await gm({ type: 'SetBand', aId: 'wolf2', bId: 'ash', band: 'close' });
    const declared = await gm({ type: 'Attack', attackerId: 'wolf2', targetId: 'ash' });
    expect(declared.view.pending).toMatchObject({
      kind: 'intercept',
      awaiting: 'ember',
      answer: 'Intercept',
    });
    const bitten = await ash({
      type: 'Intercept',
      combatantId: 'ember',
      intercept: true,
      dice: [6, 6, 1, 1, 1],
    });
    expect(find(bitten.events, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'ash',
      redirectedBy: 'intercept',
      damage: 5,
    });
    const roundOver = await gm({ type: 'EndActivation' });
    expect(roundOver.events.map((e: Ev) => e.type)).toEqual(['ActivationEnded', 'RoundEnded']);

    // Round 2: Pip closes on the Grey Wolf with its free move and pecks: 3 successes vs 0: 3 + 3 = 6.
    await gm({ type: 'StartRound' });
    await gm({ type: 'StartActivation' });
    await bo({ type: 'Move', combatantId: 'pip', towardId: 'wolf2', band: 'close' });
    await bo({ type: 'Move', combatantId: 'pip', towardId: 'wolf2', band: 'far' }, 422);
    const second = await bo({ type: 'Attack', attackerId: 'pip', targetId: 'wolf2', dice: [4, 4, 4, 1, 1] });
    expect(find(second.events, 'DamageDealt')).toMatchObject({ combatantId: 'wolf2', damage: 6, hp: 2 });
    await bo({ type: 'EndActivation' });

    // Ember spent this turn's Action on the Intercept; it still evolves for free when its trigger is true.
    const turn = await gm({ type: 'StartActivation' });
    expect(find(turn.events, 'TurnStarted')).toMatchObject({
      combatantId: 'ember',
      actionForfeited: 'intercept',
    });
    expect(
      (
        await ash(
          { type: 'Attack', attackerId: 'ember', targetId: 'wolf2', dice: [1, 1, 1, 1, 1, 1, 1] },
          422,
        )
      ).code,
    ).toBe('ARCANA_ACTION_USED');
    expect((await ash({ type: 'Evolve', combatantId: 'ember' }, 422)).code).toBe('ARCANA_TRIGGER_NOT_ACTIVE');
    await gm({ type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    const evolved = await ash({ type: 'Evolve', combatantId: 'ember' });
    expect(find(evolved.events, 'StageEvolved')).toMatchObject({ from: 2, to: 3, highest: true });
    await ash({ type: 'EndActivation' });

    // Grey Wolf misses Pip (0 vs 0); then Pip's critical Peck (three 6s): 3·2 + 3 = 9, no combo since the wolf acted.
    await gm({ type: 'StartActivation' });
    const miss = await gm({ type: 'Attack', attackerId: 'wolf2', targetId: 'pip', dice: [1, 1, 1, 1, 1] });
    expect(find(miss.events, 'AttackResolved')).toMatchObject({ outcome: 'miss', damage: 0 });
    await gm({ type: 'EndActivation' });
    await gm({ type: 'StartRound' });
    await gm({ type: 'StartActivation' });
    const crit = await bo({ type: 'Attack', attackerId: 'pip', targetId: 'wolf2', dice: [6, 6, 6, 1, 1] });
    expect(find(crit.events, 'AttackResolved')).toMatchObject({
      critical: true,
      baseDamage: 3,
      extraSuccesses: 3,
      combo: { position: 1 },
      damage: 9,
    });
    expect(find(crit.events, 'KnockedOut')).toEqual({ combatantId: 'wolf2', playerSide: false });
    const view = crit.view;
    expect(view.combatants.find((c: any) => c.id === 'ember')).toMatchObject({
      hp: 7,
      stage: 3,
      dieSides: 10,
      state: 'Active',
    });
    expect(view.combatants.filter((c: any) => c.side === 'wild').map((c: any) => c.state)).toEqual([
      'KnockedOut',
      'KnockedOut',
    ]);
    expect(view.criticalGauge).toBe(0);
    const scene = await gm({ type: 'EndScene' });
    expect(find(scene.events, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 3,
      to: 2,
      reason: 'encounterEnded',
    });
  });

  it('C11: a token holding only a bound beast is told the beast is played by its Binder, and which token to use', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const { token, as } = tableOf(t, body.fightId);
    const emberOnly = as(await token('ember'));
    const refused = await emberOnly(
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', dice: [6, 6] },
      403,
    );
    expect(refused).toMatchObject({ code: 'NOT_YOUR_COMBATANT', field: 'attackerId' });
    expect(refused.message).toBe(
      "ruling C11: ember is played by ash's player, and this token does not act for ash: use a token that holds ash",
    );
    // A combatant its own player plays keeps the short message.
    const refusedWild = await emberOnly(
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember', dice: [6, 6] },
      403,
    );
    expect(refusedWild.message).toBe('this token does not act for wolf');
  });

  it('through GraphQL: the same opening with the same numbers, and the system is listed', async () => {
    const { fightId: id, send } = await overGraphql(t, setup);
    await send({ type: 'SetInitiative', order: ['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf'] });
    await send({ type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' });
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });
    await send({ type: 'Direct', combatantId: 'bo' });
    const peck = await send({
      type: 'Attack',
      attackerId: 'pip',
      targetId: 'wolf',
      dice: [6, 5, 4, 1, 4, 1],
    });
    expect(find(peck.events, 'AttackResolved')).toMatchObject({ damage: 5 });
    const refused = await t.gql(
      `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }`,
      {
        f: id,
        i: { type: 'Attack', payload: { attackerId: 'pip', targetId: 'wolf', dice: [1, 1, 1, 1, 1] } },
      },
    );
    expect(JSON.stringify(refused.errors)).toContain('ARCANA_ACTION_USED');
    const systems = (await t.http.get('/systems/arcana-beast').expect(200)).body;
    expect(JSON.stringify(systems)).toContain('A16');
  });
});
