import { RuleEvent } from '../../src/core/types';
import {
  at,
  condition,
  exact,
  fight,
  find,
  joined,
  melee,
  move,
  orin,
  ranged,
  refusal,
  respond,
  sera,
  sheet,
  stateOf,
  take,
  then,
  types,
  veyr,
} from './helpers';
import { fightStarted } from '../given';

/**
 * narateer.txt read for the places where two or more of its rules meet (conditions with Edge, Opportunity Attacks
 * with Wounds and Continuation Checks, Lingering Harm with the round's lifecycle, Loading with cancelled exchanges,
 * refresh timing with initiative…). Each case is worked by hand from the text, then checked here.
 */

/** Round 1 in the listed order, the first `acted` having had their activations, then `active`'s running. */
function midRound(
  fighters: { id: string; sheet: Record<string, unknown>; side?: string }[],
  acted: string[],
  active: string,
) {
  const events = fight(fighters);
  for (const id of acted)
    events.push(
      { type: 'ActivationStarted', data: { combatantId: id, round: 1 } },
      { type: 'ActivationEnded', data: { combatantId: id, round: 1 } },
    );
  events.push({ type: 'ActivationStarted', data: { combatantId: active, round: 1 } });
  return events;
}

describe('Two conditions on one combatant, and conditions with Edge', () => {
  it('Combat Modifiers: "Only one source of Advantage and one source of Disadvantage can apply per roll … If both apply, they cancel" — an attacker both Invisible and Blinded: its first attack is unseen (Advantage) and cannot see (Disadvantage), so no die is rerolled; its second keeps only the Disadvantage', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(then(events, condition('a', 'invisible')), condition('a', 'blinded'));
    // 1 die (sword, no Boost) against No Response: 3 = 1 dot, no reroll. Hit Margin 1 + Strike 4 − Soak 1 = 4: 2 Wounds.
    const first = exact(events, melee('a', 'b', 0, { response: 'none' }), { dice: [3] });
    expect(find(first, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: ['unseenAttacker'], disadvantage: ['cannotSeeTarget'] },
      total: 1,
    });
    expect(find(first, 'ExchangeResolved').attacker.reroll).toBeUndefined();
    expect(find(first, 'WoundsApplied')).toMatchObject({ wounds: 2, vitality: 6 });
    events = [...events, ...first];
    // Second attack (Melee SL 1: 2 uses): no longer the first while unseen; Disadvantage rerolls the 6 to a 1, keeps the worse.
    const second = exact(events, melee('a', 'b', 0, { response: 'none' }), { dice: [6], rerollFaces: [1] });
    expect(find(second, 'ExchangeResolved')).toMatchObject({
      attacker: {
        edge: 'disadvantage',
        sources: { advantage: [], disadvantage: ['cannotSeeTarget'] },
        total: 0,
        reroll: { original: 6, kept: 'reroll' },
      },
      outcome: 'tie',
    });
  });

  it('Combat Modifiers with Ranged Exchanges: two sources of Disadvantage (an Invisible target, beyond Effective Range) "do not stack", so the one Advantage of an unseen shooter cancels them; a 0-dot shot at No Response then lands nothing, and the arrow is still spent', () => {
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      'sera',
    );
    events = then(then(events, condition('sera', 'invisible')), condition('veyr', 'invisible'));
    const shot = exact(events, ranged('sera', 'veyr', 'bow', 0, { distance: 20, response: 'none' }), {
      dice: [1],
    });
    const resolved = find(shot, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: ['unseenAttacker'], disadvantage: ['cannotSeeTarget', 'beyondEffectiveRange'] },
    });
    expect(resolved.attacker.reroll).toBeUndefined();
    expect(resolved).toMatchObject({ outcome: 'tie', targetNumber: 0 });
    expect(find(shot, 'WeaponFired')).toMatchObject({ weaponId: 'bow', ammunition: 19 });
    expect(types(shot)).not.toContain('WoundsApplied');
  });

  it('Full Guard and Hidden and Unseen Creatures: against a Blinded responder the attacker’s first attack is unseen (Advantage), and the Full Guard keeps its own Advantage — "its attacks against you have Disadvantage" does not touch a Full Guard, which is no attack', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, condition('b', 'blinded'));
    events = then(events, melee('a', 'b', 1));
    // a: 1 and 4 = 1 dot; Advantage rerolls the 1 to a 6: 3 dots. b: 3 = 1 dot; Advantage rerolls it to a 1, keeps the 3.
    const answered = exact(events, respond('b', 'fullGuard'), { dice: [1, 4, 3], rerollFaces: [6, 1] });
    const resolved = find(answered, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['unseenAttacker'], disadvantage: [] },
      total: 3,
    });
    expect(resolved.responder).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['fullGuard'], disadvantage: [] },
      total: 1,
    });
    // Hit Margin 2 + Strike 4 − Soak 1 = 5: 3 Wounds.
    expect(resolved).toMatchObject({ outcome: 'hit', hitMargin: 2 });
    expect(find(answered, 'WoundsApplied')).toMatchObject({ woundMargin: 5, wounds: 3, vitality: 5 });
  });

  it('No Response with Edge: "conditions … may still impose Edge" — a target both Invisible and Unconscious makes No Response (incapacitated), yet the attacker who cannot see it still rolls with Disadvantage and gains no unseen Advantage', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(then(events, condition('b', 'invisible')), condition('b', 'unconscious'));
    const attack = exact(events, melee('a', 'b', 0, { response: 'fullGuard' }), {
      dice: [6],
      rerollFaces: [4],
    });
    expect(find(attack, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'incapacitated' });
    expect(find(attack, 'ExchangeResolved')).toMatchObject({
      attacker: {
        edge: 'disadvantage',
        sources: { advantage: [], disadvantage: ['cannotSeeTarget'] },
        total: 1,
      },
      targetNumber: 0,
      outcome: 'hit',
      hitMargin: 1,
    });
  });

  it('Hidden and Unseen Creatures: "Your first attack while unseen by its target gains Advantage … an unaware target follows No Response" — the unaware target’s Full Guard policy is overridden, and the unseen attacker rolls with Advantage against target number 0', () => {
    const guard = sheet({ responsePolicy: { response: 'fullGuard', boost: 1, fallback: 'none' } });
    const events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: guard },
      ],
      'a',
    );
    const attack = exact(events, melee('a', 'b', 0, { attackerUnseen: true, targetUnaware: true }), {
      dice: [1],
      rerollFaces: [3],
    });
    expect(find(attack, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    expect(find(attack, 'ExchangeResolved')).toMatchObject({
      attacker: { edge: 'advantage', sources: { advantage: ['unseenAttacker'] }, total: 1 },
      targetNumber: 0,
      outcome: 'hit',
      hitMargin: 1,
    });
  });
});

