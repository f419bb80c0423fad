/**
 * Ruling S105: the fields S104 left accepted and unread, each now read on every path or refused naming it, and the one
 * kept as a description. Default sheet (helpers.ts): Precision 2, Athletics 2, Melee Weapons 2, Primitive Attacks 1,
 * Weapon Mastery 1, Defense 1, a sword.
 */
import { RuleViolation } from '../../src/core/violation';
import { handsFor, validateSheet } from '../../src/archsoul';
import { exact, fight, find, foe, hero, refused, sheet, stateOf, sword, then, types } from './helpers';

/** What validateSheet makes of a sheet with these fields: its code and field, or "accepted". */
function read(extra: Record<string, unknown>): { code: string; field?: string } | 'accepted' {
  try {
    validateSheet(sheet(extra), 'sheet');
    return 'accepted';
  } catch (e) {
    if (e instanceof RuleViolation) return { code: e.code, field: e.field };
    throw e;
  }
}
const invalid = (field: string) => ({ code: 'INVALID_FIELD', field: `sheet.weapons[0].${field}` });

const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
/** Elemental with the first attack roll (Soulpower/Soul Casting): soul magic (S51). */
const firebolt = { id: 'firebolt', name: 'Firebolt', type: 'elemental', accurateRange: 5, maximumRange: 10 };
/** Elemental with the second (Precision/Ranged Weapons): "special technology", held in hand. */
const flamer = { ...firebolt, id: 'flamer', name: 'Flamethrower', attackRoll: 1, damage: 3 };
const rend = { id: 'rend', name: 'Rend', type: 'soul', accurateRange: 5 };

describe('S105: twoHanded only where hands are filled (archsoul.txt: Unarmed, Quick Attack, Draw Awkward Item)', () => {
  it('S105: given worn claws or soul magic marked twoHanded, when the sheet is read, then twoHanded is refused: they fill no hand (S51), so they are no two-handed weapon for Quick Attack or drawing', () => {
    for (const w of [claws, rend, firebolt])
      expect(read({ weapons: [{ ...w, twoHanded: true }] })).toEqual(invalid('twoHanded'));
    // false is what validateSheet records for every weapon (CombatantJoined): read again, it passes.
    for (const w of [claws, rend, firebolt])
      expect(read({ weapons: [{ ...w, twoHanded: false }] })).toBe('accepted');
    // A technological elemental weapon is held: two-handed, it fills both hands.
    const twoHandedFlamer = { ...flamer, twoHanded: true };
    expect(read({ weapons: [twoHandedFlamer] })).toBe('accepted');
    expect(handsFor(validateSheet(sheet({ weapons: [twoHandedFlamer] }), 'sheet'), 'flamer')).toBe(2);
  });

  it('S105: given worn claws, when a Quick Attacks with them, then they are a one-handed weapon: 1 AP, Precision 2 + Primitive Attacks 1 = 3 dice at 4 (light, no weapon in the other hand); stowed, they are drawn simply', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [claws] }), foe('v', [0, -1], 'S')]);
    // 2, 2, 2: no success and no 1 (no critical failure, S2): a miss, so no damage roll.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws', special: 'quick' },
      { dice: [2, 2, 2] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 3, difficulty: 4, successes: 0 });
    const stowed = fight([
      hero('a', [0, 0], 'N', { weapons: [sword, { ...claws, held: false }] }),
      foe('v', [0, -4]),
    ]);
    const drawn = exact(stowed, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'claws' });
    expect(types(drawn)).toEqual(['ApSpent', 'ItemDrawn']);
    expect(find(drawn, 'ApSpent')).toMatchObject({ ap: 1 });
  });
});

