import { parseOrRefuse } from '../core/contract';
import { bad } from '../core/fields';
import { ARCHSOUL_SHEET, ArchsoulSheetInput } from './contract';
import {
  AmmunitionKind,
  Anatomy,
  AttackType,
  Attribute,
  ATTRIBUTES,
  CriticalTable,
  DEFAULT_CRITICAL_TABLE,
  DEFAULT_SPEED,
  Handling,
  TECHNOLOGICAL_ELEMENTAL_CRITICAL_TABLE,
  improvisedDamage,
  IMPROVISED,
  Size,
} from './data';
import { HANDS, handsOf } from './hands';

export interface ThrowStats {
  accurateRange: number;
  maximumRange: number;
  /** archsoul.txt: Thrown Weapon: cumbersome (two hands): Athletics instead of Precision, +1 difficulty. */
  heavy: boolean;
  damage: number;
}

export interface Weapon {
  id: string;
  name: string;
  type: AttackType;
  /** Base weapon damage dice (S4). */
  damage: number;
  /** Melee reach in spaces. */
  reach: number;
  accurateRange?: number;
  maximumRange?: number;
  strongAgainst: string[];
  weakAgainst: string[];
  armourPiercing: boolean;
  improvised: boolean;
  broken: boolean;
  criticalTable: CriticalTable;
  soulMagic: boolean;
  /** Which row of the attack table's attack rolls (elemental: 0 Soulpower/Soul Casting, 1 Precision/Ranged Weapons). */
  attackRoll: number;
  /** How it is drawn (S52): simple (Draw Simple Item) or awkward (Draw Awkward Item: two-handed, a backpack). */
  stowage: 'simple' | 'awkward';
  /** In hand when the fight starts (S51). */
  held: boolean;
  hp?: number;
  ammunition?: { kind: AmmunitionKind; count: number };
  thrown?: ThrowStats;
  /** archsoul.txt: Quick Attack / Cleave: light, semi-light or neither. */
  handling: Handling;
  /** archsoul.txt: Quick Attack: "a one-handed weapon". */
  twoHanded: boolean;
  /** archsoul.txt: Shatter: "being sure to account for hardness". */
  hardness: number;
  /** archsoul.txt: Grappling: Attack: a weapon with the Close Combat property deals its damage in a grapple. */
  closeCombat: boolean;
  /** archsoul.txt: Area of Effect Attacks: radius in metres (S7). */
  areaRadius?: number;
  /** archsoul.txt: Charge (Flail, Lance) and its Polearm reactive attacks. */
  properties: string[];
  /** archsoul.txt: Lifting, Throwing, and Improvised Weapons: weight and the Athletics of its Lifting Strength row (S37). */
  weightLb?: number;
  liftingAthletics?: number;
}

/**
 * A weapon that strikes rather than shoots. archsoul.txt: Attacking: Unarmed attacks reach "adjacent spaces" and "are
 * treated the same as melee weapon attacks for the purposes of maneuvers"; the Ranged Weapon ("projectile weapons"),
 * Thrown Weapon ("throwing an object at a target"), Elemental and Soul types reach by range instead. Those are the
 * "ranged attack" of Sneak Attack (ruling S94) and the shots that ammunition and a jam concern (ruling S95).
 */
export function isMeleeOrUnarmed(w: Pick<Weapon, 'type'>): boolean {
  return w.type === 'melee' || w.type === 'unarmed';
}

export interface Item {
  id: string;
  name: string;
  /** How it is drawn (S52). */
  stowage: 'simple' | 'awkward';
  held: boolean;
  /** Held in both hands (S51); absent in sheets recorded before hands were kept. */
  twoHanded?: boolean;
  thrown?: ThrowStats;
}

export interface Shield {
  id: string;
  name: string;
  bonus: number;
  held: boolean;
  hp?: number;
  hardness: number;
}

