/**
 * Three readings of archsoul.txt worked by hand: the ambush's "base movement speed" of a combatant slowed on foot
 * (ruling S101), the Grab as an attack made with the fist for Quick Attack (ruling S102), and attacks "from large
 * monsters that occupy both your front and back arcs" on a map where every combatant stands in one space (ruling
 * S103). Default sheet (helpers.ts): Precision and Athletics 2, Melee Weapons 2, Primitive Attacks 1, Weapon Mastery 1,
 * Defense 1, speed 3, a sword (melee, base damage 2, not light) held in one hand, the other hand empty.
 */
import { RuleEvent } from '../../src/core/types';
import { view } from '../../src/archsoul/view';
import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';

const north = (n: number, x = 0, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ x, y: -(from + i + 1) }));

/** The heroes' ambush, a (sheet speed 4) slowed by the GM before round 1, for as long as the GM says (lasting). */
function slowedAmbusher(amount: number, extra: Record<string, unknown> = {}): RuleEvent[] {
  let events = fight([hero('a', [0, 0], 'N', { speed: 4, ...extra }), foe('v', [6, -9])], { round: false });
  events = then(events, { type: 'DeclareAmbush', party: 'heroes' });
  events = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'slowed', amount });
  return then(events, { type: 'StartRound' });
}

describe('Ambushes: “freely move up to their base movement speed” while slowed on foot (archsoul.txt: Ambushes, ruling S101)', () => {
  it('S101: given a surprising hero of speed 4 slowed by 1 until the GM lifts it, when its first turn starts, then it moves its base 4 spaces free, while a Move walks 4 − 1 = 3', () => {
    let events = slowedAmbusher(1);
    expect(stateOf(events).combatants.a).toMatchObject({
      inTurn: true,
      conditions: [expect.objectContaining({ condition: 'slowed', amount: 1, untilNextTurn: false })],
      freeMove: 4,
    });
    const free = exact(events, { type: 'Move', combatantId: 'a', free: true, path: north(4) });
    expect(find(free, 'Moved')).toMatchObject({ action: 'free', to: { x: 0, y: -4 } });
    events = [...events, ...free];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 3, freeMove: 0 });
    // The slow still shortens the Move action (1 AP): "your move speed", 4 − 1 = 3 spaces, not 4.
    expect(refused(events, { type: 'Move', combatantId: 'a', path: north(4, 0, 4) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      field: 'path',
    });
    const moved = exact(events, { type: 'Move', combatantId: 'a', path: north(3, 0, 4) });
    expect(find(moved, 'Moved')).toMatchObject({ action: 'move', to: { x: 0, y: -7 } });
  });

  it('S101: given a surprising hero of speed 4 slowed by 5, when its first turn starts, then its free movement is still its base 4, though a Move would take it max(0, 4 − 5) = 0 spaces', () => {
    const events = slowedAmbusher(5);
    expect(stateOf(events).combatants.a.freeMove).toBe(4);
    expect(view(stateOf(events)).combatants.find((c) => c.id === 'a')).toMatchObject({
      speed: 0,
      baseSpeed: 4,
      freeMove: 4,
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: north(1) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
    });
  });

  it('S101: given a surprising rider slowed by 1 on a horse of speed 5, when its first turn starts, then it moves its mount’s 5 spaces free (S35, S86)', () => {
    const horse = { mount: { name: 'Horse', speed: 5, size: 'large', trampleDamage: 3 } };
    const events = slowedAmbusher(1, horse);
    expect(stateOf(events).combatants.a).toMatchObject({ mounted: true, freeMove: 5 });
  });
});

/** a (3 AP) beside v, who faces away (v cannot react to the Grab: a is in its back arc). */
const besideV = () => fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]);
/** a's Grab: 3 unarmed dice at 4 (Precision 2 + Primitive Attacks 1) against v's 3. */
const GRAB = { type: 'Grab', combatantId: 'a', targetId: 'v' };
const quick = (weaponId: string) => ({
  type: 'Attack',
  attackerId: 'a',
  targetId: 'v',
  weaponId,
  special: 'quick',
});

