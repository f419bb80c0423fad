import { neighbours } from '../../src/archsoul';
import { exact, fight, find, foe, hero, javelin, stateOf, then, types } from './helpers';

/**
 * archsoul.txt: Throw an Item: "A roll of 0 means the item lands in a random adjacent space"; Critical Failure Tables
 * (melee, also thrown, S2): "1 Weapon slips and drops at your feet", "2 Weapon slips and lands at target's feet"; the
 * bow table's "1 Weapon slips and falls at your feet". A critical failure has no success, so a throw that fumbles is
 * always a roll of 0 as well: ruling S108 says where the item lies when the table drops it.
 *
 * Every throw below: a (Precision 2 + Primitive Attacks 1 = 3 dice at 4) throws at v three spaces away and rolls
 * 1, 1, 2: no success and two of the three dice on 1, more than half, a critical failure (S2).
 */
const FUMBLE = [1, 1, 2];
const knife = {
  id: 'knife',
  name: 'Throwing knife',
  type: 'thrown',
  damage: 1,
  accurateRange: 3,
  maximumRange: 6,
  criticalTable: 'bow',
};
const duel = (weapons: Record<string, unknown>[], grid?: string) =>
  fight([hero('a', [0, 0], 'N', { weapons }), foe('v', [0, -3])], grid ? { map: { grid } } : {});
const throwAt = (itemId: string) => ({ type: 'ThrowItem', combatantId: 'a', itemId, targetId: 'v' });

describe('A thrown item the critical table drops (archsoul.txt: Throw an Item, Critical Failure Tables; ruling S108)', () => {
  it('S108: given a javelin thrown with a critical failure, when the melee table gives 1 "drops at your feet", then it lies in the thrower’s space and no landing die is rolled', () => {
    const events = duel([javelin]);
    const out = exact(events, throwAt('javelin'), { dice: FUMBLE, followUpFaces: [1] });
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'CriticalFailureRolled', 'ItemDropped']);
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: 0 } });
    const s = stateOf([...events, ...out]);
    expect(s.combatants.a.held).not.toContain('javelin');
    expect(s.ground).toMatchObject([{ itemId: 'javelin', ownerId: 'a', space: { x: 0, y: 0 } }]);
  });

  it('S108: given the same fumble, when a landing die follows the table’s 1, then it is refused as a face too many: the roll of 0 does not move the item', () => {
    let code: string | undefined;
    try {
      exact(duel([javelin]), throwAt('javelin'), { dice: FUMBLE, followUpFaces: [1, 4] });
    } catch (e) {
      code = (e as { code?: string }).code;
    }
    expect(code).toBe('DICE_MANUAL_FACES_EXTRA');
  });

  it('S108: given a javelin thrown with a critical failure, when the melee table gives 2 "lands at target’s feet", then it lies in v’s space (0, −3), hex or square', () => {
    for (const grid of [undefined, 'square']) {
      const events = duel([javelin], grid);
      const out = exact(events, throwAt('javelin'), { dice: FUMBLE, followUpFaces: [2] });
      expect(types(out)).not.toContain('ProjectileLanded');
      expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -3 } });
      expect(stateOf([...events, ...out]).ground).toMatchObject([
        { itemId: 'javelin', space: { x: 0, y: -3 } },
      ]);
    }
  });

  it('S108: given throwing knives on the bow table, when its 1 "falls at your feet", then the knife lies in the thrower’s space', () => {
    const out = exact(duel([knife]), throwAt('knife'), { dice: FUMBLE, followUpFaces: [1] });
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ table: 'bow', face: 1 });
    expect(find(out, 'ItemDropped')).toMatchObject({ itemId: 'knife', space: { x: 0, y: 0 } });
    expect(types(out)).not.toContain('ProjectileLanded');
  });

  it('S108: given a fumble whose entry places nothing (melee 3, a wrist sprain), when the throw lands, then the roll of 0 lands it beside v: the landing die follows the table’s', () => {
    const out = exact(duel([javelin]), throwAt('javelin'), { dice: FUMBLE, followUpFaces: [3, 1] });
    expect(types(out)).not.toContain('ItemDropped');
    // The landing die's 1 names the first neighbour of v's space (S15, S21).
    expect(find(out, 'ProjectileLanded')).toMatchObject({
      itemId: 'javelin',
      space: neighbours('hex', { x: 0, y: -3 })[0],
    });
  });

  it('S108: given the javelin dropped at the thrower’s feet, when a picks it up (Draw Simple Item, 1 AP), then it is in hand again', () => {
    const events = then(duel([javelin]), throwAt('javelin'), { dice: FUMBLE, followUpFaces: [1] });
    const out = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    // 3 AP − 1 (the throw) − 1 (the draw) = 1.
    expect(find(out, 'ApSpent')).toMatchObject({ ap: 1, apLeft: 1 });
    expect(stateOf([...events, ...out]).combatants.a.held).toContain('javelin');
  });
});
