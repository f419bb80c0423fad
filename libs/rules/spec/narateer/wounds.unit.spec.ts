import { given } from '../given';
import { narateer } from '../../src/narateer';
import { convertWounds } from '../../src/narateer/decide/wounds';
import {
  duel,
  exact,
  fight,
  find,
  mace,
  melee,
  mira,
  orin,
  respond,
  sheet,
  stateOf,
  sword,
  then,
  types,
} from './helpers';

const hurt = (events: any[], id: string, wounds: number, extra: Record<string, unknown> = {}, faces = {}) =>
  then(events, { type: 'ApplyWounds', combatantId: id, wounds, harm: 'Physical (Impact)', ...extra }, faces);
const last = (events: any[]) => events[events.length - 1].data;

describe('Calculating Wounds', () => {
  it('Strike Rating = Weapon Damage + min(active Damage Vital, Damage Vital Cap)', () => {
    const strong = {
      ...mira,
      vitals: { strength: 5, agility: 1, resilience: 2 },
      weapons: [{ ...sword, damageVitalCap: 2 }],
    };
    const events = exact(duel(strong), melee('mira', 'orin', 0, { response: 'none' }), { dice: [3] });
    // Strength 5 capped at 2: Strike Rating 2 + 2 = 4; Wound Margin 1 + 4 − 1 = 4 → 2 Wounds.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      damageVital: 'strength',
      strikeRating: 4,
      woundMargin: 4,
      wounds: 2,
    });
  });

  it('N21: the Damage Vital must be one the weapon allows; the default is the highest after the cap', () => {
    const heavy = { ...mira, weapons: [mace] };
    expect(
      given(narateer, duel(heavy))
        .when({ ...melee('mira', 'orin', 0), weaponId: 'mace', damageVital: 'agility' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED', field: 'damageVital' });
    // Agility 3 and Strength 2, both allowed for a light sword: named Strength is used when asked for.
    const named = exact(duel(), melee('mira', 'orin', 0, { damageVital: 'strength', response: 'none' }), {
      dice: [3],
    });
    expect(find(named, 'WoundsApplied')).toMatchObject({ damageVital: 'strength', strikeRating: 4 });
  });

  it('Wound Conversion: 1–2 → 1, 3–4 → 2, 5–6 → 3, 7–8 → 5, 9+ → 8; 0 or less → none', () => {
    const table = [-3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15].map(convertWounds);
    expect(table).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 5, 5, 8, 8]);
  });

  it('N34: a hit whose Wound Margin is 0 or less is recorded with 0 Wounds', () => {
    const armoured = { ...orin, armour: { soak: 6 } };
    const events = exact(duel(mira, armoured), melee('mira', 'orin', 0, { response: 'none' }), { dice: [3] });
    expect(find(events, 'WoundsApplied')).toMatchObject({ woundMargin: 0, wounds: 0, dice: [], vitality: 8 });
    // Hit Margin 1 + Strike Rating 5 − Protection 9 = −3: still no Wound, the margin kept as it is.
    const plate = exact(
      duel(mira, { ...orin, armour: { soak: 9 } }),
      melee('mira', 'orin', 0, { response: 'none' }),
      { dice: [3] },
    );
    expect(find(plate, 'WoundsApplied')).toMatchObject({
      hitMargin: 1,
      strikeRating: 5,
      protectionRating: 9,
      woundMargin: -3,
      wounds: 0,
      dice: [],
      vitalityBefore: 8,
      vitality: 8,
      state: 'Active',
    });
    expect(types(plate)).not.toContain('ContinuationChecked');
  });

  it('Strike Rating with a Damage Vital Cap of 0 is the Weapon Damage alone', () => {
    const blunt = { ...mira, weapons: [{ ...sword, damageVitalCap: 0 }] };
    const events = exact(duel(blunt), melee('mira', 'orin', 0, { response: 'none' }), { dice: [6] });
    // Hit Margin 2 + (2 + min(3, 0)) − 1 = 3 → 2 Wounds.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      hitMargin: 2,
      strikeRating: 2,
      woundMargin: 3,
      wounds: 2,
    });
  });

  it('Clash lost: the tempo-holder takes Wounds from the responder’s weapon, Ready dice first, then the AD it committed', () => {
    const declared = then(duel(), melee('mira', 'orin', 2));
    const events = exact(declared, respond('orin', 'clash', 1), {
      dice: [1, 1, 2, 6, 6],
      followUpFaces: [2, 1],
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      hitMargin: 4,
      attacker: { total: 0 },
      responder: { total: 4 },
    });
    // Mace: 2 + min(Strength 3, cap 3) = 5; Mira's Soak 1: 4 + 5 − 1 = 8 → 5 Wounds. Mira had 2 Ready AD and 3 Used.
    const wounds = find(events, 'WoundsApplied');
    expect(wounds).toMatchObject({
      combatantId: 'mira',
      sourceId: 'orin',
      weaponId: 'mace',
      damageVital: 'strength',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 8,
      wounds: 5,
      vitalityBefore: 8,
      vitality: 3,
      firstBelowHalf: true,
    });
    expect(wounds.dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'used' },
      { kind: 'AD', from: 'used' },
      { kind: 'AD', from: 'used' },
    ]);
    expect(wounds.ad).toEqual({ ready: 0, used: 0, wounded: 5 });
    // Both triggers, one check: 0 dots, so Mira is Withdrawn in her own activation and can press no further.
    expect(find(events, 'ContinuationChecked')).toMatchObject({
      combatantId: 'mira',
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });
    const after = [...declared, ...events];
    expect(
      given(narateer, after)
        .when(melee('mira', 'orin', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_CANNOT_ACT', field: 'attackerId' });
    expect(types(exact(after, { type: 'EndActivation' }))).toEqual(['ActivationEnded']);
  });

  it('Harm classification: one per Wound result, from the weapon unless the GM overrides it for the attack', () => {
    const events = exact(duel(), melee('mira', 'orin', 0, { response: 'none', harm: 'Elemental (Fire)' }), {
      dice: [3],
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      harm: { domain: 'Elemental', type: 'Fire' },
      harmLabel: 'Elemental (Fire)',
    });
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { harm: 'Magical (Fire)' }))
        .violation(),
    ).toMatchObject({ field: 'harm' });
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { harm: 'Physical (Fire)' }))
        .violation(),
    ).toMatchObject({ field: 'harm' });
  });
});

