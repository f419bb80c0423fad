/**
 * The engine's numbers with manual dice, each worked by hand from archsoul.txt, and what the GM's corrections do to the
 * fight and to its view. Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee
 * Weapons 2, Ranged Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword
 * (base 2, not light). So a sword attack rolls 4 dice (Precision/Melee Weapons) and its damage 5 (Athletics/Weapon
 * Mastery/base); a punch 3 dice (Precision/Primitive Attacks) and 2 for damage (Athletics/unarmed 0); the
 * Endurance/Resolve roll 3 dice at 3. A success is a die at or above the difficulty (4 unless said); a hit needs more
 * successes than the Defense (S3). Each title quotes the text's words; the comments give the arithmetic.
 */
import { view } from '../../src/archsoul/view';
import { RuleEvent } from '../../src/core/types';
import { bow, exact, fight, find, foe, hero, refused, rider, stateOf, sword, then, types } from './helpers';

const at = (x: number, y: number) => ({ x, y });
const viewOf = (events: RuleEvent[], id: string) =>
  view(stateOf(events)).combatants.find((c) => c.id === id)!;
const mace = { id: 'mace', name: 'Mace', type: 'melee', damage: 2 };

describe('Critical Failure Tables (unarmed) and Unarmed: a gauntlet’s +1 in the damage rolled against yourself', () => {
  const duel = (extra: Record<string, unknown>) =>
    fight([hero('a', [0, 0], 'N', { weapons: [], metalGauntlets: true, ...extra }), foe('v', [0, -1])]);

  it('“Hit incorrectly, rolling damage against yourself (maximum 5)” + Unarmed: “The damage roll is increased by 1 if you are wearing metal armor on the limb you are attacking with, usually a gauntlet”: a gauntleted punch hurts its striker 2 + 1 = 3', () => {
    // The punch: 3 dice 1, 1, 2: no success, two of three on 1, a critical failure; the unarmed table's 6th entry.
    // Its damage roll: Athletics 2 + unarmed 0 = 2 dice at 4: 6, 6 = 2 successes, + 1 for the gauntlet = 3.
    const out = exact(
      duel({}),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 6, 6], followUpFaces: [6] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'unarmed', face: 6 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 3, bonus: 1, hp: 7 });
  });

  it('“Hit incorrectly, rolling damage against yourself (maximum 5)”: the gauntlet’s +1 counts before the cap: 5 + 1 is still 5, 4 + 1 is 5', () => {
    // Athletics 5: the damage roll is 5 dice. 6, 6, 6, 6, 6 = 5, + 1 = 6, at most 5; 6, 6, 6, 6, 1 = 4, + 1 = 5.
    const strong = { attributes: { precision: 2, athletics: 5, endurance: 2, soulpower: 1, intellect: 1 } };
    const five = exact(
      duel(strong),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 6, 6, 6, 6, 6], followUpFaces: [6] },
    );
    expect(find(five, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 5, hp: 5 });
    const four = exact(
      duel(strong),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 6, 6, 6, 6, 1], followUpFaces: [6] },
    );
    expect(find(four, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 5, hp: 5 });
  });

  it('“Hit incorrectly, rolling damage against yourself”: a kick (“anything else”) with no armoured limb adds nothing', () => {
    // S72: the gauntlet is on the hand; a kick gets the +1 only when the GM names the limb armoured.
    const out = exact(
      duel({}),
      { type: 'Attack', attackerId: 'a', targetId: 'v', unarmedStyle: 'other' },
      { dice: [1, 1, 2, 6, 6], followUpFaces: [6] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, bonus: 0 });
  });

  it('“Random target adjacent to original target is hit instead” + Unarmed: “The damage roll is increased by 1”: claws rolling the bow table hit the one beside the target for 2 + 1', () => {
    // Claws (unarmed, base 1) whose sheet names the bow table; the GM says the limb is armoured. The attack: 3 dice
    // 1, 1, 2, a critical failure; face 2: w, the only one adjacent to v but a, is hit instead. Damage: Athletics 2 +
    // 1 = 3 dice at 4: 6, 6, 1 = 2, + 1 = 3.
    const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1, criticalTable: 'bow' };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [claws] }),
      foe('v', [0, -1]),
      foe('w', [1, -2]),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws', limbArmoured: true },
      { dice: [1, 1, 2, 6, 6, 1], followUpFaces: [2] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'w', damage: 3, bonus: 1, hp: 7 });
  });

  it('“Random target adjacent to original target is hit instead”: a bow whose sheet counts no arrows hits the one beside the target; no arrow lands', () => {
    // Bow, no ammunition on the sheet: 4 dice 1, 1, 1, 2, a critical failure; face 2: w is hit instead. Damage: Weapon
    // Mastery 1 + base 2 = 3 dice at 4: 6, 4, 1 = 2. Nothing is counted, so nothing lies on the ground (S21).
    const { ammunition: _counted, ...uncounted } = bow;
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [uncounted] }),
      foe('v', [0, -3]),
      foe('w', [1, -4]),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [1, 1, 1, 2, 6, 4, 1], followUpFaces: [2] },
    );
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'CriticalFailureRolled', 'WoundsApplied']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'w', damage: 2, hp: 8 });
    expect(stateOf([...events, ...out]).ground).toEqual([]);
  });
});

