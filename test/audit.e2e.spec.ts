import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFightLog } from '@app/audit';
import { AppError } from '@app/fights';
import { findSystem } from '@app/rules';
import { LogVerifier } from '../apps/api/src/common/log-verifier';
import { sheet, useApp } from './support/app';
import { duel } from './support/narateer-sheets';
import { ensureBuilt } from './support/server';

describe('audit through the API', () => {
  const t = useApp();

  async function fight(mode: 'fair' | 'manual' = 'fair'): Promise<string> {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode },
        combatants: [
          { id: 'a', name: 'A', sheet: sheet(2) },
          { id: 'b', name: 'B', sheet: sheet(3) },
        ],
      })
      .expect(201);
    return body.fightId;
  }
  const send = (id: string, cmd: Record<string, unknown>) => t.http.post(`/fights/${id}/commands`).send(cmd);

  it('an exported fight verifies, as JSON and as NDJSON; one altered byte fails naming the event', async () => {
    const id = await fight();
    for (const cmd of [
      { type: 'RollInitiative' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'AddNote', text: 'hello' },
      { type: 'EndFight' },
    ])
      await send(id, cmd).expect(200);
    const json = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect(json.dice.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(json.entries.find((e: any) => e.type === 'GmNoteAdded').command).toEqual({
      type: 'AddNote',
      text: 'hello',
    });
    const report = (await t.http.post('/audit/verify').send(json).expect(200)).body;
    expect(report).toMatchObject({
      ok: true,
      checks: {
        chain: { status: 'ok' },
        seed: { status: 'ok' },
        decisions: { status: 'ok' },
        view: { status: 'ok' },
      },
    });

    const ndjson = await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200);
    expect(ndjson.headers['content-type']).toMatch(/application\/x-ndjson/);
    const viaNdjson = await t.http
      .post('/audit/verify')
      .set('content-type', 'application/x-ndjson')
      .send(ndjson.text)
      .expect(200);
    expect(viaNdjson.body.ok).toBe(true);

    const tampered = structuredClone(json);
    tampered.entries[4].data.text = 'hellp';
    const bad = (await t.http.post('/audit/verify').send(tampered).expect(200)).body;
    expect(bad.ok).toBe(false);
    expect(bad.firstDivergence.seq).toBe(5);
    // Where each failed check fails is data (seq), the same seq its detail names; a check that holds names none.
    expect(bad.checks.chain).toEqual({ status: 'failed', seq: 5, detail: expect.stringMatching(/^seq 5: /) });
    expect(Object.values(report.checks).filter((c: any) => 'seq' in c)).toEqual([]);

    // A readable object whose fields are not a fight log's: 422, the field named; text that is no JSON at all: 400.
    expect((await t.http.post('/audit/verify').send({ not: 'a log' }).expect(422)).body).toMatchObject({
      code: 'LOG_FORMAT_INVALID',
      field: expect.any(String),
    });
    expect(
      (
        await t.http
          .post('/audit/verify')
          .set('content-type', 'application/x-ndjson')
          .send('not a log\n')
          .expect(400)
      ).body,
    ).toMatchObject({ code: 'LOG_FORMAT_INVALID', field: 'line 1' });
  });

  // Each body is refused with the code and field, and in the order, every body gets: its charset
  // first, then its depth and JSON, then strings no engine stores (INVALID_STRING naming where),
  // then the query (a bad ?events= beside a JSON array is the query's 400), then the log's shape.
  it.each([
    ['?events=ten', 'application/json', '{"format":', 400, 'INVALID_JSON', 'body'],
    ['', 'application/json', '"a log"', 400, 'LOG_FORMAT_INVALID', 'body'],
    ['?events=ten', 'application/json', '42', 400, 'VALIDATION_FAILED', 'events'],
    ['', 'application/json', 'null', 400, 'LOG_FORMAT_INVALID', 'body'],
    ['', 'application/json', `${'['.repeat(70)}${']'.repeat(70)}`, 400, 'BODY_TOO_DEEP', 'body'],
    ['', 'application/json', '{"format":"x","fightId":"a\\u0000"}', 400, 'INVALID_STRING', 'fightId'],
    ['', 'application/x-ndjson', '{"fightId":"a\u0000"}\n', 400, 'INVALID_STRING', 'body'],
    ['?events=ten', 'application/json', '[]', 400, 'VALIDATION_FAILED', 'events'],
    ['', 'application/json', '[]', 400, 'LOG_FORMAT_INVALID', 'body'],
    ['', 'application/json; charset=latin1', '{}', 415, 'UNSUPPORTED_MEDIA_TYPE', 'content-type'],
  ])(
    'given POST /audit/verify%s as %s, %j: %d %s naming %s',
    async (query, type, body, status, code, field) => {
      const res = await t.http.post(`/audit/verify${query}`).set('content-type', type).send(body);
      expect({ status: res.status, code: res.body.code, field: res.body.field }).toEqual({
        status,
        code,
        field,
      });
    },
  );

  it('README "Errors": given an exported log with a field the format does not have, POST /audit/verify and verifyFightLog answer 422 LOG_FORMAT_INVALID naming it', async () => {
    const id = await fight();
    for (const cmd of [{ type: 'RollInitiative' }, { type: 'EndFight' }]) await send(id, cmd).expect(200);
    const json = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(json).expect(200)).body).toMatchObject({
      ok: true,
      complete: true,
    });
    const cases: Array<[string, (d: any) => void]> = [
      ['extra', (d) => (d.extra = 1)],
      ['dice.extra', (d) => (d.dice.extra = 1)],
      ['entries[0].extra', (d) => (d.entries[0].extra = 1)],
    ];
    for (const [field, change] of cases) {
      const doc = structuredClone(json);
      change(doc);
      const res = await t.http.post('/audit/verify').send(doc);
      expect([res.status, res.body.code, res.body.field]).toEqual([422, 'LOG_FORMAT_INVALID', field]);
      expect(res.body.message).toContain(`${field} is not a field of`);
      const gql = await t.gql('mutation($log: JSONObject!) { verifyFightLog(log: $log) }', { log: doc });
      expect(gql.errors?.[0]?.extensions).toMatchObject({
        statusCode: 422,
        code: 'LOG_FORMAT_INVALID',
        field,
      });
    }

    // NDJSON: the field as the JSON document would name it; the message names the line too.
    const lines = (await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200)).text
      .trimEnd()
      .split('\n');
    for (const [i, field, message] of [
      [0, 'extra', 'line 1: header: extra is not a field of a fight log header'],
      [1, 'entries[0].extra', 'line 2: entries[0].extra is not a field of a fight log entry'],
    ] as const) {
      const text = lines
        .map((l, j) => (j === i ? JSON.stringify({ ...JSON.parse(l), extra: 1 }) : l))
        .join('\n');
      const res = await t.http.post('/audit/verify').set('content-type', 'application/x-ndjson').send(text);
      expect([res.status, res.body.code, res.body.field, res.body.message]).toEqual([
        422,
        'LOG_FORMAT_INVALID',
        field,
        message,
      ]);
    }
  });

  it('README "Audit": GET /fights/:id/log records the view version; a log whose view an earlier build made verifies over POST /audit/verify with view skipped', async () => {
    const id = await fight();
    for (const cmd of [
      { type: 'RollInitiative' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'EndFight' },
    ])
      await send(id, cmd).expect(200);
    const json = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    const version = findSystem('narateer')!.viewVersion;
    expect(json.viewVersion).toBe(version);
    const ndjson = (await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200)).text;
    expect(JSON.parse(ndjson.split('\n')[0]).viewVersion).toBe(version);

    // The view as an earlier build showed it: a field this one shows is missing, one it lacks is there.
    const { viewVersion: _today, ...before } = structuredClone(json);
    const { round: _round, ...view } = before.view;
    before.view = { ...view, oldField: 1 };
    for (const [what, log] of [
      ['no view version', before],
      ['another view version', { ...before, viewVersion: version + 1 }],
    ]) {
      const report = (await t.http.post('/audit/verify').send(log).expect(200)).body;
      expect([what, report]).toMatchObject([
        what,
        {
          ok: true,
          complete: true,
          checks: {
            chain: { status: 'ok' },
            seed: { status: 'ok' },
            decisions: { status: 'ok' },
            view: { status: 'skipped', detail: expect.stringContaining(`narateer view version ${version}`) },
          },
        },
      ]);
      expect(report.firstDivergence).toBeUndefined();
      expect(report.notProven).toContainEqual({
        claim: 'viewMatches',
        reason: expect.stringContaining('the view is not compared'),
      });
    }
    // Under this build's version the same view is compared, and fails.
    const altered = (
      await t.http
        .post('/audit/verify')
        .send({ ...before, viewVersion: version })
        .expect(200)
    ).body;
    expect(altered).toMatchObject({ ok: false, checks: { view: { status: 'failed' } } });
  });

  it('README "Commands": given a recorded command the live API refuses, POST /audit/verify and verifyFightLog fail its decision at its seq', async () => {
    const text = readFileSync(join(__dirname, 'fixtures/logs/narateer-manual-walkthrough.json'), 'utf8');
    // Seq 4 records RollInitiative, seq 5 StartRound: each edit is made to the log's text, as a forger would.
    const cases: Array<[number, string, string, string]> = [
      [4, '{"type":"RollInitiative",', '{"type":"RollInitiative","zzz":1,', 'zzz'],
      [4, '{"type":"RollInitiative",', '{"type":"RollInitiative","__proto__":{"x":1},', '__proto__'],
      [5, '{"type":"StartRound"}', '{"type":"StartRound","commandId":"c-1"}', 'commandId'],
      [5, '{"type":"StartRound"}', '{"type":"StartRound","expectedSeq":4}', 'expectedSeq'],
      [5, '{"type":"StartRound"}', '{"type":"StartRound","reason":"x"}', 'reason'],
    ];
    const compact = JSON.stringify(JSON.parse(text));
    expect((await t.http.post('/audit/verify').send(JSON.parse(text)).expect(200)).body.ok).toBe(true);
    for (const [seq, from, to, field] of cases) {
      expect(compact).toContain(from);
      const body = compact.replace(from, to);
      const res = await t.http.post('/audit/verify').set('content-type', 'application/json').send(body);
      expect([res.status, res.body.ok, res.body.checks?.decisions]).toEqual([
        200,
        false,
        {
          status: 'failed',
          seq,
          detail: expect.stringContaining(`UNKNOWN_FIELD: ${field} is not a field of`),
        },
      ]);
      expect(res.body.firstDivergence).toMatchObject({ seq, check: 'decisions' });
      expect(res.body.proven).not.toContain('decisionsVerified');
    }

    // The same refusal the live API gives the command itself, and the same report over GraphQL.
    const id = await fight('manual');
    await send(id, { type: 'RollInitiative', dice: [6, 6, 1, 1, 1] }).expect(200);
    expect((await send(id, { type: 'StartRound', reason: 'x' }).expect(422)).body).toMatchObject({
      code: 'UNKNOWN_FIELD',
      field: 'reason',
    });
    const gql = await t.gql('mutation($log: JSONObject!) { verifyFightLog(log: $log) }', {
      log: JSON.parse(compact.replace('{"type":"StartRound"}', '{"type":"StartRound","reason":"x"}')),
    });
    expect(gql.data?.verifyFightLog).toMatchObject({
      ok: false,
      checks: { decisions: { status: 'failed', seq: 5 } },
    });
  });

  it('README "Commands": a command is decided as it was sent, not as its contract parses it: a held command and its dice verify', async () => {
    const id = (
      await t.http
        .post('/fights')
        .send(duel({ mode: 'manual' }))
        .expect(201)
    ).body.fightId;
    for (const cmd of [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
    ])
      await send(id, cmd).expect(200);
    // C13: Disadvantage's reroll face is asked for, the command held in DiceRequested as it was sent.
    const asked = await send(id, {
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 1,
      attackerCannotSeeTarget: true,
      response: 'none',
      dice: [1, 1],
    }).expect(200);
    expect(asked.body.view.pending).toMatchObject({ kind: 'dice', detail: { field: 'rerollFaces' } });
    await send(id, { type: 'ProvideDice', rerollFaces: [1] }).expect(200);
    await send(id, { type: 'EndFight' }).expect(200);
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({
      ok: true,
      complete: true,
      checks: { decisions: { status: 'ok' } },
    });
  });

  it('given a verifier with more logs waiting than it keeps, answers 503 VERIFIER_BUSY with Retry-After, on REST and GraphQL', async () => {
    // The bound itself is the verifier's (apps/api/spec/common/log-verifier.int.spec.ts); here, what a client sees.
    const verifier = t.app.get(LogVerifier);
    const busy = () =>
      new AppError(503, 'VERIFIER_BUSY', 'the verifier has 3 fight logs to verify before this one');
    const posted = jest.spyOn(verifier, 'verifyPosted').mockRejectedValueOnce(busy());
    const text = jest.spyOn(verifier, 'verify').mockRejectedValueOnce(busy());
    try {
      const res = await t.http.post('/audit/verify').send({ format: 'combat-rules-fight-log/1' }).expect(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({
        statusCode: 503,
        code: 'VERIFIER_BUSY',
        message: 'the verifier has 3 fight logs to verify before this one',
      });
      const gql = await t.gql('mutation($log: JSONObject!) { verifyFightLog(log: $log) }', { log: {} });
      expect(gql.errors?.[0]?.extensions).toMatchObject({ statusCode: 503, code: 'VERIFIER_BUSY' });
      expect([posted.mock.calls.length, text.mock.calls.length]).toEqual([1, 1]);
    } finally {
      posted.mockRestore();
      text.mockRestore();
    }
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
      expect(execFileSync(process.execPath, [cli, 'audit', 'verify', file, '--summary']).toString()).toMatch(
        /ok/i,
      );
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

  describe('a complete fight told from a prefix', () => {
    const VERIFY = `mutation($log: JSONObject!, $headHash: String, $events: Int) { verifyFightLog(log: $log, headHash: $headHash, events: $events) }`;
    let full: any;
    let prefix: any;
    beforeAll(async () => {
      const id = await fight();
      for (const cmd of [
        { type: 'RollInitiative' },
        { type: 'StartRound' },
        { type: 'AddNote', text: 'last words' },
        { type: 'EndFight' },
      ])
        await send(id, cmd).expect(200);
      full = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
      // Cut after event k and make the header match, as anyone holding the export can: no seed, view from ?at=k.
      const k = full.events - 2;
      const { view } = (await t.http.get(`/fights/${id}?at=${k}`).expect(200)).body;
      const { seed: _seed, ...dice } = full.dice;
      prefix = {
        ...full,
        dice,
        events: k,
        headHash: full.entries[k - 1].hash,
        view,
        entries: full.entries.slice(0, k),
      };
    });

    it('over REST: the prefix verifies on its own but is not complete, and fails against the expected head or count', async () => {
      const alone = (await t.http.post('/audit/verify').send(prefix).expect(200)).body;
      expect(alone).toMatchObject({ ok: true, complete: false, events: full.events - 2 });
      expect(alone.notProven.map((n: any) => n.claim)).toEqual(
        expect.arrayContaining(['complete', 'headMatches', 'eventCountMatches']),
      );

      const byHash = (await t.http.post(`/audit/verify?headHash=${full.headHash}`).send(prefix).expect(200))
        .body;
      expect(byHash).toMatchObject({
        ok: false,
        complete: false,
        checks: { chain: { status: 'ok' }, head: { status: 'failed' } },
        firstDivergence: { seq: full.events - 1, check: 'head' },
      });
      const byCount = (await t.http.post(`/audit/verify?events=${full.events}`).send(prefix).expect(200))
        .body;
      expect(byCount).toMatchObject({ ok: false, firstDivergence: { seq: full.events - 1, check: 'head' } });
      const ndjson = prefix.entries.map((e: unknown) => JSON.stringify(e));
      const { entries: _e, ...header } = prefix;
      const viaNdjson = await t.http
        .post(`/audit/verify?headHash=${full.headHash}`)
        .set('content-type', 'application/x-ndjson')
        .send([JSON.stringify(header), ...ndjson].join('\n'))
        .expect(200);
      expect(viaNdjson.body).toMatchObject({ ok: false, checks: { head: { status: 'failed' } } });
    });

    it('over REST: the complete log with its head proves every claim; a wrong expected head fails it', async () => {
      const whole = (
        await t.http
          .post(`/audit/verify?headHash=${full.headHash}&events=${full.events}`)
          .send(full)
          .expect(200)
      ).body;
      expect(whole).toMatchObject({ ok: true, complete: true, notProven: [] });
      expect(whole.proven).toEqual([
        'chainIntact',
        'seedVerified',
        'decisionsVerified',
        'viewMatches',
        'complete',
        'headMatches',
        'eventCountMatches',
      ]);
      const wrong = (
        await t.http
          .post(`/audit/verify?headHash=${'0'.repeat(64)}`)
          .send(full)
          .expect(200)
      ).body;
      expect(wrong).toMatchObject({ ok: false, complete: true, checks: { head: { status: 'failed' } } });
      expect(wrong.notProven).toContainEqual({ claim: 'headMatches', reason: expect.any(String) });
    });

    it('over REST: a malformed expectation or an unknown query parameter is a 400 naming it', async () => {
      for (const [query, field] of [
        ['headHash=abc', 'headHash'],
        ['events=0', 'events'],
        ['events=ten', 'events'],
        [`headHash=${full.headHash}&headHash=${full.headHash}`, 'headHash'],
        ['headhash=x', 'headhash'],
      ]) {
        const res = await t.http.post(`/audit/verify?${query}`).send(full).expect(400);
        expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', field });
      }
    });

    it('over GraphQL: the same report, the same expectations', async () => {
      const alone = await t.gql(VERIFY, { log: prefix });
      expect(alone.errors).toBeUndefined();
      expect(alone.data.verifyFightLog).toMatchObject({ ok: true, complete: false });
      const byHash = await t.gql(VERIFY, { log: prefix, headHash: full.headHash });
      expect(byHash.data.verifyFightLog).toMatchObject({
        ok: false,
        complete: false,
        firstDivergence: { check: 'head' },
      });
      const whole = await t.gql(VERIFY, { log: full, headHash: full.headHash, events: full.events });
      expect(whole.data.verifyFightLog).toMatchObject({ ok: true, complete: true, notProven: [] });
      const wrong = await t.gql(VERIFY, { log: full, headHash: 'f'.repeat(64) });
      expect(wrong.data.verifyFightLog).toMatchObject({ ok: false, checks: { head: { status: 'failed' } } });
      const bad = await t.gql(VERIFY, { log: full, headHash: 'nope' });
      expect(bad.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'headHash' });
    });

    it('the CLI: the prefix verifies but is not complete; --head-hash and --events fail it', () => {
      const file = join(t.dataDir, 'prefix.json');
      writeFileSync(file, JSON.stringify(prefix));
      ensureBuilt();
      const cli = join(__dirname, '../dist/apps/cli/src/main.js');
      const run = (...args: string[]) => {
        try {
          return {
            status: 0,
            report: JSON.parse(
              execFileSync(process.execPath, [cli, 'audit', 'verify', file, ...args], {
                stdio: 'pipe',
              }).toString(),
            ),
          };
        } catch (e: any) {
          return { status: e.status as number, report: JSON.parse(e.stdout.toString()) };
        }
      };
      expect(run()).toMatchObject({ status: 0, report: { ok: true, complete: false } });
      expect(run('--head-hash', full.headHash)).toMatchObject({
        status: 1,
        report: { ok: false, checks: { head: { status: 'failed' } } },
      });
      expect(run('--events', String(full.events))).toMatchObject({
        status: 1,
        report: { ok: false, checks: { head: { status: 'failed' } } },
      });
      expect(run('--events', 'x')).toMatchObject({
        status: 1,
        report: { ok: false, error: { code: 'VALIDATION_FAILED', field: 'events' } },
      });
    });
  });

  it('time travel returns the state right after an event', async () => {
    const id = await fight('manual');
    const rolled = (await send(id, { type: 'RollInitiative', dice: [6, 6, 1, 1, 1] }).expect(200)).body;
    await send(id, { type: 'StartRound' }).expect(200);
    const past = (await t.http.get(`/fights/${id}?at=${rolled.seq}`).expect(200)).body;
    expect(past.seq).toBe(rolled.seq);
    expect(past.view).toEqual(rolled.view);
    await t.http.get(`/fights/${id}?at=999`).expect(422);
    const gql = await t.gql(`query($f: ID!, $at: Int) { fight(fightId: $f, at: $at) { seq view } }`, {
      f: id,
      at: rolled.seq,
    });
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
    const draws = (events: any[]) =>
      events.flatMap((e) => (e.type === 'InitiativeRolled' ? e.data.rolls.map((r: any) => r.roll.draw) : []));
    expect(Math.min(...draws(reroll.events))).toBeGreaterThan(Math.max(...draws(rolled.events)));

    const gqlUndo = await t.gql(
      `mutation($f: ID!) { command(fightId: $f, input: { type: "UndoCommands", payload: { count: 1 } }) { events { type } view } }`,
      { f: id },
    );
    expect(gqlUndo.errors).toBeUndefined();
    expect(gqlUndo.data.command.view.initiative).toEqual([]);
    expect((await send(id, { type: 'UndoCommands', count: 0 }).expect(422)).body).toMatchObject({
      code: 'UNDO_COUNT_INVALID',
      field: 'count',
    });

    await send(id, { type: 'EndFight' }).expect(200);
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({
      ok: true,
      checks: { decisions: { status: 'ok' } },
    });
  });
});
