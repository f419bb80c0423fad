import { RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import {
  at,
  bow,
  condition,
  crossbow,
  duel,
  exact,
  fight,
  find,
  greatsword,
  mace,
  melee,
  mira,
  move,
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
  veyr,
} from './helpers';

/**
 * narateer.txt read from its first line to its last, one statement at a time: each case below checks a statement (or
 * the branch, boundary or exception of one) that no earlier case exercised with numbers. Every number is worked by
 * hand from the text before running it (N1: faces 1–2 show 0 dots, 3–5 one dot, 6 two dots).
 */

const view = (events: RuleEvent[]) => narateer.view(stateOf(events)) as any;
const shown = (events: RuleEvent[], id: string) => view(events).combatants.find((c: any) => c.id === id);
const all = (events: RuleEvent[], type: string) => events.filter((e) => e.type === type).map((e) => e.data);
const wound = (combatantId: string, wounds: number, harm = 'Physical (Impact)') => ({
  type: 'ApplyWounds',
  combatantId,
  wounds,
  harm,
});

describe('Core Combat Attributes', () => {
  it('"Heavy weapons use Strength for damage": given a brute with Strength 1 and Agility 5, when its heavy mace (cap 3) lands 1 dot on No Response, then Strength 1 gives Strike Rating 3 and Wound Margin 1 + 3 − 1 = 3 (2 Wounds); Agility is refused; a light sword in the same hands takes Agility, capped at 3: Strike 5, Wound Margin 5, 3 Wounds', () => {
    const brute = sheet({
      vitals: { strength: 1, agility: 5, resilience: 2 },
      skills: { melee: 1 },
      weapons: [mace, sword],
    });
    const start = fight(
      [
        { id: 'brute', sheet: brute },
        { id: 'b', sheet: sheet() },
      ],
      'brute',
    );
    const swing = (weaponId: string, extra: Record<string, unknown> = {}) =>
      melee('brute', 'b', 0, { weaponId, response: 'none', ...extra });
    expect(refusal(start, swing('mace', { damageVital: 'agility' }))).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'damageVital',
    });
    const heavy = exact(start, swing('mace'), { dice: [3] });
    expect(find(heavy, 'WoundsApplied')).toMatchObject({
      weaponId: 'mace',
      damageVital: 'strength',
      hitMargin: 1,
      strikeRating: 3,
      protectionRating: 1,
      woundMargin: 3,
      wounds: 2,
      vitality: 6,
    });
    const light = exact(start, swing('sword'), { dice: [3] });
    expect(find(light, 'WoundsApplied')).toMatchObject({
      weaponId: 'sword',
      damageVital: 'agility',
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
    });
    // Vitality 5 of 8 is not below half, and 3 Wounds are not more than half of 8: no check.
    expect(types(light)).not.toContain('ContinuationChecked');
  });
});

describe('Skill Level In Combat', () => {
  it('"… may add up to 3 Boost AD to any one Melee roll, provided she has enough Ready AD": given Mira (Melee SL 3) with 3 Ready AD, when she Boosts 3, then her sword needs 1 + 3 = 4 AD and is refused on boost; Boost 4 is over her Skill Level; Boost 2 commits all 3', () => {
    const poor = { ...mira, maxAD: 3 };
    const start = duel(poor);
    expect(refusal(start, melee('mira', 'orin', 4))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    expect(refusal(start, melee('mira', 'orin', 3))).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'boost',
    });
    const declared = then(start, melee('mira', 'orin', 2));
    expect(find(declared.slice(start.length), 'ExchangeDeclared')).toMatchObject({ boost: 2, dice: 3 });
    expect(shown(declared, 'mira')).toMatchObject({
      ad: { ready: 0, used: 3, wounded: 0, max: 3 },
      proactiveUsesLeft: { melee: 3, ranged: 1 },
    });
  });

  it('"The Skill Level being used also limits Boost on the roll": given Mira (Melee SL 3, Ranged SL 0) with a bow, when she shoots with Boost 1, then it is refused; unboosted the shot is 1 die of Ranged, while her sword may still take Boost 3 (4 dice of Melee)', () => {
    const archer = { ...mira, weapons: [sword, bow] };
    const start = duel(archer);
    expect(refusal(start, ranged('mira', 'orin', 'bow', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    expect(find(exact(start, ranged('mira', 'orin', 'bow', 0)), 'ExchangeDeclared')).toMatchObject({
      skill: 'ranged',
      boost: 0,
      dice: 1,
    });
    expect(find(exact(start, melee('mira', 'orin', 3)), 'ExchangeDeclared')).toMatchObject({
      skill: 'melee',
      boost: 3,
      dice: 4,
    });
  });

  it('"Skill Level does not grant default rerolls": given Mira (Melee SL 3) Boosting 3 with no source of Edge, when her 4 dice show 1, 2, 1, 2, then nothing is rerolled: 0 dots against target number 0 land nothing (N30)', () => {
    // exact() fails if the engine reads a reroll face that is not given: none is.
    const events = exact(duel(), melee('mira', 'orin', 3, { response: 'none' }), { dice: [1, 2, 1, 2] });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ skill: 'melee', edge: 'none', faces: [1, 2, 1, 2], total: 0 });
    expect(resolved.attacker.reroll).toBeUndefined();
    expect(resolved).toMatchObject({ outcome: 'tie', targetNumber: 0 });
  });

  it('"Melee uses include separate exchanges, shoves, trips, feints, disarms, grapples, or other initiated Melee actions": given Orin (Melee SL 1: 2 uses; Ranged SL 0: 1 use), when he makes an exchange and a grapple, then a trip is refused while a thrown net ("other initiated distance-based targeting actions") is not; the view counts 2/1 down to 0/0', () => {
    let events = fight(
      [
        { id: 'orin', sheet: orin },
        { id: 'mira', sheet: mira },
      ],
      'orin',
    );
    expect(shown(events, 'orin').proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });
    events = then(events, { ...melee('orin', 'mira', 0), weaponId: 'mace', response: 'none' }, { dice: [1] });
    expect(shown(events, 'orin').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
    events = then(events, {
      type: 'SpendDice',
      combatantId: 'orin',
      proactiveUse: 'melee',
      reason: 'grapple',
    });
    expect(events[events.length - 1]).toEqual({
      type: 'DiceSpent',
      data: { combatantId: 'orin', ad: 0, md: 0, reason: 'grapple', proactiveUse: 'melee' },
    });
    expect(shown(events, 'orin').proactiveUsesLeft).toEqual({ melee: 0, ranged: 1 });
    expect(
      refusal(events, { type: 'SpendDice', combatantId: 'orin', proactiveUse: 'melee', reason: 'trip' }),
    ).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'proactiveUse' });
    events = then(events, {
      type: 'SpendDice',
      combatantId: 'orin',
      ad: 1,
      proactiveUse: 'ranged',
      reason: 'a thrown net',
    });
    expect(shown(events, 'orin')).toMatchObject({
      proactiveUsesLeft: { melee: 0, ranged: 0 },
      ad: { ready: 3, used: 2, wounded: 0, max: 5 },
    });
  });
});

