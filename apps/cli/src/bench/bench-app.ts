import { INestApplication } from '@nestjs/common';
import { createApp } from '@app/api';
import type { ApiConfig } from '@app/api';
import { BaselineController } from './baseline.controller';

export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

export interface BenchApp {
  app: INestApplication;
  url: string;
  apiKey: string;
  close(): Promise<void>;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
}

/**
 * The service as createApp builds it, plus the baseline controller. Log level `warn`: the per-request info log line
 * is not measured (it would also flood the table). SQLite store in `dataDir` unless `eventStoreUrl`.
 */
export async function startBenchApp(
  dataDir: string,
  eventStoreUrl?: string,
  overrides: Partial<ApiConfig> = {},
): Promise<BenchApp> {
  const config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    eventStoreUrl,
    bodyLimit: '256kb',
    auditBodyLimit: '20mb',
    adminApiKey: BENCH_ADMIN_KEY,
    logLevel: 'warn',
    ...overrides,
  } as ApiConfig;
  const { app } = await createApp(config, { controllers: [BaselineController] });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const call = async (path: string, body: unknown, key: string) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const tenant = await call('/admin/tenants', { name: 'Bench table' }, BENCH_ADMIN_KEY);
  if (tenant.status !== 201)
    throw new Error(`POST /admin/tenants: ${tenant.status} ${JSON.stringify(tenant.body)}`);
  const apiKey = tenant.body.apiKey as string;
  return { app, url, apiKey, close: () => app.close(), post: (path, body) => call(path, body, apiKey) };
}
