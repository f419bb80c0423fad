import { z } from 'zod';
import { command, CommandSchemas, Id, Int, NOT_OBJECT_BUILT_IN, text } from '../core/contract';
import {
  CORE_PENDING_KINDS,
  coreViewShape,
  lifecycleCommands,
  PendingKinds,
} from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';
import { ARCANA_COMMANDS, ArcanaCommandType } from './commands';
import { ARCANA_BEAST_EVENT_SCHEMAS } from './events';
import {
  ACTIONS,
  BANDS,
  BINDER_COMMANDS,
  BYPASS_MOVEMENT,
  INITIATIVE_TIES,
  MAX_BONUS_DICE,
  RANGES,
  STATS,
  TAGS,
} from './data';

/**
 * Names every JavaScript object has (`toString`, `constructor`, `__proto__`, …): never a Quality name, since
 * Qualities are a table looked up by name (a `toString` Quality would read a function as its ranks).
 */
export const OBJECT_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A Quality's name as the sheet's `qualities` table keys it. */
const QUALITY_NAME = z
  .string()
  .min(1)
  .max(60)
  .refine((name) => !OBJECT_NAMES.has(name))
  .meta(NOT_OBJECT_BUILT_IN);
const QUALITY_NAME_ERROR =
  'is not a usable Quality name: 1 to 60 characters, and not a name every JavaScript object has (toString, constructor, __proto__, …)';

/** A Quality the sheet names elsewhere (defensive Qualities, an attack's Qualities): validateSheet checks it is in `qualities`. */
const QualityRef = text(60).describe('The name of a Quality in this sheet’s qualities.');

/** arcana-beast.txt: Attack Steps: "Target rolls Dodge (Agility + defensive Qualities)", a Beast Binder too (A6). */
const DefensiveQualities = z
  .array(QualityRef)
  .max(10)
  .optional()
  .describe('Qualities whose ranks add to Dodge (RULINGS.md A6); default none.');

const StatValue = Int.min(0).max(20);
const Stat = z.enum(STATS);

const Attack = {
  id: Id,
  name: text(100),
  range: z.enum(RANGES).optional().describe('Default melee.'),
  stat: Stat.optional().describe('Default brawn for melee, agility for ranged and long (RULINGS.md A6).'),
  ranks: Int.min(0).max(10).optional().describe('Attack Ranks (RULINGS.md A6); default 0.'),
  qualities: z
    .array(QualityRef)
    .max(10)
    .optional()
    .describe('Qualities whose ranks add to the pool; default none.'),
  bonusDamage: Int.min(0).max(50).optional().describe('Default 0.'),
};

const Common = {
  stats: z.strictObject({
    brawn: StatValue,
    agility: StatValue,
    endurance: StatValue,
    spirit: StatValue,
    technique: StatValue,
  }),
  qualities: z
    .record(QUALITY_NAME, Int.min(0).max(10), {
      error: (issue) => (issue.code === 'invalid_key' ? QUALITY_NAME_ERROR : undefined),
    })
    .optional()
    .describe('Quality name → ranks (0 to 10); default none.'),
  maxHp: Int.min(1).max(500).optional().describe('Default hp (RULINGS.md A11).'),
  hp: Int.min(0).max(500).describe('Current HP, at most maxHp (RULINGS.md A11).'),
  maxStamina: Int.min(0).max(100).optional().describe('Default stamina (RULINGS.md A11).'),
  stamina: Int.min(0).max(100).describe('Current Stamina, at most maxStamina (RULINGS.md A11).'),
};

const Item = z.strictObject({
  id: Id,
  name: text(100),
  quantity: Int.min(0).max(99).optional().describe('Default 1.'),
  heal: Int.min(0).max(500).optional().describe('HP restored; default 0.'),
  stamina: Int.min(0).max(100).optional().describe('Stamina restored; default 0.'),
  removesCondition: z.boolean().optional().describe('Removes the condition Use Item names; default false.'),
  test: z
    .strictObject({ stat: Stat, difficulty: Int.min(1).max(10) })
    .optional()
    .describe('A Test the item needs to work (ruling A33); default none.'),
});

/** arcana-beast.txt: Evolution in Combat: "Evolution does not heal HP unless a Gift says otherwise" (ruling A71). */
const GiftHeal = Int.min(1)
  .max(500)
  .optional()
  .describe(
    'HP a Gift of this Stage restores when the beast evolves to it, up to maxHp (ruling A71); default none: "Evolution does not heal HP".',
  );

const BinderSheet = z.strictObject({
  kind: z.literal('binder'),
  ...Common,
  beastId: Id.describe('The Arcana Beast this Binder shares its turn with.'),
  defensiveQualities: DefensiveQualities,
  inventory: z.array(Item).max(50).optional().describe('Stuff for Use Item; default none.'),
});