describe('Ties with Advantage and Disadvantage', () => {
  it('Combat Exchange Flow: "8. Resolve Edge … 9. Compare the final totals" — an attacker who would lose a Clash by 1 rerolls with Advantage into a tie: "If both results are tied, neither combatant lands a clean hit"', () => {
    const events = then(
      fight(
        [
          { id: 'a', sheet: sheet() },
          { id: 'b', sheet: sheet() },
        ],
        'a',
      ),
      melee('a', 'b', 1, { edge: 'advantage' }),
    );
    // a: 1 and 3 = 1 dot; b's Clash: 6 = 2 dots. a's Advantage rerolls the 1 into a 3: 2 dots, a tie.
    const answered = exact(events, respond('b', 'clash'), { dice: [1, 3, 6], rerollFaces: [3] });
    expect(find(answered, 'ExchangeResolved')).toMatchObject({
      attacker: { total: 2, reroll: { original: 1, kept: 'reroll' } },
      responder: { total: 2 },
      outcome: 'tie',
    });
    expect(types(answered)).toEqual(['ExchangeResponded', 'ExchangeResolved']);
    const s = stateOf([...events, ...answered]);
    expect(s.combatants.a.ad).toEqual({ ready: 3, used: 2, wounded: 0 });
    expect(s.combatants.b.ad).toEqual({ ready: 4, used: 1, wounded: 0 });
    expect(s.combatants.b.vitality).toBe(8);
  });
});

