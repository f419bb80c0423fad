import { RuleCommand, RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { fightStarted } from '../given';
import {
  at,
  bow,
  condition,
  crossbow,
  duel,
  exact,
  fight,
  find,
  joined,
  melee,
  mira,
  orin,
  ranged,
  refusal,
  respond,
  sera,
  sheet,
  shootout,
  stateOf,
  step,
  sword,
  take,
  then,
  types,
} from './helpers';

/**
 * narateer.txt read from its first statement to its last, for the edges beside text-coverage.unit.spec.ts: each
 * statement with a number, a condition, a cost, a limit, a table row, an exception or an order of steps that the
 * other specs check only on its easy branch (the Wound Margin bands row by row, a margin of exactly 1 or 0, exactly
 * half Vitality, one Space past a weapon's range), a case worked out by hand from the text alone before the engine
 * was asked.
 * N1: faces 1–2 show 0 dots, 3–5 one dot, 6 two dots; N2: Advantage rerolls the die with the fewest dots and keeps the
 * better, Disadvantage the die with the most dots and keeps the worse.
 */

const view = (events: RuleEvent[]) => narateer.view(stateOf(events)) as any;
const shown = (events: RuleEvent[], id: string) => view(events).combatants.find((c: any) => c.id === id);
const wounds = (combatantId: string, n: number, extra: Record<string, unknown> = {}): RuleCommand => ({
  type: 'ApplyWounds',
  combatantId,
  wounds: n,
  harm: 'Physical (Impact)',
  ...extra,
});

describe('Core Combat Attributes', () => {
  it('"Use the Skill required by the procedure; do not choose a different Linked Vital for an individual check": given a fighter with Melee SL 0 and Acrobatics SL 3, when it presses a Melee Exchange, then it rolls Melee: Boost 1 is refused (Melee SL 0), a skill of its choosing is refused, and Boost 0 declares a 1-die Melee roll', () => {
    const agile = sheet({ skills: { melee: 0, ranged: 0, acrobatics: 3 } });
    const start = fight(
      [
        { id: 'a', sheet: agile },
        { id: 'orin', sheet: orin },
      ],
      'a',
    );
    expect(refusal(start, melee('a', 'orin', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    expect(refusal(start, melee('a', 'orin', 0, { skill: 'acrobatics' }))).toMatchObject({
      code: 'UNKNOWN_FIELD',
      field: 'skill',
    });
    expect(find(exact(start, melee('a', 'orin', 0)), 'ExchangeDeclared')).toMatchObject({
      skill: 'melee',
      boost: 0,
      dice: 1,
    });
  });
});

describe('Skill Level In Combat', () => {
  it('"Ranged uses include separate ranged weapon attacks or other initiated distance-based targeting actions": given Sera (Ranged SL 2: 3 uses), when she throws a net and shoots twice, then a third shot and a second net are refused, while her one Melee use (SL 0) is still there', () => {
    let events = then(shootout(), {
      type: 'SpendDice',
      combatantId: 'sera',
      ad: 1,
      proactiveUse: 'ranged',
      reason: 'a thrown net',
    });
    // Two shots of 1 die, each a 1 (0 dots) against Veyr's No Response: ties, nothing lands, an arrow each.
    events = then(events, ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), { dice: [1] });
    events = then(events, ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), { dice: [1] });
    expect(shown(events, 'sera')).toMatchObject({
      ad: { ready: 2, used: 3, wounded: 0 },
      proactiveUsesLeft: { melee: 1, ranged: 0 },
      weapons: [{ id: 'bow', ammunition: 18 }],
    });
    expect(refusal(events, ranged('sera', 'veyr', 'bow', 0))).toMatchObject({
      code: 'NARATEER_PROACTIVE_LIMIT',
      field: 'kind',
    });
    expect(
      refusal(events, { type: 'SpendDice', combatantId: 'sera', ad: 1, proactiveUse: 'ranged' }),
    ).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'proactiveUse' });
    events = then(events, {
      type: 'SpendDice',
      combatantId: 'sera',
      ad: 1,
      proactiveUse: 'melee',
      reason: 'a shove',
    });
    expect(shown(events, 'sera').proactiveUsesLeft).toEqual({ melee: 0, ranged: 0 });
  });
});

