/**
 * Interactions between two or more rules of arcana-beast.txt, which the sentence-by-sentence audits do not reach: a
 * combo whose target is guarded or intercepted mid-chain, Evolution and Devolution in the middle of a combo, a Guard
 * or an Intercept, a Knockout by a redirected attack, waiting dice and redirects, Bond Surge with other dice on one
 * roll, Stamina and uses spent on a voided attack, a beast whose Binder is Knocked Out, and the end of the scene with
 * a pending decision, tags and Stages. Each case is worked by hand from the text (and RULINGS.md, docs/rulings*.md),
 * the dice traced in comments.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualDice } from '../../src/dice/manual';
import { findSystem } from '../../src/registry';
import { fightStarted } from '../given';
import {
  ash,
  attack,
  beast,
  binder,
  bo,
  close,
  ember,
  exact,
  Fighter,
  find,
  joined,
  kit,
  next,
  pip,
  refused,
  stateOf,
  then,
  types,
  wolf,
} from './helpers';

/** A fight in round 1 with this turn order (the GM's, or rolled), `active`'s turn running. */
function inOrder(fighters: Fighter[], order: string[], active: string): RuleEvent[] {
  return then(
    [
      fightStarted('arcana-beast'),
      ...fighters.map(joined),
      { type: 'InitiativeSet', data: { order } },
      { type: 'RoundStarted', data: { round: 1 } },
    ],
    { type: 'StartActivation', combatantId: active },
  );
}
/** Ends the running turn and starts `id`'s (in order or, as the GM may, out of it: A44). */
const closeAll = (e: RuleEvent[], pairs: [string, string][]) =>
  pairs.reduce((x, [a, b]) => close(x, a, b), e);
const gaugeAt = (to: number): RuleEvent => ({
  type: 'CriticalGaugeRaised',
  data: { combatantId: 'earlier', from: 0, to },
});

/** Fang: a rival Binder Rook's beast, Stage 2 (d8), Stages 0–3 as Ember's: Dodge 3 d8. */
const fang: Fighter = { id: 'fang', sheet: beast({ hp: 20 }), side: 'rivals' };
const rook: Fighter = { id: 'rook', sheet: binder('fang'), side: 'rivals' };

const claw = (attackerId: string, targetId: string, extra: Record<string, unknown> = {}): RuleCommand => ({
  type: 'Attack',
  attackerId,
  targetId,
  attackId: 'claw',
  ...extra,
});

