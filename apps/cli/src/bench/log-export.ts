import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BenchApp } from './bench-app';
import { commandAt, createFightInput, SETUP } from './fight-script';
import { runLoad } from './http';
import { forkJob, latencySpread, median, now, timedGets } from './util';

/** Another client's view of the service in a window: its requests' latencies, and the event loop's delay. */
export interface ProbeFigures {
  probes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  loopDelayMaxMs: number;
}

export interface LogExportFigures {
  /** The exported fight's events. */
  events: number;
  /** One export's body. */
  bytes: number;
  /** Exports completed in the window (back to back, one connection, read by a process of its own). */
  exports: number;
  exportMs: number;
  idle: ProbeFigures;
  exporting: ProbeFigures;
  /**
   * The same with GET /fights/:id?at= (the view at the middle of the log) asked back to back instead: the
   * first folds half the log, the rest start from the time-travel stop it left (libs/fights travel-stops.ts).
   */
  timeTravels: number;
  timeTravelMs: number;
  timeTravelling: ProbeFigures;
  /** The same with the exported log sent to POST /audit/verify back to back instead. */
  verifications: number;
  verifyMs: number;
  verifying: ProbeFigures;
  /** The same with a subscriber catching up on the fight from its first event (SSE) back to back instead. */
  catchUps: number;
  catchUpMs: number;
  catchingUp: ProbeFigures;
  /** GET /fights/:id/events pages of EVENTS_PAGE (medians, one client): of the long fight at its start, middle and end. */
  pages: { afterSeq: number; ms: number }[];
  /** The first page of a fight of about one page and a half (its events), the baseline. */
  shortFight: { events: number; ms: number };
}

/** The page asked for: GET /fights/:id/events?limit= (the route's default page). */
export const EVENTS_PAGE = 100;

/** A fight built by the bench's script up to `events` events; its id and last seq. */
async function buildFight(app: BenchApp, events: number): Promise<{ fightId: string; seq: number }> {
  const created = await app.post('/fights', createFightInput());
  if (created.status !== 201) throw new Error(`POST /fights: ${created.status}`);
  const fightId = created.body.fightId as string;
  let seq = 0;
  for (let i = -1; seq < events; i++) {
    const r = await app.post(`/fights/${fightId}/commands`, i < 0 ? SETUP : commandAt(i));
    if (r.status !== 200) throw new Error(`command ${i}: ${r.status} ${JSON.stringify(r.body)}`);
    seq = r.body.seq as number;
  }
  return { fightId, seq };
}

/** sse-worker.ts in a process of its own: SSE catch-ups back to back; how many, and the median's ms. */
function runCatchUps(job: {
  url: string;
  apiKey: string;
  path: string;
  lastSeq: number;
  durationSec: number;
}): Promise<{ total: number; p50: number }> {
  return forkJob('sse-worker.js', job, 'SSE reader');
}

/**
 * The median of GET `paths`, each asked `times` times by one client, in rounds that take them in
 * turn (so that the machine's drift falls on all of them alike).
 */
async function medians(app: BenchApp, paths: string[], rounds: number, times: number): Promise<number[]> {
  const samples = paths.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++)
    for (const [i, path] of paths.entries())
      samples[i].push(...(await timedGets(app.url, app.apiKey, path, times)));
  return samples.map(median);
}

/** GET /health/live one after another for `windowMs`, with the server's event-loop delay monitored meanwhile. */
async function probe(app: BenchApp, windowMs: number): Promise<ProbeFigures> {
  const times: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const stopAt = now() + windowMs;
  while (now() < stopAt) {
    const t = now();
    const res = await fetch(`${app.url}/health/live`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /health/live: ${res.status}`);
    times.push(now() - t);
  }
  loop.disable();
  return {
    probes: times.length,
    ...latencySpread(times),
    loopDelayMaxMs: loop.max / 1e6,
  };
}

/**
 * A fight's whole log (GET /fights/:id/log) is exported back to back while another client asks
 * GET /health/live one request after another: how long that client waits, and the event loop's
 * longest stall, against the same window with no export. Then the same with the fight's view at the
 * middle of its log (GET /fights/:id?at=, a fold of half the log) asked back to back, and with the
 * exported log sent to POST /audit/verify back to back, and with a subscriber reading the fight's
 * events from the first (GET /fights/:id/stream?after=0) until the last, back to back. Before that, pages of its events
 * (GET /fights/:id/events) at its start, middle and end against the first page of a short fight. The app runs in this process (its event
 * loop is the one monitored); the requests are made by autocannon in a process of its own.
 */
export async function benchLogExport(
  app: BenchApp,
  opts: { events: number; windowMs: number; dir: string; pageRounds: number },
): Promise<LogExportFigures> {
  const { fightId, seq } = await buildFight(app, opts.events);
  const short = await buildFight(app, EVENTS_PAGE * 1.5);
  const pageAfter = [0, Math.floor(seq / 2), seq - EVENTS_PAGE];
  const pageMs = await medians(
    app,
    [
      ...pageAfter.map((after) => `/fights/${fightId}/events?after=${after}&limit=${EVENTS_PAGE}`),
      `/fights/${short.fightId}/events?after=0&limit=${EVENTS_PAGE}`,
    ],
    opts.pageRounds,
    20,
  );
  const path = `/fights/${fightId}/log`;
  const one = await fetch(app.url + path, { headers: { authorization: `Bearer ${app.apiKey}` } });
  const log = await one.text();
  if (one.status !== 200) throw new Error(`GET ${path}: ${one.status}`);
  const logFile = join(opts.dir, 'fight-log.json');
  writeFileSync(logFile, log);
  const idle = await probe(app, opts.windowMs);
  const busy = async (target: string, post?: { bodyFile: string }) => {
    const [load, seen] = await Promise.all([
      runLoad({
        url: app.url,
        apiKey: app.apiKey,
        connections: 1,
        durationSec: opts.windowMs / 1000,
        mode: 'fixed',
        method: post ? 'POST' : 'GET',
        path: target,
        ...post,
        fights: [],
      }),
      probe(app, opts.windowMs),
    ]);
    if (load.non2xx > 0 || load.errors > 0)
      throw new Error(`${target}: ${load.non2xx} non-2xx, ${load.errors} errors`);
    return { load, seen };
  };
  const exported = await busy(path);
  const travelled = await busy(`/fights/${fightId}?at=${Math.floor(seq / 2)}`);
  const verified = await busy('/audit/verify', { bodyFile: logFile });
  const [caughtUp, catchingUp] = await Promise.all([
    runCatchUps({
      url: app.url,
      apiKey: app.apiKey,
      path: `/fights/${fightId}/stream?after=0`,
      lastSeq: seq,
      durationSec: opts.windowMs / 1000,
    }),
    probe(app, opts.windowMs),
  ]);
  const bytes = Buffer.byteLength(log);
  return {
    catchUps: caughtUp.total,
    catchUpMs: caughtUp.p50,
    catchingUp,
    pages: pageAfter.map((afterSeq, i) => ({ afterSeq, ms: pageMs[i] })),
    shortFight: { events: short.seq, ms: pageMs[pageAfter.length] },
    verifications: verified.load.total,
    verifyMs: verified.load.latency.p50,
    verifying: verified.seen,
    events: seq,
    bytes,
    exports: exported.load.total,
    exportMs: exported.load.latency.p50,
    idle,
    exporting: exported.seen,
    timeTravels: travelled.load.total,
    timeTravelMs: travelled.load.latency.p50,
    timeTravelling: travelled.seen,
  };
}