describe('Opportunity Attacks with Wounds, Continuation Checks and Ready AD', () => {
  it('Continuation Checks with Opportunity Attacks: "Resolve the Exchange before the creature continues moving" — the attack that first takes the mover below half makes it check mid-move; having passed, it moves on, its next qualifying step gives a new opportunity, and the next hit makes no second check', () => {
    let events = fight([
      { id: 'g', sheet: sheet(), side: 'g' },
      { id: 'm', sheet: sheet(), side: 'm' },
    ]);
    events = then(events, { type: 'ApplyWounds', combatantId: 'm', wounds: 2, harm: 'Physical (Impact)' });
    events = [...events, { type: 'ActivationStarted', data: { combatantId: 'm', round: 1 } }];
    events = at(at(events, 'g', 0, 0), 'm', 1, 0);
    const stopped = exact(
      events,
      move('m', [
        [1, 1],
        [2, 1],
      ]),
    );
    expect(find(stopped, 'Moved')).toMatchObject({ to: { x: 1, y: 1 }, stoppedBefore: 1 });
    events = [...events, ...stopped];
    // 6 = 2 dots against No Response: Hit Margin 2 + Strike 4 − Soak 1 = 5: 3 Wounds, Vitality 6 → 3 (below half of 8).
    const first = exact(events, take('g', { response: 'none' }), { dice: [6], followUpFaces: [3, 1] });
    expect(types(first)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'ContinuationChecked',
      'OpportunitiesFinished',
    ]);
    expect(find(first, 'ContinuationChecked')).toMatchObject({ triggers: ['belowHalf'], passed: true });
    events = [...events, ...first];
    expect(stateOf(events).combatants.m.position).toEqual({ x: 1, y: 1 });
    // It continues: (1,1) → (0,1) is again a step between two Spaces within g's reach.
    events = then(events, move('m', [[0, 1]]));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    // 3 = 1 dot: Wound Margin 4, 2 Wounds, Vitality 1; no longer the first time below half, 2 Wounds not more than 4.
    const second = exact(events, take('g', { response: 'none' }), { dice: [3] });
    expect(find(second, 'WoundsApplied')).toMatchObject({ wounds: 2, vitality: 1, state: 'Active' });
    expect(types(second)).not.toContain('ContinuationChecked');
    expect(types(exact([...events, ...second], move('m', [[0, 2]])))).toEqual(['Moved']);
  });

  it('Opportunity Attacks with Exchange Responses: a mover whose Clash against the first reactor commits its last Ready AD is "out of Ready AD" when the second reactor strikes: No Response, and its Wounds then take the Used AD ("Only when neither Ready AD nor Ready MD remain")', () => {
    let events = fight(
      [
        { id: 'g1', sheet: sheet(), side: 'g' },
        { id: 'g2', sheet: sheet(), side: 'g' },
        { id: 'm', sheet: sheet({ maxAD: 1 }), side: 'm' },
      ],
      'm',
    );
    events = at(at(at(events, 'g1', 0, 0), 'g2', 2, 0), 'm', 1, 0);
    events = then(events, move('m', [[1, 1]]));
    expect(find(events, 'OpportunitiesIdentified')).toMatchObject({ reactorIds: ['g1', 'g2'] });
    events = then(events, take('g1'));
    // g1: 3 = 1 dot; m's Clash: 3 = 1 dot. A tie: no clean hit; m's only AD is now Used.
    const clash = exact(events, respond('m', 'clash'), { dice: [3, 3] });
    expect(find(clash, 'ExchangeResolved')).toMatchObject({ outcome: 'tie' });
    expect(find(clash, 'OpportunityOffered')).toMatchObject({ reactorId: 'g2' });
    events = [...events, ...clash];
    // g2: 3 = 1 dot against No Response: Wound Margin 4, 2 Wounds; one takes the Used AD, the other no die.
    const second = exact(events, take('g2', { response: 'fullGuard' }), { dice: [3] });
    expect(find(second, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    expect(find(second, 'WoundsApplied')).toMatchObject({
      wounds: 2,
      vitality: 6,
      dice: [{ kind: 'AD', from: 'used' }],
      ad: { ready: 0, used: 0, wounded: 1 },
    });
    expect(types(second).at(-1)).toBe('OpportunitiesFinished');
  });

  it('Opportunity Attacks and Hidden and Unseen Creatures: against a Blinded mover the reactor’s Opportunity Attack is its first attack unseen (Advantage), and the mover’s Clash, an attack on a foe it cannot see, has Disadvantage', () => {
    let events = fight(
      [
        { id: 'g', sheet: sheet(), side: 'g' },
        { id: 'm', sheet: sheet(), side: 'm' },
      ],
      'm',
    );
    events = at(at(events, 'g', 0, 0), 'm', 1, 0);
    events = then(events, condition('m', 'blinded'));
    events = then(events, move('m', [[1, 1]]));
    events = then(events, take('g'));
    // g: 1 → rerolled to 3 (Advantage keeps it): 1 dot. m: 6 → rerolled to 2 (Disadvantage keeps it): 0 dots.
    const clash = exact(events, respond('m', 'clash'), { dice: [1, 6], rerollFaces: [3, 2] });
    const resolved = find(clash, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['unseenAttacker'] },
      total: 1,
    });
    expect(resolved.responder).toMatchObject({
      edge: 'disadvantage',
      sources: { disadvantage: ['cannotSeeTarget'] },
      total: 0,
    });
    expect(resolved).toMatchObject({ outcome: 'hit', winnerId: 'g', hitMargin: 1 });
    expect(find(clash, 'WoundsApplied')).toMatchObject({ combatantId: 'm', wounds: 2 });
  });
});

