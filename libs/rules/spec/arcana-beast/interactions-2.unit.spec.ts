/**
 * Cases where two rules of arcana-beast.txt meet: the shared turn and the round that waits for it,
 * Encourage and the Knockout, an Intercept answer and a Guard, and the parts of the text the earlier cases reach least
 * (movement and range, Evolution and dice size, Bond Surge and the Commands, the Critical Gauge). Each case is worked
 * by hand from the text (and RULINGS.md, docs/rulings*.md), the dice traced in comments.
 */
import { RuleEvent } from '../../src/core/types';
import {
  ash,
  attack,
  beast,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  Fighter,
  find,
  kit,
  next,
  pip,
  refused,
  stateOf,
  then,
  types,
  wild,
  wolf,
} from './helpers';

describe('"Turn Order … remains fixed" × "Shares turn with Arcana Beast": a round left with no one to wait for', () => {
  const fighters = [wolf(), ember(), ash, pip, bo];

  it('A68: "Turn Order: Highest successes first, remains fixed": given a round that waits only for Pip, between turns, when the GM removes Pip, then the round ends as Pip’s EndActivation would have; with Ember still to act it stays open', () => {
    const between = end(fight(fighters, 'wolf'));
    // Ember and Pip still wait: the round goes on with Ember's turn.
    const early = exact(between, { type: 'RemoveCombatant', combatantId: 'pip' });
    expect(types(early)).toEqual(['CombatantRemoved']);
    expect(stateOf([...between, ...early]).roundOpen).toBe(true);
    expect(find(exact([...between, ...early], { type: 'StartActivation' }), 'TurnStarted')).toEqual({
      combatantId: 'ember',
      binderId: 'ash',
    });
    // Once Ember has had its turn, Pip is the last the round waits for; Bo has no turn of its own (A47).
    const last = end(then(between, { type: 'StartActivation', combatantId: 'ember' }));
    const out = exact(last, { type: 'RemoveCombatant', combatantId: 'pip' });
    expect(types(out)).toEqual(['CombatantRemoved', 'RoundEnded']);
    expect(find(out, 'RoundEnded')).toEqual({ round: 1 });
    const after = stateOf([...last, ...out]);
    expect(after).toMatchObject({ roundOpen: false, activeId: undefined, turn: undefined });
    expect(types(exact([...last, ...out], { type: 'StartRound' }))).toEqual(['RoundStarted']);
  });

  it('A68: "Beast Binder Placement: Shares turn with Arcana Beast": given Ember Knocked Out and its Binder’s Commands-only turn the last the round waits for, when the GM removes Ash between turns, then no one is left to act and the round ends', () => {
    const duo = [wolf(), ember({ hp: 3, stage: 0 }), ash];
    // The wolf's Bite 6, 6 against Ember's Dodge 3 d6 (Stage 0): 1, 1, 1 → 3 + 2 = 5: Ember is Knocked Out.
    let e = then(close(fight(duo, 'wolf'), 'wolf', 'ember'), attack('wolf', 'ember'), {
      dice: [6, 6, 1, 1, 1],
    });
    e = end(e);
    expect(stateOf(e)).toMatchObject({ roundOpen: true, combatants: { ember: { knockedOut: true } } });
    const out = exact(e, { type: 'RemoveCombatant', combatantId: 'ash' });
    expect(types(out)).toEqual(['CombatantRemoved', 'RoundEnded']);
    expect(stateOf([...e, ...out]).roundOpen).toBe(false);
  });
});

describe('"Encourage: Remove 1 condition or +1 Dodge die" × "At 0 HP" (Knockout)', () => {
  /** Ember (Stage 0, 3 HP) Knocked Out by the wolf's Bite, Dazed; Ash's Commands-only turn running (A21). */
  function knockedOutAndDazed(): RuleEvent[] {
    const duo = [wolf(), ember({ hp: 3, stage: 0 }), ash];
    let e = then(close(fight(duo, 'wolf'), 'wolf', 'ember'), attack('wolf', 'ember'), {
      dice: [6, 6, 1, 1, 1],
    });
    e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'dazed' });
    return next(e, 'ember');
  }

  it('A55: "Encourage: Remove 1 condition (Spirit Test, Diff 1)": given Ember Knocked Out and Dazed, when Ash Encourages it to remove the condition, then the Spirit Test is rolled and a pass removes it — the condition outlasts the encounter (A66)', () => {
    const e = knockedOutAndDazed();
    // Ash's Spirit 3 d6: 4, 1, 1 → 1 success: Difficulty 1 passes.
    const out = exact(
      e,
      { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
      { dice: [4, 1, 1] },
    );
    expect(types(out)).toEqual(['BinderCommanded', 'ConditionRemoved']);
    expect(find(out, 'BinderCommanded')).toMatchObject({
      command: 'encourage',
      passed: true,
      condition: 'dazed',
    });
    expect(stateOf([...e, ...out]).combatants.ember).toMatchObject({ knockedOut: true, conditions: [] });
  });

  it('A55: "+1 Dodge die": given Ember Knocked Out, when Ash Encourages it for a Dodge die, then it is refused — a Knocked Out beast makes no Dodge this encounter', () => {
    expect(
      refused(
        knockedOutAndDazed(),
        { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' },
        { dice: [4, 1, 1] },
      ),
    ).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'type',
      message: expect.stringMatching(/^ruling A55: ember is Knocked Out/),
    });
  });
});

