/**
 * Interactions between two or more rules of archsoul.txt (from "Free Actions" on), worked by hand from the
 * text and checked against the engine with given/when/then tests. Each title quotes the text's words; the comments
 * give the arithmetic. Default sheet (helpers.ts): Precision, Athletics, Endurance 2, Soulpower, Intellect 1; Melee
 * Weapons 2, Ranged Weapons 2, Primitive Attacks 1, Weapon Mastery 1, Resolve 1; Defense 1, 10 HP, speed 3; a sword
 * (base 2). So a sword attack rolls 4 dice and its damage 5; a punch (the fist) 3 dice and its damage Athletics 2;
 * a throw 3 dice; a grapple roll the better of the unarmed roll (3 dice) and Athletics/Agility (2); the
 * Endurance/Resolve prevention roll 3 dice at 3.
 */
import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, foe, hero, javelin, refused, stateOf, sword, then, types } from './helpers';

const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ x: from + i + 1, y: 0 }));
/** Ends the running round: every open turn of both phases. */
const nextRound = (events: RuleEvent[]) =>
  then(then(then(events, { type: 'EndPhase' }), { type: 'EndPhase' }), { type: 'StartRound' });
/** A critical failure of a 4-die sword roll (zero successes, three 1s); of a 3-die punch or throw. */
const FUMBLE4 = [1, 1, 1, 2];
const FUMBLE3 = [1, 1, 2];
/** a grabs v from behind (v faces away): a's unarmed 4, 4, 1 = 2 against v's 4, 1, 1 = 1; a controls. */
const grappled = (extra: Record<string, unknown> = {}) =>
  then(
    fight([hero('a', [0, 0], 'N', extra), foe('v', [0, -1], 'N')]),
    { type: 'Grab', combatantId: 'a', targetId: 'v' },
    { dice: [4, 4, 1, 4, 1, 1] },
  );

describe('Free actions, turns and AP (archsoul.txt: Free Actions, Reckless Attack, Turn Order, RULINGS.md S12)', () => {
  it('Free Actions: “require no action points, but are still limited to your turn” + the heroes’ phase: a hero whose turn has ended may not drop an item, turn or drop to the ground while another hero’s turn runs', () => {
    let events = fight([hero('a', [0, 0]), hero('b', [2, 0]), foe('v', [0, -5])]);
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    expect(stateOf(events).phase).toMatchObject({ party: 'heroes' });
    for (const command of [
      { type: 'DropItem', combatantId: 'a', itemId: 'sword' },
      { type: 'Turn', combatantId: 'a', facing: 'S' },
      { type: 'DropProne', combatantId: 'a' },
    ])
      expect(refused(events, command).code).toMatch(/TURN/);
    // b's turn still runs: its free actions are allowed.
    expect(types(exact(events, { type: 'DropItem', combatantId: 'b', itemId: 'sword' }))).toEqual([
      'ItemDropped',
    ]);
  });

  it('Free Actions: “require no action points” + Reckless Attack “3 AP”: with no AP left the attacker still drops its sword, turns and drops to the ground, spending nothing', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1])]);
    // Precision 2 + Melee Weapons 2 at 4 + 2 = 6: 6, 6, 1, 2 = 2 > Defense 1; damage at 3: 3, 3, 3, 1, 1 = 3.
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'reckless' },
      { dice: [6, 6, 1, 2, 3, 3, 3, 1, 1] },
    );
    expect(stateOf(events).combatants.a.ap).toBe(0);
    const dropped = exact(events, { type: 'DropItem', combatantId: 'a', itemId: 'sword' });
    events = [...events, ...dropped];
    const turned = exact(events, { type: 'Turn', combatantId: 'a', facing: 'S' });
    events = [...events, ...turned];
    const prone = exact(events, { type: 'DropProne', combatantId: 'a' });
    expect([...dropped, ...turned, ...prone].some((e) => e.type === 'ApSpent')).toBe(false);
    expect(stateOf([...events, ...prone]).combatants.a).toMatchObject({ ap: 0, facing: 'S' });
  });
});

