import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventStore, SqliteEventStore, type EventStore } from '@app/event-store';
import {
  FightService,
  PROJECTIONS,
  ProjectionRunner,
  SNAPSHOT_EVERY,
  SqliteReadStore,
  SqliteSnapshotStore,
} from '@app/fights';
import { verifyFightLog } from '@app/audit';
import { commandAt, createFightInput, isExchange, SETUP } from './fight-script';
import { forceGc, median, percentile } from './util';

interface Driven {
  id: string;
  step: number;
  seq: number;
}

async function newFight(service: FightService, mode: 'fair' | 'seeded' = 'fair'): Promise<Driven> {
  const created = await service.create(createFightInput(mode, mode === 'seeded' ? 'bench-seed' : undefined));
  const r = await service.execute(created.fightId, SETUP);
  return { id: created.fightId, step: 0, seq: r.seq };
}

async function next(service: FightService, f: Driven): Promise<number> {
  const r = await service.execute(f.id, commandAt(f.step++));
  f.seq = r.seq;
  return r.seq;
}

/** Runs the script until the fight has at least `events` events. */
async function growTo(service: FightService, f: Driven, events: number): Promise<void> {
  while (f.seq < events) await next(service, f);
}

/** Advances to the next exchange command without timing the lifecycle commands before it. */
async function toExchange(service: FightService, f: Driven): Promise<void> {
  while (!isExchange(f.step)) await next(service, f);
}

export interface LatencyFigures {
  /** Events between two snapshots of a fight (docs/event-store.md "Snapshots"). */
  snapshotEvery: number;
  lengths: Array<{
    events: number;
    warmMedianMs: number;
    warmP99Ms: number;
    coldMedianMs: number;
    /** The process's CPU time (user) of the cold command: less noisy than wall time on a shared machine. */
    coldCpuMedianMs: number;
    /** Cold with no snapshot: the whole stream folded (what every cold load cost before snapshots). */
    coldFullFoldMedianMs: number;
    samples: number;
    ratioWarm: number;
    ratioCold: number;
  }>;
}

/**
 * Exchange command latency on fights of 10, 1,000 and 10,000 events (SQLite store, FightService in
 * process). Warm: the fight is in the service's cache. Cold: a fresh service loads the fight, from its
 * latest snapshot and the events after it; cold full fold: a fresh service without snapshots folds the stream.
 * `BENCH_SNAPSHOT_EVERY` overrides the snapshot interval (to choose it).
 */
export async function benchLatency(
  dir: string,
  opts: { lengths: number[]; samples: number },
): Promise<{ figures: LatencyFigures; storeFile: string }> {
  const storeFile = join(dir, 'latency.sqlite');
  const store = new SqliteEventStore(storeFile);
  const snapshots = new SqliteSnapshotStore(storeFile);
  const snapshotEvery = Number(process.env.BENCH_SNAPSHOT_EVERY) || SNAPSHOT_EVERY;
  const withSnapshots = () => new FightService(store, undefined, { snapshots, snapshotEvery });
  const service = withSnapshots();
  const classes = await latencyClasses(service, opts);
  // Interleave the classes so machine noise hits them alike.
  for (let s = 0; s < opts.samples; s++) {
    for (const c of classes) {
      const f = c.fights[Math.floor(s / c.perFight) % c.fights.length];
      await toExchange(service, f);
      const t0 = performance.now();
      await next(service, f);
      c.warm.push(performance.now() - t0);
    }
  }
  // Cold: the first command after a restart loads the fight (the lifecycle commands before the timed
  // exchange run on the main service, so the timed command is the fresh service's first). The full folds
  // run after the loads from snapshots: the garbage of a 10,000-event fold would slow the next sample.
  await service.cache.flushSnapshots();
  const coldRuns = async (
    samples: number,
    fresh: () => FightService,
    times: (c: LatencyClass) => number[][],
  ) => {
    for (let s = 0; s < samples; s++) {
      for (const c of classes) {
        const f = c.fights[s % c.fights.length];
        const cold = fresh();
        await toExchange(service, f);
        const [t0, cpu0] = [performance.now(), process.cpuUsage()];
        await next(cold, f);
        const [wall, cpu] = times(c);
        wall.push(performance.now() - t0);
        cpu.push(process.cpuUsage(cpu0).user / 1000);
        // Keep the main service consistent with what the fresh one wrote.
        await service.view(f.id);
        await cold.cache.close();
      }
    }
  };
  await coldRuns(9, withSnapshots, (c) => [c.cold, c.coldCpu]);
  await coldRuns(
    3,
    () => new FightService(store),
    (c) => [c.coldFull, []],
  );
  await service.cache.close();
  await snapshots.close();
  await store.close();
  return { figures: latencyFigures(snapshotEvery, classes), storeFile };
}

interface LatencyClass {
  events: number;
  fights: Driven[];
  perFight: number;
  warm: number[];
  cold: number[];
  coldFull: number[];
  coldCpu: number[];
}

/** Fights of each length, grown on the service; short fights get many so that sampling does not grow them. */
async function latencyClasses(
  service: FightService,
  opts: { lengths: number[]; samples: number },
): Promise<LatencyClass[]> {
  const classes: LatencyClass[] = [];
  for (const events of opts.lengths) {
    const perFight = Math.max(1, Math.min(opts.samples, Math.floor(events / 20)));
    const count = Math.ceil(opts.samples / perFight);
    const fights: Driven[] = [];
    for (let i = 0; i < count; i++) {
      const f = await newFight(service);
      await growTo(service, f, events);
      fights.push(f);
    }
    classes.push({ events, fights, perFight, warm: [], cold: [], coldFull: [], coldCpu: [] });
  }
  return classes;
}

