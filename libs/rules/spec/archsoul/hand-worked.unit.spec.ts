/**
 * Cases worked by hand from archsoul.txt, sentence by sentence (restrictions, numbers, exceptions), each checked
 * against the engine with a given/when/then test. Each title quotes the text's words; the comments give the
 * arithmetic. Only cases no other spec already covers are kept.
 */
import { RuleEvent } from '../../src/core/types';
import {
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  javelin,
  refused,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

const conditions = (events: RuleEvent[], id: string) =>
  stateOf(events).combatants[id].conditions.map((k) => k.condition);

describe('The Action Economy (archsoul.txt: Move, Slow Move, Free Actions)', () => {
  it('Slow Move: “Move one space … You may face any direction”: one space for 1 AP with any facing; two spaces are refused', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [5, -8])]);
    // Given a facing N at [0, 0], when it slow-moves to the adjacent space [-1, 1] facing N (not along the step).
    const out = exact(events, { type: 'SlowMove', combatantId: 'a', to: { x: -1, y: 1 }, facing: 'N' });
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.position, a.facing]).toEqual([{ x: -1, y: 1 }, 'N']);
    // When the space is two away, then it is refused.
    expect(refused(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 2 } })).toMatchObject({
      field: 'to',
    });
  });

  it('Move: “Move up to a number of spaces equal to your move speed, or 3 by default”: 3 spaces, not 4', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [5, -8])]);
    const path = (n: number) => Array.from({ length: n }, (_, i) => ({ x: 0, y: i + 1 }));
    expect(find(exact(events, { type: 'Move', combatantId: 'a', path: path(3) }), 'Moved')).toMatchObject({
      to: { x: 0, y: 3 },
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: path(4) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
  });

  it('Free Actions: “require no action points, but are still limited to your turn”: in the heroes’ phase an enemy can neither drop its item nor drop to the ground', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [5, -8])]);
    expect(stateOf(events).phase?.party).toBe('heroes');
    expect(refused(events, { type: 'DropItem', combatantId: 'v', itemId: 'sword' }).code).toBe(
      'ARCHSOUL_NOT_YOUR_TURN',
    );
    expect(refused(events, { type: 'DropProne', combatantId: 'v' }).code).toBe('ARCHSOUL_NOT_YOUR_TURN');
    // On its own turn the hero may, and spends nothing.
    expect(types(exact(events, { type: 'DropItem', combatantId: 'a', itemId: 'sword' }))).toEqual([
      'ItemDropped',
    ]);
  });

  it('“up to three action points”: after one Move (2 AP left) Soul Shield (3 AP) is refused, Hold Firm (2 AP) is not; then nothing that costs AP', () => {
    let events = fight([hero('a', [0, 0], 'N'), hero('b', [1, 1]), foe('v', [5, -8])]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    expect(refused(events, { type: 'SoulShield', combatantId: 'a', targetId: 'b' }).code).toBe(
      'ARCHSOUL_NOT_ENOUGH_AP',
    );
    events = then(events, { type: 'HoldFirm', combatantId: 'a' });
    expect(stateOf(events).combatants.a.ap).toBe(0);
    expect(refused(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 2 } }).code).toBe(
      'ARCHSOUL_NOT_ENOUGH_AP',
    );
  });
});

