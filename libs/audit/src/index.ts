export * from './canonical';
export * from './log';
// The fold and the undo stack live below the audit and the fights (libs/fight-log); re-exported for the audit's callers.
export { ACTIONS_UNDONE, FightFolder, foldFight, planUndo, UNDO_COMMAND, UndoStack, undoneList } from '@app/fight-log';
export type { ActionsUndoneData, FoldableEvent, UndoCandidate, UndoneCommand } from '@app/fight-log';
export * from './verify';
