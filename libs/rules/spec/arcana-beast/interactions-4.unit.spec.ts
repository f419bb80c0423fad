/**
 * Worked by hand from arcana-beast.txt (and RULINGS.md, docs/rulings*.md): short fights of several
 * rounds played step by step, the state and events checked after each step, and the boundaries of what a combatant may
 * do (the last point of a resource, a timing out of turn, an option at its limit). Every number is computed from the
 * text first; the dice are traced in comments. An undo (C8) is the fold of the events it does not take back, so here it
 * is the history without the undone command's events.
 */
import {
  ash,
  attack,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  find,
  kit,
  pip,
  refused,
  stateOf,
  then,
  types,
  wolf,
} from './helpers';

describe('Fight 1, the ridge: the wolf against Ember and Pip over three rounds', () => {
  // Order: the wolf, Ember (Ash), Pip (Bo). Ember Close to the wolf; every other pair Near (A17).
  // Ember: Stage 2, d8, Claw 5 d8, Dodge 3 d8, Base Damage 3 + 2 = 5, 12 HP, 2 Stamina.
  // Pip: Stage 1, d6, Claw 4 d6, Dodge 4 d6, Base Damage 2 + 1 = 3. Wolf: Bite 2 d6, Dodge 2 d6, Base Damage 3, 20 HP.
  const fighters = [wolf('wolf', 20), ember(), ash, pip, bo];

  it('"Guard: Redirect attacks on a Close ally to yourself" lasts into the next round, "Combos reset if the target acts between allied attacks", "Bond Surge: Boost on ALL rolls this turn", and an undone Claw (C8) leaves the chain as it was', () => {
    let e = close(fight(fighters), 'wolf', 'ember');
    e = then(e, { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'wolf' });

    // Round 1, the wolf: Bite 2 d6 [5, 4] = 2 against Ember's Dodge 3 d8 [8, 2, 1] = 1: hit by 1, 3 + 1 = 4; 12 → 8.
    let out = exact(e, attack('wolf', 'ember'), { dice: [5, 4, 8, 2, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ember', damage: 4, hpBefore: 12, hp: 8 });
    e = end([...e, ...out]);

    // Round 1, Ember: Ash's Encourage rolls Spirit 3 d6 [3, 2, 1]: no success, Diff 1 fails — no Dodge die.
    e = then(e, { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    out = exact(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [3, 2, 1] });
    expect(find(out, 'BinderCommanded')).toMatchObject({ command: 'encourage', passed: false });
    e = [...e, ...out];
    expect(stateOf(e).combatants.ember.encourageDodge).toBe(0);
    // "Near: Move to Close for free", then the Guard on Pip, now Close.
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'pip', band: 'close' });
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    expect(stateOf(e).combatants.ember.guarding).toBe('pip');
    e = end(e);

    // Round 1, Pip: Bo's Direct, the free move to Close, then Claw 4 d6 + Direct = 5 d6 [6, 6, 6, 2, 1]: 3 successes,
    // three 6s; the wolf's Dodge [4, 1] = 1. A Critical: (2 + 1)·2 + 2 = 8; 20 → 12. First of the heroes' chain.
    e = then(e, { type: 'StartActivation' });
    e = then(e, { type: 'Direct', combatantId: 'bo' });
    e = then(e, { type: 'Move', combatantId: 'pip', towardId: 'wolf', band: 'close' });
    out = exact(e, attack('pip', 'wolf'), { dice: [6, 6, 6, 2, 1, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, successes: 3, sixes: 3 },
      critical: true,
      damage: 8,
      combo: { position: 1, hits: 1, sideTurn: 2 },
    });
    e = [...e, ...out];
    // The last turn of the round: its EndActivation ends the round.
    out = exact(e, { type: 'EndActivation' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded']);
    e = [...e, ...out];
    expect(stateOf(e)).toMatchObject({
      roundOpen: false,
      turn: undefined,
      sideTurns: { heroes: 2, wild: 1 },
    });

    // Round 2, the wolf bites Pip: Ember's Guard lasts "until next turn" — Ember's, still to come — and Ember is Close
    // to Pip, so Ember takes it. Bite [6, 4] = 2 against Ember's Dodge [7, 1, 1] = 1: 3 + 1 = 4; 8 → 4. The wolf's
    // Action ends the heroes' chain on it.
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    out = exact(e, attack('wolf', 'pip'), { dice: [6, 4, 7, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'ComboReset', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'pip',
      redirectedBy: 'guard',
      damage: 4,
    });
    e = end([...e, ...out]);
    expect(stateOf(e).combatants.ember.hp).toBe(4);

    // Round 2, Ember: its turn ends the Guard. Ash's Bond Surge costs Ember 1 Stamina (2 → 1); the Claw rolls
    // 5 d8 + the Boost die [8, 7, 5, 4, 2, 1], the 1 dropped: 4 successes against the wolf's [6, 5] = 2: 5 + 2 = 7;
    // 12 → 5. The chain restarts: the wolf acted.
    e = then(e, { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({
      combatantId: 'ember',
      binderId: 'ash',
      guardEnded: 'pip',
    });
    out = exact(e, { type: 'BondSurge', combatantId: 'ash' });
    expect(find(out, 'StaminaSpent')).toEqual({ combatantId: 'ember', amount: 1, stamina: 1 });
    e = [...e, ...out];
    out = exact(e, attack('ember', 'wolf'), { dice: [8, 7, 5, 4, 2, 1, 6, 5] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, edge: 'boost', dropped: { index: 5, face: 1 }, successes: 4 },
      damage: 7,
      combo: { position: 1, hits: 1, sideTurn: 3 },
    });
    e = end([...e, ...out]);
    expect(stateOf(e)).toMatchObject({
      turn: undefined,
      combatants: { wolf: { hp: 5 }, ember: { guarding: undefined } },
    });

    // Round 2, Pip: the second of the chain, 4 + 1 = 5 d6 [5, 4, 4, 1, 1] = 3 against [2, 2] = 0: 3 + 3 + 1 = 7 ≥ 5.
    e = then(e, { type: 'StartActivation' });
    const beforeClaw = e;
    out = exact(e, attack('pip', 'wolf'), { dice: [5, 4, 4, 1, 1, 2, 2] });
    expect(find(out, 'AttackResolved')).toMatchObject({ combo: { position: 2, damageBonus: 1 }, damage: 7 });
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'wolf', playerSide: false });
    expect(types(out)).not.toContain('CriticalGaugeRaised');
    // C8: the GM undoes the Claw: the state is the fold without it — the wolf at 5 HP, Ember's chain on it, Pip's
    // Action unspent. Pip claws again, [4, 1, 1, 1, 1] = 1 against [5, 1] = 1: a miss, still the chain's second.
    const undone = stateOf(beforeClaw);
    expect(undone).toMatchObject({
      combatants: { wolf: { hp: 5, knockedOut: false } },
      combos: { wolf: { lastAttackerId: 'ember', attacks: 1, hits: 1 } },
      turn: { beastId: 'pip', action: undefined },
    });
    out = exact(beforeClaw, attack('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 5, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      outcome: 'miss',
      damage: 0,
      combo: { position: 2, dieBonus: 1, damageBonus: 0, hits: 0 },
    });
    e = [...beforeClaw, ...out];
    out = exact(e, { type: 'EndActivation' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded']);
    e = [...e, ...out];

    // Round 3, the wolf Passes: "Pass: Choose not to act" — the chain holds (A10, A40).
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    out = exact(e, { type: 'Pass', combatantId: 'wolf' });
    expect(types(out)).toEqual(['ActionTaken']);
    e = end([...e, ...out]);
    // Ember, the chain's third: 5 + 1 = 6 d8 [8, 4, 1, 1, 1, 1] = 2 against [1, 1] = 0. Pip's miss ended the hit
    // streak, so no combo damage: 5 + 2 = 7 ≥ 5 — the wolf is Knocked Out.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('ember', 'wolf'), { dice: [8, 4, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6 },
      combo: { position: 3, dieBonus: 1, damageBonus: 0, hits: 1 },
      damage: 7,
    });
    e = [...e, ...out];
    expect(stateOf(e)).toMatchObject({ combatants: { wolf: { hp: 0, knockedOut: true } }, combos: {} });
    // Pip still has its turn; its end ends the round.
    e = then(end(e), { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'pip', binderId: 'bo' });
    expect(types(exact(e, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
    expect(refused(e, attack('pip', 'wolf')).code).toBe('ARCANA_COMBATANT_OUT');
  });
});

describe('Fight 2, the highest Stage: Ember and Ash against two wolves until the Knockout and the end of the scene', () => {
  // Order: Ember (Ash), the wolf, wolf2; every pair Near (A17). Ember: Stage 2 of 0–3, 12 HP; the GM has marked its
  // Stage 3 trigger ("protect Ash").
  const fighters = [ember(), ash, wolf('wolf', 20), wolf('wolf2', 20)];

  it('"Highest unlocked Stage is free when its emotional Trigger is true", "uses next Action", "Combo Attacks" on the interceptor, "At 0 HP … Devolve" and "Highest Stage lasts one Combat Encounter"', () => {
    let e = then(fight(fighters), { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3 });
    e = then(e, { type: 'StartActivation' });

    // Round 1, Ember: "Evolve … (immediate, free)" to Stage 3 (d10), no HP back; Ash's Direct still comes first of
    // the beast's acts (A38). Inferno (long): Agility 2 + Rank 2 + Direct = 5 d10 [10, 9, 6, 3, 1] = 3 successes,
    // three 6+; the wolf's Dodge [1, 1] = 0. A Critical: (3 + 3)·2 + 3 + 1 = 16; 20 → 4; the one use spent.
    let out = exact(e, { type: 'Evolve', combatantId: 'ember' });
    expect(find(out, 'StageEvolved')).toEqual({
      combatantId: 'ember',
      from: 2,
      to: 3,
      reason: 'evolve',
      highest: true,
      triggerActive: true,
    });
    e = [...e, ...out];
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 3, revertTo: 2, hp: 12 });
    e = then(e, { type: 'Direct', combatantId: 'ash' });
    out = exact(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [10, 9, 6, 3, 1, 1, 1] },
    );
    expect(find(out, 'SpecialAttackUsed')).toEqual({
      combatantId: 'ember',
      specialAttackId: 'inferno',
      usesLeft: 0,
    });
    expect(find(out, 'AttackResolved')).toMatchObject({
      band: 'near',
      attack: { dice: 5, sides: 10, successes: 3, sixes: 3 },
      critical: true,
      baseDamage: 6,
      damage: 16,
    });
    e = end([...e, ...out]);

    // Round 1, the wolf: the free move to Close, then Bite [6, 6] = 2 against Ember's Dodge 3 d10 [3, 2, 1] = 0:
    // 3 + 2 = 5 (two 6s: no Critical); 12 → 7. The first of the wolves' chain on Ember.
    e = then(e, { type: 'StartActivation' });
    e = then(e, { type: 'Move', combatantId: 'wolf', towardId: 'ember', band: 'close' });
    out = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 3, 2, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ critical: false, damage: 5, combo: { position: 1 } });
    e = end([...e, ...out]);

    // Round 1, wolf2 moves Close to Ember, so to Ash too (A17), and bites Ash: Ember is asked, and intercepts.
    // The Bite is then on Ember, the wolves' second on it (A46): 2 + 1 = 3 d6 [5, 4, 1] = 2 against Ember's
    // [9, 1, 1] = 1: 3 + 1 + 1 for the second hit = 5; 7 → 2.
    e = then(e, { type: 'StartActivation' });
    e = then(e, { type: 'Move', combatantId: 'wolf2', towardId: 'ember', band: 'close' });
    out = exact(e, attack('wolf2', 'ash'));
    expect(types(out)).toEqual(['ActionTaken', 'AttackDeclared']);
    e = [...e, ...out];
    expect(stateOf(e).pending).toMatchObject({ kind: 'intercept', awaiting: 'ember' });
    out = exact(
      e,
      { type: 'Intercept', combatantId: 'ember', intercept: true },
      { dice: [5, 4, 1, 9, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'ash',
      redirectedBy: 'intercept',
      attack: { dice: 3 },
      combo: { position: 2, damageBonus: 1, hits: 2 },
      damage: 5,
    });
    e = [...e, ...out];
    expect(stateOf(e).combatants.ember).toMatchObject({ hp: 2, interceptOwed: true });
    out = exact(e, { type: 'EndActivation' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded']);
    e = [...e, ...out];

    // Round 2, Ember: its Action went to the Intercept; Ash's Potion (heal 4) is its Command: 2 → 6.
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({
      combatantId: 'ember',
      binderId: 'ash',
      actionForfeited: 'intercept',
    });
    out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    expect(find(out, 'ItemUsed')).toEqual({
      binderId: 'ash',
      itemId: 'potion',
      quantityLeft: 0,
      targetId: 'ember',
    });
    expect(find(out, 'HpRestored')).toEqual({ combatantId: 'ember', amount: 4, hpBefore: 2, hp: 6 });
    e = [...e, ...out];
    expect(refused(e, attack('ember', 'wolf')).code).toBe('ARCANA_ACTION_USED');
    e = end(e);
    // A spent Action is not Ember acting (A46): the wolves' chain on it holds.
    expect(stateOf(e).combos.ember).toMatchObject({ lastAttackerId: 'wolf2', attacks: 2, hits: 2 });

    // Round 2, the wolf: the chain's third, 3 d6 [6, 1, 1] = 1 against [4, 1, 1] = 1: a miss, the streak ends.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('wolf', 'ember'), { dice: [6, 1, 1, 4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'miss', combo: { position: 3, hits: 0 } });
    e = end([...e, ...out]);

    // Round 2, wolf2: the fourth, 3 d6 [6, 5, 4] = 3 against [1, 1, 1] = 0: 3 + 3, no combo damage after the
    // miss = 6; 6 → 0. "At 0 HP: Add 1 to Critical Gauge, Gain a Harm, Stage 2+ PCs must Devolve": from Stage 3,
    // Endurance 2 d10 [10, 10] = 2 successes, Diff 3 fails: Stage 0.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('wolf2', 'ember'), { dice: [6, 5, 4, 1, 1, 1], followUpFaces: [10, 10] });
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DevolutionTested',
      'StageDevolved',
    ]);
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 4, damageBonus: 0, hits: 1 },
      damage: 6,
    });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 0, to: 1 });
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 3,
      stageAfter: 0,
      test: { sides: 10, dice: 2, successes: 2, difficulty: 3, passed: false },
    });
    expect(find(out, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 3,
      to: 0,
      reason: 'knockedOut',
    });
    e = [...e, ...out];
    expect(stateOf(e)).toMatchObject({
      criticalGauge: 1,
      combos: {},
      combatants: {
        ember: { hp: 0, knockedOut: true, stage: 0, revertTo: undefined, harms: ['Harm (reduced to 0 HP)'] },
      },
    });
    out = exact(e, { type: 'EndActivation' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded']);
    e = [...e, ...out];

    // Round 3, Ember Knocked Out: its Binder keeps the shared turn for Commands (A21); no heroes' beast turn (A56).
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    expect(stateOf(e).sideTurns.heroes).toBe(2);
    expect(refused(e, { type: 'Encourage', combatantId: 'ash' }).code).toBe('ARCANA_COMBATANT_OUT');
    // "Call Back": a Knocked Out beast is retreated, and rolls nothing.
    out = exact(e, { type: 'CallBack', combatantId: 'ash', mode: 'retreat' });
    expect(types(out)).toEqual(['BinderCommanded', 'CalledBack']);
    e = end([...e, ...out]);
    // The wolf bites Ash: Ember is in its vessel, so no Intercept is asked. [6, 4] = 2 against Ash's Dodge 2 d6
    // [4, 1] = 1: 3 + 1 = 4; 10 → 6.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('wolf', 'ash'), { dice: [6, 4, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ash', attack: { dice: 2 }, damage: 4 });
    e = end([...e, ...out]);
    e = then(then(e, { type: 'StartActivation' }), { type: 'Pass', combatantId: 'wolf2' });
    e = [...e, ...exact(e, { type: 'EndActivation' })];
    expect(stateOf(e).roundOpen).toBe(false);

    // The encounter ends: Ember stays on Stage 0 (A67) and Knocked Out at 0 HP; back from its vessel, its Inferno's
    // use back; the Gauge and the Harm stay.
    out = exact(e, { type: 'EndScene' });
    expect(types(out)).toEqual(['SceneEnded']);
    expect(find(out, 'SceneEnded')).toEqual({ revived: [] });
    e = [...e, ...out];
    expect(stateOf(e)).toMatchObject({
      criticalGauge: 1,
      combatants: {
        ember: {
          stage: 0,
          knockedOut: true,
          inVessel: false,
          specialUses: { inferno: 1 },
          activeTriggers: [],
        },
        ash: { hp: 6, items: { potion: 0 } },
      },
    });
  });
});

