import { given } from '../given';
import { narateer } from '../../src/narateer';
import { RuleCommand } from '../../src/core/types';
import {
  at,
  crossbow,
  exact,
  fight,
  find,
  greatsword,
  melee,
  mira,
  ranged,
  respond,
  sera,
  sheet,
  stateOf,
  step,
  sword,
  then,
  types,
} from './helpers';

/** Cases worked out by hand from narateer.txt, each number checked against the text's formulas. */

const declare = (attackerId: string, targetId: string): RuleCommand => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'melee',
  weaponId: 'sword',
  boost: 0,
});
const opportunity = (combatantId: string, extra: Record<string, unknown> = {}) => ({
  type: 'TakeOpportunityAttack',
  combatantId,
  weaponId: 'sword',
  boost: 0,
  ...extra,
});

describe('Calculating Wounds, worked by hand', () => {
  it('given a heavy greatsword against a Boosted Full Guard, when the attacker wins by 2, then Strike 8 − Protection 2 gives Wound Margin 8: 5 Wounds, Ready AD then Ready MD, one Continuation Check for both triggers', () => {
    // Greatsword: Base Attack Cost 3, Weapon Damage 4, cap 4; Strength 5 is capped at 4: Strike Rating 8.
    const brute = sheet({
      vitals: { strength: 5, agility: 1, resilience: 2 },
      skills: { melee: 2 },
      weapons: [greatsword],
    });
    const guard = sheet({ maxVitality: 8, maxAD: 5, maxMD: 2, armour: { soak: 2 } });
    const start = fight(
      [
        { id: 'brute', sheet: brute },
        { id: 'guard', sheet: guard },
      ],
      'brute',
    );
    const declared = then(start, {
      type: 'DeclareExchange',
      attackerId: 'brute',
      targetId: 'guard',
      kind: 'melee',
      weaponId: 'greatsword',
      boost: 2,
    });
    // 3 + 2 = 5 Attack Dice: 6, 6, 4, 1, 2 = 2 + 2 + 1 + 0 + 0 = 5 dots.
    // Full Guard 1 + Boost 1 = 2 dice: 3, 2 = 1 dot; Advantage rerolls the 2 (fewest dots) to a 6: 3 and 6 = 3 dots.
    const events = exact(
      declared,
      { type: 'RespondToExchange', combatantId: 'guard', response: 'fullGuard', boost: 1 },
      { dice: [6, 6, 4, 1, 2, 3, 2], rerollFaces: [6], followUpFaces: [4, 1] },
    );
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      attacker: { total: 5 },
      responder: { total: 3, reroll: { index: 1, original: 2, kept: 'reroll' } },
      hitMargin: 2,
    });
    // Wound Margin 2 + 8 − 2 = 8 → 5 Wounds (7–8). 3 Ready AD (5 − 2 committed to the guard), then 2 Ready MD.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      damageVital: 'strength',
      strikeRating: 8,
      protectionRating: 2,
      woundMargin: 8,
      wounds: 5,
      vitality: 3,
      state: 'Active',
      ad: { ready: 0, used: 2, wounded: 3 },
      md: { ready: 0, used: 0, wounded: 2 },
    });
    // Vitality 3 is below half of 8 and 5 Wounds are more than half of 8: one check, 4 and 1 = 1 dot, passed.
    expect(find(events, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      dots: 1,
      passed: true,
    });
    expect(types(events).filter((t) => t === 'ContinuationChecked')).toHaveLength(1);
  });

  it('given Maximum Vitality 8, when one source deals exactly 4 Wounds, then Vitality 4 is not below half and 4 Wounds are not more than half: no check; the next Wound brings it below half', () => {
    const start = fight([{ id: 'a', sheet: sheet({ maxVitality: 8 }) }]);
    const half = then(start, { type: 'ApplyWounds', combatantId: 'a', wounds: 4, harm: 'Physical (Impact)' });
    expect(types(half).slice(start.length)).toEqual(['WoundsApplied']);
    expect(stateOf(half).combatants.a).toMatchObject({ vitality: 4, belowHalf: false });
    const below = exact(
      half,
      { type: 'ApplyWounds', combatantId: 'a', wounds: 1, harm: 'Physical (Impact)' },
      { followUpFaces: [3, 1] },
    );
    expect(types(below)).toEqual(['WoundsApplied', 'ContinuationChecked']);
    expect(below[1].data).toMatchObject({ triggers: ['belowHalf'], passed: true });
  });
});

