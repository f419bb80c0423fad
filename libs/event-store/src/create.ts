import { join } from 'node:path';
import { KurrentEventStore } from './kurrentdb';
import { KURRENTDB_SCHEMES } from './kurrentdb-url';
import { InMemoryEventStore } from './memory';
import type { EventStore } from './port';
import { PostgresEventStore } from './postgres';
import { SqliteEventStore } from './sqlite';

export interface EventStoreConfig {
  /** Absent: SQLite in `dataDir`. `postgres://`, `postgresql://`, `memory:`, or KurrentDB (`kurrentdb://`, see eventStoreEngine). */
  url?: string;
  dataDir?: string;
  /** PostgreSQL schema for the events table (default public). */
  schema?: string;
}

const ENGINES: Record<string, EventStore['engine']> = {
  memory: 'memory',
  postgres: 'postgres',
  postgresql: 'postgres',
  ...Object.fromEntries(KURRENTDB_SCHEMES.map((scheme) => [scheme, 'kurrentdb' as const])),
};

/** The url schemes createEventStore takes, for messages and configuration checks. */
export const EVENT_STORE_URL_SCHEMES = Object.keys(ENGINES).map((scheme) =>
  scheme === 'memory' ? 'memory:' : `${scheme}://`,
);

/** Only the scheme goes into error messages: the rest of a URL may hold a password. */
export function urlScheme(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1].toLowerCase();
}

/** Which engine a url selects: SQLite without one, undefined for a scheme no engine takes. */
export function eventStoreEngine(url: string | undefined): EventStore['engine'] | undefined {
  if (!url?.trim()) return 'sqlite';
  return ENGINES[urlScheme(url) ?? ''];
}

/** Resolves once the store is usable, so a bad URL or an unreachable database fails at boot. */
export async function createEventStore(config: EventStoreConfig = {}): Promise<EventStore> {
  const url = config.url?.trim();
  if (!url) return new SqliteEventStore(join(config.dataDir ?? './data', 'events.sqlite'));
  switch (eventStoreEngine(url)) {
    case 'memory':
      return new InMemoryEventStore();
    case 'postgres': {
      const store = new PostgresEventStore({ connectionString: url, schema: config.schema });
      try {
        await store.start();
      } catch (error) {
        await store.close();
        throw error;
      }
      return store;
    }
    case 'kurrentdb':
      return KurrentEventStore.connect({ url });
    default: {
      const scheme = urlScheme(url);
      throw new Error(
        `unsupported event store url ${scheme ? `scheme "${scheme}:"` : '(no scheme)'}: ` +
          `use ${EVENT_STORE_URL_SCHEMES.join(', ')}, or no url for SQLite in dataDir`,
      );
    }
  }
}
