import { z } from 'zod';
import {
  CombatantKey,
  command,
  CommandSchemas,
  Id,
  Int,
  PROTO_KEY,
  PROTO_KEY_REFUSED,
  text,
} from './contract';
import type { SystemContract } from './types';
import { DRAW_KEY_MAX } from '../dice/seeded';

/** What each system plugs into the lifecycle's declarations: its sheet and its fight options. */
export interface LifecycleShapes {
  sheet: z.ZodType;
  options: z.ZodObject;
}

/** A combatant as it joins: its sheet is the system's. */
export function combatantInput(sheet: z.ZodType) {
  return z
    .strictObject({
      id: CombatantKey.optional().describe(
        'Unique in the fight, and not __proto__ (views are keyed by it); default c1, c2, …',
      ),
      name: text(100).describe('Its name, to show: 1 to 100 characters.'),
      side: z
        .string()
        .min(1)
        .max(40)
        .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be a side name: letters, digits, _ or -' })
        .refine((side) => side !== PROTO_KEY, { error: PROTO_KEY_REFUSED })
        .meta({ not: { enum: [PROTO_KEY] } })
        .optional()
        .describe('Opponents are combatants on other sides; default "default".'),
      sheet,
    })
    .describe('A combatant as it joins: id, name, side and the system’s sheet.');
}

const reason = text(1000)
  .optional()
  .describe('Why, in free text (1 to 1,000 characters); recorded in the event.');
/** C14: takes the fight id's place in the draw derivation (C5); seeded dice only. */
const DrawKey = z
  .string()
  .min(1)
  .max(DRAW_KEY_MAX)
  .describe(
    "Seeded dice only (docs/rulings.md C14): takes the fight id's place in the draw derivation (RULINGS.md C5), so the same seed, drawKey and commands give the same faces in another fight. Default: the fight id.",
  );
/** C15: the most combatants a fight holds at once (StartFight's list, SetInitiative's order, AddCombatant). */
export const MAX_COMBATANTS = 200;

const tieBreak = z
  .array(Id)
  .max(MAX_COMBATANTS)
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
      combatants: z.array(combatantInput(sheet)).max(MAX_COMBATANTS).optional(),
      options: options.optional(),
    }),
    AddCombatant: command(
      'AddCombatant',
      `Add a combatant with a sheet; after initiative it rolls and is slotted in. A fight holds at most ${MAX_COMBATANTS} (docs/rulings.md C15).`,
      { combatant: combatantInput(sheet), tieBreak },
    ),
    RemoveCombatant: command('RemoveCombatant', 'Remove a combatant from the fight.', {
      combatantId: Id.describe('The combatant to remove.'),
      reason,
    }),
    RollInitiative: command(
      'RollInitiative',
      'Roll initiative for everyone; `tieBreak` orders groups still tied.',
      { tieBreak },
    ),
    SetInitiative: command('SetInitiative', 'GM gives the initiative order explicitly: every combatant id.', {
      order: z.array(Id).min(1).max(MAX_COMBATANTS).describe('Every combatant id, the first to act first.'),
    }),
    StartRound: command('StartRound', 'Open the next round.', {}),
    StartActivation: command(
      'StartActivation',
      "Start a combatant's activation (default: the next in order who has not acted).",
      {
        combatantId: Id.optional().describe(
          'Whose activation starts; default the next in initiative order who has not acted this round.',
        ),
      },
    ),
    EndActivation: command('EndActivation', 'End the running activation; the last one ends the round.', {}),
    EndRound: command('EndRound', 'GM ends the open round early.', {}),
    AddNote: command('AddNote', 'GM note: free text, optionally about one combatant.', {
      text: text(4000).describe('The note: free text, 1 to 4,000 characters.'),
      combatantId: Id.optional().describe('The combatant it is about; absent: the whole fight.'),
    }),
    CancelPending: command('CancelPending', 'GM cancels the pending decision (RULINGS.md C4).', { reason }),
    EndFight: command('EndFight', 'End the fight and reveal the dice seed.', {
      reason,
      winnerSide: text(40)
        .optional()
        .describe(
          'The winning side, if the GM names one: the side of a combatant in the fight (ruling C17).',
        ),
      unfinished: z.boolean().optional().describe('The GM ends the fight as unfinished; default false.'),
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
  sides: Int.describe('Sides of each die.'),
  faces: z.array(Int).describe('The faces rolled, in order.'),
  draw: Int.optional().describe(
    'Draw number (RULINGS.md C5) in fair and seeded modes; absent for manual dice.',
  ),
});