describe('Tactical Notes', () => {
  it('"Flurry can still pressure Ready AD, but proactive Skill uses prevent unlimited attack spam": given Orin (Melee SL 1, 5 Ready AD) pressing 1-die exchanges, when he has made two, then a third is refused though 3 Ready AD remain', () => {
    let events = fight(
      [
        { id: 'orin', sheet: orin },
        { id: 'mira', sheet: mira },
      ],
      'orin',
    );
    const flurry = (): RuleCommand => ({
      ...melee('orin', 'mira', 0, { response: 'none' }),
      weaponId: 'mace',
    });
    events = then(events, flurry(), { dice: [1] });
    events = then(events, flurry(), { dice: [2] });
    expect(stateOf(events).combatants.orin.ad).toEqual({ ready: 3, used: 2, wounded: 0 });
    expect(refusal(events, flurry())).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'kind' });
  });
});

describe('Exchange Responses: Full Guard and Clash', () => {
  it('"Against a Ranged Exchange, Acrobatics is mandatory for Full Guard": given a responder with Melee SL 3 and Acrobatics SL 0, when Sera’s arrow (a 3, 1 dot) comes, then a Boosted guard is refused (Acrobatics SL 0, not Melee 3); its 1 guard die, a 1 rerolled with Advantage into a 6 (2 dots), stops the shot', () => {
    const fencer = sheet({ skills: { melee: 3, ranged: 0, acrobatics: 0 } });
    const start = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'f', sheet: fencer },
      ],
      'sera',
    );
    const declared = then(start, ranged('sera', 'f', 'bow', 0));
    expect(refusal(declared, respond('f', 'fullGuard', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    const events = exact(declared, respond('f', 'fullGuard'), { dice: [3, 1], rerollFaces: [6] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ skill: 'acrobatics', dice: 1 });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      attacker: { total: 1 },
      responder: { skill: 'acrobatics', edge: 'advantage', faces: [6], total: 2 },
    });
  });

  it('"Only the winner may deal damage, using their own weapon and active Damage Vital": given Mira’s flaming sword (the GM classes her attack Elemental (Fire)) and Orin’s Clash with Boost 1, when her 1 (0 dots) meets his 6, 3 (3 dots), then his mace wounds her with its own Physical (Impact): 3 + 5 − 1 = 7, 5 Wounds, one check', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { harm: 'Elemental (Fire)' }));
    expect(find(declared.slice(-1), 'ExchangeDeclared').harm).toEqual({ domain: 'Elemental', type: 'Fire' });
    const events = exact(declared, respond('orin', 'clash', 1), { dice: [1, 6, 3], followUpFaces: [1, 3] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      weaponId: 'mace',
      damageVital: 'strength',
      harm: { domain: 'Physical', type: 'Impact' },
      dice: 2,
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'counterHit', hitMargin: 3 });
    // The mace: Weapon Damage 2 + min(Strength 3, cap 3) = 5; Mira's Soak 1.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      weaponId: 'mace',
      harmLabel: 'Physical (Impact)',
      strikeRating: 5,
      woundMargin: 7,
      wounds: 5,
      vitality: 3,
      // Her 4 Ready AD, then the 1 she committed.
      ad: { ready: 0, used: 0, wounded: 5 },
    });
    expect(find(events, 'ContinuationChecked')).toMatchObject({
      combatantId: 'mira',
      triggers: ['belowHalf', 'heavyWounds'],
      dots: 1,
      passed: true,
    });
  });

  it('"8. Resolve Edge and explicit reroll rules. 9. Compare the final totals": given the GM’s Advantage on Orin’s Clash, when his 1 (0 dots) is rerolled into a 6 (2 dots) against Mira’s 3 (1 dot), then his final total wins by 1: Wound Margin 1 + 5 − 1 = 5, 3 Wounds to Mira', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { responderEdge: 'advantage' }));
    const events = exact(declared, respond('orin', 'clash'), { dice: [3, 1], rerollFaces: [6] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      attacker: { total: 1 },
      responder: { faces: [6], total: 2, reroll: { index: 0, original: 1, kept: 'reroll' } },
      hitMargin: 1,
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      hitMargin: 1,
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
    });
  });
});

