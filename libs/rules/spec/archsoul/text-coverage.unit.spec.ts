/**
 * A coverage pass over archsoul.txt from its first line to its last: each statement with a number, a condition, a
 * cost, a limit, a table row or an exception that no other spec checked with concrete numbers (or checked only on its
 * easy branch) is worked by hand here, from the text alone, and checked against the engine. The describe blocks follow
 * the text's sections; each title quotes the sentence it checks. Default sheet (helpers.ts): Precision, Athletics,
 * Endurance 2, Soulpower, Intellect 1; Awareness 1, Melee Weapons 2, Ranged Weapons 2, Primitive Attacks 1, Weapon
 * Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword (base 2). A success is a die at or above the difficulty (4
 * unless said); a hit needs more successes than the Defense (S3). Hex grid: a combatant facing N has in front every
 * space with a smaller y.
 */
import { neighbours } from '../../src/archsoul/grid';
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
  rider,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

const at = (x: number, y: number) => ({ x, y });
/** n spaces walked north (y falling) from (x, 0). */
const north = (n: number, x = 0) => Array.from({ length: n }, (_, i) => ({ x, y: -(i + 1) }));
const all = (events: RuleEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data as Record<string, any>);
/** The GM closes every phase left in the round, then opens the next round. */
const nextRound = (events: RuleEvent[]): RuleEvent[] => {
  let e = events;
  while (stateOf(e).roundOpen) e = then(e, { type: 'EndPhase' });
  return then(e, { type: 'StartRound' });
};
/** A fight whose initiative has not been set yet (no InitiativeSet, no round). */
const unordered = (...args: Parameters<typeof fight>) =>
  fight(args[0], { ...args[1], round: false }).filter((e) => e.type !== 'InitiativeSet');

describe('Turn Order (archsoul.txt: Turn Order)', () => {
  it('“Ties are broken by whoever has the higher Awareness skill, then by higher Precision attribute”: given two heroes with 1 success each, when the tie is broken, then Awareness 2 (Precision 1) goes before Awareness 1 (Precision 2)', () => {
    // a: Precision 1 + Awareness 2 = 3 dice 4, 1, 1 = 1. b: Precision 2 + Awareness 1 = 3 dice 4, 1, 1 = 1.
    // The GM's one roll for v: 3 dice 1, 2, 3 = 0. The tie a–b goes to the higher Awareness (a), Precision never asked.
    const events = unordered([
      hero('a', [0, 0], 'N', {
        attributes: { ...unarmed.attributes, precision: 1 },
        skills: { ...unarmed.skills, awareness: 2 },
      }),
      hero('b', [1, 0]),
      foe('v', [0, -4]),
    ]);
    const rolled = exact(events, { type: 'RollInitiative' }, { dice: [4, 1, 1, 4, 1, 1, 1, 2, 3] });
    expect(find(rolled, 'InitiativeRolled').rolls.map((r: any) => [r.combatantId, r.total])).toEqual([
      ['a', 1],
      ['b', 1],
      ['v', 0],
    ]);
    expect(find(rolled, 'InitiativeRolled').order).toEqual(['a', 'b', 'v']);
  });

  it('“All players record their results rolled - this becomes your Initiative for the combat”: given initiative rolled, when the GM rolls again, then it is refused quoting the text, and round 2 runs in the same order with no new roll', () => {
    // a: 3 dice 4, 4, 1 = 2; the enemies' roll: 4, 1, 1 = 1.
    let events = unordered([hero('a', [0, 0]), foe('v', [0, -4])]);
    events = then(events, { type: 'RollInitiative' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(stateOf(events).order).toEqual(['a', 'v']);
    const again = refused(events, { type: 'RollInitiative' });
    expect(again).toMatchObject({ code: 'INITIATIVE_ALREADY_SET', field: 'type' });
    expect(again.message).toContain('archsoul.txt: Turn Order');
    events = nextRound(then(events, { type: 'StartRound' }));
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes', combatantIds: ['a'] });
    expect([stateOf(events).combatants.a.initiative, stateOf(events).combatants.v.initiative]).toEqual([
      2, 1,
    ]);
  });

  it('“Highest initiative takes the first turn, then going down the list”: given the GM’s roll (2) above both heroes (1, 0), when round 1 starts, then the enemies’ phase opens it and the heroes’ phase that follows holds both', () => {
    // a: 3 dice 4, 1, 1 = 1; b: 3 dice 1, 2, 3 = 0; the enemies' one roll (3 dice): 4, 4, 1 = 2.
    let events = unordered([hero('a', [0, 0]), hero('b', [1, 0]), foe('v', [0, -4]), foe('w', [1, -4])]);
    events = then(events, { type: 'RollInitiative' }, { dice: [4, 1, 1, 1, 2, 3, 4, 4, 1] });
    expect(stateOf(events).order).toEqual(['v', 'w', 'a', 'b']);
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).phase).toMatchObject({ round: 1, party: 'enemies', combatantIds: ['v', 'w'] });
    events = then(events, { type: 'EndPhase' });
    expect(stateOf(events).phase).toMatchObject({ round: 1, party: 'heroes', combatantIds: ['a', 'b'] });
  });

  it('“Players are highly encouraged to take turns simultaneously”: given the heroes’ phase, when b (ranked second) moves before a and then again after it, then each spends its own AP', () => {
    let events = fight([hero('a', [0, 0]), hero('b', [2, 0]), foe('v', [0, -6])]);
    events = then(events, { type: 'Move', combatantId: 'b', path: [at(2, 1)] });
    events = then(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    events = then(events, { type: 'Move', combatantId: 'b', path: [at(2, 2)] });
    const s = stateOf(events).combatants;
    expect([s.a.ap, s.b.ap, s.a.inTurn, s.b.inTurn]).toEqual([2, 1, true, true]);
  });
});

describe('Ambushes (archsoul.txt: Ambushes)', () => {
  it('Ambushes: “the surprising party may select an initiative order for the fight … all members of the surprising party may freely move”: given the enemies surprising, when the GM places them on top, then each enemy walks 3 spaces free and the heroes get none', () => {
    let events = unordered([hero('a', [0, 0]), foe('v', [0, -6]), foe('w', [2, -6])]);
    events = then(events, { type: 'DeclareAmbush', party: 'enemies' });
    events = then(events, { type: 'SetInitiative', order: ['v', 'w', 'a'] });
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).phase).toMatchObject({ round: 1, party: 'enemies', combatantIds: ['v', 'w'] });
    const s = stateOf(events).combatants;
    expect([s.v.freeMove, s.w.freeMove]).toEqual([3, 3]);
    // v walks its 3 spaces free, spending no AP.
    const walked = then(events, {
      type: 'Move',
      combatantId: 'v',
      free: true,
      path: [at(0, -5), at(0, -4), at(0, -3)],
    });
    expect(stateOf(walked).combatants.v).toMatchObject({ ap: 3, freeMove: 0, position: at(0, -3) });
    events = then(events, { type: 'EndPhase' });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, freeMove: 0 });
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: [at(0, -1)] }).code).toBe(
      'ARCHSOUL_NO_FREE_MOVE',
    );
  });

  it('Ambushes: “during the first round of combat”: given a surprising hero who does not use its free move in round 1, when round 2 starts, then it has none left', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -8])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.a.freeMove).toBe(3);
    events = nextRound(events);
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes' });
    expect(stateOf(events).combatants.a).toMatchObject({ freeMove: 0, ap: 3 });
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: [at(0, -1)] }).code).toBe(
      'ARCHSOUL_NO_FREE_MOVE',
    );
  });
});

