import {
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  javelin,
  pistol,
  refused,
  stateOf,
  sheet,
  sword,
  then,
  types,
} from './helpers';
import { RuleEvent } from '../../src/core/types';
import { validateSheet } from '../../src/archsoul';

describe('Turn order (archsoul.txt: Turn Order, RULINGS.md S9, S12, S16, S17)', () => {
  it('heroes A and B above the villains act first; C, below, acts with A and B from round 2 (the text’s example)', () => {
    let events = fight([hero('a', [0, 0]), hero('b', [1, 0]), foe('v', [0, -3]), hero('c', [2, 0])]);
    expect(find(events, 'PhaseStarted')).toEqual({
      round: 1,
      index: 0,
      party: 'heroes',
      combatantIds: ['a', 'b'],
    });
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'b' });
    expect(stateOf(events).phase).toMatchObject({ party: 'enemies', combatantIds: ['v'] });
    expect(refused(events, { type: 'Move', combatantId: 'c', path: [{ x: 2, y: -1 }] }).code).toBe(
      'ARCHSOUL_NOT_YOUR_TURN',
    );
    const closing = exact(events, { type: 'EndTurn', combatantId: 'v' });
    expect(types(closing)).toEqual(['TurnEnded', 'PhaseEnded', 'RoundEnded']);
    events = then([...events, ...closing], { type: 'StartRound' });
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes', combatantIds: ['a', 'b', 'c'] });
  });

  it('S9: heroes roll Precision/Awareness at 4, the GM rolls once for all enemies with the best enemy pool', () => {
    const events = fight(
      [hero('a', [0, 0]), foe('v', [0, -3]), foe('w', [1, -3], 'S', { skills: { awareness: 3 } })],
      { round: false },
    ).filter((e) => e.type !== 'InitiativeSet');
    // a: 3 dice (2 + 1); enemies: best pool 2 + 3 = 5 dice.
    const rolled = exact(events, { type: 'RollInitiative' }, { dice: [4, 4, 1, 6, 5, 3, 2, 1] });
    const data = find(rolled, 'InitiativeRolled');
    expect(data.rolls.map((r: any) => [r.combatantId, r.total])).toEqual([
      ['a', 2],
      ['v', 2],
      ['w', 2],
    ]);
    // Tie 2–2: enemies' highest Awareness 3 beats a's 1.
    expect(data.order).toEqual(['w', 'v', 'a']);
  });

  it('S9: a tie on Awareness and Precision goes to a d6 roll-off (follow-up faces)', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])], { round: false }).filter(
      (e) => e.type !== 'InitiativeSet',
    );
    const rolled = exact(
      events,
      { type: 'RollInitiative' },
      { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [2, 5] },
    );
    expect(find(rolled, 'InitiativeRolled').order).toEqual(['v', 'a']);
  });

  it('C7: 3 AP at the start of the own turn; unused AP are lost on EndTurn', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -4])]);
    expect(stateOf(events).combatants.a.ap).toBe(3);
    expect(find(exact(events, { type: 'EndTurn', combatantId: 'a' }), 'TurnEnded')).toEqual({
      combatantId: 'a',
      apLost: 3,
    });
  });

  it('Ambushes: the surprising party moves up to its speed free in round 1', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -6])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    const moved = exact(events, {
      type: 'Move',
      combatantId: 'a',
      free: true,
      path: [
        { x: 0, y: -1 },
        { x: 0, y: -2 },
        { x: 0, y: -3 },
      ],
    });
    expect(types(moved)).toEqual(['Moved']);
    const s = stateOf([...events, ...moved]).combatants.a;
    expect([s.ap, s.freeMove]).toEqual([3, 0]);
  });

  it('Ambushes: “freely move up to their base movement speed”: a mounted rider moves free at its mount’s speed, as a Move would take it (RULINGS.md S35)', () => {
    const horse = { mount: { name: 'Horse', speed: 5, size: 'large', trampleDamage: 3 } };
    const north = (n: number, x: number) => Array.from({ length: n }, (_, i) => ({ x, y: -(i + 1) }));
    let events = fight([hero('a', [0, 0], 'N', horse), hero('b', [2, 0]), foe('v', [0, -9])], {
      round: false,
    });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    // Given the rider (sheet speed 3, mount 5) and a hero on foot, when round 1 of the ambush starts,
    // then the rider's free movement is its mount's 5 spaces, the walker's its own 3: each what a Move allows.
    const turns = stateOf(events).combatants;
    expect([turns.a.mounted, turns.a.sheet.speed, turns.a.freeMove, turns.b.freeMove]).toEqual([
      true,
      3,
      5,
      3,
    ]);
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: north(6, 0) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      field: 'path',
    });
    const moved = exact(events, { type: 'Move', combatantId: 'a', free: true, path: north(5, 0) });
    expect(find(moved, 'Moved')).toMatchObject({ action: 'free', to: { x: 0, y: -5 } });
    expect(stateOf([...events, ...moved]).combatants.a).toMatchObject({ ap: 3, freeMove: 0 });
    expect(refused(events, { type: 'Move', combatantId: 'b', free: true, path: north(4, 2) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      field: 'path',
    });
  });
});

