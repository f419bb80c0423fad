import { validateSheet } from '../../src/archsoul';
import { view } from '../../src/archsoul/view';
import { RuleEvent } from '../../src/core/types';
import { bow, exact, fight, find, refused, sheet, stateOf, sword, then, types } from './helpers';

const hero = (id: string, at: [number, number], facing = 'N', extra: Record<string, unknown> = {}) => ({ id, at, facing, sheet: sheet(extra) });
const foe = (id: string, at: [number, number], facing = 'S', extra: Record<string, unknown> = {}) => ({ id, at, facing, side: 'enemies', sheet: sheet(extra) });
const rider = { weapons: [sword], mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 } };

describe('S40: Falling (archsoul.txt: Miscellaneous: Falling Time; no damage formula)', () => {
  it('S40: the GM’s Fall records the fall, leaves the combatant prone and applies the GM’s damage, without AP', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    const out = exact(events, { type: 'Fall', combatantId: 'a', metres: 6, damage: 4 });
    expect(types(out)).toEqual(['Fell', 'ConditionApplied', 'WoundsApplied']);
    expect(find(out, 'Fell')).toEqual({ combatantId: 'a', metres: 6, damage: 4 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'a', source: 'fall (6 m)', damage: 4, hp: 6 });
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({ ap: 3, conditions: [{ condition: 'prone' }] });
  });

  it('S40: a falling rider comes off its mount; an already prone faller only takes the damage', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -3])]);
    const out = exact(events, { type: 'Fall', combatantId: 'a', damage: 2 });
    expect(types(out)).toEqual(['Fell', 'Dismounted', 'ConditionApplied', 'WoundsApplied']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ source: 'fall', damage: 2 });
    expect(types(exact([...events, ...out], { type: 'Fall', combatantId: 'a', damage: 1 }))).toEqual(['Fell', 'WoundsApplied']);
    expect(refused(events, { type: 'Fall', combatantId: 'a' })).toMatchObject({ code: 'INVALID_FIELD', field: 'damage' });
  });
});

describe('S41: Vertical jumps (archsoul.txt: Jumping: "one-third this amount straight up")', () => {
  it('S41: the map has no height; a vertical jump is refused naming the ruling', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    const violation = refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }], jump: true, vertical: true });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_VERTICAL_JUMP', field: 'vertical' });
    expect(violation.message).toContain('S41');
  });
});

describe('S42: Mount and Dismount at will (archsoul.txt: Mounted Maneuvers; no cost given)', () => {
  it('S42: Dismount and Mount cost 1 AP each and trigger no reactive attacks; the mount waits where it was left', () => {
    let events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'S')]);
    const off = exact(events, { type: 'Dismount', combatantId: 'a' });
    expect(types(off)).toEqual(['ApSpent', 'Dismounted']);
    expect(find(off, 'ApSpent')).toMatchObject({ action: 'dismount', ap: 1 });
    events = [...events, ...off];
    expect(stateOf(events).combatants.a).toMatchObject({ mounted: false, mountAt: { x: 0, y: 0 } });
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }] });
    events = then(then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' }), { type: 'ResumeAction', combatantId: 'a' });
    const on = exact(events, { type: 'Mount', combatantId: 'a' });
    expect(types(on)).toEqual(['ApSpent', 'Mounted']);
    expect(find(on, 'Mounted')).toEqual({ combatantId: 'a', at: { x: 0, y: 0 } });
    expect(stateOf([...events, ...on]).combatants.a).toMatchObject({ mounted: true, ap: 0 });
  });

  it('S42: mounting needs a mount on the sheet, not ridden, in or beside the rider’s space, and the rider standing', () => {
    const events = then(fight([hero('a', [0, 0], 'N', rider), hero('n', [5, 5])]), { type: 'Dismount', combatantId: 'a' });
    expect(refused(events, { type: 'Mount', combatantId: 'n' })).toMatchObject({ code: 'ARCHSOUL_NO_MOUNT', field: 'combatantId' });
    expect(refused(events, { type: 'Dismount', combatantId: 'a' })).toMatchObject({ code: 'ARCHSOUL_NOT_MOUNTED', field: 'combatantId' });
    const away = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }, { x: 2, y: 0 }] });
    expect(refused(away, { type: 'Mount', combatantId: 'a' })).toMatchObject({ code: 'ARCHSOUL_MOUNT_NOT_ADJACENT', field: 'combatantId' });
    const prone = then(events, { type: 'DropProne', combatantId: 'a' });
    expect(refused(prone, { type: 'Mount', combatantId: 'a' })).toMatchObject({ code: 'ARCHSOUL_PRONE' });
    const ridden = fight([hero('a', [0, 0], 'N', rider)]);
    expect(refused(ridden, { type: 'Mount', combatantId: 'a' })).toMatchObject({ code: 'ARCHSOUL_ALREADY_MOUNTED' });
  });
});

