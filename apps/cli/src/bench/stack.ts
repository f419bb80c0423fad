import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { createFightInput, SETUP } from './fight-script';
import { LoadResult, prepareFights, runLoad } from './http';
import { RAW_ROUTE } from './baseline.controller';
import type { ServerKind, ServiceStore } from './server-process';
import { median } from './util';

/**
 * The service against HTTP stacks outside it, in one run: bare node:http, a minimal NestJS app on
 * Fastify (the adapter the service uses) and one on Express, each a process of its own beside the
 * service's. Every subject is loaded by autocannon (another process) for `durationSec`; the figure
 * that matters is the server's own CPU per request (process.cpuUsage of its process over the run,
 * divided by the responses), steadier than req/s on a shared machine. Subjects alternate within a
 * round (the order reversed every other round) and every ratio is taken within a round, then the
 * median of the rounds is reported.
 */

export interface Server {
  kind: ServerKind;
  child: ChildProcess;
  url: string;
  apiKey?: string;
  /** The process's CPU so far (user + system) and, of it, the system's (the kernel working for it: syscalls, TCP). */
  cpu(): Promise<{ micros: number; systemMicros: number; rss: number }>;
  /** Sends `{ type }` and resolves with the next message of type `reply`. */
  ask<T>(type: string, reply: string): Promise<T>;
  close(): Promise<void>;
}