export interface ArchsoulSheet {
  attributes: Record<Attribute, number>;
  skills: Record<string, number>;
  maxHp: number;
  hp: number;
  /** S10: Defense is a sheet value. */
  defense: number;
  speed: number;
  /** archsoul.txt: Armor Advantages: the armour type (or a creature's ATE). */
  armour?: { type: string; metal: boolean };
  /** archsoul.txt: Unarmed: metal armour on the limb attacked with (a gauntlet). */
  metalGauntlets: boolean;
  shield?: Shield;
  weapons: Weapon[];
  items: Item[];
  /** archsoul.txt: Feint / Sneak Attack: human-like anatomy, other, or unfamiliar (S28). */
  anatomy: Anatomy;
  /** archsoul.txt: Feint: "cannot be used against creatures with animal-like intelligence". */
  animalIntelligence: boolean;
  /** archsoul.txt: Sneak Attack: golems and hostile plants need skill ranks. */
  creature?: string;
  size: Size;
  /** S31 (C4 standing policy): answer a Shatter by rolling with the item or dropping it. */
  shatterResponse: 'roll' | 'drop';
  /** S35 (C4 standing policy): a trampled combatant tries to stop the rider or lets it pass. */
  trampleResponse: 'stop' | 'avoid';
  /** archsoul.txt: Mounted Maneuvers (S35): the mount rides with its rider's sheet. */
  mount?: { name: string; speed: number; size: Size; trampleDamage: number };
}

type WeaponInput = NonNullable<ArchsoulSheetInput['weapons']>[number];
type ItemInput = NonNullable<ArchsoulSheetInput['items']>[number];
type ThrowInput = NonNullable<ItemInput['thrown']>;

/** The contract (ARCHSOUL_SHEET) first, then what it cannot say: bounds set by other fields, unique ids; defaults applied. */
export function validateSheet(raw: unknown, field: string): ArchsoulSheet {
  const s = parseOrRefuse(ARCHSOUL_SHEET, raw, field, 'sheet');
  const attributes = Object.fromEntries(
    ATTRIBUTES.map((a) => [a, s.attributes?.[a] ?? 0]),
  ) as ArchsoulSheet['attributes'];
  const maxHp = s.maxHp;
  if (s.hp !== undefined && s.hp > maxHp) bad(`${field}.hp`, `must be at most ${maxHp}`);
  const weapons = (s.weapons ?? []).map((w, i) => readWeapon(w, `${field}.weapons[${i}]`));
  const items = (s.items ?? []).map((w, i) => readItem(w, `${field}.items[${i}]`));
  const sheet: ArchsoulSheet = {
    attributes,
    skills: { ...s.skills },
    maxHp,
    hp: s.hp ?? maxHp,
    defense: s.defense ?? 0,
    speed: s.speed ?? DEFAULT_SPEED,
    metalGauntlets: s.metalGauntlets ?? false,
    weapons,
    items,
    anatomy: s.anatomy ?? 'humanlike',
    animalIntelligence: s.animalIntelligence ?? false,
    size: s.size ?? 'medium',
    shatterResponse: s.shatterResponse ?? 'roll',
    trampleResponse: s.trampleResponse ?? 'stop',
  };
  if (s.mount)
    sheet.mount = {
      name: s.mount.name ?? 'Mount',
      speed: s.mount.speed,
      size: s.mount.size ?? 'large',
      trampleDamage: s.mount.trampleDamage ?? 0,
    };
  if (s.creature !== undefined) sheet.creature = s.creature;
  if (s.armour) sheet.armour = { type: s.armour.type, metal: s.armour.metal ?? false };
  if (s.shield) {
    const sh = s.shield;
    sheet.shield = {
      id: sh.id ?? 'shield',
      name: sh.name ?? 'Shield',
      bonus: sh.bonus,
      held: false,
      hardness: sh.hardness ?? 0,
    };
    if (sh.hp !== undefined) sheet.shield.hp = sh.hp;
  }
  const ids = [
    ...weapons.map((w) => w.id),
    ...items.map((i) => i.id),
    ...(sheet.shield ? [sheet.shield.id] : []),
  ];
  ids.forEach((id, i) => ids.indexOf(id) !== i && bad(`${field}`, `repeats item id ${id}`));
  startHands(s, sheet, field);
  return sheet;
}

/**
 * S51: what is in hand when the fight starts, two hands at most. What the sheet says (`held: true`) comes
 * first and must fit; then, for what it leaves unsaid, the first weapon, the shield, the other weapons in order, each
 * held while its hands are free (an unarmed weapon is worn and always fits); items stay stowed unless said.
 */
