import { z } from 'zod';
import { command, CommandSchemas, Id, Int, NOT_OBJECT_BUILT_IN, text } from '../core/contract';
import { coreViewShape, lifecycleCommands, lifecycleEvents, PendingKinds } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';
import { LINGERING_TICK, NARATEER_EVENT_SCHEMAS, NARATEER_FOLDED_SHEET } from './events';
import {
  CONDITIONS,
  EDGES,
  HARM_CATALOGUE,
  LINGERING_HARM_WOUNDS_PER_TICK,
  RESPONSES,
  SKILLS,
  VITALS,
  WOUND_PREFERENCES,
} from './data';

/**
 * Narateer's contract: the sheet and every command, declared once. The schemas check what JSON can say
 * (fields, types, ranges, names from the rules' lists); the rule checks that need the fight (a combatant
 * exists, the AD are Ready, a weapon reaches…) stay in `decide`.
 */

/** Names every JavaScript object has (toString, constructor, __proto__…): never a key of a table or map. */
export function isObjectBuiltin(name: string): boolean {
  return name in Object.prototype;
}

/** A weapon id on a sheet: an id, and never a name every object has (weapons are kept by id in the fight state). */
const WeaponId = Id.refine((id) => !isObjectBuiltin(id), {
  error: 'must not be a name every JavaScript object has (toString, constructor, __proto__…)',
}).meta(NOT_OBJECT_BUILT_IN);

export const VitalSchema = z.enum(VITALS);
export const ResponseSchema = z
  .enum(RESPONSES)
  .describe('No Response (none), Full Guard or Clash (narateer.txt: Exchange Responses).');
/** narateer.txt: the "Close-Enough" Conditions Picker (own keys only). */
const Condition = z
  .enum(Object.keys(CONDITIONS) as [string, ...string[]])
  .describe('A Close-Enough condition (narateer.txt: Conditions and Statuses; ruling N26).');

const HARM_TEXT = /^\s*(\w+)\s*\(\s*(\w+)\s*\)\s*$/;
const HARM_FORM = 'must read "Domain (Type)", e.g. "Physical (Slashing)", or be { domain, type }';
const HARM_DOMAINS = Object.keys(HARM_CATALOGUE) as [string, ...string[]];
const HARM_TYPES = [...new Set(Object.values(HARM_CATALOGUE).flat())] as [string, ...string[]];

/**
 * N12: a Harm classification from the catalogue, as "Domain (Type)" or { domain, type }; parsed
 * to { domain, type }. Catalogue names are looked up as own keys only, so `toString (Slashing)` is refused.
 */
export const HarmSchema = z
  .union([
    z.strictObject(
      { domain: z.enum(HARM_DOMAINS), type: z.enum(HARM_TYPES) },
      { error: (i) => (i.code === 'invalid_type' ? HARM_FORM : undefined) },
    ),
    z
      .string({ error: HARM_FORM })
      .max(100)
      .regex(HARM_TEXT, { error: 'must read "Domain (Type)", e.g. "Physical (Slashing)"' }),
  ])
  .transform((raw, ctx) => {
    const [domain, type] =
      typeof raw === 'string' ? HARM_TEXT.exec(raw)!.slice(1, 3) : [raw.domain, raw.type];
    if (!Object.hasOwn(HARM_CATALOGUE, domain)) {
      ctx.addIssue({ code: 'custom', input: raw, message: `must be one of ${HARM_DOMAINS.join(', ')}` });
      return z.NEVER;
    }
    if (!HARM_CATALOGUE[domain].includes(type)) {
      ctx.addIssue({
        code: 'custom',
        input: raw,
        message: `must be one of ${HARM_CATALOGUE[domain].join(', ')}: the Types of ${domain}`,
      });
      return z.NEVER;
    }
    return { domain, type };
  })
  .describe(
    'RULINGS.md N12: "Domain (Type)", e.g. "Physical (Slashing)", or { domain, type } from the Harm catalogue.',
  );

