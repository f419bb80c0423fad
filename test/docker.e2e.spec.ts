import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readConfig } from '../apps/api/src/config';
import { readWebhookConfig } from '../libs/webhooks/src/config';
import { ensureBuilt, kill, REPLAY_BUNDLE, SERVER_ADMIN_KEY, startServer, tenantKey } from './support/server';

/**
 * No Docker engine runs where these tests run, so the image itself is never built here. What can be
 * checked without one is checked: the Dockerfile's stages hang together with the repository, and the
 * runtime stage's layout — the build output, package.json and production dependencies only — boots
 * and plays a command.
 */
const ROOT = join(__dirname, '..');

interface Stage {
  name: string;
  from: string;
  lines: { instruction: string; args: string }[];
}

/** The Dockerfile as stages of instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const stages: Stage[] = [];
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [, instruction, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (instruction.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ from: m[1], name: m[2] ?? String(stages.length), lines: [] });
    } else {
      stages.at(-1)!.lines.push({ instruction: instruction.toUpperCase(), args });
    }
  }
  return stages;
}

const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8'));
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('docker/Dockerfile (checked without a Docker engine)', () => {
  const runtime = dockerfile.at(-1)!;

  it('is multi-stage and the runtime stage runs as a non-root user', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    const users = runtime.lines.filter((l) => l.instruction === 'USER').map((l) => l.args);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
  });

  it('the runtime stage takes node_modules from a stage that installs production dependencies only', () => {
    const copy = runtime.lines.find((l) => l.instruction === 'COPY' && /\snode_modules\s*$/.test(l.args));
    const from = /--from=(\S+)/.exec(copy?.args ?? '')?.[1];
    expect(from).toBeDefined();
    const deps = dockerfile.find((s) => s.name === from)!;
    const install = deps.lines
      .filter((l) => l.instruction === 'RUN')
      .map((l) => l.args)
      .join(' && ');
    expect(install).toMatch(/npm ci\b[^&]*--omit=dev/);
  });

  it('every file it copies from the build context exists and is not excluded by .dockerignore', () => {
    const sources = dockerfile.flatMap((s) =>
      s.lines
        .filter((l) => l.instruction === 'COPY' && !l.args.includes('--from='))
        .flatMap((l) =>
          l.args
            .split(/\s+/)
            .filter((a) => !a.startsWith('--'))
            .slice(0, -1),
        ),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect({ source, exists: existsSync(join(ROOT, source)) }).toEqual({ source, exists: true });
      expect(dockerignore).not.toContain(source);
    }
  });

  it('keeps the local build output and dependencies out of the build context', () => {
    expect(dockerignore).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git']));
  });

  it('its build stage bundles the replay verifier into dist after compiling, and the runtime stage takes that dist', () => {
    const build = dockerfile.find((s) => s.name === 'build')!;
    const runs = build.lines
      .filter((l) => l.instruction === 'RUN')
      .map((l) => l.args)
      .join(' && ')
      .split(/\s*&&\s*/);
    const compile = runs.findIndex((r) => /\bnest build api\b/.test(r));
    const bundle = runs.findIndex((r) => /^node scripts\/build-replay\.js$/.test(r));
    expect({ compile: compile >= 0, bundle: bundle > compile }).toEqual({ compile: true, bundle: true });
    expect(
      build.lines.some((l) => l.instruction === 'COPY' && /\bscripts\/build-replay\.js\b/.test(l.args)),
    ).toBe(true);
    // The script writes where the service reads it, inside the dist the runtime stage copies whole.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { OUT } = require(join(ROOT, 'scripts/build-replay.js')) as { OUT: string };
    expect(OUT).toBe(REPLAY_BUNDLE);
    expect(OUT.startsWith(join(ROOT, 'dist') + '/')).toBe(true);
    expect(
      runtime.lines.some((l) => l.instruction === 'COPY' && /^--from=build \/app\/dist dist$/.test(l.args)),
    ).toBe(true);
  });

  it('its CMD starts the API entry point the build produces, and its health check asks /health/live', () => {
    ensureBuilt();
    const cmd = JSON.parse(runtime.lines.find((l) => l.instruction === 'CMD')!.args) as string[];
    expect(cmd[0]).toBe('node');
    expect(existsSync(join(ROOT, cmd[1]))).toBe(true);
    expect(runtime.lines.find((l) => l.instruction === 'HEALTHCHECK')?.args).toContain('/health/live');
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  profiles?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

describe('docker/compose.yaml (checked without a Docker engine)', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker/compose.yaml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
  const apis = Object.entries(compose.services).filter(([, s]) => s.build);
  const documented = new Set(
    [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]),
  );
  /** Compose's `${NAME:?message}` interpolation, with a value for each required variable. */
  const interpolate = (value: string | number) =>
    String(value).replace(/\$\{([A-Z_]+)(?::?[?-][^}]*)?\}/g, (_, name: string) =>
      name === 'ADMIN_API_KEY' ? 'x'.repeat(32) : `<${name}>`,
    );

  it('has the API on PostgreSQL by default and on KurrentDB as a profile, both built from docker/Dockerfile', () => {
    expect(apis.map(([name, s]) => [name, s.profiles ?? []])).toEqual([
      ['api', []],
      ['api-kurrentdb', ['kurrentdb']],
    ]);
    for (const [, s] of apis)
      expect(existsSync(join(ROOT, 'docker', s.build!.context, s.build!.dockerfile))).toBe(true);
    expect(compose.services.kurrentdb.profiles).toEqual(['kurrentdb']);
  });

  it('each API service’s environment is documented in the README and passes the service’s own boot validation', () => {
    for (const [name, s] of apis) {
      const env = Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
      );
      expect({ name, undocumented: Object.keys(env).filter((k) => !documented.has(k)) }).toEqual({
        name,
        undocumented: [],
      });
      const config = readConfig({ ...env, HOST: '0.0.0.0' });
      readWebhookConfig(env);
      expect(config.eventStoreUrl).toMatch(/^(postgres|kurrentdb):\/\//);
      expect(config.adminApiKey).toHaveLength(32);
    }
  });

  it('every dependency is a service of the file with a health check, and each API publishes the image’s port', () => {
    const runtimePort = /PORT=(\d+)/.exec(
      dockerfile.at(-1)!.lines.find((l) => l.instruction === 'ENV')!.args,
    )![1];
    for (const [, s] of apis) {
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(compose.services[dep]).toBeDefined();
        if (condition === 'service_healthy')
          expect(compose.services[dep].healthcheck ?? compose.services[dep].image).toBeDefined();
      }
      expect(s.ports?.map((p) => p.split(':').at(-1))).toEqual([runtimePort]);
    }
  });
});

