import { useApp, type TestApp } from './support/app';
import { tableOf } from './support/fight-calls';

/**
 * Arcana Beast cases worked out by hand from the rule text (arcana-beast.txt) and the shared rulings (C1–C7,
 * A1–A15), then played over the public HTTP API with manual dice, every face chosen here.
 *
 * The table used throughout (ruling A1: a die succeeds on 4+; A4: d6 at Stage 0–1, d8 at 2, d10 at 3,
 * d12 at 4, a Binder always d6):
 * - Kit, the heroes’ beast: Brawn 3, Agility 2, Endurance 3; Stage 1 (d6) unless a case says otherwise;
 *   10 HP, 2 Stamina; one melee Bite with no ranks. Base Damage = Brawn + Stage = 3 + 1 = 4.
 * - Rue, Kit’s Binder: Agility 2, Spirit 3, Technique 2; 8 HP; a Tonic that heals 3 HP.
 * - Boar, a wild beast: Brawn 3, Agility 2; Stage 2 (d8); 20 HP. Base Damage = 3 + 2 = 5.
 * Manual dice (ruling C6): an Attack carries the attack pool, then the Dodge pool, in pool order.
 */

const stats = (brawn: number, agility: number, endurance: number, spirit: number, technique: number) => ({
  brawn,
  agility,
  endurance,
  spirit,
  technique,
});
const kitSheet = (over: Record<string, unknown> = {}) => ({
  kind: 'beast',
  stats: stats(3, 2, 3, 2, 2),
  hp: 10,
  stamina: 2,
  stage: 1,
  stages: [{ stage: 0 }, { stage: 1 }, { stage: 2 }],
  attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
  ...over,
});
const rueSheet = (beastId = 'kit', over: Record<string, unknown> = {}) => ({
  kind: 'binder',
  beastId,
  stats: stats(1, 2, 2, 3, 2),
  hp: 8,
  stamina: 2,
  inventory: [{ id: 'tonic', name: 'Tonic', heal: 3 }],
  ...over,
});
const boarSheet = (over: Record<string, unknown> = {}) => ({
  kind: 'beast',
  stats: stats(3, 2, 2, 1, 1),
  hp: 20,
  stamina: 1,
  stage: 2,
  stages: [{ stage: 2 }],
  attacks: [{ id: 'tusk', name: 'Tusk', range: 'melee' }],
  ...over,
});

type Ev = { type: string; data: any };
type Answer = { seq: number; events: Ev[]; view: any };
const find = (res: Answer, type: string) => {
  const e = res.events.find((x) => x.type === type);
  if (!e) throw new Error(`no ${type} in ${res.events.map((x) => x.type).join(', ')}`);
  return e.data;
};
const types = (res: Answer) => res.events.map((e) => e.type);
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);

/** Kit, Rue and the Boar (or the given combatants), manual dice, the heroes the players’ side. */
async function newFight(
  t: TestApp,
  opts: { kit?: Record<string, unknown>; more?: object[]; combatants?: object[] } = {},
) {
  const combatants = opts.combatants ?? [
    { id: 'kit', name: 'Kit', side: 'heroes', sheet: kitSheet(opts.kit) },
    { id: 'rue', name: 'Rue', side: 'heroes', sheet: rueSheet() },
    { id: 'boar', name: 'Boar', side: 'wild', sheet: boarSheet() },
    ...(opts.more ?? []),
  ];
  const { body } = await t.http
    .post('/fights')
    .send({
      system: 'arcana-beast',
      name: 'Hand-worked case',
      dice: { mode: 'manual' },
      options: { playerSides: ['heroes'] },
      combatants,
    })
    .expect(201);
  const id = body.fightId as string;
  const table = tableOf(t, id);
  const gm = table.gm as (cmd: Record<string, unknown>, status?: number) => Promise<any>;
  /** A player token for the combatant; a bound beast is played through its Binder’s token (C11). */
  const player = async (combatantId: string) => table.as(await table.token(combatantId));
  /** The fight view from the read model, once it has folded `minSeq` (a command’s answer gives its seq). */
  const view = async (minSeq: number) =>
    (await t.http.get(`/fights/${id}`).query({ minSeq }).expect(200)).body.view;
  return { id, gm, player, view };
}

