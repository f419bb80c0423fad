export * from './read-store';
export * from './runner';
export * from './create-read-store';
export * from './memory-read-store';
export * from './sqlite-read-store';
export * from './postgres-read-store';
export * from './read-side-owner';
export * from './fold-worker';
