import { arcanaBeast } from '../../src/arcana-beast';
import { fightStarted, TEST_SEED } from '../given';
import {
  beast,
  binder,
  close,
  exact,
  fight,
  Fighter,
  find,
  joined,
  next,
  party,
  refused,
  stateOf,
  then,
  types,
  wild,
} from './helpers';

const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };

describe('RULINGS.md A29: initiative details', () => {
  const quick: Fighter[] = [
    { id: 'ember', sheet: beast({ initiativeDice: 1 }), side: 'heroes' },
    { id: 'ash', sheet: binder('ember'), side: 'heroes' },
    { id: 'wolf', sheet: wild(), side: 'wild' },
  ];
  const setup = [fightStarted('arcana-beast'), ...quick.map(joined)];

  it('A29: a beast sheet’s initiativeDice adds Quality/Talent dice to its Agility pool', () => {
    // Ember: Agility 2 + 1 initiative die on d8; the wolf: Agility 2 on d6.
    const out = exact(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 4, 1] });
    const rolled = find(out, 'InitiativeRolled');
    expect(rolled.rolls[0]).toMatchObject({
      combatantId: 'ember',
      total: 3,
      pool: {
        statValue: 2,
        dice: 3,
        sides: 8,
        bonuses: [{ source: 'Qualities/Talents (initiativeDice)', dice: 1 }],
      },
    });
    expect(rolled.order).toEqual(['ember', 'ash', 'wolf']);
  });

  it('A29: a surprised beast rolls its initiativeDice too, with Setback: one more die, the highest dropped', () => {
    const out = exact(setup, { type: 'RollInitiative', surprised: ['ember'] }, { dice: [8, 4, 1, 1, 4, 4] });
    const ember = find(out, 'InitiativeRolled').rolls[0];
    expect(ember).toMatchObject({
      surprised: true,
      total: 1,
      pool: {
        dice: 3,
        edge: 'setback',
        setbackSources: ['Surprised'],
        dropped: { index: 0, face: 8 },
        kept: [4, 1, 1],
      },
    });
    expect(find(out, 'InitiativeRolled').order).toEqual(['wolf', 'ember', 'ash']);
  });

  it('A29: a surprised id that is not in the fight is refused', () => {
    expect(refused(setup, { type: 'RollInitiative', surprised: ['nobody'] }).field).toBe('surprised[0]');
  });
});

describe('RULINGS.md A30: situational dice', () => {
  const start = close(fight(party, 'ember'), 'ember', 'wolf');

  it('A30: bonusDice on an attack adds +1 dice the GM allows, recorded as a named source', () => {
    const out = exact(start, { ...claw, bonusDice: 2 }, { dice: [1, 1, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      bonusDice: 2,
      attack: { dice: 7, bonuses: [{ source: 'bonusDice (RULINGS.md A30)', dice: 2 }] },
    });
  });

  it('A30: bonusDice on RollTest adds to the test pool', () => {
    const out = exact(
      start,
      { type: 'RollTest', combatantId: 'ember', stat: 'endurance', difficulty: 3, bonusDice: 1 },
      { dice: [4, 4, 4] },
    );
    expect(find(out, 'TestRolled').test).toMatchObject({
      statValue: 2,
      dice: 3,
      sides: 8,
      bonuses: [{ source: 'bonusDice (RULINGS.md A30)', dice: 1 }],
      successes: 3,
      passed: true,
    });
  });

  it('A30: bonusDice is 0–5; more is refused', () => {
    expect(refused(start, { ...claw, bonusDice: 6 })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'bonusDice',
    });
    expect(
      refused(start, { type: 'RollTest', combatantId: 'ember', stat: 'brawn', difficulty: 1, bonusDice: -1 })
        .field,
    ).toBe('bonusDice');
  });
});

/** The wolf knocks Ember (Stage 0, 3 HP) out, then Ember's shared turn starts. */
function emberKnockedOut() {
  const fighters: Fighter[] = [
    { id: 'wolf', sheet: wild(), side: 'wild' },
    { id: 'ember', sheet: beast({ hp: 3, stage: 0 }), side: 'h' },
    { id: 'ash', sheet: binder('ember'), side: 'h' },
  ];
  const e = then(
    close(fight(fighters, 'wolf'), 'wolf', 'ember'),
    { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
    { dice: [6, 6, 1, 1, 1] },
  );
  expect(stateOf(e).combatants.ember.knockedOut).toBe(true);
  return next(e, 'ember');
}

describe('RULINGS.md A21: Binders in the fight', () => {
  it('A21: a Binder keeps the shared turn while its beast is Knocked Out — Commands only', () => {
    const e = emberKnockedOut();
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    expect(refused(e, { type: 'Direct', combatantId: 'ash' }).code).toBe('ARCANA_COMBATANT_OUT');
    expect(refused(e, { type: 'Defend', combatantId: 'ember' }).code).toBe('ARCANA_COMBATANT_OUT');
    const out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    expect(types(out)).toEqual(['BinderCommanded', 'ItemUsed', 'HpRestored']);
    // A13, A33: healed up to its 3 maximum HP, but Knocked Out for the rest of the encounter.
    expect(find(out, 'HpRestored')).toEqual({ combatantId: 'ember', amount: 3, hpBefore: 0, hp: 3 });
    expect(stateOf([...e, ...out]).combatants.ember).toMatchObject({ hp: 3, knockedOut: true });
  });

  it('A21: with its Binder out too, a Knocked Out beast gets no turn', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast({ hp: 0, maxHp: 12 }), side: 'h' },
      { id: 'ash', sheet: binder('ember', { hp: 0, maxHp: 10 }), side: 'h' },
      { id: 'wolf', sheet: wild(), side: 'wild' },
    ];
    expect(refused(fight(fighters), { type: 'StartActivation', combatantId: 'ember' }).code).toBe(
      'COMBATANT_CANNOT_ACT',
    );
  });

  it('A21: a Binder at 0 HP is Knocked Out: Critical Gauge +1 and a Harm, no Devolution', () => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      { id: 'ember', sheet: beast(), side: 'h' },
      { id: 'ash', sheet: binder('ember', { hp: 2 }), side: 'h' },
    ];
    const e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    // Bite 2 d6 against Ash's Dodge 2 d6: 2 successes to 0, 3 + 2 = 5 damage.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [6, 6, 1, 1] },
    );
    expect(types(out)).toEqual([
      'ActionTaken',
      'InterceptDecided',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
    ]);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'ash', playerSide: true });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ash', from: 0, to: 1 });
    expect(stateOf([...e, ...out]).combatants.ash).toMatchObject({
      hp: 0,
      knockedOut: true,
      harms: ['Harm (reduced to 0 HP)'],
    });
  });
});

