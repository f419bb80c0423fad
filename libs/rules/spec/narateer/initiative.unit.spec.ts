import { given } from '../given';
import { narateer } from '../../src/narateer';
import { exact, fight, mira, orin, sheet, stateOf, then } from './helpers';

const newcomer = {
  type: 'AddCombatant',
  combatant: {
    id: 'n',
    name: 'Newcomer',
    sheet: sheet({ vitals: { strength: 2, agility: 1, resilience: 2 } }),
  },
};

describe('N40: a late joiner after an order the GM set (RULINGS.md N16, C10)', () => {
  it('given a GM-set order, when a combatant joins, then its Side Roll is recorded and the GM is asked where it goes', () => {
    // fight() sets the order a, b with SetInitiative: nobody has a Side Roll total.
    const events = exact(
      fight([
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ]),
      newcomer,
      { dice: [6] },
    );
    expect(events[1]).toEqual({
      type: 'InitiativeRolled',
      data: {
        rolls: [{ combatantId: 'n', roll: { sides: 6, faces: [6] }, total: 2 }],
        order: ['a', 'b', 'n'],
        unresolvedTies: [['a', 'b', 'n']],
      },
    });
    const g = given(narateer, [
      ...fight([
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ]),
      ...events,
    ]);
    expect(g.state.pending).toMatchObject({ kind: 'initiativeTie', awaiting: 'gm', answer: 'SetInitiative' });
    expect(g.when({ type: 'StartActivation' }).violation().code).toBe('PENDING_DECISION');
    const placed = g.when({ type: 'SetInitiative', order: ['a', 'n', 'b'] }).state();
    expect(placed.pending).toBeUndefined();
    expect(placed.order).toEqual(['a', 'n', 'b']);
  });

  it('given a GM-set order, when the newcomer comes with tieBreak naming the whole order, then it is placed at once', () => {
    const events = exact(
      fight([
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ]),
      { ...newcomer, tieBreak: ['b', 'n', 'a'] },
      { dice: [1] },
    );
    expect(events[1].data).toMatchObject({ order: ['b', 'n', 'a'], unresolvedTies: [] });
  });

  it('given rolled totals the GM reordered, when a combatant joins, then the GM is asked too', () => {
    const start = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
    ]).slice(0, 3);
    let events = then(start, { type: 'RollInitiative' }, { dice: [6, 6, 3, 3] });
    expect(stateOf(events).order).toEqual(['a', 'b']);
    events = then(events, { type: 'SetInitiative', order: ['b', 'a'] });
    expect(exact(events, newcomer, { dice: [6] })[1].data).toMatchObject({
      order: ['b', 'a', 'n'],
      unresolvedTies: [['b', 'a', 'n']],
    });
  });

  it('given the rolled order (ties broken by the GM), when a combatant joins, then it is slotted in by the totals', () => {
    const start = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
    ]).slice(0, 3);
    let events = then(start, { type: 'RollInitiative' }, { dice: [6, 1, 6, 1] });
    events = then(events, { type: 'SetInitiative', order: ['b', 'a'] });
    // a and b both rolled 2 with Agility 2: the GM's order only broke their tie. The newcomer's 1 dot puts it last.
    expect(exact(events, newcomer, { dice: [3] })[1].data).toMatchObject({
      order: ['b', 'a', 'n'],
      unresolvedTies: [],
    });
    expect(
      exact(
        events,
        {
          ...newcomer,
          combatant: {
            ...newcomer.combatant,
            sheet: sheet({ vitals: { strength: 2, agility: 3, resilience: 2 } }),
          },
        },
        { dice: [6, 6, 1] },
      )[1].data,
    ).toMatchObject({ order: ['n', 'b', 'a'], unresolvedTies: [] });
  });
});

describe('C11: a removed combatant’s id is never given to a newcomer (RULINGS.md N16)', () => {
  it('given Mira acted this round and was removed, when the GM adds a combatant with her id, then it is refused: the newcomer would have inherited her activation', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'RemoveCombatant', combatantId: 'mira', reason: 'fled' });
    // The round still counts mira as having acted: a newcomer under that id would get no activation in it.
    expect(stateOf(events).actedThisRound).toEqual(['mira']);
    const v = given(narateer, events)
      .when(
        { type: 'AddCombatant', combatant: { id: 'mira', name: 'Mira again', side: 'mira', sheet: mira } },
        { dice: [3, 3, 3] },
      )
      .violation();
    expect(v).toMatchObject({ code: 'COMBATANT_ID_TAKEN', field: 'combatant.id' });
    expect(v.message).toMatch(/mira belonged to a combatant removed from this fight/);
  });
});