/** The fields every weapon has, whatever its kind. */
const WEAPON_FIELDS = {
  id: WeaponId.describe('Unique on the sheet.'),
  name: text(100),
  weight: z.enum(['light', 'heavy']).default('light').describe('Default light.'),
  baseAttackCost: Int.min(1).max(10),
  weaponDamage: Int.min(0).max(20),
  damageVitals: z
    .array(VitalSchema)
    .min(1, { error: 'must name at least one Vital' })
    .max(3)
    .optional()
    .describe(
      'The Vitals it deals damage with; default Strength or Agility (light), Strength (heavy), Agility (ranged) (ruling N21, N36).',
    ),
  damageVitalCap: Int.min(0).max(20),
  needsLoading: z
    .boolean()
    .default(false)
    .describe('Default false. True only on a ranged weapon (ruling N64: a melee weapon needs no Loading).'),
  loaded: z.boolean().default(true).describe('Default true.'),
  ammunition: Int.min(0)
    .max(1000)
    .nullable()
    .optional()
    .describe(
      'Shots left; absent or null: unlimited. A ranged weapon’s only (ruling N64: a melee weapon fires nothing).',
    ),
  harm: HarmSchema,
};

const MeleeWeapon = z.strictObject({
  kind: z.literal('melee').default('melee').describe('Melee (the default) or ranged.'),
  ...WEAPON_FIELDS,
  reach: Int.min(1).max(10).default(1).describe('Melee reach in Spaces; default 1.'),
});

const RangedWeapon = z.strictObject({
  kind: z.literal('ranged'),
  ...WEAPON_FIELDS,
  effectiveRange: Int.min(1).max(1000).describe('In Spaces; beyond it, Disadvantage (ruling N31).'),
  maximumRange: Int.min(1).max(1000).describe('In Spaces, at least effectiveRange.'),
});

/** A weapon: melee (reach) or ranged (Effective and Maximum Range); a field of the other kind is refused. */
export const WeaponSchema = z.discriminatedUnion('kind', [MeleeWeapon, RangedWeapon], {
  error: (i) => (i.code === 'invalid_union' ? 'must be one of melee, ranged' : undefined),
});

const skillLevel = Int.min(0).max(10).default(0).describe('Skill Level; default 0.');

/** What each Vital is rolled or dealt for, as the rules here use it. */
const VITAL_USES: Record<(typeof VITALS)[number], string> = {
  strength: 'Strength: a Damage Vital (ruling N21, N36).',
  agility: 'Agility: a Damage Vital (ruling N21, N36); the dice and tie-break of initiative (RULINGS.md N4).',
  resilience: 'Resilience: the dice of a Continuation Check (RULINGS.md N18).',
};

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts parses it, then applies the rules). */
export const NARATEER_SHEET = z
  .strictObject({
    vitals: z
      .strictObject(
        Object.fromEntries(VITALS.map((v) => [v, Int.min(0).max(20).describe(VITAL_USES[v])])) as Record<
          (typeof VITALS)[number],
          typeof Int
        >,
      )
      .describe('The Vitals (narateer.txt: Core Combat Attributes).'),
    skills: z
      .strictObject(
        Object.fromEntries(SKILLS.map((k) => [k, skillLevel])) as Record<
          (typeof SKILLS)[number],
          typeof skillLevel
        >,
      )
      .describe(
        'Skill Levels: each caps Boost and sets proactive uses (narateer.txt: Skill Level In Combat).',
      ),
    maxVitality: Int.min(1).max(100).describe('Maximum Vitality; the combatant joins with it.'),
    maxAD: Int.min(0).max(30).describe('Action Dice (AD): all Ready when it joins (RULINGS.md N3).'),
    maxMD: Int.min(0).max(30).default(0).describe('Default 0; maxAD and maxMD cannot both be 0.'),
    weapons: z.array(WeaponSchema).max(20).default([]).describe('Default none.'),
    armour: z
      .strictObject({ soak: Int.min(0).max(20).default(0).describe('Protection Rating; default 0.') })
      .optional()
      .describe('Its armour (narateer.txt: Protection Rating); default none.'),
    woundPreference: z
      .enum(WOUND_PREFERENCES)
      .default('AD_FIRST')
      .describe('RULINGS.md N9; default AD_FIRST.'),
    responsePolicy: z
      .strictObject({
        response: ResponseSchema,
        boost: Int.min(0).max(10).default(0).describe('Default 0; capped to what is legal (ruling N23).'),
        weaponId: Id.optional().describe(
          'A weapon on this sheet to Clash with; default the first legal one.',
        ),
        fallback: z
          .enum(['fullGuard', 'none'])
          .default('fullGuard')
          .describe('When the response is not legal; default fullGuard.'),
      })
      .optional()
      .describe('How the combatant answers exchanges when no response is given (ruling N23).'),
  })
  .describe('A combatant’s Narateer sheet, as sent; armour.soak is kept as soak.');

export type NarateerSheetInput = z.output<typeof NARATEER_SHEET>;

/** The fight options this system reads. */
export const NARATEER_OPTIONS = z.strictObject({});