describe('Combo Attacks × Guard and Intercept', () => {
  const fighters = [ember(), ash, pip, bo, kit(), wolf(), wolf('wolf2')];

  it('A64: "Guard: Redirect attacks on a Close ally to yourself" and "Combo Attacks": given Ember’s Claw on wolf2, when wolf2’s Guard takes Pip’s Claw on the wolf, then it continues the heroes’ chain on wolf2 — "Second attacker gains +1 die", "If both hit … +1 extra damage"', () => {
    let e = inOrder(fighters, ['wolf2', 'ember', 'ash', 'pip', 'bo', 'kit', 'wolf'], 'wolf2');
    e = closeAll(e, [
      ['wolf2', 'wolf'],
      ['ember', 'wolf2'],
      ['pip', 'wolf'],
    ]);
    e = then(e, { type: 'Guard', combatantId: 'wolf2', allyId: 'wolf' });
    e = next(e, 'ember');
    // Claw 5 d8: 4, 4 → 2 successes against wolf2's Dodge 2 d6: none → Base 5 + 2 = 7.
    e = then(e, claw('ember', 'wolf2'), { dice: [4, 4, 1, 1, 1, 1, 1] });
    e = next(e, 'pip');
    // Pip's Claw on the wolf goes to wolf2, the heroes' next turn: 4 d6 + the combo die = 5 d6: one success against
    // wolf2's none → Base 3 + 1 + 1 (second hit in a row) = 5.
    const out = exact(e, claw('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'wolf2',
      declaredTargetId: 'wolf',
      redirectedBy: 'guard',
      attack: { dice: 5, bonuses: [{ source: 'Combo', dice: 1 }] },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 5,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'wolf2', hp: 8 });
  });

  it('A64: "on consecutive turns": the heroes’ turn whose Claw wolf2’s Guard took was spent on wolf2, so Kit’s Bite on the wolf after it does not continue Ember’s chain on the wolf', () => {
    let e = inOrder(fighters, ['ember', 'ash', 'wolf2', 'pip', 'bo', 'kit', 'wolf'], 'ember');
    e = closeAll(e, [
      ['ember', 'wolf'],
      ['wolf2', 'wolf'],
      ['pip', 'wolf'],
      ['kit', 'wolf'],
    ]);
    // Claw 5 d8: 4, 4 against the wolf's none → 7.
    e = then(e, claw('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] });
    e = next(e, 'wolf2');
    e = then(e, { type: 'Guard', combatantId: 'wolf2', allyId: 'wolf' });
    e = next(e, 'pip');
    // Pip's Claw goes to wolf2: no chain on wolf2, 4 d6: one success → 3 + 1 = 4.
    const redirected = exact(e, claw('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    expect(find(redirected, 'AttackResolved')).toMatchObject({ targetId: 'wolf2', combo: { position: 1 } });
    e = [...e, ...redirected];
    // The GM moves wolf2 off (A27: the Guard needs both Close), and Kit bites the wolf itself.
    e = then(e, { type: 'SetBand', aId: 'wolf2', bId: 'wolf', band: 'near' });
    e = next(e, 'kit');
    const out = exact(e, attack('kit', 'wolf'), { dice: [4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'wolf',
      attack: { dice: 2 },
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
      damage: 4,
    });
  });

  it('A65: an attack is redirected once — given Kit guarding Ember, when Ember intercepts the wolf’s Bite on Ash, then Ember takes it; Kit’s Guard does not take it from Ember', () => {
    let e = inOrder([ember(), ash, kit(), wolf()], ['kit', 'ember', 'ash', 'wolf'], 'kit');
    e = closeAll(e, [
      ['kit', 'ember'],
      ['wolf', 'ash'],
    ]);
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'ember' });
    e = next(e, 'wolf');
    // Bite 2 d6: 6, 6 against Ember's Dodge 3 d8: none → Base 3 + 2 = 5.
    const out = exact(e, attack('wolf', 'ash', { intercept: true }), { dice: [6, 6, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'InterceptDecided', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'ash',
      redirectedBy: 'intercept',
      dodge: { combatantId: 'ember', dice: 3 },
    });
    const s = stateOf([...e, ...out]);
    expect(s.combatants.ember.hp).toBe(7);
    expect(s.combatants.kit.hp).toBe(20);
    expect(s.combatants.ember.interceptOwed).toBe(true);
  });

  it('A65: an intercepted attack is an attack on the beast that took it — Ash’s own Obscured gives the wolf’s Bite on Ash no Setback once Ember intercepts it', () => {
    let e = close(inOrder([ember(), ash, wolf()], ['wolf', 'ember', 'ash'], 'wolf'), 'wolf', 'ash');
    e = then(e, { type: 'SetTag', combatantId: 'ash', tag: 'obscured' });
    // Bite 2 d6, no extra die: 6, 6 against Ember's Dodge 3 d8: none → 5.
    const out = exact(e, attack('wolf', 'ash', { intercept: true }), { dice: [6, 6, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      attack: { dice: 2, edge: 'none', setbackSources: [] },
      damage: 5,
    });
  });

  it('A62: "Flanking: Two allies on opposite sides both gain +1 attack die" flanks the wolf, not its guard — Ember’s Claw on the wolf that wolf2’s Guard takes gets no Flanking die', () => {
    let e = inOrder(
      [wolf('wolf2'), ember(), ash, pip, bo, wolf()],
      ['wolf2', 'ember', 'ash', 'pip', 'bo', 'wolf'],
      'wolf2',
    );
    e = closeAll(e, [
      ['wolf2', 'wolf'],
      ['ember', 'wolf'],
      ['pip', 'wolf'],
    ]);
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'flanking', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'pip', tag: 'flanking', againstId: 'wolf' });
    e = then(e, { type: 'Guard', combatantId: 'wolf2', allyId: 'wolf' });
    e = next(e, 'ember');
    // Claw 5 d8, no Flanking die: 4, 4 against wolf2's none → 7.
    const out = exact(e, claw('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'wolf2',
      attack: { dice: 5, bonuses: [] },
    });
  });

  it('"When two or more allied Arcana Beast target the same enemy on consecutive turns" and "At 0 HP": Ember, Knocked Out by wolf2 after its Claw on the wolf, still targeted it — Pip’s Claw on the next heroes’ turn continues the combo', () => {
    const f = [ember({ hp: 3 }), ash, wolf('wolf2'), pip, bo, wolf()];
    let e = inOrder(f, ['ember', 'ash', 'wolf2', 'pip', 'bo', 'wolf'], 'ember');
    e = closeAll(e, [
      ['ember', 'wolf'],
      ['wolf2', 'ember'],
      ['pip', 'wolf'],
    ]);
    // Claw 5 d8: 4, 4 against the wolf's none → 7.
    e = then(e, claw('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] });
    e = next(e, 'wolf2');
    // Bite 6, 6 against Ember's 3 d8: none → 5 ≥ 3 HP; Devolution from Stage 2: 8, 8 < Diff 3 → Stage 0.
    e = then(e, attack('wolf2', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [8, 8] });
    expect(stateOf(e).combatants.ember.knockedOut).toBe(true);
    e = next(e, 'pip');
    // Claw 4 d6 + the combo die: one success against none → 3 + 1 + 1 = 5.
    const out = exact(e, claw('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5 },
      combo: { position: 2, dieBonus: 1, damageBonus: 1 },
      damage: 5,
    });
  });

  it('"Combo Attacks … on consecutive turns" and "If beastbinder is targeted Arcana Beast can intercept (uses next Action)": the heroes’ turn whose Action Ember’s Intercept spent is still the heroes’ turn — Pip’s and Kit’s attacks on the wolf either side of it are no combo', () => {
    const f = [pip, bo, ember(), ash, kit(), wolf(), wolf('wolf2')];
    let e = inOrder(f, ['pip', 'bo', 'wolf2', 'ember', 'ash', 'kit', 'wolf'], 'pip');
    e = closeAll(e, [
      ['pip', 'wolf'],
      ['kit', 'wolf'],
      ['wolf2', 'ash'],
    ]);
    // Claw 4 d6: one success against none → 4.
    e = then(e, claw('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    e = next(e, 'wolf2');
    // Bite on Ash, intercepted: 0 successes against Ember's 0 — a miss.
    e = then(e, attack('wolf2', 'ash', { intercept: true }), { dice: [1, 1, 1, 1, 1] });
    e = next(e, 'ember');
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', action: 'forfeited' });
    e = next(e, 'kit');
    const out = exact(e, attack('kit', 'wolf'), { dice: [4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 2 },
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
      damage: 4,
    });
  });
});

describe('Evolution and Devolution in the middle of a combo', () => {
  const fighters = [ember(), ash, fang, rook, pip, bo];
  const order = ['ember', 'ash', 'fang', 'rook', 'pip', 'bo'];
  /** Ember's Claw on Fang (5 d8: 4, 4 against Fang's 3 d8: none → 7), then Fang's turn. */
  const opened = () => {
    let e = closeAll(inOrder(fighters, order, 'ember'), [
      ['ember', 'fang'],
      ['pip', 'fang'],
    ]);
    e = then(e, claw('ember', 'fang'), { dice: [4, 4, 1, 1, 1, 1, 1, 1] });
    return next(e, 'fang');
  };

  it('"Combos reset if the target acts" and "Call Back … (Devolve …)": Rook’s Call Back devolving Fang is a Command, not Fang acting (A46) — Pip’s Claw continues Ember’s combo, and Fang dodges on the d6 of the Stage it fell to', () => {
    let e = opened();
    // Devolution from Stage 2: Endurance 2 d8 with Boost (A3, A23), 8, 8, 8 → two kept, 2 successes < Diff 3: Stage 0.
    e = then(e, { type: 'CallBack', combatantId: 'rook', mode: 'devolve' }, { followUpFaces: [8, 8, 8] });
    expect(stateOf(e).combatants.fang).toMatchObject({ stage: 0, inVessel: false });
    e = then(e, { type: 'Pass', combatantId: 'fang' });
    e = next(e, 'pip');
    // Claw 4 d6 + the combo die = 5 d6: one success; Fang's Dodge 3 d6 (Stage 0): none → 3 + 1 + 1 = 5.
    const out = exact(e, claw('pip', 'fang'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, sides: 6 },
      dodge: { dice: 3, sides: 6 },
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 5,
    });
  });

  it('"Combos reset if the target acts" and "Evolving is immediate – does not take an Action": Fang evolving in its turn and Passing has not acted — Pip’s Claw continues the combo, and Fang dodges on the d10 of Stage 3', () => {
    let e = then(opened(), {
      type: 'SetTrigger',
      combatantId: 'fang',
      kind: 'stage',
      stage: 3,
      active: true,
    });
    e = then(e, { type: 'Evolve', combatantId: 'fang' });
    e = then(e, { type: 'Pass', combatantId: 'fang' });
    expect(types(e.slice(-3))).not.toContain('ComboReset');
    e = next(e, 'pip');
    // Claw 5 d6: one success; Fang's Dodge 3 d10: none → 3 + 1 + 1 = 5.
    const out = exact(e, claw('pip', 'fang'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 3, sides: 10 },
      combo: { position: 2, damageBonus: 1 },
      damage: 5,
    });
  });

  it('"Third consecutive hit deals +2 extra damage" and "Call Back … (Devolve …)": Ember devolved by Ash’s Call Back in its own turn still makes the third hit — on d6, Base Damage Brawn 3 + Stage 0, plus the combo’s +2', () => {
    const f = [pip, bo, kit(), ember(), ash, wolf('wolf', 30)];
    let e = inOrder(f, ['pip', 'bo', 'kit', 'ember', 'ash', 'wolf'], 'pip');
    e = closeAll(e, [
      ['pip', 'wolf'],
      ['kit', 'wolf'],
      ['ember', 'wolf'],
    ]);
    // Pip: 4 d6, one success against none → 4. Kit: 2 d6 + combo die, one success → 3 + 1 + 1 = 5.
    e = then(e, claw('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    e = next(e, 'kit');
    e = then(e, attack('kit', 'wolf'), { dice: [4, 1, 1, 1, 1] });
    e = next(e, 'ember');
    // Call Back (devolve) from Stage 2: 3 d8 with Boost, 8, 8, 8 → 2 successes kept < 3: Stage 0 (d6).
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'devolve' }, { followUpFaces: [8, 8, 8] });
    // Claw 5 d6 + the combo die = 6 d6: one success against none → Base (3 + 0) + 1 + 2 = 6.
    const out = exact(e, claw('ember', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, sides: 6 },
      baseDamage: 3,
      combo: { position: 3, dieBonus: 1, damageBonus: 2, hits: 3 },
      damage: 6,
    });
  });
});

describe('Knockout by a redirected attack: Critical Gauge, Harm and Devolution', () => {
  it('"At 0 HP: Add 1 to Critical Gauge, Gain a Harm, Stage 2+ PCs must Devolve" follow the Guard’s redirect: the wolf’s Critical on Pip knocks out Ember, its guard — Ember’s Harm, the Gauge to 3 (Minor Critical Move), Ember’s Devolution Test, rolled by Ember’s Binder', () => {
    const f = [ember({ hp: 5 }), ash, pip, bo, wolf()];
    let e = inOrder(f, ['ember', 'ash', 'pip', 'bo', 'wolf'], 'ember');
    e = [
      ...closeAll(e, [
        ['ember', 'pip'],
        ['wolf', 'pip'],
      ]),
      gaugeAt(2),
    ];
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = next(e, 'wolf');
    // Bite 2 d6 + 1 GM die (A30): 6, 6, 6 — 3 successes and a Critical; Ember's Dodge 3 d8: none.
    // Base (2 + 1)·2 + 3 = 9 ≥ 5 HP: Knocked Out. Devolution from Stage 2: Endurance 2 d8, 8, 8 < Diff 3: Stage 0.
    const command = attack('wolf', 'pip', { bonusDice: 1 });
    const out = exact(e, command, { dice: [6, 6, 6, 1, 1, 1], followUpFaces: [8, 8] });
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'CriticalMoveTriggered',
      'HarmGained',
      'DevolutionTested',
      'StageDevolved',
    ]);
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ember', critical: true, damage: 9 });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 2, to: 3 });
    expect(find(out, 'CriticalMoveTriggered')).toMatchObject({ threshold: 3, tier: 'minor' });
    expect(find(out, 'HarmGained')).toMatchObject({ combatantId: 'ember' });
    expect(find(out, 'StageDevolved')).toMatchObject({ combatantId: 'ember', from: 2, to: 0 });
    const s = stateOf([...e, ...out]);
    expect(s.combatants.pip).toMatchObject({ hp: 12, harms: [], knockedOut: false });
    // Without the test's faces, it is asked of Ember's controller, Ash — not Bo, whose beast was the declared target.
    const arcana = findSystem('arcana-beast')!;
    const dice = new ManualDice({ dice: [6, 6, 6, 1, 1, 1] });
    const asked = arcana.decide(stateOf(e), { ...command, dice: [6, 6, 6, 1, 1, 1] }, dice);
    expect(find(asked, 'DiceRequested')).toMatchObject({
      command: { type: 'DevolutionTest', combatantId: 'ember' },
      awaiting: 'ash',
    });
  });

  it('A35 and "Guard": a wild ally knocked out guarding Pip "simply drops out" — no Critical Gauge and no Harm, though the bite was declared on a player’s beast', () => {
    const f = [kit(3), pip, bo, wolf()];
    let e = closeAll(inOrder(f, ['kit', 'pip', 'bo', 'wolf'], 'kit'), [
      ['kit', 'pip'],
      ['wolf', 'pip'],
    ]);
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'pip' });
    e = next(e, 'wolf');
    // Bite 6, 6 against Kit's Dodge 2 d6: none → 3 + 2 = 5 ≥ 3 HP.
    const out = exact(e, attack('wolf', 'pip'), { dice: [6, 6, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt', 'KnockedOut']);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'kit', playerSide: false });
    const s = stateOf([...e, ...out]);
    expect(s.criticalGauge).toBe(0);
    expect(s.combatants.pip.harms).toEqual([]);
  });

  it('A62 with "At 0 HP": given Kit and Ember both guarding Pip, once Kit, first in the turn order, is Knocked Out by one bite, the next bite on Pip goes to Ember', () => {
    const f = [kit(3), ember(), ash, pip, bo, wolf(), wolf('wolf2')];
    let e = inOrder(f, ['kit', 'ember', 'ash', 'pip', 'bo', 'wolf', 'wolf2'], 'kit');
    e = closeAll(e, [
      ['kit', 'pip'],
      ['ember', 'pip'],
      ['wolf', 'pip'],
      ['wolf2', 'pip'],
    ]);
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'pip' });
    e = next(e, 'ember');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = next(e, 'wolf');
    e = then(e, attack('wolf', 'pip'), { dice: [6, 6, 1, 1] });
    expect(stateOf(e).combatants.kit.knockedOut).toBe(true);
    e = next(e, 'wolf2');
    // Bite 6, 6 against Ember's Dodge 3 d8: none → 5.
    const out = exact(e, attack('wolf2', 'pip'), { dice: [6, 6, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ember', redirectedBy: 'guard' });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ember', hp: 7 });
  });

  it('"Critical Hit … double base Damage" on a beast waiting on its Binder’s Encourage die and Defending: the Dodge gets both and spends the die; the Critical still knocks it out — Gauge, Harm, Devolution', () => {
    let e = close(
      inOrder([ember({ hp: 6 }), ash, wolf()], ['ember', 'ash', 'wolf'], 'ember'),
      'wolf',
      'ember',
    );
    // Encourage: Spirit 3 d6, one success passes Diff 1.
    e = then(e, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = next(e, 'wolf');
    // Bite 2 d6 + 2 GM dice: 6, 6, 6, 4 — 4 successes, a Critical. Ember's Dodge 3 + 1 (Encourage) d8 with Boost
    // (Defend): 4, 1, 1, 1, 1 → the lowest dropped: one success. (2 + 1)·2 + 3 = 9 ≥ 6 HP.
    const out = exact(e, attack('wolf', 'ember', { bonusDice: 2 }), {
      dice: [6, 6, 6, 4, 4, 1, 1, 1, 1],
      followUpFaces: [8, 8],
    });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Encourage', dice: 1 });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 4, edge: 'boost', boostSources: ['Defend'], successes: 1 },
      critical: true,
      damage: 9,
    });
    expect(types(out)).toEqual(
      expect.arrayContaining(['KnockedOut', 'CriticalGaugeRaised', 'HarmGained', 'DevolutionTested']),
    );
    const s = stateOf([...e, ...out]);
    expect(s.combatants.ember).toMatchObject({
      knockedOut: true,
      encourageDodge: 0,
      defending: false,
      stage: 0,
    });
    expect(s.criticalGauge).toBe(1);
  });

  it('A21 with A36: a beast whose Binder is Knocked Out still has its player — the Devolution Test of its own Knockout is asked of that Binder', () => {
    const f = [ember({ hp: 3 }), ash, wolf(), wolf('wolf2')];
    let e = closeAll(inOrder(f, ['wolf', 'wolf2', 'ember', 'ash'], 'wolf'), [
      ['wolf', 'ember'],
      ['wolf2', 'ember'],
    ]);
    // Bite 2 d6 + 5 GM dice, all 6s, against Ash's Dodge 2 d6: none — (2 + 1)·2 + 7 = 13 ≥ 10 HP.
    e = then(e, attack('wolf', 'ash', { intercept: false, bonusDice: 5 }), {
      dice: [6, 6, 6, 6, 6, 6, 6, 1, 1],
    });
    expect(stateOf(e).combatants.ash.knockedOut).toBe(true);
    e = next(e, 'wolf2');
    const arcana = findSystem('arcana-beast')!;
    const command = { ...attack('wolf2', 'ember'), dice: [6, 6, 1, 1, 1] };
    const out = arcana.decide(stateOf(e), command, new ManualDice(command));
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DiceRequested',
    ]);
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 1, to: 2 });
    expect(find(out, 'DiceRequested')).toMatchObject({ awaiting: 'ash' });
  });
});