describe('RULINGS.md A23: Call Back', () => {
  const tough: Fighter[] = [
    {
      id: 'ember',
      sheet: beast({ stats: { brawn: 3, agility: 2, endurance: 3, spirit: 2, technique: 2 } }),
      side: 'h',
    },
    { id: 'ash', sheet: binder('ember'), side: 'h' },
    { id: 'wolf', sheet: wild(), side: 'w' },
  ];
  const start = close(fight(tough, 'ember'), 'ember', 'wolf');

  it('A23: mode devolve keeps the beast in the fight; its Devolution Test gets Boost and the Binder rolls nothing', () => {
    // Endurance 3 + the Boost die on d8, Diff 3 from Stage 2: the 1 is dropped, three successes pass: Stage 1.
    const out = exact(
      start,
      { type: 'CallBack', combatantId: 'ash', mode: 'devolve' },
      { followUpFaces: [1, 5, 6, 4] },
    );
    expect(types(out)).toEqual(['BinderCommanded', 'CalledBack', 'DevolutionTested', 'StageDevolved']);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      reason: 'callBack',
      stageBefore: 2,
      stageAfter: 1,
      test: { edge: 'boost', boostSources: ['Call Back'], dropped: { face: 1 }, difficulty: 3, passed: true },
    });
    const after = [...start, ...out];
    expect(stateOf(after).combatants.ember).toMatchObject({ inVessel: false, stage: 1 });
    // Still in the fight: the beast takes its Action, now on the Stage 1 die.
    expect(find(exact(after, claw, { dice: [1, 1, 1, 1, 1, 1, 1] }), 'AttackResolved').attack.sides).toBe(6);
  });

  it('A23: a beast back in its Wearable Vessel is not targetable: its Binder’s Encourage is refused, as Use Item on it is', () => {
    // Ember retreats (Endurance 3 + the Boost die on d8, Diff 3: the 1 dropped, three successes: Stage 1);
    // Ash keeps the shared turn of the next round (A21).
    let e = then(
      start,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [1, 5, 6, 4] },
    );
    e = then(then(e, { type: 'EndActivation' }), { type: 'EndRound' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(stateOf(e).combatants.ember).toMatchObject({ inVessel: true, stage: 1 });
    for (const effect of ['dodgeDie', 'removeCondition']) {
      const encourage = {
        type: 'Encourage',
        combatantId: 'ash',
        effect,
        ...(effect === 'removeCondition' ? { condition: 'burned' } : {}),
      };
      expect(refused(e, encourage, { dice: [4, 1, 1] })).toMatchObject({
        code: 'ARCANA_COMBATANT_OUT',
        field: 'type',
        message: 'ruling A23: ember is back in its Wearable Vessel for this encounter',
      });
    }
    expect(refused(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'targetId',
    });
    // Ash's other Commands stay: the Potion on Ash himself (at full HP, it heals nothing).
    expect(
      types(exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion', targetId: 'ash' })),
    ).toEqual(['BinderCommanded', 'ItemUsed']);
  });

  it('A23: mode devolve at Stage 0 is refused; there is nothing to devolve', () => {
    const e = close(
      fight([{ ...tough[0], sheet: beast({ stage: 0 }) }, tough[1], tough[2]], 'ember'),
      'ember',
      'wolf',
    );
    expect(refused(e, { type: 'CallBack', combatantId: 'ash', mode: 'devolve' })).toMatchObject({
      code: 'ARCANA_NOTHING_TO_DEVOLVE',
      field: 'mode',
    });
  });
});

describe('RULINGS.md A19: difficult terrain', () => {
  const start = fight(party, 'ember');

  it('A19: difficultTerrain: true marks Difficulty 1; 0 clears it', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: true,
    });
    expect(find(rough.slice(-1), 'BandSet')).toEqual({
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 1,
    });
    // Agility 2 on d8: one success passes Difficulty 1.
    expect(
      find(
        exact(
          rough,
          { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
          { dice: [4, 1] },
        ),
        'Moved',
      ),
    ).toMatchObject({ to: 'close', test: { difficulty: 1, successes: 1, passed: true } });
    const cleared = then(rough, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 0,
    });
    expect(
      find(exact(cleared, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }), 'Moved'),
    ).toEqual({ combatantId: 'ember', towardId: 'wolf', from: 'near', to: 'close', by: 'free' });
  });

  it('A19: difficultTerrain: false clears it like 0; any other value is refused naming the field', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 2,
    });
    const cleared = then(rough, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: false,
    });
    expect(find(cleared.slice(-1), 'BandSet')).toEqual({
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 0,
    });
    expect(
      find(exact(cleared, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }), 'Moved'),
    ).not.toHaveProperty('test');
    expect(
      refused(start, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 'yes' }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'difficultTerrain' });
    expect(
      refused(start, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 11 })
        .field,
    ).toBe('difficultTerrain');
  });

  it('A19: a failed test on a Reposition spends the Action and leaves the band', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'far',
      difficultTerrain: 2,
    });
    const out = exact(
      rough,
      { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [4, 1] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      from: 'far',
      to: 'far',
      by: 'reposition',
      stopped: true,
      test: { difficulty: 2, passed: false },
    });
    expect(refused([...rough, ...out], { type: 'Pass', combatantId: 'ember' }).code).toBe(
      'ARCANA_ACTION_USED',
    );
  });
});

