import { RuleCommand, RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { decide, stateOf as stateAsSent } from '../as-sent';
import { exact, fight, find, sheet, stateOf, then, types } from './helpers';

/**
 * N59 with N28: the GM's CancelPending of a Lingering Harm tick that waits for its wounded's choice at a round's start
 * drops that tick only; the other sources that tick at that moment tick "at once, with the CancelPending". Their
 * Wounds may leave the round no one to wait for, as an answer's would.
 */
const system = findSystem('narateer')!;
const fire = 'Elemental (Fire)';

/**
 * Round 1, a's activation: oil burns a (who chooses where its Wounds go, ASK) at the start of each round; `setup` leaves
 * a with Ready AD and Ready MD (so the oil's tick asks it) and the next round waiting for one combatant only. The GM
 * ends round 1.
 */
function roundOneOver(setup: (events: RuleEvent[]) => RuleEvent[]): RuleEvent[] {
  const a = sheet({ maxVitality: 8, maxAD: 5, maxMD: 5, woundPreference: 'ASK' });
  let events = fight(
    [
      { id: 'a', sheet: a },
      { id: 'b', sheet: sheet() },
    ],
    'a',
  );
  events = then(events, {
    type: 'ApplyLingeringHarm',
    combatantId: 'a',
    form: 'Burning',
    source: 'oil',
    tick: 'roundStart',
  });
  return then(setup(events), { type: 'EndRound' });
}

describe('N59: a cancelled round-start tick whose fellow ticks leave no one to wait for', () => {
  it('N59 with N28: given a round start that asks a where its Burning Wound goes, when the GM cancels that tick and a’s other Burning collapses it (b already down), then the round ends with the CancelPending, as it does after a’s answer', () => {
    const events = roundOneOver((e) => {
      // a: 7 Wounds, 4 AD and 3 MD: Vitality 1, 1 Ready AD and 2 Ready MD left; its check passes (6, 6).
      e = then(
        e,
        {
          type: 'ApplyWounds',
          combatantId: 'a',
          wounds: 7,
          harm: fire,
          allocation: ['AD', 'AD', 'AD', 'AD', 'MD', 'MD', 'MD'],
        },
        { followUpFaces: [6, 6] },
      );
      e = then(e, { type: 'ApplyWounds', combatantId: 'b', wounds: 8, harm: fire });
      // A second source burns a at each round's start; its allocation is given in advance (N28).
      return then(e, {
        type: 'ApplyLingeringHarm',
        combatantId: 'a',
        form: 'Burning',
        source: 'torch',
        tick: 'roundStart',
        allocation: ['AD'],
      });
    });
    expect(stateOf(events)).toMatchObject({ round: 1, roundOpen: false });
    const start = then(events, { type: 'StartRound' });
    expect(types(start.slice(events.length))).toEqual(['RoundStarted', 'WoundAllocationRequested']);
    // Answered: the oil's Wound, then the torch's collapses a; no one is left to act, so round 2 ends (N62).
    const answered = exact(start, { type: 'AllocateWounds', combatantId: 'a', allocation: ['MD'] });
    expect(types(answered)).toEqual(['WoundsApplied', 'WoundsApplied', 'RoundEnded']);
    // Cancelled: the oil's Wound is dropped; the torch's still collapses a, and round 2 ends the same way.
    const cancelled = exact(start, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual(['PendingCancelled', 'WoundsApplied', 'RoundEnded']);
    expect(find(cancelled, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      lingeringHarmId: 'lh2',
      vitality: 0,
      state: 'Collapsed',
    });
    expect(stateOf([...start, ...cancelled])).toMatchObject({
      round: 2,
      roundOpen: false,
      pending: undefined,
    });
  });

  it('N59 with N61: given the cancel’s fellow tick calls for b’s Continuation Check, when b’s player rolls it, then a failed check (Withdrawn) ends the round after it; a passed one leaves it open', () => {
    const events = roundOneOver((e) => {
      // a: 5 Wounds, 3 AD and 2 MD: Vitality 3, 2 Ready AD and 3 Ready MD left; its check fails (1, 1): Withdrawn.
      e = then(
        e,
        {
          type: 'ApplyWounds',
          combatantId: 'a',
          wounds: 5,
          harm: fire,
          allocation: ['AD', 'AD', 'AD', 'MD', 'MD'],
        },
        { followUpFaces: [1, 1] },
      );
      // 5 Wounds a tick on b (Maximum Vitality 8): Vitality 3, below half and more than half: one check.
      return then(e, {
        type: 'ApplyLingeringHarm',
        combatantId: 'b',
        form: 'Burning',
        source: 'pitch',
        tick: 'roundStart',
        wounds: 5,
      });
    });
    const start = then(events, { type: 'StartRound' });
    expect(types(start.slice(events.length))).toEqual(['RoundStarted', 'WoundAllocationRequested']);
    const asked = decide(system, start, { type: 'CancelPending' });
    expect(types(asked)).toEqual(['PendingCancelled', 'WoundsApplied', 'DiceRequested']);
    expect(find(asked, 'DiceRequested')).toMatchObject({ awaiting: 'b' });
    const waiting = [...start, ...asked];
    const provide = (followUpFaces: number[]): RuleCommand => ({ type: 'ProvideDice', followUpFaces });
    const failed = decide(system, waiting, provide([1, 2]));
    expect(types(failed)).toEqual(['ContinuationChecked', 'RoundEnded']);
    expect(stateAsSent(system, [...waiting, ...failed])).toMatchObject({ round: 2, roundOpen: false });
    // The same faces sent with the CancelPending give the same events (N28, N61).
    const upFront = decide(system, start, { type: 'CancelPending', followUpFaces: [1, 2] });
    expect(upFront).toEqual([...asked.slice(0, -1), ...failed]);
    const passed = decide(system, waiting, provide([6, 1]));
    expect(types(passed)).toEqual(['ContinuationChecked']);
    expect(stateAsSent(system, [...waiting, ...passed])).toMatchObject({ round: 2, roundOpen: true });
  });
});