/** A server process; the service on SQLite in `dataDir` unless `store` names a PostgreSQL. */
export function startServer(kind: ServerKind, dataDir?: string, store?: ServiceStore): Promise<Server> {
  return new Promise((resolve, reject) => {
    // stdout (the service's access log at info) goes to /dev/null, as a production log would leave the process.
    const child = fork(join(__dirname, 'server-process.js'), [JSON.stringify({ kind, dataDir, store })], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const waiting: Array<(m: { cpu: NodeJS.CpuUsage; rss: number }) => void> = [];
    child.on(
      'message',
      (m: {
        type: string;
        url?: string;
        apiKey?: string;
        error?: string;
        cpu?: NodeJS.CpuUsage;
        rss?: number;
      }) => {
        if (m.type === 'error') reject(new Error(`${kind} server: ${m.error}`));
        if (m.type === 'cpu') waiting.shift()?.(m as { cpu: NodeJS.CpuUsage; rss: number });
        if (m.type === 'ready')
          resolve({
            kind,
            child,
            url: m.url!,
            apiKey: m.apiKey,
            cpu: () =>
              new Promise((res) => {
                waiting.push((r) =>
                  res({ micros: r.cpu.user + r.cpu.system, systemMicros: r.cpu.system, rss: r.rss }),
                );
                child.send({ type: 'cpu' });
              }),
            ask: <T>(type: string, reply: string) =>
              new Promise<T>((res) => {
                const on = (r: { type: string }) => {
                  if (r.type !== reply) return;
                  child.off('message', on);
                  res(r as T);
                };
                child.on('message', on);
                child.send({ type });
              }),
            close: () =>
              new Promise((res) => {
                if (child.exitCode !== null) return res();
                child.once('exit', () => res());
                child.send({ type: 'exit' });
                setTimeout(() => child.kill('SIGKILL'), 5000).unref();
              }),
          });
      },
    );
    child.once('exit', (code) =>
      reject(new Error(`${kind} server exited with code ${code} before it was ready`)),
    );
  });
}

export interface SubjectFigures {
  requestsPerSec: number;
  cpuMicrosPerRequest: number;
  /** Of cpuMicrosPerRequest, the kernel's (system time): what no code of the process can take off. */
  systemMicrosPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  total: number;
}

type SubjectId =
  | 'node-get'
  | 'express-get'
  | 'fastify-get'
  | 'node-post'
  | 'express-post'
  | 'fastify-post'
  | 'live'
  | 'fight'
  | 'addnote'
  | 'addnote-one'
  | 'mix'
  | 'constant'
  | 'raw';

interface Subject {
  id: SubjectId;
  label: string;
  server: ServerKind;
  /** The autocannon job, given the round's fights. */
  job(ctx: RoundContext): Record<string, unknown>;
}

interface RoundContext {
  service: Server;
  /** Fresh fights at step 0 of a round, for the exchange mix. */
  mixFights: string[];
  /** Fresh fights for AddNote. */
  noteFights: string[];
  /** A fight nobody writes to during the run, for GET /fights/:id. */
  readFight: string;
}

/** The baselines' POST body: the exchange command the mix sends most, so the JSON parsed is alike. */
const POST_BODY = JSON.stringify({
  type: 'DeclareExchange',
  attackerId: 'mira',
  targetId: 'orin',
  kind: 'melee',
  weaponId: 'blade',
  boost: 0,
  response: { response: 'clash', boost: 0 },
});

const SUBJECTS: Subject[] = [
  {
    id: 'node-get',
    label: 'bare node:http GET',
    server: 'node-http',
    job: () => ({ mode: 'fixed', method: 'GET', path: '/get' }),
  },
  {
    id: 'express-get',
    label: 'minimal NestJS on Express, GET',
    server: 'nest-express',
    job: () => ({ mode: 'fixed', method: 'GET', path: '/get' }),
  },
  {
    id: 'fastify-get',
    label: 'minimal NestJS on Fastify, GET',
    server: 'nest-fastify',
    job: () => ({ mode: 'fixed', method: 'GET', path: '/get' }),
  },
  {
    id: 'node-post',
    label: 'bare node:http POST',
    server: 'node-http',
    job: () => ({ mode: 'fixed', method: 'POST', path: '/post', body: POST_BODY }),
  },
  {
    id: 'express-post',
    label: 'minimal NestJS on Express, POST',
    server: 'nest-express',
    job: () => ({ mode: 'fixed', method: 'POST', path: '/post', body: POST_BODY }),
  },
  {
    id: 'fastify-post',
    label: 'minimal NestJS on Fastify, POST',
    server: 'nest-fastify',
    job: () => ({ mode: 'fixed', method: 'POST', path: '/post', body: POST_BODY }),
  },
  {
    id: 'live',
    label: 'service: GET /health/live (public)',
    server: 'service',
    job: () => ({ mode: 'fixed', method: 'GET', path: '/health/live' }),
  },
  {
    id: 'fight',
    label: 'service: GET /fights/:id with a key',
    server: 'service',
    job: (c) => ({ mode: 'fixed', method: 'GET', path: `/fights/${c.readFight}`, apiKey: c.service.apiKey }),
  },
  {
    id: 'addnote',
    label: 'service: AddNote command',
    server: 'service',
    job: (c) => ({ mode: 'addnote', fights: c.noteFights, apiKey: c.service.apiKey }),
  },
  {
    // Every connection on the same fight: its commands are decided one after another, so they share
    // an append only as a round of those that waited (docs/event-store.md "Commands of one fight").
    id: 'addnote-one',
    label: 'service: AddNote command, every connection on one fight',
    server: 'service',
    job: (c) => ({ mode: 'addnote', fights: c.noteFights.slice(0, 1), apiKey: c.service.apiKey }),
  },
  {
    id: 'mix',
    label: 'service: Narateer exchange mix',
    server: 'service',
    job: (c) => ({ mode: 'commands', fights: c.mixFights, apiKey: c.service.apiKey }),
  },
  {
    id: 'constant',
    label: 'service: in-app constant POST (diagnostic)',
    server: 'service',
    job: (c) => ({ mode: 'baseline', fights: [], apiKey: c.service.apiKey }),
  },
  {
    id: 'raw',
    label: 'service: in-app Fastify route, no Nest route (diagnostic)',
    server: 'service',
    job: () => ({ mode: 'fixed', method: 'POST', path: RAW_ROUTE, body: POST_BODY }),
  },
];

/** Service subject → the minimal Nest subject it is held against (same method), and its target ratio. */
export const COMPARISONS: Array<{
  subject: SubjectId;
  express: SubjectId;
  fastify: SubjectId;
  node: SubjectId;
  targetRatio?: number;
  targetCpuMicros?: number;
}> = [
  { subject: 'live', express: 'express-get', fastify: 'fastify-get', node: 'node-get', targetRatio: 0.8 },
  { subject: 'fight', express: 'express-get', fastify: 'fastify-get', node: 'node-get', targetRatio: 0.5 },
  {
    subject: 'addnote',
    express: 'express-post',
    fastify: 'fastify-post',
    node: 'node-post',
    targetRatio: 0.25,
    targetCpuMicros: 150,
  },
  {
    subject: 'addnote-one',
    express: 'express-post',
    fastify: 'fastify-post',
    node: 'node-post',
    targetRatio: 0.25,
    targetCpuMicros: 150,
  },
  {
    subject: 'mix',
    express: 'express-post',
    fastify: 'fastify-post',
    node: 'node-post',
    targetRatio: 0.25,
    targetCpuMicros: 150,
  },
  { subject: 'constant', express: 'express-post', fastify: 'fastify-post', node: 'node-post' },
  { subject: 'raw', express: 'express-post', fastify: 'fastify-post', node: 'node-post' },
];

export interface StackFigures {
  connections: number;
  durationSec: number;
  rounds: Array<Record<SubjectId, SubjectFigures>>;
  /** Per subject: the median over rounds of req/s and of CPU µs per request, with the spread (min–max). */
  subjects: Record<
    SubjectId,
    {
      label: string;
      requestsPerSec: number;
      cpuMicrosPerRequest: number;
      /** Absent from results written before it was measured. */
      systemMicrosPerRequest?: number;
      p99Ms: number;
      non2xx: number;
      spread: { requestsPerSec: [number, number]; cpuMicrosPerRequest: [number, number] };
    }
  >;
  /**
   * Per service subject: ratios within each round, median over rounds. `cpu*` = baseline CPU per
   * request / the subject's (what fraction of the baseline's efficiency it keeps); `rps*` = req/s over req/s.
   */
  ratios: Record<
    string,
    {
      cpuVsExpress: number;
      rpsVsExpress: number;
      cpuVsFastify: number;
      rpsVsFastify: number;
      cpuVsNode: number;
      spreadCpuVsExpress: [number, number];
      spreadCpuVsFastify: [number, number];
    }
  >;
  /** Minimal Nest on Fastify against minimal Nest on Express: CPU per request and req/s, GET and POST. */
  fastifyOverExpress: { getCpu: number; getRps: number; postCpu: number; postRps: number };
  rssMiB: Record<ServerKind, number>;
}

async function measure(
  server: Server,
  job: Record<string, unknown>,
  connections: number,
  durationSec: number,
): Promise<SubjectFigures & { load: LoadResult }> {
  const before = await server.cpu();
  const load = await runLoad({ url: server.url, apiKey: '', connections, durationSec, fights: [], ...job });
  const after = await server.cpu();
  const total = Math.max(1, load.total);
  return {
    requestsPerSec: load.total / load.durationSec,
    cpuMicrosPerRequest: (after.micros - before.micros) / total,
    systemMicrosPerRequest: (after.systemMicros - before.systemMicros) / total,
    p50Ms: load.latency.p50,
    p99Ms: load.latency.p99,
    non2xx: load.non2xx,
    total: load.total,
    load,
  };
}

export async function fightsAt(service: Server, count: number, play: boolean): Promise<string[]> {
  const client = {
    post: async (path: string, body: unknown) => {
      const res = await fetch(service.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.apiKey}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    },
  };
  if (play) return prepareFights(client, count);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await client.post('/fights', createFightInput());
    if (created.status !== 201)
      throw new Error(`POST /fights: ${created.status} ${JSON.stringify(created.body)}`);
    await client.post(`/fights/${created.body.fightId}/commands`, SETUP);
    ids.push(created.body.fightId);
  }
  return ids;
}

