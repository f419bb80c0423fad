import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { benchDecide } from './decide';
import { benchDice } from './dice';
import { AppendFigures, benchEventIds, benchPostgresAppend, benchSqliteAppend } from './append';
import { benchAudit, benchLatency, benchMemory, benchProjectionRebuild } from './service';
import { benchStack, COMPARISONS, StackFigures } from './stack';
import { profileCommandPath, profileMarkdown } from './profile';
import { benchWebhookLoad, WebhookLoadFigures, WebhookLoadSide } from './webhooks-load';
import { benchWebhookDrain, DrainFigures } from './webhooks';
import { fmt } from './util';
import { benchLab } from './lab';

export interface Row {
  benchmark: string;
  result: string;
  baseline: string;
  ratio: string;
  target: string;
  /** met | missed | report (no target) | skipped | error */
  status: string;
}

export interface BenchOptions {
  only?: string;
  out: string;
  profileOut: string;
  quick?: boolean;
  pgUrl?: string;
}

/** What every section reads (the options, a temp dir) and adds to (results, rows, notes). */
export interface BenchContext {
  opts: BenchOptions;
  quick: boolean;
  dir: string;
  started: Date;
  results: Record<string, unknown>;
  rows: Row[];
  notes: string[];
  log: (s: string) => void;
  /** The latency section's store, which the projection section rebuilds from (it makes one if unset). */
  latencyStore?: string;
}

export type Section = (ctx: BenchContext) => Promise<void>;

export const ok = (met: boolean): string => (met ? 'met' : 'MISSED');

/** The row of a PostgreSQL section skipped for want of a database. */
export function skippedPg(ctx: BenchContext, name: string, benchmark: string, target: string): void {
  ctx.results[name] = { skipped: 'EVENT_STORE_PG_URL is not set' };
  ctx.rows.push({
    benchmark,
    result: 'SKIPPED: EVENT_STORE_PG_URL is not set',
    baseline: '',
    ratio: '',
    target,
    status: 'skipped',
  });
  ctx.log('PostgreSQL benchmarks skipped: EVENT_STORE_PG_URL is not set');
}

export const decideSection: Section = async ({ quick, results, rows }) => {
  const dice = benchDice(quick ? 300 : 600);
  const d = benchDecide({ ms: quick ? 500 : 1000, rounds: quick ? 3 : 5 });
  results.decide = {
    ...d,
    dice,
    target: { exchangesPerSec: 100_000 },
    met: d.exchangesPerSec >= 100_000,
  };
  rows.push({
    benchmark: 'decide: full Narateer exchanges, seeded dice, 1 core',
    result: `${fmt(d.exchangesPerSec)} exchanges/s`,
    baseline: '— (absolute)',
    ratio: '',
    target: '≥ 100,000/s',
    status: ok(d.exchangesPerSec >= 100_000),
  });
  rows.push({
    benchmark: '  seeded dice draws (3d6): legacy seeded.ts vs now',
    result: `${fmt(dice.drawsPerSec)} draws/s`,
    baseline: `${fmt(dice.legacyDrawsPerSec)} draws/s`,
    ratio: `${dice.speedup.toFixed(2)}×`,
    target: 'faces identical',
    status: dice.identical ? 'met' : 'MISSED',
  });
};

