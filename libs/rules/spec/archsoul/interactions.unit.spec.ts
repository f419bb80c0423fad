/**
 * Interactions between two or more rules of archsoul.txt, worked by hand from the text and checked against the
 * engine with given/when/then tests. Each title quotes the text's words; the comments give the arithmetic.
 * Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee Weapons 2, Weapon
 * Mastery 1, Resolve 1; Defense 1, 10 HP; a sword (base 2). So a sword attack rolls 4 dice, its damage 5, a
 * Knockdown's Athletics/Resolve 3 dice at 3, and the Endurance/Resolve prevention roll 3 dice at 3.
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
  rider,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

const conditions = (events: RuleEvent[], id: string) =>
  stateOf(events).combatants[id].conditions.map((k) => k.condition);

describe('Knockdown and standing up (archsoul.txt: Knockdown, Reactive Attack, Free Actions)', () => {
  it('Reactive Attack “Standing up from a prone position” + Knockdown “the opponent is knocked to the ground”: a reactive Knockdown that succeeds prevents the standing up, without an Endurance/Resolve roll', () => {
    // a drops to the ground (free) beside v, who faces it; standing up (1 AP) triggers v's reactive attack.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'DropProne', combatantId: 'a' });
    events = then(events, { type: 'StandUp', combatantId: 'a' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    // v: 4 dice 6, 6, 1, 1 = 2 > Defense 1, a hit. a: Athletics/Resolve 3 dice at 3: 1, 1, 1 = 0.
    // v's damage roll 5 dice at 4: 4, 1, 1, 1, 1 = 1 > 0: a is knocked to the ground (again).
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword', knockdown: true },
      { dice: [6, 6, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(out, 'KnockdownResolved')).toMatchObject({ knockedDown: true });
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(find(out, 'PreventionRolled').test).toBeUndefined();
    const after = [...events, ...out];
    expect(conditions(after, 'a')).toContain('prone');
    expect(stateOf(after).pending).toBeUndefined();
  });
});

describe('A critical failure of a Knockdown shot (archsoul.txt: Knockdown, Critical Failure Tables: bow and crossbow)', () => {
  it('Knockdown “The damage your attack would have done is ignored” + “Random target adjacent to original target is hit instead”: the one hit instead rolls to stay standing and takes no damage', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3]), foe('w', [1, -3])], {
      options: { arrowBreakage: false },
    });
    // a's ranged Knockdown: 4 dice at 4 + 1: 1, 1, 1, 2, a critical failure; table 2; w is the only one adjacent to v.
    // The hit is the Knockdown's: w's Athletics/Resolve 3 dice at 3: 3, 1, 1 = 1; a's damage roll Weapon Mastery 1 +
    // base 2 = 3 dice at 4 + 1 (a ranged Knockdown): 5, 5, 1 = 2 > 1: w is knocked to the ground, unhurt.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', knockdown: true },
      { dice: [1, 1, 1, 2, 3, 1, 1, 5, 5, 1], followUpFaces: [2] },
    );
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      attackerId: 'a',
      targetId: 'w',
      knockedDown: true,
      damageRoll: { pool: 3, difficulty: 5 },
    });
    expect(types(out)).not.toContain('WoundsApplied');
    const after = [...events, ...out];
    expect(stateOf(after).combatants.w.hp).toBe(10);
    expect(conditions(after, 'w')).toContain('prone');
    // The arrow lands where it hit.
    expect(find(out, 'ProjectileLanded').space).toEqual({ x: 1, y: -3 });
  });
});

const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
const pike = { id: 'pike', name: 'Pike', type: 'melee', damage: 2, reach: 2, properties: ['polearm'] };
const lancer = {
  weapons: [lance, sword],
  mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 },
};
const north = (n: number) => Array.from({ length: n }, (_, i) => ({ x: 0, y: -(i + 1) }));
/** a charges v three spaces north, past p's pike (p faces a from [1, -1]); p is offered the reactive attack. */
const chargePastPike = (extra: Record<string, unknown> = {}) =>
  then(
    fight([
      hero('a', [0, 0], 'N', { ...lancer, ...extra }),
      foe('p', [1, -1], 'SW', { weapons: [pike] }),
      foe('v', [0, -4]),
    ]),
    { type: 'Charge', combatantId: 'a', path: north(3), targetId: 'v', weaponId: 'lance' },
  );