describe('Attacking: the attack-type table (archsoul.txt: Attacking, Elemental)', () => {
  const flamer = {
    id: 'flamer',
    name: 'Flamethrower',
    type: 'elemental',
    attackRoll: 1,
    damage: 3,
    accurateRange: 2,
    maximumRange: 4,
  };

  it('Elemental: “Precision/Ranged Weapons … Defense, Shield bonus … Base weapon damage”: given a flamethrower, when it hits, then it rolled 4 dice against Defense 1 + Shield Bonus 1, and its damage pool is its 3 base dice, no Soulpower or Evocation', () => {
    // a: Soulpower 3 and Evocation 3, which the technological weapon does not use. Attack: Precision 2 + Ranged Weapons
    // 2 = 4 dice at 4: 4, 4, 4, 1 = 3 > 1 + 1. Damage: base 3 dice at 4: 4, 4, 1 = 2: v 10 → 8.
    const events = fight([
      hero('a', [0, 0], 'N', {
        weapons: [flamer],
        attributes: { ...unarmed.attributes, soulpower: 3 },
        skills: { ...unarmed.skills, evocation: 3, soulCasting: 3 },
      }),
      foe('v', [0, -2], 'S', { shield: { bonus: 1 } }),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'flamer' },
      { dice: [4, 4, 4, 1, 4, 4, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      attackType: 'elemental',
      attack: { pool: 4, difficulty: 4, successes: 3 },
      shieldBonus: 1,
      resistance: 2,
      hit: true,
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8, damageRoll: { pool: 3 } });
  });
});

describe('Unarmed (archsoul.txt: Unarmed)', () => {
  it('“with a weapon that conforms to your body like a gauntlet or claws”: given a greatsword filling both hands, when a strikes with its claws, then they need no hand: Precision/Primitive Attacks 3 dice, Athletics/Unarmed damage 2 + 1 dice', () => {
    const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
    const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword, claws] }), foe('v', [0, -1], 'S')]);
    expect(stateOf(events).combatants.a.hands).toEqual(['greatsword', 'greatsword']);
    // 4, 4, 1 = 2 > 1; damage 3 dice 4, 4, 1 = 2: v 10 → 8.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws' },
      { dice: [4, 4, 1, 4, 4, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      attackType: 'unarmed',
      attack: { pool: 3 },
      hit: true,
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8, damageRoll: { pool: 3 } });
  });
});

