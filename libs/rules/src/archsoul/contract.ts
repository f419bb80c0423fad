import { z } from 'zod';
import { command, CommandSchemas, Id, Int, NOT_OBJECT_BUILT_IN, text } from '../core/contract';
import { coreViewShape, lifecycleCommands, PendingKinds, RollSchema } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';
import {
  AMMUNITION_KINDS,
  ANATOMIES,
  AP_COST,
  ATTACK_MODIFIERS,
  ATTACK_TYPES,
  ATTRIBUTES,
  CLEAVE,
  CONDITIONS,
  CRITICAL_TABLES,
  DEFAULT_SPEED,
  HANDLING,
  RITUAL,
  SIZES,
  SPECIAL_ATTACKS,
  WEAPON_PROPERTIES,
} from './data';
import { ARCHSOUL_LIFECYCLE_TEXTS } from './commands';
import { SQUARE_FACINGS } from './grid';

/** S5: a space of the battle map. */
export const SpaceSchema = z
  .strictObject({
    x: Int.min(-10000).max(10000).describe('Hex: the axial q; square: the column, growing rightward (S5).'),
    y: Int.min(-10000)
      .max(10000)
      .describe('Hex: the axial r, growing downward; square: the row, growing upward (S5).'),
  })
  .describe('A space of the battle map (S5).');
/** S5: a facing (a hex grid has six of the square grid's eight; decide checks the map's). */
const FACINGS_OF_GRIDS = 'one of eight on a square grid; a hex grid uses N, NE, SE, S, SW, NW';
export const FacingSchema = z.enum(SQUARE_FACINGS).describe(`A facing (S5): ${FACINGS_OF_GRIDS}.`);

/**
 * A name every JavaScript object already has (`toString`, `constructor`, `__proto__`, …): refused wherever a
 * name or id of a sheet is later looked up in a map, so a lookup can never find Object.prototype's member.
 */
const notBuiltIn = (s: string) => !(s in Object.prototype);
const BUILT_IN = { error: 'must not be a name every object has (toString, constructor, __proto__, …)' };

/** An id on a sheet (weapon, item, shield): an id that is not a built-in name. */
export const SheetId = Id.refine(notBuiltIn, BUILT_IN).meta(NOT_OBJECT_BUILT_IN);

const SKILL_NAME = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/, {
    error: 'is not a skill name: a letter, then up to 39 letters or digits',
  })
  .refine(notBuiltIn, BUILT_IN)
  .meta(NOT_OBJECT_BUILT_IN);
const rating = Int.min(0).max(20);
const ARMOUR_LIST = z.array(text(40)).max(10);
const stowage = z.enum(['simple', 'awkward']);

/**
 * archsoul.txt: Throw an Item: an item's (or a weapon's) throwing ranges. A thrown weapon's own ranges and damage
 * are its throwing ones (sheet.ts), so they take the bounds of a weapon's: what CombatantJoined records stays within them.
 */
const THROW = z
  .strictObject({
    accurateRange: Int.min(1).max(500).describe('Accurate range in spaces.'),
    maximumRange: Int.min(1).max(1000).optional().describe('At least accurateRange; default accurateRange.'),
    heavy: z
      .boolean()
      .optional()
      .describe('Cumbersome (two hands): Athletics instead of Precision, +1 difficulty; default false.'),
    damage: Int.min(0).max(3000).optional().describe("Default: the weapon's damage (0 for an item)."),
  })
  .describe('Throwing ranges (archsoul.txt: Throw an Item).');

const WEAPON = z
  .strictObject({
    id: SheetId.describe('Unique among the sheet’s weapons, items and shield.'),
    name: text(100).describe('Its name.'),
    type: z.enum(ATTACK_TYPES).optional().describe('Default melee.'),
    damage: Int.min(0)
      .max(3000)
      .optional()
      .describe('Base damage dice (S4); default from weightLb (S37), else 0.'),
    reach: Int.min(0)
      .max(10)
      .optional()
      .describe(
        'Melee and unarmed: reach in spaces, at least 1; default 1. Other weapons have none (0; any other value is refused, S104).',
      ),
    accurateRange: Int.min(1)
      .max(500)
      .optional()
      .describe(
        'Required for ranged, thrown, elemental and soul weapons; refused for melee and unarmed ones, whose throw takes it in thrown (S104).',
      ),
    maximumRange: Int.min(1)
      .max(1000)
      .optional()
      .describe(
        'At least accurateRange; default accurateRange. Refused for melee and unarmed weapons (S104).',
      ),
    strongAgainst: ARMOUR_LIST.optional().describe('Armour types (archsoul.txt: Armor Advantages).'),
    weakAgainst: ARMOUR_LIST.optional().describe('Armour types (archsoul.txt: Armor Advantages).'),
    armourPiercing: z.boolean().optional().describe('Default false.'),
    improvised: z.boolean().optional().describe('Default false (true with weightLb).'),
    broken: z.boolean().optional().describe('Default false.'),
    criticalTable: z.enum(CRITICAL_TABLES).optional().describe("Default the type's table (S2)."),
    soulMagic: z.boolean().optional().describe('Default true for soul, and elemental with attackRoll 0.'),
    attackRoll: Int.min(0)
      .max(1)
      .optional()
      .describe('Thrown and elemental: 1 picks the second attack roll of the table; default 0.'),
    stowage: stowage
      .optional()
      .describe(
        'How it is drawn (S52): simple (Draw Simple Item: scabbard, pouch, bandolier) or awkward (Draw Awkward Item: a backpack, a hard to reach spot). Default awkward for a two-handed weapon that is not a spear, else simple; simple for such a weapon is refused.',
      ),
    held: z
      .boolean()
      .optional()
      .describe(
        'In hand when the fight starts (S51: two hands). true must fit beside the other true ones; unsaid: the first weapon, then the shield, then the other weapons, each while its hands are free.',
      ),
    handling: z.enum(HANDLING).optional().describe('Default light for unarmed, else regular.'),
    twoHanded: z
      .boolean()
      .optional()
      .describe(
        'Fills both hands (S51) and is drawn with Draw Awkward Item unless it has the spear property (S52); default false. An unarmed weapon is worn and soul magic is cast: they fill no hand, and true is refused for them (S105).',
      ),
    hardness: Int.min(0).max(100).optional().describe('Default 0.'),
    closeCombat: z.boolean().optional().describe('Default false (true with the closeCombat property).'),
    properties: z
      .array(z.enum(WEAPON_PROPERTIES).describe('A weapon property (data.ts WEAPON_PROPERTIES).'))
      .max(10)
      .optional()
      .describe('Its properties (data.ts WEAPON_PROPERTIES).'),
    weightLb: Int.min(1).max(100000).optional().describe('Improvised weapons (S37): sets the base damage.'),
    liftingAthletics: Int.min(0)
      .max(30)
      .optional()
      .describe(
        'The Athletics of its Lifting Strength row (S37): an improvised weapon heavier than 10 lb only (weightLb above 10); refused on any other (S105).',
      ),
    areaRadius: Int.min(2)
      .max(100)
      .optional()
      .describe(
        'Area of effect radius in metres (S7): ranged, thrown and elemental weapons only (S34, S104).',
      ),
    hp: Int.min(0).max(1000).optional().describe('Its HP (Shatter damages it, S31); absent: not tracked.'),
    ammunition: z
      .strictObject({
        kind: z.enum(AMMUNITION_KINDS).describe('The ammunition kind.'),
        count: Int.min(0).max(1000).describe('Shots carried.'),
      })
      .optional()
      .describe('The ammunition it shoots; absent for a weapon without.'),
    heavy: z
      .boolean()
      .optional()
      .describe(
        'Thrown weapons only: cumbersome (two hands); default false. Another weapon’s goes in thrown (S104).',
      ),
    thrown: THROW.optional().describe(
      'Any weapon but a thrown one: its throwing ranges (a thrown weapon’s may only repeat its own, S104).',
    ),
  })
  .describe('A weapon on the sheet.');

