import { RuleEvent } from '../../src/core/types';
import {
  at,
  duel,
  exact,
  fight,
  find,
  melee,
  move,
  ranged,
  refusal,
  respond,
  sera,
  sheet,
  spear,
  stateOf,
  take,
  then,
  types,
  veyr,
} from './helpers';

/**
 * narateer.txt played as whole short fights, several rounds each, every number worked by hand from the text before the
 * engine was asked (N1: faces 1–2 are 0 dots, 3–5 one dot, 6 two dots; N2: Advantage rerolls the lowest face and keeps
 * the better, Disadvantage the highest and keeps the worse). Each step asserts the events and the state it leaves.
 */

const wounded = (events: RuleEvent[]) => find(events, 'WoundsApplied');

describe('A melee duel over three rounds: Lingering Harm, a condition that expires, a Continuation Check, undo', () => {
  it('"Lingering Harm causes 1 Wound at the end of each round until treated", "If a creature cannot see you but knows your position, its attacks against you have Disadvantage" and "0 dots: The combatant fails and cannot continue the current fight": Mira and Orin, worked round by round', () => {
    // Round 1, Mira's activation. The GM opens a cut on Orin and blinds him for this round.
    let events = then(duel(), {
      type: 'ApplyLingeringHarm',
      combatantId: 'orin',
      form: 'Bleeding',
      source: 'cut',
    });
    events = then(events, { type: 'ApplyCondition', combatantId: 'orin', condition: 'blinded', rounds: 1 });
    expect(stateOf(events).combatants.orin.conditions).toEqual([
      { condition: 'blinded', intensity: undefined, untilRound: 1 },
    ]);

    // Mira: sword cost 1 + Boost 1 = 2 AD. Orin is Blinded: Mira is unseen by him, her first attack gains Advantage
    // (N41); his Clash (mace, 1 AD) is at Disadvantage (he cannot see her).
    events = then(events, melee('mira', 'orin', 1));
    const x1 = exact(events, respond('orin', 'clash', 0), { dice: [4, 1, 3], rerollFaces: [6, 5] });
    // Mira 4, 1 = 1 dot; Advantage rerolls the 1 into a 6: 4, 6 = 3. Orin 3 = 1 dot; Disadvantage rerolls it into a
    // 5: 1 dot, not worse, the original stays. Mira wins by 2.
    expect(find(x1, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      winnerId: 'mira',
      hitMargin: 2,
      attacker: { edge: 'advantage', faces: [4, 6], total: 3 },
      responder: { edge: 'disadvantage', faces: [3], total: 1, reroll: { kept: 'original' } },
    });
    // Strike Rating 2 + min(Agility 3, cap 3) = 5, Protection 1: Wound Margin 6, 3 Wounds. Orin had 4 Ready AD and 1
    // Used (his Clash): the 3 Wounds take Ready AD. Vitality 5 of 8 is not below half; 3 Wounds are not more than 4.
    expect(wounded(x1)).toMatchObject({
      combatantId: 'orin',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
      ad: { ready: 1, used: 1, wounded: 3 },
    });
    expect(types(x1)).not.toContain('ContinuationChecked');
    events = [...events, ...x1];
    expect(stateOf(events).combatants.mira.ad).toEqual({ ready: 3, used: 2, wounded: 0 });

    // Orin's activation: his Used die becomes Ready (2 Ready AD). Still Blinded, his mace attack (1 + Boost 1) has
    // Disadvantage; Mira Full Guards with Boost 1 (Melee SL 3): 2 dice with Advantage.
    events = then(events, { type: 'EndActivation' });
    const started = exact(events, { type: 'StartActivation' });
    expect(find(started, 'DiceRefreshed')).toMatchObject({
      combatantId: 'orin',
      ad: { ready: 2, used: 0, wounded: 3 },
    });
    events = [...events, ...started];
    events = then(events, {
      type: 'DeclareExchange',
      attackerId: 'orin',
      targetId: 'mira',
      kind: 'melee',
      weaponId: 'mace',
      boost: 1,
    });
    const x2 = exact(events, respond('mira', 'fullGuard', 1), { dice: [6, 3, 2, 5], rerollFaces: [4, 6] });
    // Orin 6, 3 = 3 dots; Disadvantage rerolls the 6 into a 4, worse, kept: 4, 3 = 2. Mira 2, 5 = 1 dot; Advantage
    // rerolls the 2 into a 6: 6, 5 = 3. The guard's 3 is at least 2: stopped, nobody is hurt.
    expect(find(x2, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      attacker: { faces: [4, 3], total: 2 },
      responder: { faces: [6, 5], total: 3 },
    });
    expect(types(x2)).not.toContain('WoundsApplied');
    events = [...events, ...x2];

    // Orin's is the round's last activation: the Bleeding ticks (no Ready die left: his Used AD), then the Blindness
    // given for one round ends, then the round.
    const end1 = exact(events, { type: 'EndActivation' });
    expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'ConditionRemoved', 'RoundEnded']);
    expect(wounded(end1)).toMatchObject({
      lingeringHarmId: 'lh1',
      harmLabel: 'Affliction (Bleeding)',
      dice: [{ kind: 'AD', from: 'used' }],
      vitality: 4,
      ad: { ready: 0, used: 1, wounded: 4 },
    });
    // Vitality 4 of 8 is exactly half, not below it: no check.
    expect(types(end1)).not.toContain('ContinuationChecked');
    expect(find(end1, 'ConditionRemoved')).toEqual({
      combatantId: 'orin',
      condition: 'blinded',
      reason: 'expired',
    });
    events = [...events, ...end1];

    // Round 2, Mira's activation: her 4 Used AD become Ready (5). Orin sees her again: no Advantage from being unseen.
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(events).combatants.mira.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
    const before = stateOf(events);
    const attack = melee('mira', 'orin', 3);
    // Orin has no Ready AD: No Response, target number 0. Mira 1, 1, 3, 2 = 1 dot: Hit Margin 1, Wound Margin 5,
    // 3 Wounds. His one Used AD takes the first; the other two lower Vitality alone: 4 → 1, below half for the first
    // time (2 < 8): a check of Resilience 2 dice, 2, 1 = 0 dots: Withdrawn.
    const x3 = exact(events, attack, { dice: [1, 1, 3, 2], followUpFaces: [2, 1] });
    expect(find(x3, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    expect(find(x3, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: [] });
    expect(wounded(x3)).toMatchObject({
      hitMargin: 1,
      woundMargin: 5,
      wounds: 3,
      dice: [{ kind: 'AD', from: 'used' }],
      vitality: 1,
      firstBelowHalf: true,
    });
    expect(find(x3, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf'],
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });

    // C8: the GM undoes the attack. The state is the fold of every event not undone: Mira's AD and proactive use
    // are back, Orin is Active at Vitality 4, and the next exchange is x3 again.
    expect(stateOf(events)).toEqual(before);
    expect(stateOf([...events, ...x3]).combatants.orin.withdrawn).toBe(true);
    // Sent again with other dice: 6, 6, 1, 1 = 4 dots: Wound Margin 4 + 5 − 1 = 8, 5 Wounds: Vitality −1, Collapsed,
    // and a Collapsed combatant makes no check.
    const redo = exact(events, attack, { dice: [6, 6, 1, 1] });
    expect(find(redo, 'ExchangeDeclared').exchangeId).toBe('x3');
    expect(wounded(redo)).toMatchObject({ woundMargin: 8, wounds: 5, vitality: -1, state: 'Collapsed' });
    expect(types(redo)).not.toContain('ContinuationChecked');

    // The first version stands for the rest of the fight. Orin, Withdrawn, gets no activation: Mira's ends the round,
    // and the Bleeding still ticks on him: Vitality 0, Collapsed, no check.
    events = [...events, ...x3];
    const end2 = exact(events, { type: 'EndActivation' });
    expect(types(end2)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(wounded(end2)).toMatchObject({ dice: [], vitality: 0, state: 'Collapsed' });
    events = [...events, ...end2];

    // Round 3: treated, the Bleeding no longer ticks; Mira's activation is the round.
    events = then(events, { type: 'TreatLingeringHarm', combatantId: 'orin', lingeringHarmId: 'lh1' });
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('mira');
    expect(types(exact(events, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
  });
});

describe('An exchange of fire over two rounds: range, Loading, ammunition, Burning, an Invisible shooter', () => {
  const crossbow = { ...(veyr.weapons as Record<string, unknown>[])[0], ammunition: 2 };

  it('"An attack beyond Effective Range but within Maximum Range has Disadvantage", "Firing expends ammunition and resolves the weapon\'s Loading state whether that combatant wins or loses the exchange" and "Your first attack while unseen by its target gains Advantage": Sera and Veyr 15 Spaces apart', () => {
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: { ...veyr, weapons: [crossbow] } },
      ],
      'sera',
    );
    events = at(at(events, 'sera', 0, 0), 'veyr', 15, 0);

    // Sera's bow (Effective 12, Maximum 30), Boost 2: 3 AD at Disadvantage. Veyr Full Guards with Acrobatics SL 1,
    // Boost 1: 2 dice with Advantage.
    events = then(events, ranged('sera', 'veyr', 'bow', 2));
    const x1 = exact(events, respond('veyr', 'fullGuard', 1), { dice: [6, 4, 2, 1, 3], rerollFaces: [3, 4] });
    // Sera 6, 4, 2 = 3 dots; the 6 rerolled into a 3, worse, kept: 2. Veyr 1, 3 = 1; the 1 rerolled into a 4: 2.
    // 2 against 2: Full Guard stops the arrow, and the arrow is spent.
    expect(find(x1, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      attacker: { sources: { disadvantage: ['beyondEffectiveRange'] }, total: 2 },
      responder: { skill: 'acrobatics', total: 2 },
    });
    expect(find(x1, 'WeaponFired')).toMatchObject({ combatantId: 'sera', ammunition: 19, loaded: true });
    events = [...events, ...x1];

    // Second shot (Ranged SL 2: 3 proactive uses), Boost 1: her last 2 Ready AD. Veyr returns fire with his crossbow
    // (cost 2, his last 2 Ready AD): 15 is beyond its Effective Range 10, so his roll has Disadvantage too.
    events = then(events, ranged('sera', 'veyr', 'bow', 1));
    const x2 = exact(events, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [6, 5, 6, 2],
      rerollFaces: [5, 1],
      followUpFaces: [6, 1],
    });
    // Sera 6, 5 = 3; the 6 into a 5: 2. Veyr 6, 2 = 2; the 6 into a 1: 0. Sera by 2: Strike 2 + min(Agility 3, cap 3)
    // = 5, Protection 1: Wound Margin 6, 3 Wounds. Veyr's 4 AD are all Used: 3 of them become Wounded.
    expect(find(x2, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', hitMargin: 2 });
    expect(
      x2
        .filter((e) => e.type === 'WeaponFired')
        .map((e) => [e.data.combatantId, e.data.ammunition, e.data.loaded]),
    ).toEqual([
      ['sera', 18, true],
      ['veyr', 1, false],
    ]);
    // Vitality 1 of 4 is below half and 3 Wounds are more than 2: one check, 6, 1 = 2 dots, a pass.
    expect(wounded(x2)).toMatchObject({ wounds: 3, vitality: 1, ad: { ready: 0, used: 1, wounded: 3 } });
    expect(find(x2, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      passed: true,
    });
    events = [...events, ...x2];

    // Veyr's activation: 1 Ready AD. Reloading costs nothing, but the crossbow's Base Attack Cost 2 is more than he has.
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(stateOf(events).combatants.veyr.ad).toEqual({ ready: 1, used: 0, wounded: 3 });
    events = then(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(stateOf(events).combatants.veyr.weapons.crossbow).toEqual({ loaded: true, ammunition: 1 });
    expect(refusal(events, ranged('veyr', 'sera', 'crossbow', 0))).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'weaponId',
    });
    // The GM sets Sera burning for two rounds. Round 1 ends: its tick takes a Used AD (none is Ready).
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'sera', form: 'Burning', rounds: 2 });
    const end1 = exact(events, { type: 'EndActivation' });
    expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(wounded(end1)).toMatchObject({
      combatantId: 'sera',
      harmLabel: 'Elemental (Fire)',
      dice: [{ kind: 'AD', from: 'used' }],
      vitality: 5,
    });
    events = [...events, ...end1];

    // Round 2: Sera turns Invisible for this round. Her first shot at Veyr gains Advantage, the range still gives
    // Disadvantage: they cancel. Veyr cannot Clash (1 Ready AD, cost 2): Full Guard, 1 die with Advantage.
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    events = then(events, { type: 'ApplyCondition', combatantId: 'sera', condition: 'invisible', rounds: 1 });
    events = then(events, ranged('sera', 'veyr', 'bow', 2));
    expect(stateOf(events).exchange?.edge).toEqual({
      advantage: ['unseenAttacker'],
      disadvantage: ['beyondEffectiveRange'],
    });
    expect(refusal(events, respond('veyr', 'clash', 0))).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
    });
    const x3 = exact(events, respond('veyr', 'fullGuard', 0), { dice: [3, 3, 5, 2], rerollFaces: [6] });
    // Sera 3, 3, 5 = 3, no reroll. Veyr 2 rerolled into a 6: 2. Sera by 1: Wound Margin 5, 3 Wounds; his one Used AD
    // takes the first: Vitality −2, Collapsed, no check.
    expect(find(x3, 'ExchangeResolved')).toMatchObject({
      attacker: { edge: 'none', total: 3 },
      hitMargin: 1,
    });
    expect(wounded(x3)).toMatchObject({ wounds: 3, vitality: -2, state: 'Collapsed' });
    expect(types(x3)).not.toContain('ContinuationChecked');
    events = [...events, ...x3];
    expect(stateOf(events).combatants.sera.unseenAttacks).toEqual(['veyr']);

    // Veyr gets no activation: Sera's ends round 2. Burning ticks (a Ready AD now), then its two rounds are over, and so
    // is the Invisibility; seen again, Sera has no first unseen attack on record.
    const end2 = exact(events, { type: 'EndActivation' });
    expect(types(end2)).toEqual([
      'ActivationEnded',
      'WoundsApplied',
      'LingeringHarmEnded',
      'ConditionRemoved',
      'RoundEnded',
    ]);
    expect(wounded(end2)).toMatchObject({ dice: [{ kind: 'AD', from: 'ready' }], vitality: 4 });
    expect(find(end2, 'LingeringHarmEnded')).toMatchObject({ form: 'Burning', reason: 'rounds' });
    const sEnd = stateOf([...events, ...end2]).combatants.sera;
    expect(sEnd).toMatchObject({ ad: { ready: 0, used: 3, wounded: 2 }, conditions: [], lingering: [] });
    expect(sEnd.unseenAttacks).toBeUndefined();
    expect(sEnd.weapons.bow).toEqual({ loaded: true, ammunition: 17 });
  });
});

