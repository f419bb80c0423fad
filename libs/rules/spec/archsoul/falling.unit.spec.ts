import { exact, fight, find, foe, hero, refused, rider, stateOf, then, types } from './helpers';

describe('S40: Falling (archsoul.txt: Miscellaneous: Falling Time; no damage formula)', () => {
  it('S40: the GM’s Fall records the fall, leaves the combatant prone and applies the GM’s damage, without AP', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    const out = exact(events, { type: 'Fall', combatantId: 'a', metres: 6, damage: 4 });
    expect(types(out)).toEqual(['Fell', 'ConditionApplied', 'WoundsApplied']);
    expect(find(out, 'Fell')).toEqual({ combatantId: 'a', metres: 6, damage: 4 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      source: 'fall (6 m)',
      damage: 4,
      hp: 6,
    });
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({
      ap: 3,
      conditions: [{ condition: 'prone' }],
    });
  });

  it('S40: a falling rider comes off its mount; an already prone faller only takes the damage', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -3])]);
    const out = exact(events, { type: 'Fall', combatantId: 'a', damage: 2 });
    expect(types(out)).toEqual(['Fell', 'Dismounted', 'ConditionApplied', 'WoundsApplied']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ source: 'fall', damage: 2 });
    expect(types(exact([...events, ...out], { type: 'Fall', combatantId: 'a', damage: 1 }))).toEqual([
      'Fell',
      'WoundsApplied',
    ]);
    expect(refused(events, { type: 'Fall', combatantId: 'a' })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'damage',
    });
  });
});

describe('S47: A fall ends the faller’s grapples (archsoul.txt: Falling Time, Being Grappled)', () => {
  const held = () =>
    then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );

  it('S47: a fall ends every grapple the faller is in, whether it holds or is held; the partner stays where it is', () => {
    for (const faller of ['v', 'a']) {
      const events = held();
      const out = exact(events, { type: 'Fall', combatantId: faller, damage: 1, metres: 4 });
      expect(types(out)).toEqual([
        'Fell',
        'GrappleEnded',
        'ConditionRemoved',
        'ConditionRemoved',
        'ConditionApplied',
        'WoundsApplied',
      ]);
      expect(find(out, 'GrappleEnded')).toEqual({
        grappleId: 'gr1',
        reason: `${faller} fell (RULINGS.md S47)`,
      });
      const s = stateOf([...events, ...out]);
      expect(s.grapples).toEqual([]);
      expect([s.combatants.a, s.combatants.v].map((c) => c.conditions.map((k) => k.condition))).toEqual(
        faller === 'v' ? [[], ['prone']] : [['prone'], []],
      );
      expect(s.combatants.a.position).toEqual({ x: 0, y: 0 });
    }
  });
});
