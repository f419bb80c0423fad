import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, foe, hero, refused, stateOf, sword, then, types } from './helpers';

const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
const rider = {
  weapons: [lance, sword],
  mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 },
};
const north = (n: number, x = 0) => Array.from({ length: n }, (_, i) => ({ x, y: -(i + 1) }));

describe('Charge (archsoul.txt: Mounted Maneuvers: Charge, RULINGS.md S35)', () => {
  it('3 AP: a straight line of at least 3 spaces, then a Lance attack whose damage pool gains the mount’s base speed', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -4])]);
    const out = exact(
      events,
      { type: 'Charge', combatantId: 'a', path: north(3), targetId: 'v', weaponId: 'lance' },
      { dice: [4, 4, 1, 2, 4, 4, 4, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'Moved', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'charge', ap: 3 });
    expect(find(out, 'Moved')).toMatchObject({ action: 'charge', to: { x: 0, y: -3 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, damageRoll: { pool: 9 } });
  });

  it('only mounted, with a Flail or Lance, in a straight line of 3 to 6 × mount speed spaces, ending in reach', () => {
    const events = fight([
      hero('a', [0, 0], 'N', rider),
      hero('n', [5, 5], 'N', { weapons: [lance] }),
      foe('v', [0, -4]),
    ]);
    expect(
      refused(events, {
        type: 'Charge',
        combatantId: 'n',
        path: north(3, 5).map((sp) => ({ x: 5, y: sp.y + 5 })),
        targetId: 'v',
        weaponId: 'lance',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_NOT_MOUNTED', field: 'combatantId' });
    expect(
      refused(events, { type: 'Charge', combatantId: 'a', path: north(2), targetId: 'v', weaponId: 'lance' }),
    ).toMatchObject({ code: 'ARCHSOUL_CHARGE_TOO_SHORT', field: 'path' });
    expect(
      refused(events, {
        type: 'Charge',
        combatantId: 'a',
        path: [
          { x: 0, y: -1 },
          { x: 1, y: -2 },
          { x: 1, y: -3 },
        ],
        targetId: 'v',
        weaponId: 'lance',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_CHARGE_NOT_STRAIGHT', field: 'path' });
    expect(
      refused(events, { type: 'Charge', combatantId: 'a', path: north(3), targetId: 'v', weaponId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_CHARGE_WEAPON', field: 'weaponId' });
    expect(
      refused(events, {
        type: 'Charge',
        combatantId: 'a',
        path: north(3),
        targetId: 'v',
        weaponId: 'lance',
        special: 'quick',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_MANEUVER_COMBINATION', field: 'special' });
    expect(
      refused(events, {
        type: 'Charge',
        combatantId: 'a',
        path: north(2)
          .concat([{ x: 0, y: -3 }])
          .slice(0, 2)
          .concat([{ x: 0, y: -3 }]),
        targetId: 'n',
        weaponId: 'lance',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_OUT_OF_REACH', field: 'targetId' });
  });

  it('a Polearm reactive attack during the charge gains the mount’s speed; an interrupted charge dismounts and knocks down the rider', () => {
    const pike = { id: 'pike', name: 'Pike', type: 'melee', damage: 2, reach: 2, properties: ['polearm'] };
    let events = fight([
      hero('a', [0, 0], 'N', rider),
      foe('p', [1, -1], 'SW', { weapons: [pike] }),
      foe('v', [0, -4]),
    ]);
    events = then(events, {
      type: 'Charge',
      combatantId: 'a',
      path: north(3),
      targetId: 'v',
      weaponId: 'lance',
    });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'p' });
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'p', weaponId: 'pike' },
      { dice: [4, 4, 1, 2, 4, 4, 4, 4, 1, 1, 1, 1, 3, 1, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 4, damageRoll: { pool: 8 } });
    expect(types(out)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'Dismounted',
      'ConditionApplied',
      'ReactionsFinished',
    ]);
    const a = stateOf([...events, ...out]).combatants.a;
    expect([a.mounted, a.position, a.conditions.map((k) => k.condition)]).toEqual([
      false,
      { x: 0, y: 0 },
      ['prone'],
    ]);
  });

  it('archsoul.txt: Charge: “The dice pool for the damage roll of this attack is increased by the base movement speed of your mount”: a Charge with Shatter too (S35)', () => {
    const events = fight([
      hero('a', [0, 0], 'N', rider),
      foe('v', [0, -4], 'S', { weapons: [{ ...sword, hp: 20 }] }),
    ]);
    // a's lance: 4 dice, 6,6,6,1 → 3 against v's sword roll 4,1,1,1 → 1. The damage roll against the sword:
    // Athletics 2 + Weapon Mastery 1 + the lance's 3 + the horse's speed 3 = 9 dice at 4, all 4s: 9, hardness 0.
    const out = exact(
      events,
      {
        type: 'Charge',
        combatantId: 'a',
        path: north(3),
        targetId: 'v',
        weaponId: 'lance',
        shatter: { itemId: 'sword' },
      },
      { dice: [6, 6, 6, 1, 4, 1, 1, 1, ...Array(9).fill(4)] },
    );
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedItemId: 'sword',
      damageRoll: { pool: 9, successes: 9 },
      damage: 9,
    });
    expect(stateOf([...events, ...out]).combatants.v.weapons.sword.hp).toBe(11);
  });

  it('archsoul.txt: Charge: a Polearm’s reactive Shatter during the charge gains the mount’s speed in its damage roll against the item', () => {
    const pike = { id: 'pike', name: 'Pike', type: 'melee', damage: 2, reach: 2, properties: ['polearm'] };
    let events = fight([
      hero('a', [0, 0], 'N', { ...rider, weapons: [{ ...lance, hp: 20 }, sword] }),
      foe('p', [1, -1], 'SW', { weapons: [pike] }),
      foe('v', [0, -4]),
    ]);
    events = then(events, {
      type: 'Charge',
      combatantId: 'a',
      path: north(3),
      targetId: 'v',
      weaponId: 'lance',
    });
    // p's pike: 6,6,6,1 → 3 against a's lance roll 4,1,1,1 → 1. The damage roll against the lance: Athletics 2 +
    // Weapon Mastery 1 + the pike's 2 + the horse's speed 3 = 8 dice, all 4s: 8. a's Endurance/Resolve 3,3,3 → 3 > 0.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'p', weaponId: 'pike', shatter: { itemId: 'lance' } },
      { dice: [6, 6, 6, 1, 4, 1, 1, 1, ...Array(8).fill(4), 3, 3, 3] },
    );
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedId: 'a',
      damagedItemId: 'lance',
      damageRoll: { pool: 8, successes: 8 },
      damage: 8,
    });
    expect(stateOf([...events, ...out]).combatants.a.weapons.lance.hp).toBe(12);
  });
});

describe('Trample (archsoul.txt: Mounted Maneuvers: Trample, RULINGS.md S35)', () => {
  // s faces the rider (S54: a stop needs the rider in its front arc), so leaving the space before s's is offered first.
  const setup = (extra: Record<string, unknown> = { size: 'small' }) =>
    fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', extra)]);
  const toTrample = (events: RuleEvent[]) => {
    let out = then(events, { type: 'Move', combatantId: 'a', path: north(3), trample: true });
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'leaveReach', reactorIds: ['s'] });
    out = then(then(out, { type: 'DeclineReactiveAttack', combatantId: 's' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    return out;
  };

  it('an opponent who stops you makes a forced reactive attack; a miss lets the mount roll its trample damage as you pass', () => {
    let events = toTrample(setup());
    // archsoul.txt: Trample: "even if the opponent has already made a reactive attack against your movement this round".
    expect(
      events.filter((e) => e.type === 'ReactiveAttackTriggered').map((e) => (e.data as any).trigger),
    ).toEqual(['leaveReach', 'trample']);
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [1, 2, 3, 3] },
    );
    const passed = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1] });
    expect(types(passed)).toEqual(['ActionResumed', 'WoundsApplied', 'Moved']);
    expect(find(passed, 'WoundsApplied')).toMatchObject({ combatantId: 's', damage: 2 });
    expect(stateOf([...events, ...passed]).combatants.a.position).toEqual({ x: 0, y: -3 });
  });

  it('a hit stops the movement; the opponent may let you pass; only smaller targets; never ending in its space', () => {
    const events = toTrample(setup());
    const stopped = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 1, 1, 1, 1, 2] },
    );
    expect(find(stopped, 'PreventionRolled')).toMatchObject({
      prevented: true,
      reason: expect.stringContaining('Trample'),
    });
    expect(stateOf([...events, ...stopped]).combatants.a.position).toEqual({ x: 0, y: -1 });
    const avoider = fight([
      hero('a', [0, 0], 'N', rider),
      foe('s', [0, -2], 'N', { size: 'small', trampleResponse: 'avoid' }),
    ]);
    expect(types(exact(avoider, { type: 'Move', combatantId: 'a', path: north(3), trample: true }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
    expect(
      refused(setup({ size: 'large' }), { type: 'Move', combatantId: 'a', path: north(3), trample: true }),
    ).toMatchObject({ code: 'ARCHSOUL_TRAMPLE_SIZE', field: 'path[1]' });
    expect(refused(setup(), { type: 'Move', combatantId: 'a', path: north(2), trample: true })).toMatchObject(
      { code: 'ARCHSOUL_SPACE_OCCUPIED', field: 'path[1]' },
    );
  });
});

