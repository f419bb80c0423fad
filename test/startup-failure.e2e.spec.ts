import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, SERVER_ADMIN_KEY } from './support/server';

const MAIN = join(__dirname, '../dist/apps/api/src/main.js');

/** Runs the built service until it exits; its exit code and what it wrote to stderr. */
function boot(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const proc = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', ADMIN_API_KEY: SERVER_ADMIN_KEY, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, stderr })));
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

/** A store the service cannot open at boot ends it with code 1 and one line saying why, last. */
describe('startup with a store it cannot open', () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'startup-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given a DATA_DIR that is a file, it exits 1 saying why', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const { code, stderr } = await boot({ DATA_DIR: join(file, 'data') });
    expect(code).toBe(1);
    expect(lastLine(stderr)).toMatch(/^Startup failed: .*ENOTDIR/);
  });

  it('given a PostgreSQL server nobody listens for, it exits 1 saying why', async () => {
    const { code, stderr } = await boot({ EVENT_STORE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expect(code).toBe(1);
    expect(lastLine(stderr)).toBe('Startup failed: connect ECONNREFUSED 127.0.0.1:1');
  });
});
