import { FightCore, RuleCommand } from './types';
import { waitingFor } from './lifecycle';
import { ensure, violation } from './violation';

/** C4: the commands that answer each kind of pending decision (otherwise its own `answer`). */
export type Answers = Readonly<Record<string, readonly string[]>>;

/**
 * What every system checks once the shared lifecycle has passed a command on: it is one of the system's
 * (`commands` names them), the fight is running, and a pending decision is answered before anything else (C4).
 */
export function checkEntry(
  system: string,
  commands: object,
  answers: Answers,
  state: FightCore,
  command: RuleCommand,
): void {
  if (!Object.hasOwn(commands, command.type))
    violation('UNKNOWN_COMMAND', `${system} has no command ${String(command.type)}`, 'type');
  ensure(state.status !== 'new', 'FIGHT_NOT_STARTED', 'the fight has not been started', 'type');
  ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
  checkAnswers(answers, state, command);
}

/** C4: while a decision is pending, only a command that answers it is decided. */
export function checkAnswers(answers: Answers, state: FightCore, command: RuleCommand): void {
  const pending = state.pending;
  if (!pending) return;
  const accepted = answers[pending.kind] ?? [pending.answer];
  if (!accepted.includes(command.type)) waitingFor(pending, accepted);
}
