import { CombatantCore, FightCore } from '../core/types';
import { CONDITIONS, ConditionEffect, DieKind, Harm } from './data';
import {
  DiceCounts,
  ExchangeDeclaredData,
  ExchangeRespondedData,
  Space,
  WoundAllocationRequestedData,
} from './events';
import { NarateerSheet } from './sheet';

export interface WeaponState {
  loaded: boolean;
  /** Absent = unlimited. */
  ammunition?: number;
}

export interface ActiveCondition {
  condition: string;
  intensity?: number;
  /** Lasts until the end of this round; absent = until removed. */
  untilRound?: number;
}

/** N38: when an instance ticks (default the end of each round). */
export type LingeringTick = 'roundEnd' | 'roundStart' | 'activationStart' | 'activationEnd';

export interface LingeringHarm {
  id: string;
  form: string;
  harm: Harm;
  wounds: number;
  source?: string;
  appliedRound: number;
  /** N38: the source's tick timing. */
  tick: LingeringTick;
  /** N38: it ends at the end of this round; absent = until treated. */
  untilRound?: number;
  /** N38: ticks left before it ends; absent = no count. */
  ticksLeft?: number;
  /** N38: the source's ending condition, which the GM ends with TreatLingeringHarm. */
  endsWhen?: string;
  /** N28: the wounded's allocation in advance, for each tick. */
  allocation?: DieKind[];
  /** The round of its last tick (one tick per round at most). */
  lastTick?: number;
}

export interface NarateerCombatant extends CombatantCore<NarateerSheet> {
  vitality: number;
  /** Initiative Side Roll total, once rolled. */
  initiative?: number;
  ad: DiceCounts;
  md: DiceCounts;
  /** Proactive uses spent in the current activation (N5). */
  uses: { melee: number; ranged: number };
  weapons: Record<string, WeaponState>;
  conditions: ActiveCondition[];
  lingering: LingeringHarm[];
  position?: Space;
  withdrawn: boolean;
  /** N18: Vitality has already fallen below half once in this fight. */
  belowHalf: boolean;
  /**
   * N41: the foes it has attacked while unseen by them (an Invisible attacker, a Blinded foe), since it last became
   * unseen by each; absent when none.
   */
  unseenAttacks?: string[];
}

export interface CurrentExchange extends ExchangeDeclaredData {
  response?: ExchangeRespondedData;
}

/** N24: the opportunities a move step opened, offered one at a time. */
export interface OpportunityQueue {
  moverId: string;
  step: { from: Space; to: Space };
  current?: string;
  remaining: string[];
}

export interface NarateerState extends FightCore<NarateerCombatant> {
  exchange?: CurrentExchange;
  pendingWounds?: WoundAllocationRequestedData;
  opportunity?: OpportunityQueue;
  /**
   * N61: the combatant whose Continuation Check the last WoundsApplied calls for, until ContinuationChecked (or
   * the GM's cancelling the request that held it alone); undefined otherwise.
   */
  continuationDue?: string;
  /**
   * N59 with N45: the round was open between two activations and still waited for someone as the last Move began;
   * undefined otherwise. The Opportunity Attacks that Move opened may leave it no one to wait for (decide/index.ts).
   */
  roundWaitedAtMove?: true;
  exchanges: number;
  lingeringApplied: number;
}

export type CombatState = 'Active' | 'Collapsed' | 'Withdrawn';

/** N10. */
export function combatState(c: NarateerCombatant): CombatState {
  if (c.vitality <= 0) return 'Collapsed';
  return c.withdrawn ? 'Withdrawn' : 'Active';
}

/** N20: Collapsed and Withdrawn combatants get no activations; an incapacitated one keeps its own (N46). */
export function canActivate(state: NarateerState, id: string): boolean {
  const c = state.combatants[id];
  return c !== undefined && combatState(c) === 'Active';
}

/** Whether one of the combatant's conditions has this engine effect (N26). */
export function hasEffect(c: NarateerCombatant, flag: keyof ConditionEffect): boolean {
  for (const k of c.conditions) if (CONDITIONS[k.condition]?.effect[flag]) return true;
  return false;
}

/** N41: by the conditions the engine knows, the attacker is unseen by the foe: it is Invisible, or the foe is Blinded. */
export function unseenBy(attacker: NarateerCombatant, foe: NarateerCombatant): boolean {
  return hasEffect(attacker, 'unseen') || hasEffect(foe, 'cannotSee');
}
