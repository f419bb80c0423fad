/**
 * Numbers worked by hand from arcana-beast.txt with manual dice (every face is given, every count and total is the
 * text's), and what the GM's corrections (a combatant removed or added, a pending decision cancelled, an undo, the end
 * of the fight) leave in the state and in the view a client shows. An undo (C8) is the fold of the events it does not
 * take back, so here it is the history without the undone command's events.
 */
import { RuleEvent } from '../../src/core/types';
import { view } from '../../src/arcana-beast/view';
import { TEST_SEED } from '../given';
import {
  ash,
  attack,
  binder,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  find,
  next,
  party,
  pip,
  refused,
  stateOf,
  then,
  types,
  wolf,
} from './helpers';

/** The next round's turn of `id`, after the running turn (the round's last) ends. */
const nextRound = (e: RuleEvent[], id: string): RuleEvent[] =>
  then(then(end(e), { type: 'StartRound' }), { type: 'StartActivation', combatantId: id });
const viewOf = (e: RuleEvent[]) => view(stateOf(e));
const beastView = (e: RuleEvent[], id: string) => {
  const c = viewOf(e).combatants.find((x) => x.id === id);
  if (!c || c.kind !== 'beast') throw new Error(`no beast ${id} in the view`);
  return c;
};

describe('arcana-beast.txt: Attack & Damage, the numbers by hand', () => {
  it('"Use Zero Power" with "Direct: Arcana Beast\'s action gains +1 die": Brawn 3 + Ranks 3 + 1 = 7 d8; 8, 7, 6 are a Critical: (3 + 2)·2 + 3 = 13', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower' });
    e = then(e, { type: 'Direct', combatantId: 'ash' });
    // "Build pool: Stat + Quality/Attack Ranks + modifiers": Zero Flare is melee (Brawn 3) with Ranks 3, + Direct.
    // Kept faces 8, 7, 6, 4, 2, 1, 1: 4 successes (4+), three of 6+. The wolf's Dodge, Agility 2 d6: 4, 1 = 1.
    const out = exact(
      e,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      { dice: [8, 7, 6, 4, 2, 1, 1, 4, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      action: 'zeroPower',
      attack: { dice: 7, sides: 8, successes: 4, sixes: 3, bonuses: [{ source: 'Direct', dice: 1 }] },
      dodge: { dice: 2, sides: 6, successes: 1 },
      critical: true,
      baseDamage: 5,
      extraSuccesses: 3,
      damage: 13,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ hpBefore: 20, hp: 7 });
    expect(beastView([...e, ...out], 'ember').zeroPower).toMatchObject({ used: true, triggerActive: true });
  });

  it('"Obscured: Attacks against you made with Setback" at Stage 3: the dropped 10 does not count, and 9, 8, 7 still make a Critical: (3 + 3)·2 + 3 = 15', () => {
    let e = close(fight([ember({ stage: 3 }), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    // Claw: Brawn 3 + Rank 1 + Claws 1 = 5 d10, + 1 for the Setback: 10, 9, 8, 7, 2, 1 → drop the 10.
    // Kept 9, 8, 7, 2, 1: 3 successes, three 6+. The wolf's Dodge 1, 1: none. Base Damage Brawn 3 + Stage 3 = 6.
    const out = exact(e, attack('ember', 'wolf'), { dice: [10, 9, 8, 7, 2, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: {
        dice: 5,
        sides: 10,
        edge: 'setback',
        dropped: { index: 0, face: 10 },
        successes: 3,
        sixes: 3,
      },
      critical: true,
      baseDamage: 6,
      damage: 15,
    });
  });

  it('"Bond Surge: Boost on ALL rolls this turn" against "Obscured: … Setback": one of each cancels (A3), the Claw rolls its 5 d8 alone, and Bond Surge still costs 1 of 2 Stamina', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    const surge = exact(e, { type: 'BondSurge', combatantId: 'ash' });
    expect(find(surge, 'StaminaSpent')).toEqual({ combatantId: 'ember', amount: 1, stamina: 1 });
    e = [...e, ...surge];
    expect(beastView(e, 'ember').stamina).toBe(1);
    // 5 d8 with no extra die: 6, 5, 4, 3, 2 = 3 successes (one 6+); Dodge 4, 4 = 2. Hit by 1: 5 + 1 = 6.
    const out = exact(e, attack('ember', 'wolf'), { dice: [6, 5, 4, 3, 2, 4, 4] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: {
        dice: 5,
        edge: 'none',
        boostSources: ['Bond Surge'],
        setbackSources: ['Obscured'],
        successes: 3,
      },
      dodge: { successes: 2 },
      critical: false,
      damage: 6,
    });
  });

  it('"If both hit, second attack deals +1 extra damage" with a Critical on the second: (3 + 2)·2 + 3 + 1 = 14, after Pip\'s 3 + 1 = 4', () => {
    // Pip's turn, then Ember's: the heroes' consecutive turns.
    let e = close(
      close(fight([pip, bo, ember(), ash, wolf('wolf', 20)], 'pip'), 'pip', 'wolf'),
      'ember',
      'wolf',
    );
    // Pip's Claw: Brawn 2 + Rank 1 + Claws 1 = 4 d6: 4, 1, 1, 1 = 1 against 1, 1 = 0. Base 2 + 1 = 3, + 1 = 4.
    let out = exact(e, attack('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
      damage: 4,
    });
    e = next([...e, ...out], 'ember');
    // "Second attacker gains +1 die": 5 + 1 = 6 d8: 8, 8, 8, 1, 1, 1 = 3 successes, three 6+; Dodge 1, 1.
    out = exact(e, attack('ember', 'wolf'), { dice: [8, 8, 8, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, successes: 3, sixes: 3 },
      critical: true,
      combo: { position: 2, dieBonus: 1, damageBonus: 1, hits: 2 },
      damage: 14,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ hpBefore: 16, hp: 2 });
  });
});

describe('arcana-beast.txt: Tests and resources at their bounds, by hand', () => {
  it('"From Stage 1: Endurance Test Diff 2 pass = stay": exactly 2 successes of 2 d6 keep Stage 1; 4, 3 is one short: Stage 0', () => {
    const low = ember({ stage: 1, hp: 3, stages: [{ stage: 0 }, { stage: 1 }] });
    const e = close(fight([wolf('wolf', 20), low, ash], 'wolf'), 'wolf', 'ember');
    // The Bite: Brawn 2 d6 6, 6 = 2 against Ember's Dodge (Agility 2 + Nimble 1) 3 d6 1, 1, 1: (2 + 1) + 2 = 5 ≥ 3 HP.
    const pass = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [4, 4] });
    expect(find(pass, 'DevolutionTested')).toMatchObject({
      stageBefore: 1,
      test: { dice: 2, sides: 6, successes: 2, difficulty: 2, passed: true },
      stageAfter: 1,
    });
    expect(types(pass)).not.toContain('StageDevolved');
    const fail = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [4, 3] });
    expect(find(fail, 'DevolutionTested')).toMatchObject({
      test: { successes: 1, passed: false },
      stageAfter: 0,
    });
    expect(find(fail, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 1,
      to: 0,
      reason: 'knockedOut',
    });
    // "At 0 HP: Add 1 to Critical Gauge, Gain a Harm", and the view says so.
    const v = viewOf([...e, ...fail]);
    expect(v.criticalGauge).toBe(1);
    expect(beastView([...e, ...fail], 'ember')).toMatchObject({
      state: 'KnockedOut',
      hp: 0,
      stage: 0,
      dieSides: 6,
    });
    expect(beastView([...e, ...fail], 'ember').harms).toHaveLength(1);
  });

  it('"Difficult terrain may require Agility Test" (A19) at Difficulty 3: exactly 3 successes of Pip\'s 3 d6 pass; 6, 5, 3 fail and spend the free move', () => {
    let e = fight([pip, bo, wolf('wolf', 20)], 'pip');
    e = then(e, { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'near', difficultTerrain: 3 });
    const move = { type: 'Move', combatantId: 'pip', towardId: 'wolf', band: 'close' };
    const pass = exact(e, move, { dice: [4, 5, 6] });
    expect(find(pass, 'Moved')).toMatchObject({
      to: 'close',
      test: { dice: 3, successes: 3, difficulty: 3, passed: true },
    });
    const fail = exact(e, move, { dice: [6, 5, 3] });
    expect(find(fail, 'Moved')).toMatchObject({
      to: 'near',
      stopped: true,
      test: { successes: 2, passed: false },
    });
    const after = [...e, ...fail];
    expect(viewOf(after).turn).toMatchObject({ freeMoveUsed: true });
    expect(refused(after, move)).toMatchObject({ code: 'ARCANA_FREE_MOVE_USED' });
  });

  it('"Strategize (Technique Test, Diff 2)": exactly 2 successes of Technique 2 d6 pass, and the view shows it', () => {
    const e = fight([ember(), ash, wolf()], 'ember');
    const out = exact(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 4] });
    expect(find(out, 'BinderCommanded')).toMatchObject({
      test: { dice: 2, sides: 6, successes: 2 },
      passed: true,
    });
    expect(viewOf([...e, ...out]).turn).toMatchObject({ command: 'strategize', strategized: true });
  });

  it('"Encourage: +1 Dodge die (Spirit Test, Diff 1)": one success of Spirit 3 d6 passes; the die waits in the view and the next Dodge rolls 3 + 1 = 4 d8', () => {
    let e = fight([ember(), ash, wolf('wolf', 20)], 'ember');
    e = then(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    expect(beastView(e, 'ember').encourageDodge).toBe(1);
    e = close(next(e, 'wolf'), 'wolf', 'ember');
    // The Bite 2 d6: 4, 4 = 2; Ember's Dodge 4 d8: 4, 4, 1, 1 = 2 — "Miss: Defender equals".
    const out = exact(e, attack('wolf', 'ember'), { dice: [4, 4, 4, 4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 4, sides: 8, successes: 2 },
      outcome: 'miss',
      damage: 0,
    });
    expect(beastView([...e, ...out], 'ember').encourageDodge).toBe(0);
  });

  it('"Use Item: Spend Stuff": a tonic of 2 Stamina on a beast at 1 of 2 restores 1 (the maximum, A33); its last one spent, the next is refused', () => {
    const tonic = { id: 'tonic', name: 'Tonic', stamina: 2 };
    let e = fight(
      [
        ember({ stamina: 1, maxStamina: 2 }),
        { ...ash, sheet: binder('ember', { inventory: [tonic] }) },
        wolf(),
      ],
      'ember',
    );
    const out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'tonic' });
    expect(find(out, 'StaminaRestored')).toEqual({ combatantId: 'ember', amount: 1, stamina: 2 });
    expect(find(out, 'ItemUsed')).toMatchObject({ quantityLeft: 0 });
    e = [...e, ...out];
    const ashView = viewOf(e).combatants.find((c) => c.id === 'ash');
    expect(ashView).toMatchObject({ inventory: [{ id: 'tonic', quantityLeft: 0 }] });
    e = nextRound(next(e, 'wolf'), 'ember');
    expect(refused(e, { type: 'UseItem', combatantId: 'ash', itemId: 'tonic' })).toMatchObject({
      code: 'ARCANA_ITEM_SPENT',
    });
  });

  it('"Use Special Attack: Costs a Special Attack Use": Inferno\'s one use spent, the view shows 0 left and the next is refused; EndScene gives it back (C7)', () => {
    let e = fight([ember(), ash, wolf('wolf', 30)], 'ember');
    // Inferno: long range, Agility 2 + Ranks 2 = 4 d8 from Near: 1, 1, 1, 1 against 1, 1: a miss, the use is spent.
    e = then(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [1, 1, 1, 1, 1, 1] },
    );
    expect(beastView(e, 'ember').specialAttacks).toEqual([
      {
        id: 'inferno',
        name: 'Inferno',
        range: 'long',
        uses: 1,
        usesLeft: 0,
        bonusDamage: 1,
        stat: 'agility',
        ranks: 2,
        qualities: [],
      },
    ]);
    e = nextRound(next(e, 'wolf'), 'ember');
    expect(
      refused(e, {
        type: 'UseSpecialAttack',
        attackerId: 'ember',
        targetId: 'wolf',
        specialAttackId: 'inferno',
      }),
    ).toMatchObject({
      code: 'ARCANA_NO_USES_LEFT',
    });
    e = then(e, { type: 'EndScene' });
    expect(beastView(e, 'ember').specialAttacks[0].usesLeft).toBe(1);
  });
});