describe('Opportunity Attacks, worked by hand', () => {
  it('given the reactor’s own activation with its one proactive Melee use spent, when another effect moves a foe within its reach, then it may still make the Opportunity Attack and no use is counted', () => {
    // Melee SL 0: one proactive Melee use; a shove spends it.
    let events = fight(
      [
        { id: 'a', sheet: sheet({ skills: { melee: 0 } }) },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = at(at(events, 'a', 0, 0), 'b', 1, 0);
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 1, md: 0, proactiveUse: 'melee' });
    expect(
      given(narateer, events)
        .when({
          type: 'DeclareExchange',
          attackerId: 'a',
          targetId: 'b',
          kind: 'melee',
          weaponId: 'sword',
          boost: 0,
        })
        .violation().code,
    ).toBe('NARATEER_PROACTIVE_LIMIT');
    events = then(events, step('b', 1, 1, { forced: true }));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'a' });
    const attack = exact(events, opportunity('a', { response: 'none' }), { dice: [3] });
    expect(find(attack, 'ExchangeDeclared')).toMatchObject({ attackerId: 'a', opportunity: true });
    expect(find(attack, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', hitMargin: 1 });
    expect(stateOf([...events, ...attack]).combatants.a.uses.melee).toBe(1);
  });

  it('given the mover’s own activation and Melee SL 0 (one proactive use), when it answers an Opportunity Attack with a Clash, then the Clash is a response, not an initiated action: its one proactive Melee use is still there', () => {
    // "Melee uses include separate exchanges, shoves, trips, feints, disarms, grapples, or other initiated Melee actions."
    let events = fight(
      [
        { id: 'm', sheet: sheet({ skills: { melee: 0 } }) },
        { id: 'g', sheet: sheet() },
      ],
      'm',
    );
    events = at(at(events, 'm', 1, 0), 'g', 0, 0);
    events = then(events, step('m', 1, 1));
    events = then(events, opportunity('g'));
    // g's sword 3 = 1 dot; m's Clash 6 = 2 dots: m wins by 1. Strike 2 + min(Agility 2, cap 3) = 4, Soak 1:
    // Wound Margin 1 + 4 − 1 = 4 → 2 Wounds to g (8 → 6: not below half, not more than half: no check).
    const clash = exact(
      events,
      { type: 'RespondToExchange', combatantId: 'm', response: 'clash', boost: 0 },
      { dice: [3, 6] },
    );
    expect(find(clash, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'm',
      hitMargin: 1,
    });
    expect(find(clash, 'WoundsApplied')).toMatchObject({
      combatantId: 'g',
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
    });
    events = [...events, ...clash];
    expect(stateOf(events).combatants.m.uses).toEqual({ melee: 0, ranged: 0 });
    // Its one proactive Melee use (SL 0 + 1) is still there, and only one.
    events = then(events, { ...declare('m', 'g'), response: 'none' }, { dice: [1] });
    expect(stateOf(events).combatants.m.uses.melee).toBe(1);
    expect(given(narateer, events).when(declare('m', 'g')).violation()).toMatchObject({
      code: 'NARATEER_PROACTIVE_LIMIT',
      field: 'kind',
    });
  });

  it('given a reactor with Melee SL 1 and 2 Ready AD, when it takes an Opportunity Attack, then it "may Boost normally": Boost 1 (its Skill Level) is allowed, Boost 2 is not, and cost + Boost must fit its Ready AD', () => {
    let events = fight(
      [
        { id: 'm', sheet: sheet() },
        { id: 'g', sheet: sheet({ maxAD: 2 }) },
      ],
      'm',
    );
    const placed = at(at(events, 'm', 1, 0), 'g', 0, 0);
    events = then(placed, step('m', 1, 1));
    const g = given(narateer, events);
    expect(g.when(opportunity('g', { boost: 2 })).violation()).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    const boosted = exact(events, opportunity('g', { boost: 1 }));
    expect(find(boosted, 'ExchangeDeclared')).toMatchObject({ boost: 1, dice: 2, opportunity: true });
    expect(stateOf([...events, ...boosted]).combatants.g.ad).toEqual({ ready: 0, used: 2, wounded: 0 });
    // With 1 Ready AD, the sword's cost alone fits and Boost 1 does not.
    const spent = then(placed, { type: 'SpendDice', combatantId: 'g', ad: 1 });
    const again = then(spent, step('m', 1, 1));
    expect(
      given(narateer, again)
        .when(opportunity('g', { boost: 1 }))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'boost',
    });
  });

  it('N45: given two reactors to one step, when the first Opportunity Attack collapses the mover, then the second is still offered; the Collapsed mover makes No Response and moves no further by itself', () => {
    // Mover m (Vitality 1) steps from (0,0) to (1,0), within reach of g1 at (1,1) and g2 at (1,−1).
    let events = fight(
      [
        { id: 'm', sheet: sheet({ maxVitality: 1 }), side: 'm' },
        { id: 'g1', sheet: sheet(), side: 'g' },
        { id: 'g2', sheet: sheet(), side: 'g' },
      ],
      'm',
    );
    events = at(at(at(events, 'm', 0, 0), 'g1', 1, 1), 'g2', 1, -1);
    events = then(events, step('m', 1, 0));
    expect(find(events, 'OpportunitiesIdentified')).toMatchObject({ reactorIds: ['g1', 'g2'] });
    // g1: a 6 is 2 dots against target number 0: Hit Margin 2 + Strike 4 (2 + Strength 2) − Soak 1 = 5 → 3 Wounds.
    const first = exact(events, opportunity('g1', { response: 'none' }), { dice: [6] });
    expect(types(first)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'OpportunityOffered',
    ]);
    expect(find(first, 'WoundsApplied')).toMatchObject({ wounds: 3, vitality: -2, state: 'Collapsed' });
    expect(find(first, 'OpportunityOffered')).toEqual({ moverId: 'm', reactorId: 'g2' });
    events = [...events, ...first];
    // g2's attack: the Collapsed mover's response is forced to none (N20).
    const second = exact(events, opportunity('g2'), { dice: [3] });
    expect(find(second, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'collapsed' });
    expect(find(second, 'WoundsApplied')).toMatchObject({ wounds: 2, vitality: -4, state: 'Collapsed' });
    expect(types(second).slice(-1)).toEqual(['OpportunitiesFinished']);
    events = [...events, ...second];
    expect(
      given(narateer, events)
        .when(step('m', 2, 0))
        .violation().code,
    ).toBe('NARATEER_CANNOT_ACT');
  });
});

