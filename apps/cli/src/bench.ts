import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { benchDecide } from './bench/decide';
import { benchDice } from './bench/dice';
import { benchPostgresAppend, benchSqliteAppend } from './bench/append';
import { benchAudit, benchLatency, benchMemory, benchProjectionRebuild, tempDir } from './bench/service';
import { startBenchApp } from './bench/bench-app';
import { benchFanout } from './bench/http';
import { benchStack, COMPARISONS, StackFigures } from './bench/stack';
import { profileCommandPath, profileMarkdown } from './bench/profile';
import { benchBoot } from './bench/boot';
import { benchWebhookDrain } from './bench/webhooks';
import { fmt, machine, round, versions } from './bench/util';
import { benchLab } from './bench/lab';

export const BENCHMARKS = [
  'decide',
  'sqlite-append',
  'pg-append',
  'http',
  'profile',
  'boot',
  'latency',
  'projection',
  'fanout',
  'audit',
  'memory',
  'webhooks',
  'lab',
] as const;
type BenchName = (typeof BENCHMARKS)[number];

interface Row {
  benchmark: string;
  result: string;
  baseline: string;
  ratio: string;
  target: string;
  /** met | missed | report (no target) | skipped | error */
  status: string;
}

interface BenchOptions {
  only?: string;
  out: string;
  profileOut: string;
  quick?: boolean;
  pgUrl?: string;
}

const ok = (met: boolean) => (met ? 'met' : 'MISSED');

