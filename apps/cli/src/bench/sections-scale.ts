import { startBenchApp } from './bench-app';
import { benchBoot, BootFigures } from './boot';
import { benchFanout } from './http';
import { benchLogExport, EVENTS_PAGE } from './log-export';
import { benchPgScale } from './pg-scale';
import { Row, Section, ok, skippedPg } from './sections';
import { benchServerMemory } from './server-memory';
import { fmt } from './util';

const BOOT_RATIO = 1.5;
const spreadMs = (xs: number[], digits: number) =>
  `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;

function bootRows(b: BootFigures): Row[] {
  const small = b.sizes[0];
  const rows: Row[] = [];
  for (const [i, large] of b.sizes.slice(1).entries()) {
    const r = b.ratios[i];
    const vs = `${fmt(large.fights)} fights vs ${fmt(small.fights)}`;
    rows.push(
      {
        benchmark: `boot (process start to listening), ${vs}`,
        result: `${fmt(large.bootMs)} ms (${large.runs.map((x) => fmt(x)).join(', ')}), RSS ${fmt(large.rssMiB)} MiB`,
        baseline: `${fmt(small.bootMs)} ms at ${fmt(small.fights)} fights (${small.runs.map((x) => fmt(x)).join(', ')}), RSS ${fmt(small.rssMiB)} MiB`,
        ratio: r.boot.toFixed(2),
        target: `≤ ${BOOT_RATIO}`,
        status: ok(r.boot <= BOOT_RATIO),
      },
      {
        benchmark: `  GET /fights first page, ${vs} (1 client)`,
        result: `${large.listMs.toFixed(2)} ms (${spreadMs(large.listRuns, 2)})`,
        baseline: `${small.listMs.toFixed(2)} ms (${spreadMs(small.listRuns, 2)})`,
        ratio: r.list.toFixed(2),
        target: `≤ ${BOOT_RATIO}`,
        status: ok(r.list <= BOOT_RATIO),
      },
      {
        benchmark: `  GET /fights/:id, ${vs} (1 client)`,
        result: `${large.getMs.toFixed(2)} ms (${spreadMs(large.getRuns, 2)})`,
        baseline: `${small.getMs.toFixed(2)} ms (${spreadMs(small.getRuns, 2)})`,
        ratio: r.get.toFixed(2),
        target: `≤ ${BOOT_RATIO}`,
        status: ok(r.get <= BOOT_RATIO),
      },
    );
  }
  const largest = b.sizes[b.sizes.length - 1];
  const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 1)} MiB`;
  rows.push({
    benchmark: `  files on disk at ${fmt(largest.fights)} fights (${fmt(largest.events)} fight events), read side built`,
    result: `read models ${mib(largest.bytes.read)}, webhook outbox ${mib(largest.bytes.webhooks)}`,
    baseline: `event log ${mib(largest.bytes.log)}`,
    ratio: (largest.bytes.read / largest.bytes.log).toFixed(2),
    target: 'read models no bigger than they need to be',
    status: 'report',
  });
  return rows;
}

export const bootSection: Section = async ({ dir, quick, results, rows, log }) => {
  const sizes = quick ? [100, 2000, 10_000] : [100, 10_000, 50_000];
  const b = await benchBoot(dir, { sizes, rounds: 3, log });
  results.boot = { ...b, target: { ratio: BOOT_RATIO } };
  rows.push(...bootRows(b));
};

const FANOUT_P99_MS = 50;
/**
 * A whole-log read once held other requests up to 619 ms (50,000 events; 127 ms at 10,000). With nothing
 * else running, the probe's longest wait is 20–35 ms on the 2-core machine (GC, timers); a young-generation
 * GC while 10,000 events are held costs up to 30 ms more. Past 100 ms, a request was held up.
 */
const LOG_EXPORT_MAX_WAIT_MS = 100;

