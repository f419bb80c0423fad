import { ProjectionRunner, PROJECTIONS } from '@app/fights';
import { sheet, useApp } from './support/app';
import { projected } from './support/read-side';

describe('projections', () => {
  const t = useApp();

  async function playFights(n: number): Promise<Array<{ fightId: string; seq: number }>> {
    const out = [];
    for (let i = 0; i < n; i++) {
      const { body } = await t.http
        .post('/fights')
        .send({
          system: 'narateer',
          name: `F${i}`,
          dice: { mode: 'seeded', seed: `s${i}` },
          combatants: [
            { id: 'a', name: 'A', sheet: sheet(2) },
            { id: 'b', name: 'B', sheet: sheet(3) },
          ],
        })
        .expect(201);
      let seq = body.seq;
      for (const cmd of [
        { type: 'RollInitiative' },
        { type: 'StartRound' },
        { type: 'StartActivation' },
        { type: 'AddNote', text: `n${i}` },
      ]) {
        seq = (await t.http.post(`/fights/${body.fightId}/commands`).send(cmd).expect(200)).body.seq;
      }
      if (i % 2 === 0)
        seq = (
          await t.http
            .post(`/fights/${body.fightId}/commands`)
            .send({ type: 'RemoveCombatant', combatantId: 'b' })
            .expect(200)
        ).body.seq;
      out.push({ fightId: body.fightId, seq });
    }
    return out;
  }

  async function snapshot(fights: Array<{ fightId: string }>) {
    const read = t.app.get(ProjectionRunner).read;
    return {
      list: await read.listFights({ limit: 100, offset: 0 }),
      views: await Promise.all(fights.map((f) => read.getFight(f.fightId))),
    };
  }

  it('the fight view, the fight list and combatant summaries follow the log; a command response is fresh at once', async () => {
    const [fight] = await playFights(1);
    const view = await t.http.get(`/fights/${fight.fightId}?minSeq=${fight.seq}`).expect(200);
    expect(view.body.seq).toBe(fight.seq);
    // The list and the combatants read the read models as they stand.
    await projected(t, fight.fightId, fight.seq);
    const combatants = await t.http.get(`/fights/${fight.fightId}/combatants`).expect(200);
    expect(combatants.body.map((c: any) => c.combatantId)).toEqual(['a']);
    expect(combatants.body[0]).toMatchObject({ name: 'A', system: 'narateer', summary: { id: 'a' } });
    const list = await t.http.get('/fights?status=active').expect(200);
    expect(list.body.items.map((f: any) => f.fightId)).toContain(fight.fightId);
    expect(list.body.items.find((f: any) => f.fightId === fight.fightId)).toMatchObject({
      round: 1,
      combatants: 1,
      seq: fight.seq,
    });
    await t.http.get('/fights/missing/combatants').expect(404);
  });

  it('every projection reports its lag, zero once caught up', async () => {
    const [fight] = await playFights(1);
    await t.http.get(`/fights/${fight.fightId}?minSeq=${fight.seq}`).expect(200);
    const runner = t.app.get(ProjectionRunner);
    for (const name of PROJECTIONS) await runner.catchUp(name);
    const status = (await t.http.get('/projections').expect(200)).body;
    expect(status.map((s: any) => s.name)).toEqual([...PROJECTIONS]);
    expect(status.every((s: any) => s.lagEvents === 0 && typeof s.checkpoint === 'string')).toBe(true);
  });

  it('a projection rebuilt from zero equals the live one, field for field', async () => {
    const fights = await playFights(6);
    const runner = t.app.get(ProjectionRunner);
    for (const name of PROJECTIONS) await runner.catchUp(name);
    const live = await snapshot(fights);
    expect(live.views.every((v, i) => v?.seq === fights[i].seq)).toBe(true);
    await runner.stop();
    for (const name of PROJECTIONS) {
      await runner.read.reset(name);
      expect(await runner.read.checkpoint(name)).toBeUndefined();
    }
    expect(await runner.read.listFights({ limit: 10, offset: 0 })).toEqual([]);
    for (const name of PROJECTIONS) await runner.catchUp(name);
    expect(await snapshot(fights)).toEqual(live);
  });
});
