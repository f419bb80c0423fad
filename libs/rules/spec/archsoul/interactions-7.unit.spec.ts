/**
 * Interactions between two or more rules of archsoul.txt: whole fights of several rounds, worked by hand
 * from the text and checked step by step against the engine, and what the text allows or forbids at its boundaries.
 * Each title quotes the text's words; the comments give the arithmetic. Default sheet (helpers.ts): Precision,
 * Athletics, Endurance 2, Soulpower, Intellect 1; Melee Weapons 2, Ranged Weapons 2, Primitive Attacks 1, Weapon
 * Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword (base 2, not light). So a sword attack rolls 4 dice
 * (Precision/Melee Weapons) and its damage 5 (Athletics/Weapon Mastery/base); a punch 3 dice (Precision/Primitive
 * Attacks) and 2 for damage (Athletics/unarmed 0); the Endurance/Resolve roll 3 dice at 3; a grapple roll 3 dice (the
 * unarmed roll beats Athletics/Agility's 2). A success is a die at or above the difficulty (4 unless said); a hit needs
 * more successes than the Defense (S3).
 */
import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';
import { RuleEvent } from '../../src/core/types';

const at = (x: number, y: number) => ({ x, y });

describe('Fight 1: a fumble’s “for one round”, a reactive attack and a foe who flees (archsoul.txt: Critical Failure Tables, Reactive Attack, Turn Order)', () => {
  it('“Fall off balance, decreasing your defense by 1 for one round” lasts through the enemies’ phase and ends as the hero’s next turn starts; “once per target per attacker per turn”; the round goes on without a foe who left', () => {
    // Given hero a (fist and sword) facing north at (0, 0), v facing south at (0, −1) and w far off; a ranks first,
    // so round 1 is a's phase, then the enemies' (Turn Order).
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), foe('w', [3, -5], 'S')]);
    expect(stateOf(events).phase).toMatchObject({ round: 1, party: 'heroes', combatantIds: ['a'] });

    // Round 1, a punches v (Attack 2 AP; 3 dice: 1, 1, 1: no success and more than half on 1, a critical failure);
    // the unarmed table's 4th entry: "Fall off balance, decreasing your defense by 1 for one round".
    const punch = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist' },
      { dice: [1, 1, 1], followUpFaces: [4] },
    );
    expect(types(punch)).toEqual([
      'ApSpent',
      'ExchangeResolved',
      'CriticalFailureRolled',
      'ConditionApplied',
    ]);
    expect(find(punch, 'ExchangeResolved')).toMatchObject({ hit: false });
    expect(find(punch, 'ConditionApplied')).toMatchObject({ condition: 'defenseDown', amount: 1 });
    events = [...events, ...punch];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 1 });

    // a ends its turn: the heroes' phase ends and the enemies' opens (v and w, one GM roll).
    const ended = exact(events, { type: 'EndTurn', combatantId: 'a' });
    expect(types(ended)).toEqual(['TurnEnded', 'PhaseEnded', 'PhaseStarted', 'TurnStarted', 'TurnStarted']);
    expect(find(ended, 'TurnEnded')).toMatchObject({ apLost: 1 });
    events = [...events, ...ended];

    // v strikes a with its sword: 4, 1, 1, 1 is one success; a's Defense is 1 − 1 = 0, so one success hits; damage
    // 5 dice 4, 4, 1, 1, 1 = 2: a goes from 10 to 8 HP. (At Defense 1 the same roll would miss.)
    const blow = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'sword' },
      { dice: [4, 1, 1, 1, 4, 4, 1, 1, 1] },
    );
    expect(find(blow, 'ExchangeResolved')).toMatchObject({ hit: true, defense: 0, resistance: 0 });
    expect(find(blow, 'WoundsApplied')).toMatchObject({ damage: 2, hpBefore: 10, hp: 8 });
    events = [...events, ...blow];

    // The GM ends the enemies' phase: round 1 is over; a still has Defense 0 (its next turn has not started).
    events = then(events, { type: 'EndPhase' });
    expect(stateOf(events).roundOpen).toBe(false);
    expect(stateOf(events).combatants.a.conditions).toHaveLength(1);

    // Round 2: a's turn starts: 3 AP, and the "one round" is over.
    const round2 = exact(events, { type: 'StartRound' });
    expect(find(round2, 'TurnStarted')).toMatchObject({ combatantId: 'a', ap: 3, expired: ['defenseDown'] });
    events = [...events, ...round2];
    expect(stateOf(events).combatants.a.conditions).toEqual([]);

    // a walks south, out of v's reach and front arc: v's sword comes first (4, 4, 1, 1 = 2 > 1), damage 4, 1, 1, 1, 1 =
    // 1 (8 → 7 HP); a's Endurance/Resolve, 3 dice at 3: 3, 1, 1 = 1 does not exceed 1: the Move is prevented, its AP spent.
    events = then(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    const reacted = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 1, 4, 1, 1, 1, 1, 3, 1, 1] },
    );
    expect(find(reacted, 'WoundsApplied')).toMatchObject({ damage: 1, hp: 7 });
    expect(find(reacted, 'PreventionRolled')).toMatchObject({ damage: 1, prevented: true });
    events = [...events, ...reacted];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, position: at(0, 0), hp: 7 });

    // Walking out again this turn: "(once per target per attacker per turn)": v is not offered a second reaction.
    const again = exact(events, { type: 'Move', combatantId: 'a', path: [at(0, 1)] });
    expect(types(again)).toEqual(['ApSpent', 'Moved']);
    events = [...events, ...again];

    // v flees: the GM removes it during a's phase; when a ends its turn the enemies' phase opens with w alone.
    events = then(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'fled' });
    const handOver = exact(events, { type: 'EndTurn', combatantId: 'a' });
    expect(find(handOver, 'PhaseStarted')).toMatchObject({ round: 2, party: 'enemies', combatantIds: ['w'] });
    events = [...events, ...handOver];
    // w ends its turn, the last of the round.
    const last = exact(events, { type: 'EndTurn', combatantId: 'w' });
    expect(types(last)).toEqual(['TurnEnded', 'PhaseEnded', 'RoundEnded']);
  });
});

