import { archsoul } from '../../src/archsoul';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualDice } from '../../src/dice/manual';
import { view } from '../../src/archsoul/view';
import { given } from '../given';
import { fight, find, stateOf, then, types } from './helpers';

/**
 * What a player needs to roll physical dice is in the view (archsoul.txt: Attacking, the attack-type table; S1, S4):
 * each combatant's attributes and skills as its sheet gives them, and each weapon as the rules read it, with the pool
 * of an Attack with it and the base pool of its damage roll, as the decider builds them.
 */

/** A melee axe reaching 2 spaces, with every field the rules read set away from its default. */
const axe = {
  id: 'axe',
  name: 'Bearded Axe',
  type: 'melee',
  damage: 3,
  reach: 2,
  properties: ['polearm'],
  handling: 'semiLight',
  armourPiercing: true,
  strongAgainst: ['plate'],
  weakAgainst: ['leather', 'hide'],
};
const javelin = {
  id: 'javelin',
  name: 'Javelin',
  type: 'thrown',
  damage: 2,
  accurateRange: 3,
  maximumRange: 6,
};
const hex = { id: 'hex', name: 'Hex', type: 'soul', accurateRange: 4 };
const longbow = {
  id: 'longbow',
  name: 'Longbow',
  type: 'ranged',
  damage: 2,
  accurateRange: 5,
  maximumRange: 10,
  twoHanded: true,
  ammunition: { kind: 'arrow', count: 3 },
};
/** A cumbersome throw (heavy): Athletics instead of Precision (S61), no maximum range given. */
const knife = {
  id: 'knife',
  name: 'Throwing Knife',
  type: 'thrown',
  damage: 1,
  accurateRange: 2,
  heavy: true,
  handling: 'light',
  held: false,
};

const aSheet = {
  attributes: { precision: 3, athletics: 2, soulpower: 2, intellect: 4 },
  skills: { meleeWeapons: 2, primitiveAttacks: 3, weaponMastery: 1, soulCasting: 1, lore: 5 },
  maxHp: 12,
  defense: 1,
  weapons: [axe, javelin, hex],
};
const vSheet = {
  attributes: { precision: 4, athletics: 1, endurance: 3 },
  skills: { rangedWeapons: 3, weaponMastery: 2 },
  maxHp: 20,
  weapons: [longbow, knife],
};

/** a (heroes, acts first) and v (enemies) two spaces apart, facing each other. */
const start = () =>
  fight(
    [
      { id: 'a', at: [0, 0], facing: 'N', sheet: aSheet },
      { id: 'v', at: [0, -2], facing: 'S', side: 'enemies', sheet: vSheet },
    ],
    { options: { arrowBreakage: false } },
  );

const viewOf = (events: RuleEvent[], id: string) =>
  view(stateOf(events)).combatants.find((c) => c.id === id)!;

/** What the decider makes of `command`, every die showing 6 (a hit, whatever the pool): as many as it rolls. */
const allSixes = (events: RuleEvent[], command: RuleCommand): RuleEvent[] =>
  given(archsoul, events)
    .when(command, new ManualDice({ dice: Array(60).fill(6), followUpFaces: Array(20).fill(6) }))
    .events();

