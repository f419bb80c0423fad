import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { buildFightLog, FightLog, parseFightLog, verifyFightLog } from '@app/audit';
import { eventHash, GENESIS_HASH } from '@app/fight-log';
import { openReplay, Replay } from '../../src/replay/replay-model';

/**
 * The replay page's model: the verifier's report, read event by event, and the view at every seq. Its verdicts
 * must be the verifier's own (POST /audit/verify runs parseFightLog + verifyFightLog on the same text), and the
 * bundle the browser runs must give the very same reports as the service's Node build.
 */
const DIR = join(__dirname, '../../../../test/fixtures/logs');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));

const opened = (text: string): Replay => {
  const r = openReplay(text);
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r;
};

/** A recorded log with one die of its first roll changed, the hashes left as they were. */
function tamperFace(log: FightLog): { text: string; seq: number } {
  const copy = JSON.parse(JSON.stringify(log)) as FightLog;
  for (const e of copy.entries) {
    const roll = findRoll(e.data);
    if (roll && roll.draw !== undefined) {
      roll.faces[0] = (roll.faces[0] % roll.sides) + 1;
      return { text: JSON.stringify(copy), seq: e.seq };
    }
  }
  throw new Error('no seeded roll in this log');
}

function findRoll(v: unknown): { sides: number; faces: number[]; draw?: number } | undefined {
  if (Array.isArray(v)) return v.map(findRoll).find(Boolean);
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.sides === 'number' && Array.isArray(o.faces))
    return o as { sides: number; faces: number[]; draw?: number };
  return Object.values(o).map(findRoll).find(Boolean);
}

describe('replay model (the page reads the verifier, it does not judge on its own)', () => {
  it.each(fixtures)(
    'given the recorded fixture $name, its report is exactly what POST /audit/verify computes',
    ({ text }) => {
      expect(opened(text).report).toEqual(verifyFightLog(parseFightLog(text)));
    },
  );

  it.each(fixtures)(
    'given $name that verifies, every event is verified and every seeded die recomputes to its faces (RULINGS C5)',
    ({ text }) => {
      const r = opened(text);
      if (!r.report.ok) return expect(r.events.some((e) => e.verdict === 'diverges')).toBe(true);
      expect(r.events.map((e) => e.verdict)).toEqual(r.events.map(() => 'verified'));
      const rolls = r.events.flatMap((e) => e.rolls);
      expect(rolls.length).toBeGreaterThan(0);
      for (const roll of rolls) {
        if (r.seed.mode === 'manual') expect(roll.status).toBe('manual');
        else
          expect({ status: roll.status, recomputed: roll.recomputed }).toEqual({
            status: 'verified',
            recomputed: roll.faces,
          });
      }
    },
  );

  it.each(fixtures)(
    'given $name, the view at the last seq is the one the service wrote in the header; undos honoured',
    ({ text }) => {
      const log = parseFightLog(text);
      const r = opened(text);
      expect(r.views).toHaveLength(log.entries.length);
      expect(r.views.map((v) => v.seq)).toEqual(log.entries.map((e) => e.seq));
      // The header's view is folded by the service itself (buildFightLog), with today's rules.
      expect(r.views.at(-1)).toEqual(JSON.parse(JSON.stringify(buildFightLog(log.entries).view)));
    },
  );

  it('given a die changed in the file, the event holding it breaks the chain there and its roll no longer recomputes', () => {
    const log = parseFightLog(fixtures.find((f) => f.name === 'narateer-seeded.json')!.text);
    const { text, seq } = tamperFace(log);
    const r = opened(text);
    expect(r.report.firstDivergence).toMatchObject({ seq, check: 'chain' });
    expect(r.events.map((e) => e.verdict)).toEqual(
      r.events.map((e) => (e.seq < seq ? 'verified' : e.seq === seq ? 'diverges' : 'after-break')),
    );
    expect(r.events[seq - 1].chain).toBe('broken');
    expect(r.events[seq - 1].rolls.some((x) => x.status === 'mismatch')).toBe(true);
  });

  it('given a die changed and the whole chain re-hashed over it, the decisions check flags that event (the rules give other faces)', () => {
    const log = parseFightLog(fixtures.find((f) => f.name === 'narateer-seeded.json')!.text);
    const { text, seq } = tamperFace(log);
    const forged = parseFightLog(text);
    let previous = GENESIS_HASH;
    for (const e of forged.entries) previous = e.hash = eventHash(previous, e);
    const rebuilt = JSON.stringify({ ...buildFightLog(forged.entries) });
    const r = opened(rebuilt);
    expect(r.report.checks.chain.status).toBe('ok');
    expect(r.report.firstDivergence).toMatchObject({ seq, check: 'decisions' });
    expect(r.events[seq - 1]).toMatchObject({ chain: 'ok', verdict: 'diverges' });
    expect(r.events[seq - 2].verdict).toBe('verified');
  });

  it('given a seeded fight cut before FightEnded and its header rebuilt, the dice are committed: the seed is not yet revealed', () => {
    const log = parseFightLog(fixtures.find((f) => f.name === 'narateer-seeded.json')!.text);
    const prefix = buildFightLog(log.entries.slice(0, -1));
    const r = opened(JSON.stringify(prefix));
    expect(r.report.ok).toBe(true);
    expect(r.report.complete).toBe(false);
    expect(r.seed.status).toBe('not-revealed');
    expect(new Set(r.events.map((e) => e.verdict))).toEqual(new Set(['committed']));
    expect(new Set(r.events.flatMap((e) => e.rolls.map((x) => x.status)))).toEqual(new Set(['committed']));
  });

  it('given what is not a fight log, or a malformed expectation, it refuses as the endpoint does (its status, code and field)', () => {
    // An unknown field is named before the missing ones (a typo is the likeliest cause), as for every body.
    expect(openReplay('{"hello":1}')).toMatchObject({
      ok: false,
      status: 422,
      code: 'LOG_FORMAT_INVALID',
      field: 'hello',
    });
    expect(openReplay('{}')).toMatchObject({
      ok: false,
      status: 422,
      code: 'LOG_FORMAT_INVALID',
      field: 'format',
    });
    expect(openReplay('not JSON\n')).toMatchObject({
      ok: false,
      status: 400,
      code: 'LOG_FORMAT_INVALID',
      line: 1,
    });
    expect(openReplay(fixtures[0].text, { headHash: 'abc' })).toMatchObject({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'headHash',
    });
  });

  it('given an expected head hash of an earlier event, the log is flagged as going on past it (the head check)', () => {
    const log = parseFightLog(fixtures.find((f) => f.name === 'narateer-seeded.json')!.text);
    const at = log.entries[4];
    const expected = openReplay(JSON.stringify(log), { headHash: at.hash }) as Replay;
    expect(expected.report.firstDivergence).toMatchObject({ seq: at.seq + 1, check: 'head' });
    expect(expected.report).toEqual(verifyFightLog(log, { headHash: at.hash }));
  });
});

