/**
 * Interactions between two or more rules of archsoul.txt, worked by hand from the text and checked
 * against the engine with given/when/then tests. Each title quotes the text's words; the comments give the arithmetic.
 * Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee Weapons 2, Ranged
 * Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword (base 2). So a
 * thrown attack rolls Precision 2 + Primitive Attacks 1 = 3 dice, a thrown weapon's damage Athletics 2 + Weapon
 * Mastery 1 + base, a sword attack 4 dice and its damage 5, the Endurance/Resolve prevention roll 3 dice at 3.
 */
import { RuleEvent } from '../../src/core/types';
import { neighbours } from '../../src/archsoul/grid';
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
  then,
  types,
  unarmed,
} from './helpers';

/** A thrown bomb: base 3, accurate 3, maximum 6, radius 2 m (one space and its neighbours). */
const bomb = {
  id: 'bomb',
  name: 'Bomb',
  type: 'thrown',
  damage: 3,
  accurateRange: 3,
  maximumRange: 6,
  areaRadius: 2,
};
const shielded = (bonus: number, extra: Record<string, unknown> = {}) => ({
  shield: { bonus },
  ...extra,
});
const area = (out: RuleEvent[]) =>
  find(out, 'AreaAttackResolved').targets.map((t: any) => [
    t.targetId,
    t.targetArc,
    t.difficulty,
    t.successes,
    t.resistance,
    t.hit,
  ]);
const wounds = (out: RuleEvent[]) =>
  out
    .filter((e) => e.type === 'WoundsApplied')
    .map((e) => [(e.data as any).combatantId, (e.data as any).damage]);
const throwBomb = (centre: { x: number; y: number }, attackerId = 'a') => ({
  type: 'AreaAttack',
  attackerId,
  weaponId: 'bomb',
  centre,
});
const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ x: from + i + 1, y: 0 }));
const caster = (weapon: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  weapons: [weapon],
  skills: { ...unarmed.skills, soulCasting: 2, evocation: 1 },
  ...extra,
});
const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
const firebolt = { id: 'firebolt', name: 'Firebolt', type: 'elemental', accurateRange: 5, maximumRange: 10 };
/** a grabs v from behind (v faces away): 4, 4, 1 = 2 against v's 4, 1, 1 = 1. */
const grabbed = (fighters: Parameters<typeof fight>[0]) =>
  then(fight(fighters), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });

