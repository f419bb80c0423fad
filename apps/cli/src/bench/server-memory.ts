import { join } from 'node:path';
import { SqliteEventStore } from '@app/event-store';
import { seedStore } from './seed';
import { Server, startServer } from './stack';
import { median } from './util';

export interface MemorySample {
  /** Distinct fights sent a command since boot. */
  touched: number;
  cachedFights: number;
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
}

export interface ServerMemoryFigures {
  fights: number;
  events: number;
  /** Per round (a fresh server process each): memory at boot, then after each step of touching fights. */
  rounds: MemorySample[][];
  /** Medians over the rounds, for each number of fights touched (the first: at boot), with min–max. */
  samples: Array<MemorySample & { spread: { rssMiB: [number, number]; heapUsedMiB: [number, number] } }>;
  /** After the last step over at boot (medians). */
  rssRatio: number;
  heapRatio: number;
}

const MiB = 2 ** 20;

interface MemoryReply {
  memory: NodeJS.MemoryUsage;
  cachedFights?: number;
}

async function sample(server: Server, touched: number): Promise<MemorySample> {
  const { memory, cachedFights } = await server.ask<MemoryReply>('memory', 'memory');
  return {
    touched,
    cachedFights: cachedFights ?? NaN,
    rssMiB: memory.rss / MiB,
    heapUsedMiB: memory.heapUsed / MiB,
    heapTotalMiB: memory.heapTotal / MiB,
    externalMiB: memory.external / MiB,
  };
}

/** An AddNote to each fight, `parallel` at a time: each fight is loaded (folded) into the service's cache. */
async function touch(server: Server, apiKey: string, fightIds: string[], parallel = 10): Promise<void> {
  let next = 0;
  const body = JSON.stringify({ type: 'AddNote', text: 'Touched by the memory benchmark.' });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < fightIds.length) {
        const id = fightIds[next++];
        const res = await fetch(`${server.url}/fights/${id}/commands`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body,
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`AddNote on ${id}: ${res.status}`);
      }
    }),
  );
}

const spread = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

/**
 * The service's memory (RSS, V8 heap after a full GC) with `fights` fights in its store: at boot,
 * then after a command to each of `steps` distinct fights (cumulative; the cache of folded fights
 * holds at most its bound, so the heap should stop growing there). Each round a fresh process.
 */
export async function benchServerMemory(
  dir: string,
  opts: { fights: number; steps: number[]; rounds: number; log?: (s: string) => void },
): Promise<ServerMemoryFigures> {
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const seeded = await seedStore(store, { fights: opts.fights });
  await store.close();
  // The first boot builds the read side; not measured.
  await (await startServer('service', dir)).close();
  opts.log?.(`  server memory: ${opts.fights} fights seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`);
  const rounds: MemorySample[][] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const server = await startServer('service', dir);
    try {
      const samples = [await sample(server, 0)];
      let done = 0;
      for (const step of opts.steps) {
        await touch(server, seeded.apiKey, seeded.fightIds.slice(done, step));
        done = step;
        samples.push(await sample(server, step));
      }
      const last = samples[samples.length - 1];
      opts.log?.(
        `  round ${r + 1}: RSS ${samples[0].rssMiB.toFixed(0)} → ${last.rssMiB.toFixed(0)} MiB, heap ${samples[0].heapUsedMiB.toFixed(0)} → ${last.heapUsedMiB.toFixed(0)} MiB, ${last.cachedFights} cached`,
      );
      rounds.push(samples);
    } finally {
      await server.close();
    }
  }
  const samples = rounds[0].map((s, i) => {
    const at = rounds.map((r) => r[i]);
    const med = (f: (m: MemorySample) => number) => median(at.map(f));
    return {
      touched: s.touched,
      cachedFights: med((m) => m.cachedFights),
      rssMiB: med((m) => m.rssMiB),
      heapUsedMiB: med((m) => m.heapUsedMiB),
      heapTotalMiB: med((m) => m.heapTotalMiB),
      externalMiB: med((m) => m.externalMiB),
      spread: { rssMiB: spread(at.map((m) => m.rssMiB)), heapUsedMiB: spread(at.map((m) => m.heapUsedMiB)) },
    };
  });
  const [boot, last] = [samples[0], samples[samples.length - 1]];
  return {
    fights: opts.fights,
    events: seeded.events,
    rounds,
    samples,
    rssRatio: last.rssMiB / boot.rssMiB,
    heapRatio: last.heapUsedMiB / boot.heapUsedMiB,
  };
}