function startHands(s: ArchsoulSheetInput, sheet: ArchsoulSheet, field: string): void {
  type Entry = {
    thing: { name: string; held: boolean; type?: AttackType; twoHanded?: boolean };
    said: boolean | undefined;
    field: string;
  };
  const weapons: Entry[] = sheet.weapons.map((w, i) => ({
    thing: w,
    said: s.weapons?.[i]?.held,
    field: `${field}.weapons[${i}].held`,
  }));
  const items: Entry[] = sheet.items.map((x, i) => ({
    thing: x,
    said: s.items?.[i]?.held,
    field: `${field}.items[${i}].held`,
  }));
  const shield: Entry[] = sheet.shield
    ? [{ thing: sheet.shield, said: s.shield?.held, field: `${field}.shield.held` }]
    : [];
  let free = HANDS;
  const holding: string[] = [];
  for (const e of [...weapons, ...items, ...shield]) {
    e.thing.held = e.said === true;
    if (!e.thing.held) continue;
    const need = handsOf(e.thing);
    if (need > free) {
      const verb = holding.length > 1 ? 'fill' : 'fills';
      bad(
        e.field,
        `cannot be true: ${e.thing.name} needs ${need === 2 ? 'both hands' : 'a hand'} and ${holding.join(' and ')} already ${verb} ${free === 0 ? 'both hands' : 'one hand'}; a combatant has two (ruling S51; archsoul.txt: "Draw a two-handed weapon", "a non-light weapon in your other hand")`,
      );
    }
    free -= need;
    if (need > 0) holding.push(need === 2 ? `${e.thing.name} (two-handed)` : e.thing.name);
  }
  const unsaid = (e: Entry) => e.said === undefined;
  const firstWeapon = weapons.find(unsaid);
  const order = [
    ...(firstWeapon ? [firstWeapon] : []),
    ...shield.filter(unsaid),
    ...weapons.filter((e) => unsaid(e) && e !== firstWeapon),
  ];
  for (const e of order) {
    const need = handsOf(e.thing);
    e.thing.held = need <= free;
    if (e.thing.held) free -= need;
  }
}

/** A range bound by another field: at least `min`. */
function atLeast(v: number | undefined, min: number, field: string): number {
  if (v !== undefined && v < min) bad(field, `must be at least ${min}`);
  return v ?? min;
}

function readThrow(t: ThrowInput, field: string, damage: number): ThrowStats {
  return {
    accurateRange: t.accurateRange,
    maximumRange: atLeast(t.maximumRange, t.accurateRange, `${field}.maximumRange`),
    heavy: t.heavy ?? false,
    damage: t.damage ?? damage,
  };
}

