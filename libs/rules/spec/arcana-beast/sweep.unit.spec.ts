/**
 * A sweep of arcana-beast.txt, sentence by sentence, for its restrictions, numbers and exceptions: each case is worked by
 * hand from the text (and RULINGS.md / docs/rulings*.md where they speak) and checked here, the hostile cases included
 * (several beasts, a Binder without its beast in the encounter, the same thing twice, the maximum).
 */
import { RuleEvent } from '../../src/core/types';
import { fightStarted } from '../given';
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

const newRound = (e: RuleEvent[], id: string) =>
  then(then(then(e, { type: 'EndActivation' }), { type: 'StartRound' }), {
    type: 'StartActivation',
    combatantId: id,
  });

/** Pip: Stage 1 (d6), Brawn 2, Agility 3: Claw 4 d6, Dodge 4 d6 (Agility 3 + Nimble 1). */
const pipSheet = party[2].sheet;
/** Kit: an allied beast with no Binder, Stage 1 (d6), Brawn 2, Agility 2: Bite 2 d6, Dodge 2 d6, 20 HP. */
const kitSheet = wild({ hp: 20 });

/** A fight whose turn order differs from its join order (the order a GM set, or initiative rolled). */
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

describe('arcana-beast.txt: Actions in Combat — Guard, Assist, Defend, Pass, with several beasts', () => {
  /** Joined Ember, Ash, Pip, Bo, Kit, wolf; the turn order puts Kit first. */
  const fighters: Fighter[] = [
    { id: 'ember', sheet: beast(), side: 'heroes' },
    { id: 'ash', sheet: binder('ember'), side: 'heroes' },
    { id: 'pip', sheet: pipSheet, side: 'heroes' },
    { id: 'bo', sheet: binder('pip'), side: 'heroes' },
    { id: 'kit', sheet: kitSheet, side: 'heroes' },
    { id: 'wolf', sheet: wild({ hp: 20 }), side: 'wild' },
  ];
  const order = ['kit', 'ember', 'ash', 'pip', 'bo', 'wolf'];

  it('A62: "Guard: Redirect attacks on a Close ally to yourself": given Kit and Ember both guarding Pip, the wolf’s bite on Pip goes to the guard first in the turn order (Kit), not to the first to have joined', () => {
    let e = inOrder(fighters, order, 'kit');
    for (const g of ['kit', 'ember']) e = close(e, g, 'pip');
    e = close(e, 'wolf', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'pip' });
    e = next(e, 'ember');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = next(next(e, 'pip'), 'wolf');
    // Bite 2 d6: 6, 6 against Kit's Dodge 2 d6: 1, 1 → 2 to 0: Base (2 + 1) + 2 = 5.
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [6, 6, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'kit',
      declaredTargetId: 'pip',
      redirectedBy: 'guard',
      dodge: { combatantId: 'kit', dice: 2 },
      damage: 5,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'kit', hp: 15 });
  });

  it('A62: a Guard redirects once: given Kit guarding Ember and Ember guarding Pip, the bite on Pip goes to Ember, and Kit does not take it from Ember', () => {
    let e = inOrder(fighters, order, 'kit');
    e = close(close(close(e, 'kit', 'ember'), 'ember', 'pip'), 'wolf', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'ember' });
    e = next(e, 'ember');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = next(next(e, 'pip'), 'wolf');
    // Bite 2 d6: 6, 6 against Ember's Dodge 3 d8 (Agility 2 + Nimble 1): 1, 1, 1 → 5 damage.
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [6, 6, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ember', declaredTargetId: 'pip' });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ember', hp: 7 });
  });

  it('A62: "Obscured: Attacks against you made with Setback": an attack a Guard redirects is an attack on the guard — the guarded ally’s Obscured gives no Setback, the guard’s Cornered does', () => {
    let e = inOrder(fighters, order, 'kit');
    e = close(close(e, 'kit', 'pip'), 'wolf', 'pip');
    e = then(e, { type: 'SetTag', combatantId: 'pip', tag: 'obscured' });
    e = then(e, { type: 'SetTag', combatantId: 'kit', tag: 'cornered' });
    e = then(e, { type: 'Guard', combatantId: 'kit', allyId: 'pip' });
    e = next(next(next(e, 'ember'), 'pip'), 'wolf');
    // Bite 2 d6 with no Setback: 6, 6; Kit's Dodge 2 d6 + the Cornered die, the highest dropped: 6, 1, 1 → 0.
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'pip' }, { dice: [6, 6, 6, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'kit',
      attack: { edge: 'none', successes: 2 },
      dodge: { edge: 'setback', setbackSources: ['Cornered'], successes: 0 },
      damage: 5,
    });
  });

  it('A27: "Guard … a Close ally": Ember may guard its own Binder (always Close, A17) — the bite on Ash goes to Ember, no Intercept is asked and Ember’s next Action is not spent', () => {
    let e = close(fight(party, 'ember'), 'wolf', 'ember');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'ash' });
    e = next(e, 'wolf');
    const out = exact(e, { type: 'Attack', attackerId: 'wolf', targetId: 'ash' }, { dice: [6, 6, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'AttackResolved')).toMatchObject({ targetId: 'ember', redirectedBy: 'guard' });
    expect(stateOf([...e, ...out]).combatants.ember.interceptOwed).toBe(false);
  });

  it('"Assist: Help a Close ally’s next roll (+1 die)": Ember may Assist its own Binder (always Close): Ash’s Encourage in their next shared turn rolls Spirit 3 + 1 = 4 d6', () => {
    const duo: Fighter[] = [party[0], party[1], { id: 'wolf', sheet: wild(), side: 'wild' }];
    let e = then(fight(duo, 'ember'), { type: 'Assist', combatantId: 'ember', allyId: 'ash' });
    expect(stateOf(e).combatants.ash.assistDice).toBe(1);
    e = newRound(next(e, 'wolf'), 'ember');
    const out = exact(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [1, 1, 1, 4] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ash', source: 'Assist', dice: 1 });
    expect(find(out, 'BinderCommanded').test).toMatchObject({ dice: 4, successes: 1, passed: true });
  });

  it('"Assist … (+1 die)" from two allies stacks (A3: "+1 die" effects stack): Ember’s and Kit’s Assists give Pip’s Claw 4 + 2 = 6 d6', () => {
    const team: Fighter[] = [fighters[0], fighters[1], fighters[4], fighters[2], fighters[3], fighters[5]];
    let e = fight(team, 'ember');
    e = close(close(close(e, 'ember', 'pip'), 'kit', 'pip'), 'pip', 'wolf');
    e = then(e, { type: 'Assist', combatantId: 'ember', allyId: 'pip' });
    e = then(next(e, 'kit'), { type: 'Assist', combatantId: 'kit', allyId: 'pip' });
    e = next(e, 'pip');
    // Claw 6 d6: 4, 1, 1, 1, 1, 1 against the wolf's 1, 1 → 1 to 0: Base (2 + 1) + 1 = 4.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [4, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'pip', source: 'Assist', dice: 2 });
    expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 6 }, damage: 4 });
  });

  it('"Defend: Boost on all Dodge rolls until next turn": the Dodge Ember makes intercepting an attack on Ash gets it too', () => {
    let e = close(fight(party, 'ember'), 'wolf', 'ember');
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = next(e, 'wolf');
    // Bite 4, 4 → 2; Ember's Dodge 3 d8 + the Boost die, the lowest dropped: 1, 5, 5, 5 → 3: a miss.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: true },
      { dice: [4, 4, 1, 5, 5, 5] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      targetId: 'ember',
      redirectedBy: 'intercept',
      dodge: { edge: 'boost', boostSources: ['Defend'], successes: 3 },
      outcome: 'miss',
    });
  });

  it('"On each turn, perform one Action and move one distance band free": after a Pass the free band move is still there', () => {
    let e = then(fight(party, 'ember'), { type: 'Pass', combatantId: 'ember' });
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(stateOf(e).turn).toMatchObject({ action: 'pass', freeMoveUsed: true });
    expect(refused(e, { type: 'Defend', combatantId: 'ember' }).code).toBe('ARCANA_ACTION_USED');
  });
});

