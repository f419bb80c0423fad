/**
 * Interactions between two or more rules of archsoul.txt, worked by hand from the text and checked
 * against the engine with given/when/then tests. Each title quotes the text's words; the comments give the arithmetic.
 * Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee Weapons 2, Ranged
 * Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword (base 2). So a
 * sword attack rolls 4 dice and its damage 5; a punch (the fist) 3 dice and its damage Athletics 2; the
 * Endurance/Resolve prevention roll 3 dice at 3.
 */
import { RuleEvent } from '../../src/core/types';
import {
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  refused,
  rider,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ x: from + i + 1, y: 0 }));
/** Ends the running round: every open turn of both phases. */
const nextRound = (events: RuleEvent[]) =>
  then(then(then(events, { type: 'EndPhase' }), { type: 'EndPhase' }), { type: 'StartRound' });
/** A critical failure of a 3-die punch (zero successes, two 1s). */
const FUMBLE3 = [1, 1, 2];
/** The heroes' ambush: a (speed 3) faces north with v, a foe facing it, in the space north of it. */
const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
const firebolt = { id: 'firebolt', name: 'Firebolt', type: 'elemental', accurateRange: 5, maximumRange: 10 };
/** Soulpower 1 + Soul Casting 2 = 3 dice to cast; Soulpower 1 + Evocation 1 = 2 dice of elemental damage. */
const caster = (weapon: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  weapons: [weapon],
  skills: { ...unarmed.skills, soulCasting: 2, evocation: 1 },
  ...extra,
});
/** a (at 0,0) grabs v (north of it, facing away): a's unarmed 4, 4, 1 = 2 against v's 4, 1, 1 = 1; a controls. */
const grappled = (a: Record<string, unknown> = {}, others: Parameters<typeof fight>[0] = []) =>
  then(
    fight([hero('a', [0, 0], 'N', a), foe('v', [0, -1], 'N'), ...others]),
    { type: 'Grab', combatantId: 'a', targetId: 'v' },
    { dice: [4, 4, 1, 4, 1, 1] },
  );
const ambushed = () => {
  const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')], { round: false });
  return then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
};

describe('The ambush’s free movement held by a reactive attack (archsoul.txt: Ambushes, Reactive Attack, RULINGS.md S13, S18, S81)', () => {
  it('S85: Ambushes’ free move + Reactive Attack: “The attack happens before the triggering action is performed”: a held free move abandoned with ResumeAction ends the free movement', () => {
    // Given a free move of 3 out of v's reach and front arc, held at its first step (v is offered, and declines);
    let events = then(ambushed(), { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    expect(stateOf(events).combatants.a.freeMove).toBe(3);
    // when a abandons it,
    events = then(events, { type: 'ResumeAction', combatantId: 'a', abandon: true });
    // then a is where it was, its free movement is over, and its AP are untouched: it walks on with a Move (1 AP).
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, ap: 3, freeMove: 0 });
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) })).toMatchObject({
      code: 'ARCHSOUL_NO_FREE_MOVE',
    });
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: east(0, 3) }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('S85: a held free move the GM’s CancelPending drops is not performed either: the free movement ends', () => {
    let events = then(ambushed(), { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(events, { type: 'CancelPending' });
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, ap: 3, freeMove: 0 });
  });

  it('S85: a free move resumed as declared keeps what it does not walk (S81)', () => {
    // A free move of 1 is held, v declines, a resumes: 1 walked, 2 left for another free move.
    let events = then(ambushed(), { type: 'Move', combatantId: 'a', free: true, path: east(0, 1) });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    events = then(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 1, y: 0 }, freeMove: 2 });
  });
});

