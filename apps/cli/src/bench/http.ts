import { fork } from 'node:child_process';
import { join } from 'node:path';
import { BenchApp } from './bench-app';
import { commandAt, createFightInput, SETUP, ROUND } from './fight-script';
import { forkJob, now, percentile, sleep } from './util';

export interface LoadResult {
  requestsPerSec: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  durationSec: number;
  commands: number;
  exchanges: number;
  error?: string;
}

export function runLoad(job: Record<string, unknown>): Promise<LoadResult> {
  return forkJob<LoadResult>('load-worker.js', job, 'load generator');
}

export interface HttpFigures {
  connections: number;
  fights: number;
  durationSec: number;
  /** Every round: the baseline, then the commands, each for durationSec. */
  rounds: Array<{ baselineRequestsPerSec: number; commandsPerSec: number; ratio: number }>;
  /** The round with the median ratio: its baseline and its commands. */
  baseline: LoadResult;
  commands: LoadResult;
  commandsPerSec: number;
  exchangesPerSec: number;
  ratio: number;
}

async function ok(app: Pick<BenchApp, 'post'>, path: string, body: unknown): Promise<any> {
  const r = await app.post(path, body);
  if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Prepares `count` fights and plays one full round on each (warm-up); returns their ids, at step 0 of a round. */
export async function prepareFights(app: Pick<BenchApp, 'post'>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async () => {
        const created = await ok(app, '/fights', createFightInput());
        await ok(app, `/fights/${created.fightId}/commands`, SETUP);
        for (let s = 0; s < ROUND.length; s++)
          await ok(app, `/fights/${created.fightId}/commands`, commandAt(s));
        return created.fightId as string;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/**
 * Baseline and commands alternate for `rounds` rounds, so a drift of the machine (other work, a
 * CPU boost ending) touches both sides of each ratio alike; the round with the median ratio is
 * reported, every round is kept in the results.
 */
export async function benchHttp(
  app: BenchApp,
  opts: { connections: number; fights: number; durationSec: number; rounds: number },
): Promise<HttpFigures> {
  const common = { url: app.url, apiKey: app.apiKey, connections: opts.connections };
  await runLoad({ ...common, fights: [], durationSec: 2, mode: 'baseline' });
  const measured: Array<{ baseline: LoadResult; commands: LoadResult; ratio: number }> = [];
  for (let round = 0; round < opts.rounds; round++) {
    // Fresh fights each round: a load run may end with commands in flight, so a fight's next step is not known after it.
    const fights = await prepareFights(app, opts.fights);
    const baseline = await runLoad({ ...common, fights, durationSec: opts.durationSec, mode: 'baseline' });
    const commands = await runLoad({ ...common, fights, durationSec: opts.durationSec, mode: 'commands' });
    measured.push({
      baseline,
      commands,
      ratio: commands.commands / commands.durationSec / baseline.requestsPerSec,
    });
  }
  const median = [...measured].sort((a, b) => a.ratio - b.ratio)[Math.floor(measured.length / 2)];
  return {
    connections: opts.connections,
    fights: opts.fights,
    durationSec: opts.durationSec,
    rounds: measured.map((m) => ({
      baselineRequestsPerSec: m.baseline.requestsPerSec,
      commandsPerSec: m.commands.commands / m.commands.durationSec,
      ratio: m.ratio,
    })),
    baseline: median.baseline,
    commands: median.commands,
    commandsPerSec: median.commands.commands / median.commands.durationSec,
    exchangesPerSec: median.commands.exchanges / median.commands.durationSec,
    ratio: median.ratio,
  };
}

export interface FanoutRound {
  subscribers: number;
  live: number;
  commands: number;
  events: number;
  deliveries: number;
  expectedDeliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * CPU per event fanned out (one event to every subscriber), in ms: of the subscribers' process (the
   * bench client, reading 1,000 frames) and of the server's (the bench process: the app, and the one
   * client that sends the commands). A burst that costs either side about the p99 on a busy core is
   * what the p99 measures.
   */
  clientCpuMsPerEvent: number;
  serverCpuMsPerEvent: number;
  /** The same CPU over the wall time of the timed window (commands gapMs apart), as a share of one core. */
  clientCpuShare: number;
  serverCpuShare: number;
}

export interface FanoutFigures {
  rounds: FanoutRound[];
  /** Over the rounds: the median and the worst p99, the median p50. */
  medianP99Ms: number;
  worstP99Ms: number;
  medianP50Ms: number;
  /** Every delivery made in every round, to every live subscriber. */
  complete: boolean;
}

interface FanoutClient {
  reply<T>(type: string): Promise<T>;
  send(type: string): void;
  close(): Promise<void>;
}

/** The subscribers' process (fanout-worker.ts), subscribed from `after` on `fightId`. */
function fanoutClient(app: BenchApp, fightId: string, after: number, subscribers: number): FanoutClient {
  const job = {
    wsUrl: `${app.url.replace('http', 'ws')}/graphql`,
    apiKey: app.apiKey,
    fightId,
    after,
    subscribers,
  };
  const child = fork(join(__dirname, 'fanout-worker.js'), [JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`fan-out client exited with code ${code}`))),
  );
  exited.catch(() => undefined);
  return {
    reply: <T>(type: string) =>
      Promise.race([
        exited,
        new Promise<T>((resolve) => {
          const on = (m: { type: string }) => {
            if (m.type !== type) return;
            child.off('message', on);
            resolve(m as T);
          };
          child.on('message', on);
        }),
      ]),
    send: (type) => child.send({ type }),
    close: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      if (child.connected) child.send({ type: 'close' });
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      await gone;
    },
  };
}