describe('Tempo', () => {
  it('"The combatant whose activation it is normally has Tempo": given Mira’s activation ended and Orin’s not yet started, then neither may declare an exchange; once Orin’s starts, he may and Mira may not', () => {
    const orinSwing = { ...melee('orin', 'mira', 0), weaponId: 'mace' };
    const between = then(duel(), { type: 'EndActivation' });
    expect(refusal(between, melee('mira', 'orin', 0))).toMatchObject({
      code: 'NARATEER_NOT_YOUR_TEMPO',
      field: 'attackerId',
    });
    expect(refusal(between, orinSwing)).toMatchObject({
      code: 'NARATEER_NOT_YOUR_TEMPO',
      field: 'attackerId',
    });
    const orins = then(between, { type: 'StartActivation' });
    expect(find(orins.slice(between.length), 'ActivationStarted')).toMatchObject({ combatantId: 'orin' });
    expect(find(exact(orins, orinSwing), 'ExchangeDeclared')).toMatchObject({ attackerId: 'orin' });
    expect(refusal(orins, melee('mira', 'orin', 0)).code).toBe('NARATEER_NOT_YOUR_TEMPO');
  });
});

describe('Combat Exchange Flow', () => {
  it('"2. Confirm the tempo-holder has not exceeded the proactive-use limit" comes before "3. The tempo-holder spends the weapon’s Base Attack Cost": given a fighter with no Ready AD left, then at its one use (Melee SL 0) the limit is named (kind); with a use left (Melee SL 1), the weapon’s cost is (weaponId)', () => {
    const spentOut = (skill: number) => {
      const start = fight(
        [
          { id: 'a', sheet: sheet({ skills: { melee: skill }, maxAD: 1 }) },
          { id: 'b', sheet: sheet() },
        ],
        'a',
      );
      return then(start, melee('a', 'b', 0, { response: 'none' }), { dice: [1] });
    };
    expect(shown(spentOut(0), 'a').ad).toMatchObject({ ready: 0, used: 1 });
    expect(refusal(spentOut(0), melee('a', 'b', 0))).toMatchObject({
      code: 'NARATEER_PROACTIVE_LIMIT',
      field: 'kind',
    });
    expect(refusal(spentOut(1), melee('a', 'b', 0))).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'weaponId',
    });
  });

  it('"6. The responder commits the AD required by that response and any legal Boost AD. 7. Roll all committed AD": given a greatsword (Base Attack Cost 3) with Boost 2 against Orin’s mace Clash with Boost 1, then 5 and 2 dice are rolled; Orin’s 3 dots beat 2 and his mace wounds: Hit Margin 1 + Strike 5 − Protection 1 = 5, 3 Wounds from the brute’s Used AD', () => {
    const brute = sheet({
      vitals: { strength: 4, agility: 1, resilience: 2 },
      skills: { melee: 2 },
      weapons: [greatsword],
    });
    const start = fight(
      [
        { id: 'brute', sheet: brute },
        { id: 'orin', sheet: orin },
      ],
      'brute',
    );
    const declared = then(start, { ...melee('brute', 'orin', 2), weaponId: 'greatsword' });
    // "Attack Dice = weapon Base Attack Cost + Boost AD": 3 + 2 = 5, all 5 of the brute's AD.
    expect(find(declared.slice(start.length), 'ExchangeDeclared')).toMatchObject({ dice: 5 });
    expect(shown(declared, 'brute').ad).toMatchObject({ ready: 0, used: 5 });
    // Brute 3, 3, 1, 1, 1 = 2 dots; Orin (1 + Boost 1 = 2 dice) 6, 3 = 3 dots.
    const out = exact(declared, respond('orin', 'clash', 1, { weaponId: 'mace' }), {
      dice: [3, 3, 1, 1, 1, 6, 3],
    });
    expect(find(out, 'ExchangeResponded')).toMatchObject({ response: 'clash', skill: 'melee', dice: 2 });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker.roll.faces).toHaveLength(5);
    expect(resolved.responder.roll.faces).toHaveLength(2);
    expect(resolved).toMatchObject({ outcome: 'counterHit', winnerId: 'orin', hitMargin: 1 });
    // Mace: 2 + min(Strength 3, cap 3) = 5; brute's Soak 1. No Ready die left: the Wounds take Used AD.
    // Vitality 5 of 8 is not below half; 3 Wounds are not more than 4: no check.
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'brute',
      weaponId: 'mace',
      damageVital: 'strength',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 5,
      wounds: 3,
      dice: [
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
      ],
      ad: { ready: 0, used: 2, wounded: 3 },
      vitality: 5,
    });
    expect(types(out)).not.toContain('ContinuationChecked');
    expect(shown([...declared, ...out], 'orin').ad).toMatchObject({ ready: 3, used: 2, wounded: 0 });
  });
});