describe('A rider’s own movement and its mount’s (archsoul.txt: Critical Failure Tables, Charge, RULINGS.md S20, S35)', () => {
  it('S86: “Ankle sprains, decreasing movement by 1 for one round” + Charge: “6 times your mount’s base speed”: a mounted rider’s sprain does not slow its mount; on foot it walks 1 less', () => {
    // Given a mounted rider (horse speed 3) whose punch at v fumbles: the unarmed table's 2, an ankle sprain;
    let events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'N')]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'quick' },
      { dice: FUMBLE3, followUpFaces: [2] },
    );
    expect(stateOf(events).combatants.a.conditions).toContainEqual(
      expect.objectContaining({ condition: 'slowed', amount: 1 }),
    );
    // when it rides on, then the horse covers its own speed, 3;
    expect(find(exact(events, { type: 'Move', combatantId: 'a', path: east(0, 3) }), 'Moved')).toMatchObject({
      distance: 3,
    });
    // when it dismounts (1 AP), then the rider's own speed 3 less the sprain's 1 is 2.
    events = then(events, { type: 'Dismount', combatantId: 'a' });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(0, 3) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
    expect(find(exact(events, { type: 'Move', combatantId: 'a', path: east(0, 2) }), 'Moved')).toMatchObject({
      distance: 2,
    });
    // And the Charge, as the text says, counts the mount's base speed: a rider slowed by 1 charges 6 × 3 = 18 spaces.
    const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
    let charger = fight([hero('a', [0, 0], 'N', { ...rider, weapons: [lance] }), foe('w', [0, -19])]);
    charger = then(charger, {
      type: 'ApplyCondition',
      combatantId: 'a',
      condition: 'slowed',
      amount: 1,
      untilNextTurn: true,
    });
    const path = Array.from({ length: 18 }, (_, i) => ({ x: 0, y: -(i + 1) }));
    // The lance: 4 dice 2, 2, 3, 3, a miss.
    const charged = exact(
      charger,
      { type: 'Charge', combatantId: 'a', path, targetId: 'w', weaponId: 'lance' },
      { dice: [2, 2, 3, 3] },
    );
    expect(find(charged, 'Moved')).toMatchObject({ distance: 18 });
  });
});

