/**
 * The enemies' one initiative (ruling S107). archsoul.txt: Turn Order: "all players roll Precision/Awareness at
 * difficulty 4, and the Game Master makes the same roll once for all enemies"; S16: enemies tie-break as a group;
 * C10: a `tieBreak` is checked before any die rolls, and refused where nothing can tie. Default sheet
 * (helpers.ts): Precision 2 + Awareness 1 = 3 dice at difficulty 4 for everyone, so the heroes and the GM's roll tie
 * on Awareness 1 and Precision 2 whenever their successes do.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { fight, foe, hero, refused, sheet, stateOf, then } from './helpers';

/** A fight of `fighters`, placed, with no initiative yet. */
const unrolled = (fighters: Parameters<typeof fight>[0]): RuleEvent[] =>
  fight(fighters, { round: false }).filter((e) => e.type !== 'InitiativeSet');

const A_V_W = () => unrolled([hero('a', [0, 0]), foe('v', [0, -3]), foe('w', [2, -3])]);
/**
 * a's roll 4, 1, 1 = 1 success; the GM's roll for v and w (the best enemy pool, 3 dice) 4, 1, 1 = 1: tied, and on
 * Awareness 1 and Precision 2 too, so a and the enemies roll off a d6 each (a first, then the enemies): 3 and 3, tied
 * again. The tie is the GM's (C10) unless a tieBreak settles it.
 */
const TIED = { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [3, 3] };
const joiner = (id: string, side: string) => ({ id, name: id, side, sheet: sheet() });