describe('Exchange Responses: No Response', () => {
  it('"If the responder is … incapacitated … they make no roll": given Orin Paralyzed (aware, but no physical action) with a Full Guard given up front, when Mira’s 1 die shows 6, then he makes No Response: Hit Margin 2 against target number 0, Wound Margin 2 + 5 − 1 = 6, 3 Wounds from his Ready AD', () => {
    const events = then(duel(), condition('orin', 'paralyzed'));
    const out = exact(events, melee('mira', 'orin', 0, { response: 'fullGuard' }), { dice: [6] });
    expect(find(out, 'ExchangeResponded')).toMatchObject({
      response: 'none',
      dice: 0,
      forced: 'incapacitated',
    });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', targetNumber: 0, hitMargin: 2 });
    expect(find(out, 'ExchangeResolved').responder).toBeUndefined();
    expect(find(out, 'WoundsApplied')).toMatchObject({
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
      ad: { ready: 2, used: 0, wounded: 3 },
    });
  });

  it('"… or chooses not to answer, they make no roll": given Orin with 5 Ready AD, when he answers No Response, then he commits and rolls nothing, and Mira’s 2 dots are the Hit Margin: 2 + 5 − 1 = 6, 3 Wounds from his 5 Ready AD', () => {
    const declared = then(duel(), melee('mira', 'orin', 1));
    const out = exact(declared, respond('orin', 'none'), { dice: [3, 3] });
    const responded = find(out, 'ExchangeResponded');
    expect(responded).toMatchObject({ response: 'none', boost: 0, dice: 0 });
    expect(responded.forced).toBeUndefined();
    expect(find(out, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', targetNumber: 0, hitMargin: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      woundMargin: 6,
      wounds: 3,
      ad: { ready: 2, used: 0, wounded: 3 },
    });
  });
});

describe('Exchange Responses: Full Guard', () => {
  it('"If the Full Guard result equals or exceeds the tempo-holder’s result, the attack is stopped … If the tempo-holder wins, calculate Wounds normally": given one die each, when Orin’s guard keeps 2 dots to Mira’s 1, then it is stopped; when Mira’s 2 dots beat his 1, then Hit Margin 1 + 5 − 1 = 5: 3 Wounds', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    // Advantage rerolls Orin's only die (a 6) and keeps the better: the 1 rolled is worse, so the 6 stays.
    const stopped = exact(declared, respond('orin', 'fullGuard'), { dice: [3, 6], rerollFaces: [1] });
    expect(find(stopped, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      winnerId: 'orin',
      attacker: { total: 1 },
      responder: { total: 2, reroll: { index: 0, original: 6, kept: 'original' } },
    });
    expect(types(stopped)).not.toContain('WoundsApplied');
    const landed = exact(declared, respond('orin', 'fullGuard'), { dice: [6, 3], rerollFaces: [1] });
    expect(find(landed, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      winnerId: 'mira',
      hitMargin: 1,
      responder: { total: 1 },
    });
    // Orin: 5 AD − 1 committed = 4 Ready, 1 Used; 3 Wounds take Ready AD.
    expect(find(landed, 'WoundsApplied')).toMatchObject({
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
      ad: { ready: 1, used: 1, wounded: 3 },
    });
  });

  it('"Full Guard means the responder is focused entirely on not being hurt": given an unarmed responder, when Mira attacks, then it cannot Clash ("must have a legal attack") but may Full Guard with Melee SL 1 and Boost 1: 2 dice, the weakest rerolled once, and its tie with Mira’s 1 dot stops her', () => {
    const start = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'u', sheet: sheet({ weapons: [] }) },
      ],
      'mira',
    );
    const declared = then(start, melee('mira', 'u', 0));
    expect(refusal(declared, respond('u', 'clash'))).toMatchObject({
      code: 'NARATEER_NO_LEGAL_CLASH',
      field: 'response',
    });
    // Mira 3 = 1 dot. Guard 1, 3 = 1 dot; Advantage rerolls the 1 (fewest dots) into a 2: still 0 dots, original kept.
    const out = exact(declared, respond('u', 'fullGuard', 1), { dice: [3, 1, 3], rerollFaces: [2] });
    expect(find(out, 'ExchangeResponded')).toMatchObject({ response: 'fullGuard', skill: 'melee', dice: 2 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      responder: { total: 1, reroll: { index: 0, original: 1, kept: 'original' } },
    });
    expect(shown([...declared, ...out], 'u').ad).toMatchObject({ ready: 3, used: 2 });
  });
});

describe('Exchange Responses: Clash', () => {
  it('"In a Melee Exchange, both combatants roll Melee": given a responder with Melee SL 0 and Acrobatics SL 2, when it Clashes Mira’s sword, then Boost 1 is refused (Melee SL 0, not Acrobatics); its 1 die of Melee shows 6 against her 3 and it wounds her with its own sword: Hit Margin 1 + 4 − 1 = 4, 2 Wounds', () => {
    const start = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'r', sheet: sheet({ skills: { melee: 0, acrobatics: 2 } }) },
      ],
      'mira',
    );
    const declared = then(start, melee('mira', 'r', 0));
    expect(refusal(declared, respond('r', 'clash', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    const out = exact(declared, respond('r', 'clash'), { dice: [3, 6] });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ skill: 'melee', total: 1 });
    expect(resolved.responder).toMatchObject({ skill: 'melee', total: 2 });
    expect(resolved).toMatchObject({ outcome: 'counterHit', winnerId: 'r', hitMargin: 1 });
    // r's sword: 2 + min(2, cap 3) = 4 (Strength and Agility are both 2). Mira's Soak 1.
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      sourceId: 'r',
      weaponId: 'sword',
      strikeRating: 4,
      protectionRating: 1,
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
      ad: { ready: 2, used: 1, wounded: 2 },
    });
  });
});