describe('S43: Two combatants in one space (archsoul.txt: Takedown; Trample: "You cannot end your turn in your opponent\'s space")', () => {
  it('S43: a rider stopped inside a trampled space is pushed to a free adjacent space when its turn ends', () => {
    // s lets the rider pass; leaving s's space, g (reaching it, not the start) hits and prevents the move.
    let events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -1], 'N', { size: 'small', trampleResponse: 'avoid' }), foe('g', [-1, -1], 'NE')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }, { x: 0, y: -2 }], trample: true });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'g' });
    events = then(events, { type: 'ReactiveAttack', combatantId: 'g', weaponId: 'sword' }, { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1, 1, 1, 1] });
    expect(stateOf(events).combatants.a.position).toEqual({ x: 0, y: -1 });
    expect(refused(events, { type: 'EndTurn', combatantId: 'a', to: { x: 0, y: -3 } })).toMatchObject({ code: 'ARCHSOUL_INVALID_STEP', field: 'to' });
    const chosen = exact(events, { type: 'EndTurn', combatantId: 'a', to: { x: 1, y: -1 } });
    expect(types(chosen).slice(0, 2)).toEqual(['Moved', 'TurnEnded']);
    expect(find(chosen, 'Moved')).toMatchObject({ combatantId: 'a', action: 'pushed', from: { x: 0, y: -1 }, to: { x: 1, y: -1 } });
    const nearest = exact(events, { type: 'EndTurn', combatantId: 'a' });
    expect(find(nearest, 'Moved')).toMatchObject({ action: 'pushed', distance: 1 });
    expect(types(nearest)).not.toContain('ReactiveAttackTriggered');
  });

  it('S43: after a Takedown the grapplers share the space; ending the turn pushes nobody, and no one else may enter', () => {
    let events = then(fight([hero('a', [0, 0]), hero('b', [2, -2]), foe('v', [0, -1], 'N')]), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 1, 1, 1] });
    const s = stateOf(events);
    expect(s.combatants.a.position).toEqual(s.combatants.v.position);
    expect(types(exact(events, { type: 'EndTurn', combatantId: 'a' }))[0]).toBe('TurnEnded');
    expect(types(exact(events, { type: 'EndTurn', combatantId: 'a' }))).not.toContain('Moved');
    expect(refused(events, { type: 'EndTurn', combatantId: 'b', to: { x: 3, y: -2 } })).toMatchObject({ code: 'ARCHSOUL_NOT_SHARING', field: 'to' });
    expect(refused(events, { type: 'Move', combatantId: 'b', path: [{ x: 1, y: -1 }, { x: 0, y: -1 }] })).toMatchObject({ code: 'ARCHSOUL_SPACE_OCCUPIED' });
  });
});

describe('S44: Shatter against ordinary items (archsoul.txt: Shatter: "makes a weapon attack roll with the targeted item")', () => {
  it('S44: an ordinary held item cannot be shattered; the GM lists it as an improvised weapon instead', () => {
    const lantern = { id: 'lantern', name: 'Lantern', stowage: 'simple', held: true };
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { items: [lantern] })]);
    const violation = refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', shatter: { itemId: 'lantern' } });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_SHATTER_ORDINARY_ITEM', field: 'shatter.itemId' });
    const improvised = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { weapons: [sword, { id: 'lantern', name: 'Lantern', type: 'melee', weightLb: 5, held: true }] })]);
    expect(types(exact(improvised, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', shatter: { itemId: 'lantern' } }, { dice: [4, 4, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1] }))).toContain('ShatterResolved');
  });
});

