import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFightLog } from '@app/audit';
import { sheet, useApp } from './support/app';
import { ensureBuilt } from './support/server';

describe('audit through the API', () => {
  const t = useApp();

  async function fight(mode: 'fair' | 'manual' = 'fair'): Promise<string> {
    const { body } = await t.http.post('/fights').send({ system: 'narateer', dice: { mode }, combatants: [{ id: 'a', name: 'A', sheet: sheet(2) }, { id: 'b', name: 'B', sheet: sheet(3) }] }).expect(201);
    return body.fightId;
  }
  const send = (id: string, cmd: Record<string, unknown>) => t.http.post(`/fights/${id}/commands`).send(cmd);

  it('an exported fight verifies, as JSON and as NDJSON; one altered byte fails naming the event', async () => {
    const id = await fight();
    for (const cmd of [{ type: 'RollInitiative' }, { type: 'StartRound' }, { type: 'StartActivation' }, { type: 'AddNote', text: 'hello' }, { type: 'EndFight' }]) await send(id, cmd).expect(200);
    const json = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect(json.dice.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(json.entries.find((e: any) => e.type === 'GmNoteAdded').command).toEqual({ type: 'AddNote', text: 'hello' });
    const report = (await t.http.post('/audit/verify').send(json).expect(200)).body;
    expect(report).toMatchObject({ ok: true, checks: { chain: { status: 'ok' }, seed: { status: 'ok' }, decisions: { status: 'ok' }, view: { status: 'ok' } } });

    const ndjson = await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200);
    expect(ndjson.headers['content-type']).toMatch(/application\/x-ndjson/);
    const viaNdjson = await t.http.post('/audit/verify').set('content-type', 'application/x-ndjson').send(ndjson.text).expect(200);
    expect(viaNdjson.body.ok).toBe(true);

    const tampered = structuredClone(json);
    tampered.entries[4].data.text = 'hellp';
    const bad = (await t.http.post('/audit/verify').send(tampered).expect(200)).body;
    expect(bad.ok).toBe(false);
    expect(bad.firstDivergence.seq).toBe(5);

    await t.http.post('/audit/verify').send({ not: 'a log' }).expect(400);
  });

  it('the offline CLI verifies the same export and fails on a changed die face', () => {
    // Built by the test command before Jest runs (schema check); the CLI shares the verifier.
    return (async () => {
      const id = await fight();
      await send(id, { type: 'RollInitiative' }).expect(200);
      await send(id, { type: 'EndFight' }).expect(200);
      const log = (await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200)).text;
      const file = join(t.dataDir, 'fight.ndjson');
      writeFileSync(file, log);
      ensureBuilt();
      const cli = join(__dirname, '../dist/apps/cli/src/main.js');
      expect(execFileSync(process.execPath, [cli, 'audit', 'verify', file, '--summary']).toString()).toMatch(/ok/i);
      const parsed = parseFightLog(log);
      const initiative = parsed.entries.find((e) => e.type === 'InitiativeRolled')!;
      const roll = (initiative.data as any).rolls[0].roll;
      roll.faces[0] = (roll.faces[0] % 6) + 1;
      writeFileSync(file, JSON.stringify(parsed));
      let failed = false;
      try {
        execFileSync(process.execPath, [cli, 'audit', 'verify', file], { stdio: 'pipe' });
      } catch (e: any) {
        failed = e.status === 1 && JSON.parse(e.stdout.toString()).firstDivergence.seq === initiative.seq;
      }
      expect(failed).toBe(true);
    })();
  });

  it('time travel returns the state right after an event', async () => {
    const id = await fight('manual');
    const rolled = (await send(id, { type: 'RollInitiative', dice: [6, 6, 1, 1, 1] }).expect(200)).body;
    await send(id, { type: 'StartRound' }).expect(200);
    const past = (await t.http.get(`/fights/${id}?at=${rolled.seq}`).expect(200)).body;
    expect(past.seq).toBe(rolled.seq);
    expect(past.view).toEqual(rolled.view);
    await t.http.get(`/fights/${id}?at=999`).expect(422);
    const gql = await t.gql(`query($f: ID!, $at: Int) { fight(fightId: $f, at: $at) { seq view } }`, { f: id, at: rolled.seq });
    expect(gql.data.fight.view).toEqual(rolled.view);
  });

  it('undo through REST and GraphQL restores the state exactly, the dice continue, and the fight still verifies', async () => {
    const id = await fight('fair');
    const before = (await send(id, { type: 'AddNote', text: 'checkpoint' }).expect(200)).body;
    const rolled = (await send(id, { type: 'RollInitiative' }).expect(200)).body;
    await send(id, { type: 'StartRound' }).expect(200);
    const undone = (await send(id, { type: 'UndoCommands', count: 2 }).expect(200)).body;
    expect(undone.events[0]).toMatchObject({ type: 'ActionsUndone', data: { count: 2 } });
    const { seq: _a, headHash: _b, ...viewAfterUndo } = undone.view;
    const { seq: _c, headHash: _d, ...viewBefore } = before.view;
    expect(viewAfterUndo).toEqual(viewBefore);
    const projected = (await t.http.get(`/fights/${id}?minSeq=${undone.seq}`).expect(200)).body;
    expect(projected.view).toEqual(undone.view);

    const reroll = (await send(id, { type: 'RollInitiative' }).expect(200)).body;
    const draws = (events: any[]) => events.flatMap((e) => (e.type === 'InitiativeRolled' ? e.data.rolls.map((r: any) => r.roll.draw) : []));
    expect(Math.min(...draws(reroll.events))).toBeGreaterThan(Math.max(...draws(rolled.events)));

    const gqlUndo = await t.gql(`mutation($f: ID!) { command(fightId: $f, input: { type: "UndoCommands", payload: { count: 1 } }) { events { type } view } }`, { f: id });
    expect(gqlUndo.errors).toBeUndefined();
    expect(gqlUndo.data.command.view.initiative).toEqual([]);
    expect((await send(id, { type: 'UndoCommands', count: 0 }).expect(422)).body).toMatchObject({ code: 'UNDO_COUNT_INVALID', field: 'count' });

    await send(id, { type: 'EndFight' }).expect(200);
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({ ok: true, checks: { decisions: { status: 'ok' } } });
  });
});