/**
 * C4: one kind of pending decision a fight may await: what it waits for, who answers and what `detail` holds
 * (`description`); the command its `answer` names; the other commands that answer it too, which the view lists in
 * `detail.alsoAccepts`.
 */
export interface PendingKind {
  description: string;
  answer: string;
  alsoAccepts?: readonly string[];
}
/** A system's own kinds of pending decision, by the name `kind` gives them (pendingSchema adds the core's). */
export type PendingKinds = Readonly<Record<string, PendingKind>>;

/** The kinds the core opens in every system: a dice request (C13) and an initiative tie (C3). */
export const CORE_PENDING_KINDS = {
  dice: {
    description:
      'docs/rulings.md C13: the manual dice a held command still needs (a later pool, a reroll or a follow-up roll); awaiting the combatant the command acts for or whose roll it is, or "gm"; `detail`: commandType, field, count, sides, reason.',
    answer: 'ProvideDice',
  },
  initiativeTie: {
    description:
      'RULINGS.md C3, docs/rulings.md C10: combatants still tied on initiative after the system’s tie-breaks and any tieBreak; awaiting "gm", who gives the whole order; `detail.ties`: the tied groups of ids.',
    answer: 'SetInitiative',
  },
} as const satisfies PendingKinds;

/** A system's kinds: the core's, then its own (which may redefine a core kind its fights answer otherwise). */
const withCore = (own: PendingKinds): PendingKinds => ({ ...CORE_PENDING_KINDS, ...own });

/** Each kind on a line of its own: what it waits for, and every command that answers it. */
const describedKinds = (kinds: PendingKinds) =>
  Object.entries(kinds)
    .map(([name, k]) => {
      const answers = [k.answer, ...(k.alsoAccepts ?? [])].join(' or ');
      return `\n- ${name}: ${k.description} Answered by ${answers}.`;
    })
    .join('');

/** C4: a pending decision with the `kind` and `answer` given. */
function decision<K extends z.ZodType, A extends z.ZodType>(kind: K, answer: A) {
  return z
    .strictObject({
      kind,
      awaiting: z.string().describe('A combatant id, or "gm".'),
      answer,
      detail: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('What the decision is about; its fields depend on kind.'),
    })
    .describe('RULINGS.md C4: a decision the fight awaits, naming who answers with which command.');
}

/**
 * C4: the pending decision of a system's view and events, declared once per system from its own kinds (`own`): `kind`
 * one of the core's and its own, each described; `answer` the command one of them names.
 */
export function pendingSchema(own: PendingKinds) {
  const kinds = withCore(own);
  const names = Object.keys(kinds) as [string, ...string[]];
  const answers = [...new Set(Object.values(kinds).map((k) => k.answer))] as [string, ...string[]];
  return decision(
    z
      .enum(names)
      .describe(
        `What kind of decision is awaited; the GM may also cancel any of them (CancelPending).${describedKinds(kinds)}`,
      ),
    z
      .enum(answers)
      .describe(
        'The command type that answers it, as its kind says; `detail.alsoAccepts` lists the other commands that answer it too, if any.',
      ),
  );
}

/** Any system's pending decision, where one declaration serves every system (GraphQL's lifecycle events). */
const ANY_PENDING = decision(
  z
    .string()
    .describe(
      'What kind of decision is awaited: one of those the fight’s system declares (GET /systems/:id).',
    ),
  z.string().describe('The command type that answers it.'),
);

/** What each system adds to the lifecycle events: its sheet (as folded) and its initiative roll. */
export interface LifecycleEventShapes {
  sheet: z.ZodType;
  options: z.ZodObject;
  /** One combatant's initiative roll; systems add their own fields (a pool, a shared roll, a tie reroll). */
  initiativeRoll?: z.ZodObject;
  /**
   * The system's own kinds of pending decision (pendingSchema); absent only where one declaration serves every
   * system, whose kinds then stay free strings.
   */
  pendingKinds?: PendingKinds;
}

const BaseInitiativeRoll = z
  .looseObject({
    combatantId: z.string().describe('The combatant’s id.'),
    roll: RollSchema.describe('The dice rolled (RULINGS.md C1).'),
    total: z.number().describe('The initiative total the system reckons from the roll.'),
  })
  .describe('One combatant’s initiative roll.');

