import { RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import {
  at,
  exact,
  fight,
  find,
  mace,
  melee,
  mira,
  ranged,
  refusal,
  respond,
  sheet,
  shootout,
  stateOf,
  then,
  types,
} from './helpers';

/**
 * Every number below is worked by hand from narateer.txt with manual dice (N1: faces 1–2 show 0 dots, 3–5 one,
 * 6 two), then compared with what the engine records and with what the view shows.
 */

const view = (events: RuleEvent[]) => narateer.view(stateOf(events)) as any;
const shown = (events: RuleEvent[], id: string) => view(events).combatants.find((c: any) => c.id === id);
const all = (events: RuleEvent[], type: string) => events.filter((e) => e.type === type).map((e) => e.data);

describe('Full Guard and Edge, worked by hand', () => {
  it('"It does not stack with another source of Advantage, and Disadvantage cancels it normally": a Ranged Full Guard with the GM’s Disadvantage rolls Acrobatics with no reroll, and its tie stops the shot', () => {
    // Sera: bow, Base Attack Cost 1 + Boost 2 (her Ranged SL 2) = 3 AD. Veyr: Full Guard, 1 AD + Boost 1 (Acrobatics SL 1).
    let events = then(shootout(), ranged('sera', 'veyr', 'bow', 2, { responderEdge: 'disadvantage' }));
    expect(shown(events, 'sera').ad).toEqual({ ready: 2, used: 3, wounded: 0, max: 5 });
    // Sera 6, 3, 1 = 2 + 1 + 0 = 3 dots. Veyr 6, 5 = 3 dots. Advantage (Full Guard) and Disadvantage (GM) cancel:
    // no die is rerolled, so no reroll face is read. 3 equals 3: "the attack is stopped".
    const out = exact(events, respond('veyr', 'fullGuard', 1), { dice: [6, 3, 1, 6, 5] });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ skill: 'ranged', edge: 'none', total: 3 });
    expect(resolved.responder).toMatchObject({
      skill: 'acrobatics',
      edge: 'none',
      sources: { advantage: ['fullGuard'], disadvantage: ['gm'] },
      total: 3,
    });
    expect(resolved.responder.reroll).toBeUndefined();
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'veyr' });
    expect(types(out)).not.toContain('WoundsApplied');
    // "Firing expends ammunition … whether that combatant wins or loses": Sera's bow 20 → 19; Veyr fired nothing.
    expect(all(out, 'WeaponFired')).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 19 },
    ]);
    events = [...events, ...out];
    expect(shown(events, 'veyr')).toMatchObject({
      vitality: 4,
      ad: { ready: 2, used: 2, wounded: 0, max: 4 },
      weapons: [{ id: 'crossbow', loaded: true, ammunition: 10, ready: true }],
    });
    expect(view(events)).toMatchObject({ exchange: null, pending: null });
  });

  it('"If the tempo-holder is beyond the responder’s Effective Range but within their Maximum Range, the responder’s Ranged Clash roll has Disadvantage": at 15 Spaces both shots are beyond Effective Range; the GM’s Advantage cancels Sera’s, Veyr’s rerolls his strongest die and keeps the worse', () => {
    let events = at(at(shootout(), 'sera', 0, 0), 'veyr', 15, 0);
    // Bow: Effective 12, Maximum 30; crossbow: Effective 10, Maximum 20. 15 is beyond both Effective Ranges.
    events = then(events, ranged('sera', 'veyr', 'bow', 1, { edge: 'advantage' }));
    expect(find(events.slice(-1), 'ExchangeDeclared')).toMatchObject({
      distance: 15,
      dice: 2,
      edge: { advantage: ['gm'], disadvantage: ['beyondEffectiveRange'] },
    });
    // Sera 6, 3 = 3 dots, no net Edge. Veyr's crossbow: Base Attack Cost 2, Boost 0: 6, 6 = 4 dots; Disadvantage
    // rerolls the die with the most dots (the first 6) and shows 1: 0 dots is worse, kept: 1, 6 = 2 dots.
    const out = exact(events, respond('veyr', 'clash'), {
      dice: [6, 3, 6, 6],
      rerollFaces: [1],
      followUpFaces: [3, 1],
    });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ edge: 'none', faces: [6, 3], total: 3 });
    expect(resolved.responder).toMatchObject({
      skill: 'ranged',
      edge: 'disadvantage',
      reroll: { index: 0, original: 6, kept: 'reroll' },
      faces: [1, 6],
      total: 2,
    });
    // Hit Margin 3 − 2 = 1; Strike 2 + min(Agility 3, cap 3) = 5; Protection: Veyr's Soak 1. 1 + 5 − 1 = 5 → 3 Wounds.
    // Veyr's AD: 4 − 2 committed = 2 Ready, 2 Used. Ready first: 2 Ready, then 1 Used. Vitality 4 → 1: below half
    // and 3 Wounds are more than half of 4: one Continuation Check of Resilience 2 dice; 3 and 1 show 1 dot: passed.
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'veyr',
      hitMargin: 1,
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 5,
      wounds: 3,
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'used' },
      ],
      ad: { ready: 0, used: 1, wounded: 3 },
      vitality: 1,
      state: 'Active',
    });
    expect(find(out, 'ContinuationChecked')).toMatchObject({
      combatantId: 'veyr',
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      dots: 1,
      passed: true,
    });
    expect(all(out, 'WeaponFired')).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 19 },
      { combatantId: 'veyr', weaponId: 'crossbow', exchangeId: 'x1', loaded: false, ammunition: 9 },
    ]);
    events = [...events, ...out];
    // Veyr has no Ready AD left: the next exchange finds him "out of Ready AD", so No Response is forced.
    expect(shown(events, 'veyr')).toMatchObject({
      vitality: 1,
      ad: { ready: 0, used: 1, wounded: 3, max: 4 },
      weapons: [{ id: 'crossbow', loaded: false, ammunition: 9, ready: false }],
    });
    const next = exact(events, ranged('sera', 'veyr', 'bow', 0), { dice: [1], rerollFaces: [1] });
    expect(find(next, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
  });
});

