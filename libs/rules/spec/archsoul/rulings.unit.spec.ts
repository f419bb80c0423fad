import { archsoul } from '../../src/archsoul';
import { ARCHSOUL_COMMANDS } from '../../src/archsoul/commands';
import { bow, exact, fight, find, foe, hero, refused, sheet, stateOf, sword, then, types } from './helpers';

const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
const caster = {
  weapons: [sword, rend],
  skills: { awareness: 1, meleeWeapons: 2, soulCasting: 2, resolve: 1 },
};
const spear = { id: 'spear', name: 'Spear', type: 'melee', damage: 2, reach: 2 };
const view = (events: Parameters<typeof stateOf>[0]) => archsoul.view(stateOf(events)) as Record<string, any>;
const who = (events: Parameters<typeof stateOf>[0], id: string) =>
  view(events).combatants.find((c: any) => c.id === id);

describe('Soul attacks (archsoul.txt: Attacking: Soul, RULINGS.md S10, S24)', () => {
  const duel = () =>
    fight([
      hero('a', [0, 0], 'N', caster),
      foe('v', [0, -3], 'S', { defense: 5, shield: { id: 'buckler', bonus: 2 } }),
    ]);
  const cast = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' };

  it('S24: the defender rolls Soulpower/Resolve at 4; the Soul attack hits when its successes exceed them, Defense and Shield Bonus do not count', () => {
    // Soulpower 1 + Soul Casting 2 = 3 dice: 2 successes; v's Soulpower 1 + Resolve 1 = 2 dice: 1 success.
    const out = exact(duel(), cast, { dice: [5, 6, 1, 4, 2] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      attackType: 'soul',
      hit: true,
      resistance: 1,
      shieldBonus: 0,
      attack: { successes: 2 },
      soulDefence: { pool: 2, difficulty: 4, successes: 1 },
    });
    // Effects vary: the engine rolls no damage; the GM applies them (ApplyDamage, ApplyCondition).
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved']);
  });

  it('S24: equal successes are a miss (S3)', () => {
    const out = exact(duel(), cast, { dice: [5, 6, 1, 4, 4] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, resistance: 2 });
  });

  it('S24: the GM applies a Soul attack’s effect with ApplyDamage', () => {
    const out = exact(duel(), { type: 'ApplyDamage', combatantId: 'v', damage: 3, source: 'Rending' });
    expect(out).toEqual([
      {
        type: 'WoundsApplied',
        data: { combatantId: 'v', source: 'Rending', bonus: 0, damage: 3, hpBefore: 10, hp: 7, down: false },
      },
    ]);
  });
});

