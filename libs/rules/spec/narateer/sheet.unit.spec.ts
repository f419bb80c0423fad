import { given } from '../given';
import { narateer, validateSheet } from '../../src/narateer';
import { bow, crossbow, mace, sheet, sword } from './helpers';

const start = (s: Record<string, unknown>) => given(narateer, []).when({ type: 'StartFight', dice: { mode: 'manual', commitment: 'a'.repeat(64) }, combatants: [{ name: 'X', sheet: s }] });

describe('Narateer sheet', () => {
  it('an invalid weapon is refused naming the field', () => {
    expect(start(sheet({ weapons: [sword, { ...mace, baseAttackCost: 0 }] })).violation().field).toBe('combatants[0].sheet.weapons[1].baseAttackCost');
    expect(start(sheet({ weapons: [{ ...bow, maximumRange: 5 }] })).violation().field).toBe('combatants[0].sheet.weapons[0].maximumRange');
    expect(start(sheet({ weapons: [{ ...sword, harm: 'Physical (Fire)' }] })).violation().field).toBe('combatants[0].sheet.weapons[0].harm');
    expect(start(sheet({ weapons: [sword, sword] })).violation().field).toBe('combatants[0].sheet.weapons[1].id');
    expect(start(sheet({ woundPreference: 'LAST' })).violation().field).toBe('combatants[0].sheet.woundPreference');
    expect(start(sheet({ responsePolicy: { response: 'clash', weaponId: 'axe' } })).violation().field).toBe('combatants[0].sheet.responsePolicy.weaponId');
  });

  it('narateer.txt: Core Combat Attributes — heavy weapons use Strength for damage', () => {
    expect(start(sheet({ weapons: [{ ...mace, damageVitals: ['agility'] }] })).violation().field).toBe('combatants[0].sheet.weapons[0].damageVitals[0]');
  });

  it('defaults: reach 1, light weapons Strength or Agility, heavy Strength, ranged Agility (N21), AD_FIRST, Soak 0, always loaded without Loading', () => {
    const s = validateSheet({ vitals: { strength: 1, agility: 1, resilience: 1 }, skills: {}, maxVitality: 4, maxAD: 2, weapons: [sword, mace, crossbow] }, 'sheet');
    expect(s.weapons.map((w) => [w.reach, w.damageVitals])).toEqual([[1, ['strength', 'agility']], [1, ['strength']], [0, ['agility']]]);
    expect(s).toMatchObject({ woundPreference: 'AD_FIRST', soak: 0, maxMD: 0, skills: { melee: 0, ranged: 0, acrobatics: 0 } });
    expect(s.weapons[0].harm).toEqual({ domain: 'Physical', type: 'Slashing' });
    expect(s.weapons[2]).toMatchObject({ needsLoading: true, loaded: true, ammunition: 10, effectiveRange: 10, maximumRange: 20 });
  });
});
