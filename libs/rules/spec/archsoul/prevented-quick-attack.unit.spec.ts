/**
 * A Quick Attack that is held for reactive attacks and then not performed (ruling S106). Quick Attack: "After
 * performing a Quick Attack, you cannot make any other attacks (except for Reactive Attacks) for the remainder of your
 * turn"; Reactive Attack: it "has a chance of preventing the action from happening at all"; S8: a prevented
 * action's AP are still spent. Default sheet (helpers.ts): Precision and Athletics 2, Endurance 2, Melee Weapons 2,
 * Ranged Weapons 2, Weapon Mastery 1, Resolve 1, Defense 1, 10 HP. a holds a pistol and a sword, one in each hand;
 * v stands north of a, facing it, so a shot from a is inside v's reach and front arc (Reactive Attack: "Making a
 * ranged attack with a thrown or projectile weapon").
 */
import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, foe, hero, pistol, refused, stateOf, sword, then, types } from './helpers';

const QUICK_SHOT = {
  type: 'Attack',
  attackerId: 'a',
  targetId: 'v',
  weaponId: 'pistol',
  special: 'quick',
};
const SWORD_ATTACK = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' };

/** a's Quick Attack with the pistol, held while v is offered its reactive attack (S18). */
function heldQuickShot(): RuleEvent[] {
  const events = fight([hero('a', [0, 0], 'N', { weapons: [pistol, sword] }), foe('v', [0, -1], 'S')]);
  return then(events, QUICK_SHOT);
}

/**
 * v's reactive attack with its sword prevents the Quick Attack: Precision 2 + Melee Weapons 2 = 4 dice at 4: 6, 6, 1,
 * 1 = 2 > Defense 1, a hit; damage Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice at 4: 4, 4, 4, 1, 1 = 3; a's
 * Endurance 2 + Resolve 1 = 3 dice at 3: 3, 1, 1 = 1 success, which does not exceed 3: prevented.
 */
function preventedQuickShot(): RuleEvent[] {
  return then(
    heldQuickShot(),
    { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
    { dice: [6, 6, 1, 1, 4, 4, 4, 1, 1, 3, 1, 1] },
  );
}

/** a's sword Attack on v: 4 dice at 4: 4, 4, 1, 1 = 2 > Defense 1, a hit; damage 5 dice at 4: 4, 4, 1, 1, 1 = 2. */
const SWORD_DICE = { dice: [4, 4, 1, 1, 4, 4, 1, 1, 1] };

describe('A Quick Attack that is not performed ends no attacks (archsoul.txt: Quick Attack, Reactive Attack, ruling S106)', () => {
  it('S106: given a’s Quick Attack with the pistol prevented by v’s reactive attack, when a attacks v with its sword (2 AP left), then the attack is made: the Quick Attack was never performed', () => {
    const events = preventedQuickShot();
    expect(find(events, 'PreventionRolled')).toMatchObject({ combatantId: 'a', damage: 3, prevented: true });
    expect(types(events)).not.toContain('ActionResumed');
    // 3 AP − the Quick Attack's 1, still spent (S8) = 2, enough for the Attack's 2.
    const attacked = exact(events, SWORD_ATTACK, SWORD_DICE);
    expect(find(attacked, 'ApSpent')).toMatchObject({ combatantId: 'a', action: 'attack', ap: 2, apLeft: 0 });
    expect(find(attacked, 'ExchangeResolved')).toMatchObject({
      attackerId: 'a',
      weaponId: 'sword',
      hit: true,
    });
    expect(find(attacked, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 2, hp: 10 - 2 });
  });

  it('S106: given a’s Quick Attack prevented, then its 1 AP stays spent (S8), the pistol has made no attack this round, and a has not quick-attacked', () => {
    expect(stateOf(preventedQuickShot()).combatants.a).toMatchObject({
      ap: 2,
      attackedWith: [],
      quickAttacked: false,
    });
  });

  it('S106: given a’s Quick Attack with the pistol prevented, when a Quick Attacks with the pistol again, then it is allowed, and held again for v’s reactive attack', () => {
    const again = exact(preventedQuickShot(), QUICK_SHOT);
    expect(types(again)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(again, 'ApSpent')).toMatchObject({ action: 'quickAttack', ap: 1, apLeft: 1 });
  });

  it('S106: given a’s held Quick Attack that v declines, when a abandons it, then its AP stay spent and a may still attack with its sword', () => {
    let events = then(heldQuickShot(), { type: 'DeclineReactiveAttack', combatantId: 'v' });
    events = then(events, { type: 'ResumeAction', combatantId: 'a', abandon: true });
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, attackedWith: [], quickAttacked: false });
    expect(find(exact(events, SWORD_ATTACK, SWORD_DICE), 'ExchangeResolved')).toMatchObject({ hit: true });
  });

  it('S106: given a’s held Quick Attack, when the GM’s CancelPending drops it, then its AP stay spent and a may still attack with its sword', () => {
    const events = then(heldQuickShot(), { type: 'CancelPending' });
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, attackedWith: [], quickAttacked: false });
    expect(find(exact(events, SWORD_ATTACK, SWORD_DICE), 'ExchangeResolved')).toMatchObject({ hit: true });
  });

  it('S106: given a’s held Quick Attack that v declines, when a resumes and performs it, then every later attack of the turn is refused (Quick Attack)', () => {
    // The shot: Precision 2 + Ranged Weapons 2 = 4 dice at 4 + 1 (a pistol, not light) + 1 (a sword, not light, in
    // the other hand) = 6: 1, 1, 2, 3 = 0 successes, half the dice on 1, no critical failure (S2): a miss.
    let events = then(heldQuickShot(), { type: 'DeclineReactiveAttack', combatantId: 'v' });
    events = then(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [1, 1, 2, 3] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      weaponId: 'pistol',
      special: 'quick',
      attack: { pool: 4, difficulty: 6, successes: 0, criticalFailure: false },
      hit: false,
    });
    expect(stateOf(events).combatants.a).toMatchObject({
      ap: 2,
      attackedWith: ['pistol'],
      quickAttacked: true,
    });
    expect(refused(events, SWORD_ATTACK)).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS' });
  });
});