export const sqliteAppendSection: Section = async ({ quick, results, rows }) => {
  const figures = await benchSqliteAppend({ writers: [1, 50], events: quick ? 2000 : 10000 });
  results['sqlite-append'] = { figures, target: { ratio: 0.8 } };
  for (const f of figures)
    rows.push({
      benchmark: `SQLite append, ${f.writers} writer${f.writers > 1 ? 's' : ''} (1 event/append)`,
      result: `${fmt(f.adapterEventsPerSec)} ev/s`,
      baseline: `raw ${fmt(f.rawEventsPerSec)} ev/s (${fmt(f.rawRowsPerTx, 1)} rows/tx)`,
      ratio: f.ratio.toFixed(2),
      target: '≥ 0.8',
      status: ok(f.ratio >= 0.8),
    });
  const ids = await benchEventIds({ events: quick ? 8000 : 80_000, writers: 50 });
  results['sqlite-append'] = { figures, eventIds: ids, target: { ratio: 0.8 } };
  rows.push({
    benchmark: `SQLite append, UUIDv7 event ids vs UUIDv4 (${ids.writers} writers, ${ids.eventsPerAppend} events/append, ${fmt(ids.events)} events)`,
    result: `${fmt(ids.v7.eventsPerSec)} ev/s, ${ids.v7.cpuMicrosPerEvent.toFixed(1)} µs CPU/event`,
    baseline: `v4 ${fmt(ids.v4.eventsPerSec)} ev/s, ${ids.v4.cpuMicrosPerEvent.toFixed(1)} µs CPU/event`,
    ratio: ids.ratio.toFixed(2),
    target: 'decides the id format',
    status: 'report',
  });
};

export const pgAppendSection: Section = async (ctx) => {
  const { opts, quick, results, rows } = ctx;
  if (!opts.pgUrl) return skippedPg(ctx, 'pg-append', 'PostgreSQL append, 1 and 50 writers', '≥ 0.7');
  const figures: AppendFigures[] = await benchPostgresAppend(opts.pgUrl, {
    writers: [1, 50],
    events: quick ? 500 : 2000,
  });
  results['pg-append'] = { figures, poolSize: 10, target: { ratio: 0.7 } };
  for (const f of figures)
    rows.push({
      benchmark: `PostgreSQL append, ${f.writers} writer${f.writers > 1 ? 's' : ''} (pool 10)`,
      result: `${fmt(f.adapterEventsPerSec)} ev/s`,
      baseline: `raw ${fmt(f.rawEventsPerSec)} ev/s`,
      ratio: f.ratio.toFixed(2),
      target: '≥ 0.7',
      status: ok(f.ratio >= 0.7),
    });
};

export const httpSection: Section = async ({ dir, quick, results, rows, log }) => {
  const h = await benchStack(dir, {
    connections: 50,
    fights: 100,
    durationSec: quick ? 2 : 5,
    rounds: 3,
    log,
  });
  results.http = {
    ...h,
    target: { commandCpuMicros: 150, commandRatio: 0.25, fightGetRatio: 0.5, publicRatio: 0.8 },
  };
  rows.push(...stackRows(h));
};

export const profileSection: Section = async ({ dir, quick, opts, started, results, rows }) => {
  const p = await profileCommandPath(dir, { durationSec: quick ? 3 : 10, fights: 100 });
  const file = resolve(process.cwd(), opts.profileOut);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, profileMarkdown(p, started.toISOString().slice(0, 10)));
  results.profile = {
    file: opts.profileOut,
    requests: p.requests,
    cpuMicrosPerRequest: p.cpuMicrosPerRequest,
    busyShare: p.summary.busyMs / p.summary.sampledMs,
    top: p.summary.modules.slice(0, 12),
  };
  const top = p.summary.modules
    .slice(0, 4)
    .map((m) => `${m.module} ${(m.selfShare * 100).toFixed(0)}%`)
    .join(', ');
  rows.push({
    benchmark: 'CPU profile of the exchange mix (top self costs)',
    result: top,
    baseline: '—',
    ratio: '',
    target: `written to ${opts.profileOut}`,
    status: 'report',
  });
};

