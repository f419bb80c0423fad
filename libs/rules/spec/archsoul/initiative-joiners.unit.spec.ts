/**
 * A late joiner moves no one (ruling S109). archsoul.txt: Turn Order: "all players roll Precision/Awareness at
 * difficulty 4, and the Game Master makes the same roll once for all enemies. All players record their results
 * rolled - this becomes your Initiative for the combat. [...] Ties are broken by whoever has the higher Awareness
 * skill, then by higher Precision attribute, then by roll-off on a single six-sided dice." Default sheet (helpers.ts):
 * Precision 2 + Awareness 1 = 3 dice at difficulty 4.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { fight, find, foe, hero, refused, sheet, stateOf, then } from './helpers';

const unrolled = (fighters: Parameters<typeof fight>[0]): RuleEvent[] =>
  fight(fighters, { round: false }).filter((e) => e.type !== 'InitiativeSet');

/**
 * Hero a and enemy v roll: a's 4, 1, 1 = 1 success; the GM's 4, 1, 1 = 1; both Awareness 1, Precision 2: a roll-off,
 * a's d6 first, then the enemies'. `aFirst`: a 5, v 2 gives a, v; otherwise a 2, v 5 gives v, a.
 */
function settled(aFirst: boolean): RuleEvent[] {
  const events = then(
    unrolled([hero('a', [0, 0]), foe('v', [0, -3])]),
    { type: 'RollInitiative' },
    { dice: [4, 1, 1, 4, 1, 1], followUpFaces: aFirst ? [5, 2] : [2, 5] },
  );
  expect(stateOf(events).order).toEqual(aFirst ? ['a', 'v'] : ['v', 'a']);
  return events;
}

const joiner = (id: string, side: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  side,
  sheet: sheet(extra),
});

describe('S109: a late joiner is slotted in and moves no one (archsoul.txt: Turn Order: “this becomes your Initiative for the combat”)', () => {
  it('S109: given v before a by a settled roll-off, when enemy x joins, then x shares the GM’s roll and the enemies keep their place: no roll-off, order v, x, a', () => {
    const events = settled(false);
    // No dice at all: x's total is the GM's 1 (S16), and the roll-off v won over a stands.
    const out = then(events, { type: 'AddCombatant', combatant: joiner('x', 'enemies') }).slice(
      events.length,
    );
    const rolled = find(out, 'InitiativeRolled');
    expect(rolled.order).toEqual(['v', 'x', 'a']);
    expect(rolled.rolls).toEqual([expect.objectContaining({ combatantId: 'x', total: 1, shared: true })]);
    expect(rolled.rolls[0].rollOff).toBeUndefined();
    expect(rolled.unresolvedTies).toEqual([]);
  });

  it('S109: given a before v by a settled roll-off, when enemy x with Awareness 3 joins, then the enemies do not pass a: order a, x, v', () => {
    const events = settled(true);
    // Before x, a and the enemies were equal on 1 success, Awareness 1, Precision 2, and a won the roll-off. x's
    // Awareness 3 ranks x first among the enemies (S16), in the enemies' place, which stays after a.
    const out = then(events, {
      type: 'AddCombatant',
      combatant: joiner('x', 'enemies', { skills: { awareness: 3, meleeWeapons: 2 } }),
    });
    expect(stateOf(out).order).toEqual(['a', 'x', 'v']);
  });

  it('S109: given v before a by a settled roll-off, when hero b joins and rolls 3 successes, then b is slotted in first and v stays before a', () => {
    const events = settled(false);
    // b's 3 dice 6, 6, 6 = 3 successes, above the 1 of a and of the enemies: b first; the v–a roll-off stands.
    const out = then(events, { type: 'AddCombatant', combatant: joiner('b', 'heroes') }, { dice: [6, 6, 6] });
    expect(stateOf(out).order).toEqual(['b', 'v', 'a']);
  });

  it('S109: given hero a and enemies v and w with their roll, when enemy x joins with a tieBreak naming all the enemies, then it is refused naming tieBreak: x rolls nothing and nothing can tie', () => {
    const events = then(
      unrolled([hero('a', [0, 0]), foe('v', [0, -3]), foe('w', [2, -3])]),
      { type: 'RollInitiative' },
      { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [5, 2] },
    );
    expect(stateOf(events).order).toEqual(['a', 'v', 'w']);
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: joiner('x', 'enemies'),
      tieBreak: ['v', 'w', 'x'],
    };
    expect(refused(events, command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    const { tieBreak: _unused, ...without } = command;
    expect(stateOf(then(events, without)).order).toEqual(['a', 'v', 'w', 'x']);
  });

  it('S109: given hero a and enemy v rolled, when hero b joins and ties with a on successes, Awareness and Precision, then b and a roll off and the enemies keep their place', () => {
    // a 4, 1, 1 = 1; the GM 6, 6, 1 = 2: v, a. b's 4, 1, 1 = 1 ties a: a roll-off, a's d6 first: a 2, b 5 gives b, a.
    const events = then(
      unrolled([hero('a', [0, 0]), foe('v', [0, -3])]),
      { type: 'RollInitiative' },
      { dice: [4, 1, 1, 6, 6, 1] },
    );
    const out = then(
      events,
      { type: 'AddCombatant', combatant: joiner('b', 'heroes') },
      { dice: [4, 1, 1], followUpFaces: [2, 5] },
    );
    expect(stateOf(out).order).toEqual(['v', 'b', 'a']);
  });
});
