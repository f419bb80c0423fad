import { arcanaBeast } from '../../src/arcana-beast';
import { fightStarted, given, TEST_COMMITMENT } from '../given';
import { beast, binder, joined, wild } from './helpers';

type Sheet = Record<string, unknown>;

/** StartFight with Ember, Ash and a wolf, one sheet replaced: the violation names the field as the API returns it. */
function startWith(index: number, sheet: Sheet) {
  const sheets = [beast(), binder('ember'), wild()];
  sheets[index] = sheet;
  const combatants = ['ember', 'ash', 'wolf'].map((id, i) => ({
    id,
    name: id,
    side: i < 2 ? 'heroes' : 'wild',
    sheet: sheets[i],
  }));
  return given(arcanaBeast, [])
    .when({ type: 'StartFight', dice: { mode: 'manual', commitment: TEST_COMMITMENT }, combatants })
    .violation();
}

describe('The sheet: every invalid field is named (RULINGS.md A11)', () => {
  it.each<[string, string, number, Sheet]>([
    ['kind', 'combatants[0].sheet.kind', 0, beast({ kind: 'dragon' })],
    [
      'a missing stat',
      'combatants[0].sheet.stats.technique',
      0,
      beast({ stats: { brawn: 3, agility: 2, endurance: 2, spirit: 2 } }),
    ],
    [
      'a stat that is no integer',
      'combatants[2].sheet.stats.agility',
      2,
      wild({ stats: { brawn: 2, agility: 1.5, endurance: 2, spirit: 2, technique: 2 } }),
    ],
    [
      'a Quality rank',
      'combatants[0].sheet.qualities.Claws',
      0,
      beast({ qualities: { Claws: -1, Nimble: 1 } }),
    ],
    ['HP missing (A11)', 'combatants[2].sheet.hp', 2, wild({ hp: undefined })],
    ['HP above maxHp', 'combatants[0].sheet.hp', 0, beast({ maxHp: 10, hp: 12 })],
    ['maxHp', 'combatants[0].sheet.maxHp', 0, beast({ maxHp: 'many' })],
    ['Stamina missing (A11)', 'combatants[0].sheet.stamina', 0, beast({ stamina: undefined })],
    ['maxStamina', 'combatants[0].sheet.maxStamina', 0, beast({ maxStamina: -1 })],
    [
      'a Stage above 4',
      'combatants[0].sheet.stages[1].stage',
      0,
      beast({ stages: [{ stage: 0 }, { stage: 5 }] }),
    ],
    [
      'a Stage listed twice',
      'combatants[0].sheet.stages[2].stage',
      0,
      beast({ stages: [{ stage: 2 }, { stage: 0 }, { stage: 2 }] }),
    ],
    ['a current Stage not unlocked', 'combatants[0].sheet.stage', 0, beast({ stage: 4 })],
    [
      'an attack range',
      'combatants[0].sheet.attacks[0].range',
      0,
      beast({ attacks: [{ id: 'claw', name: 'Claw', range: 'reach' }] }),
    ],
    [
      'an attack stat',
      'combatants[0].sheet.attacks[0].stat',
      0,
      beast({ attacks: [{ id: 'claw', name: 'Claw', stat: 'luck' }] }),
    ],
    [
      'an attack naming a Quality the sheet lacks',
      'combatants[0].sheet.attacks[0].qualities[0]',
      0,
      beast({ attacks: [{ id: 'claw', name: 'Claw', qualities: ['Fangs'] }] }),
    ],
    [
      'a defensive Quality the sheet lacks',
      'combatants[0].sheet.defensiveQualities[0]',
      0,
      beast({ defensiveQualities: ['Shell'] }),
    ],
    [
      'a Binder’s defensive Quality the sheet lacks (A6)',
      'combatants[1].sheet.defensiveQualities[0]',
      1,
      binder('ember', { defensiveQualities: ['Shell'] }),
    ],
    [
      'Special Attack uses (A11)',
      'combatants[0].sheet.specialAttacks[0].uses',
      0,
      beast({ specialAttacks: [{ id: 'inferno', name: 'Inferno', range: 'long' }] }),
    ],
    [
      'a Special Attack repeating an attack id',
      'combatants[0].sheet.specialAttacks[0].id',
      0,
      beast({ specialAttacks: [{ id: 'claw', name: 'Big Claw', uses: 1 }] }),
    ],
    [
      'an attack id repeated',
      'combatants[0].sheet.attacks[1].id',
      0,
      beast({
        attacks: [
          { id: 'claw', name: 'Claw' },
          { id: 'claw', name: 'Claw again' },
        ],
      }),
    ],
    [
      'a Zero Power without its trigger',
      'combatants[0].sheet.zeroPower.trigger',
      0,
      beast({ zeroPower: { name: 'Zero Flare', range: 'melee' } }),
    ],
    [
      'a movement that bypasses nothing',
      'combatants[0].sheet.movement[0]',
      0,
      beast({ movement: ['swimming'] }),
    ],
    ['initiativeDice', 'combatants[0].sheet.initiativeDice', 0, beast({ initiativeDice: 11 })],
    ['a Binder’s beastId', 'combatants[1].sheet.beastId', 1, binder('no such id!')],
    [
      'an item quantity',
      'combatants[1].sheet.inventory[0].quantity',
      1,
      binder('ember', { inventory: [{ id: 'potion', name: 'Potion', quantity: -2 }] }),
    ],
    [
      'an item test’s Difficulty',
      'combatants[1].sheet.inventory[0].test.difficulty',
      1,
      binder('ember', {
        inventory: [{ id: 'salve', name: 'Salve', test: { stat: 'technique', difficulty: 0 } }],
      }),
    ],
    [
      'an item id repeated',
      'combatants[1].sheet.inventory[1].id',
      1,
      binder('ember', {
        inventory: [
          { id: 'potion', name: 'Potion' },
          { id: 'potion', name: 'Potion' },
        ],
      }),
    ],
  ])('%s is refused naming %s', (_what, field, index, sheet) => {
    expect(startWith(index, sheet)).toMatchObject({ code: 'INVALID_FIELD', field });
  });

  it.each<[string, string, string, number, Sheet]>([
    ['a typo in the sheet', 'UNKNOWN_FIELD', 'combatants[0].sheet.hpp', 0, beast({ hpp: 12 })],
    [
      'a typo in an attack',
      'UNKNOWN_FIELD',
      'combatants[0].sheet.attacks[1].rank',
      0,
      beast({
        attacks: [
          { id: 'claw', name: 'Claw' },
          { id: 'spark', name: 'Spark', rank: 2 },
        ],
      }),
    ],
    [
      'a typo in a stage',
      'UNKNOWN_FIELD',
      'combatants[2].sheet.stages[0].trigger_',
      2,
      wild({ stages: [{ stage: 1, trigger_: 'rage' }] }),
    ],
    [
      'a beast’s field on a Binder',
      'UNKNOWN_FIELD',
      'combatants[1].sheet.attacks',
      1,
      binder('ember', { attacks: [] }),
    ],
    [
      'a Binder’s field on a beast',
      'UNKNOWN_FIELD',
      'combatants[0].sheet.inventory',
      0,
      beast({ inventory: [] }),
    ],
    [
      'a sixth stat',
      'UNKNOWN_FIELD',
      'combatants[2].sheet.stats.luck',
      2,
      wild({ stats: { brawn: 2, agility: 2, endurance: 2, spirit: 2, technique: 2, luck: 1 } }),
    ],
    [
      'a typo in an item',
      'UNKNOWN_FIELD',
      'combatants[1].sheet.inventory[0].heals',
      1,
      binder('ember', { inventory: [{ id: 'potion', name: 'Potion', heals: 4 }] }),
    ],
    ['HP as a string', 'INVALID_FIELD', 'combatants[0].sheet.hp', 0, beast({ hp: '12' })],
    ['stats as a list', 'INVALID_FIELD', 'combatants[0].sheet.stats', 0, beast({ stats: [3, 2, 2, 2, 2] })],
    [
      'removesCondition that is not true or false',
      'INVALID_FIELD',
      'combatants[1].sheet.inventory[0].removesCondition',
      1,
      binder('ember', { inventory: [{ id: 'salve', name: 'Salve', removesCondition: 'yes' }] }),
    ],
    [
      'a defensive Quality every object has (toString)',
      'INVALID_FIELD',
      'combatants[0].sheet.defensiveQualities[0]',
      0,
      beast({ defensiveQualities: ['toString'] }),
    ],
    [
      'an attack Quality every object has (constructor)',
      'INVALID_FIELD',
      'combatants[0].sheet.attacks[0].qualities[0]',
      0,
      beast({ attacks: [{ id: 'claw', name: 'Claw', qualities: ['constructor'] }] }),
    ],
    [
      'a Quality named valueOf',
      'INVALID_FIELD',
      'combatants[0].sheet.qualities.valueOf',
      0,
      beast({ qualities: { Claws: 1, valueOf: 1 } }),
    ],
    [
      'a Quality named __proto__',
      'UNKNOWN_FIELD',
      'combatants[0].sheet.qualities.__proto__',
      0,
      beast({ qualities: JSON.parse('{"Claws": 1, "Nimble": 1, "__proto__": 2}') }),
    ],
  ])('%s is refused as %s naming %s', (_what, code, field, index, sheet) => {
    expect(startWith(index, sheet)).toMatchObject({ code, field });
  });

  it('a sheet of an unknown kind is refused saying which kinds there are', () => {
    expect(startWith(0, beast({ kind: 'dragon' })).message).toBe(
      'combatants[0].sheet.kind must be one of binder, beast',
    );
  });

  it('a Binder whose beastId names a Binder is refused naming that field', () => {
    const combatants = [beast(), binder('ember'), binder('ash')].map((sheet, i) => ({
      id: ['ember', 'ash', 'cy'][i],
      name: 'x',
      side: 'h',
      sheet,
    }));
    const v = given(arcanaBeast, [])
      .when({ type: 'StartFight', dice: { mode: 'manual', commitment: TEST_COMMITMENT }, combatants })
      .violation();
    expect(v).toMatchObject({ code: 'ARCANA_NOT_A_BEAST', field: 'combatants[2].sheet.beastId' });
  });

  it('a second Binder for a bound beast is refused naming its beastId (AddCombatant)', () => {
    const setup = [
      fightStarted('arcana-beast'),
      ...[
        { id: 'ember', sheet: beast(), side: 'h' },
        { id: 'ash', sheet: binder('ember'), side: 'h' },
      ].map(joined),
    ];
    const v = given(arcanaBeast, setup)
      .when({ type: 'AddCombatant', combatant: { id: 'cy', name: 'Cy', side: 'h', sheet: binder('ember') } })
      .violation();
    expect(v).toMatchObject({ code: 'ARCANA_BEAST_ALREADY_BOUND', field: 'combatant.sheet.beastId' });
  });

  it('a valid sheet starts the fight: HP, Stamina and uses are read; maxHp defaults to HP', () => {
    const out = given(arcanaBeast, [])
      .when({
        type: 'StartFight',
        dice: { mode: 'manual', commitment: TEST_COMMITMENT },
        combatants: [{ id: 'ember', name: 'Ember', side: 'h', sheet: beast({ hp: 9 }) }],
      })
      .events();
    expect((out[1].data as { sheet: Sheet }).sheet).toMatchObject({
      kind: 'beast',
      hp: 9,
      maxHp: 9,
      stamina: 2,
      maxStamina: 2,
      stage: 2,
      specialAttacks: [{ id: 'inferno', uses: 1 }],
    });
  });
});
