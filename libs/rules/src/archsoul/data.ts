import { COMMON_RULINGS } from '../core/rulings';
import { Ruling } from '../core/types';

export const ATTRIBUTES = ['precision', 'athletics', 'endurance', 'soulpower', 'intellect'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];
/** Skills named by the combat rules; a sheet may list others. */
export const SKILLS = [
  'awareness',
  'primitiveAttacks',
  'meleeWeapons',
  'rangedWeapons',
  'weaponMastery',
  'soulCasting',
  'evocation',
  'resolve',
  'agility',
  'confusion',
  'acting',
  'readEmotions',
  'engineering',
  'survival',
  'conditioning',
] as const;

/** S1: a d6 pool; difficulty 2..6; beyond 6 each step removes a die. */
export const DIE_SIDES = 6;
export const DEFAULT_DIFFICULTY = 4;
export const MIN_DIFFICULTY = 2;
export const MAX_DIFFICULTY = 6;
/** archsoul.txt: Reactive Attack: Endurance/Resolve at difficulty 3 (S8). */
export const PREVENTION_TEST = { attribute: 'endurance' as Attribute, skill: 'resolve', difficulty: 3 };
/** S9: Precision/Awareness at difficulty 4. */
export const INITIATIVE_TEST = { attribute: 'precision' as Attribute, skill: 'awareness', difficulty: 4 };
/** S10/S24: the Soul attack's defence roll. */
export const SOUL_DEFENCE_TEST = { attribute: 'soulpower' as Attribute, skill: 'resolve', difficulty: 4 };
export const AP_PER_TURN = 3;
export const DEFAULT_SPEED = 3;
export const SPACE_METRES = 2;
export const MOVE_ACTIONS_FOR_DOUBLE = 3;

/** archsoul.txt: The Action Economy. */
export const AP_COST = {
  move: 1,
  slowMove: 1,
  drawSimpleItem: 1,
  drawAwkwardItem: 2,
  attack: 2,
  throwItem: 1,
  standUp: 1,
  clearJam: 3,
  // archsoul.txt: Maneuvers.
  quickAttack: 1,
  recklessAttack: 3,
  study: 1,
  holdFirm: 2,
  shieldIntercept: 1,
  soulShield: 3,
  charge: 3,
  mount: 1,
  dismount: 1,
  grab: 2,
  grappleAttack: 1,
  escape: 2,
  steal: 1,
  takedown: 1,
  grappleThrow: 2,
  grappleRoll: 0,
  // S46: a ritual declares its own cost (RITUAL); this is the least.
  performRitual: 1,
} as const;
export type ApAction = keyof typeof AP_COST;

export const ATTACK_TYPES = ['unarmed', 'melee', 'ranged', 'thrown', 'elemental', 'soul'] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];

export interface StatRef {
  attribute: Attribute;
  skill?: string;
}

export interface AttackTypeRow {
  attack: StatRef[];
  resistedBy: 'defense' | 'defenseAndShield' | 'soulpowerResolve';
  /** Damage pool parts before the weapon's base damage dice; null = effects vary. */
  damage: { attribute?: Attribute; skill?: string; baseDamage: boolean } | null;
}

/** archsoul.txt: Attacking (the attack-type table). The first attack roll is the default; the second is the alternative. */
export const ATTACK_TABLE: Record<AttackType, AttackTypeRow> = {
  unarmed: {
    attack: [{ attribute: 'precision', skill: 'primitiveAttacks' }],
    resistedBy: 'defense',
    damage: { attribute: 'athletics', baseDamage: true },
  },
  melee: {
    attack: [{ attribute: 'precision', skill: 'meleeWeapons' }],
    resistedBy: 'defense',
    damage: { attribute: 'athletics', skill: 'weaponMastery', baseDamage: true },
  },
  ranged: {
    attack: [{ attribute: 'precision', skill: 'rangedWeapons' }],
    resistedBy: 'defenseAndShield',
    damage: { skill: 'weaponMastery', baseDamage: true },
  },
  thrown: {
    attack: [
      { attribute: 'precision', skill: 'primitiveAttacks' },
      { attribute: 'athletics', skill: 'primitiveAttacks' },
    ],
    resistedBy: 'defenseAndShield',
    damage: { attribute: 'athletics', skill: 'weaponMastery', baseDamage: true },
  },
  elemental: {
    attack: [
      { attribute: 'soulpower', skill: 'soulCasting' },
      { attribute: 'precision', skill: 'rangedWeapons' },
    ],
    resistedBy: 'defenseAndShield',
    damage: { attribute: 'soulpower', skill: 'evocation', baseDamage: false },
  },
  soul: {
    attack: [{ attribute: 'soulpower', skill: 'soulCasting' }],
    resistedBy: 'soulpowerResolve',
    damage: null,
  },
};

export const CRITICAL_TABLES = ['melee', 'firearm', 'bow', 'unarmed', 'soul'] as const;
export type CriticalTable = (typeof CRITICAL_TABLES)[number];

export type CriticalEffect =
  | { kind: 'drop'; at: 'self' | 'target' }
  | { kind: 'nextAttack'; amount: number }
  | { kind: 'defense'; amount: number }
  | { kind: 'speed'; amount: number }
  | { kind: 'reactive' }
  | { kind: 'weaponDamage' }
  | { kind: 'jam' }
  | { kind: 'selfDamage'; amount: number }
  | { kind: 'area'; damage: number; radiusMetres: number; weapon: 'repair' | 'destroyed' }
  | { kind: 'redirect'; to: 'adjacent' | 'ally' }
  | { kind: 'repair' }
  | { kind: 'prone' }
  | { kind: 'selfDamageRoll'; max: number }
  | { kind: 'drain'; amount: number }
  | { kind: 'shift' }
  | { kind: 'soulpower'; amount: number };