const ITEM = z
  .strictObject({
    id: SheetId.describe('Unique among the sheet’s weapons, items and shield.'),
    name: text(100).describe('Its name.'),
    stowage: stowage
      .optional()
      .describe(
        'How it is drawn (S52): simple (a pouch, a bandolier) or awkward (a backpack, a hard to reach spot). Default awkward when twoHanded, else simple.',
      ),
    held: z.boolean().optional().describe('In hand when the fight starts (S51: two hands); default false.'),
    twoHanded: z.boolean().optional().describe('Needs both hands (S51); default false.'),
    thrown: THROW.optional().describe('Its throwing ranges, when it can be thrown.'),
  })
  .describe('An item on the sheet (not a weapon or the shield).');

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts applies the rules after it). */
export const ARCHSOUL_SHEET = z
  .strictObject({
    attributes: z
      .strictObject(
        Object.fromEntries(
          ATTRIBUTES.map((a) => [
            a,
            rating.optional().describe(`The ${a} attribute, 0..20 (S1); default 0.`),
          ]),
        ) as Record<(typeof ATTRIBUTES)[number], z.ZodOptional<typeof rating>>,
      )
      .optional()
      .describe('Each 0..20; default 0.'),
    skills: z
      .record(SKILL_NAME, rating)
      .optional()
      .describe(
        'Skill name → rank 0..20; the combat rules name some (data.skills), a sheet may list others.',
      ),
    maxHp: Int.min(1).max(1000).describe('Maximum HP.'),
    hp: Int.min(0).max(1000).optional().describe('At most maxHp; default maxHp.'),
    defense: Int.min(0).max(30).optional().describe('Default 0 (S10).'),
    speed: Int.min(0).max(30).optional().describe(`Spaces per Move; default ${DEFAULT_SPEED}.`),
    metalGauntlets: z
      .boolean()
      .optional()
      .describe('Metal gauntlets: +1 to a punch’s damage roll (S22, ruling S72); default false.'),
    weapons: z.array(WEAPON).max(30).optional().describe('Its weapons (the built-in fist is not listed).'),
    items: z.array(ITEM).max(50).optional().describe('Its items other than weapons and the shield.'),
    anatomy: z.enum(ANATOMIES).optional().describe('Default humanlike (S28).'),
    animalIntelligence: z.boolean().optional().describe('Default false.'),
    size: z.enum(SIZES).optional().describe('Default medium.'),
    shatterResponse: z
      .enum(['roll', 'drop'])
      .optional()
      .describe('Standing policy against a Shatter (S31); default roll.'),
    trampleResponse: z
      .enum(['stop', 'avoid'])
      .optional()
      .describe('Standing policy against a Trample (S35); default stop.'),
    mount: z
      .strictObject({
        name: text(100).optional().describe('Default "Mount".'),
        speed: Int.min(1).max(30).describe('Its speed in spaces per Move (S35).'),
        size: z.enum(SIZES).optional().describe('Default large.'),
        trampleDamage: Int.min(0).max(30).optional().describe('Default 0.'),
      })
      .optional()
      .describe('The mount rides with its rider (S35); the rider starts mounted.'),
    creature: text(40)
      .optional()
      .describe('Creature kind: golem and plant need skill ranks to be sneak attacked.'),
    armour: z
      .strictObject({
        type: text(40).describe('The armour type that strongAgainst and weakAgainst name.'),
        metal: z
          .boolean()
          .optional()
          .describe(
            'Descriptive, for the table: the armour is metal; default false. No rule reads it: the +1 of metal on the limb of an unarmed attack comes from metalGauntlets (a punch) or the attack’s limbArmoured (S22, S72, S105).',
          ),
      })
      .optional()
      .describe('The armour worn (archsoul.txt: Armor Advantages).'),
    shield: z
      .strictObject({
        id: SheetId.optional().describe('Default "shield".'),
        name: text(100).optional().describe('Default "Shield".'),
        bonus: Int.min(0)
          .max(10)
          .describe('Shield Bonus against ranged, thrown and elemental attacks into the front arc (S10).'),
        held: z
          .boolean()
          .optional()
          .describe(
            'Equipped when the fight starts (S51: it fills one hand); unsaid: when a hand is free after the first weapon.',
          ),
        hardness: Int.min(0).max(100).optional().describe('Default 0.'),
        hp: Int.min(0)
          .max(1000)
          .optional()
          .describe('Its HP (Shatter damages it, S31); absent: not tracked.'),
      })
      .optional()
      .describe('The shield it carries (S10).'),
  })
  .describe("A combatant's Archsoul sheet.");
export type ArchsoulSheetInput = z.infer<typeof ARCHSOUL_SHEET>;

/** The fight options this system reads. */
export const ARCHSOUL_OPTIONS = z.strictObject({
  arrowBreakage: z
    .boolean()
    .optional()
    .describe('Arrows and bolts that hit may break (default true); false keeps every one.'),
});

const who = Id.describe('The acting combatant.');
const target = Id.describe('The target combatant.');
const facing = FacingSchema.optional();
const flag = (description: string) => z.boolean().optional().describe(description);
/** C12: the GM's circumstances of an attack. */
const GM_ATTACK = {
  modifier: Int.min(-5)
    .max(5)
    .optional()
    .describe('GM: situational difficulty change of the attack roll; default 0.'),
  damageModifier: Int.min(-5)
    .max(5)
    .optional()
    .describe('GM: situational difficulty change of the damage roll; default 0.'),
  criticalNarration: text(1000)
    .optional()
    .describe('GM: narrates a critical failure instead of rolling its table (S2).'),
};
const limbArmoured = flag(
  "GM: metal armour on the limb of an unarmed attack (S22); default the sheet's metalGauntlets for a punch, false for any other strike (ruling S72).",
);
const unarmedStyle = z
  .enum(['punch', 'other'])
  .optional()
  .describe('Unarmed: other than a punch is +1 difficulty; default punch.');
/** archsoul.txt: Attack Modifiers (S28–S32). */
const MODIFIERS = {
  feint: z
    .union([
      z.strictObject({
        skill: z.enum(['confusion', 'acting']).optional().describe('Default the better one.'),
        facing: facing.describe(
          `Turn the fooled target to this facing. A facing is ${FACINGS_OF_GRIDS} (S5).`,
        ),
      }),
      z.boolean(),
    ])
    .optional()
    .describe('Feint (S28): true, or the skill and the facing to turn the target to.'),
  sneak: flag('Sneak Attack (S30): after three Study actions on an unaware target; default false.'),
  knockdown: flag('Knockdown (S32); default false.'),
  shatter: z
    .strictObject({ itemId: Id.describe("The target's held weapon or shield.") })
    .optional()
    .describe("Shatter (S31): the target's held weapon or shield."),
};
const cleave = z
  .strictObject({
    spaces: z.array(SpaceSchema).max(CLEAVE.spaces).describe('Adjacent spaces within reach, each attacked.'),
  })
  .optional()
  .describe(
    'Cleave: up to 2 adjacent spaces within reach (targetId then optional; named, it stands in one of them, S104).',
  );
const special = z
  .enum(Object.keys(SPECIAL_ATTACKS) as [keyof typeof SPECIAL_ATTACKS])
  .optional()
  .describe('Special attack (S27): quick (1 AP) or reckless (3 AP).');

