export * from './canonical';
export * from './log';
// The fold with undo lives below the audit and the fights (libs/fight-log); re-exported for the audit's callers.
export { FightFolder, foldFight, planUndo } from '@app/fight-log';
export * from './verify';
export * from './json-text';