function readWeapon(w: WeaponInput, field: string): Weapon {
  const type = w.type ?? 'melee';
  // archsoul.txt: Lifting, Throwing, and Improvised Weapons: base damage by weight when nothing similar exists.
  const damage = w.damage ?? (w.weightLb !== undefined ? improvisedDamage(w.weightLb) : 0);
  const close = isMeleeOrUnarmed({ type });
  // S61: a thrown weapon's Athletics roll (attackRoll 1) and its cumbersome throw (heavy) are one thing:
  // "it uses Athletics to hit instead of Precision. In such cases, the difficulty … is also increased by 1".
  const cumbersome = type === 'thrown' && ((w.heavy ?? false) || w.attackRoll === 1);
  const attackRoll = cumbersome ? 1 : type === 'thrown' ? 0 : (w.attackRoll ?? 0);
  if ((w.attackRoll ?? 0) > 0 && type !== 'thrown' && type !== 'elemental')
    bad(`${field}.attackRoll`, 'must be at most 0');
  if (close && w.reach === 0) bad(`${field}.reach`, 'must be at least 1');
  const soulMagic = w.soulMagic ?? (type === 'soul' || (type === 'elemental' && attackRoll === 0));
  const improvised = w.improvised ?? w.weightLb !== undefined;
  unreadFields(w, { type, soulMagic, improvised }, field);
  // archsoul.txt: Unarmed: "These may only be performed against targets in adjacent spaces" (the Unarmed Combat
  // specialization that may overcome it is not modelled).
  if (type === 'unarmed' && w.reach !== undefined && w.reach > 1)
    bad(
      `${field}.reach`,
      'must be 1: an unarmed attack reaches adjacent spaces only (archsoul.txt: Unarmed)',
    );
  // S70: "special technology" (archsoul.txt: Elemental) misfires as a firearm does, not as a soul.
  const technological = type === 'elemental' && !soulMagic;
  const weapon: Weapon = {
    id: w.id,
    name: w.name,
    type,
    damage,
    reach: close ? (w.reach ?? 1) : 0,
    strongAgainst: w.strongAgainst ?? [],
    weakAgainst: w.weakAgainst ?? [],
    armourPiercing: w.armourPiercing ?? false,
    improvised,
    broken: w.broken ?? false,
    criticalTable:
      w.criticalTable ??
      (technological ? TECHNOLOGICAL_ELEMENTAL_CRITICAL_TABLE : DEFAULT_CRITICAL_TABLE[type]),
    soulMagic,
    attackRoll,
    stowage: drawnAs(w, `${field}.stowage`, (w.properties ?? []).includes('spear')),
    // S51: startHands decides it once every weapon, item and shield is read.
    held: false,
    handling: w.handling ?? (type === 'unarmed' ? 'light' : 'regular'),
    twoHanded: w.twoHanded ?? false,
    hardness: w.hardness ?? 0,
    closeCombat: w.closeCombat ?? false,
    properties: w.properties ?? [],
  };
  if (weapon.properties.includes('closeCombat')) weapon.closeCombat = true;
  if (w.weightLb !== undefined) weapon.weightLb = w.weightLb;
  if (w.liftingAthletics !== undefined) weapon.liftingAthletics = w.liftingAthletics;
  if (w.areaRadius !== undefined) weapon.areaRadius = w.areaRadius;
  if (!close) {
    if (w.accurateRange === undefined) bad(`${field}.accurateRange`, `is required for a ${type} weapon`);
    weapon.accurateRange = w.accurateRange;
    weapon.maximumRange = atLeast(w.maximumRange, w.accurateRange, `${field}.maximumRange`);
  }
  if (w.hp !== undefined) weapon.hp = w.hp;
  if (w.ammunition) weapon.ammunition = { kind: w.ammunition.kind, count: w.ammunition.count };
  if (type === 'thrown')
    weapon.thrown = {
      accurateRange: weapon.accurateRange!,
      maximumRange: weapon.maximumRange!,
      heavy: cumbersome,
      damage,
    };
  else if (w.thrown) weapon.thrown = readThrow(w.thrown, `${field}.thrown`, damage);
  return weapon;
}

/**
 * Ruling S104 (as S100 for commands): a weapon field its type never reads is refused, not dropped. Reach is a melee or
 * unarmed weapon's (archsoul.txt: Reactive Attack: "within reach of one of your melee attacks"); accurate and maximum
 * ranges are a shot's or a throw's (Ranged Weapon, Thrown Weapon), a close weapon's throw taking them in `thrown`;
 * `heavy` is a thrown weapon's cumbersome throw (Thrown Weapon), another's in `thrown.heavy`; a thrown weapon's own
 * ranges are its throwing ones (its `thrown`, as validateSheet records it, may only repeat them); an area is made by
 * AreaAttack with a ranged, thrown or elemental weapon (S34). A reach of 0 is what any other weapon has. Ruling S105:
 * `twoHanded: true` on what fills no hand (S51), and `liftingAthletics` but on an improvised weapon heavier than 10 lb
 * (Lifting, Throwing, and Improvised Weapons), are refused too.
 */