describe('Opportunity Attacks', () => {
  const yard = (g = sheet()) =>
    fight(
      [
        { id: 'm', sheet: sheet() },
        { id: 'g', sheet: g },
      ],
      'm',
    );

  it('"After a creature moves from one Space within your melee reach to another Space within your melee reach": given a mover sharing the reactor’s Space (0 Spaces, N51), when it steps out to the next Space, then the step opens an opportunity; stepping back in (1 to 0) opens another', () => {
    let events = at(at(yard(), 'g', 0, 0), 'm', 0, 0);
    const out = exact(events, step('m', 1, 0));
    expect(types(out)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(find(out, 'OpportunitiesIdentified')).toMatchObject({
      step: { from: { x: 0, y: 0 }, to: { x: 1, y: 0 } },
      reactorIds: ['g'],
    });
    events = then([...events, ...out], { type: 'DeclineOpportunity', combatantId: 'g' });
    const back = exact(events, step('m', 0, 0));
    expect(find(back, 'OpportunitiesIdentified')).toMatchObject({
      step: { from: { x: 1, y: 0 }, to: { x: 0, y: 0 } },
      reactorIds: ['g'],
    });
  });

  it('"The same trigger applies whether the creature moves willingly or is moved by another effect. Follow any specific rule that prevents Reactions to that movement": given a foe within reach, when another effect moves it a step and says it triggers no Reactions, then no opportunity; moved by another effect alone, it opens one', () => {
    // g's activation: m is moved by another effect (forced), outside its own activation.
    const events = at(
      at(
        fight(
          [
            { id: 'm', sheet: sheet() },
            { id: 'g', sheet: sheet() },
          ],
          'g',
        ),
        'g',
        0,
        0,
      ),
      'm',
      1,
      0,
    );
    const exempt = exact(events, step('m', 1, 1, { forced: true, noReactions: true }));
    expect(types(exempt)).toEqual(['Moved']);
    expect(exempt[0].data).toMatchObject({ to: { x: 1, y: 1 }, forced: true, noReactions: true });
    const shoved = exact(events, step('m', 1, 1, { forced: true }));
    expect(find(shoved, 'OpportunitiesIdentified')).toMatchObject({ moverId: 'm', reactorIds: ['g'] });
  });

  it('"The creature completes its step and spends any required movement before you react … It remains in the Space it reached": given a path of four Spaces whose third step starts and ends within a reactor’s reach, then the move stops on that third Space (1 step not taken), and the view shows the mover there and the offer to the reactor', () => {
    const events = at(at(yard(), 'g', 0, 0), 'm', 3, 0);
    // (3,0)→(2,0): 3 → 2 Spaces, out of reach; (2,0)→(1,0): entering reach; (1,0)→(1,1): 1 → 1, within reach at both ends.
    const out = exact(
      events,
      move('m', [
        [2, 0],
        [1, 0],
        [1, 1],
        [1, 2],
      ]),
    );
    expect(find(out, 'Moved')).toMatchObject({
      from: { x: 3, y: 0 },
      to: { x: 1, y: 1 },
      stoppedBefore: 1,
    });
    const after = [...events, ...out];
    expect(shown(after, 'm').position).toEqual({ x: 1, y: 1 });
    expect(view(after)).toMatchObject({
      opportunity: { moverId: 'm', current: 'g', remaining: [] },
      pending: { kind: 'opportunityAttack', awaiting: 'g' },
    });
  });

  it('"Pay your weapon’s normal Base Attack Cost. You may Boost normally": given a reactor whose greatsword costs 3, then with 3 Ready AD it is offered the attack and commits 3 dice, landing Hit Margin 1 + Strike 6 − 1 = 6 (3 Wounds); with 2 Ready AD it cannot pay and is not identified', () => {
    const g = sheet({ weapons: [greatsword] });
    const placed = at(at(yard(g), 'g', 0, 0), 'm', 1, 0);
    const offered = then(placed, step('m', 1, 1));
    expect(find(offered.slice(placed.length), 'OpportunitiesIdentified')).toMatchObject({
      reactorIds: ['g'],
    });
    // 3 dice: 3, 1, 1 = 1 dot against the mover's No Response. Greatsword: 4 + min(Strength 2, cap 4) = 6; Soak 1.
    const out = exact(offered, take('g', { weaponId: 'greatsword', response: 'none' }), { dice: [3, 1, 1] });
    expect(find(out, 'ExchangeDeclared')).toMatchObject({ opportunity: true, boost: 0, dice: 3 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'm',
      strikeRating: 6,
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
    });
    expect(shown([...offered, ...out], 'g').ad).toMatchObject({ ready: 2, used: 3 });
    // "make a legal melee attack against it and pay the attack's cost": 2 Ready AD cannot pay 3.
    const poor = then(placed, { type: 'SpendDice', combatantId: 'g', ad: 3 });
    expect(types(exact(poor, step('m', 1, 1)))).toEqual(['Moved']);
  });
});

describe('Ranged Exchanges', () => {
  it('"The target must be within that weapon’s Maximum Range. An attack beyond Effective Range but within Maximum Range has Disadvantage": given Sera’s bow (Effective 12, Maximum 30) on the map, where a diagonal counts 1 (N25), then a target at (12, 7) is 12 Spaces off (no Disadvantage), at (13, 13) 13 (Disadvantage), at (30, −30) 30 (allowed, with it), and at (31, 0) it cannot be targeted', () => {
    const shotAt = (x: number, y: number) => at(at(shootout(), 'sera', 0, 0), 'veyr', x, y);
    const declared = (x: number, y: number) =>
      find(exact(shotAt(x, y), ranged('sera', 'veyr', 'bow', 0)), 'ExchangeDeclared');
    expect(declared(12, 7)).toMatchObject({ distance: 12, edge: { advantage: [], disadvantage: [] } });
    expect(declared(13, 13)).toMatchObject({
      distance: 13,
      edge: { disadvantage: ['beyondEffectiveRange'] },
    });
    expect(declared(30, -30)).toMatchObject({
      distance: 30,
      edge: { disadvantage: ['beyondEffectiveRange'] },
    });
    expect(refusal(shotAt(31, 0), ranged('sera', 'veyr', 'bow', 0))).toMatchObject({
      code: 'NARATEER_OUT_OF_RANGE',
      field: 'weaponId',
    });
  });

  it('"If the tempo-holder is beyond the responder’s Effective Range but within their Maximum Range, the responder’s Ranged Clash roll has Disadvantage": given Veyr’s crossbow (Effective 10), then at exactly 10 Spaces his Clash has no Disadvantage; at 11 it has, and his kept 1 dot beats Sera’s 0: Hit Margin 1 + 5 − 1 = 5, 3 Wounds, Sera at exactly half (3 of 6) makes no check', () => {
    const clash = respond('veyr', 'clash', 0, { weaponId: 'crossbow' });
    // 10 Spaces: within both Effective Ranges. Sera 1 (0 dots), Veyr 1, 1 (0 dots): no Edge, no reroll, a tie.
    const at10 = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 10 }));
    const even = exact(at10, clash, { dice: [1, 1, 1] });
    expect(find(even, 'ExchangeResponded').edge).toEqual({ advantage: [], disadvantage: [] });
    expect(find(even, 'ExchangeResolved')).toMatchObject({ outcome: 'tie' });
    // 11 Spaces: beyond Veyr's Effective Range 10, within Sera's 12. Veyr 3, 1: Disadvantage rerolls the 3 (most dots)
    // into a 6 and keeps the worse, the 3: 1 dot. Sera's 1 is 0 dots.
    const at11 = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 11 }));
    const out = exact(at11, clash, { dice: [1, 3, 1], rerollFaces: [6] });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ edge: 'none', total: 0 });
    expect(resolved.responder).toMatchObject({
      edge: 'disadvantage',
      sources: { advantage: [], disadvantage: ['beyondEffectiveRange'] },
      reroll: { index: 0, original: 3, kept: 'original' },
      total: 1,
    });
    expect(resolved).toMatchObject({ outcome: 'counterHit', winnerId: 'veyr', hitMargin: 1 });
    // Crossbow: 3 + min(Agility 2, cap 2) = 5; Sera's Soak 1. 6 − 3 = 3: 2 · 3 is not below 6; 3 Wounds not more than 3.
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      vitality: 3,
      ad: { ready: 1, used: 1, wounded: 3 },
    });
    expect(types(out)).not.toContain('ContinuationChecked');
    expect(all(out, 'WeaponFired')).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 19 },
      { combatantId: 'veyr', weaponId: 'crossbow', exchangeId: 'x1', loaded: false, ammunition: 9 },
    ]);
  });

  it('"… and must be able to target the tempo-holder within that weapon’s Maximum Range": given Veyr’s crossbow (Maximum 20), then at exactly 20 Spaces his Clash is allowed, with Disadvantage, as is Sera’s shot (beyond her 12); at 21 it is refused on the weapon and his Full Guard has no range Disadvantage', () => {
    const clash = respond('veyr', 'clash', 0, { weaponId: 'crossbow' });
    const at20 = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 20 }));
    // Sera 3: Disadvantage rerolls it into a 1 and keeps the worse: 0 dots. Veyr 1, 1: the first 1 is rerolled into a 1:
    // equal, the original stays: 0 dots. Rerolls in order: Sera's, then Veyr's (N22).
    const tie = exact(at20, clash, { dice: [3, 1, 1], rerollFaces: [1, 1] });
    const resolved = find(tie, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      sources: { disadvantage: ['beyondEffectiveRange'] },
      reroll: { index: 0, original: 3, kept: 'reroll' },
      total: 0,
    });
    expect(resolved.responder).toMatchObject({
      sources: { disadvantage: ['beyondEffectiveRange'] },
      reroll: { index: 0, original: 1, kept: 'original' },
      total: 0,
    });
    expect(resolved).toMatchObject({ outcome: 'tie' });
    const at21 = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 21 }));
    expect(refusal(at21, clash)).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'weaponId' });
    // Sera 1 rerolled (Disadvantage) into a 1: 0 dots. Veyr's guard 3 rerolled (Advantage) into a 1: the 3 stays.
    const guarded = exact(at21, respond('veyr', 'fullGuard'), { dice: [1, 3], rerollFaces: [1, 1] });
    expect(find(guarded, 'ExchangeResponded')).toMatchObject({
      skill: 'acrobatics',
      edge: { advantage: ['fullGuard'], disadvantage: [] },
    });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded', responder: { total: 1 } });
  });

  it('"To choose Ranged Clash, the responder must have … ammunition if the weapon requires it": given Veyr with an empty bow (no Loading, 0 arrows) and a loaded crossbow, when Sera shoots, then his Clash with the bow is refused, and a Clash naming no weapon takes the crossbow (N35), spending a bolt; with the empty bow alone, no Clash', () => {
    const quiverless = { ...veyr, weapons: [{ ...bow, ammunition: 0 }, crossbow] };
    const start = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: quiverless },
      ],
      'sera',
    );
    const declared = then(start, ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    expect(refusal(declared, respond('veyr', 'clash', 0, { weaponId: 'bow' }))).toMatchObject({
      code: 'NARATEER_NO_AMMUNITION',
      field: 'weaponId',
    });
    const out = exact(declared, respond('veyr', 'clash'), { dice: [1, 1, 1] });
    expect(find(out, 'ExchangeResponded')).toMatchObject({ weaponId: 'crossbow', dice: 2 });
    expect(all(out, 'WeaponFired')[1]).toMatchObject({ weaponId: 'crossbow', loaded: false, ammunition: 9 });
    const bowOnly = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: { ...veyr, weapons: [{ ...bow, ammunition: 0 }] } },
      ],
      'sera',
    );
    const again = then(bowOnly, ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    expect(refusal(again, respond('veyr', 'clash')).code).toBe('NARATEER_NO_AMMUNITION');
    expect(
      find(
        exact(again, respond('veyr', 'fullGuard'), { dice: [1, 3], rerollFaces: [1] }),
        'ExchangeResolved',
      ),
    ).toMatchObject({
      outcome: 'guarded',
    });
  });
});

