import { DiceSource, ManualDice, RuleCommand, RuleEvent, RuleViolation, SeededDice } from '@app/rules';
import { LogEntry } from './fight-event';
import { FoldedFight } from './fold';
import { eventHash } from './hash-chain';
import { ACTIONS_UNDONE, UNDO_COMMAND, UndoStack } from './undo';

/**
 * The command core (DESIGN.md "Commands, end to end"), pure: a command decided with the fight's dice, and
 * its events sealed onto the log. The service, the verifier and the test recorder decide with it alike, so
 * a log the service writes is what the verifier decides again, byte for byte.
 */

/** A command's events and the dice draws the fight has used after it. */
export interface Decision {
  events: RuleEvent[];
  drawsUsed: number;
}

/** What deciding a command may need besides the folded fight (see `needsOf`). */
export interface DecisionInputs {
  /** The fight's dice seed: seeded and fair dice draw from it, EndFight reveals it. */
  seed?: string;
  /** The commands an UndoCommands may take back (undo.ts). */
  undo?: UndoStack;
}

/** The fight as far as deciding its next command reads it. */
export type DecidingFight = Pick<FoldedFight, 'system' | 'fightId' | 'state' | 'seq' | 'drawsUsed'>;

const MANUAL_FIELDS = ['dice', 'rerollFaces', 'followUpFaces'] as const;

/** Which of DecisionInputs deciding `command` on `fight` reads: a caller that must fetch them fetches only those. */
export function needsOf(fight: DecidingFight, command: RuleCommand): { seed: boolean; undo: boolean } {
  if (fight.seq === 0) return { seed: false, undo: false };
  if (command.type === UNDO_COMMAND) return { seed: false, undo: true };
  return { seed: fight.state.dice.mode !== 'manual' || command.type === 'EndFight', undo: false };
}

/**
 * Decides `command` on the fight folded so far:
 * - the first command (StartFight) rolls nothing;
 * - UndoCommands is the fight layer's own: `ActionsUndone` with what the undo stack takes back (C5);
 * - every other command is decided by the rule system with the fight's dice: manual dice are the faces the
 *   command carries, and every one of them must be used (C2); seeded and fair dice draw from the
 *   seed after the draws used so far, and refuse faces; EndFight gets the seed to reveal.
 * Throws the rule system's RuleViolation when the command is refused.
 */
export function decideCommand(fight: DecidingFight, command: RuleCommand, inputs: DecisionInputs): Decision {
  const { system, state, drawsUsed } = fight;
  if (fight.seq === 0) return { events: system.decide(state, command, new ManualDice({})), drawsUsed };
  if (command.type === UNDO_COMMAND) {
    if (!inputs.undo) throw new Error('UndoCommands is decided on the undo stack of the log so far');
    return { events: decideUndo(inputs.undo, command.count), drawsUsed };
  }
  // The command object itself when nothing changes: a decider reads the parse the edge made of it (checkCommand).
  const { revealedSeed: _revealed, ...rest } = command;
  const decided: RuleCommand =
    command.type === 'EndFight'
      ? { ...rest, revealedSeed: inputs.seed }
      : Object.hasOwn(command, 'revealedSeed')
        ? rest
        : command;
  const dice = diceFor(fight, decided, inputs.seed);
  const events = system.decide(state, decided, dice);
  if (dice instanceof ManualDice) dice.assertAllUsed();
  return { events, drawsUsed: dice instanceof SeededDice ? dice.drawsUsed : drawsUsed };
}

/** `UndoCommands { count }`: one ActionsUndone naming what it takes back (C5); throws a RuleViolation when impossible. */
export function decideUndo(undo: UndoStack, count: unknown): RuleEvent[] {
  return [{ type: ACTIONS_UNDONE, data: undo.plan(count) }];
}

/** C2: the dice the fight's mode rolls. */
function diceFor(fight: DecidingFight, command: RuleCommand, seed: string | undefined): DiceSource {
  const { mode, clientSeed, drawKey } = fight.state.dice;
  if (mode === 'manual')
    return new ManualDice(command as { dice?: number[]; rerollFaces?: number[]; followUpFaces?: number[] });
  for (const field of MANUAL_FIELDS) {
    if (command[field] !== undefined)
      throw new RuleViolation(
        'DICE_NOT_MANUAL',
        `RULINGS.md C2: this fight rolls ${mode} dice; faces cannot be supplied`,
        field,
      );
  }
  if (seed === undefined) throw new Error(`${mode} dice are drawn from the fight's seed, and none was given`);
  return new SeededDice({ seed, fightId: fight.fightId, drawKey, clientSeed, drawsUsed: fight.drawsUsed });
}

/** Who sent a command, when, under which id: the envelope its events carry. */
export interface Sealing {
  commandId: string;
  actor: string;
  /** ISO 8601 time of the append. */
  at: string;
  /** The command as sent (recorded on its first event, see `recordedCommand`). */
  command: RuleCommand;
}

/**
 * A decision's events in their envelopes, chained onto the fight's head: seq from the head on, one time,
 * actor and commandId, the hash of each from the one before (hash-chain.ts), the draws used after the
 * command, and the command itself on the first event so an auditor can decide it again.
 */
export function sealEvents(
  head: Pick<FoldedFight, 'fightId' | 'seq' | 'headHash'>,
  decision: Decision,
  sealing: Sealing,
): LogEntry[] {
  let hash = head.headHash;
  return decision.events.map((e, i) => {
    const event = {
      fightId: head.fightId,
      seq: head.seq + 1 + i,
      type: e.type,
      v: 1,
      at: sealing.at,
      actor: sealing.actor,
      commandId: sealing.commandId,
      data: e.data,
    };
    hash = eventHash(hash, event);
    const entry: LogEntry = { ...event, hash, drawsUsed: decision.drawsUsed };
    if (i === 0) entry.command = recordedCommand(sealing.command);
    return entry;
  });
}

/** The command as the log records it: the revealed seed is not stored twice, an undo is its count. */
export function recordedCommand(command: RuleCommand): RuleCommand {
  if (command.type === UNDO_COMMAND) return { type: UNDO_COMMAND, count: command.count };
  const { revealedSeed: _seed, ...rest } = command;
  return rest;
}
