export * from './port';
export {
  createEventStore,
  eventStoreEngine,
  EVENT_STORE_URL_SCHEMES,
  urlScheme,
  type EventStoreConfig,
} from './create';
export { InMemoryEventStore } from './memory';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres';
export { inTransaction, isConnectionError, retryOnConnectionLoss, withClient } from './postgres-connection';
export { StoreFault, storeFault } from './store-faults';
export { KurrentEventStore, type KurrentEventStoreOptions } from './kurrentdb';
export { copyLog, type CopyReport } from './copy';
