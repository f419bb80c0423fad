import { RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { archsoul, ARCHSOUL_VIEW } from '../../src/archsoul';
import { view } from '../../src/archsoul/view';
import { play, viewsParser } from '../view-contract';
import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';

/** A critical failure of a 4-die attack roll (zero successes, three 1s); follow-up 5: "Leave yourself open". */
const OPEN = { dice: [1, 1, 1, 2], followUpFaces: [5] };
/** A 4-die attack roll with 2 successes (a hit on Defense 1), then a 5-die damage roll of 1. */
const HIT_FOR_1 = { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1] };
/** A 4-die attack roll with 2 successes, then a 5-die damage roll of 2. */
const HIT_FOR_2 = { dice: [4, 4, 1, 1, 4, 4, 1, 1, 1] };
const spear = { id: 'spear', name: 'Spear', type: 'melee', damage: 2, reach: 2 };
const MOVE = { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] };
const HELD = { type: 'Move', payload: { combatantId: 'a', path: [{ x: -1, y: 0 }] } };
/** The held Move inside an exact comparison. */
const HELD_MOVE = expect.objectContaining({ type: 'Move', payload: expect.objectContaining(HELD.payload) });

/** a at (0,0) facing N and v at (0,-1) facing S, each in the other's reach and front arc; `more` join after them. */
const duel = (more: ReturnType<typeof foe>[] = []) =>
  fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), ...more]);

/** a's Move draws v's reactive attack, which critically fails with "Leave yourself open". */
function vFumbles(events: RuleEvent[]): { events: RuleEvent[]; out: RuleEvent[] } {
  const moved = then(events, MOVE);
  const out = exact(moved, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, OPEN);
  return { events: [...moved, ...out], out };
}