describe('Quick Attack: “a one-handed weapon that you have not yet made an attack with this round” after a Grab (archsoul.txt: Quick Attack, Grab, ruling S102)', () => {
  it('S102: given a’s lost Grab of v, when a Quick Attacks with the fist the same turn, then it is refused: the Grab was an unarmed attack with the hand, and the view lists the fist as attacked with', () => {
    // Grab (2 AP): a's 4, 1, 1 = 1 success against v's 4, 4, 1 = 2: lost, no grapple (not a critical failure: one success).
    const grabbed = exact(besideV(), GRAB, { dice: [4, 1, 1, 4, 4, 1] });
    expect(find(grabbed, 'GrappleRolled')).toMatchObject({
      purpose: 'Grab',
      success: false,
      weaponId: 'fist',
    });
    expect(types(grabbed)).not.toContain('GrappleStarted');
    const events = [...besideV(), ...grabbed];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 1, attackedWith: ['fist'] });
    expect(view(stateOf(events)).combatants.find((c) => c.id === 'a')).toMatchObject({
      attackedWith: ['fist'],
    });
    expect(refused(events, quick('fist'))).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED',
      field: 'weaponId',
    });
  });

  it('S102: given a’s lost Grab of v, when a Quick Attacks with its sword, then the sword, which made no attack this round, strikes', () => {
    // Quick Attack (1 AP) with the sword: Precision 2 + Melee Weapons 2 = 4 dice at 4 + 1 ("a non-light weapon"):
    // 5, 5, 1, 1 = 2 > Defense 1, a hit; damage Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice at 4 + 1 (Quick
    // Attack): 5, 1, 1, 1, 1 = 1 damage, 10 → 9 HP.
    const events = then(besideV(), GRAB, { dice: [4, 1, 1, 4, 4, 1] });
    const struck = exact(events, quick('sword'), { dice: [5, 5, 1, 1, 5, 1, 1, 1, 1] });
    expect(find(struck, 'ExchangeResolved')).toMatchObject({
      special: 'quick',
      hit: true,
      weaponId: 'sword',
    });
    expect(find(struck, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1, hp: 9 });
  });

  it('S102: given a’s won Grab of v, when a Quick Attacks with the fist the same turn, then it is refused before any grapple roll', () => {
    // Grab: a's 4, 4, 1 = 2 against v's 4, 1, 1 = 1: a holds v, 1 AP left.
    const events = then(besideV(), GRAB, { dice: [4, 4, 1, 4, 1, 1] });
    expect(stateOf(events).grapples).toHaveLength(1);
    expect(refused(events, quick('fist'))).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED' });
  });

  it('S102: given a Grab prevented by the reactive attack it triggers, then no attack was made with the fist', () => {
    // v faces a (front arc), so the Grab is held for v's reactive attack with its sword: 4 dice at 4, 4, 4, 1, 1 = 2
    // > Defense 1, a hit; damage 5 dice 4, 4, 4, 1, 1 = 3; a's Endurance/Resolve 2 + 1 = 3 dice at 3: 3, 1, 1 = 1,
    // not above 3: the Grab is prevented.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, GRAB);
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 4, 4, 1, 1, 3, 1, 1] },
    );
    expect(find(events, 'PreventionRolled')).toMatchObject({ combatantId: 'a', prevented: true });
    expect(types(events)).not.toContain('GrappleRolled');
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 1, attackedWith: [] });
  });

  it('S102: given a reactive Grab (S71), when it is rolled, then the reactor has made an attack with its fist', () => {
    // v walks out of a's reach and front arc; a grabs: 4, 4, 1 = 2 against v's 4, 1, 1 = 1, a holds v.
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N')]);
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', grab: true },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(find(events, 'GrappleRolled')).toMatchObject({ actorId: 'a', purpose: 'Grab', weaponId: 'fist' });
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['fist']);
  });
});

/** t (shield bonus 2, held) at the centre facing N; m, a gargantuan archer, attacks it from `at`. */
function archerAt(at: [number, number]): RuleEvent[] {
  const bow = {
    id: 'bow',
    name: 'Longbow',
    type: 'ranged',
    damage: 2,
    accurateRange: 5,
    maximumRange: 10,
  };
  return fight([
    foe('m', at, 'N', { size: 'gargantuan', weapons: [bow] }),
    hero('t', [0, 0], 'N', { shield: { bonus: 2 }, weapons: [] }),
  ]);
}

describe('The Battle Map: “Attacks from large monsters that occupy both your front and back arcs are considered to target your front arc” (ruling S103)', () => {
  it('S103: given a gargantuan archer on the line through t (S5: t’s back arc), when it shoots, then the attack targets the back arc: its size does not spread it over both arcs, so no Shield Bonus', () => {
    // Facing N on a hex, (2, 0) is on the line through t: back arc (S5). m's bow: Precision 2 + Ranged Weapons 2 =
    // 4 dice at 4: 4, 4, 1, 1 = 2 > Defense 1 (the Shield Bonus guards the front arc only): a hit.
    const events = exact(
      archerAt([2, 0]),
      { type: 'Attack', attackerId: 'm', targetId: 't', weaponId: 'bow' },
      {
        dice: [4, 4, 1, 1, 1, 1, 1],
      },
    );
    expect(find(events, 'ExchangeResolved')).toMatchObject({ targetArc: 'back', hit: true });
  });

  it('S103: given the GM places the same archer on a space of t’s front arc, where its body lies across t’s arcs, when it shoots, then the attack targets the front arc and meets the Shield Bonus', () => {
    // (2, -1) is in front (dy < 0); the same 2 successes do not exceed Defense 1 + Shield Bonus 2 = 3: a miss.
    const events = exact(
      archerAt([2, -1]),
      { type: 'Attack', attackerId: 'm', targetId: 't', weaponId: 'bow' },
      {
        dice: [4, 4, 1, 1],
      },
    );
    expect(find(events, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', hit: false });
  });
});
