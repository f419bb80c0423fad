import { RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { bow, exact, fight, find, foe, hero, stateOf, sword, then, types } from './helpers';

/** v unaware, a studies it three times in round 1 and ends its turn. */
function studiedInTurn(events: RuleEvent[]): RuleEvent[] {
  let out = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
  for (let i = 0; i < 3; i++) out = then(out, { type: 'Study', combatantId: 'a', targetId: 'v' });
  return then(out, { type: 'EndTurn', combatantId: 'a' });
}

/** a studies v three times in round 1 (v unaware), ends its turn, v ends its turn, round 2 starts: a may sneak attack. */
function studied(events: RuleEvent[]): RuleEvent[] {
  return then(then(studiedInTurn(events), { type: 'EndTurn', combatantId: 'v' }), { type: 'StartRound' });
}

/** a at (0, 0) facing North, v one square North facing South; `v` adds to v’s sheet. */
const duel = (v: Record<string, unknown> = {}) => fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S', v)]);
/** v’s policy: drop the targeted item instead of rolling against a Shatter. */
const drops = { shatterResponse: 'drop' };
/** A Shatter aimed at v’s sword. */
const onSword = { shatter: { itemId: 'sword' } };

/** a’s Attack on v with its sword, or what `more` names, with exactly `faces`. */
const attack = (events: RuleEvent[], more: Record<string, unknown>, faces: ManualFaces = {}) =>
  exact(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', ...more }, faces);

const conditionsOf = (events: RuleEvent[], id: string) =>
  stateOf(events).combatants[id].conditions.map((c) => c.condition);

describe('S30/S31/S67: a sneak Shatter answered by dropping the item (archsoul.txt: Sneak Attack; Shatter: "Your opponent may drop the targeted item instead of making an attack roll")', () => {
  it('S30: given v unaware and studied three times by a, when a makes a sneak Shatter on v’s sword and v drops it, then the attack made uses the study and removes unaware', () => {
    const events = studied(duel(drops));
    expect(conditionsOf(events, 'v')).toContain('unaware');
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 3 });
    // No dice: v drops the sword instead of rolling; the attack is still made with a's sword (S31), unrolled, a miss.
    const out = attack(events, { sneak: true, ...onSword });
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
    let events = studiedInTurn(duel(drops));
    // v steps out of a's reach (sword, 1) while in a's front arc: a is offered a reactive attack.
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(find(events, 'ReactiveAttackOffered')).toMatchObject({ reactorId: 'a' });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'a',
      weaponId: 'sword',
      sneak: true,
      ...onSword,
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
    const out = attack(duel(drops), onSword);
    // v's Defense is 1 (the sheet's); a Shatter uses no defense value, so 0; 0 + 0 = resistance 0.
    const x = find(out, 'ExchangeResolved');
    expect(x).toMatchObject({ hit: false, defense: 0, shieldBonus: 0, resistance: 0 });
    expect(x.attack).toBeUndefined();
  });

  it('S31: given v (Defense 1, a shield of bonus 1) facing a’s bow and dropping its sword, when a shoots a Shatter at the sword, then the exchange records Defense 0 and Shield Bonus 0', () => {
    // Without the Shatter, a shot into v's front arc would meet Defense 1 + Shield Bonus 1 = 2 (S10).
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [bow] }),
      foe('v', [0, -3], 'S', { ...drops, shield: { bonus: 1 } }),
    ]);
    const out = attack(events, { weaponId: 'bow', ...onSword });
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
    // Feint: a's Precision 2 + Confusion/Acting 0 = 2 dice at 5: 1,1 → 0; v's Intellect 1 + Read Emotions 0 = 1 die
    // at 4: 1 → 0. 0 does not exceed 0: the feint fails and the declared Shatter automatically misses, unrolled.
    const out = attack(duel(), { feint: {}, ...onSword }, { dice: [1, 1, 1] });
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
    const out = attack(duel({ weapons: [sword] }), { feint: {} }, { dice: [1, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      defense: 1,
      shieldBonus: 0,
      resistance: 1,
    });
  });
});
