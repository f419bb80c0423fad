import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSystem } from '@app/rules';
import { canonical, FightFolder, LogEntry } from '@app/audit';

/**
 * A log's header records the viewVersion of the rule system that made its view, and the audit compares that
 * view only with one of the same version. So what a system's view shows must not change while its version
 * stays: this spec folds every recorded fixture (test/fixtures/logs) and compares a digest of its views with
 * the one recorded for its system's version in view-digests.json. Every view on the way counts, not the
 * head's alone: the fixtures are ended fights, and a log exported mid-fight carries the view of a pending
 * exchange or a held action. When a digest changes, bump the system's viewVersion and record again:
 * `RECORD_VIEW_DIGESTS=1 npx jest libs/audit/spec/view-version`. Recording keeps the old digest of the same
 * log under the same version, so a change cannot be recorded without the bump. A fixture recorded again
 * (another head hash) only needs its digest recorded again.
 */

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'logs');
const RECORD = join(__dirname, 'view-digests.json');
const AGAIN = 'RECORD_VIEW_DIGESTS=1 npx jest libs/audit/spec/view-version';

interface Digest {
  headHash: string;
  views: string;
}
/** Per rule system: the viewVersion its digests were recorded under, and each fixture's. */
type Recorded = Record<string, { viewVersion: number; fixtures: Record<string, Digest> }>;

const folded = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => {
    const { entries } = JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as { entries: LogEntry[] };
    const system = findSystem(String(entries[0].data.system))!;
    const folder = new FightFolder(system, entries[0].fightId);
    const views = createHash('sha256');
    for (const e of entries) {
      folder.apply(e);
      views.update(`${canonical(JSON.parse(JSON.stringify(system.view(folder.state))))}\n`);
    }
    const digest: Digest = { headHash: entries[entries.length - 1].hash, views: views.digest('hex') };
    return { name: f.replace(/\.json$/, ''), system: system.id, viewVersion: system.viewVersion, digest };
  });

const read = (): Recorded => JSON.parse(readFileSync(RECORD, 'utf8')) as Recorded;

if (process.env.RECORD_VIEW_DIGESTS) {
  let before: Recorded = {};
  try {
    before = read();
  } catch {
    // No record yet: every digest is recorded.
  }
  const record: Recorded = {};
  for (const { name, system, viewVersion, digest } of folded) {
    const was = before[system]?.viewVersion === viewVersion ? before[system].fixtures[name] : undefined;
    const kept = was?.headHash === digest.headHash ? was : digest;
    (record[system] ??= { viewVersion, fixtures: {} }).fixtures[name] = kept;
  }
  writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
}
const recorded = read();

/** Why a fixture's views do not match the record, or undefined when they do. */
function mismatch({ name, system, viewVersion, digest }: (typeof folded)[number]): string | undefined {
  const bySystem = recorded[system];
  if (!bySystem) return `no view digests are recorded for ${system}: record them with ${AGAIN}`;
  if (bySystem.viewVersion !== viewVersion)
    return `${system}'s viewVersion is ${viewVersion}, its view digests were recorded under ${bySystem.viewVersion}: record them again with ${AGAIN}`;
  const was = bySystem.fixtures[name];
  if (!was) return `no view digest is recorded for ${name}: record it with ${AGAIN}`;
  if (was.headHash !== digest.headHash)
    return `${name} was recorded again (another head hash): record its view digest again with ${AGAIN}`;
  if (was.views !== digest.views)
    return `what ${system}'s view shows of ${name} changed while its viewVersion stayed ${viewVersion}: logs exported before would fail the audit's view check. Bump viewVersion in ${system}'s rule system definition (libs/rules/src/${system}/index.ts), then record again with ${AGAIN}`;
  return undefined;
}

describe('a rule system’s viewVersion changes whenever what its view shows of a recorded log does', () => {
  it.each(folded.map((f) => [f.name, f] as const))(
    '%s folds to the views recorded for its system’s view version',
    (_name, fixture) => {
      expect(mismatch(fixture)).toBeUndefined();
    },
  );

  it('the record names exactly the recorded fixtures, each under its own system', () => {
    const names = Object.entries(recorded).flatMap(([system, { fixtures }]) =>
      Object.keys(fixtures).map((name) => `${system}/${name}`),
    );
    expect(names.sort()).toEqual(folded.map((f) => `${f.system}/${f.name}`).sort());
  });
});
