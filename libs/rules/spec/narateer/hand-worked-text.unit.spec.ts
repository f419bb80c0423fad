import { find, fight, mira, sheet, stateOf, then } from './helpers';

/** Rule cases worked by hand from narateer.txt where the engine disagreed with the text; each quotes its rule. */

describe('Applying Wounds', () => {
  // b: 3 AD and 2 MD, AD_FIRST on its sheet; Maximum Vitality 8, Soak 1.
  const b = sheet({ maxAD: 3, maxMD: 2, woundPreference: 'AD_FIRST' });
  const start = () =>
    fight(
      [
        { id: 'a', sheet: mira },
        { id: 'b', sheet: b },
      ],
      'a',
    );
  const strike = (response: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'DeclareExchange',
    attackerId: 'a',
    targetId: 'b',
    kind: 'melee',
    weaponId: 'sword',
    boost: 0,
    response,
    ...extra,
  });

  it('Applying Wounds: given a target forced to No Response (unaware, or out of Ready AD) whose allocation came up front with its response, when the hit wounds it, then its Wounds take the dice it chose, not its sheet’s AD_FIRST', () => {
    // "The character taking the Wound chooses between AD and MD within the required state. Ready dice always come
    // before Used dice, regardless of type." (narateer.txt: Applying Wounds); ruling N28: an allocation given with an
    // advance response is applied wound by wound, wounds beyond the list following the sheet.
    // Mira's one die shows 3: 1 dot against target number 0, Hit Margin 1. Her arming sword: Weapon Damage 2 +
    // min(Agility 3, cap 3) = Strike Rating 5; b's Soak 1: Wound Margin 1 + 5 − 1 = 5, 3 Wounds; Vitality 8 → 5 (not
    // below half, and 3 Wounds are not more than half of 8): no Continuation Check.
    const unaware = then(
      start(),
      strike({ response: 'none', boost: 0, allocation: ['MD', 'MD'] }, { targetUnaware: true }),
      { dice: [3] },
    );
    expect(find(unaware, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    const w = find(unaware, 'WoundsApplied');
    expect([w.hitMargin, w.strikeRating, w.protectionRating, w.woundMargin, w.wounds]).toEqual([
      1, 5, 1, 5, 3,
    ]);
    // MD, MD as chosen, then the third Wound beyond the list by the sheet: AD.
    expect(w.dice).toEqual([
      { kind: 'MD', from: 'ready' },
      { kind: 'MD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
    ]);
    expect(stateOf(unaware).combatants.b).toMatchObject({
      vitality: 5,
      ad: { ready: 2, used: 0, wounded: 1 },
      md: { ready: 0, used: 0, wounded: 2 },
    });

    // Out of Ready AD (all 3 Used, 1 MD Used, 1 MD Ready): "out of Ready AD" forces No Response. Wound 1 must take
    // the Ready MD; then only Used dice remain and b chose MD for Wound 2: its Used MD, then Wound 3 its Used AD.
    const spent = then(start(), { type: 'SpendDice', combatantId: 'b', ad: 3, md: 1 });
    const drained = then(spent, strike({ response: 'fullGuard', boost: 0, allocation: ['MD', 'MD', 'AD'] }), {
      dice: [3],
    });
    expect(find(drained, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    expect(find(drained, 'WoundsApplied').dice).toEqual([
      { kind: 'MD', from: 'ready' },
      { kind: 'MD', from: 'used' },
      { kind: 'AD', from: 'used' },
    ]);
    expect(stateOf(drained).combatants.b).toMatchObject({
      ad: { ready: 0, used: 2, wounded: 1 },
      md: { ready: 0, used: 0, wounded: 2 },
    });
  });
});
