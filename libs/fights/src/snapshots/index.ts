export * from './snapshot-store';
export * from './sqlite-snapshot-store';
export * from './postgres-snapshot-store';
export * from './create-snapshot-store';
export { decodeSnapshot, encodeSnapshot, SNAPSHOT_SCHEMA, snapshotVersion } from './fight-snapshot';
