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
const ROLL = z
  .strictObject({
    sides: Int.min(1).describe(
      'Die size: 6, 8, 10 or 12 by a beast’s Stage, 6 for a Binder (RULINGS.md A4).',
    ),
    faces: Faces.describe('Every face rolled, in order, the extra Boost/Setback die included.'),
    draw: Count.optional().describe('Draw number (C5); absent for manual dice.'),
  })
  .describe('The dice as rolled (RULINGS.md C1): one die size, every face.');

/** One named "+1 die" (or more) in a pool (A3, A12). */
const DICE_BONUS = z
  .strictObject({
    source: z
      .string()
      .describe(
        'What gives the dice: Direct, High Ground, Flanking, Combo, Cover, Assist, Encourage, the GM’s bonusDice (ruling A30) or initiativeDice (ruling A29).',
      ),
    dice: Int.describe('How many dice it adds.'),
  })
  .describe('A named +1 die (or more) in the pool (RULINGS.md A3, A12).');
export type DiceBonus = z.infer<typeof DICE_BONUS>;

/** A pool as rolled: one draw, the extra Boost/Setback die included (A3, A12, C1). */
export const ROLLED_POOL = z
  .strictObject({
    combatantId: Id.describe('The combatant rolling.'),
    purpose: z
      .string()
      .describe(
        'What the pool is for: attack, dodge, initiative, test, opposed, devolution, difficultTerrain, item, spirit (Encourage) or technique (Strategize).',
      ),
    stat: z.enum(STATS).describe('The stat whose value gives the dice.'),
    statValue: Int.describe('That stat on the sheet: one die per point.'),
    ranks: Int.describe(
      'Quality and Attack Ranks added (RULINGS.md A6): an attack’s, defensive Qualities for a Dodge, RollTest’s ranks; else 0.',
    ),
    bonuses: z.array(DICE_BONUS).describe('Every +1 die added to stat + ranks (RULINGS.md A12).'),
    dice: Count.describe('Pool size before Boost/Setback.'),
    sides: Int.min(1).describe(
      'Die size: 6, 8, 10 or 12 by a beast’s Stage, 6 for a Binder (RULINGS.md A4).',
    ),
    edge: z
      .enum(['boost', 'setback', 'none'])
      .describe('The net Boost or Setback (RULINGS.md A3): one of each cancels to none.'),
    boostSources: z
      .array(z.string())
      .describe('What gave Boost (Defend, Bond Surge, Call Back, GM: Boost), listed even when cancelled.'),
    setbackSources: z
      .array(z.string())
      .describe(
        'What gave Setback (Obscured, Cornered, Surprised, GM: Setback), listed even when cancelled.',
      ),
    roll: ROLL,
    dropped: z
      .strictObject({
        index: Count.describe('Its place in roll.faces, from 0.'),
        face: Int.describe('Its face.'),
      })
      .optional()
      .describe(
        'The die Boost (the lowest) or Setback (the highest) dropped (RULINGS.md A3); absent with no edge.',
      ),
    kept: Faces.describe('The faces that count: roll.faces without the dropped die.'),
    successes: Count.describe('Kept dice showing 4 or more (RULINGS.md A1).'),
    sixes: Count.describe('Kept dice showing 6 or more (A2).'),
  })
  .describe(
    'A pool as rolled (RULINGS.md A3, A12, C1): stat + ranks + bonus dice, one extra die for a net Boost or Setback, one draw.',
  );
export type RolledPool = z.infer<typeof ROLLED_POOL>;

export const TEST_RESULT = ROLLED_POOL.extend({
  difficulty: Count.describe('Successes needed to pass (RULINGS.md A1).'),
  passed: z.boolean().describe('Successes reached the difficulty (RULINGS.md A1).'),
}).describe('A Test as rolled: a pool (RULINGS.md A3, A12, C1) and the Difficulty it must reach (A1).');
export type TestResult = z.infer<typeof TEST_RESULT>;

/** An initiative roll (A5, A29, A31): InitiativeRolled's and InitiativeTieRerolled's `rolls`. */
export const ARCANA_INITIATIVE_ROLL = z
  .strictObject({
    combatantId: Id.describe('The beast rolling (a Binder shares its beast’s turn, RULINGS.md A5).'),
    roll: ROLL.describe('The dice of pool, as pool.roll has them.'),
    total: Count.describe('The initiative: successes of the Agility pool (RULINGS.md A5).'),
    pool: ROLLED_POOL.describe(
      'The Agility pool, with the sheet’s initiativeDice and Setback when surprised (rulings A29, A31).',
    ),
    surprised: z
      .literal(true)
      .optional()
      .describe('Rolled with Setback for surprise (rulings A29, A31); absent otherwise.'),
    tieReroll: Int.min(1)
      .optional()
      .describe('Which reroll of a tie (option initiativeTies: reroll, or RerollInitiative).'),
  })
  .describe('A beast’s initiative roll (RULINGS.md A5, rulings A29, A31).');

