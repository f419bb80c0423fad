import bytes from 'bytes';
import { eventStoreEngine, EVENT_STORE_URL_SCHEMES, urlScheme } from '@app/event-store';

export interface ApiConfig {
  port: number;
  host: string;
  eventStoreUrl?: string;
  /** PostgreSQL for read models and webhooks beside a KurrentDB log (which holds only events); see readSideUrl. */
  readStoreUrl?: string;
  /** PostgreSQL schema for the event log and read models (default public). */
  eventStoreSchema?: string;
  dataDir: string;
  /** BODY_LIMIT: `256kb`, `20mb` or a number of bytes (byteLimit). */
  bodyLimit: string;
  /** AUDIT_BODY_LIMIT, for a fight log sent to /audit/verify. */
  auditBodyLimit: string;
  /** The operator's admin key; unset: one is generated on first start and printed once. */
  adminApiKey?: string;
  /** Requests per second per key or token; 0 turns rate limiting off. */
  rateLimitPerSecond?: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel?: string;
  /** Origins allowed by CORS; empty: no cross-origin access. */
  corsOrigins?: string[];
  /** Bearer token GET /metrics requires; unset: /metrics is open. */
  metricsToken?: string;
  /**
   * READ_SIDE: `elect` (default) runs the projections and the webhook outbox when this instance wins the
   * read side (always, on SQLite); `follow` never does (PostgreSQL only: another instance runs them).
   */
  readSide?: 'elect' | 'follow';
  /**
   * REQUEST_TIMEOUT_MS: how long a request may take to arrive whole, headers and body (default 300000, Node's
   * own default, which Fastify turns off); past it the answer is 408 REQUEST_TIMEOUT and the connection closes.
   */
  requestTimeoutMs?: number;
  /**
   * PROJECTIONS_THREAD: `worker` (default) folds the projections on a worker thread of their own when the
   * store is SQLite in DATA_DIR; `main` folds them in the thread that serves requests (as on the other
   * engines). See docs/event-store.md "Read side thread".
   */
  projectionsThread?: 'worker' | 'main';
  /**
   * The fold worker's file, Node options and the webhook outbox's module for it; by default the compiled ones
   * (tests that run the sources name theirs).
   */
  foldWorker?: { file: string; execArgv?: string[]; outboxFile?: string };
}

/** Node's default request timeout, five minutes: a 20 MB fight log arrives well within it at 1 Mbit/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

/** Configuration by environment (README "Configuration"); a wrong value stops the boot with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const port = env.PORT === undefined ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  if (env.ADMIN_API_KEY !== undefined && env.ADMIN_API_KEY.length > 0 && env.ADMIN_API_KEY.length < 24)
    throw new Error('ADMIN_API_KEY must be at least 24 characters');
  const { eventStoreUrl, readStoreUrl } = storeUrls(env);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    eventStoreUrl,
    readStoreUrl,
    eventStoreSchema: env.EVENT_STORE_SCHEMA || undefined,
    dataDir: env.DATA_DIR ?? './data',
    bodyLimit: size(env.BODY_LIMIT ?? '256kb', 'BODY_LIMIT'),
    auditBodyLimit: size(env.AUDIT_BODY_LIMIT ?? '20mb', 'AUDIT_BODY_LIMIT'),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    rateLimitPerSecond: nonNegative(env.RATE_LIMIT_PER_SECOND, 'RATE_LIMIT_PER_SECOND', 100),
    logLevel: oneOfLevels(env.LOG_LEVEL),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    readSide: readSide(env.READ_SIDE),
    requestTimeoutMs: requestTimeout(env.REQUEST_TIMEOUT_MS),
    projectionsThread: projectionsThread(env.PROJECTIONS_THREAD),
  };
}

/** `256kb`, `20mb`, or a number of bytes; anything else stops the boot naming its variable. */
export function byteLimit(value: string, name: string): number {
  const n = bytes.parse(value);
  if (n === null || !Number.isSafeInteger(n) || n <= 0)
    throw new Error(`${name} must be a size such as 256kb or 20mb, got "${value}"`);
  return n;
}

/** A size setting, checked here with the others and kept as written (createApp reads it with byteLimit). */
function size(value: string, name: string): string {
  byteLimit(value, name);
  return value;
}

/**
 * Where read models and webhooks live: beside the log (the same PostgreSQL, SQLite in DATA_DIR, or
 * memory). A KurrentDB database holds only events, so beside it they go to READ_STORE_URL's
 * PostgreSQL (several instances coordinate there) or, without one, SQLite in DATA_DIR (one instance).
 */
export function readSideUrl(config: Pick<ApiConfig, 'eventStoreUrl' | 'readStoreUrl'>): string | undefined {
  return eventStoreEngine(config.eventStoreUrl) === 'kurrentdb' ? config.readStoreUrl : config.eventStoreUrl;
}

/** Messages name the scheme only: the rest of a url may hold a password. */
function storeUrls(env: NodeJS.ProcessEnv): { eventStoreUrl?: string; readStoreUrl?: string } {
  const eventStoreUrl = env.EVENT_STORE_URL?.trim() || undefined;
  const readStoreUrl = env.READ_STORE_URL?.trim() || undefined;
  const engine = eventStoreEngine(eventStoreUrl);
  if (!engine) {
    const scheme = urlScheme(eventStoreUrl ?? '');
    throw new Error(
      `EVENT_STORE_URL must start with ${EVENT_STORE_URL_SCHEMES.join(', ')} or be unset (SQLite in DATA_DIR), got ${scheme ? `scheme "${scheme}:"` : 'no scheme'}`,
    );
  }
  if (readStoreUrl && engine !== 'kurrentdb')
    throw new Error(
      'READ_STORE_URL applies only to a KurrentDB event store; the other engines keep read models beside the log',
    );
  if (readStoreUrl && eventStoreEngine(readStoreUrl) !== 'postgres')
    throw new Error('READ_STORE_URL must start with postgres:// or postgresql://');
  return { eventStoreUrl, readStoreUrl };
}

function nonNegative(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

function requestTimeout(raw: string | undefined): number {
  const ms = nonNegative(raw, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS);
  if (ms < 1000) throw new Error(`REQUEST_TIMEOUT_MS must be at least 1000 (one second), got "${raw}"`);
  return ms;
}

function readSide(raw: string | undefined): 'elect' | 'follow' {
  if (raw === undefined || raw === '' || raw === 'elect') return 'elect';
  if (raw === 'follow') return 'follow';
  throw new Error(`READ_SIDE must be elect or follow, got "${raw}"`);
}

function projectionsThread(raw: string | undefined): 'worker' | 'main' {
  if (raw === undefined || raw === '' || raw === 'worker') return 'worker';
  if (raw === 'main') return 'main';
  throw new Error(`PROJECTIONS_THREAD must be worker or main, got "${raw}"`);
}

function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\S{16,}$/.test(raw)) throw new Error('METRICS_TOKEN must be at least 16 characters without spaces');
  return raw;
}

function oneOfLevels(raw: string | undefined): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (raw === undefined || raw === '') return 'info';
  if (!levels.includes(raw)) throw new Error(`LOG_LEVEL must be one of ${levels.join(', ')}, got "${raw}"`);
  return raw;
}
