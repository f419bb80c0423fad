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
const ExchangeKind = z
  .enum(['melee', 'ranged'])
  .describe('A Melee or Ranged Exchange (narateer.txt: Melee Exchanges, Ranged Exchanges).');
const Skill = z.enum(SKILLS);
const Vital = z.enum(VITALS);
const Response = z
  .enum(RESPONSES)
  .describe('No Response (none), Full Guard or Clash (narateer.txt: Exchange Responses).');
const DieKind = z.enum(['AD', 'MD']).describe('A kind of die: AD or MD (RULINGS.md N3).');
const Condition = z
  .enum(Object.keys(CONDITIONS) as [string, ...string[]])
  .describe('A Close-Enough condition (narateer.txt: Conditions and Statuses; ruling N26).');
/** N38: when Lingering Harm ticks. */
export const LINGERING_TICK = z.enum(['roundEnd', 'roundStart', 'activationStart', 'activationEnd']);

/** A square-grid Space (N13). */
const SPACE = z
  .strictObject({
    x: Int.describe('The x coordinate, in Spaces.'),
    y: Int.describe('The y coordinate, in Spaces.'),
  })
  .describe('A square-grid Space (RULINGS.md N13).');
export type Space = z.infer<typeof SPACE>;

/** N12: a Harm classification, as folded. */
const HARM = z
  .strictObject({
    domain: z
      .enum(Object.keys(HARM_CATALOGUE) as [string, ...string[]])
      .describe('Harm Domain: Physical, Elemental, Affliction or Supernatural.'),
    type: str.describe('Harm Type, one of its Domain’s (narateer.txt: Harm Domains And Types).'),
  })
  .describe('A Harm classification from the catalogue (RULINGS.md N12).');

/** N2/N31: the named sources of each Edge on one roll. */
const EDGE_SOURCE = z
  .enum(['gm', 'unseenAttacker', 'cannotSeeTarget', 'beyondEffectiveRange', 'fullGuard'])
  .describe('A source of Edge on a roll (ruling N31).');
const EDGE_SOURCES = z
  .strictObject({
    advantage: z.array(EDGE_SOURCE).describe('Sources of Advantage: gm, unseenAttacker, fullGuard.'),
    disadvantage: z
      .array(EDGE_SOURCE)
      .describe('Sources of Disadvantage: gm, cannotSeeTarget, beyondEffectiveRange.'),
  })
  .describe('The named sources of each Edge on one roll; one of each cancels (RULINGS.md N2; ruling N31).');
export type EdgeSources = z.infer<typeof EDGE_SOURCES>;

/** N3/N17: one kind of die, by state. */
const DICE_COUNTS = z
  .strictObject({
    ready: Int.describe('Ready dice, free to commit.'),
    used: Int.describe('Used dice: committed; Ready again at the start of the own activation.'),
    wounded: Int.describe('Wounded dice: taken by Wounds; they never refresh.'),
  })
  .describe('One kind of die (AD or MD) by state (RULINGS.md N3, N17).');
export type DiceCounts = z.infer<typeof DICE_COUNTS>;