describe('Draws, throws and pick-ups (archsoul.txt: Draw Simple Item, Draw Awkward Item, Throw an Item, Reactive Attack, Critical Failure Tables)', () => {
  const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };

  it('Draw Awkward Item: “The two actions need to be consecutive, but do not need to be on the same turn” + Free Actions between the halves: dropping and turning are no actions, so the second half still finishes the draw', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [sword, greatsword] }), foe('v', [0, -9])]);
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 1) });
    events = then(events, { type: 'Move', combatantId: 'a', path: east(1, 1) });
    // Both hands are needed: the sword is dropped (free), then the last AP starts the awkward draw.
    events = then(events, { type: 'DropItem', combatantId: 'a', itemId: 'sword' });
    const started = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'greatsword' });
    expect(types(started)).toEqual(['ApSpent', 'AwkwardDrawStarted']);
    events = nextRound([...events, ...started]);
    events = then(events, { type: 'Turn', combatantId: 'a', facing: 'S' });
    const finished = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'greatsword' });
    expect(find(finished, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 2 });
    expect(find(finished, 'ItemDrawn')).toMatchObject({ combatantId: 'a', itemId: 'greatsword' });
  });

  it('Throw an Item “trigger reactive attacks” + “it has a chance of preventing the action from happening at all”: a prevented throw keeps the javelin in hand and spends its 1 AP; the next throw is reacted to again (only the move out of reach is once per turn)', () => {
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [sword, javelin] }),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -3]),
    ]);
    // The sheet starts with the sword and the javelin in hand (S51).
    events = then(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'w' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    // v: 6, 6, 1, 1 = 2 > 1; damage 6, 6, 6, 1, 1 = 3; a's Endurance/Resolve 1, 1, 1 = 0: prevented.
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [6, 6, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1] },
    );
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 2, held: ['sword', 'javelin'] });
    const again = exact(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'w' });
    expect(types(again)).toContain('ReactiveAttackOffered');
    expect(find(again, 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'v' });
  });

  it('“Weapon slips and drops at your feet” + Draw Simple Item “pick an item up from the ground” + Reactive Attack “Picking an item up from the ground”: the last AP picks the sword up, and the target facing the attacker may react first', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    const fumbled = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [1] },
    );
    expect(find(fumbled, 'ItemDropped')).toMatchObject({ combatantId: 'a', itemId: 'sword' });
    events = [...events, ...fumbled];
    const groundId = stateOf(events).ground.find((g) => g.itemId === 'sword')!.groundId;
    const pick = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId });
    expect(find(pick, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 0 });
    expect(find(pick, 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'v' });
  });
});