const spreadOf = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

type Rounds = Array<Record<SubjectId, SubjectFigures>>;

interface StackOptions {
  connections: number;
  durationSec: number;
  rounds: number;
  fights: number;
  log?: (s: string) => void;
}

async function roundContext(service: Server, fights: number, readFight: string): Promise<RoundContext> {
  return {
    service,
    mixFights: await fightsAt(service, fights, true),
    noteFights: await fightsAt(service, fights, false),
    readFight,
  };
}

/** Every subject once for `durationSec`, in order (reversed on odd rounds). */
async function runRound(
  servers: Map<ServerKind, Server>,
  ctx: RoundContext,
  r: number,
  opts: StackOptions,
): Promise<Record<SubjectId, SubjectFigures>> {
  const order = r % 2 === 0 ? SUBJECTS : [...SUBJECTS].reverse();
  const round = {} as Record<SubjectId, SubjectFigures>;
  for (const s of order) {
    const { load: _load, ...f } = await measure(
      servers.get(s.server)!,
      s.job(ctx),
      opts.connections,
      opts.durationSec,
    );
    round[s.id] = f;
    opts.log?.(
      `  round ${r + 1} ${s.label}: ${Math.round(f.requestsPerSec)} req/s, ${f.cpuMicrosPerRequest.toFixed(0)} µs CPU/req${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}`,
    );
  }
  return round;
}

