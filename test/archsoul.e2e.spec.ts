import { useApp } from './support/app';
import { overGraphql } from './support/fight-calls';
import { skirmish, skirmishOpening } from './support/archsoul-sheets';

const setup = skirmish({ mode: 'manual' });

describe('Archsoul end to end: a skirmish on a hex map with manual dice', () => {
  const t = useApp();

  it('through REST: movement around a foe, a reactive attack, long-range fire, a critical failure, refusals', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId;
    const send = (cmd: Record<string, unknown>, status = 200) =>
      t.http.post(`/fights/${id}/commands`).send(cmd).expect(status);
    let seq = 0;
    for (const cmd of skirmishOpening) seq = (await send(cmd)).body.seq;
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
    const { fightId: id, send } = await overGraphql(t, setup);
    for (const cmd of skirmishOpening) await send(cmd);
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

  it('S17: GET /systems/archsoul, the OpenAPI document and ArchsoulCommandInput offer no StartActivation or EndActivation; sent anyway, each is 422 ARCHSOUL_USE_PHASES naming type over REST and GraphQL, and nothing is appended', async () => {
    const system = (await t.http.get('/systems/archsoul').expect(200)).body;
    const listed = system.commands.map((c: { type: string }) => c.type);
    expect(listed).toEqual(expect.arrayContaining(['StartRound', 'EndTurn', 'EndPhase']));
    const openapi = (await t.anon.get('/openapi.json').expect(200)).body;
    const schemas = Object.keys(openapi.components.schemas);
    expect(schemas).toContain('ArchsoulEndTurnCommand');
    const input = await t.gql(`{ __type(name: "ArchsoulCommandInput") { inputFields { name } } }`);
    const fields = input.data.__type.inputFields.map((f: { name: string }) => f.name);
    expect(fields).toContain('endTurn');
    for (const type of ['StartActivation', 'EndActivation']) {
      expect(listed).not.toContain(type);
      expect(schemas).not.toContain(`Archsoul${type}Command`);
      expect(fields).not.toContain(type[0].toLowerCase() + type.slice(1));
    }

    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId;
    let seq = 0;
    for (const cmd of skirmishOpening)
      seq = (await t.http.post(`/fights/${id}/commands`).send(cmd).expect(200)).body.seq;
    for (const type of ['StartActivation', 'EndActivation']) {
      const rest = await t.http.post(`/fights/${id}/commands`).send({ type }).expect(422);
      expect(rest.body).toMatchObject({ code: 'ARCHSOUL_USE_PHASES', field: 'type' });
      const gql = await t.gql(
        `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }`,
        { f: id, i: { type } },
      );
      expect(gql.errors?.[0]?.extensions).toMatchObject({
        statusCode: 422,
        code: 'ARCHSOUL_USE_PHASES',
        field: 'type',
      });
    }
    // The typed mutation has no field for it: GraphQL refuses the input before the fight sees it.
    const typed = await t.gql(
      `mutation($f: ID!, $c: ArchsoulCommandInput!) { archsoulCommand(fightId: $f, command: $c) { seq } }`,
      { f: id, c: { startActivation: {} } },
    );
    expect(typed.errors?.[0]?.message).toMatch(/startActivation/);
    expect((await t.http.get(`/fights/${id}?minSeq=${seq}`).expect(200)).body.seq).toBe(seq);
  });
});
