import { useApp } from './support/app';
import { tableOf } from './support/fight-calls';
import { duel, opening } from './support/narateer-sheets';

/**
 * N61 end to end: a Continuation Check is the checking combatant's roll. Mira's player swings at Orin with no faces
 * for his check: her exchange stands, and Orin's player (or the GM) is asked for them, as A36 asks a Devolution Test.
 */
type Ev = { type: string; data: any };
const types = (events: Ev[]) => events.map((e) => e.type);
const combatant = (view: any, id: string) => view.combatants.find((c: { id: string }) => c.id === id);
// Mira (Boost 1: 2 AD) at Orin, who gives No Response: 6, 6 deals 5 Wounds, Orin falls to 3 of 8: a check of 2 d6.
const swing = {
  type: 'DeclareExchange',
  attackerId: 'mira',
  targetId: 'orin',
  kind: 'melee',
  weaponId: 'sword',
  boost: 1,
  response: { response: 'none', boost: 0 },
  dice: [6, 6],
};

describe('Narateer end to end: who rolls a Continuation Check (docs/rulings-narateer.md N61)', () => {
  const t = useApp();

  it('N61: through REST, Mira’s exchange stands and Orin’s check is asked of Orin: Mira’s player may not answer, Orin’s and the GM may; UndoCommands and CancelPending work on the request; the log verifies', async () => {
    const { body } = await t.http
      .post('/fights')
      .send(duel({ mode: 'manual' }))
      .expect(201);
    const id = body.fightId as string;
    const { gm, token, as } = tableOf(t, id);
    const [mira, orin] = [as(await token('mira')), as(await token('orin'))];
    expect((await mira(swing, 403)).code).toBe('NOT_YOUR_COMBATANT');
    for (const cmd of opening) await gm(cmd);

    // The GM sends Mira's swing with Orin's No Response given up front (C12: the response is Orin's to give).
    const swung = await gm(swing);
    expect(types(swung.events)).toEqual([
      'ExchangeDeclared',
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'DiceRequested',
    ]);
    expect(swung.view.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'orin',
      answer: 'ProvideDice',
      detail: { commandType: 'ContinuationCheck', field: 'followUpFaces', count: 2, sides: 6 },
    });
    expect(combatant(swung.view, 'orin')).toMatchObject({ vitality: 3, state: 'Active' });

    // The check is Orin's: Mira's player may not roll it; Orin's does. Undo takes the answer back, the request stands.
    expect((await mira({ type: 'ProvideDice', followUpFaces: [1, 1] }, 403)).code).toBe('NOT_YOUR_COMBATANT');
    const failed = await orin({ type: 'ProvideDice', followUpFaces: [1, 1] });
    expect(types(failed.events)).toEqual(['ContinuationChecked']);
    expect(combatant(failed.view, 'orin')).toMatchObject({ state: 'Withdrawn' });
    const undone = await gm({ type: 'UndoCommands', count: 1 });
    expect(undone.view.pending).toMatchObject({
      awaiting: 'orin',
      detail: { commandType: 'ContinuationCheck' },
    });
    expect(combatant(undone.view, 'orin')).toMatchObject({ state: 'Active' });
    // The GM may answer too.
    const passed = await gm({ type: 'ProvideDice', followUpFaces: [3, 1] });
    expect(types(passed.events)).toEqual(['ContinuationChecked']);
    expect(passed.view.pending).toBeNull();
    expect(combatant(passed.view, 'orin')).toMatchObject({ state: 'Active' });

    // Undoing the exchange and the answer takes the whole declaration back; sent again, the GM cancels the check.
    const back = await gm({ type: 'UndoCommands', count: 2 });
    expect(back.view.pending).toBeNull();
    expect(combatant(back.view, 'orin')).toMatchObject({ vitality: 8 });
    await gm(swing);
    const cancelled = await gm({ type: 'CancelPending', reason: 'the table skips the check' });
    expect(types(cancelled.events)).toEqual(['DiceRequestCancelled']);
    expect(cancelled.view.pending).toBeNull();
    expect(combatant(cancelled.view, 'orin')).toMatchObject({ vitality: 3, state: 'Active' });
    expect(
      (await gm({ type: 'ContinuationCheck', combatantId: 'orin', followUpFaces: [1, 1] }, 422)).code,
    ).toBe('UNKNOWN_COMMAND');

    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    const report = (await t.http.post('/audit/verify').send(log).expect(200)).body;
    expect(report).toMatchObject({
      ok: true,
      checks: { chain: { status: 'ok' }, decisions: { status: 'ok' }, view: { status: 'ok' } },
    });
  });
});
