/**
 * Audit of the Archsoul engine against archsoul.txt, case by case, each worked by hand from the text
 * (and the rulings where they speak); each quotes the line(s) of archsoul.txt it rests on. Only cases no other
 * spec covers are kept.
 */
import { improvisedDamage } from '../../src/archsoul/data';
import {
  attack,
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  refused,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

describe('Audit: Armor Advantages (archsoul.txt l.64–66)', () => {
  // l.64: "When an attack is made against a target wearing a type of armor that the attacking weapon is strong
  // against, the difficulty of the attack roll is reduced by 1. If the attacking weapon is weak against the target's
  // armor, the difficulty of the attack roll is increased by 1."
  // l.65: "This advantage does not apply to damage rolls unless your weapon has the Armor Piercing property."
  it('strong against the armour: attack roll at 3, damage roll stays at 4 without Armor Piercing', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, strongAgainst: ['leather'] }] }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    // Attack: Precision 2 + Melee 2 = 4 dice at 3: 3,3,1,1 = 2 > Defense 1. Damage: 2 + 1 + 2 = 5 dice at 4: 3,3,3,4,1 = 1.
    const out = exact(events, attack(), { dice: [3, 3, 1, 1, 3, 3, 3, 4, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      attack: { difficulty: 3, successes: 2 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { difficulty: 4 }, damage: 1 });
  });

  it('Armor Piercing carries the advantage to the damage roll: strong → damage at 3', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, strongAgainst: ['leather'], armourPiercing: true }] }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    const out = exact(events, attack(), { dice: [3, 3, 1, 1, 3, 3, 3, 4, 1] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { difficulty: 3 }, damage: 4 });
  });

  it('weak against the armour: attack at 5; with Armor Piercing the damage roll at 5 too', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, weakAgainst: ['plate'], armourPiercing: true }] }),
      foe('v', [0, -1], 'S', { armour: { type: 'plate' } }),
    ]);
    // 5,5,4,1 at 5 = 2 > 1: hit; damage 5,4,4,4,1 at 5 = 1.
    const out = exact(events, attack(), { dice: [5, 5, 4, 1, 5, 4, 4, 4, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      attack: { difficulty: 5, successes: 2 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { difficulty: 5 }, damage: 1 });
  });
});

describe('Audit: Ranged Weapon range bands (archsoul.txt l.53)', () => {
  // l.53: "Attacks made outside of your weapon's accurate range, but within your weapon's maximum range, have the
  // difficulty of the attack roll increased by 1." Bow: accurate 5, maximum 10 (hex distance).
  const at = (y: number) =>
    fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -y], 'S')], {
      options: { arrowBreakage: false },
    });
  const shot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' };

  it('exactly at the accurate range (5): no +1, difficulty 4', () => {
    const out = exact(at(5), shot, { dice: [4, 4, 1, 1, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      distance: 5,
      attack: { difficulty: 4, modifiers: [] },
    });
  });

  it('exactly at the maximum range (10): allowed at difficulty 5; one space further is refused', () => {
    const out = exact(at(10), shot, { dice: [4, 4, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ distance: 10, attack: { difficulty: 5 } });
    expect(refused(at(11), shot)).toMatchObject({ code: 'ARCHSOUL_OUT_OF_RANGE', field: 'targetId' });
  });
});

describe('Audit: difficulty floor (RULINGS.md S1 "never drops below 2")', () => {
  it('strong against (−1) and a GM −2 on the attack, a GM −3 on the damage: both rolls at 2, not 1', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, strongAgainst: ['leather'] }] }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    // 2,2,1,1 at 2 = 2 > 1; damage 2,2,2,1,1 at 2 = 3 (faces of 1 never succeed).
    const out = exact(events, attack({ modifier: -2, damageModifier: -3 }), {
      dice: [2, 2, 1, 1, 2, 2, 2, 1, 1],
    });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 2, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { difficulty: 2 }, damage: 3 });
  });
});

