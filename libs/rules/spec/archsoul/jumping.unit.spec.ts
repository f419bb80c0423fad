import { exact, fight, find, foe, hero, refused, stateOf, then, types } from './helpers';

const north = (n: number, x = 0) => Array.from({ length: n }, (_, i) => ({ x, y: -(i + 1) }));

describe('Jumping (archsoul.txt: Miscellaneous: Jumping, RULINGS.md S36)', () => {
  const jumper = {
    attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
    skills: { conditioning: 2, meleeWeapons: 2, resolve: 1 },
  };

  it('a straight jump of Athletics + ½ Conditioning metres passes over a blocked space; landing triggers reactive attacks', () => {
    const events = fight([hero('a', [0, 0], 'N', jumper), foe('v', [0, -3], 'S')], {
      map: { blocked: [{ x: 0, y: -1 }] },
    });
    const out = exact(events, { type: 'Move', combatantId: 'a', path: north(2), jump: true });
    expect(types(out)).toEqual(['ApSpent', 'Moved', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(out, 'Moved')).toMatchObject({ jump: true, to: { x: 0, y: -2 } });
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'landing', reactorIds: ['v'] });
    const hit = exact(
      [...events, ...out],
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' },
      { dice: [4, 4, 1, 2, 4, 1, 1, 1, 1] },
    );
    expect(types(hit)).toEqual(['ExchangeResolved', 'WoundsApplied', 'ReactionsFinished']);
  });

  it('no further than the jump distance or the walk, only in a straight line', () => {
    const events = fight([
      hero('a', [0, 0], 'N', jumper),
      hero('b', [4, 4], 'N', { ...jumper, speed: 1 }),
      foe('v', [6, -6], 'S'),
    ]);
    expect(refused(events, { type: 'Move', combatantId: 'a', path: north(3), jump: true })).toMatchObject({
      code: 'ARCHSOUL_JUMP_TOO_FAR',
      field: 'path',
    });
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: 0, y: -1 },
          { x: 1, y: -2 },
        ],
        jump: true,
      }),
    ).toMatchObject({ code: 'ARCHSOUL_JUMP_NOT_STRAIGHT', field: 'path' });
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'b',
        path: [
          { x: 4, y: 3 },
          { x: 4, y: 2 },
        ],
        jump: true,
      }),
    ).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
  });
});

describe('S41: Vertical jumps (archsoul.txt: Jumping: "one-third this amount straight up")', () => {
  it('S41: the map has no height; a vertical jump is refused naming the ruling', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -3])]);
    const violation = refused(events, {
      type: 'Move',
      combatantId: 'a',
      path: [{ x: 0, y: -1 }],
      jump: true,
      vertical: true,
    });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_VERTICAL_JUMP', field: 'vertical' });
    expect(violation.message).toContain('S41');
  });
});

describe('Jumping: “When you land, you trigger reactive attacks as if you were moving out of the space you landed in” (archsoul.txt: Jumping, Reactive Attack, RULINGS.md S13, S36)', () => {
  const jumper = {
    attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
    skills: { conditioning: 2, meleeWeapons: 2, resolve: 1 },
  };

  it('S13/S36: a reactor offered the landing is not offered again when the jumper moves out of that space the same turn', () => {
    // Given a jump of 2 (Athletics 4 + ½ × Conditioning 2 = 5 m) landing beside v, who is offered the landing and declines.
    let events = fight([hero('a', [0, 0], 'N', jumper), foe('v', [0, -3], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: north(2), jump: true });
    expect(find(events, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'landing', reactorIds: ['v'] });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    expect(stateOf(events).combatants.a).toMatchObject({ position: { x: 0, y: -2 }, triggeredBy: ['v'] });
    // When a walks out of the landing space (still in v's reach and front arc), then v's reaction is used up.
    const out = exact(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: -2 }] });
    expect(types(out)).toEqual(['ApSpent', 'Moved']);
  });
});

describe('Jumping: “You cannot normally jump further than you could walk” (archsoul.txt: Jumping)', () => {
  it('the text’s example: speed 3, one space walked, the jump goes no further than 2 spaces without spending an additional action point', () => {
    // Athletics 4 + ½ × Conditioning 4 = 6 m: a jump of 3 spaces, as far as a speed-3 walk.
    const leaper = {
      attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { conditioning: 4, meleeWeapons: 2, resolve: 1 },
      speed: 3,
    };
    // The ambush's free movement (speed 3, no AP) keeps what a walk leaves: one space walked leaves 2.
    let events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6])], { round: false });
    events = then(then(events, { type: 'DeclareAmbush', party: 'heroes' }), { type: 'StartRound' });
    events = then(events, { type: 'Move', combatantId: 'a', free: true, path: north(1) });
    expect(stateOf(events).combatants.a).toMatchObject({ freeMove: 2, ap: 3 });
    const jump = (n: number, free: boolean) => ({
      type: 'Move',
      combatantId: 'a',
      path: Array.from({ length: n }, (_, i) => ({ x: 0, y: -(i + 2) })),
      jump: true,
      ...(free ? { free } : {}),
    });
    expect(refused(events, jump(3, true))).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
    expect(find(exact(events, jump(2, true)), 'Moved')).toMatchObject({
      jump: true,
      to: { x: 0, y: -3 },
      distance: 2,
    });
    // Spending an additional action point (a Move) allows the whole jump of 3.
    const paid = exact(events, jump(3, false));
    expect(find(paid, 'ApSpent')).toMatchObject({ action: 'move', ap: 1 });
    expect(find(paid, 'Moved')).toMatchObject({ jump: true, to: { x: 0, y: -4 }, distance: 3 });
  });
});