describe('Reach and Down (archsoul.txt: Reactive Attack, RULINGS.md S11, S26)', () => {
  it('S26: a Down combatant has no turn and no AP, and cannot act', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -3]), foe('w', [2, -3])]);
    events = then(events, { type: 'ApplyDamage', combatantId: 'v', damage: 12 });
    expect(find(events.slice(-1), 'WoundsApplied')).toMatchObject({ hp: 0, down: true });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    expect(stateOf(events).phase).toMatchObject({ party: 'enemies', combatantIds: ['w'] });
    expect(refused(events, { type: 'Turn', combatantId: 'v', facing: 'N' })).toMatchObject({
      code: 'ARCHSOUL_DOWN',
      field: 'combatantId',
    });
    expect(who(events, 'v')).toMatchObject({
      state: 'Down',
      hp: 0,
      ap: 0,
      inTurn: false,
      hasFrontArc: false,
    });
  });

  it('S26: a Down foe makes no reactive attack and has no front arc, but is still targetable', () => {
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [sword, bow] }),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -3], 'S', { shield: { id: 'buckler', bonus: 2 } }),
    ]);
    events = then(then(events, { type: 'ApplyDamage', combatantId: 'v', damage: 10 }), {
      type: 'ApplyDamage',
      combatantId: 'w',
      damage: 10,
    });
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
    const hit = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(hit, 'ExchangeResolved')).toMatchObject({ targetArc: 'back', hit: true });
    expect(find(hit, 'WoundsApplied')).toMatchObject({ combatantId: 'v', hp: 0 });
    // A Down target facing the archer gets no Shield Bonus: it has no front arc.
    const shot = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'bow' },
      { dice: [4, 4, 1, 1, 1, 1, 1], followUpFaces: [2] },
    );
    expect(find(shot, 'ExchangeResolved')).toMatchObject({ targetArc: 'back', shieldBonus: 0, hit: true });
  });

  it('S26: a reactor reaches a space with any held melee weapon (a reach-2 spear), not with one it does not hold', () => {
    const armed = fight([hero('a', [0, 0], 'N'), foe('v', [0, -2], 'S', { weapons: [spear] })]);
    expect(
      find(
        exact(armed, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }),
        'ReactiveAttackTriggered',
      ),
    ).toMatchObject({ trigger: 'leaveReach', reactorIds: ['v'] });
    const sheathed = fight([
      hero('a', [0, 0], 'N'),
      foe('v', [0, -2], 'S', { weapons: [{ ...spear, held: false }] }),
    ]);
    expect(types(exact(sheathed, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('S26: a reactive hit that leaves the actor Down prevents the action without an Endurance/Resolve roll', () => {
    let events = fight([hero('a', [0, 0], 'N', { hp: 1 }), hero('b', [4, 0]), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    const react = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(react, 'PreventionRolled')).toEqual({
      combatantId: 'a',
      reactorId: 'v',
      damage: 1,
      prevented: true,
      reason: 'RULINGS.md S26: the actor is Down',
    });
    const s = stateOf([...events, ...react]);
    expect(s.combatants.a).toMatchObject({ hp: 0, position: { x: 0, y: 0 }, inTurn: false });
    expect(s.pending).toBeUndefined();
  });
});

describe('Going Down on the own turn (RULINGS.md S11, S12, S39)', () => {
  it('S39: the last open turn of a phase lost to going Down ends the phase; the next phase opens', () => {
    let events = fight([hero('a', [0, 0], 'N', { hp: 1 }), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    const react = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(types(react).slice(-4)).toEqual([
      'ReactionsFinished',
      'PhaseEnded',
      'PhaseStarted',
      'TurnStarted',
    ]);
    expect(stateOf([...events, ...react]).phase).toMatchObject({ party: 'enemies', combatantIds: ['v'] });
  });

  it('S39: a GM ApplyDamage that downs the last combatant with an open turn ends the round', () => {
    const events = then(fight([hero('a', [0, 0]), foe('v', [0, -3])]), { type: 'EndTurn', combatantId: 'a' });
    expect(types(exact(events, { type: 'ApplyDamage', combatantId: 'v', damage: 10 }))).toEqual([
      'WoundsApplied',
      'PhaseEnded',
      'RoundEnded',
    ]);
  });

  it('S39: while others still have open turns the phase goes on', () => {
    const events = fight([hero('a', [0, 0]), hero('b', [2, 0]), foe('v', [0, -3])]);
    expect(types(exact(events, { type: 'ApplyDamage', combatantId: 'a', damage: 10 }))).toEqual([
      'WoundsApplied',
    ]);
  });
});

describe('Late joiner (RULINGS.md N16 as applied by C7/S9: AddCombatant after initiative)', () => {
  const rolled = () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])], { round: false }).filter(
      (e) => e.type !== 'InitiativeSet',
    );
    // a: 3 dice → 2; the GM's roll for the enemies: 3 dice → 1.
    return then(then(events, { type: 'RollInitiative' }, { dice: [4, 4, 1, 4, 1, 1] }), {
      type: 'StartRound',
    });
  };

  it('a hero added after initiative rolls Precision/Awareness and is slotted in; it acts from the next round', () => {
    let events = rolled();
    const joinedEvents = exact(
      events,
      { type: 'AddCombatant', combatant: { id: 'c', name: 'c', side: 'heroes', sheet: sheet() } },
      { dice: [5, 5, 5] },
    );
    expect(types(joinedEvents)).toEqual(['CombatantJoined', 'InitiativeRolled']);
    expect(find(joinedEvents, 'InitiativeRolled')).toMatchObject({
      rolls: [{ combatantId: 'c', total: 3 }],
      order: ['c', 'a', 'v'],
    });
    events = [...events, ...joinedEvents];
    expect(stateOf(events).phase).toMatchObject({ round: 1, combatantIds: ['a'] });
    expect(refused(events, { type: 'EndTurn', combatantId: 'c' }).code).toBe('ARCHSOUL_NOT_YOUR_TURN');
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    expect(stateOf(events).phase).toMatchObject({ round: 2, party: 'heroes', combatantIds: ['c', 'a'] });
  });

  it('an enemy added after initiative shares the GM’s roll: no dice are rolled', () => {
    const out = exact(rolled(), {
      type: 'AddCombatant',
      combatant: { id: 'w', name: 'w', side: 'enemies', sheet: sheet() },
    });
    expect(find(out, 'InitiativeRolled')).toMatchObject({
      rolls: [{ combatantId: 'w', total: 1, shared: true }],
      order: ['a', 'v', 'w'],
    });
  });
});

