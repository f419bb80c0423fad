import {
  bow,
  sword,
  duel,
  exact,
  fight,
  find,
  melee,
  orin,
  ranged,
  refusal,
  respond,
  sera,
  stateOf,
  then,
  types,
  veyr,
} from './helpers';

/**
 * narateer.txt read a fourth time, for rule sentences no earlier test title quotes. Each case is worked by hand from
 * the text: given, when, then, with every die traced (N1: faces 1–2 are 0 dots, 3–5 one dot, 6 two dots).
 */

/** Sera's bow against Veyr with the sheet given, Sera's activation open. */
const shootAt = (veyrSheet: Record<string, unknown>) =>
  fight(
    [
      { id: 'sera', sheet: sera },
      { id: 'veyr', sheet: veyrSheet },
    ],
    'sera',
  );

describe('Continuation Checks, fourth reading', () => {
  it('"Only a combatant who remains Active (VIT above 0) makes a Continuation Check": given Veyr at Maximum Vitality 5, when Sera’s 3 dots land 5 Wounds, then Vitality 0 Collapses him and no check is rolled; at Maximum Vitality 6 the same hit leaves Vitality 1 and one check, whose 0 dots fail', () => {
    // Sera: bow Base Attack Cost 1 + Boost 2 (Ranged SL 2) = 3 AD; 3, 3, 3 = 3 dots against No Response (target 0).
    // Hit Margin 3 + Strike Rating 2 + min(Agility 3, cap 3) − Protection 1 = Wound Margin 7: 5 Wounds.
    const shot = ranged('sera', 'veyr', 'bow', 2, { response: { response: 'none', boost: 0 } });
    const collapsed = exact(shootAt({ ...veyr, maxVitality: 5 }), shot, { dice: [3, 3, 3] });
    expect(find(collapsed, 'WoundsApplied')).toMatchObject({
      combatantId: 'veyr',
      hitMargin: 3,
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitality: 0,
      state: 'Collapsed',
    });
    // 4 Ready AD take the first 4 Wounds; the 5th reduces Vitality alone. No followUpFaces are drawn (exact checks).
    expect(find(collapsed, 'WoundsApplied').dice).toHaveLength(4);
    expect(types(collapsed)).not.toContain('ContinuationChecked');

    // Maximum Vitality 6: Vitality 1 is below half (2 < 6) and 5 Wounds are more than half (10 > 6): one check,
    // a 2-die Side Roll (Resilience 2): 1, 2 = 0 dots, a failure.
    const active = exact(shootAt({ ...veyr, maxVitality: 6 }), shot, {
      dice: [3, 3, 3],
      followUpFaces: [1, 2],
    });
    expect(find(active, 'WoundsApplied')).toMatchObject({ vitality: 1, state: 'Active' });
    expect(types(active).filter((t) => t === 'ContinuationChecked')).toHaveLength(1);
    expect(find(active, 'ContinuationChecked')).toMatchObject({
      combatantId: 'veyr',
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });
  });
});