const ATTACK_DECLARED = z
  .strictObject({
    attackNo: Int.min(1).describe(
      'The attack’s number in the fight, from 1, given when it is declared: an attack the GM voids keeps its number (ruling A22); DamageDealt names it.',
    ),
    attackerId: Id.describe('The beast attacking.'),
    targetId: Id.describe(
      'The combatant attacked: the guard or the intercepting beast once Guard or Intercept redirects it (rulings A22, A27).',
    ),
    declaredTargetId: Id.optional().describe(
      'Who the attack was declared against, when Guard or Intercept changed the target.',
    ),
    redirectedBy: z
      .enum(['guard', 'intercept'])
      .optional()
      .describe('What changed the target: Guard (ruling A27) or Intercept (ruling A22); absent: nothing.'),
    action: z
      .enum(['attack', 'specialAttack', 'zeroPower'])
      .describe('The Action: Attack, Use Special Attack or Use Zero Power (ruling A34).'),
    attackId: Id.describe('The id of the sheet’s attack, Special Attack or Zero Power.'),
    attackName: z.string().describe('Its name on the sheet.'),
    range: z
      .enum(RANGES)
      .describe(
        'Its range: melee reaches Close, ranged Close or Near, long any band (arcana-beast.txt: Distance Bands).',
      ),
    band: z.enum(BANDS).describe('The band between the attacker and the declared target.'),
    bonusDice: Count.describe('The GM’s situational +1 dice (ruling A30); 0 when none.'),
  })
  .describe('An attack as declared (arcana-beast.txt: Attack Steps), before its rolls.');
export type AttackDeclaredData = z.infer<typeof ATTACK_DECLARED>;

const STAGE = Int.min(0).max(4);

