import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication, Type } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../apps/api/src/create-app';
import type { ApiConfig } from '../../apps/api/src/config';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';

export interface TestApp {
  app: INestApplication;
  /** A tenant API key; `http` and `gql` send it. */
  apiKey: string;
  tenantId: string;
  /** Requests without the default key. */
  anon: ReturnType<typeof request>;
  /** Set when started with `listen: true`: http://127.0.0.1:port */
  url?: string;
  http: ReturnType<typeof request.agent>;
  dataDir: string;
  close(): Promise<void>;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    key?: string,
  ): Promise<{ data?: T; errors?: any[] }>;
  /** A new tenant: its id and first key. */
  tenant(name?: string): Promise<{ tenantId: string; apiKey: string }>;
}

/** Boots the real app on a fresh SQLite file (or the given store URL). */
export async function startApp(
  opts: {
    dataDir?: string;
    eventStoreUrl?: string;
    eventStoreSchema?: string;
    listen?: boolean;
    reuse?: { apiKey: string; tenantId: string };
    rateLimitPerSecond?: number;
    config?: Partial<ApiConfig>;
    /** Controllers an embedding app adds (the benchmark's baseline route). */
    controllers?: Type[];
  } = {},
): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'crs-e2e-'));
  const { app } = await createApp(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      eventStoreUrl: opts.eventStoreUrl,
      eventStoreSchema: opts.eventStoreSchema,
      bodyLimit: '256kb',
      auditBodyLimit: '20mb',
      adminApiKey: TEST_ADMIN_KEY,
      rateLimitPerSecond: opts.rateLimitPerSecond,
      ...opts.config,
    },
    { logger: false, controllers: opts.controllers },
  );
  let url: string | undefined;
  if (opts.listen) {
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  } else {
    await app.init();
    await (app.getHttpAdapter().getInstance() as { ready(): Promise<unknown> }).ready();
  }
  const anon = request(app.getHttpServer());
  const tenant = async (name = 'Test table') => {
    const res = await anon
      .post('/admin/tenants')
      .set('authorization', `Bearer ${TEST_ADMIN_KEY}`)
      .send({ name })
      .expect(201);
    return { tenantId: res.body.tenantId as string, apiKey: res.body.apiKey as string };
  };
  const { tenantId, apiKey } = opts.reuse ?? (await tenant());
  const http = request.agent(app.getHttpServer()).set('authorization', `Bearer ${apiKey}`);
  return {
    app,
    url,
    http,
    anon,
    apiKey,
    tenantId,
    tenant,
    dataDir,
    close: () => app.close(),
    async gql(query, variables, key = apiKey) {
      const res = await request(app.getHttpServer())
        .post('/graphql')
        .set('authorization', `Bearer ${key}`)
        .send({ query, variables });
      return res.body;
    },
  };
}

/**
 * One app for the enclosing describe block: started in beforeAll, closed (and its data removed)
 * in afterAll. The returned object reads through to that app, so tests use it as a TestApp.
 */
export function useApp(opts: Parameters<typeof startApp>[0] = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startApp(opts);
  });
  afterAll(async () => {
    if (!started) return;
    await started.close();
    if (!opts.dataDir) removeDir(started.dataDir);
  });
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!started) throw new Error('useApp(): the app starts in beforeAll; use it inside a test or hook');
      return Reflect.get(started, key);
    },
  });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export const sheet = (agility = 2, extra: Record<string, unknown> = {}) => ({
  vitals: { strength: 2, agility, resilience: 2 },
  skills: { melee: 2, ranged: 1, acrobatics: 1 },
  maxVitality: 6,
  maxAD: 4,
  maxMD: 1,
  ...extra,
});

/** Sets these environment variables for the enclosing describe block (or file) and puts back what was there after. */
export function useEnv(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  beforeAll(() => Object.assign(process.env, vars));
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}
