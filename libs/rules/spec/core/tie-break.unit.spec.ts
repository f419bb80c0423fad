/**
 * C10: `tieBreak` answers an initiative tie in advance. What it could answer is known before a die rolls: the ids it
 * names are the fight’s, each once, and the command rolls for at least two. That is checked whatever the dice; an
 * answer the dice made unneeded (no tie came) stands. The shared lifecycle checks it for every system.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { narateer } from '../../src/narateer';
import { archsoul } from '../../src/archsoul';
import { fightStarted, given } from '../given';
import * as n from '../narateer/helpers';
import * as s from '../archsoul/helpers';
import * as ab from '../arcana-beast/helpers';

/** Narateer: a and b, Agility 2 each (sheet()), initiative not rolled yet. */
const duo = (ids = ['a', 'b']): RuleEvent[] => [
  fightStarted('narateer'),
  ...ids.map((id) => n.joined({ id, sheet: n.sheet() })),
];
const nRefused = (events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}) =>
  given(narateer, events).when(command, faces).violation();
/**
 * A Side Roll of 2 dice each (N15), a’s then b’s; N1: faces 1–2 show 0 dots, 3–5 one, 6 two. [6, 6] = 4 against
 * [1, 1] = 0 leaves no tie; [3, 1] = 1 against [3, 1] = 1 with Agility 2 each is a tie no rule breaks (N4).
 */
const SIDE_ROLLS = { 'no tie': [6, 6, 1, 1], 'a tie': [3, 1, 3, 1] } as const;
type Roll = keyof typeof SIDE_ROLLS;
const ROLLS = Object.keys(SIDE_ROLLS) as Roll[];

describe('C10, Narateer: RollInitiative’s tieBreak names combatants of the fight, each once, tie or not', () => {
  describe.each(ROLLS)('when the Side Rolls give %s', (roll) => {
    it.each([
      ['someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[0]', ['nobody']],
      ['a and then someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[1]', ['a', 'nobody']],
      ['b twice', 'INVALID_FIELD', 'tieBreak[1]', ['b', 'b']],
      ['b, a, then b again', 'INVALID_FIELD', 'tieBreak[2]', ['b', 'a', 'b']],
    ])(
      'C10: given a and b to roll initiative, when the tieBreak names %s, then it is refused with %s on %s',
      (_what, code, field, tieBreak) => {
        const command: RuleCommand = { type: 'RollInitiative', tieBreak };
        expect(nRefused(duo(), command, { dice: [...SIDE_ROLLS[roll]] })).toMatchObject({ code, field });
      },
    );
  });

  it('C10: given c removed from the fight, when the tieBreak names c, then it is refused with COMBATANT_NOT_FOUND on tieBreak[1]', () => {
    const events: RuleEvent[] = [
      ...duo(['a', 'b', 'c']),
      { type: 'CombatantRemoved', data: { combatantId: 'c' } },
    ];
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['b', 'c', 'a'] };
    expect(nRefused(events, command, { dice: [...SIDE_ROLLS['a tie']] })).toMatchObject({
      code: 'COMBATANT_NOT_FOUND',
      field: 'tieBreak[1]',
    });
  });

  it('C10: given a tieBreak naming b then a, when the Side Rolls do not tie, then it stands unused and the totals give the order; when they tie, it orders them', () => {
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['b', 'a'] };
    // 4 dots against 0: a first, nothing pending.
    expect(n.stateOf(n.then(duo(), command, { dice: [...SIDE_ROLLS['no tie']] }))).toMatchObject({
      order: ['a', 'b'],
      pending: undefined,
    });
    // 1 dot each, Agility 2 each: the tieBreak puts b first.
    expect(n.stateOf(n.then(duo(), command, { dice: [...SIDE_ROLLS['a tie']] }))).toMatchObject({
      order: ['b', 'a'],
      pending: undefined,
    });
  });

  it('C10: given a alone in the fight, when RollInitiative carries a tieBreak, then it is refused naming tieBreak: one roll can tie with no other', () => {
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['a'] };
    expect(nRefused(duo(['a']), command, { dice: [6, 6] })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'tieBreak',
    });
    expect(n.stateOf(n.then(duo(['a']), { type: 'RollInitiative' }, { dice: [6, 6] })).order).toEqual(['a']);
  });
});