describe('Conditions and turn order, worked by hand', () => {
  it('N46: given an Unconscious combatant, when its turn in the order comes, then it still gets its activation (its Used dice refresh) but takes no action in it, and the GM ends it', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    // a spends 2 AD, then is knocked out cold for 2 rounds (to the end of round 2).
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 2, md: 0 });
    events = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'unconscious', rounds: 2 });
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartRound' });
    expect(stateOf(events).combatants.a.conditions).toEqual([{ condition: 'unconscious', untilRound: 2 }]);
    const started = exact(events, { type: 'StartActivation' });
    expect(types(started)).toEqual(['ActivationStarted', 'DiceRefreshed']);
    expect(started[0].data).toMatchObject({ combatantId: 'a', round: 2 });
    events = [...events, ...started];
    expect(stateOf(events).combatants.a.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
    const attempt = (command: RuleCommand) => given(narateer, events).when(command).violation().code;
    expect(
      attempt({ type: 'DeclareExchange', attackerId: 'a', targetId: 'b', kind: 'melee', weaponId: 'sword' }),
    ).toBe('NARATEER_CANNOT_ACT');
    expect(attempt({ type: 'SpendDice', combatantId: 'a', ad: 1 })).toBe('NARATEER_CANNOT_ACT');
    // The order goes on after it.
    events = then(events, { type: 'EndActivation' });
    const next = exact(events, { type: 'StartActivation' });
    expect(next[0].data).toMatchObject({ combatantId: 'b', round: 2 });
  });
});