describe('arcana-beast.txt: Beast Binder Commands and the Intercept', () => {
  const duo: Fighter[] = [party[0], party[1], { id: 'wolf', sheet: wild({ hp: 20 }), side: 'wild' }];

  it('"Direct: Arcana Beast’s action gains +1 die": Direct then Use Special Attack — Inferno rolls Agility 2 + Rank 2 + 1 = 5 d8 and spends its one use', () => {
    let e = then(fight(duo, 'ember'), { type: 'Direct', combatantId: 'ash' });
    // Inferno (long range) reaches the wolf at Near; 4, 1, 1, 1, 1 against 1, 1: Base 5 + 1 + bonus 1 = 7.
    const out = exact(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'SpecialAttackUsed')).toEqual({
      combatantId: 'ember',
      specialAttackId: 'inferno',
      usesLeft: 0,
    });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, bonuses: [{ source: 'Direct', dice: 1 }] },
      damage: 7,
    });
    e = [...e, ...out];
    expect(
      refused(newRound(next(e, 'wolf'), 'ember'), {
        type: 'UseSpecialAttack',
        attackerId: 'ember',
        targetId: 'wolf',
        specialAttackId: 'inferno',
      }).code,
    ).toBe('ARCANA_NO_USES_LEFT');
  });

  it('"Direct: … action gains +1 die (no roll)" is for this turn’s Action: given to an Assist (no roll), it goes nowhere and does not wait for the next turn’s Claw', () => {
    let e = close(fight(duo, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'Direct', combatantId: 'ash' });
    e = then(e, { type: 'Assist', combatantId: 'ember', allyId: 'ash' });
    e = newRound(next(e, 'wolf'), 'ember');
    expect(stateOf(e).turn).toMatchObject({ directed: false });
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 5, bonuses: [] } });
  });

  it('"Encourage: … +1 Dodge die" twice before any Dodge: both dice wait, and the next Dodge rolls Agility 2 + Nimble 1 + 2 = 5 d8 (A3 stacking, A26)', () => {
    let e = close(fight(duo, 'ember'), 'ember', 'wolf');
    // Spirit 3 d6, Diff 1: 4, 1, 1 passes, each time.
    e = then(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    e = newRound(next(e, 'wolf'), 'ember');
    e = then(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    expect(stateOf(e).combatants.ember.encourageDodge).toBe(2);
    e = next(e, 'wolf');
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Encourage', dice: 2 });
    expect(find(out, 'AttackResolved').dodge).toMatchObject({ dice: 5 });
  });

  it('"Bond Surge: Boost on ALL rolls this turn": the free move’s difficult-terrain Agility Test gets the Boost too', () => {
    let e = then(fight(duo, 'ember'), {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 1,
    });
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    // Agility 2 d8 + the Boost die, the lowest dropped: 1, 4, 1 → kept 4, 1: 1 success, Diff 1 passes.
    const out = exact(
      e,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      { dice: [1, 4, 1] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      to: 'close',
      test: { edge: 'boost', boostSources: ['Bond Surge'], dice: 2, successes: 1, passed: true },
    });
  });

  it('A21, A23: "Direct", "Strategize" and "Bond Surge" need the beast in the encounter: with Ember in its vessel, Ash’s turn has Use Item only — on itself', () => {
    let e = then(
      fight(party, 'ember'),
      { type: 'CallBack', combatantId: 'ash' },
      { followUpFaces: [4, 4, 1] },
    );
    e = newRound(next(next(next(e, 'pip'), 'wolf'), 'wolf2'), 'ember');
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    for (const type of ['Direct', 'Strategize', 'BondSurge'])
      expect(refused(e, { type, combatantId: 'ash' }, { dice: [4, 4] })).toMatchObject({
        code: 'ARCANA_COMBATANT_OUT',
        field: 'type',
      });
    expect(stateOf(e).combatants.ember.stamina).toBe(2);
    expect(
      types(exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion', targetId: 'ash' })),
    ).toEqual(['BinderCommanded', 'ItemUsed']);
  });

  it('"Use Item: Spend Stuff from the Binder’s inventory": a Potion on a beast at full HP is spent and heals nothing (A33: up to the maximum)', () => {
    const out = exact(fight(party, 'ember'), { type: 'UseItem', combatantId: 'ash', itemId: 'potion' });
    expect(types(out)).toEqual(['BinderCommanded', 'ItemUsed']);
    expect(find(out, 'ItemUsed')).toMatchObject({ quantityLeft: 0, targetId: 'ember' });
  });

  it('"If beastbinder is targeted Arcana Beast can intercept (uses next Action)": a beast that already owes its next Action cannot intercept a second attack — it strikes Ash, no one is asked (A22)', () => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      { id: 'wolf2', sheet: wild(), side: 'wild' },
      party[0],
      party[1],
    ];
    let e = close(close(fight(fighters, 'wolf'), 'wolf', 'ember'), 'wolf2', 'ember');
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: true },
      { dice: [1, 1, 1, 1, 1] },
    );
    expect(stateOf(e).combatants.ember.interceptOwed).toBe(true);
    e = next(e, 'wolf2');
    // Bite 4, 1 against Ash's Dodge 2 d6: 1, 1 → 1 to 0: 3 + 1 = 4.
    const out = exact(e, { type: 'Attack', attackerId: 'wolf2', targetId: 'ash' }, { dice: [4, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ash', hp: 6 });
    expect(stateOf([...e, ...out]).pending).toBeUndefined();
  });

  it('A22: "Use Special Attack: Costs a Special Attack Use": an attack on a Binder the GM voids while its Intercept is asked keeps its use spent, as its Action', () => {
    const fighters: Fighter[] = [
      party[0],
      party[1],
      { id: 'fang', sheet: wild(), side: 'rivals' },
      { id: 'rook', sheet: binder('fang'), side: 'rivals' },
    ];
    let e = then(fight(fighters, 'ember'), {
      type: 'UseSpecialAttack',
      attackerId: 'ember',
      targetId: 'rook',
      specialAttackId: 'inferno',
    });
    expect(stateOf(e).pending).toMatchObject({ kind: 'intercept', awaiting: 'fang' });
    e = then(e, { type: 'CancelPending', reason: 'the GM voids it' });
    expect(stateOf(e).combatants.ember.specialUses).toEqual({ inferno: 0 });
    expect(stateOf(e).turn).toMatchObject({ action: 'specialAttack' });
  });
});

