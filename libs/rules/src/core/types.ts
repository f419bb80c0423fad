import type { z } from 'zod';
import type { LifecycleEventType, PendingKinds } from './lifecycle-contract';
import { DiceSource } from '../dice/roll';

export type SystemId = 'narateer' | 'arcana-beast' | 'archsoul';
export type DiceMode = 'fair' | 'seeded' | 'manual';

/** A domain event as `decide` returns it; the fight layer adds the envelope (seq, at, actor, …). */
export interface RuleEvent<T extends string = string, D = Record<string, unknown>> {
  type: T;
  data: D;
}

/** A command as it reaches `decide`: `type` plus its payload. */
export interface RuleCommand {
  type: string;
  [field: string]: unknown;
}

export interface Ruling {
  id: string;
  text: string;
}

/** new: no FightStarted yet; setup: before the first round; active: rounds running. */
export type FightStatus = 'new' | 'setup' | 'active' | 'ended';

/** C4: one pending decision at a time, naming who must answer. */
export interface PendingDecision {
  kind: string;
  /** A combatant id, or 'gm'. */
  awaiting: string;
  /** The command type that answers it. */
  answer: string;
  detail?: Record<string, unknown>;
}

export interface CombatantCore<Sheet = unknown> {
  id: string;
  name: string;
  side: string;
  sheet: Sheet;
}

export interface FightCore<C extends CombatantCore = CombatantCore> {
  fightId: string;
  system: SystemId;
  status: FightStatus;
  name: string;
  dice: { mode: DiceMode; commitment: string; clientSeed: string; drawKey?: string; revealedSeed?: string };
  options: Record<string, unknown>;
  /** Present combatants in join order. */
  combatants: Record<string, C>;
  joined: string[];
  /**
   * C11: the ids of combatants removed from the fight, never given to another one; absent until the first
   * RemoveCombatant.
   */
  removed?: string[];
  /** Initiative order; empty until rolled or set. */
  order: string[];
  round: number;
  roundOpen: boolean;
  /** Whose activation/turn is running. */
  activeId?: string;
  /** Who has had an activation in the open round. */
  actedThisRound: string[];
  pending?: PendingDecision;
  /** C13: the command a dice request holds, and the pending decision it answers. */
  diceRequest?: HeldCommand;
  notes: number;
}

/** A command held until its later manual dice are given (C13); never in the view. */
export interface HeldCommand {
  command: RuleCommand;
  previous?: PendingDecision;
}

/** DESIGN.md "The rules domain: deciders". */
export interface RuleSystem<S extends FightCore = FightCore> {
  id: SystemId;
  name: string;
  /** Tables and constants; returned by GET /systems/:id. */
  data: Record<string, unknown>;
  rulings: Ruling[];
  /** Every command type `decide` accepts, with a one-line description. */
  commands: Record<string, string>;
  /** Every command, the sheet and the events, declared once (core/contract.ts). */
  contract: SystemContract;
  /** The empty state a fight's events are folded from. */
  start(fightId: string): S;
  decide(state: S, command: RuleCommand, dice: DiceSource): RuleEvent[];
  /** Passed bare to `reduce`: it must not use `this`. */
  evolve(this: void, state: S, event: RuleEvent): S;
  /** What a frontend renders. */
  view(state: S): Record<string, unknown>;
  /**
   * The version of what `view` returns, from 1. An exported log records it beside its view, and the audit
   * compares that view only with one of the same version: a log exported before a view changed is no
   * forgery. Bump it with any change to what `view(state)` returns for some state (a field added, removed
   * or renamed, a value shown otherwise), the shared pieces a view shows included (a pending dice request);
   * libs/audit/spec/view-version.unit.spec.ts fails until it is.
   */
  viewVersion: number;
  /**
   * C3, C12: the combatant a command acts for, so a player may send it only for
   * their own combatants, with the GM's fields it carries and the other combatants it answers
   * for; undefined means a GM-only command.
   */
  actorOf?(state: S, command: RuleCommand): CommandActor | undefined;
  /**
   * C13: an action the system holds before it rolls (Archsoul's reactive attacks, S18),
   * and the command that performs it; undefined when nothing is held.
   */
  heldAction?(state: S): HeldForLater | undefined;
}

/** A held action: its type, why it waits, and who answers it with which command (C13). */
export interface HeldForLater {
  type: string;
  reason: string;
  awaiting: string;
  answer: string;
}

/** A payload field and the combatant it names. */
export interface FieldCombatant {
  combatantId: string;
  field: string;
}

/** C11, C12: who a player's command acts for, and what in it is not that combatant's to say. */
export interface CommandActor extends FieldCombatant {
  /** Fields present in the command that only the GM may set; absent when none. */
  gmOnly?: string[];
  /** Other combatants the command answers for, each with the field that does; absent when none. */
  speaksFor?: FieldCombatant[];
}

/** A system's declarations (core/contract.ts): the one source of validation, types and JSON Schemas. */
export interface SystemContract {
  /** Every command type (lifecycle ones included) → its strict schema, `type` included. */
  commands: Readonly<Record<string, z.ZodObject>>;
  /** A combatant's sheet as a client sends it. */
  sheet: z.ZodType;
  /** A combatant's sheet as CombatantJoined records it (defaults filled in), when that differs from `sheet`. */
  joinedSheet?: z.ZodType;
  /** Options of `POST /fights` for this system. */
  options: z.ZodObject;
  /** One combatant's initiative roll in InitiativeRolled, when the system adds fields to the core's. */
  initiativeRoll?: z.ZodObject;
  /** The view `view(state)` returns, as frontends read it. */
  view?: z.ZodType;
  /**
   * C4: the system's own kinds of pending decision, beside the core's: the closed set its view's `pending` and the
   * lifecycle events that record one declare (pendingSchema).
   */
  pendingKinds: PendingKinds;
  /** Every event type beyond the lifecycle's → the schema of its `data`. */
  events?: Readonly<Record<string, z.ZodType>>;
  /** Lifecycle events the system never emits (Archsoul's activations): left out of the events it publishes. */
  lifecycleEventsNotEmitted?: readonly LifecycleEventType[];
}
