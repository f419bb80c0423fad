export * from './access-registry';
export * from './access-service';
export * from './principal';
export * from './secrets';