describe('"If beastbinder is targeted Arcana Beast can intercept" × "Guard: Redirect attacks on a Close ally to yourself"', () => {
  it('A69: given Kit guarding Ash, when the wolf bites Ash with intercept: true given in advance, then it is refused — Kit’s Guard takes the attack before any Intercept (A27, A65); with intercept: false or none, Kit takes the Bite and Ember owes nothing', () => {
    const fighters = [kit(), wolf(), ember(), ash];
    let e = close(fight(fighters, 'kit'), 'kit', 'ember');
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'ash' });
    e = close(next(e, 'wolf'), 'wolf', 'ember');
    expect(refused(e, attack('wolf', 'ash', { intercept: true }), { dice: [1, 1, 1, 1] })).toMatchObject({
      code: 'ARCANA_NO_ATTACK_TO_INTERCEPT',
      field: 'intercept',
      message: expect.stringMatching(
        /^ruling A69: .*kit's Guard takes the attack on ash before any Intercept/,
      ),
    });
    for (const extra of [{ intercept: false }, {}]) {
      // The Bite 1, 1 against Kit's Dodge 1, 1: a miss; Ember is not asked.
      const out = exact(e, attack('wolf', 'ash', extra), { dice: [1, 1, 1, 1] });
      expect(types(out)).toEqual(['ActionTaken', 'AttackResolved']);
      expect(find(out, 'AttackResolved')).toMatchObject({
        targetId: 'kit',
        declaredTargetId: 'ash',
        redirectedBy: 'guard',
        outcome: 'miss',
      });
      expect(stateOf([...e, ...out]).combatants.ember.interceptOwed).toBe(false);
    }
  });

  it('A69: intercept: true on an attack that asks no Intercept is refused — the target is a beast, or its Binder’s beast already owes its next Action (A22); intercept: false there says what happens and stands', () => {
    const fighters = [wolf(), wolf('wolf2'), ember(), ash];
    let e = close(close(fight(fighters, 'wolf'), 'wolf', 'ember'), 'wolf2', 'ember');
    expect(refused(e, attack('wolf', 'ember', { intercept: true }), { dice: [1, 1, 1, 1, 1] })).toMatchObject(
      {
        code: 'ARCANA_NO_ATTACK_TO_INTERCEPT',
        field: 'intercept',
        message: expect.stringMatching(/^ruling A69: .*ember is no Beast Binder/),
      },
    );
    // Ember intercepts the wolf's Bite on Ash: 1, 1 against its Dodge 1, 1, 1 — a miss; it owes its next Action.
    e = then(e, attack('wolf', 'ash', { intercept: true }), { dice: [1, 1, 1, 1, 1] });
    e = next(e, 'wolf2');
    expect(refused(e, attack('wolf2', 'ash', { intercept: true }), { dice: [1, 1, 1, 1] })).toMatchObject({
      code: 'ARCANA_NO_ATTACK_TO_INTERCEPT',
      field: 'intercept',
      message: expect.stringMatching(/^ruling A69: .*ember already owes its next Action/),
    });
    const out = exact(e, attack('wolf2', 'ash', { intercept: false }), { dice: [1, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved']);
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ash', outcome: 'miss' });
  });
});

describe('Evolution in Combat × Attack Steps and Beast Binder Commands', () => {
  it('"Evolve: Transform to higher stage (immediate, free)", "Make Attack Roll (die size from Stage)" and "Base Damage by Stage: Brawn + Stage": given Ash’s Direct, when Ember evolves to Stage 3 and claws, then 6 d10 roll and a Critical doubles Brawn 3 + Stage 3', () => {
    let e = close(fight([ember(), ash, wolf()], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3 });
    e = then(e, { type: 'Direct', combatantId: 'ash' });
    e = then(e, { type: 'Evolve', combatantId: 'ember' });
    // Claw: Brawn 3 + Rank 1 + Claws 1 + Direct 1 = 6 d10: 10, 8, 6 → 3 successes, three faces 6+: a Critical.
    // The wolf's Dodge 2 d6: 1, 1. Damage (3 + 3) · 2 + 3 = 15.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      {
        dice: [10, 8, 6, 1, 1, 1, 1, 1],
      },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, sides: 10, successes: 3, sixes: 3 },
      critical: true,
      baseDamage: 6,
      extraSuccesses: 3,
      damage: 15,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'wolf', hp: 5 });
  });

  it('"Evolving is immediate – does not take an Action" and "Call Back: … (Devolve/Retreat with Boost; no roll)": given Ember evolved to Stage 3 in its turn, when Ash then Calls it back, then the Devolution Test rolls Stage 3’s d10 with Boost and a pass lands on Stage 1, which EndScene does not raise (A38, A67)', () => {
    let e = fight(
      [ember({ stats: { brawn: 3, agility: 2, endurance: 3, spirit: 2, technique: 2 } }), ash, wolf()],
      'ember',
    );
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3 });
    e = then(e, { type: 'Evolve', combatantId: 'ember' });
    // Endurance 3 d10 + the Boost die: 4, 4, 4, 1 → the 1 dropped: 3 successes, Diff 3 (from Stage 2+) passes → Stage 1.
    const out = exact(
      e,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [4, 4, 4, 1] },
    );
    expect(types(out)).toEqual(['BinderCommanded', 'CalledBack', 'DevolutionTested', 'StageDevolved']);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 3,
      stageAfter: 1,
      reason: 'callBack',
      test: {
        sides: 10,
        dice: 3,
        edge: 'boost',
        boostSources: ['Call Back'],
        successes: 3,
        difficulty: 3,
        passed: true,
      },
    });
    const after = then([...e, ...out], { type: 'EndScene' });
    expect(stateOf(after).combatants.ember).toMatchObject({ stage: 1, inVessel: false });
  });
});

