import { createFightInput, SETUP } from './fight-script';
import { startServer } from './stack';
import { median, now } from './util';

export interface BootFigures {
  sizes: Array<{ fights: number; events: number; bootMs: number; runs: number[]; rssMiB: number }>;
  /** Boot at the largest store over boot at the smallest (medians). */
  ratio: number;
}

/** Creates `count` fights (create + SetInitiative) through the service's API, `parallel` at a time. */
async function fill(url: string, apiKey: string, count: number, parallel = 20): Promise<number> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
    const json = (await res.json()) as { fightId?: string; seq?: number };
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let next = 0;
  let events = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        const created = await post('/fights', createFightInput());
        events += (await post(`/fights/${created.fightId}/commands`, SETUP)).seq ?? 0;
      }
    }),
  );
  return events;
}

/**
 * The service's boot (process start to listening, the read side caught up) on stores of different
 * sizes: each store filled once through the API, then the service started on it `rounds` times,
 * the sizes alternating.
 */
export async function benchBoot(dataDir: string, opts: { sizes: number[]; rounds: number; log?: (s: string) => void }): Promise<BootFigures> {
  const stores: Array<{ fights: number; dir: string; events: number; runs: number[]; rss: number }> = [];
  for (const fights of opts.sizes) {
    const dir = `${dataDir}/boot-${fights}`;
    const server = await startServer('service', dir);
    try {
      const events = await fill(server.url, server.apiKey!, fights);
      stores.push({ fights, dir, events, runs: [], rss: 0 });
      opts.log?.(`  boot: store of ${fights} fights (${events} fight events) filled`);
    } finally {
      await server.close();
    }
  }
  for (let r = 0; r < opts.rounds; r++) {
    for (const s of r % 2 === 0 ? stores : [...stores].reverse()) {
      const t0 = now();
      const server = await startServer('service', s.dir);
      s.runs.push(now() - t0);
      s.rss = (await server.cpu()).rss / 2 ** 20;
      await server.close();
    }
  }
  const sizes = stores.map((s) => ({ fights: s.fights, events: s.events, bootMs: median(s.runs), runs: s.runs, rssMiB: s.rss }));
  return { sizes, ratio: sizes[sizes.length - 1].bootMs / sizes[0].bootMs };
}
