export * from './errors';
export * from './fight-event';
export * from './fight-list';
export * from './fight-service';
export * from './seed-vault';
export * from './hash-chain';
export * from './live/fight-feed';
export * from './live/live-stream';
