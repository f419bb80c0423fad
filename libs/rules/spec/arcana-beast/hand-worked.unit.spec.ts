import {
  beast,
  binder,
  close,
  exact,
  fight,
  Fighter,
  find,
  next,
  refused,
  stateOf,
  then,
  types,
  wild,
} from './helpers';

// Cases worked out by hand from arcana-beast.txt, each number traced in a comment to the line it comes from.

const stages = [0, 1, 2, 3, 4].map((stage) => ({ stage }));

describe('arcana-beast.txt: Attack & Damage, worked by hand', () => {
  const atStage4 = (wolfHp: number) =>
    close(
      fight(
        [
          { id: 'ember', sheet: beast({ stage: 4, stages }), side: 'h' },
          { id: 'wolf', sheet: wild({ hp: wolfHp }), side: 'w' },
        ],
        'ember',
      ),
      'ember',
      'wolf',
    );
  const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };

  it('"Critical Hit: 3+ faces showing 6+" on a d12: 12, 9 and 7 are 6+, 5 is a success only; (3 + 4)·2 + 3 = 17, HP stops at 0', () => {
    // "Build pool: Stat + Quality/Attack Ranks": Brawn 3 + Rank 1 + Claws 1 = 5 d12 (d12 at Stage 4).
    // Successes 12, 9, 7, 5 = 4; the wolf's Dodge, Agility 2 on d6: 4, 1 = 1. Three faces of 6+: a Critical.
    const out = exact(atStage4(8), claw, { dice: [12, 9, 7, 5, 3, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, sides: 12, successes: 4, sixes: 3 },
      dodge: { successes: 1 },
      critical: true,
      baseDamage: 7,
      extraSuccesses: 3,
      damage: 17,
    });
    // A11: HP never below 0; A13: a wild beast simply drops out.
    expect(find(out, 'DamageDealt')).toEqual({
      combatantId: 'wolf',
      damage: 17,
      hpBefore: 8,
      hp: 0,
      attackNo: 1,
    });
    expect(types(out).slice(-2)).toEqual(['DamageDealt', 'KnockedOut']);
  });

  it('"Critical Hit: 3+ faces showing 6+": 12, 9, 5, 5, 3 on d12 is two faces of 6+, no Critical: 7 + 3 = 10', () => {
    const out = exact(atStage4(30), claw, { dice: [12, 9, 5, 5, 3, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { successes: 4, sixes: 2 },
      critical: false,
      damage: 10,
    });
  });
});

describe('arcana-beast.txt: Combo Attacks, worked by hand', () => {
  const level1 = beast({ stage: 1, stages: [{ stage: 1 }] });
  const four: Fighter[] = [
    { id: 'ember', sheet: beast(), side: 'heroes' },
    { id: 'pip', sheet: level1, side: 'heroes' },
    { id: 'kit', sheet: level1, side: 'heroes' },
    { id: 'rue', sheet: level1, side: 'heroes' },
    { id: 'wolf', sheet: wild({ hp: 99 }), side: 'wild' },
  ];

  it('"Third consecutive hit deals +2 extra damage": a fourth deals +2 too (A20), and every later attacker gains one die, not more', () => {
    let e = ['pip', 'kit', 'rue'].reduce(
      (x, id) => close(x, id, 'wolf'),
      close(fight(four, 'ember'), 'ember', 'wolf'),
    );
    // Ember: 5 d8, 5 successes to none: (3 + 2) + 5 = 10.
    e = then(e, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' }, { dice: [6, 5, 4, 4, 4, 1, 1] });
    const damage: number[] = [];
    for (const id of ['pip', 'kit', 'rue']) {
      e = next(e, id);
      // 5 d6 + the combo die ("Second attacker gains +1 die"), 5 successes to none: (3 + 1) + 5 + combo damage.
      const out = exact(
        e,
        { type: 'Attack', attackerId: id, targetId: 'wolf' },
        { dice: [6, 5, 4, 4, 4, 1, 1, 1] },
      );
      expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 6 }, combo: { dieBonus: 1 } });
      damage.push(find(out, 'AttackResolved').damage);
      e = [...e, ...out];
    }
    expect(damage).toEqual([4 + 5 + 1, 4 + 5 + 2, 4 + 5 + 2]);
  });
});