/** Every archsoul command beyond the lifecycle, declared once. */
export const ARCHSOUL_COMMAND_SCHEMAS = {
  SetMap: command('SetMap', 'GM, between rounds: the battle map.', {
    grid: z.enum(['hex', 'square']).optional().describe('Default hex (S5).'),
    blocked: z.array(SpaceSchema).max(2000).optional().describe('Spaces nobody may enter; default none.'),
    walls: z
      .array(z.tuple([SpaceSchema, SpaceSchema]))
      .max(2000)
      .optional()
      .describe('Each wall stands between two adjacent spaces.'),
  }),
  PlaceCombatant: command('PlaceCombatant', 'GM: put a combatant on a space.', {
    combatantId: Id.describe('The combatant to place.'),
    position: SpaceSchema.describe('The space to put it on.'),
    facing: facing.describe(`Default its facing now. A facing is ${FACINGS_OF_GRIDS} (S5).`),
  }),
  DeclareAmbush: command('DeclareAmbush', 'GM, before round 1: the surprising party.', {
    party: z.enum(['heroes', 'enemies']).describe('The party that surprises the other (S16).'),
  }),
  EndTurn: command('EndTurn', "End a combatant's turn; unused AP are lost.", {
    combatantId: Id.describe('The combatant whose turn ends.'),
    to: SpaceSchema.optional().describe(
      'S43: a free adjacent space to leave a shared space for; default the nearest free one.',
    ),
  }),
  EndPhase: command('EndPhase', 'GM: end every open turn of the running phase.', {}),
  Move: command('Move', 'Move (1 AP, or free in an ambush round).', {
    combatantId: who,
    path: z
      .array(SpaceSchema)
      .min(1)
      .max(200)
      .describe('The spaces stepped into, in order, each adjacent to the one before (S19).'),
    facing: facing.describe(`Default: facing follows the path. A facing is ${FACINGS_OF_GRIDS} (S5).`),
    free: flag('Ambush free movement; default false.'),
    jump: flag('A straight jump (S36); default false.'),
    jumpFrom: Int.min(0)
      .max(199)
      .optional()
      .describe(
        'With jump: the spaces of the path walked before the jump takes off (S55); default 0: the whole path is jumped.',
      ),
    trample: flag('Mounted: trample smaller foes (S35); default false.'),
    vertical: flag('A vertical jump: refused (S41) with ARCHSOUL_VERTICAL_JUMP; default false.'),
    ap: Int.min(1)
      .max(3)
      .optional()
      .describe(
        'With jump: the AP the jumping Move spends, each one use of the Move action; the walk and jump may cover what those Moves walk together (S90); default 1.',
      ),
  }),
  SlowMove: command('SlowMove', 'Slow Move one space (1 AP).', {
    combatantId: who,
    to: SpaceSchema.describe('An adjacent space.'),
    facing: facing.describe(`Default unchanged. A facing is ${FACINGS_OF_GRIDS} (S5).`),
  }),
  Turn: command('Turn', 'Free: rotate on your own turn.', {
    combatantId: who,
    facing: FacingSchema.describe(`The new facing: ${FACINGS_OF_GRIDS} (S5).`),
  }),
  DropProne: command(
    'DropProne',
    'Free: drop to the ground (grappled: after a won grapple roll, S33); a rider comes off its mount (S35).',
    { combatantId: who },
  ),
  StandUp: command('StandUp', 'Stand up from prone (1 AP; triggers reactive attacks).', { combatantId: who }),
  DropItem: command(
    'DropItem',
    'Free: drop a held item in your space (grappled: after a won grapple roll, S33).',
    {
      combatantId: who,
      itemId: Id.describe('The held weapon, item or shield to drop.'),
    },
  ),
  DrawSimpleItem: command(
    'DrawSimpleItem',
    'Draw a one-handed item (1 AP), or pick one up from the ground (triggers reactive attacks).',
    {
      combatantId: who,
      itemId: Id.optional().describe('The item to draw; required without groundId.'),
      groundId: Id.optional().describe('The ground item to pick up instead.'),
    },
  ),
  DrawAwkwardItem: command('DrawAwkwardItem', 'Draw an awkward item (2 AP, consecutive, may span turns).', {
    combatantId: who,
    itemId: Id.describe('The stowed weapon, item or shield to draw (or equip).'),
    fromBackpack: flag(
      'From a backpack: triggers reactive attacks as the draw starts (S25); refused on a draw’s second half (S105); default false.',
    ),
  }),
  Attack: command('Attack', 'Attack (2 AP; quick 1 AP, reckless 3 AP).', {
    attackerId: who,
    targetId: target.optional().describe('Required unless cleave.'),
    weaponId: Id.optional().describe('Default the fist.'),
    unarmedStyle,
    limbArmoured,
    ...GM_ATTACK,
    special,
    ...MODIFIERS,
    cleave,
  }),
  ThrowItem: command(
    'ThrowItem',
    'Throw a held item at a target (1 AP; triggers reactive attacks); a weapon attack, so it takes the attack modifiers (S68).',
    {
      combatantId: who,
      itemId: Id.describe('The held item or weapon to throw.'),
      targetId: target,
      ...GM_ATTACK,
      ...MODIFIERS,
    },
  ),
  ReactiveAttack: command('ReactiveAttack', 'The offered reactor attacks the actor before its action.', {
    combatantId: who,
    weaponId: Id.optional().describe('A melee or unarmed weapon; default the fist.'),
    unarmedStyle,
    limbArmoured,
    ...GM_ATTACK,
    ...MODIFIERS,
    special: special.describe('Refused (S27: special attacks are never reactive).'),
    cleave: cleave.describe('Refused (Cleave cannot be applied to reactive attacks).'),
    grab: flag(
      "Grab (S71): interrupt with a Grab instead of an attack, no AP: an empty hand, no weaponId and no other maneuver; the reactor rolls unarmed against the actor's grapple roll; a success grapples the actor under the reactor's control. Default false.",
    ),
  }),
  DeclineReactiveAttack: command('DeclineReactiveAttack', 'The offered reactor lets the action pass.', {
    combatantId: who,
  }),
  ResumeAction: command(
    'ResumeAction',
    'The actor performs (or abandons) its held action as declared (S18, S50).',
    {
      combatantId: who,
      abandon: flag('Abandon the held action; its AP stay spent; default false.'),
      ...GM_ATTACK,
      limbArmoured,
    },
  ),
  ClearJam: command('ClearJam', 'Clear a jammed firearm (3 AP).', {
    combatantId: who,
    weaponId: Id.describe('The jammed firearm.'),
  }),
  ApplyCondition: command('ApplyCondition', 'GM: apply a condition.', {
    combatantId: Id.describe('The combatant who gets it.'),
    condition: z.enum(CONDITIONS).describe('The condition (data.ts CONDITIONS).'),
    amount: Int.min(1)
      .max(10)
      .optional()
      .describe(
        'The size of slowed, defenseDown or nextAttackHarder (S20); default 1. Refused with any other (S104).',
      ),
    untilNextTurn: flag("Ends at the combatant's next turn; default false."),
    reason: text(500).optional().describe('Default "GM".'),
  }),
  RemoveCondition: command('RemoveCondition', 'GM: remove a condition.', {
    combatantId: Id.describe('The combatant who carries it.'),
    condition: z.enum(CONDITIONS).describe('The condition; every instance of it is removed.'),
  }),
  ApplyDamage: command('ApplyDamage', 'GM: HP damage (a Soul attack effect…).', {
    combatantId: Id.describe('The combatant who takes it.'),
    damage: Int.min(0).max(1000).describe('HP lost (HP stops at 0, S11).'),
    source: text(200).optional().describe('Default "GM".'),
  }),
  Study: command('Study', 'Sneak Attack: one studying action (1 AP) on a target.', {
    combatantId: who,
    targetId: target,
  }),
  HoldFirm: command('HoldFirm', 'Hold Firm (2 AP).', { combatantId: who }),
  ShieldIntercept: command('ShieldIntercept', 'Shield Intercept (1 AP, held shield).', { combatantId: who }),
  SoulShield: command('SoulShield', 'Soul Shield (3 AP, soul magic) on an adjacent ally.', {
    combatantId: who,
    targetId: target,
  }),
  AreaAttack: command('AreaAttack', 'Area of effect attack (2 AP, or 1 AP for a thrown bomb).', {
    attackerId: who,
    weaponId: Id.describe('A ranged, thrown or elemental weapon with areaRadius (S34).'),
    centre: SpaceSchema.describe('The centre space of the area (S7, S14).'),
    ...GM_ATTACK,
  }),
  Grab: command('Grab', 'Grab (2 AP, an empty hand).', { combatantId: who, targetId: target }),
  GrappleAttack: command('GrappleAttack', 'Grappling: Attack (1 AP).', {
    combatantId: who,
    targetId: target,
    weaponId: Id.optional().describe('A held Close Combat weapon; default unarmed.'),
  }),
  Escape: command('Escape', 'Grappling: Escape (2 AP).', { combatantId: who, targetId: target }),
  Steal: command('Steal', 'Grappling: Steal (1 AP, control).', {
    combatantId: who,
    targetId: target,
    itemId: Id.describe("The opponent's weapon, item or shield: in hand or stowed simply (S62)."),
  }),
  Takedown: command('Takedown', 'Grappling: Takedown (1 AP, control).', {
    combatantId: who,
    targetId: target,
  }),
  GrappleThrow: command('GrappleThrow', 'Grappling: Throw (2 AP, control); the grapple ends.', {
    combatantId: who,
    targetId: target,
    outcome: z.enum(['throw', 'knockDown']).optional().describe('Default knockDown.'),
    to: SpaceSchema.optional().describe(
      'With outcome throw (required then): a free space adjacent to the thrower.',
    ),
  }),
  Charge: command('Charge', 'Charge (3 AP, mounted) with a Flail or Lance.', {
    combatantId: who,
    path: z
      .array(SpaceSchema)
      .min(1)
      .max(200)
      .describe('The spaces ridden through, in order, each adjacent to the one before (S19).'),
    targetId: target,
    weaponId: Id.describe('A Flail or a Lance (S35).'),
    trample: flag('Trample smaller foes on the way (S35); default false.'),
    ...GM_ATTACK,
    ...MODIFIERS,
    sneak: MODIFIERS.sneak.describe('Refused (S35).'),
    special: special.describe('Refused (S35: a Charge is its own special attack).'),
    cleave: cleave.describe('Refused (S35).'),
  }),
  Mount: command('Mount', 'Mount (1 AP, S42).', { combatantId: who }),
  Dismount: command('Dismount', 'Dismount (1 AP, S42).', { combatantId: who }),
  Fall: command('Fall', 'GM (S40): a combatant falls and lands prone.', {
    combatantId: Id.describe('The combatant who falls.'),
    damage: Int.min(0).max(1000).describe("The GM's damage."),
    metres: Int.min(0)
      .max(10000)
      .optional()
      .describe('The height fallen; recorded only: the GM states the damage (S40).'),
  }),
  PerformRitual: command('PerformRitual', 'Perform a ritual (S46); its effect is narrated.', {
    combatantId: who,
    name: text(100).describe("The ritual's name."),
    description: text(1000).optional().describe('What it does, for the GM to narrate.'),
    ap: Int.min(RITUAL.minAp).max(RITUAL.maxAp).describe("The ritual's cost."),
    movement: z.boolean().describe('Required (S46): whether it requires movement (refused while grappled).'),
    provokes: z.boolean().describe('Required (S46): whether it triggers reactive attacks.'),
  }),
} satisfies CommandSchemas;

