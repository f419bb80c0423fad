/**
 * Interactions between two or more rules of archsoul.txt: sentences no earlier title quoted, worked by
 * hand from the text and checked against the engine with given/when/then tests. Each title quotes the text's words;
 * the comments give the arithmetic. Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower,
 * Intellect 1; Melee Weapons 2, Ranged Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP,
 * speed 3; a sword (base 2, not light). A success is a die at or above the difficulty; a hit needs more successes
 * than the Defense.
 */
import {
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  javelin,
  refused,
  rider,
  stateOf,
  then,
  types,
  unarmed,
} from './helpers';
import { RuleEvent } from '../../src/core/types';

const nextRound = (events: RuleEvent[]) => then(then(events, { type: 'EndPhase' }), { type: 'StartRound' });

describe('Quick Attack’s lock-out (archsoul.txt: Quick Attack, Grab, Reactive Attack)', () => {
  it('Quick Attack: “After performing a Quick Attack, you cannot make any other attacks (except for Reactive Attacks) for the remainder of your turn”: no Grab or punch after it, but a reactive attack on the foe’s turn', () => {
    // Given a (sword in one hand, the other empty) beside v, in each other's front arc;
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    // when a quick-attacks with the sword (1 AP; not light: 4 dice at 5: 5, 5, 1, 1 = 2 > 1; damage 5 dice at 5:
    // 5, 1, 1, 1, 1 = 1);
    const quick = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' },
      { dice: [5, 5, 1, 1, 5, 1, 1, 1, 1] },
    );
    expect(find(quick, 'ApSpent')).toMatchObject({ ap: 1 });
    expect(find(quick, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(find(quick, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { difficulty: 5 } });
    events = [...events, ...quick];
    // then with 2 AP left a Grab (an unarmed attack roll) and a punch are both refused, nothing spent;
    expect(refused(events, { type: 'Grab', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
    });
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist' }),
    ).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS' });
    expect(stateOf(events).combatants.a.ap).toBe(2);
    // and when v walks away on its turn, a may still react with the same sword (4 dice at 4: 4, 4, 1, 1 = 2 > 1).
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
    const reacted = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
      {
        dice: [4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      },
    );
    expect(find(reacted, 'ExchangeResolved')).toMatchObject({ attackerId: 'a', targetId: 'v', hit: true });
  });
});

describe('Cleave and reactive attacks (archsoul.txt: Cleave, Reactive Attack)', () => {
  it('Cleave: “This maneuver cannot be applied to reactive attacks”: a reactive cleave is refused and the offer stands', () => {
    // Given a (sword, not light) facing v and w, both adjacent in its front arc;
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), foe('w', [1, -1], 'S')]);
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    // when v walks out of a's reach and front arc, and a reacts with a cleave over v's and w's spaces;
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
    expect(
      refused(events, {
        type: 'ReactiveAttack',
        combatantId: 'a',
        weaponId: 'sword',
        cleave: {
          spaces: [
            { x: 0, y: -1 },
            { x: 1, y: -1 },
          ],
        },
      }),
    ).toBeDefined();
    // then the offer still awaits a.
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
  });
});

describe('A ranged sneak attack (archsoul.txt: Sneak Attack, Ranged Weapon)', () => {
  const studied = (at: [number, number]) => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', at, 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    return nextRound(then(events, { type: 'EndTurn', combatantId: 'a' }));
  };
  const shot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', sneak: true };

  it('Sneak Attack: “In order for a ranged attack to qualify as a sneak attack, it must be made within the accurate range of the weapon”: 6 spaces off with accurate range 5 is refused; 5 off it hits, damage 1 easier', () => {
    // Given v unaware 6 spaces north, studied three times (3 AP), when a shoots it as a sneak attack next round,
    // then it is refused (beyond the bow's accurate 5, though within its maximum 10).
    const far = studied([0, -6]);
    expect(refused(far, shot)).toMatchObject({ field: 'sneak' });
    // Given the same at 5 spaces: 4 dice at 4 (accurate): 4, 4, 1, 1 = 2 > 1; damage Weapon Mastery 1 + base 2 = 3
    // dice at 3 (4 less the sneak's 1): 3, 3, 1 = 2; the arrow's break die (Recovering Projectile Weapons) 6: intact.
    const near = exact(studied([0, -5]), shot, { dice: [4, 4, 1, 1, 3, 3, 1], followUpFaces: [6] });
    expect(find(near, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 4 } });
    expect(find(near, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { pool: 3, difficulty: 3 } });
  });
});

describe('Shield Intercept (archsoul.txt: Defensive Maneuvers: Shield Intercept)', () => {
  it('Shield Intercept: “This maneuver may only be performed if you have a shield” + “any projectile that has to be fired through your space to strike a target behind you has the difficulty of its attack roll increased by 1”: a friendly archer behind shoots at 5', () => {
    // Without a shield, a is refused, nothing spent.
    const bare = fight([hero('a', [0, -1], 'N'), foe('v', [0, -3], 'S')]);
    expect(refused(bare, { type: 'ShieldIntercept', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_SHIELD_INTERCEPT_NO_SHIELD',
    });
    // Given a (sword and held shield) intercepting at (0, -1), b with a bow behind it at (0, 0), v at (0, -3);
    let events = fight([
      hero('a', [0, -1], 'N', { shield: { bonus: 1 } }),
      hero('b', [0, 0], 'N', { weapons: [bow] }),
      foe('v', [0, -3], 'S'),
    ]);
    events = then(events, { type: 'ShieldIntercept', combatantId: 'a' });
    // when b shoots v through a's space: 4 dice at 4 + 1 = 5: 5, 5, 4, 1 = 2 > 1 (at 4 it would be 3);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'b', targetId: 'v', weaponId: 'bow' },
      { dice: [5, 5, 4, 1, 1, 1, 1], followUpFaces: [6] },
    );
    // then the shot hits at difficulty 5, and the damage (3 dice at 4: 1, 1, 1) is unchanged; arrow break die 6.
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      attack: { difficulty: 5, successes: 2 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 3, difficulty: 4 } });
  });
});

