import { exact, fight, find, foe, hero, refused, stateOf, sword, then, types } from './helpers';

const axe = { id: 'axe', name: 'Axe', type: 'melee', damage: 3 };
const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
const rider = { weapons: [lance], mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 } };
/** A wall on the edge between a's space (0, 0) and v's (0, −1). */
const wall = {
  walls: [
    [
      { x: 0, y: 0 },
      { x: 0, y: -1 },
    ],
  ],
};

describe('S73: reach and walls (archsoul.txt: Reactive Attack "within reach of one of your melee attacks", Unarmed "adjacent spaces"; RULINGS.md S23)', () => {
  it('S73: given a foe beyond a wall on the adjacent edge, when a attacks with its sword or cleaves into that space, then nothing reaches through the wall', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, axe] }), foe('v', [0, -1])], {
      map: wall,
    });
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' }),
    ).toMatchObject({
      code: 'ARCHSOUL_NO_LINE_OF_SIGHT',
      field: 'targetId',
    });
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: { spaces: [{ x: 0, y: -1 }] },
      }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_SPACES', field: 'cleave.spaces[0]' });
    // Without the wall the same sword attack is made: 4 dice at 4, 4, 4 → 2 > Defense 1.
    const open = fight([hero('a', [0, 0], 'N', { weapons: [sword, axe] }), foe('v', [0, -1])]);
    expect(
      find(
        exact(
          open,
          { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
          { dice: [4, 4, 1, 1, 1, 1, 1, 1, 1] },
        ),
        'ExchangeResolved',
      ),
    ).toMatchObject({ hit: true });
  });

  it('S73: given a foe facing a through a wall, when a walks out of its reach, then the foe makes no reactive attack', () => {
    const walled = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')], { map: wall });
    expect(types(exact(walled, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] }))).toEqual([
      'ApSpent',
      'Moved',
    ]);
    const open = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    expect(types(exact(open, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] }))).toEqual([
      'ApSpent',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
  });

  it('S73: given a foe beyond a wall, when a grabs it, then the Grab does not reach; a grapple Throw does not land its opponent over a wall', () => {
    expect(
      refused(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')], { map: wall }), {
        type: 'Grab',
        combatantId: 'a',
        targetId: 'v',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
    // v faces away, so the Grab draws no reactive attack; 4, 4 against v's best grapple roll of 1.
    const held = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')], {
        map: {
          walls: [
            [
              { x: 0, y: 0 },
              { x: -1, y: 0 },
            ],
          ],
        },
      }),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    expect(stateOf(held).grapples).toHaveLength(1);
    expect(
      refused(held, {
        type: 'GrappleThrow',
        combatantId: 'a',
        targetId: 'v',
        outcome: 'throw',
        to: { x: -1, y: 0 },
      }),
    ).toMatchObject({ code: 'ARCHSOUL_THROW_SPACE', field: 'to' });
  });

  it('S73: given a blocked space between the charge’s end and the target, when a rider charges, then its lance does not reach', () => {
    const path = [1, 2, 3].map((i) => ({ x: 0, y: -i }));
    const charge = { type: 'Charge', combatantId: 'a', path, targetId: 'v', weaponId: 'lance' };
    const long = { ...lance, reach: 2 };
    const events = fight([hero('a', [0, 0], 'N', { ...rider, weapons: [long] }), foe('v', [0, -5])], {
      map: { blocked: [{ x: 0, y: -4 }] },
    });
    expect(refused(events, charge)).toMatchObject({ code: 'ARCHSOUL_NO_LINE_OF_SIGHT', field: 'targetId' });
    const open = fight([hero('a', [0, 0], 'N', { ...rider, weapons: [long] }), foe('v', [0, -5])]);
    expect(types(exact(open, charge, { dice: [1, 2, 3, 2] }))).toEqual([
      'ApSpent',
      'Moved',
      'ExchangeResolved',
    ]);
  });
});
