import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../apps/api/src/create-app';

export interface TestApp {
  app: INestApplication;
  http: ReturnType<typeof request>;
  dataDir: string;
  close(): Promise<void>;
  gql<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }>;
}

/** Boots the real app on a fresh SQLite file (or the given store URL). */
export async function startApp(opts: { dataDir?: string; eventStoreUrl?: string } = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'crs-e2e-'));
  const { app } = await createApp({ port: 0, host: '127.0.0.1', dataDir, eventStoreUrl: opts.eventStoreUrl, bodyLimit: '256kb' }, { logger: false });
  await app.init();
  const http = request(app.getHttpServer());
  return {
    app,
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
