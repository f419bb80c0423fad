/**
 * One schema for SQLite and PostgreSQL: times are epoch milliseconds, JSON is text (payloads are resent byte for byte).
 * `head` is 1 on the one delivery of an (endpoint, fight) that may be sent — its lowest pending seq — and on every
 * pending ping (no fight: ordered after nothing); 0 on the rest. The claim reads only heads.
 */
export const WEBHOOK_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS webhook_endpoints (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, url TEXT NOT NULL, description TEXT NOT NULL, event_types TEXT NOT NULL, fight_id TEXT, enabled INTEGER NOT NULL, secret TEXT NOT NULL, previous_secret TEXT, previous_secret_until BIGINT, disabled_reason TEXT, failing_since BIGINT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, previous_secrets TEXT)`,
  // Every secret a rotation replaced, with the end of its own overlap (JSON, newest first); previous_secret and
  // previous_secret_until keep the newest of them, which is all an older instance reads, and are read when this is null.
  `ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS previous_secrets TEXT`,
  `CREATE INDEX IF NOT EXISTS webhook_endpoints_tenant ON webhook_endpoints (tenant_id)`,
  `CREATE TABLE IF NOT EXISTS webhook_checkpoint (name TEXT PRIMARY KEY, checkpoint TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS webhook_fight_tenants (fight_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, tenant_id TEXT NOT NULL, fight_id TEXT, seq INTEGER NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, round_attempts INTEGER NOT NULL, next_attempt_at BIGINT NOT NULL, locked_until BIGINT, locked_by TEXT, last_status INTEGER, last_error TEXT, delivered_at BIGINT, head INTEGER NOT NULL DEFAULT 0)`,
  // Databases from before the head mark (SQLite: the driver adds the column only when it is missing).
  `ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS head INTEGER NOT NULL DEFAULT 0`,
  // Whether anything is due: one probe, the dispatcher's poll when nothing is. Only heads are in it (one per endpoint
  // and fight, and each ping), so no delivery waiting behind a head is ever read.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_heads_due ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending' AND head = 1`,
  // The claim per endpoint: its due heads in send order, and (a skip scan over endpoint_id) the endpoints with a pending head.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_heads_endpoint ON webhook_deliveries (endpoint_id, next_attempt_at, seq) WHERE status = 'pending' AND head = 1`,
  // An endpoint's attempts in flight (its leases): only leased rows are in it, a few per instance.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_leased ON webhook_deliveries (endpoint_id, locked_until) WHERE locked_until IS NOT NULL`,
  // A tenant's attempts in flight (its leases, over all its endpoints): the per-tenant cap of the claim.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_leased_tenant ON webhook_deliveries (tenant_id, locked_until) WHERE locked_until IS NOT NULL`,
  // Replaced by webhook_deliveries_heads_due (it held every pending delivery, so the claim walked them all).
  `DROP INDEX IF EXISTS webhook_deliveries_due`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_order ON webhook_deliveries (endpoint_id, fight_id, seq) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at)`,
  // Retention: finished deliveries by when they finished (next_attempt_at, see DeliveryRow).
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (next_attempt_at) WHERE status <> 'pending'`,
  `CREATE TABLE IF NOT EXISTS webhook_attempts (delivery_id TEXT NOT NULL, attempt_no INTEGER NOT NULL, endpoint_id TEXT NOT NULL, attempted_at BIGINT NOT NULL, status INTEGER, latency_ms INTEGER NOT NULL, response_excerpt TEXT NOT NULL, error TEXT, PRIMARY KEY (delivery_id, attempt_no))`,
  // Marks the heads of a database from before the mark, once ('heads' in webhook_checkpoint says it is done): the lowest pending seq
  // of each (endpoint, fight), and every pending ping. From then on the store keeps the mark in the transactions that change it.
  `UPDATE webhook_deliveries SET head = 1 WHERE status = 'pending' AND head = 0 AND NOT EXISTS (SELECT 1 FROM webhook_checkpoint WHERE name = 'heads')
     AND (fight_id IS NULL OR NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = webhook_deliveries.endpoint_id AND p.fight_id = webhook_deliveries.fight_id AND p.status = 'pending' AND p.seq < webhook_deliveries.seq))`,
  `INSERT INTO webhook_checkpoint (name, checkpoint) VALUES ('heads', 'marked') ON CONFLICT DO NOTHING`,
];