describe('Ranged Exchanges', () => {
  it('"When both combatants exchange fire, each uses their own weapon\'s Base Attack Cost, Boost limit …": given Sera Boosting 2 (Ranged SL 2) and Veyr’s crossbow (cost 2, Ranged SL 1), when Veyr would Boost 2, then it is refused; with Boost 1 his 6, 6, 1 (4 dots) beat her 6, 3, 1 (3): Wound Margin 1 + 5 − 1 = 5, 3 Wounds, and Sera at exactly half her Vitality makes no check', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 2));
    expect(find(declared.slice(-1), 'ExchangeDeclared')).toMatchObject({ dice: 3 });
    expect(refusal(declared, respond('veyr', 'clash', 2, { weaponId: 'crossbow' }))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    const events = exact(declared, respond('veyr', 'clash', 1, { weaponId: 'crossbow' }), {
      dice: [6, 3, 1, 6, 6, 1],
    });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ skill: 'ranged', dice: 3 });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'veyr',
      attacker: { total: 3 },
      responder: { total: 4 },
      hitMargin: 1,
    });
    // The crossbow: Weapon Damage 3 + min(Agility 2, cap 2) = 5.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      weaponId: 'crossbow',
      harmLabel: 'Physical (Piercing)',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 5,
      wounds: 3,
      // Ready first: her 2 Ready AD, then 1 of the 3 she committed.
      ad: { ready: 0, used: 2, wounded: 3 },
      vitality: 3,
    });
    // Vitality 3 of 6 is not below half, and 3 Wounds are not more than half: no check.
    expect(types(events)).not.toContain('ContinuationChecked');
    const after = [...declared, ...events];
    expect(shown(after, 'sera').weapons).toMatchObject([{ id: 'bow', ammunition: 19 }]);
    expect(shown(after, 'veyr')).toMatchObject({
      ad: { ready: 1, used: 3, wounded: 0 },
      weapons: [{ id: 'crossbow', loaded: false, ammunition: 9, ready: false }],
    });
  });

  it('"A target beyond Maximum Range cannot be targeted with that weapon": given a shooter with a crossbow (Maximum 20) and a bow (Maximum 30) 25 Spaces from its foe, then the crossbow is refused and the bow may shoot, beyond its Effective Range 12, with Disadvantage: 3 rerolled into a 4 keeps 1 dot, Wound Margin 1 + 4 − 1 = 4, 2 Wounds', () => {
    const shooter = sheet({ weapons: [crossbow, bow] });
    const start = fight(
      [
        { id: 's', sheet: shooter },
        { id: 't', sheet: sheet() },
      ],
      's',
    );
    expect(refusal(start, ranged('s', 't', 'crossbow', 0, { distance: 25 }))).toMatchObject({
      code: 'NARATEER_OUT_OF_RANGE',
      field: 'distance',
    });
    const events = exact(start, ranged('s', 't', 'bow', 0, { distance: 25, response: 'none' }), {
      dice: [3],
      rerollFaces: [4],
    });
    expect(find(events, 'ExchangeDeclared').edge.disadvantage).toEqual(['beyondEffectiveRange']);
    // The bow: Weapon Damage 2 + min(Agility 2, cap 3) = 4.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      hitMargin: 1,
      strikeRating: 4,
      woundMargin: 4,
      wounds: 2,
    });
  });
});