describe('Continuation Checks and Lingering Harm with the round', () => {
  it('Continuation Checks with Clash: a tempo-holder that loses a Clash and fails its check "cannot continue the current fight on the same terms" — it initiates nothing more though a proactive use is left; its Lingering Harm still ticks at the round’s end, with no check', () => {
    const x = sheet();
    let events = midRound(
      [
        { id: 'y', sheet: orin },
        { id: 'x', sheet: x },
      ],
      ['y'],
      'x',
    );
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'x', form: 'Bleeding', wounds: 1 });
    events = then(events, melee('x', 'y', 0));
    // x: 1 = 0 dots; y's mace Clash, Boost 1: 6 and 6 = 4 dots. Hit Margin 4 + Strike (2 + Strength 3) 5 − Soak 1 = 8:
    // 5 Wounds, Vitality 3: below half and more than half at once, one check; 1 and 2 = 0 dots, failed.
    const lost = exact(events, respond('y', 'clash', 1), { dice: [1, 6, 6], followUpFaces: [1, 2] });
    expect(find(lost, 'WoundsApplied')).toMatchObject({ combatantId: 'x', wounds: 5, vitality: 3 });
    expect(find(lost, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      passed: false,
      state: 'Withdrawn',
    });
    events = [...events, ...lost];
    expect(stateOf(events).combatants.x.uses.melee).toBe(1);
    expect(refusal(events, melee('x', 'y', 0)).code).toBe('NARATEER_CANNOT_ACT');
    const end = exact(events, { type: 'EndActivation' });
    expect(types(end)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(find(end, 'WoundsApplied')).toMatchObject({
      combatantId: 'x',
      harmLabel: 'Affliction (Bleeding)',
      vitality: 2,
      state: 'Withdrawn',
    });
  });

  it('Lingering Harm with C16: when the combatant whose activation runs is removed, the round ends — the others’ Lingering Harm ticks; the removed combatant’s does not', () => {
    let events = midRound(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      ['a'],
      'b',
    );
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding', wounds: 1 });
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'b', form: 'Burning', wounds: 1 });
    const removed = exact(events, { type: 'RemoveCombatant', combatantId: 'b' });
    expect(types(removed)).toEqual(['CombatantRemoved', 'WoundsApplied', 'RoundEnded']);
    expect(find(removed, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      harmLabel: 'Affliction (Bleeding)',
    });
  });

  it('N59: given a round that waits only for b, between activations, when b is removed, then the round ends as the last EndActivation would (its Lingering Harm ticks); with someone else still waiting it stays open', () => {
    const between = (fighters: string[]) => {
      const events = midRound(
        fighters.map((id) => ({ id, sheet: sheet() })),
        [],
        'a',
      );
      events.push({ type: 'ActivationEnded', data: { combatantId: 'a', round: 1 } });
      return then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding', wounds: 1 });
    };
    const two = between(['a', 'b']);
    expect(stateOf(two)).toMatchObject({ roundOpen: true, activeId: undefined });
    const removed = exact(two, { type: 'RemoveCombatant', combatantId: 'b' });
    expect(types(removed)).toEqual(['CombatantRemoved', 'WoundsApplied', 'RoundEnded']);
    expect(find(removed, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      harmLabel: 'Affliction (Bleeding)',
    });
    expect(stateOf([...two, ...removed])).toMatchObject({ roundOpen: false, round: 1 });
    // c still waits: removing b leaves the round open for c's activation.
    const three = between(['a', 'b', 'c']);
    expect(types(exact(three, { type: 'RemoveCombatant', combatantId: 'b' }))).toEqual(['CombatantRemoved']);
  });

  it('N59: given a round that waits only for b, between activations, when the GM’s Wounds collapse b, then the round ends; where b’s player chooses the dice, once the choice is made', () => {
    const between = (bSheet: Record<string, unknown>) => {
      const events = midRound(
        [
          { id: 'a', sheet: sheet() },
          { id: 'b', sheet: bSheet },
        ],
        [],
        'a',
      );
      events.push({ type: 'ActivationEnded', data: { combatantId: 'a', round: 1 } });
      return events;
    };
    const frail = { maxAD: 1, maxMD: 0, maxVitality: 1 };
    const wounds = { type: 'ApplyWounds', combatantId: 'b', wounds: 3, harm: 'Physical (Impact)' };
    const collapsed = exact(between(sheet(frail)), wounds);
    expect(find(collapsed, 'WoundsApplied')).toMatchObject({ combatantId: 'b', state: 'Collapsed' });
    expect(types(collapsed).slice(-1)).toEqual(['RoundEnded']);
    // ASK: the choice is pending first; the round ends with its answer.
    const asked = then(between(sheet({ ...frail, maxMD: 1, woundPreference: 'ASK' })), {
      ...wounds,
      wounds: 4,
    });
    expect(stateOf(asked)).toMatchObject({ roundOpen: true, pending: { kind: 'woundAllocation' } });
    const answered = exact(asked, { type: 'AllocateWounds', combatantId: 'b', allocation: ['MD', 'AD'] });
    expect(types(answered).slice(-1)).toEqual(['RoundEnded']);
  });

  it('Lingering Harm with Refresh (C7, N38): a tick at the start of the afflicted’s activation comes after its Used dice become Ready, so its Wound takes a Ready die', () => {
    let events = fight([
      { id: 'x', sheet: sheet({ maxAD: 2 }) },
      { id: 'y', sheet: sheet() },
    ]);
    events = then(events, { type: 'SpendDice', combatantId: 'x', ad: 2, md: 0, reason: 'a power' });
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 'x',
      form: 'Burning',
      wounds: 1,
      tick: 'activationStart',
    });
    const started = exact(events, { type: 'StartActivation' });
    expect(types(started)).toEqual(['ActivationStarted', 'DiceRefreshed', 'WoundsApplied']);
    expect(find(started, 'WoundsApplied')).toMatchObject({
      dice: [{ kind: 'AD', from: 'ready' }],
      ad: { ready: 1, used: 0, wounded: 1 },
    });
  });
});

