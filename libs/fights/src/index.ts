export * from './errors';
// The envelope and the hash chain live below the fights and the audit (libs/fight-log).
export {
  eventHash,
  FIGHT_STREAM_PREFIX,
  fightStream,
  GENESIS_HASH,
  secretStream,
  toFightEvent,
} from '@app/fight-log';
export type { EventMetadata, FightEvent } from '@app/fight-log';
export * from './fight-service';
// The pieces FightService is built from, for tests and alternative wirings.
export { FightCache, SNAPSHOT_EVERY, viewOf, viewResult } from './fight-cache';
export { viewText } from './view-text';
export type { FightCacheOptions, LoadedFight } from './fight-cache';
export * from './snapshots';
export { FightReads } from './fight-reads';
export { LiveViews } from './live/live-views';
export * from './seed-vault';
export * from './live/fight-feed';
export * from './live/live-stream';
export type { PushObserver } from './live/push-iterator';
export * from './projections';
export * from './fight-queries';
export * from './access';
export * from './coalesced-run';
export * from './log-tail';