describe('Critical failures, stances and phases (archsoul.txt: Critical Failure Tables, Hold Firm, Reactive Attack, Sneak Attack, Unarmed, RULINGS.md C7)', () => {
  it('“Leave yourself open, triggering a reactive attack from your target” + Hold Firm: “treated as if they were attacking your front arc” is about attacks only, so a target holding firm with the attacker behind it makes no reactive attack', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(events, {
      type: 'ApplyCondition',
      combatantId: 'v',
      condition: 'holdFirm',
      untilNextTurn: true,
    });
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [5] },
    );
    expect(types(out)).not.toContain('ReactiveAttackTriggered');
    expect(stateOf([...events, ...out]).pending).toBeUndefined();
  });

  it('“Fall off balance, decreasing your defense by 1 for one round” + a reactive attack in the enemies’ phase: Defense 0 against the next enemy’s attack that phase, and 1 again when the hero’s own turn starts (C7)', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S'), foe('w', [1, -1], 'S')]);
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    expect(stateOf(events).phase).toMatchObject({ party: 'enemies' });
    // v walks out of a's reach and front arc; a reacts and fumbles: the melee table's 4.
    events = then(events, {
      type: 'Move',
      combatantId: 'v',
      path: [
        { x: -1, y: -1 },
        { x: -2, y: -1 },
      ],
    });
    events = then(
      events,
      { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
      { dice: FUMBLE4, followUpFaces: [4] },
    );
    expect(stateOf(events).combatants.a.conditions).toContainEqual(
      expect.objectContaining({ condition: 'defenseDown', amount: 1 }),
    );
    // w: 4, 1, 1, 1 = 1 success > Defense 0: a hit (it would miss against 1).
    const hit = exact(
      then(events, { type: 'ResumeAction', combatantId: 'v' }),
      { type: 'Attack', attackerId: 'w', targetId: 'a', weaponId: 'sword' },
      { dice: [4, 1, 1, 1, 4, 1, 1, 1, 1] },
    );
    expect(find(hit, 'ExchangeResolved')).toMatchObject({ hit: true });
    events = then(then(events, { type: 'ResumeAction', combatantId: 'v' }), { type: 'EndPhase' });
    events = then(events, { type: 'StartRound' });
    expect(stateOf(events).combatants.a.conditions).toEqual([]);
  });

  it('Sneak Attack: “Sneak attacks made with a melee weapon cannot critically miss” + Unarmed: “treated the same as melee weapon attacks for the purposes of maneuvers”: a fumbled sneak punch rolls no table', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = nextRound(events);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', sneak: true },
      { dice: FUMBLE3 },
    );
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'ConditionRemoved']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false });
  });

  it('“Ankle sprains, decreasing movement by 1 for one round” + Quick Attack (1 AP) + Move: the two Moves left that turn cover 2 spaces each; at the hero’s next turn 3 again', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'quick' },
      { dice: FUMBLE3, followUpFaces: [2] },
    );
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(0, 3) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 2) });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(2, 3) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
    events = nextRound(then(events, { type: 'Move', combatantId: 'a', path: east(2, 2) }));
    expect(find(exact(events, { type: 'Move', combatantId: 'a', path: east(4, 3) }), 'Moved')).toMatchObject({
      distance: 3,
    });
  });
});

describe('Grappling control, Throw and Study (archsoul.txt: Gaining Control, Grappling: Attack, Takedown, Throw, Being Grappled, Sneak Attack)', () => {
  it('Gaining Control: “In the case of a tie during a grapple roll, the person in control wins the tie” + “Succeeding on a grapple roll causes you to gain control” + Takedown “Requires Control”: the held one’s tie fails, its win deals damage and takes control, and the grabber may no longer take it down', () => {
    let events = then(grappled(), { type: 'EndTurn', combatantId: 'a' });
    // v's grapple Attack (1 AP): 4, 4, 1 = 2 against a's 4, 4, 1 = 2: a tie, a in control wins.
    const tie = exact(
      events,
      { type: 'GrappleAttack', combatantId: 'v', targetId: 'a' },
      { dice: [4, 4, 1, 4, 4, 1] },
    );
    expect(find(tie, 'GrappleRolled')).toMatchObject({ winnerId: 'a', success: false });
    expect(types(tie)).not.toContain('WoundsApplied');
    events = [...events, ...tie];
    // v again: 4, 4, 4 = 3 against 4, 1, 1 = 1; unarmed damage Athletics 2: 4, 4 = 2.
    events = then(
      events,
      { type: 'GrappleAttack', combatantId: 'v', targetId: 'a' },
      { dice: [4, 4, 4, 4, 1, 1, 4, 4] },
    );
    expect(stateOf(events).grapples[0]).toMatchObject({ controlId: 'v' });
    expect(stateOf(events).combatants.a.hp).toBe(8);
    events = then(then(events, { type: 'EndPhase' }), { type: 'StartRound' });
    expect(refused(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' }).code).toMatch(/CONTROL/);
  });

  it('S82: Throw: “On a success, you deal your unarmed damage … The grapple immediately ends” + a lost grapple roll: the grapple goes on, and the winner takes control', () => {
    const events = nextRound(grappled());
    // a: 4, 1, 1 = 1 against v's 4, 4, 1 = 2: lost.
    const out = exact(
      events,
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' },
      { dice: [4, 1, 1, 4, 4, 1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'GrappleRolled', 'GrappleControlChanged']);
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 2 });
    expect(stateOf([...events, ...out]).grapples).toEqual([expect.objectContaining({ controlId: 'v' })]);
  });

  it('S83: Being Grappled: “All other actions require a successful grapple roll to attempt” + Sneak Attack: “at least three consecutive actions … studying”: a study whose grapple roll is lost spends its AP and is no study, so the series starts again', () => {
    let events = grappled();
    events = nextRound(events);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    // Won: 4, 4, 1 = 2 against 4, 1, 1 = 1 (a in control wins ties anyway).
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 2 });
    // Lost: 1, 1, 2 = 0 against 4, 4, 1 = 2; v takes control.
    const lost = exact(
      events,
      { type: 'Study', combatantId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 4, 4, 1] },
    );
    expect(find(lost, 'ApSpent')).toMatchObject({ action: 'study', ap: 1, apLeft: 0 });
    expect(stateOf([...events, ...lost]).combatants.a.study).toBeUndefined();
    // The next study, won (2 against 1, taking control back), is the first of a new series.
    events = nextRound([...events, ...lost]);
    events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 1 });
  });
});

