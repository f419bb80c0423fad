import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/event-store';
import { seedStore } from './seed';
import { startServer } from './stack';
import { median, now, timedGets } from './util';

export interface BootSize {
  fights: number;
  events: number;
  bootMs: number;
  runs: number[];
  rssMiB: number;
  listMs: number;
  getMs: number;
  /** Per round: GET /fights first page and GET /fights/:id medians (the spread of listMs and getMs). */
  listRuns: number[];
  getRuns: number[];
  /** Bytes on disk once the read side is built and the service closed (each SQLite file with its WAL). */
  bytes: { log: number; read: number; webhooks: number };
}

export interface BootFigures {
  sizes: BootSize[];
  /** Every size against the smallest (medians): boot, GET /fights first page, GET /fights/:id. */
  ratios: Array<{ fights: number; boot: number; list: number; get: number }>;
  /** Boot at the largest store over boot at the smallest (medians). */
  ratio: number;
  /** GET /fights (first page) and GET /fights/:id latency at the largest store over the smallest (medians). */
  listRatio: number;
  getRatio: number;
}

/** Median latency of `count` sequential GETs of `path` (one client: the query's own cost, not a queue). */
async function latency(url: string, apiKey: string, path: string, count = 100): Promise<number> {
  return median(await timedGets(url, apiKey, path, count));
}

interface Store {
  fights: number;
  dir: string;
  events: number;
  apiKey: string;
  fightId: string;
  runs: number[];
  rss: number;
  list: number[];
  get: number[];
  bytes: BootSize['bytes'];
}

/** A SQLite file's size with its WAL and shared-memory files, if any are left. */
function sqliteBytes(file: string): number {
  return ['', '-wal', '-shm']
    .map((suffix) => file + suffix)
    .filter((f) => existsSync(f))
    .reduce((sum, f) => sum + statSync(f).size, 0);
}

/** A store of `fights` fights, seeded straight into its SQLite file, then booted once so its read side is built. */
async function filled(dir: string, fights: number, log?: (s: string) => void): Promise<Store> {
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const seeded = await seedStore(events, { fights });
  await events.close();
  const t0 = now();
  await (await startServer('service', dir)).close();
  log?.(
    `  boot: store of ${fights} fights (${seeded.events} fight events) seeded in ${(seeded.seedMs / 1000).toFixed(1)} s, read side built in ${((now() - t0) / 1000).toFixed(1)} s`,
  );
  // The middle fight: neither the newest nor the oldest.
  const fightId = seeded.fightIds[Math.floor(seeded.fightIds.length / 2)];
  return {
    fights,
    dir,
    events: seeded.events,
    apiKey: seeded.apiKey,
    fightId,
    runs: [],
    rss: 0,
    list: [],
    get: [],
    bytes: {
      log: sqliteBytes(join(dir, 'events.sqlite')),
      read: sqliteBytes(join(dir, 'read.sqlite')),
      webhooks: sqliteBytes(join(dir, 'webhooks.sqlite')),
    },
  };
}

async function bootOnce(s: Store): Promise<void> {
  const t0 = now();
  const server = await startServer('service', s.dir);
  s.runs.push(now() - t0);
  s.rss = (await server.cpu()).rss / 2 ** 20;
  // The tenant that filled the store: its fights are the ones listed.
  s.list.push(await latency(server.url, s.apiKey, '/fights?limit=20'));
  s.get.push(await latency(server.url, s.apiKey, `/fights/${s.fightId}`));
  await server.close();
}

/**
 * The service's boot (process start to listening, the read side caught up) on stores of different
 * sizes: each store seeded once (seed.ts: the events the API would write, without HTTP) and booted
 * once to build its read side, then the service started on it `rounds` times, the sizes alternating
 * (a restart on an existing store). After each boot, the latency of GET /fights (first page of the
 * tenant's fights) and GET /fights/:id, one client, 100 requests each: how the reads grow with the store.
 */
export async function benchBoot(
  dataDir: string,
  opts: { sizes: number[]; rounds: number; log?: (s: string) => void },
): Promise<BootFigures> {
  const stores: Store[] = [];
  for (const fights of opts.sizes) stores.push(await filled(`${dataDir}/boot-${fights}`, fights, opts.log));
  for (let r = 0; r < opts.rounds; r++)
    for (const s of r % 2 === 0 ? stores : [...stores].reverse()) await bootOnce(s);
  const sizes = stores.map((s) => ({
    fights: s.fights,
    events: s.events,
    bootMs: median(s.runs),
    runs: s.runs,
    rssMiB: s.rss,
    listMs: median(s.list),
    getMs: median(s.get),
    listRuns: s.list,
    getRuns: s.get,
    bytes: s.bytes,
  }));
  const small = sizes[0];
  const ratios = sizes.slice(1).map((l) => ({
    fights: l.fights,
    boot: l.bootMs / small.bootMs,
    list: l.listMs / small.listMs,
    get: l.getMs / small.getMs,
  }));
  const last = ratios[ratios.length - 1];
  return { sizes, ratios, ratio: last.boot, listRatio: last.list, getRatio: last.get };
}