describe('RULINGS.md A17, A22, A24, A25, A27: the remaining rulings', () => {
  const start = close(fight(party, 'ember'), 'ember', 'wolf');

  it('A17: a pair the GM has not set starts Near; a Binder and its own beast are always Close and cannot be set apart', () => {
    const s = stateOf(start);
    expect(s.bands['ember|wolf2']).toBeUndefined();
    expect(refused(start, { type: 'Attack', attackerId: 'ember', targetId: 'wolf2' })).toMatchObject({
      code: 'ARCANA_OUT_OF_RANGE',
      message: expect.stringMatching(/wolf2 is near/),
    });
    expect(refused(start, { type: 'SetBand', aId: 'ash', bId: 'ember', band: 'far' }).code).toBe(
      'ARCANA_SAME_POSITION',
    );
  });

  it('A22: a GM CancelPending voids the attack on the Binder; the attacker’s Action stays spent', () => {
    let e = next(start, 'wolf');
    e = then(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ash' });
    e = then(e, { type: 'CancelPending', reason: 'the GM rules the bite cannot reach' });
    const s = stateOf(e);
    expect(s.pending).toBeUndefined();
    expect(s.pendingAttack).toBeUndefined();
    expect(s.combatants.ash.hp).toBe(10);
    expect(refused(e, { type: 'Pass', combatantId: 'wolf' }).code).toBe('ARCANA_ACTION_USED');
  });

  it('A27: Guard is checked before Intercept — a guarded Binder is defended by the guard, and no Intercept is asked', () => {
    let e = close(start, 'pip', 'ember');
    e = next(e, 'pip');
    e = then(e, { type: 'Guard', combatantId: 'pip', allyId: 'ash' });
    e = next(e, 'wolf');
    // Pip dodges: Agility 3 + Nimble 1 on d6.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash' },
      { dice: [1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved']);
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'pip',
      declaredTargetId: 'ash',
      redirectedBy: 'guard',
    });
  });

  it('A27: Guard needs both Close: a guard no longer Close to its ally redirects nothing', () => {
    let e = close(start, 'ember', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = then(e, { type: 'SetBand', aId: 'ember', bId: 'pip', band: 'near' });
    e = close(next(e, 'wolf'), 'wolf', 'pip');
    expect(
      find(
        exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [1, 1, 1, 1, 1, 1] }),
        'AttackResolved',
      ),
    ).toMatchObject({ targetId: 'pip' });
  });

  it('A24: EndScene returns called-back beasts and revives Knocked Out combatants with HP above 0', () => {
    const e = then(
      start,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [8, 8, 8] },
    );
    expect(stateOf(e).combatants.ember.inVessel).toBe(true);
    e.splice(e.length - 3, 0, { type: 'KnockedOut', data: { combatantId: 'wolf2', playerSide: false } });
    const out = exact(e, { type: 'EndScene' });
    expect(find(out, 'SceneEnded')).toEqual({ revived: ['wolf2'] });
    expect(stateOf([...e, ...out]).combatants).toMatchObject({
      ember: { inVessel: false },
      wolf2: { knockedOut: false },
    });
  });

  it('A24: a Knocked Out beast cannot Evolve', () => {
    const e = then(emberKnockedOut(), { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    expect(refused(e, { type: 'Evolve', combatantId: 'ember', stage: 1 }).code).toBe('ARCANA_COMBATANT_OUT');
  });

  it('A24: EndScene clears the Stage and Zero Power triggers', () => {
    let e = then(start, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    const after = stateOf(then(e, { type: 'EndScene' })).combatants.ember;
    expect(after).toMatchObject({ activeTriggers: [], zeroPowerTrigger: false });
  });

  it('A24: EndFight reverts the highest Stage too', () => {
    const e = then(then(start, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true }), {
      type: 'Evolve',
      combatantId: 'ember',
    });
    const out = exact(e, { type: 'EndFight', revealedSeed: TEST_SEED });
    expect(out[0]).toEqual({
      type: 'StageDevolved',
      data: { combatantId: 'ember', from: 3, to: 2, reason: 'encounterEnded' },
    });
  });

  it('A25: RollOpposedTest — more successes wins; a’s pool is rolled before b’s, each on its own die', () => {
    // Ember Agility 2 on d8 against the wolf's Agility 2 on d6.
    const out = exact(
      start,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'wolf', reason: 'grapple' },
      { dice: [5, 8, 4, 1] },
    );
    expect(find(out, 'OpposedTestRolled')).toMatchObject({
      a: { combatantId: 'ember', stat: 'agility', sides: 8, successes: 2 },
      b: { combatantId: 'wolf', stat: 'agility', sides: 6, successes: 1 },
      winnerId: 'ember',
      reason: 'grapple',
    });
    const brawn = exact(
      start,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'wolf', bStat: 'brawn' },
      { dice: [1, 1, 4, 4] },
    );
    expect(find(brawn, 'OpposedTestRolled')).toMatchObject({
      b: { stat: 'brawn', statValue: 2 },
      winnerId: 'wolf',
    });
  });

  it('A25: an opposed test with equal successes is a tie the GM settles (winnerId: null)', () => {
    const out = exact(
      start,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'wolf' },
      { dice: [4, 1, 6, 2] },
    );
    expect(find(out, 'OpposedTestRolled').winnerId).toBeNull();
    expect(
      refused(start, { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'ember' }).code,
    ).toBe('ARCANA_INVALID_TARGET');
  });

  it('A26: an Assist die goes to the ally’s next roll of any kind — an opposed test too', () => {
    const e = then(close(start, 'ember', 'pip'), { type: 'Assist', combatantId: 'ember', allyId: 'pip' });
    const out = exact(
      e,
      { type: 'RollOpposedTest', aId: 'pip', aStat: 'brawn', bId: 'wolf' },
      { dice: [1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['BonusDiceUsed', 'OpposedTestRolled']);
    expect(find(out, 'OpposedTestRolled').a).toMatchObject({
      dice: 3,
      bonuses: [{ source: 'Assist', dice: 1 }],
    });
  });

  it('A26: Bond Surge gives Boost to an opposed test of the beast in that shared turn', () => {
    const e = then(start, { type: 'BondSurge', combatantId: 'ash' });
    const out = exact(
      e,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'wolf' },
      { dice: [1, 4, 4, 4, 1] },
    );
    expect(find(out, 'OpposedTestRolled')).toMatchObject({
      a: { edge: 'boost', boostSources: ['Bond Surge'], kept: [4, 4], successes: 2 },
      b: { edge: 'none', successes: 1 },
      winnerId: 'ember',
    });
  });

  it('A26: an Assist die waiting on a beast goes to its next roll — a Call Back Devolution Test too', () => {
    let e = close(fight(party, 'pip'), 'ember', 'pip');
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    e = next(e, 'ember');
    // Endurance 2 + Assist 1 + the Boost die on d8, Diff 3 from Stage 2: the 1 is dropped, three successes pass.
    const out = exact(
      e,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [1, 4, 4, 4] },
    );
    expect(types(out)).toEqual([
      'BinderCommanded',
      'CalledBack',
      'BonusDiceUsed',
      'DevolutionTested',
      'StageDevolved',
    ]);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageAfter: 1,
      test: { dice: 3, bonuses: [{ source: 'Assist', dice: 1 }], edge: 'boost', passed: true },
    });
    expect(stateOf([...e, ...out]).combatants.ember.assistDice).toBe(0);
  });
});

