import { parseOrRefuse } from '../core/contract';
import { bad } from '../core/fields';
import { ARCHSOUL_SHEET, ArchsoulSheetInput } from './contract';
import { AmmunitionKind, Anatomy, AttackType, Attribute, ATTRIBUTES, CriticalTable, DEFAULT_CRITICAL_TABLE, DEFAULT_SPEED, Handling, improvisedDamage, Size } from './data';

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
  stowage: 'simple' | 'awkward';
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
  /** archsoul.txt: Area of Effect Attacks: radius in metres (RULINGS.md S7). */
  areaRadius?: number;
  /** archsoul.txt: Charge (Flail, Lance) and its Polearm reactive attacks. */
  properties: string[];
  /** archsoul.txt: Lifting, Throwing, and Improvised Weapons: weight and the Athletics of its Lifting Strength row (S37). */
  weightLb?: number;
  liftingAthletics?: number;
}

export interface Item {
  id: string;
  name: string;
  stowage: 'simple' | 'awkward';
  held: boolean;
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
  /** RULINGS.md S10: Defense is a sheet value. */
  defense: number;
  speed: number;
  /** archsoul.txt: Armor Advantages: the armour type (or a creature's ATE). */
  armour?: { type: string; metal: boolean };
  /** archsoul.txt: Unarmed: metal armour on the limb attacked with (a gauntlet). */
  metalGauntlets: boolean;
  shield?: Shield;
  weapons: Weapon[];
  items: Item[];
  /** archsoul.txt: Feint / Sneak Attack: human-like anatomy, other, or unfamiliar (RULINGS.md S28). */
  anatomy: Anatomy;
  /** archsoul.txt: Feint: "cannot be used against creatures with animal-like intelligence". */
  animalIntelligence: boolean;
  /** archsoul.txt: Sneak Attack: golems and hostile plants need skill ranks. */
  creature?: string;
  size: Size;
  /** RULINGS.md S31 (C4 standing policy): answer a Shatter by rolling with the item or dropping it. */
  shatterResponse: 'roll' | 'drop';
  /** RULINGS.md S35 (C4 standing policy): a trampled combatant tries to stop the rider or lets it pass. */
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
  const attributes = Object.fromEntries(ATTRIBUTES.map((a) => [a, s.attributes?.[a] ?? 0])) as ArchsoulSheet['attributes'];
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
  if (s.mount) sheet.mount = { name: s.mount.name ?? 'Mount', speed: s.mount.speed, size: s.mount.size ?? 'large', trampleDamage: s.mount.trampleDamage ?? 0 };
  if (s.creature !== undefined) sheet.creature = s.creature;
  if (s.armour) sheet.armour = { type: s.armour.type, metal: s.armour.metal ?? false };
  if (s.shield) {
    const sh = s.shield;
    sheet.shield = { id: sh.id ?? 'shield', name: sh.name ?? 'Shield', bonus: sh.bonus, held: sh.held ?? true, hardness: sh.hardness ?? 0 };
    if (sh.hp !== undefined) sheet.shield.hp = sh.hp;
  }
  const ids = [...weapons.map((w) => w.id), ...items.map((i) => i.id), ...(sheet.shield ? [sheet.shield.id] : [])];
  ids.forEach((id, i) => ids.indexOf(id) !== i && bad(`${field}`, `repeats item id ${id}`));
  return sheet;
}

/** A range bound by another field: at least `min`. */
function atLeast(v: number | undefined, min: number, field: string): number {
  if (v !== undefined && v < min) bad(field, `must be at least ${min}`);
  return v ?? min;
}

function readThrow(t: ThrowInput, field: string, damage: number): ThrowStats {
  return { accurateRange: t.accurateRange, maximumRange: atLeast(t.maximumRange, t.accurateRange, `${field}.maximumRange`), heavy: t.heavy ?? false, damage: t.damage ?? damage };
}

function readWeapon(w: WeaponInput, field: string): Weapon {
  const type = w.type ?? 'melee';
  // archsoul.txt: Lifting, Throwing, and Improvised Weapons: base damage by weight when nothing similar exists.
  const damage = w.damage ?? (w.weightLb !== undefined ? improvisedDamage(w.weightLb) : 0);
  const close = type === 'melee' || type === 'unarmed';
  const attackRoll = w.attackRoll ?? 0;
  if (attackRoll > 0 && type !== 'thrown' && type !== 'elemental') bad(`${field}.attackRoll`, 'must be at most 0');
  if (close && w.reach === 0) bad(`${field}.reach`, 'must be at least 1');
  const weapon: Weapon = {
    id: w.id,
    name: w.name,
    type,
    damage,
    reach: close ? w.reach ?? 1 : 0,
    strongAgainst: w.strongAgainst ?? [],
    weakAgainst: w.weakAgainst ?? [],
    armourPiercing: w.armourPiercing ?? false,
    improvised: w.improvised ?? w.weightLb !== undefined,
    broken: w.broken ?? false,
    criticalTable: w.criticalTable ?? DEFAULT_CRITICAL_TABLE[type],
    soulMagic: w.soulMagic ?? (type === 'soul' || (type === 'elemental' && attackRoll === 0)),
    attackRoll,
    stowage: w.stowage ?? 'simple',
    held: w.held ?? true,
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
  if (type === 'thrown') weapon.thrown = { accurateRange: weapon.accurateRange!, maximumRange: weapon.maximumRange!, heavy: w.heavy ?? false, damage };
  else if (w.thrown) weapon.thrown = readThrow(w.thrown, `${field}.thrown`, damage);
  return weapon;
}

function readItem(w: ItemInput, field: string): Item {
  const item: Item = { id: w.id, name: w.name, stowage: w.stowage ?? 'simple', held: w.held ?? false };
  if (w.thrown) item.thrown = readThrow(w.thrown, `${field}.thrown`, 0);
  return item;
}

/** The built-in punch every combatant has (archsoul.txt: Unarmed: "a simple punch"). */
export const FIST: Weapon = {
  id: 'fist', name: 'Fist', type: 'unarmed', damage: 0, reach: 1, strongAgainst: [], weakAgainst: [], armourPiercing: false,
  improvised: false, broken: false, criticalTable: 'unarmed', soulMagic: false, attackRoll: 0, stowage: 'simple', held: true,
  handling: 'light', twoHanded: false, hardness: 0, closeCombat: false, properties: [],
};
