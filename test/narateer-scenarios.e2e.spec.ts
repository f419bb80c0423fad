import { useApp } from './support/app';
import { overRest } from './support/fight-calls';
import { bow as fullQuiver, mace, sword } from './support/narateer-sheets';

/** Scenarios beyond the worked examples, played with manual dice and checked number by number against narateer.txt. */

// Two arrows only.
const bow = { ...fullQuiver, ammunition: 2 };
const crossbow = {
  id: 'crossbow',
  name: 'Light crossbow',
  kind: 'ranged',
  weight: 'light',
  baseAttackCost: 2,
  weaponDamage: 3,
  damageVitalCap: 2,
  effectiveRange: 10,
  maximumRange: 20,
  needsLoading: true,
  ammunition: 10,
  harm: 'Physical (Piercing)',
};
const sera = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 0, ranged: 2, acrobatics: 1 },
  maxVitality: 6,
  maxAD: 5,
  weapons: [bow],
  armour: { soak: 1 },
};
const veyr = {
  vitals: { strength: 2, agility: 2, resilience: 2 },
  skills: { ranged: 1, acrobatics: 1 },
  maxVitality: 4,
  maxAD: 4,
  weapons: [crossbow],
  armour: { soak: 1 },
};
const mira = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  weapons: [sword],
  armour: { soak: 1 },
};
const orin = {
  vitals: { strength: 3, agility: 2, resilience: 2 },
  skills: { melee: 1, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 4,
  maxMD: 2,
  woundPreference: 'ASK',
  weapons: [mace],
  armour: { soak: 1 },
};

type Event = { type: string; data: any };
const one = (events: Event[], type: string) => events.find((e) => e.type === type)!.data;
const types = (events: Event[]) => events.map((e) => e.type);

describe('Narateer scenarios through the API with manual dice', () => {
  const t = useApp();

  async function rest(system: Record<string, unknown>) {
    const { fightId, send, refuse } = await overRest(t, system);
    return { fightId, send, refused: refuse };
  }

  it('through REST, a ranged duel to the end: range Disadvantage on both shots, exchanged fire, Loading, Lingering Harm, collapse, the last arrow, a finished fight', async () => {
    const { send, refused } = await rest({
      system: 'narateer',
      name: 'Sera and Veyr',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'sera', name: 'Sera', sheet: sera },
        { id: 'veyr', name: 'Veyr', sheet: veyr },
      ],
    });
    await send({ type: 'SetPosition', combatantId: 'sera', position: { x: 0, y: 0 } });
    await send({ type: 'SetPosition', combatantId: 'veyr', position: { x: 15, y: 0 } });
    // Initiative: a Side Roll of Agility dice each (N4): Sera 6, 3, 1 = 3 dots, Veyr 3, 1 = 1 dot.
    const initiative = await send({ type: 'RollInitiative', dice: [6, 3, 1, 3, 1] });
    expect(one(initiative.events, 'InitiativeRolled')).toMatchObject({
      order: ['sera', 'veyr'],
      rolls: [
        { combatantId: 'sera', total: 3 },
        { combatantId: 'veyr', total: 1 },
      ],
    });
    await send({ type: 'StartRound' });
    await send({ type: 'StartActivation' });

    // 15 Spaces: beyond the bow's Effective Range 12 and the crossbow's 10, within both Maximum Ranges.
    const declared = await send({
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
      boost: 2,
    });
    expect(one(declared.events, 'ExchangeDeclared')).toMatchObject({
      dice: 3,
      distance: 15,
      edge: { advantage: [], disadvantage: ['beyondEffectiveRange'] },
    });
    expect(
      (
        await refused({
          type: 'RespondToExchange',
          combatantId: 'veyr',
          response: 'clash',
          boost: 2,
          weaponId: 'crossbow',
        })
      ).field,
    ).toBe('boost');
    // Sera 6, 4, 3; Veyr 5, 3, 1. Disadvantage rerolls each side's strongest die: Sera's 6 → 4 (kept), Veyr's 5 → 2 (kept).
    const fire = await send({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'clash',
      boost: 1,
      weaponId: 'crossbow',
      dice: [6, 4, 3, 5, 3, 1],
      rerollFaces: [4, 2],
      followUpFaces: [5, 2],
    });
    expect(types(fire.events)).toEqual([
      'ExchangeResponded',
      'ExchangeResolved',
      'WeaponFired',
      'WeaponFired',
      'WoundsApplied',
      'ContinuationChecked',
    ]);
    const resolved = one(fire.events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'disadvantage',
      reroll: { index: 0, original: 6, kept: 'reroll' },
      faces: [4, 4, 3],
      total: 3,
    });
    expect(resolved.responder).toMatchObject({
      skill: 'ranged',
      edge: 'disadvantage',
      reroll: { index: 0, original: 5, kept: 'reroll' },
      faces: [2, 3, 1],
      total: 1,
    });
    expect(resolved).toMatchObject({ outcome: 'hit', winnerId: 'sera', hitMargin: 2 });
    // 2 + (2 + min(3, 3)) − 1 = 6 → 3 Wounds. Veyr committed 3 of 4 AD: 1 Ready, then 2 Used.
    const wounds = one(fire.events, 'WoundsApplied');
    expect(wounds).toMatchObject({
      combatantId: 'veyr',
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 6,
      wounds: 3,
      harmLabel: 'Physical (Piercing)',
      vitalityBefore: 4,
      vitality: 1,
      state: 'Active',
    });
    expect(wounds.dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'used' },
      { kind: 'AD', from: 'used' },
    ]);
    expect(one(fire.events, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf', 'heavyWounds'],
      dots: 1,
      passed: true,
    });
    expect(fire.events.filter((e) => e.type === 'WeaponFired').map((e) => e.data)).toEqual([
      { combatantId: 'sera', weaponId: 'bow', exchangeId: 'x1', loaded: true, ammunition: 1 },
      { combatantId: 'veyr', weaponId: 'crossbow', exchangeId: 'x1', loaded: false, ammunition: 9 },
    ]);

    await send({ type: 'EndActivation' });
    const veyrsTurn = await send({ type: 'StartActivation' });
    expect(one(veyrsTurn.events, 'DiceRefreshed')).toEqual({
      combatantId: 'veyr',
      ad: { ready: 1, used: 0, wounded: 3 },
      md: { ready: 0, used: 0, wounded: 0 },
    });
    // The crossbow's Base Attack Cost 2 is more than the 1 Ready AD the Wounds left; reloading costs no AD (N27).
    const shot = {
      type: 'DeclareExchange',
      attackerId: 'veyr',
      targetId: 'sera',
      kind: 'ranged',
      weaponId: 'crossbow',
      boost: 0,
    };
    expect(await refused(shot)).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'weaponId' });
    const reloaded = await send({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(reloaded.view.combatants[1].weapons[0]).toMatchObject({
      loaded: true,
      ammunition: 9,
      ready: true,
    });
    expect(reloaded.view.combatants[1].ad).toEqual({ ready: 1, used: 0, wounded: 3, max: 4 });
    await send({ type: 'ApplyLingeringHarm', combatantId: 'veyr', form: 'Bleeding', source: "Sera's arrow" });
    // The round ends: the bleeding ticks 1 Affliction (Bleeding) Wound, Vitality 0: Collapsed, no Continuation Check.
    const roundEnd = await send({ type: 'EndActivation' });
    expect(types(roundEnd.events)).toEqual(['ActivationEnded', 'WoundsApplied', 'RoundEnded']);
    expect(one(roundEnd.events, 'WoundsApplied')).toMatchObject({
      lingeringHarmId: 'lh1',
      form: 'Bleeding',
      harmLabel: 'Affliction (Bleeding)',
      wounds: 1,
      dice: [{ kind: 'AD', from: 'ready' }],
      vitality: 0,
      state: 'Collapsed',
    });

    await send({ type: 'StartRound' });
    const round2 = await send({ type: 'StartActivation' });
    expect(one(round2.events, 'ActivationStarted')).toMatchObject({ combatantId: 'sera', round: 2 });
    // A Collapsed target makes No Response: target number 0; 1 + 5 − 1 = 5 → 3 Wounds with no die left to take.
    const last = await send({
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
      boost: 0,
      dice: [3],
      rerollFaces: [3],
    });
    expect(one(last.events, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'collapsed' });
    expect(one(last.events, 'ExchangeResolved')).toMatchObject({
      targetNumber: 0,
      hitMargin: 1,
      attacker: { edge: 'disadvantage', total: 1 },
    });
    expect(one(last.events, 'WoundsApplied')).toMatchObject({
      wounds: 3,
      dice: [],
      vitality: -3,
      state: 'Collapsed',
    });
    expect(one(last.events, 'WeaponFired')).toMatchObject({ ammunition: 0 });
    expect(
      await refused({
        type: 'DeclareExchange',
        attackerId: 'sera',
        targetId: 'veyr',
        kind: 'ranged',
        weaponId: 'bow',
        boost: 0,
      }),
    ).toMatchObject({ code: 'NARATEER_NO_AMMUNITION', field: 'weaponId' });
    expect(last.view.combatants.map((c: any) => [c.id, c.state, c.vitality])).toEqual([
      ['sera', 'Active', 6],
      ['veyr', 'Collapsed', -3],
    ]);

    // C17: a winner is a side of the fight (both are on "default" here), not a combatant's id.
    expect(await refused({ type: 'EndFight', winnerSide: 'sera' })).toMatchObject({
      code: 'SIDE_NOT_FOUND',
      field: 'winnerSide',
    });
    await send({ type: 'EndFight', winnerSide: 'default' });
    expect(await refused({ type: 'StartRound' })).toMatchObject({ code: 'FIGHT_ENDED', field: 'type' });
    expect(await refused({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })).toMatchObject({
      code: 'FIGHT_ENDED',
      field: 'type',
    });
  });

  it('through GraphQL, GM Edge on both sides, Full Guard lost, a wound allocation asked and answered, then a Clash lost by the tempo-holder', async () => {
    const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
      i: {
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'mira', name: 'Mira', sheet: mira },
          { id: 'orin', name: 'Orin', sheet: orin },
        ],
      },
    });
    const fightId = created.data.createFight.fightId;
    const command = ({ type, ...payload }: Record<string, unknown>) =>
      t.gql(
        `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { events { type data } view } }`,
        { f: fightId, i: { type, payload } },
      );
    const send = async (cmd: Record<string, unknown>) => {
      const res = await command(cmd);
      expect(res.errors).toBeUndefined();
      return res.data.command as { events: Event[]; view: any };
    };
    const refused = async (cmd: Record<string, unknown>) =>
      (await command(cmd)).errors![0].extensions as { statusCode: number; code: string; field?: string };
    for (const cmd of [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
    ])
      await send(cmd);

    // The GM gives Mira Advantage and Orin Disadvantage: Orin's Full Guard Advantage is cancelled, so only Mira rerolls.
    await send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 2,
      edge: 'advantage',
      responderEdge: 'disadvantage',
    });
    const guard = await send({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'fullGuard',
      boost: 1,
      dice: [1, 5, 3, 5, 6],
      rerollFaces: [6],
    });
    const resolved = one(guard.events, 'ExchangeResolved');
    expect(resolved.attacker).toMatchObject({
      edge: 'advantage',
      reroll: { index: 0, original: 1, kept: 'reroll' },
      faces: [6, 5, 3],
      total: 4,
    });
    expect(resolved.responder).toMatchObject({
      skill: 'melee',
      edge: 'none',
      sources: { advantage: ['fullGuard'], disadvantage: ['gm'] },
      total: 3,
    });
    expect(resolved).toMatchObject({ outcome: 'hit', hitMargin: 1 });
    // 1 + 5 − 1 = 5 → 3 Wounds. Orin has 2 Ready AD and 2 Ready MD and chooses (ASK).
    expect(one(guard.events, 'WoundAllocationRequested')).toMatchObject({
      combatantId: 'orin',
      wounds: 3,
      woundMargin: 5,
    });
    expect(guard.view.pending).toMatchObject({
      kind: 'woundAllocation',
      awaiting: 'orin',
      answer: 'AllocateWounds',
    });
    expect(
      await refused({ type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD', 'AD', 'AD'] }),
    ).toMatchObject({ statusCode: 422, code: 'NARATEER_READY_BEFORE_USED', field: 'allocation[2]' });
    expect(
      await refused({
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 0,
      }),
    ).toMatchObject({ code: 'PENDING_DECISION', field: 'type' });
    const allocated = await send({
      type: 'AllocateWounds',
      combatantId: 'orin',
      allocation: ['MD', 'AD', 'MD'],
    });
    expect(one(allocated.events, 'WoundsApplied')).toMatchObject({
      vitality: 5,
      ad: { ready: 1, used: 2, wounded: 1 },
      md: { ready: 0, used: 0, wounded: 2 },
    });
    expect(types(allocated.events)).toEqual(['WoundsApplied']);

    // Orin Clashes with his last Ready AD: no room for Boost. Mira 3 (1 dot), Orin 6 (2 dots): he wins by 1.
    await send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 0,
    });
    expect(
      await refused({
        type: 'RespondToExchange',
        combatantId: 'orin',
        response: 'clash',
        boost: 1,
        dice: [3, 6, 6],
      }),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'boost' });
    const clash = await send({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'clash',
      dice: [3, 6],
    });
    expect(one(clash.events, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      hitMargin: 1,
    });
    // Mace: 2 + min(Strength 3, 3) = 5; 1 + 5 − 1 = 5 → 3 Wounds to Mira: her 1 Ready AD, then 2 of her 4 Used.
    const hurt = one(clash.events, 'WoundsApplied');
    expect(hurt).toMatchObject({
      combatantId: 'mira',
      weaponId: 'mace',
      damageVital: 'strength',
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      harmLabel: 'Physical (Impact)',
      vitality: 5,
    });
    expect(hurt.dice).toEqual([
      { kind: 'AD', from: 'ready' },
      { kind: 'AD', from: 'used' },
      { kind: 'AD', from: 'used' },
    ]);
    expect(clash.view.combatants[0].proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });

    await send({ type: 'EndActivation' });
    const orinsTurn = await send({ type: 'StartActivation' });
    // Used dice come back at the start of his own activation; Wounded dice do not.
    expect(one(orinsTurn.events, 'DiceRefreshed')).toEqual({
      combatantId: 'orin',
      ad: { ready: 3, used: 0, wounded: 1 },
      md: { ready: 0, used: 0, wounded: 2 },
    });
  });

  it('through REST, an Opportunity Attack on a step within reach: offered, taken outside the activation, then the move goes on', async () => {
    const guard = { ...orin, woundPreference: 'AD_FIRST', weapons: [sword] };
    const { send, refused } = await rest({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'g', name: 'Guard', side: 'keep', sheet: guard },
        { id: 'm', name: 'Mira', side: 'raiders', sheet: mira },
      ],
    });
    for (const cmd of [
      { type: 'SetPosition', combatantId: 'g', position: { x: 0, y: 0 } },
      { type: 'SetPosition', combatantId: 'm', position: { x: 1, y: 0 } },
      { type: 'SetInitiative', order: ['m', 'g'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
    ])
      await send(cmd);
    const moved = await send({
      type: 'Move',
      combatantId: 'm',
      path: [
        { x: 1, y: 1 },
        { x: 2, y: 1 },
      ],
    });
    expect(types(moved.events)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(moved.view.pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    expect(await refused({ type: 'Move', combatantId: 'm', path: [{ x: 2, y: 1 }] })).toMatchObject({
      code: 'PENDING_DECISION',
    });
    const taken = await send({
      type: 'TakeOpportunityAttack',
      combatantId: 'g',
      weaponId: 'sword',
      boost: 1,
    });
    expect(one(taken.events, 'ExchangeDeclared')).toMatchObject({
      attackerId: 'g',
      targetId: 'm',
      opportunity: true,
      dice: 2,
    });
    // g 6, 4 = 3 dots; Mira's Full Guard 3 → Advantage reroll 1 (kept original): 1 dot. g wins by 2 with Strength 3: 2 + 5 − 1 = 6 → 3 Wounds.
    const answered = await send({
      type: 'RespondToExchange',
      combatantId: 'm',
      response: 'fullGuard',
      dice: [6, 4, 3],
      rerollFaces: [1],
    });
    expect(types(answered.events)).toEqual([
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'OpportunitiesFinished',
    ]);
    expect(one(answered.events, 'WoundsApplied')).toMatchObject({
      combatantId: 'm',
      hitMargin: 2,
      damageVital: 'strength',
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
    });
    const g = answered.view.combatants.find((c: any) => c.id === 'g');
    expect(g.proactiveUsesLeft.melee).toBe(2);
    const on = await send({ type: 'Move', combatantId: 'm', path: [{ x: 2, y: 1 }] });
    expect(types(on.events)).toEqual(['Moved']);
  });

  it('through REST, illegal intents are refused with a code that names the rule and the offending field', async () => {
    const heavyAgility = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        combatants: [{ name: 'X', sheet: { ...mira, weapons: [{ ...mace, damageVitals: ['agility'] }] } }],
      })
      .expect(422);
    expect(heavyAgility.body).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'combatants[0].sheet.weapons[0].damageVitals[0]',
    });
    const badRange = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        combatants: [{ name: 'X', sheet: { ...sera, weapons: [{ ...bow, maximumRange: 6 }] } }],
      })
      .expect(422);
    expect(badRange.body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'combatants[0].sheet.weapons[0].maximumRange',
    });

    const { send, refused } = await rest({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'mira', name: 'Mira', sheet: mira },
        { id: 'orin', name: 'Orin', sheet: orin },
      ],
    });
    expect(
      await refused({
        type: 'AddCombatant',
        combatant: { name: 'Y', sheet: { ...mira, armour: { soak: -1 } } },
      }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'combatant.sheet.armour.soak' });
    for (const cmd of [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
    ])
      await send(cmd);
    const sword0 = {
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 0,
    };
    expect(
      await refused({
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'mace',
        boost: 0,
      }),
    ).toMatchObject({ code: 'NARATEER_NOT_YOUR_TEMPO', field: 'attackerId' });
    expect(await refused({ ...sword0, boost: 4 })).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    expect(await refused({ ...sword0, kind: 'ranged' })).toMatchObject({
      code: 'NARATEER_WRONG_WEAPON_KIND',
      field: 'weaponId',
    });
    expect(await refused({ ...sword0, damageVital: 'resilience' })).toMatchObject({
      code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      field: 'damageVital',
    });
    expect(await refused({ ...sword0, distance: 2 })).toMatchObject({
      code: 'NARATEER_NOT_IN_REACH',
      field: 'distance',
    });
    expect(await refused({ type: 'RespondToExchange', combatantId: 'orin', response: 'none' })).toMatchObject(
      { code: 'NARATEER_NO_EXCHANGE', field: 'type' },
    );
    expect(await refused({ type: 'Move', combatantId: 'mira', path: [{ x: 1, y: 0 }] })).toMatchObject({
      code: 'NARATEER_NOT_ON_MAP',
      field: 'combatantId',
    });
    expect(await refused({ type: 'ReloadWeapon', combatantId: 'mira', weaponId: 'sword' })).toMatchObject({
      code: 'NARATEER_NO_LOADING_NEEDED',
      field: 'weaponId',
    });
    // A combatant with no Ready AD left cannot answer: No Response, and the dice given for a response are refused as extra.
    await send({ type: 'SpendDice', combatantId: 'orin', ad: 4, reason: 'a spell' });
    const forced = await send({ ...sword0, response: 'fullGuard', dice: [3] });
    expect(one(forced.events, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'noReadyAD' });
    expect(await refused({ ...sword0, dice: [1, 1] })).toMatchObject({
      code: 'DICE_MANUAL_FACES_EXTRA',
      field: 'dice[1]',
    });
    // Four proactive Melee uses for Melee SL 3; the fifth is refused.
    for (let i = 0; i < 3; i++) await send({ ...sword0, dice: [1] });
    expect(await refused({ ...sword0, dice: [1] })).toMatchObject({
      code: 'NARATEER_PROACTIVE_LIMIT',
      field: 'kind',
    });
    const system = (await t.http.get('/systems/narateer').expect(200)).body;
    expect(system.rulings.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(['N36', 'N37']));
  });
});