describe('RULINGS A39–A44: the last review’s open questions', () => {
  const start = fight(party, 'ember');

  it('A39: "Cornered: Cannot Reposition" against one opponent holds against it only: no Reposition measured to it or for positional advantage; one toward another combatant is allowed', () => {
    let e = then(start, { type: 'SetTag', combatantId: 'ember', tag: 'cornered', againstId: 'wolf' });
    e = then(e, { type: 'SetBand', aId: 'ember', bId: 'wolf2', band: 'far' });
    expect(
      refused(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'far' }),
    ).toMatchObject({
      code: 'ARCANA_CORNERED',
      field: 'towardId',
      message: expect.stringMatching(/^arcana-beast.txt: Positioning in Combat: Cornered: Cannot Reposition/),
    });
    expect(refused(e, { type: 'Reposition', combatantId: 'ember' })).toMatchObject({
      code: 'ARCANA_CORNERED',
      field: 'type',
    });
    const out = exact(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf2', band: 'close' });
    expect(types(out)).toEqual(['ActionTaken', 'Moved']);
    expect(find(out, 'Moved')).toMatchObject({ from: 'far', to: 'close', by: 'reposition' });
    // The free band move is no Reposition: it may leave the cornering wolf.
    expect(
      find(exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'far' }), 'Moved'),
    ).toMatchObject({ from: 'near', to: 'far', by: 'free' });
  });

  it('A39: Cornered against a Binder holds against its beast too (they share their bands); Cornered against no one forbids every Reposition', () => {
    let e = next(start, 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cornered', againstId: 'ash' });
    expect(
      refused(e, { type: 'Reposition', combatantId: 'wolf', towardId: 'ember', band: 'far' }),
    ).toMatchObject({ code: 'ARCANA_CORNERED', field: 'towardId' });
    expect(
      types(exact(e, { type: 'Reposition', combatantId: 'wolf', towardId: 'pip', band: 'far' })),
    ).toEqual(['ActionTaken', 'Moved']);
    const pinned = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cornered' });
    expect(
      refused(pinned, { type: 'Reposition', combatantId: 'wolf', towardId: 'pip', band: 'far' }),
    ).toMatchObject({ code: 'ARCANA_CORNERED', field: 'type' });
  });

  it('A40: "Pass: Choose not to act": a beast that Passed has not acted (as for A10), so its Binder may still Command; after the free band move it may not', () => {
    const passed = then(start, { type: 'Pass', combatantId: 'ember' });
    // Ash's Spirit 3 on d6, Diff 1.
    const out = exact(
      passed,
      { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' },
      { dice: [4, 1, 1] },
    );
    expect(find(out, 'BinderCommanded')).toMatchObject({ command: 'encourage', passed: true });
    expect(stateOf([...passed, ...out]).combatants.ember.encourageDodge).toBe(1);
    const moved = then(passed, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(refused(moved, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMMAND_AFTER_ACTION',
      message: expect.stringMatching(/; ember already used its free band move$/),
    });
    // Any other Action is the beast acting.
    const defended = then(start, { type: 'Defend', combatantId: 'ember' });
    expect(refused(defended, { type: 'Direct', combatantId: 'ash' }).code).toBe(
      'ARCANA_COMMAND_AFTER_ACTION',
    );
  });

  /** Ember (Stages 0–3) joins at Stage 3, its highest. */
  const atTop: Fighter[] = party.map((f) => (f.id === 'ember' ? { ...f, sheet: beast({ stage: 3 }) } : f));

  it('A41: "Highest Stage lasts one Combat Encounter or Scene": a beast that begins at its highest Stage reverts at EndScene to the highest unlocked Stage below', () => {
    const e = fight(atTop, 'ember');
    expect((arcanaBeast.view(stateOf(e)) as any).combatants[0]).toMatchObject({ stage: 3, revertTo: 2 });
    const out = exact(e, { type: 'EndScene' });
    expect(out[2]).toEqual({
      type: 'StageDevolved',
      data: { combatantId: 'ember', from: 3, to: 2, reason: 'encounterEnded' },
    });
    // Pip and the wolves have one unlocked Stage each: nothing below to revert to. Ember's turn ends first (A45).
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded', 'StageDevolved', 'SceneEnded']);
    expect(stateOf([...e, ...out]).combatants.ember).toMatchObject({ stage: 2, revertTo: undefined });
  });

  it('A41: EndFight reverts a beast that began at its highest Stage too; one that began lower keeps its Stage', () => {
    expect(exact(fight(atTop, 'ember'), { type: 'EndFight', revealedSeed: TEST_SEED })[0]).toEqual({
      type: 'StageDevolved',
      data: { combatantId: 'ember', from: 3, to: 2, reason: 'encounterEnded' },
    });
    expect(types(exact(start, { type: 'EndScene' }))).toEqual([
      'ActivationEnded',
      'RoundEnded',
      'SceneEnded',
    ]);
  });

  it('A42: EndScene ends what waits for a next turn or roll: Defend, Guard, an owed Intercept, Assist and Encourage dice', () => {
    // Ember's turn: Ash's Encourage (Spirit 3 on d6, Diff 1), then Ember guards Pip.
    let e = close(start, 'ember', 'pip');
    e = then(e, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = then(next(e, 'pip'), { type: 'Defend', combatantId: 'pip' });
    // The wolf bites Bo; Pip intercepts: the wolf's Brawn 2 on d6, Pip's Agility 3 + Nimble 1 + Defend's Boost die.
    e = close(next(e, 'wolf'), 'wolf', 'pip');
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'bo', intercept: true },
      { dice: [1, 1, 1, 1, 1, 1, 1] },
    );
    e = close(next(e, 'wolf2'), 'wolf2', 'wolf');
    e = then(then(e, { type: 'Assist', combatantId: 'wolf2', allyId: 'wolf' }), { type: 'EndActivation' });
    expect(stateOf(e).combatants).toMatchObject({
      ember: { guarding: 'pip', encourageDodge: 1 },
      pip: { defending: true, interceptOwed: true },
      wolf: { assistDice: 1 },
    });
    expect(stateOf(then(e, { type: 'EndScene' })).combatants).toMatchObject({
      ember: { guarding: undefined, encourageDodge: 0 },
      pip: { defending: false, interceptOwed: false },
      wolf: { assistDice: 0 },
    });
  });

  it('A43: a Guard redirect is not checked for reach again: the guard, Close to its ally, takes the bite though its own band to the wolf is Near', () => {
    let e = close(start, 'ember', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = close(next(e, 'wolf'), 'wolf', 'pip');
    expect(stateOf(e).bands['ember|wolf']).toBeUndefined();
    // The wolf's Brawn 2 on d6, then Ember's Dodge: Agility 2 + Nimble 1 on d8.
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [6, 6, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'pip',
      redirectedBy: 'guard',
      band: 'close',
      outcome: 'hit',
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ember' });
  });

  it('A44: "Turn Order … remains fixed", and the GM may start a beast’s turn out of it (C3): the next default turn, and the next round, follow the order', () => {
    const open = fight(party);
    expect(
      arcanaBeast.actorOf!(stateOf(open), { type: 'StartActivation', combatantId: 'wolf' }),
    ).toBeUndefined();
    let e = then(open, { type: 'StartActivation', combatantId: 'wolf' });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'wolf' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', binderId: 'ash' });
    e = then(e, { type: 'EndActivation' });
    expect(refused(e, { type: 'StartActivation', combatantId: 'wolf' }).code).toBe('ALREADY_ACTED');
    for (const id of ['pip', 'wolf2']) {
      e = then(e, { type: 'StartActivation' });
      expect(stateOf(e).turn?.beastId).toBe(id);
      e = then(e, { type: 'EndActivation' });
    }
    expect(stateOf(e).roundOpen).toBe(false);
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(e)).toMatchObject({ order: party.map((f) => f.id), turn: { beastId: 'ember' } });
  });
});

describe('RULINGS A45–A50: the next review’s open questions', () => {
  const bonusSources = (out: ReturnType<typeof exact>) =>
    find(out, 'AttackResolved').attack.bonuses.map((b: { source: string }) => b.source);

  it('A45: EndScene in the middle of a turn ends that turn and its round first: the Bond Surge given in it is over, and the next encounter starts with a fresh round', () => {
    const e = then(fight(party, 'ember'), { type: 'BondSurge', combatantId: 'ash' });
    const out = exact(e, { type: 'EndScene' });
    expect(out.slice(0, 2)).toEqual([
      { type: 'ActivationEnded', data: { combatantId: 'ember', round: 1 } },
      { type: 'RoundEnded', data: { round: 1 } },
    ]);
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded', 'SceneEnded']);
    const after = [...e, ...out];
    expect(stateOf(after)).toMatchObject({ activeId: undefined, turn: undefined, roundOpen: false });
    expect(refused(after, claw).code).toBe('ARCANA_NOT_YOUR_TURN');
    // Ash's Spirit 3 on d6, Diff 1: three dice, no Bond Surge Boost die any more.
    const test = find(
      exact(
        after,
        { type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 1 },
        { dice: [4, 1, 1] },
      ),
      'TestRolled',
    ).test;
    expect(test).toMatchObject({ dice: 3, edge: 'none', boostSources: [] });
    // The next encounter: round 2, Ember first again, its turn its own.
    const next2 = then(then(after, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(next2)).toMatchObject({ round: 2, turn: { beastId: 'ember', bondSurge: false } });
    // Between turns, only the open round ends.
    const between = then(e, { type: 'EndActivation' });
    expect(types(exact(between, { type: 'EndScene' }))).toEqual(['RoundEnded', 'SceneEnded']);
  });

  it('A46: a Binder’s Command is not "the target acts": the wolves’ combo on Ash holds through Ash’s Direct', () => {
    let e = close(close(fight(party), 'wolf', 'ember'), 'wolf2', 'ember');
    // The wolf's Bite on Ash: 2 d6 against Ash's Dodge 2 d6, 1 success to 0: 3 + 1 = 4 damage.
    e = then(e, { type: 'StartActivation', combatantId: 'wolf' });
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [4, 1, 1, 1] },
    );
    // Ember's shared turn: Ash gives a Command (Direct); Ember takes no Action.
    e = next(e, 'ember');
    e = then(e, { type: 'Direct', combatantId: 'ash' });
    e = next(e, 'wolf2');
    // The second wolf: Bite 2 + the combo die, 1 success to 0, +1 for the second hit: 3 + 1 + 1 = 5.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf2', targetId: 'ash', intercept: false },
      { dice: [4, 1, 1, 1, 1] },
    );
    expect(types(out)).not.toContain('ComboReset');
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 5,
    });
    expect(bonusSources(out)).toEqual(['Combo']);
    expect(stateOf([...e, ...out]).combatants.ash.hp).toBe(1);
  });

  it('A46: an Intercept is not "the target acts": the combo on Ember continues into the attack it intercepts, and past its forfeited turn', () => {
    let e = close(close(fight(party), 'wolf', 'ember'), 'wolf2', 'ember');
    // Bite on Ember: 2 d6 against Ember's Dodge (Agility 2 + Nimble 1 on d8), 1 to 0: 3 + 1 = 4 damage.
    e = then(e, { type: 'StartActivation', combatantId: 'wolf' });
    e = then(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ember' }, { dice: [4, 1, 1, 1, 1] });
    e = next(e, 'wolf2');
    // The second wolf bites Ash; Ember intercepts and becomes the target: the chain's second attack.
    const intercepted = exact(
      e,
      { type: 'Attack', attackerId: 'wolf2', targetId: 'ash', intercept: true },
      { dice: [4, 1, 1, 1, 1, 1] },
    );
    expect(types(intercepted)).not.toContain('ComboReset');
    expect(find(intercepted, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      redirectedBy: 'intercept',
      combo: { position: 2, hits: 2 },
      damage: 5,
    });
    e = [...e, ...intercepted];
    // Ember's turn starts with its Action spent; Pip's ends the round.
    e = then(e, { type: 'EndActivation' });
    const emberTurn = exact(e, { type: 'StartActivation' });
    expect(find(emberTurn, 'TurnStarted')).toMatchObject({
      combatantId: 'ember',
      actionForfeited: 'intercept',
    });
    expect(types(emberTurn)).not.toContain('ComboReset');
    e = then(then([...e, ...emberTurn], { type: 'EndActivation' }), { type: 'StartActivation' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartRound' });
    e = then(e, { type: 'StartActivation', combatantId: 'wolf' });
    // Round 2: the wolf's Bite is the chain's third attack (2 + the combo die); a miss.
    const third = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [1, 1, 1, 1, 1, 1] },
    );
    expect(find(third, 'AttackResolved')).toMatchObject({
      combo: { position: 3, dieBonus: 1 },
      outcome: 'miss',
    });
  });

  it('A47: a Binder whose beast has left the fight has no turn: "Shares turn with Arcana Beast" — it is skipped, and stays a target no beast intercepts for', () => {
    let e = then(fight(party), { type: 'RemoveCombatant', combatantId: 'pip' });
    expect(refused(e, { type: 'StartActivation', combatantId: 'bo' })).toMatchObject({
      code: 'COMBATANT_CANNOT_ACT',
      field: 'combatantId',
    });
    e = then(e, { type: 'StartActivation' });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', binderId: 'ash' });
    expect(refused(e, { type: 'Direct', combatantId: 'bo' }).code).toBe('ARCANA_NOT_YOUR_TURN');
    e = then(e, { type: 'EndActivation' });
    // Bo's place in the order is passed over: the wolf is next.
    e = then(e, { type: 'StartActivation' });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'wolf' });
    // Bite 2 d6 against Bo's Dodge 2 d6: decided at once, no Intercept asked.
    e = then(e, { type: 'SetBand', aId: 'wolf', bId: 'bo', band: 'close' });
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'bo' }, { dice: [1, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved']);
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'bo', outcome: 'miss' });
  });

  it('A48: an initiative tie reroll neither uses nor gets waiting dice: Ember’s Assist die and its Bond Surge stay for its attack', () => {
    const setup = [fightStarted('arcana-beast'), ...party.map(joined)];
    // pip 3, ember 2, wolf2 1, wolf 0 successes.
    let e = then(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    e = close(close(then(e, { type: 'StartRound' }), 'pip', 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'StartActivation' });
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    // A wolf joins with 2 successes (Agility 2 on d6): tied with Ember (A32).
    e = then(
      e,
      { type: 'AddCombatant', combatant: { id: 'wolf3', name: 'Wolf 3', side: 'wild', sheet: wild() } },
      { dice: [4, 4] },
    );
    expect(stateOf(e).pending).toMatchObject({
      kind: 'initiativeTie',
      detail: { ties: [['ember', 'wolf3']] },
    });
    // The reroll is the initiative roll again (A31): Ember's Agility 2 on d8, no Assist die, no Boost.
    const reroll = exact(e, { type: 'RerollInitiative' }, { dice: [4, 4, 4, 1] });
    const ember = find(reroll, 'InitiativeTieRerolled').rolls[0];
    expect(ember).toMatchObject({ combatantId: 'ember', total: 2 });
    expect(ember.pool).toMatchObject({ dice: 2, bonuses: [], edge: 'none', boostSources: [] });
    expect(types(reroll)).not.toContain('BonusDiceUsed');
    e = [...e, ...reroll];
    expect(stateOf(e)).toMatchObject({ combatants: { ember: { assistDice: 1 } }, turn: { bondSurge: true } });
    // Ember's Claw: 5 dice + the Assist die, and the Bond Surge Boost die; the wolf dodges with 2.
    const out = exact(e, claw, { dice: [1, 1, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Assist', dice: 1 });
    expect(find(out, 'AttackResolved').attack).toMatchObject({
      dice: 6,
      edge: 'boost',
      boostSources: ['Bond Surge'],
    });
  });

  it('A49: "Strategize: Ignore enemy positioning benefit": after a passed Strategize, the wolf’s own High Ground no longer cancels Ember’s', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'highGround', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'highGround' });
    // Without Strategize: both high, neither is below (A28) — five dice.
    expect(bonusSources(exact(e, claw, { dice: [1, 1, 1, 1, 1, 1, 1] }))).toEqual([]);
    // Ash's Technique 2 on d6, Diff 2: passed.
    e = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 5] });
    // Ember's Claw: 5 dice + High Ground; the wolf's Dodge 2.
    const out = exact(e, claw, { dice: [1, 1, 1, 1, 1, 1, 1, 1] });
    expect(bonusSources(out)).toEqual(['High Ground']);
    expect(find(out, 'AttackResolved').attack.dice).toBe(6);
  });

  it('A49: a failed Strategize leaves the wolf’s High Ground cancelling Ember’s', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'highGround' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'highGround' });
    e = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 1] });
    expect(bonusSources(exact(e, claw, { dice: [1, 1, 1, 1, 1, 1, 1] }))).toEqual([]);
  });

  describe('A50: "Flanking: Two allies on opposite sides both gain +1 attack die" — only while the partner flanks too', () => {
    const pack: Fighter[] = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'ash', sheet: binder('ember'), side: 'heroes' },
      { id: 'wolf', sheet: wild(), side: 'wild' },
      { id: 'wolf2', sheet: wild({ hp: 1 }), side: 'wild' },
    ];
    const flanked = () => {
      let e = close(close(fight(pack), 'ember', 'wolf'), 'ember', 'wolf2');
      e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'flanking', againstId: 'ember' });
      return then(e, { type: 'SetTag', combatantId: 'wolf2', tag: 'flanking', againstId: 'ember' });
    };
    /** The wolf bites Ember in its turn; faces: its pool of `dice`, then Ember's Dodge 3 d8 — a miss. */
    const bite = (e: ReturnType<typeof fight>, dice: number) =>
      exact(
        then(e, { type: 'StartActivation', combatantId: 'wolf' }),
        { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
        { dice: Array(dice + 3).fill(1) },
      );

    it('A50: with its partner flanking Ember too, the wolf gains the die', () => {
      expect(bonusSources(bite(flanked(), 3))).toEqual(['Flanking']);
    });

    it('A50: a partner that has moved still flanks until the GM clears its tag (A8: tags are the GM’s)', () => {
      let e = then(flanked(), { type: 'StartActivation', combatantId: 'wolf2' });
      e = then(e, { type: 'Move', combatantId: 'wolf2', towardId: 'ember', band: 'near' });
      e = then(e, { type: 'EndActivation' });
      expect(bonusSources(bite(e, 3))).toEqual(['Flanking']);
      e = then(e, { type: 'ClearTag', combatantId: 'wolf2', tag: 'flanking' });
      expect(bonusSources(bite(e, 2))).toEqual([]);
    });

    it('A50: a partner removed from the fight leaves the wolf alone: no Flanking die', () => {
      expect(
        bonusSources(bite(then(flanked(), { type: 'RemoveCombatant', combatantId: 'wolf2' }), 2)),
      ).toEqual([]);
    });

    it('A50: a partner Knocked Out leaves the wolf alone: no Flanking die', () => {
      let e = then(flanked(), { type: 'StartActivation', combatantId: 'ember' });
      // Ember's Claw 5 d8 against the second wolf's Dodge 2 d6: 1 success to 0, 5 + 1 = 6 damage.
      e = then(
        e,
        { type: 'Attack', attackerId: 'ember', targetId: 'wolf2', attackId: 'claw' },
        { dice: [8, 1, 1, 1, 1, 1, 1] },
      );
      expect(stateOf(e).combatants.wolf2.knockedOut).toBe(true);
      e = then(e, { type: 'EndActivation' });
      expect(bonusSources(bite(e, 2))).toEqual([]);
    });
  });
});