const BeastSheet = z.strictObject({
  kind: z.literal('beast'),
  ...Common,
  stage: Int.min(0)
    .max(4)
    .optional()
    .describe('The current Stage, one of the unlocked stages; default the lowest.'),
  stages: z
    .array(
      z.strictObject({
        stage: Int.min(0).max(4),
        name: text(100).optional().describe('Default "Stage <n>".'),
        trigger: text(300).optional().describe('The emotional trigger (RULINGS.md A9); default none.'),
        giftHeal: GiftHeal,
      }),
    )
    .max(5)
    .optional()
    .describe('The unlocked Stages; default Stage 0 only.'),
  defensiveQualities: DefensiveQualities,
  attacks: z.array(z.strictObject(Attack)).max(20).optional().describe('Default one melee Strike.'),
  specialAttacks: z
    .array(
      z.strictObject({ ...Attack, uses: Int.min(0).max(50).describe('Uses per scene (RULINGS.md A11).') }),
    )
    .max(20)
    .optional()
    .describe('Default none.'),
  zeroPower: z
    .strictObject({
      ...Attack,
      id: Id.optional().describe('Default zero-power.'),
      range: Attack.range.describe(
        'With a range it is an attack; without one a narrative effect the GM resolves (ruling A34), which takes no stat, ranks, qualities or bonusDamage (ruling A76).',
      ),
      trigger: text(300),
    })
    .optional()
    .describe('Default none.'),
  movement: z
    .array(z.enum(BYPASS_MOVEMENT))
    .max(3)
    .optional()
    .describe('Movement that bypasses restrictions (ruling A18); default none.'),
  initiativeDice: Int.min(0)
    .max(10)
    .optional()
    .describe('Quality/Talent dice added to initiative (ruling A29); default 0.'),
});

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts applies the rules after it). */
export const ARCANA_BEAST_SHEET = z
  .discriminatedUnion('kind', [BinderSheet, BeastSheet], {
    error: (issue) => (issue.code === 'invalid_union' ? 'must be one of binder, beast' : undefined),
  })
  .describe('An Arcana Beast sheet: a Beast Binder’s (kind binder) or an Arcana Beast’s (kind beast).');
export type ArcanaSheetInput = z.infer<typeof ARCANA_BEAST_SHEET>;

/**
 * A sheet as CombatantJoined records it (validateSheet in sheet.ts): the client's sheet with its defaults
 * filled in, where each unlocked Stage's trigger is empty when the sheet gives none, and the Zero Power says whether
 * it is an attack (A34: the sheet gave it a range; its range is recorded as melee when it gave none).
 */
const ARCANA_BEAST_RECORDED_SHEET = z.discriminatedUnion('kind', [
  BinderSheet,
  BeastSheet.extend({
    zeroPower: BeastSheet.shape.zeroPower
      .unwrap()
      .extend({
        attack: z
          .boolean()
          .describe(
            'An attack (the sheet gave it a range) or a narrative effect the GM resolves (none given), ruling A34.',
          ),
      })
      .optional()
      .describe('The Zero Power (ruling A34); absent when the sheet has none.'),
    stages: z
      .array(
        z.strictObject({
          stage: Int.min(0).max(4),
          name: text(100).optional().describe('"Stage <n>" unless the sheet names it.'),
          trigger: z.string().max(300).describe('The emotional trigger (RULINGS.md A9); empty when none.'),
          giftHeal: GiftHeal,
        }),
      )
      .max(5)
      .optional()
      .describe('The unlocked Stages.'),
  }),
]);

/** The fight options this system reads. */
export const ARCANA_BEAST_OPTIONS = z.strictObject({
  initiativeTies: z
    .enum(INITIATIVE_TIES)
    .optional()
    .describe('Turn Order ties: the GM decides (gm, the default) or the tied reroll (reroll).'),
  playerSides: z
    .array(Id.max(40))
    .max(20)
    .refine((sides) => new Set(sides).size === sides.length, { error: 'names a side twice' })
    .optional()
    .describe(
      'Ruling A35: the players’ sides: their Binders and bound beasts raise the Critical Gauge and gain a Harm at 0 HP, and their beasts make the Devolution Test (A7, A13); absent: every Binder and bound beast.',
    ),
});

const combatant = (what: string) => Id.describe(what);
const bonusDice = Int.min(0)
  .max(MAX_BONUS_DICE)
  .optional()
  .describe('GM: situational +1 dice (ruling A30); default 0.');
const intercept = z
  .boolean()
  .optional()
  .describe(
    'Answers in advance whether the attacked Binder’s beast intercepts (ruling A22); absent: the beast is asked. `true` on an attack that asks no Intercept (a Guard takes it, the target is no Binder, its beast cannot intercept) is refused with ARCANA_NO_ATTACK_TO_INTERCEPT (ruling A69).',
  );
