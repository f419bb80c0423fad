import { fork } from 'node:child_process';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BenchApp } from './bench-app';
import { commandAt, createFightInput, SETUP, ROUND } from './fight-script';
import { now, percentile, sleep } from './util';

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
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'load-worker.js'), [JSON.stringify(job)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let done = false;
    child.once('message', (m: LoadResult) => {
      done = true;
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    child.once('error', reject);
    child.once('exit', (code) => done || reject(new Error(`load generator exited with code ${code}`)));
  });
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

export interface FanoutFigures {
  subscribers: number;
  live: number;
  commands: number;
  events: number;
  deliveries: number;
  expectedDeliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * 1,000 graphql-ws subscribers (another thread) on one fight; commands are sent one at a time,
 * `gapMs` apart. Delivery latency = receive time − the time the command was sent (so it includes
 * the decide and the append).
 */
export async function benchFanout(
  app: BenchApp,
  opts: { subscribers: number; commands: number; gapMs: number },
): Promise<FanoutFigures> {
  const created = await ok(app, '/fights', createFightInput());
  const fightId = created.fightId as string;
  const first = await ok(app, `/fights/${fightId}/commands`, SETUP);
  const worker = new Worker(join(__dirname, 'fanout-worker.js'), {
    workerData: {
      wsUrl: `${app.url.replace('http', 'ws')}/graphql`,
      apiKey: app.apiKey,
      fightId,
      after: first.seq - 1,
      subscribers: opts.subscribers,
    },
  });
  const reply = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        worker.off('message', onMessage);
        resolve(m as T);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  try {
    worker.postMessage({ type: 'connect' });
    const ready = await reply<{ live: number; failures: number }>('ready');
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
    worker.postMessage({ type: 'collect' });
    const { received } = await reply<{ received: Array<[number, number[]]> }>('received');
    const latencies: number[] = [];
    for (const [seq, times] of received) {
      const t = sentAt.get(seq);
      if (t !== undefined) for (const r of times) latencies.push(r - t);
    }
    worker.postMessage({ type: 'close' });
    await Promise.race([reply('closed'), sleep(5000)]);
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
    };
  } finally {
    await worker.terminate();
  }
}