describe('arcana-beast.txt: Knockout & Devolution, worked by hand', () => {
  const ko = (followUpFaces: number[]) => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      {
        id: 'ember',
        sheet: beast({
          hp: 3,
          stage: 4,
          stages,
          stats: { brawn: 3, agility: 0, endurance: 3, spirit: 2, technique: 2 },
          defensiveQualities: [],
        }),
        side: 'h',
      },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
    ];
    // The wolf's Bite: 2 d6, 2 successes against Ember's Dodge of Agility 0: (2 + 1) + 2 = 5 ≥ 3 HP.
    return exact(
      close(fight(fighters, 'wolf'), 'wolf', 'ember'),
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [6, 6], followUpFaces },
    );
  };

  it('"From Stage 2+: Endurance Test Diff 3 pass = Stage 1": from Stage 4, 3 d12 showing 12, 6, 4 pass and land on Stage 1', () => {
    const out = ko([12, 6, 4]);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 4,
      stageAfter: 1,
      test: { dice: 3, sides: 12, difficulty: 3, successes: 3, passed: true },
    });
    expect(find(out, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 4,
      to: 1,
      reason: 'knockedOut',
    });
  });

  it('"From Stage 2+: … fail = Stage 0": from Stage 4, 12, 5, 3 is 2 successes of 3: Stage 0', () => {
    const out = ko([12, 5, 3]);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      test: { successes: 2, passed: false },
      stageAfter: 0,
    });
    expect(find(out, 'StageDevolved')).toMatchObject({ from: 4, to: 0 });
  });
});