describe('Calculating Wounds and Applying Wounds, worked by hand', () => {
  it('"Ready dice always come before Used dice, regardless of type": 5 Wounds to a combatant that prefers MD take Ready MD, Ready AD, Used MD, then Used AD twice; below half and more than half make one check, which fails', () => {
    const t = sheet({ maxAD: 3, maxMD: 2, woundPreference: 'MD_FIRST' });
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 't', sheet: t },
      ],
      'mira',
    );
    // t pays for a power outside its activation (N43): 2 AD and 1 MD become Used.
    events = then(events, { type: 'SpendDice', combatantId: 't', ad: 2, md: 1, reason: 'a power' });
    expect(shown(events, 't')).toMatchObject({
      ad: { ready: 1, used: 2, wounded: 0, max: 3 },
      md: { ready: 1, used: 1, wounded: 0, max: 2 },
    });
    // Mira: sword cost 1 + Boost 3 (Melee SL 3) = 4 AD: 6, 3, 1, 1 = 3 dots against No Response (target number 0).
    // Hit Margin 3; Strike 2 + min(Agility 3, cap 3) = 5 (Agility over Strength 2); Soak 1. 3 + 5 − 1 = 7 → 5 Wounds.
    const out = exact(events, melee('mira', 't', 3, { response: { response: 'none' } }), {
      dice: [6, 3, 1, 1],
      followUpFaces: [1, 2],
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      hitMargin: 3,
      damageVital: 'agility',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'MD', from: 'used' },
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
      ],
      vitalityBefore: 8,
      vitality: 3,
      firstBelowHalf: true,
    });
    // Vitality 3 of 8 is below half, and 5 Wounds are more than half of 8: one check, Resilience 2 dice, 1 and 2 = 0 dots.
    expect(all(out, 'ContinuationChecked')).toEqual([
      expect.objectContaining({
        triggers: ['belowHalf', 'heavyWounds'],
        dots: 0,
        passed: false,
        state: 'Withdrawn',
      }),
    ]);
    events = [...events, ...out];
    expect(shown(events, 't')).toMatchObject({
      state: 'Withdrawn',
      vitality: 3,
      ad: { ready: 0, used: 0, wounded: 3, max: 3 },
      md: { ready: 0, used: 0, wounded: 2, max: 2 },
    });
  });

  it('"Strike Rating = Weapon Damage + min(active Damage Vital, Damage Vital Cap)": a heavy mace swung with Strength 5 counts only its cap of 3; a Full Guard beaten by 1 leaves Wound Margin 1 + 5 − 2 = 4, 2 Wounds', () => {
    const brute = sheet({ vitals: { strength: 5, agility: 1, resilience: 2 }, weapons: [mace] });
    const guard = sheet({ armour: { soak: 2 } });
    const events = fight(
      [
        { id: 'brute', sheet: brute },
        { id: 'guard', sheet: guard },
      ],
      'brute',
    );
    // Brute: 1 AD + Boost 1 = 2 dice, 6 and 4 = 3 dots. Guard: 1 AD, face 2; Advantage rerolls it to 6 = 2 dots.
    const out = exact(
      events,
      {
        type: 'DeclareExchange',
        attackerId: 'brute',
        targetId: 'guard',
        kind: 'melee',
        weaponId: 'mace',
        boost: 1,
        response: { response: 'fullGuard' },
      },
      { dice: [6, 4, 2], rerollFaces: [6] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', hitMargin: 1 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      damageVital: 'strength',
      strikeRating: 5,
      protectionRating: 2,
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
    });
  });
});

