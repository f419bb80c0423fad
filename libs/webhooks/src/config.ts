/** Retries with backoff: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. Entry i is the wait before attempt i + 1. */
export const DEFAULT_RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/**
 * Attempts in flight to one endpoint, over every instance: a receiver that hangs holds this many of the
 * dispatcher's slots, never all of them, so other endpoints' deliveries keep going. Beside it TENANT_CONCURRENCY
 * bounds a tenant's endpoints together, so one with many hanging receivers cannot take every slot either
 * (docs/webhooks.md "One tenant cannot hold the others up").
 */
export const ENDPOINT_CONCURRENCY = 4;

/** Deliveries sent at the same time by one instance. */
export const DISPATCHER_CONCURRENCY = 16;

/**
 * Attempts in flight to one tenant's endpoints together, over every instance: half the dispatcher's slots, so a tenant
 * whose endpoints all hang holds this many and other tenants' deliveries keep going (docs/webhooks.md "One tenant
 * cannot hold the others up").
 */
export const TENANT_CONCURRENCY = DISPATCHER_CONCURRENCY / 2;

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private, loopback and link-local addresses (local development, tests). */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCHEDULE_MS: waits before each attempt, comma-separated; its length is the number of attempts. */
  retryScheduleMs: number[];
  /** WEBHOOK_TIMEOUT_MS: one attempt's whole request and response. */
  timeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER_MS: an endpoint failing without a success this long is disabled. */
  disableAfterMs: number;
  /** WEBHOOK_POLL_MS: how often the dispatcher looks for due retries and the outbox for missed commits. */
  pollMs: number;
  /** Deliveries sent at the same time by one instance. */
  concurrency: number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY: attempts in flight to one endpoint at a time, over every instance. */
  endpointConcurrency: number;
  /** WEBHOOK_TENANT_CONCURRENCY: attempts in flight to one tenant's endpoints together, over every instance. */
  tenantConcurrency: number;
  /** WEBHOOK_ENDPOINTS_PER_TENANT: endpoints one tenant may have; each event is a delivery to each of them. */
  endpointsPerTenant: number;
  /** WEBHOOK_RETENTION_DAYS: finished deliveries (and their attempts) older than this are pruned; 0 keeps them for ever. */
  retentionDays: number;
}

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  allowPrivate: false,
  retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
  timeoutMs: 10_000,
  disableAfterMs: 5 * 24 * 3_600_000,
  pollMs: 1_000,
  concurrency: DISPATCHER_CONCURRENCY,
  endpointConcurrency: ENDPOINT_CONCURRENCY,
  tenantConcurrency: TENANT_CONCURRENCY,
  endpointsPerTenant: 20,
  retentionDays: 30,
};

/** A wrong value stops the boot with a message naming the variable, as readConfig does. */
export function readWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const d = DEFAULT_WEBHOOK_CONFIG;
  const flag = env.WEBHOOK_ALLOW_PRIVATE?.trim().toLowerCase();
  if (flag && !['true', 'false', '1', '0'].includes(flag))
    throw new Error(`WEBHOOK_ALLOW_PRIVATE must be true or false, got "${env.WEBHOOK_ALLOW_PRIVATE}"`);
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_MS?.trim()
    ? env.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map((s) => whole(s.trim(), 'WEBHOOK_RETRY_SCHEDULE_MS'))
    : d.retryScheduleMs;
  if (schedule.length === 0) throw new Error('WEBHOOK_RETRY_SCHEDULE_MS needs at least one entry');
  return {
    allowPrivate: flag === 'true' || flag === '1',
    retryScheduleMs: schedule,
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, 'WEBHOOK_TIMEOUT_MS', d.timeoutMs),
    disableAfterMs: positive(env.WEBHOOK_DISABLE_AFTER_MS, 'WEBHOOK_DISABLE_AFTER_MS', d.disableAfterMs),
    pollMs: positive(env.WEBHOOK_POLL_MS, 'WEBHOOK_POLL_MS', d.pollMs),
    concurrency: d.concurrency,
    endpointConcurrency: positive(
      env.WEBHOOK_ENDPOINT_CONCURRENCY,
      'WEBHOOK_ENDPOINT_CONCURRENCY',
      d.endpointConcurrency,
    ),
    tenantConcurrency: positive(
      env.WEBHOOK_TENANT_CONCURRENCY,
      'WEBHOOK_TENANT_CONCURRENCY',
      d.tenantConcurrency,
    ),
    endpointsPerTenant: positive(
      env.WEBHOOK_ENDPOINTS_PER_TENANT,
      'WEBHOOK_ENDPOINTS_PER_TENANT',
      d.endpointsPerTenant,
    ),
    retentionDays: retentionDays(env.WEBHOOK_RETENTION_DAYS, d.retentionDays),
  };
}

function retentionDays(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n))
    throw new Error(
      `WEBHOOK_RETENTION_DAYS must be a whole number of days ≥ 0 (0 keeps deliveries for ever), got "${raw}"`,
    );
  return n;
}

function whole(raw: string, name: string): number {
  const n = Number(raw);
  if (raw === '' || !Number.isInteger(n) || n < 0)
    throw new Error(`${name} must list whole milliseconds ≥ 0, got "${raw}"`);
  return n;
}

function positive(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = whole(raw.trim(), name);
  if (n === 0) throw new Error(`${name} must be > 0`);
  return n;
}