describe('Area of Effect Attacks with shields, arcs, grapples and Down targets (archsoul.txt: Area of Effect Attacks, The Battle Map, Hold Firm, Being Grappled)', () => {
  it('Area of Effect Attacks: “every individual target defending separately” + Shield Bonus and arcs: the one at the centre and one holding firm keep their shields, one with its back to the centre loses it', () => {
    // Area around (0, -3): v stands at the centre (its own space: front arc, S34), w beside it facing away (back arc),
    // h (a's ally, in the area too) faces away but Holds Firm ("treated as if they were attacking your front arc").
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [bomb] }),
      hero('h', [0, -2], 'S', shielded(2)),
      foe('v', [0, -3], 'S', shielded(2)),
      foe('w', [1, -3], 'NE', shielded(2)),
    ]);
    events = then(events, { type: 'HoldFirm', combatantId: 'h' });
    // One roll, 3 dice at 4: 5, 5, 1 = 2. v: 2 against 1 + 2, a miss; w: 2 against 1 (no shield from the back), a hit;
    // h: 2 against 1 + 2, a miss. One damage roll, 6 dice: 4, 4, 1, 1, 1, 1 = 2, on w alone.
    const out = exact(events, throwBomb({ x: 0, y: -3 }), { dice: [5, 5, 1, 4, 4, 1, 1, 1, 1] });
    expect(area(out)).toEqual([
      ['h', 'front', 4, 2, 3, false],
      ['v', 'front', 4, 2, 3, false],
      ['w', 'back', 4, 2, 1, true],
    ]);
    expect(wounds(out)).toEqual([['w', 2]]);
  });

  it('Area of Effect Attacks: “against everything within the attack’s area” + Being Grappled: “you also do not have a front arc … benefit from using a shield” + a Down target: none of them keeps a shield, all are hit by the one damage roll', () => {
    // a (shield, one hand free) grabs v (shield) from behind; d (shield, facing the centre) is brought Down by the GM.
    let events = grabbed([
      hero('a', [0, 0], 'N', { weapons: [], shield: { bonus: 2 } }),
      hero('b', [3, -1], 'N', { weapons: [bomb] }),
      foe('v', [0, -1], 'N', shielded(2)),
      foe('d', [1, -2], 'S', shielded(2)),
    ]);
    events = then(events, { type: 'ApplyDamage', combatantId: 'd', damage: 10 });
    // b throws at v's space (3 away, within accurate range): 5, 5, 1 = 2 against Defense 1 alone for each of them.
    const out = exact(events, throwBomb({ x: 0, y: -1 }, 'b'), { dice: [5, 5, 1, 4, 4, 1, 1, 1, 1] });
    expect(area(out)).toEqual([
      ['a', 'back', 4, 2, 1, true],
      ['v', 'back', 4, 2, 1, true],
      ['d', 'back', 4, 2, 1, true],
    ]);
    // "All targets hit are then affected by the same damage roll": 2 each; d stays at 0.
    expect(wounds(out)).toEqual([
      ['a', 2],
      ['v', 2],
      ['d', 2],
    ]);
    expect(stateOf([...events, ...out]).combatants.d.hp).toBe(0);
  });

  it('Area of Effect Attacks: “against everything within the attack’s area” + the thrower standing inside it: it defends like any target, its arc seen from the centre', () => {
    // a throws at the space in front of it (v there faces away, so no reactive attack); the 2 m area holds a too.
    const setup = (facing: string) =>
      fight([hero('a', [0, 0], facing, { weapons: [bomb], ...shielded(2) }), foe('v', [0, -1], 'N')]);
    // Facing the centre, a's shield counts: 2 against 1 + 2 misses a, hits v.
    const facingIt = exact(setup('N'), throwBomb({ x: 0, y: -1 }), { dice: [5, 5, 1, 4, 4, 1, 1, 1, 1] });
    expect(area(facingIt)).toEqual([
      ['a', 'front', 4, 2, 3, false],
      ['v', 'front', 4, 2, 1, true],
    ]);
    expect(wounds(facingIt)).toEqual([['v', 2]]);
    // Its back to the centre, a is hit by its own bomb and takes the same damage.
    const backTurned = exact(setup('S'), throwBomb({ x: 0, y: -1 }), { dice: [5, 5, 1, 4, 4, 1, 1, 1, 1] });
    expect(area(backTurned)).toEqual([
      ['a', 'back', 4, 2, 1, true],
      ['v', 'front', 4, 2, 1, true],
    ]);
    expect(wounds(backTurned)).toEqual([
      ['a', 2],
      ['v', 2],
    ]);
  });

  it('Area of Effect Attacks: “recount it for each difficulty level needed” + Armor Advantages “strong against”/“weak against” + a Shield Bonus: three difficulties and three resistances from one roll', () => {
    const acidBomb = { ...bomb, strongAgainst: ['leather'], weakAgainst: ['plate'] };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [acidBomb] }),
      foe('l', [0, -3], 'S', { armour: { type: 'leather' } }),
      foe('p', [1, -3], 'S', { armour: { type: 'plate' } }),
      foe('s', [0, -4], 'S', shielded(1)),
    ]);
    // 3 dice 5, 4, 3, rolled once at the lowest difficulty (3). l (leather, 3): 3 > 1, a hit. p (plate, 5): 1, not
    // above 1. s (4): 2, not above 1 + 1. Damage: no Armor Piercing, so 6 dice at 4: 4, 4, 4, 1, 1, 1 = 3 on l.
    const out = exact(events, throwBomb({ x: 0, y: -3 }), { dice: [5, 4, 3, 4, 4, 4, 1, 1, 1] });
    expect(find(out, 'AreaAttackResolved').attack).toMatchObject({ difficulty: 3, successes: 3 });
    expect(area(out)).toEqual([
      ['l', 'front', 3, 3, 1, true],
      ['p', 'back', 5, 1, 1, false],
      ['s', 'front', 4, 2, 2, false],
    ]);
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'l',
      damage: 3,
      damageRoll: { difficulty: 4 },
    });
  });

  it('Area of Effect Attacks + Thrown Weapon: “Attacks made outside of your weapon’s accurate range … increased by 1”: the range is the centre’s, so a target inside the accurate range is 1 harder too', () => {
    // The centre (0, -4) is 4 away (accurate 3); t at (0, -3) is 3 away but in the area.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb] }), foe('t', [0, -3], 'S')]);
    // 5, 4, 4 at 5 = 1, not above Defense 1 (at 4 it would have been 3).
    const out = exact(events, throwBomb({ x: 0, y: -4 }), { dice: [5, 4, 4] });
    expect(area(out)).toEqual([['t', 'back', 5, 1, 1, false]]);
    expect(types(out)).not.toContain('WoundsApplied');
  });
});