describe('Calculating Wounds', () => {
  it('"A spell or other effect may supply a fixed Strike Rating. Use that value instead of the weapon formula": given a spell of Strike Rating 4 whose Hit Margin is 2 against Soak 1, then Wound Margin 2 + 4 − 1 = 5 gives 3 Wounds; Wound Margins 0 and −2 give none (recorded, N34); 9 gives 8, whose drop below half asks one check', () => {
    let events = fight([{ id: 't', sheet: sheet({ maxVitality: 20 }) }]);
    const spell = (woundMargin: number) => ({
      type: 'ApplyWounds',
      combatantId: 't',
      woundMargin,
      harm: 'Elemental (Fire)',
      effect: 'fire bolt',
    });
    events = then(events, spell(5));
    expect(events[events.length - 1].data).toMatchObject({ woundMargin: 5, wounds: 3, vitality: 17 });
    for (const margin of [0, -2]) {
      const none = exact(events, spell(margin));
      expect(types(none)).toEqual(['WoundsApplied']);
      expect(none[0].data).toMatchObject({ woundMargin: margin, wounds: 0, dice: [], vitality: 17 });
    }
    // 8 Wounds: Vitality 9 of 20 is below half for the first time; 8 is not more than 10. Resilience 2: 3, 1 = 1 dot.
    const heavy = exact(events, spell(9), { followUpFaces: [3, 1] });
    expect(heavy[0].data).toMatchObject({ woundMargin: 9, wounds: 8, vitality: 9, firstBelowHalf: true });
    expect(heavy[1].data).toMatchObject({ triggers: ['belowHalf'], dots: 1, passed: true });
  });

  it('"Protection Rating = armour Soak + other explicit modifiers, if any": given a target with no armour, then its Protection Rating is 0: Mira’s 1 dot gives Wound Margin 1 + 5 − 0 = 6, 3 Wounds', () => {
    const { armour: _none, ...bare } = orin;
    const events = exact(duel(mira, bare), melee('mira', 'orin', 0, { response: 'none' }), { dice: [3] });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      hitMargin: 1,
      strikeRating: 5,
      protectionRating: 0,
      woundMargin: 6,
      wounds: 3,
    });
  });

  it('"Shields and defensive weapons do not add a default extra defence pool to Combat Exchange resolution": given a guard carrying a sword and a buckler, when it Full Guards with Boost 1, then it rolls 1 + 1 dice only and its Protection is its Soak 1: Mira’s 5 dots beat its 2 by 3, Wound Margin 3 + 5 − 1 = 7, 5 Wounds and one check', () => {
    const buckler = {
      id: 'buckler',
      name: 'Buckler',
      kind: 'melee',
      weight: 'light',
      baseAttackCost: 1,
      weaponDamage: 0,
      damageVitalCap: 0,
      harm: 'Physical (Impact)',
    };
    const start = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'guard', sheet: sheet({ weapons: [sword, buckler] }) },
      ],
      'mira',
    );
    const declared = then(start, melee('mira', 'guard', 2));
    // Mira 6, 6, 3 = 5 dots. Guard 3, 3 = 2 dots; Advantage rerolls the first 3 into a 1 and keeps the 3.
    const out = exact(declared, respond('guard', 'fullGuard', 1), {
      dice: [6, 6, 3, 3, 3],
      rerollFaces: [1],
      followUpFaces: [4, 4],
    });
    expect(find(out, 'ExchangeResponded')).toMatchObject({ dice: 2 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      hitMargin: 3,
      responder: { total: 2 },
    });
    // 5 AD − 2 committed: 3 Ready, then 2 Used. Vitality 3 of 8: below half, and 5 Wounds more than 4: one check.
    expect(find(out, 'WoundsApplied')).toMatchObject({
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitality: 3,
      ad: { ready: 0, used: 0, wounded: 5 },
    });
    expect(all(out, 'ContinuationChecked')).toEqual([
      expect.objectContaining({ triggers: ['belowHalf', 'heavyWounds'], dots: 2, passed: true }),
    ]);
  });
});

