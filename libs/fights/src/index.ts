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
export * from './seed-vault';
export * from './live/fight-feed';
export * from './live/live-stream';
export * from './projections';
export * from './fight-queries';
export * from './access';
export * from './coalesced-run';