describe('Armor Advantages with unarmed, broken, improvised, thrown and elemental attacks (archsoul.txt: Armor Advantages, Unarmed, Melee Weapon, Thrown Weapon, Elemental)', () => {
  const knuckles = {
    id: 'knuckles',
    name: 'Knuckles',
    type: 'unarmed',
    damage: 0,
    strongAgainst: ['leather'],
  };

  it('Armor Advantages: “does not apply to damage rolls unless … Armor Piercing” + Unarmed: “The damage roll is increased by 1 if you are wearing metal armor on the limb”: the attack is 1 easier, the damage roll is not, and the gauntlet adds 1', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [knuckles], metalGauntlets: true }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    // Precision 2 + Primitive Attacks 1 = 3 dice at 3: 3, 3, 1 = 2 > 1. Damage Athletics 2 + base 0 = 2 dice at 4:
    // 4, 3 = 1, plus the gauntlet's 1 = 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'knuckles' },
      { dice: [3, 3, 1, 4, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 3 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      damage: 2,
      bonus: 1,
      damageRoll: { pool: 2, difficulty: 4 },
    });
  });

  it('Armor Advantages: “unless your weapon has the Armor Piercing property” + an unarmed strike with a gauntlet: the damage roll is 1 easier too, and the gauntlet still adds 1', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...knuckles, armourPiercing: true }], metalGauntlets: true }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' } }),
    ]);
    // 3, 3, 1 at 3 = 2 > 1; damage 2 dice at 3: 3, 3 = 2, plus 1 = 3.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'knuckles' },
      { dice: [3, 3, 1, 3, 3] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, bonus: 1, damageRoll: { difficulty: 3 } });
  });

  it('Melee Weapon: “Attack and damage rolls with improvised or broken weapons have increased difficulty” + Armor Advantages with Armor Piercing: each adds or takes 1 from both rolls', () => {
    const club = {
      id: 'club',
      name: 'Spiked club',
      type: 'melee',
      damage: 2,
      improvised: true,
      broken: true,
      armourPiercing: true,
      strongAgainst: ['chain'],
    };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [club] }),
      foe('v', [0, -1], 'S', { armour: { type: 'chain' } }),
    ]);
    // Attack 4 dice at 4 + 1 + 1 − 1 = 5: 5, 5, 4, 1 = 2 > 1. Damage 5 dice at 5: 5, 5, 4, 4, 1 = 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'club' },
      { dice: [5, 5, 4, 1, 5, 5, 4, 4, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { pool: 5, difficulty: 5 } });
  });

  it('Armor Advantages “strong against” + Thrown Weapon beyond the accurate range: −1 and +1 cancel on the attack roll; the damage roll stays at 4', () => {
    const pilum = { ...javelin, id: 'pilum', name: 'Pilum', strongAgainst: ['plate'] };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [pilum] }),
      foe('v', [0, -5], 'S', { armour: { type: 'plate' } }),
    ]);
    // 5 away (accurate 3, maximum 6): 3 dice at 4: 4, 4, 1 = 2 > 1. Damage 5 dice at 4: 4, 4, 4, 1, 1 = 3.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'pilum', targetId: 'v' },
      { dice: [4, 4, 1, 4, 4, 4, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 4 } });
    expect(find(out, 'ExchangeResolved').attack.modifiers).toEqual([
      expect.objectContaining({ amount: -1 }),
      expect.objectContaining({ amount: 1 }),
    ]);
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, damageRoll: { pool: 5, difficulty: 4 } });
  });

  it('Armor Advantages: “(and some types of magic)” + Elemental: “Defense, Shield bonus”: a fire bolt strong against plate is 1 easier to roll, still meets the shield, and its Soulpower/Evocation damage is not eased', () => {
    const bolt = { ...firebolt, strongAgainst: ['plate'] };
    const events = fight([
      hero('a', [0, 0], 'N', caster(bolt)),
      foe('v', [0, -3], 'S', shielded(1, { armour: { type: 'plate' } })),
    ]);
    // Soulpower 1 + Soul Casting 2 = 3 dice at 3: 3, 3, 3 = 3 > 1 + 1. Damage Soulpower 1 + Evocation 1 at 4: 4, 3 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'firebolt' },
      { dice: [3, 3, 3, 4, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      shieldBonus: 1,
      resistance: 2,
      attack: { difficulty: 3 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { pool: 2, difficulty: 4 } });
  });
});