/** archsoul.txt: Critical Failure Tables, in the text's order (S2). Index = d6 face − 1. */
export const CRITICAL_FAILURES: Record<CriticalTable, readonly { text: string; effect: CriticalEffect }[]> = {
  melee: [
    { text: 'Weapon slips and drops at your feet', effect: { kind: 'drop', at: 'self' } },
    { text: "Weapon slips and lands at target's feet", effect: { kind: 'drop', at: 'target' } },
    {
      text: 'Wrist sprains, difficulty of next attack increases by 1',
      effect: { kind: 'nextAttack', amount: 1 },
    },
    {
      text: 'Fall off balance, decreasing your defense by 1 for one round',
      effect: { kind: 'defense', amount: 1 },
    },
    {
      text: 'Leave yourself open, triggering a reactive attack from your target',
      effect: { kind: 'reactive' },
    },
    {
      text: "Strike the ground, rolling normal damage against the weapon's HP",
      effect: { kind: 'weaponDamage' },
    },
  ],
  firearm: [
    { text: 'Barrel jams, requiring a full round to clear before reloading', effect: { kind: 'jam' } },
    {
      text: 'Firearm smokes, difficulty of next attack increases by 1',
      effect: { kind: 'nextAttack', amount: 1 },
    },
    { text: 'Firearm kicks, dealing 2 damage to you', effect: { kind: 'selfDamage', amount: 2 } },
    { text: 'Firearm flares up, dealing 4 damage to you', effect: { kind: 'selfDamage', amount: 4 } },
    {
      text: 'Firearm bursts, dealing 4 damage in a 2m radius, weapon requires repairs',
      effect: { kind: 'area', damage: 4, radiusMetres: 2, weapon: 'repair' },
    },
    {
      text: 'Firearm explodes, dealing 6 damage in a 2m radius, weapon is destroyed',
      effect: { kind: 'area', damage: 6, radiusMetres: 2, weapon: 'destroyed' },
    },
  ],
  bow: [
    { text: 'Weapon slips and falls at your feet', effect: { kind: 'drop', at: 'self' } },
    {
      text: 'Random target adjacent to original target is hit instead',
      effect: { kind: 'redirect', to: 'adjacent' },
    },
    { text: 'Random ally within 6m of the target is hit instead', effect: { kind: 'redirect', to: 'ally' } },
    { text: 'Weapon snaps back, dealing 2 damage to you', effect: { kind: 'selfDamage', amount: 2 } },
    {
      text: 'Weapon grazes your eye, difficulty of next attack increases by 1',
      effect: { kind: 'nextAttack', amount: 1 },
    },
    { text: 'String snaps, weapon requires repairs', effect: { kind: 'repair' } },
  ],
  unarmed: [
    { text: 'Overextend, knocking yourself down', effect: { kind: 'prone' } },
    { text: 'Ankle sprains, decreasing movement by 1 for one round', effect: { kind: 'speed', amount: 1 } },
    {
      text: 'Elbow sprains, difficulty of next attack increases by 1',
      effect: { kind: 'nextAttack', amount: 1 },
    },
    {
      text: 'Fall off balance, decreasing your defense by 1 for one round',
      effect: { kind: 'defense', amount: 1 },
    },
    {
      text: 'Leave yourself open, triggering a reactive attack from your target',
      effect: { kind: 'reactive' },
    },
    {
      text: 'Hit incorrectly, rolling damage against yourself (maximum 5)',
      effect: { kind: 'selfDamageRoll', max: 5 },
    },
  ],
  soul: [
    { text: 'Suffer 1 extra Drain', effect: { kind: 'drain', amount: 1 } },
    { text: 'Suffer 2 extra Drain', effect: { kind: 'drain', amount: 2 } },
    { text: 'Suffer 3 extra Drain', effect: { kind: 'drain', amount: 3 } },
    {
      text: 'Light yourself on fire, dealing 4 damage to yourself',
      effect: { kind: 'selfDamage', amount: 4 },
    },
    { text: 'Shift 2m towards target (forwards if no applicable target)', effect: { kind: 'shift' } },
    {
      text: 'Soul stumbles upon natural aetherial trap, lowering Soulpower by 1',
      effect: { kind: 'soulpower', amount: 1 },
    },
  ],
};

/** S2: the table a weapon rolls on by default (thrown uses melee). */
export const DEFAULT_CRITICAL_TABLE: Record<AttackType, CriticalTable> = {
  unarmed: 'unarmed',
  melee: 'melee',
  thrown: 'melee',
  ranged: 'bow',
  elemental: 'soul',
  soul: 'soul',
};

/**
 * S70: a technological elemental weapon (Precision/Ranged Weapons, not soul magic) rolls the firearm table by default;
 * the soul table's Drain and Soulpower entries are soul magic's.
 */
export const TECHNOLOGICAL_ELEMENTAL_CRITICAL_TABLE: CriticalTable = 'firearm';

export const AMMUNITION_KINDS = ['arrow', 'bolt', 'bullet', 'other'] as const;
export type AmmunitionKind = (typeof AMMUNITION_KINDS)[number];
/** archsoul.txt: Recovering Projectile Weapons: arrows and bolts break 1 in 6 (S21: a 1 breaks); bullets are lost. */
export const BREAKS_ON_FACE = 1;

