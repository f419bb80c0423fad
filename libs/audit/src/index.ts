export * from './canonical';
export * from './log';
export * from './undo';
export * from './verify';