/** A weapon as validateSheet folds it: defaults filled in, reach 0 for ranged weapons. */
const FOLDED_WEAPON = z.strictObject({
  id: str,
  name: str,
  kind: ExchangeKind.describe('Melee or ranged.'),
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
  exchangeId: str.describe('The exchange’s id: x1, x2, … in declaration order.'),
  attackerId: str.describe('The initiator: the tempo-holder, or the reactor of an Opportunity Attack.'),
  targetId: str.describe('The combatant attacked, who responds (ruling N48).'),
  kind: ExchangeKind,
  skill: Skill.describe('The attacking Skill: melee or ranged, as the kind.'),
  weaponId: str.describe('The attacker’s weapon.'),
  boost: Int.describe(
    'Boost AD beyond the Base Attack Cost, at most the Skill Level (narateer.txt: Skill Level In Combat).',
  ),
  dice: Int.describe('AD committed: Base Attack Cost + Boost.'),
  damageVital: Vital.describe('The attacker’s Damage Vital if it lands (RULINGS.md N21).'),
  harm: HARM.describe('The attack’s harm: the GM’s, else the weapon’s (RULINGS.md N12).'),
  edge: EDGE_SOURCES.describe('Edge sources on the attack roll (ruling N31).'),
  opportunity: z
    .literal(true)
    .optional()
    .describe(
      'An Opportunity Attack: no proactive use counted (RULINGS.md N5; ruling N24); absent otherwise.',
    ),
  distance: Int.optional().describe(
    'The distance to the target in Spaces, from the map or the GM (ruling N25); absent when neither gives it.',
  ),
  responderEdge: z.enum(EDGES).optional().describe('GM: an Edge on the response roll (ruling N31).'),
  targetCannotSeeAttacker: z
    .literal(true)
    .optional()
    .describe('GM: the target cannot see the attacker (its Clash at Disadvantage); absent otherwise.'),
  targetUnaware: z
    .literal(true)
    .optional()
    .describe('GM: the target is unaware (its response forced to none, RULINGS.md N6); absent otherwise.'),
  strikeModifier: Int.optional().describe('Added to the attacker’s Strike Rating if it lands (ruling N44).'),
  protectionModifier: Int.optional().describe(
    'Added to the target’s Protection Rating if it lands (ruling N44).',
  ),
  allocation: z
    .array(DieKind)
    .optional()
    .describe('The attacker’s wound allocation given in advance, for a counter-hit (ruling N28).'),
});

const EXCHANGE_RESPONDED = z.strictObject({
  exchangeId: str.describe('The exchange answered.'),
  combatantId: str.describe('The responder: the exchange’s target.'),
  response: Response,
  boost: Int.describe('Boost AD beyond the response’s Base Cost; 0 for none.'),
  dice: Int.describe(
    'AD committed: Base Cost (Full Guard 1, Clash its weapon’s Base Attack Cost) + Boost; 0 for none.',
  ),
  skill: Skill.optional().describe(
    'The Skill rolled: Clash as the kind; Full Guard melee (melee) or acrobatics (ranged); absent for none.',
  ),
  weaponId: str.optional().describe('Clash: the responder’s weapon (ruling N35, N37).'),
  damageVital: Vital.optional().describe('Clash: the responder’s Damage Vital if it wins (RULINGS.md N21).'),
  harm: HARM.optional().describe('Clash: its harm: the GM’s, else the weapon’s (RULINGS.md N12).'),
  edge: EDGE_SOURCES.optional().describe('Edge sources on the response roll (ruling N31); absent for none.'),
  forced: z
    .enum(['unaware', 'collapsed', 'withdrawn', 'incapacitated', 'noReadyAD'])
    .optional()
    .describe('N6: why the response was forced to none.'),
  source: z
    .enum(['declaration', 'policy'])
    .optional()
    .describe('N23: where the answer came from when not from RespondToExchange.'),
  strikeModifier: Int.optional().describe(
    'Added to the responder’s Strike Rating if its Clash wins (ruling N44).',
  ),
  protectionModifier: Int.optional().describe(
    'Added to the tempo-holder’s Protection Rating if the Clash wins (ruling N44).',
  ),
  allocation: z
    .array(DieKind)
    .optional()
    .describe('The responder’s wound allocation given in advance (ruling N28).'),
});

/** N2: the one die rerolled by Edge. */
const EDGE_REROLL = z
  .strictObject({
    index: Int.describe(
      'Position in faces of the die rerolled: the lowest face (Advantage) or highest (Disadvantage), the first of equals.',
    ),
    original: Int.describe('Its face before the reroll.'),
    roll: RollSchema.describe('The reroll: one die.'),
    kept: z
      .enum(['original', 'reroll'])
      .describe(
        'The reroll when it has more dots (Advantage) or fewer (Disadvantage); equal dots keep the original.',
      ),
  })
  .describe('The one die rerolled by Edge (RULINGS.md N2).');

const ROLLED_SIDE = z
  .strictObject({
    combatantId: str.describe('Who rolled.'),
    skill: Skill.describe('The Skill rolled.'),
    roll: RollSchema.describe('The committed AD as rolled, before Edge: one draw (RULINGS.md C5).'),
    edge: z
      .enum([...EDGES, 'none'])
      .describe('The net Edge: none when neither or both apply (RULINGS.md N2).'),
    sources: EDGE_SOURCES,
    reroll: EDGE_REROLL.optional().describe('The Edge reroll; absent without net Edge.'),
    faces: z.array(Int).describe('Faces after Edge.'),
    total: Int.describe('Dots on the faces after Edge: 1–2 show 0, 3–5 one, 6 two (RULINGS.md N1).'),
  })
  .describe('One side’s pool roll (narateer.txt: Combat Exchange Flow, steps 7–8).');
