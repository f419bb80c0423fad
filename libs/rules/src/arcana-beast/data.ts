import { COMMON_RULINGS } from '../core/rulings';
import { Ruling } from '../core/types';

export const STATS = ['brawn', 'agility', 'endurance', 'spirit', 'technique'] as const;
export type Stat = (typeof STATS)[number];

/** arcana-beast.txt: Combat (A4): beast die by Stage; a Beast Binder always rolls d6. */
export const DIE_BY_STAGE: readonly number[] = [6, 6, 8, 10, 12];
export const BINDER_DIE = 6;
export const STAGES = [0, 1, 2, 3, 4] as const;
/** A1: a die succeeds on 4 or more, whatever its size. */
export const SUCCESS_FACE = 4;
/** A2: a Critical Hit shows 3 or more dice at 6 or more. */
export const CRITICAL_FACE = 6;
export const CRITICAL_DICE = 3;
export const CRITICAL_BASE_MULTIPLIER = 2;

/** arcana-beast.txt: Beast Binder Commands. */
export const ENCOURAGE = { stat: 'spirit', difficulty: 1 } as const;
export const STRATEGIZE = { stat: 'technique', difficulty: 2 } as const;
export const BOND_SURGE_STAMINA = 1;

/** arcana-beast.txt: Devolution (A13): from Stage 2+ Diff 3 pass→1 fail→0; from Stage 1 Diff 2 pass→stay fail→0. */
export const DEVOLUTION = {
  stat: 'endurance',
  fromStage2Plus: { difficulty: 3, pass: 1, fail: 0 },
  fromStage1: { difficulty: 2, pass: 1, fail: 0 },
} as const;

/** arcana-beast.txt: Critical Gauge thresholds (A7); the Gauge counts on past 9 with no further move (A60). */
export const CRITICAL_MOVES: readonly {
  threshold: number;
  tier: 'minor' | 'major' | 'climactic';
  meaning: string;
}[] = [
  { threshold: 3, tier: 'minor', meaning: 'Minor Critical Move (complication)' },
  { threshold: 6, tier: 'major', meaning: 'Major Critical Move (escalation)' },
  { threshold: 9, tier: 'climactic', meaning: 'Climactic Critical Move (peak stakes)' },
];

/** arcana-beast.txt: Combo Attacks (A10, A20). */
export const COMBO = { dieBonus: 1, secondHitDamage: 1, thirdHitDamage: 2 } as const;

export const BANDS = ['close', 'near', 'far'] as const;
export type Band = (typeof BANDS)[number];
/** A17: a pair the GM has not placed starts Near. */
export const DEFAULT_BAND: Band = 'near';
/** A19: difficult terrain Agility Test when the GM gives no Difficulty. */
export const DIFFICULT_TERRAIN_DIFFICULTY = 1;
export const BYPASS_MOVEMENT = ['flight', 'teleport', 'burrowing'] as const;
export type BypassMovement = (typeof BYPASS_MOVEMENT)[number];

/** arcana-beast.txt: Attack & Damage: melee reaches Close, ranged Close/Near; long-range abilities reach Far. */
export const RANGES = ['melee', 'ranged', 'long'] as const;
export type Range = (typeof RANGES)[number];
export const REACH: Record<Range, readonly Band[]> = {
  melee: ['close'],
  ranged: ['close', 'near'],
  long: ['close', 'near', 'far'],
};
/** A6: the attack's stat when its definition names none. */
export const DEFAULT_ATTACK_STAT: Record<Range, Stat> = {
  melee: 'brawn',
  ranged: 'agility',
  long: 'agility',
};

/** arcana-beast.txt: Positioning in Combat (A8). */
export const TAGS = ['highGround', 'cover', 'flanking', 'cornered', 'obscured'] as const;
export type Tag = (typeof TAGS)[number];
export const TAG_EFFECTS: Record<Tag, string> = {
  highGround: '+1 die on attacks against targets below',
  cover: '+1 die on Dodge vs ranged attacks',
  flanking: '+1 attack die',
  cornered: 'cannot Reposition, Dodge with Setback',
  obscured: 'attacks against you made with Setback',
};

