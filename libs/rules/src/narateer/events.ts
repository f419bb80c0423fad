import { RuleEvent } from '../core/types';
import { Roll } from '../dice/roll';
import { DieKind, EdgeKind, ExchangeKind, Harm, ResponseKind, Skill, Vital } from './data';
import type { DiceCounts } from './state';

/** A square-grid Space (RULINGS.md N13). */
export interface Space {
  x: number;
  y: number;
}

/** N2/N31: the named sources of each Edge on one roll. */
export interface EdgeSources {
  advantage: string[];
  disadvantage: string[];
}

export interface ExchangeDeclaredData {
  exchangeId: string;
  attackerId: string;
  targetId: string;
  kind: ExchangeKind;
  skill: Skill;
  weaponId: string;
  boost: number;
  /** AD committed: Base Attack Cost + Boost. */
  dice: number;
  damageVital: Vital;
  harm: Harm;
  edge: EdgeSources;
  opportunity?: true;
  distance?: number;
  responderEdge?: EdgeKind;
  targetCannotSeeAttacker?: true;
  targetUnaware?: true;
  /** RULINGS.md N28: the attacker's wound allocation given in advance. */
  allocation?: DieKind[];
}

export interface ExchangeRespondedData {
  exchangeId: string;
  combatantId: string;
  response: ResponseKind;
  boost: number;
  dice: number;
  skill?: Skill;
  weaponId?: string;
  damageVital?: Vital;
  harm?: Harm;
  edge?: EdgeSources;
  /** N6: why the response was forced to none. */
  forced?: string;
  /** N23: where the answer came from when not from RespondToExchange. */
  source?: 'declaration' | 'policy';
  /** RULINGS.md N28: the responder's wound allocation given in advance. */
  allocation?: DieKind[];
}

/** N2: the one die rerolled by Edge. */
export interface EdgeReroll {
  index: number;
  original: number;
  roll: Roll;
  kept: 'original' | 'reroll';
}

export interface RolledSide {
  combatantId: string;
  skill: Skill;
  roll: Roll;
  edge: EdgeKind | 'none';
  sources: EdgeSources;
  reroll?: EdgeReroll;
  /** Faces after Edge. */
  faces: number[];
  total: number;
}

export type ExchangeOutcome = 'hit' | 'counterHit' | 'guarded' | 'tie';

export interface ExchangeResolvedData {
  exchangeId: string;
  attackerId: string;
  targetId: string;
  kind: ExchangeKind;
  attacker: RolledSide;
  responder?: RolledSide;
  /** No Response: the attacker rolls against target number 0. */
  targetNumber?: number;
  outcome: ExchangeOutcome;
  winnerId?: string;
  hitMargin?: number;
}

export interface WeaponFiredData {
  combatantId: string;
  weaponId: string;
  exchangeId: string;
  loaded: boolean;
  ammunition?: number;
}

/** What a resolution deals before the dice are chosen. */
export interface WoundCalculation {
  combatantId: string;
  wounds: number;
  harm: Harm;
  exchangeId?: string;
  sourceId?: string;
  weaponId?: string;
  damageVital?: Vital;
  hitMargin?: number;
  strikeRating?: number;
  protectionRating?: number;
  woundMargin?: number;
  lingeringHarmId?: string;
  form?: string;
  effect?: string;
}

export type WoundAllocationRequestedData = WoundCalculation;

export interface WoundedDie {
  kind: DieKind;
  from: 'ready' | 'used';
}

export interface WoundsAppliedData extends WoundCalculation {
  harmLabel: string;
  dice: WoundedDie[];
  vitalityBefore: number;
  vitality: number;
  ad: DiceCounts;
  md: DiceCounts;
  state: 'Active' | 'Collapsed' | 'Withdrawn';
  firstBelowHalf?: true;
}

export type ContinuationTrigger = 'belowHalf' | 'heavyWounds';

export interface ContinuationCheckedData {
  combatantId: string;
  triggers: ContinuationTrigger[];
  dice: number;
  roll: Roll;
  dots: number;
  passed: boolean;
  state: 'Active' | 'Withdrawn';
}

export interface DiceRefreshedData {
  combatantId: string;
  ad: DiceCounts;
  md: DiceCounts;
}

export interface DiceSpentData {
  combatantId: string;
  ad: number;
  md: number;
  proactiveUse?: ExchangeKind;
  reason?: string;
}

export interface WeaponReloadedData {
  combatantId: string;
  weaponId: string;
}

export interface LingeringHarmAppliedData {
  combatantId: string;
  lingeringHarmId: string;
  form: string;
  harm: Harm;
  wounds: number;
  round: number;
  source?: string;
}

export interface LingeringHarmTreatedData {
  combatantId: string;
  lingeringHarmId: string;
  form: string;
}

export interface ConditionAppliedData {
  combatantId: string;
  condition: string;
  intensity?: number;
  untilRound?: number;
}

export interface ConditionRemovedData {
  combatantId: string;
  condition: string;
  reason?: string;
}

export interface PositionSetData {
  combatantId: string;
  position: Space | null;
}

export interface MovedData {
  combatantId: string;
  path: Space[];
  from: Space;
  to: Space;
  noReactions?: true;
  forced?: true;
  /** Steps of the requested path left untaken because an opportunity stopped the move (N24). */
  stoppedBefore?: number;
}

export interface OpportunitiesIdentifiedData {
  moverId: string;
  step: { from: Space; to: Space };
  reactorIds: string[];
}

export interface OpportunityData {
  moverId: string;
  reactorId: string;
  reason?: string;
}

export interface NarateerEventMap {
  ExchangeDeclared: ExchangeDeclaredData;
  ExchangeResponded: ExchangeRespondedData;
  ExchangeResolved: ExchangeResolvedData;
  WeaponFired: WeaponFiredData;
  WoundAllocationRequested: WoundAllocationRequestedData;
  WoundsApplied: WoundsAppliedData;
  ContinuationChecked: ContinuationCheckedData;
  DiceRefreshed: DiceRefreshedData;
  DiceSpent: DiceSpentData;
  WeaponReloaded: WeaponReloadedData;
  LingeringHarmApplied: LingeringHarmAppliedData;
  LingeringHarmTreated: LingeringHarmTreatedData;
  ConditionApplied: ConditionAppliedData;
  ConditionRemoved: ConditionRemovedData;
  PositionSet: PositionSetData;
  Moved: MovedData;
  OpportunitiesIdentified: OpportunitiesIdentifiedData;
  OpportunityOffered: OpportunityData;
  OpportunityDeclined: OpportunityData;
  OpportunityLapsed: OpportunityData;
  OpportunitiesFinished: { moverId: string };
}

export type NarateerEventType = keyof NarateerEventMap;

/** Builds a typed Narateer event. */
export function ev<T extends NarateerEventType>(type: T, data: NarateerEventMap[T]): RuleEvent {
  return { type, data: data as unknown as Record<string, unknown> };
}