describe('A reactive attack in the middle of a Charge or a Trample (archsoul.txt: Charge, Trample, Knockdown, RULINGS.md S11)', () => {
  it('Charge: “If any reactive attack interrupts your action, you are immediately dismounted and knocked down” + a hit that leaves the rider Down: prevented without a roll, dismounted, prone, and its lost turn ends the heroes’ phase', () => {
    const events = chargePastPike({ maxHp: 3 });
    // p: 4 dice 4, 4, 1, 2 = 2 > 1. Damage: Athletics 2 + Weapon Mastery 1 + base 2 + the horse's speed 3 (a Polearm
    // during the charge) = 8 dice: 4, 4, 4, 1, 1, 1, 1, 1 = 3: a drops from 3 HP to 0, Down.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'p', weaponId: 'pike' },
      { dice: [4, 4, 1, 2, 4, 4, 4, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ hp: 0, down: true, damageRoll: { pool: 8 } });
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(find(out, 'PreventionRolled').test).toBeUndefined();
    expect(types(out).filter((t) => t === 'Dismounted')).toHaveLength(1);
    const after = stateOf([...events, ...out]);
    expect(after.combatants.a).toMatchObject({ mounted: false, hp: 0, position: { x: 0, y: 0 } });
    expect(after.combatants.a.conditions.map((k) => k.condition)).toContain('prone');
    // S39: a was the heroes' only open turn: the enemies' phase opens.
    expect(after.phase?.party).toBe('enemies');
    expect(after.pending).toBeUndefined();
  });

  it('Charge: “Reactive attacks … by a weapon with the Polearm property also gain the same boost to damage” + Knockdown: the boost joins the Knockdown’s damage roll, and the rider knocked down comes off its horse once', () => {
    const events = chargePastPike();
    // p: 4, 4, 1, 2 = 2 > 1. a's Athletics/Resolve 3 dice at 3: 1, 1, 1 = 0. p's damage roll 8 dice: 4 and seven 1s = 1 > 0.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'p', weaponId: 'pike', knockdown: true },
      { dice: [4, 4, 1, 2, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'KnockdownResolved')).toMatchObject({ knockedDown: true, damageRoll: { pool: 8 } });
    expect(types(out)).not.toContain('WoundsApplied');
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(types(out).filter((t) => t === 'Dismounted')).toHaveLength(1);
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.mounted, a.hp, a.position]).toEqual([false, 10, { x: 0, y: 0 }]);
  });

  it('Trample: “If the attack hits, your movement is stopped” + a Knockdown on a regular move: the rider stops before the opponent, comes off its mount and lies prone', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', { size: 'small' })]);
    events = then(events, { type: 'Move', combatantId: 'a', path: north(3), trample: true });
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 's' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    expect(stateOf(events).reaction).toMatchObject({ trigger: 'trample' });
    // s: 4, 4, 1, 2 = 2 > 1; a's Athletics/Resolve 1, 1, 1 = 0; s's damage 5 dice 4, 1, 1, 1, 1 = 1 > 0.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword', knockdown: true },
      { dice: [4, 4, 1, 2, 1, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true });
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.mounted, a.mountAt, a.position, a.hp]).toEqual([false, { x: 0, y: -1 }, { x: 0, y: -1 }, 10]);
    expect(a.conditions.map((k) => k.condition)).toContain('prone');
  });

  it('Charge: “If any reactive attack interrupts your action” + a “Leave yourself open” after the charge’s attack: the reaction comes after the charge, so the rider stays mounted', () => {
    let events = fight([hero('a', [0, 0], 'N', lancer), foe('v', [0, -4], 'S')]);
    // a's lance: 4 dice 1, 1, 1, 2, a critical failure; melee table 5: v, facing a in reach, may react.
    events = then(
      events,
      { type: 'Charge', combatantId: 'a', path: north(3), targetId: 'v', weaponId: 'lance' },
      { dice: [1, 1, 1, 2], followUpFaces: [5] },
    );
    expect(stateOf(events).reaction).toMatchObject({ trigger: 'criticalFailure', current: 'v' });
    // v hits: 4, 4, 1, 2 = 2 > 1; damage 5 dice 4, 4, 4, 4, 1 = 4 (no held action: no prevention roll).
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 4, 4, 1] },
    );
    expect(types(out)).not.toContain('PreventionRolled');
    expect(types(out)).not.toContain('Dismounted');
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({ mounted: true, hp: 6 });
  });
});

