import { beast, binder, close, exact, fight, Fighter, find, then, types, wild } from './helpers';

// Cases worked out by hand from arcana-beast.txt, each number traced in a comment to the line it comes from.

const stages = [0, 1, 2, 3, 4].map((stage) => ({ stage }));
const next = (e: ReturnType<typeof fight>, id: string) =>
  then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: id });

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