describe('Waiting dice and redirects', () => {
  it('"Encourage: … +1 Dodge die" and "Guard": the die waits for Pip’s next Dodge — a bite Kit’s Guard takes is Kit’s Dodge, and Pip keeps the die', () => {
    let e = inOrder([pip, bo, kit(), wolf()], ['pip', 'bo', 'kit', 'wolf'], 'pip');
    e = closeAll(e, [
      ['kit', 'pip'],
      ['wolf', 'pip'],
    ]);
    // Encourage: Spirit 3 d6, one success.
    e = then(e, { type: 'Encourage', combatantId: 'bo', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Pass', combatantId: 'pip' });
    e = next(e, 'kit');
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'pip' });
    e = next(e, 'wolf');
    const out = exact(e, attack('wolf', 'pip'), { dice: [6, 6, 1, 1] });
    expect(types(out)).not.toContain('BonusDiceUsed');
    expect(find(out, 'AttackResolved')).toMatchObject({ dodge: { combatantId: 'kit', dice: 2 } });
    expect(stateOf([...e, ...out]).combatants.pip.encourageDodge).toBe(1);
  });

  it('"Assist: Help a Close ally’s next roll (+1 die)" and "Arcana Beast can intercept": Ember’s Dodge in Ash’s place is not Ash’s roll — Pip’s Assist die stays with Ash', () => {
    let e = inOrder([pip, bo, ember(), ash, wolf()], ['pip', 'bo', 'ember', 'ash', 'wolf'], 'pip');
    e = closeAll(e, [
      ['pip', 'ember'],
      ['wolf', 'ember'],
    ]);
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ash' });
    e = next(e, 'wolf');
    const out = exact(e, attack('wolf', 'ash', { intercept: true }), { dice: [6, 6, 1, 1, 1] });
    expect(types(out)).not.toContain('BonusDiceUsed');
    expect(find(out, 'AttackResolved')).toMatchObject({ dodge: { combatantId: 'ember', dice: 3 } });
    expect(stateOf([...e, ...out]).combatants.ash.assistDice).toBe(1);
  });
});

