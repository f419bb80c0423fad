import { exact, fight, find, foe, hero, refused, rider, stateOf, then, types } from './helpers';

/** Heroes a (0, 0) and b (2, -2), foe v (0, -1): a grabs v and takes it down, so a and v share (0, -1). */
function afterTakedown() {
  const grabbed = then(
    fight([hero('a', [0, 0]), hero('b', [2, -2]), foe('v', [0, -1], 'N')]),
    { type: 'Grab', combatantId: 'a', targetId: 'v' },
    { dice: [4, 4, 1, 4, 1, 1] },
  );
  return then(grabbed, { type: 'Takedown', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 1, 1, 1] });
}

describe('S43: Two combatants in one space (archsoul.txt: Takedown; Trample: "You cannot end your turn in your opponent\'s space")', () => {
  it('S43/Cleave: “a single attack roll against everything within the attack’s area”: both grapplers sharing a space are attacked', () => {
    // Given a took v down, so a and v share (0, -1), and b (a's ally) stands beside that space.
    const grabbed = then(
      fight([hero('a', [0, 0]), hero('b', [1, -1]), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    const events = then(
      grabbed,
      { type: 'Takedown', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    // When b cleaves that space: Precision 2 + Melee Weapons 2 = 4 dice at 4 + 1 (Cleave) roll 2 successes, beating
    // both Defenses of 1; the one damage roll, Athletics 2 + Weapon Mastery 1 + 2 = 5 dice at 5, has 2 successes.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'b', weaponId: 'sword', cleave: { spaces: [{ x: 0, y: -1 }] } },
      { dice: [5, 5, 1, 1, 5, 5, 1, 1, 1] },
    );
    // Then the foe v is attacked as well as the ally a, and both take the 2 damage.
    expect(find(out, 'AreaAttackResolved').targets).toMatchObject([
      { targetId: 'a', hit: true },
      { targetId: 'v', hit: true },
    ]);
    expect(out.filter((e) => e.type === 'WoundsApplied').map((e) => e.data)).toMatchObject([
      { combatantId: 'a', damage: 2 },
      { combatantId: 'v', damage: 2 },
    ]);
  });

  it('S43: a rider stopped inside a trampled space is pushed to a free adjacent space when its turn ends', () => {
    // s lets the rider pass; leaving s's space, g (reaching it, not the start) hits and prevents the move.
    let events = trampling();
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'g' });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'g', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.a.position).toEqual({ x: 0, y: -1 });
    expect(refused(events, { type: 'EndTurn', combatantId: 'a', to: { x: 0, y: -3 } })).toMatchObject({
      code: 'ARCHSOUL_INVALID_STEP',
      field: 'to',
    });
    const chosen = exact(events, { type: 'EndTurn', combatantId: 'a', to: { x: 1, y: -1 } });
    expect(types(chosen).slice(0, 2)).toEqual(['Moved', 'TurnEnded']);
    expect(find(chosen, 'Moved')).toMatchObject({
      combatantId: 'a',
      action: 'pushed',
      from: { x: 0, y: -1 },
      to: { x: 1, y: -1 },
    });
    const nearest = exact(events, { type: 'EndTurn', combatantId: 'a' });
    expect(find(nearest, 'Moved')).toMatchObject({ action: 'pushed', distance: 1 });
    expect(types(nearest)).not.toContain('ReactiveAttackTriggered');
  });

  it('S43: after a Takedown the grapplers share the space; ending the turn pushes nobody, and no one else may enter', () => {
    const events = afterTakedown();
    const s = stateOf(events);
    expect(s.combatants.a.position).toEqual(s.combatants.v.position);
    expect(types(exact(events, { type: 'EndTurn', combatantId: 'a' }))[0]).toBe('TurnEnded');
    expect(types(exact(events, { type: 'EndTurn', combatantId: 'a' }))).not.toContain('Moved');
    expect(refused(events, { type: 'EndTurn', combatantId: 'b', to: { x: 3, y: -2 } })).toMatchObject({
      code: 'ARCHSOUL_NOT_SHARING',
      field: 'to',
    });
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'b',
        path: [
          { x: 1, y: -1 },
          { x: 0, y: -1 },
        ],
      }),
    ).toMatchObject({ code: 'ARCHSOUL_SPACE_OCCUPIED' });
  });

  it('S19/S43: a move cannot pass through a space an ally shares with a foe (after the ally’s Takedown)', () => {
    const events = afterTakedown();
    // a (joined before v) and v share (0, -1): b may pass a, not v.
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'b',
        path: [
          { x: 1, y: -1 },
          { x: 0, y: -1 },
          { x: -1, y: -1 },
        ],
      }),
    ).toMatchObject({ code: 'ARCHSOUL_SPACE_OCCUPIED', field: 'path[1]' });
  });
});

/** The rider tramples through s (who lets it pass) toward the space beyond, which g reaches: g's reactive attack is offered. */
function trampling() {
  const events = fight([
    hero('a', [0, 0], 'N', rider),
    foe('s', [0, -1], 'N', { size: 'small', trampleResponse: 'avoid' }),
    foe('g', [-1, -1], 'NE'),
  ]);
  return then(events, {
    type: 'Move',
    combatantId: 'a',
    path: [
      { x: 0, y: -1 },
      { x: 0, y: -2 },
    ],
    trample: true,
  });
}

/** The S43 trample: s lets the rider pass; g, reaching the space beyond, hits and stops the rider inside s's space. */
function stoppedInside() {
  return then(
    trampling(),
    { type: 'ReactiveAttack', combatantId: 'g', weaponId: 'sword' },
    { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1, 1, 1, 1] },
  );
}

describe('S43 wherever a turn ends (EndPhase, EndRound, going Down)', () => {
  it('S43: EndPhase and EndRound push a combatant left in another’s space before its turn ends', () => {
    const events = stoppedInside();
    expect(stateOf(events).combatants.a.position).toEqual({ x: 0, y: -1 });
    const phase = exact(events, { type: 'EndPhase' });
    expect(types(phase).slice(0, 3)).toEqual(['Moved', 'TurnEnded', 'PhaseEnded']);
    expect(find(phase, 'Moved')).toMatchObject({
      combatantId: 'a',
      action: 'pushed',
      from: { x: 0, y: -1 },
      distance: 1,
    });
    const round = exact(events, { type: 'EndRound' });
    expect(types(round)).toEqual(['Moved', 'TurnEnded', 'PhaseEnded', 'RoundEnded']);
    expect(stateOf([...events, ...round]).combatants.a.position).not.toEqual({ x: 0, y: -1 });
  });

  it('S43: a turn lost to going Down pushes the fallen combatant out of the space too', () => {
    const events = stoppedInside();
    const downed = exact(events, { type: 'ApplyDamage', combatantId: 'a', damage: 10 });
    expect(types(downed).slice(0, 3)).toEqual(['WoundsApplied', 'Moved', 'PhaseEnded']);
    expect(find(downed, 'Moved')).toMatchObject({
      combatantId: 'a',
      action: 'pushed',
      from: { x: 0, y: -1 },
    });
    expect(
      types(
        exact(fight([hero('a', [0, 0]), hero('b', [3, 0]), foe('v', [0, -3])]), {
          type: 'ApplyDamage',
          combatantId: 'a',
          damage: 10,
        }),
      ),
    ).toEqual(['WoundsApplied']);
  });
});
