import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ProjectionRunner } from '@app/fights';
import { WebhookOutbox } from '@app/webhooks';
import { removeDir, startApp, type TestApp } from './support/app';
import { duelFight } from './support/fight-calls';

/** The fold worker and the outbox's module from the TypeScript sources; the built service starts the compiled ones. */
const foldWorker = {
  file: join(__dirname, '../libs/fights/src/projections/fold-worker-thread.ts'),
  execArgv: ['--require', join(__dirname, 'support/ts-require.js')],
  outboxFile: join(__dirname, '../libs/webhooks/src/outbox-thread.ts'),
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
    // The list and the status read the projection as it stands: once it has folded everything.
    const lags = async () =>
      (await t.http.get('/projections').expect(200)).body.map((p: { lagEvents: number }) => p.lagEvents);
    for (let i = 0; i < 600 && (await lags()).some((lag: number) => lag > 0); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await lags()).toEqual([0]);
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

  it('given a webhook endpoint, then the outbox queues on the worker and the receiver gets every event once, signed, in order', async () => {
    const bodies: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        bodies.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const saved = process.env.WEBHOOK_ALLOW_PRIVATE;
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    try {
      t = await startApp({ config: { foldWorker } });
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const ep = await t.http.post('/webhooks/endpoints').send({ url }).expect(201);
      const fightId = await duelFight(t);
      const seq = await notes(fightId, 5);
      const verify = new Webhook(ep.body.secret as string);
      const seqs = () =>
        bodies.map((b) => (verify.verify(b.body, b.headers) as { data: { seq: number } }).data.seq);
      for (let i = 0; i < 600 && seqs().length < seq; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seqs()).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
      expect(t.app.get(WebhookOutbox).queuingElsewhere).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
      else process.env.WEBHOOK_ALLOW_PRIVATE = saved;
      await new Promise((r) => receiver.close(r));
    }
  });
});