describe('Ready, Used and Wounded dice, worked by hand', () => {
  it('given Used and Ready dice of both kinds, when 4 Wounds take Ready AD, Ready MD, then Used AD, then at its next activation only its Used MD become Ready, and with no Ready AD it makes No Response', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet({ maxAD: 3, maxMD: 2 }) },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 2, md: 1 });
    // AD_FIRST: the Ready AD, then the Ready MD (Ready before Used, whatever the kind), then two Used AD.
    events = then(events, { type: 'ApplyWounds', combatantId: 'a', wounds: 4, harm: 'Physical (Impact)' });
    expect(find(events.slice(-1), 'WoundsApplied')).toMatchObject({
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
      ],
      ad: { ready: 0, used: 0, wounded: 3 },
      md: { ready: 0, used: 1, wounded: 1 },
      // 8 − 4 = 4 is exactly half (not below) and 4 Wounds are exactly half (not more): no check.
      vitality: 4,
    });
    expect(types(events).slice(-1)).toEqual(['WoundsApplied']);
    for (const type of ['EndActivation', 'StartActivation', 'EndActivation', 'StartRound'])
      events = then(events, { type });
    const started = exact(events, { type: 'StartActivation' });
    expect(started[1]).toEqual({
      type: 'DiceRefreshed',
      data: {
        combatantId: 'a',
        ad: { ready: 0, used: 0, wounded: 3 },
        md: { ready: 1, used: 0, wounded: 1 },
      },
    });
    events = [...events, ...started];
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    // Its Ready MD never pays an exchange cost (N17): out of Ready AD, its response is forced.
    const attacked = exact(
      events,
      { type: 'DeclareExchange', attackerId: 'b', targetId: 'a', kind: 'melee', weaponId: 'sword', boost: 0 },
      { dice: [1] },
    );
    expect(find(attacked, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
  });

  it('given exactly the Ready AD an exchange needs, when the tempo-holder commits cost + Boost, then it commits them all; the responder with 1 Ready AD may Full Guard without Boost only', () => {
    const events = fight(
      [
        { id: 'a', sheet: sheet({ maxAD: 2 }) },
        { id: 'b', sheet: sheet({ maxAD: 1 }) },
      ],
      'a',
    );
    const declared = then(events, {
      type: 'DeclareExchange',
      attackerId: 'a',
      targetId: 'b',
      kind: 'melee',
      weaponId: 'sword',
      boost: 1,
    });
    expect(stateOf(declared).combatants.a.ad).toEqual({ ready: 0, used: 2, wounded: 0 });
    expect(
      given(narateer, declared)
        .when({ type: 'RespondToExchange', combatantId: 'b', response: 'fullGuard', boost: 1 })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'boost' });
    // 3, 1 = 1 dot against the guard's 3 = 1 dot (Advantage rerolls it to a 1, worse: kept): the tie stops it.
    const guarded = exact(
      declared,
      { type: 'RespondToExchange', combatantId: 'b', response: 'fullGuard', boost: 0 },
      { dice: [3, 1, 3], rerollFaces: [1] },
    );
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
    expect(stateOf([...declared, ...guarded]).combatants.b.ad).toEqual({ ready: 0, used: 1, wounded: 0 });
  });
});

describe('Initiative, worked by hand', () => {
  it('N15: given Agility 0, when initiative is rolled, then its Side Roll has no dice and 0 dots; a 0-dot roll with higher Agility goes first (N4), and two at Agility 0 are left to the GM', () => {
    const agility = (value: number) => sheet({ vitals: { strength: 2, agility: value, resilience: 2 } });
    // fight() without its InitiativeSet and RoundStarted: the fight started and four combatants joined.
    const start = fight([
      { id: 'a', sheet: agility(0) },
      { id: 'b', sheet: agility(1) },
      { id: 'c', sheet: agility(2) },
      { id: 'd', sheet: agility(0) },
    ]).slice(0, 5);
    // a: no dice; b: 1 = 0 dots; c: 3, 1 = 1 dot; d: no dice.
    const rolled = exact(start, { type: 'RollInitiative' }, { dice: [1, 3, 1] });
    expect(rolled[0].data).toMatchObject({
      rolls: [
        { combatantId: 'a', roll: { faces: [] }, total: 0 },
        { combatantId: 'b', roll: { faces: [1] }, total: 0 },
        { combatantId: 'c', roll: { faces: [3, 1] }, total: 1 },
        { combatantId: 'd', roll: { faces: [] }, total: 0 },
      ],
      order: ['c', 'b', 'a', 'd'],
      unresolvedTies: [['a', 'd']],
    });
    expect(stateOf([...start, ...rolled]).pending).toMatchObject({ kind: 'initiativeTie', awaiting: 'gm' });
  });
});

