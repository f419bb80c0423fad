/**
 * More cases worked by hand from archsoul.txt (second pass: ranged and area attacks, conditions and their durations),
 * checked against the engine. Default sheet (helpers.ts): Precision 2, Primitive Attacks 1, so a throw rolls 3 dice; a
 * success is a die at or above the difficulty (4 unless a modifier changes it); S2: zero successes with more than half
 * the dice on 1 is a critical failure.
 */
import { bomb, bow, exact, fight, find, foe, hero, stateOf, sword, types } from './helpers';

const at = (x: number, y: number) => ({ x, y });

describe('Area of Effect Attacks with nobody in the area (archsoul.txt: Thrown Weapon, Area of Effect Attacks, Critical Failure Tables)', () => {
  it('Area of Effect Attacks: given a bomb thrown at an empty space 5 away (accurate range 3), when the roll is 4, 1, 1, then it is made at difficulty 5: no success, a critical failure, and the bomb lands in a random adjacent space', () => {
    // archsoul.txt: Thrown Weapon: "Attacks made outside of your weapon's accurate range, but within your weapon's
    // maximum range, have the difficulty of the attack roll increased by 1." The centre (0, −5) is 5 away: 3 < 5 ≤ 6,
    // so 4 + 1 = 5, whoever stands in the area (nobody: v is far off).
    // Dice 4, 1, 1 at 5: no success, two of three dice on 1: a critical failure (S2), the thrown default (melee) table:
    // follow-up 3, "Wrist sprains, difficulty of next attack increases by 1". Throw an Item: "A roll of 0 means the
    // item lands in a random adjacent space" (S58): follow-up 2 names the neighbour.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb] }), foe('v', [4, -6], 'S')]);
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: at(0, -5) },
      { dice: [4, 1, 1], followUpFaces: [3, 2] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'AreaAttackResolved',
      'CriticalFailureRolled',
      'ConditionApplied',
      'ProjectileLanded',
    ]);
    const resolved = find(out, 'AreaAttackResolved');
    expect(resolved.targets).toEqual([]);
    expect(resolved.attack).toMatchObject({
      difficulty: 5,
      successes: 0,
      criticalFailure: true,
      modifiers: [{ reason: 'beyond accurate range', amount: 1 }],
    });
    expect(find(out, 'ConditionApplied')).toMatchObject({ condition: 'nextAttackHarder', amount: 1 });
    expect(find(out, 'ProjectileLanded').space).not.toEqual(at(0, -5));
  });

  it('Critical Failure Tables: given “Wrist sprains, difficulty of next attack increases by 1”, when the next attack is a bomb thrown at an empty space within accurate range, then its roll is made at 5 and the sprain is spent with it', () => {
    // a's sword (Precision 2 + Melee Weapons 2 = 4 dice) at v beside it (v faces away, so it cannot react to the throw):
    // 1, 1, 1, 2 is a critical failure (S2); the
    // melee table's follow-up 3: "Wrist sprains". Then a bomb at (0, −3), 3 away from a (within accurate range 3; v, 2 from
    // the centre, is not in the area): 4 + 1 (the sprain) = 5. Dice 5, 4, 2: one success at 5 (at 4 it would be two);
    // nobody is there to hit, and the bomb lands on the centre. The sprain is spent by this attack (S20, S65: an area's
    // one roll spends it once).
    let events = fight([hero('a', [0, 0], 'N', { weapons: [sword, bomb] }), foe('v', [0, -1], 'N')]);
    events = [
      ...events,
      ...exact(
        events,
        { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
        { dice: [1, 1, 1, 2], followUpFaces: [3] },
      ),
    ];
    expect(stateOf(events).combatants.a.conditions).toMatchObject([{ condition: 'nextAttackHarder' }]);
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: at(0, -3) },
      { dice: [5, 4, 2] },
    );
    expect(types(out)).toEqual(['ApSpent', 'AreaAttackResolved', 'ConditionRemoved', 'ProjectileLanded']);
    expect(find(out, 'AreaAttackResolved').attack).toMatchObject({
      difficulty: 5,
      successes: 1,
      modifiers: [{ reason: 'critical failure: next attack harder', amount: 1 }],
    });
    expect(find(out, 'ProjectileLanded').space).toEqual(at(0, -3));
    expect(stateOf([...events, ...out]).combatants.a.conditions).toEqual([]);
  });
});

describe('Ranged and special attacks at their bounds (archsoul.txt: Ranged Weapon, Armor Advantages, Knockdown, Reckless Attack)', () => {
  const longbow = { ...bow, weakAgainst: ['plate'] };

  it('Knockdown: given a bow weak against plate and a plated foe 6 away (accurate range 5), when a knockdown is shot, then the attack is made at 4 + 1 + 1 + 1 = 7 (difficulty 6, one die removed) and the damage roll at 5', () => {
    // Armor Advantages: weak against the target's armour: +1. Ranged Weapon: outside the accurate range (5 < 6 ≤ 10):
    // +1. Knockdown: "with a ranged weapon … the difficulties of your attack and damage rolls are increased by 1".
    // 7 is above 6: difficulty 6 and one of the 4 dice (Precision 2 + Ranged Weapons 2) removed (S1): 6, 6, 6 = 3 > 1.
    // The opponent's Athletics/Resolve at 3: 1, 1, 1 = 0. Damage (Weapon Mastery 1 + base 2 = 3 dice) at 4 + 1 = 5
    // (the weakness does not reach the damage roll: no Armor Piercing): 6, 6, 6 = 3 > 0: knocked down, no HP lost.
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [longbow] }),
      foe('v', [0, -6], 'S', { armour: { type: 'plate' } }),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', knockdown: true },
      { dice: [6, 6, 6, 1, 1, 1, 6, 6, 6], followUpFaces: [4] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 4,
      difficulty: 6,
      removed: 1,
      successes: 3,
    });
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      damageRoll: { pool: 3, difficulty: 5, successes: 3 },
      resist: { difficulty: 3, successes: 0 },
      knockedDown: true,
    });
    expect(types(out)).not.toContain('WoundsApplied');
  });

  it('Reckless Attack: given a sword strong against leather and a foe in leather, when a reckless attack is made, then the attack roll is at 4 + 2 − 1 = 5 and the damage roll at 4 − 1 = 3', () => {
    // Reckless Attack: "increases the difficulty of the attack roll by 2, but decreases the difficulty of the damage roll
    // by 1"; Armor Advantages: strong against: −1 to the attack roll only ("does not apply to damage rolls unless your
    // weapon has the Armor Piercing property"). Attack 4 dice 6, 6, 6, 6 = 4 > 1; damage (Athletics 2 + Weapon
    // Mastery 1 + base 2 = 5 dice) at 3: 3, 3, 2, 2, 1 = 2.
    const sabre = { id: 'sword', name: 'Sabre', type: 'melee', damage: 2, strongAgainst: ['leather'] };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [sabre] }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'reckless' },
      { dice: [6, 6, 6, 6, 3, 3, 2, 2, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 3 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5, successes: 4 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      damageRoll: { difficulty: 3, successes: 2 },
      damage: 2,
    });
  });
});