describe('S105: the second half of an awkward draw (archsoul.txt: Draw Awkward Item, Reactive Attack)', () => {
  it('S105: given the first half of a rope’s awkward draw, when its second half says fromBackpack, then fromBackpack is refused: the backpack’s reactive attacks came as the draw started (S25); without it, or false, the rope is drawn for 1 AP', () => {
    const bag = { items: [{ id: 'rope', name: 'Rope', stowage: 'awkward' }] };
    let events = fight([hero('a', [0, 0], 'N', bag), foe('v', [5, -5], 'S')]);
    // Two Slow Moves leave 1 AP: the draw starts (S25).
    events = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } });
    events = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 2 } });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope', fromBackpack: true });
    expect(types(events.slice(-2))).toEqual(['ApSpent', 'AwkwardDrawStarted']);
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    const second = { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope' };
    expect(refused(events, { ...second, fromBackpack: true })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'fromBackpack',
    });
    for (const command of [second, { ...second, fromBackpack: false }]) {
      const out = exact(events, command);
      expect(types(out)).toEqual(['ApSpent', 'ItemDrawn']);
      expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    }
    expect(stateOf(events).combatants.a.awkward).toBe('rope');
  });
});

describe('S105: the Lifting Strength row (archsoul.txt: Lifting, Throwing, and Improvised Weapons)', () => {
  it('S105: given an object of 10 lb or none, or a weapon not improvised, with a lifting Athletics, when the sheet is read, then liftingAthletics is refused: “This table should only be used for improvised weapons heavier than 10 pounds”', () => {
    const rock = { id: 'rock', name: 'Rock', type: 'melee', weightLb: 10 };
    expect(read({ weapons: [{ ...rock, liftingAthletics: 9 }] })).toEqual(invalid('liftingAthletics'));
    expect(read({ weapons: [{ ...sword, liftingAthletics: 1 }] })).toEqual(invalid('liftingAthletics'));
    const hammer = { id: 'hammer', name: 'War hammer', type: 'melee', damage: 3, weightLb: 30 };
    expect(read({ weapons: [{ ...hammer, improvised: false, liftingAthletics: 1 }] })).toEqual(
      invalid('liftingAthletics'),
    );
    expect(read({ weapons: [{ ...hammer, liftingAthletics: 1 }] })).toBe('accepted');
    expect(read({ weapons: [rock] })).toBe('accepted');
  });

  it('S105: given an 11 lb object, when its lifting Athletics is 2, then it is read: Athletics 2 − 2 = 0, so it cannot be used as a weapon', () => {
    const stone = { id: 'stone', name: 'Stone', type: 'melee', weightLb: 11, liftingAthletics: 2 };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [stone] }), foe('v', [0, -1], 'S')]);
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'stone' }),
    ).toMatchObject({
      code: 'ARCHSOUL_TOO_HEAVY',
      field: 'weaponId',
    });
  });
});

describe('S105: armour.metal describes the armour (archsoul.txt: Unarmed)', () => {
  it('S105: given chain armour marked metal and no metal gauntlets, when a punches, then the damage roll has no +1: the sheet records metal, and the limb’s metal comes from metalGauntlets or limbArmoured (S72)', () => {
    const armour = { type: 'chain', metal: true };
    expect(validateSheet(sheet({ armour }), 'sheet').armour).toEqual(armour);
    const events = fight([hero('a', [0, 0], 'N', { armour }), foe('v', [0, -1], 'S', { defense: 0 })]);
    const punch = { type: 'Attack', attackerId: 'a', targetId: 'v' };
    // Punch: Precision 2 + Primitive Attacks 1 = 3 dice at 4: 4, 1, 1 = 1 > Defense 0, a hit. Damage: Athletics 2 +
    // Unarmed 0 = 2 dice at 4: 1, 1 = 0, and no metal limb: 0.
    expect(find(exact(events, punch, { dice: [4, 1, 1, 1, 1] }), 'WoundsApplied')).toMatchObject({
      damage: 0,
      bonus: 0,
    });
    // The GM says the punching limb wears metal: 0 + 1.
    expect(
      find(exact(events, { ...punch, limbArmoured: true }, { dice: [4, 1, 1, 1, 1] }), 'WoundsApplied'),
    ).toMatchObject({ damage: 1, bonus: 1 });
  });
});
