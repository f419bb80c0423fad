import { runLoad } from './http';
import { fightsAt, startServer } from './stack';

/** The parts of a V8 CPU profile (Profiler.stop) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a frame's code lives, at the grain that says what to change: an npm package by name,
 * Node's own modules by subsystem, this repository's code by library or app folder, and V8's
 * pseudo-frames (GC, idle, program) by themselves.
 */
export function moduleOf(frame: { functionName: string; url: string }): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: V8 and native code outside JS)';
    if (functionName === '(root)') return '(root)';
    return '(native builtins)';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) {
    const name = url.slice(5).replace(/^internal\//, '');
    if (/^_?http|^http/.test(name)) return 'node:http';
    if (/^(net|stream|streams\/|_stream|dns)/.test(name)) return 'node:net+stream';
    if (/^(timers|process\/task_queues|async_hooks|process\/)/.test(name)) return 'node:timers+tasks';
    if (/^(crypto|buffer|util)/.test(name)) return `node:${name.split('/')[0]}`;
    return `node:${name.split('/')[0]}`;
  }
  const repo = /\/(libs\/[^/]+\/src(?:\/[^/.]+(?=\/))?|apps\/[^/]+\/src(?:\/[^/.]+(?=\/))?)/.exec(url);
  if (repo) return repo[1].replace('/src', '');
  return url;
}

export interface ProfileSummary {
  sampledMs: number;
  busyMs: number;
  /** Self time per module, share of the busy (non-idle) time, largest first. */
  modules: Array<{ module: string; selfMs: number; selfShare: number; inclusiveShare: number }>;
  /** Self time per function, the heaviest. */
  functions: Array<{ fn: string; module: string; selfShare: number }>;
  /** Inclusive shares of the modules the performance review asks about, whatever their rank. */
  watched: Array<{ module: string; selfShare: number; inclusiveShare: number }>;
}

/** Modules named by the performance review: the read side, the outbox, logging, security headers, the frameworks. */
const WATCHED = [
  'libs/fights/projections',
  'libs/webhooks',
  'libs/webhooks/store',
  'libs/fights/access',
  'apps/api/ops',
  'apps/api/auth',
  'pino',
  'helmet',
  'fastify',
  'find-my-way',
  '@nestjs/platform-fastify',
  '@nestjs/core',
  'safe-stable-stringify',
  'libs/event-store',
  'better-sqlite3',
];

type ProfileNode = CpuProfile['nodes'][number];
type Place = { module: string; caller: string };

/**
 * Where a sample's frame counts. A native function (better-sqlite3's run, a hash, a socket write) has
 * no url: it counts for the nearest caller that has one, marked "(native)", so a binding's time
 * lands with its user.
 */
function placer(byId: Map<number, ProfileNode>, parent: Map<number, number>): (id: number) => Place {
  const memo = new Map<number, Place>();
  return (id) => {
    const known = memo.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    let place = { module: moduleOf(node.callFrame), caller: '' };
    if (place.module === '(native builtins)') {
      let up = parent.get(id);
      while (up !== undefined && !byId.get(up)!.callFrame.url) up = parent.get(up);
      if (up !== undefined) {
        const c = byId.get(up)!.callFrame;
        place = {
          module: `${moduleOf(c)} (native)`,
          caller: ` ← ${c.functionName || '(anonymous)'} ${c.url.replace(/^.*\/(node_modules|dist)\//, '')}`,
        };
      }
    }
    memo.set(id, place);
    return place;
  };
}

/** The totals' ranking: modules and functions by self time, the watched modules whatever their rank. */
function ranked(
  t: {
    self: Map<string, number>;
    inclusive: Map<string, number>;
    fnSelf: Map<string, { module: string; us: number }>;
    total: number;
    idle: number;
  },
  top: number,
): ProfileSummary {
  const busy = t.total - t.idle;
  const modules = [...t.self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([module, us]) => ({
      module,
      selfMs: us / 1000,
      selfShare: us / busy,
      inclusiveShare: (t.inclusive.get(module) ?? us) / busy,
    }));
  const functions = [...t.fnSelf.entries()]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([fn, f]) => ({ fn, module: f.module, selfShare: f.us / busy }));
  const watched = WATCHED.map((module) => ({
    module,
    selfShare: ((t.self.get(module) ?? 0) + (t.self.get(`${module} (native)`) ?? 0)) / busy,
    inclusiveShare: (t.inclusive.get(module) ?? 0) / busy,
  }));
  return { sampledMs: t.total / 1000, busyMs: busy / 1000, modules, functions, watched };
}

