/**
 * Cases worked by hand from arcana-beast.txt (and RULINGS.md, docs/rulings*.md): a Call Back in the
 * beast's own turn and the combo chain, and the sentences the earlier cases quote least (the distance bands, the margin of
 * a hit, Devolution from Stage 1, the Critical Gauge's lower thresholds, Reposition for positional advantage, Assist on a
 * Binder's Command). The dice are traced in comments.
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
  next,
  pip,
  refused,
  stateOf,
  then,
  types,
  wolf,
} from './helpers';

describe('"Combo Attacks" × "Call Back": a turn the Binder spends calling its beast back', () => {
  /** Pip, Ember (with Ash) and Kit on the heroes' side, in that order, against the wolf; all Close to it. */
  const heroBeast = beast({ stage: 1, stages: [{ stage: 1 }] });
  const fighters: Fighter[] = [
    { id: 'pip', sheet: heroBeast, side: 'heroes' },
    ember(),
    ash,
    { id: 'kit', sheet: heroBeast, side: 'heroes' },
    wolf('wolf', 60),
  ];
  const start = ['ember', 'kit'].reduce(
    (e, id) => close(e, id, 'wolf'),
    close(fight(fighters, 'pip'), 'pip', 'wolf'),
  );

  it.each(['retreat', 'devolve'])(
    'A70: "When two or more allied Arcana Beast target the same enemy on consecutive turns": given Pip’s Claw on the wolf, when Ash calls Ember back (mode %s) in Ember’s own turn before it acts, then that turn was the heroes’ and Kit’s Claw starts a new chain',
    (mode) => {
      // Pip's Claw: Brawn 3 + Rank 1 + Claws 1 = 5 d6, 5 successes to the wolf's 2 d6 showing none: (3 + 1) + 5 = 9.
      let e = then(start, attack('pip', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
      e = next(e, 'ember');
      // Ember is in the fight when its turn starts: the shared turn is a beast turn of the heroes (their second).
      expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
      expect(stateOf(e).sideTurns.heroes).toBe(2);
      // "Call Back … (Devolve/Retreat with Boost; no roll)": Ember's Devolution Test from Stage 2, Endurance 2 on d8 +
      // the Boost die, 8, 8 kept of 8, 8, 1: 2 successes, Diff 3 fails (A23, A37).
      e = then(e, { type: 'CallBack', combatantId: 'ash', mode }, { followUpFaces: [8, 8, 1] });
      expect(find(e, 'DevolutionTested')).toMatchObject({ stageBefore: 2, reason: 'callBack' });
      e = next(e, 'kit');
      expect(stateOf(e).sideTurns.heroes).toBe(3);
      // Kit's Claw: 5 d6 and no combo die, 5 successes to none: 4 + 5 = 9, the first of a new chain.
      const out = exact(e, attack('kit', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
      expect(find(out, 'AttackResolved')).toMatchObject({
        attack: { dice: 5, bonuses: [] },
        combo: { position: 1, dieBonus: 0, damageBonus: 0, hits: 1, sideTurn: 3 },
        damage: 9,
      });
    },
  );

  it('A70: given Ember already in its vessel when its turn starts, then that Commands-only turn is no beast turn (A56) and Kit’s Claw continues Pip’s chain', () => {
    // Ember was called back in an earlier turn: at the start of this one it is out.
    const inVessel: RuleEvent = {
      type: 'CalledBack',
      data: { binderId: 'ash', beastId: 'ember', mode: 'retreat' },
    };
    let e = then([...start, inVessel], attack('pip', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'ember');
    expect(stateOf(e).sideTurns.heroes).toBe(1);
    e = next(e, 'kit');
    // Kit's Claw: 5 d6 + the combo die, 5 successes to none: 4 + 5 + 1 for the second hit = 10.
    const out = exact(e, attack('kit', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2, sideTurn: 2 },
      damage: 10,
    });
  });
});

describe('"Combo Attacks" × a devolving "Call Back": the beast still in the fight may continue the chain', () => {
  const heroBeast = beast({ stage: 1, stages: [{ stage: 1 }] });
  const fighters: Fighter[] = [
    { id: 'pip', sheet: heroBeast, side: 'heroes' },
    ember(),
    ash,
    wolf('wolf', 60),
  ];

  it('A70: given Pip’s Claw on the wolf, when Ash’s Call Back devolves Ember and Ember then claws the wolf in that turn, then Ember’s Claw is the second of Pip’s chain', () => {
    let e = close(close(fight(fighters, 'pip'), 'pip', 'wolf'), 'ember', 'wolf');
    e = then(e, attack('pip', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'ember');
    // Devolution Test from Stage 2: Endurance 2 on d8 + the Boost die, 8, 8 kept: 2 successes, Diff 3 fails → Stage 0.
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'devolve' }, { followUpFaces: [8, 8, 1] });
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 0, inVessel: false });
    // "command first, then action": Claw 5 d6 at Stage 0 + the combo die, 5 successes to none:
    // Base Damage Brawn 3 + Stage 0 = 3, + 5, + 1 for the second hit = 9.
    const out = exact(e, attack('ember', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, sides: 6, bonuses: [{ source: 'Combo', dice: 1 }] },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2, sideTurn: 2 },
      baseDamage: 3,
      damage: 9,
    });
  });
});

