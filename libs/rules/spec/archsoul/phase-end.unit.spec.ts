import { exact, fight, foe, hero, refused, sheet, stateOf, then, types } from './helpers';

describe('S39 after CancelPending and RemoveCombatant', () => {
  it('S39: a GM CancelPending that leaves the phase without an open turn ends it', () => {
    // a (1 HP) jumps into v's and w's reach; the landing triggers both; v's hit downs a, w is offered next.
    let events = fight([hero('a', [0, 0], 'N', { hp: 1 }), foe('v', [0, -2], 'S'), foe('w', [1, -2], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }], jump: true });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(stateOf(events)).toMatchObject({
      pending: { kind: 'reactiveAttack', awaiting: 'w' },
      phase: { party: 'heroes' },
    });
    const cancelled = exact(events, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual([
      'PendingCancelled',
      'PhaseEnded',
      'PhaseStarted',
      'TurnStarted',
      'TurnStarted',
    ]);
    expect(stateOf([...events, ...cancelled]).phase).toMatchObject({
      party: 'enemies',
      combatantIds: ['v', 'w'],
    });
  });
});

describe('S49: Leaving the fight (RemoveCombatant)', () => {
  it('S49: removing a grappler ends its grapples, so the partner is free to move', () => {
    const events = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    const out = exact(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'fled' });
    expect(types(out)).toEqual(['GrappleEnded', 'ConditionRemoved', 'ConditionRemoved', 'CombatantRemoved']);
    const s = stateOf([...events, ...out]);
    expect(s.grapples).toEqual([]);
    expect(s.combatants.a.conditions).toEqual([]);
    expect(
      types(exact([...events, ...out], { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } })),
    ).toEqual(['ApSpent', 'Moved']);
  });

  it('S49, C11: given a studied foe removed, when the GM adds a combatant with its id, then it is refused: the newcomer would have been the studied target', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N'), foe('w', [2, -2])]);
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'fled' });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 1 });
    const v = refused(
      events,
      { type: 'AddCombatant', combatant: { id: 'v', name: 'V again', side: 'enemies', sheet: sheet() } },
      { dice: [4, 4, 4, 4, 4, 4] },
    );
    expect(v).toMatchObject({ code: 'COMBATANT_ID_TAKEN', field: 'combatant.id' });
    expect(v.message).toMatch(/v belonged to a combatant removed from this fight/);
  });

  it('S49: removing the last combatant with an open turn ends the phase, and the other party still gets its own', () => {
    // Round 1: a alone is ranked above the enemies; c, a hero ranked below them, acts from round 2 (S17).
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3]), hero('c', [3, 0])]);
    const out = exact(events, { type: 'RemoveCombatant', combatantId: 'a' });
    expect(types(out)).toEqual(['CombatantRemoved', 'PhaseEnded', 'PhaseStarted', 'TurnStarted']);
    expect(stateOf([...events, ...out]).phase).toMatchObject({ party: 'enemies', combatantIds: ['v'] });
    expect(types(exact(events, { type: 'RemoveCombatant', combatantId: 'c' }))).toEqual(['CombatantRemoved']);
  });
});
