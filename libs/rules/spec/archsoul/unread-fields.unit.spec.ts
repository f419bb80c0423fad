/**
 * Ruling S104: a field the engine would accept and never read, for the command or the weapon it comes with, is
 * refused naming it (as S100 refuses `limbArmoured` without an unarmed weapon). Each case names where the text puts the
 * field, and shows the same field taken where it counts. Default sheet (helpers.ts): speed 3, a sword (melee, regular).
 */
import { RuleViolation } from '../../src/core/violation';
import { validateSheet } from '../../src/archsoul';
import { view } from '../../src/archsoul/view';
import { bomb, bow, exact, fight, find, foe, hero, javelin, refused, sheet, stateOf, sword } from './helpers';

/** What validateSheet makes of a sheet with `weapon` as its only weapon: its code and field, or "accepted". */
function sheetWith(weapon: Record<string, unknown>): { code: string; field?: string } | 'accepted' {
  try {
    validateSheet(sheet({ weapons: [weapon] }), 'sheet');
    return 'accepted';
  } catch (e) {
    if (e instanceof RuleViolation) return { code: e.code, field: e.field };
    throw e;
  }
}
const invalid = (field: string) => ({ code: 'INVALID_FIELD', field: `sheet.weapons[0].${field}` });

describe('S104: a weapon field its type never reads is refused (archsoul.txt: Attacking, Throw an Item, Area of Effect Attacks)', () => {
  it('S104: given a bow with a reach of 2, when the sheet is read, then reach is refused: reach is a melee or unarmed weapon’s, a shot has a range', () => {
    expect(sheetWith({ ...bow, reach: 2 })).toEqual(invalid('reach'));
    // A reach of 0 is what a bow has (validateSheet records it so, and CombatantJoined holds that sheet).
    expect(sheetWith({ ...bow, reach: 0 })).toBe('accepted');
    expect(sheetWith({ ...sword, reach: 2 })).toBe('accepted');
  });

  it('S104: given a sword with an accurate or maximum range, when the sheet is read, then the range is refused; the same ranges under thrown are its throw’s', () => {
    expect(sheetWith({ ...sword, accurateRange: 3 })).toEqual(invalid('accurateRange'));
    expect(sheetWith({ ...sword, maximumRange: 6 })).toEqual(invalid('maximumRange'));
    expect(sheetWith({ ...sword, thrown: { accurateRange: 3, maximumRange: 6 } })).toBe('accepted');
  });

  it('S104: given a sword marked heavy, when the sheet is read, then heavy is refused: it is a thrown weapon’s cumbersome throw, and a sword’s goes in thrown.heavy', () => {
    expect(sheetWith({ ...sword, heavy: true })).toEqual(invalid('heavy'));
    expect(sheetWith({ ...sword, thrown: { accurateRange: 2, heavy: true } })).toBe('accepted');
    expect(sheetWith({ ...javelin, heavy: true })).toBe('accepted');
  });

  it('S104: given a javelin with thrown ranges of its own, when the sheet is read, then thrown is refused: a thrown weapon’s ranges are its throwing ones', () => {
    expect(sheetWith({ ...javelin, thrown: { accurateRange: 5 } })).toEqual(invalid('thrown'));
    // The javelin as validateSheet records it repeats its own ranges there: accepted again.
    const recorded = { ...javelin, thrown: { accurateRange: 3, maximumRange: 6, heavy: false, damage: 2 } };
    expect(sheetWith(recorded)).toBe('accepted');
  });

  it('S104: given weapons of every kind as validateSheet records them (CombatantJoined), when they are read again, then nothing is refused and nothing changes', () => {
    const boulder = {
      id: 'boulder',
      name: 'Boulder',
      type: 'thrown',
      weightLb: 60,
      heavy: true,
      accurateRange: 2,
    };
    const axe = { id: 'axe', name: 'Axe', damage: 2, thrown: { accurateRange: 2, heavy: true } };
    const once = validateSheet(sheet({ weapons: [sword, bow, javelin, bomb, boulder, axe] }), 'sheet');
    expect(validateSheet(JSON.parse(JSON.stringify(once)), 'sheet')).toEqual(once);
  });

  it('S104: given a sword with an area radius, when the sheet is read, then areaRadius is refused: AreaAttack takes a ranged, thrown or elemental weapon (S34)', () => {
    expect(sheetWith({ ...sword, areaRadius: 2 })).toEqual(invalid('areaRadius'));
    expect(sheetWith(bomb)).toBe('accepted');
  });
});

describe('S104: a command field that would never count is refused (archsoul.txt: Critical Failure Tables, Cleave)', () => {
  it('S104: given the GM lays a hero prone with an amount of 2, then amount is refused: prone has no size; a slow of 2 leaves 3 − 2 = 1 space per Move', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -5])]);
    expect(
      refused(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'prone', amount: 2 }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'amount' });
    expect(
      refused(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'unaware', amount: 1 }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'amount' });
    const slowed = exact(events, {
      type: 'ApplyCondition',
      combatantId: 'a',
      condition: 'slowed',
      amount: 2,
    });
    expect(find(slowed, 'ConditionApplied')).toMatchObject({ condition: 'slowed', amount: 2 });
    expect(view(stateOf([...events, ...slowed])).combatants.find((c) => c.id === 'a')?.speed).toBe(1);
  });

  it('S104: given a Cleave at one space, when its targetId stands beside it and not in it, then targetId is refused; named in a space, it is struck', () => {
    // a (sword: melee, regular handling) at the centre facing N; v ahead (0, −1), w ahead right (1, −1), both adjacent.
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1]), foe('w', [1, -1])]);
    const cleave = (targetId: string) => ({
      type: 'Attack',
      attackerId: 'a',
      targetId,
      weaponId: 'sword',
      cleave: { spaces: [{ x: 0, y: -1 }] },
    });
    expect(refused(events, cleave('w'))).toMatchObject({ code: 'ARCHSOUL_CLEAVE_TARGET', field: 'targetId' });
    // Cleave: attack +1: Precision 2 + Melee Weapons 2 = 4 dice at 5: 5, 5, 1, 1 = 2 > v's Defense 1, a hit; damage
    // Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice at 5: 5, 5, 1, 1, 1 = 2: v 10 → 8 HP.
    const struck = exact(events, cleave('v'), { dice: [5, 5, 1, 1, 5, 5, 1, 1, 1] });
    expect(find(struck, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 2, hp: 8 });
  });
});