describe('Thrown Weapon (archsoul.txt: Thrown Weapon: accurate and maximum range)', () => {
  // The javelin: accurate range 3, maximum 6. a: Precision 2 + Primitive Attacks 1 = 3 dice. v faces away (no shield).
  const at3 = (d: number) => fight([hero('a', [0, 0], 'N', { weapons: [javelin] }), foe('v', [0, -d], 'N')]);
  const throwIt = { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' };

  it('Thrown Weapon: “Attacks made outside of your weapon’s accurate range, but within your weapon’s maximum range, have the difficulty of the attack roll increased by 1”: given a javelin (accurate 3, maximum 6), when thrown 3, 4, 6 and 7 spaces, then it rolls at 4, 5 and 5, and the last is refused', () => {
    // 3 away: 4, 4, 1 = 2 > 1, a hit; damage Athletics 2 + Weapon Mastery 1 + 2 = 5 dice 4, 1, 1, 1, 1 = 1.
    const inside = exact(at3(3), throwIt, { dice: [4, 4, 1, 4, 1, 1, 1, 1] });
    expect(find(inside, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 4 } });
    expect(find(inside, 'ProjectileLanded')).toMatchObject({ space: at(0, -3) });
    // 4 away: at 5 the same 4, 4, 1 is 0 successes (no 1 majority: no critical failure): a roll of 0.
    const beyond = exact(at3(4), throwIt, { dice: [4, 4, 1], followUpFaces: [1] });
    expect(find(beyond, 'ExchangeResolved')).toMatchObject({
      hit: false,
      attack: { difficulty: 5, successes: 0 },
    });
    const edge = exact(at3(6), throwIt, { dice: [5, 5, 1, 4, 1, 1, 1, 1] });
    expect(find(edge, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(refused(at3(7), throwIt)).toMatchObject({ code: 'ARCHSOUL_OUT_OF_RANGE', field: 'targetId' });
  });
});

describe('Area of Effect Attacks (archsoul.txt: “This pattern continues for larger areas”)', () => {
  const bomb = (areaRadius: number) => ({
    id: 'bomb',
    name: 'Bomb',
    type: 'thrown',
    damage: 3,
    accurateRange: 3,
    maximumRange: 6,
    areaRadius,
  });
  // One success (4, 2, 3) against Defense 1 hits nobody, so no damage roll; the bomb lands on the centre.
  const spaces = (radius: number, grid = 'hex') =>
    find(
      exact(
        fight([hero('a', [0, 0], 'N', { weapons: [bomb(radius)] }), foe('v', [0, -7])], { map: { grid } }),
        { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: at(0, -3) },
        { dice: [4, 2, 3] },
      ),
      'AreaAttackResolved',
    ).spaces as { x: number; y: number }[];

  it('“This pattern continues for larger areas”: given a bomb of radius 6 m, when it is thrown, then it hits the 4 m area and every space adjacent to it: 37 hexes (1 + 6 + 12 + 18), 49 squares (7 × 7)', () => {
    expect(spaces(6)).toHaveLength(37);
    expect(spaces(6, 'square')).toHaveLength(49);
    const key = (s: { x: number; y: number }) => `${s.x},${s.y}`;
    const four = spaces(4);
    const grown = new Set([...four, ...four.flatMap((s) => neighbours('hex', s))].map(key));
    expect(new Set(spaces(6).map(key))).toEqual(grown);
  });

  it('S14: given radii between the text’s steps, when thrown, then they count down: 3 m hits what 2 m hits (7 hexes), 5 m what 4 m hits (19)', () => {
    expect([spaces(3).length, spaces(5).length]).toEqual([7, 19]);
  });

  it('“All targets hit are then affected by the same damage roll”: given a 6 m bomb centred 3 spaces from its thrower, when it hits the thrower and a foe, then both take the one roll’s 2 damage', () => {
    // a at (0, 0), the centre (0, −3), v at (0, −5): both within 3. Attack 3 dice 4, 4, 4 = 3 > 1 for both (arcs from
    // the centre: a faces N, the centre in front; v faces S, the centre in front; no shields). Damage Athletics 2 +
    // Weapon Mastery 1 + 3 = 6 dice 4, 4, 1, 1, 1, 2 = 2 each.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb(6)] }), foe('v', [0, -5], 'S')]);
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: at(0, -3) },
      { dice: [4, 4, 4, 4, 4, 1, 1, 1, 2] },
    );
    expect(all(out, 'WoundsApplied').map((w) => [w.combatantId, w.damage, w.hp])).toEqual([
      ['a', 2, 8],
      ['v', 2, 8],
    ]);
  });
});

describe('The Action Economy: Throw an Item (archsoul.txt: Throw an Item, Draw Simple Item)', () => {
  it('Throw an Item: “Throw an item you are holding”: given a javelin still in its bandolier, when a throws it, then it is refused; when drawn first (Draw Simple Item, 1 AP), then it is thrown with 1 AP, leaving 1', () => {
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [sword, { ...javelin, held: false }] }),
      foe('v', [0, -3], 'N'),
    ]);
    const throwIt = { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' };
    expect(refused(events, throwIt)).toMatchObject({ code: 'ARCHSOUL_ITEM_NOT_HELD', field: 'itemId' });
    events = then(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'javelin' });
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, hands: ['sword', 'javelin'] });
    // 3 dice 4, 4, 1 = 2 > 1; damage 5 dice 4, 1, 1, 1, 2 = 1.
    const out = exact(events, throwIt, { dice: [4, 4, 1, 4, 1, 1, 1, 2] });
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'throwItem', ap: 1, apLeft: 1 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1 });
  });
});

describe('The Action Economy: Reactive Attack (archsoul.txt: Reactive Attack)', () => {
  // a at (0, 0) faces N; v at (0, −1) faces S: a is in v's front arc and sword reach. a steps to (−1, 0), still in v's
  // reach and front arc (S13: leaving the space triggers all the same).
  const duel = () => fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);

  it('Reactive Attack: “the target must make an Endurance/Resolve roll with difficulty 3”: given a reactive hit for 1 damage, when the mover rolls 3, 2, 2 (a 2 is no success at 3), then 1 does not exceed 1 and the Move is prevented; when 3, 3, 2, then it is not', () => {
    const events = then(duel(), { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    // v's sword: 4, 4, 1, 1 = 2 > 1, a hit; damage 5 dice 4, 1, 1, 1, 1 = 1. a: Endurance 2 + Resolve 1 = 3 dice at 3.
    const react = (prevention: number[]) =>
      exact(
        events,
        { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
        { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1, ...prevention] },
      );
    expect(find(react([3, 2, 2]), 'PreventionRolled')).toMatchObject({
      damage: 1,
      prevented: true,
      test: { pool: 3, difficulty: 3, successes: 1 },
    });
    expect(find(react([3, 3, 2]), 'PreventionRolled')).toMatchObject({
      damage: 1,
      prevented: false,
      test: { successes: 2 },
    });
  });

  it('Reactive Attack: “(once per target per attacker per turn)”: given v declined a’s first step out of its reach, when a steps out again that turn, then v is not offered; when it does so on its next turn, then v is', () => {
    let events = then(duel(), { type: 'Move', combatantId: 'a', path: [at(-1, 0)] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    events = then(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(stateOf(events).combatants.a.position).toEqual(at(-1, 0));
    // Back to (0, 0): leaving (−1, 0), in v's reach and front arc, offers nothing this turn.
    const back = exact(events, { type: 'Move', combatantId: 'a', path: [at(0, 0)] });
    expect(types(back)).toEqual(['ApSpent', 'Moved']);
    events = nextRound([...events, ...back]);
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes' });
    const again = exact(events, { type: 'Move', combatantId: 'a', path: [at(-1, 0)] });
    expect(find(again, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'leaveReach',
      reactorIds: ['v'],
    });
  });

  it('Reactive Attack: “The attack happens before the triggering action is performed, and it has a chance of preventing the action from happening at all”: given a shot held by a foe’s reactive attack, when the attack prevents it, then its 2 AP are spent but no arrow leaves the quiver', () => {
    // a shoots from inside v's reach and front arc: v's sword first, 4, 4, 1, 2 = 2 > 1; damage 4, 4, 1, 1, 2 = 2;
    // a's Endurance/Resolve 3, 3, 1 = 2 does not exceed 2: prevented.
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 1, 1, 2, 3, 3, 1] },
    );
    expect(find(out, 'PreventionRolled')).toMatchObject({ damage: 2, prevented: true });
    expect(types(out)).not.toContain('AmmunitionSpent');
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.ap, a.hp, a.weapons.bow.ammunition]).toEqual([1, 8, 5]);
    expect(stateOf([...events, ...out]).pending).toBeUndefined();
  });
});