const condition = text(60);
const reason = text(200).optional().describe('Free text recorded with the roll.');
const movement = {
  band: z.enum(BANDS).describe('The band to end in toward towardId.'),
  using: z
    .enum(BYPASS_MOVEMENT)
    .optional()
    .describe('Flight, teleport or burrowing from the sheet (ruling A18); default none.'),
};

/**
 * arcana-beast.txt: Initiative & Turn Order: an Opposed Test's "Relevant Qualities or Talents add dice" and "Surprised
 * characters roll with Setback": what one side of RollOpposedTest adds to its pool, as RollTest takes it (ruling A25).
 */
const opposedRanks = (who: string) =>
  Int.min(0).max(10).optional().describe(`Quality ranks added to ${who}’s pool; default 0.`);
const opposedBonusDice = (who: string) =>
  Int.min(0)
    .max(MAX_BONUS_DICE)
    .optional()
    .describe(`+1 dice (Talents) added to ${who}’s pool (ruling A30); default 0.`);
const opposedBoost = (who: string) =>
  z.boolean().optional().describe(`${who} rolls with Boost; default false.`);
const opposedSetback = (who: string) =>
  z.boolean().optional().describe(`${who} rolls with Setback (surprised); default false.`);

/** Every arcana-beast command beyond the lifecycle, declared once (descriptions: ARCANA_COMMANDS). */
export const ARCANA_BEAST_COMMAND_SCHEMAS = {
  Attack: command('Attack', ARCANA_COMMANDS.Attack, {
    attackerId: combatant('The beast attacking, in its own turn.'),
    targetId: combatant('The combatant attacked.'),
    attackId: Id.optional().describe('One of the sheet’s attacks; default the first.'),
    bonusDice,
    intercept,
  }),
  UseSpecialAttack: command('UseSpecialAttack', ARCANA_COMMANDS.UseSpecialAttack, {
    attackerId: combatant('The beast attacking, in its own turn.'),
    targetId: combatant('The combatant attacked.'),
    specialAttackId: Id.describe('One of the sheet’s Special Attacks with a use left.'),
    bonusDice,
    intercept,
  }),
  UseZeroPower: command('UseZeroPower', ARCANA_COMMANDS.UseZeroPower, {
    attackerId: combatant('The beast using its Zero Power, in its own turn.'),
    targetId: Id.optional().describe(
      'The combatant attacked: required when the Zero Power is an attack (it has a range), optional otherwise.',
    ),
    bonusDice,
    intercept,
  }),
  Intercept: command('Intercept', ARCANA_COMMANDS.Intercept, {
    combatantId: combatant('The beast the pending intercept awaits.'),
    intercept: z.boolean().optional().describe('Whether it intercepts; default true.'),
  }),
  Defend: command('Defend', ARCANA_COMMANDS.Defend, { combatantId: combatant('The beast acting.') }),
  Assist: command('Assist', ARCANA_COMMANDS.Assist, {
    combatantId: combatant('The beast acting.'),
    allyId: combatant('A Close ally.'),
  }),
  Guard: command('Guard', ARCANA_COMMANDS.Guard, {
    combatantId: combatant('The beast acting.'),
    allyId: combatant('A Close ally.'),
  }),
  Pass: command('Pass', ARCANA_COMMANDS.Pass, { combatantId: combatant('The beast acting.') }),
  Reposition: command('Reposition', ARCANA_COMMANDS.Reposition, {
    combatantId: combatant('The beast acting.'),
    towardId: Id.optional().describe(
      'The combatant to move toward; absent: the Reposition gains positional advantage (no move).',
    ),
    band: movement.band
      .optional()
      .describe('The band to end in toward towardId: required with towardId, refused without it.'),
    using: movement.using.describe(
      'Flight, teleport or burrowing from the sheet (ruling A18): only with towardId; default none.',
    ),
  }),
  Move: command('Move', ARCANA_COMMANDS.Move, {
    combatantId: combatant('The beast moving, in its own turn.'),
    towardId: combatant('The combatant to move toward.'),
    ...movement,
  }),
  Evolve: command('Evolve', ARCANA_COMMANDS.Evolve, {
    combatantId: combatant('The beast evolving, in its own turn.'),
    stage: Int.min(0)
      .max(4)
      .optional()
      .describe('An unlocked Stage above the current one; default the highest.'),
  }),
  Direct: command('Direct', ARCANA_COMMANDS.Direct, { combatantId: combatant('The Binder commanding.') }),
  Encourage: command('Encourage', ARCANA_COMMANDS.Encourage, {
    combatantId: combatant('The Binder commanding.'),
    effect: z.enum(['dodgeDie', 'removeCondition']).optional().describe('Default dodgeDie.'),
    condition: condition
      .optional()
      .describe(
        'The beast’s condition to remove: required with effect removeCondition, refused with dodgeDie.',
      ),
  }),
  Strategize: command('Strategize', ARCANA_COMMANDS.Strategize, {
    combatantId: combatant('The Binder commanding.'),
  }),
  CallBack: command('CallBack', ARCANA_COMMANDS.CallBack, {
    combatantId: combatant('The Binder commanding.'),
    mode: z.enum(['retreat', 'devolve']).optional().describe('Default retreat.'),
  }),
  UseItem: command('UseItem', ARCANA_COMMANDS.UseItem, {
    combatantId: combatant('The Binder commanding.'),
    itemId: Id.describe('An item of the Binder’s inventory.'),
    targetId: Id.optional().describe('Who the item is used on; default the Binder’s beast.'),
    condition: condition
      .optional()
      .describe(
        'The condition to remove: required when the item removes a condition, refused when it removes none.',
      ),
  }),
  BondSurge: command('BondSurge', ARCANA_COMMANDS.BondSurge, {
    combatantId: combatant('The Binder commanding.'),
  }),
  SetBand: command('SetBand', ARCANA_COMMANDS.SetBand, {
    aId: combatant('One combatant of the pair.'),
    bId: combatant('The other combatant of the pair.'),
    band: z.enum(BANDS).describe('The distance band between them (RULINGS.md A14).'),
    difficultTerrain: z
      .union([z.boolean(), Int.min(0).max(10)])
      .optional()
      .describe(
        'Difficult terrain between them: a Difficulty (true = 1; false or 0 clears it); absent: unchanged (ruling A19).',
      ),
  }),
  SetTag: command('SetTag', ARCANA_COMMANDS.SetTag, {
    combatantId: combatant('The combatant tagged.'),
    tag: z.enum(TAGS).describe('The positioning tag (RULINGS.md A8); it replaces the same tag set before.'),
    againstId: Id.optional().describe(
      'The one opponent the tag holds against (ruling A28); default every opponent.',
    ),
  }),
  ClearTag: command('ClearTag', ARCANA_COMMANDS.ClearTag, {
    combatantId: combatant('The combatant tagged.'),
    tag: z.enum(TAGS).describe('The positioning tag to clear (RULINGS.md A8).'),
  }),
  ApplyCondition: command('ApplyCondition', ARCANA_COMMANDS.ApplyCondition, {
    combatantId: combatant('The combatant.'),
    condition: condition.describe(
      'The condition, named freely by the GM; one it already has changes nothing.',
    ),
  }),
  RemoveCondition: command('RemoveCondition', ARCANA_COMMANDS.RemoveCondition, {
    combatantId: combatant('The combatant.'),
    condition: condition.describe('The condition, as applied; one it does not have changes nothing.'),
  }),
  SetTrigger: command('SetTrigger', ARCANA_COMMANDS.SetTrigger, {
    combatantId: combatant('The beast whose trigger it is.'),
    kind: z.enum(['stage', 'zeroPower']).optional().describe('Default stage.'),
    stage: Int.min(0)
      .max(4)
      .optional()
      .describe('With kind stage (refused with zeroPower): an unlocked Stage; default the highest.'),
    active: z.boolean().optional().describe('Default true.'),
  }),
  RollTest: command('RollTest', ARCANA_COMMANDS.RollTest, {
    combatantId: combatant('The combatant testing.'),
    stat: Stat.describe('The stat tested: its value in dice, with the combatant’s die (ruling A25).'),
    difficulty: Int.min(0).max(20).describe('Successes needed (RULINGS.md A1).'),
    ranks: Int.min(0).max(10).optional().describe('Quality ranks added; default 0.'),
    bonusDice,
    boost: z.boolean().optional().describe('Default false.'),
    setback: z.boolean().optional().describe('Default false.'),
    reason,
  }),
  RollOpposedTest: command('RollOpposedTest', ARCANA_COMMANDS.RollOpposedTest, {
    aId: combatant('The first combatant; its pool is rolled first.'),
    aStat: Stat.describe('The stat the first combatant rolls: its value in dice (ruling A25).'),
    aRanks: opposedRanks('the first combatant'),
    aBonusDice: opposedBonusDice('the first combatant'),
    aBoost: opposedBoost('The first combatant'),
    aSetback: opposedSetback('The first combatant'),
    bId: combatant('The second combatant.'),
    bStat: Stat.optional().describe('Default aStat.'),
    bRanks: opposedRanks('the second combatant'),
    bBonusDice: opposedBonusDice('the second combatant'),
    bBoost: opposedBoost('The second combatant'),
    bSetback: opposedSetback('The second combatant'),
    reason,
  }),
  RerollInitiative: command('RerollInitiative', ARCANA_COMMANDS.RerollInitiative, {}),
  EndScene: command('EndScene', ARCANA_COMMANDS.EndScene, {}),
} satisfies Record<ArcanaCommandType, z.ZodObject>;