describe('Movement Rules × Beast Binder Commands and Assist', () => {
  it('"Bond Surge: Boost on ALL rolls this turn" and "Difficult terrain may require Agility Test": the free move’s test, which Direct’s die does not reach (A26), gets the Boost', () => {
    let e = fight([ember(), ash, wolf()], 'ember');
    e = then(e, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 2 });
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    // Agility 2 d8 + the Boost die: 4, 4, 1 → the 1 dropped: 2 successes, Difficulty 2 passes.
    const out = exact(
      e,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [4, 4, 1] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      from: 'near',
      to: 'close',
      by: 'free',
      test: { dice: 2, edge: 'boost', boostSources: ['Bond Surge'], successes: 2, passed: true },
    });
    expect(stateOf([...e, ...out]).combatants.ember.stamina).toBe(1);
  });

  it('"Assist: Help a Close ally’s next roll (+1 die)" and "Difficult terrain may require Agility Test": the ally’s free move through difficult terrain is its next roll and uses the die; the Claw after it rolls without (A26)', () => {
    let e = close(fight([pip, bo, ember(), ash, wolf()], 'pip'), 'pip', 'ember');
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    e = next(e, 'ember');
    e = then(e, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 1 });
    // Agility 2 + Assist 1 = 3 d8: 4, 1, 1 → 1 success, Difficulty 1 passes.
    const moved = exact(
      e,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [4, 1, 1] },
    );
    expect(types(moved)).toEqual(['BonusDiceUsed', 'Moved']);
    expect(find(moved, 'Moved')).toMatchObject({
      to: 'close',
      test: { dice: 3, bonuses: [{ source: 'Assist', dice: 1 }] },
    });
    e = [...e, ...moved];
    // Claw 5 d8 (no Assist left): 4, 1, 1, 1, 1 against the wolf's 1, 1 → 5 + 1 = 6.
    const claw = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      {
        dice: [4, 1, 1, 1, 1, 1, 1],
      },
    );
    expect(find(claw, 'AttackResolved')).toMatchObject({ attack: { dice: 5, bonuses: [] }, damage: 6 });
  });
});

