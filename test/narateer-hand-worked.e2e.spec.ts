import { useApp, type TestApp } from './support/app';

/**
 * Narateer cases worked out by hand from the rule text (narateer.txt) and the shared rulings (C1–C7, N1–N21),
 * then played over the public REST API with manual dice, every face chosen here. None repeats the text’s own
 * worked examples.
 *
 * What every case leans on:
 * - N1: a d6 read as dots: faces 1–2 are 0 dots, 3–5 one dot, 6 two dots. A roll’s total is its dots.
 * - N2: Advantage rerolls the die with the fewest dots (then the lowest face, then the first) and keeps the
 *   better; Disadvantage rerolls the die with the most dots (then the highest face) and keeps the worse.
 * - C6 and the contract (GET /systems/narateer, N22): the command that completes an exchange carries the
 *   attacker’s pool then the responder’s in `dice`, their Edge rerolls in `rerollFaces` (attacker first), and
 *   Continuation Checks in `followUpFaces`; RollInitiative carries each combatant’s Agility dice in the order
 *   the combatants joined.
 * - Wounds: Hit Margin + Strike Rating − Protection = Wound Margin; 1–2 → 1, 3–4 → 2, 5–6 → 3, 7–8 → 5, 9+ → 8.
 * - Strike Rating = Weapon Damage + min(Damage Vital, cap); Protection = Soak.
 *
 * The sheets: Mira (Str 2, Agi 3, Res 2; Melee 3, Ranged 0, Acrobatics 1; VIT 8, 5 AD, Soak 1) with an
 * arming sword (light, Base 1, Damage 2, cap 3: Strike Rating 2 + min(3, 3) = 5) and a dagger (light, Base 1,
 * Damage 1, cap 1: Strike Rating 1 + 1 = 2); Orin (Str 3, Agi 2, Res 2; Melee 1, Acrobatics 1; VIT 8, 5 AD,
 * Soak 1) with a mace (heavy, Base 1, Damage 2, cap 3).
 */

type Ev = { type: string; data: any };
type Answer = { events: Ev[]; view: any; seq: number };
type Refusal = { code: string; field?: string; message: string };
type Cmd = Record<string, unknown>;

const find = (res: Answer, type: string) => {
  const e = res.events.find((x) => x.type === type);
  if (!e) throw new Error(`no ${type} in ${res.events.map((x) => x.type).join(', ')}`);
  return e.data;
};
const all = (res: Answer, type: string) => res.events.filter((e) => e.type === type).map((e) => e.data);
const types = (res: Answer) => res.events.map((e) => e.type);
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);
const weapon = (view: any, id: string, weaponId: string) =>
  who(view, id).weapons.find((w: any) => w.id === weaponId);

const sword = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};
const dagger = {
  id: 'dagger',
  name: 'Dagger',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 1,
  damageVitalCap: 1,
  harm: 'Physical (Piercing)',
};
const mace = {
  id: 'mace',
  name: 'Mace',
  kind: 'melee',
  weight: 'heavy',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Impact)',
};
const club = {
  id: 'club',
  name: 'Club',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 1,
  damageVitalCap: 2,
  harm: 'Physical (Impact)',
};
const bow = {
  id: 'bow',
  name: 'Bow',
  kind: 'ranged',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  effectiveRange: 10,
  maximumRange: 20,
  harm: 'Physical (Piercing)',
};
const crossbow = {
  id: 'crossbow',
  name: 'Light crossbow',
  kind: 'ranged',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 2,
  effectiveRange: 8,
  maximumRange: 16,
  needsLoading: true,
  loaded: true,
  ammunition: 2,
  harm: 'Physical (Piercing)',
};