describe('Exchange Responses: No Response', () => {
  it('"Cover, range, visibility, position, conditions, or special rules may still impose Edge, prevent the attack": given an unaware target, then a shot beyond Maximum Range is still refused, and the GM’s Disadvantage for cover rerolls Mira’s only die, a 6, into a 3 (kept, worse): 1 dot, Wound Margin 1 + 5 − 1 = 5, 3 Wounds', () => {
    expect(
      refusal(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 31, targetUnaware: true })),
    ).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'distance' });
    const events = exact(duel(), melee('mira', 'orin', 0, { targetUnaware: true, edge: 'disadvantage' }), {
      dice: [6],
      rerollFaces: [3],
    });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      targetNumber: 0,
      attacker: {
        edge: 'disadvantage',
        faces: [3],
        total: 1,
        reroll: { index: 0, original: 6, kept: 'reroll' },
      },
      hitMargin: 1,
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({ woundMargin: 5, wounds: 3, vitality: 5 });
  });
});

describe('Harm Domains And Types', () => {
  it('"This classification describes how the harm affects the target. It does not add another roll, value, or Wound": given the same 3 (1 dot) against No Response, when the GM classes Mira’s cut Supernatural (Psychic), then the Wound Margin 5 and its 3 Wounds are those of her plain Physical (Slashing) cut', () => {
    const plain = exact(duel(), melee('mira', 'orin', 0, { response: 'none' }), { dice: [3] });
    const psychic = exact(
      duel(),
      melee('mira', 'orin', 0, { response: 'none', harm: 'Supernatural (Psychic)' }),
      { dice: [3] },
    );
    const numbers = (e: RuleEvent[]) => {
      const w = find(e, 'WoundsApplied');
      return {
        hitMargin: w.hitMargin,
        strikeRating: w.strikeRating,
        protectionRating: w.protectionRating,
        woundMargin: w.woundMargin,
        wounds: w.wounds,
        vitality: w.vitality,
        ad: w.ad,
      };
    };
    expect(numbers(psychic)).toEqual(numbers(plain));
    expect(numbers(plain)).toMatchObject({ woundMargin: 5, wounds: 3, vitality: 5 });
    expect(find(plain, 'WoundsApplied').harmLabel).toBe('Physical (Slashing)');
    expect(find(psychic, 'WoundsApplied').harmLabel).toBe('Supernatural (Psychic)');
    expect(types(psychic)).toEqual(types(plain));
  });

  it('"Lingering Harm is an ongoing condition that causes Wounds over time. It is not a Harm Domain or Harm Type": given harm classed “Lingering (Bleeding)”, then it is refused; Lingering Harm: Bleeding is a Form whose Wounds are Affliction (Bleeding)', () => {
    const start = fight([{ id: 'a', sheet: sheet() }], 'a');
    expect(refusal(start, wounds('a', 1, { harm: 'Lingering (Bleeding)' }))).toMatchObject({
      field: 'harm',
    });
    const events = then(start, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
    expect(shown(events, 'a').lingeringHarm).toMatchObject([
      {
        form: 'Bleeding',
        label: 'Lingering Harm: Bleeding',
        harmLabel: 'Affliction (Bleeding)',
        wounds: 1,
      },
    ]);
  });
});

describe('Hidden and Unseen Creatures', () => {
  it('"Being hidden does not make you physically invisible": given Mira attacking from hiding (the GM’s attackerUnseen), when Orin Clashes, then only her first attack gains Advantage (her 1 rerolled into a 3, kept): Orin knows her position, so his 3 rolls without Disadvantage and the 1 to 1 is a tie', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { attackerUnseen: true }));
    // Only one reroll face is given: Mira's. A Disadvantage on Orin's roll would need a second.
    const events = exact(declared, respond('orin', 'clash'), { dice: [1, 3], rerollFaces: [3] });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['unseenAttacker'], disadvantage: [] },
      faces: [3],
      total: 1,
    });
    expect(resolved.responder).toMatchObject({
      edge: 'none',
      sources: { advantage: [], disadvantage: [] },
      total: 1,
    });
    expect(resolved.outcome).toBe('tie');
    expect(stateOf([...declared, ...events]).combatants.mira.conditions).toEqual([]);
  });
});

