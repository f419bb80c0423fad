import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { findSystem } from '../../src/registry';
import { decide, refusal, stateOf } from '../as-sent';
import { at, fight, find, melee, move, sheet, then, types } from './helpers';
import * as n from './helpers';

/**
 * N61: "Only a combatant who remains Active … makes a Continuation Check. To make a Continuation Check, make a Side
 * Roll using dice equal to Resilience": the check is the checking combatant's roll. In manual dice, a command that
 * does not carry its faces (followUpFaces) stands, and the check alone is asked of that combatant.
 */
const narateer = findSystem('narateer')!;
const PROVIDE = (faces: ManualFaces): RuleCommand => ({ type: 'ProvideDice', ...faces });
const FAIL: ManualFaces = { followUpFaces: [1, 1] };
const PASS: ManualFaces = { followUpFaces: [3, 1] };

// Mira (Boost 1: 2 AD) swings at Orin, who gives No Response: 6, 6 is a Hit Margin of 4, a Wound Margin of 7, 5
// Wounds: Orin (8 Vitality) falls to 3, below half and heavily wounded: a Continuation Check of 2 d6.
const swing = melee('mira', 'orin', 1, { response: { response: 'none', boost: 0 }, dice: [6, 6] });
const duel = () => n.duel();

/** The command sent short, then the check answered: the events, and the state, of the command sent whole. */
function sameAsUpFront(history: RuleEvent[], command: RuleCommand, faces: ManualFaces, roller: string) {
  const upFront = decide(narateer, history, { ...command, ...faces });
  const asked = decide(narateer, history, command);
  const request = find(asked, 'DiceRequested');
  expect(request).toMatchObject({ command: { type: 'ContinuationCheck' }, awaiting: roller });
  const waiting = [...history, ...asked];
  expect(stateOf(narateer, waiting).pending).toMatchObject({
    kind: 'dice',
    awaiting: roller,
    answer: 'ProvideDice',
    detail: { commandType: 'ContinuationCheck', field: 'followUpFaces' },
  });
  const rolled = decide(narateer, waiting, PROVIDE(faces));
  expect([...asked.slice(0, -1), ...rolled]).toEqual(upFront);
  expect(stateOf(narateer, [...waiting, ...rolled])).toEqual(stateOf(narateer, [...history, ...upFront]));
  return { upFront, asked, rolled, waiting };
}