export const ACTIONS = [
  'attack',
  'defend',
  'specialAttack',
  'zeroPower',
  'assist',
  'reposition',
  'guard',
  'pass',
] as const;
export type ActionKind = (typeof ACTIONS)[number];
export const BINDER_COMMANDS = [
  'direct',
  'encourage',
  'strategize',
  'callBack',
  'useItem',
  'bondSurge',
] as const;
export type BinderCommandKind = (typeof BINDER_COMMANDS)[number];
/** A5: the fight option initiativeTies — the GM decides (default) or the tied reroll in advance. */
export const INITIATIVE_TIES = ['gm', 'reroll'] as const;
export const MAX_TIE_REROLLS = 10;
export const MAX_BONUS_DICE = 5;

export const ARCANA_BEAST_DATA = {
  stats: STATS,
  dieByStage: DIE_BY_STAGE,
  binderDie: BINDER_DIE,
  successFace: SUCCESS_FACE,
  critical: { face: CRITICAL_FACE, dice: CRITICAL_DICE, baseMultiplier: CRITICAL_BASE_MULTIPLIER },
  baseDamage: 'Brawn + Stage',
  encourage: ENCOURAGE,
  strategize: STRATEGIZE,
  bondSurgeStamina: BOND_SURGE_STAMINA,
  devolution: DEVOLUTION,
  criticalMoves: CRITICAL_MOVES,
  combo: COMBO,
  bands: BANDS,
  defaultBand: DEFAULT_BAND,
  difficultTerrainDifficulty: DIFFICULT_TERRAIN_DIFFICULTY,
  bypassMovement: BYPASS_MOVEMENT,
  reach: REACH,
  defaultAttackStat: DEFAULT_ATTACK_STAT,
  tags: TAG_EFFECTS,
  actions: ACTIONS,
  binderCommands: BINDER_COMMANDS,
  initiativeTies: INITIATIVE_TIES,
  maxTieRerolls: MAX_TIE_REROLLS,
};