export type ArchsoulCommands = typeof ARCHSOUL_COMMAND_SCHEMAS;
/** A command as its schema parses it. */
export type ArchsoulCommand<T extends keyof ArchsoulCommands> = z.infer<ArchsoulCommands[T]>;

/* ------------------------------------------------------------------------------------------------------------
 * Events: the data of every event `decide` emits for Archsoul (the lifecycle's are core's), declared once; the
 * TypeScript types of events.ts and the union `evolve` narrows are inferred from them.
 * ---------------------------------------------------------------------------------------------------------- */

const DICE_FIELDS = { dice: true, rerollFaces: true, followUpFaces: true } as const;
const Count = Int.min(0);
const Name = z.string();

/** S1: one test as rolled. */
export const TestResultSchema = z
  .strictObject({
    pool: Count.describe('Dice in the pool: attribute + skill (S1), before any are removed.'),
    difficulty: Int.describe('The difficulty with its modifiers, 2..6 (S1).'),
    removed: Count.describe('Dice removed because the difficulty went above 6 (S1).'),
    roll: RollSchema.describe('The dice rolled: pool less removed, d6 (C1).'),
    successes: Count.describe('Dice showing the difficulty or more (S1).'),
    criticalFailure: z
      .boolean()
      .describe(
        'Zero successes with more than half the dice on 1 (S2), on any test; a critical failure table is rolled only for an attack roll’s (CriticalFailureRolled).',
      ),
    modifiers: z
      .array(
        z
          .strictObject({
            reason: Name.describe('Why, in words.'),
            amount: Int.describe('Steps added to the difficulty; negative makes it easier.'),
          })
          .describe('One change of the difficulty.'),
      )
      .describe('Why the difficulty moved from its base.'),
  })
  .describe('S1: one test as rolled.');

const PartySchema = z
  .enum(['heroes', 'enemies'])
  .describe('A party (S16): enemies (side "enemies", the GM’s) or heroes (every other side).');
export const TRIGGERS = [
  'rangedAttack',
  'leaveReach',
  'standUp',
  'pickUp',
  'backpack',
  'soulMagic',
  'ritual',
  'criticalFailure',
  'grab',
  'trample',
  'landing',
] as const;
const ConditionSchema = z.enum(CONDITIONS).describe('A condition (data.ts CONDITIONS).');
const Trigger = z.enum(TRIGGERS).describe('What triggered the reactive attacks (S8, S13, S18).');

/** The attack a Charge makes at the end of its path (the Charge command's attack fields). */
const ChargeAttackSchema = ARCHSOUL_COMMAND_SCHEMAS.Charge.omit({
  ...DICE_FIELDS,
  type: true,
  combatantId: true,
  path: true,
  trample: true,
});

/** A Move (or Charge) held while reactive attacks are answered: the rest of its path. */
export const MovePayloadSchema = z.strictObject({
  combatantId: Name,
  path: z.array(SpaceSchema),
  facing: FacingSchema.optional(),
  budget: Int,
  action: z.enum(['move', 'slowMove', 'free', 'charge']),
  jump: z
    .boolean()
    .optional()
    .describe('archsoul.txt: Jumping: the path is one jump (S36), after jumpFrom walked spaces.'),
  jumpFrom: Int.optional().describe('S55: the spaces of the path walked before the jump; default 0.'),
  trample: z.boolean().optional().describe('archsoul.txt: Trample (S35).'),
  trampled: z.array(Name).optional().describe('Foes already trampled.'),
  trampleThrough: Name.optional().describe('The foe being passed, whose forced reactive attack is answered.'),
  charge: ChargeAttackSchema.optional().describe(
    'archsoul.txt: Charge: the attack made at the end of the movement.',
  ),
});

const held = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.strictObject({ type: z.literal(type), payload });
const mover = z.strictObject({ combatantId: Name });

/** S18: an action held while reactive attacks are answered, with what it needs to be performed. */
export const HeldActionSchema = z.discriminatedUnion('type', [
  held('Attack', ARCHSOUL_COMMAND_SCHEMAS.Attack.omit(DICE_FIELDS).extend({ weaponId: Name })),
  held('ThrowItem', ARCHSOUL_COMMAND_SCHEMAS.ThrowItem.omit(DICE_FIELDS)),
  held('AreaAttack', ARCHSOUL_COMMAND_SCHEMAS.AreaAttack.omit(DICE_FIELDS)),
  held('Move', MovePayloadSchema),
  held('Charge', MovePayloadSchema),
  held('StandUp', mover),
  held('DrawSimpleItem', mover.extend({ groundId: Name })),
  held('DrawAwkwardItem', mover.extend({ itemId: Name, ap: Int })),
  held('SoulShield', mover.extend({ targetId: Name })),
  held('Grab', mover.extend({ targetId: Name })),
  held(
    'PerformRitual',
    mover.extend({
      name: Name,
      description: Name.optional(),
      ap: Int,
      movement: z.boolean(),
      provokes: z.boolean(),
    }),
  ),
]);

/** archsoul.txt: Critical Failure Tables: what a result does (data.ts CRITICAL_FAILURES). */
export const CriticalEffectSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('drop'), at: z.enum(['self', 'target']) }),
  z.strictObject({ kind: z.literal('nextAttack'), amount: Int }),
  z.strictObject({ kind: z.literal('defense'), amount: Int }),
  z.strictObject({ kind: z.literal('speed'), amount: Int }),
  z.strictObject({ kind: z.literal('reactive') }),
  z.strictObject({ kind: z.literal('weaponDamage') }),
  z.strictObject({ kind: z.literal('jam') }),
  z.strictObject({ kind: z.literal('selfDamage'), amount: Int }),
  z.strictObject({
    kind: z.literal('area'),
    damage: Int,
    radiusMetres: Int,
    weapon: z.enum(['repair', 'destroyed']),
  }),
  z.strictObject({ kind: z.literal('redirect'), to: z.enum(['adjacent', 'ally']) }),
  z.strictObject({ kind: z.literal('repair') }),
  z.strictObject({ kind: z.literal('prone') }),
  z.strictObject({ kind: z.literal('selfDamageRoll'), max: Int }),
  z.strictObject({ kind: z.literal('drain'), amount: Int }),
  z.strictObject({ kind: z.literal('shift') }),
  z.strictObject({ kind: z.literal('soulpower'), amount: Int }),
]);

const actorReactor = z.strictObject({
  actorId: Name.describe('The combatant whose action triggered the reactive attack.'),
  reactorId: Name.describe('The combatant who may make it.'),
});
const arc = z
  .enum(['front', 'back'])
  .describe(
    'The arc of the target the attack came from (S5): front under Hold Firm, back with no front arc.',
  );
/** A critical failure of soul magic (its table's drain and Soulpower entries). */
const drained = z.strictObject({
  combatantId: Name.describe('The combatant who failed critically.'),
  amount: Int.describe('Points added by this critical failure.'),
  total: Int.describe('Its total now (the view’s drain or soulpowerLoss).'),
});
const attackerId = Name.describe('The attacking combatant.');
const attackedId = Name.describe('The combatant attacked.');
const attackWeaponId = Name.describe(
  'The weapon (or thrown item) attacked with; "fist" for the fist: the built-in one, or the sheet’s weapon of that id (S96).',
);

