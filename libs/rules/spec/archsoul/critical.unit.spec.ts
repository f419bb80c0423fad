import { bow, exact, fight, find, foe, hero, pistol, refused, stateOf, sword, then, types } from './helpers';

const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
const caster = {
  weapons: [sword, rend],
  skills: { awareness: 1, meleeWeapons: 2, soulCasting: 2, resolve: 1 },
};
const all = (events: { type: string; data: unknown }[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data as Record<string, any>);
/** A critical failure of a 4-die attack roll (zero successes, three 1s). */
const FUMBLE4 = [1, 1, 1, 2];
/** A critical failure of the 3-die soul attack roll, then the defender's 2-die Soulpower/Resolve roll (S15 order). */
const SOUL_FUMBLE = [1, 1, 2, 3, 3];

describe('Critical Failure Tables: firearm (archsoul.txt: Critical Failure Tables, RULINGS.md S2, S15, S20)', () => {
  const gun = () =>
    fight([
      hero('a', [0, 0], 'N', { weapons: [pistol, sword] }),
      hero('b', [1, 0]),
      hero('c', [3, 0]),
      foe('v', [0, -3]),
    ]);

  it('Barrel jams: the firearm cannot attack until ClearJam (3 AP, a full round) clears it', () => {
    let events = gun();
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: FUMBLE4, followUpFaces: [1] },
    );
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'pistol', jammed: true, broken: false });
    events = [...events, ...out];
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' }),
    ).toMatchObject({ code: 'ARCHSOUL_WEAPON_JAMMED', field: 'weaponId' });
    expect(refused(events, { type: 'ClearJam', combatantId: 'a', weaponId: 'pistol' }).code).toBe(
      'ARCHSOUL_NOT_ENOUGH_AP',
    );
    events = then(
      then(then(then(then(events, { type: 'EndPhase' }), { type: 'EndPhase' }), { type: 'StartRound' }), {
        type: 'EndTurn',
        combatantId: 'b',
      }),
      { type: 'EndTurn', combatantId: 'c' },
    );
    const cleared = exact(events, { type: 'ClearJam', combatantId: 'a', weaponId: 'pistol' });
    expect(cleared).toEqual([
      { type: 'ApSpent', data: { combatantId: 'a', action: 'clearJam', ap: 3, apLeft: 0 } },
      {
        type: 'WeaponChanged',
        data: {
          combatantId: 'a',
          weaponId: 'pistol',
          broken: false,
          destroyed: false,
          jammed: false,
          reason: 'jam cleared',
        },
      },
    ]);
    expect(stateOf([...events, ...cleared]).combatants.a.weapons.pistol.jammed).toBe(false);
    expect(
      refused([...events, ...cleared], { type: 'ClearJam', combatantId: 'a', weaponId: 'pistol' }).code,
    ).toBe('ARCHSOUL_NOT_JAMMED');
  });

  it('Firearm smokes: the next attack is 1 harder, then the penalty is gone', () => {
    let events = then(
      gun(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: FUMBLE4, followUpFaces: [2] },
    );
    expect(stateOf(events).combatants.a.conditions).toEqual([
      { condition: 'nextAttackHarder', amount: 1, untilNextTurn: false },
    ]);
    events = then(then(events, { type: 'EndPhase' }), { type: 'EndPhase' });
    events = then(then(then(events, { type: 'StartRound' }), { type: 'EndTurn', combatantId: 'b' }), {
      type: 'EndTurn',
      combatantId: 'c',
    });
    const next = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: [2, 2, 3, 3] },
    );
    expect(find(next, 'ExchangeResolved').attack).toMatchObject({
      difficulty: 5,
      modifiers: [{ reason: 'critical failure: next attack harder', amount: 1 }],
    });
    expect(find(next, 'ConditionRemoved')).toMatchObject({ combatantId: 'a', condition: 'nextAttackHarder' });
  });

  it('Firearm flares up: 4 damage to the shooter', () => {
    const out = exact(
      gun(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: FUMBLE4, followUpFaces: [4] },
    );
    expect(all(out, 'WoundsApplied')).toEqual([
      expect.objectContaining({ combatantId: 'a', damage: 4, hp: 6 }),
    ]);
  });

  it('Firearm bursts: 4 damage to everyone within 2 m of the shooter (its space and neighbours, S7), the weapon needs repairs', () => {
    const events = gun();
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: FUMBLE4, followUpFaces: [5] },
    );
    expect(all(out, 'WoundsApplied').map((w) => [w.combatantId, w.damage, w.hp])).toEqual([
      ['a', 4, 6],
      ['b', 4, 6],
    ]);
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'pistol', broken: true, destroyed: false });
    expect(stateOf([...events, ...out]).combatants.a.weapons.pistol).toMatchObject({
      broken: true,
      destroyed: false,
    });
    expect(stateOf([...events, ...out]).combatants.a.held).toContain('pistol');
  });

  it('Firearm explodes: 6 damage within 2 m, the weapon is destroyed and leaves the hand', () => {
    const events = gun();
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: FUMBLE4, followUpFaces: [6] },
    );
    expect(all(out, 'WoundsApplied').map((w) => [w.combatantId, w.damage])).toEqual([
      ['a', 6],
      ['b', 6],
    ]);
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'pistol', broken: true, destroyed: true });
    const after = [...events, ...out];
    expect(stateOf(after).combatants.a.held).toEqual(['sword']);
    expect(refused(after, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' }).code).toBe(
      'ARCHSOUL_WEAPON_DESTROYED',
    );
  });
});