describe('S45: The critical-failure shift (archsoul.txt: Critical Failure Tables: "Shift 2m towards target")', () => {
  it('S45: the shift leaves a foe’s reach and front arc without triggering a reactive attack', () => {
    const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
    const caster = { weapons: [sword, rend], skills: { awareness: 1, meleeWeapons: 2, soulCasting: 2, resolve: 1 } };
    let events = fight([hero('a', [0, 0], 'N', caster), foe('v', [0, -3]), foe('w', [0, 1], 'N')]);
    // Casting soul magic in w's reach triggers it first (archsoul.txt: Reactive Attack); w declines.
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'rend' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'w' });
    const out = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [1, 1, 2, 3, 3], followUpFaces: [5] });
    expect(find(out, 'Moved')).toMatchObject({ combatantId: 'a', action: 'shift', from: { x: 0, y: 0 }, to: { x: 0, y: -1 } });
    expect(types(out)).not.toContain('ReactiveAttackTriggered');
    expect(stateOf([...events, ...out]).pending).toBeUndefined();
  });
});

/** The S43 trample: s lets the rider pass; g, reaching the space beyond, hits and stops the rider inside s's space. */
function stoppedInside() {
  let events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -1], 'N', { size: 'small', trampleResponse: 'avoid' }), foe('g', [-1, -1], 'NE')]);
  events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }, { x: 0, y: -2 }], trample: true });
  return then(events, { type: 'ReactiveAttack', combatantId: 'g', weaponId: 'sword' }, { dice: [4, 4, 1, 2, 4, 4, 1, 1, 1, 1, 1, 1] });
}

describe('S43 wherever a turn ends (EndPhase, EndRound, going Down)', () => {
  it('S43: EndPhase and EndRound push a combatant left in another’s space before its turn ends', () => {
    const events = stoppedInside();
    expect(stateOf(events).combatants.a.position).toEqual({ x: 0, y: -1 });
    const phase = exact(events, { type: 'EndPhase' });
    expect(types(phase).slice(0, 3)).toEqual(['Moved', 'TurnEnded', 'PhaseEnded']);
    expect(find(phase, 'Moved')).toMatchObject({ combatantId: 'a', action: 'pushed', from: { x: 0, y: -1 }, distance: 1 });
    const round = exact(events, { type: 'EndRound' });
    expect(types(round)).toEqual(['Moved', 'TurnEnded', 'PhaseEnded', 'RoundEnded']);
    expect(stateOf([...events, ...round]).combatants.a.position).not.toEqual({ x: 0, y: -1 });
  });

  it('S43: a turn lost to going Down pushes the fallen combatant out of the space too', () => {
    const events = stoppedInside();
    const downed = exact(events, { type: 'ApplyDamage', combatantId: 'a', damage: 10 });
    expect(types(downed).slice(0, 3)).toEqual(['WoundsApplied', 'Moved', 'PhaseEnded']);
    expect(find(downed, 'Moved')).toMatchObject({ combatantId: 'a', action: 'pushed', from: { x: 0, y: -1 } });
    expect(types(exact(fight([hero('a', [0, 0]), hero('b', [3, 0]), foe('v', [0, -3])]), { type: 'ApplyDamage', combatantId: 'a', damage: 10 }))).toEqual(['WoundsApplied']);
  });
});

describe('S39 after CancelPending and RemoveCombatant', () => {
  it('S39: a GM CancelPending that leaves the phase without an open turn ends it', () => {
    // a (1 HP) jumps into v's and w's reach; the landing triggers both; v's hit downs a, w is offered next.
    let events = fight([hero('a', [0, 0], 'N', { hp: 1 }), foe('v', [0, -2], 'S'), foe('w', [1, -2], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }], jump: true });
    events = then(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, { dice: [6, 6, 1, 1, 4, 1, 1, 1, 1] });
    expect(stateOf(events)).toMatchObject({ pending: { kind: 'reactiveAttack', awaiting: 'w' }, phase: { party: 'heroes' } });
    const cancelled = exact(events, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual(['PendingCancelled', 'PhaseEnded', 'PhaseStarted', 'TurnStarted', 'TurnStarted']);
    expect(stateOf([...events, ...cancelled]).phase).toMatchObject({ party: 'enemies', combatantIds: ['v', 'w'] });
  });
});

