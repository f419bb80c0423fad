import { RuleCommand, RuleEvent } from '../../src/core/types';
import {
  at,
  exact,
  fight,
  find,
  melee,
  move,
  refusal,
  respond,
  sheet,
  spear,
  stateOf,
  sword,
  take,
  then,
  types,
} from './helpers';

/**
 * narateer.txt read sentence by sentence for its restrictions ("cannot", "must", "only", "unless", "instead",
 * "each", "until"…), each worked by hand on a concrete case a hostile tester would try.
 */

/** Guard g (side g) at (0,0) and mover m (side m) at (1,0), both with a sword and 5 AD; m's activation runs. */
function yard(before: RuleEvent[] = [], g = sheet(), m = sheet()): RuleEvent[] {
  let events = fight([
    { id: 'g', sheet: g, side: 'g' },
    { id: 'm', sheet: m, side: 'm' },
  ]);
  events = [...events, ...before, { type: 'ActivationStarted', data: { combatantId: 'm', round: 1 } }];
  return at(at(events, 'g', 0, 0), 'm', 1, 0);
}

describe('Restrictions of narateer.txt, worked by hand', () => {
  it('Resolving the Attack: "You are the initiator for this Exchange; it does not give you a new Activation" — the reactor’s Used dice stay Used, the mover keeps its activation, and the reactor then initiates nothing, nor takes the same opportunity twice', () => {
    // g spent 2 AD earlier this round: 3 Ready, 2 Used.
    const spent: RuleEvent = { type: 'DiceSpent', data: { combatantId: 'g', ad: 2, md: 0 } };
    const offered = then(yard([spent]), move('m', [[1, 1]]));
    expect(stateOf(offered).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    // Cost 1 + Boost 1; m makes No Response; 0 dots against target number 0 land nothing (N30).
    const attack = exact(offered, take('g', { boost: 1, response: 'none' }), { dice: [1, 2] });
    expect(types(attack)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'OpportunitiesFinished',
    ]);
    const events = [...offered, ...attack];
    const s = stateOf(events);
    // No DiceRefreshed: its 2 earlier Used AD and the 2 it committed stay Used; no proactive use is counted.
    expect(s.combatants.g.ad).toEqual({ ready: 1, used: 4, wounded: 0 });
    expect(s.combatants.g.uses).toEqual({ melee: 0, ranged: 0 });
    expect(s.activeId).toBe('m');
    expect(refusal(events, melee('g', 'm', 0)).code).toBe('NARATEER_NOT_YOUR_TEMPO');
    expect(refusal(events, move('g', [[0, 1]])).code).toBe('NARATEER_NOT_YOUR_ACTIVATION');
    expect(refusal(events, { type: 'SpendDice', combatantId: 'g', ad: 1, proactiveUse: 'melee' }).code).toBe(
      'NARATEER_NOT_YOUR_TEMPO',
    );
    // The same opportunity twice: it was taken; nothing is on offer any more.
    expect(refusal(events, take('g')).code).toBe('NARATEER_NO_OPPORTUNITY');
    expect(refusal(events, { type: 'DeclineOpportunity', combatantId: 'g' }).code).toBe(
      'NARATEER_NO_OPPORTUNITY',
    );
    // The mover's activation goes on: it may continue moving.
    expect(types(exact(events, move('m', [[2, 1]])))).toEqual(['Moved']);
  });

  it('Resolving the Attack: "Resolve the Exchange before the creature continues moving or takes another Action" — while the offer stands every other command, lifecycle ones too, is refused naming both answers, TakeOpportunityAttack or DeclineOpportunity (C4)', () => {
    const offered = then(yard(), move('m', [[1, 1]]));
    const waiting =
      'RULINGS.md C4: waiting for g to answer opportunityAttack with TakeOpportunityAttack or DeclineOpportunity';
    const others: RuleCommand[] = [
      move('m', [[2, 1]]),
      melee('m', 'g', 0),
      { type: 'SpendDice', combatantId: 'm', ad: 1 },
      { type: 'ReloadWeapon', combatantId: 'm', weaponId: 'sword' },
      { type: 'ApplyCondition', combatantId: 'g', condition: 'prone' },
      { type: 'EndActivation' },
      { type: 'EndRound' },
      { type: 'RemoveCombatant', combatantId: 'g' },
      { type: 'StartActivation' },
    ];
    for (const command of others)
      expect(refusal(offered, command)).toMatchObject({
        code: 'PENDING_DECISION',
        field: 'type',
        message: waiting,
      });
    // Taken, the exchange waits for the mover's response: then only RespondToExchange answers.
    const declared = then(offered, take('g'));
    expect(refusal(declared, { type: 'EndActivation' }).message).toBe(
      'RULINGS.md C4: waiting for m to answer exchangeResponse with RespondToExchange',
    );
    expect(refusal(declared, move('m', [[2, 1]])).message).toBe(
      'RULINGS.md C4: waiting for m to answer exchangeResponse with RespondToExchange',
    );
  });

  it('Opportunity Attacks: "The moving creature chooses a legal Exchange Response as usual" — against a spear striking from 2 Spaces, the mover’s sword cannot Clash ("a legal attack that can reach the tempo-holder"); its Full Guard uses Melee', () => {
    const g = sheet({ weapons: [spear] });
    // g at (0,0) with reach 2; m steps from (2,0) to (2,1): 2 Spaces from g before and after.
    const events = at(yard([], g), 'm', 2, 0);
    const offered = then(events, move('m', [[2, 1]]));
    expect(find(offered.slice(events.length), 'OpportunitiesIdentified')).toMatchObject({
      reactorIds: ['g'],
    });
    const declared = then(offered, take('g', { weaponId: 'spear' }));
    expect(find(declared.slice(offered.length), 'ExchangeDeclared')).toMatchObject({ distance: 2 });
    expect(refusal(declared, respond('m', 'clash'))).toMatchObject({
      code: 'NARATEER_NOT_IN_REACH',
      field: 'weaponId',
    });
    // Full Guard: 1 AD with Advantage (one reroll); 1 dot each: the tie favours Full Guard.
    const guarded = exact(declared, respond('m', 'fullGuard'), { dice: [3, 3], rerollFaces: [1] });
    expect(find(guarded, 'ExchangeResponded')).toMatchObject({
      response: 'fullGuard',
      skill: 'melee',
      dice: 1,
    });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded', winnerId: 'm' });
  });

  it('Moving Around an Opponent: "Reaching a position behind its miniature does not automatically grant Advantage or make your attack unseen" — after circling an unarmed foe, the attack has no Edge and the foe may answer', () => {
    const unarmed = sheet({ weapons: [] });
    const events = yard([], unarmed);
    const moved = exact(
      events,
      move('m', [
        [1, 1],
        [0, 1],
        [-1, 1],
        [-1, 0],
      ]),
    );
    // An unarmed foe gives no Opportunity Attack: the whole path is taken.
    expect(types(moved)).toEqual(['Moved']);
    const declared = exact([...events, ...moved], { ...melee('m', 'g', 0) });
    expect(find(declared, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: [] });
    // "An aware creature can follow your movement": g is asked, not forced into No Response.
    expect(types(declared)).toEqual(['ExchangeDeclared']);
    expect(stateOf([...events, ...moved, ...declared]).pending).toMatchObject({
      kind: 'exchangeResponse',
      awaiting: 'g',
    });
  });

  it('When You Can React: "you may make an Opportunity Attack against it" — a removed opponent is no longer in the fight: it is not identified, and it cannot be named as a target', () => {
    let events = fight(
      [
        { id: 'g1', sheet: sheet(), side: 'g' },
        { id: 'g2', sheet: sheet(), side: 'g' },
        { id: 'm', sheet: sheet({ weapons: [sword] }), side: 'm' },
      ],
      'm',
    );
    events = at(at(at(events, 'g1', 0, 0), 'g2', 2, 0), 'm', 1, 0);
    events = then(events, { type: 'RemoveCombatant', combatantId: 'g1' });
    const offered = exact(events, move('m', [[1, 1]]));
    expect(find(offered, 'OpportunitiesIdentified')).toMatchObject({ reactorIds: ['g2'] });
    expect(refusal(events, melee('m', 'g1', 0))).toMatchObject({
      code: 'COMBATANT_NOT_FOUND',
      field: 'targetId',
    });
  });

  it('Lingering Harm: "Lingering Harm causes 1 Wound at the end of each round until treated" — once treated it no longer ticks, and treating it twice is refused', () => {
    let events = yard();
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'g', form: 'Bleeding' });
    events = then(events, { type: 'TreatLingeringHarm', combatantId: 'g', lingeringHarmId: 'lh1' });
    expect(
      refusal(events, { type: 'TreatLingeringHarm', combatantId: 'g', lingeringHarmId: 'lh1' }),
    ).toMatchObject({ code: 'NARATEER_UNKNOWN_LINGERING_HARM', field: 'lingeringHarmId' });
    const ended = exact(events, { type: 'EndRound' });
    expect(types(ended)).not.toContain('WoundsApplied');
    expect(stateOf([...events, ...ended]).combatants.g.vitality).toBe(8);
  });

  it('N56: given a reactor the GM says cannot see the mover, when it takes the Opportunity Attack, then it strikes with Disadvantage; a Blinded and Deafened reactor is never offered one', () => {
    const offered = then(yard(), move('m', [[1, 1]]));
    // 1 die (cost 1): a 6 (2 dots), Disadvantage rerolls it to a 1 and keeps the worse: 0 dots against No Response.
    const dark = exact(offered, take('g', { attackerCannotSeeTarget: true, response: 'none' }), {
      dice: [6],
      rerollFaces: [1],
    });
    expect(find(dark, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: ['cannotSeeTarget'] });
    expect(find(dark, 'ExchangeResolved')).toMatchObject({
      outcome: 'tie',
      attacker: { edge: 'disadvantage', total: 0, reroll: { original: 6, kept: 'reroll' } },
    });
    // The mover that has not noticed the reactor makes No Response.
    const unaware = exact(offered, take('g', { targetUnaware: true }), { dice: [3] });
    expect(find(unaware, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    // A reactor that can neither see nor hear cannot perceive the step: nothing is offered (N60).
    let senseless = then(yard(), { type: 'ApplyCondition', combatantId: 'g', condition: 'blinded' });
    senseless = then(senseless, { type: 'ApplyCondition', combatantId: 'g', condition: 'deafened' });
    expect(types(exact(senseless, move('m', [[1, 1]])))).toEqual(['Moved']);
  });
});