describe('arcana-beast.txt: Distance Bands and Results, worked by hand', () => {
  const trio: Fighter[] = [ember(), ash, wolf('wolf', 60)];

  it('"Near: A short dash away. Ranged attacks work. Move to Close for free." and "Close: Within arm’s reach. Melee attacks.": given Ember Near the wolf, its Claw is refused until its free move brings it Close, then the Claw lands in the same turn', () => {
    let e = fight(trio, 'ember');
    expect(refused(e, attack('ember', 'wolf'))).toMatchObject({
      code: 'ARCANA_OUT_OF_RANGE',
      field: 'targetId',
    });
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(find(e, 'Moved')).toMatchObject({ from: 'near', to: 'close', by: 'free' });
    // Claw 5 d8 showing 8, 6, 4, 1, 1: 3 successes; the wolf's Dodge 2 d6 showing 1, 1: none. 5 + 3 = 8.
    const out = exact(e, attack('ember', 'wolf'), { dice: [8, 6, 4, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      band: 'close',
      outcome: 'hit',
      baseDamage: 5,
      damage: 8,
    });
    // "Move one band for free per turn": the dash was this turn's.
    expect(
      refused([...e, ...out], { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' }).code,
    ).toBe('ARCANA_FREE_MOVE_USED');
  });

  it.each([
    // Claw 5 d8, then the wolf's Dodge 2 d6.
    ['1 success to none', [4, 1, 1, 1, 1, 1, 1], 'hit', 1, 6],
    ['2 successes to 1', [4, 5, 1, 1, 1, 6, 1], 'hit', 1, 6],
    ['1 success to 1', [4, 1, 1, 1, 1, 4, 1], 'miss', 0, 0],
  ])(
    '"Hit: Attacker exceeds deal damage" and "Damage Formula: Base Damage + extra successes beyond defender": %s — Base Damage 5 + the margin',
    (_, dice, outcome, extraSuccesses, damage) => {
      const e = close(fight(trio, 'ember'), 'ember', 'wolf');
      expect(find(exact(e, attack('ember', 'wolf'), { dice }), 'AttackResolved')).toMatchObject({
        outcome,
        extraSuccesses,
        damage,
      });
    },
  );
});

describe('arcana-beast.txt: Knockout & Devolution, worked by hand', () => {
  /** Ember at Stage 1 (d6), 3 HP, Stages 0–3 unlocked; the wolf acts first. */
  const fighters: Fighter[] = [wolf('wolf', 60), ember({ stage: 1, hp: 3, maxHp: 12 }), ash];
  const start = close(fight(fighters, 'wolf'), 'wolf', 'ember');
  // The Bite: 2 d6 showing 6, 6; Ember's Dodge, Agility 2 + Nimble 1 = 3 d6 showing 1, 1, 1: (2 + 1) + 2 = 5 ≥ 3 HP.
  const bite = attack('wolf', 'ember');

  it.each([
    ['pass = stay', [5, 4], true, 1],
    ['fail = Stage 0', [5, 1], false, 0],
  ])(
    '"From Stage 1: Endurance Test Diff 2 pass = stay, fail = Stage 0": Endurance 2 on d6 — %s',
    (_, followUpFaces, passed, stageAfter) => {
      const out = exact(start, bite, { dice: [6, 6, 1, 1, 1], followUpFaces });
      expect(find(out, 'DevolutionTested')).toMatchObject({
        stageBefore: 1,
        stageAfter,
        reason: 'knockedOut',
        test: { dice: 2, sides: 6, successes: passed ? 2 : 1, passed },
      });
      expect(types(out).includes('StageDevolved')).toBe(!passed);
      expect(stateOf([...start, ...out]).combatants.ember.stage).toBe(stageAfter);
    },
  );

  it.each([
    [2, 3, 'minor'],
    [5, 6, 'major'],
  ])(
    '"Critical Gauge thresholds: 3 Minor Critical Move (complication), 6 Major Critical Move (escalation)": given the Gauge at %i, a Knockout raises it to %i and triggers the %s Critical Move',
    (from, to, tier) => {
      const e = [...start, { type: 'CriticalGaugeRaised', data: { combatantId: 'x', from: 0, to: from } }];
      const out = exact(e, bite, { dice: [6, 6, 1, 1, 1], followUpFaces: [5, 4] });
      expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from, to });
      expect(find(out, 'CriticalMoveTriggered')).toMatchObject({ threshold: to, tier, gauge: to });
    },
  );

  it('"Critical Gauge thresholds": given the Gauge at 3, a Knockout raises it to 4 and triggers no Critical Move', () => {
    const e = [...start, { type: 'CriticalGaugeRaised', data: { combatantId: 'x', from: 0, to: 3 } }];
    const out = exact(e, bite, { dice: [6, 6, 1, 1, 1], followUpFaces: [5, 4] });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 3, to: 4 });
    expect(types(out)).not.toContain('CriticalMoveTriggered');
  });
});

