import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '@app/api';
import { BaselineController, RAW_ROUTE } from './baseline.controller';
import { forceGc } from './util';

/**
 * One HTTP server of the stack benchmark, in a process of its own so that its CPU time
 * (process.cpuUsage) is its alone. argv[2]: `{ kind, dataDir?, store? }`. It answers the parent's IPC:
 * `{ type: 'cpu' }` → `{ type: 'cpu', cpu, rss }`; `{ type: 'owner' }` → `{ type: 'owner', owned }` (the read side); `{ type: 'memory' }` → `{ type: 'memory', memory }`
 * (process.memoryUsage after a full GC); `profile-start` / `profile-stop` → a V8 CPU profile of what
 * ran in between (`{ type: 'profile', profile }`); `{ type: 'exit' }` → closes and exits.
 *
 * - `node-http`: bare node:http, `GET /get` and `POST /post` (the body read and JSON.parsed).
 * - `nest-express` / `nest-fastify`: a minimal NestJS app, the same two routes, nothing else.
 * - `service`: this service as main.ts builds it (createApp: helmet, body limits, logging at info to
 *   stdout, which the parent sends to /dev/null), with two diagnostic routes that answer a constant:
 *   a Nest route (BaselineController: the service's guards, pipe and filter) and RAW_ROUTE, a Fastify
 *   route of the same app (every hook of the service, no Nest route pipeline, no key checked);
 *   SQLite in `dataDir`, or the PostgreSQL of `eventStoreUrl` (schema `eventStoreSchema`).
 */
export type ServerKind = 'node-http' | 'nest-express' | 'nest-fastify' | 'service';

export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const CONSTANT = { ok: true, seq: 1 };

@Controller()
class MinimalController {
  @Get('get')
  get(): Record<string, unknown> {
    return CONSTANT;
  }

  @Post('post')
  @HttpCode(200)
  post(@Body() _body: unknown): Record<string, unknown> {
    return CONSTANT;
  }
}

@Module({ controllers: [MinimalController] })
class MinimalModule {}

interface Started {
  url: string;
  apiKey?: string;
  /** The service's cache of folded fights: how many it holds. */
  cachedFights?(): number;
  /** Whether the service runs the read side (projections, webhook outbox) for the schema. */
  ownsReadSide?(): boolean;
  close(): Promise<void>;
}

async function startNodeHttp(): Promise<Started> {
  const body = JSON.stringify(CONSTANT);
  const server = createServer((req, res) => {
    const send = () => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    };
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        send();
      });
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function startNest(kind: 'nest-express' | 'nest-fastify'): Promise<Started> {
  let app;
  if (kind === 'nest-fastify') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fastify = require('@nestjs/platform-fastify') as typeof import('@nestjs/platform-fastify');
    app = await NestFactory.create(MinimalModule, new fastify.FastifyAdapter(), { logger: false });
  } else {
    // Dev dependency, loaded only here: the baseline the service moved from.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const express = require('@nestjs/platform-express') as typeof import('@nestjs/platform-express');
    app = await NestFactory.create(MinimalModule, new express.ExpressAdapter(), { logger: false });
  }
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { url, close: () => app.close() };
}

export interface ServiceStore {
  eventStoreUrl?: string;
  eventStoreSchema?: string;
}

async function startService(dataDir: string, store: ServiceStore): Promise<Started> {
  // Loaded only here, so the baselines' processes hold none of the service's modules.
  const { createApp, readConfig, FightService, ProjectionRunner } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('./api-entry') as typeof import('./api-entry');
  const config: ApiConfig = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...store,
    bodyLimit: '256kb',
    auditBodyLimit: '20mb',
    adminApiKey: BENCH_ADMIN_KEY,
    // 50 connections on one key would be refused at the default 100/s: limits off, as an operator sets for a load test.
    rateLimitPerSecond: 0,
    logLevel: 'info',
    corsOrigins: [],
    // As main.ts reads it: a worker thread unless PROJECTIONS_THREAD=main (to compare the two).
    projectionsThread: readConfig({ PROJECTIONS_THREAD: process.env.PROJECTIONS_THREAD }).projectionsThread,
  };
  const { app } = await createApp(config, { controllers: [BaselineController] });
  // The body is parsed by the service's parser, as the Nest route's is; nothing else is done with it.
  (app.getHttpAdapter().getInstance() as FastifyInstance).post(RAW_ROUTE, () => CONSTANT);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const res = await fetch(`${url}/admin/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_KEY}` },
    body: JSON.stringify({ name: 'Bench table' }),
  });
  const tenant = (await res.json()) as { apiKey?: string };
  if (res.status !== 201 || !tenant.apiKey)
    throw new Error(`POST /admin/tenants: ${res.status} ${JSON.stringify(tenant)}`);
  // `held` where the cache reports it, else its map's size (a private field: the bench reads it anyway).
  const cache = app.get(FightService, { strict: false }).cache as unknown as {
    held?: { fights: number };
    fights: Map<string, unknown>;
  };
  const cachedFights = () => cache.held?.fights ?? cache.fights.size;
  const runner = app.get(ProjectionRunner, { strict: false });
  const ownsReadSide = () => runner.owner.owned;
  return { url, apiKey: tenant.apiKey, cachedFights, ownsReadSide, close: () => app.close() };
}

/**
 * The main thread's CPU so far (user + system, µs), worker threads apart: Linux's /proc (clock ticks of
 * 10 ms, USER_HZ 100); undefined where there is none. Node 20 has no per-thread CPU of its own.
 */
function mainThreadCpu(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const { kind, dataDir, store } = JSON.parse(process.argv[2]) as {
    kind: ServerKind;
    dataDir?: string;
    store?: ServiceStore;
  };
  const started =
    kind === 'node-http'
      ? await startNodeHttp()
      : kind === 'service'
        ? await startService(dataDir!, store ?? {})
        : await startNest(kind);
  let profiler: Session | undefined;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'cpu')
      process.send!({ type: 'cpu', cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
    if (m.type === 'owner') process.send!({ type: 'owner', owned: started.ownsReadSide?.() ?? false });
    if (m.type === 'main-cpu') process.send!({ type: 'main-cpu', micros: mainThreadCpu() });
    if (m.type === 'memory') {
      const gc = forceGc();
      for (let i = 0; i < 3; i++) gc();
      process.send!({
        type: 'memory',
        memory: process.memoryUsage(),
        cachedFights: started.cachedFights?.(),
      });
    }
    // A CPU profile of what runs between start and stop (V8's sampling profiler, 100 µs interval).
    if (m.type === 'profile-start') {
      profiler = new Session();
      profiler.connect();
      profiler.post('Profiler.enable', () =>
        profiler!.post('Profiler.setSamplingInterval', { interval: 100 }, () =>
          profiler!.post('Profiler.start', () => process.send!({ type: 'profile-started' })),
        ),
      );
    }
    if (m.type === 'profile-stop')
      profiler?.post('Profiler.stop', (err, r) => {
        process.send!({ type: 'profile', profile: err ? null : JSON.stringify(r.profile) });
        profiler?.disconnect();
      });
    if (m.type === 'exit') void started.close().finally(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', url: started.url, apiKey: started.apiKey });
}

main().catch((e: unknown) => {
  process.send?.({ type: 'error', error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  process.exit(1);
});
