import { join } from 'node:path';
import { MemoryReadStore } from './memory-read-store';
import { PostgresReadStore } from './postgres-read-store';
import { ReadStore } from './read-store';
import { SqliteReadStore } from './sqlite-read-store';

/** The read store follows the event store's engine: same PostgreSQL database, or a SQLite file beside the log. */
export function createReadStore(config: { url?: string; dataDir?: string; schema?: string }): ReadStore {
  const url = config.url?.trim();
  if (!url) return new SqliteReadStore(join(config.dataDir ?? './data', 'read.sqlite'));
  if (url.startsWith('memory:')) return new MemoryReadStore();
  if (/^postgres(ql)?:/i.test(url)) return new PostgresReadStore(url, config.schema);
  throw new Error('no read store for this event store url');
}