/** a grabs v from behind (v faces N, away from a): a's unarmed 3 dice 4, 4, 1 = 2 beat v's 3 dice 4, 1, 1 = 1; a controls. */
const grabbed = (fighters: Parameters<typeof fight>[0]) =>
  then(fight(fighters), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });

describe('Grapples and other rules (archsoul.txt: Being Grappled, Slow Move, Shatter, Hold Firm, Takedown)', () => {
  it('Being Grappled: “Any action that would cause your character to move causes all targets grappling you to move as well” + a Slow Move held by a reactive attack: resumed, the partner is dragged too', () => {
    // w faces a from [1, -1]; a, grappling v, slow-moves south out of w's reach and front arc.
    let events = grabbed([
      hero('a', [0, 0], 'N', { weapons: [] }),
      foe('v', [0, -1], 'N'),
      foe('w', [1, -1], 'SW'),
    ]);
    expect(stateOf(events).grapples).toEqual([expect.objectContaining({ controlId: 'a' })]);
    // The grapple roll first ("All other actions require a successful grapple roll"): a 4, 4, 1 = 2 against v's 4, 1, 1 = 1.
    events = then(
      events,
      { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'w' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'w' });
    const out = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    const after = stateOf([...events, ...out]);
    expect(after.combatants.a.position).toEqual({ x: 0, y: 1 });
    expect(after.combatants.v.position).toEqual({ x: 0, y: 0 });
    expect(out.filter((e) => e.type === 'Moved').map((e) => (e.data as any).action)).toEqual([
      'slowMove',
      'dragged',
    ]);
  });

  it('Being Grappled: “You also do not have a front arc … cannot … benefit from using a shield” + Hold Firm: a grappled shield-bearer holding firm gets no Shield Bonus against a javelin from the front', () => {
    // v (shield 2) holds firm on its turn, facing N toward b; then a grabs v from behind, and b throws.
    let events = fight([
      foe('v', [0, -1], 'N', { shield: { bonus: 2 } }),
      hero('a', [0, 0], 'N', { weapons: [] }),
      hero('b', [0, -3], 'S', { weapons: [javelin] }),
    ]);
    events = then(then(events, { type: 'HoldFirm', combatantId: 'v' }), {
      type: 'EndTurn',
      combatantId: 'v',
    });
    events = then(events, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(conditions(events, 'v')).toEqual(expect.arrayContaining(['holdFirm', 'grappled']));
    // b: Precision 2 + Primitive Attacks 1 = 3 dice 4, 4, 1 = 2 > Defense 1 (no Shield Bonus): a hit; damage 5 dice.
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'b', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, shieldBonus: 0, targetArc: 'back' });
  });

  it('Takedown: “you and your opponent are both knocked down and you move into your opponent’s space” + a mounted grappler: it comes off its horse, which waits where it stood', () => {
    const events = grabbed([hero('a', [0, 0], 'N', { ...rider, weapons: [] }), foe('v', [0, -1], 'N')]);
    expect(stateOf(events).combatants.a.mounted).toBe(true);
    // a's grapple roll 4, 4, 1 = 2 against v's 4, 1, 1 = 1.
    const out = exact(
      events,
      { type: 'Takedown', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    const after = [...events, ...out];
    const a = stateOf(after).combatants.a;
    expect([a.mounted, a.mountAt, a.position]).toEqual([false, { x: 0, y: 0 }, { x: 0, y: -1 }]);
    expect(conditions(after, 'a')).toContain('prone');
    expect(conditions(after, 'v')).toContain('prone');
  });
});

describe('Attack modifiers with stances, shields and arcs (archsoul.txt: Feint, Hold Firm, Thrown Weapon, Sneak Attack, Knockdown)', () => {
  /** v (shield 2) faces a's javelin 2 spaces away; a feints and turns v to face N, away from a. */
  const feintThrow = (events: RuleEvent[], dice: number[]) =>
    exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v', feint: { facing: 'N' } },
      { dice },
    );
  const shieldWall = () =>
    fight([foe('v', [0, -2], 'S', { shield: { bonus: 2 } }), hero('a', [0, 0], 'N', { weapons: [javelin] })]);

  it('Feint: “you may rotate the opponent in any direction and then immediately attempt the declared attack” + “Thrown weapon attacks are treated the same as ranged weapon attacks for the purposes of defense”: turned away, the target’s shield no longer counts', () => {
    const events = then(shieldWall(), { type: 'EndTurn', combatantId: 'v' });
    // Feint: Precision 2 + Confusion 0 = 2 dice at 5: 5, 5 = 2; v's Intellect 1 + Read Emotions 0 = 1 die at 4: 1 = 0.
    // The throw: 3 dice 4, 4, 1 = 2 > Defense 1 from v's back arc (with the shield it would be 2, not above 3);
    // damage 5 dice 4, 1, 1, 1, 1 = 1.
    const out = feintThrow(events, [5, 5, 1, 4, 4, 1, 4, 1, 1, 1, 1]);
    expect(find(out, 'Turned')).toMatchObject({ combatantId: 'v', facing: 'N' });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, targetArc: 'back', shieldBonus: 0 });
  });

  it('Feint’s rotation + Hold Firm: “attacks against your back arc are treated as if they were attacking your front arc”: turned away, the shield still counts', () => {
    let events = shieldWall();
    events = then(then(events, { type: 'HoldFirm', combatantId: 'v' }), {
      type: 'EndTurn',
      combatantId: 'v',
    });
    // The same feint and throw: 2 successes do not exceed Defense 1 + Shield Bonus 2: a miss.
    const out = feintThrow(events, [5, 5, 1, 4, 4, 1]);
    expect(find(out, 'Turned')).toMatchObject({ combatantId: 'v', facing: 'N' });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, targetArc: 'front', shieldBonus: 2 });
  });

  it('Sneak Attack: “has the difficulty of any damage rolls decreased by 1” + Knockdown: the Knockdown’s damage roll is 1 easier', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    // a: 4, 4, 1, 2 = 2 > 1. v: Athletics/Resolve 3 dice at 3: 3, 1, 1 = 1. a's damage 5 dice at 4 - 1: 3, 3, 1, 1, 1
    // = 2 > 1 (at 4 it would be 0): v is knocked down, unhurt.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true, knockdown: true },
      { dice: [4, 4, 1, 2, 3, 1, 1, 3, 3, 1, 1, 1] },
    );
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      knockedDown: true,
      damageRoll: { difficulty: 3 },
    });
    expect(stateOf([...events, ...out]).combatants.v.hp).toBe(10);
  });

  it('Reckless Attack “increases the difficulty of the attack roll by 2, but decreases the difficulty of the damage roll by 1” + a critical failure “Strike the ground, rolling normal damage against the weapon’s HP”: the ground takes a normal damage roll, at 4', () => {
    const blade = { ...sword, hp: 5 };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [blade] }), foe('v', [0, -1], 'S')]);
    // a: 4 dice at 6: 1, 1, 1, 2, a critical failure; melee table 6. Damage 5 dice at 4: 3, 3, 3, 3, 4 = 1 (at 3: 5).
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'reckless' },
      { dice: [1, 1, 1, 2, 3, 3, 3, 3, 4], followUpFaces: [6] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 6 });
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'sword', hp: 4 });
  });
});