describe('S47: A fall ends the faller’s grapples (archsoul.txt: Falling Time, Being Grappled)', () => {
  const held = () => then(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });

  it('S47: a fall ends every grapple the faller is in, whether it holds or is held; the partner stays where it is', () => {
    for (const faller of ['v', 'a']) {
      const events = held();
      const out = exact(events, { type: 'Fall', combatantId: faller, damage: 1, metres: 4 });
      expect(types(out)).toEqual(['Fell', 'GrappleEnded', 'ConditionRemoved', 'ConditionRemoved', 'ConditionApplied', 'WoundsApplied']);
      expect(find(out, 'GrappleEnded')).toEqual({ grappleId: 'gr1', reason: `${faller} fell (RULINGS.md S47)` });
      const s = stateOf([...events, ...out]);
      expect(s.grapples).toEqual([]);
      expect([s.combatants.a, s.combatants.v].map((c) => c.conditions.map((k) => k.condition))).toEqual(faller === 'v' ? [[], ['prone']] : [['prone'], []]);
      expect(s.combatants.a.position).toEqual({ x: 0, y: 0 });
    }
  });
});

describe('S48: "attack with a weapon" while grappled (archsoul.txt: Being Grappled)', () => {
  const javelin = { id: 'javelin', name: 'Javelin', type: 'thrown', damage: 2, accurateRange: 3, maximumRange: 6 };
  const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
  /** v (first in initiative) grabs a from behind; a's turn opens next. */
  const held = () => {
    const events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'S', { weapons: [sword, javelin, rend], skills: { primitiveAttacks: 1, soulCasting: 2, resolve: 1 } }), foe('w', [0, -4], 'S')]);
    return then(then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] }), { type: 'EndTurn', combatantId: 'v' });
  };

  it('S48: throwing an item at a target is a weapon attack and is refused; soul magic is not, and takes the grapple roll', () => {
    const events = held();
    expect(refused(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'w' })).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'itemId' });
    expect(refused(events, { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'sword' })).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'weaponId' });
    // Grapple roll 2 against 0 (a takes control), then Rending 3 dice → 3 against w's Soulpower/Resolve 0: a hit; the GM applies its effect (S24).
    const soul = exact(events, { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'rend' }, { dice: [4, 4, 1, 1, 1, 1, 4, 4, 4, 1, 1] });
    expect(types(soul)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent', 'ExchangeResolved']);
    expect(find(soul, 'ExchangeResolved')).toMatchObject({ attackType: 'soul', hit: true });
  });
});