describe('Calculating Wounds', () => {
  it('"Hit Margin = Winner\'s total - Loser\'s total" with "9+ = 8" and "If no unwounded dice remain, further Wounds still reduce Vitality": given Mira’s four 6s (8 dots) against Orin’s Clash of a 1, then Wound Margin 8 + 5 − 1 = 12 is 8 Wounds: his 5 dice, then 3 more to Vitality 0, Collapsed, no check', () => {
    const declared = then(duel(), melee('mira', 'orin', 3));
    const events = exact(declared, respond('orin', 'clash'), { dice: [6, 6, 6, 6, 1] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      attacker: { total: 8 },
      responder: { total: 0 },
      hitMargin: 8,
    });
    const applied = find(events, 'WoundsApplied');
    expect(applied).toMatchObject({
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 12,
      wounds: 8,
      vitalityBefore: 8,
      vitality: 0,
      state: 'Collapsed',
      ad: { ready: 0, used: 0, wounded: 5 },
    });
    // 4 Ready AD first, then the 1 he committed to his Clash; the last 3 Wounds find no die.
    expect(applied.dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'used' },
    ]);
    expect(types(events)).not.toContain('ContinuationChecked');
    expect(shown([...declared, ...events], 'orin')).toMatchObject({ state: 'Collapsed', vitality: 0 });
  });

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
    [20, 8],
  ])(
    '"Wounds: 1-2 = 1, 3-4 = 2, 5-6 = 3, 7-8 = 5, 9+ = 8": given an effect’s Wound Margin %i on Maximum Vitality 20, when the GM applies it, then %i Wounds, each taking a die, and no check',
    (margin, n) => {
      const start = fight([{ id: 'a', sheet: sheet({ maxVitality: 20, maxAD: 10 }) }], 'a');
      const events = exact(start, {
        type: 'ApplyWounds',
        combatantId: 'a',
        woundMargin: margin,
        harm: 'Physical (Impact)',
      });
      expect(types(events)).toEqual(['WoundsApplied']);
      expect(events[0].data).toMatchObject({ woundMargin: margin, wounds: n, vitality: 20 - n });
      expect(events[0].data.dice).toHaveLength(n);
    },
  );

  it('"If Wound Margin is 0 or less, the hit causes no Wound": given a club of Weapon Damage 2 and cap 0 (Strike Rating 2), when 1 dot lands on Soak 2, then Wound Margin 1 + 2 − 2 = 1, the least that wounds: 1 Wound; on Soak 3 it is 0: none', () => {
    const club = { ...sword, id: 'club', name: 'Club', damageVitalCap: 0 };
    const striker = sheet({ weapons: [club] });
    const hit = (soak: number) =>
      find(
        exact(
          fight(
            [
              { id: 'a', sheet: striker },
              { id: 'b', sheet: sheet({ armour: { soak } }) },
            ],
            'a',
          ),
          { ...melee('a', 'b', 0, { response: 'none' }), weaponId: 'club' },
          { dice: [3] },
        ),
        'WoundsApplied',
      );
    expect(hit(2)).toMatchObject({
      strikeRating: 2,
      protectionRating: 2,
      woundMargin: 1,
      wounds: 1,
      vitality: 7,
    });
    expect(hit(3)).toMatchObject({ woundMargin: 0, wounds: 0, dice: [], vitality: 8 });
  });
});

describe('Applying Wounds', () => {
  it('"Ready dice always come before Used dice, regardless of type": given 3 Ready AD and 2 Used MD, when 2 Wounds come with the allocation MD, MD in advance, then both take Ready AD (no Ready MD is left) and the Used MD stay', () => {
    let events = fight([{ id: 'a', sheet: sheet({ maxAD: 3, maxMD: 2 }) }], 'a');
    events = then(events, { type: 'SpendDice', combatantId: 'a', md: 2, reason: 'a spell' });
    const out = exact(events, wounds('a', 2, { allocation: ['MD', 'MD'] }));
    expect(out[0].data).toMatchObject({
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
      ad: { ready: 1, used: 0, wounded: 2 },
      md: { ready: 0, used: 2, wounded: 0 },
      vitality: 6,
    });
  });

  it('"This means a hard hit can immediately reduce the target\'s ability to act, answer, or press tempo": given Orin with 3 AD, when Mira’s 1 dot on No Response deals 3 Wounds, then her next exchange finds him out of Ready AD (No Response), and in his own activation nothing refreshes and his mace cannot be paid', () => {
    let events = duel(mira, { ...orin, maxAD: 3 });
    events = then(events, melee('mira', 'orin', 0, { response: 'none' }), { dice: [3] });
    expect(find(events.slice(-3), 'WoundsApplied')).toMatchObject({
      wounds: 3,
      vitality: 5,
      ad: { ready: 0, used: 0, wounded: 3 },
    });
    const next = exact(events, melee('mira', 'orin', 0), { dice: [1] });
    expect(find(next, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    events = [...events, ...next];
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('orin');
    expect(shown(events, 'orin').ad).toEqual({ ready: 0, used: 0, wounded: 3, max: 3 });
    expect(refusal(events, { ...melee('orin', 'mira', 0), weaponId: 'mace' })).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'weaponId',
    });
  });
});