describe('N44: situational Strike and Protection Rating modifiers', () => {
  it('N44: a Power’s Strike modifier applies after the weapon’s normal Strike Rating; cover adds to the target’s Protection', () => {
    // Mira's sword: Strike Rating 2 + min(Agility 3, cap 3) = 5, +1 from a Power = 6. Orin's Soak 1, +2 from cover = 3.
    // One Hit (1 dot) against target number 0: Wound Margin 1 + 6 − 3 = 4 → 2 Wounds.
    const events = exact(
      duel(),
      melee('mira', 'orin', 0, { response: 'none', strikeModifier: 1, protectionModifier: 2 }),
      { dice: [3] },
    );
    expect(find(events, 'ExchangeDeclared')).toMatchObject({ strikeModifier: 1, protectionModifier: 2 });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      hitMargin: 1,
      strikeRating: 6,
      strikeModifier: 1,
      protectionRating: 3,
      protectionModifier: 2,
      woundMargin: 4,
      wounds: 2,
    });
  });

  it('N44: a winning Clash uses the response’s modifiers: its own Strike and the tempo-holder’s Protection', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { strikeModifier: 5 }));
    // Mira 1 die: a Miss; Orin's mace Clash 1 die: a Hit. Orin wins by 1.
    const events = exact(
      declared,
      respond('orin', 'clash', 0, { weaponId: 'mace', strikeModifier: -1, protectionModifier: 1 }),
      { dice: [1, 4] },
    );
    // Orin's mace: 2 + min(Strength 3, cap 3) = 5, −1 = 4; Mira's Soak 1 + 1 = 2: Wound Margin 1 + 4 − 2 = 3 → 2 Wounds.
    // Mira's own Strike modifier (+5) plays no part: her attack did not land.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      strikeRating: 4,
      strikeModifier: -1,
      protectionRating: 2,
      protectionModifier: 1,
      woundMargin: 3,
      wounds: 2,
    });
  });

  it('N44: neither rating goes below 0', () => {
    // Strike Rating 5 − 9 → 0; Soak 1 − 4 → 0: Wound Margin 1 + 0 − 0 = 1 → 1 Wound.
    const events = exact(
      duel(),
      melee('mira', 'orin', 0, { response: 'none', strikeModifier: -9, protectionModifier: -4 }),
      { dice: [3] },
    );
    expect(find(events, 'WoundsApplied')).toMatchObject({
      strikeRating: 0,
      protectionRating: 0,
      woundMargin: 1,
      wounds: 1,
    });
  });

  it('N44: the modifiers are whole numbers from −20 to 20', () => {
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { strikeModifier: 21 }))
        .violation(),
    ).toMatchObject({ field: 'strikeModifier' });
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { protectionModifier: 1.5 }))
        .violation(),
    ).toMatchObject({ field: 'protectionModifier' });
  });
});