export const latencySection: Section = async (ctx) => {
  const { figures, storeFile } = await benchLatency(ctx.dir, {
    lengths: [10, 1000, 10000],
    samples: ctx.quick ? 30 : 100,
  });
  ctx.latencyStore = storeFile;
  const last = figures.lengths[figures.lengths.length - 1];
  ctx.results.latency = {
    ...figures,
    target: { ratioAt10000: 1.5, coldMsAt10000: 10 },
    met: last.ratioWarm <= 1.5 && last.coldMedianMs <= 10,
  };
  for (const l of figures.lengths)
    ctx.rows.push({
      benchmark: `command latency, ${fmt(l.events)}-event fight (cached / cold)`,
      result: `${l.warmMedianMs.toFixed(2)} ms (p99 ${l.warmP99Ms.toFixed(2)}) / cold ${l.coldMedianMs.toFixed(1)} ms`,
      baseline: l === figures.lengths[0] ? 'baseline' : '10-event fight',
      ratio: `${l.ratioWarm.toFixed(2)} / cold ${l.ratioCold.toFixed(1)}`,
      target: l.events === 10000 ? '≤ 1.5× at 10,000' : '',
      status: l.events === 10000 ? ok(l.ratioWarm <= 1.5) : '',
    });
  // The cold load on its own target: its snapshot and the events after it, against the whole stream folded.
  ctx.rows.push({
    benchmark: `  cold load of a ${fmt(last.events)}-event fight (first command after a restart)`,
    result: `${last.coldMedianMs.toFixed(1)} ms (CPU ${last.coldCpuMedianMs.toFixed(1)} ms), from its snapshot every ${fmt(figures.snapshotEvery)} events`,
    baseline: `whole stream folded ${last.coldFullFoldMedianMs.toFixed(1)} ms`,
    ratio: (last.coldMedianMs / last.coldFullFoldMedianMs).toFixed(2),
    target: '≤ 10 ms',
    status: ok(last.coldMedianMs <= 10),
  });
};

export const projectionSection: Section = async (ctx) => {
  const store =
    ctx.latencyStore ?? (await benchLatency(ctx.dir, { lengths: [10, 1000, 10000], samples: 10 })).storeFile;
  const p = await benchProjectionRebuild(ctx.dir, store);
  ctx.results.projection = { ...p, target: { ratio: 0.5 } };
  ctx.rows.push({
    benchmark: `projection rebuild (fight-views, ${fmt(p.events)} events, SQLite)`,
    result: `${fmt(p.rebuildEventsPerSec)} ev/s (${fmt(p.rebuildMs)} ms)`,
    baseline: `raw readAll ${fmt(p.rawEventsPerSec)} ev/s (${fmt(p.rawReadAllMs)} ms)`,
    ratio: p.ratio.toFixed(2),
    target: '≥ 0.5',
    status: ok(p.ratio >= 0.5),
  });
};

export const auditSection: Section = async ({ results, rows }) => {
  const a = await benchAudit(1000);
  results.audit = { ...a, target: { ms: 2000 } };
  rows.push({
    benchmark: `audit verification, ${fmt(a.commands)}-command fight (${fmt(a.events)} events)`,
    result: `${fmt(a.verifyMs)} ms${a.ok ? '' : ' (did NOT verify)'}`,
    baseline: '—',
    ratio: '',
    target: '< 2 s',
    status: ok(a.verifyMs < 2000 && a.ok),
  });
};

export const memorySection: Section = async ({ dir, quick, results, rows }) => {
  // fights × commands kept near 15k commands each: the 500-command case shows how the cache grows with a fight's history.
  const sizes: Array<[number, number]> = quick
    ? [[100, 50]]
    : [
        [300, 50],
        [30, 500],
      ];
  const figures = [];
  for (const [fights, commandsPerFight] of sizes)
    figures.push(await benchMemory(dir, { fights, commandsPerFight }));
  results.memory = { figures, target: { bytesPerFight: 50 * 1024 } };
  for (const m of figures)
    rows.push({
      benchmark: `memory per cached fight (${m.commandsPerFight} commands, ${fmt(m.eventsPerFight)} events)`,
      result: `${fmt(m.bytesPerFight / 1024, 1)} KB`,
      baseline: '—',
      ratio: '',
      target: '≤ 50 KB',
      status: ok(m.bytesPerFight <= 50 * 1024),
    });
};

/** AddNote p99 while a backlog drains, over the idle p99: background delivery must not stall commands. */
const DRAIN_P99_RATIO = 2;

