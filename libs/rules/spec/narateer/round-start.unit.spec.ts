import { RuleCommand, RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { decide, stateOf as stateAsSent } from '../as-sent';
import { exact, fight, find, sheet, stateOf, then, types } from './helpers';

/**
 * N62: a round that opens with no one to wait for ends in the same command. N59 ends a round that a command leaves with
 * no one to wait for between two activations ("The text has no round that goes on with nobody to act in it"); a round's
 * start can do the same: Lingering Harm whose source ticks "at the start of each round" (N38) collapses or withdraws
 * the last combatants able to act, or none was left when the GM opened it.
 */

/**
 * Round 1, a's activation: b is Collapsed by the GM; oil burns on a at the start of each round; b bleeds at the end of
 * each round; a is Prone for two rounds. a's EndActivation ends round 1 (b gets no activation): b's Bleeding ticks.
 */
function roundOneOver(aSheet: Record<string, unknown>): RuleEvent[] {
  let events = fight(
    [
      { id: 'a', sheet: aSheet },
      { id: 'b', sheet: sheet() },
    ],
    'a',
  );
  events = then(events, { type: 'ApplyWounds', combatantId: 'b', wounds: 20, harm: 'Physical (Impact)' });
  events = then(events, {
    type: 'ApplyLingeringHarm',
    combatantId: 'a',
    form: 'Burning',
    source: 'oil',
    tick: 'roundStart',
  });
  events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'b', form: 'Bleeding', source: 'wound' });
  events = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'prone', rounds: 2 });
  const end1 = exact(events, { type: 'EndActivation' });
  // Burning ticks at the start of a round, not at its end: only b's Bleeding ticks.
  expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
  expect(find(end1, 'WoundsApplied')).toMatchObject({
    combatantId: 'b',
    lingeringHarmId: 'lh2',
    vitality: -13,
  });
  return [...events, ...end1];
}

describe('N62: a round that opens with no one to wait for ends at once', () => {
  it('N62: given a at Vitality 1 burning at each round’s start and b Collapsed, when the GM starts round 2, then the Burning collapses a and the round ends in the same command: b’s Bleeding ticks, a’s Prone (two rounds) ends, RoundEnded', () => {
    const events = roundOneOver(sheet({ maxVitality: 1 }));
    const start2 = exact(events, { type: 'StartRound' });
    expect(types(start2)).toEqual([
      'RoundStarted',
      'WoundsApplied',
      'WoundsApplied',
      'ConditionRemoved',
      'RoundEnded',
    ]);
    // a: 1 Wound takes a Ready AD; Vitality 0 Collapses it, and a Collapsed combatant makes no check.
    expect(start2[1].data).toMatchObject({
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      harmLabel: 'Elemental (Fire)',
      vitality: 0,
      state: 'Collapsed',
    });
    expect(start2[2].data).toMatchObject({ combatantId: 'b', lingeringHarmId: 'lh2', vitality: -14 });
    expect(start2[3].data).toEqual({ combatantId: 'a', condition: 'prone', reason: 'expired' });
    expect(start2[4].data).toEqual({ round: 2 });
    expect(stateOf([...events, ...start2])).toMatchObject({
      round: 2,
      roundOpen: false,
      activeId: undefined,
    });

    // Round 3 has no one able to act from its start: StartRound ticks the start and the end of the round and closes it.
    const start3 = exact([...events, ...start2], { type: 'StartRound' });
    expect(types(start3)).toEqual(['RoundStarted', 'WoundsApplied', 'WoundsApplied', 'RoundEnded']);
    expect(start3.map((e) => e.data.vitality)).toEqual([undefined, -1, -15, undefined]);
  });

  it('N62: given the same round start leaving a Active (Maximum Vitality 3: Vitality 2, not below half), then the round stays open for a’s activation', () => {
    const events = roundOneOver(sheet({ maxVitality: 3 }));
    const start2 = exact(events, { type: 'StartRound' });
    expect(types(start2)).toEqual(['RoundStarted', 'WoundsApplied']);
    expect(start2[1].data).toMatchObject({ combatantId: 'a', vitality: 2, state: 'Active' });
    const s = stateOf([...events, ...start2]);
    expect(s).toMatchObject({ round: 2, roundOpen: true });
    expect(find(exact([...events, ...start2], { type: 'StartActivation' }), 'ActivationStarted')).toEqual({
      combatantId: 'a',
      round: 2,
    });
  });

  it('N62 with N61: given the round-start tick calls for a’s Continuation Check, when its faces come with StartRound or later from a’s player, then a failed check (Withdrawn) ends the round after it; a passed one leaves it open', () => {
    // Maximum Vitality 4 at Vitality 2: the tick leaves 1, below half for the first time: a 2-die check.
    const narateer = findSystem('narateer')!;
    const events = roundOneOver(sheet({ maxVitality: 4 }));
    const hurt = then(events, {
      type: 'ApplyWounds',
      combatantId: 'a',
      wounds: 2,
      harm: 'Physical (Impact)',
    });
    expect(stateOf(hurt).combatants.a).toMatchObject({ vitality: 2, belowHalf: false });
    const start: RuleCommand = { type: 'StartRound' };

    const failed = decide(narateer, hurt, { ...start, followUpFaces: [1, 2] });
    expect(types(failed)).toEqual([
      'RoundStarted',
      'WoundsApplied',
      'ContinuationChecked',
      'WoundsApplied',
      'ConditionRemoved',
      'RoundEnded',
    ]);
    expect(find(failed, 'ContinuationChecked')).toMatchObject({ combatantId: 'a', passed: false });
    const passed = decide(narateer, hurt, { ...start, followUpFaces: [3, 2] });
    expect(types(passed)).toEqual(['RoundStarted', 'WoundsApplied', 'ContinuationChecked']);

    // Without faces the GM's StartRound stands and the check is asked of a (N61); the answer ends the round as above.
    const asked = decide(narateer, hurt, start);
    expect(types(asked)).toEqual(['RoundStarted', 'WoundsApplied', 'DiceRequested']);
    expect(find(asked, 'DiceRequested')).toMatchObject({ awaiting: 'a' });
    const answered = decide(narateer, [...hurt, ...asked], { type: 'ProvideDice', followUpFaces: [1, 2] });
    expect([...asked.slice(0, -1), ...answered]).toEqual(failed);
    expect(stateAsSent(narateer, [...hurt, ...asked, ...answered])).toEqual(
      stateAsSent(narateer, [...hurt, ...failed]),
    );
  });
});