describe('Weapons lost while held in two hands (archsoul.txt: Critical Failure Tables, Draw Awkward Item, Grab “with an empty hand”)', () => {
  it('“Weapon slips and drops at your feet” + a two-handed weapon: both hands are empty again', () => {
    const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword] }), foe('v', [0, -1], 'S')]);
    expect(stateOf(events).combatants.a.hands).toEqual(['greatsword', 'greatsword']);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'greatsword' },
      { dice: [1, 1, 1, 2], followUpFaces: [1] },
    );
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'greatsword', space: { x: 0, y: 0 } });
    expect(stateOf([...events, ...out]).combatants.a.hands).toEqual([null, null]);
  });

  it('“Firearm explodes, dealing 6 damage in a 2m radius, weapon is destroyed” + a two-handed rifle: the shooter is hurt and its hands are empty', () => {
    const rifle = {
      id: 'rifle',
      name: 'Rifle',
      type: 'ranged',
      damage: 4,
      twoHanded: true,
      accurateRange: 8,
      maximumRange: 16,
      criticalTable: 'firearm',
      ammunition: { kind: 'bullet', count: 6 },
    };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [rifle] }), foe('v', [0, -4], 'S')]);
    expect(stateOf(events).combatants.a.hands).toEqual(['rifle', 'rifle']);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rifle' },
      { dice: [1, 1, 1, 2], followUpFaces: [6] },
    );
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.hp, a.hands, a.held.includes('rifle'), a.weapons.rifle.destroyed]).toEqual([
      4,
      [null, null],
      false,
      true,
    ]);
    expect(stateOf([...events, ...out]).combatants.v.hp).toBe(10);
  });
});

