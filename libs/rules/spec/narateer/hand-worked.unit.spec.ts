import { given } from '../given';
import { narateer } from '../../src/narateer';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { exact, fight, find, greatsword, sheet, stateOf, then, types } from './helpers';

/** Cases worked out by hand from narateer.txt, each number checked against the text's formulas. */

const at = (events: RuleEvent[], id: string, x: number, y: number) =>
  then(events, { type: 'SetPosition', combatantId: id, position: { x, y } });
const step = (combatantId: string, x: number, y: number, extra: Record<string, unknown> = {}) => ({
  type: 'Move',
  combatantId,
  path: [{ x, y }],
  ...extra,
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
