import { arcanaBeast } from '../../src/arcana-beast';
import { bandBetween } from '../../src/arcana-beast/decide/common';
import {
  beast,
  binder,
  close,
  exact,
  fight,
  Fighter,
  find,
  next,
  party,
  refused,
  stateOf,
  then,
  types,
  wild,
} from './helpers';

const st = (brawn: number, agility: number, endurance: number) => ({
  brawn,
  agility,
  endurance,
  spirit: 3,
  technique: 2,
});

describe('arcana-beast.txt: Knockout & Devolution (RULINGS.md A7, A13)', () => {
  const ko = (stage: number, endurance = 3) => {
    const stages = [0, 1, 2, 3].map((s) => ({ stage: s }));
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      {
        id: 'ember',
        sheet: beast({ hp: 3, stage, stages, stats: st(3, 0, endurance), defensiveQualities: [] }),
        side: 'h',
      },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
    ];
    return close(fight(fighters, 'wolf'), 'wolf', 'ember');
  };
  const bite = { type: 'Attack', attackerId: 'wolf', targetId: 'ember' };

  it.each([
    [2, [8, 8, 8], 'pass', 1],
    [2, [8, 8, 1], 'fail', 0],
    [3, [10, 4, 4], 'pass', 1],
    [1, [4, 4, 1], 'pass', 1],
    [1, [4, 1, 1], 'fail', 0],
  ])(
    '"Devolution": from Stage %i the Endurance Test with faces %j is a %s: Stage %i',
    (stage, faces, result, after) => {
      const out = exact(ko(stage), bite, { dice: [6, 6], followUpFaces: faces });
      expect(types(out)).toEqual([
        'ActionTaken',
        'AttackResolved',
        'DamageDealt',
        'KnockedOut',
        'CriticalGaugeRaised',
        'HarmGained',
        'DevolutionTested',
        ...(after < stage ? ['StageDevolved'] : []),
      ]);
      const t = find(out, 'DevolutionTested');
      expect(t).toMatchObject({
        stageBefore: stage,
        stageAfter: after,
        test: { difficulty: stage >= 2 ? 3 : 2, passed: result === 'pass', sides: [6, 6, 8, 10][stage] },
      });
    },
  );

  it('"At 0 HP: Add 1 to Critical Gauge, Gain a Harm"; a Stage 0 beast makes no Devolution Test', () => {
    const out = exact(ko(0), bite, { dice: [6, 6] });
    expect(find(out, 'DamageDealt')).toMatchObject({ hp: 0 });
    expect(find(out, 'CriticalGaugeRaised')).toMatchObject({ from: 0, to: 1 });
    expect(find(out, 'HarmGained')).toMatchObject({ combatantId: 'ember' });
    expect(types(out)).not.toContain('DevolutionTested');
    expect(stateOf([...ko(0), ...out]).combatants.ember).toMatchObject({ knockedOut: true, hp: 0 });
  });

  it.each([
    [2, 3, 'minor'],
    [5, 6, 'major'],
    [8, 9, 'climactic'],
  ])('"Critical Gauge thresholds": from %i to %i triggers the %s Critical Move', (from, to, tier) => {
    const e = [...ko(0)];
    e.splice(e.length - 2, 0, { type: 'CriticalGaugeRaised', data: { combatantId: 'x', from: 0, to: from } });
    expect(find(exact(e, bite, { dice: [6, 6] }), 'CriticalMoveTriggered')).toMatchObject({
      threshold: to,
      tier,
      gauge: to,
    });
  });

  it('A13: wild beasts simply drop out — no gauge, no Harm', () => {
    const e = close(
      fight(
        [
          { id: 'ember', sheet: beast(), side: 'h' },
          { id: 'wolf', sheet: wild({ hp: 2 }), side: 'w' },
        ],
        'ember',
      ),
      'ember',
      'wolf',
    );
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
      { dice: [8, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt', 'KnockedOut']);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'wolf', playerSide: false });
    expect(stateOf([...e, ...out]).combatants.wolf.knockedOut).toBe(true);
    expect(refused([...e, ...out], { type: 'StartActivation', combatantId: 'wolf' }).code).toBe(
      'ACTIVATION_IN_PROGRESS',
    );
  });
});

describe('arcana-beast.txt: Evolution in Combat (RULINGS.md A9, A24)', () => {
  const start = fight(party, 'ember');
  it('"Highest unlocked Stage is free when its emotional Trigger is true"; without it the Evolve is refused', () => {
    expect(refused(start, { type: 'Evolve', combatantId: 'ember' })).toMatchObject({
      code: 'ARCANA_TRIGGER_NOT_ACTIVE',
      field: 'stage',
    });
    const on = then(start, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    const out = exact(on, { type: 'Evolve', combatantId: 'ember' });
    expect(out).toEqual([
      {
        type: 'StageEvolved',
        data: { combatantId: 'ember', from: 2, to: 3, reason: 'evolve', highest: true, triggerActive: true },
      },
    ]);
    const s = stateOf([...on, ...out]);
    expect(s.turn!.action).toBeUndefined();
    expect(s.combatants.ember).toMatchObject({ stage: 3, hp: 12 });
  });

  it('"Evolving is immediate – does not take an Action": the same turn’s attack rolls the new Stage’s die and Base Damage', () => {
    let e = close(start, 'ember', 'wolf');
    e = then(then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true }), {
      type: 'Evolve',
      combatantId: 'ember',
    });
    // Claw: 5 d10 at Stage 3 against the wolf's 2 d6; 1 success to 0: Base 3 + 3, + 1.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      { dice: [10, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { sides: 10, successes: 1 },
      baseDamage: 6,
      damage: 7,
    });
  });

  it('"Lower unlocked Stages cost nothing"; locked or lower Stages are refused', () => {
    const e = fight([{ id: 'ember', sheet: beast({ stage: 0 }), side: 'h' }], 'ember');
    expect(find(exact(e, { type: 'Evolve', combatantId: 'ember', stage: 2 }), 'StageEvolved')).toMatchObject({
      from: 0,
      to: 2,
      highest: false,
    });
    expect(refused(e, { type: 'Evolve', combatantId: 'ember', stage: 4 }).code).toBe('ARCANA_STAGE_LOCKED');
    expect(refused(start, { type: 'Evolve', combatantId: 'ember', stage: 1 }).code).toBe(
      'ARCANA_NOT_HIGHER_STAGE',
    );
  });

  it('"Evolution does not heal HP"; "Highest Stage lasts one Combat Encounter": EndScene reverts it', () => {
    let e = [...start];
    e.splice(e.length - 2, 0, {
      type: 'DamageDealt',
      data: { combatantId: 'ember', damage: 5, hpBefore: 12, hp: 7 },
    });
    e = then(then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true }), {
      type: 'Evolve',
      combatantId: 'ember',
    });
    expect(stateOf(e).combatants.ember.hp).toBe(7);
    const out = exact(e, { type: 'EndScene' });
    expect(find(out, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 3,
      to: 2,
      reason: 'encounterEnded',
    });
  });
});

