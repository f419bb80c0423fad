import { runLoad } from './http';
import { fightsAt, startServer, type Server } from './stack';
import { median } from './util';
import { receiver } from './webhooks';

/**
 * What a webhook subscription costs the commands: the service in a process of its own (SQLite, its
 * projections and webhook outbox on the worker thread unless PROJECTIONS_THREAD=main), AddNote load over
 * `fights` fights, with no endpoint and with one endpoint subscribed to every event (a receiver in another
 * process answers 204). The figure that matters is the main thread's CPU per command (Linux's per-thread
 * figure; the event loop's busy time would not do: under this load it is busy all the time either way): the
 * thread that answers requests, whatever the worker does. Each side of a round runs in a service of its own
 * on a new data directory (the endpoint made before the fights), so neither inherits the other's backlog or
 * catch-up; the order alternates between rounds.
 */
export interface WebhookLoadSide {
  commandsPerSec: number;
  /** The main thread's CPU per command, µs (NaN where the system gives no per-thread figure). */
  mainCpuMicrosPerCommand: number;
  /** The whole process's CPU per command (every thread), µs. */
  cpuMicrosPerCommand: number;
  p99Ms: number;
}

export interface WebhookLoadFigures {
  thread: string;
  connections: number;
  fights: number;
  durationSec: number;
  rounds: Array<{ none: WebhookLoadSide; subscribed: WebhookLoadSide }>;
  /** Medians over the rounds. */
  none: WebhookLoadSide;
  subscribed: WebhookLoadSide;
  /** subscribed.mainCpuMicrosPerCommand / none.mainCpuMicrosPerCommand. */
  mainCpuRatio: number;
}

async function side(service: Server, fights: string[], connections: number, durationSec: number) {
  const main = () =>
    service.ask<{ micros?: number }>('main-cpu', 'main-cpu').then((r) => r.micros ?? Number.NaN);
  const [cpu0, main0] = [await service.cpu(), await main()];
  const load = await runLoad({
    url: service.url,
    apiKey: service.apiKey,
    connections,
    durationSec,
    fights,
    mode: 'addnote',
  });
  const [cpu1, main1] = [await service.cpu(), await main()];
  const commands = Math.max(1, load.commands);
  return {
    commandsPerSec: load.commands / load.durationSec,
    mainCpuMicrosPerCommand: (main1 - main0) / commands,
    cpuMicrosPerCommand: (cpu1.micros - cpu0.micros) / commands,
    p99Ms: load.latency.p99,
  };
}

async function call(service: Server, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(service.url + path, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service.apiKey}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

const medianSide = (sides: WebhookLoadSide[]): WebhookLoadSide => ({
  commandsPerSec: median(sides.map((s) => s.commandsPerSec)),
  mainCpuMicrosPerCommand: median(sides.map((s) => s.mainCpuMicrosPerCommand)),
  cpuMicrosPerCommand: median(sides.map((s) => s.cpuMicrosPerCommand)),
  p99Ms: median(sides.map((s) => s.p99Ms)),
});

/** One side of a round: a service of its own on a new data directory; the endpoint (if any) made before the fights. */
async function sideInFreshService(
  dataDir: string,
  hookUrl: string | undefined,
  opts: { connections: number; fights: number; durationSec: number },
): Promise<WebhookLoadSide> {
  const service = await startServer('service', dataDir);
  try {
    if (hookUrl) await call(service, 'POST', '/webhooks/endpoints', { url: hookUrl });
    const fights = await fightsAt(service, opts.fights, false);
    return await side(service, fights, opts.connections, opts.durationSec);
  } finally {
    await service.close();
  }
}

export async function benchWebhookLoad(
  dataDir: string,
  opts: { connections: number; fights: number; durationSec: number; rounds: number },
  log: (s: string) => void = () => undefined,
): Promise<WebhookLoadFigures> {
  // The receiver is on loopback: allowed as in local development (the service reads it at start).
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  const hook = await receiver();
  try {
    const rounds: WebhookLoadFigures['rounds'] = [];
    for (let r = 0; r < opts.rounds; r++) {
      // Each side in a service of its own, the order reversed every other round.
      const at = (name: string) => `${dataDir}/round-${r}-${name}`;
      const sides: Array<'none' | 'subscribed'> =
        r % 2 === 0 ? ['none', 'subscribed'] : ['subscribed', 'none'];
      const got: Partial<Record<'none' | 'subscribed', WebhookLoadSide>> = {};
      for (const name of sides)
        got[name] = await sideInFreshService(at(name), name === 'subscribed' ? hook.url : undefined, opts);
      const { none, subscribed } = got as Record<'none' | 'subscribed', WebhookLoadSide>;
      log(
        `  webhook load round ${r + 1}: main thread ${subscribed.mainCpuMicrosPerCommand.toFixed(0)} µs CPU/command with an endpoint, ${none.mainCpuMicrosPerCommand.toFixed(0)} without`,
      );
      rounds.push({ none, subscribed });
    }
    const none = medianSide(rounds.map((r) => r.none));
    const subscribed = medianSide(rounds.map((r) => r.subscribed));
    return {
      thread: process.env.PROJECTIONS_THREAD ?? 'worker',
      ...opts,
      rounds,
      none,
      subscribed,
      mainCpuRatio: subscribed.mainCpuMicrosPerCommand / none.mainCpuMicrosPerCommand,
    };
  } finally {
    await hook.close();
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = saved;
  }
}