describe('S20: a reactive attack that leaves its attacker open (archsoul.txt: Critical Failure Tables: "Leave yourself open, triggering a reactive attack from your target"; RULINGS.md S18)', () => {
  it('S20: a reactor’s “Leave yourself open” offers its target a reactive attack inside the sequence, which then resumes: the held Move is performed', () => {
    const first = vFumbles(duel());
    let events = first.events;
    expect(types(first.out)).toEqual([
      'ExchangeResolved',
      'CriticalFailureRolled',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(find(first.out, 'CriticalFailureRolled')).toMatchObject({ combatantId: 'v', face: 5 });
    expect(find(first.out, 'ReactiveAttackTriggered')).toEqual({
      actorId: 'v',
      trigger: 'criticalFailure',
      reactorIds: ['a'],
      interrupts: 'a',
    });
    expect(find(first.out, 'ReactiveAttackOffered')).toEqual({ actorId: 'v', reactorId: 'a' });
    const waiting = stateOf(events);
    expect(waiting.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
    expect(waiting.reaction).toMatchObject({
      actorId: 'v',
      trigger: 'criticalFailure',
      current: 'a',
      remaining: [],
      interrupted: [{ actorId: 'a', trigger: 'leaveReach', action: HELD, remaining: [], prevented: false }],
    });
    expect(waiting.reaction).not.toHaveProperty('action');
    // a's Move is still held (C13) while a answers v's opening; a has not moved.
    expect(archsoul.heldAction!(waiting)).toMatchObject({
      type: 'Move',
      awaiting: 'a',
      answer: 'ResumeAction',
    });
    expect(waiting.combatants.a.position).toEqual({ x: 0, y: 0 });
    expect(refused(events, { type: 'ResumeAction', combatantId: 'a' }).code).toBe('PENDING_DECISION');
    expect(refused(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }).code).toBe(
      'ARCHSOUL_NOT_YOUR_REACTION',
    );

    const reacted = exact(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, HIT_FOR_1);
    // No prevention roll: there is no action of v's to prevent; then a's own sequence finishes as it would have.
    expect(types(reacted)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'ReactionsFinished',
      'ReactionsFinished',
    ]);
    expect(find(reacted, 'ExchangeResolved')).toMatchObject({
      attackerId: 'a',
      targetId: 'v',
      action: 'reactive',
      hit: true,
    });
    expect(find(reacted, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1, hp: 9 });
    expect(reacted.slice(2).map((e) => e.data)).toEqual([
      { actorId: 'v', prevented: false },
      { actorId: 'a', prevented: false, action: HELD_MOVE },
    ]);
    events = [...events, ...reacted];
    const resumable = stateOf(events);
    expect(resumable.pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    expect(resumable.reaction).not.toHaveProperty('interrupted');
    expect(resumable.combatants.a.attackedWith).toEqual(['sword']);

    const resumed = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(types(resumed)).toEqual(['ActionResumed', 'Moved']);
    expect(find(resumed, 'Moved')).toMatchObject({
      combatantId: 'a',
      from: { x: 0, y: 0 },
      to: { x: -1, y: 0 },
    });
    const after = stateOf([...events, ...resumed]);
    expect(after.reaction).toBeUndefined();
    expect(after.pending).toBeUndefined();
  });

  it('S20: the target may decline the reactive attack its opponent’s fumble offers; the held Move still waits for ResumeAction', () => {
    const { events } = vFumbles(duel());
    const declined = exact(events, { type: 'DeclineReactiveAttack', combatantId: 'a' });
    expect(declined).toEqual([
      { type: 'ReactiveAttackDeclined', data: { actorId: 'v', reactorId: 'a' } },
      { type: 'ReactionsFinished', data: { actorId: 'v', prevented: false } },
      {
        type: 'ReactionsFinished',
        data: { actorId: 'a', prevented: false, action: HELD_MOVE },
      },
    ]);
    const resumed = exact([...events, ...declined], { type: 'ResumeAction', combatantId: 'a' });
    expect(types(resumed)).toEqual(['ActionResumed', 'Moved']);
  });

  /** v's reactive attack (with `weaponId`) on a's Move fumbles "Leave yourself open", but a cannot react to v. */
  function noOffer(events: RuleEvent[], weaponId: string): void {
    const moved = then(events, MOVE);
    expect(find(moved, 'ReactiveAttackTriggered')).toMatchObject({ reactorIds: ['v'] });
    const out = exact(moved, { type: 'ReactiveAttack', combatantId: 'v', weaponId }, OPEN);
    expect(types(out)).toEqual(['ExchangeResolved', 'CriticalFailureRolled', 'ReactionsFinished']);
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ combatantId: 'v', face: 5 });
    expect(find(out, 'ReactionsFinished')).toMatchObject({ actorId: 'a', prevented: false });
    const after = [...moved, ...out];
    expect(stateOf(after).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    expect(types(exact(after, { type: 'ResumeAction', combatantId: 'a' }))).toEqual([
      'ActionResumed',
      'Moved',
    ]);
  }

  it('S20: a target that could not react is offered nothing when its reactor fumbles: v out of a’s front arc (a faces S); the sequence goes on', () => {
    noOffer(fight([hero('a', [0, 0], 'S'), foe('v', [0, -1], 'S')]), 'sword');
  });

  it('S20: a target that could not react is offered nothing when its reactor fumbles: v out of a’s reach (v’s spear reaches 2, a’s sword 1); the sequence goes on', () => {
    noOffer(fight([hero('a', [0, 0], 'N'), foe('v', [0, -2], 'S', { weapons: [spear] })]), 'spear');
  });

  it('S20: with two reactors, the first one’s fumble is answered first, then the second reactor is offered and may prevent the Move', () => {
    // v then w (initiative order) react to a leaving (0,0); both have a in reach and front arc.
    const { events, out } = vFumbles(duel([foe('w', [1, -1], 'S')]));
    expect(find(events, 'ReactiveAttackTriggered')).toMatchObject({ actorId: 'a', reactorIds: ['v', 'w'] });
    expect(find(out, 'ReactiveAttackOffered')).toEqual({ actorId: 'v', reactorId: 'a' });
    expect(stateOf(events).reaction!.interrupted).toEqual([
      {
        actorId: 'a',
        trigger: 'leaveReach',
        action: HELD_MOVE,
        remaining: ['w'],
        prevented: false,
      },
    ]);
    const reacted = exact(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, HIT_FOR_1);
    expect(types(reacted)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'ReactionsFinished',
      'ReactiveAttackOffered',
    ]);
    expect(find(reacted, 'ReactionsFinished')).toEqual({ actorId: 'v', prevented: false });
    expect(find(reacted, 'ReactiveAttackOffered')).toEqual({ actorId: 'a', reactorId: 'w' });
    const next = [...events, ...reacted];
    expect(stateOf(next).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'w' });
    expect(stateOf(next).reaction).toMatchObject({ actorId: 'a', action: HELD, current: 'w', remaining: [] });
    // w hits for 3; a's Endurance/Resolve (3 dice) rolls no success: the Move is prevented, as it always was.
    const prevented = exact(
      next,
      { type: 'ReactiveAttack', combatantId: 'w', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 4, 4, 1, 1, 1, 1, 1] },
    );
    expect(types(prevented)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(prevented, 'PreventionRolled')).toMatchObject({
      combatantId: 'a',
      reactorId: 'w',
      prevented: true,
    });
    expect(find(prevented, 'ReactionsFinished')).toMatchObject({ actorId: 'a', prevented: true });
    const done = stateOf([...next, ...prevented]);
    expect(done.reaction).toBeUndefined();
    expect(done.pending).toBeUndefined();
    expect(done.combatants.a.position).toEqual({ x: 0, y: 0 });
  });

  it('S20: with two reactors, the second is offered after the first one’s opening is declined, and may decline too: the Move resumes', () => {
    const { events } = vFumbles(duel([foe('w', [1, -1], 'S')]));
    const declined = then(events, { type: 'DeclineReactiveAttack', combatantId: 'a' });
    expect(types(declined.slice(events.length))).toEqual([
      'ReactiveAttackDeclined',
      'ReactionsFinished',
      'ReactiveAttackOffered',
    ]);
    const both = then(declined, { type: 'DeclineReactiveAttack', combatantId: 'w' });
    expect(types(both.slice(declined.length))).toEqual(['ReactiveAttackDeclined', 'ReactionsFinished']);
    expect(find(both.slice(declined.length), 'ReactionsFinished')).toMatchObject({
      actorId: 'a',
      action: HELD,
    });
    expect(types(exact(both, { type: 'ResumeAction', combatantId: 'a' }))).toEqual([
      'ActionResumed',
      'Moved',
    ]);
  });

  it('S20: the target’s reactive attack that fumbles “Leave yourself open” in turn nests again; a hit there prevents nothing, and every sequence resumes in order', () => {
    const { events } = vFumbles(duel());
    const again = exact(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, OPEN);
    expect(types(again)).toEqual([
      'ExchangeResolved',
      'CriticalFailureRolled',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(find(again, 'ReactiveAttackTriggered')).toEqual({
      actorId: 'a',
      trigger: 'criticalFailure',
      reactorIds: ['v'],
      interrupts: 'v',
    });
    const twice = [...events, ...again];
    const s = stateOf(twice);
    expect(s.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    expect(s.reaction).toMatchObject({
      actorId: 'a',
      trigger: 'criticalFailure',
      current: 'v',
      remaining: [],
    });
    expect(s.reaction!.interrupted!.map((q) => [q.actorId, q.trigger, q.action?.type])).toEqual([
      ['a', 'leaveReach', 'Move'],
      ['v', 'criticalFailure', undefined],
    ]);
    expect(archsoul.heldAction!(s)).toMatchObject({ type: 'Move', awaiting: 'a' });
    // v hits a for 2: a reactive attack on an opening has no action to prevent (S20), so no prevention roll.
    const hit = exact(twice, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, HIT_FOR_2);
    expect(types(hit)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'ReactionsFinished',
      'ReactionsFinished',
      'ReactionsFinished',
    ]);
    expect(find(hit, 'WoundsApplied')).toMatchObject({ combatantId: 'a', damage: 2, hp: 8 });
    expect(hit.slice(2).map((e) => e.data)).toEqual([
      { actorId: 'a', prevented: false },
      { actorId: 'v', prevented: false },
      { actorId: 'a', prevented: false, action: HELD_MOVE },
    ]);
    const unwound = [...twice, ...hit];
    expect(stateOf(unwound).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    expect(types(exact(unwound, { type: 'ResumeAction', combatantId: 'a' }))).toEqual([
      'ActionResumed',
      'Moved',
    ]);
  });

  it('S20/S26: a reactive attack on an opening that leaves Down the actor whose Move is held prevents the Move without a roll', () => {
    const { events } = vFumbles(fight([hero('a', [0, 0], 'N', { hp: 2 }), foe('v', [0, -1], 'S')]));
    const twice = then(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, OPEN);
    const hit = exact(twice, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, HIT_FOR_2);
    expect(types(hit).slice(0, 6)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactionsFinished',
      'ReactionsFinished',
      'ReactionsFinished',
    ]);
    expect(find(hit, 'WoundsApplied')).toMatchObject({ combatantId: 'a', hp: 0, down: true });
    const prevention = find(hit, 'PreventionRolled');
    expect(prevention).toMatchObject({ combatantId: 'a', reactorId: 'v', damage: 2, prevented: true });
    expect(prevention).not.toHaveProperty('test');
    expect(hit.slice(3, 6).map((e) => e.data)).toEqual([
      { actorId: 'a', prevented: false },
      { actorId: 'v', prevented: false },
      { actorId: 'a', prevented: true, action: HELD_MOVE },
    ]);
    const after = stateOf([...twice, ...hit]);
    expect(after.reaction).toBeUndefined();
    expect(after.pending).toBeUndefined();
    expect(after.combatants.a.position).toEqual({ x: 0, y: 0 });
  });

  it('S20: an attack on the own turn that leaves its attacker open still opens a sequence of its own (no interrupts)', () => {
    const out = exact(duel(), { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' }, OPEN);
    expect(find(out, 'ReactiveAttackTriggered')).toEqual({
      actorId: 'a',
      trigger: 'criticalFailure',
      reactorIds: ['v'],
    });
    expect(stateOf([...duel(), ...out]).reaction).not.toHaveProperty('interrupted');
  });

  it('S20: the view shows the interrupted sequences as ARCHSOUL_VIEW declares them, after every event', () => {
    const system = findSystem('archsoul')!;
    const history = play(system, duel([foe('w', [1, -1], 'S')]), [
      MOVE,
      [{ type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, OPEN],
      [{ type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, OPEN],
      [{ type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, HIT_FOR_2],
      { type: 'DeclineReactiveAttack', combatantId: 'w' },
      { type: 'ResumeAction', combatantId: 'a' },
    ]);
    const views = viewsParser(system, ARCHSOUL_VIEW, 'ARCHSOUL_VIEW', view)(history);
    const depths = views.map((v) => v.reaction?.interrupted?.length ?? 0);
    expect(Math.max(...depths)).toBe(2);
    expect(views.some((v) => v.reaction !== null && v.reaction.interrupted === undefined)).toBe(true);
    expect(views[views.length - 1].reaction).toBeNull();
    // The declaration is strict inside the interrupted sequences too.
    const shown = views.find((v) => (v.reaction?.interrupted?.length ?? 0) === 2)!;
    const drifted = {
      ...shown,
      reaction: { ...shown.reaction!, interrupted: [{ ...shown.reaction!.interrupted![0], offered: [] }] },
    };
    expect(ARCHSOUL_VIEW.safeParse(drifted).success).toBe(false);
  });
});
