import { createFightInput, SETUP } from './fight-script';
import { startServer } from './stack';
import { median, now } from './util';

export interface BootFigures {
  sizes: Array<{
    fights: number;
    events: number;
    bootMs: number;
    runs: number[];
    rssMiB: number;
    listMs: number;
    getMs: number;
  }>;
  /** Boot at the largest store over boot at the smallest (medians). */
  ratio: number;
  /** GET /fights (first page) and GET /fights/:id latency at the largest store over the smallest (medians). */
  listRatio: number;
  getRatio: number;
}

/** Median latency of `count` sequential GETs of `path` (one client: the query's own cost, not a queue). */
async function latency(url: string, apiKey: string, path: string, count = 100): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = now();
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${apiKey}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    times.push(now() - t0);
  }
  return median(times);
}

/** Creates `count` fights (create + SetInitiative) through the service's API, `parallel` at a time. */
async function fill(
  url: string,
  apiKey: string,
  count: number,
  parallel = 20,
): Promise<{ events: number; firstFight: string }> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { fightId?: string; seq?: number };
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let next = 0;
  let events = 0;
  let firstFight = '';
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        const created = await post('/fights', createFightInput());
        firstFight ||= created.fightId!;
        events += (await post(`/fights/${created.fightId}/commands`, SETUP)).seq ?? 0;
      }
    }),
  );
  return { events, firstFight };
}

/**
 * The service's boot (process start to listening, the read side caught up) on stores of different
 * sizes: each store filled once through the API, then the service started on it `rounds` times,
 * the sizes alternating. After each boot, the latency of GET /fights (first page of the tenant's
 * fights) and GET /fights/:id, one client, 100 requests each: how the reads grow with the store.
 */
export async function benchBoot(
  dataDir: string,
  opts: { sizes: number[]; rounds: number; log?: (s: string) => void },
): Promise<BootFigures> {
  const stores: Array<{
    fights: number;
    dir: string;
    events: number;
    apiKey: string;
    fightId: string;
    runs: number[];
    rss: number;
    list: number[];
    get: number[];
  }> = [];
  for (const fights of opts.sizes) {
    const dir = `${dataDir}/boot-${fights}`;
    const server = await startServer('service', dir);
    try {
      const { events, firstFight } = await fill(server.url, server.apiKey!, fights);
      stores.push({
        fights,
        dir,
        events,
        apiKey: server.apiKey!,
        fightId: firstFight,
        runs: [],
        rss: 0,
        list: [],
        get: [],
      });
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
      // The tenant that filled the store: its fights are the ones listed.
      s.list.push(await latency(server.url, s.apiKey, '/fights?limit=20'));
      s.get.push(await latency(server.url, s.apiKey, `/fights/${s.fightId}`));
      await server.close();
    }
  }
  const sizes = stores.map((s) => ({
    fights: s.fights,
    events: s.events,
    bootMs: median(s.runs),
    runs: s.runs,
    rssMiB: s.rss,
    listMs: median(s.list),
    getMs: median(s.get),
  }));
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  return {
    sizes,
    ratio: large.bootMs / small.bootMs,
    listRatio: large.listMs / small.listMs,
    getRatio: large.getMs / small.getMs,
  };
}