describe('Lingering Harm', () => {
  it('"Unless its source says otherwise, Lingering Harm causes 1 Wound at the end of each round" and "A source may state a different … duration": given Bleeding applied before round 1 opens, lasting 1 round, when round 1 ends, then it ticks once (Vitality 19) and ends; round 2 ends with no tick', () => {
    const a = { id: 'a', sheet: sheet({ maxVitality: 20 }) };
    let events: RuleEvent[] = [
      fightStarted('narateer'),
      joined(a),
      { type: 'InitiativeSet', data: { order: ['a'] } },
    ];
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'a',
      form: 'Bleeding',
      rounds: 1,
    });
    expect(shown(events, 'a').lingeringHarm).toMatchObject([{ untilRound: 1 }]);
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    const end1 = exact(events, { type: 'EndActivation' });
    expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(end1[1].data).toMatchObject({ form: 'Bleeding', wounds: 1, vitality: 19 });
    expect(end1[2].data).toMatchObject({ reason: 'rounds' });
    events = [...events, ...end1];
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(types(exact(events, { type: 'EndActivation' }))).toEqual(['ActivationEnded', 'RoundEnded']);
  });

  it('"A source may state a different … number of Wounds" with "A single damage source causes more Wounds than half their Maximum Vitality in one resolution": given Burning of 2 Wounds a tick on Maximum Vitality 3, when the round ends, then Vitality 1 meets both triggers: one check, 1 and 2 (0 dots), failed: Withdrawn', () => {
    let events = fight([{ id: 'a', sheet: sheet({ maxVitality: 3 }) }], 'a');
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Burning', wounds: 2 });
    const end = exact(events, { type: 'EndActivation' }, { followUpFaces: [1, 2] });
    expect(types(end)).toEqual(['ActivationEnded', 'WoundsApplied', 'ContinuationChecked', 'RoundEnded']);
    expect(end[1].data).toMatchObject({
      harmLabel: 'Elemental (Fire)',
      wounds: 2,
      vitality: 1,
      state: 'Active',
    });
    expect(end[2].data).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });
    expect(shown([...events, ...end], 'a').state).toBe('Withdrawn');
  });
});

describe('Continuation Checks', () => {
  it('"Only a combatant who remains Active (VIT above 0) makes a Continuation Check": given an Unconscious combatant (out cold, but at VIT above 0 still Active), when 5 Wounds take it from 8 to 3, then it makes the one check; its 1, 1 (0 dots) fail: Withdrawn', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'b',
    );
    events = then(events, condition('a', 'unconscious'));
    const out = exact(events, wounds('a', 5), { followUpFaces: [1, 1] });
    expect(types(out)).toEqual(['WoundsApplied', 'ContinuationChecked']);
    expect(out[0].data).toMatchObject({ vitality: 3, state: 'Active' });
    expect(out[1].data).toMatchObject({
      combatantId: 'a',
      triggers: ['belowHalf', 'heavyWounds'],
      passed: false,
      state: 'Withdrawn',
    });
    expect(shown([...events, ...out], 'a')).toMatchObject({
      state: 'Withdrawn',
      conditions: [{ condition: 'unconscious' }],
    });
  });
});