/** `bench`: every benchmark; prints a table and writes bench/results/latest.json. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the benchmarks: print a table, write bench/results/latest.json')
    .option('--only <names>', `comma-separated subset of: ${BENCHMARKS.join(', ')}`)
    .option('--out <file>', 'where to write the JSON results', 'bench/results/latest.json')
    .option(
      '--profile-out <file>',
      "where to write the command path's CPU profile (markdown)",
      'bench/profile-command-path.md',
    )
    .option('--quick', 'shorter runs (for a smoke test; figures are noisier)')
    .option(
      '--pg-url <url>',
      'PostgreSQL for the PostgreSQL benchmarks (default: EVENT_STORE_PG_URL; skipped when unset)',
      process.env.EVENT_STORE_PG_URL,
    )
    .action(async (opts: BenchOptions) => {
      process.exitCode = await runBench(opts);
    });
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const selected = new Set<BenchName>(
    opts.only ? (opts.only.split(',').map((s) => s.trim()) as BenchName[]) : BENCHMARKS,
  );
  for (const name of selected)
    if (!BENCHMARKS.includes(name))
      throw new Error(`unknown benchmark ${name}; known: ${BENCHMARKS.join(', ')}`);
  const quick = !!opts.quick;
  const started = new Date();
  const t0 = performance.now();
  const results: Record<string, unknown> = {};
  const rows: Row[] = [];
  const notes: string[] = [];
  let failed = 0;
  const tmp = tempDir();
  const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

  const run = async (name: BenchName, fn: () => Promise<void>) => {
    if (!selected.has(name)) return;
    log(`${name}…`);
    const s = performance.now();
    try {
      await fn();
    } catch (e) {
      failed++;
      results[name] = { error: e instanceof Error ? e.message : String(e) };
      rows.push({
        benchmark: name,
        result: `error: ${e instanceof Error ? e.message : String(e)}`,
        baseline: '',
        ratio: '',
        target: '',
        status: 'error',
      });
    }
    log(`${name} done in ${((performance.now() - s) / 1000).toFixed(1)} s`);
  };

  try {
    await run('decide', async () => {
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
    });

    await run('sqlite-append', async () => {
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
    });

    await run('pg-append', async () => {
      if (!opts.pgUrl) {
        results['pg-append'] = { skipped: 'EVENT_STORE_PG_URL is not set' };
        rows.push({
          benchmark: 'PostgreSQL append, 1 and 50 writers',
          result: 'SKIPPED: EVENT_STORE_PG_URL is not set',
          baseline: '',
          ratio: '',
          target: '≥ 0.7',
          status: 'skipped',
        });
        log('PostgreSQL benchmarks skipped: EVENT_STORE_PG_URL is not set');
        return;
      }
      const figures = await benchPostgresAppend(opts.pgUrl, { writers: [1, 50], events: quick ? 500 : 2000 });
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
    });

    await run('http', async () => {
      const h = await benchStack(tmp.dir, {
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
    });

    await run('profile', async () => {
      const p = await profileCommandPath(tmp.dir, { durationSec: quick ? 3 : 10, fights: 100 });
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
    });

    await run('boot', async () => {
      const b = await benchBoot(tmp.dir, { sizes: quick ? [100, 2000] : [100, 10_000], rounds: 3, log });
      results.boot = { ...b, target: { ratio: 1.5 } };
      const [small, large] = [b.sizes[0], b.sizes[b.sizes.length - 1]];
      rows.push({
        benchmark: `boot (process start to listening), ${fmt(large.fights)} fights vs ${fmt(small.fights)}`,
        result: `${fmt(large.bootMs)} ms (${large.runs.map((r) => fmt(r)).join(', ')}), RSS ${fmt(large.rssMiB)} MiB`,
        baseline: `${fmt(small.bootMs)} ms at ${fmt(small.fights)} fights, RSS ${fmt(small.rssMiB)} MiB`,
        ratio: b.ratio.toFixed(2),
        target: '≤ 1.5',
        status: ok(b.ratio <= 1.5),
      });
      rows.push({
        benchmark: `  GET /fights first page, ${fmt(large.fights)} fights vs ${fmt(small.fights)} (1 client)`,
        result: `${large.listMs.toFixed(2)} ms`,
        baseline: `${small.listMs.toFixed(2)} ms`,
        ratio: b.listRatio.toFixed(2),
        target: '≤ 1.5',
        status: ok(b.listRatio <= 1.5),
      });
      rows.push({
        benchmark: `  GET /fights/:id, ${fmt(large.fights)} fights vs ${fmt(small.fights)} (1 client)`,
        result: `${large.getMs.toFixed(2)} ms`,
        baseline: `${small.getMs.toFixed(2)} ms`,
        ratio: b.getRatio.toFixed(2),
        target: '≤ 1.5',
        status: ok(b.getRatio <= 1.5),
      });
    });

    if (selected.has('fanout')) {
      const app = await startBenchApp(`${tmp.dir}/app`);
      try {
        await run('fanout', async () => {
          const f = await benchFanout(app, { subscribers: 1000, commands: quick ? 8 : 20, gapMs: 150 });
          results.fanout = { ...f, target: { p99Ms: 50 } };
          const complete = f.deliveries === f.expectedDeliveries && f.live === f.subscribers;
          rows.push({
            benchmark: 'subscription fan-out: 1,000 graphql-ws subscribers, 1 fight',
            result: `p99 ${f.p99Ms.toFixed(1)} ms, p50 ${f.p50Ms.toFixed(1)} ms (${fmt(f.deliveries)}/${fmt(f.expectedDeliveries)} delivered)`,
            baseline: '—',
            ratio: '',
            target: 'p99 < 50 ms',
            status: ok(f.p99Ms < 50 && complete),
          });
        });
      } finally {
        await app.close();
      }
    }

    let latencyStore: string | undefined;
    await run('latency', async () => {
      const { figures, storeFile } = await benchLatency(tmp.dir, {
        lengths: [10, 1000, 10000],
        samples: quick ? 30 : 100,
      });
      latencyStore = storeFile;
      const last = figures.lengths[figures.lengths.length - 1];
      results.latency = { ...figures, target: { ratioAt10000: 1.5 }, met: last.ratioWarm <= 1.5 };
      for (const l of figures.lengths)
        rows.push({
          benchmark: `command latency, ${fmt(l.events)}-event fight (cached / cold)`,
          result: `${l.warmMedianMs.toFixed(2)} ms (p99 ${l.warmP99Ms.toFixed(2)}) / cold ${l.coldMedianMs.toFixed(1)} ms`,
          baseline: l === figures.lengths[0] ? 'baseline' : '10-event fight',
          ratio: `${l.ratioWarm.toFixed(2)} / cold ${l.ratioCold.toFixed(1)}`,
          target: l.events === 10000 ? '≤ 1.5× at 10,000' : '',
          status: l.events === 10000 ? ok(l.ratioWarm <= 1.5) : '',
        });
    });

    await run('projection', async () => {
      let store = latencyStore;
      if (!store)
        store = (await benchLatency(tmp.dir, { lengths: [10, 1000, 10000], samples: 10 })).storeFile;
      const p = await benchProjectionRebuild(tmp.dir, store);
      results.projection = { ...p, target: { ratio: 0.5 } };
      rows.push({
        benchmark: `projection rebuild (2 projections, ${fmt(p.events)} events, SQLite)`,
        result: `${fmt(p.rebuildEventsPerSec)} ev/s (${fmt(p.rebuildMs)} ms)`,
        baseline: `raw readAll ${fmt(p.rawEventsPerSec)} ev/s (${fmt(p.rawReadAllMs)} ms)`,
        ratio: p.ratio.toFixed(2),
        target: '≥ 0.5',
        status: ok(p.ratio >= 0.5),
      });
    });

    await run('audit', async () => {
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
    });

    await run('memory', async () => {
      // fights × commands kept near 15k commands each: the 500-command case shows how the cache grows with a fight's history.
      const sizes: Array<[number, number]> = quick
        ? [[100, 50]]
        : [
            [300, 50],
            [30, 500],
          ];
      const figures = [];
      for (const [fights, commandsPerFight] of sizes)
        figures.push(await benchMemory(tmp.dir, { fights, commandsPerFight }));
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
    });
    await run('webhooks', async () => {
      // A receiver back after an outage: a 50,000-delivery backlog must drain as fast as none, and not stall commands.
      const drainOpts = quick
        ? { pending: 10_000, perFight: 100, sample: 200, windowMs: 1500, commands: 150 }
        : { pending: 50_000, perFight: 100, sample: 500, windowMs: 2500, commands: 300 };
      const figures = [
        await benchWebhookDrain('sqlite', `${tmp.dir}/webhooks-sqlite`, drainOpts, undefined, log),
      ];
      if (opts.pgUrl)
        figures.push(
          await benchWebhookDrain('postgres', `${tmp.dir}/webhooks-pg`, drainOpts, opts.pgUrl, log),
        );
      else notes.push('webhooks: PostgreSQL part skipped (EVENT_STORE_PG_URL is not set)');
      results.webhooks = { options: drainOpts, figures, target: { drainRatio: 0.8, p99Ratio: 3 } };
      for (const f of figures) {
        const engine = f.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
        rows.push({
          benchmark: `webhook drain, ${engine}: ${fmt(f.backlog.pending)} pending vs ${fmt(f.empty.pending)}`,
          result: `${fmt(f.backlog.perSec)} deliveries/s (claim ${f.claimMs.backlog.toFixed(2)} ms)`,
          baseline: `${fmt(f.empty.perSec)} deliveries/s (claim ${f.claimMs.empty.toFixed(2)} ms)`,
          ratio: f.drainRatio.toFixed(2),
          target: '≥ 0.8',
          status: ok(f.drainRatio >= 0.8),
        });
        rows.push({
          benchmark: `  AddNote p99 while it drains, ${engine} (${f.draining.samples} / ${f.idle.samples} commands)`,
          result: `p99 ${f.draining.p99Ms.toFixed(1)} ms, p50 ${f.draining.p50Ms.toFixed(1)} ms, loop delay max ${f.draining.loopDelayMaxMs.toFixed(1)} ms (${fmt(f.draining.delivered)} sent meanwhile)`,
          baseline: `idle p99 ${f.idle.p99Ms.toFixed(1)} ms, p50 ${f.idle.p50Ms.toFixed(1)} ms, loop delay max ${f.idle.loopDelayMaxMs.toFixed(1)} ms`,
          ratio: f.p99Ratio.toFixed(2),
          target: '≤ 3',
          status: ok(f.p99Ratio <= 3),
        });
      }
    });
    await run('lab', async () => {
      // The Combat Lab target: a 5 × 5 matrix of 10,000 fights per cell for every system (Narateer: under a minute on both cores).
      const lab = await benchLab(quick ? 1000 : 10_000, quick, log);
      results.lab = lab.results;
      rows.push(...lab.rows);
    });
  } finally {
    tmp.remove();
  }

  const durationSec = (performance.now() - t0) / 1000;
  printTable(rows);
  const out = resolve(process.cwd(), opts.out);
  mkdirSync(dirname(out), { recursive: true });
  const doc = {
    date: started.toISOString(),
    durationSec: round(durationSec, 1),
    quick,
    machine: machine(),
    versions: versions(),
    rows,
    results: roundDeep(results),
    notes,
  };
  writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
  console.log(`\nwritten ${out} (${durationSec.toFixed(0)} s)`);
  return failed ? 1 : 0;
}

/**
 * The stack benchmark's rows: every subject with req/s and server CPU µs per request (median of the
 * rounds, min–max), and each service subject's ratio to the minimal Nest app on Express (the
 * service's adapter). A ratio is the baseline's CPU per request over the subject's: the fraction of
 * the baseline's efficiency kept (req/s ratios, noisier on a shared machine, are in the JSON).
 */