describe('Attacking: who may be targeted', () => {
  it('Attack: “Make an attack roll against an opponent”: an attack, a Grab or a Study aimed at oneself is refused', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [] }), foe('v', [5, -8])]);
    expect(refused(events, { type: 'Attack', attackerId: 'a', targetId: 'a' }).code).toBe(
      'ARCHSOUL_SELF_TARGET',
    );
    expect(refused(events, { type: 'Grab', combatantId: 'a', targetId: 'a' }).code).toBe(
      'ARCHSOUL_SELF_TARGET',
    );
    expect(refused(events, { type: 'Study', combatantId: 'a', targetId: 'a' }).code).toBe(
      'ARCHSOUL_SELF_TARGET',
    );
  });

  it('Soul Shield: “Expand your soul over one willing target in an adjacent square”: the caster is not in an adjacent square', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [5, -8])]);
    expect(refused(events, { type: 'SoulShield', combatantId: 'a', targetId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_SOUL_SHIELD_TARGET',
      field: 'targetId',
    });
  });

  it('Reactive Attack: “If an opponent performs certain actions”: an ally in reach and facing the mover does not react', () => {
    // b stands at [0, -1] facing S: a at [0, 0] is in its front arc and sword reach. a walks away.
    const events = fight([hero('a', [0, 0], 'N'), hero('b', [0, -1], 'S'), foe('v', [5, -8])]);
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('Grab: “triggers a reactive attack from the person you are trying to grapple”: not from another foe who also reaches the grabber', () => {
    // v at [0, -1] facing S and w at [1, -1] facing SW both have a at [0, 0] in front and in reach.
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [] }),
      foe('v', [0, -1], 'S'),
      foe('w', [1, -1], 'SW'),
    ]);
    const out = exact(events, { type: 'Grab', combatantId: 'a', targetId: 'v' });
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'grab', reactorIds: ['v'] });
  });
});

describe('Attack Modifiers: ties (archsoul.txt: Feint, Knockdown)', () => {
  it('Feint: “If you do not exceed the opponent’s roll, the feint fails and the declared attack automatically misses”: a tie fails', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    // a: Precision 2 + Confusion 0 = 2 dice at 5: 5, 1 = 1. v: Intellect 1 + Read Emotions 0 = 1 die at 4: 4 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: true },
      {
        dice: [5, 1, 4],
      },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, automaticMiss: expect.any(String) });
    expect(types(out)).not.toContain('WoundsApplied');
  });

  it('Knockdown: “If your damage roll surpasses the result of your opponent’s roll, the opponent is knocked to the ground”: an equal roll does not, and deals no damage', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    // Attack 4 dice at 4: 6, 6, 1, 1 = 2 > Defense 1. v: Athletics 2 + Resolve 1 = 3 dice at 3: 3, 3, 1 = 2.
    // Damage: Athletics 2 + Weapon Mastery 1 + 2 = 5 dice at 4: 4, 4, 1, 1, 1 = 2, not above 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', knockdown: true },
      { dice: [6, 6, 1, 1, 3, 3, 1, 4, 4, 1, 1, 1] },
    );
    const after = stateOf([...events, ...out]);
    expect(after.combatants.v.conditions.map((k) => k.condition)).not.toContain('prone');
    expect(after.combatants.v.hp).toBe(10);
  });
});

describe('Grappling: control and ties (archsoul.txt: Gaining Control, Escape)', () => {
  it('Escape: “In the case of a tie during a grapple roll, the person in control wins the tie”: a tied Escape fails, its 2 AP spent', () => {
    // v acts first and grabs a from a's back arc (a faces S, v at [0, -1] is behind it): 4, 4, 1 = 2 against 4, 1, 1 = 1.
    let events = fight([foe('v', [0, -1], 'S', { weapons: [] }), hero('a', [0, 0], 'S')]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    expect(stateOf(events).grapples).toEqual([expect.objectContaining({ controlId: 'v' })]);
    // a's grapple roll: 3 dice 4, 1, 1 = 1; v's: 3 dice 4, 1, 1 = 1. Tie: v keeps control, a stays grappled.
    const out = exact(
      events,
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 1, 1, 4, 1, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(types(out)).not.toContain('GrappleEnded');
    expect(conditions([...events, ...out], 'a')).toContain('grappled');
  });
});

describe('Mounted Maneuvers: Charge at its limit', () => {
  it('Charge: “Move up to 6 times your mount’s base speed in a straight line”: 18 spaces on a speed-3 horse, not 19', () => {
    const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
    const rider = { weapons: [lance], mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 } };
    const north = (n: number) => Array.from({ length: n }, (_, i) => ({ x: 0, y: -(i + 1) }));
    const at = (y: number) => fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -y])]);
    const charge = (n: number) => ({
      type: 'Charge',
      combatantId: 'a',
      path: north(n),
      targetId: 'v',
      weaponId: 'lance',
    });
    // 4 dice 2, 2, 3, 3: no success, a miss, no critical failure.
    expect(find(exact(at(19), charge(18), { dice: [2, 2, 3, 3] }), 'Moved')).toMatchObject({
      to: { x: 0, y: -18 },
    });
    expect(refused(at(20), charge(19))).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
  });
});

