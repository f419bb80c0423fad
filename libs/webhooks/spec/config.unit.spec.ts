import {
  DEFAULT_WEBHOOK_CONFIG,
  ENDPOINT_CONCURRENCY,
  TENANT_CONCURRENCY,
  readWebhookConfig,
} from '../src/config';

describe('webhook configuration: WEBHOOK_RETENTION_DAYS', () => {
  it('defaults to 30 days; 0 keeps the delivery log for ever', () => {
    expect(readWebhookConfig({}).retentionDays).toBe(30);
    expect(readWebhookConfig({ WEBHOOK_RETENTION_DAYS: ' ' }).retentionDays).toBe(30);
    expect(readWebhookConfig({ WEBHOOK_RETENTION_DAYS: '0' }).retentionDays).toBe(0);
    expect(readWebhookConfig({ WEBHOOK_RETENTION_DAYS: ' 90 ' }).retentionDays).toBe(90);
  });

  it.each(['-1', '1.5', '7d', 'forever', '1e3', '0x10'])(
    'stops the boot on %p, naming the variable',
    (raw) => {
      expect(() => readWebhookConfig({ WEBHOOK_RETENTION_DAYS: raw })).toThrow(
        `WEBHOOK_RETENTION_DAYS must be a whole number of days ≥ 0 (0 keeps deliveries for ever), got "${raw}"`,
      );
    },
  );
});

describe('webhook configuration: WEBHOOK_ENDPOINT_CONCURRENCY', () => {
  it('defaults to ENDPOINT_CONCURRENCY attempts in flight per endpoint', () => {
    expect(readWebhookConfig({}).endpointConcurrency).toBe(ENDPOINT_CONCURRENCY);
    expect(readWebhookConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: ' 8 ' }).endpointConcurrency).toBe(8);
  });

  it.each(['0', '-1', '2.5', 'all'])('stops the boot on %p, naming the variable', (raw) => {
    expect(() => readWebhookConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: raw })).toThrow(
      /WEBHOOK_ENDPOINT_CONCURRENCY/,
    );
  });
});

describe('webhook configuration: WEBHOOK_TENANT_CONCURRENCY', () => {
  it('defaults to TENANT_CONCURRENCY attempts in flight per tenant, half the dispatcher’s concurrency', () => {
    expect(TENANT_CONCURRENCY).toBe(DEFAULT_WEBHOOK_CONFIG.concurrency / 2);
    expect(readWebhookConfig({}).tenantConcurrency).toBe(TENANT_CONCURRENCY);
    expect(readWebhookConfig({ WEBHOOK_TENANT_CONCURRENCY: ' 12 ' }).tenantConcurrency).toBe(12);
  });

  it.each(['0', '-1', '2.5', 'all'])('stops the boot on %p, naming the variable', (raw) => {
    expect(() => readWebhookConfig({ WEBHOOK_TENANT_CONCURRENCY: raw })).toThrow(
      /WEBHOOK_TENANT_CONCURRENCY/,
    );
  });
});

describe('webhook configuration: WEBHOOK_ENDPOINTS_PER_TENANT', () => {
  it('defaults to 20 endpoints a tenant, and takes a whole number above 0', () => {
    expect(readWebhookConfig({}).endpointsPerTenant).toBe(20);
    expect(readWebhookConfig({ WEBHOOK_ENDPOINTS_PER_TENANT: ' 3 ' }).endpointsPerTenant).toBe(3);
  });

  it.each(['0', '-1', '2.5', 'none'])('stops the boot on %p, naming the variable', (raw) => {
    expect(() => readWebhookConfig({ WEBHOOK_ENDPOINTS_PER_TENANT: raw })).toThrow(
      /WEBHOOK_ENDPOINTS_PER_TENANT/,
    );
  });
});
