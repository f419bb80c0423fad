export * from './fight-event';
export * from './hash-chain';
export * from './canonical-json';
export * from './undo';
export * from './fold';
export * from './command-core';
