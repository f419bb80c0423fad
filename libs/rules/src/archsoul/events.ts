import { RuleEvent } from '../core/types';
import { Roll } from '../dice/roll';
import { AttackType, Condition, CriticalEffect, CriticalTable } from './data';
import { Facing, GridKind, Space } from './grid';
import { HeldAction, Party, Trigger } from './state';

/** RULINGS.md S1: one test as rolled. */
export interface TestResult {
  pool: number;
  difficulty: number;
  /** Dice removed because the difficulty went above 6 (S1). */
  removed: number;
  roll: Roll;
  successes: number;
  criticalFailure: boolean;
  /** Why the difficulty moved from its base. */
  modifiers: { reason: string; amount: number }[];
}

export interface ArchsoulEventMap {
  MapSet: { grid: GridKind; blocked: Space[]; walls: [Space, Space][] };
  CombatantPlaced: { combatantId: string; position: Space; facing: Facing };
  AmbushDeclared: { party: Party };
  PhaseStarted: { round: number; index: number; party: Party; combatantIds: string[] };
  PhaseEnded: { round: number; index: number; party: Party };
  TurnStarted: { combatantId: string; round: number; ap: number; freeMove: number; expired: Condition[] };
  TurnEnded: { combatantId: string; apLost: number };
  ApSpent: { combatantId: string; action: string; ap: number; apLeft: number };
  Moved: { combatantId: string; action: 'move' | 'slowMove' | 'free' | 'shift'; path: Space[]; from: Space; to: Space; facing: Facing; distance: number; stoppedBefore?: number };
  Turned: { combatantId: string; facing: Facing };
  ConditionApplied: { combatantId: string; condition: Condition; amount: number; untilNextTurn: boolean; reason?: string };
  ConditionRemoved: { combatantId: string; condition: Condition; reason?: string };
  ItemDrawn: { combatantId: string; itemId: string; from: 'stowed' | 'ground'; groundId?: string };
  AwkwardDrawStarted: { combatantId: string; itemId: string };
  ItemDropped: { combatantId: string; itemId: string; groundId: string; name: string; space: Space; reason: string };
  ProjectileLanded: { combatantId: string; weaponId: string; itemId: string; name: string; space: Space; groundId?: string; ammunition?: string; broken: boolean; breakRoll?: Roll; reason: string };
  AmmunitionSpent: { combatantId: string; weaponId: string; left: number };
  ExchangeResolved: {
    attackerId: string; targetId: string; weaponId: string; attackType: AttackType; action: 'attack' | 'throw' | 'reactive';
    distance: number; targetArc: 'front' | 'back'; attack: TestResult; defense: number; shieldBonus: number; resistance: number;
    soulDefence?: TestResult; hit: boolean;
  };
  WoundsApplied: { combatantId: string; source: string; damageRoll?: TestResult; bonus: number; damage: number; hpBefore: number; hp: number; down: boolean };
  CriticalFailureRolled: { combatantId: string; weaponId: string; table: CriticalTable; roll?: Roll; face: number; text: string; effect?: CriticalEffect; narrated?: true };
  WeaponChanged: { combatantId: string; weaponId: string; broken: boolean; destroyed: boolean; jammed: boolean; hp?: number; reason: string };
  DrainSuffered: { combatantId: string; amount: number; total: number };
  SoulpowerLowered: { combatantId: string; amount: number; total: number };
  ReactiveAttackTriggered: { actorId: string; trigger: Trigger; reactorIds: string[]; action?: HeldAction };
  ReactiveAttackOffered: { actorId: string; reactorId: string };
  ReactiveAttackDeclined: { actorId: string; reactorId: string };
  ReactiveAttackLapsed: { actorId: string; reactorId: string; reason: string };
  PreventionRolled: { combatantId: string; reactorId: string; damage: number; test?: TestResult; prevented: boolean; reason: string };
  ReactionsFinished: { actorId: string; prevented: boolean; action?: HeldAction };
  ActionResumed: { combatantId: string; action: HeldAction; abandoned: boolean };
}

export type ArchsoulEventType = keyof ArchsoulEventMap;

export function ev<T extends ArchsoulEventType>(type: T, data: ArchsoulEventMap[T]): RuleEvent {
  return { type, data: data as unknown as Record<string, unknown> };
}
