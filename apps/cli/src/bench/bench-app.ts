import { INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, NextFunction, Request, Response } from 'express';
import { AppModule, toApiError } from '@app/api';
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
 * The production AppModule plus the baseline controller, with createApp's body parser and error
 * handler (Swagger is left out: it only serves /docs). Log level `warn`: the per-request info log line
 * is not measured (it would also flood the table). SQLite store in `dataDir` unless `eventStoreUrl`.
 */
export async function startBenchApp(dataDir: string, eventStoreUrl?: string): Promise<BenchApp> {
  const config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    eventStoreUrl,
    bodyLimit: '256kb',
    auditBodyLimit: '20mb',
    adminApiKey: BENCH_ADMIN_KEY,
    logLevel: 'warn',
  } as ApiConfig;
  @Module({ imports: [AppModule.forRoot(config)], controllers: [BaselineController] })
  class BenchModule {}
  const app = await NestFactory.create<NestExpressApplication>(BenchModule, {
    bodyParser: false,
    logger: ['error'],
  });
  app.use(json({ limit: config.bodyLimit }));
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const e = toApiError(err);
    res.status(e.statusCode).json(e);
  });
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
