import { ProjectionRunner } from '@app/fights';
import { sheet, useApp } from './support/app';
import { projected } from './support/read-side';

/** GET /fights/:id/combatants and fightCombatants read your own write with minSeq, as GET /fights/:id does. */
describe('combatant summaries with minSeq', () => {
  const t = useApp();

  /** A Narateer fight with A and B, B removed: the seq of the removal. */
  async function fightWithoutB(): Promise<{ fightId: string; seq: number }> {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        name: 'Minus one',
        combatants: [
          { id: 'a', name: 'A', sheet: sheet(2) },
          { id: 'b', name: 'B', sheet: sheet(3) },
        ],
      })
      .expect(201);
    const removed = await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'RemoveCombatant', combatantId: 'b' })
      .expect(200);
    return { fightId: body.fightId, seq: removed.body.seq };
  }

  it('given a command just answered, when the combatants are asked with its seq as minSeq, then they show it, on REST and GraphQL', async () => {
    const { fightId, seq } = await fightWithoutB();
    const rows = await t.http.get(`/fights/${fightId}/combatants?minSeq=${seq}`).expect(200);
    expect(rows.body.map((c: { combatantId: string }) => c.combatantId)).toEqual(['a']);
    expect(rows.body[0]).toMatchObject({ fightId, name: 'A', system: 'narateer', summary: { id: 'a' } });
    const gql = await t.gql(`{ fightCombatants(fightId: "${fightId}", minSeq: ${seq}) { combatantId } }`);
    expect(gql.errors).toBeUndefined();
    expect(gql.data.fightCombatants).toEqual([{ combatantId: 'a' }]);
  });

  it("given a minSeq past the fight's last seq, then it is 422 SEQ_OUT_OF_RANGE naming minSeq at once; a bad one is 400", async () => {
    const { fightId, seq } = await fightWithoutB();
    const expected = {
      statusCode: 422,
      code: 'SEQ_OUT_OF_RANGE',
      message: `minSeq must be at most ${seq}, the fight's last seq`,
      field: 'minSeq',
    };
    const res = await t.http.get(`/fights/${fightId}/combatants?minSeq=${seq + 1}`);
    expect([res.status, res.body]).toEqual([422, expected]);
    const gql = await t.gql(`{ fightCombatants(fightId: "${fightId}", minSeq: ${seq + 1}) { combatantId } }`);
    expect(gql.errors?.[0].extensions).toMatchObject(expected);
    const bad = await t.http.get(`/fights/${fightId}/combatants?minSeq=-1`);
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, 'VALIDATION_FAILED', 'minSeq']);
    await t.http.get(`/fights/missing/combatants?minSeq=1`).expect(404);
  });

  it('given a read side that does not reach minSeq in time, then the answer is the rows of the fight at its head, never older ones', async () => {
    const { fightId, seq } = await fightWithoutB();
    // The removal folded before the read side stops: a pass still to come would never run.
    await projected(t, fightId, seq);
    // The read side stops folding: a new combatant joins in the log only.
    await t.app.get(ProjectionRunner).stop();
    const joined = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddCombatant', combatant: { id: 'c', name: 'C', sheet: sheet(2) } })
      .expect(200);
    const stale = await t.http.get(`/fights/${fightId}/combatants`).expect(200);
    expect(stale.body.map((c: { combatantId: string }) => c.combatantId)).toEqual(['a']);
    const fresh = await t.http.get(`/fights/${fightId}/combatants?minSeq=${joined.body.seq}`).expect(200);
    expect(fresh.body.map((c: { combatantId: string }) => c.combatantId)).toEqual(['a', 'c']);
    expect(fresh.body[1]).toMatchObject({ fightId, name: 'C', system: 'narateer', side: 'default' });
  });
});