describe('Clash, fourth reading', () => {
  it('"Only the winner may deal damage, using their own weapon and active Damage Vital": given Mira’s 1-die sword attack answered by Orin’s Clash with Boost 1, when Mira rolls 0 dots and Orin 3, then Orin wounds her with his mace and Strength: Wound Margin 3 + 5 − 1 = 7, 5 Wounds, one check', () => {
    let events = then(duel(), melee('mira', 'orin', 0));
    // Mira: sword cost 1, Boost 0: a 1 = 0 dots. Orin: mace cost 1 + Boost 1 (Melee SL 1): 6, 3 = 3 dots.
    const clash = exact(events, respond('orin', 'clash', 1), { dice: [1, 6, 3], followUpFaces: [3, 1] });
    expect(find(clash, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      hitMargin: 3,
    });
    // The mace is heavy: Strength 3 (cap 3). Mira's Soak 1.
    expect(find(clash, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      sourceId: 'orin',
      weaponId: 'mace',
      damageVital: 'strength',
      harm: { domain: 'Physical', type: 'Impact' },
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitalityBefore: 8,
      vitality: 3,
    });
    // Ready before Used: her 4 Ready AD, then the 1 AD she committed.
    expect(find(clash, 'WoundsApplied').dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'used' },
    ]);
    // Vitality 3 is below half of 8, and 5 Wounds are more than 4: one check, 3, 1 = 1 dot, a pass.
    expect(find(clash, 'ContinuationChecked')).toMatchObject({
      combatantId: 'mira',
      triggers: ['belowHalf', 'heavyWounds'],
      dots: 1,
      passed: true,
    });
    events = [...events, ...clash];
    expect(stateOf(events).combatants.orin.vitality).toBe(8);
    expect(stateOf(events).combatants.mira.ad).toMatchObject({ ready: 0, used: 0, wounded: 5 });
  });

  it('"The responder must have a legal attack that can reach the tempo-holder and pays that attack\'s Base Attack Cost before adding any legal Boost AD": given Veyr with 2 Ready AD and a crossbow of cost 2, then a Clash with Boost 1 is refused on its Boost, with Boost 0 it is legal', () => {
    // Veyr Ranged SL 1 allows Boost 1, but cost 2 + Boost 1 = 3 exceeds his 2 Ready AD.
    const events = then(shootAt({ ...veyr, maxAD: 2 }), ranged('sera', 'veyr', 'bow', 0));
    expect(refusal(events, respond('veyr', 'clash', 1, { weaponId: 'crossbow' }))).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'boost',
    });
    // Sera 3 = 1 dot; Veyr 2 dice: 4, 1 = 1 dot. A tie: neither lands a clean hit; both shots are spent.
    const tied = exact(events, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), { dice: [3, 4, 1] });
    expect(find(tied, 'ExchangeResolved')).toMatchObject({ outcome: 'tie' });
    expect(types(tied).filter((t) => t === 'WeaponFired')).toHaveLength(2);
    expect(stateOf([...events, ...tied]).combatants.veyr.ad).toMatchObject({ ready: 0, used: 2 });
  });
});

