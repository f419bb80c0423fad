import { COMMON_RULINGS } from '../core/rulings';
import { Ruling } from '../core/types';

/** N1: a d6 read as dots. Index = face. */
export const DOTS_BY_FACE = [0, 0, 0, 1, 1, 1, 2] as const;
export const NARATEER_DIE_SIDES = 6;

export function dots(face: number): number {
  return DOTS_BY_FACE[face];
}

export const VITALS = ['strength', 'agility', 'resilience'] as const;
export const SKILLS = ['melee', 'ranged', 'acrobatics'] as const;
export type Vital = (typeof VITALS)[number];
export type Skill = (typeof SKILLS)[number];
export type ExchangeKind = 'melee' | 'ranged';
export type DieKind = 'AD' | 'MD';

/** narateer.txt: Wound Conversion (N8): the lowest Wound Margin of each band and its Wounds. */
export const WOUND_CONVERSION: readonly { minMargin: number; wounds: number }[] = [
  { minMargin: 9, wounds: 8 },
  { minMargin: 7, wounds: 5 },
  { minMargin: 5, wounds: 3 },
  { minMargin: 3, wounds: 2 },
  { minMargin: 1, wounds: 1 },
];

/** N12: Harm Domains and their Types. */
export const HARM_CATALOGUE: Readonly<Record<string, readonly string[]>> = {
  Physical: ['Slashing', 'Piercing', 'Impact'],
  Elemental: ['Fire', 'Cold', 'Lightning', 'Acid'],
  Affliction: ['Poison', 'Bleeding', 'Disease', 'Suffocation'],
  Supernatural: ['Psychic', 'Necrotic', 'Radiant'],
};

export interface Harm {
  domain: string;
  type: string;
}

/** N11: Lingering Harm Forms and their default classification, Wounds per tick. */
export const LINGERING_HARM_DEFAULTS: Readonly<Record<string, Harm>> = {
  Bleeding: { domain: 'Affliction', type: 'Bleeding' },
  Burning: { domain: 'Elemental', type: 'Fire' },
  Poisoned: { domain: 'Affliction', type: 'Poison' },
  Suffocating: { domain: 'Affliction', type: 'Suffocation' },
  Frostbitten: { domain: 'Elemental', type: 'Cold' },
};
export const LINGERING_HARM_WOUNDS_PER_TICK = 1;

/** What a condition does to the engine; conditions without flags are labels the GM rules on (N26). */
export interface ConditionEffect {
  incapacitated?: true;
  /** N43: incapacitated for physical actions only ("aware but can't take physical actions"): it may still commit dice to others. */
  physicalOnly?: true;
  cannotMove?: true;
  cannotSee?: true;
  /** N60: with cannotSee (or an unseen foe), the engine knows it cannot perceive that foe. */
  cannotHear?: true;
  unseen?: true;
}

/** narateer.txt: "Close-Enough" Conditions Picker, with the engine effects of RULINGS N26. */
export const CONDITIONS: Readonly<Record<string, { meaning: string; effect: ConditionEffect }>> = {
  unconscious: { meaning: 'out cold', effect: { incapacitated: true } },
  paralyzed: {
    meaning: "aware but can't take physical actions",
    effect: { incapacitated: true, physicalOnly: true },
  },
  restrained: { meaning: 'held in place (net, grapple, roots)', effect: { cannotMove: true } },
  hindered: { meaning: 'hampered', effect: {} },
  slowed: { meaning: 'actions feel sloggy', effect: {} },
  weakened: { meaning: 'recovering effort or magical power is difficult', effect: {} },
  unnerved: { meaning: 'rattled but functional', effect: {} },
  panicked: { meaning: 'fear forces retreat', effect: {} },
  prone: { meaning: 'on the ground', effect: {} },
  blinded: { meaning: "can't see", effect: { cannotSee: true } },
  deafened: { meaning: "can't hear", effect: { cannotHear: true } },
  invisible: { meaning: 'an effect makes it unseen', effect: { unseen: true } },
};

export const WOUND_PREFERENCES = ['AD_FIRST', 'MD_FIRST', 'ASK'] as const;
export type WoundPreference = (typeof WOUND_PREFERENCES)[number];
export const RESPONSES = ['none', 'fullGuard', 'clash'] as const;
export type ResponseKind = (typeof RESPONSES)[number];
export const EDGES = ['advantage', 'disadvantage'] as const;
export type EdgeKind = (typeof EDGES)[number];

