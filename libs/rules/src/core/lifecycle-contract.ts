import { z } from 'zod';
import { command, CommandSchemas, Id, Int, text } from './contract';
import type { SystemContract } from './types';
import { DRAW_KEY_MAX } from '../dice/seeded';

/** What each system plugs into the lifecycle's declarations: its sheet and its fight options. */
export interface LifecycleShapes {
  sheet: z.ZodType;
  options: z.ZodObject;
}

/** A combatant as it joins: its sheet is the system's. */
export function combatantInput(sheet: z.ZodType) {
  return z.strictObject({
    id: Id.optional().describe('Unique in the fight; default c1, c2, …'),
    name: text(100),
    side: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be a side name: letters, digits, _ or -' })
      .optional()
      .describe('Opponents are combatants on other sides; default "default".'),
    sheet,
  });
}

const reason = text(1000).optional();
/** C14: takes the fight id's place in the draw derivation (C5); seeded dice only. */
const DrawKey = z
  .string()
  .min(1)
  .max(DRAW_KEY_MAX)
  .describe(
    "Seeded dice only (docs/rulings.md C14): takes the fight id's place in the draw derivation (RULINGS.md C5), so the same seed, drawKey and commands give the same faces in another fight. Default: the fight id.",
  );
const tieBreak = z
  .array(Id)
  .max(200)
  .optional()
  .describe('Ids in the order that breaks ties still standing after the system’s own tie-breaks.');

/**
 * The lifecycle commands every system shares (core/lifecycle.ts), declared once; `StartFight` is what
 * POST /fights sends, and `EndFight`'s `revealedSeed` is added by the service, never by a client.
 */
export function lifecycleCommands({ sheet, options }: LifecycleShapes) {
  return {
    StartFight: command('StartFight', 'Create the fight (sent by POST /fights).', {
      name: text(200).optional(),
      dice: z.strictObject({
        mode: z.enum(['fair', 'seeded', 'manual']),
        commitment: z.string().regex(/^[0-9a-f]{64}$/),
        clientSeed: z.string().max(200).optional(),
        drawKey: DrawKey.optional(),
      }),
      combatants: z.array(combatantInput(sheet)).max(200).optional(),
      options: options.optional(),
    }),
    AddCombatant: command(
      'AddCombatant',
      'Add a combatant with a sheet; after initiative it rolls and is slotted in.',
      { combatant: combatantInput(sheet), tieBreak },
    ),
    RemoveCombatant: command('RemoveCombatant', 'Remove a combatant from the fight.', {
      combatantId: Id,
      reason,
    }),
    RollInitiative: command(
      'RollInitiative',
      'Roll initiative for everyone; `tieBreak` orders groups still tied.',
      { tieBreak },
    ),
    SetInitiative: command('SetInitiative', 'GM gives the initiative order explicitly: every combatant id.', {
      order: z.array(Id).min(1).max(200),
    }),
    StartRound: command('StartRound', 'Open the next round.', {}),
    StartActivation: command(
      'StartActivation',
      "Start a combatant's activation (default: the next in order who has not acted).",
      { combatantId: Id.optional() },
    ),
    EndActivation: command('EndActivation', 'End the running activation; the last one ends the round.', {}),
    EndRound: command('EndRound', 'GM ends the open round early.', {}),
    AddNote: command('AddNote', 'GM note: free text, optionally about one combatant.', {
      text: text(4000),
      combatantId: Id.optional(),
    }),
    CancelPending: command('CancelPending', 'GM cancels the pending decision (RULINGS.md C4).', { reason }),
    EndFight: command('EndFight', 'End the fight and reveal the dice seed.', {
      reason,
      winnerSide: text(40).optional(),
      unfinished: z.boolean().optional(),
    }),
    ProvideDice: command(
      'ProvideDice',
      'Manual dice: the faces a dice request waits for; completes the held command (docs/rulings.md C13).',
      {},
    ),
    UndoCommands: command(
      'UndoCommands',
      'GM: undo the last `count` commands (ActionsUndone; nothing is deleted).',
      {
        count: z
          .number()
          .describe(
            'How many commands: a whole number, 1 or more (refused with UNDO_COUNT_INVALID otherwise).',
          ),
      },
    ),
  } satisfies CommandSchemas;
}

/** C1: a roll as every event records it. */
export const RollSchema = z.strictObject({
  sides: Int,
  faces: z.array(Int),
  draw: Int.optional().describe(
    'Draw number (RULINGS.md C5) in fair and seeded modes; absent for manual dice.',
  ),
});

/** C4: the pending decision of a view or event. */
export const PendingSchema = z.strictObject({
  kind: z.string(),
  awaiting: z.string().describe('A combatant id, or "gm".'),
  answer: z.string().describe('The command type that answers it.'),
  detail: z.record(z.string(), z.unknown()).optional(),
});

/** What each system adds to the lifecycle events: its sheet (as folded) and its initiative roll. */
export interface LifecycleEventShapes {
  sheet: z.ZodType;
  options: z.ZodObject;
  /** One combatant's initiative roll; systems add their own fields (a pool, a shared roll, a tie reroll). */
  initiativeRoll?: z.ZodObject;
}

const BaseInitiativeRoll = z.looseObject({ combatantId: z.string(), roll: RollSchema, total: z.number() });