describe('Fight 2: a grapple over two rounds (archsoul.txt: Grab, Being Grappled, Gaining Control, Grappling: Attack, Escape, Takedown)', () => {
  it('Gaining Control: “In the case of a tie during a grapple roll, the person in control wins the tie”: control passes back and forth, and the grapple ends when a partner leaves the fight', () => {
    // Given a (no weapon: both hands empty) facing north at (0, 0), v (sword) facing south at (0, −1).
    let events = fight([hero('a', [0, 0], 'N', { weapons: [] }), foe('v', [0, -1], 'S')]);

    // Round 1: a grabs v (2 AP): "triggers a reactive attack from the person you are trying to grapple"; v declines.
    events = then(events, { type: 'Grab', combatantId: 'a', targetId: 'v' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    // The Grab: a's unarmed roll 4, 4, 1 = 2 against v's best grapple roll (unarmed 3 dice) 4, 1, 1 = 1: grappled,
    // a in control.
    const grabbed = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(find(grabbed, 'GrappleStarted')).toMatchObject({ memberIds: ['a', 'v'], controlId: 'a' });
    events = [...events, ...grabbed];
    expect(stateOf(events).combatants.a.ap).toBe(1);

    // Grappling Attack (1 AP): 4, 4, 4 = 3 against 4, 1, 1 = 1; unarmed damage 2 dice 4, 4 = 2: v 10 → 8 HP.
    const squeeze = exact(
      events,
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 4, 4, 1, 1, 4, 4] },
    );
    expect(find(squeeze, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8 });
    events = then([...events, ...squeeze], { type: 'EndTurn', combatantId: 'a' });

    // The enemies' phase: "you may not attack with a weapon … or perform a regular move action".
    expect(refused(events, { type: 'Move', combatantId: 'v', path: [at(0, -2)] })).toMatchObject({
      code: 'ARCHSOUL_GRAPPLED',
    });
    expect(
      refused(events, { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_GRAPPLED' });
    // Escape (2 AP): 4, 4, 1 = 2 against a's 4, 4, 1 = 2: a tie, and a, in control, wins it: v is still held.
    const escape = exact(
      events,
      { type: 'Escape', combatantId: 'v', targetId: 'a' },
      { dice: [4, 4, 1, 4, 4, 1] },
    );
    expect(types(escape)).toEqual(['ApSpent', 'GrappleRolled']);
    expect(find(escape, 'GrappleRolled')).toMatchObject({ winnerId: 'a', success: false });
    events = [...events, ...escape];
    // v's last AP: a Grappling Attack (1 AP): 4, 4, 4 = 3 against a's 1, 1, 4 = 1: "Succeeding on a grapple roll causes
    // you to gain control of the grapple"; unarmed damage 4, 1 = 1: a 10 → 9 HP.
    const punch = exact(
      events,
      { type: 'GrappleAttack', combatantId: 'v', targetId: 'a' },
      { dice: [4, 4, 4, 1, 1, 4, 4, 1] },
    );
    expect(types(punch)).toEqual(['ApSpent', 'GrappleRolled', 'GrappleControlChanged', 'WoundsApplied']);
    expect(find(punch, 'GrappleControlChanged')).toMatchObject({ controlId: 'v' });
    expect(find(punch, 'WoundsApplied')).toMatchObject({ damage: 1, hp: 9 });
    events = then([...events, ...punch], { type: 'EndTurn', combatantId: 'v' });
    expect(stateOf(events).roundOpen).toBe(false);

    // Round 2: Takedown "Requires Control", which v has now.
    events = then(events, { type: 'StartRound' });
    expect(refused(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_GRAPPLE_NO_CONTROL',
    });
    // a punches (Attack, 2 AP), one of "all other actions" that "require a successful grapple roll to attempt": 4, 4, 1
    // ties v's 4, 4, 1; v, in control, wins the tie: a's 2 AP are spent and nothing else happens.
    const tied = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'fist' },
      { dice: [4, 4, 1, 4, 4, 1] },
    );
    expect(types(tied)).toEqual(['GrappleRolled', 'ApSpent']);
    expect(find(tied, 'GrappleRolled')).toMatchObject({ winnerId: 'v', success: false });
    events = [...events, ...tied];
    expect(stateOf(events).combatants.a.ap).toBe(1);

    // v is taken off the table (S49): the grapple ends, a is free, and its regular Move (its last AP) goes into v's old
    // space.
    const gone = exact(events, { type: 'RemoveCombatant', combatantId: 'v', reason: 'surrendered' });
    expect(types(gone)).toEqual(['GrappleEnded', 'ConditionRemoved', 'ConditionRemoved', 'CombatantRemoved']);
    events = [...events, ...gone];
    const walk = exact(events, { type: 'Move', combatantId: 'a', path: [at(0, -1)] });
    expect(types(walk)).toEqual(['ApSpent', 'Moved']);
    events = [...events, ...walk];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 0, position: at(0, -1), conditions: [] });
    // Nobody is left in the enemies' phase: a's EndTurn ends the round.
    expect(types(exact(events, { type: 'EndTurn', combatantId: 'a' }))).toEqual([
      'TurnEnded',
      'PhaseEnded',
      'RoundEnded',
    ]);
  });
});

