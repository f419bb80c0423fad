import { exact, fight, find, foe, hero, refused, types } from './helpers';

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