describe('Charge with Trample (archsoul.txt: Trample: "as part of a regular move action or a charge")', () => {
  it('the trampled opponent misses: the mount tramples it, the charge goes on and ends in the attack', () => {
    let events = fight([
      hero('a', [0, 0], 'N', rider),
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
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 's' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 's' });
    expect(stateOf(events).reaction).toMatchObject({ trigger: 'trample' });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 's', weaponId: 'sword' },
      { dice: [1, 2, 3, 3] },
    );
    const out = exact(
      events,
      { type: 'ResumeAction', combatantId: 'a' },
      { dice: [4, 1, 1, 4, 4, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual([
      'ActionResumed',
      'WoundsApplied',
      'Moved',
      'ExchangeResolved',
      'WoundsApplied',
    ]);
    expect(
      out
        .filter((e) => e.type === 'WoundsApplied')
        .map((e) => [(e.data as any).combatantId, (e.data as any).damage]),
    ).toEqual([
      ['s', 1],
      ['v', 1],
    ]);
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({
      position: { x: 0, y: -4 },
      mounted: true,
    });
  });
});

describe('S35: a rider knocked to the ground (archsoul.txt: Knockdown: "the opponent is knocked to the ground"; Takedown; Critical Failure Tables)', () => {
  it('S35: a Knockdown that fells a mounted opponent dismounts it; the mount waits in its space', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', rider)]);
    // a's 2 successes beat Defense 1; v's Athletics/Resolve at 3: 1; a's damage roll 2 > 1: knocked down.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', knockdown: true },
      { dice: [4, 4, 1, 2, 3, 1, 1, 4, 4, 1, 1, 1] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'ExchangeResolved',
      'KnockdownResolved',
      'Dismounted',
      'ConditionApplied',
    ]);
    expect(find(out, 'Dismounted')).toMatchObject({ combatantId: 'v', at: { x: 0, y: -1 } });
    expect(stateOf([...events, ...out]).combatants.v).toMatchObject({
      mounted: false,
      mountAt: { x: 0, y: -1 },
      conditions: [{ condition: 'prone' }],
    });
  });
  it('S35: a rider dropping to the ground (a free action) comes off its mount, which waits in its space, and lies prone', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('v', [3, -3], 'S')]);
    const out = exact(events, { type: 'DropProne', combatantId: 'a' });
    expect(types(out)).toEqual(['Dismounted', 'ConditionApplied']);
    expect(find(out, 'Dismounted')).toMatchObject({ combatantId: 'a', at: { x: 0, y: 0 } });
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({
      mounted: false,
      mountAt: { x: 0, y: 0 },
      ap: 3,
      conditions: [{ condition: 'prone' }],
    });
  });

  it('S35: a grapple Throw with outcome throw takes a mounted opponent off its mount, which waits where it was thrown from', () => {
    let events = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N', rider)]),
      {
        type: 'Grab',
        combatantId: 'a',
        targetId: 'v',
      },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    events = ['a', 'v'].reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).grapples).toHaveLength(1);
    const out = exact(
      events,
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v', outcome: 'throw', to: { x: -1, y: 0 } },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'GrappleRolled',
      'WoundsApplied',
      'Dismounted',
      'Moved',
      'GrappleEnded',
      'ConditionRemoved',
      'ConditionRemoved',
    ]);
    expect(find(out, 'Dismounted')).toMatchObject({ combatantId: 'v', at: { x: 0, y: -1 } });
    expect(stateOf([...events, ...out]).combatants.v).toMatchObject({
      position: { x: -1, y: 0 },
      mounted: false,
      mountAt: { x: 0, y: -1 },
      conditions: [],
    });
  });
});