describe('Fight 3: an ambush, a study over two turns and a sneak attack (archsoul.txt: Ambushes, Sneak Attack; C8)', () => {
  const ambushed = () => {
    // Given hero a facing south at (0, −4) and v facing south at (0, −1) (a is behind v), the heroes surprising.
    let events = fight([hero('a', [0, -4], 'S'), foe('v', [0, -1], 'S')], { round: false });
    events = then(events, { type: 'DeclareAmbush', party: 'heroes' });
    return then(events, { type: 'StartRound' });
  };

  it('Ambushes: “freely move up to their base movement speed during the first round of combat without spending any action points”; Sneak Attack: “at least three consecutive actions (though they do not have to be on the same turn)”', () => {
    let events = ambushed();
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 3, freeMove: 3 });
    // Round 1: a walks free 2 spaces, to (0, −2), just behind v (out of v's front arc: no reaction).
    const free = exact(events, { type: 'Move', combatantId: 'a', path: [at(0, -3), at(0, -2)], free: true });
    expect(types(free)).toEqual(['Moved']);
    events = [...events, ...free];
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 3, freeMove: 1, position: at(0, -2) });
    // The GM marks v unaware; a studies it twice (1 AP each), then ends its turn with 1 AP unspent.
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' });
    // Round 2: no free movement is left ("during the first round of combat"), but the studies are.
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).combatants.a).toMatchObject({
      ap: 3,
      freeMove: 0,
      study: { targetId: 'v', count: 2 },
    });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [at(1, -3)], free: true })).toMatchObject({
      code: 'ARCHSOUL_NO_FREE_MOVE',
    });
    // Two studies are not enough; the third (1 AP) completes them.
    const early = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true };
    expect(refused(events, early)).toMatchObject({ code: 'ARCHSOUL_SNEAK_NOT_STUDIED' });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    // The sneak attack (2 AP) into v's back arc: 4, 4, 1, 1 = 2 > 1; damage 5 dice at 3 (4 − 1, "decreased by 1"):
    // 3, 3, 3, 1, 1 = 3: v 10 → 7 HP; v is no longer unaware.
    const strike = exact(events, early, { dice: [4, 4, 1, 1, 3, 3, 3, 1, 1] });
    expect(types(strike)).toEqual(['ApSpent', 'ExchangeResolved', 'WoundsApplied', 'ConditionRemoved']);
    expect(find(strike, 'ExchangeResolved')).toMatchObject({
      targetArc: 'back',
      hit: true,
      maneuvers: ['sneak'],
    });
    expect(find(strike, 'WoundsApplied')).toMatchObject({ damage: 3, hp: 7, damageRoll: { difficulty: 3 } });
    const after = [...events, ...strike];
    expect(stateOf(after).combatants.a).toMatchObject({ ap: 0 });
    expect(stateOf(after).combatants.a.study).toBeUndefined();

    // C8: the GM undoes the sneak attack: the state is the fold of the events not undone: a has its 2 AP and its 3
    // studies again, and v is unaware, so the same attack may be declared again.
    const undone: RuleEvent[] = events;
    expect(stateOf(undone).combatants.a).toMatchObject({ ap: 2, study: { targetId: 'v', count: 3 } });
    expect(stateOf(undone).combatants.v.conditions.map((k) => k.condition)).toEqual(['unaware']);
  });

  it('Ambushes: the free movement is “up to their base movement speed”: 3 spaces, not 4, and it spends no AP even when none are left', () => {
    let events = ambushed();
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [at(0, -3), at(0, -2), at(-1, -2), at(-1, -1)],
        free: true,
      }),
    ).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR' });
    // a spends its 3 AP studying v first (3 × 1 AP), then walks free its whole 3 spaces at 0 AP.
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    expect(stateOf(events).combatants.a.ap).toBe(0);
    const free = exact(events, {
      type: 'Move',
      combatantId: 'a',
      path: [at(0, -3), at(0, -2), at(-1, -2)],
      free: true,
    });
    expect(types(free)).toEqual(['Moved']);
    expect(stateOf([...events, ...free]).combatants.a).toMatchObject({ ap: 0, freeMove: 0 });
  });
});