describe('Combo Attacks × Movement and Evolution of the target', () => {
  it('"Combos reset if the target acts between allied attacks" and "Evolving is immediate – does not take an Action", "move one distance band free": a wolf that only evolves and moves in its turn has not acted — Pip’s Claw continues Ember’s combo (A10)', () => {
    const shifter: Fighter = {
      id: 'wolf',
      sheet: wild({ hp: 20, stages: [{ stage: 1 }, { stage: 2 }, { stage: 3, trigger: 'cornered' }] }),
      side: 'wild',
    };
    let e = close(
      close(fight([ember(), ash, shifter, pip, bo, wolf('wolf2')], 'ember'), 'ember', 'wolf'),
      'pip',
      'wolf',
    );
    // Claw 5 d8: 4, 1, 1, 1, 1 against the wolf's 1, 1 → 5 + 1 = 6.
    e = then(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    e = next(e, 'wolf');
    e = then(e, { type: 'Evolve', combatantId: 'wolf', stage: 2 });
    e = then(e, { type: 'Move', combatantId: 'wolf', towardId: 'wolf2', band: 'close' });
    expect(stateOf(e).combos.wolf).toMatchObject({ side: 'heroes', attacks: 1, hits: 1 });
    e = next(e, 'pip');
    // Pip's Claw 4 d6 + the combo die = 5 d6: 4, 4 → 2 against the Stage 2 wolf's Dodge 2 d8: 1, 1 → 3 + 2 + 1 = 6.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf', attackId: 'claw' },
      {
        dice: [4, 4, 1, 1, 1, 1, 1],
      },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, bonuses: [{ source: 'Combo', dice: 1 }] },
      dodge: { sides: 8 },
      combo: { position: 2, damageBonus: 1, hits: 2 },
      damage: 6,
    });
  });
});

describe('Positioning in Combat × Actions and Commands on one Dodge', () => {
  it('"Cover: +1 die on Dodge vs ranged attacks", "Encourage: +1 Dodge die", "Defend: Boost on all Dodge rolls" and "Cornered: Dodge with Setback": the +1 dice stack, Boost and Setback cancel (A3, A12)', () => {
    const spitter: Fighter = {
      id: 'wolf',
      sheet: wild({ attacks: [{ id: 'spit', name: 'Spit', range: 'ranged' }] }),
      side: 'wild',
    };
    let e = fight([ember(), ash, spitter], 'ember');
    // Ash's Spirit 3 d6: 4, 1, 1 → passes: Ember's next Dodge gets +1 die.
    e = then(e, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cover' });
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });
    e = next(e, 'wolf');
    // Spit (ranged, Agility 2 d6) at Near: 6, 6 → 2. Ember's Dodge: Agility 2 + Nimble 1 + Cover 1 + Encourage 1 = 5 d8,
    // no extra die: 4, 4, 1, 1, 1 → 2: equal, a miss.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [6, 6, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Encourage', dice: 1 });
    expect(find(out, 'AttackResolved')).toMatchObject({
      range: 'ranged',
      band: 'near',
      dodge: {
        dice: 5,
        edge: 'none',
        boostSources: ['Defend'],
        setbackSources: ['Cornered'],
        bonuses: [
          { source: 'Cover', dice: 1 },
          { source: 'Encourage', dice: 1 },
        ],
        successes: 2,
      },
      outcome: 'miss',
    });
  });

  it('"Flanking: Two allies on opposite sides both gain +1 attack die" and "Call Back: Arcana Beast returns to their Wearable Vessel": once Ash calls Ember back, Pip flanks alone and gains nothing (A50)', () => {
    let e = close(fight([ember(), ash, pip, bo, wolf()], 'ember'), 'pip', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'flanking', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'pip', tag: 'flanking', againstId: 'wolf' });
    // Endurance 2 d8 + the Boost die: 1, 1, 1 → Diff 3 fails: Stage 0.
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'retreat' }, { followUpFaces: [1, 1, 1] });
    e = next(e, 'pip');
    // Pip's Claw 4 d6, no Flanking die: 4, 1, 1, 1 against the wolf's 1, 1 → 3 + 1 = 4.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf', attackId: 'claw' },
      {
        dice: [4, 1, 1, 1, 1, 1],
      },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 4, bonuses: [] }, damage: 4 });
  });
});

describe('"Use Zero Power" × "If beastbinder is targeted Arcana Beast can intercept"', () => {
  it('A69: a Zero Power with no attack profile attacks no one (A34): intercept: true on it is refused, even naming a Binder; without it the power is used', () => {
    const calm: Fighter = {
      id: 'ember',
      sheet: beast({ zeroPower: { name: 'Calm Aura', trigger: 'Ash sings' } }),
      side: 'heroes',
    };
    let e = fight([calm, ash, pip, bo], 'ember');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    const power = { type: 'UseZeroPower', attackerId: 'ember', targetId: 'bo' };
    expect(refused(e, { ...power, intercept: true })).toMatchObject({
      code: 'ARCANA_NO_ATTACK_TO_INTERCEPT',
      field: 'intercept',
      message: expect.stringMatching(/^ruling A69: .*attacks no one/),
    });
    expect(types(exact(e, power))).toEqual(['ZeroPowerUsed', 'ActionTaken']);
  });
});