describe('Applying Wounds', () => {
  const both = sheet({ maxAD: 2, maxMD: 2, maxVitality: 20 });

  it('AD_FIRST is the default: Ready AD, then Ready MD, then Used dice (N9)', () => {
    let events = fight([{ id: 'a', sheet: both }]);
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 1, md: 1 });
    events = hurt(events, 'a', 3);
    expect(last(events).dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'MD', from: 'ready' },
      { kind: 'AD', from: 'used' },
    ]);
  });

  it('MD_FIRST takes Ready MD before Ready AD', () => {
    const events = hurt(fight([{ id: 'a', sheet: { ...both, woundPreference: 'MD_FIRST' } }]), 'a', 3);
    expect(last(events).dice).toEqual([
      { kind: 'MD', from: 'ready' },
      { kind: 'MD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
    ]);
  });

  it('ASK opens a pending decision only when both kinds exist in the required state (N9)', () => {
    const ask = { ...both, woundPreference: 'ASK' };
    const events = hurt(fight([{ id: 'a', sheet: ask }]), 'a', 2);
    expect(types(events).slice(-1)).toEqual(['WoundAllocationRequested']);
    expect(stateOf(events).pending).toMatchObject({ kind: 'woundAllocation', awaiting: 'a' });
    const adOnly = hurt(fight([{ id: 'a', sheet: { ...ask, maxMD: 0 } }]), 'a', 2);
    expect(types(adOnly).slice(-1)).toEqual(['WoundsApplied']);
  });

  it('Ready dice always come before Used dice, whatever the kind', () => {
    let events = fight([{ id: 'a', sheet: { ...both, woundPreference: 'ASK' } }]);
    events = then(events, { type: 'SpendDice', combatantId: 'a', md: 1 });
    events = hurt(events, 'a', 3);
    // Ready: 2 AD, 1 MD. Wound 3 must take the last Ready die (MD), not a Used MD.
    const v = given(narateer, events)
      .when({ type: 'AllocateWounds', combatantId: 'a', allocation: ['AD', 'AD', 'AD'] })
      .violation();
    expect(v).toMatchObject({ code: 'NARATEER_READY_BEFORE_USED', field: 'allocation[2]' });
    expect(
      given(narateer, events)
        .when({ type: 'AllocateWounds', combatantId: 'a', allocation: ['AD'] })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_ALLOCATION_LENGTH', field: 'allocation' });
    expect(
      given(narateer, events)
        .when({ type: 'AllocateWounds', combatantId: 'b', allocation: ['AD'] })
        .violation().code,
    ).toBe('COMBATANT_NOT_FOUND');
    const ok = exact(events, { type: 'AllocateWounds', combatantId: 'a', allocation: ['MD', 'AD', 'AD'] });
    expect(ok[0].data).toMatchObject({
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
    });
  });

  it('N9: given 8 Wounds awaiting the allocation of a combatant with 4 dice left (2 AD, 2 MD), then the view says AllocateWounds takes 4 entries (allocationLength); 4 are accepted, 8 refused', () => {
    const events = hurt(fight([{ id: 'a', sheet: { ...both, woundPreference: 'ASK' } }]), 'a', 8);
    const shown = narateer.view(stateOf(events)) as {
      pendingWounds: { wounds: number; allocationLength: number };
    };
    expect(shown.pendingWounds).toMatchObject({ wounds: 8, allocationLength: 4 });
    expect(
      given(narateer, events)
        .when({ type: 'AllocateWounds', combatantId: 'a', allocation: Array(8).fill('AD') })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_ALLOCATION_LENGTH', field: 'allocation' });
    const applied = exact(events, {
      type: 'AllocateWounds',
      combatantId: 'a',
      allocation: ['MD', 'MD', 'AD', 'AD'],
    });
    expect(applied[0].data).toMatchObject({ dice: { length: 4 } });
    expect(
      (narateer.view(stateOf([...events, ...applied])) as { pendingWounds: unknown }).pendingWounds,
    ).toBeNull();
  });

  it('N29: the GM cancelling a pending allocation drops those wounds', () => {
    const declared = then(
      duel(mira, { ...orin, maxMD: 2, woundPreference: 'ASK' }),
      melee('mira', 'orin', 0),
    );
    const events = then(declared, respond('orin', 'none'), { dice: [3] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'woundAllocation', awaiting: 'orin' });
    const s = given(narateer, events).when({ type: 'CancelPending' }).state();
    expect(s.pending).toBeUndefined();
    expect(s.exchange).toBeUndefined();
    expect(s.combatants.orin.vitality).toBe(8);
  });

  it('N28: an allocation given in advance is applied wound by wound; a kind not available takes the other', () => {
    const ask = { ...both, woundPreference: 'ASK' };
    const events = hurt(fight([{ id: 'a', sheet: ask }]), 'a', 4, { allocation: ['MD', 'MD', 'MD'] });
    expect(last(events).dice).toEqual([
      { kind: 'MD', from: 'ready' },
      { kind: 'MD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
    ]);
  });

  it('N28: the wounded’s advance allocation rides on its own command (a Clash loser’s in DeclareExchange)', () => {
    const mixed = { ...mira, maxAD: 4, maxMD: 2, woundPreference: 'ASK' };
    const declared = then(duel(mixed), melee('mira', 'orin', 0, { allocation: ['MD'] }));
    const events = exact(declared, respond('orin', 'clash'), { dice: [1, 3] });
    // Orin wins by 1: 1 + Strike Rating 5 − Soak 1 = 5 → 3 Wounds; Mira said MD for the first.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      wounds: 3,
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
    });
  });

  it('N17: Wounded dice remember their kind and never refresh; MD never pays exchange costs', () => {
    let events = fight(
      [
        { id: 'a', sheet: { ...both, woundPreference: 'MD_FIRST' } },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 2 });
    events = hurt(events, 'a', 1);
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartActivation' });
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartRound' });
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).combatants.a).toMatchObject({
      ad: { ready: 2, used: 0, wounded: 0 },
      md: { ready: 1, used: 0, wounded: 1 },
    });
  });

  it('Wounds beyond the dice still reduce Vitality, below 0 if need be, and the combatant Collapses (N10, N20)', () => {
    const frail = sheet({ maxAD: 1, maxMD: 0, maxVitality: 3 });
    const events = hurt(fight([{ id: 'a', sheet: frail }]), 'a', 5);
    expect(find(events, 'WoundsApplied')).toMatchObject({
      dice: [{ kind: 'AD', from: 'ready' }],
      vitality: -2,
      state: 'Collapsed',
      ad: { ready: 0, used: 0, wounded: 1 },
    });
    // N59: the round waited only for a, which can no longer act: it ends with the Wounds.
    expect(types(events).slice(-2)).toEqual(['WoundsApplied', 'RoundEnded']);
    expect(stateOf(events).combatants.a.vitality).toBe(-2);
  });

  it('N32: ApplyWounds takes Wounds or a Wound Margin converted by the table, not both', () => {
    const events = hurt(
      fight([{ id: 'a', sheet: sheet({ maxVitality: 20 }) }]),
      'a',
      undefined as unknown as number,
      { woundMargin: 7, effect: 'Thunderclap' },
    );
    expect(last(events)).toMatchObject({ woundMargin: 7, wounds: 5, effect: 'Thunderclap' });
    expect(
      given(narateer, fight([{ id: 'a', sheet: sheet() }]))
        .when({ type: 'ApplyWounds', combatantId: 'a', wounds: 1, woundMargin: 2, harm: 'Physical (Impact)' })
        .violation().field,
    ).toBe('wounds');
  });
});