/** Every Archsoul event type `decide` emits → the schema of its data. */
export const ARCHSOUL_EVENT_SCHEMAS = {
  MapSet: z.strictObject({
    grid: z.enum(['hex', 'square']).describe('The grid (S5).'),
    blocked: z.array(SpaceSchema).describe('Spaces nobody may enter.'),
    walls: z
      .array(z.tuple([SpaceSchema, SpaceSchema]))
      .describe('Each wall stands between two adjacent spaces.'),
  }),
  CombatantPlaced: z.strictObject({
    combatantId: Name.describe('The combatant placed.'),
    position: SpaceSchema.describe('Its space.'),
    facing: FacingSchema.describe('Its facing (S5).'),
  }),
  AmbushDeclared: z.strictObject({ party: PartySchema.describe('The surprising party.') }),
  PhaseStarted: z.strictObject({
    round: Int.describe('The round.'),
    index: Count.describe('0 for the round’s first phase (S17).'),
    party: PartySchema.describe('The party acting in it (S12, S17).'),
    combatantIds: z.array(Name).describe('Who gets a turn in it (S17); Down combatants are left out.'),
  }),
  PhaseEnded: z.strictObject({
    round: Int.describe('The round.'),
    index: Count.describe('0 for the round’s first phase (S17).'),
    party: PartySchema.describe('The party that acted in it.'),
  }),
  TurnStarted: z.strictObject({
    combatantId: Name.describe('The combatant whose turn starts.'),
    round: Int.describe('The round.'),
    ap: Count.describe('Its action points for the turn: 3 (C7).'),
    freeMove: Count.describe(
      'Ambush free movement (spaces) in the first round of combat for the surprising party; else 0.',
    ),
    expired: z.array(ConditionSchema).describe('Conditions that ended with this turn (C7).'),
  }),
  TurnEnded: z.strictObject({
    combatantId: Name.describe('The combatant whose turn ends.'),
    apLost: Count.describe('Action points left unused, now lost (C7).'),
  }),
  ApSpent: z.strictObject({
    combatantId: Name.describe('The combatant who pays.'),
    action: z
      .enum(Object.keys(AP_COST) as [keyof typeof AP_COST])
      .describe('The action paid for (data.ts AP_COST).'),
    ap: Count.describe('Action points spent.'),
    apLeft: Count.describe('Action points left this turn.'),
  }),
  Moved: z.strictObject({
    combatantId: Name.describe('The combatant who moved (or was moved).'),
    action: z
      .enum(['move', 'slowMove', 'free', 'shift', 'takedown', 'thrown', 'dragged', 'charge', 'pushed'])
      .describe(
        'How: move, slowMove, free (ambush), charge; shift (critical shift, S45), takedown, thrown, dragged (grappling), pushed (out of a shared space, S43).',
      ),
    path: z.array(SpaceSchema).describe('The spaces entered, in order.'),
    from: SpaceSchema.describe('Where it stood before.'),
    to: SpaceSchema.describe('Where it stands now: the last space of path.'),
    facing: FacingSchema.describe('Its facing after the move (S5).'),
    distance: Count.describe('Spaces moved: the length of path.'),
    stoppedBefore: Count.optional().describe(
      'Spaces of the path left when reactive attacks stopped the walk.',
    ),
    jump: z.literal(true).optional().describe('Present when the move includes a jump (S36, S55).'),
  }),
  Turned: z.strictObject({
    combatantId: Name.describe('The combatant turned.'),
    facing: FacingSchema.describe('Its new facing (S5).'),
  }),
  ConditionApplied: z.strictObject({
    combatantId: Name.describe('The combatant who gets it.'),
    condition: ConditionSchema,
    amount: Int.describe(
      'Its size: Defense lost (defenseDown), speed lost (slowed), difficulty added (nextAttackHarder); else 1.',
    ),
    untilNextTurn: z.boolean().describe('Ends at the holder’s (or sourceId’s) next turn (C7).'),
    reason: Name.optional().describe('Why, in words (the rule, the attacker, or "GM").'),
    sourceId: Name.optional().describe("Whose next turn ends it, when not the holder's."),
  }),
  ConditionRemoved: z.strictObject({
    combatantId: Name.describe('The combatant who loses it.'),
    condition: ConditionSchema,
    reason: Name.optional().describe('Why, in words (the rule, or "GM").'),
  }),
  ItemDrawn: z.strictObject({
    combatantId: Name.describe('The combatant who draws or picks it up.'),
    itemId: Name.describe(
      'The weapon, item or shield drawn; picking up ammunition, the weapon it returns to.',
    ),
    from: z.enum(['stowed', 'ground']).describe('Drawn from its stowage, or picked up from the ground.'),
    groundId: Name.optional().describe('The ground entry picked up; absent when drawn from stowage.'),
  }),
  AwkwardDrawStarted: z.strictObject({
    combatantId: Name.describe('The combatant drawing.'),
    itemId: Name.describe('The item whose second AP of Draw Awkward Item is still to pay (S25, S66).'),
  }),
  ItemDropped: z.strictObject({
    combatantId: Name.describe('The combatant who drops it.'),
    itemId: Name.describe('The weapon, item or shield dropped.'),
    groundId: Name.describe('Its ground entry (g1, g2, …): what DrawSimpleItem picks up.'),
    name: Name.describe('Its name on the sheet.'),
    space: SpaceSchema.describe('Where it lies.'),
    reason: Name.describe('Why, in words (a free drop, a critical failure, a Shatter).'),
  }),
  ProjectileLanded: z.strictObject({
    combatantId: Name.describe('The combatant who threw or shot it.'),
    weaponId: Name.describe('The weapon thrown or shot with.'),
    itemId: Name.describe('What landed: the thrown weapon or item, or "weaponId:kind" for ammunition.'),
    name: Name.describe('Its name: the thrown thing’s, or the ammunition kind.'),
    space: SpaceSchema.describe('Where it landed (S21).'),
    groundId: Name.optional().describe('Absent when nothing recoverable lies there.'),
    ammunition: z
      .enum(AMMUNITION_KINDS)
      .optional()
      .describe('The ammunition kind of a shot; absent for a thrown thing.'),
    broken: z.boolean().describe('Spent: a bullet, an arrow or bolt that broke, or a spent area weapon.'),
    breakRoll: RollSchema.optional().describe(
      'The d6 for an arrow or bolt (a 1 breaks it); absent when not rolled (other ammunition, arrowBreakage false).',
    ),
    reason: Name.describe('Why it landed there, in words.'),
  }),
  AmmunitionSpent: z.strictObject({
    combatantId: Name.describe('The combatant who shot.'),
    weaponId: Name.describe('The weapon whose ammunition was used.'),
    left: Count.describe('Shots left.'),
  }),
  ExchangeResolved: z.strictObject({
    attackerId,
    targetId: attackedId,
    weaponId: attackWeaponId,
    attackType: z.enum(ATTACK_TYPES).describe('The weapon’s attack type.'),
    action: z
      .enum(['attack', 'throw', 'reactive'])
      .describe('An Attack or Charge, a ThrowItem, or a reactive attack.'),
    distance: Count.describe('Spaces between attacker and target.'),
    targetArc: arc,
    attack: TestResultSchema.optional().describe(
      'Absent when it missed unrolled: a failed feint, or the targeted item dropped against a Shatter (S31).',
    ),
    defense: Count.describe('The target’s Defense now (S10); 0 against a Shatter.'),
    shieldBonus: Count.describe('The Shield Bonus that applied (S10); 0 where none does.'),
    resistance: Count.describe(
      'What the attack’s successes must exceed (S3): defense + shieldBonus, the soulDefence successes, or the Shatter item roll’s (S31).',
    ),
    soulDefence: TestResultSchema.optional().describe(
      'The target’s Soulpower/Resolve roll at 4 against a Soul attack (S10, S24); absent otherwise.',
    ),
    hit: z.boolean().describe('The attack’s successes exceeded resistance (S3).'),
    special: z
      .enum(Object.keys(SPECIAL_ATTACKS) as [keyof typeof SPECIAL_ATTACKS])
      .optional()
      .describe('The special attack made (S27); absent for a plain one.'),
    maneuvers: z
      .array(z.enum(ATTACK_MODIFIERS).describe('An attack modifier (S28–S32).'))
      .optional()
      .describe('The attack modifiers used (S28–S32); absent when none.'),
    automaticMiss: Name.optional().describe(
      'Why it missed unrolled (Feint: "the declared attack automatically misses"; Shatter: the item was dropped).',
    ),
  }),
  FeintResolved: z.strictObject({
    attackerId,
    targetId: attackedId,
    feint: TestResultSchema.describe('The Precision/Confusion or Precision/Acting roll at 5 (S28).'),
    defence: TestResultSchema.describe('The target’s Intellect/Read Emotions roll at 4.'),
    success: z.boolean().describe('The feint’s successes exceeded the defence’s.'),
    facing: FacingSchema.optional().describe('The facing the target was turned to; absent when unchanged.'),
  }),
  KnockdownResolved: z.strictObject({
    attackerId,
    targetId: attackedId,
    damageRoll: TestResultSchema.describe('The damage roll against resist; its damage is ignored (S32).'),
    resist: TestResultSchema.describe('The target’s Athletics/Resolve roll at 3.'),
    knockedDown: z
      .boolean()
      .describe('The damage successes (with a metal limb’s +1, S22) exceeded resist’s.'),
  }),
  ShatterResolved: z.strictObject({
    attackerId,
    targetId: attackedId,
    itemId: Name.describe('The targeted weapon or shield (S31).'),
    dropped: z
      .boolean()
      .describe('The target dropped the item instead of rolling (S31); nothing was struck.'),
    defence: TestResultSchema.optional().describe(
      'The targeted item’s weapon attack roll in place of a defence; absent when dropped.',
    ),
    winner: z
      .enum(['attacker', 'defender', 'tie'])
      .optional()
      .describe('Whose roll was higher; a tie damages nothing. Absent when dropped.'),
    damagedId: Name.optional().describe('The owner of the item damaged; absent when none.'),
    damagedItemId: Name.optional().describe('The weapon or item damaged: the loser’s; absent when none.'),
    damageRoll: TestResultSchema.optional().describe('The winner’s damage roll; absent when none.'),
    hardness: Count.describe('The damaged item’s hardness, taken off the damage; 0 when none.'),
    damage: Count.describe(
      'Damage to the item: the roll’s successes (and bonus) less its hardness, at least 0.',
    ),
  }),
  Dismounted: z.strictObject({
    combatantId: Name.describe('The rider.'),
    reason: Name.describe('Why, in words (at will, fell prone, knocked down…).'),
    at: SpaceSchema.optional().describe('S42: where the mount waits.'),
  }),
  Mounted: z.strictObject({
    combatantId: Name.describe('The rider.'),
    at: SpaceSchema.describe('Where the mount waited (S42).'),
  }),
  Fell: z.strictObject({
    combatantId: Name.describe('The combatant who fell.'),
    metres: Count.optional().describe('The height fallen, as the GM gave it.'),
    damage: Count.describe("The GM's damage (S40); a WoundsApplied follows."),
  }),
  RitualPerformed: z.strictObject({
    combatantId: Name.describe('The combatant who performed it.'),
    name: Name.describe("The ritual's name."),
    description: Name.optional().describe('What it does, for the GM to narrate.'),
    ap: Int.describe("The ritual's cost (S46)."),
    movement: z.boolean().describe('It requires movement (S46).'),
    provokes: z.boolean().describe('It triggers reactive attacks (S46).'),
  }),
  StudyTaken: z.strictObject({
    combatantId: Name.describe('The combatant studying.'),
    targetId: Name.describe('The combatant studied.'),
    count: Int.describe('Consecutive Study actions on that target so far; 3 allow a Sneak Attack (S30).'),
  }),
  AreaAttackResolved: z.strictObject({
    attackerId,
    weaponId: attackWeaponId,
    action: z
      .enum(['attack', 'cleave', 'throw'])
      .describe('An AreaAttack, a Cleave, or a thrown area weapon.'),
    spaces: z.array(SpaceSchema).describe('The spaces of the area (S7, S14), or the cleaved ones.'),
    attack: TestResultSchema.describe(
      'The one attack roll (S34), at the lowest difficulty any target needs; each target recounts it.',
    ),
    targets: z
      .array(
        z
          .strictObject({
            targetId: Name.describe('The combatant in the area.'),
            targetArc: arc,
            difficulty: Int.describe('Its own difficulty for the roll (S34).'),
            successes: Count.describe('The roll’s successes at that difficulty.'),
            defense: Count.describe('Its Defense now (S10).'),
            shieldBonus: Count.describe('The Shield Bonus that applied (S10); 0 where none does.'),
            resistance: Count.describe('Defense plus shieldBonus: what successes must exceed (S3).'),
            hit: z.boolean().describe('Its successes exceeded its resistance.'),
          })
          .describe('One target’s recount of the area roll (S34).'),
      )
      .describe('Every combatant in the area, each defending separately.'),
  }),
  GrappleRolled: z.strictObject({
    actorId: Name.describe('The combatant acting (grabbing, attacking, escaping, …) (S33).'),
    opponentId: Name.describe('The other member of the grapple.'),
    purpose: Name.describe(
      'The action rolled for: Grab, Attack, Escape, Steal, Takedown, Throw, or another gated one.',
    ),
    actor: TestResultSchema.describe('The actor’s grapple roll (S33).'),
    opponent: TestResultSchema.describe('The opponent’s grapple roll.'),
    winnerId: Name.optional().describe(
      'Who won: a tie goes to the member with control (no grapple yet: the defender, S3).',
    ),
    success: z.boolean().describe('The actor won.'),
    weaponId: Name.optional().describe(
      'A Grab, grapple Attack or Throw: the weapon it attacks with (the fist, or the held Close Combat weapon whose damage a grapple Attack deals); an attack made with it, won or lost, for Quick Attack (S98, S102).',
    ),
  }),
  GrappleStarted: z.strictObject({
    grappleId: Name.describe('The grapple (gr1, gr2, …).'),
    memberIds: z.tuple([Name, Name]).describe('The grabber, then the grabbed.'),
    controlId: Name.describe('The member with control: the grabber (S33).'),
  }),
  GrappleControlChanged: z.strictObject({
    grappleId: Name.describe('The grapple.'),
    controlId: Name.describe('The member who now has control (S33).'),
  }),
  GrappleEnded: z.strictObject({
    grappleId: Name.describe('The grapple.'),
    reason: Name.describe('Why it ended, in words (an escape, a throw, a fall, S47…).'),
  }),
  ItemStolen: z.strictObject({
    combatantId: Name.describe('The thief.'),
    fromId: Name.describe('The combatant robbed.'),
    itemId: Name.describe('The weapon, item or shield taken.'),
    name: Name.describe('Its name on the owner’s sheet.'),
  }),
  ItemTaken: z
    .strictObject({
      combatantId: Name.describe('The combatant who picked it up.'),
      fromId: Name.describe('Its owner.'),
      itemId: Name.describe('The weapon, item or shield taken.'),
      name: Name.describe('Its name on the owner’s sheet.'),
      groundId: Name.describe('The ground entry picked up.'),
    })
    .describe("S60: another combatant's item picked up from the ground, carried like a stolen one."),
  WoundsApplied: z.strictObject({
    combatantId: Name.describe('The combatant wounded.'),
    source: Name.describe(
      'What dealt it, in words: "attackerId:weaponId" (a grapple or trample noted), a critical failure’s text, a fall, or the GM’s source.',
    ),
    damageRoll: TestResultSchema.optional().describe(
      'The damage roll (S4); an area’s or a Cleave’s one roll as this target recounts it, at its own difficulty with the dice it counts (S34); absent for a fixed amount.',
    ),
    bonus: Count.describe('Added to the roll’s successes: a metal limb’s +1 (S22); else 0.'),
    damage: Count.describe('HP damage dealt.'),
    hpBefore: Count.describe('HP before.'),
    hp: Count.describe('HP after, never below 0 (S11).'),
    down: z.boolean().describe('HP reached 0: the combatant is Down (S11).'),
  }),
  CriticalFailureRolled: z.strictObject({
    combatantId: Name.describe('The combatant who failed critically (S2).'),
    weaponId: Name.describe('The weapon of the failed roll.'),
    table: z.enum(CRITICAL_TABLES).describe('The critical failure table rolled on (S2).'),
    roll: RollSchema.optional().describe('Absent when narrated.'),
    face: Count.describe('The d6 face, 1–6; 0 when narrated.'),
    text: Name.describe('The table entry’s text, or the GM’s narration.'),
    effect: CriticalEffectSchema.optional().describe('What the entry does (S20); absent when narrated.'),
    narrated: z.literal(true).optional().describe('The GM narrated it instead of rolling (S2).'),
  }),
  WeaponChanged: z.strictObject({
    combatantId: Name.describe('The weapon’s owner.'),
    weaponId: Name.describe('The weapon (or shield).'),
    broken: z.boolean().describe('Broken now (S22: +1 difficulty).'),
    destroyed: z.boolean().describe('Destroyed now: it leaves its owner’s hands.'),
    jammed: z.boolean().describe('Jammed now (ClearJam clears it).'),
    hp: Count.optional().describe('Its HP now; absent when unchanged or it has none.'),
    reason: Name.describe('Why, in words.'),
  }),
  DrainSuffered: drained,
  SoulpowerLowered: drained,
  ReactiveAttackTriggered: z.strictObject({
    actorId: Name.describe('The combatant whose action triggered the reactive attacks.'),
    trigger: Trigger,
    reactorIds: z.array(Name).describe('The combatants who may react, offered one at a time (S18).'),
    action: HeldActionSchema.optional().describe(
      'The action held until they are answered (S18); absent when none waits.',
    ),
    interrupts: Name.optional().describe(
      'S20: the actor whose reactive attacks are being answered, when a reactive attack left its attacker open: this sequence comes first, then that one resumes where it was; absent otherwise.',
    ),
  }),
  ReactiveAttackOffered: actorReactor,
  ReactiveAttackDeclined: actorReactor,
  ReactiveGrabAttempted: actorReactor.describe(
    'S71: the offered reactor interrupts with a Grab instead of an attack; its grapple roll follows.',
  ),
  ReactiveAttackLapsed: actorReactor.extend({
    reason: Name.describe(
      'Why it was not offered: the action was prevented, or the reactor can no longer react.',
    ),
  }),
  PreventionRolled: z.strictObject({
    combatantId: Name.describe('The actor whose action may be prevented.'),
    reactorId: Name.describe('The reactor whose attack hit.'),
    damage: Count.describe('Damage the reactive attack dealt.'),
    test: TestResultSchema.optional().describe(
      'The actor’s Endurance/Resolve roll at 3 (S8); absent when prevented without a roll.',
    ),
    prevented: z.boolean().describe('The action is prevented: the roll did not exceed damage (S8, S13).'),
    reason: Name.describe('Why, in words, with the rule.'),
  }),
  ReactionsFinished: z.strictObject({
    actorId: Name.describe('The combatant whose action triggered them.'),
    prevented: z.boolean().describe('A reactive attack prevented the action.'),
    action: HeldActionSchema.optional().describe(
      'The held action, now to be resumed with ResumeAction unless prevented; absent when none.',
    ),
  }),
  ActionResumed: z.strictObject({
    combatantId: Name.describe('The actor.'),
    action: HeldActionSchema.describe('The held action (S18, S50).'),
    abandoned: z.boolean().describe('Abandoned instead of performed; its AP stay spent.'),
  }),
} satisfies Record<string, z.ZodType>;