describe('S27: a grapple Throw is an attack (archsoul.txt: Quick Attack, Throw)', () => {
  it('S27: after a Quick Attack the grapple Throw is refused like the grapple Attack', () => {
    let events = then(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    // The unarmed Quick Attack takes the grapple roll first (S33), then misses: 1 success against Defense 1.
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'quick' }, { dice: [4, 4, 1, 1, 1, 1, 4, 2, 3] });
    expect(refused(events, { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' })).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS', field: 'type' });
    expect(refused(events, { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' })).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS' });
  });
});

describe('S49: Leaving the fight (RemoveCombatant)', () => {
  it('S49: removing a grappler ends its grapples, so the partner is free to move', () => {
    const events = then(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    const out = exact(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'fled' });
    expect(types(out)).toEqual(['GrappleEnded', 'ConditionRemoved', 'ConditionRemoved', 'CombatantRemoved']);
    const s = stateOf([...events, ...out]);
    expect(s.grapples).toEqual([]);
    expect(s.combatants.a.conditions).toEqual([]);
    expect(types(exact([...events, ...out], { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } }))).toEqual(['ApSpent', 'Moved']);
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

describe('S33: Escape while knocked down stands up (archsoul.txt: Escape; Reactive Attack: "Standing up from a prone position")', () => {
  it('S33: an Escape while knocked down stands up, and a foe in reach and front arc may react to the standing up first', () => {
    let events = then(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N'), foe('w', [0, 1], 'N')]), { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = ['a', 'v', 'w'].reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);
    events = then(then(events, { type: 'StartRound' }), { type: 'ApplyCondition', combatantId: 'a', condition: 'prone' });
    const escape = exact(events, { type: 'Escape', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 1, 1, 1] });
    expect(types(escape)).toEqual(['ApSpent', 'GrappleRolled', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(escape, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'standUp', reactorIds: ['w'], action: { type: 'StandUp' } });
    events = then([...events, ...escape], { type: 'DeclineReactiveAttack', combatantId: 'w' });
    const stood = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(types(stood)).toEqual(['ActionResumed', 'ConditionRemoved']);
    const s = stateOf([...events, ...stood]);
    expect(s.combatants.a.conditions.map((k) => k.condition)).toEqual(['grappled']);
    expect(s.grapples).toHaveLength(1);
  });
});

describe('S50: ResumeAction performs the held action as declared', () => {
  const held = () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')], { options: { arrowBreakage: false } });
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    return then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
  };

  it('S50: a maneuver, another target or weapon cannot be added when the held attack resumes', () => {
    const events = held();
    for (const [field, value] of [['knockdown', true], ['special', 'quick'], ['feint', { facing: 'N' }], ['targetId', 'a'], ['weaponId', 'sword']] as const) {
      expect(refused(events, { type: 'ResumeAction', combatantId: 'a', [field]: value })).toMatchObject({ code: 'ARCHSOUL_RESUME_FIELD', field });
    }
  });

  it('S50: its dice and the GM’s circumstances of the moment still ride on it', () => {
    const events = held();
    const shot = exact(events, { type: 'ResumeAction', combatantId: 'a', modifier: 1 }, { dice: [1, 2, 3, 2] });
    expect(types(shot)).toEqual(['ActionResumed', 'AmmunitionSpent', 'ExchangeResolved', 'ProjectileLanded']);
    expect(types(exact(events, { type: 'ResumeAction', combatantId: 'a', abandon: true }))).toEqual(['ActionResumed']);
  });
});

const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
const buckler = { id: 'buckler', name: 'Buckler', bonus: 2 };
const viewOf = (events: RuleEvent[], id: string) => view(stateOf(events)).combatants.find((x) => x.id === id)!;

describe('S51: Two hands (archsoul.txt: "a one-handed weapon", "Draw a two-handed weapon", "your other hand", Grab "with an empty hand")', () => {
  it('S51: a sheet starts with the first weapon, then the shield, then the other weapons while hands are free; items stay stowed', () => {
    const big = validateSheet(sheet({ weapons: [greatsword, dagger], shield: buckler, items: [{ id: 'rope', name: 'Rope' }] }), 's');
    expect([big.weapons.map((w) => w.held), big.shield!.held, big.items[0].held]).toEqual([[true, false], false, false]);
    const knight = validateSheet(sheet({ weapons: [sword, dagger], shield: buckler }), 's');
    expect([knight.weapons.map((w) => w.held), knight.shield!.held]).toEqual([[true, false], true]);
    // Worn unarmed weapons fill no hand (archsoul.txt: Unarmed: "conforms to your body like a gauntlet or claws").
    const beast = validateSheet(sheet({ weapons: [claws, sword, dagger] }), 's');
    expect(beast.weapons.map((w) => w.held)).toEqual([true, true, true]);
    const events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword, dagger], shield: buckler })]);
    expect(viewOf(events, 'a')).toMatchObject({ held: ['greatsword'], hands: ['greatsword', 'greatsword'], freeHands: 0, shieldBonus: 0 });
  });

  it('S51: a sheet holding more than two hands can is refused, naming the field that does not fit', () => {
    const over = () => validateSheet(sheet({ weapons: [{ ...greatsword, held: true }], shield: { ...buckler, held: true } }), 's');
    expect(over).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 's.shield.held', message: expect.stringContaining('Greatsword (two-handed) already fills both hands') }));
    const three = () => validateSheet(sheet({ weapons: [{ ...sword, held: true }, { ...dagger, held: true }, { ...dagger, id: 'knife', held: true }] }), 's');
    expect(three).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 's.weapons[2].held' }));
    // What is said comes first; the rest fills what is left in the same order (the sword; no hand left for the shield).
    const said = validateSheet(sheet({ weapons: [sword, { ...dagger, held: true }], shield: buckler }), 's');
    expect([said.weapons.map((w) => w.held), said.shield!.held]).toEqual([[true, true], false]);
    const shieldFirst = validateSheet(sheet({ weapons: [sword, dagger], shield: { ...buckler, held: true } }), 's');
    expect([shieldFirst.weapons.map((w) => w.held), shieldFirst.shield!.held]).toEqual([[true, false], true]);
  });

  it('S51: with both hands full nothing more is drawn, equipped or picked up; dropping frees the hands', () => {
    // The review's case: a greatsword in both hands, then a dagger (1 AP) and a shield (2 AP).
    let events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword, dagger], shield: buckler }), foe('v', [0, -4])]);
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' })).toMatchObject({ code: 'ARCHSOUL_HANDS_FULL', field: 'itemId', message: expect.stringContaining('Greatsword (both hands)') });
    expect(refused(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' })).toMatchObject({ code: 'ARCHSOUL_HANDS_FULL', field: 'itemId' });
    events = then(events, { type: 'DropItem', combatantId: 'a', itemId: 'greatsword' });
    expect(viewOf(events, 'a')).toMatchObject({ hands: [null, null], freeHands: 2 });
    events = then(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' });
    expect(viewOf(events, 'a')).toMatchObject({ held: ['dagger', 'buckler'], hands: ['dagger', 'buckler'], freeHands: 0, shieldBonus: 2 });
    // The greatsword lies at a's feet; picking it up needs both hands (next turn: AP).
    events = then(then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' })).toMatchObject({ code: 'ARCHSOUL_HANDS_FULL', field: 'groundId', message: expect.stringContaining('needs both hands') });
    events = then(then(events, { type: 'DropItem', combatantId: 'a', itemId: 'dagger' }), { type: 'DropItem', combatantId: 'a', itemId: 'buckler' });
    events = then(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    expect(viewOf(events, 'a')).toMatchObject({ hands: ['greatsword', 'greatsword'], shieldBonus: 0 });
  });

  it('S51: Grab needs an empty hand: a sword and a shield fill both, worn claws none', () => {
    const full = fight([hero('a', [0, 0], 'N', { shield: buckler }), foe('v', [0, -1], 'N')]);
    expect(refused(full, { type: 'Grab', combatantId: 'a', targetId: 'v' })).toMatchObject({ code: 'ARCHSOUL_GRAB_NO_EMPTY_HAND', field: 'combatantId', message: expect.stringContaining('Sword and Buckler') });
    const clawed = fight([hero('a', [0, 0], 'N', { weapons: [claws, sword] }), foe('v', [0, -1], 'N')]);
    expect(types(exact(clawed, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] }))).toContain('GrappleStarted');
  });

  it('S51: a thrown item leaves its hand empty', () => {
    const javelin = { id: 'javelin', name: 'Javelin', type: 'thrown', damage: 2, accurateRange: 3, maximumRange: 6 };
    let events = fight([hero('a', [0, 0], 'N', { weapons: [javelin, sword] }), foe('v', [0, -3])]);
    expect(viewOf(events, 'a').hands).toEqual(['javelin', 'sword']);
    events = then(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' }, { dice: [4, 4, 4, 2, 2, 2, 2, 2] });
    expect(viewOf(events, 'a')).toMatchObject({ hands: [null, 'sword'], freeHands: 1 });
  });
});