const Edge = z.enum(EDGES);
const ExchangeKind = z.enum(['melee', 'ranged']).describe('A Melee or Ranged Exchange.');
const Boost = Int.min(0).max(30).default(0).describe('Boost AD beyond the Base Cost; default 0.');
const flag = (what: string) => z.boolean().default(false).describe(`${what}; default false.`);

/** N9, N28: AD or MD for each Wound that takes a die, in order. */
const Allocation = z
  .array(z.enum(['AD', 'MD']).describe('A kind of die: AD or MD (RULINGS.md N3).'))
  .max(200)
  .describe('AD or MD for each Wound that takes a die, in order (RULINGS.md N9; ruling N28).');

/** N13: a square-grid Space. */
export const SpaceSchema = z
  .strictObject({
    x: Int.min(-10000).max(10000).describe('The x coordinate, in Spaces.'),
    y: Int.min(-10000).max(10000).describe('The y coordinate, in Spaces.'),
  })
  .describe('A square-grid Space (RULINGS.md N13).');

/** N44: a situational modifier to one hit's Strike Rating or Protection Rating (a Power, cover, a shield's trait). */
const RatingModifier = (what: string) =>
  Int.min(-20)
    .max(20)
    .optional()
    .describe(`GM: ${what} (ruling N44); a result below 0 counts as 0; default none.`);

/** What a response says: RespondToExchange's fields, or a response given up front (N23). */
const RESPONSE_FIELDS = {
  response: ResponseSchema,
  boost: Boost,
  weaponId: Id.optional().describe(
    'Clash: the weapon; default the first legal one of the exchange’s kind (ruling N35, N37).',
  ),
  damageVital: VitalSchema.optional().describe(
    'Clash: the Damage Vital; default the highest after the cap (RULINGS.md N21).',
  ),
  harm: HarmSchema.optional().describe('GM: the Clash’s harm instead of the weapon’s (RULINGS.md N12).'),
  strikeModifier: RatingModifier('Clash: added to the responder’s Strike Rating when its Clash wins'),
  protectionModifier: RatingModifier(
    'Clash: added to the tempo-holder’s Protection Rating when the responder’s Clash wins',
  ),
  allocation: Allocation.optional().describe('The responder’s wound allocation in advance (ruling N28).'),
};

const RESPONSE_FORM =
  'must be one of none, fullGuard, clash, or { response, boost?, weaponId?, damageVital?, harm?, strikeModifier?, protectionModifier?, allocation? }';

/** A response given up front: an object, or a bare response that means no Boost. Parsed to the object. */
const AdvanceResponse = z
  .union([
    z.strictObject(RESPONSE_FIELDS, {
      error: (i) => (i.code === 'invalid_type' ? RESPONSE_FORM : undefined),
    }),
    z.enum(RESPONSES, { error: RESPONSE_FORM }),
  ])
  .transform((r) => (typeof r === 'string' ? { response: r, boost: 0 } : r));

/** Situational inputs of an attack (narateer.txt: Combat Modifiers, Hidden and Unseen Creatures). */
const ATTACK_FIELDS = {
  weaponId: Id.describe('The attacker’s weapon, of the exchange’s kind.'),
  boost: Boost,
  damageVital: VitalSchema.optional().describe('Default the highest after the cap (RULINGS.md N21).'),
  edge: Edge.optional().describe('GM: an Edge on the attack roll (ruling N31).'),
  responderEdge: Edge.optional().describe('GM: an Edge on the response roll (ruling N31).'),
  distance: Int.min(0)
    .max(1000)
    .optional()
    .describe('GM: the distance in Spaces when the combatants are not on the map (ruling N25).'),
  attackerUnseen: flag(
    'GM: the first attack while unseen by the target for a reason the engine does not see, e.g. Hide (Advantage); an Invisible attacker or a Blinded target needs no flag (ruling N41)',
  ),
  attackerCannotSeeTarget: flag('GM: the attacker cannot see the target (Disadvantage)'),
  targetCannotSeeAttacker: flag('GM: the target cannot see the attacker (its Clash at Disadvantage)'),
  targetUnaware: flag('GM: the target is unaware (No Response)'),
  harm: HarmSchema.optional().describe('GM: the attack’s harm instead of the weapon’s (RULINGS.md N12).'),
  strikeModifier: RatingModifier('added to the attacker’s Strike Rating when its attack lands'),
  protectionModifier: RatingModifier('added to the target’s Protection Rating when the attack lands'),
  response: AdvanceResponse.optional().describe('The response given up front (ruling N23).'),
  allocation: Allocation.optional().describe(
    'The attacker’s wound allocation in advance, for a counter-hit (ruling N28).',
  ),
};