function subjectsOf(rounds: Rounds): StackFigures['subjects'] {
  return Object.fromEntries(
    SUBJECTS.map((s) => {
      const rps = rounds.map((r) => r[s.id].requestsPerSec);
      const cpu = rounds.map((r) => r[s.id].cpuMicrosPerRequest);
      return [
        s.id,
        {
          label: s.label,
          requestsPerSec: median(rps),
          cpuMicrosPerRequest: median(cpu),
          systemMicrosPerRequest: median(rounds.map((r) => r[s.id].systemMicrosPerRequest)),
          p99Ms: median(rounds.map((r) => r[s.id].p99Ms)),
          non2xx: rounds.reduce((n, r) => n + r[s.id].non2xx, 0),
          spread: { requestsPerSec: spreadOf(rps), cpuMicrosPerRequest: spreadOf(cpu) },
        },
      ];
    }),
  ) as StackFigures['subjects'];
}

/** Within each round: `a`'s CPU per request over `b`'s, and `b`'s req/s over `a`'s. */
const cpuOver = (rounds: Rounds, a: SubjectId, b: SubjectId) =>
  rounds.map((r) => r[a].cpuMicrosPerRequest / r[b].cpuMicrosPerRequest);
const rpsOver = (rounds: Rounds, a: SubjectId, b: SubjectId) =>
  rounds.map((r) => r[b].requestsPerSec / r[a].requestsPerSec);

function ratiosOf(rounds: Rounds): StackFigures['ratios'] {
  return Object.fromEntries(
    COMPARISONS.map((c) => {
      const cpuVsExpress = cpuOver(rounds, c.express, c.subject);
      const cpuVsFastify = cpuOver(rounds, c.fastify, c.subject);
      return [
        c.subject,
        {
          cpuVsExpress: median(cpuVsExpress),
          rpsVsExpress: median(rpsOver(rounds, c.express, c.subject)),
          cpuVsFastify: median(cpuVsFastify),
          rpsVsFastify: median(rpsOver(rounds, c.fastify, c.subject)),
          cpuVsNode: median(cpuOver(rounds, c.node, c.subject)),
          spreadCpuVsExpress: spreadOf(cpuVsExpress),
          spreadCpuVsFastify: spreadOf(cpuVsFastify),
        },
      ];
    }),
  );
}

export async function benchStack(dataDir: string, opts: StackOptions): Promise<StackFigures> {
  const kinds: ServerKind[] = ['node-http', 'nest-express', 'nest-fastify', 'service'];
  const servers = new Map<ServerKind, Server>();
  try {
    for (const kind of kinds) servers.set(kind, await startServer(kind, `${dataDir}/stack-service`));
    const service = servers.get('service')!;
    const readFight = (await fightsAt(service, 1, true))[0];
    // Warm-up: every subject once, short, so the first round does not pay for JIT compilation.
    const warm = await roundContext(service, opts.fights, readFight);
    for (const s of SUBJECTS) await measure(servers.get(s.server)!, s.job(warm), opts.connections, 1);
    const rounds: Rounds = [];
    for (let r = 0; r < opts.rounds; r++)
      rounds.push(await runRound(servers, await roundContext(service, opts.fights, readFight), r, opts));
    const fastifyOverExpress = {
      getCpu: median(cpuOver(rounds, 'express-get', 'fastify-get')),
      getRps: median(rpsOver(rounds, 'express-get', 'fastify-get')),
      postCpu: median(cpuOver(rounds, 'express-post', 'fastify-post')),
      postRps: median(rpsOver(rounds, 'express-post', 'fastify-post')),
    };
    const rssMiB = {} as Record<ServerKind, number>;
    for (const [kind, s] of servers) rssMiB[kind] = (await s.cpu()).rss / 2 ** 20;
    return {
      connections: opts.connections,
      durationSec: opts.durationSec,
      rounds,
      subjects: subjectsOf(rounds),
      ratios: ratiosOf(rounds),
      fastifyOverExpress,
      rssMiB,
    };
  } finally {
    for (const s of servers.values()) await s.close();
  }
}
