import { RuleEvent } from '../../src/core/types';
import { bomb, exact, fight, find, foe, hero } from './helpers';

/** [target, damage dealt, the damage roll’s difficulty, dice removed, faces it counted] of each WoundsApplied. */
const wounds = (out: RuleEvent[]) =>
  out
    .filter((e) => e.type === 'WoundsApplied')
    .map((e) => e.data as any)
    .map((w) => [
      w.combatantId,
      w.damage,
      w.damageRoll.difficulty,
      w.damageRoll.removed,
      w.damageRoll.roll.faces,
    ]);

/** An armour-piercing bomb (helpers' bomb). */
const apBomb = (extra: Record<string, unknown>) => ({ ...bomb, armourPiercing: true, ...extra });

describe('Area damage and armour piercing (archsoul.txt: Armor Advantages, Area of Effect Attacks, RULINGS.md S34)', () => {
  it('S34: given an armour-piercing bomb strong against plate, when it hits a foe in plate and a foe in leather with the damage roll 3,3,4,4,1,1, then the roll recounted at 3 deals 4 to the plate foe and at 4 deals 2 to the leather foe', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [apBomb({ strongAgainst: ['plate'] })] }),
      foe('v', [0, -3], 'S', { armour: { type: 'plate' } }),
      foe('w', [1, -3], 'S', { armour: { type: 'leather' } }),
    ]);
    // Attack: Precision 2 + Primitive Attacks 1 = 3 dice, 5,5,5: 3 successes at v's 3 (strong against plate) and
    // w's 4, above Defense 1. Damage: Athletics 2 + Weapon Mastery 1 + base 3 = 6 dice at 4, v's 3 (Armor Piercing).
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
      { dice: [5, 5, 5, 3, 3, 4, 4, 1, 1] },
    );
    expect(find(out, 'AreaAttackResolved').targets.map((t: any) => [t.targetId, t.hit])).toEqual([
      ['v', true],
      ['w', true],
    ]);
    expect(wounds(out)).toEqual([
      ['v', 4, 3, 0, [3, 3, 4, 4, 1, 1]],
      ['w', 2, 4, 0, [3, 3, 4, 4, 1, 1]],
    ]);
    expect(find(out, 'WoundsApplied').damageRoll.modifiers).toEqual([
      { reason: 'armour piercing, strong against plate', amount: -1 },
    ]);
  });

  it('S34: given an armour-piercing axe strong against plate, when a Cleave hits a foe in plate and an unarmoured foe, then its one damage roll is recounted at 4 for the plate foe and 5 for the other (Cleave +1)', () => {
    const events = fight([
      hero('a', [0, 0], 'N', {
        weapons: [
          {
            id: 'axe',
            name: 'Axe',
            type: 'melee',
            damage: 3,
            armourPiercing: true,
            strongAgainst: ['plate'],
          },
        ],
      }),
      foe('v', [0, -1], 'S', { armour: { type: 'plate' } }),
      foe('w', [1, -1], 'S'),
    ]);
    // Attack: Precision 2 + Melee Weapons 2 = 4 dice at v's 4 and w's 5, all 5s. Damage: Athletics 2 + Weapon
    // Mastery 1 + base 3 = 6 dice, 4,4,5,5,1,1: at 4 + 1 (Cleave) − 1 (Armor Piercing) = 4 for v, at 5 for w.
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: 0, y: -1 },
            { x: 1, y: -1 },
          ],
        },
      },
      { dice: [5, 5, 5, 5, 4, 4, 5, 5, 1, 1] },
    );
    expect(wounds(out)).toEqual([
      ['v', 4, 4, 0, [4, 4, 5, 5, 1, 1]],
      ['w', 2, 5, 0, [4, 4, 5, 5, 1, 1]],
    ]);
  });

  it('S34: given an armour-piercing bomb weak against plate and a GM damage modifier of +2, when it hits a foe in plate and an unarmoured foe, then the plate foe recounts the roll at 7 (difficulty 6, its first 5 dice, S1) and the other at 6 with all 6 dice', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [apBomb({ weakAgainst: ['plate'] })] }),
      foe('v', [0, -3], 'S', { armour: { type: 'plate' } }),
      foe('w', [1, -3], 'S'),
    ]);
    // Attack: 3 dice, 5,5,5: 3 successes at v's 5 (weak against plate) and w's 4. Damage: 6 dice at 4 + 2 = 6 for
    // w, rolled whole (the lowest difficulty removes none), and 4 + 2 + 1 (Armor Piercing) = 7 for v: one die fewer.
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 }, damageModifier: 2 },
      { dice: [5, 5, 5, 6, 6, 6, 4, 4, 6] },
    );
    expect(wounds(out)).toEqual([
      ['v', 3, 6, 1, [6, 6, 6, 4, 4]],
      ['w', 4, 6, 0, [6, 6, 6, 4, 4, 6]],
    ]);
  });
});
