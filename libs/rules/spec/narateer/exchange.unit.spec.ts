import { given } from '../given';
import { RuleCommand } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { findSystem } from '../../src/registry';
import { narateer } from '../../src/narateer';
import {
  duel,
  exact,
  fight,
  find,
  greatsword,
  mace,
  melee,
  mira,
  orin,
  respond,
  sheet,
  spear,
  stateOf,
  sword,
  then,
  types,
} from './helpers';

describe('Narateer exchanges', () => {
  it('Tempo: exchanges happen only during the attacker’s activation', () => {
    const v = given(narateer, duel())
      .when({ ...melee('orin', 'mira', 0), weaponId: 'mace' })
      .violation();
    expect(v).toMatchObject({ code: 'NARATEER_NOT_YOUR_TEMPO', field: 'attackerId' });
    const noActivation = fight([
      { id: 'mira', sheet: mira },
      { id: 'orin', sheet: orin },
    ]);
    expect(
      given(narateer, noActivation)
        .when(melee('mira', 'orin', 0))
        .violation().code,
    ).toBe('NARATEER_NOT_YOUR_TEMPO');
  });

  it('Proactive uses (N5): SL 0 still gives one use per Skill, counted per Skill and per activation', () => {
    const rookie = sheet({
      skills: { melee: 0, ranged: 0 },
      weapons: [
        sword,
        {
          id: 'sling',
          name: 'Sling',
          kind: 'ranged',
          baseAttackCost: 1,
          weaponDamage: 1,
          damageVitalCap: 2,
          effectiveRange: 5,
          maximumRange: 10,
          harm: 'Physical (Impact)',
        },
      ],
    });
    let events = fight(
      [
        { id: 'r', sheet: rookie },
        { id: 'orin', sheet: orin },
      ],
      'r',
    );
    events = then(events, melee('r', 'orin', 0, { response: 'none' }), { dice: [1] });
    expect(
      given(narateer, events)
        .when(melee('r', 'orin', 0, { response: 'none' }), { dice: [1] })
        .violation().code,
    ).toBe('NARATEER_PROACTIVE_LIMIT');
    // The Ranged use is still there.
    events = then(
      events,
      {
        type: 'DeclareExchange',
        attackerId: 'r',
        targetId: 'orin',
        kind: 'ranged',
        weaponId: 'sling',
        boost: 0,
        response: 'none',
      },
      { dice: [2] },
    );
    expect(stateOf(events).combatants.r.uses).toEqual({ melee: 1, ranged: 1 });
  });

  it('Boost is capped by Ready AD, and MD never pays exchange costs (N17)', () => {
    const poor = { ...mira, maxAD: 2, maxMD: 3 };
    const v = given(narateer, duel(poor))
      .when(melee('mira', 'orin', 2))
      .violation();
    expect(v).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'boost' });
  });

  it('Base Attack Cost: Attack Dice = Base Attack Cost + Boost, moved from Ready to Used', () => {
    const events = exact(duel(), melee('mira', 'orin', 2));
    expect(find(events, 'ExchangeDeclared')).toMatchObject({
      weaponId: 'sword',
      boost: 2,
      dice: 3,
      skill: 'melee',
    });
    expect(stateOf([...duel(), ...events]).combatants.mira.ad).toEqual({ ready: 2, used: 3, wounded: 0 });
  });

  it('Full Guard against melee uses Melee, costs 1 AD plus Boost, rolls with Advantage', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const events = exact(declared, respond('orin', 'fullGuard', 1), { dice: [4, 1, 2], rerollFaces: [3] });
    const responded = find(events, 'ExchangeResponded');
    expect(responded).toMatchObject({
      response: 'fullGuard',
      skill: 'melee',
      dice: 2,
      edge: { advantage: ['fullGuard'], disadvantage: [] },
    });
    expect(find(events, 'ExchangeResolved').responder).toMatchObject({
      edge: 'advantage',
      reroll: { index: 0, original: 1, kept: 'reroll' },
      faces: [3, 2],
      total: 1,
    });
  });

  it('Full Guard with Boost: every guard die is rolled, Advantage rerolls the weakest once; the attacker must exceed the total', () => {
    const declared = then(duel(), melee('mira', 'orin', 2));
    // Mira 6, 5, 1 = 3 dots. Orin 3, 1 = 1 dot; the 1 is rerolled to a 6: 3 dots, a tie, and the tie is his.
    const stopped = exact(declared, respond('orin', 'fullGuard', 1), {
      dice: [6, 5, 1, 3, 1],
      rerollFaces: [6],
    });
    expect(find(stopped, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      winnerId: 'orin',
      attacker: { total: 3 },
      responder: { faces: [3, 6], total: 3 },
    });
    // The reroll shows a 2 (0 dots, no better): the original stays, Mira wins by 2: 2 + 5 − 1 = 6 → 3 Wounds.
    const hit = exact(declared, respond('orin', 'fullGuard', 1), { dice: [6, 5, 1, 3, 1], rerollFaces: [2] });
    expect(find(hit, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      hitMargin: 2,
      responder: { reroll: { index: 1, original: 1, kept: 'original' }, total: 1 },
    });
    expect(find(hit, 'WoundsApplied')).toMatchObject({
      combatantId: 'orin',
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
      ad: { ready: 0, used: 2, wounded: 3 },
    });
    expect(types(hit)).not.toContain('ContinuationChecked');
  });

  it('Full Guard wins ties and never deals damage, even with the higher total (N7)', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const tie = exact(declared, respond('orin', 'fullGuard'), { dice: [4, 4], rerollFaces: [1] });
    expect(find(tie, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded', winnerId: 'orin' });
    expect(types(tie)).not.toContain('WoundsApplied');
    const higher = exact(declared, respond('orin', 'fullGuard'), { dice: [1, 6], rerollFaces: [6] });
    expect(find(higher, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
    expect(find(higher, 'ExchangeResolved').hitMargin).toBeUndefined();
    expect(types(higher)).not.toContain('WoundsApplied');
  });

  it('Clash: the responder pays its weapon’s Base Attack Cost and, winning, wounds the attacker with its own weapon', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const events = exact(declared, respond('orin', 'clash', 1), { dice: [1, 6, 3], followUpFaces: [4, 4] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      response: 'clash',
      weaponId: 'mace',
      dice: 2,
      damageVital: 'strength',
      skill: 'melee',
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      hitMargin: 3,
    });
    // Mace: Weapon Damage 2 + min(Strength 3, cap 3) = 5; Mira's Soak 1: 3 + 5 − 1 = 7 → 5 Wounds.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      sourceId: 'orin',
      weaponId: 'mace',
      strikeRating: 5,
      woundMargin: 7,
      wounds: 5,
      harmLabel: 'Physical (Impact)',
    });
  });

  it('Clash tie: neither combatant lands a clean hit (N7)', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const events = exact(declared, respond('orin', 'clash'), { dice: [4, 5] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'tie' });
    expect(find(events, 'ExchangeResolved').winnerId).toBeUndefined();
    expect(types(events)).toEqual(['ExchangeResponded', 'ExchangeResolved']);
  });

  it('Clash needs reach: a melee weapon that cannot reach the tempo-holder cannot Clash', () => {
    const long = { ...mira, weapons: [spear] };
    let events = fight(
      [
        { id: 'mira', sheet: long },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    events = then(events, { type: 'SetPosition', combatantId: 'mira', position: { x: 0, y: 0 } });
    events = then(events, { type: 'SetPosition', combatantId: 'orin', position: { x: 2, y: 0 } });
    events = then(events, { ...melee('mira', 'orin', 0), weaponId: 'spear' });
    expect(given(narateer, events).when(respond('orin', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_NOT_IN_REACH',
      field: 'weaponId',
    });
    expect(exact(events, respond('orin', 'fullGuard'), { dice: [3, 3], rerollFaces: [3] })).toHaveLength(2);
  });

  it('A melee attack needs reach: out of reach on the map, or by the GM’s distance', () => {
    let events = duel();
    events = then(events, { type: 'SetPosition', combatantId: 'mira', position: { x: 0, y: 0 } });
    events = then(events, { type: 'SetPosition', combatantId: 'orin', position: { x: 2, y: 1 } });
    expect(
      given(narateer, events)
        .when(melee('mira', 'orin', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_IN_REACH', field: 'weaponId' });
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { distance: 3 }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_IN_REACH', field: 'distance' });
  });

  it('No Response: the tempo-holder rolls against target number 0 and any positive result lands', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const events = exact(declared, respond('orin', 'none'), { dice: [3] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ targetNumber: 0, outcome: 'hit', hitMargin: 1 });
    expect(find(events, 'ExchangeResolved').responder).toBeUndefined();
    expect(
      given(narateer, declared)
        .when(respond('orin', 'none', 1))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_BOOST_WITHOUT_ROLL', field: 'boost' });
  });

  it('Full Guard and No Response deal no damage: a Clash’s weapon, Damage Vital, harm or modifiers with them are refused, not ignored', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    const fields: Record<string, unknown>[] = [
      { weaponId: 'mace' },
      { damageVital: 'strength' },
      { harm: 'Physical (Impact)' },
      { strikeModifier: 1 },
      { protectionModifier: 1 },
    ];
    for (const extra of fields)
      for (const response of ['fullGuard', 'none']) {
        const field = Object.keys(extra)[0];
        expect(
          given(narateer, declared)
            .when(respond('orin', response, 0, extra))
            .violation(),
        ).toMatchObject({
          code: 'NARATEER_CLASH_ONLY_FIELD',
          field,
        });
        // The same inside a response given up front.
        expect(
          given(narateer, duel())
            .when(melee('mira', 'orin', 0, { response: { response, boost: 0, ...extra } }))
            .violation(),
        ).toMatchObject({ code: 'NARATEER_CLASH_ONLY_FIELD', field: `response.${field}` });
      }
  });

  it('N30: a total of 0 against target number 0 is a tie — no clean hit', () => {
    const events = exact(duel(), melee('mira', 'orin', 0, { response: 'none' }), { dice: [2] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'tie', targetNumber: 0 });
  });

  it('No Response is forced when the target is unaware, incapacitated, Collapsed or out of Ready AD (N6, N20)', () => {
    const unaware = exact(duel(), melee('mira', 'orin', 0, { targetUnaware: true }), { dice: [3] });
    expect(find(unaware, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
    const spent = then(duel(), { type: 'SpendDice', combatantId: 'orin', ad: 5 });
    expect(find(exact(spent, melee('mira', 'orin', 0), { dice: [3] }), 'ExchangeResponded')).toMatchObject({
      forced: 'noReadyAD',
    });
    const out = then(duel(), { type: 'ApplyCondition', combatantId: 'orin', condition: 'unconscious' });
    // A response given up front does not override a forced No Response.
    expect(
      find(exact(out, melee('mira', 'orin', 0, { response: 'clash' }), { dice: [3] }), 'ExchangeResponded'),
    ).toMatchObject({ response: 'none', forced: 'incapacitated' });
    const down = then(duel(), {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 8,
      harm: 'Physical (Impact)',
    });
    expect(find(exact(down, melee('mira', 'orin', 0), { dice: [3] }), 'ExchangeResponded')).toMatchObject({
      forced: 'collapsed',
    });
  });

  it('C4: while the response is pending, other commands are refused, and only the responder answers', () => {
    const declared = then(duel(), melee('mira', 'orin', 0));
    expect(
      given(narateer, declared)
        .when(melee('mira', 'orin', 0))
        .violation().code,
    ).toBe('PENDING_DECISION');
    expect(given(narateer, declared).when({ type: 'EndActivation' }).violation().code).toBe(
      'PENDING_DECISION',
    );
    expect(given(narateer, declared).when(respond('mira', 'none')).violation()).toMatchObject({
      code: 'NARATEER_NOT_THE_RESPONDER',
      field: 'combatantId',
    });
  });

  it('N22: the completing command carries both pools in dice; a short attacker pool is refused, later faces are asked for (C13)', () => {
    const declared = then(duel(), melee('mira', 'orin', 2));
    const v = given(narateer, declared)
      .when(respond('orin', 'clash'), { dice: [6, 6] })
      .violation();
    expect(v).toMatchObject({ code: 'DICE_MANUAL_FACES_MISSING', field: 'dice[2]' });
    const asking = findSystem('narateer')!;
    const ask = (command: RuleCommand, faces: ManualFaces) =>
      given(asking, declared).when(command, faces).events();
    expect(ask(respond('orin', 'clash'), { dice: [6, 6, 6] })).toEqual([
      expect.objectContaining({
        type: 'DiceRequested',
        data: expect.objectContaining({ need: expect.objectContaining({ field: 'dice', count: 1 }) }),
      }),
    ]);
    expect(ask(respond('orin', 'fullGuard'), { dice: [6, 6, 6, 1] })).toEqual([
      expect.objectContaining({
        type: 'DiceRequested',
        data: expect.objectContaining({ need: expect.objectContaining({ field: 'rerollFaces', count: 1 }) }),
      }),
    ]);
  });

  it('N23: a response given up front resolves the exchange in DeclareExchange', () => {
    const events = exact(duel(), melee('mira', 'orin', 1, { response: { response: 'clash', boost: 1 } }), {
      dice: [3, 3, 1, 1],
    });
    expect(types(events)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
    ]);
    expect(find(events, 'ExchangeResponded')).toMatchObject({ source: 'declaration', dice: 2 });
    expect(
      given(narateer, duel())
        .when(melee('mira', 'orin', 0, { response: { response: 'clash', boost: 3 } }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL', field: 'response.boost' });
  });

  it('N23: a standing response policy answers for an NPC, Boost capped to what is legal, falling back when Clash is impossible', () => {
    const npc = { ...orin, responsePolicy: { response: 'clash', boost: 5 } };
    const events = exact(duel(mira, npc), melee('mira', 'orin', 0), { dice: [3, 1, 1] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      response: 'clash',
      boost: 1,
      dice: 2,
      source: 'policy',
    });
    const unarmed = { ...orin, weapons: [], responsePolicy: { response: 'clash', boost: 1 } };
    const fallback = exact(duel(mira, unarmed), melee('mira', 'orin', 0), {
      dice: [3, 1, 1],
      rerollFaces: [1],
    });
    expect(find(fallback, 'ExchangeResponded')).toMatchObject({
      response: 'fullGuard',
      boost: 1,
      source: 'policy',
    });
  });

  it('N35: a Clash without a named weapon uses the first legal weapon of the exchange’s kind; none is refused', () => {
    const declared = then(duel(mira, { ...orin, weapons: [] }), melee('mira', 'orin', 0));
    expect(given(narateer, declared).when(respond('orin', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_NO_LEGAL_CLASH',
      field: 'response',
    });
  });

  it('N37: a Clash without a named weapon uses the first weapon the responder can reach with and pay for', () => {
    const declared = then(
      duel(mira, { ...orin, maxAD: 2, weapons: [greatsword, mace] }),
      melee('mira', 'orin', 0),
    );
    const events = exact(declared, respond('orin', 'clash', 1), { dice: [3, 3, 1] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ response: 'clash', weaponId: 'mace', dice: 2 });
    // Named, the greatsword's Base Attack Cost 3 is more than Orin's 2 Ready AD: the weapon is what is wrong.
    expect(
      given(narateer, declared)
        .when(respond('orin', 'clash', 0, { weaponId: 'greatsword' }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'weaponId' });
    // With nothing affordable the refusal names the first reaching weapon's cost.
    const poor = then(duel(mira, { ...orin, maxAD: 2, weapons: [greatsword] }), melee('mira', 'orin', 0));
    expect(given(narateer, poor).when(respond('orin', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'weaponId',
    });
  });

  it('N37: a response policy Clashes with a weapon it can pay for before falling back', () => {
    const npc = {
      ...orin,
      maxAD: 2,
      weapons: [greatsword, mace],
      responsePolicy: { response: 'clash', boost: 1 },
    };
    const events = exact(duel(mira, npc), melee('mira', 'orin', 0), { dice: [3, 3, 1] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      response: 'clash',
      weaponId: 'mace',
      boost: 1,
      dice: 2,
      source: 'policy',
    });
  });

  it('Combat Exchange Flow step 3: a Base Attack Cost over the Ready AD names the weapon; a Boost over it names boost', () => {
    const big = { ...mira, maxAD: 2, weapons: [sword, greatsword] };
    expect(
      given(narateer, duel(big))
        .when({ ...melee('mira', 'orin', 0), weaponId: 'greatsword' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'weaponId' });
    expect(
      given(narateer, duel(big))
        .when(melee('mira', 'orin', 2))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'boost' });
    // Orin keeps 1 Ready AD: the mace's cost fits, the Boost does not.
    const declared = then(
      then(duel(), { type: 'SpendDice', combatantId: 'orin', ad: 4 }),
      melee('mira', 'orin', 0),
    );
    expect(
      given(narateer, declared)
        .when(respond('orin', 'clash', 1))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'boost' });
  });

  it('a finished fight refuses every command with FIGHT_ENDED', () => {
    const ended = [...duel(), { type: 'FightEnded', data: { seed: 'test-seed', unfinished: false } }];
    for (const command of [
      melee('mira', 'orin', 0),
      respond('orin', 'none'),
      { type: 'ApplyWounds', combatantId: 'orin', wounds: 1, harm: 'Physical (Impact)' },
      { type: 'EndActivation' },
      { type: 'StartRound' },
    ]) {
      expect(given(narateer, ended).when(command).violation()).toMatchObject({
        code: 'FIGHT_ENDED',
        field: 'type',
      });
    }
  });

  it('N29: the GM cancelling a pending response withdraws the exchange and returns the AD and the proactive use', () => {
    const declared = then(duel(), melee('mira', 'orin', 2));
    const s = given(narateer, declared).when({ type: 'CancelPending' }).state();
    expect(s.exchange).toBeUndefined();
    expect(s.combatants.mira.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
    expect(s.combatants.mira.uses.melee).toBe(0);
  });

  it('An exchange cannot target its own attacker, and needs a weapon of the declared kind', () => {
    expect(
      given(narateer, duel())
        .when(melee('mira', 'mira', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_INVALID_TARGET', field: 'targetId' });
    expect(
      given(narateer, duel())
        .when({ ...melee('mira', 'orin', 0), kind: 'ranged' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_WRONG_WEAPON_KIND', field: 'weaponId' });
    expect(
      given(narateer, duel())
        .when({ ...melee('mira', 'orin', 0), weaponId: 'axe' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_UNKNOWN_WEAPON', field: 'weaponId' });
  });
});

describe('N1: the Narateer die', () => {
  const tough = { ...orin, armour: { soak: 20 } };

  it.each([
    [1, 0],
    [2, 0],
    [3, 1],
    [4, 1],
    [5, 1],
    [6, 2],
  ])('N1: a die showing %i counts %i dot(s)', (face, dots) => {
    const events = exact(duel(mira, tough), melee('mira', 'orin', 0, { response: 'none' }), { dice: [face] });
    expect(find(events, 'ExchangeResolved').attacker).toMatchObject({
      roll: { sides: 6, faces: [face] },
      total: dots,
    });
  });

  it('N1: a roll’s total is its dots: 2, 5, 6 and 3 make 0 + 1 + 2 + 1 = 4, the Hit Margin against no response', () => {
    const events = exact(duel(mira, tough), melee('mira', 'orin', 3, { response: 'none' }), {
      dice: [2, 5, 6, 3],
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      attacker: { faces: [2, 5, 6, 3], total: 4 },
      outcome: 'hit',
      hitMargin: 4,
    });
  });
});

describe('N25: grid distance', () => {
  const lancer = { ...mira, weapons: [spear] };
  const placed = (x: number, y: number) => {
    const events = then(duel(lancer), { type: 'SetPosition', combatantId: 'mira', position: { x: 0, y: 0 } });
    return then(events, { type: 'SetPosition', combatantId: 'orin', position: { x, y } });
  };
  const thrust = (extra: Record<string, unknown> = {}): RuleCommand => ({
    ...melee('mira', 'orin', 0, { response: 'none', ...extra }),
    weaponId: 'spear',
  });

  it('N25: the distance is the larger of |dx| and |dy|: a spear of reach 2 reaches (2, 2) and (−2, 1), not (3, 1)', () => {
    expect(find(exact(placed(2, 2), thrust(), { dice: [1] }), 'ExchangeDeclared')).toMatchObject({
      distance: 2,
    });
    expect(find(exact(placed(-2, 1), thrust(), { dice: [1] }), 'ExchangeDeclared')).toMatchObject({
      distance: 2,
    });
    expect(given(narateer, placed(3, 1)).when(thrust()).violation()).toMatchObject({
      code: 'NARATEER_NOT_IN_REACH',
      field: 'weaponId',
    });
  });

  it('N25: map positions win over a distance the GM gives', () => {
    expect(
      given(narateer, placed(3, 1))
        .when(thrust({ distance: 1 }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_IN_REACH' });
    expect(
      find(exact(placed(1, 1), thrust({ distance: 5 }), { dice: [1] }), 'ExchangeDeclared'),
    ).toMatchObject({ distance: 1 });
  });

  it('N25: without positions the GM’s distance is checked, and without either the reach is asserted', () => {
    expect(
      given(narateer, duel(lancer))
        .when(thrust({ distance: 3 }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_IN_REACH', field: 'distance' });
    expect(find(exact(duel(lancer), thrust(), { dice: [1] }), 'ExchangeDeclared').distance).toBeUndefined();
  });
});