const optionalText = z.string().optional();
const gmReason = optionalText.describe('The reason the GM gave, if any.');
const combatant = (what: string) => z.string().describe(`The ${what} combatant's id.`);
const round = Int.describe('The round number (1-based).');
const FightDice = z
  .strictObject({
    mode: z
      .enum(['fair', 'seeded', 'manual'])
      .describe('How dice are rolled: fair, seeded or manual (RULINGS.md C2).'),
    commitment: z
      .string()
      .describe('SHA-256 (hex) commitment to the dice seed, which FightEnded reveals (RULINGS.md C2).'),
    clientSeed: z.string().describe('Mixed into every roll (RULINGS.md C2/C5); "" when none was given.'),
    drawKey: DrawKey.optional(),
  })
  .describe('The fight’s dice: mode, seed commitment, client seed and draw key.');
const DiceNeed = z
  .strictObject({
    field: z
      .enum(['dice', 'rerollFaces', 'followUpFaces'])
      .describe('The field of ProvideDice the faces go in.'),
    count: Int.describe('How many faces are still needed.'),
    sides: Int.describe('Sides of each die.'),
    reason: z.string().describe('What the faces are for, in words.'),
  })
  .describe('The faces the held command still needs (docs/rulings.md C13).');
const UndoneCommand = z
  .strictObject({
    commandId: z.string().describe('The undone command’s id.'),
    fromSeq: Int.describe('The seq of its first event.'),
    toSeq: Int.describe('The seq of its last event.'),
  })
  .describe('One undone command and the seqs of its events.');

/**
 * C4, C13: a pending decision as lifecycle events record it (the one a dice request was made over, the kind cancelled
 * or brought back): the system's declaration, or any system's where one serves them all.
 */
function recordedPending(pendingKinds: PendingKinds | undefined) {
  const pending = pendingKinds ? pendingSchema(pendingKinds) : ANY_PENDING;
  const kinds = pendingKinds ? describedKinds(withCore(pendingKinds)) : '';
  return {
    previous: pending
      .optional()
      .describe('The pending decision the request was made over; CancelPending brings it back.'),
    cancelled: pending.shape.kind.describe(
      `The kind of the pending decision cancelled, as the view’s pending.kind names it (a dice request cancelled is DiceRequestCancelled instead).${kinds}`,
    ),
    restored: pending.shape.kind
      .optional()
      .describe(
        `The kind of the pending decision brought back (the one the held command answered), as the view’s pending.kind names it; absent when none.${kinds}`,
      ),
  };
}

/** The data of every lifecycle event (core/lifecycle.ts, core/dice-requests.ts, undo), declared once. */
export function lifecycleEvents({
  sheet,
  options,
  initiativeRoll = BaseInitiativeRoll,
  pendingKinds,
}: LifecycleEventShapes) {
  const pending = recordedPending(pendingKinds);
  return {
    FightStarted: z.strictObject({
      system: z.enum(['narateer', 'arcana-beast', 'archsoul']).describe('The rule system id.'),
      name: z.string().describe('The fight name ("Untitled fight" when none was given).'),
      dice: FightDice,
      options: options.or(z.strictObject({})),
    }),
    CombatantJoined: z.strictObject({
      id: z.string().describe('The combatant id, unique in the fight.'),
      name: z.string().describe('The combatant name.'),
      side: z.string().describe('The combatant’s side; opponents are on other sides.'),
      sheet,
    }),
    CombatantRemoved: z.strictObject({ combatantId: combatant('removed'), reason: gmReason }),
    InitiativeRolled: z.strictObject({
      rolls: z.array(initiativeRoll).describe('Each combatant’s initiative roll.'),
      order: z
        .array(z.string())
        .describe('The initiative order that results: combatant ids, first to act first.'),
      unresolvedTies: z
        .array(z.array(z.string()))
        .describe(
          'Groups of combatant ids still tied after the tie-breaks: the GM orders them (RULINGS.md C3).',
        ),
    }),
    InitiativeSet: z.strictObject({
      order: z
        .array(z.string())
        .describe('The initiative order the GM set: combatant ids, first to act first.'),
    }),
    RoundStarted: z.strictObject({ round }),
    RoundEnded: z.strictObject({ round }),
    ActivationStarted: z.strictObject({ combatantId: combatant('acting'), round }),
    ActivationEnded: z.strictObject({ combatantId: combatant('acting'), round }),
    GmNoteAdded: z.strictObject({
      text: z.string().describe('The note’s text.'),
      combatantId: optionalText.describe('The combatant the note is about, if any.'),
    }),
    PendingCancelled: z.strictObject({
      kind: pending.cancelled,
      reason: gmReason,
    }),
    FightEnded: z.strictObject({
      reason: gmReason,
      seed: z
        .string()
        .describe('The dice seed, revealed: it matches FightStarted’s commitment (RULINGS.md C2).'),
      winnerSide: optionalText.describe('The winning side, if the GM named one.'),
      unfinished: z.boolean().describe('True when the GM ended the fight as unfinished (default false).'),
    }),
    DiceRequested: z.strictObject({
      command: z
        .looseObject({ type: z.string().describe('The held command’s type.') })
        .describe('The held command as sent, with the faces it already had.'),
      awaiting: z.string().describe('Who provides the faces: a combatant id, or "gm".'),
      need: DiceNeed,
      previous: pending.previous,
    }),
    DiceRequestCancelled: z.strictObject({
      commandType: z.string().describe('The type of the held command dropped.'),
      restored: pending.restored,
      reason: gmReason,
    }),
    ActionsUndone: z.strictObject({
      count: Int.describe('How many commands were undone.'),
      undone: z
        .array(UndoneCommand)
        .describe('The commands undone, oldest first: each command id and the seqs of its events.'),
    }),
  } satisfies Record<string, z.ZodType>;
}