describe('Action economy (archsoul.txt: The Action Economy, RULINGS.md S6, S14, S19)', () => {
  it('Move: up to speed; facing follows movement; AP never below zero', () => {
    let events = fight([hero('a', [0, 0], 'S'), foe('v', [5, -8])]);
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
      ],
    });
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 3, y: 0 }, facing: 'SE', ap: 2 });
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [1, 2, 3, 4].map((i) => ({ x: 3 + i, y: 0 })),
      }),
    ).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
  });

  it('S6/S14: the third Move covers 6 × speed minus the distance already moved', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [-5, 9])]);
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
      ],
    });
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 3, y: 0 },
        { x: 4, y: 0 },
        { x: 5, y: 0 },
      ],
    });
    const path = Array.from({ length: 14 }, (_, i) => ({ x: 6 + i, y: 0 }));
    expect(refused(events, { type: 'Move', combatantId: 'a', path }).code).toBe('ARCHSOUL_MOVE_TOO_FAR');
    events = then(events, { type: 'Move', combatantId: 'a', path: path.slice(0, 13) });
    expect(stateOf(events).combatants.a).toMatchObject({
      position: { x: 18, y: 0 },
      ap: 0,
      moveDistance: 18,
    });
    expect(refused(events, { type: 'SlowMove', combatantId: 'a', to: { x: 19, y: 0 } })).toMatchObject({
      code: 'ARCHSOUL_NOT_ENOUGH_AP',
      field: 'type',
    });
  });

  it('S19: no step into a blocked space or through a wall; Turn is free on the own turn only', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [5, -8])], {
      map: {
        grid: 'hex',
        blocked: [{ x: 1, y: 0 }],
        walls: [
          [
            { x: 0, y: 0 },
            { x: 0, y: -1 },
          ],
        ],
      },
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] })).toMatchObject({
      code: 'ARCHSOUL_INVALID_STEP',
      field: 'path[0]',
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }] })).toMatchObject({
      code: 'ARCHSOUL_INVALID_STEP',
      field: 'path[0]',
    });
    expect(types(exact(events, { type: 'Turn', combatantId: 'a', facing: 'SW' }))).toEqual(['Turned']);
    expect(refused(events, { type: 'Turn', combatantId: 'v', facing: 'N' }).code).toBe(
      'ARCHSOUL_NOT_YOUR_TURN',
    );
  });

  it('Draw Awkward Item: 2 AP, consecutive, may span turns (S25)', () => {
    const bag = { items: [{ id: 'shield2', name: 'Tower shield', stowage: 'awkward' }] };
    let events = fight([hero('a', [0, 0], 'N', bag), foe('v', [5, -8])]);
    events = then(then(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] }), {
      type: 'Move',
      combatantId: 'a',
      path: [{ x: 2, y: 0 }],
    });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield2' });
    expect(stateOf(events).combatants.a.awkward).toBe('shield2');
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    const done = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield2' });
    expect(types(done)).toEqual(['ApSpent', 'ItemDrawn']);
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'shield2' }).code).toBe(
      'ARCHSOUL_AWKWARD_ITEM',
    );
  });
});