export const fanoutSection: Section = async ({ dir, quick, results, rows, log }) => {
  const app = await startBenchApp(`${dir}/app`);
  try {
    const f = await benchFanout(app, {
      subscribers: 1000,
      commands: quick ? 8 : 20,
      gapMs: 150,
      rounds: quick ? 2 : 3,
      log,
    });
    results.fanout = { ...f, target: { p99Ms: FANOUT_P99_MS, inEveryRound: true } };
    const first = f.rounds[0];
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    rows.push({
      benchmark: `subscription fan-out: 1,000 graphql-ws subscribers, 1 fight (${f.rounds.length} rounds)`,
      result: `worst p99 ${f.worstP99Ms.toFixed(1)} ms, median p99 ${f.medianP99Ms.toFixed(1)} ms (${f.rounds.map((r) => r.p99Ms.toFixed(1)).join(', ')}), p50 ${f.medianP50Ms.toFixed(1)} ms (${fmt(first.deliveries)}/${fmt(first.expectedDeliveries)} delivered per round)`,
      baseline: `CPU per event fanned out: subscribers' process ${ms(f.rounds.map((r) => r.clientCpuMsPerEvent))} ms, server ${ms(f.rounds.map((r) => r.serverCpuMsPerEvent))} ms`,
      ratio: '',
      target: `p99 < ${FANOUT_P99_MS} ms in every round`,
      status: ok(f.worstP99Ms < FANOUT_P99_MS && f.complete),
    });
  } finally {
    await app.close();
  }
};

export const serverMemorySection: Section = async ({ dir, quick, results, rows, log }) => {
  const fights = quick ? 2000 : 10_000;
  const steps = quick ? [1000, 2000] : [1000, 5000, 10_000];
  const m = await benchServerMemory(`${dir}/server-memory`, { fights, steps, rounds: 2, log });
  results['server-memory'] = m;
  const [boot, last] = [m.samples[0], m.samples[m.samples.length - 1]];
  const mib = (x: number) => `${fmt(x)} MiB`;
  const range = (x: [number, number]) => `${fmt(x[0])}–${fmt(x[1])}`;
  rows.push({
    benchmark: `server memory, ${fmt(last.touched)} distinct fights touched (AddNote each), ${fmt(m.fights)} in the store`,
    result: `RSS ${mib(last.rssMiB)} (${range(last.spread.rssMiB)}), heap ${mib(last.heapUsedMiB)} (${range(last.spread.heapUsedMiB)}), ${fmt(last.cachedFights)} fights cached${last.cachedFights < last.touched ? " (the cache's bound)" : ''}; ${m.samples
      .slice(1, -1)
      .map((s) => `at ${fmt(s.touched)}: heap ${mib(s.heapUsedMiB)}`)
      .join(', ')}`,
    baseline: `at boot: RSS ${mib(boot.rssMiB)} (${range(boot.spread.rssMiB)}), heap ${mib(boot.heapUsedMiB)} (${range(boot.spread.heapUsedMiB)})`,
    ratio: `RSS ${m.rssRatio.toFixed(2)}, heap ${m.heapRatio.toFixed(2)}`,
    target: 'bounded by the cache',
    status: 'report',
  });
};

const SCALE_RATIO = 1.6;
/** The CPU an instance serving nothing may use, as a share of the serving one's: "almost nothing". */
const IDLE_SHARE = 0.05;

export const pgScaleSection: Section = async (ctx) => {
  const { opts, quick, dir, results, rows, log } = ctx;
  if (!opts.pgUrl)
    return skippedPg(
      ctx,
      'pg-scale',
      'scale-out on PostgreSQL: two API instances vs one',
      `≥ ${SCALE_RATIO}`,
    );
  const s = await benchPgScale(opts.pgUrl, dir, {
    connections: 50,
    durationSec: quick ? 2 : 5,
    // Four: the lone server alternates, so each instance idles twice, once as the read side's owner.
    rounds: 4,
    fightsPerConnection: 2,
    log,
  });
  results['pg-scale'] = { ...s, target: { ratio: SCALE_RATIO, idleShare: IDLE_SHARE } };
  const us = (n: number) => `${fmt(n)} µs`;
  rows.push(
    {
      benchmark: `scale-out on PostgreSQL: 2 API instances on one schema vs 1 (exchange mix, ${s.connections} connections in all)`,
      result: `${fmt(s.two.commandsPerSec)} commands/s (${fmt(s.two.cpuMicrosPerCommand)} µs CPU/command)`,
      baseline: `1 instance ${fmt(s.one.commandsPerSec)} commands/s (${fmt(s.one.cpuMicrosPerCommand)} µs CPU/command)`,
      ratio: `${s.ratio.toFixed(2)} (${s.ratioSpread[0].toFixed(2)}–${s.ratioSpread[1].toFixed(2)})`,
      target: `≥ ${SCALE_RATIO}`,
      status: ok(s.ratio >= SCALE_RATIO),
    },
    {
      benchmark:
        "  CPU of an instance serving nothing while the other serves (per second; not the read side's owner)",
      result: `${us(s.idleCpuMicrosPerSec)} CPU/s (${us(s.idleSpread[0])}–${us(s.idleSpread[1])})`,
      baseline: `serving instance ${us(s.servingCpuMicrosPerSec)} CPU/s`,
      ratio: s.idleShare.toFixed(3),
      target: `almost nothing (≤ ${IDLE_SHARE})`,
      status: ok(s.idleShare <= IDLE_SHARE),
    },
    ...(s.ownerIdle
      ? [
          {
            benchmark: '  …the same instance when it owns the read side (projections and outbox of both)',
            result: `${us(s.ownerIdle.cpuMicrosPerSec)} CPU/s (${s.ownerIdle.rounds} round${s.ownerIdle.rounds === 1 ? '' : 's'})`,
            baseline: 'serving instance',
            ratio: s.ownerIdle.share.toFixed(3),
            target: 'the read side: one owner does it for all',
            status: 'report',
          },
        ]
      : []),
  );
};