/** The attack of DeclareExchange and TakeOpportunityAttack, as parsed. */
export type AttackInput = z.output<z.ZodObject<typeof ATTACK_FIELDS>>;
/** A response, as parsed: RespondToExchange's, or one given up front. */
export type ResponseInput = z.output<typeof AdvanceResponse>;

const combatantId = Id.describe('The combatant who acts, or whom the GM’s command affects.');

/** Every narateer command beyond the lifecycle, declared once. */
export const NARATEER_COMMAND_SCHEMAS = {
  DeclareExchange: command(
    'DeclareExchange',
    'The tempo-holder declares a Melee or Ranged Exchange: attackerId, targetId, kind, weaponId, boost, damageVital?, response?, edge?, responderEdge?, distance?, attackerUnseen?, attackerCannotSeeTarget?, targetCannotSeeAttacker?, targetUnaware?, harm?, strikeModifier?, protectionModifier?, allocation?.',
    {
      attackerId: Id.describe(
        'The tempo-holder: the combatant whose activation it is (narateer.txt: Tempo).',
      ),
      targetId: Id.describe('Any other combatant (ruling N48).'),
      kind: ExchangeKind,
      ...ATTACK_FIELDS,
    },
  ),
  RespondToExchange: command(
    'RespondToExchange',
    'The responder answers the pending exchange: combatantId, response (none | fullGuard | clash), boost, weaponId?, damageVital?, harm?, strikeModifier?, protectionModifier?, allocation?.',
    {
      combatantId,
      ...RESPONSE_FIELDS,
    },
  ),
  AllocateWounds: command(
    'AllocateWounds',
    'The wounded combatant chooses AD or MD for each Wound that takes a die: combatantId, allocation.',
    {
      combatantId,
      allocation: Allocation,
    },
  ),
  ApplyWounds: command(
    'ApplyWounds',
    'GM: a spell or effect deals Wounds (or a Wound Margin) as one resolution: combatantId, wounds | woundMargin, harm, effect?, allocation?.',
    {
      combatantId,
      wounds: Int.min(0).max(100).optional().describe('The Wounds dealt; or give woundMargin.'),
      woundMargin: Int.min(-100)
        .max(100)
        .optional()
        .describe('A Wound Margin, converted (RULINGS.md N8); or give wounds.'),
      harm: HarmSchema,
      effect: text(200).optional().describe('The spell or effect, to show (ruling N32).'),
      allocation: Allocation.optional().describe('The wounded’s allocation in advance (ruling N28).'),
    },
  ).refine((c) => (c.wounds === undefined) !== (c.woundMargin === undefined), {
    path: ['wounds'],
    error: 'or woundMargin: give exactly one',
  }),
  ReloadWeapon: command(
    'ReloadWeapon',
    'Load a weapon that needs Loading during the own activation: combatantId, weaponId.',
    {
      combatantId,
      weaponId: Id.describe('A weapon on its sheet that needs Loading (ruling N27).'),
    },
  ),
  SpendDice: command(
    'SpendDice',
    'Commit Ready AD/MD to another action; proactiveUse (melee | ranged) counts a shove, trip, feint…: combatantId, ad?, md?, proactiveUse?, reason?.',
    {
      combatantId,
      ad: Int.min(0).max(30).default(0).describe('Ready AD to commit; default 0.'),
      md: Int.min(0).max(30).default(0).describe('Ready MD to commit; default 0.'),
      proactiveUse: ExchangeKind.optional().describe('Counts a proactive use of that Skill (ruling N33).'),
      reason: text(200).optional().describe('What the dice are for, e.g. a shove; recorded as given.'),
    },
  ),
  ApplyLingeringHarm: command(
    'ApplyLingeringHarm',
    'GM: start one source of Lingering Harm (the same Form, source and harm again refreshes it): combatantId, form, harm?, wounds?, source?, tick?, rounds?, endsAfterTicks?, endsWhen?, allocation?.',
    {
      combatantId,
      form: text(60).describe(
        'Bleeding, Burning, Poisoned, Suffocating, Frostbitten (any case), or another Form with its harm.',
      ),
      harm: HarmSchema.optional().describe(
        'Default the Form’s classification (RULINGS.md N11); required for other Forms.',
      ),
      wounds: Int.min(0)
        .max(20)
        .default(LINGERING_HARM_WOUNDS_PER_TICK)
        .describe(`Wounds per tick; default ${LINGERING_HARM_WOUNDS_PER_TICK}.`),
      source: text(200)
        .optional()
        .describe('What causes it; the same source again refreshes its instance (ruling N39).'),
      tick: LINGERING_TICK.optional().describe(
        'When it ticks (ruling N38): roundEnd (default), roundStart, or the afflicted’s activationStart or activationEnd.',
      ),
      rounds: Int.min(1)
        .max(1000)
        .optional()
        .describe('Lasts this many rounds, the open one counted, then ends (N38); default until treated.'),
      endsAfterTicks: Int.min(1)
        .max(1000)
        .optional()
        .describe('Ends after this many ticks (N38); default no count.'),
      endsWhen: text(200)
        .optional()
        .describe('The source’s ending condition, shown until the GM ends it with TreatLingeringHarm (N38).'),
      allocation: Allocation.optional().describe(
        'The wounded’s allocation in advance for each tick (ruling N28).',
      ),
    },
  ),
  TreatLingeringHarm: command(
    'TreatLingeringHarm',
    'GM: end one Lingering Harm instance (treated, or its ending condition met): combatantId, lingeringHarmId, reason?.',
    {
      combatantId,
      lingeringHarmId: Id.describe('The instance to end: its id in the view’s lingeringHarm (lh1, lh2, …).'),
      reason: text(200).optional().describe('Why it ends, e.g. its ending condition was met (ruling N38).'),
    },
  ),
  ApplyCondition: command(
    'ApplyCondition',
    'GM: apply a Close-Enough condition (no stacking: worst intensity/duration): combatantId, condition, intensity?, rounds?.',
    {
      combatantId,
      condition: Condition,
      intensity: Int.min(1)
        .max(10)
        .optional()
        .describe('Its intensity; the worst applies (ruling N26); default none.'),
      rounds: Int.min(1)
        .max(1000)
        .optional()
        .describe('Lasts this many rounds, the open one counted; default until removed.'),
    },
  ),
  RemoveCondition: command('RemoveCondition', 'GM: remove a condition: combatantId, condition.', {
    combatantId,
    condition: Condition,
  }),
  SetPosition: command(
    'SetPosition',
    'GM: place a combatant on a map Space or take it off the map: combatantId, position ({x, y} | null).',
    {
      combatantId,
      position: SpaceSchema.nullable().describe('A Space, or null to take the combatant off the map.'),
    },
  ),
  Move: command(
    'Move',
    'Move Space by Space: combatantId, path [{x, y}…], noReactions?, forced?; stops at a step that opens Opportunity Attacks.',
    {
      combatantId,
      path: z
        .array(SpaceSchema)
        .min(1, { error: 'must name at least one Space' })
        .max(200)
        .describe('The Spaces to enter, in order, each adjacent to the one before (ruling N24).'),
      noReactions: flag('GM: a movement a rule exempts from Reactions (ruling N24)'),
      forced: flag('GM: movement by another effect, outside the own activation (ruling N24)'),
    },
  ),
  TakeOpportunityAttack: command(
    'TakeOpportunityAttack',
    'The offered reactor initiates a Melee Exchange against the mover: combatantId, weaponId, boost, damageVital?, response?, edge?, harm?, strikeModifier?, protectionModifier?, allocation?.',
    {
      combatantId,
      ...ATTACK_FIELDS,
    },
  ),
  DeclineOpportunity: command(
    'DeclineOpportunity',
    'The offered reactor lets the opportunity pass: combatantId.',
    { combatantId },
  ),
} satisfies CommandSchemas;

