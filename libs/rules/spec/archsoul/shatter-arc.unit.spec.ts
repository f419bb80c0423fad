import { attack, exact, fight, find, foe, hero, stateOf, sword } from './helpers';

/**
 * The exchange of a Shatter records the arc of the target the attack came from, as every exchange does (the event's
 * targetArc: "The arc of the target the attack came from (S5)"); it counts no Defense and no Shield Bonus (S31).
 */
describe('Shatter: the arc it came from (archsoul.txt: The Battle Map, Attack Modifiers: Shatter; ruling S31)', () => {
  const guard = { weapons: [{ ...sword, hp: 5, hardness: 1 }] };
  // a (Precision 2 + Melee Weapons 2 = 4 dice at 4) rolls 4, 4, 4, 1: 3 successes; v's sword (the same 4 dice at 4)
  // 4, 1, 1, 1: 1 success; a wins, and its damage roll (Athletics 2 + Weapon Mastery 1 + sword 2 = 5 dice at 4)
  // 4, 4, 4, 1, 1: 3, less hardness 1 = 2 off the sword's 5 HP: 3.
  const DICE = [4, 4, 4, 1, 4, 1, 1, 1, 4, 4, 4, 1, 1];

  it('S31: given v facing away from a, when a shatters v’s sword, then the exchange records v’s back arc and the numbers stand', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N', guard)]);
    const out = exact(events, attack({ shatter: { itemId: 'sword' } }), { dice: DICE });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      targetArc: 'back',
      defense: 0,
      shieldBonus: 0,
      resistance: 1,
      hit: true,
    });
    expect(find(out, 'ShatterResolved')).toMatchObject({ winner: 'attacker', damage: 2 });
    expect(stateOf([...events, ...out]).combatants.v.weapons.sword).toMatchObject({ hp: 3 });
  });

  it('S31: given v facing a, when a shatters v’s sword, then the exchange records v’s front arc', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', guard)]);
    const out = exact(events, attack({ shatter: { itemId: 'sword' } }), { dice: DICE });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetArc: 'front', resistance: 1 });
  });

  it('S31: given v facing away under Hold Firm, when a shatters v’s sword, then the exchange records the front arc (Hold Firm)', () => {
    let events = fight([hero('v', [0, -1], 'N', guard), foe('a', [0, 0], 'N')]);
    events = [...events, ...exact(events, { type: 'HoldFirm', combatantId: 'v' })];
    events = [...events, ...exact(events, { type: 'EndTurn', combatantId: 'v' })];
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', shatter: { itemId: 'sword' } },
      { dice: DICE },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ targetArc: 'front' });
  });
});