describe('Arcana Beast worked by hand from the rule text, over the public API', () => {
  const t = useApp();

  it('arcana-beast.txt: Attack & Damage: given Kit (3 d6, Base 4) Close to the Boar (Dodge 2 d8), when Kit rolls 5,4,2 against 4,1, then it hits for 4 + 1 = 5; and the Boar’s 4,1,1 against Kit’s 6,2 is a miss (defender equals)', async () => {
    const f = await newFight(t);
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Attack pool: Brawn 3 + 0 ranks = 3 d6 (Stage 1). 5, 4 succeed, 2 fails: 2 successes.
    // Dodge pool: the Boar’s Agility 2 = 2 d8 (Stage 2). 4 succeeds: 1 success.
    // 2 > 1: hit. Damage = Base (Brawn 3 + Stage 1 = 4) + extra successes (2 − 1 = 1) = 5. Boar 20 → 15.
    const bite = await f.gm({ type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [5, 4, 2, 4, 1] });
    expect(find(bite, 'AttackResolved')).toMatchObject({
      attackerId: 'kit',
      targetId: 'boar',
      band: 'close',
      attack: {
        stat: 'brawn',
        statValue: 3,
        ranks: 0,
        dice: 3,
        sides: 6,
        edge: 'none',
        kept: [5, 4, 2],
        successes: 2,
        sixes: 0,
      },
      dodge: {
        combatantId: 'boar',
        stat: 'agility',
        statValue: 2,
        dice: 2,
        sides: 8,
        kept: [4, 1],
        successes: 1,
      },
      outcome: 'hit',
      critical: false,
      baseDamage: 4,
      extraSuccesses: 1,
      damage: 5,
    });
    expect(find(bite, 'DamageDealt')).toMatchObject({ combatantId: 'boar', damage: 5, hpBefore: 20, hp: 15 });
    expect(who(bite.view, 'kit')).toMatchObject({ dieSides: 6, baseDamage: 4 });
    expect(who(bite.view, 'boar')).toMatchObject({ dieSides: 8, baseDamage: 5, hp: 15 });
    await f.gm({ type: 'EndActivation' });

    // The Boar’s turn, sent through GraphQL’s typed mutation: 3 d8 4,1,1 = 1 success; Kit’s Dodge 2 d6 6,2 = 1.
    // "Miss: Defender equals/exceeds attacker’s successes": no damage.
    await f.gm({ type: 'StartActivation' });
    const res = await t.gql(
      `mutation($f: ID!, $c: ArcanaBeastCommandInput!) { arcanaBeastCommand(fightId: $f, command: $c) { seq events { type data } view } }`,
      { f: f.id, c: { attack: { attackerId: 'boar', targetId: 'kit', dice: [4, 1, 1, 6, 2] } } },
    );
    expect(res.errors).toBeUndefined();
    const tusk = res.data.arcanaBeastCommand as Answer;
    expect(find(tusk, 'AttackResolved')).toMatchObject({
      attack: { successes: 1, sides: 8 },
      dodge: { successes: 1, sides: 6 },
      outcome: 'miss',
      damage: 0,
    });
    expect(types(tusk)).not.toContain('DamageDealt');
    const view = await f.view(tusk.seq);
    expect(who(view, 'kit').hp).toBe(10);
    expect(who(view, 'boar').hp).toBe(15);
  });

  it('arcana-beast.txt: Attack & Damage (Critical Hit): given a hit with three dice showing 6+, when Kit rolls 6,6,6 (d6) and the Boar 8,7,6 (d8), then Base Damage doubles: 4·2 + 2 = 10 and 5·2 + 1 = 11; and a 6 that Setback drops does not count: 6,6,6,1 keeps two 6s, no Critical', async () => {
    const f = await newFight(t, { kit: { hp: 15 } });
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Kit: 6,6,6 = 3 successes, three 6s (A2). Boar’s Dodge 4,1 = 1. Hit, Critical: 4·2 + (3 − 1) = 10. Boar 20 → 10.
    const crit = await f.gm({ type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [6, 6, 6, 4, 1] });
    expect(find(crit, 'AttackResolved')).toMatchObject({
      attack: { successes: 3, sixes: 3 },
      dodge: { successes: 1 },
      outcome: 'hit',
      critical: true,
      baseDamage: 4,
      extraSuccesses: 2,
      damage: 10,
    });
    expect(find(crit, 'DamageDealt')).toMatchObject({ combatantId: 'boar', hpBefore: 20, hp: 10 });
    await f.gm({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    // Boar on d8: 8, 7, 6 are all "6+" (text: "3+ faces showing 6+"): 3 successes, 3 sixes.
    // Kit’s Dodge 5,4 = 2. Hit, Critical: 5·2 + (3 − 2) = 11. Kit 15 → 4.
    const gore = await f.gm({ type: 'Attack', attackerId: 'boar', targetId: 'kit', dice: [8, 7, 6, 5, 4] });
    expect(find(gore, 'AttackResolved')).toMatchObject({
      attack: { sides: 8, successes: 3, sixes: 3 },
      dodge: { successes: 2 },
      critical: true,
      baseDamage: 5,
      extraSuccesses: 1,
      damage: 11,
    });
    expect(who(gore.view, 'kit').hp).toBe(4);
    await f.gm({ type: 'EndActivation' });

    // Round 2, the Boar Obscured (Setback on attacks against it): Kit rolls 4 d6 6,6,6,1 and Setback drops a 6.
    // A12: successes and 6+ faces count on kept dice only: 6,6,1 = 2 successes, two 6s: no Critical.
    // Dodge 1,1 = 0. Damage 4 + 2 = 6. Boar 10 → 4.
    await f.gm({ type: 'SetTag', combatantId: 'boar', tag: 'obscured' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const blurred = await f.gm({
      type: 'Attack',
      attackerId: 'kit',
      targetId: 'boar',
      dice: [6, 6, 6, 1, 1, 1],
    });
    expect(find(blurred, 'AttackResolved')).toMatchObject({
      attack: {
        dice: 3,
        edge: 'setback',
        dropped: { index: 0, face: 6 },
        kept: [6, 6, 1],
        successes: 2,
        sixes: 2,
      },
      critical: false,
      damage: 6,
    });
    expect(who(blurred.view, 'boar').hp).toBe(4);
  });

  it('arcana-beast.txt: Actions in Combat (Defend): given Kit Defends, when the Boar’s 5,4,1 meets Kit’s Dodge 1,4,4, then the Dodge has Boost (drop the 1: 2 successes) and it is a miss; and given Kit Cornered and Defending, when it dodges 6,1, then Boost and Setback cancel: 2 dice, 1 success, hit for 5 + 1 = 6', async () => {
    const f = await newFight(t);
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const defend = await f.gm({ type: 'Defend', combatantId: 'kit' });
    expect(find(defend, 'ActionTaken')).toMatchObject({ combatantId: 'kit', action: 'defend' });
    expect(who(defend.view, 'kit').defending).toBe(true);
    await f.gm({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    // Boar 5,4,1 = 2. Kit’s Dodge: Agility 2 + Boost = 3 d6 1,4,4, drop the lowest → 4,4 = 2. 2 ≥ 2: miss.
    const first = await f.gm({
      type: 'Attack',
      attackerId: 'boar',
      targetId: 'kit',
      dice: [5, 4, 1, 1, 4, 4],
    });
    expect(find(first, 'AttackResolved')).toMatchObject({
      attack: { successes: 2 },
      dodge: { dice: 2, edge: 'boost', dropped: { index: 0, face: 1 }, kept: [4, 4], successes: 2 },
      outcome: 'miss',
      damage: 0,
    });
    await f.gm({ type: 'EndActivation' });

    // Round 2: the GM corners Kit ("Dodge with Setback"); Kit Defends again (A12: Defend + Cornered cancel).
    await f.gm({ type: 'SetTag', combatantId: 'kit', tag: 'cornered' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    await f.gm({ type: 'Defend', combatantId: 'kit' });
    await f.gm({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    // Boar 5,4,1 = 2. Kit’s Dodge: 2 d6, no net edge, 6,1 = 1. Hit: 5 + (2 − 1) = 6. Kit 10 → 4.
    const second = await f.gm({ type: 'Attack', attackerId: 'boar', targetId: 'kit', dice: [5, 4, 1, 6, 1] });
    const resolved = find(second, 'AttackResolved');
    expect(resolved).toMatchObject({
      dodge: { dice: 2, edge: 'none', roll: { faces: [6, 1] }, kept: [6, 1], successes: 1 },
      outcome: 'hit',
      damage: 6,
    });
    expect(resolved.dodge.boostSources).toHaveLength(1);
    expect(resolved.dodge.setbackSources).toHaveLength(1);
    expect(who(await f.view(second.seq), 'kit').hp).toBe(4);
  });

  it('arcana-beast.txt: Positioning in Combat (Flanking, Cornered): given Kit and its ally Moss both flanking the cornered Boar, when Kit rolls 4,4,4,1 against 8,4,1, then Kit has +1 attack die (3 successes), the Boar’s Dodge drops its highest die (1 success): 4 + 2 = 6; then Moss’s combo adds a die and 1 damage: 4 + 2 + 1 = 7; and the cornered Boar cannot Reposition', async () => {
    // "Flanking: Two allies on opposite sides both gain +1 attack die": the GM tags both flankers; a lone
    // flanker gains nothing (ruling A50, docs/rulings-arcana-beast.md).
    const f = await newFight(t, { more: [{ id: 'moss', name: 'Moss', side: 'heroes', sheet: kitSheet() }] });
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'moss', 'boar'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'SetTag', combatantId: 'kit', tag: 'flanking', againstId: 'boar' });
    await f.gm({ type: 'SetTag', combatantId: 'moss', tag: 'flanking', againstId: 'boar' });
    const cornered = await f.gm({ type: 'SetTag', combatantId: 'boar', tag: 'cornered' });
    expect(who(cornered.view, 'kit').tags).toMatchObject([{ tag: 'flanking', againstId: 'boar' }]);
    expect(who(cornered.view, 'boar').tags).toMatchObject([{ tag: 'cornered' }]);
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Attack: Brawn 3 + Flanking 1 = 4 d6: 4,4,4,1 = 3. Dodge: Agility 2 + Setback = 3 d8 8,4,1 → drop the 8 → 4,1 = 1.
    // Damage 4 + (3 − 1) = 6. Boar 20 → 14.
    const bite = await f.gm({
      type: 'Attack',
      attackerId: 'kit',
      targetId: 'boar',
      dice: [4, 4, 4, 1, 8, 4, 1],
    });
    const resolved = find(bite, 'AttackResolved');
    expect(resolved).toMatchObject({
      attack: { dice: 4, edge: 'none', roll: { faces: [4, 4, 4, 1] }, successes: 3 },
      dodge: { dice: 2, edge: 'setback', dropped: { index: 0, face: 8 }, kept: [4, 1], successes: 1 },
      damage: 6,
    });
    expect(resolved.attack.bonuses).toMatchObject([{ dice: 1 }]);
    expect(who(bite.view, 'boar').hp).toBe(14);
    await f.gm({ type: 'EndActivation' });
    // Moss next, on the same Boar (Combo Attacks: "Second attacker gains +1 die"; "If both hit, second attack deals
    // +1 extra damage"): Brawn 3 + Flanking 1 + combo 1 = 5 d6 4,4,1,1,1 = 2. Dodge 3 d8 8,1,1 → drop the 8 → 0.
    // Damage 4 + 2 + 1 = 7. Boar 14 → 7.
    await f.gm({ type: 'SetBand', aId: 'moss', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartActivation' });
    const second = await f.gm({
      type: 'Attack',
      attackerId: 'moss',
      targetId: 'boar',
      dice: [4, 4, 1, 1, 1, 8, 1, 1],
    });
    expect(find(second, 'AttackResolved')).toMatchObject({
      attack: { dice: 5, successes: 2 },
      dodge: { edge: 'setback', successes: 0 },
      combo: { position: 2, dieBonus: 1, damageBonus: 1 },
      damage: 7,
    });
    expect(who(second.view, 'boar').hp).toBe(7);
    await f.gm({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    // "Cornered: Cannot Reposition".
    for (const cmd of [{ towardId: 'kit', band: 'far' }, {}]) {
      const refused = await f.gm({ type: 'Reposition', combatantId: 'boar', ...cmd }, 422);
      expect(refused.code).toBe('ARCANA_CORNERED');
    }
  });

  it('arcana-beast.txt: die size scales with Stage: given beasts at Stages 0–4 and a Binder, then they roll d6, d6, d8, d10, d12 and the Binder d6; when Kit evolves from Stage 1 to its lower unlocked Stage 2 (free), then it rolls d8 and deals Brawn + 2', async () => {
    const wild = (id: string, stage: number) => ({
      id,
      name: id,
      side: 'wild',
      sheet: boarSheet({ stage, stages: [{ stage }] }),
    });
    const f = await newFight(t, {
      kit: { stages: [{ stage: 0 }, { stage: 1 }, { stage: 2 }, { stage: 3, trigger: 'Rue in danger' }] },
      more: [wild('pup', 0), wild('elder', 3), wild('ancient', 4)],
    });
    const order = ['kit', 'rue', 'boar', 'pup', 'elder', 'ancient'];
    const set = await f.gm({ type: 'SetInitiative', order });
    // Base Damage = Brawn 3 + Stage.
    const expected = { pup: [6, 3], kit: [6, 4], boar: [8, 5], elder: [10, 6], ancient: [12, 7] };
    for (const [id, [dieSides, baseDamage]] of Object.entries(expected)) {
      expect(who(set.view, id)).toMatchObject({ dieSides, baseDamage });
    }
    expect(who(set.view, 'rue').dieSides).toBe(6);
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // "Lower unlocked Stages cost nothing"; "Evolving is immediate – does not take an Action".
    const evolved = await f.gm({ type: 'Evolve', combatantId: 'kit', stage: 2 });
    expect(find(evolved, 'StageEvolved')).toMatchObject({
      combatantId: 'kit',
      from: 1,
      to: 2,
      highest: false,
    });
    expect(who(evolved.view, 'kit')).toMatchObject({ stage: 2, dieSides: 8, baseDamage: 5 });
    // A d8 face of 9 is no face.
    const nine = await f.gm(
      { type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [9, 7, 1, 4, 1] },
      422,
    );
    expect(nine).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[0]' });
    // Kit on d8: 8,7,1 = 2 successes (two 6+). Boar 4,1 = 1. Damage 5 + 1 = 6. Boar 20 → 14.
    const bite = await f.gm({ type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [8, 7, 1, 4, 1] });
    expect(find(bite, 'AttackResolved')).toMatchObject({
      attack: { sides: 8, successes: 2, sixes: 2 },
      critical: false,
      baseDamage: 5,
      damage: 6,
    });
  });

  it('arcana-beast.txt: Knockout & Devolution: given Kit at Stage 2 with 4 HP, when the Boar hits it for 5 + 2 = 7 and Kit’s player rolls the Endurance Test 8,4,3 on d8, then Kit is Knocked Out, the Gauge goes 0 → 1, it gains a Harm, and 2 successes < Diff 3 devolve it to Stage 0', async () => {
    const f = await newFight(t, { kit: { stage: 2, hp: 4 } });
    const rue = await f.player('rue');
    await f.gm({ type: 'SetInitiative', order: ['boar', 'kit', 'rue'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Boar 5,4,1 = 2; Kit’s Dodge on d8 (Stage 2) 1,2 = 0. Damage 5 + 2 = 7; Kit 4 → 0.
    const gore = await f.gm({ type: 'Attack', attackerId: 'boar', targetId: 'kit', dice: [5, 4, 1, 1, 2] });
    expect(find(gore, 'AttackResolved')).toMatchObject({ dodge: { sides: 8, successes: 0 }, damage: 7 });
    expect(find(gore, 'DamageDealt')).toMatchObject({ combatantId: 'kit', hpBefore: 4, hp: 0 });
    expect(find(gore, 'KnockedOut')).toEqual({ combatantId: 'kit', playerSide: true });
    expect(find(gore, 'CriticalGaugeRaised')).toMatchObject({ from: 0, to: 1 });
    expect(find(gore, 'HarmGained')).toMatchObject({ combatantId: 'kit' });
    // The Devolution Test is the beast’s player’s roll: Endurance 3 dice of the current Stage’s die (d8).
    expect(gore.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'rue',
      answer: 'ProvideDice',
      detail: { commandType: 'DevolutionTest', field: 'followUpFaces', count: 3, sides: 8 },
    });
    // 8,4,3 = 2 successes < Diff 3: fail, Stage 0.
    const test = await rue({ type: 'ProvideDice', followUpFaces: [8, 4, 3] });
    expect(find(test, 'DevolutionTested')).toMatchObject({
      combatantId: 'kit',
      stageBefore: 2,
      test: {
        stat: 'endurance',
        statValue: 3,
        dice: 3,
        sides: 8,
        successes: 2,
        difficulty: 3,
        passed: false,
      },
      stageAfter: 0,
      reason: 'knockedOut',
    });
    expect(find(test, 'StageDevolved')).toEqual({ combatantId: 'kit', from: 2, to: 0, reason: 'knockedOut' });
    const view = await f.view(test.seq);
    expect(view.criticalGauge).toBe(1);
    expect(view.pending).toBeNull();
    expect(who(view, 'kit')).toMatchObject({ state: 'KnockedOut', hp: 0, stage: 0, dieSides: 6 });
    expect(who(view, 'kit').harms).toHaveLength(1);
  });

  it('arcana-beast.txt: Critical Gauge thresholds: given three boars, when they knock out Kit (Stage 1, its Devolution Test 4,4,1: 2 ≥ Diff 2, it stays), Rue and Fen, then the Gauge goes 1, 2, 3 and only the third emits the Minor Critical Move', async () => {
    const hero = (id: string, sheet: object) => ({ id, name: id, side: 'heroes', sheet });
    const boar = (id: string) => ({ id, name: id, side: 'wild', sheet: boarSheet() });
    const f = await newFight(t, {
      combatants: [
        hero('kit', kitSheet({ hp: 1 })),
        hero('rue', rueSheet('kit', { hp: 1 })),
        hero('moss', kitSheet({ hp: 9 })),
        hero('fen', rueSheet('moss', { hp: 1 })),
        boar('boar'),
        boar('boar2'),
        boar('boar3'),
      ],
    });
    await f.gm({ type: 'SetInitiative', order: ['boar', 'boar2', 'boar3', 'kit', 'rue', 'moss', 'fen'] });
    // A Binder shares its beast’s bands (A14): Close to Kit is Close to Rue.
    await f.gm({ type: 'SetBand', aId: 'boar', bId: 'kit', band: 'close' });
    await f.gm({ type: 'SetBand', aId: 'boar2', bId: 'kit', band: 'close' });
    await f.gm({ type: 'SetBand', aId: 'boar3', bId: 'moss', band: 'close' });
    await f.gm({ type: 'StartRound' });
    // Each boar: 4,1,1 = 1 success against a Dodge of 1,1 = 0: 5 + 1 = 6 damage, enough for 1 HP.
    await f.gm({ type: 'StartActivation' });
    const first = await f.gm({ type: 'Attack', attackerId: 'boar', targetId: 'kit', dice: [4, 1, 1, 1, 1] });
    expect(find(first, 'CriticalGaugeRaised')).toMatchObject({ combatantId: 'kit', from: 0, to: 1 });
    expect(types(first)).not.toContain('CriticalMoveTriggered');
    // Stage 1: Endurance Test Diff 2: 4,4,1 = 2: pass, stays Stage 1. The GM may roll it (C3).
    const test = await f.gm({ type: 'ProvideDice', followUpFaces: [4, 4, 1] });
    expect(find(test, 'DevolutionTested')).toMatchObject({
      stageBefore: 1,
      test: { sides: 6, successes: 2, difficulty: 2, passed: true },
      stageAfter: 1,
    });
    expect(types(test)).not.toContain('StageDevolved');
    await f.gm({ type: 'EndActivation' });

    await f.gm({ type: 'StartActivation' });
    // Rue’s beast is Knocked Out, so nobody can intercept; Rue (a Binder, d6) dodges 1,1.
    const second = await f.gm({
      type: 'Attack',
      attackerId: 'boar2',
      targetId: 'rue',
      dice: [4, 1, 1, 1, 1],
    });
    expect(find(second, 'KnockedOut')).toEqual({ combatantId: 'rue', playerSide: true });
    expect(find(second, 'CriticalGaugeRaised')).toMatchObject({ combatantId: 'rue', from: 1, to: 2 });
    expect(types(second)).not.toContain('CriticalMoveTriggered');
    expect(types(second)).not.toContain('DevolutionTested');
    await f.gm({ type: 'EndActivation' });

    await f.gm({ type: 'StartActivation' });
    // Moss could intercept for Fen; it does not (answered in advance).
    const third = await f.gm({
      type: 'Attack',
      attackerId: 'boar3',
      targetId: 'fen',
      intercept: false,
      dice: [4, 1, 1, 1, 1],
    });
    expect(find(third, 'CriticalGaugeRaised')).toMatchObject({ combatantId: 'fen', from: 2, to: 3 });
    expect(find(third, 'CriticalMoveTriggered')).toEqual({
      threshold: 3,
      tier: 'minor',
      meaning: 'Minor Critical Move (complication)',
      gauge: 3,
    });
    expect((await f.view(third.seq)).criticalGauge).toBe(3);
  });

  it('arcana-beast.txt: Beast Binder Commands (Encourage, Strategize, Bond Surge): given Rue’s Encourage 1,2,4 (Spirit 3, Diff 1: pass), when the Boar’s 5,4,1 meets Kit’s Dodge 4,4,1, then Kit dodges with 3 dice and it is a miss; given the Boar Obscured and Rue’s Strategize 4,5 (Technique 2, Diff 2: pass), when Kit attacks 5,4,1, then no Setback: 4 + 2 = 6; given Rue’s Bond Surge, when Kit attacks 1,5,4,4, then Boost drops the 1: 4 + 2 = 6 and Kit’s Stamina goes 2 → 1', async () => {
    const f = await newFight(t);
    const rue = await f.player('rue');
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Spirit 3 d6: 1,2,4 = 1 success ≥ Diff 1.
    const encourage = await rue({ type: 'Encourage', combatantId: 'rue', dice: [1, 2, 4] });
    expect(find(encourage, 'BinderCommanded')).toMatchObject({
      command: 'encourage',
      effect: 'dodgeDie',
      test: { stat: 'spirit', statValue: 3, dice: 3, sides: 6, successes: 1, difficulty: 1, passed: true },
      passed: true,
    });
    expect(who(encourage.view, 'kit').encourageDodge).toBe(1);
    await rue({ type: 'Pass', combatantId: 'kit' });
    await rue({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    // Boar 5,4,1 = 2. Kit’s Dodge: Agility 2 + 1 = 3 d6 4,4,1 = 2. Miss.
    const gore = await f.gm({
      type: 'Attack',
      attackerId: 'boar',
      targetId: 'kit',
      dice: [5, 4, 1, 4, 4, 1],
    });
    expect(find(gore, 'AttackResolved')).toMatchObject({
      dodge: { dice: 3, roll: { faces: [4, 4, 1] }, successes: 2 },
      outcome: 'miss',
    });
    expect(find(gore, 'BonusDiceUsed')).toMatchObject({ combatantId: 'kit', source: 'Encourage', dice: 1 });
    expect(who(gore.view, 'kit').encourageDodge).toBe(0);
    await f.gm({ type: 'EndActivation' });

    // Round 2: the Boar is Obscured ("Attacks against you made with Setback").
    await f.gm({ type: 'SetTag', combatantId: 'boar', tag: 'obscured' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // Technique 2 d6: 4,5 = 2 ≥ Diff 2: "Ignore enemy positioning benefit".
    const strategize = await rue({ type: 'Strategize', combatantId: 'rue', dice: [4, 5] });
    expect(find(strategize, 'BinderCommanded')).toMatchObject({
      command: 'strategize',
      test: { stat: 'technique', statValue: 2, dice: 2, successes: 2, difficulty: 2, passed: true },
    });
    expect(strategize.view.turn.strategized).toBe(true);
    // Kit: 3 d6, no Setback: 5,4,1 = 2. Boar 1,1 = 0. Damage 4 + 2 = 6. Boar 20 → 14.
    const bite = await rue({ type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [5, 4, 1, 1, 1] });
    expect(find(bite, 'AttackResolved')).toMatchObject({
      attack: { dice: 3, edge: 'none', roll: { faces: [5, 4, 1] }, successes: 2 },
      damage: 6,
    });
    expect(who(bite.view, 'boar').hp).toBe(14);
    await rue({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    await f.gm({ type: 'EndActivation' });

    // Round 3: the GM clears Obscured; Rue Bond Surges: "Boost on ALL rolls this turn, costs 1 Stamina (no roll)",
    // the beast’s Stamina (A11).
    await f.gm({ type: 'ClearTag', combatantId: 'boar', tag: 'obscured' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const surge = await rue({ type: 'BondSurge', combatantId: 'rue' });
    expect(find(surge, 'BinderCommanded')).toMatchObject({
      binderId: 'rue',
      beastId: 'kit',
      command: 'bondSurge',
    });
    expect(find(surge, 'StaminaSpent')).toEqual({ combatantId: 'kit', amount: 1, stamina: 1 });
    expect(surge.view.turn).toMatchObject({
      beastId: 'kit',
      binderId: 'rue',
      command: 'bondSurge',
      bondSurge: true,
    });
    // A3: Boost = one extra die, drop the lowest: 3 + 1 = 4 d6 1,5,4,4 → drop the 1 → 5,4,4 = 3 successes.
    // Dodge 4,1 = 1. Damage 4 + (3 − 1) = 6. Boar 14 → 8.
    const surged = await rue({
      type: 'Attack',
      attackerId: 'kit',
      targetId: 'boar',
      dice: [1, 5, 4, 4, 4, 1],
    });
    const resolved = find(surged, 'AttackResolved');
    expect(resolved).toMatchObject({
      attack: {
        dice: 3,
        edge: 'boost',
        roll: { faces: [1, 5, 4, 4] },
        dropped: { index: 0, face: 1 },
        kept: [5, 4, 4],
        successes: 3,
      },
      dodge: { dice: 2, edge: 'none', successes: 1 },
      damage: 6,
    });
    expect(resolved.attack.boostSources).toHaveLength(1);
    expect(who(surged.view, 'boar').hp).toBe(8);
    expect(who(surged.view, 'kit').stamina).toBe(1);
  });

  it('arcana-beast.txt: Beast Binder Commands (Use Item, Call Back): given Kit at 8 of 10 HP, when Rue uses the Tonic (heal 3), then Kit has 10 HP; given Kit at Stage 2, when Rue calls it back to devolve and its Endurance Test with Boost rolls 3,8,4,5 (drop the 3: 3 successes ≥ Diff 3), then Kit devolves to Stage 1', async () => {
    const f = await newFight(t, { kit: { stage: 2, hp: 8, maxHp: 10 } });
    const rue = await f.player('rue');
    await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const item = await rue({ type: 'UseItem', combatantId: 'rue', itemId: 'tonic' });
    // 8 + 3 = 11, capped at the sheet’s 10: 2 restored.
    expect(find(item, 'HpRestored')).toEqual({ combatantId: 'kit', amount: 2, hpBefore: 8, hp: 10 });
    expect(find(item, 'ItemUsed')).toMatchObject({
      binderId: 'rue',
      itemId: 'tonic',
      quantityLeft: 0,
      targetId: 'kit',
    });
    expect(who(item.view, 'rue').inventory).toMatchObject([{ id: 'tonic', quantityLeft: 0 }]);
    await rue({ type: 'Pass', combatantId: 'kit' });
    await rue({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    await f.gm({ type: 'EndActivation' });

    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    // "Call Back: (Devolve/Retreat with Boost; no roll)"; A3: the Devolution Test it causes rolls with Boost.
    // From Stage 2: Endurance 3 + Boost = 4 d8: 3,8,4,5 → drop the 3 → 8,4,5 = 3 ≥ Diff 3: pass, Stage 1.
    const back = await rue({
      type: 'CallBack',
      combatantId: 'rue',
      mode: 'devolve',
      followUpFaces: [3, 8, 4, 5],
    });
    expect(find(back, 'CalledBack')).toEqual({ binderId: 'rue', beastId: 'kit', mode: 'devolve' });
    expect(find(back, 'DevolutionTested')).toMatchObject({
      combatantId: 'kit',
      stageBefore: 2,
      test: {
        stat: 'endurance',
        dice: 3,
        sides: 8,
        edge: 'boost',
        dropped: { index: 0, face: 3 },
        kept: [8, 4, 5],
        successes: 3,
        difficulty: 3,
        passed: true,
      },
      stageAfter: 1,
      reason: 'callBack',
    });
    expect(find(back, 'StageDevolved')).toEqual({ combatantId: 'kit', from: 2, to: 1, reason: 'callBack' });
    expect(who(back.view, 'kit')).toMatchObject({ stage: 1, dieSides: 6 });
  });

  it('arcana-beast.txt: If beastbinder is targeted Arcana Beast can intercept: given the Boar attacks Rue, when Kit intercepts and the Boar’s 5,5,1 meets Kit’s Dodge 4,1, then Kit takes 5 + 1 = 6 and loses its next Action', async () => {
    const f = await newFight(t);
    const rue = await f.player('rue');
    await f.gm({ type: 'SetInitiative', order: ['boar', 'kit', 'rue'] });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'close' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const declared = await f.gm({ type: 'Attack', attackerId: 'boar', targetId: 'rue' });
    expect(declared.view.pending).toMatchObject({ kind: 'intercept', awaiting: 'kit', answer: 'Intercept' });
    expect(declared.view.pendingAttack).toMatchObject({ attackerId: 'boar', targetId: 'rue' });
    // Kit becomes the target and dodges: Boar 3 d8 5,5,1 = 2; Kit 2 d6 4,1 = 1. Damage 5 + 1 = 6; Kit 10 → 4.
    const taken = await rue({
      type: 'Intercept',
      combatantId: 'kit',
      intercept: true,
      dice: [5, 5, 1, 4, 1],
    });
    expect(find(taken, 'InterceptDecided')).toMatchObject({
      combatantId: 'kit',
      binderId: 'rue',
      intercept: true,
    });
    expect(find(taken, 'AttackResolved')).toMatchObject({
      targetId: 'kit',
      declaredTargetId: 'rue',
      redirectedBy: 'intercept',
      dodge: { combatantId: 'kit', sides: 6, successes: 1 },
      damage: 6,
    });
    expect(who(taken.view, 'kit')).toMatchObject({ hp: 4, interceptOwed: true });
    expect(who(taken.view, 'rue').hp).toBe(8);
    await f.gm({ type: 'EndActivation' });
    // A15: "Intercept ... costs its next Action".
    const turn = await f.gm({ type: 'StartActivation' });
    expect(find(turn, 'TurnStarted')).toMatchObject({ combatantId: 'kit', actionForfeited: 'intercept' });
    const refused = await rue(
      { type: 'Attack', attackerId: 'kit', targetId: 'boar', dice: [4, 4, 4, 1, 1] },
      422,
    );
    expect(refused.code).toBe('ARCANA_ACTION_USED');
  });

  it('arcana-beast.txt: Initiative & Turn Order (Ties): given Kit (Agility 2, d6) and the Boar (Agility 2, d8), when they roll 4,1 and 6,2 (1 success each), then the GM must decide; when the GM calls for another roll, 5,6 against 1,8, then Kit (2) acts before the Boar (1), Rue sharing Kit’s turn; and a surprised Boar’s 8,4,4 drops the 8 (Setback): 2 beats Kit’s 1', async () => {
    const f = await newFight(t);
    const rolled = await f.gm({ type: 'RollInitiative', dice: [4, 1, 6, 2] });
    const init = find(rolled, 'InitiativeRolled');
    expect(init.rolls).toMatchObject([
      { combatantId: 'kit', roll: { sides: 6, faces: [4, 1] }, total: 1 },
      { combatantId: 'boar', roll: { sides: 8, faces: [6, 2] }, total: 1 },
    ]);
    expect(init.unresolvedTies).toEqual([['kit', 'boar']]);
    expect(rolled.view.pending).toMatchObject({ kind: 'initiativeTie', awaiting: 'gm' });
    // Nothing else goes on while the decision waits (C4).
    expect((await f.gm({ type: 'StartRound' }, 422)).code).toBe('PENDING_DECISION');
    const reroll = await f.gm({ type: 'RerollInitiative', dice: [5, 6, 1, 8] });
    expect(find(reroll, 'InitiativeTieRerolled')).toMatchObject({
      rolls: [
        { combatantId: 'kit', total: 2 },
        { combatantId: 'boar', total: 1 },
      ],
      order: ['kit', 'rue', 'boar'],
      unresolvedTies: [],
    });
    expect(reroll.view.initiative).toEqual(['kit', 'rue', 'boar']);
    expect(reroll.view.pending).toBeNull();

    // "Surprised characters roll with Setback": Kit 4,1 = 1; the surprised Boar 3 d8 8,4,4 → drop the 8 → 4,4 = 2.
    const other = await newFight(t);
    const surprise = await other.gm({ type: 'RollInitiative', surprised: ['boar'], dice: [4, 1, 8, 4, 4] });
    expect(find(surprise, 'InitiativeRolled')).toMatchObject({
      rolls: [
        { combatantId: 'kit', total: 1 },
        { combatantId: 'boar', roll: { sides: 8, faces: [8, 4, 4] }, total: 2 },
      ],
      order: ['boar', 'kit', 'rue'],
      unresolvedTies: [],
    });
  });

  it('arcana-beast.txt: Movement & Range: given Kit Far from the Boar, when it moves one band free, then it is refused (Far needs Reposition); when it Repositions to Close, then both bands (and Rue’s) are Close; then its free move Close → Far (two bands) is refused, Close → Near is free, a second free move is refused, and next turn Near → Far is free', async () => {
    const f = await newFight(t);
    const rue = await f.player('rue');
    const set = await f.gm({ type: 'SetInitiative', order: ['kit', 'rue', 'boar'] });
    // Unset bands are Near; a Binder and its own beast are Close.
    expect(who(set.view, 'kit').bands).toMatchObject({ boar: 'near', rue: 'close' });
    await f.gm({ type: 'SetBand', aId: 'kit', bId: 'boar', band: 'far' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const leaveFar = await rue({ type: 'Move', combatantId: 'kit', towardId: 'boar', band: 'near' }, 422);
    expect(leaveFar.code).toBe('ARCANA_REPOSITION_NEEDED');
    const repo = await rue({ type: 'Reposition', combatantId: 'kit', towardId: 'boar', band: 'close' });
    expect(find(repo, 'Moved')).toMatchObject({
      combatantId: 'kit',
      towardId: 'boar',
      from: 'far',
      to: 'close',
      by: 'reposition',
    });
    expect(who(repo.view, 'kit').bands.boar).toBe('close');
    expect(who(repo.view, 'boar').bands.kit).toBe('close');
    expect(who(repo.view, 'rue').bands.boar).toBe('close');
    // "Two bands in one turn requires Reposition action" (the Action is spent).
    const twoBands = await rue({ type: 'Move', combatantId: 'kit', towardId: 'boar', band: 'far' }, 422);
    expect(twoBands.code).toBe('ARCANA_REPOSITION_NEEDED');
    // "Move one band for free per turn".
    const step = await rue({ type: 'Move', combatantId: 'kit', towardId: 'boar', band: 'near' });
    expect(find(step, 'Moved')).toMatchObject({ from: 'close', to: 'near', by: 'free' });
    expect(step.view.turn.freeMoveUsed).toBe(true);
    const again = await rue({ type: 'Move', combatantId: 'kit', towardId: 'boar', band: 'close' }, 422);
    expect(again.code).toBe('ARCANA_FREE_MOVE_USED');
    await rue({ type: 'EndActivation' });
    await f.gm({ type: 'StartActivation' });
    await f.gm({ type: 'EndActivation' });
    await f.gm({ type: 'StartRound' });
    await f.gm({ type: 'StartActivation' });
    const away = await rue({ type: 'Move', combatantId: 'kit', towardId: 'boar', band: 'far' });
    expect(find(away, 'Moved')).toMatchObject({ from: 'near', to: 'far', by: 'free' });
    expect(who(await f.view(away.seq), 'rue').bands.boar).toBe('far');
  });
});