/**
 * One round: `subscribers` graphql-ws subscribers (another process) on a fresh fight; commands are
 * sent one at a time, `gapMs` apart. Delivery latency = receive time − the time the command was sent
 * (so it includes the decide and the append).
 */
async function fanoutRound(
  app: BenchApp,
  opts: { subscribers: number; commands: number; gapMs: number },
): Promise<FanoutRound> {
  const created = await ok(app, '/fights', createFightInput());
  const fightId = created.fightId as string;
  const first = await ok(app, `/fights/${fightId}/commands`, SETUP);
  const client = fanoutClient(app, fightId, first.seq - 1, opts.subscribers);
  try {
    client.send('connect');
    const ready = await client.reply<{ live: number; failures: number }>('ready');
    const serverCpu = process.cpuUsage();
    const sentAt = new Map<number, number>();
    let events = 0;
    for (let i = 0; i < opts.commands; i++) {
      const t = now();
      const r = await ok(app, `/fights/${fightId}/commands`, commandAt(i));
      for (const e of r.events as Array<{ seq: number }>) sentAt.set(e.seq, t);
      events += r.events.length;
      await sleep(opts.gapMs);
    }
    await sleep(500);
    const server = process.cpuUsage(serverCpu);
    client.send('collect');
    const { received, cpuMicros, wallMs } = await client.reply<{
      received: Array<[number, number[]]>;
      cpuMicros: number;
      wallMs: number;
    }>('received');
    const latencies: number[] = [];
    for (const [seq, times] of received) {
      const t = sentAt.get(seq);
      if (t !== undefined) for (const r of times) latencies.push(r - t);
    }
    return {
      subscribers: opts.subscribers,
      live: ready.live,
      commands: opts.commands,
      events,
      deliveries: latencies.length,
      expectedDeliveries: events * ready.live,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: Math.max(...latencies),
      clientCpuMsPerEvent: cpuMicros / 1000 / events,
      serverCpuMsPerEvent: (server.user + server.system) / 1000 / events,
      clientCpuShare: cpuMicros / 1000 / wallMs,
      serverCpuShare: (server.user + server.system) / 1000 / wallMs,
    };
  } finally {
    await client.close();
  }
}

/** `rounds` fan-out rounds, each on a fresh fight with fresh subscribers: a p99 target must hold in every one. */
export async function benchFanout(
  app: BenchApp,
  opts: { subscribers: number; commands: number; gapMs: number; rounds: number; log?: (s: string) => void },
): Promise<FanoutFigures> {
  const rounds: FanoutRound[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const f = await fanoutRound(app, opts);
    opts.log?.(
      `  fan-out round ${r + 1}: p99 ${f.p99Ms.toFixed(1)} ms, p50 ${f.p50Ms.toFixed(1)} ms; CPU per event: client ${f.clientCpuMsPerEvent.toFixed(1)} ms, server ${f.serverCpuMsPerEvent.toFixed(1)} ms`,
    );
    rounds.push(f);
  }
  const p99 = rounds.map((r) => r.p99Ms);
  return {
    rounds,
    medianP99Ms: percentile(p99, 50),
    worstP99Ms: Math.max(...p99),
    medianP50Ms: percentile(
      rounds.map((r) => r.p50Ms),
      50,
    ),
    complete: rounds.every((r) => r.deliveries === r.expectedDeliveries && r.live === r.subscribers),
  };
}
