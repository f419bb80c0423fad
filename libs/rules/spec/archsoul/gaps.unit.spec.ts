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