export const ARCANA_BEAST_RULINGS: Ruling[] = [
  ...COMMON_RULINGS,
  {
    id: 'A1',
    text: 'Success: a die succeeds on 4 or more, whatever its size; a Test with Difficulty N passes with N or more successes.',
  },
  { id: 'A2', text: 'Critical Hit: three or more dice showing 6 or more.' },
  {
    id: 'A3',
    text: 'Boost: one extra die, drop the lowest; Setback: one extra die, drop the highest; one of each cancels, no stacking; +1 die effects stack.',
  },
  {
    id: 'A4',
    text: 'Die size by Stage: d6 at 0–1, d8 at 2, d10 at 3, d12 at 4; a Beast Binder always rolls d6.',
  },
  {
    id: 'A5',
    text: 'Initiative: opposed Agility among the beasts, a Binder shares its beast’s turn; ties go to the GM or are rerolled (initiativeTies: reroll).',
  },
  {
    id: 'A6',
    text: 'Pools: attack = stat + Quality/Attack Ranks + modifiers (Brawn melee, Agility ranged by default); Dodge = Agility + defensive Qualities.',
  },
  {
    id: 'A7',
    text: 'Critical Gauge: one counter for the player side (A35); reaching 3, 6 and 9 emits CriticalMoveTriggered.',
  },
  {
    id: 'A8',
    text: 'Positioning tags High Ground, Cover, Flanking, Cornered, Obscured are set and cleared by the GM.',
  },
  {
    id: 'A9',
    text: 'Evolution: free to the highest unlocked Stage while its trigger is active, lower Stages always; never heals; the highest reverts when the encounter ends.',
  },
  { id: 'A10', text: 'Combos follow the text; the target acts = it takes its own turn’s Action.' },
  {
    id: 'A11',
    text: 'HP, Stamina and Special Attack uses are required and never below 0; Bond Surge spends the beast’s Stamina.',
  },
  {
    id: 'A12',
    text: 'Pool = stat + ranks + every +1 die, then one net Boost or Setback; successes and 6+ on kept dice; a Critical needs a hit; combo damage after doubling.',
  },
  {
    id: 'A13',
    text: 'Beast at 0 HP: Knocked Out; player side (A35): Gauge +1, a Harm, Devolution Test on Endurance with the Stage die (2+: Diff 3, 1: Diff 2); wild beasts drop out.',
  },
  {
    id: 'A14',
    text: 'Distance bands per pair, a Binder shares its beast’s; a move changes the band to one named combatant; leaving Far or two bands needs Reposition.',
  },
  {
    id: 'A15',
    text: 'Shared turn: at most one Command, then at most one Action plus one free band move; Evolve is no Action; Guard lasts to the next turn; Intercept costs the next Action.',
  },
  {
    id: 'A16',
    text: 'Manual dice: the resolving command carries the attack pool then the Dodge pool in dice; Devolution Tests in followUpFaces; initiative tie rerolls in rerollFaces; Tests in dice.',
  },
  { id: 'A17', text: 'Bands the GM has not set start Near; a Binder and its own beast are always Close.' },
  {
    id: 'A18',
    text: 'Flight, Teleport or Burrowing, named with using, let the free move cross two bands or leave Far and skip difficult terrain.',
  },
  {
    id: 'A19',
    text: 'Difficult terrain: the GM marks a pair with a Difficulty (true = 1; false or 0 clears); moving along it needs an Agility Test; on a failure the band does not change and the move is spent.',
  },
  {
    id: 'A20',
    text: 'Combos: an attack continues a chain when the previous attack on the target came from another beast of its side on that side’s previous turn; every later attacker gets +1 die; the 2nd consecutive hit +1 damage, the 3rd and later +2.',
  },
  {
    id: 'A21',
    text: 'A Binder is listed right after its beast (SetInitiative otherwise refused, ARCANA_BINDER_ORDER) and keeps the shared turn (Commands only) while its beast is out; a Binder at 0 HP is Knocked Out with Gauge +1 and a Harm, no Devolution.',
  },
  {
    id: 'A22',
    text: 'Intercept: an attack on a Binder whose beast can act asks that beast (pending intercept; intercept on the attack answers in advance); it becomes the target and forfeits its next Action, not its Binder’s Command.',
  },
  {
    id: 'A23',
    text: 'Call Back: retreat (the beast leaves the encounter) or devolve; at Stage 1+ it makes the Devolution Test with Boost; the Binder rolls nothing.',
  },
  {
    id: 'A24',
    text: 'Evolve happens in the beast’s own turn, to any higher unlocked Stage, not while Knocked Out; EndScene ends the encounter: uses and Zero Power reset, the highest Stage reverts.',
  },
  {
    id: 'A25',
    text: 'Tests: stat dice (+ Quality ranks); opposed tests: more successes wins, equal successes is a tie the GM settles; an attack that ties misses.',
  },
  {
    id: 'A26',
    text: 'Direct: +1 die on the roll of this turn’s Action (attack, or a Reposition’s terrain test); Assist: +1 die on the ally’s next roll; Encourage: +1 die on the next Dodge or remove a condition; Bond Surge: Boost on every roll of Binder and beast this turn.',
  },
  {
    id: 'A27',
    text: 'Guard redirects attacks on the Close ally to the guard while both stay Close and the guard can act, before any Intercept.',
  },
  {
    id: 'A28',
    text: 'Tags may name an opponent (againstId) and then hold against it only (A39), and its Binder or beast (A51); High Ground counts against a target without it; Strategize ignores the target’s Cover, Obscured and High Ground (A49) for this turn’s rolls.',
  },
  {
    id: 'A29',
    text: 'Initiative: surprised combatants (RollInitiative surprised) roll with Setback; initiativeDice on the sheet adds Quality/Talent dice; Binders are listed after their beast; tieBreak names beasts of the fight, each once, tie or not.',
  },
  {
    id: 'A30',
    text: 'bonusDice on a rolling command adds situational +1 dice the GM allows (Talents, Gifts), recorded as a named source.',
  },
  {
    id: 'A31',
    text: 'A tie reroll is the same initiative roll: a surprised beast rerolls with Setback; a surprised Binder surprises its beast’s roll; initiativeTies is gm (default) or reroll.',
  },
  {
    id: 'A32',
    text: 'A late joiner is slotted in before the first beast with fewer successes; the others keep their order, one the GM set included.',
  },
  {
    id: 'A33',
    text: 'Use Item spends the item whether its test passes or fails; only a pass applies its effect, up to the sheet’s maximum; healing does not end a Knockout.',
  },
  {
    id: 'A34',
    text: 'A Zero Power with a range is an attack; without one it is a narrative effect the GM resolves, spending the Action and the scene’s use and rolling nothing (bonusDice on it is refused).',
  },
  {
    id: 'A35',
    text: 'The fight option playerSides names the players’ sides: their Binders and those Binders’ beasts are the player side (A7, A13, A21); others at 0 HP drop out like wild beasts; absent: every Binder and bound beast.',
  },
  {
    id: 'A36',
    text: 'A Devolution Test at 0 HP is rolled by the beast’s Binder’s player: with no faces on the knocking-out command, its events stand and a dice request for the test awaits that Binder; part of the faces is refused.',
  },
  {
    id: 'A37',
    text: 'Devolution lands on an unlocked Stage: the text’s if the sheet has it, else the highest unlocked below it, else the lowest unlocked; never above the current Stage.',
  },
  {
    id: 'A38',
    text: 'The beast acts by its Action or its free band move, and the Binder’s Command must come first; an Evolve (immediate, no Action), an Intercept’s forfeited Action and a Pass (A40) are not acting, so a Command may follow them.',
  },
  {
    id: 'A39',
    text: 'Cornered against one opponent holds against it only: no Reposition measured to it, none for positional advantage; a Reposition toward another is allowed. Cornered against no one forbids every Reposition.',
  },
  {
    id: 'A40',
    text: 'Pass is choosing not to act (as for A10): it spends the Action, but the Binder may still Command after it, until the beast’s free band move.',
  },
  {
    id: 'A41',
    text: 'A beast that joins at its highest Stage, with a lower one unlocked, reverts when the encounter ends to the highest unlocked Stage below.',
  },
  {
    id: 'A42',
    text: 'EndScene ends Defend, Guard, an Intercept’s owed Action and the Assist and Encourage dice still waiting.',
  },
  {
    id: 'A43',
    text: 'A Guard redirect is not checked for reach again: the guard, Close to its ally, takes the attack whatever its own band to the attacker.',
  },
  {
    id: 'A44',
    text: 'Turn order stays fixed: StartActivation without an id takes the next in order; the GM may start a beast’s turn out of order for that round (C3); SetInitiative changes the order.',
  },
  {
    id: 'A45',
    text: 'EndScene during a turn ends that turn (and what its Command gave, Bond Surge included) and the open round first; the next encounter starts with StartRound.',
  },
  {
    id: 'A46',
    text: 'Combos: a Binder’s Command is not an Action, and an Intercept is not taken in the beast’s own turn; neither is "the target acts" (A10).',
  },
  {
    id: 'A47',
    text: 'A Binder whose beast has left the fight has no turn: its turn was its beast’s; it stays in the fight as a target, with no Intercept.',
  },
  {
    id: 'A48',
    text: 'An initiative tie reroll is the initiative roll again: waiting dice (Assist, Encourage) are neither used nor added, and Bond Surge gives it no Boost.',
  },
  {
    id: 'A49',
    text: 'A passed Strategize ignores the target’s High Ground too: the beast’s own High Ground counts against it this turn.',
  },
  {
    id: 'A50',
    text: 'Flanking gives its die only while another ally in the encounter (not Knocked Out, not in its vessel) flanks the same target; a move does not clear a tag, the GM does.',
  },
  {
    id: 'A51',
    text: 'A tag against a Binder or its beast holds against both (they share their place, A17): Cornered against a Binder gives Setback on the Dodge against its beast’s attacks.',
  },
  {
    id: 'A52',
    text: 'A Critical Hit doubles Base Damage (Brawn + Stage) only: an attack’s bonusDamage from the sheet is added after doubling, like combo damage.',
  },
  {
    id: 'A53',
    text: 'Only the GM clearing the tag lifts Cornered: neither Flight, Teleport or Burrowing nor a passed Strategize lets the beast Reposition; its free band move stays.',
  },
  {
    id: 'A54',
    text: 'A beast’s Action (not a Pass) is its Binder’s turn’s Action too: it resets the combos on the Binder as on the beast (A10).',
  },
  {
    id: 'A55',
    text: 'A Knocked Out beast makes no Dodge: Encourage’s +1 Dodge die is refused for it, but Encourage may still remove 1 condition from it, as Use Item may tend it.',
  },
  {
    id: 'A56',
    text: 'A turn whose beast is Knocked Out or in its vessel (its Binder’s Commands only) is no beast turn of its side: combos on either side of it hold (A20).',
  },
  {
    id: 'A57',
    text: 'Each side keeps its own combo chain on a target: another side’s attack on it in between neither continues nor breaks it; the target acting resets them all.',
  },
  {
    id: 'A58',
    text: 'Boost or Setback on a pool of no dice rolls the one extra die and drops it (A3): 0 successes, and a manual roll carries that one face.',
  },
  {
    id: 'A59',
    text: 'Combos are on an enemy (another side): an attack on an ally of the attacker’s side gains no combo die or combo damage.',
  },
  {
    id: 'A60',
    text: 'The Critical Gauge keeps counting past 9, but 9 is the peak: no Critical Move follows it; nothing, EndScene included, empties it during the fight.',
  },
  {
    id: 'A61',
    text: 'A Binder leaving in its beast’s turn leaves it to the beast (its Command’s gifts stay); in a Knocked Out or called-back beast’s turn no one is left, so it ends (and the round, C16). A Binder joining mid-turn shares the next one.',
  },
  {
    id: 'A62',
    text: 'Several guards on one ally: the first of them in the turn order takes the attack, once (the guard’s own guard does not take it on); the redirected attack is an attack on the guard, its Dodge and tags.',
  },
  {
    id: 'A63',
    text: 'RollInitiative rolls every beast in the fight, a Knocked Out one too: it has no turn while out, and when the encounter’s end brings it back its turn comes in the fixed order.',
  },
  {
    id: 'A64',
    text: 'An attack a Guard takes continues its side’s combo chain on the guard, as an intercepted one does on the beast (A46); that turn was spent on the guard, so the chain on the declared target does not run across it.',
  },
  {
    id: 'A65',
    text: 'An attack is redirected once, by Guard or by Intercept: a beast guarding the interceptor does not take it; the attack is then the taker’s — its Dodge and tags, not the declared target’s.',
  },
  {
    id: 'A66',
    text: 'EndScene leaves positioning tags, bands, difficult terrain and conditions as they are (the GM’s to change), as it leaves HP, Stamina, Harms and the Critical Gauge.',
  },
  {
    id: 'A67',
    text: 'A Stage a Devolution Test lands on outlasts the encounter: EndScene reverts only a beast still at its highest Stage, and never raises a devolved one.',
  },
  {
    id: 'A68',
    text: 'Between turns, removing the last beast the open round waits for (or the Binder whose Commands were all its turn held) ends the round, as that turn’s EndActivation would have.',
  },
  {
    id: 'A69',
    text: 'intercept: true on an attack that asks no Intercept (a Guard took it first, the target is no Binder, or its beast cannot intercept) is refused; intercept: false stands.',
  },
  {
    id: 'A70',
    text: 'A turn counts as its side’s from its start: a beast in the fight when its turn starts takes it, so a Call Back in it spends the side’s turn and an allied combo does not run across it.',
  },
  {
    id: 'A71',
    text: 'A Gift that heals on Evolution is the sheet’s: a Stage’s giftHeal restores that many HP (up to maxHp) when the beast evolves to it; without one, Evolution heals nothing.',
  },
  {
    id: 'A72',
    text: 'A tag against a combatant who has left the fight holds against no one (Cornered no longer stops a Reposition) and leaves the view, unless that combatant’s Binder still stands in its place.',
  },
  {
    id: 'A73',
    text: 'A Knocked Out beast called back into its Wearable Vessel is shown InVessel: like any beast in its vessel, it is no target of an attack, Encourage or Use Item.',
  },
  {
    id: 'A74',
    text: 'A Binder Knocked Out in its beast’s turn no longer shares it: Bond Surge’s Boost stops for its rolls, as the view’s turn names no Binder.',
  },
  {
    id: 'A75',
    text: 'Two waiting +1 dice of one kind (two Assists, two passed Encourages) stack on the one roll they wait for: the next roll (Assist) or the next Dodge (Encourage) adds both and spends both.',
  },
  {
    id: 'A76',
    text: 'A Zero Power without a range is a narrative effect: its sheet takes no stat, ranks, qualities or bonusDamage, which only an attack reads.',
  },
  {
    id: 'A77',
    text: 'A late joiner rolls without Setback (AddCombatant names no one surprised) and is slotted by the first roll’s successes, a tie reroll only ordering the tied; a surprised beast rerolls its tie with a joiner with Setback; no one joins while a tie waits (C4).',
  },
];