describe('Special Attacks (archsoul.txt: Quick Attack, Reckless Attack)', () => {
  it('Quick Attack: “If you are wielding a non-light weapon in your other hand … increases by 1”: given a sword and a shield in hand, when a Quick Attacks with the sword, then only the sword’s own +1 counts: attack at 5, damage at 5', () => {
    const events = fight([hero('a', [0, 0], 'N', { shield: { bonus: 1 } }), foe('v', [0, -1], 'S')]);
    expect(stateOf(events).combatants.a.held).toEqual(['sword', 'shield']);
    // 4 dice at 4 + 1 (a non-light sword): 5, 5, 1, 1 = 2 > 1. Damage 5 dice at 4 + 1: 5, 1, 1, 1, 1 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' },
      { dice: [5, 5, 1, 1, 5, 1, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { difficulty: 5 } });
  });

  it('Attack Modifiers: “These maneuvers can modify … any maneuvers from the Special Attacks category”: given an axe, when a makes a Reckless Cleave, then it spends 3 AP, the one roll wants 4 + 2 + 1 = 7 (three dice at 6) and the damage 4 − 1 + 1 = 4', () => {
    const axe = { id: 'axe', name: 'Axe', type: 'melee', damage: 2 };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [axe] }),
      foe('v', [0, -1], 'S'),
      foe('w', [1, -1], 'S'),
    ]);
    // Pool 4, one die removed (S1): 6, 6, 1 = 2 > 1 for v and w. Damage: Athletics 2 + Weapon Mastery 1 + 2 = 5 dice
    // at 4: 4, 4, 1, 1, 1 = 2 each.
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        special: 'reckless',
        cleave: { spaces: [at(0, -1), at(1, -1)] },
      },
      { dice: [6, 6, 1, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'recklessAttack', ap: 3, apLeft: 0 });
    expect(find(out, 'AreaAttackResolved').attack).toMatchObject({ pool: 4, removed: 1, difficulty: 6 });
    expect(all(out, 'WoundsApplied').map((w) => [w.combatantId, w.damage, w.damageRoll.difficulty])).toEqual([
      ['v', 2, 4],
      ['w', 2, 4],
    ]);
  });
});

describe('Attack Modifiers: Feint (archsoul.txt: Feint)', () => {
  it('Feint: “roll Precision/Confusion or Precision/Acting difficulty 5”: given Acting 3 and Confusion 1, when a feints, then it rolls Precision 2 + Acting 3 = 5 dice; when it names Confusion, then 3', () => {
    const trickster = { skills: { ...unarmed.skills, acting: 3, confusion: 1 } };
    const events = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -1], 'S')]);
    // Feint 5 dice at 5: 5, 5, 1, 1, 2 = 2 against v's Intellect 1 + Read Emotions 0 = 1 die at 4: 6 = 1. Then the
    // declared attack: 4, 4, 1, 2 = 2 > 1; damage 4, 1, 1, 1, 2 = 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: true },
      { dice: [5, 5, 1, 1, 2, 6, 4, 4, 1, 2, 4, 1, 1, 1, 2] },
    );
    expect(find(out, 'FeintResolved')).toMatchObject({
      success: true,
      feint: { pool: 5, difficulty: 5, successes: 2 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1 });
    // Named: Precision 2 + Confusion 1 = 3 dice: 5, 1, 2 = 1, not above v's 1: the attack misses automatically.
    const named = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: { skill: 'confusion' } },
      { dice: [5, 1, 2, 6] },
    );
    expect(find(named, 'FeintResolved')).toMatchObject({ success: false, feint: { pool: 3 } });
    expect(find(named, 'ExchangeResolved')).toMatchObject({ hit: false, automaticMiss: expect.any(String) });
  });

  it('Attack Modifiers: “These maneuvers can modify other weapon attacks, including reactive attacks”: given a reactor who feints, when a walks out of its reach, then it feints first, turns a and strikes; a’s 2 successes exceed the 1 damage, so a walks on', () => {
    const trickster = { skills: { ...unarmed.skills, confusion: 2 } };
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', trickster)]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    // Feint: Precision 2 + Confusion 2 = 4 dice at 5: 5, 5, 1, 2 = 2 against a's 1 die at 4: 2 = 0. a is turned S.
    // The sword: 4, 4, 1, 2 = 2 > 1; damage 4, 1, 1, 1, 2 = 1. a's Endurance/Resolve at 3: 3, 3, 1 = 2 > 1.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword', feint: { facing: 'S' } },
      { dice: [5, 5, 1, 2, 2, 4, 4, 1, 2, 4, 1, 1, 1, 2, 3, 3, 1] },
    );
    expect(types(out)).toEqual([
      'FeintResolved',
      'Turned',
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(out, 'Turned')).toEqual({ combatantId: 'a', facing: 'S' });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      action: 'reactive',
      maneuvers: ['feint'],
      hit: true,
    });
    expect(find(out, 'PreventionRolled')).toMatchObject({ damage: 1, prevented: false });
    expect(stateOf([...events, ...out]).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
  });

  it('Feint: “Attempting this maneuver against a creature without human-like anatomy increases the difficulty of the roll by 1”: given a target of unfamiliar anatomy (ruling S28), when a feints it, then the feint is at 6', () => {
    const trickster = { skills: { ...unarmed.skills, confusion: 2 } };
    const events = fight([
      hero('a', [0, 0], 'N', trickster),
      foe('v', [0, -1], 'S', { anatomy: 'unfamiliar' }),
    ]);
    // 4 dice at 6: 6, 5, 5, 1 = 1, not above v's 1 die at 4: 4 = 1: a tie, the feint fails and the attack misses.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: true },
      { dice: [6, 5, 5, 1, 4] },
    );
    expect(find(out, 'FeintResolved')).toMatchObject({
      success: false,
      feint: { difficulty: 6, successes: 1 },
    });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false });
  });
});

