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

describe('S75: a round’s phases alternate as they opened (archsoul.txt: Turn Order: “heroes and villains taking turns”)', () => {
  it('S75: given a hero joining above the enemies during their phase, when the enemies’ phase ends, then the heroes’ phase opens with the joiner, not the enemies’ again', () => {
    // Given a: 3 dice 4,1,1 → 1; the GM's roll for the enemies 4,4,4 → 3: the enemies' phase opens round 1.
    const setup = fight([hero('a', [0, 0]), foe('v', [0, -3])], { round: false }).filter(
      (e) => e.type !== 'InitiativeSet',
    );
    let events = then(then(setup, { type: 'RollInitiative' }, { dice: [4, 1, 1, 4, 4, 4] }), {
      type: 'StartRound',
    });
    expect(stateOf(events).phase).toMatchObject({ index: 0, party: 'enemies', combatantIds: ['v'] });
    // d joins with Precision 2 + Awareness 3: 5 dice → 5, now first in the order.
    events = then(
      events,
      {
        type: 'AddCombatant',
        combatant: { id: 'd', name: 'd', side: 'heroes', sheet: sheet({ skills: { awareness: 3 } }) },
      },
      { dice: [6, 6, 6, 6, 6] },
    );
    expect(stateOf(events).order).toEqual(['d', 'v', 'a']);
    // When v ends its turn, then the heroes act, d with them; the enemies get no second phase this round.
    const out = exact(events, { type: 'EndTurn', combatantId: 'v' });
    expect(types(out)).toEqual(['TurnEnded', 'PhaseEnded', 'PhaseStarted', 'TurnStarted', 'TurnStarted']);
    expect(stateOf([...events, ...out]).phase).toMatchObject({
      round: 1,
      index: 1,
      party: 'heroes',
      combatantIds: ['d', 'a'],
    });
    // The new order counts from round 2: the heroes first.
    events = then(then(then([...events, ...out], { type: 'EndPhase' }), { type: 'StartRound' }), {
      type: 'EndPhase',
    });
    expect(types(events.slice(-3))).toEqual(['PhaseEnded', 'PhaseStarted', 'TurnStarted']);
    expect(stateOf(events).phase).toMatchObject({ round: 2, index: 1, party: 'enemies' });
  });

  it('S75: given only heroes in the fight, when an enemy joins during their phase, then it acts in the enemies’ phase that follows', () => {
    // a's 3 dice 1,1,1 → 0; the GM's roll for w 4,4,4 → 3 puts w first in the order.
    const setup = fight([hero('a', [0, 0])], { round: false }).filter((e) => e.type !== 'InitiativeSet');
    let events = then(then(setup, { type: 'RollInitiative' }, { dice: [1, 1, 1] }), { type: 'StartRound' });
    events = then(
      events,
      { type: 'AddCombatant', combatant: { id: 'w', name: 'w', side: 'enemies', sheet: sheet() } },
      { dice: [4, 4, 4] },
    );
    events = then(events, { type: 'PlaceCombatant', combatantId: 'w', position: { x: 0, y: -3 } });
    const out = exact(events, { type: 'EndTurn', combatantId: 'a' });
    expect(stateOf([...events, ...out]).phase).toMatchObject({
      round: 1,
      index: 1,
      party: 'enemies',
      combatantIds: ['w'],
    });
    expect(stateOf([...events, ...out]).combatants.a.inTurn).toBe(false);
  });
});

describe('S76: a Soul Shield whose caster leaves the fight (archsoul.txt: Soul Shield: “Until your next turn”; RULINGS.md C7)', () => {
  it('S76: given a’s and c’s Soul Shields on b, when the GM removes a, then a’s shield ends at once and c’s lasts until c’s next turn', () => {
    let events = fight([hero('a', [0, 0]), hero('b', [1, 0]), hero('c', [2, 0]), foe('v', [0, -4])]);
    events = then(events, { type: 'SoulShield', combatantId: 'a', targetId: 'b' });
    events = then(events, { type: 'SoulShield', combatantId: 'c', targetId: 'b' });
    const out = exact(events, { type: 'RemoveCombatant', combatantId: 'a' });
    expect(types(out)).toEqual(['ConditionRemoved', 'ConditionApplied', 'CombatantRemoved']);
    let after = [...events, ...out];
    expect(stateOf(after).combatants.b.conditions).toEqual([
      { condition: 'soulShield', amount: 1, untilNextTurn: true, sourceId: 'c' },
    ]);
    // c's own shield still ends at c's next turn (round 2).
    after = then(then(then(after, { type: 'EndPhase' }), { type: 'EndTurn', combatantId: 'v' }), {
      type: 'StartRound',
    });
    expect(stateOf(after).combatants.b.conditions).toEqual([]);
  });
});
