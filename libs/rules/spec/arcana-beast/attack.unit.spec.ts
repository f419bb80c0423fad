import {
  beast,
  binder,
  close,
  exact,
  fight,
  Fighter,
  find,
  party,
  refused,
  stateOf,
  then,
  types,
  wild,
} from './helpers';

const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };

describe('arcana-beast.txt: Attack & Damage (RULINGS.md A2, A6, A12)', () => {
  const start = close(fight(party, 'ember'), 'ember', 'wolf');

  it('"Damage Formula: Base Damage + extra successes": Claw 5 d8 (Brawn 3 + Rank 1 + Claws 1) vs Dodge 2, 3 to 1: 5 + 2 = 7', () => {
    const out = exact(start, claw, { dice: [8, 5, 4, 2, 1, 6, 3] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, sides: 8, successes: 3 },
      dodge: { dice: 2, sides: 6, successes: 1 },
      outcome: 'hit',
      critical: false,
      baseDamage: 5,
      extraSuccesses: 2,
      damage: 7,
    });
    expect(find(out, 'DamageDealt')).toEqual({
      combatantId: 'wolf',
      damage: 7,
      hpBefore: 8,
      hp: 1,
      attackNo: 1,
    });
  });

  it('"Miss: Defender equals/exceeds attacker\'s successes"', () => {
    const out = exact(start, claw, { dice: [8, 1, 1, 1, 1, 6, 4] });
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'miss', damage: 0 });
    expect(types(out)).not.toContain('DamageDealt');
  });

  it('"Critical Hit: 3+ faces showing 6+ double base Damage": 6, 7, 8 kept, 5 successes vs 1: 5·2 + 4 = 14', () => {
    const out = exact(start, claw, { dice: [6, 7, 8, 4, 4, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      critical: true,
      baseDamage: 5,
      extraSuccesses: 4,
      damage: 14,
    });
  });

  it('A12: a Critical needs a hit — three 6+ faces that do not beat the Dodge are a miss', () => {
    const s = close(
      fight(
        [
          { id: 'ember', sheet: beast(), side: 'h' },
          {
            id: 'wolf',
            sheet: wild({ stats: { brawn: 2, agility: 5, endurance: 2, spirit: 2, technique: 2 } }),
            side: 'w',
          },
        ],
        'ember',
      ),
      'ember',
      'wolf',
    );
    const out = exact(s, claw, { dice: [6, 6, 6, 1, 1, 4, 4, 4, 6, 6] });
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'miss', critical: false });
  });

  it('"Base Damage by Stage: Brawn + Stage (0 to +4)"', () => {
    const stages = [0, 1, 2, 3, 4].map((stage) => ({ stage }));
    for (const stage of [0, 4]) {
      const s = close(
        fight(
          [
            { id: 'ember', sheet: beast({ stage, stages }), side: 'h' },
            { id: 'wolf', sheet: wild({ hp: 30 }), side: 'w' },
          ],
          'ember',
        ),
        'ember',
        'wolf',
      );
      const sides = stage === 4 ? 12 : 6;
      expect(find(exact(s, claw, { dice: [sides, 1, 1, 1, 1, 1, 1] }), 'AttackResolved')).toMatchObject({
        baseDamage: 3 + stage,
        damage: 3 + stage + 1,
      });
    }
  });

  it('A6: the Dodge pool is Agility + defensive Qualities', () => {
    let s = then(start, { type: 'Pass', combatantId: 'ember' });
    s = then(then(s, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: 'wolf' });
    const out = exact(
      s,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [4, 4, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved').dodge).toMatchObject({ statValue: 2, ranks: 1, dice: 3, sides: 8 });
  });

  it('A6: "Target rolls Dodge (Agility + defensive Qualities)": a Beast Binder’s defensive Qualities count like a beast’s', () => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      { id: 'ember', sheet: beast(), side: 'heroes' },
      {
        id: 'ash',
        sheet: binder('ember', { qualities: { Alert: 2 }, defensiveQualities: ['Alert'] }),
        side: 'heroes',
      },
    ];
    const e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    // Bite 2 d6 against Ash's Dodge: Agility 2 + Alert 2 on d6.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved').dodge).toMatchObject({
      combatantId: 'ash',
      statValue: 2,
      ranks: 2,
      dice: 4,
      sides: 6,
    });
  });

  it('"Attack: Melee (Close) or ranged (Close/Near)": melee at Near is refused naming the band; ranged reaches Near; only long-range reaches Far', () => {
    const near = fight(party, 'ember');
    expect(refused(near, claw)).toMatchObject({
      code: 'ARCANA_OUT_OF_RANGE',
      field: 'targetId',
      message: expect.stringMatching(
        /^arcana-beast.txt: Distance Bands: a melee attack reaches close; wolf is near/,
      ),
    });
    expect(
      find(exact(near, { ...claw, attackId: 'spark' }, { dice: [1, 1, 1, 1] }), 'AttackResolved').band,
    ).toBe('near');
    const far = then(near, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far' });
    expect(refused(far, { ...claw, attackId: 'spark' }).code).toBe('ARCANA_OUT_OF_RANGE');
    expect(
      types(
        exact(
          far,
          { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
          { dice: [1, 1, 1, 1, 1, 1] },
        ),
      ),
    ).toContain('AttackResolved');
  });

  it('"Use Special Attack: Costs a Special Attack Use"; none left is refused', () => {
    const used = then(
      start,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [8, 8, 1, 1, 1, 1] },
    );
    expect(find(used, 'SpecialAttackUsed')).toEqual({
      combatantId: 'ember',
      specialAttackId: 'inferno',
      usesLeft: 0,
    });
    // Inferno: Agility 2 + Rank 2; 2 successes vs 0: Base 5 + 2 + its bonus damage 1.
    expect(find(used, 'AttackResolved')).toMatchObject({ attack: { dice: 4 }, damage: 8, bonusDamage: 1 });
    let next = then(then(used, { type: 'EndActivation' }), { type: 'EndRound' });
    next = then(then(next, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(
      refused(next, {
        type: 'UseSpecialAttack',
        attackerId: 'ember',
        targetId: 'wolf2',
        specialAttackId: 'inferno',
      }),
    ).toMatchObject({ code: 'ARCANA_NO_USES_LEFT', field: 'specialAttackId' });
  });

  it('a narrative Zero Power (no attack profile) spends the Action; a target it names must be in the fight', () => {
    const calm: Fighter[] = [
      { id: 'ember', sheet: beast({ zeroPower: { name: 'Calm Aura', trigger: 'Ash sings' } }), side: 'h' },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
      { id: 'wolf', sheet: wild(), side: 'w' },
    ];
    const e = then(fight(calm, 'ember'), {
      type: 'SetTrigger',
      combatantId: 'ember',
      kind: 'zeroPower',
      active: true,
    });
    expect(refused(e, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'nobody' })).toMatchObject({
      code: 'COMBATANT_NOT_FOUND',
      field: 'targetId',
    });
    const out = exact(e, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' });
    expect(out).toEqual([
      { type: 'ZeroPowerUsed', data: { combatantId: 'ember', targetId: 'wolf', trigger: 'Ash sings' } },
      { type: 'ActionTaken', data: { combatantId: 'ember', action: 'zeroPower', targetId: 'wolf' } },
    ]);
  });

  it('A34: a Zero Power with a range is an attack like Attack: Direct gives it a die; it spends the Action', () => {
    const on = then(start, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    const plain = exact(
      on,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 8, 1, 1] },
    );
    const directed = then(on, { type: 'Direct', combatantId: 'ash' });
    const out = exact(
      directed,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 1, 8, 1, 1] },
    );
    expect(find(plain, 'AttackResolved').attack.dice + 1).toBe(find(out, 'AttackResolved').attack.dice);
    expect(find(out, 'AttackResolved')).toMatchObject({ action: 'zeroPower', outcome: 'hit' });
    expect(refused([...directed, ...out], { type: 'Pass', combatantId: 'ember' }).code).toBe(
      'ARCANA_ACTION_USED',
    );
  });

  it('A34: a narrative Zero Power (no range) spends the Action and the scene’s use, and rolls nothing', () => {
    const calm: Fighter[] = [
      { id: 'ember', sheet: beast({ zeroPower: { name: 'Calm Aura', trigger: 'Ash sings' } }), side: 'h' },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
      { id: 'wolf', sheet: wild(), side: 'w' },
    ];
    const on = then(fight(calm, 'ember'), {
      type: 'SetTrigger',
      combatantId: 'ember',
      kind: 'zeroPower',
      active: true,
    });
    const used = then(on, { type: 'UseZeroPower', attackerId: 'ember' });
    expect(refused(used, { type: 'Pass', combatantId: 'ember' }).code).toBe('ARCANA_ACTION_USED');
    expect(stateOf(used).combatants.ember).toMatchObject({ zeroPowerUsed: true });
    let next = then(then(used, { type: 'EndActivation' }), { type: 'EndRound' });
    next = then(then(next, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(refused(next, { type: 'UseZeroPower', attackerId: 'ember' }).code).toBe('ARCANA_ZERO_POWER_USED');
  });

  it('"Use Zero Power: Once per scene when trigger is active"', () => {
    expect(refused(start, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' }).code).toBe(
      'ARCANA_TRIGGER_NOT_ACTIVE',
    );
    const on = then(start, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    const out = then(
      on,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 8, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({ action: 'zeroPower', attack: { dice: 6 } });
    let again = then(then(out, { type: 'EndActivation' }), { type: 'EndRound' });
    again = then(then(again, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(refused(again, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' }).code).toBe(
      'ARCANA_ZERO_POWER_USED',
    );
    const scene = then(again, { type: 'EndScene' });
    expect(stateOf(scene).combatants.ember).toMatchObject({
      zeroPowerUsed: false,
      specialUses: { inferno: 1 },
    });
  });
});

describe('arcana-beast.txt: Combo Attacks (RULINGS.md A10, A20)', () => {
  const trio: Fighter[] = [
    { id: 'ember', sheet: beast(), side: 'heroes' },
    { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'heroes' },
    { id: 'kit', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'heroes' },
    { id: 'wolf', sheet: wild({ hp: 60 }), side: 'wild' },
  ];
  const base = () =>
    ['pip', 'kit'].reduce((e, id) => close(e, id, 'wolf'), close(fight(trio, 'ember'), 'ember', 'wolf'));
  const next = (e: ReturnType<typeof base>, id: string) =>
    then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: id });
  const hit5 = [6, 5, 4, 4, 4];

  it('"Second attacker gains +1 die", "If both hit, second attack deals +1 extra damage", "Third consecutive hit deals +2 extra damage"', () => {
    let e = then(base(), claw, { dice: [...hit5, 1, 1] });
    e = next(e, 'pip');
    const second = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [...hit5, 1, 1, 1] },
    );
    // Pip (Stage 1): Claw 5 d6 + 1 combo die; 5 successes vs 0; Base 3 + 1 = 4, + 5, + combo 1.
    expect(find(second, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, bonuses: [{ source: 'Combo', dice: 1 }] },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 10,
    });
    e = next([...e, ...second], 'kit');
    const third = exact(
      e,
      { type: 'Attack', attackerId: 'kit', targetId: 'wolf' },
      { dice: [...hit5, 1, 1, 1] },
    );
    expect(find(third, 'AttackResolved')).toMatchObject({
      combo: { position: 3, damageBonus: 2, hits: 3 },
      damage: 4 + 5 + 2,
    });
  });

  it('A12: combo damage is added after the Critical doubles Base Damage', () => {
    let e = then(base(), claw, { dice: [...hit5, 1, 1] });
    e = next(e, 'pip');
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [6, 6, 6, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({ critical: true, damage: 4 * 2 + 3 + 1 });
  });

  it('a miss breaks the hit streak: the next hit gets the die but no extra damage', () => {
    let e = then(base(), claw, { dice: [1, 1, 1, 1, 1, 1, 1] });
    e = next(e, 'pip');
    expect(
      find(
        exact(e, { type: 'Attack', attackerId: 'pip', targetId: 'wolf' }, { dice: [...hit5, 1, 1, 1] }),
        'AttackResolved',
      ).combo,
    ).toMatchObject({ position: 2, dieBonus: 1, damageBonus: 0 });
  });

  it('"target the same enemy on consecutive turns" (A20): an allied turn spent elsewhere between the attacks breaks the chain', () => {
    // Ember's Claw hits the wolf (the heroes' first turn); Pip Defends (their second); Kit bites the wolf (their third).
    let e = then(base(), claw, { dice: [...hit5, 1, 1] });
    e = then(next(e, 'pip'), { type: 'Defend', combatantId: 'pip' });
    e = next(e, 'kit');
    // Kit's Claw: 5 d6, no combo die; the wolf's Dodge 2 d6.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'kit', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, bonuses: [] },
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
    });
  });

  it('"Combos reset if the target acts between allied attacks"', () => {
    const order: Fighter[] = [trio[0], trio[3], trio[1]];
    let e = close(close(fight(order, 'ember'), 'ember', 'wolf'), 'pip', 'wolf');
    e = then(e, claw, { dice: [...hit5, 1, 1] });
    e = next(e, 'wolf');
    const acted = exact(e, { type: 'Reposition', combatantId: 'wolf' });
    expect(types(acted)).toEqual(['ActionTaken', 'ComboReset']);
    e = next([...e, ...acted], 'pip');
    expect(
      find(
        exact(e, { type: 'Attack', attackerId: 'pip', targetId: 'wolf' }, { dice: [1, 1, 1, 1, 1, 1, 1] }),
        'AttackResolved',
      ).combo.position,
    ).toBe(1);
  });

  it('A10: a target that Passes has not acted — the combo holds', () => {
    const order: Fighter[] = [trio[0], trio[3], trio[1]];
    let e = close(close(fight(order, 'ember'), 'ember', 'wolf'), 'pip', 'wolf');
    e = then(e, claw, { dice: [...hit5, 1, 1] });
    e = then(next(e, 'wolf'), { type: 'Pass', combatantId: 'wolf' });
    e = next(e, 'pip');
    expect(
      find(
        exact(e, { type: 'Attack', attackerId: 'pip', targetId: 'wolf' }, { dice: [1, 1, 1, 1, 1, 1, 1, 1] }),
        'AttackResolved',
      ).combo.position,
    ).toBe(2);
  });
});

