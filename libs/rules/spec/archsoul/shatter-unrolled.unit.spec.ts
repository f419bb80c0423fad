import { RuleEvent } from '../../src/core/types';
import { bow, exact, fight, find, foe, hero, stateOf, sword, then, types } from './helpers';

/** a studies v three times in round 1 (v unaware), ends its turn, v ends its turn, round 2 starts: a may sneak attack. */
function studied(events: RuleEvent[]): RuleEvent[] {
  let out = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
  for (let i = 0; i < 3; i++) out = then(out, { type: 'Study', combatantId: 'a', targetId: 'v' });
  out = then(out, { type: 'EndTurn', combatantId: 'a' });
  out = then(out, { type: 'EndTurn', combatantId: 'v' });
  return then(out, { type: 'StartRound' });
}

const conditionsOf = (events: RuleEvent[], id: string) =>
  stateOf(events).combatants[id].conditions.map((c) => c.condition);

describe('S30/S31/S67: a sneak Shatter answered by dropping the item (archsoul.txt: Sneak Attack; Shatter: "Your opponent may drop the targeted item instead of making an attack roll")', () => {
  it('S30: given v unaware and studied three times by a, when a makes a sneak Shatter on v’s sword and v drops it, then the attack made uses the study and removes unaware', () => {
    const events = studied(
      fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { shatterResponse: 'drop' })]),
    );
    expect(conditionsOf(events, 'v')).toContain('unaware');
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 3 });
    // No dice: v drops the sword instead of rolling; the attack is still made with a's sword (S31), unrolled, a miss.
    const out = exact(events, {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'sword',
      sneak: true,
      shatter: { itemId: 'sword' },
    });
    expect(types(out)).toEqual([
      'ApSpent',
      'ItemDropped',
      'ExchangeResolved',
      'ShatterResolved',
      'ConditionRemoved',
    ]);
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, maneuvers: ['sneak', 'shatter'] });
    // S30: "removed by the sneak attack", as a rolled sneak Shatter removes it; S67: the study is used up.
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'unaware' });
    const after = [...events, ...out];
    expect(conditionsOf(after, 'v')).not.toContain('unaware');
    expect(stateOf(after).combatants.a.study).toBeUndefined();
  });

  it('S30/S67: given v unaware and studied three times by a, when a reacts to v’s Move with a sneak Shatter on v’s sword and v drops it, then unaware is removed with the study used up', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { shatterResponse: 'drop' })]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(events, { type: 'EndTurn', combatantId: 'a' });
    // v steps out of a's reach (sword, 1) while in a's front arc: a is offered a reactive attack.
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(find(events, 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'a' });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'a',
      weaponId: 'sword',
      sneak: true,
      shatter: { itemId: 'sword' },
    });
    expect(types(out)).toEqual([
      'ItemDropped',
      'ExchangeResolved',
      'ShatterResolved',
      'ConditionRemoved',
      'ReactionsFinished',
    ]);
    const after = [...events, ...out];
    expect(conditionsOf(after, 'v')).not.toContain('unaware');
    expect(stateOf(after).combatants.a.study).toBeUndefined();
  });
});

describe('S31: an unrolled Shatter counts neither Defense nor Shield Bonus (archsoul.txt: Shatter: "Instead of using a defense value against your attack roll"; Feint: "the declared attack automatically misses")', () => {
  it('S31: given v (Defense 1) dropping its sword, when a’s Shatter is answered by the drop, then the exchange records Defense 0, Shield Bonus 0, resistance 0', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { shatterResponse: 'drop' })]);
    const out = exact(events, {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'sword' },
    });
    // v's Defense is 1 (the sheet's); a Shatter uses no defense value, so 0; 0 + 0 = resistance 0.
    const x = find(out, 'ExchangeResolved');
    expect(x).toMatchObject({ hit: false, defense: 0, shieldBonus: 0, resistance: 0 });
    expect(x.attack).toBeUndefined();
  });

  it('S31: given v (Defense 1, a shield of bonus 1) facing a’s bow and dropping its sword, when a shoots a Shatter at the sword, then the exchange records Defense 0 and Shield Bonus 0', () => {
    // Without the Shatter, a shot into v's front arc would meet Defense 1 + Shield Bonus 1 = 2 (S10).
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [bow] }),
      foe('v', [0, -3], 'S', { shatterResponse: 'drop', shield: { bonus: 1 } }),
    ]);
    const out = exact(events, {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'bow',
      shatter: { itemId: 'sword' },
    });
    expect(types(out)).toEqual(['ApSpent', 'ItemDropped', 'ExchangeResolved', 'ShatterResolved']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      targetArc: 'front',
      hit: false,
      defense: 0,
      shieldBonus: 0,
      resistance: 0,
    });
  });

  it('S28/S31: given v (Defense 1), when a’s feinted Shatter on v’s sword fails its feint, then the missed exchange records Defense 0, Shield Bonus 0, resistance 0', () => {
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    // Feint: a's Precision 2 + Confusion/Acting 0 = 2 dice at 5: 1,1 → 0; v's Intellect 1 + Read Emotions 0 = 1 die
    // at 4: 1 → 0. 0 does not exceed 0: the feint fails and the declared Shatter automatically misses, unrolled.
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        targetId: 'v',
        weaponId: 'sword',
        feint: {},
        shatter: { itemId: 'sword' },
      },
      { dice: [1, 1, 1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'FeintResolved', 'ExchangeResolved']);
    expect(find(out, 'FeintResolved')).toMatchObject({ success: false });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      maneuvers: ['feint', 'shatter'],
      defense: 0,
      shieldBonus: 0,
      resistance: 0,
    });
  });

  it('S28: given v (Defense 1), when a’s feinted plain attack fails its feint, then the missed exchange still records v’s Defense 1', () => {
    // The same dice as above: the feint fails; without a Shatter the declared attack would have met Defense 1.
    const events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', { weapons: [sword] })]);
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', feint: {} },
      { dice: [1, 1, 1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      defense: 1,
      shieldBonus: 0,
      resistance: 1,
    });
  });
});
