import { ManualDice } from '../../src/dice/manual';
import { DIE_BY_STAGE } from '../../src/arcana-beast/data';
import { rollPool, rollTest } from '../../src/arcana-beast/rolls';
import { beast, close, exact, fight, find, party, refused, then } from './helpers';

const spec = (n: number, boost: string[] = [], setback: string[] = []) => ({
  combatantId: 'x',
  purpose: 'test',
  stat: 'agility' as const,
  statValue: n,
  ranks: 0,
  bonuses: [],
  boost,
  setback,
});

describe('arcana-beast.txt: Combat — dice (RULINGS.md A1–A4, A12)', () => {
  it.each([
    [0, 6],
    [1, 6],
    [2, 8],
    [3, 10],
    [4, 12],
  ])('"Arcana Beast die size scales with Stage": Stage %i rolls d%i', (stage, sides) => {
    expect(DIE_BY_STAGE[stage]).toBe(sides);
    const stages = [{ stage: 0 }, { stage }].filter(
      (s, i, a) => a.findIndex((o) => o.stage === s.stage) === i,
    );
    const events = close(
      fight(
        [
          { id: 'b', sheet: beast({ stage, stages, specialAttacks: [], zeroPower: undefined }), side: 'x' },
          { id: 'w', sheet: beast({ stage: 0, stages: [{ stage: 0 }] }), side: 'y' },
        ],
        'b',
      ),
      'b',
      'w',
    );
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'b', targetId: 'w' },
      { dice: [sides, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved').attack.sides).toBe(sides);
    expect(
      refused(
        events,
        { type: 'Attack', attackerId: 'b', targetId: 'w' },
        { dice: [sides + 1, 1, 1, 1, 1, 1, 1, 1] },
      ).code,
    ).toBe('DICE_FACE_OUT_OF_RANGE');
  });

  it('"Beast Binders always roll d6" (A4): a Binder at any Stage of its beast tests on d6', () => {
    const events = fight(party, 'ember');
    const out = exact(events, { type: 'Strategize', combatantId: 'ash' }, { dice: [6, 4] });
    expect(find(out, 'BinderCommanded').test).toMatchObject({
      sides: 6,
      dice: 2,
      successes: 2,
      difficulty: 2,
      passed: true,
    });
  });

  it('A1: a die succeeds on 4 or more whatever its size; a Test with Difficulty N passes with N successes', () => {
    const t = rollTest(spec(4), 12, 2, new ManualDice({ dice: [3, 4, 12, 1] }));
    expect(t).toMatchObject({ successes: 2, passed: true });
    expect(rollTest(spec(3), 12, 2, new ManualDice({ dice: [3, 4, 2] })).passed).toBe(false);
  });

  it('A3: Boost rolls one extra die and drops the lowest', () => {
    const p = rollPool(spec(2, ['Defend']), 6, new ManualDice({ dice: [5, 2, 4] }));
    expect(p).toMatchObject({
      dice: 2,
      edge: 'boost',
      dropped: { index: 1, face: 2 },
      kept: [5, 4],
      successes: 2,
    });
  });

  it('A3: Setback rolls one extra die and drops the highest', () => {
    const p = rollPool(spec(2, [], ['Obscured']), 6, new ManualDice({ dice: [5, 2, 6] }));
    expect(p).toMatchObject({ edge: 'setback', dropped: { index: 2, face: 6 }, kept: [5, 2], successes: 1 });
  });

  it('A3: one Boost and one Setback cancel; two Boosts are still one extra die', () => {
    expect(rollPool(spec(2, ['Defend'], ['Cornered']), 6, new ManualDice({ dice: [5, 2] }))).toMatchObject({
      edge: 'none',
      kept: [5, 2],
    });
    expect(
      rollPool(spec(2, ['Defend', 'Bond Surge']), 6, new ManualDice({ dice: [1, 2, 3] })).roll.faces,
    ).toHaveLength(3);
  });

  it('A12: successes and 6+ faces count on kept dice only', () => {
    const p = rollPool(spec(3, [], ['Obscured']), 8, new ManualDice({ dice: [6, 7, 8, 6] }));
    expect(p).toMatchObject({ kept: [6, 7, 6], sixes: 3 });
  });

  it('"+1 die" effects stack: Direct + Assist + High Ground + Flanking add four dice to the attack pool', () => {
    let events = close(close(fight(party, 'pip'), 'pip', 'wolf'), 'pip', 'ember');
    events = then(events, { type: 'SetTag', combatantId: 'pip', tag: 'highGround' });
    events = then(events, { type: 'SetTag', combatantId: 'pip', tag: 'flanking', againstId: 'wolf' });
    // "Two allies on opposite sides both gain +1 attack die" (A50): Ember flanks the wolf from the other side.
    events = then(events, { type: 'SetTag', combatantId: 'ember', tag: 'flanking', againstId: 'wolf' });
    events = [...events, { type: 'Assisted', data: { combatantId: 'ember', allyId: 'pip' } }];
    events = then(events, { type: 'Direct', combatantId: 'bo' });
    // Pip's Claw: Brawn 2 + Attack Rank 1 + Claws 1, then four +1 dice; the wolf dodges with 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] },
    );
    const attack = find(out, 'AttackResolved').attack;
    expect(attack.dice).toBe(8);
    expect(attack.bonuses.map((b: { source: string }) => b.source).sort()).toEqual([
      'Assist',
      'Direct',
      'Flanking',
      'High Ground',
    ]);
  });

  it('A12: "Defend + Cover gives +1 die and Boost" against a ranged attack', () => {
    const shooter = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'wolf', sheet: { ...beast({ stage: 1, stages: [{ stage: 1 }] }), kind: 'beast' }, side: 'wild' },
    ];
    let e2 = fight(shooter, 'ember');
    e2 = then(e2, { type: 'Defend', combatantId: 'ember' });
    e2 = then(e2, { type: 'EndActivation' });
    e2 = then(e2, { type: 'StartActivation', combatantId: 'wolf' });
    e2 = then(e2, { type: 'SetTag', combatantId: 'ember', tag: 'cover' });
    // Spark: Agility 2 dice; Ember's Dodge: Agility 2 + Nimble 1 + Cover 1 = 4 dice + 1 Boost die.
    const out = exact(
      e2,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember', attackId: 'spark' },
      { dice: [6, 6, 1, 1, 4, 4, 2] },
    );
    expect(find(out, 'AttackResolved').dodge).toMatchObject({
      dice: 4,
      edge: 'boost',
      bonuses: [{ source: 'Cover', dice: 1 }],
      kept: [1, 4, 4, 2],
      successes: 2,
    });
    expect(find(out, 'AttackResolved').outcome).toBe('miss');
  });

  it('A12: "Defend + Cornered cancel"', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = then(e, { type: 'EndActivation' });
    e = then(e, { type: 'StartActivation', combatantId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved').dodge).toMatchObject({
      edge: 'none',
      boostSources: ['Defend'],
      setbackSources: ['Cornered'],
    });
  });
});