describe('Audit: Reactive Attack prevention at equality (archsoul.txt l.107)', () => {
  // l.107: "If this roll does not exceed the damage dealt by the reactive attack, the action is prevented."
  it('Endurance/Resolve successes equal to the damage (2 = 2) prevent the step', () => {
    const events = then(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]), {
      type: 'Move',
      combatantId: 'a',
      path: [{ x: -1, y: 0 }],
    });
    // v: 6,6,1,1 = 2 > 1; damage 4,4,1,1,1 = 2; a's Endurance 2 + Resolve 1 = 3 dice at 3: 3,3,1 = 2, not above 2.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 4, 1, 1, 1, 3, 3, 1] },
    );
    expect(find(out, 'PreventionRolled')).toMatchObject({
      damage: 2,
      prevented: true,
      test: { successes: 2 },
    });
    expect(stateOf([...events, ...out]).combatants.a.position).toEqual({ x: 0, y: 0 });
  });
});

describe('Audit: Turn Order tie-breaks (archsoul.txt l.3)', () => {
  // l.3: "Ties are broken by whoever has the higher Awareness skill, then by higher Precision attribute, then by
  // roll-off on a single six-sided dice."
  it('equal totals and equal Awareness: the higher Precision goes first, no roll-off', () => {
    const events = fight(
      [
        hero('a', [0, 0]),
        hero('b', [1, 0], 'N', { attributes: { ...unarmed.attributes, precision: 3 } }),
        foe('v', [0, -4]),
      ],
      { round: false },
    ).filter((e) => e.type !== 'InitiativeSet');
    // a: 3 dice 4,1,1 = 1; b: 4 dice 4,1,1,1 = 1; enemies (best pool 3): 1,2,3 = 0.
    const rolled = exact(events, { type: 'RollInitiative' }, { dice: [4, 1, 1, 4, 1, 1, 1, 1, 2, 3] });
    expect(find(rolled, 'InitiativeRolled').order).toEqual(['b', 'a', 'v']);
  });
});

describe('Audit: critical failure with dice removed (RULINGS.md S1, S2)', () => {
  it('a pool of 2 at difficulty 7 rolls 1 die; that die on 1 is zero successes with more than half the dice on 1', () => {
    const events = fight([
      hero('a', [0, 0], 'N', {
        attributes: { ...unarmed.attributes, precision: 1 },
        skills: { ...unarmed.skills, meleeWeapons: 1 },
      }),
      foe('v', [0, -1], 'S'),
    ]);
    const out = exact(events, attack({ modifier: 3 }), { dice: [1], followUpFaces: [3] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 2,
      removed: 1,
      difficulty: 6,
      criticalFailure: true,
    });
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'melee', face: 3 });
  });
});

describe('Audit: Quick Attack with a semi-light weapon (archsoul.txt l.114–115)', () => {
  // l.115: "If you are attacking with a non-light weapon, the difficulty of the attack roll increases by 1."
  it('a semi-light weapon is not light: attack at 5, damage at 5', () => {
    const dagger = { id: 'dagger', name: 'Long dagger', type: 'melee', damage: 1, handling: 'semiLight' };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [dagger] }), foe('v', [0, -1], 'S')]);
    // 4 dice 5,5,1,1 = 2 > 1; damage 2 + 1 + 1 = 4 dice at 5: 5,1,1,1 = 1.
    const out = exact(events, attack({ weaponId: 'dagger', special: 'quick' }), {
      dice: [5, 5, 1, 1, 5, 1, 1, 1],
    });
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { difficulty: 5 }, damage: 1 });
  });
});

