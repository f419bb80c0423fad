import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from 'pg';
import { join } from 'node:path';
import { PostgresEventStore, SqliteEventStore, type EventStore } from '@app/event-store';
import { FightService, ProjectionRunner, SqliteReadStore, type Actor } from '@app/fights';
import {
  DEFAULT_WEBHOOK_CONFIG,
  ForegroundGauge,
  NewDelivery,
  PostgresDriver,
  SqliteDriver,
  SqlWebhookStore,
  WebhookConfig,
  WebhookDispatcher,
  WebhookOutbox,
  WebhookStore,
} from '@app/webhooks';
import { createFightInput, SETUP } from './fight-script';
import { latencySpread, percentile, sleep } from './util';

/**
 * Webhook backlog drain: how fast deliveries go out with no backlog and with a large one (the
 * claim must not depend on the backlog's size), and what a drain does to command latency in the
 * same process (background delivery work must not stall the command path).
 */
export interface DrainOptions {
  /** The backlog: deliveries pending on one endpoint, `perFight` per fight, all due. */
  pending: number;
  perFight: number;
  /** Deliveries timed in each drain-rate window (the window also stops at `windowMs`). */
  sample: number;
  windowMs: number;
  /** Commands timed on each side (no drain, a drain), over `rounds` windows a side. */
  commands: number;
  /** Windows of each side, in turn: without a drain, then during one (each also stops at `windowMs`). */
  rounds: number;
}

export interface DrainRate {
  pending: number;
  delivered: number;
  seconds: number;
  perSec: number;
}

export interface CommandLatency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Deliveries recorded while the commands ran. */
  delivered: number;
  /**
   * Event-loop delay meanwhile (the longest stretch the one JavaScript thread was held: SQLite statements run
   * on it); over several windows, the worst window's p99 and max.
   */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

export interface DrainFigures {
  engine: 'sqlite' | 'postgres';
  /** With only the `sample` deliveries pending, then with the backlog. */
  empty: DrainRate;
  backlog: DrainRate;
  /** backlog.perSec / empty.perSec: 1 means the backlog's size does not matter. */
  drainRatio: number;
  /** The claim of one batch (median of 20 calls that find nothing to lease: every head leased), with no backlog and with it. */
  claimMs: { empty: number; backlog: number };
  /** Command latency over every window without a drain, and over every window during one. */
  idle: CommandLatency;
  draining: CommandLatency;
  /** draining.p99Ms / idle.p99Ms, of the commands of every round. */
  p99Ratio: number;
  /** The same ratio, round by round (the spread). */
  p99Ratios: number[];
}

const TENANT = 't-bench';
const ACTOR: Actor = { name: 'gm', scope: 'all', tenantId: TENANT };