describe('arcana-beast.txt: Beast Binder Commands and Movement, worked by hand', () => {
  const pair = (ember = beast(), ash = binder('ember')): Fighter[] => [
    { id: 'ember', sheet: ember, side: 'h' },
    { id: 'ash', sheet: ash, side: 'h' },
    { id: 'wolf', sheet: wild({ hp: 99 }), side: 'w' },
  ];
  const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };
  const endRound = (e: ReturnType<typeof fight>) =>
    then(then(then(e, { type: 'EndActivation' }), { type: 'StartRound' }), { type: 'StartActivation' });

  it('"Call Back: … (Devolve/Retreat with Boost; no roll)" (A23): from Stage 3, 9, 7, 4 kept of 9, 7, 4, 1 pass Diff 3: Stage 1, and the Claw that follows rolls d6 for 4 + 5 = 9', () => {
    const tough = beast({ stage: 3, stats: { brawn: 3, agility: 2, endurance: 3, spirit: 2, technique: 2 } });
    let e = close(fight(pair(tough), 'ember'), 'ember', 'wolf');
    // "From Stage 2+: Endurance Test Diff 3": Endurance 3 on Stage 3's d10, + the Boost die, the lowest dropped.
    const back = exact(
      e,
      { type: 'CallBack', combatantId: 'ash', mode: 'devolve' },
      { followUpFaces: [9, 7, 4, 1] },
    );
    expect(find(back, 'DevolutionTested')).toMatchObject({
      stageBefore: 3,
      stageAfter: 1,
      test: { dice: 3, sides: 10, edge: 'boost', kept: [9, 7, 4], successes: 3, passed: true },
    });
    e = [...e, ...back];
    // "command first, then action": Brawn 3 + Rank 1 + Claws 1 = 5 d6 at Stage 1; Base Damage Brawn 3 + Stage 1.
    const out = exact(e, claw, { dice: [6, 5, 4, 4, 4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, sides: 6, successes: 5 },
      baseDamage: 4,
      extraSuccesses: 5,
      damage: 9,
    });
  });

  it('A21: a Binder at 0 HP gives no Command and is no target, but its beast keeps its turn and acts alone; EndScene does not revive it', () => {
    const fighters = pair(beast(), binder('ember', { hp: 3 }));
    let e = close(fight([fighters[2], fighters[0], fighters[1]], 'wolf'), 'wolf', 'ember');
    // The Bite: Brawn 2 d6 showing 6, 6 against Ash's Dodge 1, 1: (2 + Stage 1) + 2 = 5 ≥ 3 HP.
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [6, 6, 1, 1] },
    );
    expect(stateOf(e).combatants.ash).toMatchObject({ hp: 0, knockedOut: true });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(refused(e, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'combatantId',
    });
    expect(types(exact(e, claw, { dice: [1, 1, 1, 1, 1, 6, 6] }))).toContain('AttackResolved');
    e = endRound(e);
    expect(refused(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'targetId',
    });
    expect(find(exact(e, { type: 'EndScene' }), 'SceneEnded')).toEqual({ revived: [] });
  });

  it('A23, A21: a beast called back at Stage 0 rolls nothing; while it is in its vessel the wolf’s bite on Ash asks no Intercept, and Ash’s next shared turn is Commands only', () => {
    let e = close(fight(pair(beast({ stage: 0 })), 'ember'), 'ember', 'wolf');
    const back = exact(e, { type: 'CallBack', combatantId: 'ash' });
    expect(types(back)).toEqual(['BinderCommanded', 'CalledBack']);
    e = [...e, ...back];
    expect(refused(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
    });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: 'wolf' });
    const bite = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ash' }, { dice: [6, 6, 1, 1] });
    expect(types(bite)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    e = endRound([...e, ...bite]);
    expect(e.at(-1)).toEqual({ type: 'TurnStarted', data: { combatantId: 'ember', binderId: 'ash' } });
    expect(refused(e, { type: 'CallBack', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
    });
    expect(
      find(
        exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion', targetId: 'ash' }),
        'HpRestored',
      ),
    ).toEqual({
      combatantId: 'ash',
      amount: 4,
      hpBefore: 5,
      hp: 9,
    });
  });

  it('"Reposition: Move two bands" and "Move one band for free per turn" (A14): Far to Close toward one wolf, then Near to Close toward the other; each move changes its own pair', () => {
    const fighters: Fighter[] = [...pair(beast({ movement: [] })), { id: 'wolf2', sheet: wild(), side: 'w' }];
    let e = then(fight(fighters, 'ember'), { type: 'SetBand', aId: 'ember', bId: 'wolf2', band: 'far' });
    e = then(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf2', band: 'close' });
    expect(stateOf(e).bands).toEqual({ 'ember|wolf2': 'close' });
    const free = exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(find(free, 'Moved')).toMatchObject({ from: 'near', to: 'close', by: 'free' });
    expect(stateOf([...e, ...free]).bands).toEqual({ 'ember|wolf2': 'close', 'ember|wolf': 'close' });
  });

  it('"Strategize: Ignore enemy positioning benefit" lasts the shared turn (A26): Ember’s next turn claws the Obscured wolf with Setback again', () => {
    let e = close(fight(pair(), 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    // Technique 2 d6 showing 4, 5: 2 successes, Diff 2 passes.
    e = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 5] });
    const first = exact(e, claw, { dice: [6, 5, 4, 4, 4, 1, 1] });
    expect(find(first, 'AttackResolved').attack).toMatchObject({ edge: 'none', setbackSources: [] });
    e = then(then([...e, ...first], { type: 'EndActivation' }), { type: 'StartActivation' });
    e = endRound(e);
    // Round 2: 5 d8 + the Setback die, the highest (6) dropped.
    const again = exact(e, claw, { dice: [6, 5, 4, 4, 4, 3, 1, 1] });
    expect(find(again, 'AttackResolved').attack).toMatchObject({
      edge: 'setback',
      setbackSources: ['Obscured'],
      successes: 4,
    });
  });
});