describe('Special attacks and attack modifiers together (archsoul.txt: Quick Attack, Sneak Attack, Knockdown, Shatter, Shield Intercept, Ranged Weapon)', () => {
  it('Quick Attack: “a one-handed weapon that you have not yet made an attack with this round” + “If you are wielding a non-light weapon in your other hand”: after an Attack with the sword, the dagger may Quick Attack, 1 harder for the sword; the sword may not', () => {
    // Given a with a sword and a dagger in hand (S51) whose sword Attack (2 AP) misses: 1, 2, 3, 3 = 0;
    let events = fight([hero('a', [0, 0], 'N', { weapons: [sword, dagger] }), foe('v', [0, -1])]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [1, 2, 3, 3] },
    );
    // when it Quick Attacks with the sword, then that weapon has made an attack this round;
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' })
        .code,
    ).toBe('ARCHSOUL_QUICK_ATTACK_WEAPON_USED');
    // when it Quick Attacks with the light dagger, then Precision 2 + Melee Weapons 2 at 4 + 1 (the sword, non-light,
    // in the other hand) = 5: 5, 5, 1, 1 = 2 > 1; damage Athletics 2 + Weapon Mastery 1 + base 1 at 4 + 1: 5, 5, 1, 1 = 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'dagger', special: 'quick' },
      { dice: [5, 5, 1, 1, 5, 5, 1, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 0 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { pool: 4, difficulty: 5 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { pool: 4, difficulty: 5 } });
  });

  it('Quick Attack: “The difficulty of the damage roll for this attack is increased by 1” + Sneak Attack: “has the difficulty of any damage rolls decreased by 1”: a quick sneak attack with the sword rolls damage at 4, its attack at 5', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = nextRound(events);
    // Sword (non-light): 4 dice at 5: 5, 5, 1, 2 = 2 > 1; damage 5 dice at 4 + 1 − 1 = 4: 4, 4, 1, 1, 1 = 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick', sneak: true },
      { dice: [5, 5, 1, 2, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { pool: 5, difficulty: 4 } });
  });

  it('Knockdown: “with a ranged weapon … attack and damage rolls are increased by 1” + “outside of your weapon’s accurate range … increased by 1” + an ally’s Shield Intercept: 7 is three steps up, so 3 dice needing 6s', () => {
    // Given b, an ally with a shield intercepting, between the archer a and v, 6 spaces off (accurate 5, maximum 10);
    let events = fight(
      [
        hero('b', [0, -1], 'N', { shield: { bonus: 1 } }),
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -6]),
      ],
      { options: { arrowBreakage: false } },
    );
    events = then(events, { type: 'ShieldIntercept', combatantId: 'b' });
    // when a shoots v with a Knockdown: Precision 2 + Ranged Weapons 2 = 4 dice at 4 + 1 + 1 + 1 = 7: 6 and one die
    // less (S1): 6, 6, 1 = 2 > Defense 1. v's Athletics/Resolve at 3: 3, 1, 1 = 1. Damage Weapon Mastery 1 + base 2 at
    // 4 + 1: 5, 5, 1 = 2 > 1: knocked down, no damage.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', knockdown: true },
      { dice: [6, 6, 1, 3, 1, 1, 5, 5, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 4,
      difficulty: 6,
      removed: 1,
      roll: { faces: [6, 6, 1] },
      successes: 2,
    });
    expect(find(out, 'KnockdownResolved')).toMatchObject({ knockedDown: true });
    expect(types(out)).not.toContain('WoundsApplied');
    expect(stateOf([...events, ...out]).combatants.v).toMatchObject({ hp: 10 });
    expect(stateOf([...events, ...out]).combatants.v.conditions).toContainEqual(
      expect.objectContaining({ condition: 'prone' }),
    );
  });

  it('Shatter: “shatter with … a ranged weapon, but the difficulties … increased by 1” + “Weapons that are strong or weak against plate armor apply that adjustment while shattering a shield”: +1 − 1, and neither Defense nor the Shield Bonus counts', () => {
    const crossbow = { ...bow, id: 'crossbow', name: 'Crossbow', strongAgainst: ['plate'] };
    const events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [crossbow] }),
        foe('v', [0, -3], 'S', { shield: { bonus: 2, hp: 5 } }),
      ],
      { options: { arrowBreakage: false } },
    );
    // a: 4 dice at 4 + 1 − 1 = 4: 4, 4, 4, 1 = 3. v's shield: Precision 2 + Melee Weapons 2 at 4: 4, 1, 1, 1 = 1.
    // a wins: damage Weapon Mastery 1 + base 2 at 4 + 1: 5, 5, 1 = 2 off the shield's 5 HP.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'crossbow', shatter: { itemId: 'shield' } },
      { dice: [4, 4, 4, 1, 4, 1, 1, 1, 5, 5, 1] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 4 });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedItemId: 'shield',
      damage: 2,
    });
    expect(stateOf([...events, ...out]).combatants.v.weapons.shield).toMatchObject({ hp: 3 });
  });
});

