import { z } from 'zod';
import { Int } from '../core/contract';
import { RollSchema } from '../core/lifecycle-contract';
import { RuleEvent } from '../core/types';
import { CONDITIONS, EDGES, HARM_CATALOGUE, RESPONSES, SKILLS, VITALS, WOUND_PREFERENCES } from './data';

/**
 * The data of every event Narateer's `decide` emits beyond the lifecycle's, declared once: the types
 * below are inferred from these schemas, and a test checks every event of whole fights against them.
 */

const str = z.string();
const ExchangeKind = z.enum(['melee', 'ranged']);
const Skill = z.enum(SKILLS);
const Vital = z.enum(VITALS);
const Response = z.enum(RESPONSES);
const DieKind = z.enum(['AD', 'MD']);
const Condition = z.enum(Object.keys(CONDITIONS) as [string, ...string[]]);
/** N38: when Lingering Harm ticks. */
export const LINGERING_TICK = z.enum(['roundEnd', 'roundStart', 'activationStart', 'activationEnd']);

/** A square-grid Space (N13). */
const SPACE = z.strictObject({ x: Int, y: Int });
export type Space = z.infer<typeof SPACE>;

/** N12: a Harm classification, as folded. */
const HARM = z.strictObject({
  domain: z.enum(Object.keys(HARM_CATALOGUE) as [string, ...string[]]),
  type: str,
});

/** N2/N31: the named sources of each Edge on one roll. */
const EDGE_SOURCE = z.enum(['gm', 'unseenAttacker', 'cannotSeeTarget', 'beyondEffectiveRange', 'fullGuard']);
const EDGE_SOURCES = z.strictObject({ advantage: z.array(EDGE_SOURCE), disadvantage: z.array(EDGE_SOURCE) });
export type EdgeSources = z.infer<typeof EDGE_SOURCES>;

/** N3/N17: one kind of die, by state. */
const DICE_COUNTS = z.strictObject({ ready: Int, used: Int, wounded: Int });
export type DiceCounts = z.infer<typeof DICE_COUNTS>;

/** A weapon as validateSheet folds it: defaults filled in, reach 0 for ranged weapons. */
const FOLDED_WEAPON = z.strictObject({
  id: str,
  name: str,
  kind: ExchangeKind,
  weight: z.enum(['light', 'heavy']),
  baseAttackCost: Int,
  weaponDamage: Int,
  damageVitals: z.array(Vital),
  damageVitalCap: Int,
  reach: Int.describe('Melee reach in Spaces; 0 for a ranged weapon.'),
  effectiveRange: Int.optional(),
  maximumRange: Int.optional(),
  needsLoading: z.boolean(),
  loaded: z.boolean(),
  ammunition: Int.optional().describe('Shots left; absent: unlimited.'),
  harm: HARM,
});

/**
 * A sheet as validateSheet folds it (contract.ts has the sheet a client sends): what CombatantJoined
 * records and the fight state keeps.
 */
export const NARATEER_FOLDED_SHEET = z.strictObject({
  vitals: z.strictObject({ strength: Int, agility: Int, resilience: Int }),
  skills: z.strictObject({ melee: Int, ranged: Int, acrobatics: Int }),
  maxVitality: Int,
  maxAD: Int,
  maxMD: Int,
  weapons: z.array(FOLDED_WEAPON),
  soak: Int,
  woundPreference: z.enum(WOUND_PREFERENCES),
  responsePolicy: z
    .strictObject({
      response: Response,
      boost: Int,
      weaponId: str.optional(),
      fallback: z.enum(['fullGuard', 'none']),
    })
    .optional()
    .describe('RULINGS.md C4 / N23: how an NPC answers exchanges when no response is given.'),
});

const EXCHANGE_DECLARED = z.strictObject({
  exchangeId: str,
  attackerId: str,
  targetId: str,
  kind: ExchangeKind,
  skill: Skill,
  weaponId: str,
  boost: Int,
  dice: Int.describe('AD committed: Base Attack Cost + Boost.'),
  damageVital: Vital,
  harm: HARM,
  edge: EDGE_SOURCES,
  opportunity: z.literal(true).optional(),
  distance: Int.optional(),
  responderEdge: z.enum(EDGES).optional(),
  targetCannotSeeAttacker: z.literal(true).optional(),
  targetUnaware: z.literal(true).optional(),
  strikeModifier: Int.optional().describe('ruling N44: added to the attacker’s Strike Rating if it lands.'),
  protectionModifier: Int.optional().describe(
    'ruling N44: added to the target’s Protection Rating if it lands.',
  ),
  allocation: z
    .array(DieKind)
    .optional()
    .describe('ruling N28: the attacker’s wound allocation given in advance.'),
});