function latencyFigures(snapshotEvery: number, classes: LatencyClass[]): LatencyFigures {
  const base = classes[0];
  return {
    snapshotEvery,
    lengths: classes.map((c) => ({
      events: c.events,
      warmMedianMs: median(c.warm),
      warmP99Ms: percentile(c.warm, 99),
      coldMedianMs: median(c.cold),
      coldCpuMedianMs: median(c.coldCpu),
      coldFullFoldMedianMs: median(c.coldFull),
      samples: c.warm.length,
      ratioWarm: median(c.warm) / median(base.warm),
      ratioCold: median(c.cold) / median(base.cold),
    })),
  };
}

export interface ProjectionFigures {
  events: number;
  rebuildMs: number;
  rawReadAllMs: number;
  rebuildEventsPerSec: number;
  rawEventsPerSec: number;
  ratio: number;
}

/** Rebuilds every projection from position 0 (as `cli projections rebuild`) against a raw readAll of the same log. */
export async function benchProjectionRebuild(dir: string, storeFile: string): Promise<ProjectionFigures> {
  const store = new SqliteEventStore(storeFile);
  const rawRuns: number[] = [];
  const rebuildRuns: number[] = [];
  let events = 0;
  for (let rep = 0; rep < 2; rep++) {
    const t0 = performance.now();
    let after: string | undefined;
    events = 0;
    for (;;) {
      const page = await store.readAll({ after, limit: 500 });
      if (page.length === 0) break;
      events += page.length;
      after = page[page.length - 1].checkpoint;
    }
    rawRuns.push(performance.now() - t0);
    const read = new SqliteReadStore(join(dir, `read-${rep}.sqlite`));
    const runner = new ProjectionRunner(store, read);
    const t1 = performance.now();
    for (const name of PROJECTIONS) await read.reset(name);
    // Every projection from one pass over the log, as the runner and `projections rebuild` do.
    await runner.catchUpAll();
    rebuildRuns.push(performance.now() - t1);
    await read.close();
  }
  await store.close();
  const rebuildMs = Math.min(...rebuildRuns);
  const rawReadAllMs = Math.min(...rawRuns);
  return {
    events,
    rebuildMs,
    rawReadAllMs,
    rebuildEventsPerSec: (events / rebuildMs) * 1000,
    rawEventsPerSec: (events / rawReadAllMs) * 1000,
    ratio: rawReadAllMs / rebuildMs,
  };
}

export interface AuditFigures {
  commands: number;
  events: number;
  verifyMs: number;
  ok: boolean;
}

/** verifyFightLog on the export of a 1,000-command fight (seeded dice, ended so the seed is revealed). */
export async function benchAudit(commands: number): Promise<AuditFigures> {
  const service = new FightService(new InMemoryEventStore());
  const f = await newFight(service, 'seeded');
  for (let i = 2; i < commands - 1; i++) await next(service, f);
  await service.execute(f.id, { type: 'EndFight' });
  const log = await service.exportLog(f.id);
  const runs: number[] = [];
  let ok = true;
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const report = verifyFightLog(log, {});
    runs.push(performance.now() - t0);
    ok &&= report.ok;
  }
  return { commands, events: log.events, verifyMs: Math.min(...runs), ok };
}

export interface MemoryFigures {
  fights: number;
  commandsPerFight: number;
  eventsPerFight: number;
  bytesPerFight: number;
}

/**
 * Heap held by FightService's cache per fight: N fights over a SQLite store (nothing of the log on
 * the JS heap), heap after GC with the cache full minus heap after GC with it emptied, over N.
 */
export async function benchMemory(
  dir: string,
  opts: { fights: number; commandsPerFight: number },
): Promise<MemoryFigures> {
  const gc = forceGc();
  const store = new SqliteEventStore(join(dir, `memory-${opts.commandsPerFight}.sqlite`));
  const service = new FightService(store);
  const fights: Driven[] = [];
  for (let i = 0; i < opts.fights; i++) {
    const f = await newFight(service);
    for (let c = 2; c < opts.commandsPerFight; c++) await next(service, f);
    fights.push(f);
  }
  const heap = () => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  await nextTurn();
  const full = heap();
  (service as unknown as { cache: Map<string, unknown> }).cache.clear();
  const empty = heap();
  const eventsPerFight = fights.reduce((s, f) => s + f.seq, 0) / fights.length;
  await store.close();
  return {
    fights: opts.fights,
    commandsPerFight: opts.commandsPerFight,
    eventsPerFight,
    bytesPerFight: (full - empty) / opts.fights,
  };
}

export interface CacheBoundFigures {
  touched: number;
  held: number;
  heapMB: number;
  bytesPerHeldFight: number;
  approxBytesPerHeldFight: number;
}

/**
 * The fight cache after `fights` fights were touched (created and set up) on one service: how many it
 * holds (bounded by count and by approximate size, fight-cache.ts), the heap that holds them (after GC,
 * full minus emptied), and the cache's own estimate of it.
 */
export async function benchCacheBound(dir: string, opts: { fights: number }): Promise<CacheBoundFigures> {
  const gc = forceGc();
  const store = new SqliteEventStore(join(dir, `cache-bound-${opts.fights}.sqlite`));
  const service = new FightService(store);
  for (let i = 0; i < opts.fights; i++) await newFight(service);
  const heap = () => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  await nextTurn();
  const held = service.cache.held;
  const full = heap();
  service.cache.clear();
  const empty = heap();
  await store.close();
  return {
    touched: opts.fights,
    held: held.fights,
    heapMB: (full - empty) / 2 ** 20,
    bytesPerHeldFight: (full - empty) / held.fights,
    approxBytesPerHeldFight: held.approxBytes / held.fights,
  };
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'crs-bench-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type { EventStore };
