import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { eventHash } from '@app/fight-log';
import { registerAudit } from '../apps/cli/src/audit';
import { useApp } from './support/app';
import { declare, duel, respond } from './support/narateer-sheets';
import { RawWsClient } from './support/ws-client';

/**
 * Hostile fight logs (README "Audit", "Errors"): each is refused with a stable code naming the field, or
 * fails verification at the event it changed, the same over REST, GraphQL and the CLI; none verifies.
 */
describe('audit: hostile fight logs', () => {
  const t = useApp({ listen: true });
  const VERIFY = `mutation($log: JSONObject!) { verifyFightLog(log: $log) }`;
  let json: string;
  let ndjson: string;
  const dir = mkdtempSync(join(tmpdir(), 'crs-hostile-'));

  beforeAll(async () => {
    const { body } = await t.http
      .post('/fights')
      .send(duel({ mode: 'manual' }))
      .expect(201);
    const id = body.fightId as string;
    for (const cmd of [
      { type: 'RollInitiative', dice: [6, 4, 2, 3, 1] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      declare,
      respond,
      { type: 'AddNote', text: 'née \ufffd' },
      { type: 'EndFight' },
    ])
      await t.http.post(`/fights/${id}/commands`).send(cmd).expect(200);
    json = (await t.http.get(`/fights/${id}/log`).expect(200)).text;
    ndjson = (await t.http.get(`/fights/${id}/log?format=ndjson`).expect(200)).text;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** POST /audit/verify with these bytes exactly: `{ status, body }`. */
  async function rest(payload: string | Buffer, type = 'application/json') {
    const res = await fetch(`${t.url}/audit/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': type },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  /** The CLI's `audit verify <file>` in this process: its exit code and what it printed. */
  async function cli(content: string | Buffer): Promise<{ exitCode: number; out: any }> {
    const file = join(dir, 'log');
    writeFileSync(file, content);
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((m: string) => void lines.push(m));
    const before = process.exitCode;
    process.exitCode = undefined;
    try {
      const program = new Command('cli').exitOverride();
      registerAudit(program);
      await program.parseAsync(['node', 'cli', 'audit', 'verify', file]);
      return { exitCode: Number(process.exitCode ?? 0), out: JSON.parse(lines.join('\n')) };
    } finally {
      process.exitCode = before;
      log.mockRestore();
    }
  }

  /** The exported document with its hash chain rebuilt after `change`, as a forger would. */
  function forged(change: (log: any) => void): any {
    const log = JSON.parse(json);
    change(log);
    let previous = '';
    for (const e of log.entries) previous = e.hash = eventHash(previous, e);
    log.headHash = log.view.headHash = previous;
    return log;
  }

  it('given a die face written with more precision than a double holds (2.0000000000000001 for 2), REST (JSON and NDJSON) and the CLI answer 422 LOG_FORMAT_INVALID naming it, never ok', async () => {
    const doc = json.replace('"faces":[6,4,2]', '"faces":[6,4,2.0000000000000001]');
    expect(doc).not.toBe(json);
    const field = 'entries[3].data.rolls[0].roll.faces[2]';
    expect((await rest(doc)).body).toMatchObject({ statusCode: 422, code: 'LOG_FORMAT_INVALID', field });
    const lines = ndjson.replace('"faces":[6,4,2]', '"faces":[6,4,2.0000000000000001]');
    const viaNdjson = await rest(lines, 'application/x-ndjson');
    expect(viaNdjson.body).toMatchObject({ statusCode: 422, code: 'LOG_FORMAT_INVALID', field });
    expect(viaNdjson.body.message).toMatch(/^line 5: /);
    expect(await cli(doc)).toEqual({
      exitCode: 1,
      out: { ok: false, error: expect.objectContaining({ code: 'LOG_FORMAT_INVALID', field }) },
    });
  });

  /** Whole numbers written otherwise than the service writes them: what, where in the log, how, and the field named. */
  const WHOLE_NUMBERS: Array<[string, string, string, string]> = [
    ['4e0', '"seq":4,', '"seq":4e0,', 'entries[3].seq'],
    ['4.0', '"seq":4,', '"seq":4.0,', 'entries[3].seq'],
    ['-0', '"drawsUsed":0', '"drawsUsed":-0', 'entries[0].drawsUsed'],
    [
      'with twenty decimals',
      '"dice":[6,4,2,3,1]',
      '"dice":[6,4,2,3,1.00000000000000000001]',
      'entries[3].command.dice[4]',
    ],
  ];
  const HIDDEN_NUMBERS: Array<[string, string, string, string]> = [
    [
      'a die face 2.0000000000000001',
      '"faces":[6,4,2]',
      '"faces":[6,4,2.0000000000000001]',
      'entries[3].data.rolls[0].roll.faces[2]',
    ],
    ...WHOLE_NUMBERS.map(([what, from, to, field]): [string, string, string, string] => [
      `a whole number written ${what}`,
      from,
      to,
      field,
    ]),
  ];

  it.each(WHOLE_NUMBERS)(
    'given a whole number written %s (%s for %s), POST /audit/verify and the CLI answer 422 LOG_FORMAT_INVALID naming %s',
    async (_what, from, to, field) => {
      const doc = json.replace(from, to);
      expect(doc).not.toBe(json);
      expect((await rest(doc)).body).toMatchObject({ statusCode: 422, code: 'LOG_FORMAT_INVALID', field });
      expect((await cli(doc)).out.error).toMatchObject({ code: 'LOG_FORMAT_INVALID', field });
    },
  );

  /** POST /graphql with this body text exactly: its JSON answer. */
  async function graphql(body: string): Promise<any> {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
      body,
    });
    return res.json();
  }

  /** A JSON value as a GraphQL literal: `{seq:4,data:{…}}` (every member name of a log is a GraphQL name). */
  const literal = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(literal).join(',')}]`
      : v !== null && typeof v === 'object'
        ? `{${Object.entries(v)
            .map(([k, x]) => `${k}:${literal(x)}`)
            .join(',')}}`
        : JSON.stringify(v);
  /** JSON text of members as the same members in a GraphQL literal (`"seq":4,` is `seq:4,`). */
  const asLiteral = (text: string) => text.replace(/"(\w+)":/g, '$1:');

  /**
   * The exported log written into the query: one entry a literal (with `from` changed to `to` there), every
   * other entry and header member a variable (the whole log is more tokens than a query may hold).
   */
  function inlineVerify(at: number, change?: [string, string]): { query: string; variables: any } {
    const log = JSON.parse(json);
    const variables: Record<string, unknown> = {};
    const members = Object.keys(log)
      .filter((k) => k !== 'entries')
      .map((k) => ((variables[`h_${k}`] = log[k]), `${k}: $h_${k}`));
    const entries = log.entries.map((e: unknown, i: number) =>
      i === at ? literal(e) : ((variables[`e${i}`] = e), `$e${i}`),
    );
    if (change) {
      const changed = entries[at].replace(asLiteral(change[0]), asLiteral(change[1]));
      expect(changed).not.toBe(entries[at]);
      entries[at] = changed;
    }
    const declared = Object.keys(variables)
      .map((name) => `$${name}: JSON`)
      .join(', ');
    return {
      query: `mutation(${declared}) { verifyFightLog(log: {${members.join(', ')}, entries: [${entries.join(', ')}]}) }`,
      variables,
    };
  }

  /** REST's refusal of the same log, as GraphQL's extensions carry it. */
  async function restRefusal(doc: string): Promise<Record<string, unknown>> {
    const { status, body } = await rest(doc);
    expect(status).toBe(422);
    const { statusCode, code, field, message } = body;
    return { statusCode, code, field, message };
  }

  it.each(HIDDEN_NUMBERS)(
    'given %s in a log sent to GraphQL verifyFightLog as a variable (%s for %s), it answers as POST /audit/verify: 422 LOG_FORMAT_INVALID naming %s, never a report',
    async (_what, from, to, field) => {
      const doc = json.replace(from, to);
      expect(doc).not.toBe(json);
      const refusal = await restRefusal(doc);
      expect(refusal).toMatchObject({ code: 'LOG_FORMAT_INVALID', field });
      const res = await graphql(`{"query":${JSON.stringify(VERIFY)},"variables":{"log":${doc}}}`);
      expect(res.data?.verifyFightLog ?? null).toBeNull();
      expect(res.errors?.[0]?.extensions).toMatchObject(refusal);
    },
  );

  it.each(HIDDEN_NUMBERS)(
    'given %s written in the query’s literal for verifyFightLog’s log (%s for %s), it answers as POST /audit/verify: 422 LOG_FORMAT_INVALID naming %s',
    async (_what, from, to, field) => {
      const refusal = await restRefusal(json.replace(from, to));
      const at = Number(/^entries\[(\d+)\]/.exec(field)![1]);
      const { query, variables } = inlineVerify(at, [from, to]);
      const res = await t.gql(query, variables);
      expect(res.data?.verifyFightLog ?? null).toBeNull();
      expect(res.errors?.[0]?.extensions).toMatchObject(refusal);
    },
  );

  it('given a die face 2.0000000000000001 inside a variable that a literal log holds as one of its entries, GraphQL names it from the log: entries[3].data.rolls[0].roll.faces[2]', async () => {
    const { query, variables } = inlineVerify(0);
    const entry = JSON.stringify(variables.e3).replace('"faces":[6,4,2]', '"faces":[6,4,2.0000000000000001]');
    expect(entry).not.toBe(JSON.stringify(variables.e3));
    const body = JSON.stringify({ query, variables }).replace(JSON.stringify(variables.e3), entry);
    const res = await graphql(body);
    expect(res.errors?.[0]?.extensions).toMatchObject({
      statusCode: 422,
      code: 'LOG_FORMAT_INVALID',
      field: 'entries[3].data.rolls[0].roll.faces[2]',
    });
  });

  it('given a log with a member the format does not have and a die face 2.0000000000000001, GraphQL names the member first, as POST /audit/verify does', async () => {
    const doc = json
      .replace('"faces":[6,4,2]', '"faces":[6,4,2.0000000000000001]')
      .replace(/^\{/, '{"extra":1,');
    const refusal = await restRefusal(doc);
    expect(refusal).toMatchObject({ field: 'extra' });
    const res = await graphql(`{"query":${JSON.stringify(VERIFY)},"variables":{"log":${doc}}}`);
    expect(res.errors?.[0]?.extensions).toMatchObject(refusal);
  });

  it('given a log written as the service writes it, GraphQL verifyFightLog verifies it sent as a variable’s text and written in the query', async () => {
    const asVariable = await graphql(`{"query":${JSON.stringify(VERIFY)},"variables":{"log":${json}}}`);
    expect(asVariable.data.verifyFightLog).toMatchObject({ ok: true, complete: true });
    const { query, variables } = inlineVerify(3);
    expect((await t.gql(query, variables)).data.verifyFightLog).toMatchObject({ ok: true, complete: true });
  });

  it('given a die face 2.0000000000000001 in a log sent to verifyFightLog over graphql-ws, the operation answers 422 LOG_FORMAT_INVALID naming it, as POST /graphql does', async () => {
    const doc = json.replace('"faces":[6,4,2]', '"faces":[6,4,2.0000000000000001]');
    const refusal = await restRefusal(doc);
    const ws = await RawWsClient.connect(t);
    try {
      ws.send(
        `{"id":"v","type":"subscribe","payload":{"query":${JSON.stringify(VERIFY)},"variables":{"log":${doc}}}}`,
      );
      const answer = await ws.next((m) => m.id === 'v' && m.type === 'next');
      expect((answer.payload as any).errors?.[0]?.extensions).toMatchObject(refusal);
      ws.send(
        `{"id":"w","type":"subscribe","payload":{"query":${JSON.stringify(VERIFY)},"variables":{"log":${json}}}}`,
      );
      const genuine = await ws.next((m) => m.id === 'w' && m.type === 'next');
      expect((genuine.payload as any).data.verifyFightLog).toMatchObject({ ok: true });
    } finally {
      ws.close();
    }
  });

  it('given a command recorded on an event that is not its command’s first, the log fails sequence at that seq over REST, GraphQL and the CLI (it was ignored and verified)', async () => {
    const log = JSON.parse(json);
    // seq 2 is the second event of StartFight: a command there would never be read.
    log.entries[1].command = { type: 'AddNote', text: 'slipped in' };
    const report = (await rest(JSON.stringify(log))).body;
    expect(report).toMatchObject({ ok: false, checks: { sequence: { status: 'failed', seq: 2 } } });
    expect(report.firstDivergence).toMatchObject({ seq: 2, check: 'sequence' });
    const viaGraphql = await t.gql(VERIFY, { log });
    expect(viaGraphql.data.verifyFightLog.checks.sequence).toEqual(report.checks.sequence);
    expect((await cli(JSON.stringify(log))).out.checks.sequence).toEqual(report.checks.sequence);
  });

  it('given an event of a version the service never writes, its chain rebuilt, the log fails sequence at that seq', async () => {
    const log = forged((l) => (l.entries[4].v = 2));
    const report = (await rest(JSON.stringify(log))).body;
    expect(report).toMatchObject({ ok: false, checks: { sequence: { status: 'failed', seq: 5 } } });
    expect((await cli(JSON.stringify(log))).out).toMatchObject({ ok: false, checks: report.checks });
  });

  it('given a Narateer log that claims Archsoul, its chain rebuilt, every failed check names the seq it fails at (no "could not run")', async () => {
    const log = forged((l) => {
      l.system = l.view.system = l.entries[0].data.system = 'archsoul';
    });
    const report = (await rest(JSON.stringify(log))).body;
    expect(report.ok).toBe(false);
    for (const check of Object.values<any>(report.checks))
      if (check.status === 'failed') expect(check).toMatchObject({ seq: expect.any(Number) });
    expect(report.checks.view.detail).not.toMatch(/could not run/);
    expect((await t.gql(VERIFY, { log })).data.verifyFightLog.checks).toEqual(report.checks);
  });

  it('the CLI reads a log file as POST /audit/verify reads a body: a duplicate member is DUPLICATE_KEY, bytes that are no UTF-8 are INVALID_JSON, a BOM is no part of the text', async () => {
    const dup = json.replace('"events":13', '"events":99,"events":13');
    expect((await rest(dup)).body).toMatchObject({ code: 'DUPLICATE_KEY', field: 'events' });
    expect(await cli(dup)).toEqual({
      exitCode: 1,
      out: { ok: false, error: expect.objectContaining({ code: 'DUPLICATE_KEY', field: 'events' }) },
    });

    // The note holds U+FFFD (EF BF BD); a byte FF in its place read as U+FFFD again would verify a changed file.
    const bytes = Buffer.from(json);
    const at = bytes.indexOf(Buffer.from('\ufffd'));
    const changed = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]);
    expect((await rest(changed)).body).toMatchObject({ code: 'INVALID_JSON', field: 'body' });
    expect((await cli(changed)).out).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'INVALID_JSON', field: 'body' }),
    });

    expect((await rest(`\ufeff${json}`)).body.ok).toBe(true);
    expect(await cli(`\ufeff${json}`)).toMatchObject({ exitCode: 0, out: { ok: true } });
    expect(await cli(Buffer.from(`\ufeff${ndjson}`, 'utf16le'))).toMatchObject({
      exitCode: 0,
      out: { ok: true },
    });

    const deep = json.replace('"text":"née', `"deep":${'['.repeat(70)}${']'.repeat(70)},"text":"née`);
    expect((await rest(deep)).body).toMatchObject({ code: 'BODY_TOO_DEEP', field: 'body' });
    expect((await cli(deep)).out.error).toMatchObject({ code: 'BODY_TOO_DEEP', field: 'body' });
  });
  it('given a log with a string no engine stores before a duplicate member, the CLI names the duplicate, as POST /audit/verify does, JSON and NDJSON alike', async () => {
    const both = (log: string) =>
      log.replace('"events":13', '"events":13,"n\\u0000":1').replace('"text":"née', '"text":"x","text":"née');
    const document = (await rest(both(json))).body;
    expect(document).toMatchObject({ code: 'DUPLICATE_KEY', field: expect.stringMatching(/\.text$/) });
    expect((await cli(both(json))).out.error).toMatchObject({ code: 'DUPLICATE_KEY', field: document.field });
    const lines = both(ndjson);
    expect(lines).toContain('n\\u0000');
    const viaNdjson = (await rest(lines, 'application/x-ndjson')).body;
    expect(viaNdjson).toMatchObject({ code: 'DUPLICATE_KEY', field: document.field });
    expect((await cli(lines)).out.error).toMatchObject({ code: 'DUPLICATE_KEY', field: document.field });
  });

  it('given an NDJSON log whose string holds an escaped U+0000, then it is 400 INVALID_STRING naming the field as the same log as JSON is, its line in the message', async () => {
    const document = await rest(json.replace('née', 'n\\u0000e'));
    expect(document.status).toBe(400);
    expect(document.body).toMatchObject({ code: 'INVALID_STRING' });
    const lines = ndjson.split('\n');
    const at = lines.findIndex((line) => line.includes('née'));
    const viaNdjson = await rest(ndjson.replace('née', 'n\\u0000e'), 'application/x-ndjson');
    expect(viaNdjson.status).toBe(400);
    expect(viaNdjson.body).toMatchObject({ code: 'INVALID_STRING', field: document.body.field });
    expect(viaNdjson.body.message).toMatch(new RegExp(`^line ${at + 1}: `));
  });
});
