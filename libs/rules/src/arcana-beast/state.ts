import { CombatantCore, FightCore } from '../core/types';
import { Band, Tag } from './data';
import { AttackDeclaredData } from './events';
import { ArcanaSheet, BeastSheet, BinderSheet } from './sheet';

export interface TagState {
  tag: Tag;
  /** A28: a tag may hold against one opponent only. */
  againstId?: string;
}

export interface ArcanaCombatant extends CombatantCore<ArcanaSheet> {
  hp: number;
  stamina: number;
  stage: number;
  initiative?: number;
  /** A29, A31: rolled initiative surprised; a tie reroll keeps the Setback. */
  surprised: boolean;
  knockedOut: boolean;
  /** A23: called back into the Wearable Vessel for the encounter. */
  inVessel: boolean;
  tags: TagState[];
  conditions: string[];
  harms: string[];
  specialUses: Record<string, number>;
  zeroPowerUsed: boolean;
  zeroPowerTrigger: boolean;
  /** A9: stages whose emotional trigger the GM marked active. */
  activeTriggers: number[];
  /** The stage to return to when the highest Stage ends with the encounter. */
  revertTo?: number;
  /** Until the own next turn (A15). */
  defending: boolean;
  guarding?: string;
  /** +1 dice waiting for the next roll (Assist) and the next Dodge (Encourage), A26. */
  assistDice: number;
  encourageDodge: number;
  interceptOwed: boolean;
  items: Record<string, number>;
}

/** The running shared turn (A15). */
export interface TurnState {
  beastId: string;
  binderId?: string;
  command?: string;
  action?: string;
  freeMoveUsed: boolean;
  directed: boolean;
  bondSurge: boolean;
  strategized: boolean;
}

/** A20: the chain of allied attacks on one target. */
export interface Combo {
  side: string;
  lastAttackerId: string;
  /** The side's turn number of the last attack. */
  sideTurn: number;
  attacks: number;
  hits: number;
}

export interface ArcanaBeastState extends FightCore<ArcanaCombatant> {
  /** Beast id → its Binder's id. */
  binderOf: Record<string, string>;
  bands: Record<string, Band>;
  terrain: Record<string, number>;
  criticalGauge: number;
  /** Target id → the chain of the side that attacked it last (the view's). */
  combos: Record<string, Combo>;
  /** A57: target id → side → that side's chain on it; a third side's attack leaves another side's chain alone. */
  chains: Record<string, Record<string, Combo>>;
  sideTurns: Record<string, number>;
  turn?: TurnState;
  pendingAttack?: AttackDeclaredData;
  attacks: number;
  /** Decide-time only: RollInitiative's surprised combatants (A29). */
  surprised?: string[];
  /**
   * A13, A36: the Knocked Out beast whose Devolution Test is owed: set by its KnockedOut, cleared by its
   * DevolutionTested (in the same command when its faces are there) or when the GM cancels the dice request.
   */
  devolutionDue?: string;
}

export function isBeast(c: ArcanaCombatant): c is ArcanaCombatant & { sheet: BeastSheet } {
  return c.sheet.kind === 'beast';
}

export function isBinder(c: ArcanaCombatant): c is ArcanaCombatant & { sheet: BinderSheet } {
  return c.sheet.kind === 'binder';
}

/** A combatant by id, as an own entry of the table only: `toString` names no combatant unless one has that id. */
export function combatantOf(state: ArcanaBeastState, id: string | undefined): ArcanaCombatant | undefined {
  return id !== undefined && Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

/** The Binder a beast shares its turn with, looked up as an own entry (never an inherited name). */
export function binderIdOf(state: ArcanaBeastState, beastId: string): string | undefined {
  return Object.hasOwn(state.binderOf, beastId) ? state.binderOf[beastId] : undefined;
}

/** How many turns a side has had (A20); a side named like `toString` counts from 0 too. */
export function sideTurnOf(state: ArcanaBeastState, side: string): number {
  return Object.hasOwn(state.sideTurns, side) ? state.sideTurns[side] : 0;
}

/** A20, A57: the chain a side has on a target, looked up as own entries only. */
export function chainOf(state: ArcanaBeastState, targetId: string, side: string): Combo | undefined {
  const chains = Object.hasOwn(state.chains, targetId) ? state.chains[targetId] : undefined;
  return chains && Object.hasOwn(chains, side) ? chains[side] : undefined;
}

/** A35: the fight option playerSides, when the fight names the players' sides. */
export function playerSidesOf(state: ArcanaBeastState): readonly string[] | undefined {
  const sides = state.options.playerSides;
  return Array.isArray(sides) ? (sides as string[]) : undefined;
}

/**
 * A13, A35: a Binder is on the player side when its side is one of the fight's playerSides, a bound
 * beast when its Binder is (its own side once its Binder has left); without the option, every Binder and bound
 * beast is. Unbound beasts are wild, never on the player side.
 */
export function playerSide(state: ArcanaBeastState, c: ArcanaCombatant): boolean {
  const binderId = isBinder(c) ? c.id : binderIdOf(state, c.id);
  if (binderId === undefined) return false;
  const sides = playerSidesOf(state);
  return sides === undefined || sides.includes((combatantOf(state, binderId) ?? c).side);
}

/** C3, C11: who plays a combatant — a bound beast's Binder (while in the fight), else the combatant itself. */
export function controllerOf(state: ArcanaBeastState, id: string): string {
  const binder = binderIdOf(state, id);
  return binder && combatantOf(state, binder) ? binder : id;
}

/** Out of the encounter: Knocked Out or back in the vessel. */
export function out(c: ArcanaCombatant): boolean {
  return c.knockedOut || c.inVessel;
}

export function beastOfBinder(state: ArcanaBeastState, binderId: string): ArcanaCombatant | undefined {
  const b = combatantOf(state, binderId);
  if (!b || !isBinder(b)) return undefined;
  const beast = combatantOf(state, b.sheet.beastId);
  return beast && isBeast(beast) && binderIdOf(state, beast.id) === binderId ? beast : undefined;
}