export const CONDITIONS = [
  'prone',
  'grappled',
  'defenseDown',
  'slowed',
  'nextAttackHarder',
  'unaware',
  'holdFirm',
  'shieldIntercept',
  'soulShield',
] as const;
/** The conditions with a size (S20: Defense lost, speed lost, difficulty added): the rest are had or not (S104). */
export const SIZED_CONDITIONS: readonly (typeof CONDITIONS)[number][] = [
  'defenseDown',
  'slowed',
  'nextAttackHarder',
];

/** archsoul.txt: Special Attacks. */
export const SPECIAL_ATTACKS = {
  quick: { ap: 'quickAttack', attack: 0, damage: 1, nonLight: 1, nonLightOtherHand: 1 },
  reckless: { ap: 'recklessAttack', attack: 2, damage: -1, nonLight: 0, nonLightOtherHand: 0 },
} as const;
export type SpecialAttack = keyof typeof SPECIAL_ATTACKS;

export const ATTACK_MODIFIERS = ['feint', 'sneak', 'knockdown', 'shatter', 'cleave'] as const;
export type AttackModifier = (typeof ATTACK_MODIFIERS)[number];
/**
 * archsoul.txt: Attack Modifiers ("Feint may be used in conjunction with the Shatter or Knockdown maneuvers");
 * S29: the pairs allowed together; any other pair is refused.
 */
export const MODIFIER_COMBINATIONS: readonly [AttackModifier, AttackModifier][] = [
  ['feint', 'knockdown'],
  ['feint', 'shatter'],
  ['sneak', 'knockdown'],
  ['sneak', 'shatter'],
];

/** archsoul.txt: Feint: Precision/Confusion or Precision/Acting at 5 against Intellect/Read Emotions at 4; +1 against non-human anatomy. */
export const FEINT_TEST = {
  attribute: 'precision' as Attribute,
  skills: ['confusion', 'acting'],
  difficulty: 5,
  nonHumanAnatomy: 1,
};
export const FEINT_DEFENCE_TEST = {
  attribute: 'intellect' as Attribute,
  skill: 'readEmotions',
  difficulty: 4,
};
/** archsoul.txt: Knockdown: Athletics/Resolve at 3; ranged: +1 to attack and damage. */
export const KNOCKDOWN_TEST = {
  attribute: 'athletics' as Attribute,
  skill: 'resolve',
  difficulty: 3,
  rangedPenalty: 1,
};
/** archsoul.txt: Shatter: unarmed or ranged +1 to attack and damage; a shield counts as plate for strong/weak. */
export const SHATTER = { unarmedOrRangedPenalty: 1, shieldArmour: 'plate' };
/** archsoul.txt: Sneak Attack: three consecutive studying actions; −1 damage difficulty; skill ranks for golems and plants. */
export const SNEAK_ATTACK = {
  studyActions: 3,
  damage: -1,
  creatureSkill: {
    golem: { skill: 'engineering', ranks: 5 },
    plant: { skill: 'survival', ranks: 5 },
  } as Record<string, { skill: string; ranks: number }>,
};
/** archsoul.txt: Cleave: up to 2 adjacent spaces; +1 to attack and damage. */
export const CLEAVE = { spaces: 2, attack: 1, damage: 1 };
export const HANDLING = ['light', 'semiLight', 'regular'] as const;
export type Handling = (typeof HANDLING)[number];
export const ANATOMIES = ['humanlike', 'other', 'unfamiliar'] as const;
export type Anatomy = (typeof ANATOMIES)[number];

/** Sizes in order (S33: each step of difference moves grapple difficulty by 1). */
export const SIZES = ['tiny', 'small', 'medium', 'large', 'huge', 'gargantuan'] as const;
export type Size = (typeof SIZES)[number];
/** archsoul.txt: Grapple Rolls: an unarmed attack roll or Athletics/Agility. */
export const GRAPPLE_ROLLS = {
  unarmed: { attribute: 'precision' as Attribute, skill: 'primitiveAttacks' },
  athletics: { attribute: 'athletics' as Attribute, skill: 'agility' },
} as const;
export type GrappleRollKind = keyof typeof GRAPPLE_ROLLS;

/** S46: archsoul.txt names rituals without their mechanics; a ritual declares its AP within one turn. */
export const RITUAL = { minAp: 1, maxAp: AP_PER_TURN };

/** archsoul.txt: Charge: up to 6 × the mount's base speed in a straight line, at least 3 spaces; a Flail or a Lance. */
export const CHARGE = {
  speedMultiple: 6,
  minSpaces: 3,
  weapons: ['flail', 'lance'],
  boostedReactive: 'polearm',
};
/** spear: archsoul.txt: Draw Simple Item: "*This includes spears wielded as two-handed weapons" (S52). */
export const WEAPON_PROPERTIES = ['flail', 'lance', 'polearm', 'closeCombat', 'spear'] as const;
/** archsoul.txt: Trample: the mount's trample damage is rolled at the default difficulty (S35). */
export const TRAMPLE_DIFFICULTY = 4;
/** archsoul.txt: Jumping: Athletics + half Conditioning metres (S36: half rounded down), no further than the walk allows. */
export const JUMP = { attribute: 'athletics' as Attribute, skill: 'conditioning', skillShare: 2 };
/**
 * archsoul.txt: Lifting, Throwing, and Improvised Weapons: 1 base damage per 10 lb up to 50 lb, then 1 per 50 lb;
 * the Athletics difference table (S37: 4 or more is the last row; 0 or less cannot be used).
 */