describe('Bond Surge, Stamina and Special Attack uses with other rules', () => {
  it('"Bond Surge: Boost on ALL rolls this turn, costs 1 Stamina" and "Use Special Attack: Costs a Special Attack Use": when the GM voids Ember’s Inferno on Rook while Fang’s Intercept is asked, the Stamina, the use and the Action stay spent, the Assist die waits; the scene’s end gives back the use only', () => {
    const f = [pip, bo, ember(), ash, fang, rook];
    let e = close(inOrder(f, ['pip', 'bo', 'ember', 'ash', 'fang', 'rook'], 'pip'), 'pip', 'ember');
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    e = next(e, 'ember');
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    e = then(e, {
      type: 'UseSpecialAttack',
      attackerId: 'ember',
      targetId: 'rook',
      specialAttackId: 'inferno',
    });
    expect(stateOf(e).pending).toMatchObject({ kind: 'intercept', awaiting: 'fang' });
    e = then(e, { type: 'CancelPending', reason: 'the GM rules Inferno cannot reach' });
    let s = stateOf(e);
    expect(s.combatants.ember).toMatchObject({ stamina: 1, specialUses: { inferno: 0 }, assistDice: 1 });
    expect(s.combatants.rook.hp).toBe(10);
    expect(refused(e, { type: 'Pass', combatantId: 'ember' }).code).toBe('ARCANA_ACTION_USED');
    // C7: uses reset per scene; Stamina never refreshes during a fight.
    e = then(e, { type: 'EndScene' });
    s = stateOf(e);
    expect(s.combatants.ember).toMatchObject({ stamina: 1, specialUses: { inferno: 1 } });
  });

  it('A3, A12: "Bond Surge: Boost on ALL rolls" with an Assist die on a Claw at the Obscured wolf — the +1 die stacks, the Boost and the Setback cancel; Direct cannot join it (one Command)', () => {
    let e = inOrder([pip, bo, ember(), ash, wolf()], ['pip', 'bo', 'ember', 'ash', 'wolf'], 'pip');
    e = closeAll(e, [
      ['pip', 'ember'],
      ['ember', 'wolf'],
    ]);
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    e = next(e, 'ember');
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    expect(refused(e, { type: 'Direct', combatantId: 'ash' }).code).toBe('ARCANA_COMMAND_USED');
    // Claw 5 + 1 (Assist) = 6 d8, no extra die: one success against none → 5 + 1 = 6.
    const out = exact(e, claw('ember', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: {
        dice: 6,
        edge: 'none',
        boostSources: ['Bond Surge'],
        setbackSources: ['Obscured'],
        bonuses: [{ source: 'Assist', dice: 1 }],
      },
      damage: 6,
    });
    expect(find(out, 'AttackResolved').attack.roll.faces).toHaveLength(6);
  });
});

