import { z } from 'zod';
import { Id, Int } from '../core/contract';
import { RuleEvent } from '../core/types';
import { ACTIONS, BANDS, BINDER_COMMANDS, BYPASS_MOVEMENT, RANGES, STATS, TAGS } from './data';

/**
 * Every event Arcana Beast's `decide` emits beyond the lifecycle ones (declared in core), declared once: the
 * data of each, strictly. The TypeScript types below are inferred from these, so `decide` (through `ev`) and
 * `evolve` cannot drift from the declaration, and a unit test parses every event of whole fights against it.
 */

const Count = Int.min(0);
const Faces = z.array(Int);

/** C1: every die rolled, in the event that used it (dice/roll.ts Roll). */
const ROLL = z.strictObject({
  sides: Int.min(1),
  faces: Faces,
  draw: Count.optional().describe('Draw number (C5); absent for manual dice.'),
});

/** One named "+1 die" (or more) in a pool (A3, A12). */
const DICE_BONUS = z.strictObject({ source: z.string(), dice: Int });
export type DiceBonus = z.infer<typeof DICE_BONUS>;

/** A pool as rolled: one draw, the extra Boost/Setback die included (A3, A12, C1). */
export const ROLLED_POOL = z.strictObject({
  combatantId: Id,
  purpose: z.string(),
  stat: z.enum(STATS),
  statValue: Int,
  ranks: Int,
  bonuses: z.array(DICE_BONUS),
  dice: Count.describe('Pool size before Boost/Setback.'),
  sides: Int.min(1),
  edge: z.enum(['boost', 'setback', 'none']),
  boostSources: z.array(z.string()),
  setbackSources: z.array(z.string()),
  roll: ROLL,
  dropped: z.strictObject({ index: Count, face: Int }).optional(),
  kept: Faces,
  successes: Count,
  sixes: Count.describe('Kept dice showing 6 or more (A2).'),
});
export type RolledPool = z.infer<typeof ROLLED_POOL>;

export const TEST_RESULT = ROLLED_POOL.extend({ difficulty: Count, passed: z.boolean() });
export type TestResult = z.infer<typeof TEST_RESULT>;

/** An initiative roll (A5, A29, A31): InitiativeRolled's and InitiativeTieRerolled's `rolls`. */
export const ARCANA_INITIATIVE_ROLL = z.strictObject({
  combatantId: Id,
  roll: ROLL,
  total: Count,
  pool: ROLLED_POOL,
  surprised: z.literal(true).optional(),
  tieReroll: Int.min(1)
    .optional()
    .describe('Which reroll of a tie (option initiativeTies: reroll, or RerollInitiative).'),
});

const ATTACK_DECLARED = z.strictObject({
  attackNo: Int.min(1),
  attackerId: Id,
  targetId: Id,
  declaredTargetId: Id.optional().describe(
    'Who the attack was declared against, when Guard or Intercept changed the target.',
  ),
  redirectedBy: z.enum(['guard', 'intercept']).optional(),
  action: z.enum(['attack', 'specialAttack', 'zeroPower']),
  attackId: Id,
  attackName: z.string(),
  range: z.enum(RANGES),
  band: z.enum(BANDS),
  bonusDice: Count,
});
export type AttackDeclaredData = z.infer<typeof ATTACK_DECLARED>;

const STAGE = Int.min(0).max(4);

