import { RuleEvent } from '../core/types';
import { Roll } from '../dice/roll';
import { Band, Range, Stat, Tag } from './data';

/** One named "+1 die" (or more) in a pool (RULINGS.md A3, A12). */
export interface DiceBonus {
  source: string;
  dice: number;
}

/** A pool as rolled: one draw, the extra Boost/Setback die included (RULINGS.md A3, A12, C1). */
export interface RolledPool {
  combatantId: string;
  purpose: string;
  stat: Stat;
  statValue: number;
  ranks: number;
  bonuses: DiceBonus[];
  /** Pool size before Boost/Setback. */
  dice: number;
  sides: number;
  edge: 'boost' | 'setback' | 'none';
  boostSources: string[];
  setbackSources: string[];
  roll: Roll;
  dropped?: { index: number; face: number };
  kept: number[];
  successes: number;
  /** Kept dice showing 6 or more (A2). */
  sixes: number;
}

export interface TestResult extends RolledPool {
  difficulty: number;
  passed: boolean;
}

export interface AttackDeclaredData {
  attackNo: number;
  attackerId: string;
  targetId: string;
  /** Who the attack was declared against, when Guard or Intercept changed the target. */
  declaredTargetId?: string;
  redirectedBy?: 'guard' | 'intercept';
  action: 'attack' | 'specialAttack' | 'zeroPower';
  attackId: string;
  attackName: string;
  range: Range;
  band: Band;
  bonusDice: number;
}

export interface AttackResolvedData extends AttackDeclaredData {
  attack: RolledPool;
  dodge: RolledPool;
  outcome: 'hit' | 'miss';
  critical: boolean;
  baseDamage: number;
  extraSuccesses: number;
  bonusDamage: number;
  /** RULINGS.md A20: place in the chain, its bonuses, the hit streak after this attack, the side's turn. */
  combo: { position: number; dieBonus: number; damageBonus: number; hits: number; side: string; sideTurn: number };
  damage: number;
}

export interface DamageDealtData {
  combatantId: string;
  damage: number;
  hpBefore: number;
  hp: number;
  attackNo?: number;
}

export interface DevolutionTestedData {
  combatantId: string;
  stageBefore: number;
  test: TestResult;
  stageAfter: number;
  reason: 'knockedOut' | 'callBack';
}

export interface StageChangeData {
  combatantId: string;
  from: number;
  to: number;
  reason: string;
  /** RULINGS.md A9: the highest unlocked Stage reached, to revert at the end of the encounter. */
  highest?: boolean;
  triggerActive?: boolean;
}

export interface MovedData {
  combatantId: string;
  towardId: string;
  from: Band;
  to: Band;
  by: 'free' | 'reposition';
  using?: string;
  test?: TestResult;
  stopped?: true;
}

export interface BinderCommandedData {
  binderId: string;
  beastId: string;
  command: string;
  test?: TestResult;
  passed?: boolean;
  effect?: string;
  condition?: string;
  mode?: string;
  itemId?: string;
  targetId?: string;
}

export type ArcanaEventMap = {
  InitiativeTieRerolled: { rolls: unknown[]; order: string[]; unresolvedTies: string[][] };
  TurnStarted: { combatantId: string; binderId?: string; actionForfeited?: 'intercept'; defendEnded?: true; guardEnded?: string };
  ActionTaken: { combatantId: string; action: string; targetId?: string; allyId?: string; note?: string };
  BinderCommanded: BinderCommandedData;
  AttackDeclared: AttackDeclaredData;
  InterceptDecided: { combatantId: string; binderId: string; intercept: boolean; source: 'answer' | 'declaration' };
  AttackResolved: AttackResolvedData;
  DamageDealt: DamageDealtData;
  KnockedOut: { combatantId: string; playerSide: boolean };
  CriticalGaugeRaised: { combatantId: string; from: number; to: number };
  CriticalMoveTriggered: { threshold: number; tier: string; meaning: string; gauge: number };
  HarmGained: { combatantId: string; harm: string };
  DevolutionTested: DevolutionTestedData;
  StageEvolved: StageChangeData;
  StageDevolved: StageChangeData;
  SpecialAttackUsed: { combatantId: string; specialAttackId: string; usesLeft: number };
  ZeroPowerUsed: { combatantId: string; targetId?: string; trigger: string };
  TriggerSet: { combatantId: string; kind: 'stage' | 'zeroPower'; stage?: number; active: boolean };
  TagSet: { combatantId: string; tag: Tag; againstId?: string };
  TagCleared: { combatantId: string; tag: Tag };
  ConditionApplied: { combatantId: string; condition: string };
  ConditionRemoved: { combatantId: string; condition: string; reason?: string };
  ComboReset: { targetId: string; reason: string };
  StaminaSpent: { combatantId: string; amount: number; stamina: number };
  StaminaRestored: { combatantId: string; amount: number; stamina: number };
  HpRestored: { combatantId: string; amount: number; hpBefore: number; hp: number };
  ItemUsed: { binderId: string; itemId: string; quantityLeft: number; targetId: string };
  BandSet: { aId: string; bId: string; band: Band; difficultTerrain?: number };
  Moved: MovedData;
  Assisted: { combatantId: string; allyId: string };
  BonusDiceUsed: { combatantId: string; source: 'Assist' | 'Encourage'; dice: number };
  CalledBack: { binderId: string; beastId: string; mode: 'retreat' | 'devolve' };
  TestRolled: { combatantId: string; reason?: string; test: TestResult };
  OpposedTestRolled: { a: RolledPool; b: RolledPool; winnerId: string | null; reason?: string };
  SceneEnded: { revived: string[] };
};

export type ArcanaEventType = keyof ArcanaEventMap;

export function ev<T extends ArcanaEventType>(type: T, data: ArcanaEventMap[T]): RuleEvent {
  return { type, data: stripUndefined(data) as unknown as Record<string, unknown> };
}

/** Events are JSON: an absent field is left out, never stored as undefined. */
function stripUndefined<T>(data: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) if (v !== undefined) out[k] = v;
  return out as T;
}