describe('RULINGS A51–A53: a fresh review’s open questions', () => {
  const bonusSources = (out: ReturnType<typeof exact>) =>
    find(out, 'AttackResolved').attack.bonuses.map((b: { source: string }) => b.source);

  it('A51: given the wolf Cornered against Ash, when Ember (Ash’s beast, in its place) claws the wolf, then the wolf dodges with Setback', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cornered', againstId: 'ash' });
    // Claw 5 d8, then the wolf's Dodge 2 d6 + the Setback die: faces 5, 5 and 1 — the 5 dropped, 1 success kept.
    const out = exact(e, claw, { dice: [4, 4, 1, 1, 1, 5, 5, 1] });
    const resolved = find(out, 'AttackResolved');
    expect(resolved.dodge).toMatchObject({
      dice: 2,
      edge: 'setback',
      setbackSources: ['Cornered'],
      dropped: { index: 0, face: 5 },
      kept: [5, 1],
      successes: 1,
    });
    // 2 successes to 1: a hit for Base 5 + 1 = 6 (without the Setback it would have been a miss, 2 to 2).
    expect(resolved).toMatchObject({ outcome: 'hit', damage: 6 });
  });

  it('A51: given the wolf on High Ground against Ember, when it bites Ash (in Ember’s place), then it gains the High Ground die', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'highGround', againstId: 'ember' });
    e = next(e, 'wolf');
    // Bite 2 d6 + High Ground 1, then Ash's Dodge: Agility 2 on d6 (no Intercept).
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [4, 4, 4, 4, 1] },
    );
    expect(bonusSources(out)).toEqual(['High Ground']);
    // 3 successes to 1: Base 2 + 1 (Stage 1) + 2 = 5.
    expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 3 }, outcome: 'hit', damage: 5 });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ash', hpBefore: 10, hp: 5 });
  });

  it('A52: given Ember’s Inferno (bonusDamage 1) rolls a Critical, when it hits, then only Base Damage doubles: 5·2 + 4 + 1 = 15', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'ash', sheet: binder('ember'), side: 'heroes' },
      { id: 'wolf', sheet: wild({ hp: 30 }), side: 'wild' },
    ];
    // Inferno (long, reaches Near): Agility 2 + Rank 2 on d8 — 6, 7, 8 and 4: 4 successes, three 6+; the Dodge 2 d6 none.
    const out = exact(
      fight(fighters, 'ember'),
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [6, 7, 8, 4, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      critical: true,
      baseDamage: 5,
      extraSuccesses: 4,
      bonusDamage: 1,
      damage: 15,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ hpBefore: 30, hp: 15 });
  });

  it('A53: given Ember Cornered, when Ash’s Strategize passes or Ember names its flight, then it still cannot Reposition; its free move flies two bands', () => {
    let e = then(fight(party, 'ember'), { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });
    e = close(e, 'ember', 'wolf');
    // Ash's Technique 2 on d6, Diff 2: passed.
    e = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 5] });
    expect(stateOf(e).turn).toMatchObject({ strategized: true });
    const rule = /^arcana-beast.txt: Positioning in Combat: Cornered: Cannot Reposition/;
    expect(
      refused(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'far' }),
    ).toMatchObject({ code: 'ARCANA_CORNERED', field: 'type', message: expect.stringMatching(rule) });
    expect(
      refused(e, {
        type: 'Reposition',
        combatantId: 'ember',
        towardId: 'wolf',
        band: 'far',
        using: 'flight',
      }),
    ).toMatchObject({ code: 'ARCANA_CORNERED', field: 'type' });
    expect(refused(e, { type: 'Reposition', combatantId: 'ember' }).code).toBe('ARCANA_CORNERED');
    const flown = exact(e, {
      type: 'Move',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'far',
      using: 'flight',
    });
    expect(find(flown, 'Moved')).toMatchObject({ from: 'close', to: 'far', by: 'free', using: 'flight' });
  });
});