describe('S52: How a thing is drawn (archsoul.txt: Draw Simple Item, Draw Awkward Item)', () => {
  const stowed = { weapons: [sword, { ...greatsword, held: false }, { id: 'spear', name: 'Spear', type: 'melee', damage: 2, reach: 2, twoHanded: true, properties: ['spear'], held: false }], shield: { ...buckler, held: false } };
  const unarmed = (events: RuleEvent[]) => then(events, { type: 'DropItem', combatantId: 'a', itemId: 'sword' });

  it('S52: a two-handed weapon takes Draw Awkward Item (2 AP); a spear wielded two-handed is drawn simply (1 AP)', () => {
    const events = unarmed(fight([hero('a', [0, 0], 'N', stowed)]));
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'greatsword' })).toMatchObject({ code: 'ARCHSOUL_AWKWARD_ITEM', field: 'itemId', message: expect.stringContaining('"Draw a two-handed weapon": Greatsword is two-handed') });
    const drawn = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'greatsword' });
    expect(find(drawn, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2 });
    const spear = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'spear' });
    expect(find(spear, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    expect(viewOf([...events, ...spear], 'a').hands).toEqual(['spear', 'spear']);
  });

  it('S52: a shield is equipped with Draw Awkward Item, and the refusal says so', () => {
    const events = fight([hero('a', [0, 0], 'N', stowed)]);
    const v = refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'buckler' });
    expect(v).toMatchObject({ code: 'ARCHSOUL_AWKWARD_ITEM', field: 'itemId', message: expect.stringContaining('"equip a shield": Buckler is a shield') });
    expect(v.message).not.toContain('two-handed');
    expect(types(exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' }))).toEqual(['ApSpent', 'ItemDrawn']);
  });

  it('S52: a shield picked up from the ground is carried, not equipped: equipping it is Draw Awkward Item', () => {
    let events = fight([hero('a', [0, 0], 'N', { shield: buckler }), foe('v', [0, -4])]);
    events = then(events, { type: 'DropItem', combatantId: 'a', itemId: 'buckler' });
    const picked = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    expect(find(picked, 'ItemDrawn')).toMatchObject({ itemId: 'buckler', from: 'ground' });
    events = [...events, ...picked];
    expect(viewOf(events, 'a')).toMatchObject({ held: ['sword'], freeHands: 1, shieldBonus: 0 });
    expect(stateOf(events).ground).toEqual([]);
    const equipped = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' });
    expect(find(equipped, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2, apLeft: 0 });
    expect(viewOf([...events, ...equipped], 'a')).toMatchObject({ hands: ['sword', 'buckler'], shieldBonus: 2 });
  });

  it('S52: stowage is derived from twoHanded; simple for a two-handed weapon that is not a spear is refused', () => {
    const s = validateSheet(sheet({ weapons: [greatsword, { ...dagger, stowage: 'awkward' }], items: [{ id: 'chest', name: 'Chest', twoHanded: true }] }), 's');
    expect([s.weapons.map((w) => w.stowage), s.items[0].stowage]).toEqual([['awkward', 'awkward'], 'awkward']);
    expect(() => validateSheet(sheet({ weapons: [{ ...greatsword, stowage: 'simple' }] }), 's')).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 's.weapons[0].stowage' }));
    expect(validateSheet(sheet({ weapons: [{ ...greatsword, properties: ['spear'] }] }), 's').weapons[0].stowage).toBe('simple');
  });
});