export { ARCANA_BEAST_EVENT_SCHEMAS } from './events';

export type ArcanaCommandSchemas = typeof ARCANA_BEAST_COMMAND_SCHEMAS;
/** A command of this system as parsed from its declaration. */
export type ArcanaCommandOf<K extends ArcanaCommandType> = z.infer<ArcanaCommandSchemas[K]>;
export type ArcanaCommand = { [K in ArcanaCommandType]: ArcanaCommandOf<K> }[ArcanaCommandType];

const LIFECYCLE = lifecycleCommands({ sheet: ARCANA_BEAST_SHEET, options: ARCANA_BEAST_OPTIONS });

/** Lifecycle commands with a field of this system: RollInitiative names the surprised (A29). */
export const ARCANA_BEAST_LIFECYCLE_OVERRIDES = {
  RollInitiative: LIFECYCLE.RollInitiative.extend({
    surprised: z
      .array(Id)
      .max(200)
      .optional()
      .describe(
        'Combatants surprised: they roll with Setback, a Binder’s beast too (ruling A29, A31); default none.',
      ),
  }).describe(
    'Roll initiative for every beast (RULINGS.md A5): manual `dice` carry each beast’s Agility pool in join order, a Binder rolling none and coming right after its beast (ruling A16); `tieBreak` orders groups still tied, `surprised` roll with Setback (ruling A29).',
  ),
} satisfies CommandSchemas;

