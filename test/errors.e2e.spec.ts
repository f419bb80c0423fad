import { removeDir, sheet, startApp, TestApp } from './support/app';
import { soloFight } from './support/fight-calls';

describe('bad input gets a clear 4xx with a stable code and the field', () => {
  let t: TestApp;
  let fightId: string;
  beforeAll(async () => {
    t = await startApp();
    fightId = await soloFight(t);
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  const cases: Array<[string, () => any, number, Record<string, unknown>]> = [
    [
      'malformed JSON',
      () => t.http.post('/fights').set('content-type', 'application/json').send('{"system":'),
      400,
      { code: 'INVALID_JSON' },
    ],
    [
      'an unknown field',
      () => t.http.post('/fights').send({ system: 'narateer', colour: 'red' }),
      422,
      { code: 'UNKNOWN_FIELD', field: 'colour' },
    ],
    [
      'a wrong type',
      () => t.http.post('/fights').send({ system: 42 }),
      422,
      { code: 'INVALID_FIELD', field: 'system' },
    ],
    [
      'an unknown dice mode',
      () => t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'loaded' } }),
      422,
      { code: 'INVALID_FIELD', field: 'dice.mode' },
    ],
    [
      'an unknown system',
      () => t.http.post('/fights').send({ system: 'chess' }),
      422,
      { code: 'UNKNOWN_SYSTEM', field: 'system' },
    ],
    [
      'seeded dice without a seed',
      () => t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'seeded' } }),
      422,
      { code: 'DICE_SEED_REQUIRED', field: 'dice.seed' },
    ],
    [
      'an invalid sheet',
      () =>
        t.http
          .post('/fights')
          .send({ system: 'narateer', combatants: [{ name: 'X', sheet: { ...sheet(), maxVitality: -1 } }] }),
      422,
      { field: 'combatants[0].sheet.maxVitality' },
    ],
    [
      'a body that is not an object',
      () => t.http.post(`/fights/${fightId}/commands`).send([1, 2]),
      400,
      { code: 'VALIDATION_FAILED', field: 'body' },
    ],
    [
      'a command without a type',
      () => t.http.post(`/fights/${fightId}/commands`).send({ text: 'x' }),
      422,
      { code: 'INVALID_FIELD', field: 'type' },
    ],
    [
      'an unknown command',
      () => t.http.post(`/fights/${fightId}/commands`).send({ type: 'Explode' }),
      422,
      { code: 'UNKNOWN_COMMAND', field: 'type' },
    ],
    [
      'a negative expectedSeq',
      () => t.http.post(`/fights/${fightId}/commands`).send({ type: 'StartRound', expectedSeq: -1 }),
      422,
      { code: 'INVALID_FIELD', field: 'expectedSeq' },
    ],
    [
      'a command to a missing fight',
      () => t.http.post('/fights/00000000-0000-0000-0000-000000000000/commands').send({ type: 'StartRound' }),
      404,
      { code: 'FIGHT_NOT_FOUND' },
    ],
    [
      'a rule broken',
      () => t.http.post(`/fights/${fightId}/commands`).send({ type: 'StartRound' }),
      422,
      { code: 'INITIATIVE_NOT_SET' },
    ],
    [
      'a wrong payload type',
      () => t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text: 5 }),
      422,
      { code: 'INVALID_FIELD', field: 'text' },
    ],
    ['an unknown route', () => t.http.get('/nowhere'), 404, { code: 'NOT_FOUND' }],
    [
      'a body over the size limit',
      () => t.http.post('/fights').send({ system: 'narateer', name: 'x'.repeat(300_000) }),
      413,
      { code: 'PAYLOAD_TOO_LARGE' },
    ],
    ['a page size over 100', () => t.http.get('/fights?limit=101'), 400, { field: 'limit' }],
  ];

  it.each(cases)('%s', async (_name, send, status, expected) => {
    const before = (await t.http.get(`/fights/${fightId}/events`)).body;
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, ...expected });
    expect(typeof res.body.message).toBe('string');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
    expect((await t.http.get(`/fights/${fightId}/events`)).body).toEqual(before);
  });

  it('GraphQL errors carry the same code, status and field in extensions', async () => {
    const res = await t.gql(
      `mutation { command(fightId: "${fightId}", input: { type: "AddNote", payload: { text: 5 } }) { seq } }`,
    );
    expect(res.errors?.[0].extensions).toMatchObject({
      statusCode: 422,
      code: 'INVALID_FIELD',
      field: 'text',
    });
    const invalid = await t.gql(
      `mutation { createFight(input: { system: "narateer", dice: { mode: "loaded" } }) { seq } }`,
    );
    expect(invalid.errors?.[0].extensions).toMatchObject({
      statusCode: 422,
      code: 'INVALID_FIELD',
      field: 'dice.mode',
    });
    const syntax = await t.gql(`{ fights { items { nope } } }`);
    expect(syntax.errors?.[0].extensions).toMatchObject({ statusCode: 400 });
  });
});