describe('Attacks (archsoul.txt: Attacking, RULINGS.md S1, S3, S4, S10, S22)', () => {
  it('melee: Precision/Melee Weapons at 4 must exceed Defense; damage Athletics/Weapon Mastery/base at 4', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { defense: 1 })]);
    // Attack pool 4: 4, 5 succeed (2 > 1). Damage pool 2 + 1 + 2 = 5: three successes.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [4, 5, 1, 2, 6, 4, 4, 1, 2] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      defense: 1,
      resistance: 1,
      targetArc: 'front',
      attack: { successes: 2, difficulty: 4 },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 3, hp: 7 });
    // S3: equal is a miss.
    const miss = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [4, 1, 2, 3] },
    );
    expect(find(miss, 'ExchangeResolved').hit).toBe(false);
  });

  it('ranged beyond accurate range: +1 difficulty; Shield Bonus from the front arc only', () => {
    const shielded = { shield: { bonus: 2 }, defense: 1 };
    const events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -7], 'S', shielded),
        foe('w', [2, -8], 'N', shielded),
      ],
      { options: { arrowBreakage: false } },
    );
    const front = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [5, 5, 5, 1] },
    );
    expect(find(front, 'ExchangeResolved')).toMatchObject({
      attack: { difficulty: 5, successes: 3, modifiers: [{ reason: 'beyond accurate range', amount: 1 }] },
      shieldBonus: 2,
      hit: false,
    });
    expect(find(front, 'ProjectileLanded')).toMatchObject({ space: { x: 0, y: -10 }, broken: false });
    const back = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'bow' },
      { dice: [5, 5, 1, 1, 4, 4, 4] },
    );
    expect(find(back, 'ExchangeResolved')).toMatchObject({ targetArc: 'back', shieldBonus: 0, hit: true });
    expect(find(back, 'ProjectileLanded')).toMatchObject({ space: { x: 2, y: -8 } });
  });

  it('S1: difficulty above 6 needs 6s and removes a die per step', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, improvised: true, broken: true }] }),
      foe('v', [0, -1], 'S', { armour: { type: 'plate' } }),
    ]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', modifier: 2 },
      { dice: [6, 6, 6, 1, 1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({
      pool: 4,
      difficulty: 6,
      removed: 2,
      successes: 2,
    });
  });

  it('unarmed: +1 damage with metal armour on the limb (S22)', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { metalGauntlets: true }),
      foe('v', [0, -1], 'S', { defense: 0 }),
    ]);
    const out = exact(events, { type: 'Attack', attackerId: 'a', targetId: 'v' }, { dice: [4, 1, 1, 1, 1] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, bonus: 1 });
  });

  it('S72: Unarmed: “metal armor on the limb you are attacking with, usually a gauntlet”: metal gauntlets add 1 to a punch, not to a kick or headbutt unless the GM names that limb armoured', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { metalGauntlets: true }),
      foe('v', [0, -1], 'S', { defense: 0 }),
    ]);
    const punch = { type: 'Attack', attackerId: 'a', targetId: 'v' };
    // A kick is "anything else": 3 dice at 5 (5,1,1 = 1 hit); damage 2 dice at 4 (1,1 = 0), the gauntlets not on the foot.
    const kick = exact(events, { ...punch, unarmedStyle: 'other' }, { dice: [5, 1, 1, 1, 1] });
    expect(find(kick, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(find(kick, 'WoundsApplied')).toMatchObject({ damage: 0, bonus: 0 });
    // The punch keeps its +1; the GM's limbArmoured says a kicking limb is armoured (metal boots) or a punching one is not.
    expect(find(exact(events, punch, { dice: [4, 1, 1, 1, 1] }), 'WoundsApplied')).toMatchObject({
      bonus: 1,
    });
    const booted = exact(
      events,
      { ...punch, unarmedStyle: 'other', limbArmoured: true },
      { dice: [5, 1, 1, 1, 1] },
    );
    expect(find(booted, 'WoundsApplied')).toMatchObject({ damage: 1, bonus: 1 });
    const bare = exact(events, { ...punch, limbArmoured: false }, { dice: [4, 1, 1, 1, 1] });
    expect(find(bare, 'WoundsApplied')).toMatchObject({ damage: 0, bonus: 0 });
  });

  it('out of reach, no line of sight through walls, not enough AP are refused naming the rule', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, bow] }), foe('v', [0, -3], 'S')], {
      map: {
        walls: [
          [
            { x: 0, y: -1 },
            { x: 0, y: -2 },
          ],
          [
            { x: 1, y: -2 },
            { x: 0, y: -1 },
          ],
          [
            { x: 1, y: -2 },
            { x: 1, y: -1 },
          ],
          [
            { x: -1, y: -1 },
            { x: 0, y: -2 },
          ],
        ],
      },
    });
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_OUT_OF_REACH', field: 'targetId' });
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' }),
    ).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
  });
});