describe('the GM’s corrections and the view', () => {
  it('A61: "Beast Binder Placement: Shares turn with Arcana Beast": given Ember’s turn running, when Ash leaves the fight, then the view names no Binder in the turn nor on Ember, as the engine takes no Command from Ash', () => {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    expect(viewOf(e).turn).toMatchObject({ beastId: 'ember', binderId: 'ash' });
    e = then(e, { type: 'RemoveCombatant', combatantId: 'ash' });
    expect(refused(e, { type: 'Direct', combatantId: 'ash' })).toMatchObject({ code: 'COMBATANT_NOT_FOUND' });
    expect(viewOf(e).turn).not.toHaveProperty('binderId');
    // A35: a beast whose Binder has left is no wild beast (it still devolves at 0 HP), but it has no Binder now.
    expect(beastView(e, 'ember')).toMatchObject({ binderId: null, wild: false });
    // The beast's own turn goes on (A61): its Action and its free move are still there.
    expect(viewOf(e).turn).toMatchObject({ beastId: 'ember', freeMoveUsed: false });
    expect(viewOf(e).turn?.action).toBeUndefined();
  });

  it('A21: "a Binder at 0 HP gives no Command": given Ash Knocked Out, when Ember’s turn starts, then the view’s turn names no Binder to give one, and the engine refuses Ash’s', () => {
    const fighters = [wolf('wolf', 20), ember(), { ...ash, sheet: binder('ember', { hp: 3 }) }];
    let e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    // The Bite 6, 6 against Ash's Dodge (Agility 2 d6) 1, 1: (2 + 1) + 2 = 5 ≥ 3 HP.
    e = then(e, { ...attack('wolf', 'ash'), intercept: false }, { dice: [6, 6, 1, 1] });
    e = next(e, 'ember');
    expect(refused(e, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
    });
    expect(viewOf(e).turn).toMatchObject({ beastId: 'ember' });
    expect(viewOf(e).turn).not.toHaveProperty('binderId');
    // Ash is still Ember's Binder (A21: Knocked Out, not gone).
    expect(beastView(e, 'ember').binderId).toBe('ash');
  });

  it('A22: "The attack on a Binder waiting for the pending intercept; null otherwise": given an Intercept pending, when the GM ends the fight, then the view shows no attack waiting', () => {
    let e = close(fight(party, 'wolf'), 'wolf', 'ember');
    e = then(e, attack('wolf', 'ash'));
    expect(viewOf(e).pendingAttack).toMatchObject({ attackNo: 1, targetId: 'ash' });
    e = then(e, { type: 'EndFight', revealedSeed: TEST_SEED });
    expect(viewOf(e)).toMatchObject({ status: 'ended', pending: null, pendingAttack: null });
  });

  it('A22: "A GM CancelPending voids the attack": the voided attack keeps its number, so the next attack of the fight is number 2 and its damage names it', () => {
    let e = close(close(fight(party, 'wolf'), 'wolf', 'ember'), 'wolf2', 'pip');
    e = then(e, attack('wolf', 'ash'));
    e = then(e, { type: 'CancelPending' });
    e = next(e, 'wolf2');
    // The Bite 6, 6 against Pip's Dodge (Agility 3 + Nimble 1) 4 d6 1, 1, 1, 1: (2 + 1) + 2 = 5.
    const out = exact(e, attack('wolf2', 'pip'), { dice: [6, 6, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ attackNo: 2, damage: 5 });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'pip', attackNo: 2 });
  });

  it('C11: "once RemoveCombatant has taken a combatant out, … nothing the fight still keeps under it (… combo chains, Guards …)": the view shows no combo on a removed target and no Guard of a removed ally', () => {
    let e = close(
      close(fight([pip, bo, ember(), ash, wolf('wolf', 20)], 'pip'), 'pip', 'wolf'),
      'pip',
      'ember',
    );
    // Pip's Claw 4 d6: 4, 1, 1, 1 = 1 against the wolf's 1, 1: a hit, the heroes' chain on the wolf starts.
    e = then(e, attack('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    e = next(e, 'ember');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    expect(viewOf(e).combos).toHaveProperty('wolf');
    expect(beastView(e, 'ember').guarding).toBe('pip');
    e = then(then(e, { type: 'RemoveCombatant', combatantId: 'wolf' }), {
      type: 'RemoveCombatant',
      combatantId: 'pip',
    });
    expect(viewOf(e).combos).toEqual({});
    expect(beastView(e, 'ember').guarding).toBeNull();
  });
});

describe('C8: an undo across a round boundary, and one that takes back a Knockout', () => {
  it('"Defend: Boost on all Dodge rolls until next turn": Ember’s next turn ends it; undoing that turn’s start (and the round’s) gives it back, and the view shows it again', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = next(e, 'wolf');
    const beforeRound2 = end(e);
    expect(viewOf(beforeRound2)).toMatchObject({ roundOpen: false });
    const round2 = then(then(beforeRound2, { type: 'StartRound' }), {
      type: 'StartActivation',
      combatantId: 'ember',
    });
    expect(beastView(round2, 'ember').defending).toBe(false);
    // C8: the state is the fold of the events not taken back — StartRound and StartActivation undone.
    expect(beastView(beforeRound2, 'ember').defending).toBe(true);
    expect(viewOf(beforeRound2)).toMatchObject({ round: 1, turn: null, activeCombatantId: null });
  });

  it('"At 0 HP: Add 1 to Critical Gauge, Gain a Harm, Stage 2+ PCs must Devolve": undoing the Bite takes all of it back — HP, Stage, Gauge, Harm, and the chain the Knockout ended', () => {
    let e = close(
      close(fight([pip, bo, wolf('wolf', 20), ember({ hp: 4 }), ash], 'pip'), 'pip', 'wolf'),
      'wolf',
      'ember',
    );
    // Pip's Claw 4 d6: 4, 1, 1, 1 = 1 against 1, 1: the heroes' chain on the wolf starts.
    e = then(e, attack('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1] });
    e = next(e, 'wolf');
    const beforeBite = close(e, 'wolf', 'ember');
    // The Bite 6, 6 = 2 against Ember's Dodge 3 d8 1, 1, 1: (2 + 1) + 2 = 5 ≥ 4 HP. Devolution from Stage 2:
    // Endurance 2 d8 4, 1 = 1 of Diff 3: a fail, Stage 0.
    const bitten = then(beforeBite, attack('wolf', 'ember'), {
      dice: [6, 6, 1, 1, 1],
      followUpFaces: [4, 1],
    });
    expect(viewOf(bitten).criticalGauge).toBe(1);
    expect(beastView(bitten, 'ember')).toMatchObject({ state: 'KnockedOut', hp: 0, stage: 0, dieSides: 6 });
    expect(viewOf(bitten).combos).not.toHaveProperty('wolf'); // the wolf acted (A10)
    // C8: the undone Bite.
    const v = viewOf(beforeBite);
    expect(v.criticalGauge).toBe(0);
    expect(beastView(beforeBite, 'ember')).toMatchObject({
      state: 'Active',
      hp: 4,
      stage: 2,
      dieSides: 8,
      harms: [],
    });
    expect(v.combos).toMatchObject({ wolf: { lastAttackerId: 'pip', attacks: 1, hits: 1 } });
  });
});

describe('ruling A72: a tag against a combatant who has left the fight', () => {
  it('A72: "Cornered: Cannot Reposition" against the wolf: given the GM removes the wolf, then Ember is cornered by no one — its Reposition for positional advantage is allowed, and the view no longer shows the tag', () => {
    let e = close(fight([ember(), ash, wolf('wolf'), wolf('wolf2')], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'cornered', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'highGround' });
    expect(refused(e, { type: 'Reposition', combatantId: 'ember' })).toMatchObject({
      code: 'ARCANA_CORNERED',
    });
    e = then(e, { type: 'RemoveCombatant', combatantId: 'wolf' });
    expect(beastView(e, 'ember').tags).toEqual([
      { tag: 'highGround', effect: '+1 die on attacks against targets below' },
    ]);
    expect(find(exact(e, { type: 'Reposition', combatantId: 'ember' }), 'ActionTaken')).toMatchObject({
      action: 'reposition',
    });
  });

  it('A72: a tag against a beast that has left still holds against its Binder, who keeps the beast’s place (A47, A51): the wolf Cornered against Ember cannot Reposition away from Ash, and the view shows the tag', () => {
    let e = close(fight([wolf('wolf', 20), ember(), ash, pip, bo], 'wolf'), 'wolf', 'ember');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cornered', againstId: 'ember' });
    e = then(e, { type: 'RemoveCombatant', combatantId: 'ember' });
    const wolfView = viewOf(e).combatants.find((c) => c.id === 'wolf');
    expect(wolfView?.tags).toEqual([
      { tag: 'cornered', againstId: 'ember', effect: 'cannot Reposition, Dodge with Setback' },
    ]);
    // The wolf is still cornered where Ash stands: a Reposition away from Ash is refused.
    expect(
      refused(e, { type: 'Reposition', combatantId: 'wolf', towardId: 'ash', band: 'far' }),
    ).toMatchObject({
      code: 'ARCANA_CORNERED',
      field: 'towardId',
    });
  });
});
