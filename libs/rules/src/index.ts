export * from './core/types';
export * from './core/violation';
export * from './core/lifecycle';
export * from './core/rulings';
export * from './dice';
export * from './registry';
export { narateer } from './narateer';
export { arcanaBeast } from './arcana-beast';
export { archsoul } from './archsoul';
