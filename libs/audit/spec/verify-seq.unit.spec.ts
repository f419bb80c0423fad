import { CHECKS, FightLog, VerificationReport, verifyFightLog } from '@app/audit';
import { duel } from './fight-recorder';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/**
 * Each check's result says where it fails as data (`seq`), so a reader (the replay page, a script) needs
 * not parse the detail text; the detail still names the same seq, as it always has.
 */
function expectSeqOnFailedChecksOnly(report: VerificationReport): number[] {
  const failedAt: number[] = [];
  for (const name of CHECKS) {
    const c = report.checks[name];
    if (c.status !== 'failed') {
      expect({ name, seq: c.seq }).toEqual({ name, seq: undefined });
      continue;
    }
    if (c.seq === undefined) {
      // A check that threw names no event: it could not run at all.
      expect({ name, detail: c.detail }).toEqual({
        name,
        detail: expect.stringMatching(/^the check could not run: /),
      });
      continue;
    }
    expect({ name, detail: c.detail }).toEqual({
      name,
      detail: expect.stringMatching(new RegExp(`^seq ${c.seq}: `)),
    });
    failedAt.push(c.seq);
  }
  // The first divergence is the earliest failure over all checks.
  if (failedAt.length) expect(report.firstDivergence?.seq).toBe(Math.min(...failedAt));
  else expect(report.firstDivergence).toBeUndefined();
  return failedAt;
}

describe('verifyFightLog: each failed check names its seq as data', () => {
  const fair = clone(duel('fair').log());

  it('given a genuine log, when verified, then no check carries a seq', () => {
    const report = verifyFightLog(clone(fair), { events: fair.entries.length, headHash: fair.headHash });
    expect(report.ok).toBe(true);
    expect(expectSeqOnFailedChecksOnly(report)).toEqual([]);
  });

  it('given any event changed in place, when verified, then the chain check fails at that seq, as its detail says', () => {
    for (let i = 0; i < fair.entries.length; i++) {
      const log = clone(fair);
      (log.entries[i] as { actor: string }).actor += 'x';
      const report = verifyFightLog(log);
      expect(report.checks.chain).toMatchObject({ status: 'failed', seq: i + 1 });
      expectSeqOnFailedChecksOnly(report);
    }
  });

  it('given any event deleted, when verified, then every failed check that ran names a seq and the earliest is the deleted one', () => {
    for (let i = 0; i < fair.entries.length; i++) {
      const log = clone(fair);
      log.entries.splice(i, 1);
      const failed = expectSeqOnFailedChecksOnly(verifyFightLog(log));
      expect(Math.min(...failed)).toBe(i + 1);
    }
  });

  it('given a header that is not one, when verified, then the sequence check fails at seq 0 (the header)', () => {
    const log = { ...clone(fair), system: 42 } as unknown as FightLog;
    const report = verifyFightLog(log);
    expect(report.checks.sequence).toMatchObject({ status: 'failed', seq: 0 });
    expectSeqOnFailedChecksOnly(report);
  });

  it('given an expected event count past the log, when verified, then the head check fails at the first event the log lacks (N+1)', () => {
    const report = verifyFightLog(clone(fair), { events: fair.entries.length + 3 });
    expect(report.checks.head).toMatchObject({ status: 'failed', seq: fair.entries.length + 1 });
    expectSeqOnFailedChecksOnly(report);
  });
});
