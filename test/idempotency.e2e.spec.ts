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
