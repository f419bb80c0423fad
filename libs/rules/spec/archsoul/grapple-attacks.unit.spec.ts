/**
 * Grappling's Attack and Throw, worked by hand from archsoul.txt against the engine: whose damage "your unarmed
 * damage" is (ruling S96), and that they are attacks made with a weapon, for Quick Attack's "a one-handed weapon that
 * you have not yet made an attack with this round" (ruling S98). Default sheet (helpers.ts): Precision, Athletics 2,
 * Primitive Attacks 1, so a grapple roll is the unarmed roll, 3 dice at 4; the unarmed damage roll is Athletics plus the
 * fist's base damage (the built-in fist: 0).
 */
import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';
import { view } from '../../src/archsoul/view';
import { RuleEvent } from '../../src/core/types';

const endRoundFor = (events: RuleEvent[], ids: string[]) =>
  ids.reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);

/** a (3 AP, round 2) holds v in a grapple it controls: a's Grab won 2 successes (4, 4, 1) to v's 1 (4, 1, 1). */
function grappled(extra: Record<string, unknown> = {}): RuleEvent[] {
  const events = then(
    fight([hero('a', [0, 0], 'N', extra), foe('v', [0, -1], 'N')]),
    { type: 'Grab', combatantId: 'a', targetId: 'v' },
    { dice: [4, 4, 1, 4, 1, 1] },
  );
  return then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
}

/** The view of the fight as it stands. */
const viewOf = (events: RuleEvent[]) => view(stateOf(events));

const ironFist = { id: 'fist', name: 'Iron fist', type: 'unarmed', damage: 2 };

describe('Grappling: Attack and Throw: “you deal your unarmed damage” (archsoul.txt: Grappling, ruling S96)', () => {
  it('S96: given a sheet weapon with the fist’s id and base damage 2, when its holder makes a grapple Attack naming no weapon, then the unarmed damage roll is Athletics 2 + 2 = 4 dice', () => {
    // Grapple Attack (1 AP): a's 3 dice 4, 4, 1 = 2 beat v's 1, 1, 1 = 0. "you deal your unarmed damage": Athletics 2
    // plus the iron fist's 2 = 4 dice (the built-in fist would roll 2), 4, 4, 4, 1 = 3 damage: 10 → 7 HP.
    const events = exact(
      grappled({ weapons: [ironFist] }),
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4, 4, 1] },
    );
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'v',
      source: 'a:fist (grapple)',
      damageRoll: { pool: 4 },
      damage: 3,
      hp: 7,
    });
  });

  it('S96: given a sheet weapon with the fist’s id and base damage 2, when its holder wins a grapple Throw, then the unarmed damage roll is Athletics 2 + 2 = 4 dice', () => {
    // Throw (2 AP, control): 4, 4, 1 = 2 beat 1, 1, 1 = 0; unarmed damage 4 dice 4, 4, 1, 1 = 2: 10 → 8 HP; knocked down.
    const events = exact(
      grappled({ weapons: [ironFist] }),
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4, 1, 1] },
    );
    expect(find(events, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 4 }, damage: 2, hp: 8 });
    expect(find(events, 'GrappleEnded')).toBeDefined();
  });

  it('Grappling: Attack: given no sheet weapon with the fist’s id, when a makes a grapple Attack naming no weapon, then the built-in fist’s unarmed damage is Athletics 2 = 2 dice', () => {
    const events = exact(
      grappled(),
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4] },
    );
    expect(find(events, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 2 }, damage: 2, hp: 8 });
  });
});

describe('Quick Attack: “a one-handed weapon that you have not yet made an attack with this round” after a grapple Attack or Throw (archsoul.txt: Quick Attack, Grappling, ruling S98)', () => {
  it('S98: given a holds v, when a makes a grapple Attack with its fist, then a Quick Attack with the fist is refused for the rest of the round, and the view lists the fist as attacked with', () => {
    // Grapple Attack (1 AP): 4, 4, 1 = 2 beat 1, 1, 1 = 0; the fist's unarmed damage, Athletics 2 = 2 dice: 4, 1 = 1.
    let events = grappled();
    const attacked = exact(
      events,
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 1] },
    );
    expect(find(attacked, 'GrappleRolled')).toMatchObject({
      purpose: 'Attack',
      weaponId: 'fist',
      success: true,
    });
    events = [...events, ...attacked];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, attackedWith: ['fist'] });
    expect(viewOf(events).combatants.find((c) => c.id === 'a')).toMatchObject({
      attackedWith: ['fist'],
    });
    // Quick Attack (1 AP) with the fist, "that you have not yet made an attack with this round": it has.
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist', special: 'quick' }),
    ).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED', field: 'weaponId' });
  });

  it('S98: given a holds v, when a loses a grapple Throw, then the Throw was still an attack with the fist: a Quick Attack with it is refused', () => {
    // Throw (2 AP): 1, 1, 1 = 0 against v's 4, 4, 1 = 2: lost (S82: v takes control), no damage; an attack was made.
    let events = grappled();
    const thrown = exact(
      events,
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' },
      { dice: [1, 1, 1, 4, 4, 1] },
    );
    expect(find(thrown, 'GrappleRolled')).toMatchObject({
      purpose: 'Throw',
      weaponId: 'fist',
      success: false,
    });
    expect(types(thrown)).not.toContain('WoundsApplied');
    events = [...events, ...thrown];
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['fist']);
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist', special: 'quick' }),
    ).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED' });
  });

  it('S98: given a grapple Attack with the fist in a’s turn, when a’s next turn starts, then the fist may make a Quick Attack again (C7: “this round” ends at the next turn)', () => {
    let events = then(
      grappled(),
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      {
        dice: [4, 4, 1, 1, 1, 1, 1, 1],
      },
    );
    events = then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
    expect(stateOf(events).combatants.a.attackedWith).toEqual([]);
    // Grappled, the unarmed Quick Attack first takes the grapple roll (S33): 4, 4, 1 = 2 against 1, 1, 1 = 0; then the
    // punch, 3 dice at 5 (the fist is light, but the sword held in the other hand is not: +1): 5, 5, 1 = 2 > Defense 1,
    // a hit; damage Athletics 2 = 2 dice at 5 (Quick Attack: +1): 5, 1 = 1.
    const quick = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist', special: 'quick' },
      { dice: [4, 4, 1, 1, 1, 1, 5, 5, 1, 5, 1] },
    );
    expect(find(quick, 'ExchangeResolved')).toMatchObject({ special: 'quick', hit: true });
    expect(find(quick, 'WoundsApplied')).toMatchObject({ damage: 1 });
  });
});
