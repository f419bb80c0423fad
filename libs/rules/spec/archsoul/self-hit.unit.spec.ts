/**
 * Ruling S99: the unarmed critical failure table's "Hit incorrectly, rolling damage against yourself (maximum 5)" rolls
 * the attack's own damage roll, with that attack's damage modifiers. Default sheet (helpers.ts): Precision 2,
 * Athletics 2, Primitive Attacks 1: a punch rolls 3 dice to hit and 2 dice (Athletics/unarmed 0) for damage; 10 HP.
 */
import { exact, fight, find, foe, hero } from './helpers';

describe('Critical Failure Tables (unarmed): “Hit incorrectly, rolling damage against yourself” with the attack’s damage modifiers', () => {
  const duel = () => fight([hero('a', [0, 0], 'N', { weapons: [] }), foe('v', [0, -1])]);

  it('S99: given a Quick Attack punch, when it critically fails with face 6, then the damage rolled against yourself has Quick Attack’s +1 difficulty', () => {
    // Quick Attack: "The difficulty of the damage roll for this attack is increased by 1". The punch: 3 dice 1, 1, 2,
    // no success, a critical failure; unarmed table face 6. Its damage roll: 2 dice at 4 + 1 = 5: 5, 4 = 1 success,
    // so 1 damage (at difficulty 4 it would have been 2).
    const out = exact(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'quick' },
      { dice: [1, 1, 2, 5, 4], followUpFaces: [6] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'unarmed', face: 6 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 1, hp: 9 });
  });

  it('S99: given a Reckless Attack punch, when it critically fails with face 6, then the damage rolled against yourself has Reckless Attack’s -1 difficulty', () => {
    // Reckless Attack: "decreases the difficulty of the damage roll by 1". The punch: 3 dice 1, 1, 2 at 4 + 2 = 6, a
    // critical failure; face 6. Its damage roll: 2 dice at 4 - 1 = 3: 3, 3 = 2 successes, 2 damage (at 4 it was 0).
    const out = exact(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'reckless' },
      { dice: [1, 1, 2, 3, 3], followUpFaces: [6] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'unarmed', face: 6 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
  });
});