describe('C10, Narateer: a joiner’s tieBreak (RULINGS.md N16)', () => {
  const newcomer = { id: 'x', name: 'X', sheet: n.sheet() };

  it('C10: given initiative not rolled, when a combatant joins with a tieBreak, then it is refused naming tieBreak: the joiner rolls nothing until RollInitiative', () => {
    const command: RuleCommand = { type: 'AddCombatant', combatant: newcomer, tieBreak: ['x', 'a'] };
    expect(nRefused(duo(), command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    const { tieBreak: _dropped, ...without } = command;
    expect(n.stateOf(n.then(duo(), without)).joined).toEqual(['a', 'b', 'x']);
  });

  // After a [6, 6] = 4 and b [1, 1] = 0, x (Agility 2) rolls 2 dice: [3, 1] = 1 dot puts it between them, no tie;
  // [1, 1] = 0 dots with Agility 2, as b has, ties with b.
  const rolled = () => n.then(duo(), { type: 'RollInitiative' }, { dice: [...SIDE_ROLLS['no tie']] });
  const JOIN = { 'no tie': [3, 1], 'a tie': [1, 1] } as const;

  describe.each(ROLLS)('when x’s Side Roll gives %s', (roll) => {
    it.each([
      ['someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[1]', ['x', 'nobody']],
      ['x twice', 'INVALID_FIELD', 'tieBreak[2]', ['x', 'b', 'x']],
    ])(
      'C10: given initiative rolled, when x joins with a tieBreak naming %s, then it is refused with %s on %s',
      (_what, code, field, tieBreak) => {
        const command: RuleCommand = { type: 'AddCombatant', combatant: newcomer, tieBreak };
        expect(nRefused(rolled(), command, { dice: [...JOIN[roll]] })).toMatchObject({ code, field });
      },
    );
  });

  it('C10: given initiative rolled, when x joins with a tieBreak naming x then b, then the 1-dot roll slots x between a and b; the 0-dot roll ties with b and x goes first', () => {
    const command: RuleCommand = { type: 'AddCombatant', combatant: newcomer, tieBreak: ['x', 'b'] };
    expect(
      n.find(n.exact(rolled(), command, { dice: [...JOIN['no tie']] }), 'InitiativeRolled'),
    ).toMatchObject({
      order: ['a', 'x', 'b'],
      unresolvedTies: [],
    });
    expect(
      n.find(n.exact(rolled(), command, { dice: [...JOIN['a tie']] }), 'InitiativeRolled'),
    ).toMatchObject({
      order: ['a', 'x', 'b'],
      unresolvedTies: [],
    });
  });
});

describe('C10, Narateer: a tieBreak orders each tied group among its own members', () => {
  it('C10: given a, b and c tied, when the tieBreak names only c and b, then they take the group’s first places in that order, a follows, and the group stays with the GM', () => {
    // 1 dot each ([3, 1]), Agility 2 each: one group of three.
    const events = n.then(
      duo(['a', 'b', 'c']),
      { type: 'RollInitiative', tieBreak: ['c', 'b'] },
      { dice: [3, 1, 3, 1, 3, 1] },
    );
    const state = n.stateOf(events);
    expect(state.order).toEqual(['c', 'b', 'a']);
    expect(state.pending).toMatchObject({
      kind: 'initiativeTie',
      answer: 'SetInitiative',
      detail: { ties: [['a', 'b', 'c']] },
    });
  });

  it('C10: given a and b tied on 2 dots and c and d on 1, when the tieBreak names d, b, c, a, then each group is ordered by it and d stays below a and b', () => {
    // a [6, 1] = 2, b [6, 1] = 2, c [3, 1] = 1, d [3, 1] = 1; Agility 2 each: groups {a, b} and {c, d}.
    const out = n.exact(
      duo(['a', 'b', 'c', 'd']),
      { type: 'RollInitiative', tieBreak: ['d', 'b', 'c', 'a'] },
      { dice: [6, 1, 6, 1, 3, 1, 3, 1] },
    );
    expect(n.find(out, 'InitiativeRolled')).toMatchObject({
      order: ['b', 'a', 'd', 'c'],
      unresolvedTies: [],
    });
  });
});

/**
 * Archsoul: hero a and enemy v, each Precision 2 + Awareness 1 = 3 dice at difficulty 4 (archsoul.txt: Turn Order).
 * [4, 4, 1] = 2 against [4, 1, 1] = 1 leaves no tie; 1 success each, Awareness 1 and Precision 2 each, goes to a d6
 * roll-off, and roll-off faces 3 and 3 tie again: the GM’s (C10).
 */
const unplaced = (fighters = [s.hero('a', [0, 0]), s.foe('v', [0, -3])]): RuleEvent[] =>
  s.fight(fighters, { round: false }).filter((e) => e.type !== 'InitiativeSet');
const TESTS: Record<Roll, ManualFaces> = {
  'no tie': { dice: [4, 4, 1, 4, 1, 1] },
  'a tie': { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [3, 3] },
};

describe('C10, Archsoul: RollInitiative’s tieBreak names combatants of the fight, each once, tie or not', () => {
  describe.each(ROLLS)('when the initiative tests give %s', (roll) => {
    it.each([
      ['someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[1]', ['v', 'nobody']],
      ['v twice', 'INVALID_FIELD', 'tieBreak[1]', ['v', 'v']],
    ])(
      'C10: given hero a and enemy v to roll initiative, when the tieBreak names %s, then it is refused with %s on %s',
      (_what, code, field, tieBreak) => {
        const command: RuleCommand = { type: 'RollInitiative', tieBreak };
        expect(given(archsoul, unplaced()).when(command, TESTS[roll]).violation()).toMatchObject({
          code,
          field,
        });
      },
    );
  });

  it('C10: given a tieBreak naming v then a, when a’s 2 successes beat v’s 1, then it stands unused; when the roll-off ties too, it puts v first', () => {
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['v', 'a'] };
    expect(s.stateOf(s.then(unplaced(), command, TESTS['no tie']))).toMatchObject({
      order: ['a', 'v'],
      pending: undefined,
    });
    expect(s.stateOf(s.then(unplaced(), command, TESTS['a tie']))).toMatchObject({
      order: ['v', 'a'],
      pending: undefined,
    });
  });

  it('C10: given hero a alone, when RollInitiative carries a tieBreak, then it is refused naming tieBreak', () => {
    const alone = unplaced([s.hero('a', [0, 0])]);
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['a'] };
    expect(s.refused(alone, command, { dice: [4, 4, 1] })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'tieBreak',
    });
  });

  it('C10: given initiative not rolled, when an enemy joins with a tieBreak, then it is refused naming tieBreak', () => {
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: { id: 'w', name: 'W', side: 'enemies', sheet: s.sheet() },
      tieBreak: ['w', 'a'],
    };
    expect(s.refused(unplaced(), command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
  });
});

describe('C10, Arcana Beast through the shared lifecycle', () => {
  it('C10: given initiative not rolled, when Kit joins with a tieBreak naming Kit and Ember, then it is refused naming tieBreak', () => {
    const events = [fightStarted('arcana-beast'), ...[ab.ember(), ab.ash, ab.wolf()].map(ab.joined)];
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: { id: 'kit', name: 'Kit', side: 'heroes', sheet: ab.wild() },
      tieBreak: ['kit', 'ember'],
    };
    expect(ab.refused(events, command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
  });

  it('C10, A29: given Ember and its Binder Ash alone, when RollInitiative carries a tieBreak naming Ember, then it is refused naming tieBreak: Ember alone rolls', () => {
    const events = [fightStarted('arcana-beast'), ...[ab.ember(), ab.ash].map(ab.joined)];
    // Ember’s Agility 2 d8, had it rolled.
    expect(
      ab.refused(events, { type: 'RollInitiative', tieBreak: ['ember'] }, { dice: [4, 4] }),
    ).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'tieBreak',
    });
  });
});