describe('Targets and Lingering Harm, worked by hand', () => {
  it('N47: given Lingering Harm whose source states 0 Wounds per tick and 2 ticks, when two rounds end, then each tick is recorded with 0 Wounds, takes no die, asks nothing, and the second ends it', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet({ maxMD: 2, woundPreference: 'ASK' }) },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'a',
      form: 'Poisoned',
      source: 'weak venom',
      wounds: 0,
      endsAfterTicks: 2,
    });
    const first = exact(events, { type: 'EndRound' });
    expect(types(first)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(find(first, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      form: 'Poisoned',
      harmLabel: 'Affliction (Poison)',
      wounds: 0,
      dice: [],
      vitality: 8,
    });
    events = [...events, ...first];
    expect(stateOf(events).combatants.a.lingering[0]).toMatchObject({ ticksLeft: 1 });
    events = then(events, { type: 'StartRound' });
    const second = exact(events, { type: 'EndRound' });
    expect(types(second)).toEqual(['WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(find(second, 'LingeringHarmEnded')).toMatchObject({ combatantId: 'a', reason: 'ticks' });
    expect(stateOf([...events, ...second]).combatants.a).toMatchObject({
      vitality: 8,
      lingering: [],
      ad: { ready: 5, wounded: 0 },
      md: { ready: 2, wounded: 0 },
    });
  });

  it('N48: given a tempo-holder, when it names an ally or a Collapsed foe as its target, then the exchange is declared; the Collapsed target makes No Response and its Vitality goes below 0', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet(), side: 'heroes' },
        { id: 'b', sheet: sheet(), side: 'heroes' },
        { id: 'c', sheet: sheet({ maxVitality: 2 }), side: 'foes' },
      ],
      'a',
    );
    // An ally: the exchange is declared and b answers as any target does.
    const ally = exact(events, {
      type: 'DeclareExchange',
      attackerId: 'a',
      targetId: 'b',
      kind: 'melee',
      weaponId: 'sword',
      boost: 0,
    });
    expect(types(ally)).toEqual(['ExchangeDeclared']);
    expect(stateOf([...events, ...ally]).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'b' });
    // A foe at 0 Vitality (Collapsed): forced No Response; 1 dot against target number 0, Hit Margin 1,
    // Strike 2 + 2 = 4, Soak 1: Wound Margin 4 → 2 Wounds, Vitality 0 → −2.
    events = then(events, { type: 'ApplyWounds', combatantId: 'c', wounds: 2, harm: 'Physical (Impact)' });
    expect(stateOf(events).combatants.c.vitality).toBe(0);
    const fallen = exact(
      events,
      { type: 'DeclareExchange', attackerId: 'a', targetId: 'c', kind: 'melee', weaponId: 'sword', boost: 0 },
      { dice: [3] },
    );
    expect(find(fallen, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'collapsed' });
    expect(find(fallen, 'WoundsApplied')).toMatchObject({
      woundMargin: 4,
      wounds: 2,
      vitalityBefore: 0,
      vitality: -2,
      state: 'Collapsed',
    });
    expect(types(fallen)).not.toContain('ContinuationChecked');
  });
});

