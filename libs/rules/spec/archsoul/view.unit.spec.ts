import { view } from '../../src/archsoul/view';
import { RuleEvent } from '../../src/core/types';
import { bow, exact, fight, find, foe, hero, refused, stateOf, then } from './helpers';

const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
const buckler = { id: 'buckler', name: 'Buckler', bonus: 2 };
const viewOf = (events: RuleEvent[], id: string) =>
  view(stateOf(events)).combatants.find((x) => x.id === id)!;

describe('The view shows what the engine enforces (archsoul.txt: Critical Failure Tables, Mounted Maneuvers, Being Grappled)', () => {
  it('speed after an ankle sprain ("decreasing movement by 1 for one round") is the speed a Move allows', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    // A fist attack: 3 dice, no success and two 1s; the unarmed table's face 2.
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v' },
      { dice: [1, 1, 2], followUpFaces: [2] },
    );
    expect(viewOf(events, 'a')).toMatchObject({ speed: 2, baseSpeed: 3 });
    expect(
      refused(events, {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: 1, y: 0 },
          { x: 2, y: 0 },
          { x: 3, y: 0 },
        ],
      }),
    ).toMatchObject({
      code: 'ARCHSOUL_MOVE_TOO_FAR',
      message: expect.stringContaining('may move 2 space(s)'),
    });
  });

  it('speed of a mounted rider is the mount’s; dismounted, its own', () => {
    let events = fight([hero('a', [0, 0], 'N', { mount: { name: 'Horse', speed: 6 } })]);
    expect(viewOf(events, 'a')).toMatchObject({ speed: 6, baseSpeed: 3, mounted: true });
    events = then(events, { type: 'Dismount', combatantId: 'a' });
    expect(viewOf(events, 'a')).toMatchObject({ speed: 3, mounted: false });
  });

  it('Shield Bonus of a grappled combatant is 0, as an arrow finds it ("cannot ... benefit from using a shield")', () => {
    let events = fight(
      [
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -3], 'N', { shield: buckler }),
        foe('w', [0, -4], 'N', { weapons: [claws] }),
      ],
      { options: { arrowBreakage: false } },
    );
    expect(viewOf(events, 'v').shieldBonus).toBe(2);
    // S78: v, facing w within reach, is offered the Grab's reactive attack though w is an ally; it declines.
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), {
      type: 'Grab',
      combatantId: 'w',
      targetId: 'v',
    });
    events = then(
      then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' }),
      { type: 'ResumeAction', combatantId: 'w' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(viewOf(events, 'v')).toMatchObject({
      shieldBonus: 0,
      hasFrontArc: false,
      held: ['sword', 'buckler'],
    });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'w' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    const shot = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [1, 2, 3, 2] },
    );
    expect(find(shot, 'ExchangeResolved')).toMatchObject({ shieldBonus: 0 });
  });
});