const mira = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  armour: { soak: 1 },
  weapons: [sword, dagger],
};
const orin = {
  vitals: { strength: 3, agility: 2, resilience: 2 },
  skills: { melee: 1, ranged: 0, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  armour: { soak: 1 },
  weapons: [mace],
};
const sera = {
  vitals: { strength: 1, agility: 3, resilience: 2 },
  skills: { melee: 0, ranged: 2, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  armour: { soak: 1 },
  weapons: [bow],
};
const veyr = {
  vitals: { strength: 1, agility: 2, resilience: 2 },
  skills: { melee: 0, ranged: 1, acrobatics: 0 },
  maxVitality: 8,
  maxAD: 5,
  armour: { soak: 1 },
  weapons: [crossbow],
};
/** A plain foe: no armour, Melee 0, a club; the case names what differs. */
const foe = (over: Record<string, unknown> = {}) => ({
  vitals: { strength: 1, agility: 1, resilience: 2 },
  skills: { melee: 0 },
  maxVitality: 6,
  maxAD: 3,
  weapons: [club],
  ...over,
});

/**
 * A manual-dice Narateer fight, each combatant on a side of its own unless given, with the initiative set
 * in the given order and, by default, round 1 and the first activation started. `send` expects the status
 * and returns the body; `refuse` expects 422.
 */
async function newFight(
  t: TestApp,
  combatants: Array<{ id: string; sheet: object; side?: string }>,
  opts: { order?: string[]; start?: boolean; positions?: Record<string, { x: number; y: number }> } = {},
) {
  const { body } = await t.http
    .post('/fights')
    .send({
      system: 'narateer',
      name: 'Hand-worked case',
      dice: { mode: 'manual' },
      combatants: combatants.map((c) => ({ id: c.id, name: c.id, side: c.side ?? c.id, sheet: c.sheet })),
    })
    .expect(201);
  const id = body.fightId as string;
  const send = async (cmd: Cmd, status = 200) => {
    const r = await t.http.post(`/fights/${id}/commands`).send(cmd);
    if (r.status !== status)
      throw new Error(`${String(cmd.type)}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as Answer;
  };
  const refuse = async (cmd: Cmd) => (await send(cmd, 422)) as unknown as Refusal;
  for (const [combatantId, position] of Object.entries(opts.positions ?? {}))
    await send({ type: 'SetPosition', combatantId, position });
  if (opts.order) await send({ type: 'SetInitiative', order: opts.order });
  let opened: Answer | undefined;
  if (opts.order && opts.start !== false) {
    await send({ type: 'StartRound' });
    opened = await send({ type: 'StartActivation' });
  }
  const view = async () => (await t.http.get(`/fights/${id}`).expect(200)).body.view;
  return { id, send, refuse, opened, view };
}

describe('Narateer worked by hand from narateer.txt, over the public REST API', () => {
  const t = useApp();

  it('narateer.txt: Full Guard, Applying Wounds, Continuation Checks: given Mira’s sword with Boost 2 against Orin’s Melee Full Guard with Boost 1, when Mira rolls 6,6,3 (5 dots) and Orin 1,4 rerolled by Advantage to 5,4 (2 dots), then Hit Margin 3 + Strike 5 − Protection 1 = Wound Margin 7: 5 Wounds take Orin’s 3 Ready AD, then his 2 Used, VIT 8 → 3, and one Continuation Check (2 dice: 5,2 = 1 dot) passes', async () => {
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      { order: ['mira', 'orin'] },
    );
    // Attack Dice = Base Attack Cost 1 + Boost 2 = 3 AD (Boost 2 ≤ Melee SL 3).
    const declared = await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 2,
    });
    expect(declared.view.pending).toMatchObject({ awaiting: 'orin', answer: 'RespondToExchange' });
    // Full Guard: Base Cost 1 + Boost 1 (≤ Melee SL 1) = 2 AD, always with Advantage. Mira 6,6,3 = 2+2+1 = 5.
    // Orin 1,4 = 0+1 = 1; Advantage rerolls the die with the fewest dots (the 1, index 0) to a 5 (1 dot):
    // better, kept: 1+1 = 2. Mira wins, 5 − 2 = 3.
    // Wound Margin 3 + 5 − 1 = 7 → 5 Wounds. Orin’s AD: 5 − 2 committed = 3 Ready, 2 Used. Ready first (3),
    // then Used (2). VIT 8 − 5 = 3: 2·3 < 8 (first time below half) and 2·5 > 8 (one source): one check.
    const res = await f.send({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'fullGuard',
      boost: 1,
      dice: [6, 6, 3, 1, 4],
      rerollFaces: [5],
      followUpFaces: [5, 2],
    });
    expect(find(res, 'ExchangeResponded')).toMatchObject({ response: 'fullGuard', dice: 2, skill: 'melee' });
    const resolved = find(res, 'ExchangeResolved');
    expect(resolved).toMatchObject({
      outcome: 'hit',
      winnerId: 'mira',
      hitMargin: 3,
      attacker: { total: 5 },
      responder: {
        total: 2,
        edge: 'advantage',
        sources: { advantage: ['fullGuard'] },
        reroll: { index: 0, original: 1 },
      },
    });
    expect(find(res, 'WoundsApplied')).toMatchObject({
      combatantId: 'orin',
      hitMargin: 3,
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitalityBefore: 8,
      vitality: 3,
      ad: { ready: 0, used: 0, wounded: 5 },
      dice: [
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'used' },
        { kind: 'AD', from: 'used' },
      ],
    });
    expect(all(res, 'ContinuationChecked')).toHaveLength(1);
    expect(find(res, 'ContinuationChecked')).toMatchObject({
      combatantId: 'orin',
      triggers: ['belowHalf', 'heavyWounds'],
      dice: 2,
      roll: { faces: [5, 2] },
      dots: 1,
      passed: true,
      state: 'Active',
    });
    expect(who(res.view, 'orin')).toMatchObject({
      vitality: 3,
      state: 'Active',
      ad: { ready: 0, used: 0, wounded: 5, max: 5 },
    });
    expect(who(res.view, 'mira')).toMatchObject({ ad: { ready: 2, used: 3, wounded: 0 } });
    expect(res.view.pending).toBeNull();
  });

  it('narateer.txt: Clash, Core Combat Attributes (heavy weapons use Strength): given Orin (Str 2, Agi 4) Clashing with his heavy mace, Boost 1, against Mira’s sword, when Mira rolls 3 (1 dot) and Orin 6,6 (4 dots), then Orin wins by 3 and deals damage with his own weapon and Strength: Strike 2 + min(2, 3) = 4, Wound Margin 3 + 4 − 1 = 6: 3 Wounds to Mira (VIT 8 → 5), no Continuation Check; a Clash with the mace on Agility is refused', async () => {
    const nimbleOrin = { ...orin, vitals: { strength: 2, agility: 4, resilience: 2 } };
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: nimbleOrin },
      ],
      { order: ['mira', 'orin'] },
    );
    await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
    });
    const agility = await f.refuse({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'clash',
      boost: 1,
      weaponId: 'mace',
      damageVital: 'agility',
      dice: [3, 6, 6],
    });
    expect(agility).toMatchObject({ code: 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED', field: 'damageVital' });
    // Mira 1 AD: 3 = 1 dot. Orin: Base 1 + Boost 1 = 2 AD: 6,6 = 4 dots. Orin wins by 3; only the winner
    // deals damage. Mira’s AD: 1 committed → 4 Ready, 1 Used; 3 Wounds take 3 Ready. VIT 5: 2·5 ≥ 8, 2·3 ≤ 8.
    const res = await f.send({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'clash',
      boost: 1,
      weaponId: 'mace',
      dice: [3, 6, 6],
    });
    expect(find(res, 'ExchangeResolved')).toMatchObject({
      outcome: 'counterHit',
      winnerId: 'orin',
      hitMargin: 3,
      attacker: { total: 1 },
      responder: { total: 4 },
    });
    expect(all(res, 'WoundsApplied')).toHaveLength(1);
    expect(find(res, 'WoundsApplied')).toMatchObject({
      combatantId: 'mira',
      sourceId: 'orin',
      weaponId: 'mace',
      damageVital: 'strength',
      strikeRating: 4,
      protectionRating: 1,
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
      harmLabel: 'Physical (Impact)',
      ad: { ready: 1, used: 1, wounded: 3 },
    });
    expect(types(res)).not.toContain('ContinuationChecked');
    expect(who(res.view, 'mira')).toMatchObject({ vitality: 5, state: 'Active' });
    expect(who(res.view, 'orin')).toMatchObject({ vitality: 8, ad: { ready: 3, used: 2 } });
  });

  it('narateer.txt: No Response, Strike Rating (Damage Vital Cap), Applying Wounds (MD): given Tam (VIT 6, 2 AD, 1 MD, no armour, MD first) making No Response to Mira’s dagger (Damage 1, cap 1) with Boost 1, when Mira rolls 6,5 (3 dots) against target number 0, then Hit Margin 3 + Strike Rating 2 (1 + min(3, 1)) − Protection 0 = Wound Margin 5: 3 Wounds take the Ready MD, then the 2 Ready AD; VIT 3 is exactly half, not below it, and 3 Wounds are not more than half of 6: no Continuation Check', async () => {
    const tam = foe({ maxAD: 2, maxMD: 1, woundPreference: 'MD_FIRST' });
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'tam', sheet: tam },
      ],
      { order: ['mira', 'tam'] },
    );
    const res = await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'tam',
      kind: 'melee',
      weaponId: 'dagger',
      boost: 1,
      response: 'none',
      dice: [6, 5],
    });
    expect(find(res, 'ExchangeResolved')).toMatchObject({
      winnerId: 'mira',
      targetNumber: 0,
      hitMargin: 3,
      attacker: { total: 3 },
    });
    expect(find(res, 'WoundsApplied')).toMatchObject({
      combatantId: 'tam',
      strikeRating: 2,
      protectionRating: 0,
      woundMargin: 5,
      wounds: 3,
      vitalityBefore: 6,
      vitality: 3,
      dice: [
        { kind: 'MD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
        { kind: 'AD', from: 'ready' },
      ],
      ad: { ready: 0, used: 0, wounded: 2 },
      md: { ready: 0, used: 0, wounded: 1 },
    });
    expect(types(res)).not.toContain('ContinuationChecked');
    expect(who(res.view, 'tam')).toMatchObject({
      vitality: 3,
      state: 'Active',
      ad: { ready: 0, wounded: 2 },
      md: { ready: 0, wounded: 1 },
    });
  });

  it('narateer.txt: Wound Margin, Winning An Exchange (ties): given Brute in Soak 3 armour, when Mira’s dagger (Strike 2) lands a 1-dot hit on his No Response, then Wound Margin 1 + 2 − 3 = 0 causes no Wound; and when her sword’s 4 (1 dot) meets his club Clash of 3 (1 dot), then the tie lands no clean hit: Brute stays at VIT 8', async () => {
    const brute = foe({
      vitals: { strength: 2, agility: 1, resilience: 2 },
      maxVitality: 8,
      armour: { soak: 3 },
    });
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'brute', sheet: brute },
      ],
      { order: ['mira', 'brute'] },
    );
    const grazed = await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'brute',
      kind: 'melee',
      weaponId: 'dagger',
      response: 'none',
      dice: [4],
    });
    expect(find(grazed, 'ExchangeResolved')).toMatchObject({ winnerId: 'mira', hitMargin: 1 });
    // A hit whose Wound Margin is 0 causes no Wound; the hit is still recorded, with 0 Wounds and no die (ruling N34).
    expect(all(grazed, 'WoundsApplied')).toEqual([
      expect.objectContaining({
        strikeRating: 2,
        protectionRating: 3,
        woundMargin: 0,
        wounds: 0,
        vitality: 8,
        dice: [],
      }),
    ]);
    expect(who(grazed.view, 'brute')).toMatchObject({ vitality: 8, ad: { wounded: 0 } });

    await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'brute',
      kind: 'melee',
      weaponId: 'sword',
    });
    const tied = await f.send({
      type: 'RespondToExchange',
      combatantId: 'brute',
      response: 'clash',
      weaponId: 'club',
      dice: [4, 3],
    });
    const resolved = find(tied, 'ExchangeResolved');
    expect(resolved).toMatchObject({ outcome: 'tie', attacker: { total: 1 }, responder: { total: 1 } });
    expect(resolved.winnerId ?? null).toBeNull();
    expect(types(tied)).not.toContain('WoundsApplied');
    expect(who(tied.view, 'brute')).toMatchObject({ vitality: 8, ad: { ready: 2, used: 1, wounded: 0 } });
    expect(who(tied.view, 'mira')).toMatchObject({
      vitality: 8,
      ad: { ready: 3, used: 2 },
      proactiveUsesLeft: { melee: 2 },
    });
  });

  it('narateer.txt: Wound Conversion (9+), Applying Wounds (no dice left), Continuation Checks (Collapsed): given Gob (VIT 6, 3 AD) unaware of Mira, when her sword with Boost 3 rolls 6,6,6,6 (8 dots) against target number 0, then Wound Margin 8 + 5 − 0 = 13 converts to 8 Wounds: 3 take his AD, 5 more only lower VIT to −2; Gob is Collapsed, makes no Continuation Check and has no activation, so the round ends with Mira’s', async () => {
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'gob', sheet: foe() },
      ],
      { order: ['mira', 'gob'] },
    );
    const res = await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'gob',
      kind: 'melee',
      weaponId: 'sword',
      boost: 3,
      targetUnaware: true,
      dice: [6, 6, 6, 6],
    });
    expect(find(res, 'ExchangeResponded')).toMatchObject({ response: 'none' });
    expect(find(res, 'ExchangeResolved')).toMatchObject({
      targetNumber: 0,
      hitMargin: 8,
      attacker: { total: 8 },
    });
    expect(find(res, 'WoundsApplied')).toMatchObject({
      combatantId: 'gob',
      strikeRating: 5,
      protectionRating: 0,
      woundMargin: 13,
      wounds: 8,
      vitalityBefore: 6,
      vitality: -2,
      state: 'Collapsed',
      ad: { ready: 0, used: 0, wounded: 3 },
    });
    expect(find(res, 'WoundsApplied').dice).toHaveLength(3);
    expect(types(res)).not.toContain('ContinuationChecked');
    expect(who(res.view, 'gob')).toMatchObject({ vitality: -2, state: 'Collapsed' });
    expect(who(res.view, 'mira')).toMatchObject({ ad: { ready: 1, used: 4 } });
    const ended = await f.send({ type: 'EndActivation' });
    expect(types(ended)).toEqual(['ActivationEnded', 'RoundEnded']);
    await f.send({ type: 'StartRound' });
    const next = await f.send({ type: 'StartActivation' });
    expect(find(next, 'ActivationStarted')).toMatchObject({ combatantId: 'mira', round: 2 });
    // Used dice become Ready at the start of the own activation.
    expect(find(next, 'DiceRefreshed')).toMatchObject({ combatantId: 'mira', ad: { ready: 5, used: 0 } });
  });

  it('narateer.txt: Continuation Checks (fail), RULINGS N10 Withdrawn: given Vey (VIT 8, 4 AD, Resilience 1, Soak 1), when Mira’s sword lands a 6 (Wound Margin 2 + 5 − 1 = 6: 3 Wounds, VIT 5, no check) and then a 3 (Wound Margin 5: 3 Wounds, VIT 2, first time below half), then the 1-die check rolls 2 (0 dots) and fails: Vey is Withdrawn, and Mira’s next exchange gets No Response without asking', async () => {
    const vey = foe({
      vitals: { strength: 1, agility: 1, resilience: 1 },
      maxVitality: 8,
      maxAD: 4,
      armour: { soak: 1 },
    });
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'vey', sheet: vey },
      ],
      { order: ['mira', 'vey'] },
    );
    const swing = {
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'vey',
      kind: 'melee',
      weaponId: 'sword',
    };
    const first = await f.send({ ...swing, response: 'none', dice: [6] });
    expect(find(first, 'WoundsApplied')).toMatchObject({ woundMargin: 6, wounds: 3, vitality: 5 });
    expect(types(first)).not.toContain('ContinuationChecked');
    // VIT 5 → 2: 2·2 < 8 for the first time; 3 Wounds: 1 Ready AD left, the other 2 take no die.
    const second = await f.send({ ...swing, response: 'none', dice: [3], followUpFaces: [2] });
    expect(find(second, 'WoundsApplied')).toMatchObject({
      hitMargin: 1,
      woundMargin: 5,
      wounds: 3,
      vitalityBefore: 5,
      vitality: 2,
      ad: { ready: 0, wounded: 4 },
    });
    expect(find(second, 'WoundsApplied').dice).toHaveLength(1);
    expect(find(second, 'ContinuationChecked')).toMatchObject({
      combatantId: 'vey',
      triggers: ['belowHalf'],
      dice: 1,
      roll: { faces: [2] },
      dots: 0,
      passed: false,
      state: 'Withdrawn',
    });
    expect(who(second.view, 'vey')).toMatchObject({ vitality: 2, state: 'Withdrawn' });
    // A Withdrawn combatant’s response is forced to none: the exchange resolves at once, at target number 0.
    const third = await f.send({ ...swing, dice: [1] });
    expect(find(third, 'ExchangeResponded')).toMatchObject({
      combatantId: 'vey',
      response: 'none',
      forced: 'withdrawn',
    });
    expect(find(third, 'ExchangeResolved')).toMatchObject({ targetNumber: 0, attacker: { total: 0 } });
    expect(types(third)).not.toContain('WoundsApplied');
    expect(third.view.pending).toBeNull();
    expect(who(third.view, 'vey')).toMatchObject({ vitality: 2, state: 'Withdrawn' });
  });

  it('narateer.txt: Lingering Harm (separate sources stack, end of each round): given Ash (VIT 3, 2 AD, Resilience 2) Bleeding from two cuts applied in round 1, when the round ends, then each ticks 1 Wound of Affliction (Bleeding), resolved separately: VIT 3 → 2 (no check), then 2 → 1, below half for the first time, so one Continuation Check (1,3 = 1 dot) passes', async () => {
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'ash', sheet: foe({ maxVitality: 3, maxAD: 2 }) },
      ],
      { order: ['mira', 'ash'] },
    );
    const a = await f.send({
      type: 'ApplyLingeringHarm',
      combatantId: 'ash',
      form: 'Bleeding',
      source: 'cut-a',
    });
    const b = await f.send({
      type: 'ApplyLingeringHarm',
      combatantId: 'ash',
      form: 'Bleeding',
      source: 'cut-b',
    });
    const applied = [find(a, 'LingeringHarmApplied'), find(b, 'LingeringHarmApplied')];
    for (const h of applied)
      expect(h).toMatchObject({
        form: 'Bleeding',
        harm: { domain: 'Affliction', type: 'Bleeding' },
        wounds: 1,
        round: 1,
      });
    expect(applied[0].lingeringHarmId).not.toBe(applied[1].lingeringHarmId);
    expect(who(b.view, 'ash').lingeringHarm).toHaveLength(2);
    // Nothing ticks before the round’s end.
    const miraDone = await f.send({ type: 'EndActivation' });
    expect(types(miraDone)).toEqual(['ActivationEnded']);
    await f.send({ type: 'StartActivation' });
    const end = await f.send({ type: 'EndActivation', followUpFaces: [1, 3] });
    const ticks = all(end, 'WoundsApplied');
    expect(ticks).toHaveLength(2);
    expect(ticks.map((w) => w.lingeringHarmId)).toEqual(applied.map((h) => h.lingeringHarmId));
    expect(ticks[0]).toMatchObject({
      combatantId: 'ash',
      wounds: 1,
      harmLabel: 'Affliction (Bleeding)',
      vitalityBefore: 3,
      vitality: 2,
      dice: [{ kind: 'AD', from: 'ready' }],
    });
    expect(ticks[1]).toMatchObject({
      wounds: 1,
      vitalityBefore: 2,
      vitality: 1,
      ad: { ready: 0, wounded: 2 },
    });
    const kinds = types(end).filter((x) =>
      ['WoundsApplied', 'ContinuationChecked', 'RoundEnded'].includes(x),
    );
    expect(kinds).toEqual(['WoundsApplied', 'WoundsApplied', 'ContinuationChecked', 'RoundEnded']);
    expect(find(end, 'ContinuationChecked')).toMatchObject({
      dice: 2,
      roll: { faces: [1, 3] },
      dots: 1,
      passed: true,
    });
    expect(who(end.view, 'ash')).toMatchObject({ vitality: 1, state: 'Active' });
    expect(who(end.view, 'ash').lingeringHarm).toHaveLength(2);
  });

  it('narateer.txt: Opportunity Attacks: given Mira at (0,0) with her reach-1 sword and Orin at (1,0), when Orin steps to (1,1), still within her reach, then Mira may attack him outside her activation, paying 1 AD: her 3 (1 dot) against his No Response, Wound Margin 1 + 5 − 1 = 5, 3 Wounds (VIT 5); when Orin then steps on to (2,2), out of her reach, then nothing is offered', async () => {
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      { order: ['orin', 'mira'], positions: { mira: { x: 0, y: 0 }, orin: { x: 1, y: 0 } } },
    );
    expect(f.opened && find(f.opened, 'ActivationStarted')).toMatchObject({ combatantId: 'orin' });
    const moved = await f.send({ type: 'Move', combatantId: 'orin', path: [{ x: 1, y: 1 }] });
    expect(find(moved, 'Moved')).toMatchObject({ combatantId: 'orin', to: { x: 1, y: 1 } });
    expect(find(moved, 'OpportunitiesIdentified')).toMatchObject({
      moverId: 'orin',
      step: { from: { x: 1, y: 0 }, to: { x: 1, y: 1 } },
      reactorIds: ['mira'],
    });
    expect(moved.view.pending).toMatchObject({ awaiting: 'mira', answer: 'TakeOpportunityAttack' });
    const struck = await f.send({
      type: 'TakeOpportunityAttack',
      combatantId: 'mira',
      weaponId: 'sword',
      response: 'none',
      dice: [3],
    });
    expect(find(struck, 'ExchangeDeclared')).toMatchObject({
      attackerId: 'mira',
      targetId: 'orin',
      opportunity: true,
    });
    expect(find(struck, 'WoundsApplied')).toMatchObject({
      combatantId: 'orin',
      hitMargin: 1,
      strikeRating: 5,
      protectionRating: 1,
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
    });
    expect(struck.view.pending).toBeNull();
    expect(who(struck.view, 'orin').position).toEqual({ x: 1, y: 1 });
    expect(who(struck.view, 'mira')).toMatchObject({ ad: { ready: 4, used: 1 } });
    // Moving away: (2,2) is 2 Spaces from Mira, beyond her reach 1. Leaving reach triggers nothing.
    const away = await f.send({ type: 'Move', combatantId: 'orin', path: [{ x: 2, y: 2 }] });
    expect(types(away)).toEqual(['Moved']);
    expect(away.view.pending).toBeNull();
    expect(who(away.view, 'orin').position).toEqual({ x: 2, y: 2 });
  });

  it('narateer.txt: Ranged Exchanges (Loading, ammunition): given Veyr’s light crossbow (needs Loading, loaded, 2 shots) Clashing against Sera’s bow, when Sera’s 6,3 (3 dots) beats his 4 (1 dot), then he still fires: unloaded, 1 shot left, and takes Wound Margin 2 + 5 − 1 = 6: 3 Wounds; an unloaded crossbow cannot Ranged Clash; reloaded in his activation it shoots Sera (3 vs No Response: 1 + 2 + min(2, 2) − 1 = 4: 2 Wounds), then it has no shot to reload or fire', async () => {
    const f = await newFight(
      t,
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      { order: ['sera', 'veyr'] },
    );
    const shot = {
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
    };
    await f.send({ ...shot, boost: 1, distance: 5 });
    const first = await f.send({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'clash',
      weaponId: 'crossbow',
      dice: [6, 3, 4],
    });
    expect(find(first, 'ExchangeResolved')).toMatchObject({
      winnerId: 'sera',
      hitMargin: 2,
      attacker: { total: 3 },
      responder: { total: 1 },
    });
    expect(all(first, 'WeaponFired').find((w) => w.combatantId === 'veyr')).toMatchObject({
      weaponId: 'crossbow',
      loaded: false,
      ammunition: 1,
    });
    expect(find(first, 'WoundsApplied')).toMatchObject({
      combatantId: 'veyr',
      strikeRating: 5,
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
    });
    expect(weapon(first.view, 'veyr', 'crossbow')).toMatchObject({
      loaded: false,
      ammunition: 1,
      ready: false,
    });

    await f.send({ ...shot, distance: 5 });
    const noClash = await f.refuse({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'clash',
      weaponId: 'crossbow',
      dice: [3, 3],
    });
    expect(noClash).toMatchObject({ code: 'NARATEER_WEAPON_NOT_LOADED', field: 'weaponId' });
    // Ranged Full Guard: Acrobatics (SL 0), 1 AD with Advantage. Sera 3 = 1 dot; Veyr 2 = 0, rerolled to 3 = 1:
    // a tie, and Full Guard equal stops the attack.
    const guarded = await f.send({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'fullGuard',
      dice: [3, 2],
      rerollFaces: [3],
    });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      attacker: { total: 1 },
      responder: { total: 1 },
    });
    expect(types(guarded)).not.toContain('WoundsApplied');

    await f.send({ type: 'EndActivation' });
    await f.send({ type: 'StartActivation' });
    const reloaded = await f.send({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(weapon(reloaded.view, 'veyr', 'crossbow')).toMatchObject({
      loaded: true,
      ammunition: 1,
      ready: true,
    });
    const back = await f.send({
      type: 'DeclareExchange',
      attackerId: 'veyr',
      targetId: 'sera',
      kind: 'ranged',
      weaponId: 'crossbow',
      distance: 5,
      response: 'none',
      dice: [3],
    });
    expect(find(back, 'WeaponFired')).toMatchObject({ combatantId: 'veyr', loaded: false, ammunition: 0 });
    expect(find(back, 'WoundsApplied')).toMatchObject({
      combatantId: 'sera',
      hitMargin: 1,
      strikeRating: 4,
      protectionRating: 1,
      woundMargin: 4,
      wounds: 2,
      vitality: 6,
    });
    expect(weapon(back.view, 'veyr', 'crossbow')).toMatchObject({
      loaded: false,
      ammunition: 0,
      ready: false,
    });
    expect(await f.refuse({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })).toMatchObject(
      {
        code: 'NARATEER_NO_AMMUNITION',
        field: 'weaponId',
      },
    );
    const empty = await f.refuse({
      type: 'DeclareExchange',
      attackerId: 'veyr',
      targetId: 'sera',
      kind: 'ranged',
      weaponId: 'crossbow',
      distance: 5,
      response: 'none',
      dice: [3],
    });
    expect(empty).toMatchObject({ code: 'NARATEER_WEAPON_NOT_LOADED', field: 'weaponId' });
  });

  it('narateer.txt: Ranged Exchanges (Effective and Maximum Range), Full Guard (Acrobatics SL 0): given Sera’s bow (Effective 10, Maximum 20) and Veyr with Acrobatics 0, when she shoots at 25 Spaces, then it is refused; when she shoots at 15 with Boost 1, 6,4 with Disadvantage rerolling the 6 to 3 (2 dots), against his Full Guard of 2 rerolled by Advantage to 4 (1 dot), then he cannot Boost it, and she wins by 1: 1 + 5 − 1 = 5, 3 Wounds', async () => {
    const f = await newFight(
      t,
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      { order: ['sera', 'veyr'] },
    );
    const shot = {
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
    };
    const tooFar = await f.refuse({ ...shot, distance: 25 });
    expect(tooFar).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'distance' });
    const declared = await f.send({ ...shot, boost: 1, distance: 15 });
    expect(find(declared, 'ExchangeDeclared').edge).toEqual({
      advantage: [],
      disadvantage: ['beyondEffectiveRange'],
    });
    const boosted = await f.refuse({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'fullGuard',
      boost: 1,
      dice: [6, 4, 2, 2],
      rerollFaces: [3, 4],
    });
    expect(boosted).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL', field: 'boost' });
    // Sera 6,4 = 3 dots; Disadvantage rerolls the die with the most dots (the 6) to a 3: worse, kept: 1+1 = 2.
    // Veyr 2 = 0; Advantage rerolls it to a 4: better, kept: 1. Hit Margin 1.
    const res = await f.send({
      type: 'RespondToExchange',
      combatantId: 'veyr',
      response: 'fullGuard',
      dice: [6, 4, 2],
      rerollFaces: [3, 4],
    });
    expect(find(res, 'ExchangeResponded')).toMatchObject({
      response: 'fullGuard',
      skill: 'acrobatics',
      dice: 1,
    });
    expect(find(res, 'ExchangeResolved')).toMatchObject({
      winnerId: 'sera',
      hitMargin: 1,
      attacker: { total: 2, edge: 'disadvantage', reroll: { index: 0, original: 6 } },
      responder: { total: 1, edge: 'advantage', reroll: { index: 0, original: 2 } },
    });
    expect(find(res, 'WoundsApplied')).toMatchObject({
      strikeRating: 5,
      woundMargin: 5,
      wounds: 3,
      vitality: 5,
    });
    expect(who(res.view, 'veyr')).toMatchObject({ vitality: 5, ad: { ready: 1, used: 1, wounded: 3 } });
  });

  it('narateer.txt: Hidden and Unseen Creatures, Conditions (Blinded, Restrained): given Orin Blinded, when Mira’s sword (Boost 1) rolls 1,3 and he Clashes 6,3, then her attack is unseen (Advantage: the 1 rerolled to 6, 3 dots) and his attack on a foe he cannot see has Disadvantage (the 6 rerolled to 2, 1 dot): Wound Margin 2 + 5 − 1 = 6, 3 Wounds; and Restrained, Orin cannot move in his activation', async () => {
    const f = await newFight(
      t,
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      { order: ['mira', 'orin'], positions: { mira: { x: 0, y: 0 }, orin: { x: 1, y: 0 } } },
    );
    await f.send({ type: 'ApplyCondition', combatantId: 'orin', condition: 'blinded' });
    await f.send({
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 1,
    });
    const res = await f.send({
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'clash',
      boost: 1,
      weaponId: 'mace',
      dice: [1, 3, 6, 3],
      rerollFaces: [6, 2],
    });
    expect(find(res, 'ExchangeResolved')).toMatchObject({
      winnerId: 'mira',
      hitMargin: 2,
      attacker: {
        total: 3,
        edge: 'advantage',
        sources: { advantage: ['unseenAttacker'] },
        reroll: { index: 0, original: 1 },
      },
      responder: {
        total: 1,
        edge: 'disadvantage',
        sources: { disadvantage: ['cannotSeeTarget'] },
        reroll: { index: 0, original: 6 },
      },
    });
    expect(find(res, 'WoundsApplied')).toMatchObject({
      combatantId: 'orin',
      woundMargin: 6,
      wounds: 3,
      vitality: 5,
    });

    await f.send({ type: 'ApplyCondition', combatantId: 'orin', condition: 'restrained' });
    await f.send({ type: 'EndActivation' });
    await f.send({ type: 'StartActivation' });
    const held = await f.refuse({ type: 'Move', combatantId: 'orin', path: [{ x: 2, y: 0 }] });
    expect(held).toMatchObject({ code: 'NARATEER_RESTRAINED', field: 'combatantId' });
    expect(who(await f.view(), 'orin').position).toEqual({ x: 1, y: 0 });
  });

  it('narateer.txt: Skill Level In Combat, RULINGS N4 initiative, N16 rounds: given Ada (Agi 2), Cy (Agi 1), Di (Agi 2) and Eve (Agi 2), when their Side Rolls are 6,6 (4 dots), 6 (2), 5,3 (2) and 3,4 (2), then Ada goes first, Cy last (lower Agility), and Di and Eve wait for the GM; in the round, Ada (Melee 0) may Boost nothing and take one proactive Melee use, the round ends with the last activation, and her Used die is Ready again at her next', async () => {
    const f = await newFight(t, [
      { id: 'ada', sheet: foe({ vitals: { strength: 1, agility: 2, resilience: 2 } }) },
      { id: 'cy', sheet: foe() },
      { id: 'di', sheet: foe({ vitals: { strength: 1, agility: 2, resilience: 2 } }) },
      { id: 'eve', sheet: foe({ vitals: { strength: 1, agility: 2, resilience: 2 } }) },
    ]);
    const rolled = await f.send({ type: 'RollInitiative', dice: [6, 6, 6, 5, 3, 3, 4] });
    const totals = Object.fromEntries(
      find(rolled, 'InitiativeRolled').rolls.map((r: any) => [r.combatantId, r.total]),
    );
    expect(totals).toEqual({ ada: 4, cy: 2, di: 2, eve: 2 });
    expect(find(rolled, 'InitiativeRolled')).toMatchObject({ unresolvedTies: [['di', 'eve']] });
    const rolledOrder = find(rolled, 'InitiativeRolled').order as string[];
    expect([rolledOrder[0], rolledOrder[3]]).toEqual(['ada', 'cy']);
    expect(rolled.view.pending).toMatchObject({
      kind: 'initiativeTie',
      awaiting: 'gm',
      answer: 'SetInitiative',
      detail: { ties: [['di', 'eve']] },
    });
    expect(who(rolled.view, 'ada').initiative).toBe(4);
    // The GM orders the tie; the order around it is the rolls’: Ada first, Cy last.
    await f.send({ type: 'SetInitiative', order: ['ada', 'eve', 'di', 'cy'] });
    await f.send({ type: 'StartRound' });
    const ada = await f.send({ type: 'StartActivation' });
    expect(find(ada, 'ActivationStarted')).toMatchObject({ combatantId: 'ada', round: 1 });
    // Melee SL 0: at least 1 proactive use; Boost at most 0.
    expect(who(ada.view, 'ada').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
    const swing = {
      type: 'DeclareExchange',
      attackerId: 'ada',
      targetId: 'cy',
      kind: 'melee',
      weaponId: 'club',
    };
    expect(await f.refuse({ ...swing, boost: 1, response: 'none', dice: [3, 3] })).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
      field: 'boost',
    });
    const once = await f.send({ ...swing, response: 'none', dice: [3] });
    expect(who(once.view, 'ada')).toMatchObject({
      proactiveUsesLeft: { melee: 0 },
      ad: { ready: 2, used: 1 },
    });
    expect((await f.refuse({ ...swing, response: 'none', dice: [3] })).code).toBe('NARATEER_PROACTIVE_LIMIT');
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await f.send({ type: 'EndActivation' });
      const started = await f.send({ type: 'StartActivation' });
      order.push(find(started, 'ActivationStarted').combatantId);
    }
    expect(order).toEqual(['eve', 'di', 'cy']);
    const last = await f.send({ type: 'EndActivation' });
    expect(types(last)).toEqual(['ActivationEnded', 'RoundEnded']);
    expect(last.view.roundOpen).toBe(false);
    await f.send({ type: 'StartRound' });
    const again = await f.send({ type: 'StartActivation' });
    expect(find(again, 'ActivationStarted')).toMatchObject({ combatantId: 'ada', round: 2 });
    expect(find(again, 'DiceRefreshed')).toMatchObject({ combatantId: 'ada', ad: { ready: 3, used: 0 } });
    expect(who(again.view, 'ada').proactiveUsesLeft).toMatchObject({ melee: 1 });
  });
});