const EXCHANGE_RESPONDED = z.strictObject({
  exchangeId: str,
  combatantId: str,
  response: Response,
  boost: Int,
  dice: Int,
  skill: Skill.optional(),
  weaponId: str.optional(),
  damageVital: Vital.optional(),
  harm: HARM.optional(),
  edge: EDGE_SOURCES.optional(),
  forced: z
    .enum(['unaware', 'collapsed', 'withdrawn', 'incapacitated', 'noReadyAD'])
    .optional()
    .describe('N6: why the response was forced to none.'),
  source: z
    .enum(['declaration', 'policy'])
    .optional()
    .describe('N23: where the answer came from when not from RespondToExchange.'),
  strikeModifier: Int.optional().describe(
    'ruling N44: added to the responder’s Strike Rating if its Clash wins.',
  ),
  protectionModifier: Int.optional().describe(
    'ruling N44: added to the tempo-holder’s Protection Rating if the Clash wins.',
  ),
  allocation: z
    .array(DieKind)
    .optional()
    .describe('ruling N28: the responder’s wound allocation given in advance.'),
});

/** N2: the one die rerolled by Edge. */
const EDGE_REROLL = z.strictObject({
  index: Int,
  original: Int,
  roll: RollSchema,
  kept: z.enum(['original', 'reroll']),
});

const ROLLED_SIDE = z.strictObject({
  combatantId: str,
  skill: Skill,
  roll: RollSchema,
  edge: z.enum([...EDGES, 'none']),
  sources: EDGE_SOURCES,
  reroll: EDGE_REROLL.optional(),
  faces: z.array(Int).describe('Faces after Edge.'),
  total: Int,
});
export type RolledSide = z.infer<typeof ROLLED_SIDE>;

const OUTCOME = z.enum(['hit', 'counterHit', 'guarded', 'tie']);
export type ExchangeOutcome = z.infer<typeof OUTCOME>;

const EXCHANGE_RESOLVED = z.strictObject({
  exchangeId: str,
  attackerId: str,
  targetId: str,
  kind: ExchangeKind,
  attacker: ROLLED_SIDE,
  responder: ROLLED_SIDE.optional(),
  targetNumber: z.literal(0).optional().describe('No Response: the attacker rolls against target number 0.'),
  outcome: OUTCOME,
  winnerId: str.optional(),
  hitMargin: Int.optional(),
});

/** What a resolution deals before the dice are chosen. */
const WOUND_CALCULATION = z.strictObject({
  combatantId: str,
  wounds: Int,
  harm: HARM,
  exchangeId: str.optional(),
  sourceId: str.optional(),
  weaponId: str.optional(),
  damageVital: Vital.optional(),
  hitMargin: Int.optional(),
  strikeRating: Int.optional().describe(
    'Weapon Damage + min(Damage Vital, cap), + strikeModifier; never below 0.',
  ),
  strikeModifier: Int.optional().describe(
    'ruling N44: the situational modifier applied to the Strike Rating.',
  ),
  protectionRating: Int.optional().describe('Armour Soak, + protectionModifier; never below 0.'),
  protectionModifier: Int.optional().describe(
    'ruling N44: the situational modifier applied to the Protection Rating.',
  ),
  woundMargin: Int.optional(),
  lingeringHarmId: str.optional(),
  form: str.optional(),
  effect: str.optional(),
});

const WOUNDED_DIE = z.strictObject({ kind: DieKind, from: z.enum(['ready', 'used']) });
export type WoundedDie = z.infer<typeof WOUNDED_DIE>;

const CONTINUATION_TRIGGER = z.enum(['belowHalf', 'heavyWounds']);
export type ContinuationTrigger = z.infer<typeof CONTINUATION_TRIGGER>;

const OPPORTUNITY = { moverId: str, reactorId: str };