export const webhooksSection: Section = async ({ dir, quick, opts, results, rows, notes, log }) => {
  // A receiver back after an outage: a 50,000-delivery backlog must drain as fast as none, and not stall commands.
  const drainOpts = quick
    ? { pending: 10_000, perFight: 100, sample: 200, windowMs: 1500, commands: 300, rounds: 3 }
    : { pending: 50_000, perFight: 100, sample: 500, windowMs: 2500, commands: 1500, rounds: 5 };
  const figures = [await benchWebhookDrain('sqlite', `${dir}/webhooks-sqlite`, drainOpts, undefined, log)];
  if (opts.pgUrl)
    figures.push(await benchWebhookDrain('postgres', `${dir}/webhooks-pg`, drainOpts, opts.pgUrl, log));
  else notes.push('webhooks: PostgreSQL part skipped (EVENT_STORE_PG_URL is not set)');
  // What a subscription costs the commands' thread: the outbox queues on the worker thread (SQLite).
  const load = await benchWebhookLoad(
    `${dir}/webhooks-load`,
    quick
      ? { connections: 50, fights: 50, durationSec: 3, rounds: 1 }
      : { connections: 50, fights: 50, durationSec: 8, rounds: 3 },
    log,
  );
  results.webhooks = {
    options: drainOpts,
    figures,
    load,
    target: { drainRatio: 0.8, p99Ratio: DRAIN_P99_RATIO },
  };
  for (const f of figures) rows.push(...drainRows(f));
  rows.push(loadRow(load));
};

function loadRow(f: WebhookLoadFigures): Row {
  const side = (s: WebhookLoadSide) =>
    `main thread ${fmt(s.mainCpuMicrosPerCommand)} µs CPU/command, process ${fmt(s.cpuMicrosPerCommand)}, ${fmt(s.commandsPerSec)} commands/s, p99 ${s.p99Ms.toFixed(0)} ms`;
  const main = f.rounds.map((r) => r.subscribed.mainCpuMicrosPerCommand / r.none.mainCpuMicrosPerCommand);
  return {
    benchmark: `AddNote under load (${f.connections} connections, ${f.fights} fights, SQLite, read side on the ${f.thread} thread) with one webhook endpoint vs none`,
    result: side(f.subscribed),
    baseline: side(f.none),
    ratio: Number.isFinite(f.mainCpuRatio)
      ? `${f.mainCpuRatio.toFixed(2)} main thread (${Math.min(...main).toFixed(2)}–${Math.max(...main).toFixed(2)})`
      : 'n/a (no per-thread CPU on this system)',
    target: 'report',
    status: 'report',
  };
}

function drainRows(f: DrainFigures): Row[] {
  const engine = f.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  return [
    {
      benchmark: `webhook drain, ${engine}: ${fmt(f.backlog.pending)} pending vs ${fmt(f.empty.pending)}`,
      result: `${fmt(f.backlog.perSec)} deliveries/s (claim ${f.claimMs.backlog.toFixed(2)} ms)`,
      baseline: `${fmt(f.empty.perSec)} deliveries/s (claim ${f.claimMs.empty.toFixed(2)} ms)`,
      ratio: f.drainRatio.toFixed(2),
      target: '≥ 0.8',
      status: ok(f.drainRatio >= 0.8),
    },
    {
      benchmark: `  AddNote p99 while it drains, ${engine} (${fmt(f.draining.samples)} / ${fmt(f.idle.samples)} commands, ${f.p99Ratios.length} windows each, in turn)`,
      result: `p99 ${f.draining.p99Ms.toFixed(1)} ms, p50 ${f.draining.p50Ms.toFixed(1)} ms, loop delay max ${f.draining.loopDelayMaxMs.toFixed(1)} ms (${fmt(f.draining.delivered)} sent meanwhile)`,
      baseline: `no drain: p99 ${f.idle.p99Ms.toFixed(1)} ms, p50 ${f.idle.p50Ms.toFixed(1)} ms, loop delay max ${f.idle.loopDelayMaxMs.toFixed(1)} ms`,
      ratio: `${f.p99Ratio.toFixed(2)} (windows ${Math.min(...f.p99Ratios).toFixed(2)}–${Math.max(...f.p99Ratios).toFixed(2)})`,
      target: `≤ ${DRAIN_P99_RATIO}`,
      status: ok(f.p99Ratio <= DRAIN_P99_RATIO),
    },
  ];
}

