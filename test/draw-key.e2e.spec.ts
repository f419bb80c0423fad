import { verifyFightLog } from '@app/audit';
import { sheet, useApp } from './support/app';

/** C14: `dice.drawKey` reproduces a seeded fight's faces in a new fight. */
describe('seeded dice with a drawKey', () => {
  const t = useApp();
  const combatants = Array.from({ length: 16 }, (_, i) => ({
    id: `c${i}`,
    name: `C${i}`,
    side: i % 2 ? 'red' : 'blue',
    sheet: sheet(2 + (i % 3)),
  }));

  /** A seeded fight: initiative (a draw per combatant; the tie-break settles ties) and the end; its exported log. */
  async function play(dice: Record<string, unknown>) {
    const created = await t.http
      .post('/fights')
      .send({ system: 'narateer', dice: { mode: 'seeded', seed: 'replay-me', ...dice }, combatants })
      .expect(201);
    const id = created.body.fightId;
    for (const cmd of [
      { type: 'RollInitiative', tieBreak: combatants.map((c) => c.id) },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'EndFight' },
    ])
      await t.http
        .post(`/fights/${id}/commands`)
        .send(cmd)
        .expect((res) => expect([res.status, res.body.code]).toEqual([200, undefined]));
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    return { id, view: created.body.view, log, data: log.entries.map((e: any) => [e.type, e.data]) };
  }
  const faces = (log: any) =>
    log.entries
      .filter((e: any) => e.type === 'InitiativeRolled')
      .flatMap((e: any) => e.data.rolls.flatMap((r: any) => r.roll.faces));

  it('two fights with the same seed, drawKey and commands roll the same faces, and both verify offline', async () => {
    const [a, b] = [await play({ drawKey: 'duel-at-the-ford' }), await play({ drawKey: 'duel-at-the-ford' })];
    expect(a.id).not.toBe(b.id);
    expect(a.log.entries[0].data.dice).toMatchObject({ mode: 'seeded', drawKey: 'duel-at-the-ford' });
    expect(a.view.dice.drawKey).toBe('duel-at-the-ford');
    expect(faces(a.log).length).toBeGreaterThanOrEqual(16);
    expect(a.data).toEqual(b.data);
    for (const { log } of [a, b]) {
      expect(verifyFightLog(log)).toMatchObject({
        ok: true,
        complete: true,
        checks: { seed: { status: 'ok' }, decisions: { status: 'ok' } },
      });
      expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({
        ok: true,
        checks: { decisions: { status: 'ok' } },
      });
    }
  });

  it('without a drawKey the same seed rolls other faces in another fight (the fight id is the default), and both verify', async () => {
    const [a, b] = [await play({}), await play({})];
    expect(a.log.entries[0].data.dice).not.toHaveProperty('drawKey');
    expect(faces(a.log)).not.toEqual(faces(b.log));
    for (const { log } of [a, b])
      expect(verifyFightLog(log)).toMatchObject({ ok: true, checks: { decisions: { status: 'ok' } } });
  });

  it('a drawKey is for seeded dice only: fair and manual fights refuse it naming dice.drawKey', async () => {
    for (const mode of ['manual', 'fair']) {
      const res = await t.http
        .post('/fights')
        .send({ system: 'narateer', dice: { mode, drawKey: 'duel' } })
        .expect(422);
      expect(res.body).toMatchObject({ code: 'DICE_DRAW_KEY_NOT_ALLOWED', field: 'dice.drawKey' });
    }
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(65)],
    ['not a string', 42],
  ])('a drawKey that is %s is a 422 naming dice.drawKey', async (_name, drawKey) => {
    const res = await t.http
      .post('/fights')
      .send({ system: 'narateer', dice: { mode: 'seeded', seed: 's', drawKey } })
      .expect(422);
    expect(res.body).toMatchObject({ code: 'INVALID_FIELD', field: 'dice.drawKey' });
  });

  it('GraphQL createFight takes a drawKey and refuses one for manual dice', async () => {
    const mutation = `mutation($i: CreateFightInput!) { createFight(input: $i) { fightId view } }`;
    const ok = await t.gql(mutation, {
      i: { system: 'narateer', dice: { mode: 'seeded', seed: 's', drawKey: 'k' } },
    });
    expect(ok.data?.createFight.view.dice.drawKey).toBe('k');
    const refused = await t.gql(mutation, {
      i: { system: 'narateer', dice: { mode: 'manual', drawKey: 'k' } },
    });
    expect(refused.errors?.[0].extensions).toMatchObject({
      code: 'DICE_DRAW_KEY_NOT_ALLOWED',
      field: 'dice.drawKey',
    });
  });
});
