import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FightLog, parseFightLog, verifyFightLog } from '@app/audit';

/**
 * README "Commands": a command is checked strictly against its declaration before the rules decide it. A log
 * whose recorded command the live API would refuse was not written by the service: its decisions fail.
 */
const dir = join(__dirname, '../../../test/fixtures/logs');
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const WALKTHROUGH = 'narateer-manual-walkthrough.json';

/** The log as POST /audit/verify reads it, with the command recorded at `seq` changed as JSON text. */
function withCommand(text: string, seq: number, change: (json: string) => string): FightLog {
  const doc = JSON.parse(text) as FightLog;
  const entry = doc.entries[seq - 1];
  const json = JSON.stringify(entry.command);
  // Through the text, as a posted log: JSON.parse makes `__proto__` an own key.
  entry.command = JSON.parse(change(json)) as FightLog['entries'][number]['command'];
  return parseFightLog(JSON.stringify(doc));
}
const add = (fields: string) => (json: string) => json.replace(/}$/, `,${fields}}`);

describe('verifyFightLog: a recorded command the live API would refuse', () => {
  it('given the genuine walkthrough, every decision verifies', () => {
    const report = verifyFightLog(parseFightLog(read(WALKTHROUGH)));
    expect(report.ok).toBe(true);
    expect(report.checks.decisions.status).toBe('ok');
  });

  it.each([
    [
      'an unknown field',
      4,
      'RollInitiative',
      add('"zzz":1'),
      'UNKNOWN_FIELD: zzz is not a field of RollInitiative',
    ],
    [
      'an own __proto__ key',
      4,
      'RollInitiative',
      add('"__proto__":{"x":1}'),
      'UNKNOWN_FIELD: __proto__ is not a field of RollInitiative',
    ],
    [
      'the envelope commandId inside it',
      5,
      'StartRound',
      add('"commandId":"c-1"'),
      'UNKNOWN_FIELD: commandId is not a field of StartRound',
    ],
    [
      'the envelope expectedSeq inside it',
      5,
      'StartRound',
      add('"expectedSeq":4'),
      'UNKNOWN_FIELD: expectedSeq is not a field of StartRound',
    ],
    [
      'a field another command declares (StartRound has no reason)',
      5,
      'StartRound',
      add('"reason":"x"'),
      'UNKNOWN_FIELD: reason is not a field of StartRound',
    ],
    [
      'an unknown field on StartFight',
      1,
      'StartFight',
      add('"zzz":1'),
      'UNKNOWN_FIELD: zzz is not a field of StartFight',
    ],
    [
      'an unknown field on EndFight',
      13,
      'EndFight',
      add('"zzz":1'),
      'UNKNOWN_FIELD: zzz is not a field of EndFight',
    ],
    [
      'a wrongly typed field',
      8,
      'DeclareExchange',
      (j: string) => j.replace('"boost":2', '"boost":"2"'),
      'INVALID_FIELD: boost must be an integer',
    ],
  ])('given %s, the decisions check fails at that seq, naming the field', (_name, seq, type, change, why) => {
    const report = verifyFightLog(withCommand(read(WALKTHROUGH), seq, change));
    expect(report.ok).toBe(false);
    expect(report.checks.decisions).toEqual({
      status: 'failed',
      seq,
      detail: `seq ${seq}: ${type} at seq ${seq} cannot be decided again: ${why}`,
    });
    expect(report.firstDivergence).toMatchObject({ seq, check: 'decisions' });
    expect(report.proven).not.toContain('decisionsVerified');
    expect(report.complete).toBe(false);
    // The chain does not cover the command: only deciding it again can refuse it.
    expect(report.checks.chain.status).toBe('ok');
  });

  it('given any recorded fixture, of every system and dice mode, an unknown field on any of its commands fails there', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = read(file);
      const doc = JSON.parse(text) as FightLog;
      for (const entry of doc.entries) {
        if (!entry.command) continue;
        const report = verifyFightLog(withCommand(text, entry.seq, add('"zzz":1')));
        expect([file, entry.seq, report.checks.decisions.status, report.checks.decisions.detail]).toEqual([
          file,
          entry.seq,
          'failed',
          expect.stringContaining(`UNKNOWN_FIELD: zzz is not a field of ${String(entry.command.type)}`),
        ]);
      }
    }
  });
});