describe('arcana-beast.txt: Movement & Range (RULINGS.md A14, A17–A19)', () => {
  const start = fight(party, 'ember');
  it('"Move one band for free per turn"; a second free move is refused', () => {
    const moved = then(start, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(find(moved.slice(-1), 'Moved')).toEqual({
      combatantId: 'ember',
      towardId: 'wolf',
      from: 'near',
      to: 'close',
      by: 'free',
    });
    expect(stateOf(moved).bands['ember|wolf']).toBe('close');
    expect(
      refused(moved, { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'close' }).code,
    ).toBe('ARCANA_FREE_MOVE_USED');
  });

  it('"Two bands in one turn requires Reposition action"; "Far: Requires Reposition action to move"', () => {
    const far = then(start, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far' });
    expect(
      refused(far, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }),
    ).toMatchObject({ code: 'ARCANA_REPOSITION_NEEDED', field: 'band' });
    expect(
      refused(far, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' }).message,
    ).toMatch(/^arcana-beast.txt: Distance Bands: Far/);
    const out = exact(far, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(find(out, 'Moved')).toMatchObject({ from: 'far', to: 'close', by: 'reposition' });
    // With the turn's Action taken, the refusal says why no Reposition is left.
    const repositioned = [...far, ...out];
    expect(
      refused(repositioned, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'far' }),
    ).toMatchObject({
      code: 'ARCANA_REPOSITION_NEEDED',
      field: 'band',
      message:
        "arcana-beast.txt: Movement Rules: two bands in one turn requires Reposition action; ember has taken this turn's Action, so its move is one band",
    });
    expect(
      refused(far, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }).message,
    ).toBe('arcana-beast.txt: Movement Rules: two bands in one turn requires Reposition action');
  });

  it('"perform one Action and move one distance band free": a Reposition out of Far, then the free move to Close, and no Action left', () => {
    let e = then(start, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far' });
    const out = exact(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'near' });
    expect(find(out, 'Moved')).toMatchObject({ from: 'far', to: 'near', by: 'reposition' });
    e = [...e, ...out];
    const free = exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(find(free, 'Moved')).toMatchObject({ from: 'near', to: 'close', by: 'free' });
    e = [...e, ...free];
    expect(stateOf(e).bands['ember|wolf']).toBe('close');
    expect(
      refused(e, { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' }),
    ).toMatchObject({ code: 'ARCANA_ACTION_USED', field: 'type' });
  });

  it('"Flight, Teleport, Burrowing bypass restrictions": Ember flies from Far to Close with its free move', () => {
    const far = then(start, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far', difficultTerrain: 2 });
    expect(
      find(
        exact(far, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close', using: 'flight' }),
        'Moved',
      ),
    ).toMatchObject({ to: 'close', using: 'flight' });
    expect(
      refused(far, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close', using: 'teleport' })
        .code,
    ).toBe('ARCANA_NO_SUCH_MOVEMENT');
  });

  it('A18: a beast naming its flight crosses two bands with its free move and needs no terrain test; without it, two bands need a Reposition', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'close',
      difficultTerrain: 3,
    });
    expect(
      refused(rough, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'far' }),
    ).toMatchObject({ code: 'ARCANA_REPOSITION_NEEDED', field: 'band' });
    // No dice given: the difficult ground between them rolls no Agility Test.
    const flown = exact(rough, {
      type: 'Move',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'far',
      using: 'flight',
    });
    expect(flown).toEqual([
      {
        type: 'Moved',
        data: {
          combatantId: 'ember',
          towardId: 'wolf',
          from: 'close',
          to: 'far',
          by: 'free',
          using: 'flight',
        },
      },
    ]);
    const repositioned = exact(rough, {
      type: 'Reposition',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'far',
      using: 'flight',
    });
    expect(find(repositioned, 'Moved')).toEqual({
      combatantId: 'ember',
      towardId: 'wolf',
      from: 'close',
      to: 'far',
      by: 'reposition',
      using: 'flight',
    });
  });

  it('"Difficult terrain may require Agility Test": a failure leaves the band and spends the move', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 1,
    });
    const failed = exact(
      rough,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [3, 2] },
    );
    expect(find(failed, 'Moved')).toMatchObject({
      to: 'near',
      stopped: true,
      test: { difficulty: 1, passed: false, sides: 8 },
    });
    expect(
      find(
        exact(
          rough,
          { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
          { dice: [5, 2] },
        ),
        'Moved',
      ),
    ).toMatchObject({ to: 'close' });
  });

  it('"Direct: Arcana Beast\'s action gains +1 die": a Reposition through difficult terrain rolls its Agility Test with it', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'far',
      difficultTerrain: 2,
    });
    const directed = then(rough, { type: 'Direct', combatantId: 'ash' });
    // Agility 2 + Direct 1 on d8, Difficulty 2.
    const out = exact(
      directed,
      { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [4, 4, 1] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      to: 'close',
      test: { dice: 3, bonuses: [{ source: 'Direct', dice: 1 }], successes: 2, passed: true },
    });
  });

  it('Direct is for the Action: the free move’s difficult-terrain test does not get the die', () => {
    const rough = then(start, {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 1,
    });
    const directed = then(rough, { type: 'Direct', combatantId: 'ash' });
    expect(
      find(
        exact(
          directed,
          { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
          { dice: [4, 1] },
        ),
        'Moved',
      ).test,
    ).toMatchObject({ dice: 2, bonuses: [] });
  });

  it('"Cornered: Cannot Reposition"', () => {
    const c = then(start, { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });
    expect(refused(c, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'far' }).code).toBe(
      'ARCANA_CORNERED',
    );
  });

  it('A17: a Binder shares its beast’s bands', () => {
    const moved = then(start, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(
      (arcanaBeast.view(stateOf(moved)) as any).combatants.find((c: { id: string }) => c.id === 'ash').bands
        .wolf,
    ).toBe('close');
  });

  it('A14/A17: every combatant’s view names each other’s band as the rules read it', () => {
    const moved = then(start, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    const state = stateOf(moved);
    const seen = (arcanaBeast.view(state) as any).combatants as Array<{
      id: string;
      bands: Record<string, string>;
    }>;
    expect(seen.length).toBeGreaterThan(3);
    for (const c of seen)
      expect(c.bands).toEqual(
        Object.fromEntries(
          state.joined.filter((id) => id !== c.id).map((id) => [id, bandBetween(state, c.id, id)]),
        ),
      );
    expect(seen.find((c) => c.id === 'ash')!.bands.ember).toBe('close');
  });
});