describe('Soul magic, shields and grapples (archsoul.txt: Soul Shield, Elemental, Soul, Critical Failure Tables, Being Grappled)', () => {
  it('Soul Shield: “when attacked by any effect that allows a Soulpower defensive roll” + Elemental: “Resisted By: Defense, Shield bonus”: the shielded ally meets a fire bolt with its own Defense, a Rending with the caster’s Soulpower/Resolve', () => {
    // Given a (Defense 3, Soulpower 3) shielding b (Defense 1, Soulpower 1);
    const strong = { defense: 3, attributes: { ...unarmed.attributes, soulpower: 3 } };
    let events = fight([
      hero('a', [0, 0], 'N', strong),
      hero('b', [1, 0]),
      foe('v', [1, -4], 'S', caster(firebolt, { weapons: [firebolt, rend] })),
    ]);
    events = then(events, { type: 'SoulShield', combatantId: 'a', targetId: 'b' });
    events = then(events, { type: 'EndPhase' });
    // when v's fire bolt rolls 3 dice at 4: 4, 4, 1 = 2 > b's own Defense 1 (not a's 3), then it hits; damage
    // Soulpower 1 + Evocation 1 at 4: 4, 4 = 2;
    const bolt = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'b', weaponId: 'firebolt' },
      { dice: [4, 4, 1, 4, 4] },
    );
    expect(find(bolt, 'ExchangeResolved')).toMatchObject({ hit: true, resistance: 1 });
    expect(find(bolt, 'WoundsApplied')).toMatchObject({ combatantId: 'b', damage: 2 });
    // when v's Rending rolls 4, 4, 4 = 3, then b defends with a's Soulpower 3 + Resolve 1 = 4 dice: 4, 4, 4, 1 = 3: a miss.
    const rending = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'b', weaponId: 'rend' },
      { dice: [4, 4, 4, 4, 4, 4, 1] },
    );
    expect(find(rending, 'ExchangeResolved')).toMatchObject({ hit: false });
  });

  it('“Shift 2m towards target” + Being Grappled: “Any action that would cause your character to move causes all targets grappling you to move as well”: the caster’s fumbled Rending shifts it, and drags the one it holds by the same step', () => {
    // Given a holding v; w, the target, 4 spaces east;
    let events = grappled(caster(rend), [foe('w', [4, 0])]);
    events = nextRound(events);
    // when a casts at w: the grapple roll first (4, 4, 1 = 2 against 4, 1, 1 = 1), then 1, 1, 2: a critical failure
    // (w's Soulpower/Resolve 3, 3), the soul table's 5: a shifts one space toward w;
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'rend' },
      { dice: [4, 4, 1, 4, 1, 1, 1, 1, 2, 3, 3], followUpFaces: [5] },
    );
    // then v is dragged by the same step, and the two stay grappled side by side.
    const moves = out.filter((e) => e.type === 'Moved').map((e) => e.data);
    expect(moves).toEqual([
      expect.objectContaining({ combatantId: 'a', action: 'shift', to: { x: 1, y: 0 } }),
      expect.objectContaining({ combatantId: 'v', action: 'dragged', to: { x: 1, y: -1 } }),
    ]);
    expect(stateOf([...events, ...out]).grapples).toHaveLength(1);
  });
});

describe('Grappling’s own attacks (archsoul.txt: Grappling: Attack, Throw, Being Grappled, Reactive Attack)', () => {
  it('Grappling: Attack: “If you are wielding a weapon with the Close Combat property, you may deal damage with that weapon instead” + Being Grappled: “you may not attack with a weapon”: the dagger deals its melee damage in the grapple, though an Attack with it is refused', () => {
    const knife = { ...dagger, properties: ['closeCombat'] };
    let events = nextRound(grappled({ weapons: [knife] }));
    expect(refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'dagger' }).code).toBe(
      'ARCHSOUL_GRAPPLED',
    );
    // Opposed: 4, 4, 1 = 2 against 4, 1, 1 = 1; the dagger's damage Athletics 2 + Weapon Mastery 1 + base 1 at 4:
    // 4, 4, 1, 1 = 2.
    const out = exact(
      events,
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v', weaponId: 'dagger' },
      { dice: [4, 4, 1, 4, 1, 1, 4, 4, 1, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'v',
      damage: 2,
      damageRoll: { pool: 4 },
    });
    events = [...events, ...out];
    expect(stateOf(events).combatants.v.hp).toBe(8);
  });

  it('Throw: “knock the opponent down. The grapple immediately ends” + Being Grappled: “You also do not have a front arc … cannot make reactive attacks” + “Standing up from a prone position”: freed, the thrower faces the foe again and may react to its standing up', () => {
    // Given a holding v, north of it and in its front arc;
    let events = nextRound(grappled());
    // when a's Throw wins (4, 4, 1 = 2 against 4, 1, 1 = 1; unarmed damage Athletics 2: 4, 4 = 2) and knocks v down,
    events = then(
      events,
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v', outcome: 'knockDown' },
      { dice: [4, 4, 1, 4, 1, 1, 4, 4] },
    );
    expect(stateOf(events).grapples).toEqual([]);
    events = then(events, { type: 'EndPhase' });
    // then v standing up in its own turn is first offered to a as a reactive attack.
    const up = exact(events, { type: 'StandUp', combatantId: 'v' });
    expect(find(up, 'ReactiveAttackOffered')).toMatchObject({ actorId: 'v', reactorId: 'a' });
  });
});