describe('arcana-beast.txt: Actions in Combat with other rules, worked by hand', () => {
  it('"Reposition: Move two bands or gain positional advantage" and "Combos reset if the target acts between allied attacks": given Ember’s Claw on the wolf, when the wolf Repositions for positional advantage, then Pip’s Claw starts a new chain', () => {
    const fighters: Fighter[] = [ember(), ash, wolf('wolf', 60), pip, bo];
    let e = close(close(fight(fighters, 'ember'), 'ember', 'wolf'), 'pip', 'wolf');
    e = then(e, attack('ember', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'wolf');
    const moved = exact(e, { type: 'Reposition', combatantId: 'wolf' });
    // The Reposition moves nobody (the GM sets the tag, A8), but it is the wolf's Action: the chain on it ends.
    expect(types(moved)).toEqual(['ActionTaken', 'ComboReset']);
    e = next([...e, ...moved], 'pip');
    // Pip's Claw: 4 d6, no combo die, 4 successes to none: 3 + 4 = 7.
    const out = exact(e, attack('pip', 'wolf'), { dice: [6, 5, 4, 4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 4, bonuses: [] },
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
      damage: 7,
    });
  });

  it('"Assist: Help a Close ally’s next roll (+1 die)" and "Beast Binders always roll d6": given Pip’s Assist on Ash, when Ash Encourages Ember, then the Spirit Test rolls Spirit 3 + 1 = 4 d6 and spends the die', () => {
    const fighters: Fighter[] = [pip, bo, ember(), ash, wolf('wolf', 60)];
    let e = close(fight(fighters, 'pip'), 'pip', 'ember');
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ash' });
    expect(stateOf(e).combatants.ash.assistDice).toBe(1);
    e = next(e, 'ember');
    // Ember is Stage 2 (d8), but the Binder's test is on d6: 4 d6 showing 4, 1, 1, 1 — 1 success, Diff 1 passes.
    const out = exact(
      e,
      { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' },
      { dice: [4, 1, 1, 1] },
    );
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ash', source: 'Assist', dice: 1 });
    expect(find(out, 'BinderCommanded').test).toMatchObject({
      statValue: 3,
      bonuses: [{ source: 'Assist', dice: 1 }],
      dice: 4,
      sides: 6,
      successes: 1,
      difficulty: 1,
      passed: true,
    });
    const s = stateOf([...e, ...out]);
    expect(s.combatants.ash.assistDice).toBe(0);
    expect(s.combatants.ember.encourageDodge).toBe(1);
  });

  it('"Evolve: Transform to higher stage (immediate, free)" and "Arcana Beast die size scales with Stage": given Ember’s Claw at Stage 2, when it evolves after its Action, then the wolf’s Bite meets a Dodge on d10 and its HP is unchanged', () => {
    const fighters: Fighter[] = [ember({ hp: 7, maxHp: 12 }), ash, wolf('wolf', 60)];
    let e = close(fight(fighters, 'ember'), 'ember', 'wolf');
    e = then(e, attack('ember', 'wolf'), { dice: [1, 1, 1, 1, 1, 1, 1] });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: true });
    e = then(e, { type: 'Evolve', combatantId: 'ember' });
    expect(find(e, 'StageEvolved')).toMatchObject({ from: 2, to: 3, highest: true });
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 3, hp: 7 });
    e = next(e, 'wolf');
    // The Bite: 2 d6 showing 6, 4; Ember's Dodge, Agility 2 + Nimble 1 = 3 d10 showing 10, 4, 1: 2 to 2, a miss.
    const out = exact(e, attack('wolf', 'ember'), { dice: [6, 4, 10, 4, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 3, sides: 10, successes: 2 },
      outcome: 'miss',
    });
  });
});