describe('A half-drawn awkward item and the grapple roll (archsoul.txt: Draw Awkward Item, Being Grappled)', () => {
  it('S84: Draw Awkward Item: “The two actions need to be consecutive” + Being Grappled: “All other actions require a successful grapple roll to attempt”: a second half whose grapple roll is lost spends its AP and draws nothing, so the draw starts again', () => {
    const bag = { items: [{ id: 'shield2', name: 'Tower shield', stowage: 'awkward' }] };
    let events = grappled(bag);
    // The first half, its roll won (a in control, 2 against 1).
    events = then(
      events,
      { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield2' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(stateOf(events).combatants.a.awkward).toBe('shield2');
    events = nextRound(events);
    // The second half, its roll lost (0 against 2): v takes control, the AP is spent, nothing is drawn.
    const lost = exact(
      events,
      { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield2' },
      { dice: [1, 1, 2, 4, 4, 1] },
    );
    expect(types(lost)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent']);
    events = [...events, ...lost];
    expect(stateOf(events).combatants.a).toMatchObject({ awkward: undefined, ap: 2 });
    // The next draw, its roll won (2 against 1, a taking control back), is a whole draw again: both halves, 2 AP
    // (a second half would cost 1).
    const again = exact(
      events,
      { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'shield2' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(find(again, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2, apLeft: 0 });
    expect(find(again, 'ItemDrawn')).toMatchObject({ combatantId: 'a', itemId: 'shield2' });
  });
});

describe('Mounted movement (archsoul.txt: Move, Mounted Maneuvers, Jumping, RULINGS.md S6, S14, S35)', () => {
  const horse = { name: 'Horse', speed: 4, size: 'large', trampleDamage: 3 };

  it('Move: “If you use this action three times in one round, you may move twice as far” + a mount’s speed 4: 4, 4, then 6 × 4 − 8 = 16 spaces', () => {
    let events = fight([hero('a', [0, 0], 'N', { mount: horse }), foe('v', [0, -9])]);
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(0, 5) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
    events = then(events, { type: 'Move', combatantId: 'a', path: east(0, 4) });
    events = nextRound(events);
    events = then(events, { type: 'Move', combatantId: 'a', path: east(4, 4) });
    events = then(events, { type: 'Move', combatantId: 'a', path: east(8, 4) });
    expect(refused(events, { type: 'Move', combatantId: 'a', path: east(12, 17) }).code).toBe(
      'ARCHSOUL_MOVE_TOO_FAR',
    );
    expect(
      find(exact(events, { type: 'Move', combatantId: 'a', path: east(12, 16) }), 'Moved'),
    ).toMatchObject({
      distance: 16,
    });
  });
});
