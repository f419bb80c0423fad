import { given } from '../given';
import { narateer } from '../../src/narateer';
import { exact, fight, find, melee, mira, orin, sheet, stateOf, then, types } from './helpers';

// One combatant whose activation is running in round 1: EndActivation closes the round.
const solo = (s = sheet({ maxVitality: 20 })) => fight([{ id: 'a', sheet: s }], 'a');
const bleed = (events: any[], extra: Record<string, unknown> = {}) =>
  then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding', ...extra });

describe('Lingering Harm', () => {
  it('N11: a Form takes its default classification and 1 Wound per tick; a Form without a default needs one', () => {
    const events = bleed(solo(), { source: 'goblin knife' });
    expect(events[events.length - 1].data).toEqual({
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      form: 'Bleeding',
      harm: { domain: 'Affliction', type: 'Bleeding' },
      wounds: 1,
      round: 1,
      source: 'goblin knife',
    });
    const burning = then(solo(), { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'burning' });
    expect(burning[burning.length - 1].data).toMatchObject({
      form: 'Burning',
      harm: { domain: 'Elemental', type: 'Fire' },
    });
    expect(
      given(narateer, solo())
        .when({ type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Cursed' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_HARM_REQUIRED', field: 'harm' });
    const cursed = then(solo(), {
      type: 'ApplyLingeringHarm',
      combatantId: 'a',
      form: 'Cursed',
      harm: 'Supernatural (Necrotic)',
      wounds: 2,
    });
    expect(cursed[cursed.length - 1].data).toMatchObject({ form: 'Cursed', wounds: 2 });
  });

  it('N19: it first ticks at the end of the round it was applied in, through the lifecycle’s round end', () => {
    const events = exact(bleed(solo()), { type: 'EndActivation' });
    expect(types(events)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(events[1].data).toMatchObject({
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      form: 'Bleeding',
      wounds: 1,
      harmLabel: 'Affliction (Bleeding)',
      vitality: 19,
    });
  });

  it('separate sources stack, even with the same Form, and resolve one by one', () => {
    const events = exact(bleed(bleed(solo())), { type: 'EndActivation' });
    expect(events.filter((e) => e.type === 'WoundsApplied').map((e) => e.data.lingeringHarmId)).toEqual([
      'lh1',
      'lh2',
    ]);
  });

  it('ticks until treated; TreatLingeringHarm ends one instance (N19)', () => {
    let events = bleed(bleed(solo()));
    events = then(events, { type: 'TreatLingeringHarm', combatantId: 'a', lingeringHarmId: 'lh1' });
    const round = exact(events, { type: 'EndActivation' });
    expect(round.filter((e) => e.type === 'WoundsApplied').map((e) => e.data.lingeringHarmId)).toEqual([
      'lh2',
    ]);
    expect(
      given(narateer, events)
        .when({ type: 'TreatLingeringHarm', combatantId: 'a', lingeringHarmId: 'lh1' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_UNKNOWN_LINGERING_HARM', field: 'lingeringHarmId' });
  });

  it('keeps ticking while Collapsed, below 0', () => {
    let events = bleed(
      fight(
        [
          { id: 'a', sheet: sheet({ maxVitality: 1 }) },
          { id: 'b', sheet: sheet() },
        ],
        'b',
      ),
    );
    events = then(events, { type: 'ApplyWounds', combatantId: 'a', wounds: 1, harm: 'Physical (Impact)' });
    const round = exact(events, { type: 'EndActivation' });
    expect(find(round, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      vitality: -1,
      state: 'Collapsed',
    });
  });

  it('a tick is one resolution: its Continuation Check reads followUpFaces of the command that ends the round', () => {
    const s = sheet({ maxVitality: 4 });
    let events = then(solo(s), {
      type: 'ApplyWounds',
      combatantId: 'a',
      wounds: 2,
      harm: 'Physical (Impact)',
    });
    events = bleed(events);
    const round = exact(events, { type: 'EndActivation' }, { followUpFaces: [1, 1] });
    expect(find(round, 'ContinuationChecked')).toMatchObject({ triggers: ['belowHalf'], passed: false });
    expect(types(round)).toEqual(['ActivationEnded', 'WoundsApplied', 'ContinuationChecked', 'RoundEnded']);
  });

  describe('N28: a tick for an ASK combatant lets the wounded choose ("The character taking the Wound chooses")', () => {
    const ask = sheet({ maxVitality: 20, maxMD: 2, woundPreference: 'ASK' });

    it('given ASK with Ready AD and MD, when the round ends, then the tick opens the allocation and the round’s end waits for it', () => {
      const events = bleed(bleed(solo(ask)));
      const round = exact(events, { type: 'EndActivation' });
      expect(types(round)).toEqual(['ActivationEnded', 'WoundAllocationRequested']);
      const held = [...events, ...round];
      expect(stateOf(held)).toMatchObject({
        roundOpen: true,
        pending: { kind: 'woundAllocation', awaiting: 'a', answer: 'AllocateWounds' },
      });
      expect(given(narateer, held).when({ type: 'StartRound' }).violation().code).toBe('PENDING_DECISION');
      const answered = exact(held, { type: 'AllocateWounds', combatantId: 'a', allocation: ['MD'] });
      // The second instance waits too; its answer ends the round.
      expect(types(answered)).toEqual(['WoundsApplied', 'WoundAllocationRequested']);
      expect(answered[0].data).toMatchObject({
        lingeringHarmId: 'lh1',
        dice: [{ kind: 'MD', from: 'ready' }],
      });
      const last = exact([...held, ...answered], {
        type: 'AllocateWounds',
        combatantId: 'a',
        allocation: ['AD'],
      });
      expect(types(last)).toEqual(['WoundsApplied', 'RoundEnded']);
      expect(last[0].data).toMatchObject({ lingeringHarmId: 'lh2', dice: [{ kind: 'AD', from: 'ready' }] });
    });

    it('given the allocation on ApplyLingeringHarm, when it ticks, then it is applied without asking', () => {
      const round = exact(bleed(solo(ask), { allocation: ['MD'] }), { type: 'EndActivation' });
      expect(types(round)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
      expect(round[1].data.dice).toEqual([{ kind: 'MD', from: 'ready' }]);
    });

    it('given a cancelled tick allocation, when the GM ends the round, then the other ticks go on and that one does not tick again', () => {
      let events = bleed(bleed(solo(ask)));
      events = then(events, { type: 'EndActivation' });
      events = then(events, { type: 'CancelPending', reason: 'ruled out' });
      const rest = exact(events, { type: 'EndRound' });
      expect(types(rest)).toEqual(['WoundAllocationRequested']);
      expect(rest[0].data.lingeringHarmId).toBe('lh2');
    });

    it('N29: given two sources ticking at the round’s start, when the GM cancels the first allocation, then the second still ticks ("Track and resolve each source separately")', () => {
      let events = then(bleed(solo(ask), { form: 'Burning', tick: 'roundStart' }), {
        type: 'ApplyLingeringHarm',
        combatantId: 'a',
        form: 'Bleeding',
        tick: 'roundStart',
      });
      events = then(events, { type: 'EndActivation' });
      events = then(events, { type: 'StartRound' });
      expect(stateOf(events).pendingWounds).toMatchObject({ lingeringHarmId: 'lh1' });
      const cancelled = exact(events, { type: 'CancelPending' });
      expect(types(cancelled)).toEqual(['PendingCancelled', 'WoundAllocationRequested']);
      expect(cancelled[1].data).toMatchObject({ combatantId: 'a', lingeringHarmId: 'lh2', wounds: 1 });
      events = [...events, ...cancelled];
      const answered = exact(events, { type: 'AllocateWounds', combatantId: 'a', allocation: ['MD'] });
      expect(types(answered)).toEqual(['WoundsApplied']);
      expect(answered[0].data).toMatchObject({ lingeringHarmId: 'lh2', vitality: 19 });
    });

    it('N29: given two sources ticking at the end of the last activation, when the GM cancels the first allocation, then the second ticks and its answer ends the round', () => {
      let events = then(bleed(solo(ask), { tick: 'activationEnd' }), {
        type: 'ApplyLingeringHarm',
        combatantId: 'a',
        form: 'Burning',
        tick: 'activationEnd',
      });
      events = then(events, { type: 'EndActivation' });
      expect(stateOf(events).pendingWounds).toMatchObject({ lingeringHarmId: 'lh1' });
      const cancelled = exact(events, { type: 'CancelPending' });
      expect(types(cancelled)).toEqual(['PendingCancelled', 'WoundAllocationRequested']);
      expect(cancelled[1].data).toMatchObject({ lingeringHarmId: 'lh2' });
      const answered = exact([...events, ...cancelled], {
        type: 'AllocateWounds',
        combatantId: 'a',
        allocation: ['AD'],
      });
      expect(types(answered)).toEqual(['WoundsApplied', 'RoundEnded']);
    });

    it('given ASK but only one kind Ready, when it ticks, then there is nothing to choose and it does not wait', () => {
      const round = exact(bleed(solo(sheet({ maxVitality: 20, woundPreference: 'ASK' }))), {
        type: 'EndActivation',
      });
      expect(types(round)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    });
  });
});

describe('N38: a source may state a different tick timing, duration or ending condition ("Its explicit rule overrides these defaults")', () => {
  const duo = () =>
    fight(
      [
        { id: 'a', sheet: sheet({ maxVitality: 20 }) },
        { id: 'b', sheet: sheet({ maxVitality: 20 }) },
      ],
      'a',
    );
  const lh = (events: any[], extra: Record<string, unknown>) =>
    then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Burning', ...extra });
  const ticks = (events: any[]) =>
    events.filter((e) => e.type === 'WoundsApplied').map((e) => e.data.lingeringHarmId);

  it('given a duration in rounds, when its last round ends, then it ticks a last time and ends (rounds)', () => {
    let events = lh(solo(), { rounds: 2 });
    expect(events[events.length - 1].data).toMatchObject({ untilRound: 2 });
    events = then(events, { type: 'EndActivation' });
    expect(stateOf(events).combatants.a.lingering).toHaveLength(1);
    events = then(events, { type: 'StartRound' });
    events = then(events, { type: 'StartActivation' });
    const last = exact(events, { type: 'EndActivation' });
    expect(types(last)).toEqual(['ActivationEnded', 'WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(last[2].data).toEqual({
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      form: 'Burning',
      reason: 'rounds',
    });
    expect(stateOf([...events, ...last]).combatants.a.lingering).toEqual([]);
  });

  it('given a count of ticks, when the last tick happens, then it ends (ticks)', () => {
    const round = exact(lh(solo(), { endsAfterTicks: 1 }), { type: 'EndActivation' });
    expect(types(round)).toEqual(['ActivationEnded', 'WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(round[2].data).toMatchObject({ lingeringHarmId: 'lh1', reason: 'ticks' });
  });

  it('given a tick at the start of the round, when the next round starts, then it ticks then and not at the round’s end', () => {
    let events = lh(solo(), { tick: 'roundStart' });
    expect(events[events.length - 1].data).toMatchObject({ tick: 'roundStart' });
    const end = exact(events, { type: 'EndActivation' });
    expect(ticks(end)).toEqual([]);
    events = [...events, ...end];
    const start = exact(events, { type: 'StartRound' });
    expect(types(start)).toEqual(['RoundStarted', 'WoundsApplied']);
  });

  it('given a tick at the afflicted’s activation start or end, when that activation starts or ends, then it ticks there', () => {
    let events = lh(duo(), { tick: 'activationEnd' });
    events = lh(events, { tick: 'activationStart', form: 'Poisoned' });
    const endA = exact(events, { type: 'EndActivation' });
    expect(types(endA)).toEqual(['ActivationEnded', 'WoundsApplied']);
    expect(endA[1].data).toMatchObject({ combatantId: 'a', lingeringHarmId: 'lh1' });
    events = [...events, ...endA];
    events = then(events, { type: 'StartActivation' });
    // b's activation does not tick a's harm; the round's end neither.
    expect(ticks(exact(events, { type: 'EndActivation' }))).toEqual([]);
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartRound' });
    const startA = exact(events, { type: 'StartActivation' });
    expect(types(startA)).toEqual(['ActivationStarted', 'DiceRefreshed', 'WoundsApplied']);
    expect(startA[2].data).toMatchObject({ lingeringHarmId: 'lh2' });
  });

  it('given an ending condition, then it is shown, and TreatLingeringHarm ends it saying why', () => {
    const events = lh(solo(), { endsWhen: 'doused in water' });
    expect((narateer.view(stateOf(events)) as any).combatants[0].lingeringHarm[0]).toMatchObject({
      endsWhen: 'doused in water',
      tick: 'roundEnd',
      untilRound: null,
      ticksLeft: null,
    });
    const treated = exact(events, {
      type: 'TreatLingeringHarm',
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      reason: 'doused in water',
    });
    expect(treated[0].data).toEqual({
      combatantId: 'a',
      lingeringHarmId: 'lh1',
      form: 'Burning',
      reason: 'doused in water',
    });
  });

  it('refuses a tick timing it does not know, and counts below 1, naming the field', () => {
    expect(
      given(narateer, solo())
        .when({ type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Burning', tick: 'noon' })
        .violation(),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'tick' });
    expect(
      given(narateer, solo())
        .when({ type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Burning', endsAfterTicks: 0 })
        .violation(),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'endsAfterTicks' });
    expect(
      given(narateer, solo())
        .when({ type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Burning', rounds: 0 })
        .violation(),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'rounds' });
  });
});

describe('N39: an instance is Form + source + classification (RULINGS.md N19); the same again refreshes it', () => {
  it('given the same Form, source and harm twice, then one instance and one Wound a round', () => {
    let events = bleed(solo(), { source: 'goblin knife' });
    events = bleed(events, { source: 'goblin knife', wounds: 2 });
    expect(events[events.length - 1].data).toMatchObject({
      lingeringHarmId: 'lh1',
      wounds: 2,
      refreshed: true,
    });
    expect(stateOf(events).combatants.a.lingering).toHaveLength(1);
    expect(
      exact(events, { type: 'EndActivation' })
        .filter((e) => e.type === 'WoundsApplied')
        .map((e) => e.data.wounds),
    ).toEqual([2]);
  });

  it('a refresh keeps the worse terms; one that changes nothing returns no events', () => {
    let events = bleed(solo(), { source: 'knife', rounds: 3 });
    expect(
      exact(events, {
        type: 'ApplyLingeringHarm',
        combatantId: 'a',
        form: 'Bleeding',
        source: 'knife',
        rounds: 1,
      }),
    ).toEqual([]);
    events = bleed(events, { source: 'knife' });
    expect(events[events.length - 1].data).toMatchObject({ lingeringHarmId: 'lh1', refreshed: true });
    expect(events[events.length - 1].data.untilRound).toBeUndefined();
  });

  it('another source, another classification or no named source is another instance', () => {
    let events = bleed(solo(), { source: 'knife' });
    events = bleed(events, { source: 'arrow' });
    events = bleed(events, { source: 'knife', harm: 'Physical (Slashing)' });
    events = bleed(events);
    expect(stateOf(events).combatants.a.lingering.map((l) => l.id)).toEqual(['lh1', 'lh2', 'lh3', 'lh4']);
  });

  it('a refresh in a round it already ticked in does not tick it again', () => {
    let events = bleed(fight([{ id: 'a', sheet: sheet({ maxVitality: 20 }) }], 'a'), {
      source: 'knife',
      tick: 'activationEnd',
    });
    events = then(events, { type: 'EndActivation' });
    events = bleed(events, { source: 'knife', tick: 'activationEnd', wounds: 3 });
    expect(stateOf(events).combatants.a.lingering[0]).toMatchObject({ wounds: 3, lastTick: 1 });
  });
});

describe('Conditions ("Close-Enough" Conditions Picker)', () => {
  const duel = () =>
    fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
  const apply = (events: any[], extra: Record<string, unknown>) =>
    then(events, { type: 'ApplyCondition', combatantId: 'orin', ...extra });

  it('no stacking of like effects: the worst intensity and the longest duration remain (N26)', () => {
    let events = apply(duel(), { condition: 'slowed', intensity: 2, rounds: 1 });
    expect(events[events.length - 1].data).toEqual({
      combatantId: 'orin',
      condition: 'slowed',
      intensity: 2,
      untilRound: 1,
    });
    events = apply(events, { condition: 'slowed', intensity: 1, rounds: 3 });
    expect(events[events.length - 1].data).toEqual({
      combatantId: 'orin',
      condition: 'slowed',
      intensity: 2,
      untilRound: 3,
    });
    expect(
      exact(events, {
        type: 'ApplyCondition',
        combatantId: 'orin',
        condition: 'slowed',
        intensity: 1,
        rounds: 1,
      }),
    ).toEqual([]);
    expect(stateOf(events).combatants.orin.conditions).toHaveLength(1);
    expect(
      given(narateer, events)
        .when({ type: 'ApplyCondition', combatantId: 'orin', condition: 'sleepy' })
        .violation().field,
    ).toBe('condition');
  });

  it('a condition given in rounds ends with its last round; RemoveCondition ends it at once', () => {
    let events = apply(duel(), { condition: 'prone', rounds: 1 });
    events = apply(events, { condition: 'unnerved' });
    events = then(events, { type: 'EndRound' });
    expect(events.filter((e) => e.type === 'ConditionRemoved').map((e) => e.data)).toEqual([
      { combatantId: 'orin', condition: 'prone', reason: 'expired' },
    ]);
    events = then(events, { type: 'RemoveCondition', combatantId: 'orin', condition: 'unnerved' });
    expect(stateOf(events).combatants.orin.conditions).toEqual([]);
    expect(exact(events, { type: 'RemoveCondition', combatantId: 'orin', condition: 'unnerved' })).toEqual(
      [],
    );
  });

  it('N26: an incapacitated combatant (Unconscious, Paralyzed) cannot initiate an exchange', () => {
    const events = then(duel(), { type: 'ApplyCondition', combatantId: 'mira', condition: 'paralyzed' });
    expect(
      given(narateer, events)
        .when(melee('mira', 'orin', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_CANNOT_ACT', field: 'attackerId' });
  });
});

describe('Activations (RULINGS.md C7, N3, N16, N20)', () => {
  it('Used dice become Ready and proactive uses reset at the start of the combatant’s own activation', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    events = then(events, melee('mira', 'orin', 2, { response: 'none' }), { dice: [1, 1, 1] });
    expect(stateOf(events).combatants.mira).toMatchObject({ ad: { ready: 2, used: 3 }, uses: { melee: 1 } });
    events = then(events, { type: 'EndActivation' });
    // Orin's activation refreshes Orin, not Mira.
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).combatants.mira.ad.used).toBe(3);
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartRound' });
    const started = exact(events, { type: 'StartActivation' });
    expect(started[1]).toEqual({
      type: 'DiceRefreshed',
      data: {
        combatantId: 'mira',
        ad: { ready: 5, used: 0, wounded: 0 },
        md: { ready: 0, used: 0, wounded: 0 },
      },
    });
    expect(stateOf([...events, ...started]).combatants.mira.uses).toEqual({ melee: 0, ranged: 0 });
  });

  it('Collapsed and Withdrawn combatants are skipped', () => {
    let events = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
      { id: 'c', sheet: sheet() },
    ]);
    events = then(events, { type: 'ApplyWounds', combatantId: 'a', wounds: 8, harm: 'Physical (Impact)' });
    events = then(
      events,
      { type: 'ApplyWounds', combatantId: 'b', wounds: 5, harm: 'Physical (Impact)' },
      { followUpFaces: [1, 1] },
    );
    expect(exact(events, { type: 'StartActivation' })[0].data).toMatchObject({ combatantId: 'c' });
  });

  it('N33: SpendDice commits Ready AD/MD and may count a proactive use (a shove)', () => {
    let events = fight(
      [
        { id: 'mira', sheet: { ...mira, maxMD: 2 } },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    events = then(events, {
      type: 'SpendDice',
      combatantId: 'mira',
      ad: 1,
      md: 1,
      proactiveUse: 'melee',
      reason: 'shove',
    });
    expect(stateOf(events).combatants.mira).toMatchObject({
      ad: { ready: 4, used: 1 },
      md: { ready: 1, used: 1 },
      uses: { melee: 1 },
    });
    expect(
      given(narateer, events).when({ type: 'SpendDice', combatantId: 'mira', md: 2 }).violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_MD', field: 'md' });
    expect(
      given(narateer, events)
        .when({ type: 'SpendDice', combatantId: 'orin', proactiveUse: 'melee' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_YOUR_TEMPO', field: 'proactiveUse' });
  });
});