export const ARCANA_BEAST_EVENT_SCHEMAS = {
  InitiativeTieRerolled: z.strictObject({
    rolls: z.array(ARCANA_INITIATIVE_ROLL),
    order: z.array(Id),
    unresolvedTies: z.array(z.array(Id)),
  }),
  TurnStarted: z.strictObject({
    combatantId: Id,
    binderId: Id.optional(),
    actionForfeited: z.literal('intercept').optional(),
    defendEnded: z.literal(true).optional(),
    guardEnded: Id.optional(),
  }),
  ActionTaken: z.strictObject({
    combatantId: Id,
    action: z.enum(ACTIONS),
    targetId: Id.optional(),
    allyId: Id.optional(),
    note: z.string().optional(),
  }),
  BinderCommanded: z.strictObject({
    binderId: Id,
    beastId: Id,
    command: z.enum(BINDER_COMMANDS),
    test: TEST_RESULT.optional(),
    passed: z.boolean().optional(),
    effect: z.enum(['dodgeDie', 'removeCondition']).optional(),
    condition: z.string().optional(),
    mode: z.enum(['retreat', 'devolve']).optional(),
    itemId: Id.optional(),
    targetId: Id.optional(),
  }),
  AttackDeclared: ATTACK_DECLARED,
  InterceptDecided: z.strictObject({
    combatantId: Id,
    binderId: Id,
    intercept: z.boolean(),
    source: z.enum(['answer', 'declaration']),
  }),
  AttackResolved: ATTACK_DECLARED.extend({
    attack: ROLLED_POOL,
    dodge: ROLLED_POOL,
    outcome: z.enum(['hit', 'miss']),
    critical: z.boolean(),
    baseDamage: Count,
    extraSuccesses: Count,
    bonusDamage: Count,
    combo: z
      .strictObject({
        position: Int.min(1),
        dieBonus: Count,
        damageBonus: Count,
        hits: Count,
        side: z.string(),
        sideTurn: Count,
      })
      .describe(
        "ruling A20: place in the chain, its bonuses, the hit streak after this attack, the side's turn.",
      ),
    damage: Count,
  }),
  DamageDealt: z.strictObject({
    combatantId: Id,
    damage: Count,
    hpBefore: Count,
    hp: Count,
    attackNo: Int.min(1).optional(),
  }),
  KnockedOut: z.strictObject({ combatantId: Id, playerSide: z.boolean() }),
  CriticalGaugeRaised: z.strictObject({ combatantId: Id, from: Count, to: Count }),
  CriticalMoveTriggered: z.strictObject({
    threshold: Count,
    tier: z.enum(['minor', 'major', 'climactic']),
    meaning: z.string(),
    gauge: Count,
  }),
  HarmGained: z.strictObject({ combatantId: Id, harm: z.string() }),
  DevolutionTested: z.strictObject({
    combatantId: Id,
    stageBefore: STAGE,
    test: TEST_RESULT,
    stageAfter: STAGE,
    reason: z.enum(['knockedOut', 'callBack']),
  }),
  StageEvolved: z.strictObject({
    combatantId: Id,
    from: STAGE,
    to: STAGE,
    reason: z.literal('evolve'),
    highest: z
      .boolean()
      .describe('RULINGS.md A9: the highest unlocked Stage, which reverts at the end of the encounter.'),
    triggerActive: z.boolean(),
  }),
  StageDevolved: z.strictObject({
    combatantId: Id,
    from: STAGE,
    to: STAGE,
    reason: z.enum(['knockedOut', 'callBack', 'encounterEnded']),
  }),
  SpecialAttackUsed: z.strictObject({ combatantId: Id, specialAttackId: Id, usesLeft: Count }),
  ZeroPowerUsed: z.strictObject({ combatantId: Id, targetId: Id.optional(), trigger: z.string() }),
  TriggerSet: z.discriminatedUnion('kind', [
    z.strictObject({ combatantId: Id, kind: z.literal('stage'), stage: STAGE, active: z.boolean() }),
    z.strictObject({ combatantId: Id, kind: z.literal('zeroPower'), active: z.boolean() }),
  ]),
  TagSet: z.strictObject({ combatantId: Id, tag: z.enum(TAGS), againstId: Id.optional() }),
  TagCleared: z.strictObject({ combatantId: Id, tag: z.enum(TAGS) }),
  ConditionApplied: z.strictObject({ combatantId: Id, condition: z.string() }),
  ConditionRemoved: z.strictObject({ combatantId: Id, condition: z.string(), reason: z.string().optional() }),
  ComboReset: z.strictObject({ targetId: Id, reason: z.string() }),
  StaminaSpent: z.strictObject({ combatantId: Id, amount: Count, stamina: Count }),
  StaminaRestored: z.strictObject({ combatantId: Id, amount: Count, stamina: Count }),
  HpRestored: z.strictObject({ combatantId: Id, amount: Count, hpBefore: Count, hp: Count }),
  ItemUsed: z.strictObject({ binderId: Id, itemId: Id, quantityLeft: Count, targetId: Id }),
  BandSet: z.strictObject({
    aId: Id,
    bId: Id,
    band: z.enum(BANDS),
    difficultTerrain: Int.min(0)
      .max(10)
      .optional()
      .describe('ruling A19: the Difficulty; 0 clears it; absent: unchanged.'),
  }),
  Moved: z.strictObject({
    combatantId: Id,
    towardId: Id,
    from: z.enum(BANDS),
    to: z.enum(BANDS),
    by: z.enum(['free', 'reposition']),
    using: z.enum(BYPASS_MOVEMENT).optional(),
    test: TEST_RESULT.optional(),
    stopped: z.literal(true).optional(),
  }),
  Assisted: z.strictObject({ combatantId: Id, allyId: Id }),
  BonusDiceUsed: z.strictObject({
    combatantId: Id,
    source: z.enum(['Assist', 'Encourage']),
    dice: Int.min(1),
  }),
  CalledBack: z.strictObject({ binderId: Id, beastId: Id, mode: z.enum(['retreat', 'devolve']) }),
  TestRolled: z.strictObject({ combatantId: Id, reason: z.string().optional(), test: TEST_RESULT }),
  OpposedTestRolled: z.strictObject({
    a: ROLLED_POOL,
    b: ROLLED_POOL,
    winnerId: Id.nullable(),
    reason: z.string().optional(),
  }),
  SceneEnded: z.strictObject({ revived: z.array(Id) }),
} satisfies Record<string, z.ZodType>;

type Schemas = typeof ARCANA_BEAST_EVENT_SCHEMAS;
export type ArcanaEventType = keyof Schemas;
export type ArcanaEventData<T extends ArcanaEventType> = z.infer<Schemas[T]>;
/** Every Arcana Beast event, as a union discriminated by `type`. */
export type ArcanaEvent = { [K in ArcanaEventType]: { type: K; data: ArcanaEventData<K> } }[ArcanaEventType];

export type MovedData = ArcanaEventData<'Moved'>;

/** Whether an event is one of Arcana Beast's own (the rest are the lifecycle's). */
export function isArcanaEvent(event: RuleEvent): event is ArcanaEvent {
  return Object.hasOwn(ARCANA_BEAST_EVENT_SCHEMAS, event.type);
}

export function ev<T extends ArcanaEventType>(type: T, data: ArcanaEventData<T>): RuleEvent {
  return { type, data: stripUndefined(data) };
}

/** Events are JSON: an absent field is left out, never stored as undefined. */
function stripUndefined(data: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (v !== undefined) out[k] = v;
  return out;
}
