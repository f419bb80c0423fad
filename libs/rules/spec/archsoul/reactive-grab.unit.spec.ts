import { RuleEvent } from '../../src/core/types';
import { bow, exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';

/**
 * archsoul.txt: Reactive Attack: "interrupt the action with a melee attack or special maneuver without spending action
 * points"; Grab: "roll an unarmed attack with an empty hand ... On a successful hit, you and your opponent become
 * grappled and you gain control of the grapple" (ruling S71). a (sword in one hand, the other empty) faces v; both roll
 * 3 unarmed dice (Precision 2 + Primitive Attacks 1).
 */
const grab = (extra: Record<string, unknown> = {}) => ({
  type: 'ReactiveAttack',
  combatantId: 'a',
  grab: true,
  ...extra,
});
/** a's unarmed roll 2 successes against v's 1, and the other way round. */
const HOLDS = [4, 4, 1, 4, 1, 1];
const SLIPS = [4, 2, 2, 4, 4, 2];

/** v acts first and walks out of a's reach and front arc; a is offered the reactive attack. */
function walkedAway(aExtra: Record<string, unknown> = {}): RuleEvent[] {
  const events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N', aExtra)]);
  return then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
}

describe('S71: a reactive Grab (archsoul.txt: Reactive Attack, Grab, Being Grappled)', () => {
  it('S71: given a foe walking out of reach, when the reactor grabs it and wins, then both are grappled under the reactor’s control and the move stops, with no AP spent', () => {
    const events = walkedAway();
    const ap = stateOf(events).combatants.a.ap;
    const out = exact(events, grab(), { dice: HOLDS });
    expect(types(out)).toEqual([
      'ReactiveGrabAttempted',
      'GrappleRolled',
      'GrappleStarted',
      'ConditionApplied',
      'ConditionApplied',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(out, 'GrappleRolled')).toMatchObject({
      actorId: 'a',
      opponentId: 'v',
      purpose: 'Grab',
      success: true,
    });
    expect(find(out, 'PreventionRolled')).toMatchObject({
      combatantId: 'v',
      reactorId: 'a',
      prevented: true,
    });
    const s = stateOf([...events, ...out]);
    expect(s.grapples).toEqual([{ grappleId: 'gr1', memberIds: ['a', 'v'], controlId: 'a' }]);
    expect(s.combatants.v.position).toEqual({ x: 0, y: -1 });
    expect(s.combatants.a.ap).toBe(ap);
    expect(s.pending).toBeUndefined();
  });

  it('S71: given a failed reactive Grab, then nothing is grappled, no AP is spent and the foe may resume its move', () => {
    const events = walkedAway();
    const ap = stateOf(events).combatants.a.ap;
    const out = exact(events, grab(), { dice: SLIPS });
    expect(types(out)).toEqual(['ReactiveGrabAttempted', 'GrappleRolled', 'ReactionsFinished']);
    expect(find(out, 'GrappleRolled')).toMatchObject({ actorId: 'a', success: false });
    const s = stateOf([...events, ...out]);
    expect(s.grapples).toEqual([]);
    expect(s.combatants.a.ap).toBe(ap);
    expect(s.pending).toMatchObject({ kind: 'resumeAction', awaiting: 'v' });
    const resumed = exact([...events, ...out], { type: 'ResumeAction', combatantId: 'v' });
    expect(find(resumed, 'Moved')).toMatchObject({ combatantId: 'v', to: { x: 0, y: -2 } });
  });

  it('S71: a grabbed archer’s ranged attack is prevented: a grappled combatant may not attack with a weapon', () => {
    const events = fight([foe('v', [0, -1], 'S', { weapons: [bow] }), hero('a', [0, 0], 'N')]);
    const shot = then(events, { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'bow' });
    const out = exact(shot, grab(), { dice: HOLDS });
    expect(find(out, 'PreventionRolled')).toMatchObject({ combatantId: 'v', prevented: true });
    expect(types(out)).not.toContain('ExchangeResolved');
    expect(stateOf([...shot, ...out]).pending).toBeUndefined();
  });

  it('S71: a grabbed foe standing up must first win a grapple roll: won, it takes control and stands; lost, it stays down', () => {
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'prone' });
    events = then(events, { type: 'StandUp', combatantId: 'v' });
    const won = exact(events, grab(), { dice: [...HOLDS, 4, 4, 1, 4, 1, 1] });
    expect(types(won)).toEqual([
      'ReactiveGrabAttempted',
      'GrappleRolled',
      'GrappleStarted',
      'ConditionApplied',
      'ConditionApplied',
      'GrappleRolled',
      'GrappleControlChanged',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(won, 'PreventionRolled')).toMatchObject({ combatantId: 'v', prevented: false });
    const after = [...events, ...won];
    expect(stateOf(after).grapples).toEqual([{ grappleId: 'gr1', memberIds: ['a', 'v'], controlId: 'v' }]);
    const stood = exact(after, { type: 'ResumeAction', combatantId: 'v' });
    expect(find(stood, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'prone' });

    // A tie goes to the reactor, who controls the grapple: the standing up is prevented.
    const lost = exact(events, grab(), { dice: [...HOLDS, 4, 1, 1, 4, 1, 1] });
    expect(find(lost, 'PreventionRolled')).toMatchObject({ combatantId: 'v', prevented: true });
    const s = stateOf([...events, ...lost]);
    expect(s.combatants.v.conditions.map((c) => c.condition)).toContain('prone');
    expect(s.grapples).toEqual([{ grappleId: 'gr1', memberIds: ['a', 'v'], controlId: 'a' }]);
    expect(s.pending).toBeUndefined();
  });

  it('S71: a reactive Grab naming a weapon is refused', () => {
    expect(refused(walkedAway(), grab({ weaponId: 'sword' }), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_REACTIVE_GRAB_WEAPON',
      field: 'weaponId',
    });
  });

  it('S71: a reactive Grab without an empty hand is refused', () => {
    const greatsword = { id: 'gs', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
    expect(refused(walkedAway({ weapons: [greatsword] }), grab(), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_GRAB_NO_EMPTY_HAND',
      field: 'combatantId',
    });
  });

  it('S71: a reactive Grab combined with another maneuver, or with an attack’s own fields, is refused', () => {
    const events = walkedAway();
    expect(refused(events, grab({ knockdown: true }), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_REACTIVE_GRAB_COMBINATION',
      field: 'knockdown',
    });
    expect(refused(events, grab({ feint: true }), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_REACTIVE_GRAB_COMBINATION',
      field: 'feint',
    });
    expect(refused(events, grab({ modifier: 1 }), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_REACTIVE_GRAB_FIELD',
      field: 'modifier',
    });
  });

  it('S71: a reactive Grab reaches only adjacent spaces, whatever weapon let the reactor react', () => {
    const spear = { id: 'spear', name: 'Spear', type: 'melee', damage: 2, reach: 2 };
    let events = fight([foe('v', [0, -2], 'S'), hero('a', [0, 0], 'N', { weapons: [spear] })]);
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -3 }] });
    expect(find(events.slice(-2), 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'a' });
    expect(refused(events, grab(), { dice: HOLDS })).toMatchObject({
      code: 'ARCHSOUL_OUT_OF_REACH',
      field: 'grab',
    });
  });
});
