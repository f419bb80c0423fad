import { exact, fight, find, foe, hero, refused, rider, stateOf, then, types } from './helpers';

describe('S42: Mount and Dismount at will (archsoul.txt: Mounted Maneuvers; no cost given)', () => {
  it('S42: Dismount and Mount cost 1 AP each and trigger no reactive attacks; the mount waits where it was left', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'S')]);
    const off = exact(events, { type: 'Dismount', combatantId: 'a' });
    expect(types(off)).toEqual(['ApSpent', 'Dismounted']);
    expect(find(off, 'ApSpent')).toMatchObject({ action: 'dismount', ap: 1 });
    events = [...events, ...off];
    expect(stateOf(events).combatants.a).toMatchObject({ mounted: false, mountAt: { x: 0, y: 0 } });
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] });
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' }), {
      type: 'ResumeAction',
      combatantId: 'a',
    });
    const on = exact(events, { type: 'Mount', combatantId: 'a' });
    expect(types(on)).toEqual(['ApSpent', 'Mounted']);
    expect(find(on, 'Mounted')).toEqual({ combatantId: 'a', at: { x: 0, y: 0 } });
    expect(stateOf([...events, ...on]).combatants.a).toMatchObject({ mounted: true, ap: 0 });
  });

  it('S42: mounting needs a mount on the sheet, not ridden, in or beside the rider’s space, and the rider standing', () => {
    const events = then(fight([hero('a', [0, 0], 'N', rider), hero('n', [5, 5])]), {
      type: 'Dismount',
      combatantId: 'a',
    });
    expect(refused(events, { type: 'Mount', combatantId: 'n' })).toMatchObject({
      code: 'ARCHSOUL_NO_MOUNT',
      field: 'combatantId',
    });
    expect(refused(events, { type: 'Dismount', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_NOT_MOUNTED',
      field: 'combatantId',
    });
    const away = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
      ],
    });
    expect(refused(away, { type: 'Mount', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_MOUNT_NOT_ADJACENT',
      field: 'combatantId',
    });
    const prone = then(events, { type: 'DropProne', combatantId: 'a' });
    expect(refused(prone, { type: 'Mount', combatantId: 'a' })).toMatchObject({ code: 'ARCHSOUL_PRONE' });
    const ridden = fight([hero('a', [0, 0], 'N', rider)]);
    expect(refused(ridden, { type: 'Mount', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_ALREADY_MOUNTED',
    });
  });

  it('S33/S42: a grappled rider dismounts only after a won grapple roll; a lost one spends the AP and it stays mounted', () => {
    // v grabs the rider a (v's unarmed 2 successes against a's 1); a's turn comes next.
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'S', rider)]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    // archsoul.txt: Being Grappled: "All other actions require a successful grapple roll to attempt".
    // a's unarmed 3 dice against v's 3: 0 against 1 loses; 2 against 0 wins and takes control.
    const lost = exact(events, { type: 'Dismount', combatantId: 'a' }, { dice: [1, 1, 1, 4, 1, 1] });
    expect(types(lost)).toEqual(['GrappleRolled', 'ApSpent']);
    expect(stateOf([...events, ...lost]).combatants.a).toMatchObject({ mounted: true, ap: 2 });
    const won = exact(events, { type: 'Dismount', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] });
    expect(types(won)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent', 'Dismounted']);
    expect(stateOf([...events, ...won]).combatants.a).toMatchObject({ mounted: false, ap: 2 });
  });
  it('S42/S33: Being Grappled: mounting is no “regular move action”, so a grappled combatant mounts after a won grapple roll; a lost one spends the AP', () => {
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'S', rider)]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    // a wins the Dismount's roll (2 against 0) and takes control; the mount waits in a's space.
    events = then(events, { type: 'Dismount', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] });
    const lost = exact(events, { type: 'Mount', combatantId: 'a' }, { dice: [1, 1, 1, 4, 4, 1] });
    expect(types(lost)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent']);
    expect(stateOf([...events, ...lost]).combatants.a).toMatchObject({ mounted: false, ap: 1 });
    const won = exact(events, { type: 'Mount', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] });
    expect(types(won)).toEqual(['GrappleRolled', 'ApSpent', 'Mounted']);
    expect(stateOf([...events, ...won]).combatants.a).toMatchObject({ mounted: true, ap: 1 });
    expect(stateOf([...events, ...won]).combatants.v.position).toEqual({ x: 0, y: -1 });
  });

  it('S33/S35: a grappled rider dropping to the ground comes off its mount only after a won grapple roll, as a Dismount', () => {
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'S', rider)]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    const lost = exact(events, { type: 'DropProne', combatantId: 'a' }, { dice: [1, 1, 1, 4, 1, 1] });
    expect(types(lost)).toEqual(['GrappleRolled']);
    expect(stateOf([...events, ...lost]).combatants.a).toMatchObject({ mounted: true, ap: 3 });
    const won = exact(events, { type: 'DropProne', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] });
    expect(types(won)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'Dismounted', 'ConditionApplied']);
    expect(stateOf([...events, ...won]).combatants.a).toMatchObject({ mounted: false, ap: 3 });
    // Off its mount, dropping to the ground is still one of Being Grappled's "other actions": a grapple roll first.
    const stood = then(
      [...events, ...won],
      { type: 'StandUp', combatantId: 'a' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(stateOf(stood).combatants.a.conditions.map((k) => k.condition)).toEqual(['grappled']);
    expect(
      types(exact(stood, { type: 'DropProne', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] })),
    ).toEqual(['GrappleRolled', 'ConditionApplied']);
  });
});