describe('Harm Domains And Types', () => {
  it('"At the table, state the result as: “You suffer 2 Wounds from Physical (Piercing) harm.”": given Veyr with Soak 2, when Sera’s arrow lands 1 dot on No Response, then Wound Margin 1 + 5 − 2 = 4: 2 Wounds of Physical (Piercing); Vitality 2 of 4 is not below half and 2 Wounds are not more than half: no check', () => {
    const start = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: { ...veyr, armour: { soak: 2 } } },
      ],
      'sera',
    );
    const out = exact(start, ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), { dice: [3] });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      harm: { domain: 'Physical', type: 'Piercing' },
      harmLabel: 'Physical (Piercing)',
      strikeRating: 5,
      protectionRating: 2,
      woundMargin: 4,
      wounds: 2,
      vitality: 2,
    });
    expect(types(out)).not.toContain('ContinuationChecked');
  });

  it('"Set the classification when the harmful effect is declared or becomes clear": given the GM classifies Orin’s burning mace as Elemental (Fire) on his Clash, when the Clash wins by 1, then Mira’s 3 Wounds (Wound Margin 1 + 5 − 1) carry that classification, not the mace’s Physical (Impact)', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const out = exact(declared, respond('orin', 'clash', 0, { weaponId: 'mace', harm: 'Elemental (Fire)' }), {
      dice: [1, 3],
    });
    expect(find(out, 'ExchangeResponded').harm).toEqual({ domain: 'Elemental', type: 'Fire' });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      harmLabel: 'Elemental (Fire)',
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
      ad: { ready: 1, used: 1, wounded: 3 },
    });
  });
});

describe('Applying Wounds', () => {
  it('"Only when neither Ready AD nor Ready MD remain may the target choose 1 Used AD or Used MD instead": given an ASK combatant with 1 Ready AD, no Ready MD, 1 Used AD and 1 Used MD, when 2 Wounds land, then the first must take the Ready AD and the second is its choice of Used AD or Used MD', () => {
    let events = fight([{ id: 't', sheet: sheet({ maxAD: 2, maxMD: 1, woundPreference: 'ASK' }) }]);
    events = then(events, { type: 'SpendDice', combatantId: 't', ad: 1, md: 1, reason: 'a power' });
    events = then(events, wound('t', 2));
    expect(events[events.length - 1].type).toBe('WoundAllocationRequested');
    expect(
      refusal(events, { type: 'AllocateWounds', combatantId: 't', allocation: ['MD', 'MD'] }),
    ).toMatchObject({
      code: 'NARATEER_READY_BEFORE_USED',
      field: 'allocation[0]',
    });
    const md = exact(events, { type: 'AllocateWounds', combatantId: 't', allocation: ['AD', 'MD'] });
    expect(md[0].data).toMatchObject({
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'MD', from: 'used' },
      ],
      ad: { ready: 0, used: 1, wounded: 1 },
      md: { ready: 0, used: 0, wounded: 1 },
      vitality: 6,
    });
    const ad = exact(events, { type: 'AllocateWounds', combatantId: 't', allocation: ['AD', 'AD'] });
    expect(ad[0].data).toMatchObject({
      ad: { ready: 0, used: 0, wounded: 2 },
      md: { ready: 0, used: 1, wounded: 0 },
    });
  });
});