/** S9: one combatant's initiative roll; the enemies share the GM's roll. */
export const ARCHSOUL_INITIATIVE_ROLL = z.strictObject({
  combatantId: Name,
  roll: RollSchema,
  total: Count,
  shared: z.literal(true).optional().describe("S9: the GM's single roll, shared by every enemy."),
  rollOff: Int.optional().describe('The d6 roll-off face of a tie.'),
});

/* ------------------------------------------------------------------------------------------------------------
 * View: what `view(state)` returns (view.ts), declared once; view.ts is typed by it.
 * ---------------------------------------------------------------------------------------------------------- */

/** A space as the view shows it (placed, moved, landed: never checked against a command's bounds again). */
const ViewSpace = z
  .strictObject({
    x: Int.describe('Hex: the axial q; square: the column, growing rightward (S5).'),
    y: Int.describe('Hex: the axial r, growing downward; square: the row, growing upward (S5).'),
  })
  .describe('A space of the battle map (S5).');

const CombatantView = z
  .strictObject({
    id: Name.describe('The combatant’s id.'),
    name: Name.describe('Its name.'),
    side: Name.describe('Its side; opponents are on other sides.'),
    party: PartySchema.describe('S16: side "enemies" is the GM’s party; every other side is a hero.'),
    state: z.enum(['Active', 'Down']).describe('Down at 0 HP (RULINGS.md S11).'),
    hp: Int.describe('HP now, never below 0 (S11).'),
    maxHp: Int.describe('The sheet’s maxHp.'),
    defense: Count.describe('Defense now: the sheet’s, less any defenseDown condition, never below 0 (S10).'),
    baseDefense: Count.describe('The sheet’s Defense.'),
    shieldBonus: Count.describe(
      'What the shield adds now against ranged, thrown and elemental attacks into its front arc (S10): the held shield’s bonus; 0 with no shield in hand, a destroyed one, or no front arc (grappled or Down).',
    ),
    speed: Count.describe(
      'Spaces per Move now: the mount’s speed while mounted (S35; the rider’s slowed condition does not lessen it, S86); on foot, the sheet’s speed less any slowed condition (an ankle sprain, S20), never below 0.',
    ),
    baseSpeed: Count.describe('The sheet’s speed.'),
    attributes: z
      .strictObject(
        Object.fromEntries(
          ATTRIBUTES.map((a) => [
            a,
            Count.describe(`The sheet’s ${a} attribute (S1); 0 when it gives none.`),
          ]),
        ) as Record<(typeof ATTRIBUTES)[number], typeof Count>,
      )
      .describe(
        'The sheet’s attributes, each 0 when it gives none (S1): a test rolls attribute + skill dice (the attack-type table names which for each attack and damage roll). A Soulpower roll takes soulpowerLoss off it.',
      ),
    skills: z
      .record(Name, Count)
      .describe(
        'The sheet’s skill ranks by name, as it lists them (a skill it does not list is 0; the combat rules name some, data.skills, a sheet may list others): a test rolls attribute + skill dice (S1).',
      ),
    initiative: Int.nullable().describe('Its initiative total; null until rolled (SetInitiative sets none).'),
    position: ViewSpace.nullable().describe('Its space on the battle map; null until placed.'),
    facing: FacingSchema.describe('RULINGS.md S5: a hex grid uses six of the eight.'),
    hasFrontArc: z.boolean().describe('False while Down or grappled: every attacker is in its back arc.'),
    ap: Count.describe('Action points left this turn (3 at the start of its turn, C7).'),
    inTurn: z.boolean().describe('Its turn in the running phase is open (S12).'),
    moves: Count.describe('Move actions taken this turn (S6, S14).'),
    moveDistance: Count.describe(
      'Spaces this combatant walked this turn (its Moves, free and Slow Moves); a third Move covers 6 × speed less these (RULINGS.md S14).',
    ),
    freeMove: Count.describe('Ambush free movement left in round 1.'),
    held: z.array(Name).describe('Ids of the weapons, items and shield in hand (and unarmed weapons worn).'),
    hands: z
      .tuple([Name.nullable(), Name.nullable()])
      .describe(
        'S51: what each of the two hands holds, an id or null when empty; a two-handed weapon stands in both.',
      ),
    freeHands: Count.describe(
      'S51: empty hands (0–2): drawing, equipping a shield, picking up and Grab need them.',
    ),
    awkwardDraw: Name.nullable().describe(
      'The item id of an awkward draw in progress (S25); null when none.',
    ),
    conditions: z
      .array(
        z
          .strictObject({
            condition: ConditionSchema,
            amount: Int.describe(
              'Its size: Defense lost (defenseDown), speed lost (slowed), difficulty added (nextAttackHarder); else 1.',
            ),
            untilNextTurn: z.boolean().describe('Ends at the holder’s (or sourceId’s) next turn (C7).'),
            sourceId: Name.optional().describe(
              'Whose next turn ends it, when not the holder’s (a Soul Shield’s caster).',
            ),
          })
          .describe('A condition as applied (ConditionApplied).'),
      )
      .describe('The conditions it carries.'),
    weapons: z
      .array(
        z
          .strictObject({
            id: Name.describe('Its id on the sheet.'),
            name: Name.describe('Its name.'),
            type: z.enum(ATTACK_TYPES).describe('Its attack type.'),
            held: z.boolean().describe('In hand (an unarmed weapon: worn).'),
            damage: Count.describe(
              'Base damage dice (S4), added to its damage roll’s pool (an elemental weapon’s only with attackRoll 1): the sheet’s, else from weightLb (S37), else 0.',
            ),
            reach: Count.describe(
              'Melee and unarmed: spaces its attack reaches, and within which it makes reactive attacks (archsoul.txt: Attacking, Reactive Attack; S13). 0 for any other weapon, which has a range.',
            ),
            accurateRange: Count.nullable().describe(
              'Ranged, thrown, elemental and soul weapons: spaces within which a ranged or thrown attack takes no range penalty; beyond it, +1 difficulty (archsoul.txt: Ranged Weapon, Thrown Weapon; a heavy improvised weapon’s throw may reach less, S37). null for a melee or unarmed weapon (its throw, if any, is ThrowItem’s).',
            ),
            maximumRange: Count.nullable().describe(
              'Ranged, thrown, elemental and soul weapons: the farthest a target may stand, in spaces (archsoul.txt: Ranged Weapon); the sheet’s, or accurateRange. null for a melee or unarmed weapon.',
            ),
            properties: z
              .array(z.enum(WEAPON_PROPERTIES).describe('A weapon property (data.ts WEAPON_PROPERTIES).'))
              .describe(
                'Its properties: flail or lance make a Charge (S35), polearm adds the charging mount’s speed to the damage pool of its reactive attack against a Charge, closeCombat deals its damage in a grapple (S33), spear is drawn with Draw Simple Item though two-handed (S52).',
              ),
            handling: z
              .enum(HANDLING)
              .describe(
                'Light, semi-light or regular: a Quick Attack with a weapon that is not light, or beside one in the other hand, is harder (S27); a Cleave takes a regular one (archsoul.txt: Quick Attack, Cleave).',
              ),
            twoHanded: z
              .boolean()
              .describe(
                'Fills both hands (S51): no Quick Attack with it ("a one-handed weapon"), and it is drawn with Draw Awkward Item unless it has the spear property (S52).',
              ),
            armourPiercing: z
              .boolean()
              .describe(
                'Its armour advantages apply to its damage roll too, not only its attack roll (archsoul.txt: Armor Advantages).',
              ),
            strongAgainst: z
              .array(Name)
              .describe(
                'Armour types it is strong against: its attack roll (and, armourPiercing, its damage roll) is 1 easier against a target wearing one (archsoul.txt: Armor Advantages).',
              ),
            weakAgainst: z
              .array(Name)
              .describe(
                'Armour types it is weak against: its attack roll (and, armourPiercing, its damage roll) is 1 harder against a target wearing one (archsoul.txt: Armor Advantages).',
              ),
            attackPool: Count.describe(
              'Dice of its attack roll, as the decider counts them (attackPool): an Attack with it, a thrown weapon’s ThrowItem. The attack-type table’s attribute + skill for its type (S1; a cumbersome throw’s or an elemental attackRoll 1’s second row), Soulpower less soulpowerLoss, capped by a heavy improvised weapon’s Attribute Maximum (S37); before dice are removed for a difficulty above 6. A ThrowItem of a weapon that is not a thrown one rolls the thrown row instead.',
            ),
            damagePool: Count.nullable().describe(
              'Dice of its damage roll, as the decider counts them (damageSetup), before a Charge’s bonus dice (S4, the attack-type table): its type’s attribute + skill + damage; an elemental weapon rolls Soulpower/Evocation, or its damage alone with attackRoll 1. null for a soul weapon, which rolls no damage (S93).',
            ),
            broken: z.boolean().describe('Broken (S22).'),
            destroyed: z
              .boolean()
              .describe(
                'Destroyed (or a thrown area weapon spent where it landed, S34): out of its hands and unusable.',
              ),
            jammed: z
              .boolean()
              .describe(
                'Jammed until ClearJam (a firearm): it cannot shoot; a melee or unarmed weapon still strikes (S95).',
              ),
            hp: Count.optional().describe('Absent when the sheet gives it none.'),
            ammunition: Count.optional().describe(
              'Shots left, each attack that shoots spends one (a melee or unarmed attack spends none, S95); absent for a weapon without ammunition.',
            ),
          })
          .describe('A sheet weapon and its state now.'),
      )
      .describe(
        'The sheet’s weapons (not the built-in fist; a sheet weapon with the id fist stands in for it, S96) with their state now.',
      ),
    drain: Int.describe('Drain suffered (critical failures of soul magic).'),
    soulpowerLoss: Int.describe('Soulpower lowered (critical failures of soul magic).'),
    attackedWith: z.array(Name).describe('Quick Attack: weapon ids attacked with since its last turn.'),
    quickAttacked: z
      .boolean()
      .describe('Quick Attack made: no attacks but reactive ones for the rest of the turn.'),
    study: z
      .strictObject({
        targetId: Name.describe('The combatant studied.'),
        count: Int.describe('Consecutive Study actions on it; 3 allow a Sneak Attack (S30).'),
      })
      .describe('A study in progress (S30).')
      .nullable()
      .describe('Sneak Attack: consecutive Study actions on one target (S30); null when none.'),
    stolen: z
      .array(
        z
          .strictObject({
            itemId: Name.describe('Its id on its owner’s sheet.'),
            fromId: Name.describe('Its owner.'),
            name: Name.describe('Its name on its owner’s sheet.'),
          })
          .describe('An item taken from another combatant.'),
      )
      .describe(
        'Items taken from another combatant, with Steal (S33) or picked up from the ground (S60), carried for the GM to move onto the sheet.',
      ),
    size: z.enum(SIZES).describe('Its size (the sheet’s).'),
    mounted: z.boolean().describe('Riding its sheet’s mount (S35, S42).'),
    mount: z
      .strictObject({
        name: Name.describe('The mount’s name.'),
        speed: Int.describe('Its speed in spaces per Move (S35).'),
        size: z.enum(SIZES).describe('Its size.'),
        trampleDamage: Int.describe('Dice of its Trample damage roll (S35).'),
      })
      .describe('A mount (S35).')
      .nullable()
      .describe('The sheet’s mount; null when it has none.'),
  })
  .describe('One combatant as the view shows it.');