describe('S55: walking, then jumping, in one Move (archsoul.txt: Jumping: "walk one space forwards before jumping")', () => {
  // Athletics 4 + ½ × Conditioning 4 = 6 m: a jump of 3 spaces; speed 3.
  const leaper = {
    attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
    skills: { conditioning: 4, meleeWeapons: 2, resolve: 1 },
    speed: 3,
  };
  const leap = (n: number, jumpFrom: number, extra: Record<string, unknown> = {}) => ({
    type: 'Move',
    combatantId: 'a',
    path: north(n),
    jump: true,
    jumpFrom,
    ...extra,
  });

  it('S55: the text’s example in one Move: one space walked, then a jump of 2 over a blocked space; a jump of 3 is too far', () => {
    const events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6])], {
      map: { blocked: [{ x: 0, y: -2 }] },
    });
    const out = exact(events, leap(3, 1));
    expect(types(out)).toEqual(['ApSpent', 'Moved', 'Moved']);
    const [walked, jumped] = out.filter((e) => e.type === 'Moved').map((e) => e.data as Record<string, any>);
    expect(walked).toMatchObject({ action: 'move', from: { x: 0, y: 0 }, to: { x: 0, y: -1 }, distance: 1 });
    expect(walked).not.toHaveProperty('jump');
    expect(jumped).toMatchObject({ jump: true, from: { x: 0, y: -1 }, to: { x: 0, y: -3 }, distance: 2 });
    expect(stateOf([...events, ...out]).combatants.a).toMatchObject({ ap: 2, moveDistance: 3 });
    expect(refused(events, leap(4, 1))).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
    // The walked part does not pass over the blocked space.
    expect(refused(events, leap(3, 2))).toMatchObject({ code: 'ARCHSOUL_INVALID_STEP', field: 'path[1]' });
  });

  it('S55: jumpFrom needs a jump and leaves at least one space to jump', () => {
    const events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6])]);
    expect(refused(events, leap(2, 1, { jump: false }))).toMatchObject({
      code: 'ARCHSOUL_NOT_A_JUMP',
      field: 'jumpFrom',
    });
    expect(refused(events, leap(2, 2))).toMatchObject({ code: 'ARCHSOUL_NOT_A_JUMP', field: 'jumpFrom' });
  });

  it('S55: a foe reaching the take-off space reacts before the jump; resumed, the rest is jumped', () => {
    let events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [1, -2], 'S')]);
    const out = exact(events, leap(3, 1));
    expect(types(out)).toEqual(['ApSpent', 'Moved', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(out, 'Moved')).toMatchObject({ to: { x: 0, y: -1 }, stoppedBefore: 2 });
    expect(find(out, 'ReactiveAttackTriggered').action.payload).toMatchObject({ jump: true, jumpFrom: 0 });
    events = then([...events, ...out], { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const resumed = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(types(resumed)).toEqual(['ActionResumed', 'Moved']);
    expect(find(resumed, 'Moved')).toMatchObject({ jump: true, from: { x: 0, y: -1 }, to: { x: 0, y: -3 } });
  });
});

describe('S55: a jump passes over a foe instead of trampling it (archsoul.txt: Jumping, Trample)', () => {
  it('S55: a rider who jumps over a smaller foe with trample set does not trample it; the landing triggers as usual', () => {
    const rider = {
      attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { conditioning: 2, meleeWeapons: 2, resolve: 1 },
      mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 },
    };
    const events = fight([hero('a', [0, 0], 'N', rider), foe('v', [0, -1], 'N')]);
    const out = exact(events, { type: 'Move', combatantId: 'a', path: north(2), jump: true, trample: true });
    expect(types(out)).toEqual(['ApSpent', 'Moved', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'landing', reactorIds: ['v'] });
  });
});

