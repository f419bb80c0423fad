/**
 * Interactions between two or more rules of archsoul.txt, worked by hand from the text and checked
 * against the engine with given/when/then tests. Each title quotes the text's words; the comments give the arithmetic.
 * Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee Weapons 2, Ranged
 * Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword (base 2). So a
 * sword attack rolls 4 dice and its damage 5; a punch (the fist) 3 dice and its damage Athletics 2; the
 * Endurance/Resolve prevention roll 3 dice at 3.
 */
import { RuleEvent } from '../../src/core/types';
import {
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  javelin,
  refused,
  rider,
  stateOf,
  then,
  types,
  unarmed,
} from './helpers';

const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ x: from + i + 1, y: 0 }));
/** Ends the running (last) phase of the round and starts the next round. */
const nextRound = (events: RuleEvent[]) => then(then(events, { type: 'EndPhase' }), { type: 'StartRound' });

describe('Sneak Attack’s studies and a reactive attack between them (archsoul.txt: Sneak Attack, Reactive Attack, RULINGS.md S30)', () => {
  it('S87: Sneak Attack: “at least three consecutive actions (though they do not have to be on the same turn) studying” + Reactive Attack: “without spending action points”: a reactive attack between the studies does not break them', () => {
    // Given a studying v (unaware, north of it) twice on its turn, w beside it in its front arc and reach;
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N'), foe('w', [1, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    // when w walks out of a's reach and front arc on the enemies' turn and a reacts (sword 1, 1, 2, 2: a miss, no
    // critical failure with only half the dice on 1), and w walks on;
    events = then(events, { type: 'Move', combatantId: 'w', path: [{ x: 2, y: -2 }] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
    const reacted = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
      { dice: [1, 1, 2, 2] },
    );
    expect(find(reacted, 'ExchangeResolved')).toMatchObject({ attackerId: 'a', targetId: 'w', hit: false });
    expect(types(reacted)).not.toContain('ApSpent');
    events = then([...events, ...reacted], { type: 'ResumeAction', combatantId: 'w' });
    // then the two studies stand, and a third on a's next turn allows the sneak attack: 4 dice 4, 4, 1, 1 = 2 > 1;
    // the damage 5 dice at 3 (4 less the sneak's 1): 3, 3, 1, 1, 1 = 2.
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 2 });
    events = nextRound(events);
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 3 });
    const sneak = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true },
      { dice: [4, 4, 1, 1, 3, 3, 1, 1, 1] },
    );
    expect(find(sneak, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 3 } });
  });
});

describe('A mounted jump (archsoul.txt: Jumping, Mounted Maneuvers, RULINGS.md S35, S36)', () => {
  // Athletics 4 + ½ × Conditioning 2 = 5 m: 2 spaces; the rider's own speed 1, its horse's 5.
  const leaper = {
    ...rider,
    attributes: { ...unarmed.attributes, athletics: 4 },
    skills: { ...unarmed.skills, conditioning: 2 },
    speed: 1,
    mount: { ...rider.mount, speed: 5 },
  };

  it('S88: Jumping: “a distance in meters equal to your Athletics attribute plus half your Conditioning skill” + “You cannot normally jump further than you could walk”: mounted, the rider’s Athletics and Conditioning give the jump, the mount’s speed the walk', () => {
    const events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6], 'S')]);
    // Given a mounted rider, when it jumps 2 spaces east, then it lands: its walk is the horse's 5, not its own 1;
    expect(
      find(exact(events, { type: 'Move', combatantId: 'a', path: east(0, 2), jump: true }), 'Moved'),
    ).toMatchObject({ jump: true, to: { x: 2, y: 0 } });
    // and a jump of 3 is refused, though the horse walks 5: the jump's length is the rider's 5 m.
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(0, 3), jump: true })).toMatchObject({
      code: 'ARCHSOUL_JUMP_TOO_FAR',
      field: 'path',
    });
    // On foot, its own speed 1 caps the same 2-space jump ("no further than you could walk").
    const afoot = then(events, { type: 'Dismount', combatantId: 'a' });
    expect(refused(afoot, { type: 'Move', combatantId: 'a', path: east(0, 2), jump: true })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
    });
  });
});