describe('Continuation Checks at an odd Maximum Vitality, worked by hand', () => {
  // Maximum Vitality 7: half is 3½. Vitality 4 is not below it, 3 is; 3 Wounds are not more than it, 4 are.
  const seven = sheet({ maxVitality: 7 });
  const start = () =>
    fight(
      [
        { id: 'gm', sheet: sheet() },
        { id: 'a', sheet: seven },
      ],
      'gm',
    );
  const harm = (extra: Record<string, unknown>) => ({
    type: 'ApplyWounds',
    combatantId: 'a',
    harm: 'Elemental (Fire)',
    ...extra,
  });

  it('"Their current Vitality falls below half their Maximum Vitality for the first time in that combat": 7 → 4 makes no check, 4 → 3 makes one, 3 → 1 none, and the Wounds that Collapse make none', () => {
    // Wound Margin 5 → 3 Wounds: Vitality 4; 2 · 4 = 8 is not below 7, 2 · 3 = 6 is not more than 7.
    let events = then(start(), harm({ woundMargin: 5 }));
    expect(find(events.slice(-1), 'WoundsApplied')).toMatchObject({ wounds: 3, vitality: 4 });
    expect(find(events.slice(-1), 'WoundsApplied').firstBelowHalf).toBeUndefined();
    // Wound Margin 2 → 1 Wound: Vitality 3, below half for the first time: a check (6 and 1: 2 dots, passed).
    const below = exact(events, harm({ woundMargin: 2 }), { followUpFaces: [6, 1] });
    expect(find(below, 'WoundsApplied')).toMatchObject({ wounds: 1, vitality: 3, firstBelowHalf: true });
    expect(find(below, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf'],
      dots: 2,
      passed: true,
    });
    events = [...events, ...below];
    // Wound Margin 4 → 2 Wounds: Vitality 1, below half again but not for the first time; 4 is not more than 7.
    const again = exact(events, harm({ woundMargin: 4 }));
    expect(types(again)).toEqual(['WoundsApplied']);
    events = [...events, ...again];
    // 4 Wounds are more than half of 7, but they leave Vitality −3: Collapsed characters make no check.
    const down = exact(events, harm({ wounds: 4 }));
    expect(types(down)).toEqual(['WoundsApplied']);
    expect(find(down, 'WoundsApplied')).toMatchObject({ vitality: -3, state: 'Collapsed' });
    expect(shown([...events, ...down], 'a')).toMatchObject({
      state: 'Collapsed',
      vitality: -3,
      ad: { ready: 0, used: 0, wounded: 5, max: 5 },
    });
  });

  it('"If the same damage source meets both conditions, make only one Continuation Check": 4 Wounds at once to Maximum Vitality 7 leave Vitality 3', () => {
    const out = exact(start(), harm({ wounds: 4 }), { followUpFaces: [2, 5] });
    expect(all(out, 'ContinuationChecked')).toEqual([
      expect.objectContaining({ triggers: ['belowHalf', 'heavyWounds'], dice: 2, dots: 1, passed: true }),
    ]);
  });
});