describe('arcana-beast.txt: Combo Attacks, Movement, Evolution — the edges', () => {
  it('"Combos reset if the target acts between allied attacks": a wolf whose turn is only its free band move has not acted (A10) — Pip’s Claw continues Ember’s combo', () => {
    const fighters: Fighter[] = [
      party[0],
      party[1],
      { id: 'wolf', sheet: wild({ hp: 20 }), side: 'wild' },
      party[2],
      party[3],
    ];
    let e = close(fight(fighters, 'ember'), 'ember', 'wolf');
    // Claw 5 d8: 4, 1, 1, 1, 1 against 1, 1: 5 + 1 = 6.
    e = then(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    e = next(e, 'wolf');
    e = then(e, { type: 'Move', combatantId: 'wolf', towardId: 'pip', band: 'close' });
    e = next(e, 'pip');
    // Claw 4 d6 + the combo die: 4, 1, 1, 1, 1 against 1, 1: (2 + 1) + 1 + 1 for the second hit = 5.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [4, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).not.toContain('ComboReset');
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 5,
    });
  });

  it('"Move one band for free per turn" either way: Close → Near away from the wolf is free; "Far … Requires Reposition action to move" is about leaving Far, so Near → Far is free too (A14)', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    const away = exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' });
    expect(find(away, 'Moved')).toMatchObject({ from: 'close', to: 'near', by: 'free' });
    e = fight(party, 'ember');
    const out = exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'far' });
    expect(find(out, 'Moved')).toMatchObject({ from: 'near', to: 'far', by: 'free' });
  });

  it('"Evolving is immediate – does not take an Action": a beast whose Action an Intercept spent still Evolves in its turn', () => {
    const fighters: Fighter[] = [{ id: 'wolf', sheet: wild(), side: 'wild' }, party[0], party[1]];
    let e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: true },
      { dice: [1, 1, 1, 1, 1] },
    );
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3 });
    e = next(e, 'ember');
    expect(stateOf(e).turn).toMatchObject({ action: 'forfeited' });
    const out = exact(e, { type: 'Evolve', combatantId: 'ember' });
    expect(find(out, 'StageEvolved')).toMatchObject({ from: 2, to: 3, highest: true });
  });

  it('"Evolve: Transform to higher stage": at Stage 4, the maximum, there is none — refused even with the trigger marked', () => {
    const top = beast({ stage: 4, stages: [{ stage: 3 }, { stage: 4, trigger: 'roar' }] });
    let e = fight(
      [
        { id: 'ember', sheet: top, side: 'h' },
        { id: 'wolf', sheet: wild(), side: 'w' },
      ],
      'ember',
    );
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 4 });
    expect(refused(e, { type: 'Evolve', combatantId: 'ember' })).toMatchObject({
      code: 'ARCANA_NOT_HIGHER_STAGE',
      field: 'stage',
    });
  });

  it('"Cover: +1 die on Dodge vs ranged attacks": a ranged attack made at Close is still ranged — the wolf’s Cover adds its die', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cover' });
    // Spark: Agility 2 d8; the wolf's Dodge 2 d6 + Cover.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'spark' },
      { dice: [4, 4, 4, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      band: 'close',
      range: 'ranged',
      dodge: { dice: 3, bonuses: [{ source: 'Cover', dice: 1 }] },
      outcome: 'hit',
    });
  });
});