/** One sequence of reactive attacks as the view shows it (S13, S18). */
const ReactionSequenceView = z
  .strictObject({
    actorId: Name.describe('The combatant whose action triggered reactive attacks.'),
    trigger: Trigger,
    action: HeldActionSchema.optional().describe(
      'The action held until the reactions are answered (S18); absent when none waits.',
    ),
    current: Name.optional().describe('The reactor offered now; absent between offers.'),
    remaining: z.array(Name).describe('Reactors still to be offered.'),
    prevented: z.boolean().describe('A reactive attack prevented the action.'),
  })
  .describe('One sequence of reactive attacks (S13, S18).');

/** C4: the decisions an Archsoul fight may await beside the core's (evolve.ts sets them), and what answers each. */
export const ARCHSOUL_PENDING_KINDS = {
  reactiveAttack: {
    description:
      'Ruling S18: a reactive attack offered to one reactor of the action that triggered it (RULINGS.md S13), one at a time in initiative order, the action held; awaiting the reactor; `detail`: actorId, trigger; `reaction` shows the sequence.',
    answer: 'ReactiveAttack',
    alsoAccepts: ['DeclineReactiveAttack'],
  },
  resumeAction: {
    description:
      'Ruling S18: the action held while its reactive attacks were answered, none having prevented it, for its actor to perform or abandon; awaiting the actor; `detail.action`: the held action’s type.',
    answer: 'ResumeAction',
  },
} as const satisfies PendingKinds;