export const IMPROVISED = {
  poundsPerDamage: 10,
  firstPounds: 50,
  poundsPerDamageAfter: 50,
  tableFromPounds: 10,
};
export const LIFTING_DIFFERENCE: readonly {
  difference: number;
  difficulty: number;
  accurateMetres: number;
  attributeMax: number | null;
}[] = [
  { difference: 1, difficulty: 2, accurateMetres: 2, attributeMax: 1 },
  { difference: 2, difficulty: 1, accurateMetres: 4, attributeMax: 3 },
  { difference: 3, difficulty: 1, accurateMetres: 6, attributeMax: 5 },
  { difference: 4, difficulty: 0, accurateMetres: 8, attributeMax: null },
];

export function improvisedDamage(pounds: number): number {
  const first = Math.floor(Math.min(pounds, IMPROVISED.firstPounds) / IMPROVISED.poundsPerDamage);
  const after =
    pounds > IMPROVISED.firstPounds
      ? Math.floor((pounds - IMPROVISED.firstPounds) / IMPROVISED.poundsPerDamageAfter)
      : 0;
  return first + after;
}
export type Condition = (typeof CONDITIONS)[number];

export const ARCHSOUL_DATA = {
  attributes: ATTRIBUTES,
  skills: SKILLS,
  die: {
    sides: DIE_SIDES,
    defaultDifficulty: DEFAULT_DIFFICULTY,
    minDifficulty: MIN_DIFFICULTY,
    maxDifficulty: MAX_DIFFICULTY,
  },
  apPerTurn: AP_PER_TURN,
  apCost: AP_COST,
  defaultSpeed: DEFAULT_SPEED,
  spaceMetres: SPACE_METRES,
  attackTable: ATTACK_TABLE,
  criticalFailures: CRITICAL_FAILURES,
  defaultCriticalTable: DEFAULT_CRITICAL_TABLE,
  preventionTest: PREVENTION_TEST,
  initiativeTest: INITIATIVE_TEST,
  soulDefenceTest: SOUL_DEFENCE_TEST,
  ammunitionKinds: AMMUNITION_KINDS,
  conditions: CONDITIONS,
  specialAttacks: SPECIAL_ATTACKS,
  attackModifiers: ATTACK_MODIFIERS,
  modifierCombinations: MODIFIER_COMBINATIONS,
  feintTest: FEINT_TEST,
  feintDefenceTest: FEINT_DEFENCE_TEST,
  knockdownTest: KNOCKDOWN_TEST,
  shatter: SHATTER,
  sneakAttack: SNEAK_ATTACK,
  cleave: CLEAVE,
  sizes: SIZES,
  grappleRolls: GRAPPLE_ROLLS,
  charge: CHARGE,
  ritual: RITUAL,
  trampleDifficulty: TRAMPLE_DIFFICULTY,
  jump: JUMP,
  improvised: IMPROVISED,
  liftingDifference: LIFTING_DIFFERENCE,
  grids: { hex: ['N', 'NE', 'SE', 'S', 'SW', 'NW'], square: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] },
};

