import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { narateer } from '@app/rules';
import {
  buildFightLog,
  FightLog,
  toLogEntry,
  foldFight,
  LOG_FORMAT,
  LogFormatError,
  parseFightLog,
  toNdjson,
  verifyFightLog,
} from '@app/audit';
import { duel } from './fight-recorder';

function formatError(text: string): LogFormatError {
  try {
    parseFightLog(text);
  } catch (e) {
    if (e instanceof LogFormatError) return e;
    throw e;
  }
  throw new Error('expected a LogFormatError');
}

describe('fight log export format', () => {
  const f = duel('fair');
  const log = f.log();
  const plain = JSON.parse(JSON.stringify(log)) as FightLog;

  it('the header describes the log and carries the view FightService returns at the head', () => {
    const last = f.entries[f.entries.length - 1];
    expect(log).toMatchObject({
      format: LOG_FORMAT,
      fightId: 'fight-1',
      system: 'narateer',
      events: f.entries.length,
      headHash: last.hash,
    });
    expect(log.dice).toEqual({
      mode: 'fair',
      commitment: f.state.dice.commitment,
      clientSeed: 'table-7',
      seed: f.seed,
    });
    expect(log.view).toEqual({
      ...narateer.view(foldFight(narateer, 'fight-1', f.entries) as never),
      seq: last.seq,
      headHash: last.hash,
    });
    expect(f.entries.filter((e) => e.command).map((e) => e.command!.type)).toContain('EndFight');
    expect(f.entries.every((e) => !e.command || !('revealedSeed' in e.command))).toBe(true);
  });

  it('the header records the view version of the rule system that made its view, beside the view', () => {
    expect(narateer.viewVersion).toBeGreaterThanOrEqual(1);
    expect(log.viewVersion).toBe(narateer.viewVersion);
    // Also when the caller gives the view it holds at the head (the service's cache).
    expect(buildFightLog(f.entries, log.view).viewVersion).toBe(narateer.viewVersion);
    expect(Object.keys(log).slice(-3)).toEqual(['viewVersion', 'view', 'entries']);
    expect(JSON.parse(toNdjson(log).split('\n')[0])).toHaveProperty('viewVersion', narateer.viewVersion);
  });

  it('a header without viewVersion (a log exported before views were versioned) still reads, and stays without it', () => {
    const { viewVersion: _v, ...older } = plain;
    const read = parseFightLog(JSON.stringify(older));
    expect(read).not.toHaveProperty('viewVersion');
    expect(read).toEqual(older);
    expect(parseFightLog(toNdjson(older as FightLog))).not.toHaveProperty('viewVersion');
  });

  it.each([0, -1, 1.5, '1', null, true, {}])(
    'a header whose viewVersion is %j is a LogFormatError naming viewVersion, in either form; the verifier fails it',
    (viewVersion) => {
      const doc = { ...plain, viewVersion };
      expect(formatError(JSON.stringify(doc))).toMatchObject({
        field: 'viewVersion',
        message: 'header: viewVersion must be a whole number from 1 when present',
      });
      expect(formatError(toNdjson(doc as FightLog))).toMatchObject({ line: 1, field: 'viewVersion' });
      expect(verifyFightLog(doc as FightLog)).toMatchObject({
        ok: false,
        checks: { sequence: { status: 'failed', seq: 0 } },
      });
    },
  );

  it('an unended fight has no seed in its header', () => {
    expect(duel('fair', false).log().dice.seed).toBeUndefined();
  });

  it('NDJSON round-trips: line 1 the header, then one entry per line', () => {
    const text = toNdjson(log);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + log.entries.length);
    expect(JSON.parse(lines[0])).not.toHaveProperty('entries');
    expect(parseFightLog(text)).toEqual(plain);
    expect(verifyFightLog(parseFightLog(text)).ok).toBe(true);
  });

  it('the JSON document round-trips, compact or pretty-printed', () => {
    expect(parseFightLog(JSON.stringify(log))).toEqual(plain);
    expect(parseFightLog(JSON.stringify(log, null, 2))).toEqual(plain);
    expect(verifyFightLog(parseFightLog(JSON.stringify(log, null, 2))).ok).toBe(true);
  });

  it('malformed input is a LogFormatError naming the line and field', () => {
    const lines = toNdjson(log).trimEnd().split('\n');
    expect(formatError('')).toMatchObject({ line: 1 });
    expect(formatError([lines[0], lines[1], '{"seq": 2,', lines[3]].join('\n'))).toMatchObject({
      line: 3,
      message: expect.stringContaining('line 3'),
    });
    const noSeq = JSON.parse(lines[2]);
    delete noSeq.seq;
    expect(formatError([lines[0], lines[1], JSON.stringify(noSeq)].join('\n'))).toMatchObject({
      line: 3,
      field: 'entries[1].seq',
    });
    expect(
      formatError([JSON.stringify({ ...JSON.parse(lines[0]), format: 'other/9' }), lines[1]].join('\n')),
    ).toMatchObject({ line: 1, field: 'format' });
    const doc = JSON.parse(JSON.stringify(log));
    doc.entries[2].hash = 42;
    expect(formatError(JSON.stringify(doc))).toMatchObject({ field: 'entries[2].hash' });
    expect(formatError(JSON.stringify({ ...plain, entries: undefined }, null, 2))).toMatchObject({
      field: 'entries',
    });
    expect(formatError(JSON.stringify(log, null, 2).replace('"events"', '"events" "x"'))).toMatchObject({
      line: expect.any(Number),
    });
    expect(formatError('[1,2]')).toMatchObject({ line: 1 });
  });

  it('an entry that is not an object is named by its place, in either form', () => {
    const doc = JSON.parse(JSON.stringify(log));
    doc.entries[1] = null;
    expect(formatError(JSON.stringify(doc))).toMatchObject({
      field: 'entries[1]',
      message: 'entries[1] must be a JSON object',
    });
    const lines = toNdjson(log).trimEnd().split('\n');
    expect(formatError([lines[0], lines[1], '7'].join('\n'))).toMatchObject({ line: 3, field: 'entries[1]' });
  });

  it.each([
    ['the header', 'extra', (d: any) => (d.extra = 1)],
    ["the header's dice", 'dice.extra', (d: any) => (d.dice.extra = 1)],
    ['entries[0]', 'entries[0].extra', (d: any) => (d.entries[0].extra = 1)],
    [
      'entries[3], beside a wrong field',
      'entries[3].extra',
      (d: any) => ((d.entries[3].extra = 1), (d.entries[3].seq = 'x')),
    ],
    [
      'the header, as an own __proto__ key',
      '__proto__',
      (d: any) => Object.defineProperty(d, '__proto__', { value: 1, enumerable: true }),
    ],
  ])(
    'README "Errors": given a JSON log with an unknown field in %s, it is a LogFormatError naming %s, never read past',
    (_where, field, change) => {
      const doc = JSON.parse(JSON.stringify(log));
      change(doc);
      expect(formatError(JSON.stringify(doc))).toMatchObject({
        field,
        message: expect.stringContaining(`${field} is not a field of`),
      });
      expect(verifyFightLog(doc).ok).toBe(false);
    },
  );

  it('README "Errors": given an NDJSON log with an unknown field, it is a LogFormatError naming its line and the field', () => {
    const lines = toNdjson(log).trimEnd().split('\n');
    const withExtra = (i: number, extra: Record<string, unknown>) =>
      lines.map((l, j) => (j === i ? JSON.stringify({ ...JSON.parse(l), ...extra }) : l)).join('\n');
    expect(formatError(withExtra(0, { extra: 1 }))).toMatchObject({ line: 1, field: 'extra' });
    expect(formatError(withExtra(2, { extra: 1 }))).toMatchObject({
      line: 3,
      field: 'entries[1].extra',
      message: 'line 3: entries[1].extra is not a field of a fight log entry',
    });
    // The entries of an NDJSON log are its lines: an `entries` in its header would be read past.
    expect(formatError(withExtra(0, { entries: [] }))).toMatchObject({ line: 1, field: 'entries' });
  });

  it('every recorded fixture log (test/fixtures/logs) carries only the fields of the log format', () => {
    const dir = join(__dirname, '../../../test/fixtures/logs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    const refused = (text: string) => {
      try {
        parseFightLog(text);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect([f, refused(text), refused(toNdjson(JSON.parse(text) as FightLog))]).toEqual([
        f,
        undefined,
        undefined,
      ]);
    }
  });

  it('toLogEntry reads a stored event with its metadata (drawsUsed, command)', () => {
    const e = f.entries[0];
    const { fightId, v, at, actor, commandId, drawsUsed, hash, command } = e;
    const stored = {
      id: 'x',
      stream: `fight-${fightId}`,
      revision: 0n,
      type: e.type,
      data: e.data,
      metadata: { fightId, v, at, actor, commandId, drawsUsed, hash, command },
      checkpoint: '1',
      storedAt: at,
    };
    expect(toLogEntry(stored)).toEqual(e);
  });

  it('building a log from nothing or from a non-fight is refused', () => {
    expect(() => buildFightLog([])).toThrow(LogFormatError);
    expect(() => buildFightLog(f.entries.slice(1))).toThrow(LogFormatError);
  });
});