export type RolledSide = z.infer<typeof ROLLED_SIDE>;

const OUTCOME = z
  .enum(['hit', 'counterHit', 'guarded', 'tie'])
  .describe(
    'The attack wins (hit), a Clash wins (counterHit), Full Guard equals or beats it (guarded), or a tie: no clean hit (RULINGS.md N7; ruling N30).',
  );
export type ExchangeOutcome = z.infer<typeof OUTCOME>;

const EXCHANGE_RESOLVED = z.strictObject({
  exchangeId: str.describe('The exchange resolved.'),
  attackerId: str.describe('The initiator.'),
  targetId: str.describe('The target, who responded.'),
  kind: ExchangeKind,
  attacker: ROLLED_SIDE.describe('The attacker’s roll.'),
  responder: ROLLED_SIDE.optional().describe('The responder’s roll; absent for No Response.'),
  targetNumber: z.literal(0).optional().describe('No Response: the attacker rolls against target number 0.'),
  outcome: OUTCOME,
  winnerId: str.optional().describe('The winner (the responder when guarded); absent on a tie.'),
  hitMargin: Int.optional().describe(
    'Winner’s total − loser’s (narateer.txt: Hit Margin); absent when guarded or tied.',
  ),
});

/** What a resolution deals before the dice are chosen. */
const WOUND_CALCULATION = z.strictObject({
  combatantId: str.describe('The wounded combatant.'),
  wounds: Int.describe(
    'Wounds dealt: the Wound Conversion of the Wound Margin (RULINGS.md N8), or as ApplyWounds or a Lingering Harm tick gives them.',
  ),
  harm: HARM,
  exchangeId: str.optional().describe('The exchange that hit; absent for other harm.'),
  sourceId: str.optional().describe('The exchange’s winner, who dealt the hit.'),
  weaponId: str.optional().describe('The winner’s weapon.'),
  damageVital: Vital.optional().describe('The winner’s Damage Vital (RULINGS.md N21).'),
  hitMargin: Int.optional().describe('The exchange’s Hit Margin (narateer.txt: Hit Margin).'),
  strikeRating: Int.optional().describe(
    'Weapon Damage + min(Damage Vital, cap), + strikeModifier; never below 0.',
  ),
  strikeModifier: Int.optional().describe(
    'The situational modifier applied to the Strike Rating (ruling N44).',
  ),
  protectionRating: Int.optional().describe('Armour Soak, + protectionModifier; never below 0.'),
  protectionModifier: Int.optional().describe(
    'The situational modifier applied to the Protection Rating (ruling N44).',
  ),
  woundMargin: Int.optional().describe(
    'Hit Margin + Strike Rating − Protection Rating, or as ApplyWounds gives it (narateer.txt: Wound Margin).',
  ),
  lingeringHarmId: str.optional().describe('The Lingering Harm instance that ticked; absent otherwise.'),
  form: str.optional().describe('The ticking Lingering Harm’s Form.'),
  effect: str.optional().describe('ApplyWounds: the spell or effect, as the GM named it.'),
});

const WOUNDED_DIE = z
  .strictObject({
    kind: DieKind.describe(
      'AD or MD: as allocated, the other when none of it is left (RULINGS.md N9; ruling N28).',
    ),
    from: z
      .enum(['ready', 'used'])
      .describe('The state it left: ready first, used once no Ready die is left.'),
  })
  .describe('One die a Wound moved to Wounded (narateer.txt: Applying Wounds).');
export type WoundedDie = z.infer<typeof WOUNDED_DIE>;

const CONTINUATION_TRIGGER = z
  .enum(['belowHalf', 'heavyWounds'])
  .describe('What calls for a Continuation Check (RULINGS.md N18).');
export type ContinuationTrigger = z.infer<typeof CONTINUATION_TRIGGER>;