export type NarateerCommandType = keyof typeof NARATEER_COMMAND_SCHEMAS;
/** A Narateer command as parsed: defaults filled in, harm as { domain, type }, a bare response as an object. */
export type NarateerCommand<K extends NarateerCommandType> = z.output<(typeof NARATEER_COMMAND_SCHEMAS)[K]>;

export { NARATEER_EVENT_SCHEMAS, NARATEER_FOLDED_SHEET } from './events';

/**
 * The lifecycle's CombatantJoined with the sheet as validateSheet folds it (the lifecycle declaration
 * would otherwise record the sheet a client sends, whose fields differ: armour.soak is folded to soak).
 */
const JOINED = {
  CombatantJoined: lifecycleEvents({ sheet: NARATEER_FOLDED_SHEET, options: NARATEER_OPTIONS })
    .CombatantJoined,
};

/** The shapes the view shares with the events (events.ts): a Harm, a Space, a die pool. */
const VIEW_HARM = NARATEER_EVENT_SCHEMAS.LingeringHarmApplied.shape.harm;
const VIEW_SPACE = NARATEER_EVENT_SCHEMAS.PositionSet.shape.position.unwrap();
const VIEW_POOL = (what: string) =>
  z
    .strictObject({
      ...NARATEER_EVENT_SCHEMAS.DiceRefreshed.shape.ad.shape,
      max: Int.describe(`The sheet’s max${what}.`),
    })
    .describe(`RULINGS.md N3, N17: the ${what} by state (ready + used + wounded = max).`);

