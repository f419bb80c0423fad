import { useApp } from './support/app';
import { stats, twoBinders } from './support/arcana-beast-sheets';

const ember = {
  kind: 'beast',
  stats: stats(3, 2, 3),
  qualities: { Claws: 1, Nimble: 1 },
  defensiveQualities: ['Nimble'],
  hp: 12,
  stamina: 2,
  stage: 1,
  stages: [
    { stage: 1 },
    { stage: 2, trigger: 'stand together' },
    { stage: 3, name: 'Emberlord', trigger: 'protect Ash' },
  ],
  attacks: [{ id: 'claw', name: 'Claw', range: 'melee', ranks: 1, qualities: ['Claws'] }],
  specialAttacks: [{ id: 'inferno', name: 'Inferno', range: 'long', ranks: 2, uses: 1, bonusDamage: 1 }],
  zeroPower: { name: 'Zero Flare', trigger: 'Ash is hurt', range: 'melee', ranks: 3 },
  movement: ['flight'],
};
// Pip has Stage 0 unlocked: its failed Devolution Test lands there (A37).
const pip = {
  kind: 'beast',
  stats: stats(2, 3),
  hp: 6,
  stamina: 2,
  stage: 1,
  stages: [{ stage: 0 }, { stage: 1 }],
  attacks: [{ id: 'peck', name: 'Peck', range: 'melee', ranks: 1 }],
};
const wolf = {
  kind: 'beast',
  stats: stats(2, 2),
  hp: 8,
  stamina: 1,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
};
const alpha = {
  kind: 'beast',
  stats: stats(3, 2),
  hp: 12,
  stamina: 1,
  stage: 2,
  stages: [{ stage: 2 }],
  attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
};
const binder = (beastId: string) => ({
  kind: 'binder',
  beastId,
  stats: stats(1, 2),
  hp: 10,
  stamina: 3,
  inventory: [{ id: 'potion', name: 'Potion', heal: 4 }],
});
const setup = {
  system: 'arcana-beast',
  name: 'Ash and Bo against the pack leader',
  dice: { mode: 'manual' },
  combatants: twoBinders(
    [
      { id: 'wolf', name: 'Wolf', side: 'wild', sheet: wolf },
      { id: 'alpha', name: 'Alpha', side: 'wild', sheet: alpha },
    ],
    { ember, pip, binder },
  ),
};
type Ev = { type: string; data: any };
const find = (events: Ev[], type: string) => {
  const e = events.find((x) => x.type === type);
  if (!e) throw new Error(`no ${type} in ${events.map((x) => x.type).join(', ')}`);
  return e.data;
};
const combatant = (view: any, id: string) => view.combatants.find((c: { id: string }) => c.id === id);

