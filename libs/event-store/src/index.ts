export * from './port';
export { createEventStore, type EventStoreConfig } from './create';
export { InMemoryEventStore } from './memory';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres';
export { copyLog, type CopyReport } from './copy';