describe('S90: a jump over more than one Move (archsoul.txt: Jumping: “without spending an additional action point”)', () => {
  // Athletics 4 + ½ × Conditioning 4 = 6 m: a jump of 3 spaces; speed 3.
  const leaper = {
    attributes: { precision: 2, athletics: 4, endurance: 2, soulpower: 1, intellect: 1 },
    skills: { conditioning: 4, meleeWeapons: 2, resolve: 1 },
    speed: 3,
  };
  const leap = (n: number, extra: Record<string, unknown> = {}) => ({
    type: 'Move',
    combatantId: 'a',
    path: north(n),
    jump: true,
    ...extra,
  });

  it('Jumping: “your jump would not be able to go further than 2 spaces without spending an additional action point”: one space walked, then a jump of 3 over two Moves (S90)', () => {
    // Given a (speed 3, a jump of 3 spaces) with 3 AP and a pit of two blocked spaces north of its first step;
    const events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6])], {
      map: {
        blocked: [
          { x: 0, y: -2 },
          { x: 0, y: -3 },
        ],
      },
    });
    // with one AP the walk of 1 leaves 3 − 1 = 2 spaces, so the jump of 3 is too far;
    expect(refused(events, leap(4, { jumpFrom: 1 }))).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      field: 'path',
    });
    // when a spends an additional action point on it (ap 2: two uses of Move, 2 × 3 = 6 spaces of walk),
    const out = exact(events, leap(4, { jumpFrom: 1, ap: 2 }));
    // then both AP are spent as two Moves, the walk of 1 and the jump of 3 over the pit are recorded;
    expect(types(out)).toEqual(['ApSpent', 'ApSpent', 'Moved', 'Moved']);
    expect(out.filter((e) => e.type === 'ApSpent').map((e) => e.data)).toEqual([
      { combatantId: 'a', action: 'move', ap: 1, apLeft: 2 },
      { combatantId: 'a', action: 'move', ap: 1, apLeft: 1 },
    ]);
    const [walked, jumped] = out.filter((e) => e.type === 'Moved').map((e) => e.data as Record<string, any>);
    expect(walked).toMatchObject({ action: 'move', to: { x: 0, y: -1 }, distance: 1 });
    expect(jumped).toMatchObject({ jump: true, from: { x: 0, y: -1 }, to: { x: 0, y: -4 }, distance: 3 });
    // and the third Move is the third use of the action: 6 × 3 − 4 walked = 14 spaces.
    const after = [...events, ...out];
    expect(stateOf(after).combatants.a).toMatchObject({ ap: 1, moves: 2, moveDistance: 4 });
    const onward = (n: number) => north(n + 4).slice(4);
    expect(refused(after, { type: 'Move', combatantId: 'a', path: onward(15) })).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
    });
    const third = exact(after, { type: 'Move', combatantId: 'a', path: onward(14) });
    expect(find(third, 'ApSpent')).toMatchObject({ action: 'move', apLeft: 0 });
    expect(find(third, 'Moved')).toMatchObject({ to: { x: 0, y: -18 }, distance: 14 });
  });

  it('S90: a jump over two Moves still goes no further than the jump, needs the AP and is a jump; the walk of three Moves is doubled', () => {
    const events = fight([hero('a', [0, 0], 'N', leaper), foe('v', [6, -6])]);
    // A jump of 4 is beyond Athletics 4 + ½ × 4 = 6 m, however many Moves pay for it.
    expect(refused(events, leap(4, { ap: 2 }))).toMatchObject({
      code: 'ARCHSOUL_JUMP_TOO_FAR',
      field: 'path',
    });
    // Two Moves for a walk are two Move commands: ap names a jump's.
    expect(refused(events, { type: 'Move', combatantId: 'a', path: north(4), ap: 2 })).toMatchObject({
      code: 'ARCHSOUL_NOT_A_JUMP',
      field: 'ap',
    });
    // After two AP spent, a jump over two Moves lacks its second AP.
    const spent = then(then(events, { type: 'Study', combatantId: 'a', targetId: 'v' }), {
      type: 'Study',
      combatantId: 'a',
      targetId: 'v',
    });
    expect(refused(spent, leap(2, { ap: 2 }))).toMatchObject({ code: 'ARCHSOUL_NOT_ENOUGH_AP', field: 'ap' });
    // A slow creature (speed 1, a jump of 3): one Move walks 1, two walk 2, three walk 6 × 1 = 6: a jump of 3 takes all
    // three AP (Move: "If you use this action three times in one round, you may move twice as far").
    const slow = fight([hero('a', [0, 0], 'N', { ...leaper, speed: 1 }), foe('v', [6, -6])]);
    expect(refused(slow, leap(3, { ap: 2 }))).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
    const out = exact(slow, leap(3, { ap: 3 }));
    expect(types(out)).toEqual(['ApSpent', 'ApSpent', 'ApSpent', 'Moved']);
    expect(stateOf([...slow, ...out]).combatants.a).toMatchObject({ ap: 0, moves: 3, moveDistance: 3 });
  });
});
