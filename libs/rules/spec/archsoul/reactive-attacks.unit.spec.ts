import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, foe, hero, refused, rider, stateOf, sword, then, types } from './helpers';

/** v walks out of a's reach and front arc to (0, -2); a takes its reactive attack with the sword. */
const swordReaction = (events: RuleEvent[]) =>
  then(
    then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] }),
    { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
    { dice: [2, 3, 2, 3] },
  );

describe('S53: Quick Attack after a reactive attack (archsoul.txt: Quick Attack: "a one-handed weapon that you have not yet made an attack with this round"; RULINGS.md C7)', () => {
  it('S53: a reactive attack with the sword in the enemies’ phase does not stop a Quick Attack with it in the hero’s own turn later that round', () => {
    // The enemies act first this round (v ranked above a): v walks out of a's reach and front arc; a reacts with its sword.
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N')]);
    events = swordReaction(events);
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['sword']);
    events = then(then(events, { type: 'ResumeAction', combatantId: 'v' }), {
      type: 'Move',
      combatantId: 'v',
      path: [{ x: 0, y: -1 }],
    });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    // C7: "this round" ends at a's next turn, which has just started.
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, attackedWith: [] });
    const quick = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' },
      { dice: [2, 3, 2, 3] },
    );
    expect(find(quick, 'ExchangeResolved')).toMatchObject({ special: 'quick', weaponId: 'sword' });
    // An attack with the sword in its own turn does count.
    expect(
      refused([...events, ...quick], { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS' });
  });

  it('S53: a reactive attack made during the own turn’s round counts until the next own turn begins', () => {
    // a acts first, then v's Move draws a's reactive sword attack: a's next turn (round 2) frees the sword again.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    events = swordReaction(events);
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['sword']);
    events = then(then(events, { type: 'ResumeAction', combatantId: 'v' }), {
      type: 'EndTurn',
      combatantId: 'v',
    });
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, attackedWith: [] });
  });
});

