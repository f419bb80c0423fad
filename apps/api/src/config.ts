export interface ApiConfig {
  port: number;
  host: string;
  eventStoreUrl?: string;
  /** PostgreSQL schema for the event log and read models (default public). */
  eventStoreSchema?: string;
  dataDir: string;
  bodyLimit: string;
  auditBodyLimit: string;
  /** The operator's admin key; unset: one is generated on first start and printed once. */
  adminApiKey?: string;
  /** Requests per second per key or token; 0 turns rate limiting off. */
  rateLimitPerSecond?: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel?: string;
  /** Origins allowed by CORS; empty: no cross-origin access. */
  corsOrigins?: string[];
}

/** Configuration by environment (README "Configuration"); a wrong value stops the boot with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const port = env.PORT === undefined ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  if (env.ADMIN_API_KEY !== undefined && env.ADMIN_API_KEY.length > 0 && env.ADMIN_API_KEY.length < 24) throw new Error('ADMIN_API_KEY must be at least 24 characters');
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    eventStoreUrl: env.EVENT_STORE_URL || undefined,
    eventStoreSchema: env.EVENT_STORE_SCHEMA || undefined,
    dataDir: env.DATA_DIR ?? './data',
    bodyLimit: env.BODY_LIMIT ?? '256kb',
    auditBodyLimit: env.AUDIT_BODY_LIMIT ?? '20mb',
    adminApiKey: env.ADMIN_API_KEY || undefined,
    rateLimitPerSecond: nonNegative(env.RATE_LIMIT_PER_SECOND, 'RATE_LIMIT_PER_SECOND', 100),
    logLevel: oneOfLevels(env.LOG_LEVEL),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  };
}

function nonNegative(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

function oneOfLevels(raw: string | undefined): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (raw === undefined || raw === '') return 'info';
  if (!levels.includes(raw)) throw new Error(`LOG_LEVEL must be one of ${levels.join(', ')}, got "${raw}"`);
  return raw;
}