describe('Several classifications of harm', () => {
  it('Harm Domains And Types: "A poisoned arrow may cause Physical (Piercing) harm on impact and also inflict Lingering Harm: Poisoned" — two resolutions: the arrow’s 2 Wounds, then the tick’s Affliction (Poison) Wound, whose first drop below half alone triggers the check', () => {
    const target = sheet({ maxVitality: 4, maxAD: 4, armour: { soak: 3 } });
    let events = midRound(
      [
        { id: 't', sheet: target },
        { id: 'sera', sheet: sera },
      ],
      ['t'],
      'sera',
    );
    // 3 = 1 dot against No Response: Hit Margin 1 + Strike (2 + Agility 3) 5 − Soak 3 = 3: 2 Wounds, Vitality 2.
    const arrow = exact(events, ranged('sera', 't', 'bow', 0, { response: 'none' }), { dice: [3] });
    expect(find(arrow, 'WoundsApplied')).toMatchObject({
      harmLabel: 'Physical (Piercing)',
      wounds: 2,
      vitality: 2,
    });
    // Vitality 2 is not below half of 4, 2 Wounds are not more than half: no check.
    expect(types(arrow)).not.toContain('ContinuationChecked');
    events = [...events, ...arrow];
    events = then(events, {
      type: 'ApplyLingeringHarm',
      combatantId: 't',
      form: 'Poisoned',
      source: 'poisoned arrow',
      wounds: 1,
    });
    const end = exact(events, { type: 'EndActivation' }, { followUpFaces: [3, 1] });
    expect(types(end)).toEqual(['ActivationEnded', 'WoundsApplied', 'ContinuationChecked', 'RoundEnded']);
    expect(find(end, 'WoundsApplied')).toMatchObject({
      harmLabel: 'Affliction (Poison)',
      wounds: 1,
      vitality: 1,
    });
    // 3 Wounds in the round, more than half of 4, but never from one resolution: only the drop below half checks.
    expect(find(end, 'ContinuationChecked')).toMatchObject({ triggers: ['belowHalf'], passed: true });
  });

  it('Harm Domains And Types: "If a rule creates distinct harms, classify and resolve each one separately" — a thunderclap’s 3 Physical (Impact) and 2 Elemental (Lightning) Wounds are two resolutions: 5 Wounds in all but no "more than half" check, only the drop below half', () => {
    let events = fight([{ id: 'a', sheet: sheet() }]);
    events = then(events, {
      type: 'ApplyWounds',
      combatantId: 'a',
      wounds: 3,
      harm: 'Physical (Impact)',
      effect: 'thunderclap',
    });
    expect(stateOf(events).combatants.a.vitality).toBe(5);
    const lightning = exact(
      events,
      {
        type: 'ApplyWounds',
        combatantId: 'a',
        wounds: 2,
        harm: 'Elemental (Lightning)',
        effect: 'thunderclap',
      },
      { followUpFaces: [4, 4] },
    );
    expect(find(lightning, 'WoundsApplied')).toMatchObject({
      harmLabel: 'Elemental (Lightning)',
      vitality: 3,
    });
    expect(find(lightning, 'ContinuationChecked')).toMatchObject({ triggers: ['belowHalf'] });
  });
});