describe('S54: Trample from a back arc; the mover’s facing at a path’s first step (archsoul.txt: Trample, Move, Reactive Attack)', () => {
  it('S54: trampled from its back arc, an opponent set to stop cannot make the reactive attack: the rider passes and the mount rolls its trample damage', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'N', { size: 'small' })]);
    const out = exact(
      events,
      {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: 0, y: -1 },
          { x: 0, y: -2 },
          { x: 0, y: -3 },
        ],
        trample: true,
      },
      { dice: [4, 4, 1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'WoundsApplied', 'Moved']);
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 's',
      damage: 2,
      source: 'a:Horse (trample)',
    });
    // Facing the rider, the same opponent is offered the leave-reach attack, then the trample's own.
    const facing = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', { size: 'small' })]);
    expect(
      find(
        exact(facing, {
          type: 'Move',
          combatantId: 'a',
          path: [
            { x: 0, y: -1 },
            { x: 0, y: -2 },
            { x: 0, y: -3 },
          ],
          trample: true,
        }),
        'ReactiveAttackTriggered',
      ),
    ).toMatchObject({ trigger: 'leaveReach' });
    // An opponent set to avoid lets the rider pass: no attack, no trample damage.
    const avoid = fight([
      hero('a', [0, 0], 'N', rider),
      foe('s', [0, -2], 'N', { size: 'small', trampleResponse: 'avoid' }),
    ]);
    expect(
      types(
        exact(avoid, {
          type: 'Move',
          combatantId: 'a',
          path: [
            { x: 0, y: -1 },
            { x: 0, y: -2 },
            { x: 0, y: -3 },
          ],
          trample: true,
        }),
      ),
    ).toEqual(['ApSpent', 'Moved']);
  });

  it('S54: a Charge through an opponent from its back arc tramples it with the Charge’s dice; the attack’s pools come later', () => {
    const lancer = {
      weapons: [{ id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] }],
      mount: rider.mount,
    };
    const events = fight([
      hero('a', [0, 0], 'N', lancer),
      foe('s', [0, -2], 'N', { size: 'small' }),
      foe('v', [0, -5]),
    ]);
    const north = [1, 2, 3, 4].map((i) => ({ x: 0, y: -i }));
    // The trample roll comes with the Charge (4,1,1: 1 damage); past s, leaving the space in its front arc is offered to s.
    const charged = exact(
      events,
      { type: 'Charge', combatantId: 'a', path: north, targetId: 'v', weaponId: 'lance', trample: true },
      { dice: [4, 1, 1] },
    );
    expect(types(charged)).toEqual([
      'ApSpent',
      'WoundsApplied',
      'Moved',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(find(charged, 'WoundsApplied')).toMatchObject({
      combatantId: 's',
      damage: 1,
      source: 'a:Horse (trample)',
    });
    const declined = then([...events, ...charged], { type: 'DeclineReactiveAttack', combatantId: 's' });
    // The lance attack's pools go with the resume: attack 4,4,1,2 (2 > 1), damage 4 then 1s (the mount's speed adds 3 dice).
    const out = exact(
      declined,
      { type: 'ResumeAction', combatantId: 'a' },
      { dice: [4, 4, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['ActionResumed', 'Moved', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1 });
  });

  it('S54: a reactive attack on leaving the start space finds the mover still facing as before the Move', () => {
    // a faces v and walks away from it: v's attack comes before the step, into a's front arc; prevented, a keeps facing N.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    const hit = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 4, 1, 4, 4, 4, 4, 1, 1, 1, 1] },
    );
    expect(find(hit, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', hit: true });
    expect(find(hit, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(stateOf([...events, ...hit]).combatants.a).toMatchObject({
      position: { x: 0, y: 0 },
      facing: 'N',
    });
  });

  it('S54: a later trigger finds the mover facing along the step that brought it into the space it leaves', () => {
    // a starts facing S (v behind it) and steps north into v's reach (facing NW now), then leaves: v is in a's front arc.
    let events = fight([hero('a', [0, 1], 'S'), foe('v', [0, -1], 'S')]);
    events = then(events, {
      type: 'Move',
      combatantId: 'a',
      path: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
      ],
    });
    expect(find(events, 'Moved')).toMatchObject({ to: { x: 0, y: 0 }, facing: 'NW', stoppedBefore: 1 });
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [2, 3, 2, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', hit: false });
  });
});

describe('Reactive Attack: “within reach of one of your melee attacks … interrupt the action with a melee attack” (archsoul.txt: Reactive Attack, RULINGS.md S13, S18, S26)', () => {
  const spear = { id: 'spear', name: 'Spear', type: 'melee', damage: 2, reach: 2 };

  it('S26: the spear reaches the mover two spaces away, so the reactor reacts; its sword does not, and is refused', () => {
    // Given v (sword and spear, facing S) two spaces from a: a leaves its space, within the spear's reach.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -2], 'S', { weapons: [sword, spear] })]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    expect(stateOf(events).reaction).toMatchObject({ current: 'v', trigger: 'leaveReach' });
    // When v answers with the sword (reach 1, a is 2 away), then it is refused, naming the weapon.
    expect(refused(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' })).toMatchObject({
      code: 'ARCHSOUL_OUT_OF_REACH',
      field: 'weaponId',
    });
    // The fist reaches adjacent spaces only: refused too.
    expect(refused(events, { type: 'ReactiveAttack', combatantId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_OUT_OF_REACH',
      field: 'weaponId',
    });
    // With the spear: Precision 2 + Melee Weapons 2 at 4, 4,4,1,1 → 2 > Defense 1; damage 5 dice 4,1,1,1,1 → 1.
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'spear' },
      { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1, 4, 4, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ weaponId: 'spear', distance: 2, hit: true });
    expect(find(out, 'PreventionRolled')).toMatchObject({ damage: 1, prevented: false });
  });

  it('S18: only a reactor actually offered uses its once-per-turn leave-reach reaction; one that lapsed after a prevention keeps it', () => {
    // Given a beside v and w, both facing it: leaving triggers both; v is offered first (initiative order).
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), foe('w', [1, -1], 'SW')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    expect(find(events, 'ReactiveAttackTriggered')).toMatchObject({ reactorIds: ['v', 'w'] });
    // v hits: 4,4,1,1 → 2 > 1; damage 4,1,1,1,1 → 1; a's Endurance 2 + Resolve 1 at 3: 1,1,1 → 0, not above 1: prevented.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(events, 'ReactiveAttackLapsed')).toMatchObject({ reactorId: 'w' });
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, triggeredBy: ['v'] });
    // When a tries again in the same turn, then w, never offered, may react; v, offered already, may not.
    const again = exact(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    expect(find(again, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'leaveReach',
      reactorIds: ['w'],
    });
  });
});