describe('Reactive attacks (archsoul.txt: Reactive Attack, RULINGS.md S8, S13, S18)', () => {
  it('moving out of a space within reach and front arc triggers; a hit whose damage the Endurance/Resolve roll does not exceed prevents the step', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    const moved = exact(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
      ],
    });
    expect(types(moved)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(moved, 'ReactiveAttackTriggered')).toMatchObject({
      actorId: 'a',
      trigger: 'leaveReach',
      reactorIds: ['v'],
    });
    const after = [...events, ...moved];
    expect(refused(after, { type: 'EndTurn', combatantId: 'a' }).code).toBe('PENDING_DECISION');
    // v: 4 dice 6,6,1,1 → 2 > Defense 1; damage 5 dice → 2; a's Endurance/Resolve (3 dice at 3): 3,1,1 = 1 ≤ 2 → prevented.
    const react = exact(
      after,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 4, 1, 1, 1, 3, 1, 1] },
    );
    expect(types(react)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(react, 'PreventionRolled')).toMatchObject({
      damage: 2,
      prevented: true,
      test: { difficulty: 3, successes: 1 },
    });
    const s = stateOf([...after, ...react]);
    expect(s.combatants.a).toMatchObject({ position: { x: 0, y: 0 }, ap: 2, hp: 8 });
    expect(s.pending).toBeUndefined();
  });

  it('not prevented: the mover resumes its held Move; once per reactor per mover per turn', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    let after = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
      ],
    });
    after = then(
      after,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 1, 1, 1] },
    );
    expect(stateOf(after).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    after = then(after, { type: 'ResumeAction', combatantId: 'a' });
    expect(stateOf(after).combatants.a.position).toEqual({ x: -2, y: 0 });
    // Back in reach and out again in the same turn: v does not react twice.
    after = then(after, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: -1, y: 0 },
        { x: -1, y: -1 },
        { x: -2, y: -1 },
      ],
    });
    expect(stateOf(after).pending).toBeUndefined();
  });

  it('no reaction from the back arc, from a grappled combatant, or by a reactor outside reach', () => {
    const backTurned = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]);
    expect(types(exact(backTurned, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
    const grappled = then(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]), {
      type: 'ApplyCondition',
      combatantId: 'v',
      condition: 'grappled',
    });
    expect(types(exact(grappled, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('a ranged attack inside a foe’s reach and front arc is attacked first; declined, the attack is resumed', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')], {
      options: { arrowBreakage: false },
    });
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const shot = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [1, 2, 3, 2] });
    expect(types(shot)).toEqual(['ActionResumed', 'AmmunitionSpent', 'ExchangeResolved', 'ProjectileLanded']);
  });
});

