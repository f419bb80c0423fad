/** One schema for SQLite and PostgreSQL: times are epoch milliseconds, JSON is text (payloads are resent byte for byte). */
export const WEBHOOK_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS webhook_endpoints (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, url TEXT NOT NULL, description TEXT NOT NULL, event_types TEXT NOT NULL, fight_id TEXT, enabled INTEGER NOT NULL, secret TEXT NOT NULL, previous_secret TEXT, previous_secret_until BIGINT, disabled_reason TEXT, failing_since BIGINT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS webhook_endpoints_tenant ON webhook_endpoints (tenant_id)`,
  `CREATE TABLE IF NOT EXISTS webhook_checkpoint (name TEXT PRIMARY KEY, checkpoint TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS webhook_fight_tenants (fight_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, tenant_id TEXT NOT NULL, fight_id TEXT, seq INTEGER NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, round_attempts INTEGER NOT NULL, next_attempt_at BIGINT NOT NULL, locked_until BIGINT, locked_by TEXT, last_status INTEGER, last_error TEXT, delivered_at BIGINT)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_order ON webhook_deliveries (endpoint_id, fight_id, seq) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at)`,
  // Retention: finished deliveries by when they finished (next_attempt_at, see DeliveryRow).
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (next_attempt_at) WHERE status <> 'pending'`,
  `CREATE TABLE IF NOT EXISTS webhook_attempts (delivery_id TEXT NOT NULL, attempt_no INTEGER NOT NULL, endpoint_id TEXT NOT NULL, attempted_at BIGINT NOT NULL, status INTEGER, latency_ms INTEGER NOT NULL, response_excerpt TEXT NOT NULL, error TEXT, PRIMARY KEY (delivery_id, attempt_no))`,
];
