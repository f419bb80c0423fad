import { useApp } from './support/app';
import { bow, mira } from './support/narateer-sheets';

/**
 * This round's rule refusals, over REST and GraphQL alike: the same code and the same field, and nothing
 * appended (README "Errors": a rule refusal is 422 with the rule's code).
 */
describe('rule refusals answer alike over REST and GraphQL', () => {
  const t = useApp();
  const send = `mutation Send($fightId: ID!, $command: NarateerCommandInput!) { narateerCommand(fightId: $fightId, command: $command) { seq } }`;
  const create = `mutation Create($input: CreateFightInput!) { createFight(input: $input) { fightId } }`;

  it('C15: given a fight of 200 combatants, AddCombatant is 422 FIGHT_FULL naming combatant on both, and nothing is appended', async () => {
    const combatants = Array.from({ length: 200 }, (_, i) => ({ id: `c${i}`, name: `C${i}`, sheet: mira }));
    const created = await t.http.post('/fights').send({ system: 'narateer', combatants }).expect(201);
    const { fightId, seq } = created.body as { fightId: string; seq: number };
    const combatant = { id: 'late', name: 'Late', sheet: mira };
    const rest = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddCombatant', combatant })
      .expect(422);
    expect(rest.body).toMatchObject({ code: 'FIGHT_FULL', field: 'combatant' });
    const gql = await t.gql(send, { fightId, command: { addCombatant: { combatant } } });
    expect(gql.errors?.[0].extensions).toMatchObject({ code: 'FIGHT_FULL', field: 'combatant' });
    expect((await t.http.get(`/fights/${fightId}`).expect(200)).body.seq).toBe(seq);
  });

  it('N53: a sheet’s weapon that needs Loading, loaded with no ammunition, is 422 NARATEER_LOADED_WITHOUT_AMMUNITION naming it on both, and no fight is made', async () => {
    const crossbow = { ...bow, id: 'crossbow', name: 'Crossbow', needsLoading: true, ammunition: 0 };
    const input = {
      system: 'narateer',
      combatants: [{ id: 'sera', name: 'Sera', sheet: { ...mira, weapons: [crossbow] } }],
    };
    const before = (await t.http.get('/fights?total=true').expect(200)).body.total as number;
    const rest = await t.http.post('/fights').send(input).expect(422);
    expect(rest.body).toMatchObject({
      code: 'NARATEER_LOADED_WITHOUT_AMMUNITION',
      field: expect.stringMatching(/weapons\[0\]\.ammunition$/),
    });
    const gql = await t.gql(create, { input });
    expect(gql.errors?.[0].extensions).toMatchObject({
      code: 'NARATEER_LOADED_WITHOUT_AMMUNITION',
      field: rest.body.field,
    });
    expect((await t.http.get('/fights?total=true').expect(200)).body.total).toBe(before);
    // Unloaded, it joins.
    await t.http
      .post('/fights')
      .send({
        ...input,
        combatants: [
          { ...input.combatants[0], sheet: { ...mira, weapons: [{ ...crossbow, loaded: false }] } },
        ],
      })
      .expect(201);
  });
});
