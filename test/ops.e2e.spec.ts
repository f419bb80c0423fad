import { removeDir, sheet, startApp, TestApp } from './support/app';

describe('operations: health and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('/health/live and /health/ready answer without a key; ready checks the store and the projections', async () => {
    expect((await t.anon.get('/health/live').expect(200)).body).toMatchObject({ status: 'ok' });
    const ready = await t.anon.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { eventStore: { status: 'up', engine: 'sqlite' }, projections: { status: 'up', 'fight-views': expect.any(Number) } } });
  });

  it('/metrics reports command latency by system and type, events appended and open subscriptions', async () => {
    const { body } = await t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'manual' }, combatants: [{ id: 'a', name: 'A', sheet: sheet() }] }).expect(201);
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'AddNote', text: 'measured' }).expect(200);
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'StartRound' }).expect(422);
    const text = (await t.anon.get('/metrics').expect(200)).text;
    expect(text).toMatch(/crs_command_duration_seconds_count\{system="narateer",type="AddNote",outcome="ok"\} 1/);
    expect(text).toMatch(/crs_command_duration_seconds_count\{system="narateer",type="StartRound",outcome="rejected"\} 1/);
    expect(text).toMatch(/crs_events_appended_total\{system="narateer"\} 1/);
    expect(text).toMatch(/crs_open_subscriptions 0/);
    expect(text).toMatch(/crs_projection_lag_events\{projection="fight-views"\} \d+/);
  });
});
