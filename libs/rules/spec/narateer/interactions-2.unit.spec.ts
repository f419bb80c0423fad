import { RuleCommand, RuleEvent } from '../../src/core/types';
import {
  at,
  condition,
  exact,
  fight,
  find,
  melee,
  move,
  ranged,
  refusal,
  sera,
  sheet,
  stateOf,
  step,
  take,
  then,
  types,
  veyr,
} from './helpers';

/**
 * narateer.txt read again for places where two of its rules meet, in the parts the first reading
 * (interactions.unit.spec.ts, restrictions.unit.spec.ts) covers least: what each condition of the Close-Enough
 * picker decides, perceiving for an Opportunity Attack, … Each case is worked by hand from the text's sentences.
 */

/** Guard g (side g) at (0,0) and mover m (side m) at (1,0), both with a sword and 5 AD; m's activation runs. */
function yard(before: RuleCommand[] = [], g = sheet()): RuleEvent[] {
  let events = fight(
    [
      { id: 'g', sheet: g, side: 'g' },
      { id: 'm', sheet: sheet(), side: 'm' },
    ],
    'm',
  );
  events = at(at(events, 'g', 0, 0), 'm', 1, 0);
  for (const c of before) events = then(events, c);
  return events;
}

describe('Conditions of the Close-Enough picker', () => {
  it('Close-Enough Conditions Picker: "If actions feel sloggy, use Slowed" and "If recovering effort or magical power is difficult, use Weakened" state no mechanic — given a Slowed and Weakened combatant with Used dice, when its activation starts, then its Used dice still become Ready, it keeps Melee SL + 1 proactive uses and it still moves; the GM rules on the rest through edge', () => {
    let events = fight([
      { id: 'a', sheet: sheet(), side: 'a' },
      { id: 'b', sheet: sheet(), side: 'b' },
    ]);
    events = at(at(events, 'a', 0, 0), 'b', 1, 0);
    events = then(events, { type: 'SpendDice', combatantId: 'a', ad: 3 });
    events = then(then(events, condition('a', 'slowed')), condition('a', 'weakened'));
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('a');
    // C7/N3: Used become Ready at the start of the own activation; "difficult" names no limit to apply.
    expect(stateOf(events).combatants.a.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
    // Melee SL 1: two proactive Melee uses, both allowed.
    events = then(events, melee('a', 'b', 0, { response: 'none' }), { dice: [1] });
    events = then(events, melee('a', 'b', 0, { response: 'none' }), { dice: [1] });
    expect(refusal(events, melee('a', 'b', 0, { response: 'none' })).code).toBe('NARATEER_PROACTIVE_LIMIT');
    // Slowed does not stop or shorten a Move (the text gives no movement allowance, N24); leaving reach opens nothing.
    const moved = exact(
      events,
      move('a', [
        [-1, 0],
        [-2, 0],
        [-3, 0],
      ]),
    );
    expect(types(moved)).toEqual(['Moved']);
  });
});

describe('Perceiving a mover for an Opportunity Attack', () => {
  it('N60: given a Blinded reactor, when a foe steps within its reach, then it is still offered the Opportunity Attack, which it makes with Disadvantage: it cannot see the mover but perceives it; Blinded and Deafened, it is not', () => {
    const offered = then(yard([condition('g', 'blinded')]), move('m', [[1, 1]]));
    expect(types(offered.slice(-3))).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(stateOf(offered).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    // 1 die (cost 1): a 6 (2 dots); Disadvantage rerolls it to a 3 (1 dot) and keeps the worse: Hit Margin 1.
    const attack = exact(offered, take('g', { response: 'none' }), { dice: [6], rerollFaces: [3] });
    expect(find(attack, 'ExchangeDeclared').edge).toEqual({
      advantage: [],
      disadvantage: ['cannotSeeTarget'],
    });
    expect(find(attack, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      hitMargin: 1,
      attacker: { edge: 'disadvantage', total: 1, reroll: { original: 6, kept: 'reroll' } },
    });
    // "If can't see or hear, Blinded or Deafened": a reactor that can do neither does not perceive the step.
    const senseless = yard([condition('g', 'blinded'), condition('g', 'deafened')]);
    expect(types(exact(senseless, move('m', [[1, 1]])))).toEqual(['Moved']);
    // Deafened alone still sees the step.
    const deaf = yard([condition('g', 'deafened')]);
    expect(types(exact(deaf, move('m', [[1, 1]]))).at(-1)).toBe('OpportunityOffered');
  });

  it('N60: given an Invisible mover, when it steps within a reactor’s reach, then the reactor that hears it is offered the attack, at Disadvantage against a foe it cannot see; a Deafened reactor is not', () => {
    const offered = then(yard([condition('m', 'invisible')]), step('m', 1, 1));
    expect(stateOf(offered).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    const attack = exact(offered, take('g', { response: 'none' }), { dice: [3], rerollFaces: [4] });
    expect(find(attack, 'ExchangeDeclared').edge).toEqual({
      advantage: [],
      disadvantage: ['cannotSeeTarget'],
    });
    // The unseen mover's Clash is its first attack on g while unseen by it: Advantage (N41).
    const waiting = then(offered, take('g'));
    const clash = exact(
      waiting,
      { type: 'RespondToExchange', combatantId: 'm', response: 'clash', boost: 0 },
      {
        dice: [3, 3],
        rerollFaces: [4, 1],
      },
    );
    expect(find(clash, 'ExchangeResponded').edge).toEqual({
      advantage: ['unseenAttacker'],
      disadvantage: [],
    });
    const deaf = yard([condition('m', 'invisible'), condition('g', 'deafened')]);
    expect(types(exact(deaf, step('m', 1, 1)))).toEqual(['Moved']);
  });
});

describe('Opportunity Attacks with Continuation Checks and Ready AD', () => {
  it('Opportunity Attacks with Continuation Checks: "After the Exchange, the creature may continue if it has movement remaining and is still able to move" — given a mover that fails the check the attack forced ("cannot continue the current fight on the same terms"), when it tries to move on, then it cannot; the retreat the GM moves it through ("moved by another effect") still opens the next qualifying opportunity, and it makes No Response', () => {
    let events = yard([{ type: 'ApplyWounds', combatantId: 'm', wounds: 2, harm: 'Physical (Impact)' }]);
    events = then(events, step('m', 1, 1));
    // 6 = 2 dots against No Response: Hit Margin 2 + Strike (2 + Agility 2) 4 − Soak 1 = 5: 3 Wounds, Vitality 6 → 3,
    // below half of 8 for the first time; Resilience 2: 1 and 2 = 0 dots, failed.
    const hit = exact(events, take('g', { response: 'none' }), { dice: [6], followUpFaces: [1, 2] });
    expect(find(hit, 'WoundsApplied')).toMatchObject({ wounds: 3, vitality: 3 });
    expect(find(hit, 'ContinuationChecked')).toMatchObject({ passed: false, state: 'Withdrawn' });
    expect(types(hit).at(-1)).toBe('OpportunitiesFinished');
    events = [...events, ...hit];
    expect(refusal(events, step('m', 0, 1))).toMatchObject({
      code: 'NARATEER_CANNOT_ACT',
      field: 'combatantId',
    });
    // The GM moves it away: (1,1) → (0,1) is still a step between two Spaces within g's reach.
    const retreat = then(events, step('m', 0, 1, { forced: true }));
    expect(stateOf(retreat).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    const second = exact(retreat, take('g'), { dice: [1] });
    expect(find(second, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'withdrawn' });
  });

  it('Further Opportunities: "Each qualifying step creates a new opportunity. You may react again whenever the requirements are met and you have enough Ready AD" with "it does not give you a new Activation" — given a reactor with 2 AD, when the mover takes three qualifying steps, then it strikes on the first two and, its Used dice not refreshed, is not identified on the third', () => {
    let events = yard([], sheet({ maxAD: 2 }));
    events = then(events, step('m', 1, 1));
    events = then(events, take('g', { response: 'none' }), { dice: [1] });
    events = then(events, step('m', 0, 1));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    events = then(events, take('g', { response: 'none' }), { dice: [2] });
    expect(stateOf(events).combatants.g.ad).toEqual({ ready: 0, used: 2, wounded: 0 });
    // (0,1) → (-1,1): both within g's reach, but it cannot pay the sword's Base Attack Cost.
    expect(types(exact(events, step('m', -1, 1)))).toEqual(['Moved']);
  });
});

describe('Full Guard and range', () => {
  it('Full Guard with Ranged Exchanges: "Disadvantage cancels it normally" and "An attack beyond Effective Range but within Maximum Range has Disadvantage" — given a shot beyond Effective Range answered by a Full Guard the GM gives Disadvantage, then the range Disadvantage is the shooter’s alone, the guard’s Advantage and the GM’s Disadvantage cancel (no reroll), and a tie stops the arrow, which is spent', () => {
    let events = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      'sera',
    );
    // 15 Spaces: beyond the bow's Effective Range 12, within its Maximum Range 30.
    events = at(at(events, 'sera', 0, 0), 'veyr', 15, 0);
    // Sera: 6 rerolled to 3 by Disadvantage, the worse kept: 1 dot. Veyr's Acrobatics guard: 3 = 1 dot, no reroll.
    const shot = exact(
      events,
      ranged('sera', 'veyr', 'bow', 0, { responderEdge: 'disadvantage', response: 'fullGuard' }),
      { dice: [6, 3], rerollFaces: [3] },
    );
    expect(find(shot, 'ExchangeDeclared').edge).toEqual({
      advantage: [],
      disadvantage: ['beyondEffectiveRange'],
    });
    const resolved = find(shot, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({ edge: 'disadvantage', total: 1 });
    expect(resolved.responder).toMatchObject({
      skill: 'acrobatics',
      edge: 'none',
      sources: { advantage: ['fullGuard'], disadvantage: ['gm'] },
      total: 1,
    });
    expect(resolved.responder.reroll).toBeUndefined();
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'veyr' });
    expect(find(shot, 'WeaponFired')).toMatchObject({ combatantId: 'sera', ammunition: 19 });
    expect(types(shot)).not.toContain('WoundsApplied');
  });
});

describe('Harm and conditions', () => {
  it('Harm Domains And Types: "a Harm Type does not automatically impose a matching Condition, and a Condition causes Wounds only if its rule says so" — given a hit of Elemental (Fire) harm on a Panicked, Prone and Hindered combatant, when the round ends, then no Lingering Harm: Burning was started and nothing ticks', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet(), side: 'a' },
        { id: 'b', sheet: sheet(), side: 'b' },
      ],
      'a',
    );
    for (const name of ['panicked', 'prone', 'hindered']) events = then(events, condition('b', name));
    // 3 = 1 dot against No Response: Hit Margin 1 + Strike 4 − Soak 1 = 4: 2 Wounds of Elemental (Fire).
    const hit = exact(events, melee('a', 'b', 0, { harm: 'Elemental (Fire)', response: 'none' }), {
      dice: [3],
    });
    expect(find(hit, 'WoundsApplied')).toMatchObject({
      wounds: 2,
      harmLabel: 'Elemental (Fire)',
      vitality: 6,
    });
    events = [...events, ...hit];
    expect(stateOf(events).combatants.b.lingering).toEqual([]);
    const ended = exact(events, { type: 'EndRound' });
    expect(types(ended)).not.toContain('WoundsApplied');
    expect(stateOf([...events, ...ended]).combatants.b.vitality).toBe(6);
  });
});
