import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../apps/api/src/create-app';

export interface TestApp {
  app: INestApplication;
  /** Set when started with `listen: true`: http://127.0.0.1:port */
  url?: string;
  http: ReturnType<typeof request>;
  dataDir: string;
  close(): Promise<void>;
  gql<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }>;
}

/** Boots the real app on a fresh SQLite file (or the given store URL). */
export async function startApp(opts: { dataDir?: string; eventStoreUrl?: string; listen?: boolean } = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'crs-e2e-'));
  const { app } = await createApp({ port: 0, host: '127.0.0.1', dataDir, eventStoreUrl: opts.eventStoreUrl, bodyLimit: '256kb', auditBodyLimit: '20mb' }, { logger: false });
  let url: string | undefined;
  if (opts.listen) {
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  } else await app.init();
  const http = request(app.getHttpServer());
  return {
    app,
    url,
    http,
    dataDir,
    close: () => app.close(),
    async gql(query, variables) {
      const res = await request(app.getHttpServer()).post('/graphql').send({ query, variables });
      return res.body;
    },
  };
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