describe('Thrown cumbersome items, range and a roll of 0 (archsoul.txt: Thrown Weapon, Throw an Item, Lifting, Throwing, and Improvised Weapons)', () => {
  it('Thrown Weapon: “uses Athletics to hit … the difficulty of the attack roll is also increased by 1” + beyond the accurate range + “A roll of 0 means the item lands in a random adjacent space”', () => {
    const boulder = {
      id: 'boulder',
      name: 'Boulder',
      type: 'thrown',
      damage: 4,
      heavy: true,
      accurateRange: 2,
      maximumRange: 4,
    };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [boulder] }), foe('v', [0, -3], 'S')]);
    // Athletics 2 + Primitive Attacks 1 = 3 dice at 4 + 1 + 1 = 6: 5, 5, 2 = 0 (no 1s: no critical failure).
    // A roll of 0: the follow-up 1 names the first neighbour of v's space.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'boulder', targetId: 'v' },
      { dice: [5, 5, 2], followUpFaces: [1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      attack: { pool: 3, difficulty: 6, successes: 0 },
    });
    expect(find(out, 'ProjectileLanded').space).toEqual(neighbours('hex', { x: 0, y: -3 })[0]);
  });

  it('Lifting table: “stacks with the penalty for using an improvised weapon … and the penalty for throwing oversized objects” + beyond its accurate throw range: every die is removed, a roll of 0 lands beside the target', () => {
    // A 30 lb chair (Lifting Athletics 1) in Athletics 2 hands: difference 1: +2, accurate throw 2 m (1 space),
    // Attribute Maximum 1. Pool min(2, 1) + Primitive Attacks 1 = 2 dice; difficulty 4 + 2 (Lifting) + 1 (improvised)
    // + 1 (oversized) + 1 (2 away, beyond 1) = 9: 6s needed and 3 dice removed (S1): nothing is rolled, 0.
    const chair = {
      id: 'chair',
      name: 'Chair',
      type: 'thrown',
      weightLb: 30,
      liftingAthletics: 1,
      heavy: true,
      accurateRange: 3,
      maximumRange: 4,
    };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [chair] }), foe('v', [0, -2], 'S')]);
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'chair', targetId: 'v' },
      { dice: [], followUpFaces: [2] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      attack: { pool: 2, difficulty: 6, removed: 3, successes: 0, criticalFailure: false },
    });
    expect(find(out, 'ProjectileLanded').space).toEqual(neighbours('hex', { x: 0, y: -2 })[1]);
  });
});