const Count = Int.min(0);

/** arcana-beast.txt: Damage Formula, "Base Damage + extra successes beyond defender"; a sheet's bonus on top (ruling A52). */
const BonusDamage = Count.describe(
  'The sheet’s bonusDamage of the attack: added to a hit’s damage after a Critical doubles Base Damage, with the extra successes and combo damage (ruling A52); 0 when the sheet gives none.',
);

/**
 * A6: "Attack pool = the attack's stat + Quality/Attack Ranks + modifiers" (arcana-beast.txt: Attack Steps,
 * "Build pool Stat + Quality/Attack Ranks + modifiers"): what the engine reads from the sheet's attack to build its pool.
 */
const PoolStat = z
  .enum(STATS)
  .describe(
    'The stat the attack rolls, its value in `stats` in dice: the sheet’s, or by default Brawn for melee and Agility for ranged and long (RULINGS.md A6).',
  );
const PoolRanks = Count.describe(
  'The Attack Ranks the sheet gives it, added to the pool (RULINGS.md A6); 0 when none.',
);
const PoolQualities = z
  .array(
    z
      .strictObject({
        name: z.string().describe('A Quality of the sheet’s `qualities`, as the sheet’s attack names it.'),
        ranks: Count.describe('Its ranks in the sheet’s `qualities`: the dice it adds.'),
      })
      .describe('A Quality the attack adds to its pool, with its ranks.'),
  )
  .describe(
    'The Qualities whose ranks the attack adds to its pool, as its sheet lists them (a name listed twice adds twice); empty when none. "Build pool Stat + Quality/Attack Ranks + modifiers" (RULINGS.md A6): the pool rolls the `stat`’s value + `ranks` + these ranks + the bonus dice of the roll (Direct, Assist, High Ground, Flanking, the combo die, the GM’s bonusDice), one more die with a net Boost or Setback.',
  );

/**
 * A6: arcana-beast.txt: Attack Steps: "Target rolls Dodge (Agility + defensive Qualities)", a Beast Binder too: what the
 * engine reads from the sheet to build a combatant's Dodge pool.
 */
const DodgeQualities = z
  .array(
    z.strictObject({
      name: z
        .string()
        .describe('A Quality of the sheet’s `qualities`, as the sheet’s defensiveQualities name it.'),
      ranks: Count.describe('Its ranks in the sheet’s `qualities`: the dice it adds to each Dodge.'),
    }),
  )
  .describe(
    'The sheet’s defensive Qualities, each with the ranks it adds to the Dodge pool (a name listed twice adds twice); empty when none. "Target rolls Dodge (Agility + defensive Qualities)" (RULINGS.md A6): a Dodge rolls `stats.agility` + these ranks + its bonus dice (Assist, Encourage, Cover), one more die with a net Boost (Defend, Bond Surge) or Setback (Cornered).',
  );