describe('Opportunity Attacks', () => {
  /** m on (1, 0), g on (0, 0): m's activation; m's step to (1, 1) stays within g's reach. */
  const yard = (guard: Record<string, unknown>, mover: Record<string, unknown> = sheet()) =>
    at(
      at(
        fight(
          [
            { id: 'm', sheet: mover },
            { id: 'g', sheet: guard },
          ],
          'm',
        ),
        'g',
        0,
        0,
      ),
      'm',
      1,
      0,
    );

  it('"You must be able to perceive the creature, make a legal melee attack against it and pay the attack’s cost": given a Paralyzed or Unconscious guard, when a foe steps from (1, 0) to (1, 1) within its reach, then no opportunity is identified; a Restrained guard (held in place) is offered one and strikes: 1 dot, Wound Margin 1 + 4 − 1 = 4, 2 Wounds', () => {
    for (const name of ['paralyzed', 'unconscious']) {
      const held = then(yard(sheet()), condition('g', name));
      expect(types(exact(held, step('m', 1, 1)))).toEqual(['Moved']);
    }
    let events = then(yard(sheet()), condition('g', 'restrained'));
    events = then(events, step('m', 1, 1));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    const attack = exact(events, take('g', { response: 'none' }), { dice: [3] });
    expect(find(attack, 'ExchangeDeclared')).toMatchObject({ attackerId: 'g', opportunity: true });
    // g's sword: Weapon Damage 2 + min(Strength 2, cap 3) = 4; m's Soak 1.
    expect(find(attack, 'WoundsApplied')).toMatchObject({
      combatantId: 'm',
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
    });
  });

  it('"If can\'t see or hear, Blinded or Deafened" with "You must be able to perceive the creature": given a guard that is only Deafened, when a foe steps within its reach, then it still sees the step: it is offered the attack, and its roll has no Edge', () => {
    let events = then(yard(sheet()), condition('g', 'deafened'));
    events = then(events, step('m', 1, 1));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    // Only dice faces: a reroll would need one. 3 (1 dot) on No Response: Wound Margin 1 + 4 − 1 = 4, 2 Wounds.
    const attack = exact(events, take('g', { response: 'none' }), { dice: [3] });
    expect(find(attack, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: [], disadvantage: [] },
      total: 1,
    });
    expect(find(attack, 'WoundsApplied')).toMatchObject({ wounds: 2, vitality: 6 });
  });

  it('"Clash lets either combatant win and deal damage" in an Opportunity Attack, with "Before each attack, check that the attacker can still … legally attack": given a mover that Clashes with Boost 1, when its 6, 6 (4 dots) beat the guard’s 1, then Wound Margin 4 + 4 − 1 = 7 deals the guard 5 Wounds; its check (1, 1) fails, and Withdrawn it is offered nothing at the mover’s next step', () => {
    let events = then(yard(sheet()), step('m', 1, 1));
    events = then(events, take('g'));
    const clash = exact(events, respond('m', 'clash', 1), { dice: [1, 6, 6], followUpFaces: [1, 1] });
    expect(find(clash, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'm',
      attacker: { combatantId: 'g', total: 0 },
      responder: { combatantId: 'm', total: 4 },
      hitMargin: 4,
    });
    // m's sword: Weapon Damage 2 + min(Strength 2, cap 3) = 4; g's Soak 1. g at 8 → 3: both triggers, one check.
    expect(find(clash, 'WoundsApplied')).toMatchObject({
      combatantId: 'g',
      woundMargin: 7,
      wounds: 5,
      vitality: 3,
    });
    expect(find(clash, 'ContinuationChecked')).toMatchObject({
      combatantId: 'g',
      triggers: ['belowHalf', 'heavyWounds'],
      passed: false,
    });
    expect(types(clash)).toContain('OpportunitiesFinished');
    events = [...events, ...clash];
    // (1, 1) → (0, 1): still within g's reach at both ends, but g is Withdrawn.
    expect(types(exact(events, step('m', 0, 1)))).toEqual(['Moved']);
  });
});