export const logExportSection: Section = async ({ dir, quick, results, rows }) => {
  // Rate limits off: the fight is built with a few thousand commands on one key.
  const app = await startBenchApp(`${dir}/log-export`, undefined, { rateLimitPerSecond: 0 });
  try {
    const f = await benchLogExport(app, {
      events: quick ? 2000 : 10_000,
      windowMs: quick ? 2000 : 5000,
      dir,
      pageRounds: quick ? 2 : 5,
    });
    results.logExport = f;
    const { idle } = f;
    const row = (benchmark: string, busy: typeof idle, what: string) =>
      rows.push({
        benchmark,
        result: `p99 ${busy.p99Ms.toFixed(1)} ms, max ${busy.maxMs.toFixed(1)} ms, loop delay max ${busy.loopDelayMaxMs.toFixed(1)} ms (${fmt(busy.probes)} probes; ${what})`,
        baseline: `neither: p99 ${idle.p99Ms.toFixed(1)} ms, max ${idle.maxMs.toFixed(1)} ms, loop delay max ${idle.loopDelayMaxMs.toFixed(1)} ms`,
        ratio: (busy.p99Ms / idle.p99Ms).toFixed(2),
        target: `others not held up: max wait ≤ ${LOG_EXPORT_MAX_WAIT_MS} ms`,
        status: ok(busy.maxMs <= LOG_EXPORT_MAX_WAIT_MS),
      });
    const worstPage = Math.max(...f.pages.map((p) => p.ms));
    rows.push({
      benchmark: `GET /fights/:id/events, a page of ${EVENTS_PAGE} of a ${fmt(f.events)}-event fight vs of a ${fmt(f.shortFight.events)}-event fight (1 client)`,
      result: f.pages.map((p) => `after ${fmt(p.afterSeq)}: ${p.ms.toFixed(2)} ms`).join(', '),
      baseline: `${fmt(f.shortFight.events)}-event fight, first page: ${f.shortFight.ms.toFixed(2)} ms`,
      ratio: (worstPage / f.shortFight.ms).toFixed(2),
      target: `≤ ${BOOT_RATIO}× wherever the page is`,
      status: ok(worstPage / f.shortFight.ms <= BOOT_RATIO),
    });
    row(
      `GET /fights/:id/log of a ${fmt(f.events)}-event fight (${fmt(f.bytes / 2 ** 20, 1)} MiB) exported back to back: another client's GET /health/live`,
      f.exporting,
      `${fmt(f.exports)} exports, ${fmt(f.exportMs)} ms each`,
    );
    row(
      `  GET /fights/:id?at=${Math.floor(f.events / 2)} of the same fight asked back to back (the first folds from the first event, the rest from the time-travel stop before it): another client's GET /health/live`,
      f.timeTravelling,
      `${fmt(f.timeTravels)} views, ${fmt(f.timeTravelMs)} ms each`,
    );
    row(
      `  POST /audit/verify of the same log back to back: another client's GET /health/live`,
      f.verifying,
      `${fmt(f.verifications)} verifications, ${fmt(f.verifyMs)} ms each`,
    );
    row(
      `  GET /fights/:id/stream?after=0 (SSE) of the same fight read to its last event, back to back: another client's GET /health/live`,
      f.catchingUp,
      `${fmt(f.catchUps)} catch-ups, ${fmt(f.catchUpMs)} ms each`,
    );
  } finally {
    await app.close();
  }
};
