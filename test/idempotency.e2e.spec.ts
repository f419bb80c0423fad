import { commandKey } from '@app/fights/command-index';
import { sheet, useApp } from './support/app';

// The first two of cmd-0, cmd-1, … whose 30-bit index keys collide (brute force over that sequence,
// as libs/fights/spec/command-index.int.spec.ts does; the first test checks they still collide).
const [A, B] = ['cmd-49988', 'cmd-186840'];

describe('commandId idempotency over REST, with ids whose index keys collide', () => {
  const t = useApp();
  const send = (id: string, cmd: Record<string, unknown>) =>
    t.http.post(`/fights/${id}/commands`).send(cmd).expect(200);

  it('the ids collide', () => {
    expect(commandKey(A)).toBe(commandKey(B));
  });

  it('the second id appends, a true resend replays the first result, and the log verifies', async () => {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'fair' },
        combatants: [
          { id: 'a', name: 'A', side: 'x', sheet: sheet(2) },
          { id: 'b', name: 'B', side: 'y', sheet: sheet(3) },
        ],
      })
      .expect(201);
    const id = body.fightId;
    const first = (await send(id, { type: 'AddNote', text: 'first', commandId: A })).body;
    await send(id, { type: 'AddNote', text: 'between', commandId: 'between' });
    const second = (await send(id, { type: 'AddNote', text: 'second', commandId: B })).body;
    expect(second.replayed).toBe(false);
    expect(second.events.map((e: any) => [e.commandId, e.data.text])).toEqual([[B, 'second']]);

    const againB = (await send(id, { type: 'AddNote', text: 'second', commandId: B })).body;
    expect(againB).toMatchObject({ replayed: true, events: second.events });
    const againA = (await send(id, { type: 'AddNote', text: 'first', commandId: A })).body;
    expect(againA).toMatchObject({ replayed: true, events: first.events });
    // Its events are the first result's; its seq and view are the fight's now (README: commandId).
    expect(againA.seq).toBe(second.seq);
    expect(againA.view.seq).toBe(second.seq);

    const events = (await t.http.get(`/fights/${id}/events`).expect(200)).body;
    expect(events.filter((e: any) => e.type === 'GmNoteAdded').map((e: any) => e.commandId)).toEqual([
      A,
      'between',
      B,
    ]);
    await send(id, { type: 'EndFight' });
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    const report = (await t.http.post('/audit/verify').send(log).expect(200)).body;
    expect(report.firstDivergence).toBeUndefined();
    expect(report.ok).toBe(true);
  });
});

describe('a commandId names one command', () => {
  const t = useApp();
  let fightId = '';
  const events = async () =>
    (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;

  beforeAll(async () => {
    const { body } = await t.http
      .post('/fights')
      .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', side: 'x', sheet: sheet(2) }] })
      .expect(201);
    fightId = body.fightId;
    await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'first', commandId: 'note-1' })
      .expect(200);
  });

  it.each([
    ['other fields', { type: 'AddNote', text: 'second', commandId: 'note-1' }],
    ['another type', { type: 'EndFight', commandId: 'note-1' }],
  ])(
    'given the id sent again with %s, then 422 COMMAND_ID_REUSED naming commandId, and nothing appended',
    async (_, command) => {
      const before = await events();
      const res = await t.http.post(`/fights/${fightId}/commands`).send(command);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, code: 'COMMAND_ID_REUSED', field: 'commandId' });
      expect(res.body.message).toContain('AddNote at seq');
      expect(await events()).toBe(before);
    },
  );

  it('given the same command again, its keys in another order and with expectedSeq, then the first result', async () => {
    const res = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ commandId: 'note-1', text: 'first', expectedSeq: 0, type: 'AddNote' })
      .expect(200);
    expect(res.body.replayed).toBe(true);
    expect(res.body.events.map((e: { data: unknown }) => e.data)).toEqual([{ text: 'first' }]);
  });

  it('given the id reused with another command over GraphQL, then the same refusal in extensions', async () => {
    const before = await events();
    const res = await t.gql(
      'mutation($f: ID!) { narateerCommand(fightId: $f, commandId: "note-1", command: { addNote: { text: "third" } }) { seq } }',
      { f: fightId },
    );
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'COMMAND_ID_REUSED', field: 'commandId' });
    expect(await events()).toBe(before);
  });
});

describe('C3: a commandId does not lend another actor’s command to a player', () => {
  const t = useApp();
  let fightId = '';
  let player = '';
  const asPlayer = (body: object) =>
    t.anon.post(`/fights/${fightId}/commands`).set('authorization', `Bearer ${player}`).send(body);

  beforeAll(async () => {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        combatants: [
          { id: 'a', name: 'A', side: 'x', sheet: sheet(2) },
          { id: 'b', name: 'B', side: 'y', sheet: sheet(2) },
        ],
      })
      .expect(201);
    fightId = body.fightId;
    player = (
      await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({ role: 'player', combatantIds: ['a'] })
        .expect(201)
    ).body.token;
    await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'the GM’s', commandId: 'gm-note' })
      .expect(200);
  });

  it('given a GM-only command the GM sent, when a player sends the same body and id, then 403 GM_ONLY, not its result', async () => {
    const res = await asPlayer({ type: 'AddNote', text: 'the GM’s', commandId: 'gm-note' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'GM_ONLY', field: 'type' });
    expect(res.body.events).toBeUndefined();
  });

  it('given the GM sent it, when the GM sends it again, then still the first result', async () => {
    const res = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'the GM’s', commandId: 'gm-note' })
      .expect(200);
    expect(res.body.replayed).toBe(true);
  });
});