describe('S70: a technological elemental weapon’s critical failure table', () => {
  const flamer = {
    id: 'flamer',
    name: 'Flamethrower',
    type: 'elemental',
    attackRoll: 1,
    damage: 3,
    accurateRange: 2,
    maximumRange: 4,
  };

  it('S70: given a technological elemental weapon, when its attack critically fails, then the firearm table is rolled: Firearm kicks, dealing 2 damage to you', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [flamer] }), foe('v', [0, -2])]);
    // Precision 2 + Ranged Weapons 2 = 4 dice; face 3 is "Firearm kicks" (the soul table's 3 would be Drain).
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'flamer' },
      { dice: FUMBLE4, followUpFaces: [3] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'firearm', face: 3 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
    expect(all(out, 'DrainSuffered')).toEqual([]);
  });

  it('S70: soul-magic elemental attacks keep the soul table, and a sheet may name another table', () => {
    const s = stateOf(
      fight([
        hero('a', [0, 0], 'N', {
          weapons: [
            flamer,
            { ...flamer, id: 'bolt', attackRoll: 0 },
            { ...flamer, id: 'lamp', criticalTable: 'melee' },
          ],
        }),
      ]),
    );
    expect(s.combatants.a.sheet.weapons.map((w) => [w.id, w.criticalTable])).toEqual([
      ['flamer', 'firearm'],
      ['bolt', 'soul'],
      ['lamp', 'melee'],
    ]);
  });
});