describe('Square grid line of sight and walls (archsoul.txt: The Battle Map, RULINGS.md S5, S19, S23, S38)', () => {
  // A wall across the whole row between y = 1 and y = 2 (square grid: x right, y up).
  const wall = Array.from({ length: 9 }, (_, i) => [
    { x: i - 4, y: 1 },
    { x: i - 4, y: 2 },
  ]);
  const square = (at: [number, number]) =>
    fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', at, 'S')], {
      map: { grid: 'square', walls: wall },
      options: { arrowBreakage: false },
    });

  it('a wall blocks line of sight straight, at a slant and diagonally through a corner', () => {
    for (const at of [
      [0, 3],
      [2, 3],
      [3, 3],
    ] as [number, number][]) {
      expect(
        refused(square(at), { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' }),
      ).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
    }
  });

  it('line of sight on the same side of the wall, or past a wall’s end, is clear', () => {
    expect(
      types(
        exact(
          square([3, 1]),
          { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
          { dice: [1, 2, 3, 2] },
        ),
      ),
    ).toContain('ExchangeResolved');
    const short = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [2, 2], 'S')], {
      map: {
        grid: 'square',
        walls: [
          [
            { x: 0, y: 1 },
            { x: 0, y: 2 },
          ],
          [
            { x: 1, y: 1 },
            { x: 1, y: 2 },
          ],
        ],
      },
      options: { arrowBreakage: false },
    });
    // The line (0,0)→(1,1)→(2,2) passes the corner at the wall's end: (2,1)→(2,2) is open.
    expect(
      types(
        exact(
          short,
          { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
          { dice: [1, 2, 3, 2] },
        ),
      ),
    ).toContain('ExchangeResolved');
  });

  it('S38: a diagonal step cannot cut through a wall’s corner', () => {
    const events = fight([hero('a', [0, 1]), foe('v', [4, -4])], { map: { grid: 'square', walls: wall } });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 2 }] })).toMatchObject({
      code: 'ARCHSOUL_INVALID_STEP',
      field: 'path[0]',
    });
    expect(types(exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });
});

describe('view: what a frontend renders (RULINGS.md C4, S9, S12, S17)', () => {
  it('map, positions, facings, AP, HP, phase, whose turn and the pending decision', () => {
    const map = {
      grid: 'hex',
      blocked: [{ x: 3, y: 3 }],
      walls: [
        [
          { x: 5, y: 0 },
          { x: 5, y: -1 },
        ],
      ],
    };
    let events = fight(
      [
        hero('a', [0, 0], 'N'),
        hero('b', [2, 0], 'NE'),
        foe('v', [0, -1], 'S', { shield: { id: 'buckler', bonus: 2 } }),
      ],
      { map },
    );
    let v0 = view(events);
    expect(v0).toMatchObject({
      system: 'archsoul',
      round: 1,
      roundOpen: true,
      initiative: ['a', 'b', 'v'],
      pending: null,
      reaction: null,
      map,
      phase: { round: 1, index: 0, party: 'heroes', combatantIds: ['a', 'b'] },
      openTurns: ['a', 'b'],
    });
    expect(
      v0.combatants.map((c: any) => [
        c.id,
        c.party,
        c.position,
        c.facing,
        c.ap,
        c.hp,
        c.maxHp,
        c.inTurn,
        c.state,
      ]),
    ).toEqual([
      ['a', 'heroes', { x: 0, y: 0 }, 'N', 3, 10, 10, true, 'Active'],
      ['b', 'heroes', { x: 2, y: 0 }, 'NE', 3, 10, 10, true, 'Active'],
      ['v', 'enemies', { x: 0, y: -1 }, 'S', 0, 10, 10, false, 'Active'],
    ]);
    expect(who(events, 'v')).toMatchObject({
      defense: 1,
      baseDefense: 1,
      shieldBonus: 2,
      hasFrontArc: true,
      weapons: [{ id: 'sword', held: true, broken: false }],
    });
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    v0 = view(events);
    expect(v0.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    expect(v0.reaction).toMatchObject({ actorId: 'a', trigger: 'leaveReach', current: 'v' });
    expect(who(events, 'a')).toMatchObject({ ap: 2, position: { x: 0, y: 0 } });
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    events = then(events, { type: 'EndTurn', combatantId: 'b' });
    v0 = view(events);
    expect(v0).toMatchObject({ pending: null, openTurns: ['a'] });
    expect(who(events, 'a')).toMatchObject({ position: { x: -1, y: 0 }, ap: 2, moves: 1, moveDistance: 1 });
    expect(who(events, 'b')).toMatchObject({ ap: 0, inTurn: false });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    expect(view(events)).toMatchObject({
      phase: { party: 'enemies', combatantIds: ['v'] },
      openTurns: ['v'],
    });
  });

  it('conditions lower the rendered Defense; ground items and grapples are listed', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(
      then(events, {
        type: 'ApplyCondition',
        combatantId: 'a',
        condition: 'defenseDown',
        amount: 1,
        untilNextTurn: true,
      }),
      { type: 'DropItem', combatantId: 'a', itemId: 'sword' },
    );
    const v0 = view(events);
    expect(who(events, 'a')).toMatchObject({
      defense: 0,
      baseDefense: 1,
      held: [],
      conditions: [{ condition: 'defenseDown', amount: 1, untilNextTurn: true }],
    });
    expect(v0.ground).toEqual([
      expect.objectContaining({ groundId: 'g1', itemId: 'sword', ownerId: 'a', space: { x: 0, y: 0 } }),
    ]);
    expect(v0.grapples).toEqual([]);
  });
});