/** The type of a lifecycle event (lifecycleEvents). */
export type LifecycleEventType = keyof ReturnType<typeof lifecycleEvents>;

/**
 * Every event a system's fights hold, lifecycle ones included (but those its contract says it never emits,
 * `lifecycleEventsNotEmitted`): event type → schema of its data.
 */
export function eventSchemasOf(contract: SystemContract): Readonly<Record<string, z.ZodType>> {
  const omitted: readonly string[] = contract.lifecycleEventsNotEmitted ?? [];
  const lifecycle = lifecycleEvents({ ...contract, sheet: contract.joinedSheet ?? contract.sheet });
  return {
    ...Object.fromEntries(Object.entries(lifecycle).filter(([type]) => !omitted.includes(type))),
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

/**
 * The parts of every system's view (coreView), plus what the service adds (seq, headHash); systems extend it, with
 * their own kinds of pending decision (`pendingKinds`, pendingSchema).
 */
export function coreViewShape(pendingKinds: PendingKinds) {
  return {
    fightId: z.string().describe('The fight’s id.'),
    system: z.enum(['narateer', 'arcana-beast', 'archsoul']).describe('The fight’s rule system.'),
    name: z.string().describe('The fight’s name.'),
    status: z
      .enum(['new', 'setup', 'active', 'ended'])
      .describe('New, then setup (FightStarted), active (the first RoundStarted), ended (FightEnded).'),
    dice: z
      .strictObject({
        mode: z
          .enum(['fair', 'seeded', 'manual'])
          .describe('How dice are drawn: fair (commit-reveal), seeded or manual (RULINGS.md C2).'),
        commitment: z
          .string()
          .describe('SHA-256 (hex) of the dice seed, published when the fight starts (RULINGS.md C2).'),
        clientSeed: z.string().describe('Mixed into every draw (RULINGS.md C5); "" when none was given.'),
        drawKey: DrawKey.optional(),
        revealedSeed: z
          .string()
          .optional()
          .describe('The dice seed, revealed when the fight ends; absent before.'),
      })
      .describe(
        'The fight’s dice (RULINGS.md C2): mode, seed commitment, client seed, draw key, and the seed once revealed.',
      ),
    round: Int.describe('The current round; 0 before the first.'),
    roundOpen: z.boolean().describe('A round is open (from RoundStarted to RoundEnded).'),
    initiative: z.array(z.string()).describe('Initiative order; empty until rolled or set.'),
    activeCombatantId: z
      .string()
      .nullable()
      .describe('The combatant whose activation is running; null between activations.'),
    actedThisRound: z
      .array(z.string())
      .describe('Combatants whose activation has ended this round, in order.'),
    pending: pendingSchema(pendingKinds)
      .nullable()
      .describe('RULINGS.md C4: the one decision awaited, naming who answers with which command.'),
    seq: Int.optional().describe('The seq of the last event folded (added by the service).'),
    headHash: z.string().optional().describe('The hash of the last event folded (added by the service).'),
  } as const;
}
/** The fields of the core's part of every view (coreViewShape). */
export type CoreViewKey = keyof ReturnType<typeof coreViewShape>;
