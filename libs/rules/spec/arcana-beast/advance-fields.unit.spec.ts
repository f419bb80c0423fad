/**
 * A field a command carries that a path of the engine never reads is refused, not dropped: what makes it impossible
 * whatever the state (the sheet, the kind of combatant it names) is refused on every path with its code and field;
 * what only the state or the dice leave unused (a tie that did not happen) stands. Numbers worked from the text.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { fightStarted } from '../given';
import {
  ash,
  beast,
  close,
  ember,
  exact,
  fight,
  find,
  Fighter,
  joined,
  refused,
  stateOf,
  then,
  wild,
  wolf,
} from './helpers';

/** Ember with a Zero Power that has no range: a narrative effect the GM resolves (A34). */
const calm: Fighter[] = [
  { id: 'ember', sheet: beast({ zeroPower: { name: 'Calm Aura', trigger: 'Ash sings' } }), side: 'heroes' },
  ash,
  wolf(),
];
const zeroPowerOn = (fighters: Fighter[]): RuleEvent[] =>
  then(fight(fighters, 'ember'), {
    type: 'SetTrigger',
    combatantId: 'ember',
    kind: 'zeroPower',
    active: true,
  });

describe('A34, A30: a narrative Zero Power rolls nothing, so it takes no bonusDice', () => {
  it.each([0, 2])(
    'A34: given Ember’s Zero Power with no range and its trigger active, when UseZeroPower carries bonusDice %i, then it is refused naming bonusDice, and nothing is used',
    (n) => {
      const e = zeroPowerOn(calm);
      expect(
        refused(e, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf', bonusDice: n }),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'bonusDice' });
      // Sent again without it, the power is used: the Action and the scene’s use are spent, nothing is rolled.
      const out = exact(e, { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' });
      expect(out.map((x) => x.type)).toEqual(['ZeroPowerUsed', 'ActionTaken']);
    },
  );

  it('A30: given Ember’s Zero Power with a melee range, when UseZeroPower carries bonusDice 1, then its attack reads it: Brawn 3 + Ranks 3 + 1 = 7 d8', () => {
    const e = close(zeroPowerOn([ember(), ash, wolf()]), 'ember', 'wolf');
    // Zero Flare 7 d8 [4, 1, 1, 1, 1, 1, 1] = 1 success against the wolf’s Dodge 2 d6 [1, 1] = 0: a hit by 1,
    // Base Damage 3 + 2 = 5, + 1 extra success = 6.
    const out = exact(
      e,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf', bonusDice: 1 },
      { dice: [4, 1, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 7, bonuses: [{ source: 'bonusDice (RULINGS.md A30)', dice: 1 }] },
      outcome: 'hit',
      damage: 6,
    });
  });
});

/** Ember (Agility 2, d8), Ash, and the wolf (Agility 2, d6): initiative not rolled yet. */
const unrolled = (fighters: Fighter[] = [ember(), ash, wolf()]): RuleEvent[] => [
  fightStarted('arcana-beast'),
  ...fighters.map(joined),
];
/** RollInitiative’s faces, Ember’s pool then the wolf’s (A16): 2 successes to 0, or 1 to 1 (a tie). */
const ROLLS = { 'no tie': [4, 4, 1, 1], 'a tie': [4, 1, 4, 1] } as const;

describe('C10, A29: tieBreak names beasts that roll initiative, whether or not they tie', () => {
  describe.each(Object.keys(ROLLS) as (keyof typeof ROLLS)[])('when the roll gives %s', (roll) => {
    it.each([
      ['someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[0]', ['nobody']],
      ['a Beast Binder, who rolls no initiative', 'ARCANA_NOT_A_BEAST', 'tieBreak[1]', ['wolf', 'ash']],
      ['a beast twice', 'INVALID_FIELD', 'tieBreak[1]', ['wolf', 'wolf']],
    ])(
      'C10: given Ember and the wolf to roll initiative, when RollInitiative’s tieBreak names %s, then it is refused with %s on %s',
      (_what, code, field, tieBreak) => {
        const command: RuleCommand = { type: 'RollInitiative', tieBreak };
        expect(refused(unrolled(), command, { dice: [...ROLLS[roll]] })).toMatchObject({ code, field });
      },
    );
  });

  it('C10, A29: given a tieBreak naming both beasts, when the roll does not tie, then it stands unused and the successes give the order; when it ties, it orders the beasts and Ash stays right after Ember', () => {
    const command: RuleCommand = { type: 'RollInitiative', tieBreak: ['wolf', 'ember'] };
    const apart = then(unrolled(), command, { dice: [...ROLLS['no tie']] });
    expect(stateOf(apart)).toMatchObject({ order: ['ember', 'ash', 'wolf'], pending: undefined });
    const tied = then(unrolled(), command, { dice: [...ROLLS['a tie']] });
    expect(stateOf(tied)).toMatchObject({ order: ['wolf', 'ember', 'ash'], pending: undefined });
  });

  // A late joiner after initiative rolls and is slotted in (A32): Kit’s Agility 2 d6 [4, 4] = 2 beats the 0 every
  // beast of an order the GM set counts, so nothing ties.
  const kit = { id: 'kit', name: 'Kit', side: 'heroes', sheet: wild() };

  it.each([
    ['someone not in the fight', 'COMBATANT_NOT_FOUND', 'tieBreak[1]', ['kit', 'nobody']],
    ['a Beast Binder', 'ARCANA_NOT_A_BEAST', 'tieBreak[0]', ['ash', 'kit']],
  ])(
    'A32, C10: given initiative set, when Kit joins with a tieBreak naming %s, then it is refused with %s on %s though nothing ties',
    (_what, code, field, tieBreak) => {
      const command: RuleCommand = { type: 'AddCombatant', combatant: kit, tieBreak };
      expect(refused(fight([ember(), ash, wolf()]), command, { dice: [4, 4] })).toMatchObject({
        code,
        field,
      });
      const joinedKit = then(
        fight([ember(), ash, wolf()]),
        { ...command, tieBreak: ['kit', 'ember'] },
        { dice: [4, 4] },
      );
      expect(stateOf(joinedKit).order).toEqual(['kit', 'ember', 'ash', 'wolf']);
    },
  );

  it('A32, A29: given initiative set, when Kit joins with no success and ties, then its tieBreak orders the tied beasts and Ash stays right after Ember', () => {
    // Kit’s Agility 2 d6 [1, 1] = 0, as Ember and the wolf count (an order the GM set): one tied group of three.
    const command: RuleCommand = { type: 'AddCombatant', combatant: kit, tieBreak: ['kit', 'wolf', 'ember'] };
    const out = exact(fight([ember(), ash, wolf()]), command, { dice: [1, 1] });
    expect(find(out, 'InitiativeRolled')).toMatchObject({
      order: ['kit', 'wolf', 'ember', 'ash'],
      unresolvedTies: [],
    });
  });

  it('A29, C10: given initiative set, when a Beast Binder joins with a tieBreak, then it is refused naming tieBreak: a Binder rolls no initiative, so nothing it adds can tie', () => {
    const e = fight([ember(), wolf()]);
    const command: RuleCommand = {
      type: 'AddCombatant',
      combatant: { ...ash, name: 'Ash' },
      tieBreak: ['ember'],
    };
    expect(refused(e, command)).toMatchObject({ code: 'INVALID_FIELD', field: 'tieBreak' });
    const { tieBreak: _unused, ...without } = command;
    expect(stateOf(then(e, without)).order).toEqual(['ember', 'ash', 'wolf']);
  });
});