function unreadFields(
  w: WeaponInput,
  { type, soulMagic, improvised }: { type: AttackType; soulMagic: boolean; improvised: boolean },
  field: string,
): void {
  const close = isMeleeOrUnarmed({ type });
  const because = (what: string) => `is never read for a ${type} weapon: ${what} (ruling S104)`;
  if (!close && w.reach !== undefined && w.reach !== 0)
    bad(
      `${field}.reach`,
      because('reach belongs to melee and unarmed weapons; a shot or a throw has a range'),
    );
  for (const k of ['accurateRange', 'maximumRange'] as const)
    if (close && w[k] !== undefined)
      bad(
        `${field}.${k}`,
        because('a melee or unarmed weapon strikes within reach; its throwing ranges go in thrown'),
      );
  if (type !== 'thrown' && w.heavy !== undefined)
    bad(
      `${field}.heavy`,
      because('heavy is a thrown weapon’s cumbersome throw; another weapon’s goes in thrown.heavy'),
    );
  if (type === 'thrown' && w.thrown !== undefined && !sameThrow(w))
    bad(`${field}.thrown`, because('a thrown weapon’s own ranges and damage are its throwing ones'));
  if (w.areaRadius !== undefined && type !== 'ranged' && type !== 'thrown' && type !== 'elemental')
    bad(
      `${field}.areaRadius`,
      because('an area attack takes a ranged, thrown or elemental weapon (ruling S34)'),
    );
  // Ruling S105: what fills no hand is no two-handed weapon; the Lifting Strength row is an improvised weapon's.
  if (w.twoHanded === true && handsOf({ type, soulMagic }) === 0)
    bad(
      `${field}.twoHanded`,
      `is never read for ${type === 'unarmed' ? 'an unarmed weapon, which is worn' : 'soul magic, which is cast'} and fills no hand (ruling S51): it is no two-handed weapon for Quick Attack ("a one-handed weapon") or Draw Awkward Item ("Draw a two-handed weapon") (ruling S105)`,
    );
  if (w.liftingAthletics !== undefined && !(improvised && (w.weightLb ?? 0) > IMPROVISED.tableFromPounds))
    bad(
      `${field}.liftingAthletics`,
      `is never read ${improvised ? `for ${w.weightLb === undefined ? 'a weapon with no weightLb' : `an object of ${w.weightLb} lb`}` : 'for a weapon that is not improvised'}: archsoul.txt: Lifting, Throwing, and Improvised Weapons: "This table should only be used for improvised weapons heavier than ${IMPROVISED.tableFromPounds} pounds" (ruling S105)`,
    );
}

/** A thrown weapon's `thrown` as validateSheet records it (CombatantJoined): its own ranges, heaviness and damage. */
function sameThrow(w: WeaponInput): boolean {
  const t = w.thrown!;
  const heavy = (w.heavy ?? false) || w.attackRoll === 1;
  const damage = w.damage ?? (w.weightLb !== undefined ? improvisedDamage(w.weightLb) : 0);
  return (
    t.accurateRange === w.accurateRange &&
    (t.maximumRange ?? t.accurateRange) === (w.maximumRange ?? w.accurateRange) &&
    (t.heavy ?? false) === heavy &&
    (t.damage ?? damage) === damage
  );
}

/**
 * S52: how a weapon or item is drawn. archsoul.txt: Draw Simple Item: "Draw a one-handed item held in a
 * scabbard, pouch, or bandolier" ("*This includes spears wielded as two-handed weapons"); Draw Awkward Item: "Draw a
 * two-handed weapon, equip a shield, pull an item from a backpack, or retrieve an item from a hard to reach spot".
 * A two-handed thing that is not a spear is awkward; `stowage: awkward` says a one-handed one is in a backpack or
 * hard to reach; a shield is always awkward (decide/items.ts).
 */
function drawnAs(
  w: { stowage?: 'simple' | 'awkward'; twoHanded?: boolean },
  field: string,
  spear: boolean,
): 'simple' | 'awkward' {
  const twoHanded = (w.twoHanded ?? false) && !spear;
  if (twoHanded && w.stowage === 'simple')
    bad(
      field,
      'cannot be simple for a two-handed weapon or item: archsoul.txt: Draw Awkward Item: "Draw a two-handed weapon" (only "spears wielded as two-handed weapons" are drawn simply: property spear) (ruling S52)',
    );
  return w.stowage ?? (twoHanded ? 'awkward' : 'simple');
}

function readItem(w: ItemInput, field: string): Item {
  const twoHanded = w.twoHanded ?? false;
  const item: Item = {
    id: w.id,
    name: w.name,
    stowage: drawnAs(w, `${field}.stowage`, false),
    held: false,
    twoHanded,
  };
  if (w.thrown) item.thrown = readThrow(w.thrown, `${field}.thrown`, 0);
  return item;
}

/** The built-in punch every combatant has (archsoul.txt: Unarmed: "a simple punch"). */
export const FIST: Weapon = {
  id: 'fist',
  name: 'Fist',
  type: 'unarmed',
  damage: 0,
  reach: 1,
  strongAgainst: [],
  weakAgainst: [],
  armourPiercing: false,
  improvised: false,
  broken: false,
  criticalTable: 'unarmed',
  soulMagic: false,
  attackRoll: 0,
  stowage: 'simple',
  held: true,
  handling: 'light',
  twoHanded: false,
  hardness: 0,
  closeCombat: false,
  properties: [],
};