describe('actorOf (RULINGS.md C3, C11): the acting combatant of every command', () => {
  const BY_COMBATANT = [
    'EndTurn',
    'Move',
    'SlowMove',
    'Turn',
    'DropProne',
    'StandUp',
    'DropItem',
    'DrawSimpleItem',
    'DrawAwkwardItem',
    'ThrowItem',
    'ReactiveAttack',
    'DeclineReactiveAttack',
    'ResumeAction',
    'ClearJam',
    'Study',
    'HoldFirm',
    'ShieldIntercept',
    'SoulShield',
    'Grab',
    'GrappleAttack',
    'Escape',
    'Steal',
    'Takedown',
    'GrappleThrow',
    'Charge',
    'Mount',
    'Dismount',
    'PerformRitual',
  ];
  const BY_ATTACKER = ['Attack', 'AreaAttack'];
  const GM_ONLY = [
    'SetMap',
    'PlaceCombatant',
    'DeclareAmbush',
    'EndPhase',
    'ApplyCondition',
    'RemoveCondition',
    'ApplyDamage',
    'Fall',
  ];
  const LIFECYCLE = [
    'AddCombatant',
    'RemoveCombatant',
    'RollInitiative',
    'SetInitiative',
    'StartRound',
    'EndRound',
    'AddNote',
    'CancelPending',
    'EndFight',
  ];
  const s = stateOf(fight([hero('a', [0, 0]), foe('v', [0, -1])]));

  it('every Archsoul command is either acted by a combatant or GM-only', () => {
    expect([...BY_COMBATANT, ...BY_ATTACKER, ...GM_ONLY].sort()).toEqual(
      Object.keys(ARCHSOUL_COMMANDS).sort(),
    );
  });

  it.each(BY_COMBATANT)('%s is acted by its combatantId', (type) => {
    expect(archsoul.actorOf!(s, { type, combatantId: 'a', attackerId: 'v', targetId: 'v' })).toEqual({
      combatantId: 'a',
      field: 'combatantId',
    });
  });

  it.each(BY_ATTACKER)('%s is acted by its attackerId', (type) => {
    expect(archsoul.actorOf!(s, { type, attackerId: 'a', combatantId: 'v', targetId: 'v' })).toEqual({
      combatantId: 'a',
      field: 'attackerId',
    });
  });

  it.each([...GM_ONLY, ...LIFECYCLE])(
    '%s is the GM’s: no acting combatant, even when it names one',
    (type) => {
      expect(archsoul.actorOf!(s, { type, combatantId: 'a', attackerId: 'a' })).toBeUndefined();
    },
  );

  it('a command without its acting id names the field and no combatant', () => {
    expect(archsoul.actorOf!(s, { type: 'Move' })).toEqual({ combatantId: '', field: 'combatantId' });
  });
});