function stackRows(h: StackFigures): Row[] {
  const rows: Row[] = [];
  const us = (n: number) => `${fmt(n)} µs`;
  for (const [id, s] of Object.entries(h.subjects)) {
    const c = COMPARISONS.find((x) => x.subject === id);
    const r = h.ratios[id];
    const result = `${fmt(s.requestsPerSec)} req/s, ${us(s.cpuMicrosPerRequest)} CPU/req (${fmt(s.spread.cpuMicrosPerRequest[0])}–${fmt(s.spread.cpuMicrosPerRequest[1])}), p99 ${fmt(s.p99Ms)} ms${s.non2xx ? `, ${fmt(s.non2xx)} non-2xx` : ''}`;
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
      met &&= r.cpuVsExpress >= c.targetRatio;
    }
    const base = h.subjects[c.express];
    rows.push({
      benchmark: `HTTP ${s.label}`,
      result,
      baseline: `Nest/Express ${us(base.cpuMicrosPerRequest)} CPU/req, ${fmt(base.requestsPerSec)} req/s`,
      ratio: `${r.cpuVsExpress.toFixed(2)} CPU (${r.spreadCpuVsExpress[0].toFixed(2)}–${r.spreadCpuVsExpress[1].toFixed(2)}), ${r.rpsVsExpress.toFixed(2)} req/s; vs Nest/Fastify ${r.cpuVsFastify.toFixed(2)}`,
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

function printTable(rows: Row[]): void {
  const cols: Array<keyof Row> = ['benchmark', 'result', 'baseline', 'ratio', 'target', 'status'];
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

function roundDeep(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : round(v, 3);
  if (Array.isArray(v)) return v.map(roundDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x)]));
  return v;
}