/** Self and inclusive time per module: inclusive counts a sample once for each module on its stack. */
export function summarise(profile: CpuProfile, top = 30): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const t = {
    self: new Map<string, number>(),
    inclusive: new Map<string, number>(),
    fnSelf: new Map<string, { module: string; us: number }>(),
    total: 0,
    idle: 0,
  };
  const placeOf = placer(byId, parent);
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t.total += dt;
    const node = byId.get(id)!;
    const { module: m, caller } = placeOf(id);
    // Idle, and the profiler's own inspector calls (starting and stopping it): not the service's work.
    if (m === '(idle)' || m.startsWith('node:inspector')) {
      t.idle += dt;
      return;
    }
    t.self.set(m, (t.self.get(m) ?? 0) + dt);
    const fnKey =
      `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '')}${caller}`.trim();
    const f = t.fnSelf.get(fnKey) ?? { module: m, us: 0 };
    f.us += dt;
    t.fnSelf.set(fnKey, f);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      seen.add(placeOf(cur).module.replace(/ \(native\)$/, ''));
    for (const s of seen) t.inclusive.set(s, (t.inclusive.get(s) ?? 0) + dt);
  });
  return ranked(t, top);
}

export interface CommandPathProfile {
  summary: ProfileSummary;
  requests: number;
  requestsPerSec: number;
  cpuMicrosPerRequest: number;
  /** Of cpuMicrosPerRequest, the kernel's (system time). */
  systemMicrosPerRequest: number;
}

/**
 * The service (as main.ts builds it, in its own process) under the Narateer exchange mix, 50
 * connections for `durationSec`, profiled from the first command to the last.
 */
export async function profileCommandPath(
  dataDir: string,
  opts: { durationSec: number; fights: number },
): Promise<CommandPathProfile> {
  const service = await startServer('service', `${dataDir}/profile-service`);
  try {
    const warm = await fightsAt(service, opts.fights, true);
    await runLoad({
      url: service.url,
      apiKey: service.apiKey,
      connections: 50,
      durationSec: 2,
      mode: 'commands',
      fights: warm,
    });
    const fights = await fightsAt(service, opts.fights, true);
    await service.ask('profile-start', 'profile-started');
    const before = await service.cpu();
    const load = await runLoad({
      url: service.url,
      apiKey: service.apiKey,
      connections: 50,
      durationSec: opts.durationSec,
      mode: 'commands',
      fights,
    });
    const after = await service.cpu();
    const { profile } = await service.ask<{ profile: string | null }>('profile-stop', 'profile');
    if (!profile) throw new Error('the profiler returned no profile');
    return {
      summary: summarise(JSON.parse(profile) as CpuProfile),
      requests: load.total,
      requestsPerSec: load.total / load.durationSec,
      cpuMicrosPerRequest: (after.micros - before.micros) / Math.max(1, load.total),
      systemMicrosPerRequest: (after.systemMicros - before.systemMicros) / Math.max(1, load.total),
    };
  } finally {
    await service.close();
  }
}

export function profileMarkdown(p: CommandPathProfile, when: string): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    '# CPU profile of the command path',
    '',
    `Produced by \`npm run bench -- --only profile\` (${when}): the service as \`main.ts\` builds it (SQLite store, access log at info to /dev/null, rate limits off), in a process of its own, under the Narateer exchange mix from autocannon (50 connections); V8's sampling profiler (100 µs) from the first command to the last. ${p.requests.toLocaleString('en-US')} commands, ${Math.round(p.requestsPerSec).toLocaleString('en-US')}/s, ${Math.round(p.cpuMicrosPerRequest)} µs of server CPU per command (profiler overhead included), ${Math.round(p.systemMicrosPerRequest)} µs of it the kernel's (system time: syscalls, the TCP loopback, file writes); the main thread was busy ${pct(p.summary.busyMs / p.summary.sampledMs)} of the time.`,
    '',
    'Shares are of the busy (non-idle) time of the main thread; the projections fold on a worker thread of their own (docs/event-store.md "Read side thread"), not in these shares, while the CPU per command above counts every thread. *Self*: time in the module\'s own code. *Inclusive*: samples with the module anywhere on the stack (so a framework that calls everything is near 100%).',
    '',
    "Read native calls with care: V8's sampler charges to the call a thread is in the time the thread spent descheduled there, and on a machine whose cores the load generator shares, that is mostly a system call (`writev` of an answer, SQLite's file writes). Their shares here can exceed the kernel's measured share of the CPU (above) many times over; the process's user and system time (`process.cpuUsage`) are the figures to trust.",
    '',
    '## Top costs by module',
    '',
    '| module | self | inclusive |',
    '|---|---|---|',
    ...p.summary.modules.map((m) => `| ${m.module} | ${pct(m.selfShare)} | ${pct(m.inclusiveShare)} |`),
    '',
    '## Modules the performance review names (self including their native calls; inclusive)',
    '',
    '| module | self | inclusive |',
    '|---|---|---|',
    ...p.summary.watched.map((m) => `| ${m.module} | ${pct(m.selfShare)} | ${pct(m.inclusiveShare)} |`),
    '',
    '## Heaviest functions (self)',
    '',
    '| function | module | self |',
    '|---|---|---|',
    ...p.summary.functions
      .slice(0, 25)
      .map((f) => `| \`${f.fn.replace(/\|/g, '\\|')}\` | ${f.module} | ${pct(f.selfShare)} |`),
    '',
  ];
  return lines.join('\n');
}
