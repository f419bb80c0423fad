import { join } from 'node:path';
import { InMemoryEventStore } from './memory';
import type { EventStore } from './port';
import { PostgresEventStore } from './postgres';
import { SqliteEventStore } from './sqlite';

export interface EventStoreConfig {
  /** Absent: SQLite in `dataDir`. `postgres://`, `postgresql://` or `memory:`. */
  url?: string;
  dataDir?: string;
  /** PostgreSQL schema for the events table (default public). */
  schema?: string;
}

/** Resolves once the store is usable, so a bad URL or an unreachable database fails at boot. */
export async function createEventStore(config: EventStoreConfig = {}): Promise<EventStore> {
  const url = config.url?.trim();
  if (!url) return new SqliteEventStore(join(config.dataDir ?? './data', 'events.sqlite'));
  // Only the scheme goes into error messages: the rest of a URL may hold a password.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1].toLowerCase();
  switch (scheme) {
    case 'memory':
      return new InMemoryEventStore();
    case 'postgres':
    case 'postgresql': {
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
    case 'kurrentdb+discover':
    case 'esdb':
    case 'esdb+discover':
      throw new Error(`event store url scheme "${scheme}:" (KurrentDB) is not supported yet`);
    default:
      throw new Error(
        `unsupported event store url ${scheme ? `scheme "${scheme}:"` : '(no scheme)'}: ` +
          'use postgres://, postgresql://, memory:, or no url for SQLite in dataDir',
      );
  }
}