describe('Critical Failure Tables: bow and crossbow (archsoul.txt: Critical Failure Tables, RULINGS.md S15, S20, S21)', () => {
  it('Random target adjacent to original target is hit instead: a follow-up die picks among them, the hit rolls damage and the arrow lands there', () => {
    const events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -3]),
        foe('w', [1, -3]),
        hero('b', [-1, -3]),
        foe('x', [3, -3]),
      ],
      { options: { arrowBreakage: false } },
    );
    // Table 2, then a d2 over [w, b] (joined order) picks b; damage: Weapon Mastery 1 + base 2 = 3 dice.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [...FUMBLE4, 4, 5, 1], followUpFaces: [2, 2] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'AmmunitionSpent',
      'ExchangeResolved',
      'CriticalFailureRolled',
      'WoundsApplied',
      'ProjectileLanded',
    ]);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'b', damage: 2, hp: 8 });
    expect(find(out, 'ProjectileLanded')).toMatchObject({ space: { x: -1, y: -3 }, broken: false });
  });

  it('Random target adjacent to original target is hit instead: given a Quick Attack, when it is redirected, then the hit’s damage roll keeps the Quick Attack’s +1', () => {
    // archsoul.txt: Quick Attack: "The difficulty of the damage roll for this attack is increased by 1"; the bow
    // table's "is hit instead" is that attack's hit.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3]), foe('w', [1, -3])], {
      options: { arrowBreakage: false },
    });
    // Table 2; w is the only one adjacent to v (no pick die). Damage: Weapon Mastery 1 + base 2 = 3 dice at 4 + 1:
    // 4, 5, 6 is 2 damage.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', special: 'quick' },
      { dice: [...FUMBLE4, 4, 5, 6], followUpFaces: [2] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'w',
      damage: 2,
      damageRoll: { difficulty: 5, modifiers: [{ reason: 'Quick Attack', amount: 1 }] },
    });
  });

  it('Random ally within 6m of the target is hit instead: only the attacker’s allies within 3 spaces of the target (one candidate: no pick die)', () => {
    const events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -5]),
        foe('w', [1, -5]),
        hero('b', [0, -2]),
        hero('c', [5, 0]),
      ],
      { options: { arrowBreakage: false } },
    );
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [...FUMBLE4, 4, 1, 1], followUpFaces: [3] },
    );
    expect(all(out, 'WoundsApplied')).toEqual([
      expect.objectContaining({ combatantId: 'b', damage: 1, hp: 9 }),
    ]);
    expect(find(out, 'ProjectileLanded').space).toEqual({ x: 0, y: -2 });
  });

  it('no one to redirect to: the arrow simply misses', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3])], {
      options: { arrowBreakage: false },
    });
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: FUMBLE4, followUpFaces: [2] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'AmmunitionSpent',
      'ExchangeResolved',
      'CriticalFailureRolled',
      'ProjectileLanded',
    ]);
  });

  it('Weapon snaps back, dealing 2 damage to you', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3])], {
      options: { arrowBreakage: false },
    });
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: FUMBLE4, followUpFaces: [4] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
  });

  it('S2: a thrown weapon’s table is the one its sheet names: throwing knives on the bow table snap back for 2 damage', () => {
    // Given throwing knives whose sheet names the bow table ("the appropriate table", S2; the default for thrown is melee).
    const knife = {
      id: 'knife',
      name: 'Throwing knife',
      type: 'thrown',
      damage: 1,
      accurateRange: 3,
      maximumRange: 6,
      criticalTable: 'bow',
    };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [knife] }), foe('v', [0, -3])]);
    // When the throw (Precision 2 + Primitive Attacks 1 = 3 dice at 4) rolls 1, 1, 2: no success, two of three dice on 1,
    // a critical failure; the table's die shows 4, then the 0-success throw's landing die (S21).
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'knife', targetId: 'v' },
      { dice: [1, 1, 2], followUpFaces: [4, 1] },
    );
    // Then the bow table's 4, "Weapon snaps back, dealing 2 damage to you", not the melee table's "Fall off balance".
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ weaponId: 'knife', table: 'bow', face: 4 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
  });
});