describe('Attack Modifiers: Sneak Attack (archsoul.txt: Sneak Attack)', () => {
  /** a studies v (unaware, facing away) three times in round 1; round 2 opens. */
  const studied = (aExtra: Record<string, unknown>, vExtra: Record<string, unknown> = {}, d = 1) => {
    let events = fight([hero('a', [0, 0], 'N', aExtra), foe('v', [0, -d], 'N', vExtra)], {
      options: { arrowBreakage: false },
    });
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    return nextRound(events);
  };

  it('Sneak Attack: “at least 5 ranks in the Survival skill to sneak attack hostile plants”: given a studied hostile plant, when a sneak attacks it, then 4 ranks of Survival are refused and 5 allowed', () => {
    const plant = { creature: 'plant' };
    const sneak = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true };
    expect(refused(studied({ skills: { ...unarmed.skills, survival: 4 } }, plant), sneak)).toMatchObject({
      code: 'ARCHSOUL_SNEAK_CREATURE_SKILL',
      field: 'sneak',
    });
    // 5 ranks: the attack is made: 1, 2, 3, 3 = 0 successes, a miss (one 1 in four: no critical failure).
    const out = exact(studied({ skills: { ...unarmed.skills, survival: 5 } }, plant), sneak, {
      dice: [1, 2, 3, 3],
    });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, maneuvers: ['sneak'] });
  });

  it('Sneak Attack: “at least three consecutive actions … studying”: given four studies in a row, when a sneak attacks, then it is allowed and its damage roll is 1 easier (at 3)', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = nextRound(events);
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 4 });
    // 4, 4, 1, 2 = 2 > 1; damage 5 dice at 3: 3, 3, 1, 1, 2 = 2.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true },
      { dice: [4, 4, 1, 2, 3, 3, 1, 1, 2] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 3 } });
  });

  it('Sneak Attack: “Sneak attacks made with a melee weapon cannot critically miss”: given a bow’s sneak attack within its accurate range, when its roll is 1, 1, 1, 2, then the bow table is rolled: “Weapon snaps back, dealing 2 damage to you”', () => {
    const events = studied({ weapons: [bow] }, {}, 3);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', sneak: true },
      { dice: [1, 1, 1, 2], followUpFaces: [4] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'bow', face: 4 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
  });
});

describe('S94: a sneak attack made at range (archsoul.txt: Sneak Attack, Elemental, Soul)', () => {
  const firebolt = {
    id: 'firebolt',
    name: 'Firebolt',
    type: 'elemental',
    accurateRange: 5,
    maximumRange: 10,
  };
  const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 5, maximumRange: 10 };
  const caster = { weapons: [firebolt, rend], skills: { ...unarmed.skills, soulCasting: 2, evocation: 1 } };
  /** a studies v (unaware, facing away) d spaces off three times in round 1; round 2 opens. */
  const studied = (d: number) => {
    let events = fight([hero('a', [0, 0], 'N', caster), foe('v', [0, -d], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    return nextRound(events);
  };
  const sneak = (weaponId: string) => ({
    type: 'Attack',
    attackerId: 'a',
    targetId: 'v',
    weaponId,
    sneak: true,
  });

  it('S94: given a firebolt and a Rending with accurate range 5, when either sneak attacks a target 6 away, then it is refused (Sneak Attack: “In order for a ranged attack to qualify as a sneak attack, it must be made within the accurate range of the weapon”)', () => {
    for (const weaponId of ['firebolt', 'rend'])
      expect(refused(studied(6), sneak(weaponId))).toMatchObject({
        code: 'ARCHSOUL_SNEAK_OUT_OF_ACCURATE_RANGE',
        field: 'sneak',
      });
  });

  it('S94: given the firebolt 5 away (its accurate range), when it sneak attacks, then the attack is made (Soulpower 1 + Soul Casting 2 = 3 dice at 4) and its Soulpower/Evocation damage roll is 1 easier (at 3)', () => {
    // 4, 4, 1 = 2 > 1; damage Soulpower 1 + Evocation 1 = 2 dice at 3: 3, 1 = 1.
    const out = exact(studied(5), sneak('firebolt'), { dice: [4, 4, 1, 3, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, maneuvers: ['sneak'] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { pool: 2, difficulty: 3 } });
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'unaware' });
  });
});

describe('Attack Modifiers: Cleave (archsoul.txt: Cleave)', () => {
  const halberd = { id: 'halberd', name: 'Halberd', type: 'melee', damage: 2, reach: 2 };

  it('Cleave: “select up to 2 adjacent spaces that are within your weapon’s range”: given a reach-2 halberd, when a cleaves two adjacent spaces 2 away, then both are attacked at 5 and wounded at 5; when it names a third space, then it is refused', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [halberd] }),
      foe('v', [0, -2], 'S'),
      foe('w', [1, -2], 'S'),
      foe('x', [-1, -1], 'S'),
    ]);
    // 4 dice at 5: 5, 5, 1, 2 = 2 > 1 for both; damage 5 dice at 5: 5, 5, 1, 1, 2 = 2 each.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', weaponId: 'halberd', cleave: { spaces: [at(0, -2), at(1, -2)] } },
      { dice: [5, 5, 1, 2, 5, 5, 1, 1, 2] },
    );
    expect(
      find(out, 'AreaAttackResolved').targets.map((t: any) => [t.targetId, t.difficulty, t.hit]),
    ).toEqual([
      ['v', 5, true],
      ['w', 5, true],
    ]);
    expect(all(out, 'WoundsApplied').map((w) => [w.combatantId, w.damage])).toEqual([
      ['v', 2],
      ['w', 2],
    ]);
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'halberd',
        cleave: { spaces: [at(0, -2), at(1, -2), at(-1, -1)] },
      }),
    ).toMatchObject({ field: 'cleave.spaces' });
  });
});

