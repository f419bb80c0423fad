import { given } from '../given';
import { narateer } from '../../src/narateer';
import {
  exact,
  fight,
  find,
  melee,
  mira,
  orin,
  ranged,
  respond,
  sera,
  sheet,
  shootout,
  stateOf,
  then,
  types,
  veyr,
} from './helpers';

describe('narateer.txt worked examples', () => {
  it('"Worked Example: One Melee Exchange": Mira 3 AD vs Orin 2 AD Clash, 4 to 2, Hit Margin 2, Strike Rating 5, Protection 1, Wound Margin 6, 3 Wounds', () => {
    const start = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    const declared = then(start, melee('mira', 'orin', 2));
    expect(stateOf(declared).pending).toMatchObject({
      kind: 'exchangeResponse',
      awaiting: 'orin',
      answer: 'RespondToExchange',
    });
    // N22: the completing command carries Mira's pool then Orin's.
    const events = exact(
      declared,
      { ...respond('orin', 'clash', 1), weaponId: 'mace' },
      { dice: [6, 4, 3, 4, 3] },
    );
    expect(types(events)).toEqual(['ExchangeResponded', 'ExchangeResolved', 'WoundsApplied']);
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ total: 4, roll: { faces: [6, 4, 3] } });
    expect(resolved.responder).toMatchObject({ total: 2, roll: { faces: [4, 3] } });
    expect(resolved).toMatchObject({ outcome: 'hit', winnerId: 'mira', hitMargin: 2 });
    const wounds = find(events, 'WoundsApplied');
    expect(wounds).toMatchObject({
      combatantId: 'orin',
      damageVital: 'agility',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 6,
      wounds: 3,
      harmLabel: 'Physical (Slashing)',
    });
    // Orin has no MD: 3 Vitality and 3 AD into Wounded, Ready AD first (5 AD − 2 committed = 3 Ready).
    expect(wounds.dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
    ]);
    expect(wounds).toMatchObject({
      vitalityBefore: 8,
      vitality: 5,
      ad: { ready: 0, used: 2, wounded: 3 },
      state: 'Active',
    });
  });

  it('"Worked Example: One Ranged Exchange": Sera 3 AD bow vs Veyr 2 AD crossbow Clash, 3 dots to 1, 3 Wounds, Ready AD first', () => {
    const start = shootout();
    const declared = then(start, ranged('sera', 'veyr', 'bow', 2, { distance: 8 }));
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [4, 5, 3, 3, 1],
      followUpFaces: [5, 2],
    });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker.skill).toBe('ranged');
    expect(resolved.responder.skill).toBe('ranged');
    expect(resolved).toMatchObject({ outcome: 'hit', winnerId: 'sera', hitMargin: 2 });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'veyr',
      damageVital: 'agility',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 6,
      wounds: 3,
      vitality: 1,
      harmLabel: 'Physical (Piercing)',
    });
    // "Veyr has no MD. He loses 3 Vitality and moves 3 AD into Wounded, taking Ready AD first": his Clash left
    // 2 of his 4 AD Ready and 2 Used, so the Wounds take both Ready dice, then one Used.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'used' },
      ],
      ad: { ready: 0, used: 1, wounded: 3 },
      md: { ready: 0, used: 0, wounded: 0 },
    });
    expect(stateOf([...declared, ...events]).combatants.veyr).toMatchObject({
      vitality: 1,
      ad: { ready: 0, used: 1, wounded: 3 },
    });
    // Both fired: ammunition spent and the crossbow must be loaded again, win or lose.
    const fired = events.filter((e) => e.type === 'WeaponFired').map((e) => e.data);
    expect(fired).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 19 },
      { combatantId: 'veyr', weaponId: 'crossbow', exchangeId: 'x1', loaded: false, ammunition: 9 },
    ]);
  });

  it('"Worked Example: One Ranged Exchange", the other choice: had Veyr chosen Full Guard, he would have rolled Acrobatics with Advantage and could not have wounded Sera', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 2, { distance: 8 }));
    // Sera 4, 5, 3 = 3 dots. Veyr guards with 1 AD + Boost 1 (Acrobatics SL 1): 6, 6 = 4 dots; Advantage rerolls
    // the first 6 (fewest dots, lowest face, first position) to a 1, which is worse: he keeps the 6.
    const events = exact(declared, respond('veyr', 'fullGuard', 1), {
      dice: [4, 5, 3, 6, 6],
      rerollFaces: [1],
    });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      response: 'fullGuard',
      skill: 'acrobatics',
      dice: 2,
      edge: { advantage: ['fullGuard'], disadvantage: [] },
    });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ skill: 'ranged', total: 3 });
    expect(resolved.responder).toMatchObject({
      skill: 'acrobatics',
      total: 4,
      reroll: { index: 0, original: 6, kept: 'original' },
    });
    // His total is the higher, yet Full Guard cannot deal damage: no Wounds to Sera, and only Sera fired.
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'veyr' });
    expect(resolved.hitMargin).toBeUndefined();
    expect(types(events)).toEqual(['ExchangeResponded', 'ExchangeResolved', 'WeaponFired']);
    expect(find(events, 'WeaponFired')).toMatchObject({
      combatantId: 'sera',
      weaponId: 'bow',
      ammunition: 19,
    });
    const s = stateOf([...declared, ...events]);
    expect(s.combatants.sera).toMatchObject({ vitality: 6, ad: { ready: 2, used: 3, wounded: 0 } });
    expect(s.combatants.veyr).toMatchObject({
      vitality: 4,
      ad: { ready: 2, used: 2, wounded: 0 },
      weapons: { crossbow: { loaded: true, ammunition: 10 } },
    });
  });

  it('"Continuation Checks" example: Veyr (Maximum Vitality 4) meets both triggers from one arrow and makes one 2-die Side Roll; a Hit and a Miss pass', () => {
    const start = shootout();
    const declared = then(start, ranged('sera', 'veyr', 'bow', 2, { distance: 8 }));
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [4, 5, 3, 3, 1],
      followUpFaces: [5, 2],
    });
    expect(events.filter((e) => e.type === 'ContinuationChecked')).toHaveLength(1);
    expect(find(events, 'ContinuationChecked')).toEqual({
      combatantId: 'veyr',
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      roll: { sides: 6, faces: [5, 2] },
      dots: 1,
      passed: true,
      state: 'Active',
    });
    expect(stateOf([...declared, ...events]).combatants.veyr.withdrawn).toBe(false);
  });

  it('"Example: Wounds during Trance": Senna moves both Ready MD to Wounded, then must take her Ready AD before her Used AD', () => {
    const senna = sheet({ maxAD: 2, maxMD: 2, maxVitality: 10, woundPreference: 'ASK' });
    let events = fight([
      { id: 'senna', sheet: senna },
      { id: 'gm-foe', sheet: sheet() },
    ]);
    events = then(events, { type: 'SpendDice', combatantId: 'senna', ad: 1, reason: 'trance' });
    expect(stateOf(events).combatants.senna).toMatchObject({
      ad: { ready: 1, used: 1 },
      md: { ready: 2, used: 0 },
    });
    events = then(events, {
      type: 'ApplyWounds',
      combatantId: 'senna',
      wounds: 2,
      harm: 'Supernatural (Psychic)',
    });
    expect(stateOf(events).pending).toMatchObject({
      kind: 'woundAllocation',
      awaiting: 'senna',
      answer: 'AllocateWounds',
    });
    events = then(events, { type: 'AllocateWounds', combatantId: 'senna', allocation: ['MD', 'MD'] });
    expect(events[events.length - 1].data).toMatchObject({
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'MD', from: 'ready' },
      ],
      md: { ready: 0, wounded: 2 },
      vitality: 8,
    });
    // One more Wound: only Ready AD remains in the Ready state, so there is nothing to ask.
    const third = exact(events, {
      type: 'ApplyWounds',
      combatantId: 'senna',
      wounds: 1,
      harm: 'Supernatural (Psychic)',
    });
    expect(find(third, 'WoundsApplied')).toMatchObject({
      dice: [{ kind: 'AD', from: 'ready' }],
      ad: { ready: 0, used: 1, wounded: 1 },
    });
  });

  it('"Combat Exchange Flow" example: Mira surges at Orin with an arming sword, Base Attack Cost 1 AD + 2 Boost AD: she commits 3 AD', () => {
    const events = exact(
      fight(
        [
          { id: 'mira', sheet: mira },
          { id: 'orin', sheet: orin },
        ],
        'mira',
      ),
      melee('mira', 'orin', 2),
    );
    expect(find(events, 'ExchangeDeclared')).toMatchObject({ weaponId: 'sword', boost: 2, dice: 3 });
  });

  it('"Melee example, continued": Orin Clashes with 2 AD, Mira rolls 4 dots to his 2 and wins by 2; her sword can deal damage, so she goes on to Calculating Wounds with Hit Margin 2', () => {
    const declared = then(
      fight(
        [
          { id: 'mira', sheet: mira },
          { id: 'orin', sheet: orin },
        ],
        'mira',
      ),
      melee('mira', 'orin', 2),
    );
    // Orin's mace: Base Attack Cost 1 + Boost 1 (Melee SL 1) = 2 AD. Mira 6, 5, 4 = 4 dots; Orin 6, 2 = 2 dots.
    const events = exact(declared, respond('orin', 'clash', 1, { weaponId: 'mace' }), {
      dice: [6, 5, 4, 6, 2],
    });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ response: 'clash', skill: 'melee', dice: 2 });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      winnerId: 'mira',
      attacker: { total: 4 },
      responder: { total: 2 },
      hitMargin: 2,
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'orin',
      sourceId: 'mira',
      weaponId: 'sword',
      hitMargin: 2,
    });
  });

  it('"Ranged Exchanges" example: Sera fires her bow at Veyr, who is aware with a loaded light crossbow and may Ranged Clash; both roll Ranged, and the higher total decides whose shot lands', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 8 }));
    expect(stateOf(declared).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'veyr' });
    // Sera's 1 die: 2 = 0 dots. Veyr's crossbow, Base Attack Cost 2: 6 and 4 = 3 dots. Veyr's shot lands by 3:
    // Strike 3 + min(Agility 2, cap 2) = 5, Sera's Soak 1: Wound Margin 3 + 5 − 1 = 7, 5 Wounds. Sera (Maximum
    // Vitality 6) drops to 1; one Continuation Check for both triggers, 6 and 1 = 2 dots, passed.
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [2, 6, 4],
      followUpFaces: [6, 1],
    });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ skill: 'ranged', total: 0 });
    expect(resolved.responder).toMatchObject({ skill: 'ranged', total: 3 });
    expect(resolved).toMatchObject({ outcome: 'counterHit', winnerId: 'veyr', hitMargin: 3 });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      weaponId: 'crossbow',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitality: 1,
    });
    expect(find(events, 'ContinuationChecked')).toMatchObject({ combatantId: 'sera', dots: 2, passed: true });
  });

  it('"Full Guard" example: Orin\'s final total equals Mira\'s, so he stops her attack but cannot wound her', () => {
    const declared = then(
      fight(
        [
          { id: 'mira', sheet: mira },
          { id: 'orin', sheet: orin },
        ],
        'mira',
      ),
      melee('mira', 'orin', 2),
    );
    // Mira 6, 3, 1 = 3 dots; Orin's guard 6, 3 = 3 dots (Advantage rerolls his 3: a 4, no better).
    const events = exact(declared, respond('orin', 'fullGuard', 1), {
      dice: [6, 3, 1, 6, 3],
      rerollFaces: [4],
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      winnerId: 'orin',
      attacker: { total: 3 },
      responder: { total: 3 },
    });
    expect(types(events)).toEqual(['ExchangeResponded', 'ExchangeResolved']);
  });

  it('"Harm Domains And Types" example: a poisoned arrow deals Physical (Piercing) on impact; its Lingering Harm: Poisoned later deals Affliction (Poison), and no Condition comes with it', () => {
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: { ...veyr, maxVitality: 10 } },
      ],
      'sera',
    );
    events = then(events, ranged('sera', 'veyr', 'bow', 0, { distance: 8, response: 'none' }), { dice: [3] });
    expect(find(events, 'WoundsApplied')).toMatchObject({ harmLabel: 'Physical (Piercing)', wounds: 3 });
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'veyr',
      form: 'Poisoned',
      source: 'poisoned arrow',
    });
    events = then(events, { type: 'EndRound' });
    const tick = events.filter((e) => e.type === 'WoundsApplied').pop()!.data;
    expect(tick).toMatchObject({
      form: 'Poisoned',
      harmLabel: 'Affliction (Poison)',
      wounds: 1,
      vitality: 6,
    });
    expect(stateOf(events).combatants.veyr.conditions).toEqual([]);
  });

  it('"Harm Domains And Types" examples: each named effect takes its classification, and a pressure wave’s impact and discharge are two harms resolved separately', () => {
    const big = { ...orin, maxVitality: 40 };
    let events = fight([
      { id: 'mira', sheet: mira },
      { id: 'orin', sheet: big },
    ]);
    const examples: [string, string][] = [
      ['a mundane sword cut', 'Physical (Slashing)'],
      ['an enchanted sword cut', 'Physical (Slashing)'],
      ['a conjured flame', 'Elemental (Fire)'],
      ['a terror spell that attacks the mind', 'Supernatural (Psychic)'],
      ['stone shards', 'Physical (Piercing)'],
      ['a crashing wave', 'Physical (Impact)'],
      ['drowning', 'Affliction (Suffocation)'],
    ];
    for (const [effect, harm] of examples) {
      const applied = exact(events, { type: 'ApplyWounds', combatantId: 'orin', wounds: 1, harm, effect });
      // "You suffer 1 Wound from <Domain (Type)> harm."
      expect(find(applied, 'WoundsApplied')).toMatchObject({ effect, harmLabel: harm, wounds: 1 });
    }
    // "A thunderous pressure wave is Physical (Impact), while its electrical discharge is Elemental (Lightning)":
    // distinct harms, each classified and resolved on its own — two WoundsApplied, one classification each.
    events = then(events, {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 2,
      harm: 'Physical (Impact)',
      effect: 'pressure wave',
    });
    events = then(events, {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 1,
      harm: 'Elemental (Lightning)',
      effect: 'electrical discharge',
    });
    const wounds = events.filter((e) => e.type === 'WoundsApplied').map((e) => e.data);
    expect(wounds).toMatchObject([
      { harmLabel: 'Physical (Impact)', wounds: 2, vitality: 38 },
      { harmLabel: 'Elemental (Lightning)', wounds: 1, vitality: 37 },
    ]);
    // "Lingering Harm: Burning causes Elemental (Fire) Wounds over time."
    const burning = then(events, { type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Burning' });
    expect(find(burning.slice(-1), 'LingeringHarmApplied').harm).toEqual({
      domain: 'Elemental',
      type: 'Fire',
    });
  });

  it('"Harm Domains And Types": a Condition causes Wounds only if its rule says so — poison imposing Disadvantage causes no Affliction (Poison) Wounds, while Lingering Harm: Burning causes Elemental (Fire) Wounds at the round’s end', () => {
    let events = shootout();
    // The poison hampers Sera (the GM's Hindered, ruling N26) and the GM gives her attack Disadvantage (N31).
    events = then(events, { type: 'ApplyCondition', combatantId: 'sera', condition: 'hindered' });
    events = then(
      events,
      ranged('sera', 'veyr', 'bow', 0, { distance: 8, edge: 'disadvantage', response: 'none' }),
      {
        dice: [1],
        rerollFaces: [6],
      },
    );
    expect(find(events, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: ['gm'] });
    // Disadvantage keeps the worse of 1 and 6: 0 dots against target number 0, no clean hit (N30).
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'tie', attacker: { total: 0 } });
    const poisoned = exact(events, { type: 'EndRound' });
    expect(types(poisoned)).toEqual(['ActivationEnded', 'RoundEnded']);
    expect(stateOf([...events, ...poisoned]).combatants.sera).toMatchObject({
      vitality: 6,
      conditions: [{ condition: 'hindered' }],
    });
    // Lingering Harm: Burning is the condition whose rule causes Wounds: 1 Elemental (Fire) Wound at the round's end.
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'sera',
      form: 'Burning',
      source: 'oil fire',
    });
    const burning = exact(events, { type: 'EndRound' });
    expect(types(burning)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(find(burning, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      form: 'Burning',
      harmLabel: 'Elemental (Fire)',
      wounds: 1,
      vitalityBefore: 6,
      vitality: 5,
    });
  });

  it('"Lingering Harm" example: ending Lingering Harm: Poisoned removes the ongoing condition; a rule naming Affliction (Poison) meets the Wounds of that classification, which another Form may cause too', () => {
    let events = fight([{ id: 'veyr', sheet: { ...veyr, maxVitality: 10 } }]);
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'veyr',
      form: 'Poisoned',
      source: 'poisoned arrow',
    });
    // A second source of another Form whose source states the same classification.
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'veyr',
      form: 'Venom',
      harm: 'Affliction (Poison)',
      source: 'adder bite',
    });
    const first = exact(events, { type: 'EndRound' });
    // Each tick names its Form (the ongoing condition) and its classification (the kind of Wounds it causes).
    expect(first.filter((e) => e.type === 'WoundsApplied').map((e) => e.data)).toMatchObject([
      { lingeringHarmId: 'lh1', form: 'Poisoned', harmLabel: 'Affliction (Poison)', wounds: 1, vitality: 9 },
      { lingeringHarmId: 'lh2', form: 'Venom', harmLabel: 'Affliction (Poison)', wounds: 1, vitality: 8 },
    ]);
    events = [...events, ...first];
    // Ending Lingering Harm: Poisoned (the rule names the Form) removes that instance only.
    events = then(events, { type: 'TreatLingeringHarm', combatantId: 'veyr', lingeringHarmId: 'lh1' });
    expect(stateOf(events).combatants.veyr.lingering.map((l) => l.form)).toEqual(['Venom']);
    events = then(events, { type: 'StartRound' });
    const second = exact(events, { type: 'EndRound' });
    expect(second.filter((e) => e.type === 'WoundsApplied').map((e) => e.data)).toMatchObject([
      { lingeringHarmId: 'lh2', form: 'Venom', harmLabel: 'Affliction (Poison)', vitality: 7 },
    ]);
  });

  it('"Skill Level In Combat" example: Mira (Melee SL 3) initiates four proactive Melee actions with Boost up to 3; Sera (Ranged SL 2) three, Boost up to 2', () => {
    const big = { ...mira, maxAD: 12 };
    let events = fight(
      [
        { id: 'mira', sheet: big },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    expect(
      given(narateer, events)
        .when(melee('mira', 'orin', 4))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL', field: 'boost' });
    events = then(events, melee('mira', 'orin', 3, { response: 'none' }), { dice: [1, 1, 1, 1] });
    for (let i = 0; i < 3; i++)
      events = then(events, melee('mira', 'orin', 0, { response: 'none' }), { dice: [1] });
    expect(
      given(narateer, events)
        .when(melee('mira', 'orin', 0, { response: 'none' }), { dice: [1] })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'kind' });

    const s = fight(
      [
        { id: 'sera', sheet: { ...sera, maxAD: 12 } },
        { id: 'veyr', sheet: veyr },
      ],
      'sera',
    );
    expect(
      given(narateer, s)
        .when(ranged('sera', 'veyr', 'bow', 3))
        .violation().code,
    ).toBe('NARATEER_BOOST_OVER_SKILL');
    let shots = s;
    for (let i = 0; i < 3; i++)
      shots = then(shots, ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), { dice: [1] });
    expect(
      given(narateer, shots)
        .when(ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), { dice: [1] })
        .violation().code,
    ).toBe('NARATEER_PROACTIVE_LIMIT');
  });
});