describe('Full Guard, fourth reading', () => {
  it('"A responder with Acrobatics SL 0 may still commit the required 1 AD and roll it with Advantage, but cannot add Boost AD": given Veyr at Acrobatics SL 0 against a 2-die shot of 1 dot, when he guards with 1 die, then Boost 1 is refused; his 1 rerolled to a 3 equals Sera’s total and stops the arrow', () => {
    const events = then(
      shootAt({ ...veyr, skills: { melee: 1, ranged: 1, acrobatics: 0 } }),
      ranged('sera', 'veyr', 'bow', 1),
    );
    expect(refusal(events, respond('veyr', 'fullGuard', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    // Sera: 3, 1 = 1 dot. Veyr: 1 = 0 dots; Advantage rerolls it: a 3, 1 dot, kept. 1 equals 1: the guard stops it.
    const guarded = exact(events, respond('veyr', 'fullGuard', 0), { dice: [3, 1, 1], rerollFaces: [3] });
    const resolved = find(guarded, 'ExchangeResolved');
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'veyr' });
    expect(resolved.responder).toMatchObject({
      skill: 'acrobatics',
      edge: 'advantage',
      faces: [3],
      total: 1,
    });
    expect(types(guarded)).not.toContain('WoundsApplied');
    const after = stateOf([...events, ...guarded]);
    expect(after.combatants.veyr.ad).toMatchObject({ ready: 3, used: 1 });
    expect(after.combatants.sera.weapons.bow.ammunition).toBe(19);
  });

  it('"Full Guard has a Base Cost of 1 AD. It always rolls with Advantage and may Boost within the Skill Level being used": given Orin (Melee SL 1) against Mira’s 4 dice, then his Boost 2 is refused; with Boost 1 his 6, 6 keep their 4 dots (the reroll of the first 6 is a 1) and Mira’s 5 win by 1: 3 Wounds', () => {
    const events = then(duel(), melee('mira', 'orin', 3));
    expect(refusal(events, respond('orin', 'fullGuard', 2))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    // Mira: cost 1 + Boost 3 (Melee SL 3) = 4 dice: 6, 6, 3, 1 = 5 dots. Orin: 1 + Boost 1 = 2 dice: 6, 6 = 4 dots;
    // Advantage rerolls the die with the fewest dots (equal: the first), a 1 is worse: the original stays.
    const hit = exact(events, respond('orin', 'fullGuard', 1), {
      dice: [6, 6, 3, 1, 6, 6],
      rerollFaces: [1],
    });
    const resolved = find(hit, 'ExchangeResolved');
    expect(resolved.responder).toMatchObject({
      skill: 'melee',
      faces: [6, 6],
      total: 4,
      reroll: { index: 0, kept: 'original' },
    });
    expect(resolved).toMatchObject({ outcome: 'hit', winnerId: 'mira', hitMargin: 1 });
    // Hit Margin 1 + Strike Rating 2 + min(Agility 3, cap 3) − Protection 1 = 5: 3 Wounds, Vitality 8 → 5, no check.
    expect(find(hit, 'WoundsApplied')).toMatchObject({
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
    });
    expect(types(hit)).not.toContain('ContinuationChecked');
    // He committed 2 AD; the 3 Wounds take his 3 Ready AD.
    expect(stateOf([...events, ...hit]).combatants.orin.ad).toMatchObject({ ready: 0, used: 2, wounded: 3 });
  });
});

describe('No Response, fourth reading', () => {
  it('"The tempo-holder rolls against target number 0. Cover, range, visibility, position, conditions, or special rules may still impose Edge": given Sera 15 Spaces from Veyr (beyond Effective Range 12), when she rolls 6, 3 against No Response, then Disadvantage rerolls the 6 into a 2: Hit Margin 1, Wound Margin 5, 3 Wounds', () => {
    const events = shootAt({ ...veyr, maxVitality: 8 });
    const shot = exact(
      events,
      ranged('sera', 'veyr', 'bow', 1, { distance: 15, response: { response: 'none', boost: 0 } }),
      { dice: [6, 3], rerollFaces: [2] },
    );
    const resolved = find(shot, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'disadvantage',
      faces: [2, 3],
      total: 1,
      reroll: { index: 0, original: 6, kept: 'reroll' },
    });
    expect(resolved).toMatchObject({ outcome: 'hit', targetNumber: 0, hitMargin: 1 });
    // Hit Margin 1 + Strike Rating 5 − Protection 1 = 5: 3 Wounds; Vitality 5 of 8 is not below half, 3 not over 4.
    expect(find(shot, 'WoundsApplied')).toMatchObject({ woundMargin: 5, wounds: 3, vitality: 5 });
    expect(types(shot)).not.toContain('ContinuationChecked');
  });
});

describe('Skill Level In Combat, fourth reading', () => {
  it('"Proactive Ranged uses during your activation = Ranged SL + 1": given Veyr (Ranged SL 1) in his activation, when he has shot twice, then a third shot is refused, though his Melee use is still free', () => {
    let events = fight(
      [
        { id: 'veyr', sheet: { ...veyr, maxAD: 4, weapons: [sword, bow] } },
        { id: 'orin', sheet: orin },
      ],
      'veyr',
    );
    // Each shot: 1 die, a 1 = 0 dots against No Response: no clean hit (N30).
    const shot = ranged('veyr', 'orin', 'bow', 0, { response: { response: 'none', boost: 0 } });
    events = then(events, shot, { dice: [1] });
    events = then(events, shot, { dice: [1] });
    expect(stateOf(events).combatants.veyr.uses.ranged).toBe(2);
    expect(refusal(events, shot)).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'kind' });
    events = then(events, melee('veyr', 'orin', 0, { response: { response: 'none', boost: 0 } }), {
      dice: [1],
    });
    expect(stateOf(events).combatants.veyr.uses.melee).toBe(1);
  });
});

describe('Core Combat Attributes, fourth reading', () => {
  it('"Light weapons may use Strength or Agility for damage": given Mira’s light sword (Strength 2, Agility 3, cap 3), when 1 die (a 3, 1 dot) lands on No Response, then Strength gives Wound Margin 1 + 4 − 1 = 4 (2 Wounds), Agility 1 + 5 − 1 = 5 (3 Wounds); Resilience is refused', () => {
    const none = { response: { response: 'none', boost: 0 } };
    const strength = exact(duel(), melee('mira', 'orin', 0, { ...none, damageVital: 'strength' }), {
      dice: [3],
    });
    expect(find(strength, 'WoundsApplied')).toMatchObject({
      damageVital: 'strength',
      strikeRating: 4,
      woundMargin: 4,
      wounds: 2,
    });
    const agility = exact(duel(), melee('mira', 'orin', 0, { ...none, damageVital: 'agility' }), {
      dice: [3],
    });
    expect(find(agility, 'WoundsApplied')).toMatchObject({
      damageVital: 'agility',
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
    });
    expect(refusal(duel(), melee('mira', 'orin', 0, { ...none, damageVital: 'resilience' }))).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'damageVital',
    });
  });
});
