import { RuleEvent } from '../../src/core/types';
import { at, exact, fight, Fighter, move, sheet, stateOf, take, then, types } from './helpers';

/**
 * N59 with N45: between two activations the round waits only for b; the GM moves b by force (N24 `forced`) past two
 * foes. "Before each attack, check that the attacker can still perceive, reach and legally attack the creature": a
 * foe's attack that collapses b leaves the next foe its attack (N45), and once the queue is done the round has no one
 * left to wait for. "The text has no round that goes on with nobody to act in it" (N59): the command that settles the
 * queue's last decision ends the round, as the last EndActivation would have, Lingering Harm ticking at its end (C7).
 *
 * Every number by hand. N1: a face of 3–5 is 1 dot, 6 is 2 dots. The foes g1 and g2 carry an arming sword (Base
 * Attack Cost 1, Weapon Damage 2, Damage Vital Cap 3, reach 1), Strength 2 and Agility 2, 5 Ready AD, Vitality 8,
 * Soak 1. b has Maximum Vitality 1 (so Vitality 1), 5 Ready AD and Soak 1.
 * - g1’s Opportunity Attack: 1 AD (Base Attack Cost, no Boost); b answers No Response up front; face 6 = 2 dots against
 *   target number 0: Hit Margin 2. Strike Rating 2 + min(2, 3) = 4, Protection Rating 1 (Soak): Wound Margin
 *   2 + 4 − 1 = 5, 3 Wounds (5–6 → 3). b: Vitality 1 → −2, Collapsed (no Continuation Check); 3 Ready dice Wounded.
 * - g2’s Opportunity Attack: b is Collapsed, so No Response is forced (N20); face 3 = 1 dot: Hit Margin 1,
 *   Wound Margin 1 + 4 − 1 = 4, 2 Wounds (3–4 → 2). b: Vitality −2 → −4, still Collapsed; its last 2 Ready AD Wounded.
 * - g1 bleeds (Lingering Harm: Bleeding, 1 Wound of Affliction (Bleeding) at the end of each round, N11, N19). At
 *   the round’s end g1 has 4 Ready AD and 1 Used AD (its attack’s): the Wound takes a Ready AD (4 → 3 Ready,
 *   1 Wounded), Vitality 8 → 7: not below half of 8, and 1 Wound is not more than 4: no Continuation Check.
 */

const foe = sheet();
const frail = sheet({ maxVitality: 1 });
/** b chooses where its Wounds go (N9): 5 AD and 2 MD, so both kinds are Ready at each of its two hits. */
const frailAsk = sheet({ maxVitality: 1, maxMD: 2, woundPreference: 'ASK' });
const bleed = 'Affliction (Bleeding)';

interface Setup {
  /** b’s sheet (default: Vitality 1, AD only). */
  b?: Record<string, unknown>;
  /** Who has had an activation this round (default g1 and g2). */
  acted?: string[];
  /** Whether g2 stands in reach of b’s step (default yes); without it g1 alone reacts. */
  twoFoes?: boolean;
  /** c, b’s ally, off the map and last in the order: with it, the round also waits for c. */
  withC?: boolean;
}

/**
 * Round 1 in the order g1, g2, b (then c): those in `acted` have had their activations, none runs. b (side b) on (0,0),
 * g1 on (1,1), g2 on (1,−1) (side g): each of (0,0) and (1,0) is 1 Space from both. The GM applies Bleeding to g1, then
 * moves b by force to (1,0): both foes may react (initiative order), g1 is offered first.
 */
function forcedPast(setup: Setup = {}): RuleEvent[] {
  const fighters: Fighter[] = [
    { id: 'g1', sheet: foe, side: 'g' },
    { id: 'g2', sheet: foe, side: 'g' },
    { id: 'b', sheet: setup.b ?? frail, side: 'b' },
  ];
  if (setup.withC) fighters.push({ id: 'c', sheet: sheet(), side: 'b' });
  let events = fight(fighters);
  for (const id of setup.acted ?? ['g1', 'g2'])
    events.push(
      { type: 'ActivationStarted', data: { combatantId: id, round: 1 } },
      { type: 'ActivationEnded', data: { combatantId: id, round: 1 } },
    );
  events = at(at(events, 'b', 0, 0), 'g1', 1, 1);
  if (setup.twoFoes ?? true) events = at(events, 'g2', 1, -1);
  events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'g1', form: 'Bleeding' });
  const moved = exact(events, move('b', [[1, 0]], { forced: true }));
  expect(types(moved)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
  expect(moved[1].data).toMatchObject({ reactorIds: (setup.twoFoes ?? true) ? ['g1', 'g2'] : ['g1'] });
  return [...events, ...moved];
}