describe('Critical failures and ammunition (RULINGS.md S2, S20, S21)', () => {
  it('zero successes with more than half the dice on 1 rolls the weapon’s table: melee 1 drops the weapon at your feet', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [1, 1, 1, 3], followUpFaces: [1] },
    );
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({
      table: 'melee',
      face: 1,
      text: 'Weapon slips and drops at your feet',
    });
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'sword', space: { x: 0, y: 0 } });
    const s = stateOf([...events, ...out]);
    expect(s.combatants.a.held).not.toContain('sword');
    expect(
      refused([...events, ...out], { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' })
        .code,
    ).toBe('ARCHSOUL_WEAPON_NOT_HELD');
  });

  it('half the dice on 1 is not a critical failure', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    expect(
      types(
        exact(
          events,
          { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
          { dice: [1, 1, 3, 3] },
        ),
      ),
    ).toEqual(['ApSpent', 'ExchangeResolved']);
  });

  it('firearm 3 kicks for 2 damage to the shooter; bow 6 leaves the weapon needing repairs', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [pistol, bow, sword] }), foe('v', [0, -3], 'S')]);
    const kick = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' },
      { dice: [1, 1, 1, 2], followUpFaces: [3] },
    );
    expect(find(kick, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
    const snap = [
      ...events,
      ...exact(
        events,
        { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
        { dice: [1, 1, 1, 2], followUpFaces: [6, 4] },
      ),
    ];
    expect(stateOf(snap).combatants.a.weapons.bow.broken).toBe(true);
  });

  it('arrows break on a follow-up 1 unless the fight waives it; bullets are never recovered', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [bow] }),
      foe('v', [0, -3], 'S', { defense: 0 }),
    ]);
    const broke = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [4, 1, 1, 1, 1, 1, 1], followUpFaces: [1] },
    );
    expect(find(broke, 'ProjectileLanded')).toMatchObject({ broken: true, space: { x: 0, y: -3 } });
    const kept = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [4, 1, 1, 1, 1, 1, 1], followUpFaces: [2] },
    );
    expect(find(kept, 'ProjectileLanded')).toMatchObject({ broken: false, groundId: 'g1' });
  });

  it('Throw an Item: 1 AP; a roll of 0 lands in a random adjacent space (follow-up d6 on hex)', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, javelin] }), foe('v', [0, -3], 'S')]);
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [2, 3, 3], followUpFaces: [1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    expect(find(out, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 1, y: -3 } });
    expect(stateOf([...events, ...out]).combatants.a.held).toEqual(['sword']);
  });
});

describe('Ambushes: “all members of the surprising party may freely move … during the first round of combat” (archsoul.txt: Ambushes, Turn Order, RULINGS.md S17)', () => {
  it('S17: a surprising hero ranked below the enemies gets its free move on its first turn, with the heroes’ round-2 phase', () => {
    // Given the order a, v, c (the text's hero C ranks below the villains) and the heroes' ambush.
    let events = fight([hero('a', [0, 0]), foe('v', [0, -6]), hero('c', [2, 0])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, freeMove: 3 });
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: false, freeMove: 0 });
    // When the villains' phase ends round 1 and the heroes' phase opens round 2 (A, B and C together, Turn Order),
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    // then C, on its first turn, moves its speed (3) free; A, on its second, has no free move left.
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, freeMove: 3 });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, freeMove: 0 });
    const moved = exact(events, {
      type: 'Move',
      combatantId: 'c',
      free: true,
      path: [
        { x: 2, y: -1 },
        { x: 2, y: -2 },
        { x: 2, y: -3 },
      ],
    });
    expect(types(moved)).toEqual(['Moved']);
    expect(
      refused(events, { type: 'Move', combatantId: 'a', free: true, path: [{ x: 0, y: -1 }] }),
    ).toMatchObject({ code: 'ARCHSOUL_NO_FREE_MOVE', field: 'free' });
    // Round 3 is no longer the first round of combat for anyone.
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'c' });
    events = then(then(events, { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, freeMove: 0 });
  });

  it('S17/S20: a slow “for one round” that ends as the surprising hero’s first turn starts no longer shortens its free move', () => {
    // Given the order a, v, c and the heroes' ambush, with c slowed by 1 "for one round" during the villains' phase
    // (S20: it lasts until c's next turn, C7).
    let events = fight([hero('a', [0, 0]), foe('v', [0, -6]), hero('c', [2, 0])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    events = then(events, {
      type: 'ApplyCondition',
      combatantId: 'c',
      condition: 'slowed',
      amount: 1,
      untilNextTurn: true,
    });
    // When c's first turn starts with the heroes' round-2 phase, the slow ends;
    events = then(then(events, { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
    // then c moves its full speed of 3 free, as a Move this turn would take it, not 3 - 1.
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, conditions: [], freeMove: 3 });
    const path = [1, 2, 3].map((y) => ({ x: 2, y: -y }));
    expect(types(exact(events, { type: 'Move', combatantId: 'c', free: true, path }))).toEqual(['Moved']);
  });

  it('S77: given a surprising hero ranked below the enemies, when every enemy leaves before round 2, then it still gets its free move on its first turn', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -6]), hero('c', [2, 0])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(then(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'fled' }), {
      type: 'StartRound',
    });
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, freeMove: 3 });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, freeMove: 0 });
  });

  it('S77: given an ambush by heroes alone, when an enemy joins ranked between them, then the hero who moved free in round 1 gets no second free move, and the joiner none', () => {
    let events = fight([hero('a', [0, 0]), hero('c', [2, 0])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, freeMove: 3 });
    events = then(
      events,
      { type: 'AddCombatant', combatant: { id: 'w', name: 'w', side: 'enemies', sheet: sheet() } },
      { dice: [4, 4, 4] },
    );
    events = then(
      events,
      { type: 'AddCombatant', combatant: { id: 'd', name: 'd', side: 'heroes', sheet: sheet() } },
      { dice: [4, 1, 1] },
    );
    events = then(events, { type: 'SetInitiative', order: ['a', 'w', 'c', 'd'] });
    events = then(then(then(events, { type: 'EndPhase' }), { type: 'EndPhase' }), { type: 'StartRound' });
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes', combatantIds: ['a', 'c', 'd'] });
    expect(stateOf(events).combatants.c).toMatchObject({ inTurn: true, freeMove: 0 });
    expect(stateOf(events).combatants.d).toMatchObject({ inTurn: true, freeMove: 0 });
  });
});