/** narateer.txt: Full Guard has a Base Cost of 1 AD; Skill per exchange kind. */
export const FULL_GUARD_COST = 1;
export const FULL_GUARD_SKILL: Record<ExchangeKind, Skill> = { melee: 'melee', ranged: 'acrobatics' };
export const ATTACK_SKILL: Record<ExchangeKind, Skill> = { melee: 'melee', ranged: 'ranged' };
/** narateer.txt: Skill Level In Combat: uses = SL + 1, minimum 1. */
export const PROACTIVE_USES_PER_SL = 1;
export const PROACTIVE_USES_MINIMUM = 1;
/** N21: default allowed Damage Vitals. */
export const DEFAULT_DAMAGE_VITALS = {
  light: ['strength', 'agility'],
  heavy: ['strength'],
  ranged: ['agility'],
} as const;
export const ALLOWED_DAMAGE_VITALS = {
  light: ['strength', 'agility'],
  heavy: ['strength'],
  /** N36: a ranged weapon may fire loaded projectiles, which use Agility, whatever its weight. */
  ranged: { light: ['strength', 'agility'], heavy: ['strength', 'agility'] },
} as const;
export const DEFAULT_MELEE_REACH = 1;

export const NARATEER_DATA = {
  die: { sides: NARATEER_DIE_SIDES, dotsByFace: DOTS_BY_FACE.slice(1) },
  vitals: VITALS,
  skills: SKILLS,
  woundConversion: WOUND_CONVERSION,
  harmCatalogue: HARM_CATALOGUE,
  lingeringHarmDefaults: LINGERING_HARM_DEFAULTS,
  lingeringHarmWoundsPerTick: LINGERING_HARM_WOUNDS_PER_TICK,
  conditions: CONDITIONS,
  woundPreferences: WOUND_PREFERENCES,
  responses: RESPONSES,
  fullGuard: { cost: FULL_GUARD_COST, skill: FULL_GUARD_SKILL },
  defaultDamageVitals: DEFAULT_DAMAGE_VITALS,
  defaultMeleeReach: DEFAULT_MELEE_REACH,
};