describe('arcana-beast.txt: Combo Attacks with the other Results, worked by hand', () => {
  it('"Third consecutive hit deals +2 extra damage" and "Rewards coordination and turn order planning": Ember, Pip, then Ember again in the next round, the wolf Passing between — +1 die from the second, +1 then +2 damage', () => {
    const fighters: Fighter[] = [ember(), ash, pip, bo, wolf('wolf', 60)];
    let e = close(close(fight(fighters, 'ember'), 'ember', 'wolf'), 'pip', 'wolf');
    // Ember's Claw: 5 d8, 5 successes to none: 5 + 5 = 10.
    e = then(e, attack('ember', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = next(e, 'pip');
    // Pip's Claw: 4 d6 + the combo die, 4 successes to none: 3 + 4 + 1 = 8.
    const second = exact(e, attack('pip', 'wolf'), { dice: [6, 5, 4, 4, 1, 1, 1] });
    expect(find(second, 'AttackResolved')).toMatchObject({
      combo: { position: 2, damageBonus: 1 },
      damage: 8,
    });
    e = next([...e, ...second], 'wolf');
    // "Pass: Choose not to act": the wolf has not acted (A10, A40).
    e = then(e, { type: 'Pass', combatantId: 'wolf' });
    e = then(then(end(e), { type: 'StartRound' }), { type: 'StartActivation' });
    expect(e.at(-1)).toEqual({ type: 'TurnStarted', data: { combatantId: 'ember', binderId: 'ash' } });
    // Ember again: 5 d8 + the combo die, 5 successes to none: 5 + 5 + 2 for the third hit = 12.
    const third = exact(e, attack('ember', 'wolf'), { dice: [6, 5, 4, 4, 4, 1, 1, 1] });
    expect(find(third, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, bonuses: [{ source: 'Combo', dice: 1 }] },
      combo: { position: 3, dieBonus: 1, damageBonus: 2, hits: 3 },
      damage: 12,
    });
    expect(find(third, 'DamageDealt')).toMatchObject({ hpBefore: 42, hp: 30 });
  });

  it('"Critical Hit: 3+ faces showing 6+ double base Damage" and "If both hit, second attack deals +1 extra damage": Ember’s Inferno after Pip’s Claw — (3 + 2)·2 + 4 + 1 bonus + 1 combo = 16 (A12, A52)', () => {
    const fighters: Fighter[] = [pip, bo, ember(), ash, wolf('wolf', 60)];
    let e = close(fight(fighters, 'pip'), 'pip', 'wolf');
    // Pip's Claw: 4 d6, 3 successes to none: 3 + 3 = 6.
    e = then(e, attack('pip', 'wolf'), { dice: [6, 5, 4, 1, 1, 1] });
    e = next(e, 'ember');
    // Inferno, long range: Agility 2 + Rank 2 + the combo die = 5 d8 showing 8, 8, 8, 4, 1 — 4 successes, three 6+;
    // the wolf's Dodge 2 d6 showing 1, 1. Base Damage 5 doubled, + 4 extra, + bonusDamage 1, + 1 for the second hit.
    const out = exact(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [8, 8, 8, 4, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      band: 'near',
      attack: { dice: 5, sides: 8, successes: 4 },
      critical: true,
      baseDamage: 5,
      extraSuccesses: 4,
      bonusDamage: 1,
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 16,
    });
  });
});
