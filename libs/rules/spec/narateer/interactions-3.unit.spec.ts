import { RuleEvent } from '../../src/core/types';
import {
  at,
  bow,
  condition,
  duel,
  exact,
  fight,
  find,
  mace,
  melee,
  mira,
  move,
  orin,
  ranged,
  refusal,
  respond,
  sheet,
  shootout,
  spear,
  stateOf,
  sword,
  take,
  then,
  types,
} from './helpers';

/**
 * narateer.txt read a third time, for the sentences no earlier test title quotes, and for the rulings a review
 * judged weakest (N43). Each case is worked by hand from the text's sentences: given, when, then.
 */

/** Veyr's crossbow cannot reach a tempo-holder beyond its Maximum Range: the Clash names the weapon. */
const CLASH_REFUSAL = 'NARATEER_OUT_OF_RANGE';

describe('"If aware but can’t take physical actions, use Paralyzed" (N43)', () => {
  it('N43: given a Paralyzed combatant, when it commits dice to an action that is not physical (a power of the mind), then the dice are spent; a proactive Melee action (a shove) is physical and refused', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: { ...orin, maxMD: 2 } },
      ],
      'orin',
    );
    events = then(events, condition('orin', 'paralyzed'));
    const spent = exact(events, {
      type: 'SpendDice',
      combatantId: 'orin',
      md: 1,
      reason: 'a word of command',
    });
    expect(spent).toEqual([
      { type: 'DiceSpent', data: { combatantId: 'orin', ad: 0, md: 1, reason: 'a word of command' } },
    ]);
    expect(stateOf([...events, ...spent]).combatants.orin.md).toMatchObject({ ready: 1, used: 1 });
    // "Melee uses include separate exchanges, shoves, trips, feints, disarms, grapples": physical actions.
    expect(
      refusal(events, {
        type: 'SpendDice',
        combatantId: 'orin',
        ad: 1,
        proactiveUse: 'melee',
        reason: 'a shove',
      }),
    ).toMatchObject({ code: 'NARATEER_CANNOT_ACT', field: 'proactiveUse' });
    // Its exchanges and moves stay physical: still refused (N26).
    expect(
      refusal(events, {
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'mace',
      }).code,
    ).toBe('NARATEER_CANNOT_ACT');
  });

  it('N43: given an Unconscious combatant ("out cold"), when it would commit dice to anything, then it is refused; Paralyzed and Unconscious together, too', () => {
    for (const names of [['unconscious'], ['paralyzed', 'unconscious']]) {
      let events = fight(
        [
          { id: 'a', sheet: sheet({ maxMD: 2 }) },
          { id: 'b', sheet: sheet() },
        ],
        'b',
      );
      for (const name of names) events = then(events, condition('a', name));
      expect(refusal(events, { type: 'SpendDice', combatantId: 'a', md: 1 })).toMatchObject({
        code: 'NARATEER_CANNOT_ACT',
        field: 'combatantId',
      });
    }
  });
});

/** Guard g (side g) at (0,0) with `gSheet`, mover m (side m) at `mAt`; `active`'s activation runs. */
function yard(gSheet: Record<string, unknown>, mAt: [number, number], active: 'g' | 'm'): RuleEvent[] {
  const events = fight(
    [
      { id: 'g', sheet: gSheet, side: 'g' },
      { id: 'm', sheet: sheet(), side: 'm' },
    ],
    active,
  );
  return at(at(events, 'g', 0, 0), 'm', mAt[0], mAt[1]);
}