describe('Positioning, movement and Guard in one turn', () => {
  it('"Guard: Redirect attacks on a Close ally" and "Move one band for free per turn": Ember guards Pip, then moves Near to it with its free move — the bite on Pip is Pip’s (A27: while both are Close)', () => {
    let e = inOrder([ember(), ash, pip, bo, wolf()], ['ember', 'ash', 'pip', 'bo', 'wolf'], 'ember');
    e = closeAll(e, [
      ['ember', 'pip'],
      ['wolf', 'pip'],
    ]);
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'pip', band: 'near' });
    e = next(e, 'wolf');
    // Bite 6, 6 against Pip's Dodge 4 d6: none → 5.
    const out = exact(e, attack('wolf', 'pip'), { dice: [6, 6, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'pip', dodge: { combatantId: 'pip' } });
    expect(find(out, 'AttackResolved').redirectedBy).toBeUndefined();
  });

  it('"High Ground: +1 die on attacks against targets below" and "Near … Move to Close for free": the free move to Close does not take High Ground away (A8, A50: tags are the GM’s) — the Claw after it gets the die', () => {
    let e = inOrder([ember(), ash, wolf()], ['ember', 'ash', 'wolf'], 'ember');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'highGround', againstId: 'wolf' });
    expect(refused(e, claw('ember', 'wolf')).code).toBe('ARCANA_OUT_OF_RANGE');
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    // Claw 5 + 1 (High Ground) = 6 d8: one success against none → 6.
    const out = exact(e, claw('ember', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, bonuses: [{ source: 'High Ground', dice: 1 }] },
      band: 'close',
    });
  });

  it('"Cornered: Cannot Reposition" and "Call Back … (Devolve/Retreat …)": a Cornered beast cannot Reposition, but its Binder’s Call Back is a Command, not a Reposition — it retreats into its vessel', () => {
    let e = close(inOrder([ember(), ash, wolf()], ['ember', 'ash', 'wolf'], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });
    expect(refused(e, { type: 'Reposition', combatantId: 'ember' }).code).toBe('ARCANA_CORNERED');
    // Devolution from Stage 2 with Boost: 3 d8, 8, 8, 8 → 2 successes kept: Stage 0.
    const out = exact(
      e,
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
      { followUpFaces: [8, 8, 8] },
    );
    expect(types(out)).toEqual(['BinderCommanded', 'CalledBack', 'DevolutionTested', 'StageDevolved']);
    expect(stateOf([...e, ...out]).combatants.ember.inVessel).toBe(true);
  });
});

