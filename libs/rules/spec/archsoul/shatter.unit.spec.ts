import { exact, fight, foe, hero, refused, sword, types } from './helpers';

describe('S44: Shatter against ordinary items (archsoul.txt: Shatter: "makes a weapon attack roll with the targeted item")', () => {
  it('S44: an ordinary held item cannot be shattered; the GM lists it as an improvised weapon instead', () => {
    const lantern = { id: 'lantern', name: 'Lantern', stowage: 'simple', held: true };
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { items: [lantern] })]);
    const violation = refused(events, {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'lantern' },
    });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_SHATTER_ORDINARY_ITEM', field: 'shatter.itemId' });
    const improvised = fight([
      hero('a', [0, 0]),
      foe('v', [0, -1], 'S', {
        weapons: [sword, { id: 'lantern', name: 'Lantern', type: 'melee', weightLb: 5, held: true }],
      }),
    ]);
    expect(
      types(
        exact(
          improvised,
          {
            type: 'Attack',
            attackerId: 'a',
            targetId: 'v',
            weaponId: 'sword',
            shatter: { itemId: 'lantern' },
          },
          { dice: [4, 4, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1] },
        ),
      ),
    ).toContain('ShatterResolved');
  });
});