describe('Audit: improvised weapons (archsoul.txt l.208–218)', () => {
  // l.208: "1 base damage for every 10 pounds of weight, up to 50 pounds. Every 50 pounds thereafter adds 1".
  it('9 lb → 0, 50 lb → 5, 99 lb → 5, 100 lb → 6, 150 lb → 7', () => {
    expect([9, 50, 99, 100, 150].map(improvisedDamage)).toEqual([0, 5, 5, 6, 7]);
  });

  // l.210–217: difference 3 → +1 difficulty, Attribute Maximum 5; "stacks with the penalty for using an improvised
  // weapon (+1 difficulty to attack and damage)".
  it('an Athletics difference of 3: +1 and the improvised +1 (difficulty 6), Precision 6 and Athletics 6 capped at 5', () => {
    const table = { id: 'table', name: 'Table', type: 'melee', weightLb: 30, liftingAthletics: 3 };
    const events = fight([
      hero('a', [0, 0], 'N', {
        attributes: { ...unarmed.attributes, precision: 6, athletics: 6 },
        weapons: [table],
      }),
      foe('v', [0, -1], 'S'),
    ]);
    // Athletics 6 − 3 = 3. Attack: min(6, 5) + 2 = 7 dice at 6; damage: min(6, 5) + 1 + 3 = 9 dice at 6.
    const out = exact(events, attack({ weaponId: 'table' }), {
      dice: [6, 6, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1, 1],
    });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 7, difficulty: 6, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 9, difficulty: 6 }, damage: 3 });
  });

  // l.218: "This table should only be used for improvised weapons heavier than 10 pounds."
  it('a 10 lb object is not on the table: only the improvised +1, and a lifting row given for it is refused (S105)', () => {
    const rock = { id: 'rock', name: 'Rock', type: 'melee', weightLb: 10 };
    expect(() => fight([hero('a', [0, 0], 'N', { weapons: [{ ...rock, liftingAthletics: 9 }] })])).toThrow(
      expect.objectContaining({ code: 'INVALID_FIELD', field: 'sheet.weapons[0].liftingAthletics' }),
    );
    const events = fight([hero('a', [0, 0], 'N', { weapons: [rock] }), foe('v', [0, -1], 'S')]);
    const out = exact(events, attack({ weaponId: 'rock' }), { dice: [5, 5, 1, 1, 5, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 4, difficulty: 5 });
    // Damage: Athletics 2 + Weapon Mastery 1 + 1 (10 lb) = 4 dice at 5.
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 4, difficulty: 5 }, damage: 1 });
  });
});

describe('Audit: Being Grappled (archsoul.txt l.170)', () => {
  // l.170: "While grappled, you may not attack with a weapon, perform a ritual that requires movement, or perform a
  // regular move action. ... All other actions require a successful grapple roll to attempt."
  // l.92–96: Free Actions: "- Turning in place" is one of "the following actions".
  it('S33: given a grappled combatant, when it turns in place (a free action, an “other action”), then it takes the grapple roll first and is not refused', () => {
    // a grabs v from v's back arc (no reactive attack): 3 dice 4,4,1 = 2 against v's 3 dice 4,1,1 = 1.
    const events = then(
      fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(stateOf(events).combatants.a.conditions.map((k) => k.condition)).toEqual(['grappled']);
    // a wins the grapple roll (4,4,1 = 2 against 4,1,1 = 1), then turns.
    const out = exact(events, { type: 'Turn', combatantId: 'a', facing: 'S' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(types(out)).toEqual(['GrappleRolled', 'Turned']);
    // A lost roll (1,1,2 = 0 against 4,4,1 = 2): v takes control and a keeps its facing.
    const lost = exact(events, { type: 'Turn', combatantId: 'a', facing: 'S' }, { dice: [1, 1, 2, 4, 4, 1] });
    expect(types(lost)).toEqual(['GrappleRolled', 'GrappleControlChanged']);
    expect(stateOf([...events, ...lost]).combatants.a.facing).toBe('N');
    // A turn to the facing it has is nothing to attempt: no roll.
    expect(exact(events, { type: 'Turn', combatantId: 'a', facing: 'N' }, { dice: [] })).toEqual([]);
  });
});