/** One combatant as the view shows it (view.ts), in join order. */
const CombatantView = z
  .strictObject({
    id: z.string().describe('The combatant’s id.'),
    name: z.string().describe('Its name.'),
    side: z.string().describe('Its side: combatants on other sides are its opponents.'),
    state: z
      .enum(['Active', 'Collapsed', 'Withdrawn'])
      .describe(
        'RULINGS.md N10: Collapsed at 0 Vitality or below; Withdrawn after a failed Continuation Check (N18); otherwise Active.',
      ),
    vitality: Int.describe('Current Vitality; 0 or below when Collapsed (it can go below 0).'),
    maxVitality: Int.describe('The sheet’s Maximum Vitality.'),
    initiative: Int.nullable().describe(
      'The dots of its initiative Side Roll (RULINGS.md N4); null until rolled (SetInitiative rolls nothing).',
    ),
    ad: VIEW_POOL('AD'),
    md: VIEW_POOL('MD'),
    vitals: z
      .strictObject({
        strength: Int.describe(VITAL_USES.strength),
        agility: Int.describe(VITAL_USES.agility),
        resilience: Int.describe(VITAL_USES.resilience),
      })
      .describe(
        'The sheet’s Vitals (narateer.txt: Core Combat Attributes): a weapon’s Strike Rating adds min(Damage Vital, Damage Vital Cap).',
      ),
    skills: z
      .strictObject({
        melee: Int.describe(
          'Melee Skill Level: Melee attacks, Clashes and Full Guards; Maximum Boost AD = SL (narateer.txt: Skill Level In Combat).',
        ),
        ranged: Int.describe(
          'Ranged Skill Level: Ranged attacks and Clashes; Maximum Boost AD = SL (narateer.txt: Skill Level In Combat).',
        ),
        acrobatics: Int.describe(
          'Acrobatics Skill Level: Full Guard against a Ranged Exchange; Maximum Boost AD = SL (narateer.txt: Full Guard).',
        ),
      })
      .describe(
        'The sheet’s Skill Levels, 0 when it left one out: each caps the Boost of a roll with that Skill and sets the proactive uses (narateer.txt: Skill Level In Combat).',
      ),
    proactiveUsesLeft: z
      .strictObject({
        melee: Int.describe('Proactive Melee uses left.'),
        ranged: Int.describe('Proactive Ranged uses left.'),
      })
      .describe(
        'RULINGS.md N5: proactive Melee and Ranged uses (SL + 1, minimum 1; Opportunity Attacks and responses do not count): in its own activation, those left; outside it, those its next activation starts with, as no proactive action is taken outside it and the count resets when it starts (ruling N67). Ruling N63: none for a combatant that can take no proactive action (Collapsed, Withdrawn, Unconscious or Paralyzed); ruling N67: none once the fight has ended.',
      ),
    conditions: z
      .array(
        z
          .strictObject({
            condition: NARATEER_EVENT_SCHEMAS.ConditionApplied.shape.condition,
            intensity: Int.nullable().describe('Its intensity; null: none.'),
            untilRound: Int.nullable().describe('Lasts until the end of this round; null: until removed.'),
          })
          .describe('A condition on the combatant (ruling N26).'),
      )
      .describe('Close-Enough conditions on it (ruling N26).'),
    lingeringHarm: z
      .array(
        z
          .strictObject({
            id: z.string().describe('The lingeringHarmId TreatLingeringHarm names.'),
            form: z.string().describe('Its Form, e.g. Bleeding.'),
            harm: VIEW_HARM,
            wounds: Int.describe('Wounds at every round end (RULINGS.md N19).'),
            source: z.string().optional().describe('What caused it; absent when not given.'),
            appliedRound: Int.describe('The round it was applied in; it ticks from that round’s end.'),
            label: z.string().describe('"Lingering Harm: <form>", to show.'),
            harmLabel: z.string().describe('"<Domain> (<Type>)", to show.'),
            tick: LINGERING_TICK.describe('When it ticks (ruling N38); roundEnd by default.'),
            untilRound: Int.nullable().describe(
              'N38: it ends at the end of this round; null: until treated.',
            ),
            ticksLeft: Int.nullable().describe('N38: it ends after this many more ticks; null: no count.'),
            endsWhen: z
              .string()
              .nullable()
              .describe(
                'N38: the source’s ending condition, which the GM ends with TreatLingeringHarm; null: none stated.',
              ),
          })
          .describe('One Lingering Harm instance (RULINGS.md N11, N19).'),
      )
      .describe('Lingering Harm instances until treated (RULINGS.md N11, N19).'),
    position: VIEW_SPACE.nullable().describe('Its Space on the map (RULINGS.md N13); null when off the map.'),
    soak: Int.describe('Protection Rating of its armour.'),
    woundPreference: z
      .enum(WOUND_PREFERENCES)
      .describe('RULINGS.md N9: ASK asks with a pending woundAllocation.'),
    weapons: z
      .array(
        z
          .strictObject({
            id: z.string().describe('The weapon’s id, the weaponId commands name.'),
            name: z.string().describe('Its name.'),
            kind: z
              .enum(['melee', 'ranged'])
              .describe(
                'Melee or ranged: the exchanges it attacks and Clashes in, with the Skill of that name (narateer.txt: Melee Exchanges, Ranged Exchanges).',
              ),
            weight: z
              .enum(['light', 'heavy'])
              .describe(
                'Light or heavy (light when the sheet left it out): which Vitals it may deal damage with (narateer.txt: Core Combat Attributes).',
              ),
            baseAttackCost: Int.describe(
              'Its Base Attack Cost in AD: an attack or Clash with it commits this plus the Boost (narateer.txt: Combat Exchange Flow, "Attack Dice = weapon Base Attack Cost + Boost AD"), from Ready AD.',
            ),
            reach: Int.nullable().describe(
              'Melee: its reach in Spaces (1 when the sheet left it out), the distance an attack, a Clash or an Opportunity Attack with it reaches (narateer.txt: Melee Exchanges; ruling N25, N42); null for a ranged weapon.',
            ),
            effectiveRange: Int.nullable().describe(
              'Ranged: its Effective Range in Spaces; beyond it, within the Maximum Range, its attack or Clash rolls with Disadvantage (narateer.txt: Ranged Exchanges; ruling N31); null for a melee weapon.',
            ),
            maximumRange: Int.nullable().describe(
              'Ranged: its Maximum Range in Spaces; a target beyond it cannot be targeted with it (narateer.txt: Ranged Exchanges); null for a melee weapon.',
            ),
            weaponDamage: Int.describe(
              'Weapon Damage: Strike Rating = Weapon Damage + min(active Damage Vital, Damage Vital Cap) (narateer.txt: Strike Rating).',
            ),
            damageVitals: z
              .array(VitalSchema.describe('A Vital it may deal damage with.'))
              .describe(
                'The Vitals it may deal damage with, the damageVital commands name; by default Strength or Agility (light), Strength (heavy), Agility (ranged) (RULINGS.md N21; ruling N36). Left out, a command takes the highest after the cap.',
              ),
            damageVitalCap: Int.describe(
              'Damage Vital Cap: the most of the Damage Vital its Strike Rating counts (narateer.txt: Strike Rating).',
            ),
            harm: VIEW_HARM.describe(
              'The harm its hits deal, unless the GM gives the attack another (RULINGS.md N12).',
            ),
            needsLoading: z
              .boolean()
              .describe(
                'It needs Loading (false when the sheet left it out): each shot unloads it, and ReloadWeapon loads it in its owner’s activation (ruling N27).',
              ),
            loaded: z
              .boolean()
              .describe(
                'Loaded now (ruling N27); always true for a weapon that needs no Loading (ruling N65).',
              ),
            ammunition: Int.nullable().describe('Shots left; null: unlimited.'),
            ready: z
              .boolean()
              .describe('It can attack now: loaded (or needs no Loading) and not out of ammunition.'),
          })
          .describe('A weapon on its sheet, with its state.'),
      )
      .describe('The weapons on its sheet, in sheet order.'),
  })
  .describe('One combatant: its state, dice, conditions, Lingering Harm, position and weapons.');