export const labSection: Section = async ({ quick, results, rows, log }) => {
  // The Combat Lab target: a 5 × 5 matrix of 10,000 fights per cell for every system (Narateer: under a minute on both cores).
  const lab = await benchLab(quick ? 1000 : 10_000, quick, log);
  results.lab = lab.results;
  rows.push(...lab.rows);
};

/**
 * The stack benchmark's rows: every subject with req/s and server CPU µs per request (median of the
 * rounds, min–max, and of it the kernel's system time), and each service subject's ratio to the minimal Nest app on Fastify (the
 * service's adapter; the ratio to Nest on Express is reported beside it). A ratio is the baseline's CPU per request over the subject's: the fraction of
 * the baseline's efficiency kept (req/s ratios, noisier on a shared machine, are in the JSON).
 */
function stackRows(h: StackFigures): Row[] {
  const rows: Row[] = [];
  const us = (n: number) => `${fmt(n)} µs`;
  for (const [id, s] of Object.entries(h.subjects)) {
    const c = COMPARISONS.find((x) => x.subject === id);
    const r = h.ratios[id];
    // The kernel's part (system time) is told apart: no code in the process can take it off.
    const kernel = s.systemMicrosPerRequest === undefined ? '' : `; kernel ${us(s.systemMicrosPerRequest)}`;
    const result = `${fmt(s.requestsPerSec)} req/s, ${us(s.cpuMicrosPerRequest)} CPU/req (${fmt(s.spread.cpuMicrosPerRequest[0])}–${fmt(s.spread.cpuMicrosPerRequest[1])}${kernel}), p99 ${fmt(s.p99Ms)} ms${s.non2xx ? `, ${fmt(s.non2xx)} non-2xx` : ''}`;
    if (!c || !r) {
      rows.push({
        benchmark: `HTTP ${s.label}`,
        result,
        baseline: '— (baseline)',
        ratio: '',
        target: '',
        status: 'report',
      });
      continue;
    }
    const targets: string[] = [];
    let met = true;
    if (c.targetCpuMicros !== undefined) {
      targets.push(`≤ ${c.targetCpuMicros} µs`);
      met &&= s.cpuMicrosPerRequest <= c.targetCpuMicros;
    }
    if (c.targetRatio !== undefined) {
      targets.push(`≥ ${c.targetRatio}`);
      met &&= r.cpuVsFastify >= c.targetRatio;
    }
    const base = h.subjects[c.fastify];
    rows.push({
      benchmark: `HTTP ${s.label}`,
      result,
      baseline: `Nest/Fastify ${us(base.cpuMicrosPerRequest)} CPU/req, ${fmt(base.requestsPerSec)} req/s`,
      ratio: `${r.cpuVsFastify.toFixed(2)} CPU (${r.spreadCpuVsFastify[0].toFixed(2)}–${r.spreadCpuVsFastify[1].toFixed(2)}), ${r.rpsVsFastify.toFixed(2)} req/s; vs Nest/Express ${r.cpuVsExpress.toFixed(2)}`,
      target: targets.join(', ') || 'diagnostic',
      status: targets.length ? ok(met && s.non2xx === 0) : 'report',
    });
  }
  const f = h.fastifyOverExpress;
  rows.push({
    benchmark: 'HTTP minimal Nest on Fastify over minimal Nest on Express',
    result: `GET ×${f.getCpu.toFixed(2)} CPU, ×${f.getRps.toFixed(2)} req/s; POST ×${f.postCpu.toFixed(2)} CPU, ×${f.postRps.toFixed(2)} req/s`,
    baseline: 'Nest on Express',
    ratio: '',
    target: 'decides the adapter',
    status: 'report',
  });
  return rows;
}