describe('Critical Failure Tables: melee and unarmed (archsoul.txt: Critical Failure Tables, RULINGS.md S20)', () => {
  const duel = (extra: Record<string, unknown> = {}) =>
    fight([hero('a', [0, 0], 'N', extra), foe('v', [0, -1], 'S')]);

  it('Weapon slips and lands at target’s feet', () => {
    const out = exact(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [2] },
    );
    expect(find(out, 'ItemDropped')).toMatchObject({
      combatantId: 'a',
      itemId: 'sword',
      space: { x: 0, y: -1 },
    });
  });

  it('Fall off balance: Defense −1 until the fumbler’s next turn', () => {
    let events = then(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [4] },
    );
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    const hit = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'sword' },
      { dice: [4, 1, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(hit, 'ExchangeResolved')).toMatchObject({ defense: 0, hit: true });
    events = then(then(events, { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.a.conditions).toEqual([]);
  });

  it('Leave yourself open: the target may make a reactive attack (no action to prevent)', () => {
    const events = duel();
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [5] },
    );
    expect(find(out, 'ReactiveAttackTriggered')).toEqual({
      actorId: 'a',
      trigger: 'criticalFailure',
      reactorIds: ['v'],
    });
    const react = exact(
      [...events, ...out],
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(types(react)).toEqual(['ExchangeResolved', 'WoundsApplied', 'ReactionsFinished']);
  });

  it('Strike the ground: normal damage against the weapon’s HP; 0 HP breaks it', () => {
    const out = exact(
      duel({ weapons: [{ ...sword, hp: 2 }] }),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [...FUMBLE4, 4, 5, 6, 1, 1], followUpFaces: [6] },
    );
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'sword', hp: 0, broken: true });
  });

  it('S74: given a sword of hardness 2, when a critical failure strikes the ground, then its HP loses the damage roll less the hardness', () => {
    // Damage: Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice, 4, 5, 6, 1, 1: 3 successes, less hardness 2: 1.
    const out = exact(
      duel({ weapons: [{ ...sword, hp: 5, hardness: 2 }] }),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [...FUMBLE4, 4, 5, 6, 1, 1], followUpFaces: [6] },
    );
    expect(find(out, 'WeaponChanged')).toMatchObject({ weaponId: 'sword', hp: 4, broken: false });
    expect(find(out, 'WeaponChanged').reason).toContain('less hardness 2');
  });

  it('Overextend (unarmed): knocking yourself down', () => {
    const out = exact(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2], followUpFaces: [1] },
    );
    expect(find(out, 'ConditionApplied')).toMatchObject({ combatantId: 'a', condition: 'prone' });
  });

  it('Ankle sprains (unarmed): movement −1 for one round', () => {
    const events = then(
      duel(),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2], followUpFaces: [2] },
    );
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: 1, y: 0 },
          { x: 2, y: 0 },
          { x: 3, y: 0 },
        ],
      }).code,
    ).toBe('ARCHSOUL_MOVE_TOO_FAR');
  });

  it('Hit incorrectly (unarmed): damage rolled against yourself, at most 5', () => {
    const out = exact(
      duel({ attributes: { precision: 2, athletics: 8, endurance: 2, soulpower: 1, intellect: 1 } }),
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 6, 6, 6, 6, 6, 6, 6, 6], followUpFaces: [6] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 5, hp: 5 });
  });
});

describe('Critical Failure Tables: soul magic (archsoul.txt: Critical Failure Tables, RULINGS.md S15, S20, S24)', () => {
  const soul = () => fight([hero('a', [0, 0], 'N', caster), foe('v', [0, -3])]);
  const cast = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' };

  it.each([
    [1, 1],
    [2, 2],
    [3, 3],
  ])('Suffer extra Drain: face %i adds %i Drain', (face, amount) => {
    const events = soul();
    const out = exact(events, cast, { dice: SOUL_FUMBLE, followUpFaces: [face] });
    expect(find(out, 'DrainSuffered')).toEqual({ combatantId: 'a', amount, total: amount });
    expect(stateOf([...events, ...out]).combatants.a.drain).toBe(amount);
  });

  it('Light yourself on fire, dealing 4 damage to yourself', () => {
    const out = exact(soul(), cast, { dice: SOUL_FUMBLE, followUpFaces: [4] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 4, hp: 6 });
  });

  it('Shift 2m towards target: one space closer, without AP', () => {
    const events = soul();
    const out = exact(events, cast, { dice: SOUL_FUMBLE, followUpFaces: [5] });
    expect(find(out, 'Moved')).toMatchObject({
      combatantId: 'a',
      action: 'shift',
      from: { x: 0, y: 0 },
      to: { x: 0, y: -1 },
      distance: 1,
    });
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({ position: { x: 0, y: -1 }, ap: 1 });
  });

  it('Soul stumbles upon natural aetherial trap: Soulpower −1 in every later pool', () => {
    let events = then(soul(), cast, { dice: SOUL_FUMBLE, followUpFaces: [6] });
    expect(stateOf(events).combatants.a.soulpowerLoss).toBe(1);
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    // Soulpower 1 − 1 + Soul Casting 2 = 2 dice now.
    const next = exact(events, cast, { dice: [5, 5, 3, 3] });
    expect(find(next, 'ExchangeResolved').attack).toMatchObject({ pool: 2, successes: 2 });
  });
});