describe('Three on a map: Opportunity Attacks step by step, then two combatants leave and the rounds move on', () => {
  it('"Each qualifying step creates a new opportunity", "entering or leaving melee reach does not trigger an Opportunity Attack" and docs/rulings.md C16: h walks past k and into g’s spear, then g and k leave the fight', () => {
    const g = sheet({ maxAD: 4, weapons: [spear] });
    const k = sheet({ skills: { melee: 2, ranged: 1, acrobatics: 1 } });
    let events = fight(
      [
        { id: 'g', sheet: g, side: 'A' },
        { id: 'h', sheet: sheet(), side: 'B' },
        { id: 'k', sheet: k, side: 'A' },
      ],
      'h',
    );
    events = at(at(at(events, 'g', 0, 0), 'k', 3, 1), 'h', 4, 0);

    // (4,0) → (3,0): both within k's reach 1 (k at (3,1)); g's spear (reach 2) reaches neither. The move stops there.
    const m1 = exact(
      events,
      move('h', [
        [3, 0],
        [2, 0],
        [1, 0],
      ]),
    );
    expect(find(m1, 'Moved')).toMatchObject({ to: { x: 3, y: 0 }, stoppedBefore: 2 });
    expect(find(m1, 'OpportunitiesIdentified').reactorIds).toEqual(['k']);
    events = [...events, ...m1];
    // k strikes outside its activation, Boost 1 (Melee SL 2): 5, 2 = 1 dot. h Clashes with 1 die: 4 = 1 dot. A tie.
    events = then(events, take('k', { boost: 1 }));
    const x1 = exact(events, respond('h', 'clash', 0), { dice: [5, 2, 4] });
    expect(types(x1)).toEqual(['ExchangeResponded', 'ExchangeResolved', 'OpportunitiesFinished']);
    expect(find(x1, 'ExchangeResolved').outcome).toBe('tie');
    events = [...events, ...x1];
    expect(stateOf(events).combatants.k.uses.melee).toBe(0);

    // (3,0) → (2,0): still within k's reach: a new opportunity, which k declines. g's reach starts at (2,0): entering.
    const m2 = exact(
      events,
      move('h', [
        [2, 0],
        [1, 0],
      ]),
    );
    expect(find(m2, 'OpportunitiesIdentified').reactorIds).toEqual(['k']);
    events = then([...events, ...m2], { type: 'DeclineOpportunity', combatantId: 'k' });
    // (2,0) → (1,0): within g's reach both times; leaving k's reach does not trigger.
    const m3 = exact(events, move('h', [[1, 0]]));
    expect(find(m3, 'OpportunitiesIdentified').reactorIds).toEqual(['g']);
    events = [...events, ...m3];
    // g's spear, Boost 1 (Melee SL 1), answered up front by h's Full Guard, Boost 1. g 6, 3 = 3. h 1, 2 = 0; the 1
    // rerolled into a 6: 2. g by 1: Strike 2 + min(Strength 2, cap 2) = 4, Protection 1: Wound Margin 4, 2 Wounds,
    // both Ready AD (h had committed 1 to his Clash and 2 to this guard).
    const x2 = exact(
      events,
      take('g', { weaponId: 'spear', boost: 1, response: { response: 'fullGuard', boost: 1 } }),
      { dice: [6, 3, 1, 2], rerollFaces: [6] },
    );
    expect(wounded(x2)).toMatchObject({
      combatantId: 'h',
      hitMargin: 1,
      strikeRating: 4,
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
      ad: { ready: 0, used: 3, wounded: 2 },
    });
    events = [...events, ...x2];
    // h has taken no action yet but has no Ready AD for one.
    expect(refusal(events, melee('h', 'g', 0))).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD' });

    // g's activation (first waiting in the order): the GM opens a Bleeding on h. h makes No Response (no Ready AD);
    // g 3, 6 = 3 dots: Wound Margin 6, 3 Wounds on h's Used AD: Vitality 3, below half: a check, 5, 2 = 1 dot, a pass.
    events = then(events, { type: 'EndActivation' });
    const gStarts = exact(events, { type: 'StartActivation' });
    expect(find(gStarts, 'ActivationStarted').combatantId).toBe('g');
    events = then([...events, ...gStarts], {
      type: 'ApplyLingeringHarm',
      combatantId: 'h',
      form: 'Bleeding',
      source: 'spear',
    });
    const x3 = exact(events, melee('g', 'h', 1, { weaponId: 'spear' }), {
      dice: [3, 6],
      followUpFaces: [5, 2],
    });
    expect(wounded(x3)).toMatchObject({ wounds: 3, vitality: 3, ad: { ready: 0, used: 0, wounded: 5 } });
    expect(find(x3, 'ContinuationChecked')).toMatchObject({ triggers: ['belowHalf'], passed: true });
    events = [...events, ...x3];

    // C16: the GM removes g in its own activation; k still waits, so the round goes on with k.
    const gone = exact(events, { type: 'RemoveCombatant', combatantId: 'g' });
    expect(types(gone)).toEqual(['CombatantRemoved']);
    events = then([...events, ...gone], { type: 'StartActivation' });
    expect(stateOf(events)).toMatchObject({ activeId: 'k', order: ['h', 'k'] });
    // k steps toward h: (3,1) → (2,1) enters h's reach from outside it: no opportunity.
    const m4 = exact(events, move('k', [[2, 1]]));
    expect(types(m4)).toEqual(['Moved']);
    events = [...events, ...m4];
    // 1, 2, 1 against target number 0: 0 dots land nothing (N30).
    const x4 = exact(events, melee('k', 'h', 2), { dice: [1, 2, 1] });
    expect(find(x4, 'ExchangeResolved')).toMatchObject({ outcome: 'tie', targetNumber: 0 });
    events = [...events, ...x4];
    // C16: removing k, whose activation runs and for whom nobody waits, ends the round: the Bleeding ticks on h,
    // who has no die left: Vitality 2, already below half once, no check.
    const kGone = exact(events, { type: 'RemoveCombatant', combatantId: 'k' });
    expect(types(kGone)).toEqual(['CombatantRemoved', 'WoundsApplied', 'RoundEnded']);
    expect(wounded(kGone)).toMatchObject({ combatantId: 'h', dice: [], vitality: 2 });
    events = [...events, ...kGone];

    // Round 2: h alone. Its activation refreshes nothing (every AD is Wounded); its end ends the round.
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(events).combatants.h.ad).toEqual({ ready: 0, used: 0, wounded: 5 });
    const end2 = exact(events, { type: 'EndActivation' });
    expect(types(end2)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(wounded(end2)).toMatchObject({ vitality: 1, state: 'Active' });
  });
});

describe('A round that waits for someone knocked out', () => {
  it('N46 with N59: given a round that waits only for b, between activations, when the GM knocks b out (Unconscious), then the round stays open: b keeps its activation, takes no action in it, and its end ends the round', () => {
    let events = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
    ]);
    events = then(then(events, { type: 'StartActivation' }), { type: 'EndActivation' });
    const out = exact(events, { type: 'ApplyCondition', combatantId: 'b', condition: 'unconscious' });
    expect(types(out)).toEqual(['ConditionApplied']);
    events = [...events, ...out];
    expect(stateOf(events)).toMatchObject({ roundOpen: true, activeId: undefined });
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('b');
    expect(refusal(events, melee('b', 'a', 0))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
    expect(types(exact(events, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
  });
});