describe('Skill Level In Combat and the GM’s cancellation, with the view', () => {
  it('"Proactive Melee uses during your activation = Melee SL + 1": Mira (SL 3) has 4; a cancelled exchange gives its use and AD back, a shove spends one, the fifth is refused, and her next activation has 4 again', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: sheet({ weapons: [mace] }) },
      ],
      'mira',
    );
    // Ranged SL 0 still gives "Minimum = 1 proactive use".
    expect(shown(events, 'mira').proactiveUsesLeft).toEqual({ melee: 4, ranged: 1 });
    // Three swings of 1 AD each against No Response, each rolling a 1: 0 dots against target number 0 lands nothing.
    for (let i = 0; i < 3; i++)
      events = then(events, melee('mira', 'orin', 0, { response: { response: 'none' } }), { dice: [1] });
    expect(shown(events, 'mira')).toMatchObject({
      proactiveUsesLeft: { melee: 1, ranged: 1 },
      ad: { ready: 2, used: 3, wounded: 0, max: 5 },
    });
    // The fourth waits for Orin's response; the GM withdraws it (N29).
    events = then(events, melee('mira', 'orin', 0));
    expect(shown(events, 'mira')).toMatchObject({
      proactiveUsesLeft: { melee: 0, ranged: 1 },
      ad: { ready: 1, used: 4 },
    });
    expect(view(events).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'orin' });
    events = then(events, { type: 'CancelPending' });
    expect(view(events)).toMatchObject({ exchange: null, pending: null });
    expect(shown(events, 'mira')).toMatchObject({
      proactiveUsesLeft: { melee: 1, ranged: 1 },
      ad: { ready: 2, used: 3 },
    });
    // "Melee uses include … shoves": a shove paid with no die spends the last use; a fifth swing is refused.
    events = then(events, { type: 'SpendDice', combatantId: 'mira', ad: 0, md: 0, proactiveUse: 'melee' });
    expect(shown(events, 'mira').proactiveUsesLeft).toEqual({ melee: 0, ranged: 1 });
    expect(refusal(events, melee('mira', 'orin', 0))).toMatchObject({
      code: 'NARATEER_PROACTIVE_LIMIT',
      field: 'kind',
    });
    // Round 2: at the start of her own activation her Used AD become Ready and her uses reset (C7).
    for (const type of ['EndActivation', 'StartActivation', 'EndActivation', 'StartRound'])
      events = then(events, { type });
    const refreshed = exact(events, { type: 'StartActivation' });
    expect(find(refreshed, 'DiceRefreshed')).toEqual({
      combatantId: 'mira',
      ad: { ready: 5, used: 0, wounded: 0 },
      md: { ready: 0, used: 0, wounded: 0 },
    });
    expect(shown([...events, ...refreshed], 'mira').proactiveUsesLeft).toEqual({ melee: 4, ranged: 1 });
  });
});

