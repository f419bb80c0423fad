import { ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAIN = join(__dirname, '../../dist/apps/api/src/main.js');
export const SERVER_ADMIN_KEY = 'server-admin-key-0123456789abcdef';

/** Creates a tenant through the admin API; returns its key. */
export async function tenantKey(url: string): Promise<string> {
  const res = await fetch(`${url}/admin/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_ADMIN_KEY}` },
    body: JSON.stringify({ name: 'test' }),
  });
  if (res.status !== 201) throw new Error(`tenant creation failed: ${res.status}`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

/** The replay page's verifier bundle, as `npm run build` writes it (scripts/build-replay.js). */
export const REPLAY_BUNDLE = join(__dirname, '../../dist/apps/api/src/replay/verifier.bundle.js');

/**
 * Builds what `npm run build` builds when `npm test` has not already (it compiles in its schema check, but
 * does not bundle the replay verifier): the apps, and the bundle a production layout serves /replay from.
 */
export function ensureBuilt(): void {
  const root = join(__dirname, '../..');
  if (!existsSync(MAIN)) execSync('npx nest build api', { cwd: root, stdio: 'inherit' });
  if (!existsSync(REPLAY_BUNDLE)) execSync('node scripts/build-replay.js', { cwd: root, stdio: 'inherit' });
}

/**
 * The built service as a real process, for tests that kill it. `main` runs another copy of the
 * build (the Docker layout test runs one beside production-only dependencies), from its own folder.
 */
export async function startServer(
  env: Record<string, string>,
  options: { main?: string } = {},
): Promise<{ url: string; proc: ChildProcess }> {
  const main = options.main ?? MAIN;
  if (!options.main) ensureBuilt();
  const proc = spawn(process.execPath, [main], {
    cwd: options.main ? join(dirname(main), '../../../..') : undefined,
    env: { ...process.env, PORT: '0', ADMIN_API_KEY: SERVER_ADMIN_KEY, RATE_LIMIT_PER_SECOND: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 90_000); // a boot takes ~2 s; only a loaded machine makes it slow
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { url, proc };
}

export function kill(proc: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill(signal);
  });
}