/** The receiver's program: answers 204 to everything, on loopback, and prints its port. */
const RECEIVER = `
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/**
 * A receiver that answers 204 to everything, on loopback, in a process of its own: a real endpoint
 * is never in the service's process, so its work must not count against the commands timed here.
 */
export async function receiver(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`webhook receiver exited (${code})`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

const PAYLOAD = JSON.stringify({ type: 'GmNoteAdded', data: { note: 'x'.repeat(200) } });

/** Inserts deliveries as the outbox does (one transaction), leaving its checkpoint where it is ('' reads back as none). */
async function insertPage(store: WebhookStore, deliveries: NewDelivery[]): Promise<void> {
  for (;;) {
    const at = await store.checkpoint();
    if (await store.commitPage(at, at ?? '', { fightTenants: [], deliveries })) return;
  }
}

/**
 * Queues `fights × perFight` due deliveries as a receiver that was down for a while leaves them: each fight's head
 * (seq 1) was tried and is due again now, behind its later events, queued earlier in log order (every fight's
 * seq 2, then every fight's seq 3, …) and due since. Inserted fight by fight, which only makes the setup quicker.
 */
async function queueBacklog(
  store: WebhookStore,
  endpointId: string,
  prefix: string,
  fights: number,
  perFight: number,
  now: number,
): Promise<void> {
  const total = fights * perFight;
  let page: NewDelivery[] = [];
  for (let f = 0; f < fights; f++) {
    for (let seq = 1; seq <= perFight; seq++) {
      const createdAt = seq === 1 ? now : now - total + (seq - 2) * fights + f;
      page.push({
        id: `msg_${prefix}_${f}_${seq}`,
        endpointId,
        tenantId: TENANT,
        fightId: `${prefix}-${f}`,
        seq,
        eventType: 'GmNoteAdded',
        payload: PAYLOAD,
        createdAt,
      });
      if (page.length === 1000) {
        await insertPage(store, page);
        page = [];
      }
    }
  }
  if (page.length) await insertPage(store, page);
}

/** The store, counting the attempts it records (every recorded attempt is a delivery sent and answered). */
function counting(store: WebhookStore): { store: WebhookStore; recorded: () => number } {
  let n = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'recordAttempt') {
        return async (...args: Parameters<WebhookStore['recordAttempt']>) => {
          const ok = await target.recordAttempt(...args);
          if (ok) n++;
          return ok;
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, recorded: () => n };
}

/** Runs a dispatcher until `count` attempts are recorded or `windowMs` passes; the rate counts from its start. */
async function drain(
  store: WebhookStore,
  config: WebhookConfig,
  pending: number,
  count: number,
  windowMs: number,
): Promise<DrainRate> {
  const { store: counted, recorded } = counting(store);
  const dispatcher = new WebhookDispatcher(counted, config);
  const t0 = performance.now();
  const stopAt = t0 + windowMs;
  dispatcher.start();
  let reached = 0;
  while (performance.now() < stopAt) {
    if (recorded() >= count) {
      reached = performance.now();
      break;
    }
    await sleep(2);
  }
  const delivered = recorded();
  const seconds = ((reached || performance.now()) - t0) / 1000;
  await dispatcher.stop();
  return { pending, delivered, seconds, perSec: delivered / seconds };
}

/** Median time of one claim of a batch of 16 (leased, then given back untouched). */
async function claimCost(store: WebhookStore, now: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    const claimed = await store.claimDue(now, 16, 'bench-probe', now + 60_000);
    times.push(performance.now() - t);
    await store.releaseLeases(
      'bench-probe',
      claimed.map((d) => d.id),
    );
  }
  return percentile(times, 50);
}

interface CommandPath {
  events: EventStore;
  fights: FightService;
  close(): Promise<void>;
}

async function commandPath(
  engine: 'sqlite' | 'postgres',
  dir: string,
  pg?: { url: string; schema: string },
): Promise<CommandPath> {
  if (engine === 'postgres') {
    const events = new PostgresEventStore({ connectionString: pg!.url, schema: pg!.schema });
    return { events, fights: new FightService(events), close: () => events.close() };
  }
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const read = new SqliteReadStore(join(dir, 'read.sqlite'));
  const runner = new ProjectionRunner(events, read);
  await runner.start(1000);
  const fights = new FightService(events);
  fights.onCommit.add(() => runner.kick());
  return {
    events,
    fights,
    close: async () => {
      await runner.stop();
      await read.close();
      await events.close();
    },
  };
}

/** One side's windows: each command's time, what was delivered meanwhile, the event loop's delay. */
class LatencySide {
  readonly times: number[] = [];
  delivered = 0;
  /** The event loop's delay in each window (a histogram of its own: one enabled again counts the pause between). */
  private readonly loops: Array<{ p99Ms: number; maxMs: number }> = [];

  /**
   * AddNote commands one after another (1 ms apart) while the dispatcher does what it does; stops at
   * `count` or `windowMs`. Returns this window's p99.
   */
  async window(
    fights: FightService,
    fightId: string,
    count: number,
    windowMs: number,
    delivered: () => number,
  ): Promise<number> {
    const from = this.times.length;
    const before = delivered();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const stopAt = performance.now() + windowMs;
    while (this.times.length - from < count && performance.now() < stopAt) {
      const t = performance.now();
      await fights.execute(fightId, { type: 'AddNote', text: `note ${this.times.length}` }, ACTOR);
      this.times.push(performance.now() - t);
      await sleep(1);
    }
    loop.disable();
    this.loops.push({ p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 });
    this.delivered += delivered() - before;
    return percentile(this.times.slice(from), 99);
  }

  latency(): CommandLatency {
    return {
      samples: this.times.length,
      ...latencySpread(this.times),
      delivered: this.delivered,
      loopDelayP99Ms: Math.max(...this.loops.map((l) => l.p99Ms)),
      loopDelayMaxMs: Math.max(...this.loops.map((l) => l.maxMs)),
    };
  }
}

/** The endpoint the commands' deliveries go to; the backlog is another's, on the same receiver. */
const LIVE = 'ep_bench';
const BACKLOG = 'ep_backlog';

async function insertBenchEndpoint(store: WebhookStore, id: string, url: string, now: number): Promise<void> {
  await store.insertEndpoint({
    id,
    tenantId: TENANT,
    url,
    description: 'bench',
    eventTypes: [],
    fightId: null,
    enabled: true,
    secret: 'whsec_' + Buffer.from('bench-secret-0123456789abcdef').toString('base64'),
    previousSecrets: [],
    disabledReason: null,
    failingSince: null,
    createdAt: now - 3_600_000,
    updatedAt: now,
  });
}

interface Phase {
  store: WebhookStore;
  config: WebhookConfig;
  path: CommandPath;
  opts: DrainOptions;
  step(s: string): void;
  /** The outbox queued deliveries: the dispatcher of the moment (latencyRounds) is woken. */
  wake: () => void;
}

/**
 * No backlog: the drain rate of `sample` deliveries, one per fight; then the outbox set running (each
 * command queues a delivery to the live endpoint), and a fight for the commands.
 */
async function idlePhase(p: Phase, now: number) {
  const { store, config, path, opts } = p;
  await queueBacklog(store, LIVE, 'small', opts.sample, 1, now);
  p.step('no backlog queued');
  const emptyClaim = await claimCost(store, Date.now());
  const empty = await drain(store, config, opts.sample, opts.sample, opts.windowMs);
  const created = await path.fights.create(createFightInput('seeded', 'bench-seed'), ACTOR);
  await path.fights.execute(created.fightId, SETUP, ACTOR);
  const outbox = new WebhookOutbox(path.events, store, () => p.wake());
  path.fights.onCommit.add(() => outbox.kick());
  await outbox.catchUp();
  outbox.start(config.pollMs);
  p.step('no backlog drained');
  return { emptyClaim, empty, outbox, fightId: created.fightId };
}

/** The backlog (its endpoint's): its claim, its drain rate. */
async function backlogPhase(p: Phase) {
  const { store, config, opts } = p;
  await queueBacklog(
    store,
    BACKLOG,
    'big',
    Math.ceil(opts.pending / opts.perFight),
    opts.perFight,
    Date.now(),
  );
  p.step(`${opts.pending} queued`);
  const backlogClaim = await claimCost(store, Date.now());
  const backlog = await drain(store, config, opts.pending, opts.sample, opts.windowMs);
  p.step('backlog drain timed');
  return { backlogClaim, backlog };
}

/**
 * Command latency without a drain and during one, in `rounds` windows of each, in turn, so that both sides
 * meet the same machine (one window a side gave p99s of a few hundred commands that moved by more than
 * the drain did). One dispatcher, wired as the service wires it (webhooks.module.ts: deliveries yield to
 * commands on a saturated thread), runs throughout and delivers each command's event; only the backlog
 * differs: its endpoint is disabled (its deliveries are not due: no drain) or enabled (a drain).
 */
async function latencyRounds(p: Phase, fightId: string) {
  const { store, config, path, opts } = p;
  const { store: counted, recorded } = counting(store);
  const foreground = new ForegroundGauge();
  const dispatcher = new WebhookDispatcher(counted, config, undefined, undefined, undefined, foreground);
  path.fights.onCommit.add(() => {
    foreground.noteCommand();
    dispatcher.kick();
  });
  p.wake = () => dispatcher.queued();
  dispatcher.start();
  const idle = new LatencySide();
  const draining = new LatencySide();
  const perWindow = Math.ceil(opts.commands / opts.rounds);
  const ratios: number[] = [];
  try {
    for (let round = 0; round < opts.rounds; round++) {
      await store.updateEndpoint(BACKLOG, { enabled: false });
      // What was leased before goes out first.
      await sleep(200);
      const quiet = await idle.window(path.fights, fightId, perWindow, opts.windowMs, recorded);
      await store.updateEndpoint(BACKLOG, { enabled: true });
      dispatcher.kick();
      await sleep(200);
      ratios.push((await draining.window(path.fights, fightId, perWindow, opts.windowMs, recorded)) / quiet);
    }
  } finally {
    await dispatcher.stop();
  }
  p.step('commands timed');
  return { idle: idle.latency(), draining: draining.latency(), ratios };
}

async function dropSchema(pgUrl: string, schema: string): Promise<void> {
  const c = new Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await c.end();
}

/**
 * One engine: the drain rate of `sample` deliveries with nothing else pending, then of the first
 * `sample` of a `pending` backlog; command latency with an endpoint subscribed and no drain, and while
 * the backlog drains, in turn (latencyRounds).
 */
export async function benchWebhookDrain(
  engine: 'sqlite' | 'postgres',
  dir: string,
  opts: DrainOptions,
  pgUrl?: string,
  log: (s: string) => void = () => undefined,
): Promise<DrainFigures> {
  const started = performance.now();
  const step = (s: string) =>
    log(`webhooks ${engine}: ${s} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const schema = `bench_wh_${process.pid}_${Date.now().toString(36)}`;
  const store = new SqlWebhookStore(
    engine === 'postgres'
      ? new PostgresDriver(pgUrl!, schema)
      : new SqliteDriver(join(dir, 'webhooks.sqlite')),
  );
  const hook = await receiver();
  const config: WebhookConfig = {
    ...DEFAULT_WEBHOOK_CONFIG,
    allowPrivate: true,
    pollMs: 200,
    timeoutMs: 5000,
  };
  const path = await commandPath(engine, dir, engine === 'postgres' ? { url: pgUrl!, schema } : undefined);
  try {
    const now = Date.now() - 1000;
    await insertBenchEndpoint(store, LIVE, hook.url, now);
    await insertBenchEndpoint(store, BACKLOG, hook.url, now);
    const phase: Phase = { store, config, path, opts, step, wake: () => undefined };
    const idle = await idlePhase(phase, now);
    const { backlogClaim, backlog } = await backlogPhase(phase);
    const rounds = await latencyRounds(phase, idle.fightId);
    await idle.outbox.stop();
    return {
      engine,
      empty: idle.empty,
      backlog,
      drainRatio: backlog.perSec / idle.empty.perSec,
      claimMs: { empty: idle.emptyClaim, backlog: backlogClaim },
      idle: rounds.idle,
      draining: rounds.draining,
      p99Ratio: rounds.draining.p99Ms / rounds.idle.p99Ms,
      p99Ratios: rounds.ratios,
    };
  } finally {
    await path.close();
    await store.close();
    await hook.close();
    if (engine === 'postgres') await dropSchema(pgUrl!, schema);
  }
}