/** What every combatant's view holds (view.ts); `kind` tells a Binder's from a beast's. */
const CombatantViewBase = z.strictObject({
  id: z.string(),
  name: z.string(),
  side: z.string(),
  kind: z.enum(['binder', 'beast']),
  state: z
    .enum(['Active', 'InVessel', 'KnockedOut'])
    .describe(
      'InVessel after a Call Back retreat, Knocked Out or not: no target of an attack, Encourage or Use Item (rulings A23, A73). Otherwise KnockedOut at 0 HP (ruling A13, A21): Encourage may still remove a condition and Use Item still tends it (ruling A55). Otherwise Active.',
    ),
  hp: Count,
  maxHp: Count,
  stamina: Count,
  maxStamina: Count,
  stats: z.strictObject({ brawn: Count, agility: Count, endurance: Count, spirit: Count, technique: Count }),
  qualities: z.record(z.string(), Count).describe('Quality name → ranks.'),
  defensiveQualities: DodgeQualities,
  dieSides: Int.describe('The die it rolls: d6 for a Binder, by Stage for a beast (RULINGS.md A4).'),
  initiative: Count.nullable().describe(
    'Successes of its initiative roll (RULINGS.md A5); null until rolled (SetInitiative rolls nothing).',
  ),
  bands: z
    .record(z.string(), z.enum(BANDS))
    .describe(
      'Combatant id → the distance band to it (ruling A14, A17): Near unless set; a Binder and its own beast are always Close.',
    ),
  tags: z
    .array(
      z.strictObject({
        tag: z.enum(TAGS),
        againstId: z
          .string()
          .optional()
          .describe('The one opponent the tag holds against (ruling A28); absent: every opponent.'),
        effect: z.string().describe('What the tag does, in words.'),
      }),
    )
    .describe(
      'Positioning tags the GM set (RULINGS.md A8); one against a combatant who has left the fight, with no one left in its place, is not listed (ruling A72).',
    ),
  conditions: z.array(z.string()),
  harms: z.array(z.string()).describe('Harms gained at 0 HP (ruling A13, A21).'),
  assistDice: Count.describe(
    '+1 dice from an Assist, waiting for its next roll in this encounter (rulings A26, A42).',
  ),
});
export type ArcanaCombatantViewBase = z.infer<typeof CombatantViewBase>;

const BinderView = z.strictObject({
  ...CombatantViewBase.shape,
  kind: z.literal('binder'),
  beastId: z.string().describe('The beast this Binder shares its turn with.'),
  inventory: z
    .array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        quantityLeft: Count,
        removesCondition: z
          .boolean()
          .describe(
            'It removes a condition: Use Item names one the target has (`condition`); otherwise it names none (ruling A33).',
          ),
      }),
    )
    .describe('Stuff for Use Item (ruling A33).'),
});