describe('Opportunity Attacks, worked by hand', () => {
  it('given a guard in its own activation that has spent its only proactive Melee use, when the GM moves a foe from one Space within its reach to another, then "Opportunity Attacks do not consume proactive Melee uses": it may still strike, and its count stays 1', () => {
    // Melee SL 0: "Minimum = 1 proactive use of either Skill, even at SL 0."
    let events = yard(sheet({ skills: { melee: 0, ranged: 0, acrobatics: 0 } }), [1, 0], 'g');
    // Its one proactive exchange: 1 die, a Miss against target number 0 (N30: no clean hit).
    events = then(events, melee('g', 'm', 0, { response: 'none' }), { dice: [1] });
    expect(stateOf(events).combatants.g.uses.melee).toBe(1);
    expect(refusal(events, melee('g', 'm', 0)).code).toBe('NARATEER_PROACTIVE_LIMIT');
    // "The same trigger applies whether the creature moves willingly or is moved by another effect."
    const moved = exact(events, move('m', [[1, 1]], { forced: true }));
    expect(types(moved)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    events = [...events, ...moved];
    const attack = exact(events, take('g', { response: 'none' }), { dice: [3] });
    expect(find(attack, 'ExchangeDeclared')).toMatchObject({ attackerId: 'g', targetId: 'm' });
    // 1 dot: Hit Margin 1 + Strike Rating 2 + min(2, 3) − Protection 1 = Wound Margin 4: 2 Wounds.
    expect(find(attack, 'WoundsApplied')).toMatchObject({ combatantId: 'm', woundMargin: 4, wounds: 2 });
    events = [...events, ...attack];
    expect(stateOf(events).combatants.g.uses.melee).toBe(1);
    expect(stateOf(events).combatants.m.position).toEqual({ x: 1, y: 1 });
  });

  it('given a guard with a reach-2 spear, when a foe steps toward it, away from it or sideways within its reach, then "Moving forwards, backwards or sideways can create the same opening"; a step entering or leaving its reach does not', () => {
    const g = sheet({ weapons: [spear] });
    const opening = (from: [number, number], to: [number, number]) =>
      types(exact(yard(g, from, 'm'), move('m', [to]))).includes('OpportunitiesIdentified');
    expect(opening([2, 0], [1, 0])).toBe(true); // forwards
    expect(opening([1, 0], [2, 0])).toBe(true); // backwards, still within reach 2
    expect(opening([2, 0], [2, 1])).toBe(true); // sideways
    expect(opening([2, 0], [3, 0])).toBe(false); // leaving reach
    expect(opening([3, 0], [2, 0])).toBe(false); // entering reach
  });
});

describe('Skill Level In Combat, worked by hand', () => {
  it('given a fighter with Melee SL 3 and Ranged SL 0, when it shoots once, then "Minimum = 1 proactive use of either Skill, even at SL 0": a second "initiated distance-based targeting action" is refused, while its Melee uses are counted apart', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet({ skills: { melee: 3, ranged: 0, acrobatics: 1 }, weapons: [sword, bow] }) },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    // "Maximum Boost AD = Skill Level being tested": Ranged SL 0 adds no Boost.
    expect(refusal(events, ranged('a', 'b', 'bow', 1, { distance: 5 }))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    events = then(events, ranged('a', 'b', 'bow', 0, { distance: 5, response: 'none' }), { dice: [1] });
    expect(stateOf(events).combatants.a.uses).toEqual({ melee: 0, ranged: 1 });
    expect(
      refusal(events, {
        type: 'SpendDice',
        combatantId: 'a',
        ad: 1,
        proactiveUse: 'ranged',
        reason: 'a thrown net',
      }),
    ).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT', field: 'proactiveUse' });
    expect(refusal(events, ranged('a', 'b', 'bow', 0, { distance: 5 })).code).toBe(
      'NARATEER_PROACTIVE_LIMIT',
    );
    // Melee SL 3: four proactive Melee uses, a shove among them.
    events = then(events, {
      type: 'SpendDice',
      combatantId: 'a',
      ad: 0,
      proactiveUse: 'melee',
      reason: 'a shove',
    });
    expect(stateOf(events).combatants.a.uses).toEqual({ melee: 1, ranged: 1 });
  });
});

