import { join } from 'node:path';
import { PostgresDriver } from './postgres-driver';
import { SqlWebhookStore } from './sql-store';
import { SqliteDriver } from './sqlite-driver';
import { WebhookStore } from './types';

/** Follows the event store's engine, as createReadStore does: a SQLite file beside the log, the same PostgreSQL, or memory. */
export function createWebhookStore(config: {
  url?: string;
  dataDir?: string;
  schema?: string;
}): WebhookStore {
  const url = config.url?.trim();
  if (!url) return new SqlWebhookStore(new SqliteDriver(join(config.dataDir ?? './data', 'webhooks.sqlite')));
  // The memory engine is SQLite in memory: the same SQL, so the same ordering and leasing rules.
  if (url.startsWith('memory:')) return new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
  if (/^postgres(ql)?:/i.test(url)) return new SqlWebhookStore(new PostgresDriver(url, config.schema));
  throw new Error('no webhook store for this event store url');
}