describe('Unarmed: “These may only be performed against targets in adjacent spaces” (archsoul.txt: Unarmed)', () => {
  const claws = { id: 'claws', name: 'Long Claws', type: 'unarmed', damage: 1 };

  it('“anything else increases the difficulty by 1” describes an unarmed strike: unarmedStyle with a sword is refused, not ignored', () => {
    // Given the order v, a: v shoots a, adjacent and in a's front arc, so a is offered a reactive attack.
    const events = fight([foe('v', [0, -1], 'S', { weapons: [bow] }), hero('a', [0, 0])]);
    const shot = then(events, { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'bow' });
    for (const [command, base] of [
      [{ type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, shot],
      [{ type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'bow' }, events],
    ] as const)
      expect(refused(base, { ...command, unarmedStyle: 'other' })).toMatchObject({
        code: 'INVALID_FIELD',
        field: 'unarmedStyle',
      });
    // The fist's kick: Precision 2 + Primitive Attacks 1 = 3 dice at 4 + 1; damage Athletics 2 + 0 = 2 dice at 4;
    // then v's Endurance 2 + Resolve 1 = 3 dice at 3 against the 1 damage.
    const kick = exact(
      shot,
      { type: 'ReactiveAttack', combatantId: 'a', unarmedStyle: 'other' },
      { dice: [5, 5, 1, 4, 1, 3, 3, 3] },
    );
    expect(find(kick, 'ExchangeResolved')).toMatchObject({
      weaponId: 'fist',
      attack: { difficulty: 5 },
      hit: true,
    });
  });

  it('a sheet giving an unarmed weapon a reach beyond adjacent spaces is refused, naming the field', () => {
    expect(() => validateSheet(sheet({ weapons: [{ ...claws, reach: 2 }] }), 'sheet')).toThrow(
      expect.objectContaining({ code: 'INVALID_FIELD', field: 'sheet.weapons[0].reach' }),
    );
    expect(validateSheet(sheet({ weapons: [{ ...claws, reach: 1 }] }), 'sheet').weapons[0].reach).toBe(1);
  });

  it('whatever reach a recorded sheet gives, an unarmed attack or reaction reaches adjacent spaces only', () => {
    // Given sheets recorded with reach-2 claws (as a log from before the sheet check would hold them).
    const longClaws = (events: RuleEvent[]) =>
      events.map((e) =>
        e.type === 'CombatantJoined'
          ? {
              ...e,
              data: {
                ...(e.data as any),
                sheet: {
                  ...(e.data as any).sheet,
                  weapons: (e.data as any).sheet.weapons.map((w: any) =>
                    w.id === 'claws' ? { ...w, reach: 2 } : w,
                  ),
                },
              },
            }
          : e,
      );
    const events = longClaws(
      fight([hero('a', [0, 0], 'N', { weapons: [claws] }), foe('v', [0, -2], 'S', { weapons: [claws] })]),
    );
    expect(stateOf(events).combatants.a.sheet.weapons[0].reach).toBe(2);
    // When a attacks v two spaces away with them, then it is out of reach.
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws' }),
    ).toMatchObject({ code: 'ARCHSOUL_OUT_OF_REACH', field: 'targetId' });
    // And v, facing a two spaces away with the same claws, does not reach it to react to its move.
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });
});