describe('arcana-beast.txt: Initiative & Turn Order — a beast Knocked Out from the start', () => {
  it('A63: "Roll Opposed Test using Arcana Beast’s Initiative" is every beast’s: a wolf that joined Knocked Out rolls too, so when it is healed and returns at the encounter’s end (A24) its turn comes in the fixed order', () => {
    const setup = [
      fightStarted('arcana-beast'),
      ...[
        party[0],
        party[1],
        { id: 'wolf', sheet: wild(), side: 'w' },
        { id: 'wolf2', sheet: wild({ hp: 0, maxHp: 8 }), side: 'w' },
      ].map(joined),
    ];
    // Ember Agility 2 d8: 4, 4 → 2; the wolf 2 d6: 4, 1 → 1; the Knocked Out wolf2: 1, 1 → 0.
    const rolled = exact(setup, { type: 'RollInitiative' }, { dice: [4, 4, 4, 1, 1, 1] });
    expect(find(rolled, 'InitiativeRolled').order).toEqual(['ember', 'ash', 'wolf', 'wolf2']);
    let e = then(then([...setup, ...rolled], { type: 'StartRound' }), { type: 'StartActivation' });
    // While Knocked Out it gets no turn: after the wolf, the round is over.
    e = then(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion', targetId: 'wolf2' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(find(e.slice(-2), 'ActivationStarted')).toMatchObject({ combatantId: 'wolf' });
    expect(types(exact(e, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
    e = then(e, { type: 'EndScene' });
    expect(find(e.slice(-1), 'SceneEnded')).toEqual({ revived: ['wolf2'] });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(find(e.slice(-2), 'ActivationStarted')).toMatchObject({ combatantId: 'wolf2' });
  });
});

describe('arcana-beast.txt: Knocked Out and removed combatants, and the same thing twice', () => {
  it('"Assist: Help a Close ally’s next roll" and "Guard … a Close ally": a Knocked Out ally can be neither (A13: out of the encounter); a removed one is not in the fight', () => {
    const fighters: Fighter[] = [
      party[0],
      party[1],
      { id: 'kit', sheet: wild({ hp: 0, maxHp: 8 }), side: 'heroes' },
      { id: 'pip', sheet: pipSheet, side: 'heroes' },
      { id: 'wolf', sheet: wild(), side: 'wild' },
    ];
    let e = close(close(fight(fighters, 'ember'), 'ember', 'kit'), 'ember', 'pip');
    for (const type of ['Assist', 'Guard'])
      expect(refused(e, { type, combatantId: 'ember', allyId: 'kit' })).toMatchObject({
        code: 'ARCANA_COMBATANT_OUT',
        field: 'allyId',
      });
    e = then(e, { type: 'RemoveCombatant', combatantId: 'pip' });
    expect(refused(e, { type: 'Assist', combatantId: 'ember', allyId: 'pip' })).toMatchObject({
      code: 'COMBATANT_NOT_FOUND',
      field: 'allyId',
    });
  });

  it('"Use Zero Power: Once per scene when trigger is active": a trigger the GM has marked and then cleared is not active — refused', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower' });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: false });
    expect(refused(e, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' })).toMatchObject({
      code: 'ARCANA_TRIGGER_NOT_ACTIVE',
    });
  });

  it('"At 0 HP: Add 1 to Critical Gauge, Gain a Harm" each time: Ash knocked out, healed by Bo, back after the encounter and knocked out again has two Harms and the Gauge at 2', () => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      party[0],
      { id: 'ash', sheet: binder('ember', { hp: 2, maxHp: 10 }), side: 'heroes' },
      party[2],
      party[3],
    ];
    const bite = { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false };
    let e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    // Bite 6, 6 against Ash's Dodge 1, 1: 3 + 2 = 5 damage.
    e = then(e, bite, { dice: [6, 6, 1, 1] });
    e = then(next(next(e, 'ember'), 'pip'), {
      type: 'UseItem',
      combatantId: 'bo',
      itemId: 'potion',
      targetId: 'ash',
    });
    expect(stateOf(e).combatants.ash).toMatchObject({ hp: 4, knockedOut: true });
    e = then(e, { type: 'EndScene' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'wolf' });
    const out = exact(e, bite, { dice: [6, 6, 1, 1] });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ash', from: 1, to: 2 });
    expect(stateOf([...e, ...out]).combatants.ash).toMatchObject({
      knockedOut: true,
      harms: ['Harm (reduced to 0 HP)', 'Harm (reduced to 0 HP)'],
    });
  });
});