describe('Rulings S17–S25 not covered elsewhere (RULINGS.md S2, S17, S18, S19, S20, S21, S23, S25)', () => {
  it('S17: StartActivation and EndActivation are refused; EndPhase (GM) ends every open turn of the phase', () => {
    const events = fight([hero('a', [0, 0]), hero('b', [2, 0]), foe('v', [0, -4])]);
    expect(refused(events, { type: 'StartActivation' }).code).toBe('ARCHSOUL_USE_PHASES');
    expect(refused(events, { type: 'EndActivation' }).code).toBe('ARCHSOUL_USE_PHASES');
    expect(types(exact(events, { type: 'EndPhase' }))).toEqual([
      'TurnEnded',
      'TurnEnded',
      'PhaseEnded',
      'PhaseStarted',
      'TurnStarted',
    ]);
  });

  it('S18: reactors are offered one at a time in initiative order; after a prevention the rest lapse', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), foe('w', [1, -1], 'SW')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    expect(find(events.slice(-2), 'ReactiveAttackTriggered').reactorIds).toEqual(['v', 'w']);
    const react = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(react)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactiveAttackLapsed',
      'ReactionsFinished',
    ]);
    expect(find(react, 'ReactiveAttackLapsed')).toEqual({
      actorId: 'a',
      reactorId: 'w',
      reason: 'the action was prevented',
    });
  });

  it('S18: a leave-reach trigger counts as used once offered, even if declined', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(
      then(then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 1, y: -1 } }), {
        type: 'DeclineReactiveAttack',
        combatantId: 'v',
      }),
      { type: 'ResumeAction', combatantId: 'a' },
    );
    expect(stateOf(events).combatants.a.position).toEqual({ x: 1, y: -1 });
    expect(types(exact(events, { type: 'SlowMove', combatantId: 'a', to: { x: 2, y: -1 } }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
  });

  it('S19: a move passes allies but not foes and never ends on an occupied space; prone: no Move, StandUp costs 1 AP and triggers', () => {
    const events = fight([
      hero('a', [0, 0], 'N'),
      hero('b', [1, 0]),
      foe('v', [-1, 0], 'N'),
      foe('w', [5, -5]),
    ]);
    expect(
      types(
        exact(events, {
          type: 'Move',
          combatantId: 'a',
          path: [
            { x: 1, y: 0 },
            { x: 2, y: 0 },
          ],
        }),
      ),
    ).toEqual(['ApSpent', 'Moved']);
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] }).code).toBe(
      'ARCHSOUL_SPACE_OCCUPIED',
    );
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: -1, y: 0 },
          { x: -2, y: 0 },
        ],
      }).code,
    ).toBe('ARCHSOUL_SPACE_OCCUPIED');
    const prone = then(events, { type: 'DropProne', combatantId: 'a' });
    expect(refused(prone, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] }).code).toBe(
      'ARCHSOUL_PRONE',
    );
  });

  it('S19: standing up costs 1 AP and triggers a foe in reach and front arc', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'DropProne', combatantId: 'a' });
    const up = exact(events, { type: 'StandUp', combatantId: 'a' });
    expect(types(up)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(up, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    expect(find(up, 'ReactiveAttackTriggered').trigger).toBe('standUp');
  });

  it('S2/S20: criticalNarration replaces the table roll with the GM’s narration and no effect', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        targetId: 'v',
        weaponId: 'sword',
        criticalNarration: 'The blade sticks in a beam',
      },
      { dice: [1, 1, 1, 2] },
    );
    expect(find(out, 'CriticalFailureRolled')).toEqual({
      combatantId: 'a',
      weaponId: 'sword',
      table: 'melee',
      face: 0,
      text: 'The blade sticks in a beam',
      narrated: true,
    });
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'CriticalFailureRolled']);
  });

  it('S21: a missed arrow lands at maximum range; picked up from the ground (1 AP), it goes back into the quiver', () => {
    const shortBow = { ...bow, accurateRange: 2, maximumRange: 3 };
    let events = fight([hero('a', [0, 0], 'N', { weapons: [shortBow] }), foe('v', [0, -2], 'S')]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [1, 2, 3, 2], followUpFaces: [4] },
    );
    expect(find(events.slice(-1), 'ProjectileLanded')).toMatchObject({
      groundId: 'g1',
      space: { x: 0, y: -3 },
      broken: false,
    });
    expect(stateOf(events).combatants.a.weapons.bow.ammunition).toBe(4);
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' }).code).toBe(
      'ARCHSOUL_ITEM_NOT_HERE',
    );
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 1, y: -1 },
        { x: 1, y: -2 },
        { x: 1, y: -3 },
      ],
    });
    events = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: -3 } });
    const picked = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    expect(types(picked)).toEqual(['ApSpent', 'ItemDrawn']);
    expect(stateOf([...events, ...picked]).combatants.a.weapons.bow.ammunition).toBe(5);
  });

  it('S23: a Soul attack needs line of sight', () => {
    const events = fight([hero('a', [0, 0], 'N', caster), foe('v', [0, -3], 'S')], {
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
    expect(refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' }).code).toBe(
      'ARCHSOUL_NO_LINE_OF_SIGHT',
    );
  });

  it('S25: with 1 AP left an awkward draw starts; any other AP action between its halves breaks it; fromBackpack triggers reactive attacks', () => {
    const bag = { items: [{ id: 'rope', name: 'Rope', stowage: 'awkward' }] };
    const near = fight([hero('a', [0, 0], 'N', bag), foe('v', [0, -1], 'S')]);
    expect(
      find(
        exact(near, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope', fromBackpack: true }),
        'ReactiveAttackTriggered',
      ).trigger,
    ).toBe('backpack');
    let events = fight([hero('a', [0, 0], 'N', bag), foe('v', [5, -5], 'S')]);
    events = then(then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } }), {
      type: 'SlowMove',
      combatantId: 'a',
      to: { x: 0, y: 2 },
    });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope' });
    expect(types(events.slice(-2))).toEqual(['ApSpent', 'AwkwardDrawStarted']);
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    events = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 3 } });
    expect(stateOf(events).combatants.a.awkward).toBeUndefined();
    expect(
      find(exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope' }), 'ApSpent'),
    ).toMatchObject({ ap: 2, apLeft: 0 });
  });
});