describe('the runtime stage layout: build output + production dependencies only', () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'crs-image-'));
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(dir, f));
    // The same tree `npm ci --omit=dev` installs, without compiling native addons again.
    cpSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
  }, 180_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds none of the packages the lock file marks as development-only', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages).filter(([path, p]) => path && p.dev);
    expect(devOnly.length).toBeGreaterThan(0);
    expect(devOnly.map(([path]) => path).filter((path) => existsSync(join(dir, path)))).toEqual([]);
    expect(existsSync(join(dir, 'node_modules/@nestjs/core'))).toBe(true);
  });

  it('boots in production mode, reports healthy and plays a command', async () => {
    const server = await startServer(
      { NODE_ENV: 'production', DATA_DIR: join(dir, 'data'), EVENT_STORE_URL: '', LOG_LEVEL: 'warn' },
      { main: join(dir, 'dist/apps/api/src/main.js') },
    );
    try {
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      const key = await tenantKey(server.url);
      const res = await fetch(`${server.url}/fights`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ system: 'narateer', name: 'image check' }),
      });
      expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 201 });
      const admin = await fetch(`${server.url}/admin/tenants`, {
        headers: { authorization: `Bearer ${SERVER_ADMIN_KEY}` },
      });
      expect(admin.status).toBe(200);
      // The replay page, from the bundle the build wrote (no esbuild, no sources here), and the script it names.
      const replay = await fetch(`${server.url}/replay`);
      const html = await replay.text();
      expect({ status: replay.status, type: replay.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      const src = /<script nonce="[^"]+" src="(\/replay\/verifier\.[0-9a-f]{20}\.js)"/.exec(html)?.[1];
      expect(src).toBeDefined();
      const script = await fetch(`${server.url}${src}`);
      expect({ status: script.status, type: script.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'text/javascript; charset=utf-8',
      });
      expect(await script.text()).toBe(
        readFileSync(join(dir, 'dist/apps/api/src/replay/verifier.bundle.js'), 'utf8'),
      );
    } finally {
      await kill(server.proc, 'SIGTERM');
    }
  });

  it('without the replay bundle (a build that skipped it), /replay answers 503 REPLAY_UNAVAILABLE, not a 500', async () => {
    const bundle = join(dir, 'dist/apps/api/src/replay/verifier.bundle.js');
    renameSync(bundle, `${bundle}.away`);
    const server = await startServer(
      {
        NODE_ENV: 'production',
        DATA_DIR: join(dir, 'data-no-replay'),
        EVENT_STORE_URL: '',
        LOG_LEVEL: 'fatal',
      },
      { main: join(dir, 'dist/apps/api/src/main.js') },
    );
    try {
      const res = await fetch(`${server.url}/replay`);
      const html = await res.text();
      expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
        status: 503,
        type: 'text/html; charset=utf-8',
      });
      expect(html).toContain('data-code="REPLAY_UNAVAILABLE"');
      expect(html).toContain('npm run build');
      // The rest of the service is unaffected.
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    } finally {
      await kill(server.proc, 'SIGTERM');
      renameSync(`${bundle}.away`, bundle);
    }
  });
});