describe('Loading and cancelled exchanges', () => {
  it('N29 with Loading and Skill Level In Combat: a crossbow shot cancelled before the roll gives back its Base Attack Cost, its Boost and its proactive use and keeps its bolt; reloading costs no use, so the limit (Ranged SL 1 + 1) still counts only the shots declared and kept', () => {
    let events = fight(
      [
        { id: 'veyr', sheet: veyr },
        { id: 'sera', sheet: sera },
      ],
      'veyr',
    );
    events = then(events, ranged('veyr', 'sera', 'crossbow', 1));
    expect(stateOf(events).combatants.veyr).toMatchObject({ ad: { ready: 1, used: 3 }, uses: { ranged: 1 } });
    events = then(events, { type: 'CancelPending' });
    expect(stateOf(events).combatants.veyr).toMatchObject({
      ad: { ready: 4, used: 0 },
      uses: { ranged: 0 },
      weapons: { crossbow: { loaded: true, ammunition: 10 } },
    });
    events = then(events, ranged('veyr', 'sera', 'crossbow', 0, { response: 'none' }), { dice: [1, 1] });
    expect(stateOf(events).combatants.veyr).toMatchObject({
      ad: { ready: 2, used: 2 },
      uses: { ranged: 1 },
      weapons: { crossbow: { loaded: false, ammunition: 9 } },
    });
    expect(refusal(events, ranged('veyr', 'sera', 'crossbow', 0)).code).toBe('NARATEER_WEAPON_NOT_LOADED');
    events = then(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(stateOf(events).combatants.veyr).toMatchObject({ ad: { ready: 2 }, uses: { ranged: 1 } });
    events = then(events, ranged('veyr', 'sera', 'crossbow', 0, { response: 'none' }), { dice: [1, 1] });
    events = then(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(refusal(events, ranged('veyr', 'sera', 'crossbow', 0)).code).toBe('NARATEER_PROACTIVE_LIMIT');
  });

  it('Ranged Exchanges: "Firing expends ammunition and resolves the weapon’s Loading state whether that combatant wins or loses" — a crossbow spent on a Clash in the shooter’s activation cannot Clash again until its owner reloads in its own activation, so a Clash policy falls back to Full Guard (Acrobatics, Advantage)', () => {
    const policy = { ...veyr, responsePolicy: { response: 'clash', boost: 0, fallback: 'fullGuard' } };
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: policy },
      ],
      'sera',
    );
    // Sera 3 = 1 dot; Veyr's crossbow (2 AD) 3 and 1 = 1 dot: a tie; both shots are spent.
    const first = exact(events, ranged('sera', 'veyr', 'bow', 0), { dice: [3, 3, 1] });
    expect(find(first, 'ExchangeResponded')).toMatchObject({
      response: 'clash',
      weaponId: 'crossbow',
      source: 'policy',
    });
    expect(first.filter((e) => e.type === 'WeaponFired').map((e) => e.data)).toEqual([
      expect.objectContaining({ combatantId: 'sera', ammunition: 19 }),
      expect.objectContaining({ combatantId: 'veyr', weaponId: 'crossbow', loaded: false, ammunition: 9 }),
    ]);
    events = [...events, ...first];
    expect(refusal(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' }).code).toBe(
      'NARATEER_NOT_YOUR_ACTIVATION',
    );
    // Sera 3 = 1 dot; Veyr's Full Guard 4 = 1 dot, its Advantage reroll 1 kept as the original: equal, stopped.
    const second = exact(events, ranged('sera', 'veyr', 'bow', 0), { dice: [3, 4], rerollFaces: [1] });
    expect(find(second, 'ExchangeResponded')).toMatchObject({
      response: 'fullGuard',
      skill: 'acrobatics',
      source: 'policy',
    });
    expect(find(second, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
    expect(second.filter((e) => e.type === 'WeaponFired').map((e) => e.data.combatantId)).toEqual(['sera']);
  });
});

describe('One decision at a time', () => {
  it('C4 with Exchange Responses: while an exchange waits for its target’s answer, another source cannot Collapse or incapacitate that target first — the GM’s Wounds and conditions wait, and the target answers as it stands', () => {
    const events = then(
      fight(
        [
          { id: 'a', sheet: sheet() },
          { id: 'b', sheet: sheet() },
        ],
        'a',
      ),
      melee('a', 'b', 0),
    );
    for (const command of [
      { type: 'ApplyWounds', combatantId: 'b', wounds: 8, harm: 'Elemental (Fire)' },
      condition('b', 'unconscious'),
      { type: 'ApplyLingeringHarm', combatantId: 'b', form: 'Burning', wounds: 1 },
    ])
      expect(refusal(events, command)).toMatchObject({ code: 'PENDING_DECISION', field: 'type' });
    const answered = exact(events, respond('b', 'fullGuard'), { dice: [3, 3], rerollFaces: [1] });
    expect(find(answered, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
  });
});

describe('Refresh timing with initiative', () => {
  it('Skill Level In Combat with RULINGS.md C7: Used dice become Ready at the start of the combatant’s own activation, not at the round’s start — a combatant that spent every AD late in round 1 is still "out of Ready AD" when the first in order attacks it in round 2, and its Ready MD cannot answer (MD never pays exchange costs) but do take the Wounds first', () => {
    let events = midRound(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet({ maxMD: 2 }) },
      ],
      ['a'],
      'b',
    );
    events = then(events, { type: 'SpendDice', combatantId: 'b', ad: 5, md: 0, reason: 'a power' });
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartRound' });
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('a');
    expect(stateOf(events).combatants.b.ad).toEqual({ ready: 0, used: 5, wounded: 0 });
    const attack = exact(events, melee('a', 'b', 0, { response: 'fullGuard' }), { dice: [3] });
    expect(find(attack, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    // Wound Margin 1 + 4 − 1 = 4: 2 Wounds; Ready MD come before Used AD.
    expect(find(attack, 'WoundsApplied')).toMatchObject({
      wounds: 2,
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'MD', from: 'ready' },
      ],
      ad: { ready: 0, used: 5, wounded: 0 },
    });
    events = then([...events, ...attack], { type: 'EndActivation' });
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).combatants.b.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
  });

  it('N16/N49 with RULINGS.md C7: a late joiner slotted ahead acts in the round it joins; the dice a waiting combatant committed to its answers stay Used through that activation too, and become Ready only at its own', () => {
    const roll = (combatantId: string, faces: number[], total: number) => ({
      combatantId,
      roll: { sides: 6, faces },
      total,
    });
    let events: RuleEvent[] = [
      fightStarted('narateer'),
      joined({ id: 'a', sheet: sheet() }),
      joined({ id: 'b', sheet: sheet() }),
      {
        type: 'InitiativeRolled',
        data: { rolls: [roll('a', [6, 6], 4), roll('b', [3, 1], 1)], order: ['a', 'b'], unresolvedTies: [] },
      },
      { type: 'RoundStarted', data: { round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'a', round: 1 } },
    ];
    events = then(events, melee('a', 'b', 0, { response: 'fullGuard' }), { dice: [1, 3], rerollFaces: [1] });
    events = then(events, { type: 'EndActivation' });
    expect(stateOf(events).combatants.b.ad).toEqual({ ready: 4, used: 1, wounded: 0 });
    // j (Agility 3) rolls 6, 6, 6: 6 dots, ahead of a (4).
    events = then(
      events,
      {
        type: 'AddCombatant',
        combatant: {
          id: 'j',
          name: 'J',
          side: 'j',
          sheet: sheet({ vitals: { strength: 2, agility: 3, resilience: 2 } }),
        },
      },
      { dice: [6, 6, 6] },
    );
    expect(stateOf(events).order).toEqual(['j', 'a', 'b']);
    const joinerTurn = exact(events, { type: 'StartActivation' });
    expect(find(joinerTurn, 'ActivationStarted')).toMatchObject({ combatantId: 'j' });
    events = [...events, ...joinerTurn];
    events = then(events, melee('j', 'b', 0, { response: 'fullGuard' }), { dice: [1, 3], rerollFaces: [1] });
    events = then(events, { type: 'EndActivation' });
    expect(stateOf(events).combatants.b.ad).toEqual({ ready: 3, used: 2, wounded: 0 });
    expect(stateOf(events).roundOpen).toBe(true);
    const own = exact(events, { type: 'StartActivation' });
    expect(find(own, 'DiceRefreshed')).toMatchObject({
      combatantId: 'b',
      ad: { ready: 5, used: 0, wounded: 0 },
    });
  });
});

describe('Initiative with Opportunity Attacks', () => {
  it('Opportunity Attacks with N16: "Resolve them in initiative order" — a combatant that joined mid-round and was slotted ahead by its roll reacts before one already in the order', () => {
    const roll = (combatantId: string, faces: number[], total: number) => ({
      combatantId,
      roll: { sides: 6, faces },
      total,
    });
    let events: RuleEvent[] = [
      fightStarted('narateer'),
      joined({ id: 'g1', sheet: sheet(), side: 'g' }),
      joined({ id: 'm', sheet: sheet(), side: 'm' }),
      {
        type: 'InitiativeRolled',
        data: { rolls: [roll('g1', [6], 2), roll('m', [3], 1)], order: ['g1', 'm'], unresolvedTies: [] },
      },
      { type: 'RoundStarted', data: { round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'g1', round: 1 } },
      { type: 'ActivationEnded', data: { combatantId: 'g1', round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'm', round: 1 } },
    ];
    // j (Agility 3) rolls 6, 6, 6: 6 dots, first in the order.
    const newcomer = sheet({ vitals: { strength: 2, agility: 3, resilience: 2 } });
    events = then(
      events,
      { type: 'AddCombatant', combatant: { id: 'j', name: 'J', side: 'g', sheet: newcomer } },
      { dice: [6, 6, 6] },
    );
    expect(stateOf(events).order).toEqual(['j', 'g1', 'm']);
    events = at(at(at(events, 'g1', 0, 0), 'j', 2, 0), 'm', 1, 0);
    const step = exact(events, move('m', [[1, 1]]));
    expect(find(step, 'OpportunitiesIdentified')).toMatchObject({ reactorIds: ['j', 'g1'] });
    expect(find(step, 'OpportunityOffered')).toMatchObject({ reactorId: 'j' });
  });
});

describe('N57: line of sight and sight', () => {
  it('N57: a Blinded shooter still has line of sight and fires with Disadvantage; a Blinded responder may still Ranged Clash, with Disadvantage, against a shooter it cannot see', () => {
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      'sera',
    );
    events = then(events, condition('sera', 'blinded'));
    // Sera's 1 (0 dots) is rerolled by Disadvantage to a 2: equal dots, the original stays. A tie at 0 (N30).
    const blindShot = exact(events, ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), {
      dice: [1],
      rerollFaces: [2],
    });
    expect(find(blindShot, 'ExchangeResolved')).toMatchObject({
      attacker: { edge: 'disadvantage', sources: { advantage: [], disadvantage: ['cannotSeeTarget'] } },
      outcome: 'tie',
    });
    expect(find(blindShot, 'WeaponFired')).toMatchObject({ combatantId: 'sera', ammunition: 19 });
    events = [...events, ...blindShot];
    events = then(events, { type: 'RemoveCondition', combatantId: 'sera', condition: 'blinded' });
    events = then(events, condition('veyr', 'blinded'));
    events = then(events, ranged('sera', 'veyr', 'bow', 0));
    // Sera is unseen by the Blinded Veyr: her first such shot has Advantage (1 rerolled to 1, kept).
    // Veyr's crossbow Clash (2 AD: 1 and 1) has Disadvantage (its first 1 rerolled to 1, kept): a tie at 0.
    const clash = exact(events, respond('veyr', 'clash'), { dice: [1, 1, 1], rerollFaces: [1, 1] });
    const resolved = find(clash, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'advantage',
      sources: { advantage: ['unseenAttacker'] },
    });
    expect(resolved.responder).toMatchObject({
      edge: 'disadvantage',
      sources: { advantage: [], disadvantage: ['cannotSeeTarget'] },
    });
    expect(resolved.outcome).toBe('tie');
    expect(clash.filter((e) => e.type === 'WeaponFired').map((e) => e.data.combatantId)).toEqual([
      'sera',
      'veyr',
    ]);
  });
});

describe('N58: the wounded chooses, even out cold', () => {
  it('N58: given an Unconscious combatant whose sheet says ASK, when a hit it could not answer wounds it, then its player still chooses where the Wounds go', () => {
    const asker = sheet({ maxMD: 2, woundPreference: 'ASK' });
    let events = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: asker },
      ],
      'a',
    );
    events = then(events, condition('b', 'unconscious'));
    // 3 = 1 dot against the forced No Response: Wound Margin 1 + 4 − 1 = 4, 2 Wounds; Ready AD and Ready MD: a choice.
    events = then(events, melee('a', 'b', 0), { dice: [3] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ forced: 'incapacitated' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'woundAllocation', awaiting: 'b' });
    const chosen = exact(events, { type: 'AllocateWounds', combatantId: 'b', allocation: ['MD', 'AD'] });
    expect(find(chosen, 'WoundsApplied')).toMatchObject({
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
      vitality: 6,
    });
  });
});
