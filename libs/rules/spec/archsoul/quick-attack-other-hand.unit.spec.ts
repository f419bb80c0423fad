import { exact, fight, find, foe, hero, javelin, stateOf, sword } from './helpers';

/**
 * archsoul.txt: Quick Attack: "If you are attacking with a non-light weapon, the difficulty of the attack roll increases
 * by 1. If you are wielding a non-light weapon in your other hand, the difficulty of the attack roll increases by 1."
 * Ruling S97: the other hand's weapon is any other weapon held in a hand (S51), whatever its type, that is not light.
 * A melee attack roll is at 4 (S1); the sword, not light, makes a Quick Attack with it 5 before the other hand is
 * counted.
 */
const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const flamer = {
  id: 'flamer',
  name: 'Flamethrower',
  type: 'elemental',
  attackRoll: 1,
  damage: 3,
  accurateRange: 2,
  maximumRange: 4,
};
const firebolt = { id: 'firebolt', name: 'Firebolt', type: 'elemental', accurateRange: 5, maximumRange: 10 };
const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1, handling: 'regular' };
const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
const OTHER_HAND = { reason: 'Quick Attack: a non-light weapon in the other hand', amount: 1 };

/** a, holding what its sheet says, Quick Attacks v beside it; a miss (no die over 4, one 1: no critical failure). */
function quickAttack(extra: Record<string, unknown>, weaponId = 'sword', dice = [1, 2, 3, 4]) {
  const events = fight([hero('a', [0, 0], 'N', extra), foe('v', [0, -1])]);
  const out = exact(
    events,
    { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId, special: 'quick' },
    { dice },
  );
  return { held: stateOf(events).combatants.a.held, attack: find(out, 'ExchangeResolved').attack };
}

describe('S97: a non-light weapon in the other hand (archsoul.txt: Quick Attack)', () => {
  it('S97: given a sword and a javelin in hand, when a Quick Attacks with the sword, then the javelin, a thrown weapon that is not light, adds 1: 4 + 1 + 1 = 6', () => {
    const { held, attack } = quickAttack({ weapons: [sword, javelin] });
    expect(held).toEqual(['sword', 'javelin']);
    expect(attack.difficulty).toBe(6);
    expect(attack.modifiers).toContainEqual(OTHER_HAND);
  });

  it('S97: given a sword and a technological elemental weapon in hand, when a Quick Attacks with the sword, then the flamethrower, not light, adds 1: 6', () => {
    const { held, attack } = quickAttack({ weapons: [sword, flamer] });
    expect(held).toEqual(['sword', 'flamer']);
    expect(attack.difficulty).toBe(6);
    expect(attack.modifiers).toContainEqual(OTHER_HAND);
  });

  it('S97: given a sword and worn claws that are not light, when a Quick Attacks with the sword, then the claws, in no hand (S51), add nothing: 4 + 1 = 5', () => {
    const { held, attack } = quickAttack({ weapons: [sword, claws] });
    expect(held).toEqual(['sword', 'claws']);
    expect(attack.difficulty).toBe(5);
    expect(attack.modifiers).not.toContainEqual(OTHER_HAND);
  });

  it('S97: given a sword and a soul-magic firebolt, when a Quick Attacks with the sword, then the firebolt, in no hand (S51), adds nothing: 5', () => {
    const { held, attack } = quickAttack({ weapons: [sword, firebolt] });
    expect(held).toEqual(['sword', 'firebolt']);
    expect(attack.difficulty).toBe(5);
  });

  it('S97: given a sword and a light dagger in hand, when a Quick Attacks with the sword, then the dagger adds nothing: 5', () => {
    const { held, attack } = quickAttack({ weapons: [sword, dagger] });
    expect(held).toEqual(['sword', 'dagger']);
    expect(attack.difficulty).toBe(5);
  });

  it('S97: given a sword and a shield in hand, when a Quick Attacks with the sword, then the shield, which is not a weapon, adds nothing: 5', () => {
    const { held, attack } = quickAttack({ shield: { bonus: 1 } });
    expect(held).toEqual(['sword', 'shield']);
    expect(attack.difficulty).toBe(5);
  });

  it('S97: given a greatsword in both hands, when a Quick Attacks with the fist, which fills no hand, then the greatsword is in the other hand and adds 1: 4 + 1 = 5 for a light fist', () => {
    // Unarmed: Precision 2 + Primitive Attacks 1 = 3 dice.
    const { held, attack } = quickAttack({ weapons: [greatsword] }, 'fist', [1, 2, 3]);
    expect(held).toEqual(['greatsword']);
    expect(attack.difficulty).toBe(5);
    expect(attack.modifiers).toEqual([OTHER_HAND]);
  });

  it('S97: given a sword and an axe in hand, when a Quick Attacks with the fist, then the other hand adds 1 once, not once per weapon: 5', () => {
    const axe = { id: 'axe', name: 'Axe', type: 'melee', damage: 3 };
    const { held, attack } = quickAttack({ weapons: [sword, axe] }, 'fist', [1, 2, 3]);
    expect(held).toEqual(['sword', 'axe']);
    expect(attack.difficulty).toBe(5);
    expect(attack.modifiers).toEqual([OTHER_HAND]);
  });
});
