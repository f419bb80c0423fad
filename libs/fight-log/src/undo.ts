import { RuleViolation } from '@app/rules';

/** The GM command the fight layer handles itself (rule systems never see it). */
export const UNDO_COMMAND = 'UndoCommands';
export const ACTIONS_UNDONE = 'ActionsUndone';

/** An undo (`ActionsUndone`): the state after it is given by the log before it, not by the state just before it. */
export function isUndo(event: { type: string }): boolean {
  return event.type === ACTIONS_UNDONE;
}

export interface UndoneCommand {
  commandId: string;
  fromSeq: number;
  toSeq: number;
}

/** `ActionsUndone` data: the commands undone, oldest first. Nothing is deleted from the log. */
export interface ActionsUndoneData {
  count: number;
  undone: UndoneCommand[];
  [key: string]: unknown;
}

/** What planning an undo needs of each event; an `ActionsUndone` must carry its data. */
export interface UndoCandidate {
  commandId: string;
  seq: number;
  type: string;
  data?: unknown;
}

/**
 * The commands an undo may still take back, most recent on top: every command that appended
 * events except StartFight and undos, minus those already undone (C5: draws are not given back).
 */
export class UndoStack {
  private readonly stack: UndoneCommand[] = [];
  private readonly undone = new Set<string>();
  private ended = false;

  /** Adds one command's events (consecutive, same commandId). */
  push(events: readonly UndoCandidate[]): void {
    const first = events[0];
    const undo = events.find(isUndo);
    if (undo) return this.apply(undo.data);
    if (events.some((e) => e.type === 'FightEnded')) this.ended = true;
    if (first.type === 'FightStarted') return;
    this.stack.push({ commandId: first.commandId, fromSeq: first.seq, toSeq: events[events.length - 1].seq });
  }

  /** Marks what a recorded `ActionsUndone` took back. */
  apply(data: unknown): void {
    for (const u of undoneList(data)) this.undone.add(u.commandId);
    while (this.stack.length > 0 && this.undone.has(this.stack[this.stack.length - 1].commandId))
      this.stack.pop();
  }

  /** The `ActionsUndone` data for `UndoCommands { count }`; throws a RuleViolation when impossible. */
  plan(count: unknown): ActionsUndoneData {
    if (this.ended)
      throw new RuleViolation(
        'FIGHT_ENDED',
        'the fight has ended and its seed is revealed; nothing can be undone',
        'type',
      );
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
      throw new RuleViolation(
        'UNDO_COUNT_INVALID',
        'UndoCommands: count must be a whole number of commands, 1 or more',
        'count',
      );
    }
    const picked: UndoneCommand[] = [];
    for (let i = this.stack.length - 1; i >= 0 && picked.length < count; i--) {
      if (!this.undone.has(this.stack[i].commandId)) picked.push(this.stack[i]);
    }
    if (picked.length === 0)
      throw new RuleViolation(
        'UNDO_NOTHING_TO_UNDO',
        'UndoCommands: no command is left to undo (StartFight and undos cannot be undone)',
        'count',
      );
    if (picked.length < count)
      throw new RuleViolation(
        'UNDO_COUNT_INVALID',
        `UndoCommands: only ${picked.length} command(s) can be undone, not ${count}`,
        'count',
      );
    return { count, undone: picked.reverse().map((u) => ({ ...u })) };
  }
}

/** The undo stack after these events (a log, or its start), one command's events at a time. */
export function undoStackOf(events: readonly UndoCandidate[]): UndoStack {
  const stack = new UndoStack();
  for (let i = 0; i < events.length;) {
    let j = i + 1;
    while (j < events.length && events[j].commandId === events[i].commandId) j++;
    stack.push(events.slice(i, j));
    i = j;
  }
  return stack;
}

/** What `UndoCommands { count }` appends after these events. Throws RuleViolation when impossible. */
export function planUndo(events: readonly UndoCandidate[], count: unknown): ActionsUndoneData {
  return undoStackOf(events).plan(count);
}

/** The well-formed entries of an `ActionsUndone`'s `undone` list; anything else is ignored. */
export function undoneList(data: unknown): UndoneCommand[] {
  const list = (data as { undone?: unknown } | undefined)?.undone;
  if (!Array.isArray(list)) return [];
  return list.filter((u: unknown): u is UndoneCommand => {
    if (typeof u !== 'object' || u === null) return false;
    const { commandId, fromSeq, toSeq } = u as Record<string, unknown>;
    return (
      typeof commandId === 'string' &&
      Number.isSafeInteger(fromSeq) &&
      Number.isSafeInteger(toSeq) &&
      (fromSeq as number) <= (toSeq as number)
    );
  });
}