describe('Defensive Maneuvers: Shield Intercept (archsoul.txt: Shield Intercept, Draw Awkward Item)', () => {
  it('Shield Intercept: “This maneuver may only be performed if you have a shield”: given a shield still stowed, when a intercepts, then it is refused; when the shield is equipped first (“equip a shield”, 2 AP), then it costs the last 1 AP', () => {
    let events = fight([hero('a', [0, 0], 'N', { shield: { bonus: 1, held: false } }), foe('v', [0, -5])]);
    expect(refused(events, { type: 'ShieldIntercept', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_SHIELD_INTERCEPT_NO_SHIELD',
      field: 'combatantId',
    });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield' });
    const out = exact(events, { type: 'ShieldIntercept', combatantId: 'a' });
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'shieldIntercept', ap: 1, apLeft: 0 });
    expect(find(out, 'ConditionApplied')).toMatchObject({
      condition: 'shieldIntercept',
      untilNextTurn: true,
    });
  });
});

describe('Mounted Maneuvers (archsoul.txt: Charge, Trample)', () => {
  const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
  const lancer = { weapons: [lance], mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 } };

  it('Charge: “Reactive attacks made against you during this movement by a weapon with the Polearm property also gain the same boost”: given a sword (no Polearm), when its bearer reacts to a charge, then its damage roll has its own 5 dice, no more', () => {
    // p at (1, −1) faces SW: the rider leaving (0, 0) is in its front arc and sword reach.
    let events = fight([hero('a', [0, 0], 'N', lancer), foe('p', [1, -1], 'SW'), foe('v', [0, -4])]);
    events = then(events, {
      type: 'Charge',
      combatantId: 'a',
      path: north(3),
      targetId: 'v',
      weaponId: 'lance',
    });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'p' });
    // 4, 4, 1, 2 = 2 > 1; damage Athletics 2 + Weapon Mastery 1 + 2 = 5 dice 4, 4, 1, 1, 2 = 2; a's 3, 3, 3 = 3 > 2.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'p', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 1, 1, 2, 3, 3, 3] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      damage: 2,
      damageRoll: { pool: 5 },
    });
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: false });
    expect(stateOf([...events, ...out]).combatants.a.mounted).toBe(true);
  });

  it('Mounted Maneuvers: “These maneuvers may only be used while mounted”: given the rider off its horse, when it moves with trample, then the Move is refused', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', { size: 'small' })]);
    events = then(events, { type: 'Dismount', combatantId: 'a' });
    expect(
      refused(events, { type: 'Move', combatantId: 'a', path: [at(-1, 0)], trample: true }),
    ).toMatchObject({ code: 'ARCHSOUL_NOT_MOUNTED', field: 'trample' });
  });

  it('Trample: “you immediately trigger a reactive attack from the opponent, even if the opponent has already made a reactive attack against your movement this round”: given s struck at the rider leaving its reach (a miss), when the rider enters s’s space, then a second one is forced, and its miss lets the horse trample s for 2', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', { size: 'small' })]);
    events = then(events, { type: 'Move', combatantId: 'a', path: north(3), trample: true });
    expect(find(events.slice(-2), 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'leaveReach' });
    // s's first sword blow misses: 1, 2, 3, 3 = 0 (one 1 in four).
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [1, 2, 3, 3] },
    );
    const forced = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(find(forced, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'trample', reactorIds: ['s'] });
    events = [...events, ...forced];
    // The second misses too (2, 2, 3, 3); resumed, the horse's Trample 3 dice at 4: 4, 4, 1 = 2 to s as it passes.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [2, 2, 3, 3] },
    );
    const passed = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1] });
    expect(find(passed, 'WoundsApplied')).toMatchObject({ combatantId: 's', damage: 2, hp: 8 });
    expect(stateOf([...events, ...passed]).combatants.a.position).toEqual(at(0, -3));
  });

  it('Trample: “If the attack hits, your movement is stopped” + Charge: “If any reactive attack interrupts your action, you are immediately dismounted and knocked down”: given a charge that tramples s, when s stops it with a hit, then the rider lies prone before s’s space, off its horse, and the lance attack never comes', () => {
    let events = fight([
      hero('a', [0, 0], 'N', lancer),
      foe('s', [0, -2], 'S', { size: 'small' }),
      foe('v', [0, -5]),
    ]);
    events = then(events, {
      type: 'Charge',
      combatantId: 'a',
      path: north(4),
      targetId: 'v',
      weaponId: 'lance',
      trample: true,
    });
    // s is first offered the rider leaving (0, −1); it declines. Resumed, the rider enters s's space: the forced one.
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 's' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    expect(stateOf(events).reaction).toMatchObject({ trigger: 'trample', current: 's' });
    // s's sword: 4, 4, 1, 2 = 2 > 1; damage 4, 1, 1, 1, 2 = 1. A trample hit stops the mover without a roll.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 1, 1, 1, 2] },
    );
    expect(types(out)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'Dismounted',
      'ConditionApplied',
      'ReactionsFinished',
    ]);
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(find(out, 'PreventionRolled').test).toBeUndefined();
    const after = stateOf([...events, ...out]);
    expect(after.combatants.a).toMatchObject({ position: at(0, -1), mounted: false, hp: 9, ap: 0 });
    expect(after.combatants.a.conditions.map((k) => k.condition)).toEqual(['prone']);
    expect(after.combatants.v.hp).toBe(10);
    expect(after.pending).toBeUndefined();
  });
});

describe('Grappling: Grapple Rolls (archsoul.txt: Grapple Rolls, Grab)', () => {
  it('Grapple Rolls: “The difficulty of these rolls may increase or decrease based on the size of the opponent”: given a small grabber and a large opponent (two size steps), when it grabs, then the grabber rolls at 6 and the opponent at 2', () => {
    // a (small): unarmed Precision 2 + Primitive Attacks 1 = 3 dice at 4 + 2 = 6: 6, 6, 1 = 2. v (large) faces away
    // (no reactive attack) and defends with its better pool, unarmed 3 dice at 4 − 2 = 2: 2, 1, 1 = 1. a wins.
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [], size: 'small' }),
      foe('v', [0, -1], 'N', { size: 'large' }),
    ]);
    const out = exact(
      events,
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [6, 6, 1, 2, 1, 1] },
    );
    expect(find(out, 'GrappleRolled')).toMatchObject({
      actor: { pool: 3, difficulty: 6, successes: 2 },
      opponent: { pool: 3, difficulty: 2, successes: 1 },
      success: true,
    });
    expect(find(out, 'GrappleStarted')).toMatchObject({ memberIds: ['a', 'v'], controlId: 'a' });
  });
});

