import { ContractViolation } from '../../src/core/contract';
import { RuleViolation } from '../../src/core/violation';
import { narateer, validateSheet } from '../../src/narateer';
import { given } from '../given';
import { bow, crossbow, sheet, spear, sword } from './helpers';

/** The refusal of `run`, which must be one. */
function refusal(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('accepted');
}

const startWith = (s: unknown) => given(narateer, []).when({ type: 'StartFight', dice: { mode: 'manual', commitment: 'a'.repeat(64) }, combatants: [{ name: 'X', sheet: s }] });

describe('Narateer contract: the sheet', () => {
  it('accepts every sheet of the examples and folds it as before', () => {
    const s = validateSheet(sheet({ weapons: [sword, spear, bow, crossbow], woundPreference: 'ASK', responsePolicy: { response: 'clash', boost: 1, weaponId: 'spear', fallback: 'none' } }), 'sheet');
    expect(s.weapons.map((w) => [w.id, w.kind, w.reach, w.effectiveRange ?? null])).toEqual([['sword', 'melee', 1, null], ['spear', 'melee', 2, null], ['bow', 'ranged', 0, 12], ['crossbow', 'ranged', 0, 10]]);
    expect(s.responsePolicy).toEqual({ response: 'clash', boost: 1, fallback: 'none', weaponId: 'spear' });
    expect(validateSheet(sheet({ weapons: [{ ...bow, ammunition: null }] }), 'sheet').weapons[0].ammunition).toBeUndefined();
  });

  it.each([
    ['a typo at the top', { maxVitalty: 8 }, 'maxVitalty'],
    ['a typo in vitals', { vitals: { strength: 2, agility: 2, resilience: 2, strenght: 3 } }, 'vitals.strenght'],
    ['a Skill the rules do not have', { skills: { melee: 1, stealth: 2 } }, 'skills.stealth'],
    ['a typo in a weapon', { weapons: [sword, { ...spear, baseAtackCost: 2 }] }, 'weapons[1].baseAtackCost'],
    ['reach on a ranged weapon (ranged weapons have no reach)', { weapons: [{ ...bow, reach: 3 }] }, 'weapons[0].reach'],
    ['a range on a melee weapon (melee weapons have reach)', { weapons: [{ ...sword, maximumRange: 3 }] }, 'weapons[0].maximumRange'],
    ['a typo in armour', { armour: { soke: 1 } }, 'armour.soke'],
    ['a typo in the harm object', { weapons: [{ ...sword, harm: { domain: 'Physical', type: 'Slashing', kind: 'x' } }] }, 'weapons[0].harm.kind'],
    ['a typo in responsePolicy', { responsePolicy: { response: 'clash', bost: 1 } }, 'responsePolicy.bost'],
    ['"__proto__" as a JSON key', JSON.parse('{"__proto__": {"maxVitality": 1}}'), '__proto__'],
  ])('a field the sheet does not have is refused as UNKNOWN_FIELD naming it: %s', (_name, overrides, field) => {
    const v = startWith(sheet(overrides)).violation();
    expect(v).toMatchObject({ code: 'UNKNOWN_FIELD', field: `combatants[0].sheet.${field}` });
  });

  it.each([
    ['the sheet a string', 'warrior', ''],
    ['vitals a list', { vitals: [2, 2, 2] }, '.vitals'],
    ['maxAD a string', { maxAD: '5' }, '.maxAD'],
    ['maxAD a fraction', { maxAD: 4.5 }, '.maxAD'],
    ['maxVitality beyond 100', { maxVitality: 101 }, '.maxVitality'],
    ['a weapon a string', { weapons: ['sword'] }, '.weapons[0]'],
    ['weight a number', { weapons: [{ ...sword, weight: 1 }] }, '.weapons[0].weight'],
    ['harm a number', { weapons: [{ ...sword, harm: 3 }] }, '.weapons[0].harm'],
    ['harm not "Domain (Type)"', { weapons: [{ ...sword, harm: 'slashing' }] }, '.weapons[0].harm'],
    ['a harm Domain not in the catalogue, as text', { weapons: [{ ...sword, harm: 'Magical (Fire)' }] }, '.weapons[0].harm'],
    ['a harm Domain not in the catalogue, as an object', { weapons: [{ ...sword, harm: { domain: 'Magical', type: 'Fire' } }] }, '.weapons[0].harm.domain'],
    ['armour a number', { armour: 3 }, '.armour'],
    ['responsePolicy a string', { responsePolicy: 'clash' }, '.responsePolicy'],
    ['a policy weaponId not an id', { responsePolicy: { response: 'clash', weaponId: 'my sword' } }, '.responsePolicy.weaponId'],
    ['more than 20 weapons', { weapons: Array.from({ length: 21 }, (_, i) => ({ ...sword, id: `w${i}` })) }, '.weapons'],
  ])('a wrong JSON type or range is refused as INVALID_FIELD naming it: %s', (_name, overrides, field) => {
    const v = startWith(typeof overrides === 'string' ? overrides : sheet(overrides)).violation();
    expect(v).toMatchObject({ code: 'INVALID_FIELD', field: `combatants[0].sheet${field}` });
  });

  it('every failing field is listed, the first named', () => {
    const v = refusal(() => validateSheet(sheet({ maxAD: 'x', maxVitalty: 3, weapons: [{ ...sword, weaponDamage: -1 }] }), 'sheet'));
    expect(v).toBeInstanceOf(ContractViolation);
    expect((v as ContractViolation).issues.map((i) => [i.code, i.field])).toEqual(
      expect.arrayContaining([
        ['UNKNOWN_FIELD', 'sheet.maxVitalty'],
        ['INVALID_FIELD', 'sheet.maxAD'],
        ['INVALID_FIELD', 'sheet.weapons[0].weaponDamage'],
      ]),
    );
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])('names every JavaScript object has are refused where they are looked up: %s', (name) => {
    // Weapons are kept by id in the fight state; harm Domains are keys of the catalogue.
    expect(startWith(sheet({ weapons: [{ ...sword, id: name }] })).violation()).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.weapons[0].id' });
    expect(startWith(sheet({ weapons: [{ ...sword, harm: `${name} (Slashing)` }] })).violation()).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.weapons[0].harm' });
    expect(startWith(sheet({ weapons: [{ ...sword, harm: { domain: name, type: 'Slashing' } }] })).violation()).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.weapons[0].harm.domain' });
  });
});