describe('Attacking: what resists and what rolls damage (the attack-type table)', () => {
  it('Melee Weapon: “Resisted By: Defense”: a shield in the front arc gives no bonus against a sword', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { shield: { bonus: 2 } })]);
    // 4 dice 4, 4, 1, 1 = 2 > Defense 1 (no Shield Bonus): a hit.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      {
        dice: [4, 4, 1, 1, 1, 1, 1, 1, 1],
      },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, shieldBonus: 0 });
  });

  it('Ranged Weapon: “Damage Roll: Weapon Mastery/Base weapon damage”: no Athletics in the pool', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3], 'S')], {
      options: { arrowBreakage: false },
    });
    // Weapon Mastery 1 + base 2 = 3 dice, not 5.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      {
        dice: [4, 4, 1, 1, 4, 1, 1],
      },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 3 }, damage: 1 });
  });

  it('Unarmed: “Damage Roll: Athletics/Unarmed damage”: no Weapon Mastery in the pool', () => {
    const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [claws] }), foe('v', [0, -1], 'S')]);
    // Attack: Precision 2 + Primitive Attacks 1 = 3 dice. Damage: Athletics 2 + 1 = 3 dice.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws' },
      {
        dice: [4, 4, 1, 4, 4, 1],
      },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 3 }, damage: 2 });
  });
});

describe('Cleave and Unarmed reach', () => {
  it('Unarmed: “These may only be performed against targets in adjacent spaces”: an unarmed Cleave reaches adjacent spaces only, whatever reach a recorded sheet gives', () => {
    const claws = { id: 'claws', name: 'Great claws', type: 'unarmed', damage: 1, handling: 'regular' };
    // Given a sheet recorded with reach-2 claws (a log from before the sheet check).
    const events = fight([hero('a', [0, 0], 'N', { weapons: [claws] }), foe('v', [0, -2], 'S')]).map((e) =>
      e.type === 'CombatantJoined' && (e.data as any).id === 'a'
        ? {
            ...e,
            data: {
              ...(e.data as any),
              sheet: {
                ...(e.data as any).sheet,
                weapons: (e.data as any).sheet.weapons.map((w: any) => ({ ...w, reach: 2 })),
              },
            },
          }
        : e,
    );
    expect(stateOf(events).combatants.a.sheet.weapons[0].reach).toBe(2);
    // When a cleaves with them into v's space two away (and the space beside it), then it is refused.
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'claws',
        cleave: {
          spaces: [
            { x: 0, y: -2 },
            { x: 1, y: -2 },
          ],
        },
      }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_SPACES', field: 'cleave.spaces[0]' });
  });
});

