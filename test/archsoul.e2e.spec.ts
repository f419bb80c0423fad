import { useApp } from './support/app';

const sword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
const bow = {
  id: 'bow',
  name: 'Longbow',
  type: 'ranged',
  damage: 2,
  accurateRange: 5,
  maximumRange: 10,
  ammunition: { kind: 'arrow', count: 5 },
};
const base = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
  maxHp: 10,
  defense: 1,
};
const setup = {
  system: 'archsoul',
  name: 'Skirmish at the ford',
  dice: { mode: 'manual' },
  options: { arrowBreakage: false },
  combatants: [
    { id: 'kael', name: 'Kael', side: 'heroes', sheet: { ...base, weapons: [sword] } },
    { id: 'ilsa', name: 'Ilsa', side: 'heroes', sheet: { ...base, weapons: [bow] } },
    { id: 'brute', name: 'Brute', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...base, defense: 0, weapons: [sword] } },
  ],
};
const opening = [
  {
    type: 'SetMap',
    grid: 'hex',
    walls: [
      [
        { x: 3, y: -4 },
        { x: 3, y: -5 },
      ],
    ],
  },
  { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: -2, y: 1 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: -1, y: -7 }, facing: 'S' },
  { type: 'SetInitiative', order: ['kael', 'ilsa', 'brute', 'scout'] },
  { type: 'StartRound' },
];

describe('Archsoul end to end: a skirmish on a hex map with manual dice', () => {
  const t = useApp();

  it('through REST: movement around a foe, a reactive attack, long-range fire, a critical failure, refusals', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId;
    const send = (cmd: Record<string, unknown>, status = 200) =>
      t.http.post(`/fights/${id}/commands`).send(cmd).expect(status);
    let seq = 0;
    for (const cmd of opening) seq = (await send(cmd)).body.seq;
    // The fight view is a projection: read past our own last write.
    let view = (await t.http.get(`/fights/${id}?minSeq=${seq}`).expect(200)).body.view;
    expect(view.phase).toMatchObject({ party: 'heroes', combatantIds: ['kael', 'ilsa'] });

    // Kael steps around the Brute: leaving a space in its reach and front arc triggers a reactive attack.
    const moved = await send({
      type: 'Move',
      combatantId: 'kael',
      path: [
        { x: 1, y: -1 },
        { x: 1, y: -2 },
      ],
    });
    expect(moved.body.events.map((e: any) => e.type)).toEqual([
      'ApSpent',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(moved.body.view.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'brute' });
    await send({ type: 'EndTurn', combatantId: 'ilsa' }, 422);
    // Brute: 6,6,1,1 → 2 > Defense 1; damage 5 dice → 1; Kael's Endurance/Resolve 3,3,1 = 2 > 1: not prevented.
    const reacted = await send({
      type: 'ReactiveAttack',
      combatantId: 'brute',
      weaponId: 'sword',
      dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 3, 1],
    });
    expect(reacted.body.events.find((e: any) => e.type === 'PreventionRolled').data).toMatchObject({
      damage: 1,
      prevented: false,
    });
    const resumed = await send({ type: 'ResumeAction', combatantId: 'kael' });
    expect(resumed.body.view.combatants.find((c: any) => c.id === 'kael')).toMatchObject({
      position: { x: 1, y: -2 },
      hp: 9,
      ap: 2,
    });

    // Ilsa fires at the Scout at long range (8 spaces, beyond accurate range 5: difficulty 5).
    const shot = await send({
      type: 'Attack',
      attackerId: 'ilsa',
      targetId: 'scout',
      weaponId: 'bow',
      dice: [5, 6, 2, 2, 4, 4, 1],
    });
    const resolved = shot.body.events.find((e: any) => e.type === 'ExchangeResolved').data;
    expect(resolved).toMatchObject({ distance: 8, hit: true, attack: { difficulty: 5, successes: 2 } });
    expect(shot.body.events.find((e: any) => e.type === 'WoundsApplied').data).toMatchObject({
      combatantId: 'scout',
      damage: 2,
      hp: 8,
    });
    expect(shot.body.events.find((e: any) => e.type === 'ProjectileLanded').data).toMatchObject({
      space: { x: -1, y: -7 },
    });
    // Not enough AP for a second Attack (1 left): refused naming the rule.
    const poor = await send(
      { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow', dice: [1, 1, 1, 1] },
      422,
    );
    expect(poor.body).toMatchObject({ code: 'ARCHSOUL_NOT_ENOUGH_AP', field: 'type' });

    // Kael attacks the Brute from its back arc and fumbles: melee table 3, next attack harder.
    const fumble = await send({
      type: 'Attack',
      attackerId: 'kael',
      targetId: 'brute',
      weaponId: 'sword',
      dice: [1, 1, 1, 2],
      followUpFaces: [3],
    });
    expect(fumble.body.events.find((e: any) => e.type === 'CriticalFailureRolled').data).toMatchObject({
      table: 'melee',
      face: 3,
    });
    view = fumble.body.view;
    expect(view.combatants.find((c: any) => c.id === 'kael').conditions).toEqual([
      { condition: 'nextAttackHarder', amount: 1, untilNextTurn: false },
    ]);
    await send({ type: 'EndTurn', combatantId: 'kael' });
    const phase = await send({ type: 'EndTurn', combatantId: 'ilsa' });
    expect(phase.body.view.phase).toMatchObject({ party: 'enemies', combatantIds: ['brute', 'scout'] });
  });

  it('through GraphQL: the same opening and the reactive attack, with the same numbers', async () => {
    const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
      i: setup,
    });
    const id = created.data.createFight.fightId;
    const send = async ({ type, ...payload }: Record<string, unknown>) => {
      const res = await t.gql(
        `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq events { type data } view } }`,
        { f: id, i: { type, payload } },
      );
      expect(res.errors).toBeUndefined();
      return res.data.command;
    };
    for (const cmd of opening) await send(cmd);
    await send({
      type: 'Move',
      combatantId: 'kael',
      path: [
        { x: 1, y: -1 },
        { x: 1, y: -2 },
      ],
    });
    // A prevented step this time: Kael's roll 1 success does not exceed 1 damage.
    const reacted = await send({
      type: 'ReactiveAttack',
      combatantId: 'brute',
      weaponId: 'sword',
      dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 1, 1],
    });
    expect(reacted.events.map((e: any) => e.type)).toEqual([
      'ExchangeResolved',
      'WoundsApplied',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(reacted.view.combatants.find((c: any) => c.id === 'kael')).toMatchObject({
      position: { x: 0, y: 0 },
      hp: 9,
      ap: 2,
    });
    const refused = await t.gql(
      `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }`,
      { f: id, i: { type: 'Move', payload: { combatantId: 'brute', path: [{ x: 0, y: -2 }] } } },
    );
    expect(refused.errors?.[0]?.extensions?.code ?? refused.errors?.[0]?.message).toMatch(
      /ARCHSOUL_NOT_YOUR_TURN/,
    );
  });
});