const BeastView = z.strictObject({
  ...CombatantViewBase.shape,
  kind: z.literal('beast'),
  binderId: z
    .string()
    .nullable()
    .describe(
      'Its Binder; null for a wild beast, and once its Binder has left the fight (rulings A21, A35).',
    ),
  wild: z.boolean().describe('No Binder: wild beasts drop out when Knocked Out (RULINGS.md A13).'),
  stage: Int.describe('The current Stage, 0 to 4.'),
  highestStage: Int.describe(
    'The highest unlocked Stage: free to evolve to while its trigger is active; it reverts when the encounter ends (RULINGS.md A9).',
  ),
  stages: z
    .array(
      z.strictObject({
        stage: Int,
        name: z.string(),
        trigger: z.string().describe('The emotional trigger; empty when none.'),
        giftHeal: Int.optional().describe(
          'HP a Gift restores when the beast evolves to this Stage (ruling A71); absent when the Stage has no such Gift.',
        ),
        triggerActive: z.boolean().describe('The GM marked the trigger active (SetTrigger).'),
      }),
    )
    .describe('The unlocked Stages, lowest first.'),
  revertTo: Int.nullable().describe(
    'The Stage it returns to when the encounter ends, while at its highest: the Stage it evolved from (RULINGS.md A9), or the highest unlocked below for a beast that joined at its highest (ruling A41); null otherwise.',
  ),
  baseDamage: Count.describe(
    'Brawn + Stage: the damage of a hit before extra successes, a Critical and bonuses.',
  ),
  attacks: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      range: z.enum(RANGES),
      stat: PoolStat,
      ranks: PoolRanks,
      bonusDamage: BonusDamage,
      qualities: PoolQualities,
    }),
  ),
  specialAttacks: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      range: z.enum(RANGES),
      uses: Count.describe('Uses per scene.'),
      usesLeft: Count.describe('Uses left this scene (RULINGS.md A11).'),
      bonusDamage: BonusDamage,
      stat: PoolStat,
      ranks: PoolRanks,
      qualities: PoolQualities,
    }),
  ),
  zeroPower: z
    .strictObject({
      name: z.string(),
      trigger: z.string(),
      range: z
        .enum(RANGES)
        .nullable()
        .describe(
          'An attack’s range: UseZeroPower names a target in reach (ruling A34); null for a narrative effect the GM resolves, which needs no target.',
        ),
      bonusDamage: BonusDamage.describe(
        'The sheet’s bonusDamage: added to a hit’s damage after a Critical doubles Base Damage (ruling A52) when the Zero Power is an attack; a narrative one deals none (ruling A34).',
      ),
      triggerActive: z
        .boolean()
        .describe('The GM marked its trigger active (SetTrigger kind zeroPower): it may be used.'),
      used: z.boolean().describe('Used this scene.'),
      stat: PoolStat.describe(
        'The stat its attack rolls, its value in `stats` in dice: the sheet’s, or by default Brawn for melee and Agility for ranged and long (RULINGS.md A6); a narrative Zero Power rolls none (ruling A34).',
      ),
      ranks: PoolRanks,
      qualities: PoolQualities,
    })
    .nullable()
    .describe('The Zero Power (ruling A34); null when the sheet has none.'),
  movement: z.array(z.enum(BYPASS_MOVEMENT)).describe('Movement that bypasses restrictions (ruling A18).'),
  defending: z
    .boolean()
    .describe(
      'It took Defend; lasts until its next turn or the end of the encounter (RULINGS.md A15, ruling A42).',
    ),
  guarding: z
    .string()
    .nullable()
    .describe(
      'The ally it guards until its next turn or the end of the encounter (rulings A27, A42); null when none, or when that ally has left the fight (C11).',
    ),
  encourageDodge: Count.describe(
    '+1 dice from an Encourage, waiting for its next Dodge in this encounter (rulings A26, A42).',
  ),
  interceptOwed: z
    .boolean()
    .describe('It intercepted an attack and forfeits its next Action in this encounter (rulings A22, A42).'),
});

const TurnView = z
  .strictObject({
    beastId: z.string().describe('The beast whose turn it is.'),
    binderId: z
      .string()
      .optional()
      .describe(
        'Its Binder, who gives the Command in the same turn; absent for a wild beast, once its Binder has left the fight, or while its Binder is Knocked Out (rulings A21, A61).',
      ),
    command: z
      .string()
      .optional()
      .describe(`The Binder’s Command taken this turn: ${BINDER_COMMANDS.join(', ')}; absent: none yet.`),
    action: z
      .string()
      .optional()
      .describe(
        `The Action taken this turn: ${ACTIONS.join(', ')}, or forfeited (an Intercept owed, ruling A22); absent: none yet.`,
      ),
    freeMoveUsed: z.boolean().describe('The free band move is spent.'),
    directed: z.boolean().describe('Direct: +1 die on this turn’s Action roll (ruling A26).'),
    bondSurge: z
      .boolean()
      .describe(
        'Bond Surge: Boost on every roll of the beast this turn, and of the Binder while the turn names it (`binderId`; rulings A26, A74).',
      ),
    strategized: z
      .boolean()
      .describe('A passed Strategize: the target’s Cover and Obscured are ignored this turn (ruling A28).'),
  })
  .describe('The running shared turn of a beast and its Binder (RULINGS.md A15).');

/** Rulings A20, A57: one side's combo chain on one target, as the last AttackResolved of the side on it left it. */
const ComboChain = z.strictObject({
  side: z.string().describe('The side whose chain it is.'),
  lastAttackerId: z.string().describe('The beast of that side that attacked the target last.'),
  sideTurn: Count.describe(
    'The side’s beast-turn count (`sideTurns`) at the last attack, its AttackResolved combo.sideTurn (ruling A56).',
  ),
  attacks: Int.min(1).describe('Attacks in the chain so far (AttackResolved combo.position).'),
  hits: Count.describe('The hit streak after the last attack; 0 after a miss (ruling A20).'),
});

/**
 * C4: the decisions an Arcana Beast fight may await beside the core's (evolve.ts sets them), and what answers each;
 * an initiative tie is answered by a reroll too (A5), as decide's ANSWERS takes it.
 */
export const ARCANA_BEAST_PENDING_KINDS = {
  initiativeTie: {
    ...CORE_PENDING_KINDS.initiativeTie,
    description:
      'RULINGS.md A5: beasts still tied on initiative after the tie-breaks (also after a RerollInitiative that ties again); awaiting "gm", who gives the order or rerolls the tied; `detail.ties`: the tied groups of ids.',
    alsoAccepts: ['RerollInitiative'],
  },
  intercept: {
    description:
      'Ruling A22: an attack declared on a Binder whose beast can act asks that beast whether it intercepts (becomes the target); awaiting the beast; `detail`: attackNo, attackerId, binderId, attackName; `pendingAttack` shows the attack.',
    answer: 'Intercept',
  },
} as const satisfies PendingKinds;