describe('Consecutive actions across turns (archsoul.txt: Draw Awkward Item, Sneak Attack; rulings S66, S67)', () => {
  it('S66: a half-drawn awkward item is lost when another item’s awkward draw is paid between its halves, even while reactive attacks hold that draw', () => {
    const bag = {
      items: [
        { id: 'rope', name: 'Rope', stowage: 'awkward' },
        { id: 'lamp', name: 'Lamp', stowage: 'awkward' },
      ],
    };
    // a studies v twice, starts the rope with its last AP, and ends its turn; v ends its own.
    let events = fight([hero('a', [0, 0], 'N', bag), foe('v', [0, -1], 'S')]);
    for (let i = 0; i < 2; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope' });
    expect(types(events.slice(-2))).toEqual(['ApSpent', 'AwkwardDrawStarted']);
    expect(stateOf(events).combatants.a.awkward).toBe('rope');
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    // Round 2: a pulls the lamp from its backpack (2 AP) beside v, and v's reactive attack is offered before it.
    const lamp = exact(events, {
      type: 'DrawAwkwardItem',
      combatantId: 'a',
      itemId: 'lamp',
      fromBackpack: true,
    });
    expect(types(lamp)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(lamp, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2, apLeft: 1 });
    events = [...events, ...lamp];
    // Held, not drawn yet: the rope's first half is gone all the same, the lamp's draw came between its halves.
    expect(stateOf(events).combatants.a.awkward).toBeUndefined();
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    expect(find(events.slice(-2), 'ItemDrawn')).toMatchObject({ itemId: 'lamp' });
    expect(stateOf(events).combatants.a.awkward).toBeUndefined();
  });

  it('S67: a reactive sneak attack uses up the study that allowed it; another sneak attack needs three new studies', () => {
    // a (a reach-2 spear) studies v three times (v unaware); v steps out of a space in a's reach, in a's front arc,
    // and stays in reach: a reacts with a sneak attack.
    let events = fight([hero('a', [0, 0], 'N', { weapons: [spear] }), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(find(events, 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'a' });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 3 });
    const reacted = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'spear', sneak: true },
      { dice: [2, 3, 2, 3] },
    );
    expect(find(reacted, 'ExchangeResolved')).toMatchObject({ action: 'reactive', maneuvers: ['sneak'] });
    events = [...events, ...reacted];
    expect(stateOf(events).combatants.a.study).toBeUndefined();
    // v finishes its Move; the GM marks v unaware again; on a's next turn a sneak attack is refused until a studies anew.
    events = then(events, { type: 'ResumeAction', combatantId: 'v' });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    events = then(events, { type: 'StartRound' });
    const sneak = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'spear', sneak: true };
    expect(refused(events, sneak)).toMatchObject({ code: 'ARCHSOUL_SNEAK_NOT_STUDIED', field: 'sneak' });
  });
});