describe('arcana-beast.txt: Beast Binder Commands and Actions (RULINGS.md A15, A22, A23, A26–A28)', () => {
  const start = close(fight(party, 'ember'), 'ember', 'wolf');

  it('"Direct: Arcana Beast\'s action gains +1 die (no roll)"', () => {
    const e = then(start, { type: 'Direct', combatantId: 'ash' });
    expect(
      find(
        exact(
          e,
          { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
          { dice: [1, 1, 1, 1, 1, 1, 1, 1] },
        ),
        'AttackResolved',
      ).attack,
    ).toMatchObject({ dice: 6, bonuses: [{ source: 'Direct', dice: 1 }] });
  });

  it('"Encourage: +1 Dodge die (Spirit Test, Diff 1)" and "Remove 1 condition"', () => {
    const out = exact(
      start,
      { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' },
      { dice: [4, 1, 1] },
    );
    expect(find(out, 'BinderCommanded').test).toMatchObject({
      stat: 'spirit',
      dice: 3,
      difficulty: 1,
      passed: true,
    });
    expect(stateOf([...start, ...out]).combatants.ember.encourageDodge).toBe(1);
    const dazed = then(start, { type: 'ApplyCondition', combatantId: 'ember', condition: 'dazed' });
    expect(
      types(
        exact(
          dazed,
          { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
          { dice: [6, 1, 1] },
        ),
      ),
    ).toEqual(['BinderCommanded', 'ConditionRemoved']);
    expect(
      refused(start, { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' })
        .code,
    ).toBe('ARCANA_NO_SUCH_CONDITION');
  });

  it('"Strategize: Ignore enemy positioning benefit (Technique Test, Diff 2)": the target’s Obscured no longer gives Setback', () => {
    const hidden = then(start, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    const failed = then(hidden, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 1] });
    expect(
      find(
        exact(
          failed,
          { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
          { dice: [1, 1, 1, 1, 1, 1, 1, 1] },
        ),
        'AttackResolved',
      ).attack.edge,
    ).toBe('setback');
    const passed = then(hidden, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 5] });
    expect(
      find(
        exact(
          passed,
          { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
          { dice: [1, 1, 1, 1, 1, 1, 1] },
        ),
        'AttackResolved',
      ).attack.edge,
    ).toBe('none');
  });

  it('"Bond Surge: Boost on ALL rolls this turn, costs 1 Stamina"; no Stamina is refused', () => {
    const e = then(start, { type: 'BondSurge', combatantId: 'ash' });
    expect(find(e.slice(-2), 'StaminaSpent')).toEqual({ combatantId: 'ember', amount: 1, stamina: 1 });
    expect(
      find(
        exact(
          e,
          { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
          { dice: [1, 1, 1, 1, 1, 8, 1, 1] },
        ),
        'AttackResolved',
      ).attack,
    ).toMatchObject({ edge: 'boost', boostSources: ['Bond Surge'] });
    const tired = fight(
      [
        { id: 'ember', sheet: beast({ stamina: 0 }), side: 'h' },
        { id: 'ash', sheet: binder('ember'), side: 'h' },
      ],
      'ember',
    );
    expect(refused(tired, { type: 'BondSurge', combatantId: 'ash' }).code).toBe('ARCANA_NO_STAMINA');
  });

  it('"Call Back: ... (Devolve/Retreat with Boost; no roll)": the Devolution Test gets the extra Boost die', () => {
    const out = exact(
      start,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [1, 8, 8] },
    );
    // Endurance 2 + the Boost die on d8, Diff 3 from Stage 2: the 1 is dropped, two successes fail.
    expect(find(out, 'DevolutionTested')).toMatchObject({
      reason: 'callBack',
      stageAfter: 0,
      test: { edge: 'boost', boostSources: ['Call Back'], kept: [8, 8], difficulty: 3, passed: false },
    });
    expect(stateOf([...start, ...out]).combatants.ember).toMatchObject({ inVessel: true, stage: 0 });
  });

  it('"Use Item: Spend Stuff from the Binder\'s inventory"; spent Stuff is refused', () => {
    const e = [...start];
    e.splice(e.length - 2, 0, {
      type: 'DamageDealt',
      data: { combatantId: 'ember', damage: 6, hpBefore: 12, hp: 6 },
    });
    const out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    expect(types(out)).toEqual(['BinderCommanded', 'ItemUsed', 'HpRestored']);
    expect(find(out, 'HpRestored')).toMatchObject({ amount: 4, hp: 10 });
    const none = fight(
      [
        { id: 'ember', sheet: beast(), side: 'h' },
        {
          id: 'ash',
          sheet: binder('ember', { inventory: [{ id: 'potion', name: 'Potion', heal: 4, quantity: 0 }] }),
          side: 'h',
        },
      ],
      'ember',
    );
    expect(refused(none, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' })).toMatchObject({
      code: 'ARCANA_ITEM_SPENT',
      field: 'itemId',
    });
  });

  it('"Use Item": Stuff that restores Stamina fills it up to the sheet’s maximum, so a spent beast can Bond Surge again', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast({ stamina: 0, maxStamina: 3 }), side: 'h' },
      {
        id: 'ash',
        sheet: binder('ember', { inventory: [{ id: 'tonic', name: 'Tonic', stamina: 5 }] }),
        side: 'h',
      },
      { id: 'wolf', sheet: wild(), side: 'w' },
    ];
    const e = fight(fighters, 'ember');
    expect(refused(e, { type: 'BondSurge', combatantId: 'ash' }).code).toBe('ARCANA_NO_STAMINA');
    const out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'tonic' });
    expect(types(out)).toEqual(['BinderCommanded', 'ItemUsed', 'StaminaRestored']);
    expect(find(out, 'StaminaRestored')).toEqual({ combatantId: 'ember', amount: 3, stamina: 3 });
    expect(find(out, 'ItemUsed')).toEqual({
      binderId: 'ash',
      itemId: 'tonic',
      quantityLeft: 0,
      targetId: 'ember',
    });
  });

  it('A33: Use Item heals the Binder’s beast up to its sheet’s maximum, or the combatant targetId names', () => {
    const e = [...start];
    e.splice(
      e.length - 2,
      0,
      { type: 'DamageDealt', data: { combatantId: 'ember', damage: 2, hpBefore: 12, hp: 10 } },
      { type: 'DamageDealt', data: { combatantId: 'bo', damage: 6, hpBefore: 10, hp: 4 } },
    );
    // The Potion heals 4: Ember has 2 to gain, so it stops at 12.
    expect(
      find(exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' }), 'HpRestored'),
    ).toMatchObject({ combatantId: 'ember', amount: 2, hp: 12 });
    const other = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion', targetId: 'bo' });
    expect(find(other, 'HpRestored')).toMatchObject({ combatantId: 'bo', amount: 4, hp: 8 });
    expect(find(other, 'ItemUsed')).toMatchObject({ binderId: 'ash', itemId: 'potion', targetId: 'bo' });
  });

  it('Intercept (A22): an attack on a Binder asks its beast; the beast becomes the target and forfeits its next Action', () => {
    let e = next(start, 'wolf');
    e = then(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ash' });
    expect(stateOf(e).pending).toMatchObject({ kind: 'intercept', awaiting: 'ember', answer: 'Intercept' });
    expect(refused(e, { type: 'EndActivation' }).code).toBe('PENDING_DECISION');
    const out = exact(
      e,
      { type: 'Intercept', combatantId: 'ember', intercept: true },
      { dice: [1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'ash',
      redirectedBy: 'intercept',
      dodge: { sides: 8 },
    });
    let later = then(then([...e, ...out], { type: 'EndActivation' }), { type: 'EndRound' });
    later = then(then(later, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(find(later.slice(-1), 'TurnStarted')).toMatchObject({ actionForfeited: 'intercept' });
    expect(refused(later, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' }).code).toBe(
      'ARCANA_ACTION_USED',
    );
  });

  it('"Guard: Redirect attacks on a Close ally to yourself"', () => {
    let e = close(start, 'ember', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = next(next(e, 'pip'), 'wolf');
    e = close(e, 'wolf', 'pip');
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'pip',
      redirectedBy: 'guard',
    });
  });

  it('A15: Guard lasts until the guard’s next turn', () => {
    let e = close(close(start, 'ember', 'pip'), 'wolf', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = then(next(next(next(e, 'pip'), 'wolf'), 'wolf2'), { type: 'EndActivation' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(find(e.slice(-1), 'TurnStarted')).toMatchObject({ combatantId: 'ember', guardEnded: 'pip' });
    e = next(next(e, 'pip'), 'wolf');
    // Bite 2 d6 against Pip's own Dodge: Agility 3 + Nimble 1.
    expect(
      find(
        exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [1, 1, 1, 1, 1, 1] }),
        'AttackResolved',
      ),
    ).toMatchObject({ targetId: 'pip', dodge: { combatantId: 'pip', dice: 4 } });
  });

  it('"Defend: Boost on all Dodge rolls until next turn": two Dodges get it, the next turn ends it', () => {
    let e = close(start, 'wolf2', 'ember');
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = next(next(e, 'pip'), 'wolf');
    // Ember's Dodge: Agility 2 + Nimble 1 on d8, + the Boost die.
    e = then(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ember' }, { dice: [1, 1, 1, 1, 1, 1] });
    expect(find(e.slice(-2), 'AttackResolved').dodge).toMatchObject({
      dice: 3,
      edge: 'boost',
      boostSources: ['Defend'],
    });
    e = next(e, 'wolf2');
    e = then(e, { type: 'Attack', attackerId: 'wolf2', targetId: 'ember' }, { dice: [1, 1, 1, 1, 1, 1, 1] });
    expect(find(e.slice(-2), 'AttackResolved').dodge).toMatchObject({ dice: 3, edge: 'boost' });
    e = then(then(then(e, { type: 'EndActivation' }), { type: 'StartRound' }), {
      type: 'StartActivation',
      combatantId: 'ember',
    });
    expect(find(e.slice(-1), 'TurnStarted')).toMatchObject({ defendEnded: true });
    expect(stateOf(e).combatants.ember.defending).toBe(false);
  });

  it('"Assist: Help a Close ally\'s next roll (+1 die)"; an ally Near is refused', () => {
    expect(refused(start, { type: 'Assist', combatantId: 'ember', allyId: 'pip' })).toMatchObject({
      code: 'ARCANA_NOT_CLOSE',
      field: 'allyId',
    });
    const e = then(close(start, 'ember', 'pip'), { type: 'Assist', combatantId: 'ember', allyId: 'pip' });
    expect(stateOf(e).combatants.pip.assistDice).toBe(1);
  });

  it('"Encourage: +1 Dodge die": the die waits for the next Dodge, not the attack roll, and is used up by it', () => {
    let e = then(start, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' }, { dice: [1, 1, 1, 1, 1, 1, 1] });
    expect(stateOf(e).combatants.ember.encourageDodge).toBe(1);
    e = next(e, 'wolf');
    // Ember's Dodge: Agility 2 + Nimble 1 + Encourage 1 on d8.
    const first = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [1, 1, 1, 1, 1, 1] },
    );
    expect(types(first)).toEqual(['ActionTaken', 'ComboReset', 'BonusDiceUsed', 'AttackResolved']);
    expect(find(first, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Encourage', dice: 1 });
    expect(find(first, 'AttackResolved').dodge).toMatchObject({
      dice: 4,
      bonuses: [{ source: 'Encourage', dice: 1 }],
    });
    e = close(next([...e, ...first], 'wolf2'), 'wolf2', 'ember');
    // Bite 2 + the combo die (A20), then Ember's Dodge back to 3.
    const second = exact(
      e,
      { type: 'Attack', attackerId: 'wolf2', targetId: 'ember' },
      { dice: [1, 1, 1, 1, 1, 1] },
    );
    expect(types(second)).toEqual(['ActionTaken', 'AttackResolved']);
    expect(find(second, 'AttackResolved').dodge).toMatchObject({ dice: 3, bonuses: [] });
  });

  it('"Encourage": a failed Spirit Test gives no Dodge die', () => {
    const out = exact(
      start,
      { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' },
      { dice: [3, 1, 2] },
    );
    expect(find(out, 'BinderCommanded')).toMatchObject({ passed: false });
    expect(stateOf([...start, ...out]).combatants.ember.encourageDodge).toBe(0);
  });

  it('"Use Item: ... (may need a roll)": an item with a test works only when the Binder passes it; the Stuff is spent either way', () => {
    const hurt = then(start, { type: 'ApplyCondition', combatantId: 'ember', condition: 'burned' });
    const salve = { type: 'UseItem', combatantId: 'ash', itemId: 'salve', condition: 'burned' };
    // The Salve: Technique Test Diff 1, Ash's Technique 2 on d6.
    const passed = exact(hurt, salve, { dice: [4, 1] });
    expect(types(passed)).toEqual(['BinderCommanded', 'ItemUsed', 'ConditionRemoved']);
    expect(find(passed, 'BinderCommanded')).toMatchObject({
      command: 'useItem',
      itemId: 'salve',
      targetId: 'ember',
      passed: true,
      test: { stat: 'technique', sides: 6, dice: 2, difficulty: 1 },
    });
    expect(find(passed, 'ConditionRemoved')).toEqual({
      combatantId: 'ember',
      condition: 'burned',
      reason: 'Salve',
    });
    const failed = exact(hurt, salve, { dice: [3, 1] });
    expect(types(failed)).toEqual(['BinderCommanded', 'ItemUsed']);
    const after = stateOf([...hurt, ...failed]);
    expect(after.combatants.ember.conditions).toEqual(['burned']);
    expect(after.combatants.ash.items.salve).toBe(0);
  });
});