describe('Lingering Harm', () => {
  const solo = () => fight([{ id: 'a', sheet: sheet({ maxVitality: 20 }) }], 'a');

  it.each([
    ['Bleeding', 'Affliction (Bleeding)'],
    ['Burning', 'Elemental (Fire)'],
    ['Poisoned', 'Affliction (Poison)'],
    ['Suffocating', 'Affliction (Suffocation)'],
    ['Frostbitten', 'Elemental (Cold)'],
  ])(
    'RULINGS.md N11 ("Use these default classifications"): given Lingering Harm: %s with no classification stated, when the round ends, then it ticks 1 Wound of %s, and the view names it',
    (form, label) => {
      const events = then(solo(), { type: 'ApplyLingeringHarm', combatantId: 'a', form });
      expect(shown(events, 'a').lingeringHarm).toEqual([
        expect.objectContaining({ form, label: `Lingering Harm: ${form}`, harmLabel: label, wounds: 1 }),
      ]);
      const end = exact(events, { type: 'EndActivation' });
      expect(types(end)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
      expect(end[1].data).toMatchObject({ form, harmLabel: label, wounds: 1, vitality: 19 });
    },
  );

  it('"A source may state a different Harm classification, number of Wounds …": given Lingering Harm: Bleeding whose source states Supernatural (Necrotic) and 2 Wounds, when the round ends, then it ticks 2 Wounds of Supernatural (Necrotic), its Form still Bleeding', () => {
    const events = then(solo(), {
      type: 'ApplyLingeringHarm',
      combatantId: 'a',
      form: 'Bleeding',
      harm: 'Supernatural (Necrotic)',
      wounds: 2,
    });
    expect(shown(events, 'a').lingeringHarm[0]).toMatchObject({
      label: 'Lingering Harm: Bleeding',
      harmLabel: 'Supernatural (Necrotic)',
      wounds: 2,
    });
    const end = exact(events, { type: 'EndActivation' });
    expect(end[1].data).toMatchObject({
      form: 'Bleeding',
      harmLabel: 'Supernatural (Necrotic)',
      wounds: 2,
      vitality: 18,
    });
  });

  it('"Lingering Harm causes 1 Wound at the end of each round" with RULINGS.md N19: given Lingering Harm applied between two rounds, when the next round starts and ends, then it ticks once, at that end', () => {
    let events = then(solo(), { type: 'EndActivation' });
    expect(events[events.length - 1]).toEqual({ type: 'RoundEnded', data: { round: 1 } });
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
    const start = exact(events, { type: 'StartRound' });
    expect(types(start)).toEqual(['RoundStarted']);
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    const end = exact(events, { type: 'EndActivation' });
    expect(types(end)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(end[1].data).toMatchObject({ wounds: 1, vitality: 19 });
  });
});

describe('Continuation Checks', () => {
  const five = () => fight([{ id: 'a', sheet: sheet({ maxVitality: 5 }) }]);

  it('"Their current Vitality falls below half their Maximum Vitality for the first time": given Maximum Vitality 5 (half is 2½), when single Wounds bring Vitality to 4, then 3, then 2, then only the Wound to 2 asks a check', () => {
    let events = five();
    for (const left of [4, 3]) {
      const out = exact(events, wound('a', 1));
      expect(types(out)).toEqual(['WoundsApplied']);
      expect(out[0].data).toMatchObject({ vitality: left });
      events = [...events, ...out];
    }
    const below = exact(events, wound('a', 1), { followUpFaces: [1, 3] });
    expect(below[0].data).toMatchObject({ vitality: 2, firstBelowHalf: true });
    expect(below[1].data).toMatchObject({ triggers: ['belowHalf'], dice: 2, dots: 1, passed: true });
  });

  it('"A single damage source causes more Wounds than half their Maximum Vitality in one resolution": given Maximum Vitality 5, when one source deals 2 Wounds, then no check (2 is not more than 2½; Vitality 3 is not below it); when it deals 3, then one check for both triggers, whose 0 dots Withdraw', () => {
    expect(types(exact(five(), wound('a', 2)))).toEqual(['WoundsApplied']);
    const events = then(five(), wound('a', 3), { followUpFaces: [2, 2] });
    expect(all(events, 'ContinuationChecked')).toEqual([
      expect.objectContaining({
        triggers: ['belowHalf', 'heavyWounds'],
        dots: 0,
        passed: false,
        state: 'Withdrawn',
      }),
    ]);
    expect(shown(events, 'a')).toMatchObject({ state: 'Withdrawn', vitality: 2 });
  });

  it('"To make a Continuation Check, make a Side Roll using dice equal to Resilience. 1 or more dots: passes … 0 dots: fails": given Resilience 3, then 1, 2, 3 (one Hit) passes; given Resilience 1, then a single 2 fails and the combatant is Withdrawn', () => {
    const tough = fight([
      { id: 'a', sheet: sheet({ vitals: { strength: 2, agility: 2, resilience: 3 }, maxVitality: 4 }) },
    ]);
    const passed = exact(tough, wound('a', 3), { followUpFaces: [1, 2, 3] });
    expect(passed[1].data).toMatchObject({
      dice: 3,
      roll: { faces: [1, 2, 3] },
      dots: 1,
      passed: true,
      state: 'Active',
    });
    const frail = fight([
      { id: 'a', sheet: sheet({ vitals: { strength: 2, agility: 2, resilience: 1 }, maxVitality: 4 }) },
    ]);
    const failed = then(frail, wound('a', 3), { followUpFaces: [2] });
    expect(find(failed, 'ContinuationChecked')).toMatchObject({
      dice: 1,
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });
    expect(shown(failed, 'a')).toMatchObject({ state: 'Withdrawn', vitality: 1 });
  });
});

describe('Tactical Notes', () => {
  it('"Armour matters after the exchange is won. It does not stop the opponent from winning the exchange": given Orin with Soak 7, when Mira’s 1 dot beats his Clash’s 0, then she still wins by 1, and Wound Margin 1 + 5 − 7 = −1 gives no Wound (N34)', () => {
    const plated = { ...orin, armour: { soak: 7 } };
    const declared = then(duel(mira, plated), melee('mira', 'orin', 0));
    const out = exact(declared, respond('orin', 'clash', 0, { weaponId: 'mace' }), { dice: [3, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', winnerId: 'mira', hitMargin: 1 });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      strikeRating: 5,
      protectionRating: 7,
      woundMargin: -1,
      wounds: 0,
      vitality: 8,
    });
  });
});

describe('Combat Modifiers', () => {
  it('"The Guide may apply Adv / Disadv for other situational factors": given the GM’s Advantage on Orin’s Clash (responderEdge), when his 2 dice show 1 and 3, then the 1 is rerolled once into a 6 and kept: 3 dots beat Mira’s 2, Hit Margin 1 + 5 − 1 = 5, 3 Wounds', () => {
    const declared = then(duel(), melee('mira', 'orin', 1, { responderEdge: 'advantage' }));
    const out = exact(declared, respond('orin', 'clash', 1, { weaponId: 'mace' }), {
      dice: [3, 3, 1, 3],
      rerollFaces: [6],
    });
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ edge: 'none', total: 2 });
    expect(resolved.responder).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['gm'], disadvantage: [] },
      reroll: { index: 0, original: 1, kept: 'reroll' },
      faces: [6, 3],
      total: 3,
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
      ad: { ready: 0, used: 2, wounded: 3 },
    });
  });
  it('"Only one source of Advantage and one source of Disadvantage can apply per roll; they do not stack. If both apply, they cancel": given the GM’s Advantage and an unseen shooter (two sources of Advantage) against a shot beyond Effective Range (one of Disadvantage), then they cancel: no die is rerolled, and Sera’s 6, 1 are her 2 dots', () => {
    const out = exact(
      shootout(),
      ranged('sera', 'veyr', 'bow', 1, {
        distance: 15,
        edge: 'advantage',
        attackerUnseen: true,
        response: 'none',
      }),
      { dice: [6, 1], followUpFaces: [3, 3] },
    );
    const resolved = find(out, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: ['gm', 'unseenAttacker'], disadvantage: ['beyondEffectiveRange'] },
      faces: [6, 1],
      total: 2,
    });
    expect(resolved.attacker.reroll).toBeUndefined();
    // Hit Margin 2 + Strike 5 − Soak 1 = 6: 3 Wounds; Veyr 4 → 1, below half and 3 more than 2: one check, 3, 3 pass.
    expect(resolved).toMatchObject({ outcome: 'hit', hitMargin: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ woundMargin: 6, wounds: 3, vitality: 1 });
    expect(find(out, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      dots: 2,
    });
  });
});

