import { given } from '../given';
import { narateer, validateSheet } from '../../src/narateer';
import { bow, crossbow, mace, sheet, sword } from './helpers';

const start = (s: Record<string, unknown>) =>
  given(narateer, []).when({
    type: 'StartFight',
    dice: { mode: 'manual', commitment: 'a'.repeat(64) },
    combatants: [{ name: 'X', sheet: s }],
  });

describe('Narateer sheet', () => {
  it('an invalid weapon is refused naming the field', () => {
    expect(start(sheet({ weapons: [sword, { ...mace, baseAttackCost: 0 }] })).violation().field).toBe(
      'combatants[0].sheet.weapons[1].baseAttackCost',
    );
    expect(start(sheet({ weapons: [{ ...bow, maximumRange: 5 }] })).violation().field).toBe(
      'combatants[0].sheet.weapons[0].maximumRange',
    );
    expect(start(sheet({ weapons: [{ ...sword, harm: 'Physical (Fire)' }] })).violation().field).toBe(
      'combatants[0].sheet.weapons[0].harm',
    );
    expect(start(sheet({ weapons: [sword, sword] })).violation().field).toBe(
      'combatants[0].sheet.weapons[1].id',
    );
    expect(start(sheet({ woundPreference: 'LAST' })).violation().field).toBe(
      'combatants[0].sheet.woundPreference',
    );
    expect(start(sheet({ responsePolicy: { response: 'clash', weaponId: 'axe' } })).violation().field).toBe(
      'combatants[0].sheet.responsePolicy.weaponId',
    );
  });

  it('narateer.txt: Core Combat Attributes — heavy weapons use Strength for damage', () => {
    expect(start(sheet({ weapons: [{ ...mace, damageVitals: ['agility'] }] })).violation()).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'combatants[0].sheet.weapons[0].damageVitals[0]',
    });
    expect(start(sheet({ weapons: [{ ...sword, damageVitals: ['resilience'] }] })).violation()).toMatchObject(
      { code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED', field: 'combatants[0].sheet.weapons[0].damageVitals[0]' },
    );
  });

  it('N36: a heavy ranged weapon may list Agility (a loaded projectile) or Strength (thrown); Agility by default', () => {
    const heavyCrossbow = { ...crossbow, weight: 'heavy' };
    const list = (damageVitals?: string[]) =>
      validateSheet(sheet({ weapons: [{ ...heavyCrossbow, damageVitals }] }), 'sheet').weapons[0]
        .damageVitals;
    expect(list(undefined)).toEqual(['agility']);
    expect(list(['agility'])).toEqual(['agility']);
    expect(list(['strength'])).toEqual(['strength']);
    expect(
      start(sheet({ weapons: [{ ...heavyCrossbow, damageVitals: ['resilience'] }] })).violation(),
    ).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'combatants[0].sheet.weapons[0].damageVitals[0]',
    });
  });

  it('N53: given a weapon that needs Loading, when its sheet says it is loaded (the default) with 0 ammunition, then the sheet is refused on its ammunition; unloaded with 0, or loaded with its shot counted, it joins', () => {
    expect(start(sheet({ weapons: [{ ...crossbow, ammunition: 0 }] })).violation()).toMatchObject({
      code: 'NARATEER_LOADED_WITHOUT_AMMUNITION',
      field: 'combatants[0].sheet.weapons[0].ammunition',
    });
    const { loaded: _default, ...byDefault } = crossbow;
    expect(start(sheet({ weapons: [{ ...byDefault, ammunition: 0 }] })).violation().code).toBe(
      'NARATEER_LOADED_WITHOUT_AMMUNITION',
    );
    expect(
      validateSheet(sheet({ weapons: [{ ...crossbow, loaded: false, ammunition: 0 }] }), 'sheet'),
    ).toBeTruthy();
    expect(validateSheet(sheet({ weapons: [{ ...crossbow, ammunition: 1 }] }), 'sheet')).toBeTruthy();
    // A weapon that needs no Loading has nothing in it: 0 shots left is simply an empty quiver.
    expect(validateSheet(sheet({ weapons: [{ ...bow, ammunition: 0 }] }), 'sheet')).toBeTruthy();
  });

  it('N64: given a melee weapon that needs Loading or counts ammunition, then the sheet is refused naming that field ("Ranged Exchanges": loading and ammunition are a ranged weapon’s); with the defaults (no Loading, ammunition absent or null) it joins and attacks', () => {
    for (const [extra, field] of [
      [{ needsLoading: true }, 'needsLoading'],
      [{ needsLoading: true, loaded: false, ammunition: 3 }, 'needsLoading'],
      [{ ammunition: 0 }, 'ammunition'],
      [{ ammunition: 5 }, 'ammunition'],
    ] as const)
      expect(start(sheet({ weapons: [bow, { ...sword, ...extra }] })).violation()).toMatchObject({
        code: 'NARATEER_RANGED_WEAPON_ONLY',
        field: `combatants[0].sheet.weapons[1].${field}`,
      });
    for (const extra of [
      {},
      { needsLoading: false },
      { ammunition: null },
      { needsLoading: false, loaded: true },
    ])
      expect(validateSheet(sheet({ weapons: [{ ...sword, ...extra }] }), 'sheet').weapons[0]).toMatchObject({
        kind: 'melee',
        needsLoading: false,
      });
    // A ranged weapon keeps both.
    expect(
      validateSheet(sheet({ weapons: [{ ...crossbow, ammunition: 4 }] }), 'sheet').weapons[0],
    ).toMatchObject({
      needsLoading: true,
      ammunition: 4,
    });
  });

  it.each([
    ['no vitals', { vitals: undefined }, 'vitals'],
    ['Strength missing', { vitals: { agility: 2, resilience: 2 } }, 'vitals.strength'],
    ['Agility not a number', { vitals: { strength: 2, agility: 'high', resilience: 2 } }, 'vitals.agility'],
    ['Resilience negative', { vitals: { strength: 2, agility: 2, resilience: -1 } }, 'vitals.resilience'],
    ['no skills', { skills: undefined }, 'skills'],
    ['a Skill Level negative', { skills: { melee: -1 } }, 'skills.melee'],
    ['a Skill Level not whole', { skills: { acrobatics: 1.5 } }, 'skills.acrobatics'],
    ['Max Vitality 0', { maxVitality: 0 }, 'maxVitality'],
    ['Max AD missing', { maxAD: undefined }, 'maxAD'],
    ['Max MD negative', { maxMD: -2 }, 'maxMD'],
    ['neither AD nor MD', { maxAD: 0, maxMD: 0 }, 'maxAD'],
    ['weapons not a list', { weapons: sword }, 'weapons'],
    ['a weapon without id', { weapons: [{ ...sword, id: undefined }] }, 'weapons[0].id'],
    ['a weapon without name', { weapons: [{ ...sword, name: '' }] }, 'weapons[0].name'],
    ['an unknown weapon kind', { weapons: [{ ...sword, kind: 'magic' }] }, 'weapons[0].kind'],
    ['an unknown weight', { weapons: [{ ...sword, weight: 'medium' }] }, 'weapons[0].weight'],
    ['Weapon Damage negative', { weapons: [{ ...sword, weaponDamage: -1 }] }, 'weapons[0].weaponDamage'],
    [
      'no Damage Vital Cap',
      { weapons: [{ ...sword, damageVitalCap: undefined }] },
      'weapons[0].damageVitalCap',
    ],
    ['an empty Damage Vital list', { weapons: [{ ...sword, damageVitals: [] }] }, 'weapons[0].damageVitals'],
    [
      'an unknown Damage Vital',
      { weapons: [{ ...sword, damageVitals: ['luck'] }] },
      'weapons[0].damageVitals[0]',
    ],
    ['melee reach 0', { weapons: [{ ...sword, reach: 0 }] }, 'weapons[0].reach'],
    [
      'a ranged weapon without Effective Range',
      { weapons: [{ ...bow, effectiveRange: undefined }] },
      'weapons[0].effectiveRange',
    ],
    [
      'a ranged weapon without Maximum Range',
      { weapons: [{ ...bow, maximumRange: undefined }] },
      'weapons[0].maximumRange',
    ],
    [
      'needsLoading not a boolean',
      { weapons: [{ ...crossbow, needsLoading: 'yes' }] },
      'weapons[0].needsLoading',
    ],
    ['loaded not a boolean', { weapons: [{ ...crossbow, loaded: 1 }] }, 'weapons[0].loaded'],
    ['ammunition negative', { weapons: [{ ...bow, ammunition: -1 }] }, 'weapons[0].ammunition'],
    ['no Harm classification', { weapons: [{ ...sword, harm: undefined }] }, 'weapons[0].harm'],
    [
      'a Harm Type outside its Domain',
      { weapons: [{ ...sword, harm: { domain: 'Elemental', type: 'Slashing' } }] },
      'weapons[0].harm',
    ],
    ['armour not an object', { armour: 3 }, 'armour'],
    ['Soak negative', { armour: { soak: -1 } }, 'armour.soak'],
    ['an unknown woundPreference', { woundPreference: 'ad_first' }, 'woundPreference'],
    ['an unknown policy response', { responsePolicy: { response: 'dodge' } }, 'responsePolicy.response'],
    ['a policy Boost negative', { responsePolicy: { response: 'clash', boost: -1 } }, 'responsePolicy.boost'],
    [
      'an unknown policy fallback',
      { responsePolicy: { response: 'clash', fallback: 'clash' } },
      'responsePolicy.fallback',
    ],
  ])('an invalid sheet is refused naming the field: %s', (_name, overrides, field) => {
    expect(start(sheet(overrides)).violation().field).toBe(`combatants[0].sheet.${field}`);
  });

  it('defaults: reach 1, light weapons Strength or Agility, heavy Strength, ranged Agility (N21), AD_FIRST, Soak 0, always loaded without Loading', () => {
    const s = validateSheet(
      {
        vitals: { strength: 1, agility: 1, resilience: 1 },
        skills: {},
        maxVitality: 4,
        maxAD: 2,
        weapons: [sword, mace, crossbow],
      },
      'sheet',
    );
    expect(s.weapons.map((w) => [w.reach, w.damageVitals])).toEqual([
      [1, ['strength', 'agility']],
      [1, ['strength']],
      [0, ['agility']],
    ]);
    expect(s).toMatchObject({
      woundPreference: 'AD_FIRST',
      soak: 0,
      maxMD: 0,
      skills: { melee: 0, ranged: 0, acrobatics: 0 },
    });
    expect(s.weapons[0].harm).toEqual({ domain: 'Physical', type: 'Slashing' });
    expect(s.weapons[2]).toMatchObject({
      needsLoading: true,
      loaded: true,
      ammunition: 10,
      effectiveRange: 10,
      maximumRange: 20,
    });
  });
});