describe('Reactive attacks and critical failures (archsoul.txt: Reactive Attack, Critical Failure Tables, Attacking: Soul)', () => {
  it('Reactive Attack on a Move + “Weapon slips and lands at target’s feet”: the reactor’s sword lands in the space the mover is leaving, and the Move goes on', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
      ],
    });
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [1, 1, 1, 2], followUpFaces: [2] },
    );
    expect(find(out, 'ItemDropped')).toMatchObject({
      combatantId: 'v',
      itemId: 'sword',
      space: { x: 0, y: 0 },
    });
    expect(types(out)).not.toContain('PreventionRolled');
    events = [...events, ...out];
    expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    const moved = stateOf(then(events, { type: 'ResumeAction', combatantId: 'a' }));
    expect(moved.combatants.a.position).toEqual({ x: 0, y: 2 });
    expect(moved.ground).toEqual([expect.objectContaining({ itemId: 'sword', space: { x: 0, y: 0 } })]);
  });

  it('Being Grappled: “All other actions require a successful grapple roll to attempt” + soul magic “Attacking with soul magic” triggers reactive attacks: the grapple roll comes first, and the resumed attack rolls no second one', () => {
    const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
    const caster = { weapons: [rend], skills: { ...unarmed.skills, soulCasting: 2 } };
    // a grabs v from behind; w faces a from [1, -1].
    let events = grabbed([hero('a', [0, 0], 'N', caster), foe('v', [0, -1], 'N'), foe('w', [1, -1], 'SW')]);
    for (const id of ['a', 'v', 'w']) events = then(events, { type: 'EndTurn', combatantId: id });
    events = then(events, { type: 'StartRound' });
    // a's grapple roll 4, 4, 1 = 2 against v's 4, 1, 1 = 1; then w may react to the soul magic.
    const cast = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'rend' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(types(cast)).toEqual([
      'GrappleRolled',
      'ApSpent',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    events = then([...events, ...cast], { type: 'DeclineReactiveAttack', combatantId: 'w' });
    // Resumed: Soulpower 1 + Soul Casting 2 = 3 dice at 4: 4, 4, 1 = 2 against w's Soulpower/Resolve 2 dice 4, 1 = 1.
    const out = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 4, 1] });
    expect(types(out)).not.toContain('GrappleRolled');
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetId: 'w', hit: true });
  });
});