describe('Moving three times, Slow Move, jumps, reactive attacks and the ambush (archsoul.txt: Move, Slow Move, Jumping, Reactive Attack, Ambushes)', () => {
  it('Move: “If you use this action three times in one round, you may move twice as far” + Slow Move: a Slow Move is not that action, so Move, Slow Move, Move leaves the second Move at its speed', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -9])]);
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 3) });
    events = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 4, y: 0 } });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(4, 4) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      field: 'path',
    });
    const out = exact(events, { type: 'Move', combatantId: 'a', path: east(4, 3) });
    expect(find(out, 'Moved')).toMatchObject({ distance: 3, to: { x: 7, y: 0 } });
  });

  it('Move three times + Reactive Attack: “it has a chance of preventing the action from happening at all”: the prevented Move was still used, so the third covers 6 × speed less the 3 spaces walked (S14)', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 3) });
    // v: 6, 6, 1, 1 = 2 > 1; damage 6, 6, 6, 1, 1 = 3; a's Endurance/Resolve 1, 1, 1 = 0: prevented.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, ap: 2 });
    // Once per target per attacker per turn: v, already offered, does not react to the second Move.
    const second = exact(events, { type: 'Move', combatantId: 'a', path: east(0, 3) });
    expect(types(second)).toEqual(['ApSpent', 'Moved']);
    events = [...events, ...second];
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(3, 16) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
    });
    const third = exact(events, { type: 'Move', combatantId: 'a', path: east(3, 15) });
    expect(find(third, 'Moved')).toMatchObject({ distance: 15, to: { x: 18, y: 0 } });
  });

  it('Move three times + Jumping: “You may jump a distance in meters equal to your Athletics attribute plus half your Conditioning skill”: the third Move’s longer walk does not lengthen the jump', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -9])]);
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 3) });
    events = then(events, { type: 'Move', combatantId: 'a', path: east(3, 3) });
    // Athletics 2 + half of Conditioning 0 = 2 m: one space. The third Move may cover 12.
    expect(
      refused(events, { type: 'Move', combatantId: 'a', path: east(6, 5), jump: true, jumpFrom: 3 }),
    ).toMatchObject({ code: 'ARCHSOUL_JUMP_TOO_FAR' });
    const out = exact(events, { type: 'Move', combatantId: 'a', path: east(6, 5), jump: true, jumpFrom: 4 });
    expect(out.filter((e) => e.type === 'Moved').map((e) => (e.data as any).distance)).toEqual([4, 1]);
  });

  it('S80: Ambushes: “freely move up to their base movement speed … without spending any action points” + Move three times: the free movement is not the Move action, but RULINGS.md S14 takes “the distance already moved this turn” off the third Move, free spaces too', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -9])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) });
    events = then(events, { type: 'Move', combatantId: 'a', path: east(3, 3) });
    events = then(events, { type: 'Move', combatantId: 'a', path: east(6, 3) });
    // S14: 6 × 3 = 18, less the 9 spaces already moved this turn (3 free, then 3 and 3 with Moves): 9.
    expect(stateOf(events).combatants.a).toMatchObject({ moveDistance: 9, moves: 2, ap: 1 });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(9, 10) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
    });
    const out = exact(events, { type: 'Move', combatantId: 'a', path: east(9, 9) });
    expect(find(out, 'Moved')).toMatchObject({ distance: 9, to: { x: 18, y: 0 } });
  });

  it('S81: Ambushes’ free move + Reactive Attack: “it has a chance of preventing the action from happening at all”: a prevented free move ends the free movement', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, ap: 3, freeMove: 0 });
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) })).toMatchObject({
      code: 'ARCHSOUL_NO_FREE_MOVE',
    });
    // Its AP are untouched: a Move (1 AP) still walks on, and v, already offered, does not react again.
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: east(0, 3) }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });
});