describe('The numbers of an attack, worked by hand (archsoul.txt: Attack, Special Attacks, RULINGS.md S1)', () => {
  it('Quick Attack: “If you are attacking with a non-light weapon … increases by 1” and “If you are wielding a non-light weapon in your other hand … increases by 1”; “The difficulty of the damage roll … is increased by 1”: a sword beside a mace hits at 6 and wounds at 5', () => {
    // 4 dice at 4 + 1 + 1 = 6: 6, 6, 5, 5 = 2 successes > Defense 1. Damage 5 dice at 5: 5, 5, 4, 4, 1 = 2.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, mace] }), foe('v', [0, -1])]);
    expect(viewOf(events, 'a').held).toEqual(['sword', 'mace']);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' },
      { dice: [6, 6, 5, 5, 5, 5, 4, 4, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'quickAttack', ap: 1, apLeft: 2 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 6, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8 });
    expect(find(out, 'WoundsApplied').damageRoll).toMatchObject({ difficulty: 5, successes: 2 });
  });

  it('Reckless Attack: “This increases the difficulty of the attack roll by 2, but decreases the difficulty of the damage roll by 1”: with the GM’s +1 the roll wants 7, so one die goes (S1) and three roll at 6; damage at 3', () => {
    // Attack: 4 + 2 + 1 = 7 > 6: 4 − 1 = 3 dice at 6: 6, 6, 1 = 2 > 1. Damage: 5 dice at 4 − 1 = 3: 3, 3, 3, 2, 1 = 3.
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1])]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'reckless', modifier: 1 },
      { dice: [6, 6, 1, 3, 3, 3, 2, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'recklessAttack', ap: 3, apLeft: 0 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 4,
      removed: 1,
      difficulty: 6,
      successes: 2,
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, hp: 7 });
    expect(find(out, 'WoundsApplied').damageRoll).toMatchObject({ difficulty: 3 });
  });

  it('Critical Failure Tables: “Fall off balance, decreasing your defense by 1 for one round” at Defense 0 leaves it 0, in the view and against the next attack', () => {
    // a (Defense 0) fumbles its punch (1, 1, 1; face 4). Its Defense stays 0, never −1; v's one success (6, 1, 1, 1)
    // exceeds it (1 > 0), as it would at Defense 0 without the fumble; its 0 successes (1, 1, 2, 3) would not.
    let events = fight([hero('a', [0, 0], 'N', { defense: 0 }), foe('v', [0, -1], 'S')]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist' },
      { dice: [1, 1, 1], followUpFaces: [4] },
    );
    expect(viewOf(events, 'a')).toMatchObject({ defense: 0, baseDefense: 0 });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    const blow = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'sword' },
      { dice: [6, 1, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(blow, 'ExchangeResolved')).toMatchObject({ defense: 0, resistance: 0, hit: true });
    expect(find(blow, 'WoundsApplied')).toMatchObject({ damage: 1, hp: 9 });
  });
});

describe('Reactive Attack: “If this roll does not exceed the damage dealt by the reactive attack, the action is prevented” at its boundary', () => {
  // a walks from (0, 0) out of the reach and front arc of v, facing it from (0, −1). v's sword: 6, 6, 1, 1 = 2 > 1,
  // a hit; damage 4, 4, 1, 1, 1 = 2. a's Endurance/Resolve: 3 dice at 3.
  const walkAway = () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    return then(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
  };

  it('equal is not more: 3, 3, 1 is 2 successes against 2 damage, so the Move is prevented, its AP spent', () => {
    const out = exact(
      walkAway(),
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 4, 1, 1, 1, 3, 3, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
    expect(find(out, 'PreventionRolled')).toMatchObject({ damage: 2, prevented: true });
    const after = viewOf([...walkAway(), ...out], 'a');
    expect(after).toMatchObject({ position: at(0, 0), ap: 2, hp: 8 });
  });

  it('one more exceeds: 3, 3, 3 is 3 successes against 2 damage, so the Move waits to resume', () => {
    const events = walkAway();
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 4, 1, 1, 1, 3, 3, 3] },
    );
    expect(find(out, 'PreventionRolled')).toMatchObject({ damage: 2, prevented: false });
    const resumed = then([...events, ...out], { type: 'ResumeAction', combatantId: 'a' });
    expect(viewOf(resumed, 'a')).toMatchObject({ position: at(0, 1), ap: 2, hp: 8, moveDistance: 1 });
  });
});