/** C4: the decisions a Narateer fight may await beside the core's (evolve.ts sets them), and what answers each. */
export const NARATEER_PENDING_KINDS = {
  exchangeResponse: {
    description:
      'narateer.txt: Combat Exchange Flow, steps 5–6: the target’s response to a declared exchange (none, fullGuard or clash), when no forced No Response, response on the declaration or sheet responsePolicy settled it (ruling N23); awaiting the target; `detail`: exchangeId, attackerId, kind, weaponId, dice.',
    answer: 'RespondToExchange',
  },
  woundAllocation: {
    description:
      'RULINGS.md N9: which dice the Wounds take, AD or MD, for a combatant whose woundPreference is ASK with a choice to make (both kinds in the state the Wounds take) and no allocation given in advance (ruling N28), a Lingering Harm tick included; awaiting the wounded combatant; `detail`: wounds, harm; `pendingWounds` shows them.',
    answer: 'AllocateWounds',
  },
  opportunityAttack: {
    description:
      'Ruling N24: an Opportunity Attack offered to one reactor of a move step, one at a time in initiative order; awaiting the reactor; `detail`: moverId, step; `opportunity` shows the reactors.',
    answer: 'TakeOpportunityAttack',
    alsoAccepts: ['DeclineOpportunity'],
  },
} as const satisfies PendingKinds;