describe('Calculating Wounds, worked by hand', () => {
  it('"Hit Margin = Attacker\'s final total - target number": given Mira’s 3 AD against No Response, when she rolls 4 dots, then Hit Margin 4, Wound Margin 4 + 5 − 1 = 8, 5 Wounds, and one Continuation Check', () => {
    const events = exact(duel(), melee('mira', 'orin', 2, { response: 'none' }), {
      dice: [6, 4, 3],
      followUpFaces: [4, 1],
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      targetNumber: 0,
      hitMargin: 4,
      attacker: { total: 4 },
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 8,
      wounds: 5,
      vitality: 3,
    });
    // VIT 3 is below half of 8 and 5 Wounds are more than half of 8: "make only one Continuation Check".
    expect(types(events).filter((t) => t === 'ContinuationChecked')).toHaveLength(1);
    expect(find(events, 'ContinuationChecked')).toMatchObject({ dice: 2, dots: 1, passed: true });
  });

  it('"Full Guard cannot deal damage, even if its roll is higher": given Orin’s Full Guard rolling 4 dots against Mira’s 1, then the attack is stopped and nobody is wounded', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const events = exact(declared, respond('orin', 'fullGuard', 1), { dice: [3, 6, 6], rerollFaces: [1] });
    expect(types(events)).toEqual(['ExchangeResponded', 'ExchangeResolved']);
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'orin' });
    expect(resolved.attacker.total).toBe(1);
    expect(resolved.responder.total).toBe(4);
    expect(resolved.hitMargin).toBeUndefined();
  });

  it('"Weapon damage always uses the applied Damage Vital after the weapon\'s Damage Vital Cap is enforced": a spear (cap 2) in Agility 3 hands strikes for 2 + 2; "Heavy weapons use Strength for damage"', () => {
    let events = fight(
      [
        {
          id: 'a',
          sheet: sheet({ vitals: { strength: 1, agility: 3, resilience: 2 }, weapons: [spear, mace] }),
        },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    expect(
      refusal(events, { ...melee('a', 'b', 0), weaponId: 'mace', damageVital: 'agility' }),
    ).toMatchObject({ code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED', field: 'damageVital' });
    // "Light weapons may use Strength or Agility for damage": the default is the higher after the cap, Agility (2).
    events = exact(events, { ...melee('a', 'b', 0, { response: 'none' }), weaponId: 'spear' }, { dice: [3] });
    // Hit Margin 1 + Strike Rating 2 + min(3, 2) − Protection 1 = Wound Margin 4: 2 Wounds.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      damageVital: 'agility',
      strikeRating: 4,
      woundMargin: 4,
      wounds: 2,
    });
  });
});

describe('Ranged Exchanges, worked by hand', () => {
  it('"When both combatants exchange fire, each uses their own weapon\'s Base Attack Cost, Boost limit, ammunition, damage values, and weapon state": Veyr’s crossbow return fire wins, and both shots are spent', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 2, { distance: 8 }));
    // Veyr: Ranged SL 1 caps his Boost at 1; his crossbow costs 2.
    expect(refusal(declared, respond('veyr', 'clash', 2, { weaponId: 'crossbow' }))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
    });
    const events = exact(declared, respond('veyr', 'clash', 1, { weaponId: 'crossbow' }), {
      dice: [1, 2, 1, 6, 3, 3],
      followUpFaces: [3, 1],
    });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved).toMatchObject({ outcome: 'counterHit', winnerId: 'veyr', hitMargin: 4 });
    expect(resolved.attacker.roll.faces).toHaveLength(3);
    expect(resolved.responder.roll.faces).toHaveLength(3);
    // Crossbow Weapon Damage 3 + min(Agility 2, cap 2) = 5; Hit Margin 4 + 5 − Sera's Soak 1 = 8: 5 Wounds.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      strikeRating: 5,
      woundMargin: 8,
      wounds: 5,
      vitality: 1,
    });
    const fired = events.filter((e) => e.type === 'WeaponFired').map((e) => e.data);
    expect(fired).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 19 },
      { combatantId: 'veyr', weaponId: 'crossbow', exchangeId: 'x1', loaded: false, ammunition: 9 },
    ]);
    expect(stateOf([...declared, ...events]).combatants.veyr.ad).toMatchObject({ used: 3 });
  });

  it('"A responder who cannot make that return attack may still choose Ranged Full Guard or No Response": given Sera 25 Spaces off, beyond Veyr’s Maximum Range 20, then his Clash is refused and his Full Guard rolls Acrobatics', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 25 }));
    // 25 is beyond the bow's Effective Range 12, within its Maximum 30: Sera's shot has Disadvantage.
    expect(stateOf(declared).exchange?.edge.disadvantage).toContain('beyondEffectiveRange');
    expect(refusal(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' })).code).toBe(CLASH_REFUSAL);
    // Sera's one die: a Hit re-rolled by Disadvantage to a Miss, kept (the worse). Veyr's 1 AD with Advantage.
    const events = exact(declared, respond('veyr', 'fullGuard'), { dice: [4, 1], rerollFaces: [1, 5] });
    const resolved = find(events, 'ExchangeResolved');
    expect(resolved.responder.skill).toBe('acrobatics');
    expect(resolved).toMatchObject({ outcome: 'guarded', winnerId: 'veyr' });
    expect(events.filter((e) => e.type === 'WeaponFired').map((e) => e.data.combatantId)).toEqual(['sera']);
  });
});