describe('RULINGS A54–A58: combos around Binders, a third side, a Knocked Out beast, pools of no dice', () => {
  /** The wolf bites Ash (1 success to none: 3 + 1 = 4 damage), then Ember's shared turn starts. */
  function wolfBitesAsh() {
    let e = close(close(fight(party), 'wolf', 'ember'), 'wolf2', 'ember');
    e = then(e, { type: 'StartActivation', combatantId: 'wolf' });
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [4, 1, 1, 1] },
    );
    return next(e, 'ember');
  }

  it('A54: given the wolves’ combo on Ash, when Ember takes an Action in their shared turn, then the combo on Ash resets', () => {
    // arcana-beast.txt: "Combos reset if the target acts between allied attacks"; "Beast Binder Placement: Shares
    // turn with Arcana Beast": Ember's Action is the Action of Ash's turn.
    const acted = exact(wolfBitesAsh(), { type: 'Defend', combatantId: 'ember' });
    expect(acted).toEqual([
      { type: 'ActionTaken', data: { combatantId: 'ember', action: 'defend' } },
      {
        type: 'ComboReset',
        data: { targetId: 'ash', reason: 'its beast acted in their shared turn (ruling A54)' },
      },
    ]);
    const e = next([...wolfBitesAsh(), ...acted], 'wolf2');
    // The second wolf's Bite: 2 d6, no combo die; 1 success to none: 3 + 1 = 4, no combo damage.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf2', targetId: 'ash', intercept: false },
      { dice: [4, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 2, bonuses: [] },
      combo: { position: 1, dieBonus: 0, damageBonus: 0, hits: 1 },
      damage: 4,
    });
  });

  it('A54: given the wolves’ combo on Ash, when Ember Passes (A40: not acting), then the combo on Ash holds', () => {
    const passed = exact(wolfBitesAsh(), { type: 'Pass', combatantId: 'ember' });
    expect(types(passed)).toEqual(['ActionTaken']);
    const e = next([...wolfBitesAsh(), ...passed], 'wolf2');
    // Bite 2 + the combo die; 1 success to none: 3 + 1 + 1 for the second hit = 5.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf2', targetId: 'ash', intercept: false },
      { dice: [4, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 5,
    });
  });

  it('A55: given Ember Knocked Out, when Ash Encourages it for a Dodge die, then it is refused; removing a condition and Use Item still tend it', () => {
    const e = then(emberKnockedOut(), { type: 'ApplyCondition', combatantId: 'ember', condition: 'dazed' });
    expect(
      refused(e, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] }),
    ).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'type',
      message: expect.stringMatching(/^ruling A55: ember is Knocked Out/),
    });
    expect(
      types(
        exact(
          e,
          { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
          { dice: [4, 1, 1] },
        ),
      ),
    ).toEqual(['BinderCommanded', 'ConditionRemoved']);
    expect(types(exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' }))).toEqual([
      'BinderCommanded',
      'ItemUsed',
      'HpRestored',
    ]);
  });

  it('A56: given Ember Knocked Out, when only Ash commands in its turn between Pip’s and Kit’s Claws on the wolf, then the combo holds', () => {
    const heroBeast = beast({ stage: 1, stages: [{ stage: 1 }] });
    const fighters: Fighter[] = [
      { id: 'pip', sheet: heroBeast, side: 'h' },
      { id: 'ember', sheet: beast({ hp: 0, maxHp: 12 }), side: 'h' },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
      { id: 'kit', sheet: heroBeast, side: 'h' },
      { id: 'wolf', sheet: wild({ hp: 60 }), side: 'w' },
    ];
    let e = close(close(fight(fighters, 'pip'), 'pip', 'wolf'), 'kit', 'wolf');
    // Pip's Claw: 5 d6 (Brawn 3 + Rank 1 + Claws 1), 5 successes to none: (3 + 1) + 5 = 9.
    e = then(e, { type: 'Attack', attackerId: 'pip', targetId: 'wolf' }, { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'ember');
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    e = then(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    e = next(e, 'kit');
    // Kit's Claw: 5 d6 + the combo die, 5 successes to none: 4 + 5 + 1 for the second hit = 10.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'kit', targetId: 'wolf' },
      { dice: [6, 5, 4, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, bonuses: [{ source: 'Combo', dice: 1 }] },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2, sideTurn: 2 },
      damage: 10,
    });
  });

  it('A57: given a third side’s attack on the wolf between two heroes’ attacks, then the heroes’ chain holds and the rival’s stands apart', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'rex', sheet: wild(), side: 'rivals' },
      { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'heroes' },
      { id: 'wolf', sheet: wild({ hp: 60 }), side: 'wild' },
    ];
    let e = ['rex', 'pip'].reduce(
      (x, id) => close(x, id, 'wolf'),
      close(fight(fighters, 'ember'), 'ember', 'wolf'),
    );
    // Ember's Claw: 5 d8, 5 successes to none: (3 + 2) + 5 = 10.
    e = then(e, claw, { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'rex');
    // Rex's Bite, the rivals' first attack on the wolf: 2 d6, 1 success to none: 3 + 1 = 4, no combo.
    const rex = exact(e, { type: 'Attack', attackerId: 'rex', targetId: 'wolf' }, { dice: [4, 1, 1, 1] });
    expect(find(rex, 'AttackResolved').combo).toMatchObject({ position: 1, side: 'rivals' });
    e = next([...e, ...rex], 'pip');
    // Pip's Claw continues the heroes' chain: 5 d6 + the combo die, 5 to none: 4 + 5 + 1 = 10.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [6, 5, 4, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6 },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2, side: 'heroes' },
      damage: 10,
    });
    const s = stateOf([...e, ...out]);
    expect(s.combos.wolf).toMatchObject({ side: 'heroes', lastAttackerId: 'pip', attacks: 2, hits: 2 });
    expect(s.chains.wolf.rivals).toMatchObject({ lastAttackerId: 'rex', attacks: 1, hits: 1 });
  });

  it('A57: given two sides’ chains on the wolf, when the wolf acts, then both reset', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'rex', sheet: wild(), side: 'rivals' },
      { id: 'wolf', sheet: wild({ hp: 60 }), side: 'wild' },
    ];
    let e = close(close(fight(fighters, 'ember'), 'ember', 'wolf'), 'rex', 'wolf');
    e = then(e, claw, { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = then(next(e, 'rex'), { type: 'Attack', attackerId: 'rex', targetId: 'wolf' }, { dice: [4, 1, 1, 1] });
    e = then(next(e, 'wolf'), { type: 'Defend', combatantId: 'wolf' });
    expect(stateOf(e)).toMatchObject({ combos: {}, chains: {} });
  });

  it('A58: "Boost: roll one extra die, then drop the lowest" on a pool of no dice: the one die is rolled and dropped, 0 successes', () => {
    const zero = { brawn: 1, agility: 0, endurance: 2, spirit: 3, technique: 2 };
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'w' },
      { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'h' },
      { id: 'bo', sheet: binder('pip', { stats: zero }), side: 'h' },
    ];
    let e = close(fight(fighters, 'wolf'), 'wolf', 'pip');
    const boosted = exact(
      e,
      { type: 'RollTest', combatantId: 'bo', stat: 'agility', difficulty: 1, boost: true },
      { dice: [6] },
    );
    expect(find(boosted, 'TestRolled').test).toMatchObject({
      dice: 0,
      edge: 'boost',
      dropped: { index: 0, face: 6 },
      kept: [],
      successes: 0,
      passed: false,
    });
    // "Cornered: Dodge with Setback": Bo's Dodge of Agility 0 rolls the extra die and drops it (the highest).
    e = then(e, { type: 'SetTag', combatantId: 'bo', tag: 'cornered' });
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'bo', intercept: false },
      { dice: [4, 1, 1] },
    );
    // The wolf's Bite: 1 success to none: (2 + 1) + 1 = 4.
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 0, edge: 'setback', dropped: { index: 0, face: 1 }, kept: [], successes: 0 },
      outcome: 'hit',
      damage: 4,
    });
  });
});

