import { duel, exact, find, melee, mira, orin, sheet, sword } from './helpers';

/**
 * N69: N21 takes "the highest after the cap" when a command names no Damage Vital; when two of the weapon's
 * Vitals tie after the cap, the first of them in the weapon's damageVitals is named. The Strike Rating is the same
 * either way ("Weapon Damage + min(active Damage Vital, Damage Vital Cap)").
 */
describe('N69: Damage Vitals tied after the cap', () => {
  // Strength 3 and Agility 4 under the sword's cap of 3: both count 3.
  const capped = (damageVitals?: string[]) =>
    sheet({
      vitals: { strength: 3, agility: 4, resilience: 2 },
      skills: { melee: 2, ranged: 0, acrobatics: 1 },
      weapons: [{ ...sword, ...(damageVitals ? { damageVitals } : {}) }],
    });
  const declared = (attacker: Record<string, unknown>) =>
    find(
      exact(duel(attacker, orin), melee('mira', 'orin', 0, { response: 'none' }), { dice: [1] }),
      'ExchangeDeclared',
    );

  it('N69: given a light sword whose default Vitals (Strength, Agility) tie at its cap of 3, when the exchange names none, then it names Strength, the first', () => {
    expect(declared(capped()).damageVital).toBe('strength');
  });

  it('N69: given a sword listing Agility before Strength, tied at its cap, when the exchange names none, then it names Agility, the first', () => {
    expect(declared(capped(['agility', 'strength'])).damageVital).toBe('agility');
  });

  it('N69: given Mira’s Agility 3 above her Strength 2 under the cap of 3, when the exchange names none, then it names Agility, the highest (N21), whatever the order', () => {
    expect(declared(mira).damageVital).toBe('agility');
    expect(
      declared({ ...mira, weapons: [{ ...sword, damageVitals: ['strength', 'agility'] }] }).damageVital,
    ).toBe('agility');
  });
});