/** The fight view `view(state)` returns (GET /fights/:id, command results, subscriptions, webhooks), `seq` and `headHash` included. */
export const NARATEER_VIEW = z.strictObject({
  ...coreViewShape(NARATEER_PENDING_KINDS),
  combatants: z.array(CombatantView).describe('Every combatant present, in join order.'),
  exchange: NARATEER_EVENT_SCHEMAS.ExchangeDeclared.extend({
    response: NARATEER_EVENT_SCHEMAS.ExchangeResponded.optional().describe(
      'The response, once given; absent while the response is pending.',
    ),
  })
    .describe('The exchange being resolved: its ExchangeDeclared data and its response.')
    .nullable()
    .describe(
      'The exchange being resolved (its ExchangeDeclared data): from its declaration until it is resolved, or until its Wounds are applied after a hit; null otherwise, and once the fight has ended (ruling N66).',
    ),
  pendingWounds: NARATEER_EVENT_SCHEMAS.WoundAllocationRequested.extend({
    allocationLength: Int.min(0).describe(
      'How many entries AllocateWounds takes: one per Wound that takes a die (Ready dice before Used, RULINGS.md N9); the Wounds beyond the dice left take none.',
    ),
  })
    .describe(
      'The Wounds awaiting allocation: the WoundAllocationRequested data, and how many of them take a die.',
    )
    .nullable()
    .describe('The Wounds waiting for the pending woundAllocation (ruling N9, N28); null otherwise.'),
  opportunity: z
    .strictObject({
      moverId: z.string().describe('The mover.'),
      step: z
        .strictObject({ from: VIEW_SPACE, to: VIEW_SPACE })
        .describe('The move step that opened the opportunities.'),
      current: z
        .string()
        .optional()
        .describe(
          'The reactor offered the opportunity now (the pending opportunityAttack), or whose Opportunity Attack it took is being resolved (the exchange, with opportunity); absent between offers.',
        ),
      remaining: z.array(z.string()).describe('Reactors still to be offered, in initiative order.'),
    })
    .describe('The Opportunity Attacks of one move step (ruling N24).')
    .nullable()
    .describe(
      'The Opportunity Attacks a move step opened, offered one at a time (ruling N24); null when none, and once the fight has ended (ruling N66).',
    ),
});
export type NarateerView = z.infer<typeof NARATEER_VIEW>;
export type NarateerCombatantView = NarateerView['combatants'][number];

const LIFECYCLE = lifecycleCommands({ sheet: NARATEER_SHEET, options: NARATEER_OPTIONS });

export const NARATEER_CONTRACT: SystemContract = {
  commands: {
    ...LIFECYCLE,
    RollInitiative: LIFECYCLE.RollInitiative.describe(
      'Roll initiative: a Side Roll of Agility dice for each combatant, higher total first, ties by Agility (RULINGS.md N4, N15); manual `dice` carry each combatant’s Agility dice in join order; `tieBreak` orders groups still tied.',
    ),
    ...NARATEER_COMMAND_SCHEMAS,
  },
  sheet: NARATEER_SHEET,
  options: NARATEER_OPTIONS,
  view: NARATEER_VIEW,
  pendingKinds: NARATEER_PENDING_KINDS,
  events: { ...JOINED, ...NARATEER_EVENT_SCHEMAS },
};