/** Every event type Narateer's decide emits beyond the lifecycle's → the schema of its data. */
export const NARATEER_EVENT_SCHEMAS = {
  ExchangeDeclared: EXCHANGE_DECLARED,
  ExchangeResponded: EXCHANGE_RESPONDED,
  ExchangeResolved: EXCHANGE_RESOLVED,
  WeaponFired: z.strictObject({
    combatantId: str,
    weaponId: str,
    exchangeId: str,
    loaded: z.boolean(),
    ammunition: Int.optional(),
  }),
  WoundAllocationRequested: WOUND_CALCULATION,
  WoundsApplied: WOUND_CALCULATION.extend({
    harmLabel: str,
    dice: z.array(WOUNDED_DIE),
    vitalityBefore: Int,
    vitality: Int,
    ad: DICE_COUNTS,
    md: DICE_COUNTS,
    state: z.enum(['Active', 'Collapsed', 'Withdrawn']),
    firstBelowHalf: z.literal(true).optional(),
  }),
  ContinuationChecked: z.strictObject({
    combatantId: str,
    triggers: z.array(CONTINUATION_TRIGGER),
    dice: Int,
    roll: RollSchema,
    dots: Int,
    passed: z.boolean(),
    state: z.enum(['Active', 'Withdrawn']),
  }),
  DiceRefreshed: z.strictObject({ combatantId: str, ad: DICE_COUNTS, md: DICE_COUNTS }),
  DiceSpent: z.strictObject({
    combatantId: str,
    ad: Int,
    md: Int,
    proactiveUse: ExchangeKind.optional(),
    reason: str.optional(),
  }),
  WeaponReloaded: z.strictObject({ combatantId: str, weaponId: str }),
  LingeringHarmApplied: z.strictObject({
    combatantId: str,
    lingeringHarmId: str,
    form: str,
    harm: HARM,
    wounds: Int,
    round: Int,
    source: str.optional(),
    tick: LINGERING_TICK.optional().describe('ruling N38: when it ticks; absent: at the end of each round.'),
    untilRound: Int.optional().describe('N38: it ends at the end of this round; absent: until treated.'),
    ticksLeft: Int.optional().describe('N38: it ends after this many more ticks; absent: no count.'),
    endsWhen: str
      .optional()
      .describe('N38: the source’s ending condition; the GM ends it with TreatLingeringHarm.'),
    allocation: z
      .array(DieKind)
      .optional()
      .describe('ruling N28: the wounded’s allocation in advance, for each tick.'),
    refreshed: z
      .literal(true)
      .optional()
      .describe('ruling N39: the same Form, source and classification again: this instance, refreshed.'),
  }),
  LingeringHarmTreated: z.strictObject({
    combatantId: str,
    lingeringHarmId: str,
    form: str,
    reason: str.optional(),
  }),
  LingeringHarmEnded: z.strictObject({
    combatantId: str,
    lingeringHarmId: str,
    form: str,
    reason: z.enum(['rounds', 'ticks']).describe('N38: its duration ran out, or its count of ticks.'),
  }),
  ConditionApplied: z.strictObject({
    combatantId: str,
    condition: Condition,
    intensity: Int.optional(),
    untilRound: Int.optional(),
  }),
  ConditionRemoved: z.strictObject({
    combatantId: str,
    condition: Condition,
    reason: z.literal('expired').optional(),
  }),
  PositionSet: z.strictObject({ combatantId: str, position: SPACE.nullable() }),
  Moved: z.strictObject({
    combatantId: str,
    path: z.array(SPACE),
    from: SPACE,
    to: SPACE,
    noReactions: z.literal(true).optional(),
    forced: z.literal(true).optional(),
    stoppedBefore: Int.optional().describe(
      'Steps of the requested path left untaken because an opportunity stopped the move (N24).',
    ),
  }),
  OpportunitiesIdentified: z.strictObject({
    moverId: str,
    step: z.strictObject({ from: SPACE, to: SPACE }),
    reactorIds: z.array(str),
  }),
  OpportunityOffered: z.strictObject(OPPORTUNITY),
  OpportunityDeclined: z.strictObject(OPPORTUNITY),
  OpportunityLapsed: z.strictObject({ ...OPPORTUNITY, reason: str }),
  OpportunitiesFinished: z.strictObject({ moverId: str }),
} satisfies Record<string, z.ZodType>;

type Schemas = typeof NARATEER_EVENT_SCHEMAS;
export type NarateerEventType = keyof Schemas;
export type NarateerEventData<T extends NarateerEventType> = z.infer<Schemas[T]>;
/** Every Narateer event, discriminated by type. */
export type NarateerEvent = {
  [K in NarateerEventType]: { type: K; data: NarateerEventData<K> };
}[NarateerEventType];

export type ExchangeDeclaredData = NarateerEventData<'ExchangeDeclared'>;
export type ExchangeRespondedData = NarateerEventData<'ExchangeResponded'>;
export type ExchangeResolvedData = NarateerEventData<'ExchangeResolved'>;
export type WeaponFiredData = NarateerEventData<'WeaponFired'>;
export type WoundCalculation = NarateerEventData<'WoundAllocationRequested'>;
export type WoundAllocationRequestedData = WoundCalculation;
export type WoundsAppliedData = NarateerEventData<'WoundsApplied'>;
export type DiceSpentData = NarateerEventData<'DiceSpent'>;
export type LingeringHarmAppliedData = NarateerEventData<'LingeringHarmApplied'>;
export type ConditionAppliedData = NarateerEventData<'ConditionApplied'>;
export type MovedData = NarateerEventData<'Moved'>;

/** Whether `event` is one of Narateer's own (not the lifecycle's). */
export function isNarateerEvent(event: RuleEvent): event is NarateerEvent {
  return Object.hasOwn(NARATEER_EVENT_SCHEMAS, event.type);
}

/** Builds a typed Narateer event. */
export function ev<T extends NarateerEventType>(type: T, data: NarateerEventData<T>): RuleEvent {
  return { type, data };
}