/** The fight view `view(state)` returns (GET /fights/:id, command results, subscriptions, webhooks), `seq` and `headHash` included. */
export const ARCANA_BEAST_VIEW = z.strictObject({
  ...coreViewShape(ARCANA_BEAST_PENDING_KINDS),
  criticalGauge: Count.describe(
    'The player side’s Critical Gauge: CriticalMoveTriggered at 3, 6 and 9 (RULINGS.md A7).',
  ),
  turn: TurnView.nullable().describe('The running shared turn (RULINGS.md A15); null between turns.'),
  pendingAttack: ARCANA_BEAST_EVENT_SCHEMAS.AttackDeclared.extend({
    bonusDamage: BonusDamage.describe(
      'The bonusDamage of the sheet’s attack it names (`action`, `attackId`): the engine adds it to the hit’s damage after a Critical doubles Base Damage, whoever takes the attack (ruling A52); combo damage comes on top, from the attacker side’s chain on the one who takes it (`chains`).',
    ),
    stat: PoolStat.describe(
      'The stat of the sheet’s attack it names (`action`, `attackId`), its value in the attacker’s `stats` in dice: the sheet’s, or by default Brawn for melee and Agility for ranged and long (RULINGS.md A6).',
    ),
    ranks: PoolRanks.describe(
      'The Attack Ranks of the sheet’s attack it names, added to the pool (RULINGS.md A6); 0 when none.',
    ),
    qualities: PoolQualities,
  })
    .describe('An attack on a Binder waiting for its beast’s intercept (ruling A22), as it was declared.')
    .nullable()
    .describe('The attack on a Binder waiting for the pending intercept (ruling A22); null otherwise.'),
  combos: z
    .record(z.string(), ComboChain)
    .describe(
      'Target id → the combo chain of the side that attacked it last (rulings A20, A57); each side keeps its own (`chains`), and a target that has left the fight is not listed (C11).',
    ),
  chains: z
    .record(z.string(), z.record(z.string(), ComboChain))
    .describe(
      'Target id → side → that side’s combo chain on the target: every side’s, as the engine reads them (rulings A20, A57); `combos` shows only the last attacker’s. "Combo Attacks: When two or more allied Arcana Beast target the same enemy on consecutive turns": an attack continues its side’s chain on the one who takes it (after a Guard or an Intercept, rulings A46, A64) when another beast made the chain’s last attack (`lastAttackerId`) on the side’s previous beast turn (`sideTurn` one less than the side’s count in `sideTurns`, the running turn counted). It then gains the combo die ("Second attacker gains +1 die") and, on a hit, combo damage: +1 when it is the streak’s 2nd hit (`hits` 1 before it), +2 from the 3rd, added after doubling (RULINGS.md A12). Otherwise it starts a new chain; an attack on its own side is in none (ruling A59). Every side’s chain on a target ends when the target takes an Action other than Pass (a Binder’s too when its beast does), is Knocked Out, or the encounter ends (rulings A10, A54, A57): so a beast’s attack on its own Binder, whose chains its Action ends first, starts a new one; a target that has left the fight is not listed (C11).',
    ),
  sideTurns: z
    .record(z.string(), Count)
    .describe(
      'Side → its beast turns so far, what a chain’s `sideTurn` counts (rulings A20, A56, A70): a turn counts from its start, the running one included, unless its beast is then Knocked Out or in its vessel (its Binder’s Commands only). Every side in the fight is listed, 0 before its first beast turn; a side whose combatants have all left keeps its count.',
    ),
  combatants: z
    .array(z.discriminatedUnion('kind', [BinderView, BeastView]))
    .describe('Every combatant present, in join order.'),
});
export type ArcanaBeastView = z.infer<typeof ARCANA_BEAST_VIEW>;
export type ArcanaCombatantView = ArcanaBeastView['combatants'][number];

export const ARCANA_BEAST_CONTRACT: SystemContract = {
  commands: { ...LIFECYCLE, ...ARCANA_BEAST_LIFECYCLE_OVERRIDES, ...ARCANA_BEAST_COMMAND_SCHEMAS },
  sheet: ARCANA_BEAST_SHEET,
  joinedSheet: ARCANA_BEAST_RECORDED_SHEET,
  options: ARCANA_BEAST_OPTIONS,
  view: ARCANA_BEAST_VIEW,
  pendingKinds: ARCANA_BEAST_PENDING_KINDS,
  events: ARCANA_BEAST_EVENT_SCHEMAS,
};