/** g1’s attack (face 6) collapses b: 3 Wounds, Vitality −2. */
function g1Collapses(events: RuleEvent[]): RuleEvent[] {
  const first = exact(events, take('g1', { response: 'none' }), { dice: [6] });
  expect(types(first)).toEqual([
    'ExchangeDeclared',
    'ExchangeResponded',
    'ExchangeResolved',
    'WoundsApplied',
    'OpportunityOffered',
  ]);
  expect(first[3].data).toMatchObject({
    combatantId: 'b',
    hitMargin: 2,
    strikeRating: 4,
    protectionRating: 1,
    woundMargin: 5,
    wounds: 3,
    vitalityBefore: 1,
    vitality: -2,
    state: 'Collapsed',
    ad: { ready: 2, used: 0, wounded: 3 },
  });
  expect(first[4].data).toEqual({ moverId: 'b', reactorId: 'g2' });
  return [...events, ...first];
}

/** g2’s attack (face 3) on the Collapsed b: forced No Response, 2 Wounds, Vitality −4. */
const g2Attacks = (events: RuleEvent[]) => exact(events, take('g2'), { dice: [3] });

/** The exchange g2’s attack gives, with the queue’s end. */
const g2Exchange = [
  'ExchangeDeclared',
  'ExchangeResponded',
  'ExchangeResolved',
  'WoundsApplied',
  'OpportunitiesFinished',
];

function expectG2Hit(events: RuleEvent[]): void {
  expect(events[1].data).toMatchObject({ combatantId: 'b', response: 'none', forced: 'collapsed' });
  expect(events[3].data).toMatchObject({
    combatantId: 'b',
    hitMargin: 1,
    strikeRating: 4,
    protectionRating: 1,
    woundMargin: 4,
    wounds: 2,
    vitalityBefore: -2,
    vitality: -4,
    state: 'Collapsed',
    ad: { ready: 0, used: 0, wounded: 5 },
  });
  expect(events[4]).toEqual({ type: 'OpportunitiesFinished', data: { moverId: 'b' } });
}

/** The round’s end, as the last EndActivation gives it: g1’s Bleeding ticks, then RoundEnded. */
function expectRoundEnd(end: RuleEvent[]): void {
  expect(types(end)).toEqual(['WoundsApplied', 'RoundEnded']);
  expect(end[0].data).toMatchObject({
    combatantId: 'g1',
    lingeringHarmId: 'lh1',
    harmLabel: bleed,
    wounds: 1,
    dice: [{ kind: 'AD', from: 'ready' }],
    vitalityBefore: 8,
    vitality: 7,
    state: 'Active',
    ad: { ready: 3, used: 1, wounded: 1 },
  });
  expect(end[0].data).not.toHaveProperty('firstBelowHalf');
  expect(end[1]).toEqual({ type: 'RoundEnded', data: { round: 1 } });
}