describe('A cumbersome throw (archsoul.txt: Thrown Weapon, Throw an Item)', () => {
  it('Thrown Weapon: “If a thrown weapon is particularly cumbersome (usually if it requires two hands to throw) it uses Athletics to hit instead of Precision. In such cases, the difficulty of the attack roll is also increased by 1”', () => {
    // Given a with Athletics 3, Precision 2, holding a heavy (cumbersome) javelin, v 2 spaces off (accurate 3);
    const events = fight([
      hero('a', [0, 0], 'N', {
        attributes: { ...unarmed.attributes, athletics: 3 },
        weapons: [{ ...javelin, heavy: true }],
      }),
      foe('v', [0, -2], 'S'),
    ]);
    // when a throws it (1 AP): Athletics 3 + Primitive Attacks 1 = 4 dice at 4 + 1 = 5: 5, 5, 1, 1 = 2 > 1;
    // damage Athletics 3 + Weapon Mastery 1 + base 2 = 6 dice at 4: 4, 4, 1, 1, 1, 1 = 2.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [5, 5, 1, 1, 4, 4, 1, 1, 1, 1] },
    );
    expect(types(out)).toContain('ApSpent');
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { pool: 4, difficulty: 5 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { pool: 6, difficulty: 4 } });
  });
});

describe('Trample’s limits (archsoul.txt: Mounted Maneuvers: Trample)', () => {
  it('Trample: “This maneuver only works against targets that are smaller than your mount” + “You cannot end your turn in your opponent’s space”: a large foe is not trampled by a large horse, a medium one is, but not as the last step', () => {
    const through = [
      { x: 0, y: -1 },
      { x: 0, y: -2 },
    ];
    // Given a rider on a large horse (speed 3) and a large v straight ahead, when it tramples through v, refused.
    const large = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'S', { size: 'large' })]);
    expect(refused(large, { type: 'Move', combatantId: 'a', path: through, trample: true })).toMatchObject({
      code: 'ARCHSOUL_TRAMPLE_SIZE',
      field: 'path[0]',
    });
    // Given a medium v instead, a move that stops in v's space is refused; one that passes through is not.
    const medium = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'S')]);
    expect(
      refused(medium, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }], trample: true }),
    ).toMatchObject({ code: 'ARCHSOUL_SPACE_OCCUPIED' });
    const passing = exact(medium, { type: 'Move', combatantId: 'a', path: through, trample: true });
    expect(find(passing, 'ApSpent')).toMatchObject({ ap: 1 });
  });
});

describe('Escaping while knocked down (archsoul.txt: Grappling: Escape, Takedown, Gaining Control, Being Grappled)', () => {
  // Given v (first in the order) grabbing a, whose back is turned (v's unarmed 3 dice 4, 4, 1 = 2 against a's
  // 4, 1, 1 = 1), then taking it down (the same dice): both prone in a's space, v in control, v's turn ended.
  const downed = () => {
    let events = fight([foe('v', [0, -1], 'N'), hero('a', [0, 0], 'S')]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(
      events,
      { type: 'Takedown', combatantId: 'v', targetId: 'a' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    return then(events, { type: 'EndTurn', combatantId: 'v' });
  };

  it('Escape: “If you are knocked down, you instead stand up, but are still grappled” + “You also do not have a front arc while grappled”: a wins and stands, the grapple stays, and v (grappled) makes no reactive attack', () => {
    const events = downed();
    // When a escapes (2 AP): a's unarmed 4, 4, 1 = 2 against v's 4, 1, 1 = 1;
    const out = exact(
      events,
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    // then a stands up with no reactive attack offered, still grappled with v (who keeps lying); winning the roll
    // gains a the control (Grapple Rolls: "Succeeding on a grapple roll causes you to gain control").
    expect(types(out)).toEqual(['ApSpent', 'GrappleRolled', 'GrappleControlChanged', 'ConditionRemoved']);
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'a', condition: 'prone' });
    const after = stateOf([...events, ...out]);
    expect(after.grapples).toHaveLength(1);
    expect(after.grapples[0]).toMatchObject({ controlId: 'a' });
    expect(after.pending).toBeFalsy();
  });

  it('Gaining Control: “In the case of a tie during a grapple roll, the person in control wins the tie”: a tied Escape leaves a lying and grappled, its 2 AP spent', () => {
    const events = downed();
    // When a escapes: 4, 1, 1 = 1 against v's 4, 1, 1 = 1, a tie, and v is in control;
    const out = exact(
      events,
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 1, 1, 4, 1, 1] },
    );
    // then nothing but the AP and the roll.
    expect(types(out)).toEqual(['ApSpent', 'GrappleRolled']);
    expect(stateOf([...events, ...out]).grapples).toHaveLength(1);
  });
});
