import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';

const ward = {
  name: 'Ward of Ash',
  description: 'ash circle against spirits',
  ap: 2,
  movement: false,
  provokes: false,
};

/** a holds v (v faces away, so the Grab draws no reactive attack); round 2 opens with a's turn. */
function grappled() {
  let events = then(
    fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]),
    { type: 'Grab', combatantId: 'a', targetId: 'v' },
    { dice: [4, 4, 1, 4, 1, 1] },
  );
  events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
  return then(events, { type: 'StartRound' });
}

describe('S46: Rituals (archsoul.txt: Being Grappled "perform a ritual that requires movement"; Reactive Attack "performing some rituals")', () => {
  it('S46: a ritual spends its declared AP and records its narrated effect, rolling nothing', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    const out = exact(events, { type: 'PerformRitual', combatantId: 'a', ...ward });
    expect(types(out)).toEqual(['ApSpent', 'RitualPerformed']);
    expect(find(out, 'ApSpent')).toEqual({ combatantId: 'a', action: 'performRitual', ap: 2, apLeft: 1 });
    expect(find(out, 'RitualPerformed')).toEqual({ combatantId: 'a', ...ward });
    const after = [...events, ...out];
    expect(refused(after, { type: 'PerformRitual', combatantId: 'a', ...ward })).toMatchObject({
      code: 'ARCHSOUL_NOT_ENOUGH_AP',
      field: 'type',
    });
    expect(
      types(
        exact(after, {
          type: 'PerformRitual',
          combatantId: 'a',
          name: 'Quick sign',
          ap: 1,
          movement: true,
          provokes: false,
        }),
      ),
    ).toEqual(['ApSpent', 'RitualPerformed']);
  });

  it('S46: the ritual declares its cost (1–3 AP), whether it needs movement and whether it provokes; nothing is guessed', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    expect(refused(events, { type: 'PerformRitual', combatantId: 'a', ...ward, ap: 4 })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'ap',
    });
    expect(refused(events, { type: 'PerformRitual', combatantId: 'a', ...ward, ap: 0 })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'ap',
    });
    const { movement: _m, ...noMovement } = ward;
    expect(refused(events, { type: 'PerformRitual', combatantId: 'a', ...noMovement })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'movement',
    });
    const { provokes: _p, ...noProvokes } = ward;
    expect(refused(events, { type: 'PerformRitual', combatantId: 'a', ...noProvokes })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'provokes',
    });
    const { name: _n, ...noName } = ward;
    expect(refused(events, { type: 'PerformRitual', combatantId: 'a', ...noName })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'name',
    });
    expect(refused(events, { type: 'PerformRitual', combatantId: 'v', ...ward })).toMatchObject({
      code: 'ARCHSOUL_NOT_YOUR_TURN',
      field: 'combatantId',
    });
  });

  it('S46: while grappled a ritual that requires movement is refused; any other first needs the grapple roll', () => {
    const events = grappled();
    const violation = refused(events, { type: 'PerformRitual', combatantId: 'a', ...ward, movement: true });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'movement' });
    expect(violation.message).toContain('ritual that requires movement');
    // a's unarmed roll 2 against v's 0: the ritual goes ahead.
    const done = exact(
      events,
      { type: 'PerformRitual', combatantId: 'a', ...ward },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(done)).toEqual(['GrappleRolled', 'ApSpent', 'RitualPerformed']);
    expect(find(done, 'GrappleRolled')).toMatchObject({ purpose: 'PerformRitual', success: true });
    // A failed roll spends the ritual's AP and loses control; nothing is performed.
    const failed = exact(
      events,
      { type: 'PerformRitual', combatantId: 'a', ...ward },
      { dice: [1, 1, 2, 4, 1, 1] },
    );
    expect(types(failed)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent']);
    expect(stateOf([...events, ...failed]).combatants.a.ap).toBe(1);
  });

  it('S46: a ritual that provokes triggers reactive attacks from foes in reach and front arc; not prevented, ResumeAction performs it', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    expect(types(exact(events, { type: 'PerformRitual', combatantId: 'a', ...ward }))).toEqual([
      'ApSpent',
      'RitualPerformed',
    ]);
    const provoking = { ...ward, provokes: true };
    const held = exact(events, { type: 'PerformRitual', combatantId: 'a', ...provoking });
    expect(types(held)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(held, 'ReactiveAttackTriggered')).toMatchObject({
      actorId: 'a',
      trigger: 'ritual',
      reactorIds: ['v'],
      action: { type: 'PerformRitual' },
    });
    events = then([...events, ...held], { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const resumed = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(types(resumed)).toEqual(['ActionResumed', 'RitualPerformed']);
    expect(find(resumed, 'RitualPerformed')).toEqual({ combatantId: 'a', ...provoking });
  });

  it('S46: a reactive hit the ritualist’s Endurance/Resolve does not exceed prevents the ritual; its AP stay spent', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'PerformRitual', combatantId: 'a', ...ward, provokes: true });
    // v: 6,6,1,1 → 2 > Defense 1; damage 5 dice → 1; a's Endurance/Resolve 3,1,1 → 1, not above 1: prevented.
    const react = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 1, 1] },
    );
    expect(find(react, 'PreventionRolled')).toMatchObject({ combatantId: 'a', damage: 1, prevented: true });
    expect(types(react)).not.toContain('RitualPerformed');
    const s = stateOf([...events, ...react]);
    expect(s.pending).toBeUndefined();
    expect(s.combatants.a.ap).toBe(1);
  });
});