const OPPORTUNITY = {
  moverId: str.describe('The mover.'),
  reactorId: str.describe('The reactor whose Opportunity Attack it is (ruling N24).'),
};

/** Every event type Narateer's decide emits beyond the lifecycle's → the schema of its data. */
export const NARATEER_EVENT_SCHEMAS = {
  ExchangeDeclared: EXCHANGE_DECLARED,
  ExchangeResponded: EXCHANGE_RESPONDED,
  ExchangeResolved: EXCHANGE_RESOLVED,
  WeaponFired: z.strictObject({
    combatantId: str.describe('Who fired.'),
    weaponId: str.describe('The ranged weapon fired.'),
    exchangeId: str.describe('The exchange it fired in.'),
    loaded: z.boolean().describe('Loaded after firing: false for a weapon that needs Loading (ruling N27).'),
    ammunition: Int.optional().describe('Shots left after firing; absent: unlimited.'),
  }),
  WoundAllocationRequested: WOUND_CALCULATION,
  WoundsApplied: WOUND_CALCULATION.extend({
    harmLabel: str.describe('"<Domain> (<Type>)", to show.'),
    dice: z
      .array(WOUNDED_DIE)
      .describe(
        'The dice the Wounds took, one per Wound while any is left, Ready before Used (RULINGS.md N9).',
      ),
    vitalityBefore: Int.describe('Vitality before the Wounds.'),
    vitality: Int.describe('Vitality after: 1 less per Wound, even with no die left; it can go below 0.'),
    ad: DICE_COUNTS.describe('The wounded’s AD after the Wounds.'),
    md: DICE_COUNTS.describe('The wounded’s MD after the Wounds.'),
    state: z
      .enum(['Active', 'Collapsed', 'Withdrawn'])
      .describe('After the Wounds: Collapsed at 0 Vitality or below, else as before (RULINGS.md N10).'),
    firstBelowHalf: z
      .literal(true)
      .optional()
      .describe(
        'Vitality fell below half its maximum for the first time (RULINGS.md N18); absent otherwise.',
      ),
  }),
  ContinuationChecked: z.strictObject({
    combatantId: str.describe('Who checks.'),
    triggers: z
      .array(CONTINUATION_TRIGGER)
      .describe(
        'What called for it: belowHalf (below half Max Vitality for the first time) or heavyWounds (more Wounds than half Max Vitality in one resolution) (RULINGS.md N18).',
      ),
    dice: Int.describe('Dice rolled: its Resilience, as a Side Roll (RULINGS.md N15; ruling N50).'),
    roll: RollSchema.describe('The Side Roll; no faces for 0 dice.'),
    dots: Int.describe('Dots rolled (RULINGS.md N1).'),
    passed: z.boolean().describe('1 or more dots (narateer.txt: Continuation Checks).'),
    state: z.enum(['Active', 'Withdrawn']).describe('Active if passed, else Withdrawn (RULINGS.md N10).'),
  }),
  DiceRefreshed: z.strictObject({
    combatantId: str.describe('Whose activation starts; its proactive uses reset too (RULINGS.md N5).'),
    ad: DICE_COUNTS.describe('AD after: Used become Ready, Wounded stay (RULINGS.md N3).'),
    md: DICE_COUNTS.describe('MD after: Used become Ready, Wounded stay (RULINGS.md N3).'),
  }),
  DiceSpent: z.strictObject({
    combatantId: str.describe('Who commits the dice.'),
    ad: Int.describe('Ready AD committed (moved to Used).'),
    md: Int.describe('Ready MD committed (moved to Used).'),
    proactiveUse: ExchangeKind.optional().describe(
      'The Skill whose proactive use it counts (ruling N33); absent: none.',
    ),
    reason: str.optional().describe('What the dice are for, as given.'),
  }),
  WeaponReloaded: z.strictObject({
    combatantId: str.describe('Who reloads.'),
    weaponId: str.describe('The weapon, now loaded (ruling N27).'),
  }),
  LingeringHarmApplied: z.strictObject({
    combatantId: str.describe('The afflicted combatant.'),
    lingeringHarmId: str.describe('The instance’s id: lh1, lh2, …; a refresh keeps it.'),
    form: str.describe(
      'Its Form: a default Form as the table spells it (Bleeding, Burning, …), or as given.',
    ),
    harm: HARM.describe('Its classification: as given, else the Form’s default (RULINGS.md N11).'),
    wounds: Int.describe('Wounds per tick; a refresh keeps the greater (ruling N39).'),
    round: Int.describe(
      'The round it was applied or refreshed in (a refreshed instance keeps its first round, N39).',
    ),
    source: str.optional().describe('What causes it; absent: each application is its own instance (N39).'),
    tick: LINGERING_TICK.optional().describe('When it ticks (ruling N38); absent: at the end of each round.'),
    untilRound: Int.optional().describe('N38: it ends at the end of this round; absent: until treated.'),
    ticksLeft: Int.optional().describe('N38: it ends after this many more ticks; absent: no count.'),
    endsWhen: str
      .optional()
      .describe('N38: the source’s ending condition; the GM ends it with TreatLingeringHarm.'),
    allocation: z
      .array(DieKind)
      .optional()
      .describe('The wounded’s allocation in advance, for each tick (ruling N28).'),
    refreshed: z
      .literal(true)
      .optional()
      .describe('The same Form, source and classification again: this instance, refreshed (ruling N39).'),
  }),
  LingeringHarmTreated: z.strictObject({
    combatantId: str.describe('The afflicted combatant.'),
    lingeringHarmId: str.describe('The instance treated.'),
    form: str.describe('Its Form.'),
    reason: str.optional().describe('Why it ends, as given (ruling N38).'),
  }),
  LingeringHarmEnded: z.strictObject({
    combatantId: str.describe('The afflicted combatant.'),
    lingeringHarmId: str.describe('The instance that ran out.'),
    form: str.describe('Its Form.'),
    reason: z.enum(['rounds', 'ticks']).describe('N38: its duration ran out, or its count of ticks.'),
  }),
  ConditionApplied: z.strictObject({
    combatantId: str.describe('The combatant affected.'),
    condition: Condition,
    intensity: Int.optional().describe('Its intensity, the worst given (ruling N26); absent: none.'),
    untilRound: Int.optional().describe(
      'It ends at the end of this round, the longest given (ruling N26); absent: until removed.',
    ),
  }),
  ConditionRemoved: z.strictObject({
    combatantId: str.describe('The combatant affected.'),
    condition: Condition,
    reason: z
      .literal('expired')
      .optional()
      .describe('Expired: its rounds ran out; absent: the GM removed it.'),
  }),
  PositionSet: z.strictObject({
    combatantId: str.describe('The combatant placed.'),
    position: SPACE.nullable().describe('Its Space; null: off the map (RULINGS.md N13).'),
  }),
  Moved: z.strictObject({
    combatantId: str.describe('The mover.'),
    path: z.array(SPACE).describe('The Spaces entered, in order: the steps taken.'),
    from: SPACE.describe('The Space the move started from.'),
    to: SPACE.describe('The Space it ended on.'),
    noReactions: z
      .literal(true)
      .optional()
      .describe('GM: a movement a rule exempts from Reactions (ruling N24); absent otherwise.'),
    forced: z
      .literal(true)
      .optional()
      .describe('GM: movement by another effect, outside the own activation (ruling N24); absent otherwise.'),
    stoppedBefore: Int.optional().describe(
      'Steps of the requested path left untaken because an opportunity stopped the move (N24).',
    ),
  }),
  OpportunitiesIdentified: z.strictObject({
    moverId: str.describe('The mover.'),
    step: z
      .strictObject({
        from: SPACE.describe('The Space the step left.'),
        to: SPACE.describe('The Space the step entered.'),
      })
      .describe('The move step that opened the opportunities (ruling N24).'),
    reactorIds: z
      .array(str)
      .describe('The opponents who can react, in initiative order, to be offered one at a time (N24).'),
  }),
  OpportunityOffered: z.strictObject(OPPORTUNITY),
  OpportunityDeclined: z.strictObject(OPPORTUNITY),
  OpportunityLapsed: z.strictObject({
    ...OPPORTUNITY,
    reason: str.describe('Why it lapsed: the reactor can no longer perceive, reach or pay for an attack.'),
  }),
  OpportunitiesFinished: z.strictObject({
    moverId: str.describe('The mover, free to move on (ruling N24).'),
  }),
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