describe('ruling A59: combos are on an enemy', () => {
  const fighters: Fighter[] = [
    { id: 'ember', sheet: beast(), side: 'heroes' },
    { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'heroes' },
    { id: 'kit', sheet: wild({ hp: 60 }), side: 'heroes' },
    { id: 'wolf', sheet: wild({ hp: 60 }), side: 'wild' },
  ];
  const start = ['pip', 'wolf'].reduce(
    (e, id) => close(e, id, 'kit'),
    close(fight(fighters, 'ember'), 'ember', 'kit'),
  );

  it('A59: "Combo Attacks: … target the same enemy": given Ember’s Claw on Kit, an ally, when Pip claws Kit next, then no combo die and no combo damage', () => {
    // Ember's Claw on Kit: 5 d8, 5 successes to none.
    let e = then(start, { ...claw, targetId: 'kit' }, { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'pip');
    // Pip's Claw: Brawn 3 + Rank 1 + Claws 1 = 5 d6 and no combo die; Kit's Dodge 2 d6. 5 to none: (3 + 1) + 5 = 9.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'kit' },
      { dice: [6, 5, 4, 4, 4, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, bonuses: [] },
      combo: { position: 1, dieBonus: 0, damageBonus: 0, hits: 1 },
      damage: 9,
    });
  });
});