describe('Edge, Boost, dice and Lingering Harm, worked by hand', () => {
  const duel = (b: Record<string, unknown>) =>
    fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'b', sheet: b },
      ],
      'mira',
    );

  it('given the GM’s Advantage on a Full Guard, when it is rolled, then Full Guard’s own Advantage does not stack: one die is rerolled once', () => {
    // narateer.txt: Full Guard — "It does not stack with another source of Advantage" (N2: one reroll).
    const declared = then(
      duel(sheet()),
      melee('mira', 'b', 1, { weaponId: 'sword', responderEdge: 'advantage' }),
    );
    // Mira 4, 4 = 2 dots. The guard (1 AD + Boost 1): 1, 3 = 1 dot; the 1 (fewest dots) is rerolled to a 6: 3 dots.
    const events = exact(declared, respond('b', 'fullGuard', 1), { dice: [4, 4, 1, 3], rerollFaces: [6] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      attacker: { total: 2, edge: 'none' },
      responder: {
        edge: 'advantage',
        sources: { advantage: ['gm', 'fullGuard'], disadvantage: [] },
        reroll: { index: 0, original: 1, kept: 'reroll' },
        faces: [6, 3],
        total: 3,
      },
    });
  });

  it('given Ranged SL 0 and Acrobatics SL 2, when answering a Ranged Exchange, then a Clash may not Boost and a Full Guard may Boost 2; against a Melee Exchange the guard is capped by Melee SL 0', () => {
    // narateer.txt: "Maximum Boost AD = Skill Level being tested"; Ranged Clash tests Ranged, Ranged Full Guard Acrobatics.
    const dodger = sheet({ skills: { melee: 0, ranged: 0, acrobatics: 2 }, weapons: [sword, crossbow] });
    const shot = then(
      fight(
        [
          { id: 'sera', sheet: sera },
          { id: 'b', sheet: dodger },
        ],
        'sera',
      ),
      ranged('sera', 'b', 'bow', 0, { distance: 5 }),
    );
    expect(
      given(narateer, shot)
        .when(respond('b', 'clash', 1, { weaponId: 'crossbow' }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL', field: 'boost' });
    // Sera 6 = 2 dots; the guard's 3 dice 3, 3, 1 = 2 dots, its 1 rerolled to a 3: 3 dots. Stopped.
    const guarded = exact(shot, respond('b', 'fullGuard', 2), { dice: [6, 3, 3, 1], rerollFaces: [3] });
    expect(find(guarded, 'ExchangeResponded')).toMatchObject({ skill: 'acrobatics', dice: 3 });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded', responder: { total: 3 } });
    const swing = then(duel(dodger), melee('mira', 'b', 0));
    expect(
      given(narateer, swing)
        .when(respond('b', 'fullGuard', 1))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
  });

  it('given a target whose AD are all Used and whose MD are Ready, when it is struck, then it makes No Response, Wound Margin 9 gives 8 Wounds: Ready MD, then Used AD, then Vitality alone; at 0 it Collapses and makes no Continuation Check', () => {
    const mystic = sheet({
      maxVitality: 8,
      maxAD: 2,
      maxMD: 3,
      armour: { soak: 0 },
      woundPreference: 'MD_FIRST',
    });
    const spent = then(duel(mystic), { type: 'SpendDice', combatantId: 'b', ad: 2, md: 0 });
    // MD never pays exchange costs (N17): no Ready AD forces No Response. Mira 6, 6 = 4 dots against target number 0.
    // Strike 2 + min(Agility 3, cap 3) = 5, Soak 0: Wound Margin 4 + 5 − 0 = 9 → 8 Wounds.
    const events = exact(spent, melee('mira', 'b', 1), { dice: [6, 6] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ targetNumber: 0, hitMargin: 4 });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      woundMargin: 9,
      wounds: 8,
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'MD', from: 'ready' },
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
      ],
      ad: { ready: 0, used: 0, wounded: 2 },
      md: { ready: 0, used: 0, wounded: 3 },
      vitality: 0,
      state: 'Collapsed',
    });
    expect(types(events)).not.toContain('ContinuationChecked');
  });

  it('given two sources of Bleeding on Maximum Vitality 4 at Vitality 3, when the round ends, then each ticks as its own resolution: the first leaves Vitality 2 (not below half), the second 1, which makes the check', () => {
    let events = fight([{ id: 'a', sheet: sheet({ maxVitality: 4 }) }], 'a');
    events = then(events, { type: 'ApplyWounds', combatantId: 'a', wounds: 1, harm: 'Physical (Impact)' });
    for (const source of ['knife', 'thorns'])
      events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding', source });
    const round = exact(events, { type: 'EndActivation' }, { followUpFaces: [3, 1] });
    expect(types(round)).toEqual([
      'ActivationEnded',
      'WoundsApplied',
      'WoundsApplied',
      'ContinuationChecked',
      'RoundEnded',
    ]);
    expect(round[1].data).toMatchObject({ lingeringHarmId: 'lh1', wounds: 1, vitality: 2 });
    expect(round[1].data.firstBelowHalf).toBeUndefined();
    expect(round[2].data).toMatchObject({
      lingeringHarmId: 'lh2',
      wounds: 1,
      vitality: 1,
      firstBelowHalf: true,
    });
    expect(round[3].data).toMatchObject({ triggers: ['belowHalf'], dots: 1, passed: true });
  });
});