describe('Facing outside the own turn, and many reactors (archsoul.txt: The Battle Map, Feint, Reactive Attack)', () => {
  it('“you cannot rotate your mini outside of your turn” + Feint: “you may rotate the opponent in any direction”: turned away, the foe cannot turn back, and an ally’s arrow from behind meets no shield', () => {
    let events = fight(
      [
        hero('a', [0, 0], 'N', { skills: { ...unarmed.skills, confusion: 2 } }),
        hero('b', [0, 2], 'N', { weapons: [bow] }),
        foe('v', [0, -1], 'S', shielded(2)),
      ],
      { options: { arrowBreakage: false } },
    );
    // Feint: Precision 2 + Confusion 2 = 4 dice at 5: 5, 5, 1, 1 = 2 against v's Intellect 1 at 4: 1 = 0. v is turned
    // north; the sword: 4, 4, 1, 1 = 2 > 1; damage 4, 1, 1, 1, 1 = 1.
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: { facing: 'N' } },
      { dice: [5, 5, 1, 1, 1, 4, 4, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.v.facing).toBe('N');
    expect(refused(events, { type: 'Turn', combatantId: 'v', facing: 'S' })).toMatchObject({
      code: 'ARCHSOUL_NOT_YOUR_TURN',
    });
    // b's arrow from the south strikes v's back arc: 4 dice 4, 4, 1, 1 = 2 > Defense 1 alone.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'b', targetId: 'v', weaponId: 'bow' },
      { dice: [4, 4, 1, 1, 4, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      targetArc: 'back',
      shieldBonus: 0,
      resistance: 1,
      hit: true,
    });
  });

  it('Reactive Attack with three reactors: offered one at a time; one declines, one hits without preventing, the third prevents; the next Move out of their reach draws none (“once per target per attacker per turn”)', () => {
    let events = fight([
      hero('a', [0, 0], 'N'),
      foe('p', [0, -1], 'S'),
      foe('q', [1, -1], 'SW'),
      foe('r', [-1, 0], 'NE'),
    ]);
    const move = exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    expect(find(move, 'ReactiveAttackTriggered').reactorIds).toEqual(['p', 'q', 'r']);
    events = then([...events, ...move], { type: 'DeclineReactiveAttack', combatantId: 'p' });
    expect(stateOf(events).pending).toMatchObject({ awaiting: 'q' });
    // q: 4, 4, 1, 1 = 2 > 1; damage 4, 1, 1, 1, 1 = 1; a's 3, 3, 1 = 2 > 1: not prevented; r is offered.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'q', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1, 3, 3, 1] },
    );
    expect(stateOf(events).pending).toMatchObject({ awaiting: 'r' });
    // r: 4, 4, 1, 1 = 2 > 1; damage 4, 4, 4, 1, 1 = 3; a's 3, 1, 1 = 1, not above 3: prevented.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'r', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 4, 4, 1, 1, 3, 1, 1] },
    );
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, hp: 6, ap: 2 });
    const again = exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    expect(types(again)).toEqual(['ApSpent', 'Moved']);
  });
});

describe('Soul magic against shields, arcs and grapples (archsoul.txt: Soul, Elemental, Being Grappled, Reactive Attack)', () => {
  it('Soul: “harming an opponent’s soul with Rending” + Soulpower/Resolve: neither Defense nor a Shield Bonus in the front arc counts', () => {
    const events = fight([
      hero('a', [0, 0], 'N', caster(rend)),
      foe('v', [0, -3], 'S', shielded(3, { defense: 5 })),
    ]);
    // Soulpower 1 + Soul Casting 2 = 3 dice at 4: 4, 1, 1 = 1 against v's Soulpower/Resolve 2 dice: 2, 3 = 0.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' },
      { dice: [4, 1, 1, 2, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, resistance: 0 });
    expect(types(out)).not.toContain('WoundsApplied');
  });

  it('Being Grappled: “you also do not have a front arc, meaning you cannot make reactive attacks” + “Attacking with soul magic”: the grappler facing the caster makes none; the caster’s grapple roll comes first', () => {
    // a grabs v, who faces it and declines its reactive attack; next round a casts at w.
    let events = fight([
      hero('a', [0, 0], 'N', caster(rend)),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -4], 'S'),
    ]);
    events = then(events, { type: 'Grab', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    events = then(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    for (const id of ['a', 'v', 'w']) events = then(events, { type: 'EndTurn', combatantId: id });
    events = then(events, { type: 'StartRound' });
    // Grapple roll 4, 4, 1 = 2 against v's 4, 1, 1 = 1; then the Rending: 4, 4, 1 = 2 against w's 4, 1 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'rend' },
      { dice: [4, 4, 1, 4, 1, 1, 4, 4, 1, 4, 1] },
    );
    expect(types(out)).not.toContain('ReactiveAttackTriggered');
    expect(types(out).slice(0, 2)).toEqual(['GrappleRolled', 'ApSpent']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetId: 'w', hit: true });
  });

  it('Elemental: “allow targets to benefit from the ranged protection of shields” + Being Grappled: “benefit from using a shield”: a grappled target facing the caster gets no Shield Bonus', () => {
    const events = grabbed([
      hero('a', [0, 0], 'N', { weapons: [] }),
      hero('b', [0, -4], 'S', caster(firebolt)),
      foe('v', [0, -1], 'N', shielded(2)),
    ]);
    // b: 3 dice at 4: 4, 4, 1 = 2 against Defense 1 alone (not 1 + 2). Damage 2 dice at 4: 4, 1 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'b', targetId: 'v', weaponId: 'firebolt' },
      { dice: [4, 4, 1, 4, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ shieldBonus: 0, resistance: 1, hit: true });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1 });
  });
});