describe('Grappling: Steal (archsoul.txt: Steal)', () => {
  it('Steal: “a single item from the target’s hand or an easily accessible place on the body, such as a bandolier or scabbard”: given a potion in a pouch and a rope in a backpack, when a steals, then the potion can be taken and the rope cannot', () => {
    const items = [
      { id: 'potion', name: 'Potion' },
      { id: 'rope', name: 'Rope', stowage: 'awkward' },
    ];
    // a grabs v from behind (v faces N: no reactive attack): a's 3 dice 4, 4, 1 = 2 against v's 3 dice 4, 1, 1 = 1.
    let events = fight([hero('a', [0, 0], 'N', { weapons: [] }), foe('v', [0, -1], 'N', { items })]);
    events = then(events, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(refused(events, { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'rope' })).toMatchObject(
      { code: 'ARCHSOUL_STEAL_OUT_OF_REACH', field: 'itemId' },
    );
    // Steal (1 AP, a has control): 4, 4, 1 = 2 against 4, 1, 1 = 1.
    const out = exact(
      events,
      { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'potion' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(find(out, 'ItemStolen')).toMatchObject({ combatantId: 'a', fromId: 'v', itemId: 'potion' });
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'steal', ap: 1, apLeft: 0 });
  });
});

describe('Miscellaneous: Jumping (archsoul.txt: Jumping)', () => {
  it('Jumping: “You may jump a distance in meters equal to your Athletics attribute plus half your Conditioning skill”: given Athletics 3 and Conditioning 2 or 1, when they jump, then 4 m is 2 spaces (not 3) and 3.5 m is 1 space (not 2)', () => {
    const jumper = (conditioning: number) => ({
      attributes: { ...unarmed.attributes, athletics: 3 },
      skills: { ...unarmed.skills, conditioning },
    });
    const events = fight([
      hero('a', [0, 0], 'N', jumper(2)),
      hero('b', [3, 0], 'N', jumper(1)),
      foe('v', [8, -8]),
    ]);
    expect(
      find(exact(events, { type: 'Move', combatantId: 'a', path: north(2), jump: true }), 'Moved'),
    ).toMatchObject({
      jump: true,
      to: at(0, -2),
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: north(3), jump: true })).toMatchObject({
      code: 'ARCHSOUL_JUMP_TOO_FAR',
      field: 'path',
    });
    expect(refused(events, { type: 'Move', combatantId: 'b', path: north(2, 3), jump: true }).code).toBe(
      'ARCHSOUL_JUMP_TOO_FAR',
    );
    expect(
      find(exact(events, { type: 'Move', combatantId: 'b', path: north(1, 3), jump: true }), 'Moved'),
    ).toMatchObject({
      to: at(3, -1),
    });
  });
});

describe('Miscellaneous: Lifting, Throwing, and Improvised Weapons (archsoul.txt: the Athletics Difference table)', () => {
  const strong = (n: number) => ({ attributes: { ...unarmed.attributes, precision: n, athletics: n } });

  it('the Athletics Difference table’s row “2 | +1 | 4 meters | 3”: given Athletics and Precision 4 and a 100 lb statue (6 base, Lifting Athletics 2), when a strikes with it, then both rolls are at 4 + 1 + 1 = 6 and each attribute counts 3', () => {
    const statue = { id: 'statue', name: 'Statue', type: 'melee', weightLb: 100, liftingAthletics: 2 };
    const events = fight([hero('a', [0, 0], 'N', { ...strong(4), weapons: [statue] }), foe('v', [0, -1])]);
    // Attack: Precision 3 (capped) + Melee Weapons 2 = 5 dice at 6: 6, 6, 1, 2, 3 = 2 > 1. Damage: Athletics 3 +
    // Weapon Mastery 1 + 6 = 10 dice at 6: 6, 6, 6 and seven 1s = 3: v 10 → 7.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'statue' },
      { dice: [6, 6, 1, 2, 3, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 5, difficulty: 6, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      damage: 3,
      hp: 7,
      damageRoll: { pool: 10, difficulty: 6 },
    });
  });

  it('the Athletics Difference table’s “Accurate Throw Range” of row 2, 4 meters: given the statue thrown (sheet accurate range 5), when thrown 2 and 3 spaces, then 2 is accurate (at 6) and 3 is 1 harder (7: a die removed)', () => {
    const statue = {
      id: 'statue',
      name: 'Statue',
      type: 'thrown',
      weightLb: 100,
      liftingAthletics: 2,
      accurateRange: 5,
      maximumRange: 6,
    };
    const at2 = (d: number) =>
      fight([hero('a', [0, 0], 'N', { ...strong(4), weapons: [statue] }), foe('v', [0, -d], 'N')]);
    const throwIt = { type: 'ThrowItem', combatantId: 'a', itemId: 'statue', targetId: 'v' };
    // Precision 3 (capped) + Primitive Attacks 1 = 4 dice; one success misses Defense 1; the statue flies on.
    const near = exact(at2(2), throwIt, { dice: [6, 2, 2, 3] });
    expect(find(near, 'ExchangeResolved').attack).toMatchObject({ pool: 4, removed: 0, difficulty: 6 });
    const far = exact(at2(3), throwIt, { dice: [6, 2, 3] });
    expect(find(far, 'ExchangeResolved').attack).toMatchObject({ pool: 4, removed: 1, difficulty: 6 });
  });

  it('the Athletics Difference table’s last row “>4 | 0 | 8 meters | Full”, read as 4 or more (S37): given a difference of exactly 4, when a strikes, then no Lifting difficulty (only the improvised +1) and no attribute cap', () => {
    // Athletics and Precision 5, a 60 lb log (5 base), Lifting Athletics 1. Attack: 5 + 2 = 7 dice at 5:
    // 5, 5, 1, 1, 1, 2, 2 = 2 > 1 (no critical failure: two successes). Damage 5 + 1 + 5 = 11 dice at 5: 5, 5, 5 and
    // eight others = 3.
    const log = { id: 'log', name: 'Log', type: 'melee', weightLb: 60, liftingAthletics: 1 };
    const events = fight([hero('a', [0, 0], 'N', { ...strong(5), weapons: [log] }), foe('v', [0, -1])]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'log' },
      { dice: [5, 5, 1, 1, 1, 2, 2, 5, 5, 5, 1, 1, 1, 1, 1, 2, 2, 2] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ pool: 7, difficulty: 5 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, damageRoll: { pool: 11, difficulty: 5 } });
  });
});