describe('Continuation Checks', () => {
  const one = (s = sheet({ maxVitality: 8 })) =>
    fight([
      { id: 'a', sheet: s },
      { id: 'b', sheet: sheet() },
    ]);

  it('falling below half Maximum Vitality for the first time triggers one check; later drops do not', () => {
    let events = hurt(one(), 'a', 3);
    expect(types(events).slice(-1)).toEqual(['WoundsApplied']);
    events = hurt(events, 'a', 2, {}, { followUpFaces: [3, 1] });
    expect(last(events)).toMatchObject({ triggers: ['belowHalf'], dots: 1, passed: true });
    events = hurt(events, 'a', 1);
    expect(types(events).slice(-1)).toEqual(['WoundsApplied']);
  });

  it('more Wounds than half Maximum Vitality from one source triggers a check; separate sources do not add up (N18)', () => {
    const heavy = hurt(one(sheet({ maxVitality: 20 })), 'a', 11, {}, { followUpFaces: [4, 1] });
    expect(last(heavy)).toMatchObject({ triggers: ['belowHalf', 'heavyWounds'], passed: true });
    expect(types(heavy).filter((t) => t === 'ContinuationChecked')).toHaveLength(1);
    let split = hurt(one(sheet({ maxVitality: 20 })), 'a', 6);
    split = hurt(split, 'a', 5, {}, { followUpFaces: [4, 1] });
    expect(last(split)).toMatchObject({ triggers: ['belowHalf'] });
  });

  it('a failed check (0 dots) makes the combatant Withdrawn: no activation, response forced to none (N10, N20)', () => {
    const events = hurt(one(), 'a', 5, {}, { followUpFaces: [1, 2] });
    expect(last(events)).toMatchObject({ dots: 0, passed: false, state: 'Withdrawn' });
    const s = stateOf(events);
    expect(s.combatants.a.withdrawn).toBe(true);
    expect(given(narateer, events).when({ type: 'StartActivation', combatantId: 'a' }).violation().code).toBe(
      'COMBATANT_CANNOT_ACT',
    );
    // The GM records the fictional consequence with a note.
    expect(exact(events, { type: 'AddNote', combatantId: 'a', text: 'a surrenders' })[0].type).toBe(
      'GmNoteAdded',
    );
  });

  it('Collapsed characters make no Continuation Check', () => {
    const events = hurt(one(), 'a', 8);
    expect(types(events).slice(-1)).toEqual(['WoundsApplied']);
    expect(last(events).state).toBe('Collapsed');
  });

  it('N18: no rounding — with Maximum Vitality 5, Vitality 2 is below half and 3 Wounds are more than half', () => {
    const five = sheet({ maxVitality: 5 });
    expect(types(hurt(one(five), 'a', 2)).slice(-1)).toEqual(['WoundsApplied']);
    expect(last(hurt(hurt(one(five), 'a', 2), 'a', 1, {}, { followUpFaces: [3, 3] }))).toMatchObject({
      triggers: ['belowHalf'],
    });
    expect(last(hurt(one(five), 'a', 3, {}, { followUpFaces: [3, 3] }))).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      dots: 2,
    });
    // Maximum Vitality 6: Vitality 3 is exactly half (not below) and 3 Wounds exactly half (not more): no check.
    expect(types(hurt(one(sheet({ maxVitality: 6 })), 'a', 3)).slice(-1)).toEqual(['WoundsApplied']);
  });

  it('a Withdrawn combatant makes no further Continuation Check; Wounds to 0 make it Collapsed', () => {
    let events = hurt(one(), 'a', 5, {}, { followUpFaces: [1, 1] });
    expect(stateOf(events).combatants.a.withdrawn).toBe(true);
    events = hurt(events, 'a', 1);
    expect(last(events)).toMatchObject({ vitality: 2, state: 'Withdrawn' });
    events = hurt(events, 'a', 2);
    expect(last(events)).toMatchObject({ vitality: 0, state: 'Collapsed' });
    expect(types(events).slice(-1)).toEqual(['WoundsApplied']);
  });

  it('N15: Resilience 0 means a 0-dice Side Roll: 0 dots, a failure, without any faces', () => {
    const fragile = sheet({ vitals: { strength: 2, agility: 2, resilience: 0 }, maxVitality: 8 });
    const events = hurt(one(fragile), 'a', 5);
    expect(last(events)).toMatchObject({ dice: 0, roll: { sides: 6, faces: [] }, passed: false });
  });

  it('N55: given a Collapsed and a Withdrawn combatant, when the fight goes on, then both stay down: no activation, no check; Wounds, ticks and conditions still land; the GM may remove them', () => {
    let events = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
      { id: 'c', sheet: sheet() },
    ]);
    events = hurt(events, 'a', 9);
    events = hurt(events, 'b', 5, {}, { followUpFaces: [1, 2] });
    for (const id of ['a', 'b']) {
      events = then(events, { type: 'ApplyLingeringHarm', combatantId: id, form: 'Bleeding' });
      events = then(events, { type: 'ApplyCondition', combatantId: id, condition: 'prone' });
    }
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('c');
    const roundEnd = exact(events, { type: 'EndActivation' });
    expect(types(roundEnd)).toEqual(['ActivationEnded', 'WoundsApplied', 'WoundsApplied', 'RoundEnded']);
    events = [...events, ...roundEnd];
    events = hurt(events, 'b', 1);
    const s = stateOf(events);
    expect(s.combatants.a).toMatchObject({ vitality: -2, conditions: [{ condition: 'prone' }] });
    expect(s.combatants.b).toMatchObject({
      vitality: 1,
      withdrawn: true,
      conditions: [{ condition: 'prone' }],
    });
    expect(types(events).filter((t) => t === 'ContinuationChecked')).toHaveLength(1);
    events = then(events, { type: 'StartRound' });
    expect(exact(events, { type: 'StartActivation' })[0].data).toMatchObject({ combatantId: 'c', round: 2 });
    expect(exact(events, { type: 'RemoveCombatant', combatantId: 'a' })[0].type).toBe('CombatantRemoved');
  });
});

describe('N8: Wounds follow the text exactly', () => {
  // Mira's sword: Strike Rating 2 + min(Agility 3, cap 3) = 5. Boost 3 rolls four dice; four 6s are 8 dots: Hit Margin 8.
  // Orin's Soak is chosen so that Wound Margin = 8 + 5 − Soak runs through every band of the table.
  it.each([
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
    [6, 3],
    [7, 5],
    [8, 5],
    [9, 8],
    [12, 8],
  ])(
    'N8: Hit Margin 8 + Strike Rating 5 − Protection gives Wound Margin %i: %i Wound(s)',
    (margin, wounds) => {
      const target = { ...orin, maxVitality: 12, armour: { soak: 13 - margin } };
      const heavy = wounds * 2 > 12 ? { followUpFaces: [6, 6] } : {};
      const events = exact(duel(mira, target), melee('mira', 'orin', 3, { response: 'none' }), {
        dice: [6, 6, 6, 6],
        ...heavy,
      });
      expect(find(events, 'WoundsApplied')).toMatchObject({
        hitMargin: 8,
        strikeRating: 5,
        protectionRating: 13 - margin,
        woundMargin: margin,
        wounds,
        vitality: 12 - wounds,
      });
    },
  );
});