describe('Arcana Beast scenarios end to end, manual dice', () => {
  const t = useApp();

  it('a whole fight through GraphQL: surprise, a tie rerolled, terrain, Intercept, Bond Surge, a combo Zero Power, Guard, Knockout and Devolution, Call Back, the highest Stage, EndScene', async () => {
    const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
      i: setup,
    });
    const id = created.data.createFight.fightId;
    const mutation = `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq events { type data } view } }`;
    const send = async ({ type, ...payload }: Record<string, unknown>) => {
      const res = await t.gql(mutation, { f: id, i: { type, payload } });
      expect(res.errors).toBeUndefined();
      return res.data.command as { events: Ev[]; view: any };
    };
    const refuse = async ({ type, ...payload }: Record<string, unknown>) => {
      const res = await t.gql(mutation, { f: id, i: { type, payload } });
      expect(res.data?.command ?? null).toBeNull();
      return res.errors![0].extensions as { statusCode: number; code: string; field?: string };
    };

    // Initiative, Bo surprised (A31: his shared turn is): Ember 2 d6 (2), Pip 3 d6 + Setback (the 6 dropped: 1),
    // Wolf 2 d6 (0), Alpha 2 d8 (2). Ember and Alpha tie; the GM has them roll again: Alpha 1, Ember 0.
    const init = await send({
      type: 'RollInitiative',
      surprised: ['bo'],
      dice: [4, 5, 6, 4, 1, 1, 1, 1, 5, 6],
    });
    expect(find(init.events, 'InitiativeRolled').rolls[1]).toMatchObject({
      combatantId: 'pip',
      surprised: true,
      total: 1,
      pool: { edge: 'setback', dropped: { face: 6 } },
    });
    expect(init.view.pending).toMatchObject({
      kind: 'initiativeTie',
      detail: { ties: [['ember', 'alpha']] },
    });
    expect(await refuse({ type: 'StartRound' })).toMatchObject({ statusCode: 422, code: 'PENDING_DECISION' });
    const tie = await send({ type: 'RerollInitiative', dice: [1, 1, 4, 1] });
    expect(tie.view.initiative).toEqual(['alpha', 'ember', 'ash', 'pip', 'bo', 'wolf']);

    await send({ type: 'SetBand', aId: 'alpha', bId: 'ember', band: 'close' });
    await send({ type: 'SetBand', aId: 'ember', bId: 'pip', band: 'close' });
    await send({ type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far' });
    const rough = await send({
      type: 'SetBand',
      aId: 'pip',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: true,
    });
    expect(find(rough.events, 'BandSet')).toEqual({
      aId: 'pip',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 1,
    });
    const plain = await send({
      type: 'SetBand',
      aId: 'alpha',
      bId: 'pip',
      band: 'near',
      difficultTerrain: false,
    });
    expect(find(plain.events, 'BandSet')).toMatchObject({ difficultTerrain: 0 });
    await send({ type: 'StartRound' });

    // Round 1. Alpha bites Ash; Ember intercepts: Bite 3 d8 (2 successes) against Ember's Dodge 3 d6 (1): Base 3 + 2, + 1 = 6.
    await send({ type: 'StartActivation' });
    const declared = await send({ type: 'Attack', attackerId: 'alpha', targetId: 'ash' });
    expect(declared.view.pending).toMatchObject({ kind: 'intercept', awaiting: 'ember' });
    const bitten = await send({
      type: 'Intercept',
      combatantId: 'ember',
      intercept: true,
      dice: [8, 5, 2, 4, 1, 1],
    });
    expect(find(bitten.events, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'ash',
      attack: { sides: 8, successes: 2 },
      dodge: { sides: 6, dice: 3, successes: 1 },
      baseDamage: 5,
      damage: 6,
    });
    expect(find(bitten.events, 'DamageDealt')).toMatchObject({ hpBefore: 12, hp: 6 });
    await send({ type: 'EndActivation' });

    // Ember's turn: its Action went to the Intercept, Ash's Command did not (A22); a lower Stage is free; Flight leaves Far.
    const emberTurn = await send({ type: 'StartActivation' });
    expect(find(emberTurn.events, 'TurnStarted')).toMatchObject({
      combatantId: 'ember',
      binderId: 'ash',
      actionForfeited: 'intercept',
    });
    const potion = await send({ type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    expect(find(potion.events, 'HpRestored')).toEqual({
      combatantId: 'ember',
      amount: 4,
      hpBefore: 6,
      hp: 10,
    });
    expect(
      await refuse({ type: 'Attack', attackerId: 'ember', targetId: 'alpha', dice: [1, 1, 1, 1, 1, 1, 1] }),
    ).toMatchObject({ code: 'ARCANA_ACTION_USED', field: 'type' });
    const stage2 = await send({ type: 'Evolve', combatantId: 'ember', stage: 2 });
    expect(find(stage2.events, 'StageEvolved')).toEqual({
      combatantId: 'ember',
      from: 1,
      to: 2,
      reason: 'evolve',
      highest: false,
      triggerActive: false,
    });
    expect(
      await refuse({ type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' }),
    ).toMatchObject({ code: 'ARCANA_REPOSITION_NEEDED', field: 'band' });
    const flown = await send({
      type: 'Move',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'near',
      using: 'flight',
    });
    expect(find(flown.events, 'Moved')).toEqual({
      combatantId: 'ember',
      towardId: 'wolf',
      from: 'far',
      to: 'near',
      by: 'free',
      using: 'flight',
    });
    await send({ type: 'EndActivation' });

    // Pip's turn: Bond Surge (Pip's Stamina 2 → 1) gives Boost to every roll: the terrain test 3 d6 + 1 (the 1 dropped, one success
    // passes Difficulty 1), then Peck 3 d6 + 1 (the 3 dropped: 3 successes) against the wolf's 1: 2 + 1, + 2 = 5.
    await send({ type: 'StartActivation' });
    const surge = await send({ type: 'BondSurge', combatantId: 'bo' });
    expect(find(surge.events, 'StaminaSpent')).toEqual({ combatantId: 'pip', amount: 1, stamina: 1 });
    const closer = await send({
      type: 'Move',
      combatantId: 'pip',
      towardId: 'wolf',
      band: 'close',
      dice: [1, 2, 4, 1],
    });
    expect(find(closer.events, 'Moved')).toMatchObject({
      to: 'close',
      test: { difficulty: 1, edge: 'boost', kept: [2, 4, 1], passed: true },
    });
    const peck = await send({
      type: 'Attack',
      attackerId: 'pip',
      targetId: 'wolf',
      dice: [6, 6, 3, 5, 4, 1],
    });
    expect(find(peck.events, 'AttackResolved')).toMatchObject({
      attack: { edge: 'boost', kept: [6, 6, 5], successes: 3 },
      dodge: { successes: 1 },
      critical: false,
      damage: 5,
    });
    await send({ type: 'EndActivation' });

    // The wolf Passes: it has not acted, so the combo on it holds (A10); the round ends.
    await send({ type: 'StartActivation' });
    await send({ type: 'Pass', combatantId: 'wolf' });
    expect((await send({ type: 'EndActivation' })).events.map((e) => e.type)).toEqual([
      'ActivationEnded',
      'RoundEnded',
    ]);

    // Round 2. Alpha bites Ember, now on d8: 2 successes against 1: 6 damage, 10 → 4.
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });
    const bite2 = await send({
      type: 'Attack',
      attackerId: 'alpha',
      targetId: 'ember',
      dice: [8, 6, 1, 4, 1, 1],
    });
    expect(find(bite2.events, 'AttackResolved')).toMatchObject({
      dodge: { sides: 8 },
      combo: { position: 1 },
      damage: 6,
    });
    await send({ type: 'EndActivation' });

    // Ember: Ash is hurt (the GM marks the Zero Power's trigger); Direct; the free move to Close; Zero Flare continues Pip's combo:
    // Brawn 3 + Rank 3 + Direct 1 + Combo 1 = 8 d8, 5 successes with three 6+ (Critical) against 1: (3 + 2)·2 + 4 + 1 = 15.
    await send({ type: 'StartActivation' });
    await send({ type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    await send({ type: 'Direct', combatantId: 'ash' });
    await send({ type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    const flare = await send({
      type: 'UseZeroPower',
      attackerId: 'ember',
      targetId: 'wolf',
      dice: [8, 7, 6, 5, 4, 1, 1, 1, 6, 1],
    });
    const resolved = find(flare.events, 'AttackResolved');
    expect(resolved).toMatchObject({
      action: 'zeroPower',
      attack: { dice: 8, sides: 8, successes: 5, sixes: 3 },
      critical: true,
      baseDamage: 5,
      extraSuccesses: 4,
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 15,
    });
    expect(resolved.attack.bonuses.map((b: { source: string }) => b.source)).toEqual(['Direct', 'Combo']);
    expect(find(flare.events, 'KnockedOut')).toEqual({ combatantId: 'wolf', playerSide: false });
    await send({ type: 'EndActivation' });

    // Pip: Bo's Encourage (Spirit 3 d6, Diff 1) readies a Dodge die; Pip Guards Ember. The Knocked Out wolf gets no turn.
    await send({ type: 'StartActivation' });
    const enc = await send({ type: 'Encourage', combatantId: 'bo', effect: 'dodgeDie', dice: [4, 1, 1] });
    expect(find(enc.events, 'BinderCommanded')).toMatchObject({ command: 'encourage', passed: true });
    await send({ type: 'Guard', combatantId: 'pip', allyId: 'ember' });
    expect((await send({ type: 'EndActivation' })).events.map((e) => e.type)).toEqual([
      'ActivationEnded',
      'RoundEnded',
    ]);

    // Round 3. Alpha bites Ember; Pip's Guard takes it: 3 successes against Pip's Dodge 3 + Encourage 1 (1): 5 + 2 = 7.
    // Pip (6 HP) is Knocked Out: Critical Gauge 1, a Harm, and the Devolution Test from Stage 1 (Endurance 2 d6, Diff 2) fails: Stage 0.
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });
    const guarded = await send({
      type: 'Attack',
      attackerId: 'alpha',
      targetId: 'ember',
      dice: [8, 7, 4, 1, 1, 1, 4],
      followUpFaces: [4, 1],
    });
    expect(find(guarded.events, 'AttackResolved')).toMatchObject({
      targetId: 'pip',
      declaredTargetId: 'ember',
      redirectedBy: 'guard',
      dodge: { dice: 4, successes: 1 },
      damage: 7,
    });
    expect(guarded.events.map((e) => e.type)).toEqual([
      'ActionTaken',
      'BonusDiceUsed',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DevolutionTested',
      'StageDevolved',
    ]);
    expect(find(guarded.events, 'DevolutionTested')).toMatchObject({
      stageBefore: 1,
      stageAfter: 0,
      test: { stat: 'endurance', sides: 6, difficulty: 2, successes: 1, passed: false },
    });
    expect(guarded.view.criticalGauge).toBe(1);
    await send({ type: 'EndActivation' });

    // Ember: the highest Stage is free once its trigger is true; Inferno on d10: 3 successes against 1: (3 + 3) + 2 + 1 = 9.
    await send({ type: 'StartActivation' });
    expect(await refuse({ type: 'Evolve', combatantId: 'ember' })).toMatchObject({
      code: 'ARCANA_TRIGGER_NOT_ACTIVE',
      field: 'stage',
    });
    await send({ type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    const lord = await send({ type: 'Evolve', combatantId: 'ember' });
    expect(find(lord.events, 'StageEvolved')).toMatchObject({
      from: 2,
      to: 3,
      highest: true,
      triggerActive: true,
    });
    const inferno = await send({
      type: 'UseSpecialAttack',
      attackerId: 'ember',
      targetId: 'alpha',
      specialAttackId: 'inferno',
      dice: [10, 9, 4, 2, 8, 1],
    });
    expect(find(inferno.events, 'SpecialAttackUsed')).toEqual({
      combatantId: 'ember',
      specialAttackId: 'inferno',
      usesLeft: 0,
    });
    expect(find(inferno.events, 'AttackResolved')).toMatchObject({
      attack: { sides: 10, dice: 4, successes: 3 },
      dodge: { sides: 8, successes: 1 },
      critical: false,
      baseDamage: 6,
      bonusDamage: 1,
      damage: 9,
    });
    await send({ type: 'EndActivation' });

    // Pip is out, so Bo has the shared turn alone (A21): Call Back retreats Pip, no test for a Knocked Out beast.
    const boTurn = await send({ type: 'StartActivation' });
    expect(find(boTurn.events, 'TurnStarted')).toEqual({ combatantId: 'pip', binderId: 'bo' });
    const back = await send({ type: 'CallBack', combatantId: 'bo', mode: 'retreat' });
    expect(back.events.map((e) => e.type)).toEqual(['BinderCommanded', 'CalledBack']);
    await send({ type: 'EndActivation' });

    // Round 4. Alpha bites Bo; Pip is in its vessel and cannot intercept: 1 success against Bo's 2 is a miss.
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });
    await send({ type: 'SetBand', aId: 'alpha', bId: 'bo', band: 'close' });
    const missed = await send({ type: 'Attack', attackerId: 'alpha', targetId: 'bo', dice: [8, 1, 1, 4, 4] });
    expect(missed.events.map((e) => e.type)).toEqual(['ActionTaken', 'ComboReset', 'AttackResolved']);
    expect(find(missed.events, 'AttackResolved')).toMatchObject({
      targetId: 'bo',
      outcome: 'miss',
      damage: 0,
    });
    await send({ type: 'EndActivation' });

    // Ember: Inferno is spent for the scene; a critical Claw (5 d10, three 6+): 6·2 + 4 = 16 ends the fight.
    await send({ type: 'StartActivation' });
    expect(
      await refuse({
        type: 'UseSpecialAttack',
        attackerId: 'ember',
        targetId: 'alpha',
        specialAttackId: 'inferno',
      }),
    ).toMatchObject({ code: 'ARCANA_NO_USES_LEFT', field: 'specialAttackId' });
    const finish = await send({
      type: 'Attack',
      attackerId: 'ember',
      targetId: 'alpha',
      dice: [10, 10, 10, 4, 1, 1, 1],
    });
    expect(find(finish.events, 'AttackResolved')).toMatchObject({
      critical: true,
      baseDamage: 6,
      extraSuccesses: 4,
      damage: 16,
    });
    expect(combatant(finish.view, 'ember')).toMatchObject({
      hp: 4,
      stage: 3,
      dieSides: 10,
      revertTo: 2,
      specialAttacks: [{ usesLeft: 0 }],
      zeroPower: { used: true },
    });
    // Knocked Out and called back into its Wearable Vessel: in the vessel (A73), at 0 HP.
    expect(combatant(finish.view, 'pip')).toMatchObject({
      state: 'InVessel',
      hp: 0,
      stage: 0,
      stamina: 1,
      harms: ['Harm (reduced to 0 HP)'],
    });
    expect(combatant(finish.view, 'ash').inventory).toEqual([
      { id: 'potion', name: 'Potion', quantityLeft: 0, removesCondition: false },
    ]);

    // The encounter ends: Ember's turn and the round end with it (A45), the highest Stage reverts, uses and
    // the Zero Power reset, Pip leaves its vessel but stays out.
    const scene = await send({ type: 'EndScene' });
    expect(scene.events).toEqual([
      { type: 'ActivationEnded', data: { combatantId: 'ember', round: 4 } },
      { type: 'RoundEnded', data: { round: 4 } },
      { type: 'StageDevolved', data: { combatantId: 'ember', from: 3, to: 2, reason: 'encounterEnded' } },
      { type: 'SceneEnded', data: { revived: [] } },
    ]);
    expect(combatant(scene.view, 'ember')).toMatchObject({
      stage: 2,
      revertTo: null,
      specialAttacks: [{ usesLeft: 1 }],
      zeroPower: { used: false, triggerActive: false },
    });
    const ended = await send({ type: 'EndFight', winnerSide: 'heroes' });
    expect(ended.view.status).toBe('ended');
    expect(await refuse({ type: 'Pass', combatantId: 'ember' })).toMatchObject({
      statusCode: 422,
      code: 'FIGHT_ENDED',
      field: 'type',
    });
  });

  it('through REST, a bad sheet and illegal intents are refused with a code that names the rule and the field', async () => {
    const bad = await t.http
      .post('/fights')
      .send({ ...setup, combatants: [{ id: 'ember', name: 'Ember', sheet: { ...ember, maxHp: 'lots' } }] })
      .expect(422);
    expect(bad.body).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.maxHp' });
    const twice = await t.http
      .post('/fights')
      .send({
        ...setup,
        combatants: [...setup.combatants, { id: 'cy', name: 'Cy', side: 'heroes', sheet: binder('pip') }],
      })
      .expect(422);
    expect(twice.body).toMatchObject({
      code: 'ARCANA_BEAST_ALREADY_BOUND',
      field: 'combatants[6].sheet.beastId',
    });

    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const send = (cmd: Record<string, unknown>, status = 200) =>
      t.http.post(`/fights/${body.fightId}/commands`).send(cmd).expect(status);
    await send({ type: 'SetInitiative', order: ['ember', 'ash', 'pip', 'bo', 'wolf', 'alpha'] });
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });
    await send({ type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' });
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ type: 'Attack', attackerId: 'ember', targetId: 'alpha' }, 'ARCANA_OUT_OF_RANGE', 'targetId'],
      [{ type: 'Attack', attackerId: 'pip', targetId: 'wolf' }, 'ARCANA_NOT_YOUR_TURN', 'attackerId'],
      [{ type: 'Direct', combatantId: 'bo' }, 'ARCANA_NOT_YOUR_TURN', 'combatantId'],
      [{ type: 'Assist', combatantId: 'ember', allyId: 'pip' }, 'ARCANA_NOT_CLOSE', 'allyId'],
      [{ type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' }, 'ARCANA_TRIGGER_NOT_ACTIVE', 'type'],
      [
        { type: 'Move', combatantId: 'ember', towardId: 'alpha', band: 'close', using: 'burrowing' },
        'ARCANA_NO_SUCH_MOVEMENT',
        'using',
      ],
      [
        { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 'very' },
        'INVALID_FIELD',
        'difficultTerrain',
      ],
      [{ type: 'Attack', attackerId: 'ember', targetId: 'wolf', bonusDice: 9 }, 'INVALID_FIELD', 'bonusDice'],
    ];
    for (const [cmd, code, field] of refusals) {
      const res = await send(cmd, 422);
      expect({ type: cmd.type, ...res.body }).toMatchObject({
        type: cmd.type,
        code,
        field,
        message: expect.stringMatching(
          /^(arcana-beast\.txt:|RULINGS\.md [AC]\d+|ruling [AC]\d+|[A-Za-z]+ must)/,
        ),
      });
    }
  });
});