describe('N61: a Continuation Check is the checking combatant’s roll (manual dice)', () => {
  it('N61: Mira’s exchange wounds Orin into a Continuation Check: her exchange stands, and the check alone is asked of Orin, not Mira', () => {
    const asked = decide(narateer, duel(), swing);
    expect(types(asked)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'DiceRequested',
    ]);
    expect(find(asked, 'WoundsApplied')).toMatchObject({ combatantId: 'orin', wounds: 5, vitality: 3 });
    expect(find(asked, 'DiceRequested')).toEqual({
      command: { type: 'ContinuationCheck', combatantId: 'orin', triggers: ['belowHalf', 'heavyWounds'] },
      awaiting: 'orin',
      need: {
        field: 'followUpFaces',
        count: 2,
        sides: 6,
        reason: expect.stringContaining('ContinuationCheck'),
      },
    });
    const waiting = stateOf(narateer, [...duel(), ...asked]);
    expect(waiting.pending).toEqual({
      kind: 'dice',
      awaiting: 'orin',
      answer: 'ProvideDice',
      detail: expect.objectContaining({ commandType: 'ContinuationCheck', field: 'followUpFaces', count: 2 }),
    });
    // C11, C13: a player holding Orin answers (the GM always may); a player holding only Mira does not.
    expect(narateer.actorOf!(waiting, PROVIDE(PASS))).toEqual({ combatantId: 'orin', field: 'type' });
  });

  it.each([
    ['passes: Orin stays Active', PASS, 'Active'],
    ['fails: Orin is Withdrawn', FAIL, 'Withdrawn'],
  ])(
    'N61: Orin’s answer gives the events and the state of Mira’s exchange sent with every face up front; the check %s',
    (_, faces, state) => {
      const { rolled, waiting } = sameAsUpFront(duel(), swing, faces, 'orin');
      expect(types(rolled)).toEqual(['ContinuationChecked']);
      const after = narateer.view(stateOf(narateer, [...waiting, ...rolled])) as any;
      expect(after.combatants.find((c: { id: string }) => c.id === 'orin').state).toBe(state);
      expect(after.pending).toBeNull();
    },
  );

  it('N61: an answer in part asks Orin again for the rest; a held check is never a command one sends', () => {
    const waiting = [...duel(), ...decide(narateer, duel(), swing)];
    const part = decide(narateer, waiting, PROVIDE({ followUpFaces: [1] }));
    expect(types(part)).toEqual(['DiceRequested']);
    expect(stateOf(narateer, [...waiting, ...part]).pending).toMatchObject({
      awaiting: 'orin',
      detail: { commandType: 'ContinuationCheck', count: 1 },
    });
    expect(types(decide(narateer, [...waiting, ...part], PROVIDE({ followUpFaces: [1] })))).toEqual([
      'ContinuationChecked',
    ]);
    const check = {
      type: 'ContinuationCheck',
      combatantId: 'orin',
      triggers: ['belowHalf'],
      followUpFaces: [1, 1],
    };
    expect(refusal(narateer, duel(), check).code).toBe('UNKNOWN_COMMAND');
    expect(refusal(narateer, waiting, check).code).toBe('PENDING_DECISION');
  });

  it('N61: the GM’s CancelPending drops the check: Orin stays Active, Mira’s exchange stands; no check is due any more', () => {
    const waiting = [...duel(), ...decide(narateer, duel(), swing)];
    const cancelled = decide(narateer, waiting, { type: 'CancelPending', reason: 'no check today' });
    expect(cancelled).toEqual([
      {
        type: 'DiceRequestCancelled',
        data: { commandType: 'ContinuationCheck', restored: undefined, reason: 'no check today' },
      },
    ]);
    const after = [...waiting, ...cancelled];
    const s = stateOf(narateer, after) as any;
    expect(s.pending).toBeUndefined();
    expect(s.combatants.orin).toMatchObject({ vitality: 3, withdrawn: false });
    expect(s.continuationDue).toBeUndefined();
    expect(refusal(narateer, after, { type: 'ContinuationCheck', combatantId: 'orin', ...FAIL }).code).toBe(
      'UNKNOWN_COMMAND',
    );
    // Mira's activation goes on.
    expect(types(decide(narateer, after, { type: 'EndActivation' }))).toEqual(['ActivationEnded']);
  });

  it('N61: the GM’s ApplyWounds between activations: the check is Orin’s, and whether he is Withdrawn decides the round’s end (N59) after it, as up front', () => {
    // Mira has acted; Orin is the last to wait.
    const between = [
      ...fight([
        { id: 'mira', sheet: n.mira },
        { id: 'orin', sheet: n.orin },
      ]),
      { type: 'ActivationStarted', data: { combatantId: 'mira', round: 1 } },
      { type: 'ActivationEnded', data: { combatantId: 'mira', round: 1 } },
    ];
    const wounds = { type: 'ApplyWounds', combatantId: 'orin', wounds: 5, harm: 'Physical (Impact)' };
    const failed = sameAsUpFront(between, wounds, FAIL, 'orin');
    expect(types(failed.asked)).toEqual(['WoundsApplied', 'DiceRequested']);
    expect(types(failed.rolled)).toEqual(['ContinuationChecked', 'RoundEnded']);
    const passed = sameAsUpFront(between, wounds, PASS, 'orin');
    expect(types(passed.rolled)).toEqual(['ContinuationChecked']);
  });

  it('N61: an Opportunity Attack wounds the mover: the check is the mover’s, and the next reactor’s offer waits for it', () => {
    let events = fight(
      [
        { id: 'm', sheet: sheet(), side: 'm' },
        { id: 'g1', sheet: sheet(), side: 'g' },
        { id: 'g2', sheet: sheet(), side: 'g' },
      ],
      'm',
    );
    events = at(at(at(events, 'm', 0, 0), 'g1', 1, 1), 'g2', 1, -1);
    events = then(events, move('m', [[1, 0]]));
    const attack = {
      type: 'TakeOpportunityAttack',
      combatantId: 'g1',
      weaponId: 'sword',
      boost: 1,
      response: { response: 'none', boost: 0 },
      dice: [6, 6],
    };
    for (const faces of [PASS, FAIL]) {
      const { asked, rolled, waiting } = sameAsUpFront(events, attack, faces, 'm');
      expect(types(asked)).toEqual([
        'ExchangeDeclared',
        'ExchangeResponded',
        'ExchangeResolved',
        'WoundsApplied',
        'DiceRequested',
      ]);
      expect(types(rolled)).toEqual(['ContinuationChecked', 'OpportunityOffered']);
      expect(stateOf(narateer, [...waiting, ...rolled]).pending).toMatchObject({
        kind: 'opportunityAttack',
        awaiting: 'g2',
      });
    }
    // Cancelled, the check goes with the offers still to come: the queue lapses.
    const waiting = [...events, ...decide(narateer, events, attack)];
    const after = stateOf(narateer, [
      ...waiting,
      ...decide(narateer, waiting, { type: 'CancelPending' }),
    ]) as any;
    expect(after.pending).toBeUndefined();
    expect(after.opportunity).toBeUndefined();
  });

  it('N61: Orin’s AllocateWounds for his round-end tick goes on to Mira’s last Bleeding tick: her check is asked of her, and the instance’s end and the round’s end follow it, as up front', () => {
    let history = fight(
      [
        { id: 'orin', sheet: { ...n.orin, maxMD: 2, woundPreference: 'ASK' } },
        { id: 'mira', sheet: n.mira },
      ],
      'mira',
    );
    history = then(history, { type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Bleeding' });
    history = then(history, {
      type: 'ApplyWounds',
      combatantId: 'mira',
      wounds: 4,
      harm: 'Physical (Impact)',
    });
    history = then(history, {
      type: 'ApplyLingeringHarm',
      combatantId: 'mira',
      form: 'Bleeding',
      endsAfterTicks: 1,
    });
    history = then(history, { type: 'EndRound' });
    expect(stateOf(narateer, history).pending).toMatchObject({ kind: 'woundAllocation', awaiting: 'orin' });
    const allocate = { type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD'] };
    const { asked, rolled } = sameAsUpFront(history, allocate, FAIL, 'mira');
    expect(types(asked)).toEqual(['WoundsApplied', 'WoundsApplied', 'DiceRequested']);
    expect(types(rolled)).toEqual(['ContinuationChecked', 'LingeringHarmEnded', 'RoundEnded']);
  });

  describe('N61: round-end Lingering Harm ticks', () => {
    // Both bleed (1 Wound a round) at 4 of 8 Vitality: the round-end tick takes each below half, a check each.
    const bleeding = () => {
      let events = n.duel();
      for (const id of ['mira', 'orin']) {
        events = then(events, { type: 'ApplyWounds', combatantId: id, wounds: 4, harm: 'Physical (Impact)' });
        events = then(events, { type: 'ApplyLingeringHarm', combatantId: id, form: 'Bleeding' });
      }
      return events;
    };

    it('N61: the GM’s EndRound ticks Mira’s and Orin’s Bleeding: each check is asked of its own roller in turn, and the round ends after the last, as up front', () => {
      const history = bleeding();
      const upFront = decide(narateer, history, { type: 'EndRound', followUpFaces: [1, 1, 3, 1] });
      expect(types(upFront)).toEqual([
        'ActivationEnded',
        'WoundsApplied',
        'ContinuationChecked',
        'WoundsApplied',
        'ContinuationChecked',
        'RoundEnded',
      ]);
      const asked = decide(narateer, history, { type: 'EndRound' });
      expect(types(asked)).toEqual(['ActivationEnded', 'WoundsApplied', 'DiceRequested']);
      expect(find(asked, 'DiceRequested')).toMatchObject({
        command: { type: 'ContinuationCheck', combatantId: 'mira' },
        awaiting: 'mira',
      });
      let events = [...history, ...asked];
      const mira = decide(narateer, events, PROVIDE({ followUpFaces: [1, 1] }));
      expect(types(mira)).toEqual(['ContinuationChecked', 'WoundsApplied', 'DiceRequested']);
      expect(find(mira, 'DiceRequested')).toMatchObject({
        command: { type: 'ContinuationCheck', combatantId: 'orin' },
        awaiting: 'orin',
      });
      events = [...events, ...mira];
      expect(stateOf(narateer, events).roundOpen).toBe(true);
      const orin = decide(narateer, events, PROVIDE({ followUpFaces: [3, 1] }));
      expect(types(orin)).toEqual(['ContinuationChecked', 'RoundEnded']);
      expect([...asked.slice(0, -1), ...mira.slice(0, -1), ...orin]).toEqual(upFront);
      expect(stateOf(narateer, [...events, ...orin])).toEqual(stateOf(narateer, [...history, ...upFront]));
    });

    it('N61: Mira’s own EndActivation closing the round keeps her own check with it, held whole; Orin’s after it is asked of Orin alone', () => {
      let history = fight([
        { id: 'mira', sheet: n.mira },
        { id: 'orin', sheet: n.orin },
      ]);
      history = then(history, { type: 'StartActivation', combatantId: 'orin' });
      history = then(history, { type: 'EndActivation' });
      for (const id of ['mira', 'orin']) {
        history = then(history, {
          type: 'ApplyWounds',
          combatantId: id,
          wounds: 4,
          harm: 'Physical (Impact)',
        });
        history = then(history, { type: 'ApplyLingeringHarm', combatantId: id, form: 'Bleeding' });
      }
      history = then(history, { type: 'StartActivation', combatantId: 'mira' });
      const upFront = decide(narateer, history, { type: 'EndActivation', followUpFaces: [1, 1, 3, 1] });
      const held = decide(narateer, history, { type: 'EndActivation' });
      expect(types(held)).toEqual(['DiceRequested']);
      expect(find(held, 'DiceRequested')).toMatchObject({
        command: { type: 'EndActivation' },
        awaiting: 'mira',
      });
      let events = [...history, ...held];
      const mira = decide(narateer, events, PROVIDE({ followUpFaces: [1, 1] }));
      expect(types(mira)).toEqual([
        'ActivationEnded',
        'WoundsApplied',
        'ContinuationChecked',
        'WoundsApplied',
        'DiceRequested',
      ]);
      expect(find(mira, 'DiceRequested')).toMatchObject({
        command: { type: 'ContinuationCheck', combatantId: 'orin' },
        awaiting: 'orin',
      });
      events = [...events, ...mira];
      const orin = decide(narateer, events, PROVIDE({ followUpFaces: [3, 1] }));
      expect([...mira.slice(0, -1), ...orin]).toEqual(upFront);
      expect(stateOf(narateer, [...events, ...orin])).toEqual(stateOf(narateer, [...history, ...upFront]));
    });
  });
});
