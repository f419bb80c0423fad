import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { findSystem } from '@app/rules';
import { LogEntry } from '../src/fight-event';
import { FOLD_VERSION, foldLog } from '../src/fold';

/**
 * FOLD_VERSION keys the fight snapshots (libs/fights snapshots): a snapshot made under another version is
 * ignored. So the fold of the same log must not change while the version stays: this spec folds every
 * recorded fixture (test/fixtures/logs) and compares a digest of each final state with the one recorded for
 * this version in fold-digests.json. When a change to the fold or to a rule system's evolve changes a digest,
 * bump FOLD_VERSION and record again: `RECORD_FOLD_DIGESTS=1 npx jest libs/fight-log/spec/fold-version`.
 * A fixture recorded again (another head hash) only needs its digest recorded again.
 */

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'logs');
const RECORD = join(__dirname, 'fold-digests.json');

interface Recorded {
  foldVersion: number;
  fixtures: Record<string, { headHash: string; state: string }>;
}

const folded = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => {
    const { entries } = JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as { entries: LogEntry[] };
    const system = findSystem(String(entries[0].data.system))!;
    const fight = foldLog(system, entries[0].fightId, entries);
    const state = createHash('sha256')
      .update(canonicalize(JSON.parse(JSON.stringify(fight.state))) ?? '')
      .digest('hex');
    return { name: f.replace(/\.json$/, ''), headHash: fight.headHash, state };
  });

if (process.env.RECORD_FOLD_DIGESTS) {
  const fixtures = Object.fromEntries(folded.map(({ name, headHash, state }) => [name, { headHash, state }]));
  writeFileSync(RECORD, `${JSON.stringify({ foldVersion: FOLD_VERSION, fixtures }, null, 2)}\n`);
}
const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Recorded;

describe('FOLD_VERSION changes whenever the fold of a recorded log does', () => {
  it.each(folded.map((f) => [f.name, f] as const))(
    '%s folds to the state recorded for this fold version',
    (name, { headHash, state }) => {
      const was = recorded.fixtures[name];
      expect(was).toBeDefined();
      // The same log as recorded: under the same version, the same state.
      if (was.headHash === headHash && recorded.foldVersion === FOLD_VERSION) expect(state).toBe(was.state);
      expect(recorded.foldVersion).toBe(FOLD_VERSION);
    },
  );
});