describe('The view shows each combatant’s sheet as the dice read it (archsoul.txt: Attacking; S1, S4)', () => {
  it('attributes and skills are the sheet’s after its defaults: an attribute left out is 0, a skill of its own kept', () => {
    const events = start();
    expect(viewOf(events, 'a').attributes).toEqual({
      precision: 3,
      athletics: 2,
      endurance: 0,
      soulpower: 2,
      intellect: 4,
    });
    expect(viewOf(events, 'a').skills).toEqual({
      meleeWeapons: 2,
      primitiveAttacks: 3,
      weaponMastery: 1,
      soulCasting: 1,
      lore: 5,
    });
    expect(viewOf(events, 'v').attributes).toEqual({
      precision: 4,
      athletics: 1,
      endurance: 3,
      soulpower: 0,
      intellect: 0,
    });
    expect(viewOf(events, 'v').skills).toEqual({ rangedWeapons: 3, weaponMastery: 2 });
  });

  it('each weapon shows what the rules read from it, defaults applied, and the pools of its attack and damage rolls', () => {
    const events = start();
    expect(viewOf(events, 'a').weapons).toEqual([
      {
        id: 'axe',
        name: 'Bearded Axe',
        type: 'melee',
        held: true,
        damage: 3,
        reach: 2,
        accurateRange: null,
        maximumRange: null,
        properties: ['polearm'],
        handling: 'semiLight',
        twoHanded: false,
        armourPiercing: true,
        strongAgainst: ['plate'],
        weakAgainst: ['leather', 'hide'],
        // Precision 3 + Melee Weapons 2; Athletics 2 + Weapon Mastery 1 + 3 base damage dice.
        attackPool: 5,
        damagePool: 6,
        broken: false,
        destroyed: false,
        jammed: false,
      },
      {
        id: 'javelin',
        name: 'Javelin',
        type: 'thrown',
        held: true,
        damage: 2,
        reach: 0,
        accurateRange: 3,
        maximumRange: 6,
        properties: [],
        handling: 'regular',
        twoHanded: false,
        armourPiercing: false,
        strongAgainst: [],
        weakAgainst: [],
        // Precision 3 + Primitive Attacks 3; Athletics 2 + Weapon Mastery 1 + 2.
        attackPool: 6,
        damagePool: 5,
        broken: false,
        destroyed: false,
        jammed: false,
      },
      {
        id: 'hex',
        name: 'Hex',
        type: 'soul',
        held: true,
        damage: 0,
        reach: 0,
        accurateRange: 4,
        maximumRange: 4,
        properties: [],
        handling: 'regular',
        twoHanded: false,
        armourPiercing: false,
        strongAgainst: [],
        weakAgainst: [],
        // Soulpower 2 + Soul Casting 1; a soul attack rolls no damage (S93).
        attackPool: 3,
        damagePool: null,
        broken: false,
        destroyed: false,
        jammed: false,
      },
    ]);
    expect(viewOf(events, 'v').weapons).toEqual([
      {
        id: 'longbow',
        name: 'Longbow',
        type: 'ranged',
        held: true,
        damage: 2,
        reach: 0,
        accurateRange: 5,
        maximumRange: 10,
        properties: [],
        handling: 'regular',
        twoHanded: true,
        armourPiercing: false,
        strongAgainst: [],
        weakAgainst: [],
        // Precision 4 + Ranged Weapons 3; Weapon Mastery 2 + 2 (a ranged weapon adds no attribute).
        attackPool: 7,
        damagePool: 4,
        broken: false,
        destroyed: false,
        jammed: false,
        ammunition: 3,
      },
      {
        id: 'knife',
        name: 'Throwing Knife',
        type: 'thrown',
        held: false,
        damage: 1,
        reach: 0,
        accurateRange: 2,
        maximumRange: 2,
        properties: [],
        handling: 'light',
        twoHanded: false,
        armourPiercing: false,
        strongAgainst: [],
        weakAgainst: [],
        // Cumbersome: Athletics 1 + Primitive Attacks 0; Athletics 1 + Weapon Mastery 2 + 1.
        attackPool: 1,
        damagePool: 4,
        broken: false,
        destroyed: false,
        jammed: false,
      },
    ]);
  });

  it('the pools it shows are the pools an attack with the weapon then rolls (a thrown one: ThrowItem), to hit and for damage', () => {
    let events = start();
    const a = viewOf(events, 'a');
    const attacks: Array<[string, RuleCommand]> = [
      ['axe', { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'axe' }],
      ['javelin', { type: 'ThrowItem', combatantId: 'a', targetId: 'v', itemId: 'javelin' }],
      ['hex', { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'hex' }],
    ];
    for (const [weaponId, command] of attacks) {
      const shown = a.weapons.find((w) => w.id === weaponId)!;
      const out = allSixes(events, command);
      expect(find(out, 'ExchangeResolved')).toMatchObject({ weaponId, hit: true });
      expect([weaponId, find(out, 'ExchangeResolved').attack.pool]).toEqual([weaponId, shown.attackPool]);
      const wounds = out.filter((e) => e.type === 'WoundsApplied');
      expect([weaponId, wounds.map((e) => (e.data as any).damageRoll?.pool ?? null)]).toEqual([
        weaponId,
        shown.damagePool === null ? [] : [shown.damagePool],
      ]);
    }
    // v shoots a; a may answer with the axe that reaches v (S13): it declines, and the shot is resumed.
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    const bow = viewOf(events, 'v').weapons.find((w) => w.id === 'longbow')!;
    events = then(events, { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'longbow' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'a' });
    const shot = allSixes(events, { type: 'ResumeAction', combatantId: 'v' });
    expect(types(shot)).toContain('WoundsApplied');
    expect(find(shot, 'ExchangeResolved').attack.pool).toBe(bow.attackPool);
    expect(find(shot, 'WoundsApplied').damageRoll.pool).toBe(bow.damagePool);
  });
});