describe('More restrictions worked by hand', () => {
  it('Slow Move: “This movement may trigger reactive attacks from opponents”: stepping out of a foe’s reach and front arc is held for its reactive attack', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    const out = exact(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } });
    expect(types(out)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(stateOf([...events, ...out]).combatants.a.position).toEqual({ x: 0, y: 0 });
  });

  it('Reactive Attack: “interrupt the action with a melee attack or special maneuver”: not with a bow', () => {
    const events = then(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { weapons: [bow] })]), {
      type: 'Move',
      combatantId: 'a',
      path: [{ x: 0, y: 1 }],
    });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    expect(refused(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'bow' })).toMatchObject({
      code: 'ARCHSOUL_NOT_A_MELEE_WEAPON',
      field: 'weaponId',
    });
  });

  it('Knockdown: “If the attack hits, your opponent rolls Athletics/Resolve”: a miss rolls nothing more', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    // 4 dice 1, 2, 3, 3: no success (one 1 of four is no critical failure); no resistance roll, no damage roll.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', knockdown: true },
      {
        dice: [1, 2, 3, 3],
      },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false });
    expect(conditions([...events, ...out], 'v')).not.toContain('prone');
  });

  it('Thrown Weapon: “treated the same as ranged weapon attacks for the purposes of defense”: the Shield Bonus counts from the front arc, not from the back', () => {
    const at = (facing: string) =>
      fight([
        hero('a', [0, 0], 'N', { weapons: [javelin] }),
        foe('v', [0, -2], facing, { shield: { bonus: 2 } }),
      ]);
    const throwIt = { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' };
    // Precision 2 + Primitive Attacks 1 = 3 dice: 4, 4, 4 = 3, not above Defense 1 + Shield Bonus 2.
    expect(find(exact(at('S'), throwIt, { dice: [4, 4, 4] }), 'ExchangeResolved')).toMatchObject({
      hit: false,
      shieldBonus: 2,
    });
    // From v's back arc: 3 > 1, a hit; damage Athletics 2 + Weapon Mastery 1 + 2 = 5 dice: 4, 1, 1, 1, 1 = 1.
    const back = exact(at('N'), throwIt, { dice: [4, 4, 4, 4, 1, 1, 1, 1] });
    expect(find(back, 'ExchangeResolved')).toMatchObject({ hit: true, shieldBonus: 0 });
    expect(find(back, 'WoundsApplied')).toMatchObject({ damageRoll: { pool: 5 }, damage: 1 });
  });

  it('Cleave: “a melee weapon that is not light or semi-light … up to 2 adjacent spaces”: one space is enough; a semi-light dagger cannot', () => {
    const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'semiLight' };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, dagger] }), foe('v', [0, -1], 'S')]);
    const cleave = (weaponId: string) => ({
      type: 'Attack',
      attackerId: 'a',
      weaponId,
      cleave: { spaces: [{ x: 0, y: -1 }] },
    });
    expect(refused(events, cleave('dagger'))).toMatchObject({
      code: 'ARCHSOUL_CLEAVE_WEAPON',
      field: 'weaponId',
    });
    // 4 dice at 5: 5, 5, 1, 1 = 2 > 1; damage 5 dice at 5: 5, 1, 1, 1, 1 = 1.
    const out = exact(events, cleave('sword'), { dice: [5, 5, 1, 1, 5, 1, 1, 1, 1] });
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'v',
      damage: 1,
      damageRoll: { difficulty: 5 },
    });
  });
});

describe('S78: grabbing an ally', () => {
  it('S78: given an ally facing the grabber within reach, when it is grabbed, then it is offered the reactive attack (Grab: “triggers a reactive attack from the person you are trying to grapple”, “the opponent”), may decline, and the grapple is rolled as against anyone', () => {
    // b at [0, -1] faces S: a at [0, 0] is in its front arc and sword reach, as a foe's Grab would need.
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [] }),
      hero('b', [0, -1], 'S'),
      foe('v', [5, -8]),
    ]);
    // The Grab's 2 AP are spent and the Grab is held for b, the person a is trying to grapple.
    const grab = exact(events, { type: 'Grab', combatantId: 'a', targetId: 'b' });
    expect(types(grab)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(grab, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(find(grab, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'grab', reactorIds: ['b'] });
    expect(stateOf([...events, ...grab]).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'b' });
    // b declines (S18: the held Grab waits for a); a's unarmed roll: Precision 2 + Primitive Attacks 1 = 3 dice
    // 4, 4, 1 = 2; b defends with 3 dice 4, 1, 1 = 1.
    const declined = then([...events, ...grab], { type: 'DeclineReactiveAttack', combatantId: 'b' });
    const out = then(declined, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    const after = stateOf(out);
    expect(after.grapples).toEqual([expect.objectContaining({ controlId: 'a', memberIds: ['a', 'b'] })]);
    expect(after.pending).toBeUndefined();
  });
});

void unarmed;
