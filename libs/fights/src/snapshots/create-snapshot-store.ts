import { EventStore, SqliteEventStore } from '@app/event-store';
import { PostgresSnapshotStore } from './postgres-snapshot-store';
import { MemorySnapshotStore, SnapshotStore } from './snapshot-store';
import { SqliteSnapshotStore } from './sqlite-snapshot-store';

/**
 * Snapshots follow the event store's engine (docs/event-store.md "Snapshots"): a table in its SQLite file or
 * its PostgreSQL schema, a map for the memory engine. KurrentDB keeps none: its fights fold their whole stream.
 */
export function createSnapshotStore(
  store: EventStore,
  config: { url?: string; schema?: string } = {},
): SnapshotStore | undefined {
  switch (store.engine) {
    case 'memory':
      return new MemorySnapshotStore();
    case 'sqlite':
      return new SqliteSnapshotStore((store as SqliteEventStore).file);
    case 'postgres':
      return config.url ? new PostgresSnapshotStore(config.url, config.schema) : undefined;
    default:
      return undefined;
  }
}