describe('the browser bundle of the verifier (node:crypto replaced by @noble/hashes)', () => {
  let bundle: { openReplay: typeof openReplay };

  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { bundleReplayVerifier } = require('../../../../scripts/build-replay.js') as {
      bundleReplayVerifier: () => Promise<string>;
    };
    const code = await bundleReplayVerifier();
    // A bare context: no require, no process, no node:crypto; what a page has (TextEncoder, crypto) is given.
    const sandbox: Record<string, unknown> = { TextEncoder, TextDecoder, crypto: globalThis.crypto };
    sandbox.globalThis = sandbox;
    runInNewContext(code, sandbox);
    bundle = sandbox.ReplayVerifier as { openReplay: typeof openReplay };
  }, 60_000);

  it.each(fixtures)(
    'given $name, the bundle gives the report the service gives, hash for hash',
    ({ text }) => {
      const r = bundle.openReplay(text) as Replay;
      expect(JSON.parse(JSON.stringify(r.report))).toEqual(
        JSON.parse(JSON.stringify(verifyFightLog(parseFightLog(text)))),
      );
    },
  );

  it('given a tampered log, the bundle breaks at the same seq, for the same reason', () => {
    const { text } = tamperFace(
      parseFightLog(fixtures.find((f) => f.name === 'arcana-beast-seeded.json')!.text),
    );
    const r = bundle.openReplay(text) as Replay;
    expect(JSON.parse(JSON.stringify(r.report))).toEqual(
      JSON.parse(JSON.stringify(verifyFightLog(parseFightLog(text)))),
    );
    expect(r.report.ok).toBe(false);
  });
});
