import { Client as PgClient } from 'pg';
import { removeDir, startApp, TestApp } from './app';
import { kill, startServer, tenantKey } from './server';

type Started = Awaited<ReturnType<typeof startServer>>;

/** What twoInstances gives its suite: filled in by the suite's beforeAll. */
export interface TwoInstances {
  servers: Started[];
  /** A tenant key, made on the first instance. */
  key: string;
  /** A JSON POST with the tenant key (and `headers`): its status and parsed body. */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/**
 * Two built services on a fresh PostgreSQL schema of their own (`prefix` and a random tail), for the
 * suite it is called in: started in its beforeAll, stopped and the schema dropped in its afterAll.
 */
export function twoInstances(pgUrl: string, prefix: string): TwoInstances {
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const pair: TwoInstances = {
    servers: [],
    key: '',
    post: async (url, body, headers = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pair.key}`, ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    },
  };
  beforeAll(async () => {
    const env = { EVENT_STORE_URL: pgUrl, EVENT_STORE_SCHEMA: schema };
    pair.servers.push(await startServer(env));
    pair.servers.push(await startServer(env));
    pair.key = await tenantKey(pair.servers[0].url);
  });
  afterAll(async () => {
    await Promise.all(pair.servers.map((s) => kill(s.proc, 'SIGTERM')));
    const c = new PgClient({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });
  return pair;
}

/** What ownerAndFollower gives its suite: filled in by the suite's beforeAll. */
export interface OwnerAndFollower {
  /** The instance that owns the read side (projections, webhook outbox). */
  owner: TestApp;
  /** One that only follows the log (READ_SIDE=follow), with the owner's tenant and key. */
  follower: TestApp;
}

/**
 * Two in-process instances on a fresh PostgreSQL schema of their own (`prefix` and a random tail), for
 * the suite it is called in: started in its beforeAll, closed and the schema dropped in its afterAll.
 */
export function ownerAndFollower(pgUrl: string, prefix: string): OwnerAndFollower {
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const pair = {} as OwnerAndFollower;
  beforeAll(async () => {
    pair.owner = await startApp({ eventStoreUrl: pgUrl, eventStoreSchema: schema });
    pair.follower = await startApp({
      eventStoreUrl: pgUrl,
      eventStoreSchema: schema,
      reuse: { apiKey: pair.owner.apiKey, tenantId: pair.owner.tenantId },
      config: { readSide: 'follow' },
    });
  }, 60_000);
  afterAll(async () => {
    for (const app of [pair.follower, pair.owner]) {
      if (!app) continue;
      await app.close();
      removeDir(app.dataDir);
    }
    const c = new PgClient({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });
  return pair;
}
