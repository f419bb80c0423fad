import { eventHash, GENESIS_HASH } from '@app/fights';
import { facesForDraw, seedCommitment } from '@app/rules';
import { removeDir, sheet, startApp, TestApp } from './support/app';
import { projected } from './support/read-side';

const duel = (mode = 'manual') => ({
  system: 'narateer',
  name: 'Duel',
  dice: { mode },
  combatants: [
    { id: 'mira', name: 'Mira', sheet: sheet(3) },
    { id: 'orin', name: 'Orin', sheet: sheet(1) },
  ],
});

const COMMAND = `mutation($fightId: ID!, $input: CommandInputGql!) { command(fightId: $fightId, input: $input) { seq replayed events { seq type data } view } }`;
const CREATE = `mutation($input: CreateFightInput!) { createFight(input: $input) { fightId seq events { seq type data } } }`;

describe('Platform through REST and GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('a fight created, set up and played through REST and through GraphQL produces the same events', async () => {
    const steps = [
      { type: 'AddCombatant', combatant: { id: 'veyr', name: 'Veyr', sheet: sheet(2) } },
      { type: 'RollInitiative', dice: [6, 6, 6, 1, 3, 3] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'AddNote', text: 'Mira presses forward' },
      { type: 'EndActivation' },
    ];
    const rest = await t.http.post('/fights').send(duel()).expect(201);
    const restEvents = [...rest.body.events];
    for (const step of steps)
      restEvents.push(
        ...(await t.http.post(`/fights/${rest.body.fightId}/commands`).send(step).expect(200)).body.events,
      );

    const created = await t.gql(CREATE, { input: duel() });
    expect(created.errors).toBeUndefined();
    const gqlId = created.data.createFight.fightId;
    const gqlEvents = [...created.data.createFight.events];
    for (const { type, ...payload } of steps) {
      const res = await t.gql(COMMAND, { fightId: gqlId, input: { type, payload } });
      expect(res.errors).toBeUndefined();
      gqlEvents.push(...res.data.command.events);
    }
    const strip = (e: any) => ({
      seq: e.seq,
      type: e.type,
      data: e.type === 'FightStarted' ? { ...e.data, dice: { ...e.data.dice, commitment: '' } } : e.data,
    });
    expect(gqlEvents.map(strip)).toEqual(restEvents.map(strip));
    const lifecycle = new Set([
      'FightStarted',
      'CombatantJoined',
      'InitiativeRolled',
      'RoundStarted',
      'ActivationStarted',
      'GmNoteAdded',
      'ActivationEnded',
    ]);
    expect(restEvents.map((e) => e.type).filter((type) => lifecycle.has(type))).toEqual([
      'FightStarted',
      'CombatantJoined',
      'CombatantJoined',
      'CombatantJoined',
      'InitiativeRolled',
      'RoundStarted',
      'ActivationStarted',
      'GmNoteAdded',
      'ActivationEnded',
    ]);
    const log = await t.http.get(`/fights/${rest.body.fightId}/events`).expect(200);
    expect(log.body.map((e: any) => e.seq)).toEqual(restEvents.map((_, i) => i + 1));
  });

  it('every event carries the hash chain and the view shows its head', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'chained' })
      .expect(200);
    const log = (await t.http.get(`/fights/${body.fightId}/events`).expect(200)).body;
    let previous = GENESIS_HASH;
    for (const { hash, ...event } of log) {
      expect(hash).toBe(eventHash(previous, event));
      previous = hash;
    }
    expect(
      (await t.http.get(`/fights/${body.fightId}?minSeq=${log.length}`).expect(200)).body.view.headHash,
    ).toBe(previous);
  });

  it('GET /fights lists fights, filtered and paginated', async () => {
    const listed = await t.http
      .post('/fights')
      .send({ ...duel(), name: 'Listed' })
      .expect(201);
    await projected(t, listed.body.fightId, listed.body.seq);
    const page = await t.http.get('/fights?system=narateer&limit=1').expect(200);
    expect(page.body).toMatchObject({ limit: 1, offset: 0 });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0].name).toBe('Listed');
    expect(page.body.total).toBeUndefined(); // counted only when asked
    expect(
      (await t.http.get('/fights?system=narateer&limit=1&total=true').expect(200)).body.total,
    ).toBeGreaterThanOrEqual(2);
    expect((await t.http.get('/fights?status=ended').expect(200)).body.items).toEqual([]);
    await t.http.get('/fights?limit=1000').expect(400);
  });

  it('a repeated commandId returns the first result and appends nothing', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    const first = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'once', commandId: 'cmd-1' })
      .expect(200);
    const again = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'once', commandId: 'cmd-1' })
      .expect(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.events).toEqual(first.body.events);
    const log = await t.http.get(`/fights/${body.fightId}/events`).expect(200);
    expect(log.body.filter((e: any) => e.type === 'GmNoteAdded')).toHaveLength(1);
  });

  it('expectedSeq that does not match the fight is a 409 naming the field', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'ok', expectedSeq: body.seq })
      .expect(200);
    const stale = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'late', expectedSeq: body.seq })
      .expect(409);
    expect(stale.body).toMatchObject({
      statusCode: 409,
      code: 'EXPECTED_SEQ_MISMATCH',
      field: 'expectedSeq',
    });
  });

  it('50 concurrent commands against one fight: each applied with a unique consecutive seq or refused, no gap, no duplicate', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    const start = body.seq;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.http
          .post(`/fights/${body.fightId}/commands`)
          .send(
            i % 5 === 0
              ? { type: 'AddNote', text: `n${i}`, expectedSeq: start }
              : { type: 'AddNote', text: `n${i}` },
          ),
      ),
    );
    const applied = results.filter((r) => r.status === 200).map((r) => r.body.events[0].seq);
    expect(results.every((r) => [200, 409, 422].includes(r.status))).toBe(true);
    expect(new Set(applied).size).toBe(applied.length);
    const log = (await t.http.get(`/fights/${body.fightId}/events`).expect(200)).body;
    expect(log.map((e: any) => e.seq)).toEqual(log.map((_: unknown, i: number) => i + 1));
    expect(log.length).toBe(start + applied.length);
    expect([...applied].sort((a, b) => a - b)).toEqual(log.slice(start).map((e: any) => e.seq));
  });

  it('fair dice commit to a seed that EndFight reveals', async () => {
    const { body } = await t.http.post('/fights').send(duel('fair')).expect(201);
    const commitment = body.events[0].data.dice.commitment;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    const end = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'EndFight', reason: 'done' })
      .expect(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(Buffer.from(end.body.events[0].data.seed, 'hex')).digest('hex')).toBe(
      commitment,
    );
  });

  it('C9: seeded dice commit to their seed like fair ones: the log holds only its hash until EndFight reveals it', async () => {
    const seed = 'c9-table-seed';
    const { body } = await t.http
      .post('/fights')
      .send({ ...duel('seeded'), dice: { mode: 'seeded', seed } })
      .expect(201);
    expect(body.events[0].data.dice).toMatchObject({ mode: 'seeded', commitment: seedCommitment(seed) });
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'RollInitiative' }).expect(200);
    const before = (await t.http.get(`/fights/${body.fightId}/events`).expect(200)).body;
    expect(JSON.stringify(before)).not.toContain(seed);
    const end = await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'EndFight' }).expect(200);
    expect(end.body.events[0]).toMatchObject({ type: 'FightEnded', data: { seed } });
  });

  it('a revealed seed recomputes every roll of the fight', async () => {
    const { body } = await t.http
      .post('/fights')
      .send({ ...duel('fair'), dice: { mode: 'fair', clientSeed: 'table-7' } })
      .expect(201);
    const id = body.fightId;
    await t.http.post(`/fights/${id}/commands`).send({ type: 'RollInitiative' }).expect(200);
    await t.http
      .post(`/fights/${id}/commands`)
      .send({ type: 'AddCombatant', combatant: { name: 'Late', sheet: sheet(4) } })
      .expect(200);
    await t.http.post(`/fights/${id}/commands`).send({ type: 'EndFight' }).expect(200);
    const log = (await t.http.get(`/fights/${id}/events`).expect(200)).body;
    const seed = log.at(-1).data.seed;
    const rolls = log.flatMap((e: any) =>
      e.type === 'InitiativeRolled' ? e.data.rolls.map((r: any) => r.roll) : [],
    );
    expect(rolls.map((r: any) => r.draw)).toEqual([1, 2, 3]);
    for (const r of rolls)
      expect(
        facesForDraw({ seed, fightId: id, clientSeed: 'table-7' }, r.draw, r.faces.length, r.sides),
      ).toEqual(r.faces);
  });

  it('manual faces out of range are a 422 naming the die; faces in a fair fight are refused', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    const bad = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'RollInitiative', dice: [1, 2, 9, 4] })
      .expect(422);
    expect(bad.body).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[2]' });
    const fair = await t.http.post('/fights').send(duel('fair')).expect(201);
    const refused = await t.http
      .post(`/fights/${fair.body.fightId}/commands`)
      .send({ type: 'RollInitiative', dice: [1] })
      .expect(422);
    expect(refused.body).toMatchObject({ code: 'DICE_NOT_MANUAL', field: 'dice' });
  });

  it('a restart keeps every fight', async () => {
    const { body } = await t.http.post('/fights').send(duel()).expect(201);
    await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'before restart' })
      .expect(200);
    const before = (await t.http.get(`/fights/${body.fightId}/events`).expect(200)).body;
    await t.close();
    t = await startApp({ dataDir: t.dataDir, reuse: { apiKey: t.apiKey, tenantId: t.tenantId } });
    expect((await t.http.get(`/fights/${body.fightId}/events`).expect(200)).body).toEqual(before);
    // ?minSeq=: the projection folds what the restart found on its own time; the view is the log's.
    expect((await t.http.get(`/fights/${body.fightId}?minSeq=${before.length}`).expect(200)).body.seq).toBe(
      before.length,
    );
    await projected(t, body.fightId, before.length);
    const listed = (await t.http.get('/fights?limit=100').expect(200)).body.items.map((f: any) => f.fightId);
    expect(listed).toContain(body.fightId);
  });
});