describe('S45: The critical-failure shift (archsoul.txt: Critical Failure Tables: "Shift 2m towards target")', () => {
  it('S45: the shift leaves a foe’s reach and front arc without triggering a reactive attack', () => {
    const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
    const caster = {
      weapons: [sword, rend],
      skills: { awareness: 1, meleeWeapons: 2, soulCasting: 2, resolve: 1 },
    };
    let events = fight([hero('a', [0, 0], 'N', caster), foe('v', [0, -3]), foe('w', [0, 1], 'N')]);
    // Casting soul magic in w's reach triggers it first (archsoul.txt: Reactive Attack); w declines.
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'w' });
    const out = exact(
      events,
      { type: 'ResumeAction', combatantId: 'a' },
      { dice: [1, 1, 2, 3, 3], followUpFaces: [5] },
    );
    expect(find(out, 'Moved')).toMatchObject({
      combatantId: 'a',
      action: 'shift',
      from: { x: 0, y: 0 },
      to: { x: 0, y: -1 },
    });
    expect(types(out)).not.toContain('ReactiveAttackTriggered');
    expect(stateOf([...events, ...out]).pending).toBeUndefined();
  });
});

describe('S57: an area attack’s critical failure (archsoul.txt: Critical Failure Tables, Area of Effect Attacks)', () => {
  const blunderbuss = {
    id: 'blunderbuss',
    name: 'Blunderbuss',
    type: 'ranged',
    damage: 3,
    accurateRange: 4,
    maximumRange: 8,
    areaRadius: 2,
    criticalTable: 'firearm',
    ammunition: { kind: 'bullet', count: 3 },
  };
  const axe = { id: 'axe', name: 'Axe', type: 'melee', damage: 3 };

  it('S57: the table is rolled even when nobody stands in the area: Firearm kicks, dealing 2 damage to you', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [blunderbuss] }), foe('v', [4, -6])]);
    // Precision 2 + Ranged Weapons 2 = 4 dice, no success and three 1s: a critical failure; follow-up 3.
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'blunderbuss', centre: { x: 0, y: -3 } },
      { dice: FUMBLE4, followUpFaces: [3] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'AmmunitionSpent',
      'AreaAttackResolved',
      'CriticalFailureRolled',
      'WoundsApplied',
    ]);
    expect(find(out, 'AreaAttackResolved').targets).toEqual([]);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2 });
  });

  it('S57: “your target” of an area is its centre: a Cleave into empty spaces drops the weapon in the first space named', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [axe] }), foe('v', [3, -3])]);
    // Precision 2 + Melee Weapons 2 = 4 dice at 5 (Cleave): no success, three 1s; follow-up 2: "lands at target's feet".
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: 1, y: -1 },
            { x: 0, y: -1 },
          ],
        },
      },
      { dice: FUMBLE4, followUpFaces: [2] },
    );
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'axe', space: { x: 1, y: -1 } });
  });

  it('S57: a thrown bomb the table drops at the thrower’s feet lies there unspent, as a single throw’s weapon does', () => {
    const bomb = {
      id: 'bomb',
      name: 'Bomb',
      type: 'thrown',
      damage: 3,
      accurateRange: 3,
      maximumRange: 6,
      areaRadius: 2,
    };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb] }), foe('v', [0, -3])]);
    // Precision 2 + Primitive Attacks 1 = 3 dice, no success and two 1s: a critical failure; melee table 1.
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
      { dice: [1, 1, 2], followUpFaces: [1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'AreaAttackResolved', 'CriticalFailureRolled', 'ItemDropped']);
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'bomb', space: { x: 0, y: 0 } });
    expect(stateOf([...events, ...out]).ground).toMatchObject([{ itemId: 'bomb', ownerId: 'a' }]);
  });

  it('S57: the centre’s occupant is the target a “Leave yourself open” reaction comes from, not whoever else the area holds', () => {
    const cannon = {
      id: 'cannon',
      name: 'Steam cannon',
      type: 'elemental',
      attackRoll: 1,
      damage: 3,
      accurateRange: 4,
      maximumRange: 8,
      areaRadius: 2,
      criticalTable: 'melee',
    };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [cannon] }),
      foe('w', [1, -1], 'S'),
      foe('v', [0, -1], 'S'),
    ]);
    // Precision 2 + Ranged Weapons 2 = 4 dice: a critical failure; follow-up 5: "Leave yourself open".
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'cannon', centre: { x: 0, y: -1 } },
      { dice: FUMBLE4, followUpFaces: [5] },
    );
    expect(find(out, 'AreaAttackResolved').targets.map((t: any) => t.targetId)).toEqual(['a', 'w', 'v']);
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'criticalFailure',
      reactorIds: ['v'],
    });
  });
});
