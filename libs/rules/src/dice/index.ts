export * from './roll';
export * from './seeded';
export * from './manual';