export const ARCANA_BEAST_EVENT_SCHEMAS = {
  InitiativeTieRerolled: z.strictObject({
    rolls: z
      .array(ARCANA_INITIATIVE_ROLL)
      .describe('The tied beasts’ rerolls, tie groups in order (RULINGS.md A5, ruling A31).'),
    order: z
      .array(Id)
      .describe('The initiative order after the reroll, each Binder after its beast (ruling A21).'),
    unresolvedTies: z
      .array(z.array(Id))
      .describe(
        'Groups still tied: the GM gives the order or rerolls again (RULINGS.md A5); empty when none.',
      ),
  }),
  TurnStarted: z.strictObject({
    combatantId: Id.describe('The beast whose shared turn starts (RULINGS.md A15).'),
    binderId: Id.optional().describe(
      'Its Binder, who gives the Command in this turn; absent for a wild beast or once its Binder left (ruling A21).',
    ),
    actionForfeited: z
      .literal('intercept')
      .optional()
      .describe(
        'The beast intercepted an attack: this turn’s Action is spent (ruling A22); absent otherwise.',
      ),
    defendEnded: z
      .literal(true)
      .optional()
      .describe('The beast’s Defend ends with this turn starting (RULINGS.md A15); absent otherwise.'),
    guardEnded: Id.optional().describe(
      'The ally whose Guard ends with this turn starting (ruling A27); absent when none.',
    ),
  }),
  ActionTaken: z.strictObject({
    combatantId: Id.describe('The beast acting.'),
    action: z.enum(ACTIONS).describe('The Action taken (arcana-beast.txt: Actions in Combat).'),
    targetId: Id.optional().describe(
      'The combatant attacked (or named by a narrative Zero Power), or moved toward by a Reposition.',
    ),
    allyId: Id.optional().describe('The Close ally of an Assist or a Guard.'),
    note: z
      .string()
      .optional()
      .describe('Set on a Reposition for positional advantage: the GM sets the tag (RULINGS.md A8).'),
  }),
  BinderCommanded: z.strictObject({
    binderId: Id.describe('The Binder commanding.'),
    beastId: Id.describe('Its beast, whose turn it shares.'),
    command: z.enum(BINDER_COMMANDS).describe('The Command given (arcana-beast.txt: Beast Binder Commands).'),
    test: TEST_RESULT.optional().describe(
      'The Command’s Test: Encourage (Spirit, Diff 1), Strategize (Technique, Diff 2) or the item’s (ruling A33); absent: no roll.',
    ),
    passed: z.boolean().optional().describe('Whether that Test passed; absent: no roll.'),
    effect: z
      .enum(['dodgeDie', 'removeCondition'])
      .optional()
      .describe(
        'Encourage’s effect when its Test passes: +1 die on the beast’s next Dodge, or a condition removed (ruling A26).',
      ),
    condition: z
      .string()
      .optional()
      .describe('Encourage removeCondition: the condition removed when the Test passes.'),
    mode: z
      .enum(['retreat', 'devolve'])
      .optional()
      .describe(
        'Call Back: into the Wearable Vessel (retreat) or staying in the fight (devolve), ruling A23.',
      ),
    itemId: Id.optional().describe('Use Item: the item spent.'),
    targetId: Id.optional().describe('Use Item: who the item is used on.'),
  }),
  AttackDeclared: ATTACK_DECLARED,
  InterceptDecided: z.strictObject({
    combatantId: Id.describe('The beast of the attacked Binder.'),
    binderId: Id.describe('The Binder attacked.'),
    intercept: z
      .boolean()
      .describe('It intercepts: it becomes the target and forfeits its next Action (ruling A22).'),
    source: z
      .enum(['answer', 'declaration'])
      .describe(
        'Where the decision came from: an Intercept command (answer) or the attack’s intercept field.',
      ),
  }),
  AttackResolved: ATTACK_DECLARED.extend({
    attack: ROLLED_POOL.describe(
      'The attack pool: the attack’s stat + its ranks and Qualities + bonus dice (RULINGS.md A6).',
    ),
    dodge: ROLLED_POOL.describe('The target’s Dodge pool: Agility + defensive Qualities (RULINGS.md A6).'),
    outcome: z
      .enum(['hit', 'miss'])
      .describe(
        'A hit when the attack’s successes exceed the Dodge’s; a tie misses (arcana-beast.txt: Results).',
      ),
    critical: z
      .boolean()
      .describe(
        'A hit with 3 or more kept dice at 6 or more: Base Damage doubles (RULINGS.md A2, ruling A52).',
      ),
    baseDamage: Count.describe('The attacker’s Brawn + Stage, before a Critical doubles it (ruling A52).'),
    extraSuccesses: Count.describe('Attack successes beyond the Dodge’s, added to the damage; 0 on a miss.'),
    bonusDamage: Count.describe(
      'The sheet’s bonusDamage of the attack, added after doubling (ruling A52); 0 on a miss.',
    ),
    combo: z
      .strictObject({
        position: Int.min(1).describe('The attack’s place in its side’s chain on the target: 1 starts one.'),
        dieBonus: Count.describe(
          'Combo dice in the attack pool: 1 from the chain’s second attack on, else 0.',
        ),
        damageBonus: Count.describe(
          'Combo damage, added after doubling: +1 on the 2nd hit of the streak, +2 from the 3rd; 0 on a miss.',
        ),
        hits: Count.describe('The hit streak after this attack; 0 after a miss, which keeps the chain.'),
        side: z.string().describe('The attacker’s side, whose chain it is (ruling A57).'),
        sideTurn: Count.describe('The side’s beast-turn count at this attack (ruling A56).'),
      })
      .describe(
        'Rulings A20, A57: the attack’s place in its side’s chain, its bonuses, the hit streak after it, the side’s turn.',
      ),
    damage: Count.describe(
      'Damage dealt: Base Damage (doubled on a Critical) + extra successes + bonusDamage + combo damage; 0 on a miss.',
    ),
  }),
  DamageDealt: z.strictObject({
    combatantId: Id.describe('The combatant hit.'),
    damage: Count.describe('The damage of the hit.'),
    hpBefore: Count.describe('HP before the hit.'),
    hp: Count.describe('HP after the hit, never below 0 (RULINGS.md A11); 0 Knocks Out.'),
    attackNo: Int.min(1).optional().describe('The attack that dealt it (AttackResolved.attackNo).'),
  }),
  KnockedOut: z.strictObject({
    combatantId: Id.describe('The combatant at 0 HP, out for the encounter (RULINGS.md A13).'),
    playerSide: z
      .boolean()
      .describe(
        'On the player side (ruling A35): the Critical Gauge rises, a Harm follows and a beast at Stage 1+ owes a Devolution Test.',
      ),
  }),
  CriticalGaugeRaised: z.strictObject({
    combatantId: Id.describe('The player-side combatant Knocked Out.'),
    from: Count.describe('The Critical Gauge before.'),
    to: Count.describe('The Critical Gauge after: one more (RULINGS.md A7).'),
  }),
  CriticalMoveTriggered: z.strictObject({
    threshold: Count.describe('The threshold reached: 3, 6 or 9 (RULINGS.md A7).'),
    tier: z
      .enum(['minor', 'major', 'climactic'])
      .describe('The Critical Move: minor at 3, major at 6, climactic at 9.'),
    meaning: z.string().describe('The text’s words for it, for the GM to narrate.'),
    gauge: Count.describe('The Critical Gauge now.'),
  }),
  HarmGained: z.strictObject({
    combatantId: Id.describe('The player-side combatant Knocked Out (RULINGS.md A13).'),
    harm: z.string().describe('The Harm, in words.'),
  }),
  DevolutionTested: z.strictObject({
    combatantId: Id.describe('The beast testing.'),
    stageBefore: STAGE.describe('The Stage before the Test.'),
    test: TEST_RESULT.describe(
      'The Endurance Test with the current Stage’s die: Diff 3 from Stage 2+, Diff 2 from Stage 1 (RULINGS.md A13).',
    ),
    stageAfter: STAGE.describe('The Stage it lands on, one its sheet unlocks (ruling A37).'),
    reason: z
      .enum(['knockedOut', 'callBack'])
      .describe(
        'What called for it: a Knockout (RULINGS.md A13) or a Call Back, rolled with Boost (ruling A23).',
      ),
  }),
  StageEvolved: z.strictObject({
    combatantId: Id.describe('The beast evolving.'),
    from: STAGE.describe('The Stage before.'),
    to: STAGE.describe('The Stage after: a higher unlocked one (ruling A24).'),
    reason: z.literal('evolve').describe('Always evolve: the Evolve command.'),
    highest: z
      .boolean()
      .describe('RULINGS.md A9: the highest unlocked Stage, which reverts at the end of the encounter.'),
    triggerActive: z.boolean().describe('The GM had marked the new Stage’s trigger active (RULINGS.md A9).'),
  }),
  StageDevolved: z.strictObject({
    combatantId: Id.describe('The beast devolving.'),
    from: STAGE.describe('The Stage before.'),
    to: STAGE.describe('The Stage after.'),
    reason: z
      .enum(['knockedOut', 'callBack', 'encounterEnded'])
      .describe(
        'Why: a Devolution Test after a Knockout or a Call Back, or the end of the encounter reverting the highest Stage (ruling A24).',
      ),
  }),
  SpecialAttackUsed: z.strictObject({
    combatantId: Id.describe('The beast attacking.'),
    specialAttackId: Id.describe('The Special Attack used.'),
    usesLeft: Count.describe('Its uses left this scene (RULINGS.md A11).'),
  }),
  ZeroPowerUsed: z.strictObject({
    combatantId: Id.describe('The beast using its Zero Power.'),
    targetId: Id.optional().describe(
      'The combatant it names; absent when a narrative Zero Power names none (ruling A34).',
    ),
    trigger: z.string().describe('The Zero Power’s trigger on the sheet, active when used.'),
  }),
  TriggerSet: z.discriminatedUnion('kind', [
    z.strictObject({
      combatantId: Id.describe('The beast whose trigger it is.'),
      kind: z
        .literal('stage')
        .describe('Whose trigger: a Stage’s (stage) or the Zero Power’s (zeroPower), RULINGS.md A9.'),
      stage: STAGE.describe('The Stage whose trigger it is (kind stage only).'),
      active: z.boolean().describe('Whether the trigger is now active.'),
    }),
    z.strictObject({
      combatantId: Id.describe('The beast whose trigger it is.'),
      kind: z
        .literal('zeroPower')
        .describe('Whose trigger: a Stage’s (stage) or the Zero Power’s (zeroPower), RULINGS.md A9.'),
      active: z.boolean().describe('Whether the trigger is now active.'),
    }),
  ]),
  TagSet: z.strictObject({
    combatantId: Id.describe('The combatant tagged.'),
    tag: z.enum(TAGS).describe('The positioning tag (RULINGS.md A8).'),
    againstId: Id.optional().describe(
      'The one opponent the tag holds against (ruling A28); absent: every opponent.',
    ),
  }),
  TagCleared: z.strictObject({
    combatantId: Id.describe('The combatant tagged.'),
    tag: z.enum(TAGS).describe('The positioning tag cleared (RULINGS.md A8).'),
  }),
  ConditionApplied: z.strictObject({
    combatantId: Id.describe('The combatant.'),
    condition: z.string().describe('The condition, as the GM names it.'),
  }),
  ConditionRemoved: z.strictObject({
    combatantId: Id.describe('The combatant.'),
    condition: z.string().describe('The condition removed.'),
    reason: z.string().optional().describe('What removed it: Encourage or the item’s name; absent: the GM.'),
  }),
  ComboReset: z.strictObject({
    targetId: Id.describe('The target whose combo chains end, every side’s (ruling A57).'),
    reason: z
      .string()
      .describe('Why, with its ruling: the target acted (RULINGS.md A10) or its beast did (ruling A54).'),
  }),
  StaminaSpent: z.strictObject({
    combatantId: Id.describe('The beast spending it.'),
    amount: Count.describe('Stamina spent: Bond Surge costs 1.'),
    stamina: Count.describe('Stamina left (RULINGS.md A11).'),
  }),
  StaminaRestored: z.strictObject({
    combatantId: Id.describe('The combatant the item is used on.'),
    amount: Count.describe('Stamina restored, up to maxStamina (ruling A33).'),
    stamina: Count.describe('Stamina after.'),
  }),
  HpRestored: z.strictObject({
    combatantId: Id.describe(
      'The combatant healed: the one an item is used on (ruling A33), or a beast whose Stage’s Gift heals it as it evolves (ruling A71).',
    ),
    amount: Count.describe('HP restored, up to maxHp (rulings A33, A71).'),
    hpBefore: Count.describe('HP before.'),
    hp: Count.describe('HP after.'),
  }),
  ItemUsed: z.strictObject({
    binderId: Id.describe('The Binder spending the item.'),
    itemId: Id.describe('The item, from its inventory.'),
    quantityLeft: Count.describe('How many of it are left.'),
    targetId: Id.describe('Who it is used on.'),
  }),
  BandSet: z.strictObject({
    aId: Id.describe('One of the pair; for a Binder, its beast, whose bands it shares (ruling A17).'),
    bId: Id.describe('The other of the pair; for a Binder, its beast (ruling A17).'),
    band: z.enum(BANDS).describe('The band between them now (RULINGS.md A14).'),
    difficultTerrain: Int.min(0)
      .max(10)
      .optional()
      .describe('Ruling A19: the Difficulty; 0 clears it; absent: unchanged.'),
  }),
  Moved: z.strictObject({
    combatantId: Id.describe('The beast moving.'),
    towardId: Id.describe('The combatant it moves toward.'),
    from: z.enum(BANDS).describe('The band to towardId before.'),
    to: z.enum(BANDS).describe('The band to towardId after; from again when stopped.'),
    by: z
      .enum(['free', 'reposition'])
      .describe('The free band move (free) or the Reposition Action (reposition), RULINGS.md A14.'),
    using: z
      .enum(BYPASS_MOVEMENT)
      .optional()
      .describe('Flight, teleport or burrowing used (ruling A18); absent: none.'),
    test: TEST_RESULT.optional().describe(
      'The difficult-terrain Agility Test (ruling A19); absent without difficult terrain or with using.',
    ),
    stopped: z
      .literal(true)
      .optional()
      .describe('The Test failed: the band does not change and the move is spent (ruling A19).'),
  }),
  Assisted: z.strictObject({
    combatantId: Id.describe('The beast assisting.'),
    allyId: Id.describe('The Close ally: +1 die on its next roll (ruling A26).'),
  }),
  BonusDiceUsed: z.strictObject({
    combatantId: Id.describe('The combatant whose roll takes them.'),
    source: z
      .enum(['Assist', 'Encourage'])
      .describe('Assist (the next roll) or Encourage (the next Dodge), ruling A26.'),
    dice: Int.min(1).describe('The dice added.'),
  }),
  CalledBack: z.strictObject({
    binderId: Id.describe('The Binder calling.'),
    beastId: Id.describe('Its beast.'),
    mode: z
      .enum(['retreat', 'devolve'])
      .describe(
        'Into the Wearable Vessel for the encounter (retreat) or staying in the fight (devolve), ruling A23.',
      ),
  }),
  TestRolled: z.strictObject({
    combatantId: Id.describe('The combatant testing.'),
    reason: z.string().optional().describe('The GM’s free text; absent when none.'),
    test: TEST_RESULT.describe('The Test: stat + ranks + bonus dice, with the combatant’s die (ruling A25).'),
  }),
  OpposedTestRolled: z.strictObject({
    a: ROLLED_POOL.describe('The first combatant’s pool, rolled first.'),
    b: ROLLED_POOL.describe('The second combatant’s pool.'),
    winnerId: Id.nullable().describe(
      'More successes wins; null on a tie, which the GM settles (ruling A25).',
    ),
    reason: z.string().optional().describe('The GM’s free text; absent when none.'),
  }),
  SceneEnded: z.strictObject({
    revived: z.array(Id).describe('Knocked Out combatants with HP above 0, back in the fight (ruling A24).'),
  }),
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
