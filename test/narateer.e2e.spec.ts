import { useApp } from './support/app';
import { overGraphql } from './support/fight-calls';
import { declare, mira, opening, orin, respond } from './support/narateer-sheets';

const setup = {
  system: 'narateer',
  name: 'Worked Example: One Melee Exchange',
  dice: { mode: 'manual' },
  combatants: [
    { id: 'mira', name: 'Mira', sheet: mira },
    { id: 'orin', name: 'Orin', sheet: orin },
  ],
};

function expectWorkedExample(events: Array<{ type: string; data: any }>) {
  const resolved = events.find((e) => e.type === 'ExchangeResolved')!.data;
  expect(resolved).toMatchObject({
    outcome: 'hit',
    winnerId: 'mira',
    hitMargin: 2,
    attacker: { total: 4 },
    responder: { total: 2 },
  });
  const wounds = events.find((e) => e.type === 'WoundsApplied')!.data;
  expect(wounds).toMatchObject({
    combatantId: 'orin',
    strikeRating: 5,
    protectionRating: 1,
    woundMargin: 6,
    wounds: 3,
    vitality: 5,
    harmLabel: 'Physical (Slashing)',
  });
  expect(wounds.dice).toEqual([
    { kind: 'AD', from: 'ready' },
    { kind: 'AD', from: 'ready' },
    { kind: 'AD', from: 'ready' },
  ]);
}

describe('Narateer end to end: "Worked Example: One Melee Exchange" with manual dice', () => {
  const t = useApp();

  it('through REST, each side played by its own player token', async () => {
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const id = body.fightId;
    for (const cmd of opening) await t.http.post(`/fights/${id}/commands`).send(cmd).expect(200);
    const token = async (combatant: string) =>
      (
        await t.http
          .post(`/fights/${id}/tokens`)
          .send({ role: 'player', combatantIds: [combatant] })
          .expect(201)
      ).body.token;
    const miraPlayer = await token('mira');
    const orinPlayer = await token('orin');
    const declared = await t.anon
      .post(`/fights/${id}/commands`)
      .set('authorization', `Bearer ${miraPlayer}`)
      .send(declare)
      .expect(200);
    expect(declared.body.view.pending).toMatchObject({ awaiting: 'orin', answer: 'RespondToExchange' });
    // Mira's player cannot answer for Orin; a Boost over Orin's Melee SL 1 names the rule.
    await t.anon
      .post(`/fights/${id}/commands`)
      .set('authorization', `Bearer ${miraPlayer}`)
      .send(respond)
      .expect(403);
    const tooMuch = await t.anon
      .post(`/fights/${id}/commands`)
      .set('authorization', `Bearer ${orinPlayer}`)
      .send({ ...respond, boost: 2, dice: [6, 4, 3, 4, 3, 3] })
      .expect(422);
    expect(tooMuch.body.code).toMatch(/^NARATEER_/);
    expect(tooMuch.body.field).toBe('boost');
    const answered = await t.anon
      .post(`/fights/${id}/commands`)
      .set('authorization', `Bearer ${orinPlayer}`)
      .send(respond)
      .expect(200);
    expectWorkedExample(answered.body.events);
    const view = (await t.http.get(`/fights/${id}?minSeq=${answered.body.seq}`).expect(200)).body.view;
    expect(view).toEqual(answered.body.view);
  });

  it('through GraphQL, with the same numbers', async () => {
    const { send } = await overGraphql(t, setup);
    for (const cmd of [...opening, declare]) await send(cmd);
    expectWorkedExample((await send(respond)).events);
  });
});