describe('The view shows what the engine enforces (archsoul.txt: Critical Failure Tables, Mounted Maneuvers, Being Grappled)', () => {
  it('speed after an ankle sprain ("decreasing movement by 1 for one round") is the speed a Move allows', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    // A fist attack: 3 dice, no success and two 1s; the unarmed table's face 2.
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v' }, { dice: [1, 1, 2], followUpFaces: [2] });
    expect(viewOf(events, 'a')).toMatchObject({ speed: 2, baseSpeed: 3 });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }] })).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', message: expect.stringContaining('may move 2 space(s)') });
  });

  it('speed of a mounted rider is the mount’s; dismounted, its own', () => {
    let events = fight([hero('a', [0, 0], 'N', { mount: { name: 'Horse', speed: 6 } })]);
    expect(viewOf(events, 'a')).toMatchObject({ speed: 6, baseSpeed: 3, mounted: true });
    events = then(events, { type: 'Dismount', combatantId: 'a' });
    expect(viewOf(events, 'a')).toMatchObject({ speed: 3, mounted: false });
  });

  it('Shield Bonus of a grappled combatant is 0, as an arrow finds it ("cannot ... benefit from using a shield")', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3], 'N', { shield: buckler }), foe('w', [0, -4], 'N', { weapons: [claws] })], { options: { arrowBreakage: false } });
    expect(viewOf(events, 'v').shieldBonus).toBe(2);
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'Grab', combatantId: 'w', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(viewOf(events, 'v')).toMatchObject({ shieldBonus: 0, hasFrontArc: false, held: ['sword', 'buckler'] });
    events = then(then(then(events, { type: 'EndTurn', combatantId: 'w' }), { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
    const shot = exact(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' }, { dice: [1, 2, 3, 2] });
    expect(find(shot, 'ExchangeResolved')).toMatchObject({ shieldBonus: 0 });
  });
});

describe('S53: Quick Attack after a reactive attack (archsoul.txt: Quick Attack: "a one-handed weapon that you have not yet made an attack with this round"; RULINGS.md C7)', () => {
  it('S53: a reactive attack with the sword in the enemies’ phase does not stop a Quick Attack with it in the hero’s own turn later that round', () => {
    // The enemies act first this round (v ranked above a): v walks out of a's reach and front arc; a reacts with its sword.
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N')]);
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    events = then(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, { dice: [2, 3, 2, 3] });
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['sword']);
    events = then(then(events, { type: 'ResumeAction', combatantId: 'v' }), { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -1 }] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    // C7: "this round" ends at a's next turn, which has just started.
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, attackedWith: [] });
    const quick = exact(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' }, { dice: [2, 3, 2, 3] });
    expect(find(quick, 'ExchangeResolved')).toMatchObject({ special: 'quick', weaponId: 'sword' });
    // An attack with the sword in its own turn does count.
    expect(refused([...events, ...quick], { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' })).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS' });
  });

  it('S53: a reactive attack made during the own turn’s round counts until the next own turn begins', () => {
    // a acts first, then v's Move draws a's reactive sword attack: a's next turn (round 2) frees the sword again.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    events = then(events, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' }, { dice: [2, 3, 2, 3] });
    expect(stateOf(events).combatants.a.attackedWith).toEqual(['sword']);
    events = then(then(events, { type: 'ResumeAction', combatantId: 'v' }), { type: 'EndTurn', combatantId: 'v' });
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).combatants.a).toMatchObject({ inTurn: true, attackedWith: [] });
  });
});