export const ARCHSOUL_RULINGS: Ruling[] = [
  ...COMMON_RULINGS,
  {
    id: 'S1',
    text: 'Rolls: (attribute + skill) d6, each die ≥ difficulty succeeds; difficulty 2..6, beyond 6 each step removes a die.',
  },
  {
    id: 'S2',
    text: 'Critical failure: zero successes and more than half the dice show 1; the weapon’s table (melee, firearm, bow/crossbow, unarmed, soul) is rolled.',
  },
  {
    id: 'S3',
    text: 'An attack hits when its successes are greater than Defense (plus Shield Bonus where it applies).',
  },
  {
    id: 'S4',
    text: 'Damage roll: the listed attributes/skills + base weapon damage dice at difficulty 4; successes are HP damage.',
  },
  {
    id: 'S5',
    text: 'Arcs: hex axial, pointy-topped, six corner facings; square option with eight; front arc strictly on the facing side.',
  },
  { id: 'S6', text: 'Three Moves in one turn double the total distance (3 × speed × 2).' },
  { id: 'S7', text: 'Area of effect: radius R metres covers every space within R / 2.' },
  {
    id: 'S8',
    text: 'Reactive attacks come first; Endurance/Resolve (difficulty 3) must exceed the damage or the action is prevented, AP still spent.',
  },
  {
    id: 'S9',
    text: 'Initiative: Precision/Awareness at 4; one GM roll for all enemies; ties by Awareness, Precision, d6 roll-off; heroes act together.',
  },
  {
    id: 'S10',
    text: 'Defense is a sheet value; Shield Bonus against ranged, thrown and elemental into the front arc; Soul attacks beat a Soulpower/Resolve roll.',
  },
  { id: 'S11', text: 'HP stops at 0: Down — no turns, AP, reactive attacks or front arc, still targetable.' },
  {
    id: 'S12',
    text: 'Phases: enemies share the GM roll; one turn per combatant per phase; a turn ends on EndTurn or with the phase.',
  },
  {
    id: 'S13',
    text: 'Leaving any space within reach and front arc triggers once per reactor per mover per turn; a hit always forces the roll; a prevented step stops the Move.',
  },
  {
    id: 'S14',
    text: 'The third Move covers up to 6 × speed minus the distance already moved; an area covers ⌊R / 2⌋; square diagonals count 1.',
  },
  {
    id: 'S15',
    text: 'Manual dice: dice holds every pool in the order rolled; followUpFaces the single-die table rolls (critical table, random picks, breakage, roll-offs).',
  },
  {
    id: 'S16',
    text: 'Parties: side "enemies" is the GM’s party, every other side is a hero; the GM’s roll uses the highest enemy Precision + Awareness.',
  },
  {
    id: 'S17',
    text: 'Phases: round 1 opens with the first party’s combatants above the other party; later rounds open with that whole party. An ambush’s free move comes on each surprising member’s first turn (round 1, or round 2 for one ranked below the other party). StartActivation and EndActivation are not Archsoul commands: refused (ARCHSOUL_USE_PHASES); ActivationStarted and ActivationEnded are no Archsoul events: not published.',
  },
  {
    id: 'S18',
    text: 'A triggering action is held with its AP spent; reactors answer one at a time; a prevented action ends, otherwise ResumeAction performs it. The once-per-turn leave-reach reaction (a landing’s too) is used when offered, not when a reactor lapses unoffered.',
  },
  {
    id: 'S19',
    text: 'Movement: adjacent steps, not into blocked or enemy spaces nor through walls, never ending on an occupied space; prone combatants StandUp (1 AP) first.',
  },
  {
    id: 'S20',
    text: 'Critical failure results are applied where mechanical; "one round" lasts until the combatant’s next turn; a random pick uses a follow-up die.',
  },
  {
    id: 'S21',
    text: 'Projectiles: a hit drops in the target’s space, a miss at maximum range or before the first obstacle; a follow-up 1 breaks an arrow or bolt unless waived.',
  },
  {
    id: 'S22',
    text: 'Unarmed metal armour adds 1 to the damage roll (damage dealt, a Knockdown’s comparison, a Shatter’s damage to the item); improvised and broken weapons each add 1 to attack and damage difficulty.',
  },
  {
    id: 'S23',
    text: 'Ranged, thrown, elemental and soul attacks need line of sight: every space the straight segment between the two centres enters (square: exact, diagonally through a corner it passes; hex: nudged both ways, clear if either is); blocked spaces and walls block it.',
  },
  {
    id: 'S24',
    text: 'A Soul attack’s defender rolls Soulpower/Resolve at difficulty 4; its effects are applied by the GM.',
  },
  {
    id: 'S25',
    text: 'Draw Awkward Item spends its 2 AP at once when it can, else 1 now and 1 on the next action; any other AP action breaks it.',
  },
  {
    id: 'S26',
    text: 'A reactor reaches a space when one of its held melee or unarmed weapons reaches it, and attacks with a weapon that reaches; unarmed reaches adjacent spaces only; a Down target’s action is prevented without a roll.',
  },
  {
    id: 'S27',
    text: 'Quick (1 AP) and Reckless (3 AP) are Attack options (special), never reactive; "used this round" counts every attack with the weapon since the own last turn; unarmed is light; after a Quick Attack no attack, grapple Attack or Throw.',
  },
  {
    id: 'S28',
    text: 'Feint dice: feint roll, the target’s Intellect/Read Emotions, then the attack; the better of Confusion/Acting; a failed feint misses with no attack roll; anatomy other or unfamiliar: +1.',
  },
  {
    id: 'S29',
    text: 'Attack modifiers combine only as feint+knockdown, feint+shatter, sneak+knockdown, sneak+shatter; Cleave combines with none; special attacks with any.',
  },
  {
    id: 'S30',
    text: 'Sneak Attack: Study (1 AP) three times in a row on one target (any other AP action breaks it); the GM marks the target unaware, the sneak attack ends it.',
  },
  {
    id: 'S31',
    text: 'Shatter: a held weapon or shield; the sheet’s shatterResponse answers roll or drop; a shield rolls as a melee weapon; damage less hardness lowers the item’s HP, 0 breaks it; a dropped item makes the attack an unrolled miss (a sneak one still removes unaware); a Shatter counts no Defense or Shield Bonus, rolled or not.',
  },
  {
    id: 'S32',
    text: 'Knockdown dice: attack, the target’s Athletics/Resolve, damage; a reactive knockdown that fells the actor prevents its action; stances end at the causer’s next turn; Hold Firm needs a front arc (refused while grappled); allies are willing.',
  },
  {
    id: 'S33',
    text: 'Grappling: rolls use the better of unarmed and Athletics/Agility, ±1 per size step; other actions, free ones too, need a roll against each partner first (a failure spends the AP); grapplers are dragged, and theirs in turn, each once; standing up by Escape triggers.',
  },
  {
    id: 'S34',
    text: 'Areas: one pool rolled, recounted at each target’s difficulty; arcs seen from the centre (Cleave: from the attacker); one damage roll for all hit (“All targets hit are then affected by the same damage roll”), recounted at each one’s damage difficulty so Armor Piercing applies per target (“recount it for each difficulty level needed”); it provokes as the weapon’s Attack would.',
  },
  {
    id: 'S35',
    text: 'Mounts ride on the rider’s sheet (speed, size, trample dice); a mounted Move, and an ambush’s free movement, use the mount’s speed; trampleResponse is a standing policy; a trample hit stops without a roll; a rider knocked down, dropping to the ground or thrown comes off its mount.',
  },
  {
    id: 'S36',
    text: 'Jumping: a Move with jump: the whole path in one straight line, floor((Athletics + ⌊Conditioning / 2⌋) / 2) spaces, over blocked spaces and combatants, not walls; landing triggers.',
  },
  {
    id: 'S37',
    text: 'Improvised weapons: weightLb sets base damage; liftingAthletics (the Lifting Strength row) sets the difference row, 4 or more being the last; accurate throw range in spaces = metres / 2.',
  },
  {
    id: 'S38',
    text: 'Square grid: a diagonal step or sight line passes the shared corner and is stopped by walls there unless one orthogonal way round is free of walls.',
  },
  {
    id: 'S39',
    text: 'A combatant going Down loses its open turn; a phase left with no open turn and no pending decision ends (also after CancelPending or RemoveCombatant); Down combatants keep their place in the phases.',
  },
  {
    id: 'S40',
    text: 'Falling: the text gives no damage formula; the GM’s Fall (no AP) records the fall, applies the GM’s damage and leaves the combatant prone (a rider dismounted).',
  },
  {
    id: 'S41',
    text: 'Vertical jumps: the map has no height; a Move with vertical: true is refused (ARCHSOUL_VERTICAL_JUMP); the GM narrates the jump and places the combatant.',
  },
  {
    id: 'S42',
    text: 'Mount and Dismount cost 1 AP each, like a Move, and trigger no reactive attacks; the mount waits where its rider left it; mounting needs it in or beside the rider’s space.',
  },
  {
    id: 'S43',
    text: 'Shared spaces: a Takedown’s grapplers share a space; anyone else who stands in another’s space when its turn ends (EndTurn, EndPhase, EndRound, going Down) is pushed to a free space (on EndTurn its choice of adjacent ones, else the nearest).',
  },
  {
    id: 'S44',
    text: 'Shatter targets held weapons and shields only; an ordinary item has no weapon roll (ARCHSOUL_SHATTER_ORDINARY_ITEM): the GM lists it as an improvised weapon (S37) to shatter it.',
  },
  {
    id: 'S45',
    text: 'The critical-failure shift toward the target is not a move action and triggers no reactive attacks.',
  },
  {
    id: 'S46',
    text: 'Rituals: PerformRitual declares its AP (1–3), whether it needs movement (refused while grappled) and whether it provokes reactive attacks; its effect is narrated, the GM applies it.',
  },
  {
    id: 'S47',
    text: 'A fall ends every grapple the faller is in, whether it holds or is held; the partners stay where they are.',
  },
  {
    id: 'S48',
    text: 'While grappled, melee, ranged and thrown attacks (ThrowItem included) are weapon attacks and refused; unarmed attacks and soul magic take the grapple roll.',
  },
  {
    id: 'S49',
    text: 'A combatant removed from the fight leaves its grapples (they end); if it held the phase’s last open turn the next phase opens for the other party.',
  },
  {
    id: 'S50',
    text: 'ResumeAction performs the held action as declared: it adds its dice and the GM’s circumstances, never a new maneuver, target or weapon.',
  },
  {
    id: 'S51',
    text: 'Two hands: a two-handed weapon fills both, unarmed weapons and soul magic none, anything else one; draws, equipping a shield, picking up and Grab need free hands; a sheet starts with what it says, then the first weapon, the shield, other weapons while they fit.',
  },
  {
    id: 'S52',
    text: 'Draw Awkward Item: a shield, a two-handed weapon or item (not a spear), or stowage awkward (a backpack); stowage is derived from twoHanded, and simple on such a weapon is refused; a shield picked up from the ground is carried until equipped.',
  },
  {
    id: 'S53',
    text: 'Quick Attack: "this round" ends at the attacker’s next turn (C7), so a reactive attack made before its own turn began does not count.',
  },
  {
    id: 'S54',
    text: 'Trample: the stop’s reactive attack needs the rider in the opponent’s front arc; one that cannot stop the rider is treated as a miss (trample damage). A trigger on leaving the start space finds the mover facing as before the Move.',
  },
  {
    id: 'S55',
    text: 'A Move may walk, then jump: jumpFrom spaces of the path are walked, the rest is the straight jump, together within the Move; the landing ends the Move.',
  },
  {
    id: 'S56',
    text: 'An unarmed weapon that is neither light nor semi-light may Cleave (unarmed counts as melee for maneuvers); while grappled it takes the grapple roll, not being an attack with a weapon.',
  },
  {
    id: 'S57',
    text: 'An area attack’s critical failure is rolled whoever the area holds; “your target” is whoever stands where it was aimed (the centre, a Cleave’s first space), and that space stands for the target’s.',
  },
  {
    id: 'S58',
    text: 'A thrown area weapon with 0 successes lands in a random space adjacent to the centre (Throw an Item) and hits nobody.',
  },
  {
    id: 'S59',
    text: 'A held action whose weapon or item a reactive attack destroyed or made the actor drop is prevented (no roll); its AP stay spent, a Charge’s rider is dismounted and knocked down.',
  },
  {
    id: 'S60',
    text: 'Anyone’s item may be picked up from the ground (1 AP, triggers, hands as its owner’s sheet needs); another’s is carried like a stolen one, and its owner cannot pick it up.',
  },
  {
    id: 'S61',
    text: 'A thrown weapon marked heavy or for the Athletics roll (attackRoll 1) is a cumbersome throw: Athletics/Primitive Attacks at +1 difficulty; otherwise Precision/Primitive Attacks.',
  },
  {
    id: 'S62',
    text: 'Steal reaches an item in hand or simply stowed; a two-handed weapon not in hand is stowed awkwardly (S52) and cannot be stolen.',
  },
  {
    id: 'S63',
    text: 'An area shot is fired at its centre: only interceptors between the shooter and the centre make its roll harder, for every target.',
  },
  {
    id: 'S64',
    text: 'A Down combatant’s “until your next turn” effects (its stances, its Soul Shield, “for one round”) end when its phase begins without it.',
  },
  {
    id: 'S65',
    text: '“Difficulty of next attack” raises the next attack roll of any kind (a reactive attack and a Shatter too); an area or Cleave roll counts once for all its targets.',
  },
  {
    id: 'S66',
    text: 'Paying for another item’s awkward draw ends a half-drawn one at once, even while reactive attacks hold that draw.',
  },
  {
    id: 'S67',
    text: 'A sneak attack uses up the study that allowed it, a reactive one too; another needs three new studies.',
  },
  {
    id: 'S68',
    text: 'A throw is a weapon attack: ThrowItem takes Feint, Sneak Attack, Knockdown and Shatter as a ranged attack does; the item leaves the hand only when the attack is rolled.',
  },
  {
    id: 'S69',
    text: 'An item too heavy for its holder to use as a weapon (Athletics difference 0 or less) makes no weapon attack roll against a Shatter: 0 successes, no dice.',
  },
  {
    id: 'S70',
    text: 'A technological elemental weapon (Precision/Ranged Weapons, not soul magic) rolls the firearm critical-failure table unless its sheet names another.',
  },
  {
    id: 'S71',
    text: 'A reactive Grab (grab: true, no AP, an empty hand, no weapon or other maneuver) rolls as a Grab; a success grapples the actor under the reactor’s control, prevents a move, weapon attack or moving ritual, and any other held action needs the actor’s grapple roll now.',
  },
  {
    id: 'S72',
    text: 'The sheet’s metalGauntlets armour the hands: they add 1 to a punch’s damage roll only; any other unarmed strike gets the +1 only when the GM’s limbArmoured says its limb is armoured.',
  },
  {
    id: 'S73',
    text: 'Melee and unarmed reach stops at walls and blocked spaces (line of sight, S23): no attack, Grab, Cleave space, Charge attack or reactive attack through them, and no grapple Throw over a wall.',
  },
  {
    id: 'S74',
    text: 'The melee table’s “Strike the ground” damage to the weapon’s HP is its damage roll less the weapon’s hardness, as a Shatter’s damage to an item is.',
  },
  {
    id: 'S75',
    text: 'A round’s phases alternate as they opened: when its first phase ends the other party’s opens, late joiners included, even if a joiner’s initiative has put the other party first; the new order counts from the next round.',
  },
  {
    id: 'S76',
    text: 'A combatant removed from the fight has no next turn: its Soul Shield on an ally ends as it leaves; another caster’s shield on that ally stays until that caster’s next turn.',
  },
  {
    id: 'S77',
    text: 'An ambush’s free move goes to the surprising party’s members present as round 1 starts, on each one’s first turn (round 1 or 2), whoever joins or leaves meanwhile; a later joiner gets none.',
  },
  {
    id: 'S78',
    text: 'Grabbing an ally: the Grab names the person grabbed as its reactor and “the opponent”, so an ally grabbed is offered the reactive attack as anyone is (and may decline); the grapple is rolled as against anyone.',
  },
  {
    id: 'S79',
    text: 'A grappled holder still answers a Shatter: its item’s weapon attack roll, or dropping the item, answers the attack; it is no attack or action of its own, so no grapple roll.',
  },
  {
    id: 'S80',
    text: 'The ambush’s free movement is not the Move action (none of the three, not doubled), but its spaces are moved this turn: the third Move covers 6 × speed less all the combatant walked this turn (S14), free and Slow Moves included.',
  },
  {
    id: 'S81',
    text: 'A prevented free move (Ambushes) ends the free movement: what it did not walk is lost, and the mover walks on only with Move actions.',
  },
  {
    id: 'S82',
    text: 'A grapple Throw whose roll is lost does not end the grapple: its 2 AP are spent, nothing is thrown, and the winner takes control (Gaining Control).',
  },
  {
    id: 'S83',
    text: 'A grappled combatant’s Study whose grapple roll is lost spends its AP and is no study: the three consecutive studying actions start again.',
  },
  {
    id: 'S84',
    text: 'A grappled combatant’s second half of an awkward draw whose grapple roll is lost spends its AP and draws nothing; the halves are no longer consecutive, so the next draw starts again.',
  },
  {
    id: 'S85',
    text: 'A held free move (Ambushes) that is not performed, abandoned with ResumeAction or dropped by the GM’s CancelPending, ends the free movement, as a prevented one does (S81).',
  },
  {
    id: 'S86',
    text: 'A mounted Move covers the mount’s speed: the rider’s own slowed condition (an ankle sprain) does not lessen it, as a Charge counts the mount’s base speed; on foot it counts again while it lasts.',
  },
  {
    id: 'S87',
    text: 'A reactive attack spends no action points, so it does not break a Sneak Attack’s three consecutive studying actions; only another AP action does (S30).',
  },
  {
    id: 'S88',
    text: 'A mounted jump is the rider’s: Athletics plus half Conditioning metres (the mount has no such stats), within the mounted Move’s walk, the mount’s speed.',
  },
  {
    id: 'S89',
    text: 'The ambush’s free movement is a regular move: a grappled member of the surprising party cannot use it until the grapple ends; it keeps it for that turn.',
  },
  {
    id: 'S90',
    text: 'A jumping Move may be paid with 1–3 AP (ap), each one use of the Move action: walk and jump may cover what those Moves walk together (“without spending an additional action point”), never beyond the jump itself.',
  },
  {
    id: 'S91',
    text: 'The GM’s RemoveCondition grappled ends every grapple the combatant is in (GrappleEnded, then grappled removed from each member left in no other grapple); a grappled the GM applied with no grapple is simply removed.',
  },
  {
    id: 'S92',
    text: 'The GM’s ApplyCondition prone takes a mounted rider off its mount first (Dismounted, the mount waiting in its space), as a rider knocked down comes off (S35); the condition itself is applied as the GM gives it.',
  },
  {
    id: 'S93',
    text: 'A soul weapon has no damage roll (“effects vary”): where a rule rolls its damage (a critical failure table its sheet names, a hit redirected, a Knockdown, a Shatter, a grapple), the roll has no dice and deals no damage; the entry’s other effects apply.',
  },
  {
    id: 'S94',
    text: 'A sneak attack made at range (a ranged, thrown, elemental or soul weapon) must be within the weapon’s accurate range (Sneak Attack: “a ranged attack”); a melee or unarmed one has no range to check.',
  },
  {
    id: 'S95',
    text: 'A melee or unarmed attack shoots nothing: it neither needs nor spends the ammunition its weapon’s sheet counts, and a jam (the firearm table’s “Barrel jams”) does not stop it; a weapon that shoots still needs a shot left and no jam.',
  },
  {
    id: 'S96',
    text: 'A sheet weapon with the id fist is its holder’s fist: it stands in for the built-in fist wherever a command names fist or no weapon, in a grapple Attack’s or Throw’s unarmed damage, in the reach that makes a reactor (S26) and in a held action (S59); without one, the built-in fist stays.',
  },
  {
    id: 'S97',
    text: 'Quick Attack’s “non-light weapon in your other hand” is any other weapon held in a hand (S51), whatever its type, that is not light; worn unarmed weapons and soul magic fill no hand and a shield is no weapon, so they add nothing (refines S27).',
  },
  {
    id: 'S98',
    text: 'A grapple Attack is an attack made with the weapon whose damage it deals (the fist or the Close Combat weapon), a grapple Throw one made with the fist, won or lost: for Quick Attack, that weapon has been attacked with this round (S27, S53).',
  },
  {
    id: 'S99',
    text: 'The unarmed table’s “Hit incorrectly, rolling damage against yourself (maximum 5)” rolls the attack’s own damage roll with its damage modifiers and bonus dice (Quick Attack, Reckless Attack, Shatter…), plus a metal limb’s +1 (S22), then caps it at 5.',
  },
  {
    id: 'S100',
    text: 'A field no state could make count is refused on every path: limbArmoured with a weapon that is not unarmed (Attack, ReactiveAttack, a resumed Attack); a ResumeAction’s GM circumstances when it abandons or its held action rolls no attack (ARCHSOUL_RESUME_FIELD). A resumed Charge’s circumstances ride on its attack.',
  },
  {
    id: 'S101',
    text: 'An ambush’s “base movement speed” is the speed before any condition: the sheet’s on foot, the mount’s while mounted; a slow shortens the Move action, not the free movement.',
  },
  {
    id: 'S102',
    text: 'A Grab, won or lost, is an unarmed attack made with the fist (a reactive one too): a Quick Attack with the fist is refused for the rest of the round; a prevented Grab made none.',
  },
  {
    id: 'S103',
    text: 'Every combatant stands in one space, so no attacker occupies both arcs: the arc is the attacker’s space’s, whatever its size; a GM places a large monster lying across both arcs on a front-arc space.',
  },
  {
    id: 'S104',
    text: 'Fields never read are refused: reach (but 0) beyond melee and unarmed weapons, ranges on them, heavy beyond thrown, a thrown weapon’s differing thrown, areaRadius beyond ranged, thrown and elemental; amount on a condition without a size; a Cleave’s targetId outside its spaces.',
  },
  {
    id: 'S105',
    text: 'Refused too: twoHanded true on an unarmed weapon or soul magic (they fill no hand), fromBackpack true on an awkward draw’s second half (its reactive attacks came as it started), liftingAthletics on anything but an improvised weapon over 10 lb. armour.metal is kept as a description: no rule reads it.',
  },
  {
    id: 'S106',
    text: 'A held Quick Attack that is not performed (prevented, abandoned or dropped by the GM) ends no attacks: its AP stay spent (S8), its weapon made no attack this round, and the actor may still attack this turn.',
  },
  {
    id: 'S107',
    text: 'The enemies are one unit of the initiative order (the GM’s one roll): a tieBreak is refused where the enemies alone are ordered, and must name all of them side by side or none; SetInitiative keeps them side by side (INITIATIVE_ORDER_INVALID).',
  },
  {
    id: 'S108',
    text: 'A thrown item the critical failure table drops at the thrower’s or the target’s feet lies in that space; the roll of 0 does not land it again (no landing die). Any other entry leaves the roll of 0 to land it beside the target.',
  },
  {
    id: 'S109',
    text: 'A late joiner moves no one: the units in the order keep it, settled ties included; a new unit is slotted in by total, Awareness, Precision and rolls off only with those it equals; an enemy joining enemies who have their roll shares it and rolls nothing; its tieBreak is refused, as nothing can tie.',
  },
];