describe('S79: Shatter against a grappled holder', () => {
  it('S79: given a grappled holder, when its sword is shattered, then it defends with the sword’s attack roll, or drops it, without a grapple roll', () => {
    const setup = (extra: Record<string, unknown> = {}) =>
      grabbed([
        hero('a', [0, 0], 'N', { weapons: [] }),
        hero('b', [0, -2], 'S'),
        foe('v', [0, -1], 'N', extra),
      ]);
    const shatter = {
      type: 'Attack',
      attackerId: 'b',
      targetId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'sword' },
    };
    // b: 4 dice 4, 4, 4, 1 = 3; v's sword roll (Precision 2 + Melee Weapons 2) 4 dice 4, 1, 1, 1 = 1: b wins and rolls
    // damage against the sword: 5 dice 4, 4, 1, 1, 1 = 2.
    const rolled = exact(setup(), shatter, { dice: [4, 4, 4, 1, 4, 1, 1, 1, 4, 4, 1, 1, 1] });
    expect(types(rolled)).not.toContain('GrappleRolled');
    expect(find(rolled, 'ShatterResolved')).toMatchObject({ winner: 'attacker', defence: { pool: 4 } });
    // Set to drop it instead, v drops it, grappled or not.
    const dropped = exact(setup({ shatterResponse: 'drop' }), shatter);
    expect(types(dropped)).not.toContain('GrappleRolled');
    expect(find(dropped, 'ItemDropped')).toMatchObject({ combatantId: 'v', itemId: 'sword' });
  });
});

describe('Going Down, reacting and the turn order (archsoul.txt: Jumping, Hold Firm, Reactive Attack, RULINGS.md S11, S39)', () => {
  it('Jumping: “When you land, you trigger reactive attacks” + a hit that leaves the jumper Down: its turn is lost, and with it the heroes’ phase', () => {
    const jumper = {
      attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { conditioning: 2, meleeWeapons: 2, resolve: 1 },
      maxHp: 2,
    };
    let events = fight([hero('a', [0, 0], 'N', jumper), foe('v', [0, -3], 'S')], {
      map: { blocked: [{ x: 0, y: -1 }] },
    });
    events = then(events, { type: 'Move', combatantId: 'a', path: north(2), jump: true });
    // v: 4, 4, 1, 2 = 2 > 1; damage 5 dice 4, 4, 1, 1, 1 = 2: a drops from 2 HP to 0.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ down: true });
    expect(types(out)).not.toContain('PreventionRolled');
    const after = stateOf([...events, ...out]);
    expect(after.combatants.a).toMatchObject({ hp: 0, inTurn: false, position: { x: 0, y: -2 } });
    expect(after.phase?.party).toBe('enemies');
    expect(after.combatants.v.inTurn).toBe(true);
  });

  it('Hold Firm: “attacks against your back arc are treated as if they were attacking your front arc” + Reactive Attack “within your front arc”: holding firm gives no reactive attack on a foe leaving the back arc', () => {
    // v faces N and holds firm; a, behind it in reach, walks away.
    let events = fight([foe('v', [0, -1], 'N'), hero('a', [0, 0], 'N')]);
    events = then(then(events, { type: 'HoldFirm', combatantId: 'v' }), {
      type: 'EndTurn',
      combatantId: 'v',
    });
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('Reactive Attack on a ranged attack + “Leave yourself open” + Down “still targetable”: the reactor the archer’s own reaction leaves Down is still shot when the held shot resumes', () => {
    // a shoots its bow at v beside it (v faces a): v reacts first, fumbles (melee 5) and opens itself to a.
    let events = fight(
      [hero('a', [0, 0], 'N', { weapons: [bow, sword] }), foe('v', [0, -1], 'S', { maxHp: 2 })],
      {
        options: { arrowBreakage: false },
      },
    );
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [1, 1, 1, 2], followUpFaces: [5] },
    );
    expect(stateOf(events).reaction).toMatchObject({ trigger: 'criticalFailure', current: 'a' });
    // a's sword: 4, 4, 1, 2 = 2 > 1; damage 5 dice 4, 4, 1, 1, 1 = 2: v is Down.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.v.hp).toBe(0);
    expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    // The held shot: 4 dice 4, 4, 1, 2 = 2 > 1, a hit on v (Down: no front arc, no shield); damage 3 dice 4, 1, 1.
    const out = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 2, 4, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetId: 'v', hit: true, targetArc: 'back' });
  });
});