describe('S54: Trample from a back arc; the mover’s facing at a path’s first step (archsoul.txt: Trample, Move, Reactive Attack)', () => {
  const rider = { weapons: [sword], mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 } };

  it('S54: trampled from its back arc, an opponent set to stop cannot make the reactive attack: the rider passes and the mount rolls its trample damage', () => {
    const events = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'N', { size: 'small' })]);
    const out = exact(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }, { x: 0, y: -2 }, { x: 0, y: -3 }], trample: true }, { dice: [4, 4, 1] });
    expect(types(out)).toEqual(['ApSpent', 'WoundsApplied', 'Moved']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 's', damage: 2, source: 'a:Horse (trample)' });
    // Facing the rider, the same opponent is offered the leave-reach attack, then the trample's own.
    const facing = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'S', { size: 'small' })]);
    expect(find(exact(facing, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }, { x: 0, y: -2 }, { x: 0, y: -3 }], trample: true }), 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'leaveReach' });
    // An opponent set to avoid lets the rider pass: no attack, no trample damage.
    const avoid = fight([hero('a', [0, 0], 'N', rider), foe('s', [0, -2], 'N', { size: 'small', trampleResponse: 'avoid' })]);
    expect(types(exact(avoid, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: -1 }, { x: 0, y: -2 }, { x: 0, y: -3 }], trample: true }))).toEqual(['ApSpent', 'Moved']);
  });

  it('S54: a Charge through an opponent from its back arc tramples it with the Charge’s dice; the attack’s pools come later', () => {
    const lancer = { weapons: [{ id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] }], mount: rider.mount };
    const events = fight([hero('a', [0, 0], 'N', lancer), foe('s', [0, -2], 'N', { size: 'small' }), foe('v', [0, -5])]);
    const north = [1, 2, 3, 4].map((i) => ({ x: 0, y: -i }));
    // The trample roll comes with the Charge (4,1,1: 1 damage); past s, leaving the space in its front arc is offered to s.
    const charged = exact(events, { type: 'Charge', combatantId: 'a', path: north, targetId: 'v', weaponId: 'lance', trample: true }, { dice: [4, 1, 1] });
    expect(types(charged)).toEqual(['ApSpent', 'WoundsApplied', 'Moved', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(charged, 'WoundsApplied')).toMatchObject({ combatantId: 's', damage: 1, source: 'a:Horse (trample)' });
    const declined = then([...events, ...charged], { type: 'DeclineReactiveAttack', combatantId: 's' });
    // The lance attack's pools go with the resume: attack 4,4,1,2 (2 > 1), damage 4 then 1s (the mount's speed adds 3 dice).
    const out = exact(declined, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionResumed', 'Moved', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1 });
  });

  it('S54: a reactive attack on leaving the start space finds the mover still facing as before the Move', () => {
    // a faces v and walks away from it: v's attack comes before the step, into a's front arc; prevented, a keeps facing N.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    const hit = exact(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, { dice: [4, 4, 4, 1, 4, 4, 4, 4, 1, 1, 1, 1] });
    expect(find(hit, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', hit: true });
    expect(find(hit, 'PreventionRolled')).toMatchObject({ prevented: true });
    expect(stateOf([...events, ...hit]).combatants.a).toMatchObject({ position: { x: 0, y: 0 }, facing: 'N' });
  });

  it('S54: a later trigger finds the mover facing along the step that brought it into the space it leaves', () => {
    // a starts facing S (v behind it) and steps north into v's reach (facing NW now), then leaves: v is in a's front arc.
    let events = fight([hero('a', [0, 1], 'S'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 0 }, { x: 1, y: 0 }] });
    expect(find(events, 'Moved')).toMatchObject({ to: { x: 0, y: 0 }, facing: 'NW', stoppedBefore: 1 });
    const out = exact(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, { dice: [2, 3, 2, 3] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', hit: false });
  });
});