describe('The end of the scene', () => {
  it('C4 and A45: EndScene while Ember’s Intercept is asked waits for the decision; the GM’s CancelPending voids the bite, and then the scene ends with the wolf’s turn and the round', () => {
    let e = close(inOrder([ember(), ash, wolf()], ['wolf', 'ember', 'ash'], 'wolf'), 'wolf', 'ember');
    e = then(e, attack('wolf', 'ash'));
    expect(refused(e, { type: 'EndScene' }).code).toBe('PENDING_DECISION');
    e = then(e, { type: 'CancelPending' });
    const out = exact(e, { type: 'EndScene' });
    expect(types(out)).toEqual(['ActivationEnded', 'RoundEnded', 'SceneEnded']);
    const s = stateOf([...e, ...out]);
    expect(s.pendingAttack).toBeUndefined();
    expect(s.combatants.ember).toMatchObject({ interceptOwed: false, hp: 12 });
  });

  it('A66: EndScene leaves the positions — tags, bands, difficult terrain and conditions stay until the GM changes them; a Cornered beast back from its vessel is still Cornered', () => {
    let e = inOrder([ember(), ash, wolf()], ['ember', 'ash', 'wolf'], 'ember');
    e = then(e, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far', difficultTerrain: 2 });
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cornered', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'Burning' });
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'retreat' }, { followUpFaces: [8, 8, 8] });
    e = then(e, { type: 'EndScene' });
    const s = stateOf(e);
    expect(s.combatants.ember).toMatchObject({
      inVessel: false,
      tags: [{ tag: 'cornered', againstId: 'wolf' }],
      conditions: ['Burning'],
    });
    expect(s.combatants.wolf.tags).toEqual([{ tag: 'obscured' }]);
    expect(s.bands['ember|wolf']).toBe('far');
    expect(s.terrain['ember|wolf']).toBe(2);
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(
      refused(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'near' }),
    ).toMatchObject({
      code: 'ARCANA_CORNERED',
      field: 'towardId',
    });
  });

  it('A67: "Highest Stage lasts one Combat Encounter" and "Devolution": given Ember evolved to Stage 3 and devolved by its Knockout to Stage 1, EndScene leaves it at Stage 1 — it does not go back up to Stage 2', () => {
    const tough = ember({ hp: 3, stats: { brawn: 3, agility: 2, endurance: 3, spirit: 2, technique: 2 } });
    let e = close(inOrder([tough, ash, wolf()], ['ember', 'ash', 'wolf'], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: true });
    e = then(e, { type: 'Evolve', combatantId: 'ember' });
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 3, revertTo: 2 });
    e = next(e, 'wolf');
    // Bite 6, 6 against Ember's Dodge 3 d10: none → 5 ≥ 3 HP. Devolution from Stage 3: Endurance 3 d10, 10, 10, 10:
    // 3 successes pass Diff 3 → Stage 1.
    e = then(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [10, 10, 10] });
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 1, knockedOut: true });
    const out = exact(e, { type: 'EndScene' });
    expect(types(out)).not.toContain('StageDevolved');
    expect(stateOf([...e, ...out]).combatants.ember).toMatchObject({ stage: 1, knockedOut: true });
  });
});