describe('Fight 3, the ravine: Pip and Kit against two wolves, one of which flees', () => {
  // Order: Pip (Bo), Kit, the wolf, wolf2. Pip Far from the wolf across difficult ground (Difficulty 1), Kit Close to
  // Pip; every other pair Near (A17). Pip: Stage 1, d6, Agility 3, Claw 4 d6, Dodge 4 d6, Base Damage 3, 12 HP.
  // Kit: a wild ally (A35), Bite 2 d6, Dodge 2 d6, Base Damage 3, 20 HP. Wolves: Bite 2 d6, Dodge 2 d6, 20 HP.
  const fighters = [pip, bo, kit(), wolf('wolf', 20), wolf('wolf2', 20)];

  it('"Far … Requires Reposition action to move", "Assist: Help a Close ally’s next roll", a combatant leaving in its turn (C16), "Defend … until next turn", "Cornered: Cannot Reposition, Dodge with Setback" and a Critical combo', () => {
    let e = then(fight(fighters), {
      type: 'SetBand',
      aId: 'pip',
      bId: 'wolf',
      band: 'far',
      difficultTerrain: 1,
    });
    e = close(e, 'kit', 'pip');
    e = then(e, { type: 'StartActivation' });

    // Round 1, Pip: the free move cannot leave Far; Bo's Direct, then the Reposition Far → Close, whose
    // difficult-terrain Agility Test is the Action's roll: 3 d6 + Direct = 4 d6 [4, 1, 1, 1] = 1, Diff 1 passes.
    expect(refused(e, { type: 'Move', combatantId: 'pip', towardId: 'wolf', band: 'near' }).code).toBe(
      'ARCANA_REPOSITION_NEEDED',
    );
    e = then(e, { type: 'Direct', combatantId: 'bo' });
    let out = exact(
      e,
      { type: 'Reposition', combatantId: 'pip', towardId: 'wolf', band: 'close' },
      { dice: [4, 1, 1, 1] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      from: 'far',
      to: 'close',
      by: 'reposition',
      test: { dice: 4, bonuses: [{ source: 'Direct', dice: 1 }], successes: 1, difficulty: 1, passed: true },
    });
    e = [...e, ...out];
    expect(refused(e, attack('pip', 'wolf')).code).toBe('ARCANA_ACTION_USED');
    e = end(e);

    // Round 1, Kit: Assist on Pip, Close; then its free move Close to the wolf.
    e = then(e, { type: 'StartActivation' });
    e = then(e, { type: 'Assist', combatantId: 'kit', allyId: 'pip' });
    e = end(then(e, { type: 'Move', combatantId: 'kit', towardId: 'wolf', band: 'close' }));
    expect(stateOf(e).combatants.pip.assistDice).toBe(1);

    // Round 1, the wolf bites Pip: [6, 5] = 2 against Pip's Dodge 4 d6 + the Assist die = 5 d6 [4, 4, 1, 1, 1] = 2:
    // "Miss: Defender equals/exceeds attacker's successes". The Assist die is spent.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('wolf', 'pip'), { dice: [6, 5, 4, 4, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'BonusDiceUsed', 'AttackResolved']);
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'miss', dodge: { dice: 5, successes: 2 } });
    e = end([...e, ...out]);

    // Round 1, wolf2 flees in its own turn: the GM removes it; no one is left to act and the round ends (C16).
    e = then(e, { type: 'StartActivation' });
    out = exact(e, { type: 'RemoveCombatant', combatantId: 'wolf2', reason: 'fled' });
    expect(types(out)).toEqual(['CombatantRemoved', 'RoundEnded']);
    e = [...e, ...out];
    expect(stateOf(e)).toMatchObject({
      roundOpen: false,
      turn: undefined,
      order: ['pip', 'bo', 'kit', 'wolf'],
    });

    // Round 2, Pip Defends, then its free move Near to Kit; Bo's Command after them is refused (A38).
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    e = then(e, { type: 'Defend', combatantId: 'pip' });
    e = then(e, { type: 'Move', combatantId: 'pip', towardId: 'kit', band: 'near' });
    expect(refused(e, { type: 'Direct', combatantId: 'bo' }).code).toBe('ARCANA_COMMAND_AFTER_ACTION');
    e = end(e);

    // Round 2, Kit, Cornered by the wolf (the GM's tag): no Reposition measured to the wolf; one toward Pip is allowed
    // (A39) and brings it Close again.
    e = then(e, { type: 'SetTag', combatantId: 'kit', tag: 'cornered', againstId: 'wolf' });
    e = then(e, { type: 'StartActivation' });
    const toWolf = refused(e, { type: 'Reposition', combatantId: 'kit', towardId: 'wolf', band: 'near' });
    expect([toWolf.code, toWolf.field]).toEqual(['ARCANA_CORNERED', 'towardId']);
    e = end(then(e, { type: 'Reposition', combatantId: 'kit', towardId: 'pip', band: 'close' }));

    // Round 2, the wolf bites the Cornered Kit: [6, 5] = 2 against Kit's 2 d6 + the Setback die [6, 4, 1], the 6
    // dropped: 1 success. 3 + 1 = 4; 20 → 16. Pip's Defend, still running, is not Kit's.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('wolf', 'kit'), { dice: [6, 5, 6, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: {
        dice: 2,
        edge: 'setback',
        setbackSources: ['Cornered'],
        dropped: { index: 0, face: 6 },
        successes: 1,
      },
      damage: 4,
    });
    e = [...e, ...out];
    expect(stateOf(e).combatants.pip.defending).toBe(true);
    out = exact(e, { type: 'EndActivation' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded']);
    e = [...e, ...out];

    // Round 3, Pip: its turn ends the Defend. Claw 4 d6 [6, 5, 4, 1] = 3 against [1, 1] = 0: 3 + 3 = 6; 20 → 14.
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({
      combatantId: 'pip',
      binderId: 'bo',
      defendEnded: true,
    });
    out = exact(e, attack('pip', 'wolf'), { dice: [6, 5, 4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ damage: 6, combo: { position: 1, sideTurn: 5 } });
    e = end([...e, ...out]);
    // Round 3, Kit: the second of the chain, 2 + 1 = 3 d6 [6, 6, 6] = 3, three 6s, against [1, 1] = 0: a Critical,
    // 3·2 + 3 + 1 for the second hit = 10; 14 → 4. Kit's own Cornered touches only its Dodge.
    e = then(e, { type: 'StartActivation' });
    out = exact(e, attack('kit', 'wolf'), { dice: [6, 6, 6, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 3, edge: 'none' },
      critical: true,
      combo: { position: 2, damageBonus: 1 },
      damage: 10,
    });
    e = end([...e, ...out]);
    expect(stateOf(e).combatants.wolf.hp).toBe(4);
    e = then(then(e, { type: 'StartActivation' }), { type: 'Pass', combatantId: 'wolf' });
    expect(types(exact(e, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
  });
});