/** The data of every lifecycle event (core/lifecycle.ts, core/dice-requests.ts, undo), declared once. */
export function lifecycleEvents({
  sheet,
  options,
  initiativeRoll = BaseInitiativeRoll,
}: LifecycleEventShapes) {
  const optionalText = z.string().optional();
  return {
    FightStarted: z.strictObject({
      system: z.enum(['narateer', 'arcana-beast', 'archsoul']),
      name: z.string(),
      dice: z.strictObject({
        mode: z.enum(['fair', 'seeded', 'manual']),
        commitment: z.string(),
        clientSeed: z.string(),
        drawKey: DrawKey.optional(),
      }),
      options: options.or(z.strictObject({})),
    }),
    CombatantJoined: z.strictObject({ id: z.string(), name: z.string(), side: z.string(), sheet }),
    CombatantRemoved: z.strictObject({ combatantId: z.string(), reason: optionalText }),
    InitiativeRolled: z.strictObject({
      rolls: z.array(initiativeRoll),
      order: z.array(z.string()),
      unresolvedTies: z.array(z.array(z.string())),
    }),
    InitiativeSet: z.strictObject({ order: z.array(z.string()) }),
    RoundStarted: z.strictObject({ round: Int }),
    RoundEnded: z.strictObject({ round: Int }),
    ActivationStarted: z.strictObject({ combatantId: z.string(), round: Int }),
    ActivationEnded: z.strictObject({ combatantId: z.string(), round: Int }),
    GmNoteAdded: z.strictObject({ text: z.string(), combatantId: optionalText }),
    PendingCancelled: z.strictObject({ kind: z.string(), reason: optionalText }),
    FightEnded: z.strictObject({
      reason: optionalText,
      seed: z.string(),
      winnerSide: optionalText,
      unfinished: z.boolean(),
    }),
    DiceRequested: z.strictObject({
      command: z
        .looseObject({ type: z.string() })
        .describe('The held command as sent, with the faces it already had.'),
      awaiting: z.string(),
      need: z.strictObject({
        field: z.enum(['dice', 'rerollFaces', 'followUpFaces']),
        count: Int,
        sides: Int,
        reason: z.string(),
      }),
      previous: PendingSchema.optional(),
    }),
    DiceRequestCancelled: z.strictObject({
      commandType: z.string(),
      restored: optionalText,
      reason: optionalText,
    }),
    ActionsUndone: z.strictObject({
      count: Int,
      undone: z
        .array(z.strictObject({ commandId: z.string(), fromSeq: Int, toSeq: Int }))
        .describe('The commands undone, oldest first: each command id and the seqs of its events.'),
    }),
  } satisfies Record<string, z.ZodType>;
}

/** Every event a system's fights hold, lifecycle ones included: event type → schema of its data. */
export function eventSchemasOf(contract: SystemContract): Readonly<Record<string, z.ZodType>> {
  return {
    ...lifecycleEvents({ ...contract, sheet: contract.joinedSheet ?? contract.sheet }),
    ...(contract.events ?? {}),
  };
}

/** The lifecycle events `evolveLifecycle` folds, typed from their declarations (the others are folded where they are decided). */
type FoldedLifecycle = Omit<
  ReturnType<typeof lifecycleEvents>,
  'DiceRequested' | 'DiceRequestCancelled' | 'ActionsUndone'
>;
export type LifecycleEvent = {
  [K in keyof FoldedLifecycle]: { type: K; data: z.infer<FoldedLifecycle[K]> };
}[keyof FoldedLifecycle];

const FOLDED: ReadonlySet<string> = new Set([
  'FightStarted',
  'CombatantJoined',
  'CombatantRemoved',
  'InitiativeRolled',
  'InitiativeSet',
  'RoundStarted',
  'RoundEnded',
  'ActivationStarted',
  'ActivationEnded',
  'GmNoteAdded',
  'PendingCancelled',
  'FightEnded',
] satisfies Array<keyof FoldedLifecycle>);

export function isLifecycleEvent(event: { type: string; data: unknown }): event is LifecycleEvent {
  return FOLDED.has(event.type);
}

/** The parts of every system's view (coreView), plus what the service adds (seq, headHash); systems extend it. */
export const CORE_VIEW_SHAPE = {
  fightId: z.string(),
  system: z.enum(['narateer', 'arcana-beast', 'archsoul']),
  name: z.string(),
  status: z.enum(['new', 'setup', 'active', 'ended']),
  dice: z.strictObject({
    mode: z.enum(['fair', 'seeded', 'manual']),
    commitment: z.string(),
    clientSeed: z.string(),
    drawKey: DrawKey.optional(),
    revealedSeed: z.string().optional(),
  }),
  round: Int,
  roundOpen: z.boolean(),
  initiative: z.array(z.string()).describe('Initiative order; empty until rolled or set.'),
  activeCombatantId: z.string().nullable(),
  actedThisRound: z.array(z.string()),
  pending: PendingSchema.nullable().describe(
    'RULINGS.md C4: the one decision awaited, naming who answers with which command.',
  ),
  seq: Int.optional().describe('The seq of the last event folded (added by the service).'),
  headHash: z.string().optional().describe('The hash of the last event folded (added by the service).'),
} as const;