describe('Durations the view shows, worked by hand', () => {
  it('"Lingering Harm causes 1 Wound at the end of each round" unless its source says otherwise: 2 Wounds a tick for 2 rounds on Maximum Vitality 4 ticks at each round’s end, shows its end round, and ends with the second', () => {
    const four = sheet({ maxVitality: 4 });
    let events = fight(
      [
        { id: 'a', sheet: four },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'a',
      form: 'Bleeding',
      source: 'axe',
      wounds: 2,
      rounds: 2,
    });
    // "rounds: 2" counts the open round 1: it lasts to the end of round 2 (N38).
    expect(shown(events, 'a').lingeringHarm).toEqual([
      expect.objectContaining({
        form: 'Bleeding',
        harmLabel: 'Affliction (Bleeding)',
        wounds: 2,
        appliedRound: 1,
        tick: 'roundEnd',
        untilRound: 2,
        ticksLeft: null,
      }),
    ]);
    // The same source again, 1 Wound for 1 round, changes nothing: the worse of each term stays (N39).
    expect(
      exact(events, {
        type: 'ApplyLingeringHarm',
        combatantId: 'a',
        form: 'Bleeding',
        source: 'axe',
        wounds: 1,
        rounds: 1,
      }),
    ).toEqual([]);
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartActivation' });
    // Round 1's end: 2 Wounds, Vitality 2. 2 · 2 = 4 is not below 4, and 2 · 2 is not more than 4: no check.
    const end1 = exact(events, { type: 'EndActivation' });
    expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(find(end1, 'WoundsApplied')).toMatchObject({
      wounds: 2,
      vitality: 2,
      harmLabel: 'Affliction (Bleeding)',
    });
    events = [...events, ...end1];
    expect(shown(events, 'a').lingeringHarm).toHaveLength(1);
    for (const type of ['StartRound', 'StartActivation', 'EndActivation', 'StartActivation'])
      events = then(events, { type });
    // Round 2's end: 2 more Wounds, Vitality 0: Collapsed, no check; then its duration is over.
    const end2 = exact(events, { type: 'EndActivation' });
    expect(types(end2)).toEqual(['ActivationEnded', 'WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(find(end2, 'WoundsApplied')).toMatchObject({ vitality: 0, state: 'Collapsed' });
    expect(find(end2, 'LingeringHarmEnded')).toMatchObject({ reason: 'rounds' });
    expect(shown([...events, ...end2], 'a')).toMatchObject({ state: 'Collapsed', lingeringHarm: [] });
  });

  it('"Multiple instances of the same condition don’t stack; use the worst intensity or duration": the view shows the higher intensity and the later end, which comes at that round’s end', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    const prone = (extra: Record<string, unknown>) => ({
      type: 'ApplyCondition',
      combatantId: 'b',
      condition: 'prone',
      ...extra,
    });
    events = then(events, prone({ intensity: 1, rounds: 2 }));
    expect(shown(events, 'b').conditions).toEqual([{ condition: 'prone', intensity: 1, untilRound: 2 }]);
    // Intensity 2 for 1 round: the higher intensity, the later end.
    const worse = exact(events, prone({ intensity: 2, rounds: 1 }));
    expect(worse.map((e) => e.data)).toEqual([
      { combatantId: 'b', condition: 'prone', intensity: 2, untilRound: 2 },
    ]);
    events = [...events, ...worse];
    // Nothing worse: nothing recorded.
    expect(exact(events, prone({ intensity: 1, rounds: 1 }))).toEqual([]);
    for (const type of ['EndActivation', 'StartActivation', 'EndActivation']) events = then(events, { type });
    expect(shown(events, 'b').conditions).toEqual([{ condition: 'prone', intensity: 2, untilRound: 2 }]);
    for (const type of ['StartRound', 'StartActivation', 'EndActivation', 'StartActivation'])
      events = then(events, { type });
    const end2 = exact(events, { type: 'EndActivation' });
    expect(types(end2)).toEqual(['ActivationEnded', 'ConditionRemoved', 'RoundEnded']);
    expect(find(end2, 'ConditionRemoved')).toEqual({
      combatantId: 'b',
      condition: 'prone',
      reason: 'expired',
    });
    events = [...events, ...end2];
    expect(shown(events, 'b').conditions).toEqual([]);
    // Between rounds, "1 round" is the next one (round 3).
    events = then(events, prone({ rounds: 1 }));
    expect(shown(events, 'b').conditions).toEqual([{ condition: 'prone', intensity: null, untilRound: 3 }]);
  });
});
