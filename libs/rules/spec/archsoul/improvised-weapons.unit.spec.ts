import { improvisedDamage } from '../../src/archsoul/data';
import { exact, fight, find, foe, hero, javelin, refused, types, unarmed } from './helpers';

describe('Improvised weapons (archsoul.txt: Lifting, Throwing, and Improvised Weapons, RULINGS.md S37)', () => {
  it('1 base damage per 10 lb up to 50 lb, then 1 per 50 lb: the 30 lb chair deals 3, the 200 lb person 8', () => {
    expect([improvisedDamage(30), improvisedDamage(200)]).toEqual([3, 8]);
  });

  it('the Athletics difference sets extra difficulty and an attribute maximum; 0 or less cannot be used', () => {
    const person = { id: 'person', name: 'Unlucky guard', type: 'melee', weightLb: 200, liftingAthletics: 1 };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [person] }), foe('v', [0, -1])]);
    // Precision capped at 1: 1 + 2 dice; improvised +1 and difference 1 (+2): difficulty 7 → 6 with a die removed.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'person' },
      { dice: [6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 3,
      difficulty: 6,
      removed: 1,
      successes: 2,
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 10, removed: 1 }, damage: 3 });
    const tooHeavy = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...person, liftingAthletics: 2 }] }),
      foe('v', [0, -1]),
    ]);
    expect(
      refused(tooHeavy, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'person' }),
    ).toMatchObject({ code: 'ARCHSOUL_TOO_HEAVY', field: 'weaponId' });
  });

  it('S31/S37: a heavy improvised item defends against a Shatter with its Lifting row, as it attacks: Attribute Maximum and difficulty', () => {
    const chair = { id: 'chair', name: 'Chair', type: 'melee', weightLb: 30, liftingAthletics: 1, hp: 10 };
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { weapons: [chair] })]);
    // v's roll with the chair (Athletics 2 − 1 = difference 1): Precision capped at 1 + Melee Weapons 2 = 3 dice at
    // 4 + 1 (improvised) + 2 = 7: difficulty 6, one die removed; 6,6 → 2. a's sword: 5,5,5,1 → 3 wins; its damage
    // 4,1,1,1,1 → 1 to the chair.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', shatter: { itemId: 'chair' } },
      { dice: [5, 5, 5, 1, 6, 6, 4, 1, 1, 1, 1] },
    );
    expect(find(out, 'ShatterResolved')).toMatchObject({
      defence: {
        pool: 3,
        difficulty: 6,
        removed: 1,
        successes: 2,
        modifiers: [
          { reason: 'improvised weapon', amount: 1 },
          { reason: 'heavy improvised weapon (Athletics difference)', amount: 2 },
        ],
      },
      winner: 'attacker',
      damage: 1,
    });
  });

  it('S69: given an item too heavy for its holder to use as a weapon, when it is shattered, then its holder makes no weapon attack roll with it', () => {
    // archsoul.txt: Lifting, Throwing, and Improvised Weapons: "If the Athletics Difference is 0 or less, the object
    // cannot be used as a weapon"; Shatter: "the opponent makes a weapon attack roll with the targeted item".
    const chair = { id: 'chair', name: 'Chair', type: 'melee', weightLb: 30, liftingAthletics: 2, hp: 10 };
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { weapons: [chair] })]);
    // v's Athletics 2 − 2 = 0: no dice. a's sword 4, 1, 1, 2: 1 success beats 0; damage Athletics 2 + Weapon
    // Mastery 1 + base 2 = 5 dice, 4, 4, 1, 1, 1: 2 damage to the chair (hardness 0).
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', shatter: { itemId: 'chair' } },
      { dice: [4, 1, 1, 2, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'ShatterResolved')).toMatchObject({
      defence: { pool: 0, successes: 0, criticalFailure: false },
      winner: 'attacker',
      damage: 2,
    });
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'chair', hp: 8 });
  });
});

describe('Thrown Weapon (archsoul.txt: Thrown Weapon, Throw an Item, RULINGS.md S61)', () => {
  it('Throw an Item: given a rock from the sheet’s items, when it is thrown, then it is no improvised weapon: Precision/Primitive Attacks at 4, damage at 4', () => {
    // archsoul.txt: Throw an Item: "Throw an item you are holding, such as a rock"; Lifting, Throwing, and Improvised
    // Weapons: "the regular improvised weapon penalty when used in melee".
    const rock = {
      id: 'rock',
      name: 'Rock',
      held: true,
      thrown: { accurateRange: 3, maximumRange: 6, damage: 1 },
    };
    const events = fight([hero('a', [0, 0], 'N', { items: [rock] }), foe('v', [0, -2])]);
    // Precision 2 + Primitive Attacks 1 = 3 dice at 4: 4, 4, 1 is 2 successes, above Defense 1. Damage Athletics 2 +
    // Weapon Mastery 1 + base 1 = 4 dice at 4: 4, 4, 2, 2 is 2.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'rock', targetId: 'v' },
      { dice: [4, 4, 1, 4, 4, 2, 2] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      attack: { pool: 3, difficulty: 4, successes: 2, modifiers: [] },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'v',
      damage: 2,
      damageRoll: { pool: 4, difficulty: 4 },
    });
  });

  it('S61: a thrown weapon marked for the Athletics roll is a cumbersome throw: Athletics/Primitive Attacks and 1 harder', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...javelin, attackRoll: 1 }] }),
      foe('v', [0, -2]),
    ]);
    // Athletics 2 + Primitive Attacks 1: 3 dice at difficulty 4 + 1 = 5; 4, 4, 5 is 1 success, not above Defense 1: a miss (S3).
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 4, 5] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 3, difficulty: 5, successes: 1 });
    expect(types(out)).not.toContain('WoundsApplied');
  });

  it('S61: a heavy thrown weapon rolls Athletics, not Precision, whatever its attackRoll says', () => {
    const events = fight([
      hero('a', [0, 0], 'N', {
        attributes: { ...unarmed.attributes, precision: 4 },
        weapons: [{ ...javelin, heavy: true }],
      }),
      foe('v', [0, -2]),
    ]);
    // Athletics 2 + Primitive Attacks 1 = 3 dice (Precision 4 would give 5), difficulty 5.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 4, 5] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 3, difficulty: 5, successes: 1 });
  });
});