describe('Hidden and Unseen Creatures', () => {
  it('"If it cannot locate you, it cannot target you directly. It may still affect an area that includes you": given an Invisible Orin, when the GM’s area effect deals him 2 Wounds of Elemental (Fire), then they land with no attack roll and no Edge', () => {
    const events = then(duel(), condition('orin', 'invisible'));
    const out = exact(events, { ...wound('orin', 2, 'Elemental (Fire)'), effect: 'fireball' });
    expect(types(out)).toEqual(['WoundsApplied']);
    expect(out[0].data).toMatchObject({
      effect: 'fireball',
      harmLabel: 'Elemental (Fire)',
      wounds: 2,
      vitality: 6,
    });
  });
});

describe('“Close-Enough” Conditions Picker', () => {
  it('"Being unaware of an attack does not make a character Unconscious; an unaware target follows No Response": given Mira’s attack on an unaware Orin, then he makes No Response but gains no condition, and against her next attack he is asked and may Full Guard', () => {
    const first = then(duel(), melee('mira', 'orin', 0, { targetUnaware: true }), { dice: [1] });
    expect(find(first, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    expect(types(first)).not.toContain('ConditionApplied');
    expect(shown(first, 'orin').conditions).toEqual([]);
    const next = then(first, melee('mira', 'orin', 0));
    expect(stateOf(next).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'orin' });
    const guarded = exact(next, respond('orin', 'fullGuard'), { dice: [1, 3], rerollFaces: [1] });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
  });

  it('"If held in place (net/grapple/roots), use Restrained; if only hampered, Hindered": given a Hindered combatant, then it still moves by itself and attacks; Restrained, it cannot move by itself, another effect still moves it, and it still attacks', () => {
    const start = at(
      at(
        fight(
          [
            { id: 'a', sheet: sheet() },
            { id: 'b', sheet: sheet() },
          ],
          'a',
        ),
        'a',
        0,
        0,
      ),
      'b',
      3,
      0,
    );
    const hindered = then(start, condition('a', 'hindered'));
    const walked = then(hindered, step('a', 1, 0));
    expect(shown(walked, 'a').position).toEqual({ x: 1, y: 0 });
    expect(refusal(then(start, condition('a', 'restrained')), step('a', 1, 0))).toMatchObject({
      code: 'NARATEER_RESTRAINED',
      field: 'combatantId',
    });
    const pulled = then(then(start, condition('a', 'restrained')), step('a', 1, 0, { forced: true }));
    expect(shown(pulled, 'a').position).toEqual({ x: 1, y: 0 });
    for (const events of [walked, pulled]) {
      const close = at(events, 'b', 2, 0);
      expect(find(exact(close, melee('a', 'b', 0)), 'ExchangeDeclared')).toMatchObject({
        distance: 1,
        edge: { advantage: [], disadvantage: [] },
      });
    }
  });

  it('"If rattled but functional, use Unnerved; if fear forces retreat, use Panicked … If on the ground, Prone": conditions the text gives no number, so the GM rules on them (N26) — given an Unnerved, Panicked and Prone attacker, when it attacks, then its roll has no Edge of their making, and it may still move by itself', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    for (const name of ['unnerved', 'panicked', 'prone']) events = then(events, condition('a', name));
    const out = exact(events, melee('a', 'b', 0, { response: 'none' }), { dice: [3] });
    expect(find(out, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: [] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', hitMargin: 1 });
    const placed = at(at(events, 'a', 0, 0), 'b', 5, 5);
    expect(types(exact(placed, step('a', 1, 0)))).toEqual(['Moved']);
  });
});