describe('The ambush’s free movement while grappled (archsoul.txt: Ambushes, Being Grappled, RULINGS.md S33, S77, S80)', () => {
  it('S89: Ambushes: “freely move up to their base movement speed” + Being Grappled: “you may not … perform a regular move action”: a grappled member of the surprising party walks free only once the grapple ends', () => {
    // Given an ambush by the heroes with v ranked first: v (its back to a) grabs a before a's first turn (v's unarmed
    // 4, 4, 1 = 2 against a's 4, 1, 1 = 1; a faces away, so it cannot react);
    let events = fight([foe('v', [0, -1], 'N'), hero('a', [0, 0], 'S')], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    expect(stateOf(events).combatants.a).toMatchObject({ freeMove: 3, ap: 3 });
    // when a, grappled, walks free, then it is refused as a regular move, nothing spent;
    expect(refused(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) })).toMatchObject({
      code: 'ARCHSOUL_GRAPPLED',
      field: 'combatantId',
    });
    // when it escapes (2 AP; a's unarmed 4, 4, 1 = 2 against v's 4, 1, 1 = 1), then its free movement is still there,
    // and it walks its 3 spaces free, its last AP untouched.
    events = then(events, { type: 'Escape', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(stateOf(events).grapples).toEqual([]);
    const walked = exact(events, { type: 'Move', combatantId: 'a', free: true, path: east(0, 3) });
    expect(types(walked)).toEqual(['Moved']);
    expect(stateOf([...events, ...walked]).combatants.a).toMatchObject({
      position: { x: 3, y: 0 },
      ap: 1,
      freeMove: 0,
    });
  });
});

describe('Hand-worked cases from the text’s less-tested sentences (archsoul.txt: Throw an Item, Reckless Attack, Unarmed, Hold Firm, Reactive Attack)', () => {
  it('Throw an Item: “Thrown weapon attacks add athletics to damage and trigger reactive attacks”: a javelin thrown past a foe who faces the thrower is held for its reaction, then rolls Athletics/Weapon Mastery/base damage', () => {
    // Given a holding a javelin, v adjacent and facing it, w 3 spaces off (within the javelin's accurate range 3);
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [javelin] }),
      foe('v', [0, -1], 'S'),
      foe('w', [2, -3], 'S'),
    ]);
    // when a throws at w, then the throw (1 AP) is held for v's reactive attack;
    const thrown = exact(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'w' });
    expect(types(thrown)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(thrown, 'ApSpent')).toMatchObject({ ap: 1 });
    expect(find(thrown, 'ReactiveAttackTriggered')).toMatchObject({ reactorIds: ['v'] });
    // v declines; the throw: Precision 2 + Primitive Attacks 1 = 3 dice 4, 4, 1 = 2 > Defense 1; damage Athletics 2 +
    // Weapon Mastery 1 + base 2 = 5 dice at 4: 4, 4, 4, 1, 1 = 3.
    const declined = then([...events, ...thrown], { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const out = exact(
      declined,
      { type: 'ResumeAction', combatantId: 'a' },
      { dice: [4, 4, 1, 4, 4, 4, 1, 1] },
    );
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'w',
      damage: 3,
      damageRoll: { pool: 5, difficulty: 4 },
    });
  });

  it('Reckless Attack: “Perform a strong attack with a melee weapon” + Unarmed: “treated the same as melee weapon attacks for the purposes of maneuvers”: a reckless punch is allowed, 2 harder to hit and 1 easier to damage; a reckless shot is not', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')]);
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        targetId: 'v',
        weaponId: 'bow',
        special: 'reckless',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_RECKLESS_ATTACK_MELEE', field: 'weaponId' });
    // The punch: 3 dice at 4 + 2 = 6: 6, 6, 1 = 2 > 1; damage Athletics 2 dice at 4 − 1 = 3: 3, 3 = 2; 3 AP.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist', special: 'reckless' },
      { dice: [6, 6, 1, 3, 3] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 3 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 6 } });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 3 } });
  });

  it('Hold Firm: “attacks against your back arc are treated as if they were attacking your front arc” + Reactive Attack: “b) within your front arc”: a combatant holding firm makes no reactive attack against a foe leaving its back arc', () => {
    // Given a holding firm (2 AP), v adjacent in its back arc;
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, 1], 'S')]);
    events = then(events, { type: 'HoldFirm', combatantId: 'a' });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    // when v walks out of a's reach, then nothing is offered to a: Hold Firm turns attacks against a, not a's arc.
    const out = exact(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: 2 }] });
    expect(types(out)).toEqual(['ApSpent', 'Moved']);
  });
  it('Grab: “The opponent may defend with either an unarmed attack roll of their own or an Athletics/Agility roll” + Grapple Rolls: “The difficulty of these rolls may increase or decrease based on the size of the opponent”: a large, agile target defends with Athletics/Agility at 3, the grabber rolls at 5', () => {
    // Given v, large, with Agility 3: Athletics 2 + Agility 3 = 5 dice, more than its unarmed 3 (S33: the better);
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [] }),
      foe('v', [0, -1], 'N', { size: 'large', skills: { ...unarmed.skills, agility: 3 } }),
    ]);
    // when a (medium, its back to nobody: v faces away) grabs it: a's unarmed 3 dice at 4 + 1 (one size step smaller)
    // = 5: 5, 5, 4 = 2; v's 5 dice at 4 − 1 = 3: 3, 3, 1, 1, 1 = 2: a tie, which the Grab loses (S33);
    const out = exact(
      events,
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [5, 5, 4, 3, 3, 1, 1, 1] },
    );
    const rolled = find(out, 'GrappleRolled');
    expect(rolled).toMatchObject({
      purpose: 'Grab',
      success: false,
      actor: { pool: 3, difficulty: 5, successes: 2 },
      opponent: { pool: 5, difficulty: 3, successes: 2 },
    });
    // then no grapple begins, and the 2 AP are spent.
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(stateOf([...events, ...out]).grapples).toEqual([]);
  });
  it('Recovering Projectile Weapons: “When it misses, it drops to the ground at the end of its maximum range unless some obstacle stops it”: a missed javelin lands before a blocked space on its line', () => {
    // Given a javelin (maximum range 6) thrown north at v 2 spaces off, a blocked space 4 spaces off on that line;
    const events = fight([hero('a', [0, 0], 'N', { weapons: [javelin] }), foe('v', [0, -2], 'N')], {
      map: { blocked: [{ x: 0, y: -4 }] },
    });
    // when it misses (3 dice 4, 2, 3 = 1, not above Defense 1; not 0, which lands beside the target),
    const out = exact(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 2, 3] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false });
    // then it lands in the last space before the obstacle, not at 6.
    expect(find(out, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -3 } });
  });
});
