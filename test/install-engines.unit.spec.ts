import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..');
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/**
 * Install noise (the integration conventions review): `npm ci` warns EBADENGINE for every locked
 * package whose `engines.node` excludes the running Node. The README states the Node version the
 * project needs and names each package that warns on it; this holds the two to the lock file, so a
 * new dependency that wants a newer Node is either replaced or named (and counted) there.
 */
describe('the Node version the README requires, and the packages it names as warning on it', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const required = /Node\.js (\d+\.\d+) or newer is needed/.exec(readme)?.[1];

  it('package.json engines say what the README says', () => {
    expect(required).toBeDefined();
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(semver.coerce(required)!.version);
  });

  it('every locked package that excludes that Node is named with its major version, and the README counts them right', () => {
    const node = semver.coerce(required)!.version;
    const warning = new Map<string, string>();
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range || semver.satisfies(node, range)) continue;
      warning.set(
        path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
        String(semver.major(entry.version!)),
      );
    }
    expect(warning.size).toBeGreaterThan(0);
    const unnamed = [...warning].filter(
      ([name, major]) =>
        !readme.includes(`${name} ${major}`) &&
        !(name.startsWith('@') && readme.includes(`${name.split('/')[0]} ${major}`)),
    );
    expect(unnamed.map(([name, major]) => `${name} ${major}`)).toEqual([]);
    const counted = /npm prints EBADENGINE warnings for (\w+) packages/.exec(readme)?.[1];
    expect(counted).toBe(WORDS[warning.size] ?? String(warning.size));
  });
});
