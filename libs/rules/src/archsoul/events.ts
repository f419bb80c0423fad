import { RuleEvent } from '../core/types';
import { Roll } from '../dice/roll';
import { AttackModifier, AttackType, Condition, CriticalEffect, CriticalTable, SpecialAttack } from './data';
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
  Moved: { combatantId: string; action: 'move' | 'slowMove' | 'free' | 'shift' | 'takedown' | 'thrown' | 'dragged' | 'charge' | 'pushed'; path: Space[]; from: Space; to: Space; facing: Facing; distance: number; stoppedBefore?: number; jump?: true };
  Turned: { combatantId: string; facing: Facing };
  ConditionApplied: { combatantId: string; condition: Condition; amount: number; untilNextTurn: boolean; reason?: string; sourceId?: string };
  ConditionRemoved: { combatantId: string; condition: Condition; reason?: string };
  ItemDrawn: { combatantId: string; itemId: string; from: 'stowed' | 'ground'; groundId?: string };
  AwkwardDrawStarted: { combatantId: string; itemId: string };
  ItemDropped: { combatantId: string; itemId: string; groundId: string; name: string; space: Space; reason: string };
  ProjectileLanded: { combatantId: string; weaponId: string; itemId: string; name: string; space: Space; groundId?: string; ammunition?: string; broken: boolean; breakRoll?: Roll; reason: string };
  AmmunitionSpent: { combatantId: string; weaponId: string; left: number };
  ExchangeResolved: {
    attackerId: string; targetId: string; weaponId: string; attackType: AttackType; action: 'attack' | 'throw' | 'reactive';
    distance: number; targetArc: 'front' | 'back'; attack?: TestResult; defense: number; shieldBonus: number; resistance: number;
    soulDefence?: TestResult; hit: boolean;
    /** archsoul.txt: Maneuvers: the special attack and attack modifiers applied. */
    special?: SpecialAttack; maneuvers?: AttackModifier[];
    /** archsoul.txt: Feint: "the declared attack automatically misses" (no attack roll). */
    automaticMiss?: string;
  };
  FeintResolved: { attackerId: string; targetId: string; feint: TestResult; defence: TestResult; success: boolean; facing?: Facing };
  KnockdownResolved: { attackerId: string; targetId: string; damageRoll: TestResult; resist: TestResult; knockedDown: boolean };
  ShatterResolved: {
    attackerId: string; targetId: string; itemId: string; dropped: boolean; defence?: TestResult;
    winner?: 'attacker' | 'defender' | 'tie'; damagedId?: string; damagedItemId?: string; damageRoll?: TestResult; hardness: number; damage: number;
  };
  Dismounted: { combatantId: string; reason: string; /** S42: where the mount waits. */ at?: Space };
  Mounted: { combatantId: string; at: Space };
  Fell: { combatantId: string; metres?: number; damage: number };
  /** RULINGS.md S46: the ritual's effect is narrative; the GM applies any (ApplyDamage, ApplyCondition, PlaceCombatant). */
  RitualPerformed: { combatantId: string; name: string; description?: string; ap: number; movement: boolean; provokes: boolean };
  StudyTaken: { combatantId: string; targetId: string; count: number };
  AreaAttackResolved: {
    attackerId: string; weaponId: string; action: 'attack' | 'cleave' | 'throw'; spaces: Space[]; attack: TestResult;
    targets: { targetId: string; targetArc: 'front' | 'back'; difficulty: number; successes: number; defense: number; shieldBonus: number; resistance: number; hit: boolean }[];
  };
  GrappleRolled: { actorId: string; opponentId: string; purpose: string; actor: TestResult; opponent: TestResult; winnerId?: string; success: boolean };
  GrappleStarted: { grappleId: string; memberIds: [string, string]; controlId: string };
  GrappleControlChanged: { grappleId: string; controlId: string };
  GrappleEnded: { grappleId: string; reason: string };
  ItemStolen: { combatantId: string; fromId: string; itemId: string; name: string };
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