describe('ruling A60: the Critical Gauge past 9', () => {
  const fighters: Fighter[] = [
    { id: 'wolf', sheet: wild(), side: 'wild' },
    { id: 'ember', sheet: beast({ hp: 1, stage: 0 }), side: 'heroes' },
    { id: 'ash', sheet: binder('ember'), side: 'heroes' },
    { id: 'kit', sheet: beast({ hp: 1, stage: 0 }), side: 'heroes' },
    { id: 'bo', sheet: binder('kit'), side: 'heroes' },
  ];
  // The wolf's Bite: 2 d6, two successes; a Stage 0 beast's Dodge, Agility 2 + Nimble 1 = 3 d6, none.
  const bite = (targetId: string) => ({ type: 'Attack', attackerId: 'wolf', targetId });
  const start = ['ember', 'kit'].reduce((e, id) => close(e, 'wolf', id), fight(fighters, 'wolf'));

  it('A60: "Critical Gauge thresholds … 9 Climactic Critical Move (peak stakes)": given the Gauge at 8, a Knockout reaches 9; EndScene keeps it, and the next Knockout counts 10 with no Critical Move', () => {
    let e = [...start, { type: 'CriticalGaugeRaised', data: { combatantId: 'x', from: 0, to: 8 } }];
    const first = exact(e, bite('ember'), { dice: [6, 6, 1, 1, 1] });
    expect(find(first, 'CriticalMoveTriggered')).toMatchObject({ threshold: 9, tier: 'climactic', gauge: 9 });
    e = then([...e, ...first], { type: 'EndScene' });
    // A7: one counter per fight; the end of an encounter does not empty it.
    expect(stateOf(e).criticalGauge).toBe(9);
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'wolf' });
    const second = exact(e, bite('kit'), { dice: [6, 6, 1, 1, 1] });
    expect(types(second)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
    ]);
    expect(find(second, 'CriticalGaugeRaised')).toEqual({ combatantId: 'kit', from: 9, to: 10 });
    expect(stateOf([...e, ...second]).criticalGauge).toBe(10);
  });
});

describe('ruling A21: a Binder is listed after its beast', () => {
  const setup = [fightStarted('arcana-beast'), ...party.map(joined)];

  it('A21: "it is listed after its beast": SetInitiative with a Binder ahead of its beast, or apart from it, is refused; right after it, the order stands', () => {
    expect(
      refused(setup, { type: 'SetInitiative', order: ['ash', 'ember', 'pip', 'bo', 'wolf', 'wolf2'] }),
    ).toMatchObject({
      code: 'ARCANA_BINDER_ORDER',
      field: 'order[0]',
      message: expect.stringMatching(/^ruling A21: /),
    });
    expect(
      refused(setup, { type: 'SetInitiative', order: ['wolf', 'bo', 'ember', 'ash', 'pip', 'wolf2'] }),
    ).toMatchObject({ code: 'ARCANA_BINDER_ORDER', field: 'order[1]' });
    expect(
      refused(setup, { type: 'SetInitiative', order: ['ember', 'pip', 'ash', 'bo', 'wolf', 'wolf2'] }),
    ).toMatchObject({ code: 'ARCANA_BINDER_ORDER', field: 'order[2]' });
    const order = ['wolf', 'pip', 'bo', 'wolf2', 'ember', 'ash'];
    expect(exact(setup, { type: 'SetInitiative', order })).toEqual([
      { type: 'InitiativeSet', data: { order } },
    ]);
  });
});

describe('ruling A61: a shared turn and the Binders who join or leave it', () => {
  it('A61: given Ember Knocked Out and Ash’s Commands-only turn running, when Ash leaves the fight, then no one is left in the turn: it ends, and with no one else to act, the round ends (C16)', () => {
    const e = emberKnockedOut();
    const out = exact(e, { type: 'RemoveCombatant', combatantId: 'ash' });
    expect(types(out)).toEqual(['CombatantRemoved', 'ActivationEnded', 'RoundEnded']);
    expect(find(out, 'ActivationEnded')).toEqual({ combatantId: 'ember', round: 1 });
    expect(stateOf([...e, ...out])).toMatchObject({ activeId: undefined, roundOpen: false, turn: undefined });
  });

  it('A61: given Ember Knocked Out and Ash’s turn running, when Ash leaves with a beast still to act, then the turn ends and the round goes on with the next turn', () => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      { id: 'ember', sheet: beast({ hp: 3, stage: 0 }), side: 'h' },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
      { id: 'wolf2', sheet: wild(), side: 'wild' },
    ];
    let e = then(
      close(fight(fighters, 'wolf'), 'wolf', 'ember'),
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [6, 6, 1, 1, 1] },
    );
    e = next(e, 'ember');
    const out = exact(e, { type: 'RemoveCombatant', combatantId: 'ash' });
    expect(types(out)).toEqual(['CombatantRemoved', 'ActivationEnded']);
    const started = exact([...e, ...out], { type: 'StartActivation' });
    expect(find(started, 'TurnStarted')).toMatchObject({ combatantId: 'wolf2' });
  });

  it('A61: given Ember’s own turn running after Ash’s Bond Surge, when Ash leaves, then the turn goes on as Ember’s own and keeps the Boost', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    const out = exact(e, { type: 'RemoveCombatant', combatantId: 'ash' });
    expect(types(out)).toEqual(['CombatantRemoved']);
    // Claw 5 d8 with Boost (one more, lowest dropped) against the wolf's Dodge 2 d6.
    const hit = exact(
      [...e, ...out],
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
      {
        dice: [1, 1, 1, 1, 1, 1, 1, 1],
      },
    );
    expect(find(hit, 'AttackResolved').attack.boostSources).toContain('Bond Surge');
  });

  it('A61: given Kit’s turn running, when its Binder Kai joins, then Kai gives no Command in that turn; it shares Kit’s next one', () => {
    const kit = beast({
      stage: 1,
      stages: [{ stage: 1 }],
      specialAttacks: [],
      zeroPower: undefined,
      movement: [],
    });
    let e = fight([...party, { id: 'kit', sheet: kit, side: 'heroes' }], 'kit');
    e = then(e, {
      type: 'AddCombatant',
      combatant: { id: 'kai', name: 'Kai', side: 'heroes', sheet: binder('kit') },
    });
    expect(refused(e, { type: 'Direct', combatantId: 'kai' })).toMatchObject({
      code: 'ARCANA_NOT_YOUR_TURN',
      field: 'combatantId',
      message: expect.stringMatching(/^ruling A61: /),
    });
    e = then(then(e, { type: 'EndActivation' }), { type: 'EndRound' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'kit' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'kit', binderId: 'kai' });
    expect(types(exact(e, { type: 'Direct', combatantId: 'kai' }))).toEqual(['BinderCommanded']);
  });
});