describe('arcana-beast.txt: Positioning in Combat (RULINGS.md A8, A28)', () => {
  const start = close(close(fight(party, 'ember'), 'ember', 'wolf'), 'ember', 'wolf2');
  const bonusSources = (out: ReturnType<typeof exact>) =>
    find(out, 'AttackResolved').attack.bonuses.map((b: { source: string }) => b.source);
  // Claw: 5 d8 (+1 for High Ground), then the wolf's Dodge 2 d6.
  const miss = (n: number) => ({ dice: Array(n).fill(1) });

  it('"High Ground: +1 die on attacks against targets below": a tag against the wolf counts against the wolf only', () => {
    const high = then(start, { type: 'SetTag', combatantId: 'ember', tag: 'highGround', againstId: 'wolf' });
    expect(bonusSources(exact(high, claw, miss(8)))).toEqual(['High Ground']);
    expect(bonusSources(exact(high, { ...claw, targetId: 'wolf2' }, miss(7)))).toEqual([]);
  });

  it('A28: High Ground counts only against a target without High Ground of its own', () => {
    let e = then(start, { type: 'SetTag', combatantId: 'ember', tag: 'highGround' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'highGround' });
    expect(bonusSources(exact(e, claw, miss(7)))).toEqual([]);
    const other = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'highGround', againstId: 'pip' });
    expect(bonusSources(exact(other, claw, miss(8)))).toEqual(['High Ground']);
  });

  it('A28: "Cover: +1 die on Dodge vs ranged attacks" counts against long-range attacks, not melee', () => {
    const covered = then(start, { type: 'SetTag', combatantId: 'wolf', tag: 'cover' });
    // Inferno (long): Agility 2 + Rank 2 on d8; the wolf's Dodge 2 + Cover 1.
    const long = exact(
      covered,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      miss(7),
    );
    expect(find(long, 'AttackResolved')).toMatchObject({
      range: 'long',
      dodge: { dice: 3, bonuses: [{ source: 'Cover', dice: 1 }] },
    });
    expect(find(exact(covered, claw, miss(7)), 'AttackResolved').dodge).toMatchObject({
      dice: 2,
      bonuses: [],
    });
  });

  it('A28: a passed Strategize ignores the target’s Cover for this turn’s rolls', () => {
    const covered = then(start, { type: 'SetTag', combatantId: 'wolf', tag: 'cover' });
    const spark = { ...claw, attackId: 'spark' };
    // Spark: Agility 2 on d8; the wolf's Dodge 2 d6, + Cover 1 unless Strategize passed (Technique 2, Diff 2).
    expect(
      find(
        exact(then(covered, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 1] }), spark, miss(5)),
        'AttackResolved',
      ).dodge.bonuses,
    ).toEqual([{ source: 'Cover', dice: 1 }]);
    expect(
      find(
        exact(then(covered, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 5] }), spark, miss(4)),
        'AttackResolved',
      ).dodge.bonuses,
    ).toEqual([]);
  });

  it('"Cornered: Dodge with Setback"; "Obscured: Attacks against you made with Setback"', () => {
    let e = then(start, { type: 'SetTag', combatantId: 'wolf', tag: 'cornered' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    const out = find(exact(e, claw, miss(9)), 'AttackResolved');
    expect(out.attack).toMatchObject({ edge: 'setback', setbackSources: ['Obscured'] });
    expect(out.dodge).toMatchObject({ edge: 'setback', setbackSources: ['Cornered'] });
  });
});