describe('Turn Order: “the Game Master makes the same roll once for all enemies”: nothing ties with the enemies alone (ruling S107, C10)', () => {
  it('S107: given enemies v and w alone in the fight, when RollInitiative carries a tieBreak, then it is refused naming tieBreak, whatever the dice: the one roll ties with nothing', () => {
    const events = unrolled([foe('v', [0, -3]), foe('w', [2, -3])]);
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['w', 'v'] };
    // The GM's roll, 3 dice, had it been rolled; and none given at all.
    for (const faces of [{ dice: [4, 1, 1] }, {}])
      expect(refused(events, command, faces)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    // Without it, the one roll orders them by Awareness, then Precision (S16): equal, so as they joined.
    expect(stateOf(then(events, { type: 'RollInitiative' }, { dice: [4, 1, 1] })).order).toEqual(['v', 'w']);
  });

  it('S107: given an order of enemies only, when enemy x joins with a tieBreak, then it is refused naming tieBreak: x shares the GM’s roll and ties with no one', () => {
    const events = then(
      unrolled([foe('v', [0, -3]), foe('w', [2, -3])]),
      { type: 'RollInitiative' },
      {
        dice: [4, 1, 1],
      },
    );
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: joiner('x', 'enemies'),
      tieBreak: ['x', 'v', 'w'],
    };
    expect(refused(events, command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    const { tieBreak: _unused, ...without } = command;
    expect(stateOf(then(events, without)).order).toEqual(['v', 'w', 'x']);
  });

  it('S107: given an order of enemies only, when hero b joins with a tieBreak, then it is taken: b’s roll may tie with the enemies’ (C10)', () => {
    let events = then(
      unrolled([foe('v', [0, -3]), foe('w', [2, -3])]),
      { type: 'RollInitiative' },
      {
        dice: [4, 1, 1],
      },
    );
    // b's 4, 1, 1 = 1 ties the enemies' 1; the roll-off 3 and 3 ties again; the tieBreak puts b first.
    events = then(
      events,
      { type: 'AddCombatant', combatant: joiner('b', 'heroes'), tieBreak: ['b', 'v', 'w'] },
      { dice: [4, 1, 1], followUpFaces: [3, 3] },
    );
    expect(stateOf(events)).toMatchObject({ order: ['b', 'v', 'w'], pending: undefined });
  });
});

describe('S16: “enemies tie-break as a group”: a tieBreak or an order never splits the enemies (ruling S107)', () => {
  it('S107: given hero a and enemies v and w to roll initiative, when the tieBreak names a between v and w, then it is refused on tieBreak[2], whatever the dice', () => {
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['v', 'a', 'w'] };
    for (const faces of [TIED, {}])
      expect(refused(A_V_W(), command, faces)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak[2]' });
  });

  it('S107: given hero a and enemies v and w, when the tieBreak names v but not w, then it is refused naming tieBreak: unnamed, w would follow a', () => {
    for (const tieBreak of [['v', 'a'], ['w']])
      expect(refused(A_V_W(), { type: 'RollInitiative', tieBreak }, TIED)).toMatchObject({
        code: 'INVALID_FIELD',
        field: 'tieBreak',
      });
  });

  it('S107: given the tied roll-off, when the tieBreak names v and w side by side before a, then the order is v, w, a and round 1 opens with both enemies', () => {
    let events = then(A_V_W(), { type: 'RollInitiative', tieBreak: ['v', 'w', 'a'] }, TIED);
    expect(stateOf(events)).toMatchObject({ order: ['v', 'w', 'a'], pending: undefined });
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).phase).toMatchObject({ round: 1, party: 'enemies', combatantIds: ['v', 'w'] });
  });

  it('S107: given the tied roll-off, when the tieBreak names a, then w and v, then the order is a, w, v; naming a alone leaves the enemies’ place the GM’s (C10)', () => {
    expect(stateOf(then(A_V_W(), { type: 'RollInitiative', tieBreak: ['a', 'w', 'v'] }, TIED))).toMatchObject(
      {
        order: ['a', 'w', 'v'],
        pending: undefined,
      },
    );
    expect(stateOf(then(A_V_W(), { type: 'RollInitiative', tieBreak: ['a'] }, TIED))).toMatchObject({
      order: ['a', 'v', 'w'],
      pending: { kind: 'initiativeTie', detail: { ties: [['a', 'v', 'w']] } },
    });
  });

  it('S107: given the GM’s tie to answer, when SetInitiative puts a between v and w, then it is refused on order[2]; side by side, it is taken', () => {
    const events = then(A_V_W(), { type: 'RollInitiative' }, TIED);
    expect(stateOf(events).pending).toMatchObject({ kind: 'initiativeTie' });
    expect(refused(events, { type: 'SetInitiative', order: ['v', 'a', 'w'] })).toMatchObject({
      code: 'INITIATIVE_ORDER_INVALID',
      field: 'order[2]',
    });
    const set = then(events, { type: 'SetInitiative', order: ['w', 'v', 'a'] });
    expect(stateOf(set)).toMatchObject({ order: ['w', 'v', 'a'], pending: undefined });
  });

  it('S107: given no initiative, when SetInitiative splits the enemies, then it is refused on the enemy past the hero; heroes may stand before and after them', () => {
    const events = unrolled([hero('a', [0, 0]), hero('b', [1, 0]), foe('v', [0, -3]), foe('w', [2, -3])]);
    expect(refused(events, { type: 'SetInitiative', order: ['a', 'v', 'b', 'w'] })).toMatchObject({
      code: 'INITIATIVE_ORDER_INVALID',
      field: 'order[3]',
    });
    expect(stateOf(then(events, { type: 'SetInitiative', order: ['a', 'v', 'w', 'b'] })).order).toEqual([
      'a',
      'v',
      'w',
      'b',
    ]);
  });

  it('S107: given the order a, v, w, when enemy x joins with a tieBreak naming x and a only, then it is refused naming tieBreak: v and w are the same unit', () => {
    const events = then(A_V_W(), { type: 'RollInitiative', tieBreak: ['a', 'v', 'w'] }, TIED);
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: joiner('x', 'enemies'),
      tieBreak: ['x', 'a'],
    };
    expect(refused(events, command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    // S109: x shares the enemies' place after a, which the tieBreak settled; no roll-off, no tieBreak taken.
    const { tieBreak: _unused, ...without } = command;
    expect(stateOf(then(events, without)).order).toEqual(['a', 'v', 'w', 'x']);
  });
});
