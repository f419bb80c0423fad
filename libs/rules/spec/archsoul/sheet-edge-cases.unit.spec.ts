/**
 * Sheets the contract accepts that the fixed sheets of the other specs never try: each case is the smallest fight
 * that once answered a valid command with something other than events or a RuleViolation, or recorded an event its
 * declaration refuses. Default sheet (helpers.ts): Soulpower 1, no Soul Casting, so a soul attack rolls 1 die.
 */
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { ARCHSOUL_CONTRACT } from '../../src/archsoul';
import { exact, fight, find, foe, hero, joined, stateOf } from './helpers';

describe('Soul attacks ("effects vary") whose sheet names another critical failure table', () => {
  // A soul weapon whose sheet names the melee table: its 6th entry rolls "normal damage" the weapon has none of.
  const orb = { id: 'orb', name: 'Orb', type: 'soul', accurateRange: 5, criticalTable: 'melee', hp: 4 };

  it('S93: “Strike the ground, rolling normal damage against the weapon’s HP”: a soul weapon rolls no damage dice, so its HP stay', () => {
    // The soul attack: 1 die, a 1: no success, the only die on 1: a critical failure; v's soul defence (Soulpower 1 +
    // Resolve 1) rolls 4, 4; the melee table's 6th entry.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [orb] }), foe('v', [0, -3])]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'orb' },
      {
        dice: [1, 4, 4],
        followUpFaces: [6],
      },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'melee', face: 6 });
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'orb', hp: 4, broken: false });
    expect(stateOf([...events, ...out]).combatants.a.weapons.orb.hp).toBe(4);
  });
});

describe('Thrown Weapon: “Thrown weapon attacks are any attack that involves throwing an object at a target”', () => {
  it('a thrown weapon’s own damage and ranges, at the bounds of a weapon’s, are its throwing ones: CombatantJoined records them as declared', () => {
    const boulder = {
      id: 'boulder',
      name: 'Boulder',
      type: 'thrown',
      damage: 3000,
      accurateRange: 500,
      maximumRange: 1000,
    };
    const event = joined(hero('a', [0, 0], 'N', { weapons: [boulder] }));
    const schema = eventSchemasOf(ARCHSOUL_CONTRACT).CombatantJoined;
    expect(schema.safeParse(event.data).error?.issues ?? []).toEqual([]);
    expect((event.data as any).sheet.weapons[0].thrown).toEqual({
      accurateRange: 500,
      maximumRange: 1000,
      heavy: false,
      damage: 3000,
    });
  });
});
