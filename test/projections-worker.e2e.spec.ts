import { join } from 'node:path';
import { ProjectionRunner } from '@app/fights';
import { removeDir, startApp, type TestApp } from './support/app';
import { duelFight } from './support/fight-calls';

/** The fold worker from the TypeScript sources; the built service starts the compiled one by default. */
const foldWorker = {
  file: join(__dirname, '../libs/fights/src/projections/fold-worker-thread.ts'),
  execArgv: ['--require', join(__dirname, 'support/ts-require.js')],
};

/** docs/event-store.md "Read side thread": on SQLite the projections fold on a worker thread of their own. */
describe('the projections on a worker thread (SQLite)', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
    removeDir(t.dataDir);
  });

  async function notes(fightId: string, count: number): Promise<number> {
    let seq = 0;
    for (let i = 0; i < count; i++)
      seq = (
        await t.http
          .post(`/fights/${fightId}/commands`)
          .send({ type: 'AddNote', text: `n${i}` })
          .expect(200)
      ).body.seq;
    return seq;
  }

  it('given commands just answered, then the fight, its combatants and the list read them with minSeq, on REST and GraphQL', async () => {
    t = await startApp({ config: { foldWorker } });
    expect(t.app.get(ProjectionRunner).foldingElsewhere).toBe(true);
    const fightId = await duelFight(t);
    const seq = await notes(fightId, 5);
    const fight = await t.http.get(`/fights/${fightId}?minSeq=${seq}`).expect(200);
    expect(fight.body).toMatchObject({ fightId, seq, view: { seq } });
    const combatants = await t.http.get(`/fights/${fightId}/combatants?minSeq=${seq}`).expect(200);
    expect(combatants.body.map((c: { combatantId: string }) => c.combatantId)).toEqual(['mira', 'orin']);
    const gql = await t.gql(`{ fight(fightId: "${fightId}", minSeq: ${seq}) { seq } }`);
    expect(gql.errors).toBeUndefined();
    expect(gql.data.fight.seq).toBe(seq);
    // The list and the status read the projections as they stand: once both have folded everything.
    const lags = async () =>
      (await t.http.get('/projections').expect(200)).body.map((p: { lagEvents: number }) => p.lagEvents);
    for (let i = 0; i < 600 && (await lags()).some((lag: number) => lag > 0); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await lags()).toEqual([0, 0]);
    const list = await t.http.get('/fights').expect(200);
    expect(list.body.items).toEqual([expect.objectContaining({ fightId, seq })]);
  });

  it('given a restart, then the worker folds on from the checkpoint it committed', async () => {
    t = await startApp({ config: { foldWorker } });
    const fightId = await duelFight(t);
    const before = await notes(fightId, 2);
    await t.http.get(`/fights/${fightId}?minSeq=${before}`).expect(200);
    const { dataDir, apiKey, tenantId } = t;
    await t.close();
    t = await startApp({ dataDir, reuse: { apiKey, tenantId }, config: { foldWorker } });
    expect(t.app.get(ProjectionRunner).foldingElsewhere).toBe(true);
    const after = await notes(fightId, 2);
    expect((await t.http.get(`/fights/${fightId}?minSeq=${after}`).expect(200)).body.seq).toBe(after);
    expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body).toHaveLength(after);
  });
});