export const NARATEER_RULINGS: Ruling[] = [
  ...COMMON_RULINGS,
  { id: 'N1', text: 'The Narateer die: d6, faces 1–2 show 0 dots, 3–5 one dot, 6 two dots.' },
  {
    id: 'N2',
    text: 'Edge: reroll the weakest (Advantage) or strongest (Disadvantage) die once, keep better/worse; one source each, cancelling.',
  },
  {
    id: 'N3',
    text: 'Dice pools: Ready, Used, Wounded; committing moves Ready to Used; Used refresh at the start of the own activation.',
  },
  { id: 'N4', text: 'Activations: Side Roll of Agility dice, higher first, ties by Agility, then the GM.' },
  {
    id: 'N5',
    text: 'Proactive uses per activation per Skill: SL + 1, minimum 1; Opportunity Attacks do not count.',
  },
  {
    id: 'N6',
    text: 'Responses none/fullGuard/clash; unaware, incapacitated, no Ready AD or no legal response forces none.',
  },
  { id: 'N7', text: 'Ties: a Clash tie hurts nobody; Full Guard equal or higher stops the attack.' },
  { id: 'N8', text: 'Wounds: Hit Margin + Strike Rating − Protection; 1–2→1, 3–4→2, 5–6→3, 7–8→5, 9+→8.' },
  {
    id: 'N9',
    text: 'Wound allocation: Ready before Used, the wounded picks AD or MD; woundPreference AD_FIRST, MD_FIRST or ASK.',
  },
  {
    id: 'N10',
    text: 'States: VIT above 0 Active, 0 or below Collapsed; a failed Continuation Check makes the combatant Withdrawn.',
  },
  {
    id: 'N11',
    text: 'Lingering Harm defaults: Bleeding, Burning, Poisoned, Suffocating, Frostbitten; 1 Wound per round end.',
  },
  {
    id: 'N12',
    text: 'Harm catalogue: Physical, Elemental, Affliction, Supernatural with their Types; the GM may override per attack.',
  },
  {
    id: 'N13',
    text: 'Positions are optional square-grid Spaces; with them reach, range and Opportunity Attacks are checked.',
  },
  { id: 'N15', text: 'Side Roll: X dice from no pool, no AD/MD spent, X ≤ 0 gives 0 dots.' },
  { id: 'N16', text: 'Rounds: initiative once, late joiners slotted in, one activation each per round.' },
  { id: 'N17', text: 'Wounded dice remember AD or MD; MD never pays exchange costs.' },
  {
    id: 'N18',
    text: 'Continuation Check: first time 2·VIT < Max VIT, or 2·Wounds > Max VIT in one resolution; one check.',
  },
  {
    id: 'N19',
    text: 'Lingering Harm: each instance ticks at every round end, from the round it was applied, until treated, even while Collapsed.',
  },
  {
    id: 'N20',
    text: 'Collapsed and Withdrawn combatants get no activations or Opportunity Attacks; their response is forced to none.',
  },
  {
    id: 'N21',
    text: 'Damage Vital: the weapon lists its allowed Vitals; default the highest after the cap.',
  },
  {
    id: 'N22',
    text: 'Manual dice: the command completing an exchange carries attacker then responder pools in dice, their Edge rerolls in rerollFaces, Continuation Checks in followUpFaces.',
  },
  {
    id: 'N23',
    text: 'Responses given in advance: forced none, then the command’s response, then the sheet’s responsePolicy, else a pending decision.',
  },
  {
    id: 'N24',
    text: 'Opportunity Attacks: a Move stops at the first step that gives an opening; reactors are offered one at a time in initiative order; the mover moves on with a new Move.',
  },
  {
    id: 'N25',
    text: 'Grid distance is in Spaces, diagonals count 1; without positions the GM may give distance, otherwise reach and range are asserted.',
  },
  {
    id: 'N26',
    text: 'Conditions: Unconscious/Paralyzed incapacitate, Restrained stops voluntary moves, Blinded and Invisible affect sight, Deafened with them perception (N60); worst intensity and duration.',
  },
  {
    id: 'N27',
    text: 'Ammunition and Loading resolve when the exchange is rolled; ReloadWeapon loads in the own activation for no AD and needs ammunition.',
  },
  {
    id: 'N28',
    text: 'Allocation given in advance is applied wound by wound; a kind not available takes the other, beyond it ASK acts as AD_FIRST; a Lingering Harm tick for ASK asks, and the round’s end waits.',
  },
  {
    id: 'N29',
    text: 'A cancelled response returns the attacker’s AD and proactive use; a cancelled allocation drops the wounds; a cancelled opportunity ends the queue.',
  },
  { id: 'N30', text: 'An attack total of 0 against target number 0 is a tie: no clean hit.' },
  {
    id: 'N31',
    text: 'Edge sources: GM edge per roll, unseen attacker Advantage, not seeing the foe Disadvantage, Full Guard Advantage, beyond Effective Range Disadvantage.',
  },
  {
    id: 'N32',
    text: 'ApplyWounds: the GM applies a spell or effect’s Wounds (or Wound Margin) as one resolution with its classification.',
  },
  {
    id: 'N33',
    text: 'SpendDice: other actions commit Ready AD or MD; a proactive Melee/Ranged action (shove, trip…) counts a use.',
  },
  { id: 'N34', text: 'A hit that converts to 0 Wounds is still recorded as WoundsApplied with 0 Wounds.' },
  { id: 'N35', text: 'Clash without a named weapon uses the first legal weapon of the exchange’s kind.' },
  {
    id: 'N36',
    text: 'A ranged weapon of either weight may use Agility (loaded projectiles) or Strength (thrown); default Agility.',
  },
  {
    id: 'N37',
    text: 'A legal Clash weapon reaches the tempo-holder and its Base Attack Cost plus Boost fit the Ready AD; policies skip the rest.',
  },
  {
    id: 'N38',
    text: 'Lingering Harm: a source may state its tick timing (round start/end, own activation start/end), a duration in rounds, a count of ticks or an ending condition the GM ends.',
  },
  {
    id: 'N39',
    text: 'Lingering Harm of the same Form, source and classification again refreshes its instance with the worse terms; without a source each application is its own.',
  },
  {
    id: 'N40',
    text: 'A late joiner after an order the GM set rolls, and the GM places it (pending initiativeTie answered by SetInitiative).',
  },
  {
    id: 'N41',
    text: 'An Invisible attacker or a Blinded target makes the attack unseen: its first on that foe gains Advantage without the GM’s flag; attackerUnseen stays for Hide.',
  },
  {
    id: 'N42',
    text: 'Opportunity Attacks: melee reach is the longest melee weapon’s; the attack uses any melee weapon that reaches the new Space and can be paid for.',
  },
  {
    id: 'N43',
    text: 'SpendDice: a player for its own combatant only (C3); any time without proactiveUse; not by the Collapsed, Withdrawn or Unconscious; a Paralyzed one only without proactiveUse (not physical).',
  },
  {
    id: 'N44',
    text: 'strikeModifier and protectionModifier (GM) adjust a hit’s Strike and Protection Ratings after the formula, never below 0; the Clash’s with its response.',
  },
  {
    id: 'N45',
    text: 'When an Opportunity Attack leaves the mover Collapsed or Withdrawn, the next reactors of that step are still offered theirs; its response is forced to none.',
  },
  {
    id: 'N46',
    text: 'Unconscious and Paralyzed combatants keep their activations (dice refresh, activation ticks) but take no physical action in them (a Paralyzed one may still SpendDice, N43).',
  },
  {
    id: 'N47',
    text: 'A Lingering Harm tick of 0 Wounds (a source may state it) is recorded with 0 Wounds, takes no die, asks nothing and counts toward endsAfterTicks.',
  },
  {
    id: 'N48',
    text: 'An exchange may target any other combatant: an ally, or a Collapsed or Withdrawn one (forced No Response); only Opportunity Attacks need an opponent.',
  },
  {
    id: 'N49',
    text: 'A late joiner acts in the round it joins: the round does not end before it has its activation.',
  },
  {
    id: 'N50',
    text: 'An initiative Side Roll of 0 dice is still a draw; a Continuation Check of 0 dice fails and takes none.',
  },
  {
    id: 'N51',
    text: 'Spaces are not exclusive: a Move may pass through or end in an occupied Space; the GM moves combatants apart.',
  },
  {
    id: 'N52',
    text: 'A shot at a foe within melee reach has no Edge from the distance and opens no Opportunity Attack; the GM’s edge covers a cramped shot.',
  },
  {
    id: 'N53',
    text: 'Ammunition counts the shot a loaded weapon holds: a sheet giving a weapon that needs Loading loaded with 0 ammunition is refused.',
  },
  {
    id: 'N54',
    text: 'A combatant off the map takes no Opportunity Attack: the GM places it with SetPosition when the table agrees it stands within reach.',
  },
  {
    id: 'N55',
    text: 'Collapsed and Withdrawn last for the rest of the fight: no recovery in it; Wounds, ticks and conditions still land; the GM notes the outcome and may remove them.',
  },
  {
    id: 'N56',
    text: 'An Opportunity Attack needs a reactor that perceives the mover, not one that sees it: with the GM’s attackerCannotSeeTarget it strikes at Disadvantage; a reactor that can neither see nor hear the mover is never offered one (N60).',
  },
  {
    id: 'N57',
    text: 'Line of sight is not sight: a Blinded shooter, a shot at an Invisible target and a Blinded responder’s Ranged Clash are allowed, with Disadvantage.',
  },
  {
    id: 'N58',
    text: 'The wounded chooses its dice whatever its state: an Unconscious, Paralyzed, Withdrawn or Collapsed combatant with ASK is asked like any other.',
  },
  {
    id: 'N59',
    text: 'Between activations, a command that leaves the open round no one to wait for (the last waiting combatant removed, or left Collapsed or Withdrawn) ends the round, as its EndActivation would have (C16 for a running activation).',
  },
  {
    id: 'N60',
    text: 'A Blinded reactor, or one facing an Invisible mover, still perceives it and is offered the Opportunity Attack, at Disadvantage; only one that is also Deafened (it can neither see nor hear it) is not.',
  },
  {
    id: 'N61',
    text: 'Manual dice: a Continuation Check is the checking combatant’s roll; a command without its faces stands, and the check alone (with what waits for its result) is asked of that combatant, as A36 asks a Devolution Test.',
  },
  {
    id: 'N62',
    text: 'A round that opens with no one to wait for (its start’s Lingering Harm leaves no one able to act, or no one was) ends in the same StartRound, as its last EndActivation would have.',
  },
  {
    id: 'N63',
    text: 'The view shows no proactive use left for a combatant that can take no proactive action (Collapsed, Withdrawn, Unconscious or Paralyzed), even in its own activation.',
  },
  {
    id: 'N64',
    text: 'Loading and ammunition are a ranged weapon’s: a sheet whose melee weapon needs Loading or counts ammunition is refused, naming the field.',
  },
  {
    id: 'N65',
    text: 'A weapon that needs no Loading is otherwise ready to fire: the view shows it loaded whatever its sheet said, as ReloadWeapon has nothing to load in it.',
  },
  {
    id: 'N66',
    text: 'An ended fight resolves nothing: its view shows no exchange, no Wounds awaiting allocation and no Opportunity Attacks, even when the GM ended it while one was pending.',
  },
  {
    id: 'N67',
    text: 'Outside its own activation a combatant’s view shows the proactive uses its next activation starts with (SL + 1, minimum 1), not what its last one left; none once the fight has ended.',
  },
  {
    id: 'N68',
    text: 'An advance response impossible for the responder’s sheet (a Clash-only field, a Boost with No Response or over the SL, an unknown or wrong-kind weapon, no weapon to Clash with, a Damage Vital it does not deal) is refused even when a forced No Response overrides it; what the state refuses (Ready AD, reach, loading) is not.',
  },
  {
    id: 'N69',
    text: 'With no Damage Vital named, two of the weapon’s Vitals tied after the cap (N21): the first of them in its damageVitals is named; the Strike Rating is the same.',
  },
  {
    id: 'N70',
    text: 'A response forced to No Response for several reasons at once records the first in this order: unaware, collapsed, withdrawn, incapacitated, noReadyAD.',
  },
];