describe('Miscellaneous: Critical Failure Tables (archsoul.txt: Critical Failure Tables)', () => {
  /** A 4-die roll with no success and three 1s: a critical failure (S2). */
  const FUMBLE4 = [1, 1, 1, 2];
  const archer = () =>
    fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3], 'S')], {
      options: { arrowBreakage: false },
    });
  const shoot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' };

  it('bow 1: “Weapon slips and falls at your feet”: given a fumbled shot, when the table shows 1, then the bow lies in a’s space and its hands are empty', () => {
    const events = archer();
    const out = exact(events, shoot, { dice: FUMBLE4, followUpFaces: [1] });
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'bow', face: 1 });
    expect(find(out, 'ItemDropped')).toMatchObject({ combatantId: 'a', itemId: 'bow', space: at(0, 0) });
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.held, a.hands]).toEqual([[], [null, null]]);
  });

  it('bow 5: “Weapon grazes your eye, difficulty of next attack increases by 1”: given the graze in round 1, when a shoots in rounds 2 and 3 (3 away, accurate range 5), then the first shot is at 5 and the next at 4', () => {
    let events = then(archer(), shoot, { dice: FUMBLE4, followUpFaces: [5] });
    expect(stateOf(events).combatants.a.conditions).toEqual([
      expect.objectContaining({ condition: 'nextAttackHarder', amount: 1, untilNextTurn: false }),
    ]);
    events = nextRound(events);
    // 5, 5, 1, 2 = 2 > 1 at 5; damage Weapon Mastery 1 + 2 = 3 dice 4, 1, 1 = 1.
    const next = exact(events, shoot, { dice: [5, 5, 1, 2, 4, 1, 1] });
    expect(find(next, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5, successes: 2 });
    expect(find(next, 'ConditionRemoved')).toMatchObject({ combatantId: 'a', condition: 'nextAttackHarder' });
    events = nextRound([...events, ...next]);
    expect(
      find(exact(events, shoot, { dice: [4, 4, 1, 2, 4, 1, 1] }), 'ExchangeResolved').attack,
    ).toMatchObject({
      difficulty: 4,
    });
  });

  it('bow 6: “String snaps, weapon requires repairs” + Melee Weapon: “Attack and damage rolls with improvised or broken weapons have increased difficulty”: given the snapped string, when a shoots the next round, then it rolls at 5 and its damage at 5', () => {
    let events = then(archer(), shoot, { dice: FUMBLE4, followUpFaces: [6] });
    expect(stateOf(events).combatants.a.weapons.bow.broken).toBe(true);
    events = nextRound(events);
    // 5, 5, 1, 2 = 2 > 1 at 5; damage 3 dice at 5: 5, 4, 1 = 1.
    const out = exact(events, shoot, { dice: [5, 5, 1, 2, 5, 4, 1] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { difficulty: 5 } });
  });

  it('unarmed 5: “Leave yourself open, triggering a reactive attack from your target”: given a fumbled punch at a foe facing a, when the table shows 5, then the foe is offered a reactive attack', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist' },
      { dice: [1, 1, 2], followUpFaces: [5] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'unarmed', face: 5 });
    expect(find(out, 'ReactiveAttackTriggered')).toEqual({
      actorId: 'a',
      trigger: 'criticalFailure',
      reactorIds: ['v'],
    });
    expect(stateOf([...events, ...out]).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
  });

  it('S2: “melee (also thrown)”: given a fumbled javelin throw, when the table shows 1, then the melee table’s “Weapon slips and drops at your feet” drops it in a’s space, and it does not fly', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [javelin] }), foe('v', [0, -3], 'S')]);
    // Precision 2 + Primitive Attacks 1 = 3 dice: 1, 1, 2.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [1, 1, 2], followUpFaces: [1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'CriticalFailureRolled', 'ItemDropped']);
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'melee', face: 1 });
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'javelin', space: at(0, 0) });
  });
});

describe('Miscellaneous: Recovering Projectile Weapons (archsoul.txt: Recovering Projectile Weapons)', () => {
  const crossbow = {
    id: 'crossbow',
    name: 'Crossbow',
    type: 'ranged',
    damage: 3,
    accurateRange: 5,
    maximumRange: 10,
    ammunition: { kind: 'bolt', count: 4 },
  };

  it('“Arrows and crossbow bolts have a 1 in 6 chance of breaking”: given a bolt that hits, when the follow-up shows 1, then it breaks; when 2, then it lies in the target’s space to pick up', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [crossbow] }), foe('v', [0, -3], 'N')]);
    const shoot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'crossbow' };
    // 4, 4, 1, 2 = 2 > 1; damage Weapon Mastery 1 + 3 = 4 dice 4, 1, 1, 2 = 1.
    const broke = exact(events, shoot, { dice: [4, 4, 1, 2, 4, 1, 1, 2], followUpFaces: [1] });
    expect(find(broke, 'ProjectileLanded')).toMatchObject({ ammunition: 'bolt', broken: true });
    expect(find(broke, 'ProjectileLanded').groundId).toBeUndefined();
    const kept = exact(events, shoot, { dice: [4, 4, 1, 2, 4, 1, 1, 2], followUpFaces: [2] });
    expect(find(kept, 'ProjectileLanded')).toMatchObject({
      ammunition: 'bolt',
      broken: false,
      space: at(0, -3),
      groundId: 'g1',
    });
    expect(stateOf([...events, ...kept]).combatants.a.weapons.crossbow.ammunition).toBe(3);
  });
});