/** The fight view `view(state)` returns (GET /fights/:id, command results, subscriptions, webhooks), `seq` and `headHash` included. */
export const ARCHSOUL_VIEW = z.strictObject({
  ...coreViewShape(ARCHSOUL_PENDING_KINDS),
  map: z
    .strictObject({
      grid: z.enum(['hex', 'square']).describe('The grid (S5).'),
      blocked: z.array(ViewSpace).describe('Spaces nobody may enter.'),
      walls: z
        .array(z.tuple([ViewSpace, ViewSpace]))
        .describe('Each wall stands between two adjacent spaces.'),
    })
    .describe('RULINGS.md S5: the battle map (SetMap); default an empty hex map.'),
  phase: z
    .strictObject({
      round: Int.describe('The round.'),
      index: Count.describe('0 for the round’s first phase.'),
      party: PartySchema,
      combatantIds: z.array(Name).describe('Who acts in this phase.'),
    })
    .describe('A phase of the round (S12, S17).')
    .nullable()
    .describe('The running phase of the round (S12, S17); null between rounds.'),
  openTurns: z.array(Name).describe('Combatants whose turn in the running phase is open.'),
  ambush: PartySchema.nullable().describe(
    'The surprising party of an ambush (DeclareAmbush); null when none.',
  ),
  ground: z
    .array(
      z
        .strictObject({
          groundId: Name.describe('What DrawSimpleItem picks up.'),
          itemId: Name.describe(
            'The item’s id on its owner’s sheet; for ammunition, the weapon it returns to.',
          ),
          ownerId: Name.describe('Its owner.'),
          name: Name.describe('Its name; for ammunition, the kind.'),
          space: ViewSpace.describe('Where it lies.'),
          ammunition: Name.optional().describe(
            `A recoverable projectile (${AMMUNITION_KINDS.join(', ')}) rather than the item itself.`,
          ),
        })
        .describe('An item lying on the battle map.'),
    )
    .describe('Items lying on the battle map.'),
  reaction: ReactionSequenceView.extend({
    interrupted: z
      .array(ReactionSequenceView)
      .optional()
      .describe(
        'S20: the sequences this one interrupted (a reactive attack that left its attacker open), outermost first; each resumes where it was when the one inside it finishes. Absent when none waits.',
      ),
  })
    .describe('The sequence of reactive attacks answered now (S13, S18).')
    .nullable()
    .describe('Reactive attacks being answered (S13, S18); null otherwise.'),
  grapples: z
    .array(
      z
        .strictObject({
          grappleId: Name.describe('The grapple (gr1, gr2, …).'),
          memberIds: z.tuple([Name, Name]).describe('Its two members: the grabber, then the grabbed.'),
          controlId: Name.describe('The member with control (S33).'),
        })
        .describe('A grapple (S33).'),
    )
    .describe('Running grapples.'),
  combatants: z.array(CombatantView).describe('Every combatant present, in join order.'),
});
export type ArchsoulView = z.infer<typeof ARCHSOUL_VIEW>;
export type ArchsoulCombatantView = ArchsoulView['combatants'][number];

/**
 * The lifecycle commands Archsoul takes. S12, S17: its turns run in phases (StartRound, EndTurn,
 * EndPhase), so the lifecycle's StartActivation and EndActivation are no commands of it: not declared, nothing
 * published offers them, and decide refuses them (ARCHSOUL_USE_PHASES).
 */
const {
  StartActivation: _startActivation,
  EndActivation: _endActivation,
  ...LIFECYCLE
} = lifecycleCommands({ sheet: ARCHSOUL_SHEET, options: ARCHSOUL_OPTIONS });
/** The lifecycle commands as Archsoul declares them: shapes unchanged, descriptions saying what they do here. */
const ARCHSOUL_LIFECYCLE = {
  ...LIFECYCLE,
  ...Object.fromEntries(
    Object.entries(ARCHSOUL_LIFECYCLE_TEXTS).map(([type, text]) => [
      type,
      LIFECYCLE[type as keyof typeof ARCHSOUL_LIFECYCLE_TEXTS].describe(text),
    ]),
  ),
};

export const ARCHSOUL_CONTRACT: SystemContract = {
  commands: {
    ...ARCHSOUL_LIFECYCLE,
    ...ARCHSOUL_COMMAND_SCHEMAS,
  },
  sheet: ARCHSOUL_SHEET,
  options: ARCHSOUL_OPTIONS,
  initiativeRoll: ARCHSOUL_INITIATIVE_ROLL,
  view: ARCHSOUL_VIEW,
  pendingKinds: ARCHSOUL_PENDING_KINDS,
  events: ARCHSOUL_EVENT_SCHEMAS,
  // S17: turns run in phases, never activations.
  lifecycleEventsNotEmitted: ['ActivationStarted', 'ActivationEnded'],
};