describe('Continuation Checks, worked by hand', () => {
  it('"Their current Vitality falls below half their Maximum Vitality for the first time in that combat": given Max VIT 10, then only the Wound that takes VIT to 4 asks a check; "Collapsed characters do not make Continuation Checks"', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet({ maxVitality: 10 }) },
        { id: 'b', sheet: sheet() },
      ],
      'b',
    );
    const wound = (wounds: number, faces = {}) => {
      const out = exact(
        events,
        { type: 'ApplyWounds', combatantId: 'a', wounds, harm: 'Physical (Impact)' },
        faces,
      );
      events = [...events, ...out];
      return out.filter((e) => e.type === 'ContinuationChecked').length;
    };
    expect(wound(3)).toBe(0); // VIT 7
    expect(wound(2)).toBe(0); // VIT 5: exactly half is not below half
    expect(wound(1, { followUpFaces: [3, 1] })).toBe(1); // VIT 4: below half, the first time
    expect(wound(1)).toBe(0); // VIT 3: not the first time
    // 6 Wounds are more than half of 10 in one resolution, but VIT −3 is Collapsed: no check.
    expect(wound(6)).toBe(0);
    expect(stateOf(events).combatants.a.vitality).toBe(-3);
  });
});

describe('Harm Domains and Types, worked by hand', () => {
  it('"Give one Wound result one classification" and "use the closest listed Type rather than creating a new one during play": a harm of two Types, or of a Type not listed, is refused', () => {
    const events = duel();
    for (const harm of ['Physical (Slashing, Piercing)', 'Physical (Crushing)', 'Magic (Fire)'])
      expect(refusal(events, { type: 'ApplyWounds', combatantId: 'orin', wounds: 1, harm }).field).toBe(
        'harm',
      );
    // "A conjured flame is Elemental (Fire)": one listed classification, recorded as given.
    const burnt = exact(events, {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 1,
      harm: 'Elemental (Fire)',
    });
    expect(find(burnt, 'WoundsApplied')).toMatchObject({ wounds: 1, harmLabel: 'Elemental (Fire)' });
  });
});

describe('Exchange Responses, worked by hand', () => {
  it('"If the responder is aware, able to act, can make the declared response in the fiction, and has Ready AD available, they may answer": given Orin with only Ready MD left, then he makes No Response and Mira rolls against target number 0', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: { ...orin, maxAD: 1, maxMD: 2 } },
      ],
      'mira',
    );
    // Orin commits his one AD to a reaction outside his activation (N43); his 2 MD stay Ready.
    events = then(events, { type: 'SpendDice', combatantId: 'orin', ad: 1 });
    expect(stateOf(events).combatants.orin.md.ready).toBe(2);
    const rolled = exact(events, melee('mira', 'orin', 0), { dice: [3] });
    expect(find(rolled, 'ExchangeResponded')).toMatchObject({
      combatantId: 'orin',
      response: 'none',
      forced: 'noReadyAD',
    });
    expect(find(rolled, 'ExchangeResolved')).toMatchObject({ targetNumber: 0, hitMargin: 1 });
  });
});

describe('Lingering Harm, worked by hand', () => {
  it('"Separate sources of Lingering Harm stack, even when they have the same Form": two Bleeding sources each tick at the round’s end; "A rule that names a Form interacts with the ongoing condition": treating one leaves the other', () => {
    let events = fight([{ id: 'a', sheet: sheet() }], 'a');
    for (const source of ['a dagger', 'a spear'])
      events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding', source });
    expect(stateOf(events).combatants.a.lingering).toHaveLength(2);
    // Round 1 ends: each source ticks on its own, 1 Wound of Affliction (Bleeding) each.
    const ended = exact(events, { type: 'EndActivation' });
    const ticks = ended.filter((e) => e.type === 'WoundsApplied').map((e) => e.data);
    expect(ticks).toHaveLength(2);
    expect(ticks.map((t) => [t.lingeringHarmId, t.wounds, t.harmLabel])).toEqual([
      ['lh1', 1, 'Affliction (Bleeding)'],
      ['lh2', 1, 'Affliction (Bleeding)'],
    ]);
    events = [...events, ...ended];
    expect(stateOf(events).combatants.a.vitality).toBe(6);
    events = then(events, { type: 'TreatLingeringHarm', combatantId: 'a', lingeringHarmId: 'lh1' });
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    const next = exact(events, { type: 'EndActivation' }).filter((e) => e.type === 'WoundsApplied');
    expect(next.map((e) => e.data.lingeringHarmId)).toEqual(['lh2']);
  });
});