describe('The GM’s corrections and the view', () => {
  it('C4: a GM CancelPending drops a held shot: its 2 AP stay spent, no arrow is used, and the view shows no reaction or decision', () => {
    // a shoots v from inside v's reach and front arc: "Making a ranged attack with a thrown or projectile weapon"
    // triggers v first (S18); the GM cancels the decision.
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...bow, twoHanded: true }] }),
      foe('v', [0, -1], 'S'),
    ]);
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    expect(view(stateOf(events)).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(events, { type: 'CancelPending' });
    const v = view(stateOf(events));
    expect(v.pending).toBeNull();
    expect(v.reaction).toBeNull();
    expect(viewOf(events, 'a')).toMatchObject({ ap: 1, inTurn: true, attackedWith: [] });
    expect(viewOf(events, 'a').weapons[0]).toMatchObject({ id: 'bow', ammunition: 5 });
  });

  it('RULINGS.md S11 + Ambushes: “freely move up to their base movement speed during the first round of combat”: a member of the surprising party who goes Down has no turn, so the view shows no free movement left, as it shows no AP', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -3])], { round: false });
    events = then(events, { type: 'DeclareAmbush', party: 'heroes' });
    events = then(events, { type: 'StartRound' });
    expect(viewOf(events, 'a')).toMatchObject({ freeMove: 3, ap: 3, inTurn: true });
    events = then(events, { type: 'ApplyDamage', combatantId: 'a', damage: 10 });
    expect(viewOf(events, 'a')).toMatchObject({ state: 'Down', freeMove: 0, ap: 0, inTurn: false });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)], free: true }).code).toBe(
      'ARCHSOUL_DOWN',
    );
  });

  it('S91: given a grapple, when the GM removes the grappled condition from the one held, then the grapple ends for both and the view lists none', () => {
    // a grabs v (v faces away, so no reactive attack): a's unarmed roll 6, 6, 6 = 3 against v's 2, 2, 3 = 0.
    let events = fight([hero('a', [0, 0], 'N', { weapons: [] }), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [6, 6, 6, 2, 2, 3] });
    expect(view(stateOf(events)).grapples).toHaveLength(1);
    const out = exact(events, { type: 'RemoveCondition', combatantId: 'v', condition: 'grappled' });
    expect(types(out)).toEqual(['GrappleEnded', 'ConditionRemoved', 'ConditionRemoved']);
    events = [...events, ...out];
    const v = view(stateOf(events));
    expect(v.grapples).toEqual([]);
    expect(viewOf(events, 'a')).toMatchObject({ conditions: [], hasFrontArc: true });
    expect(viewOf(events, 'v')).toMatchObject({ conditions: [], hasFrontArc: true });
    // a moves away without a grapple roll and drags nobody.
    const moved = exact(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    expect(types(moved)).toEqual(['ApSpent', 'Moved']);
  });

  it('S91: a grappled condition the GM applied with no grapple is simply removed', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -3])]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'grappled' });
    expect(viewOf(events, 'a')).toMatchObject({ hasFrontArc: false });
    const out = exact(events, { type: 'RemoveCondition', combatantId: 'a', condition: 'grappled' });
    expect(types(out)).toEqual(['ConditionRemoved']);
    expect(viewOf([...events, ...out], 'a')).toMatchObject({ conditions: [], hasFrontArc: true });
  });

  it('S92: given a mounted rider, when the GM lays it prone, then it comes off its mount, which waits in its space, as a rider knocked down does (S35)', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -3])]);
    expect(viewOf(events, 'a')).toMatchObject({ mounted: true });
    const out = exact(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'prone' });
    expect(types(out)).toEqual(['Dismounted', 'ConditionApplied']);
    expect(find(out, 'Dismounted')).toMatchObject({ combatantId: 'a', at: at(0, 0) });
    events = [...events, ...out];
    expect(viewOf(events, 'a')).toMatchObject({ mounted: false, speed: 3 });
    // Standing up (1 AP) leaves it on foot; mounting again is its own action (S42).
    events = then(events, { type: 'StandUp', combatantId: 'a' });
    expect(viewOf(events, 'a')).toMatchObject({ mounted: false, conditions: [], ap: 2 });
    // The GM's own amount and duration stand: laid prone until its next turn, it stands at that turn's start.
    const timed = exact(fight([hero('b', [0, 0], 'N', rider)]), {
      type: 'ApplyCondition',
      combatantId: 'b',
      condition: 'prone',
      untilNextTurn: true,
    });
    expect(find(timed, 'ConditionApplied')).toMatchObject({ condition: 'prone', untilNextTurn: true });
  });
});