describe('N59 with N45: a forced move’s Opportunity Attacks leave the round no one to wait for', () => {
  it('N59 with N45: given a round that waits only for b and a forced move of b past two foes, when the first Opportunity Attack collapses b and the second foe attacks, then the round ends once that exchange resolves; with one foe, the attack that collapses b ends it', () => {
    const events = g1Collapses(forcedPast());
    expect(stateOf(events)).toMatchObject({
      roundOpen: true,
      pending: { kind: 'opportunityAttack', awaiting: 'g2' },
    });
    const second = g2Attacks(events);
    expect(types(second)).toEqual([...g2Exchange, 'WoundsApplied', 'RoundEnded']);
    expectG2Hit(second);
    expectRoundEnd(second.slice(g2Exchange.length));
    expect(stateOf([...events, ...second])).toMatchObject({ round: 1, roundOpen: false, pending: undefined });

    // g1 alone in reach: its attack is the queue’s last, and the round ends with it.
    const alone = forcedPast({ twoFoes: false });
    const only = exact(alone, take('g1', { response: 'none' }), { dice: [6] });
    expect(types(only)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'OpportunitiesFinished',
      'WoundsApplied',
      'RoundEnded',
    ]);
    expect(only[3].data).toMatchObject({ combatantId: 'b', wounds: 3, vitality: -2, state: 'Collapsed' });
    expectRoundEnd(only.slice(5));
  });

  it('N59 with N45: given the first Opportunity Attack has collapsed b, when the second foe declines its attack, then the round ends with the decline', () => {
    const events = g1Collapses(forcedPast());
    const declined = exact(events, { type: 'DeclineOpportunity', combatantId: 'g2' });
    expect(declined.slice(0, 2)).toEqual([
      { type: 'OpportunityDeclined', data: { moverId: 'b', reactorId: 'g2' } },
      { type: 'OpportunitiesFinished', data: { moverId: 'b' } },
    ]);
    expectRoundEnd(declined.slice(2));
    expect(stateOf([...events, ...declined])).toMatchObject({ round: 1, roundOpen: false });
  });

  it('N59 with N45: given the round also waits for c, when the forced move’s attacks collapse b, then the round stays open for c’s activation, whose end ends it; where it waited for b alone, the same attack ends it', () => {
    let events = g1Collapses(forcedPast({ withC: true }));
    const second = g2Attacks(events);
    expect(types(second)).toEqual(g2Exchange);
    expectG2Hit(second);
    events = [...events, ...second];
    expect(stateOf(events)).toMatchObject({
      round: 1,
      roundOpen: true,
      activeId: undefined,
      pending: undefined,
    });
    const started = exact(events, { type: 'StartActivation' });
    expect(started[0]).toEqual({ type: 'ActivationStarted', data: { combatantId: 'c', round: 1 } });
    events = [...events, ...started];
    const ended = exact(events, { type: 'EndActivation' });
    expect(ended[0]).toEqual({ type: 'ActivationEnded', data: { combatantId: 'c', round: 1 } });
    expectRoundEnd(ended.slice(1));

    const alone = g2Attacks(g1Collapses(forcedPast()));
    expect(types(alone)).toEqual([...g2Exchange, 'WoundsApplied', 'RoundEnded']);
  });

  it('N59 with N45: given a round that already waited for no one (b had its activation too), when the forced move’s attacks collapse b, then the round still waits for the GM’s EndRound (N28, N62); where it waited for b, the same attack ends it', () => {
    let events = g1Collapses(forcedPast({ acted: ['g1', 'g2', 'b'] }));
    const second = g2Attacks(events);
    expect(types(second)).toEqual(g2Exchange);
    expectG2Hit(second);
    events = [...events, ...second];
    expect(stateOf(events)).toMatchObject({
      round: 1,
      roundOpen: true,
      activeId: undefined,
      pending: undefined,
    });
    expectRoundEnd(exact(events, { type: 'EndRound' }));

    const waited = g2Attacks(g1Collapses(forcedPast()));
    expect(types(waited)).toEqual([...g2Exchange, 'WoundsApplied', 'RoundEnded']);
  });

  it('N59 with N45: given b’s player chooses where its Wounds go (ASK, N9, N58), when the second foe’s attack on the Collapsed b asks again, then the round ends with b’s answer', () => {
    let events = forcedPast({ b: frailAsk });
    // g1: 3 Wounds as above; b has 5 Ready AD and 2 Ready MD, so it chooses: MD, AD, AD.
    const first = exact(events, take('g1', { response: 'none' }), { dice: [6] });
    expect(types(first)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundAllocationRequested',
    ]);
    expect(first[3].data).toMatchObject({ combatantId: 'b', woundMargin: 5, wounds: 3 });
    events = [...events, ...first];
    const chose = exact(events, { type: 'AllocateWounds', combatantId: 'b', allocation: ['MD', 'AD', 'AD'] });
    expect(types(chose)).toEqual(['WoundsApplied', 'OpportunityOffered']);
    expect(chose[0].data).toMatchObject({
      vitality: -2,
      state: 'Collapsed',
      ad: { ready: 3, used: 0, wounded: 2 },
      md: { ready: 1, used: 0, wounded: 1 },
    });
    events = [...events, ...chose];
    // g2: 2 Wounds as above; b still has 3 Ready AD and 1 Ready MD, so it chooses again: MD, AD.
    const second = g2Attacks(events);
    expect(types(second)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundAllocationRequested',
    ]);
    expect(second[3].data).toMatchObject({ combatantId: 'b', woundMargin: 4, wounds: 2 });
    events = [...events, ...second];
    expect(stateOf(events)).toMatchObject({
      roundOpen: true,
      pending: { kind: 'woundAllocation', awaiting: 'b' },
    });
    const answered = exact(events, { type: 'AllocateWounds', combatantId: 'b', allocation: ['MD', 'AD'] });
    expect(types(answered)).toEqual([
      'WoundsApplied',
      'OpportunitiesFinished',
      'WoundsApplied',
      'RoundEnded',
    ]);
    expect(answered[0].data).toMatchObject({
      vitalityBefore: -2,
      vitality: -4,
      state: 'Collapsed',
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
      ad: { ready: 2, used: 0, wounded: 3 },
      md: { ready: 0, used: 0, wounded: 2 },
    });
    expectRoundEnd(answered.slice(2));
  });

  it('N59 with N45: given the first Opportunity Attack has collapsed b, when the GM cancels the second foe’s offer (N29), then the queue ends and the round with it', () => {
    const events = g1Collapses(forcedPast());
    const cancelled = exact(events, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual(['PendingCancelled', 'WoundsApplied', 'RoundEnded']);
    expect(cancelled[0].data).toMatchObject({ kind: 'opportunityAttack' });
    expectRoundEnd(cancelled.slice(1));
    expect(stateOf([...events, ...cancelled])).toMatchObject({
      round: 1,
      roundOpen: false,
      opportunity: undefined,
    });
  });
});
