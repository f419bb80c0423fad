import { arr, bad, bool, ID_PATTERN, int, obj, oneOf, str } from '../core/fields';
import { WEAPON_PROPERTIES, AMMUNITION_KINDS, AmmunitionKind, Anatomy, ANATOMIES, ATTACK_TYPES, AttackType, Attribute, ATTRIBUTES, CRITICAL_TABLES, CriticalTable, DEFAULT_CRITICAL_TABLE, DEFAULT_SPEED, Handling, HANDLING, improvisedDamage, Size, SIZES } from './data';

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

export function validateSheet(raw: unknown, field: string): ArchsoulSheet {
  const s = obj(raw, field);
  const attrsIn = s.attributes === undefined ? {} : obj(s.attributes, `${field}.attributes`);
  const attributes = Object.fromEntries(ATTRIBUTES.map((a) => [a, int(attrsIn[a] ?? 0, `${field}.attributes.${a}`, { min: 0, max: 20 })])) as ArchsoulSheet['attributes'];
  const skillsIn = s.skills === undefined ? {} : obj(s.skills, `${field}.skills`);
  const skills: Record<string, number> = {};
  for (const [k, v] of Object.entries(skillsIn)) {
    if (!/^[A-Za-z][A-Za-z0-9]{0,39}$/.test(k)) bad(`${field}.skills.${k}`, 'is not a skill name');
    skills[k] = int(v, `${field}.skills.${k}`, { min: 0, max: 20 });
  }
  const maxHp = int(s.maxHp, `${field}.maxHp`, { min: 1, max: 1000 });
  const weapons = arr(s.weapons, `${field}.weapons`, { max: 30, optional: true }).map((w, i) => readWeapon(w, `${field}.weapons[${i}]`));
  const items = arr(s.items, `${field}.items`, { max: 50, optional: true }).map((w, i) => readItem(w, `${field}.items[${i}]`));
  const sheet: ArchsoulSheet = {
    attributes,
    skills,
    maxHp,
    hp: int(s.hp ?? maxHp, `${field}.hp`, { min: 0, max: maxHp }),
    defense: int(s.defense ?? 0, `${field}.defense`, { min: 0, max: 30 }),
    speed: int(s.speed ?? DEFAULT_SPEED, `${field}.speed`, { min: 0, max: 30 }),
    metalGauntlets: bool(s.metalGauntlets, `${field}.metalGauntlets`, false),
    weapons,
    items,
    anatomy: oneOf<Anatomy>(s.anatomy, `${field}.anatomy`, ANATOMIES, 'humanlike'),
    animalIntelligence: bool(s.animalIntelligence, `${field}.animalIntelligence`, false),
    size: oneOf<Size>(s.size, `${field}.size`, SIZES, 'medium'),
    shatterResponse: oneOf<'roll' | 'drop'>(s.shatterResponse, `${field}.shatterResponse`, ['roll', 'drop'], 'roll'),
    trampleResponse: oneOf<'stop' | 'avoid'>(s.trampleResponse, `${field}.trampleResponse`, ['stop', 'avoid'], 'stop'),
  };
  if (s.mount !== undefined) {
    const m = obj(s.mount, `${field}.mount`);
    sheet.mount = { name: str(m.name ?? 'Mount', `${field}.mount.name`, { max: 100 }), speed: int(m.speed, `${field}.mount.speed`, { min: 1, max: 30 }), size: oneOf<Size>(m.size, `${field}.mount.size`, SIZES, 'large'), trampleDamage: int(m.trampleDamage ?? 0, `${field}.mount.trampleDamage`, { min: 0, max: 30 }) };
  }
  if (s.creature !== undefined) sheet.creature = str(s.creature, `${field}.creature`, { max: 40 });
  if (s.armour !== undefined) {
    const a = obj(s.armour, `${field}.armour`);
    sheet.armour = { type: str(a.type, `${field}.armour.type`, { max: 40 }), metal: bool(a.metal, `${field}.armour.metal`, false) };
  }
  if (s.shield !== undefined) {
    const sh = obj(s.shield, `${field}.shield`);
    sheet.shield = { id: str(sh.id ?? 'shield', `${field}.shield.id`, { pattern: ID_PATTERN }), name: str(sh.name ?? 'Shield', `${field}.shield.name`, { max: 100 }), bonus: int(sh.bonus, `${field}.shield.bonus`, { min: 0, max: 10 }), held: bool(sh.held, `${field}.shield.held`, true), hardness: int(sh.hardness ?? 0, `${field}.shield.hardness`, { min: 0, max: 100 }) };
    if (sh.hp !== undefined) sheet.shield.hp = int(sh.hp, `${field}.shield.hp`, { min: 0, max: 1000 });
  }
  const ids = [...weapons.map((w) => w.id), ...items.map((i) => i.id), ...(sheet.shield ? [sheet.shield.id] : [])];
  ids.forEach((id, i) => ids.indexOf(id) !== i && bad(`${field}`, `repeats item id ${id}`));
  return sheet;
}

function readThrow(raw: unknown, field: string, damage: number): ThrowStats {
  const t = obj(raw, field);
  const accurateRange = int(t.accurateRange, `${field}.accurateRange`, { min: 1, max: 200 });
  return {
    accurateRange,
    maximumRange: int(t.maximumRange ?? accurateRange, `${field}.maximumRange`, { min: accurateRange, max: 500 }),
    heavy: bool(t.heavy, `${field}.heavy`, false),
    damage: int(t.damage ?? damage, `${field}.damage`, { min: 0, max: 30 }),
  };
}

const ARMOUR_LIST = (v: unknown, field: string) => arr(v, field, { max: 10, optional: true }).map((x, i) => str(x, `${field}[${i}]`, { max: 40 }));

function readWeapon(raw: unknown, field: string): Weapon {
  const w = obj(raw, field);
  const type = oneOf<AttackType>(w.type, `${field}.type`, ATTACK_TYPES, 'melee');
  const weightLb = w.weightLb === undefined ? undefined : int(w.weightLb, `${field}.weightLb`, { min: 1, max: 100000 });
  // archsoul.txt: Lifting, Throwing, and Improvised Weapons: base damage by weight when nothing similar exists.
  const damage = int(w.damage ?? (weightLb !== undefined ? improvisedDamage(weightLb) : 0), `${field}.damage`, { min: 0, max: 3000 });
  const close = type === 'melee' || type === 'unarmed';
  const weapon: Weapon = {
    id: str(w.id, `${field}.id`, { pattern: ID_PATTERN }),
    name: str(w.name, `${field}.name`, { max: 100 }),
    type,
    damage,
    reach: close ? int(w.reach ?? 1, `${field}.reach`, { min: 1, max: 10 }) : 0,
    strongAgainst: ARMOUR_LIST(w.strongAgainst, `${field}.strongAgainst`),
    weakAgainst: ARMOUR_LIST(w.weakAgainst, `${field}.weakAgainst`),
    armourPiercing: bool(w.armourPiercing, `${field}.armourPiercing`, false),
    improvised: bool(w.improvised, `${field}.improvised`, false),
    broken: bool(w.broken, `${field}.broken`, false),
    criticalTable: oneOf<CriticalTable>(w.criticalTable, `${field}.criticalTable`, CRITICAL_TABLES, DEFAULT_CRITICAL_TABLE[type]),
    soulMagic: bool(w.soulMagic, `${field}.soulMagic`, type === 'soul' || (type === 'elemental' && (w.attackRoll ?? 0) === 0)),
    attackRoll: int(w.attackRoll ?? 0, `${field}.attackRoll`, { min: 0, max: type === 'thrown' || type === 'elemental' ? 1 : 0 }),
    stowage: oneOf<'simple' | 'awkward'>(w.stowage, `${field}.stowage`, ['simple', 'awkward'], 'simple'),
    held: bool(w.held, `${field}.held`, true),
    handling: oneOf<Handling>(w.handling, `${field}.handling`, HANDLING, type === 'unarmed' ? 'light' : 'regular'),
    twoHanded: bool(w.twoHanded, `${field}.twoHanded`, false),
    hardness: int(w.hardness ?? 0, `${field}.hardness`, { min: 0, max: 100 }),
    closeCombat: bool(w.closeCombat, `${field}.closeCombat`, false),
    properties: arr(w.properties, `${field}.properties`, { max: 10, optional: true }).map((x, i) => oneOf(x, `${field}.properties[${i}]`, WEAPON_PROPERTIES)),
  };
  if (weapon.properties.includes('closeCombat')) weapon.closeCombat = true;
  if (weightLb !== undefined) {
    weapon.weightLb = weightLb;
    weapon.improvised = bool(w.improvised, `${field}.improvised`, true);
  }
  if (w.liftingAthletics !== undefined) weapon.liftingAthletics = int(w.liftingAthletics, `${field}.liftingAthletics`, { min: 0, max: 30 });
  if (w.areaRadius !== undefined) weapon.areaRadius = int(w.areaRadius, `${field}.areaRadius`, { min: 2, max: 100 });
  if (!close) {
    weapon.accurateRange = int(w.accurateRange, `${field}.accurateRange`, { min: 1, max: 500 });
    weapon.maximumRange = int(w.maximumRange ?? weapon.accurateRange, `${field}.maximumRange`, { min: weapon.accurateRange, max: 1000 });
  }
  if (w.hp !== undefined) weapon.hp = int(w.hp, `${field}.hp`, { min: 0, max: 1000 });
  if (w.ammunition !== undefined) {
    const a = obj(w.ammunition, `${field}.ammunition`);
    weapon.ammunition = { kind: oneOf(a.kind, `${field}.ammunition.kind`, AMMUNITION_KINDS), count: int(a.count, `${field}.ammunition.count`, { min: 0, max: 1000 }) };
  }
  if (type === 'thrown') weapon.thrown = { accurateRange: weapon.accurateRange!, maximumRange: weapon.maximumRange!, heavy: bool(w.heavy, `${field}.heavy`, false), damage };
  else if (w.thrown !== undefined) weapon.thrown = readThrow(w.thrown, `${field}.thrown`, damage);
  return weapon;
}

function readItem(raw: unknown, field: string): Item {
  const w = obj(raw, field);
  const item: Item = {
    id: str(w.id, `${field}.id`, { pattern: ID_PATTERN }),
    name: str(w.name, `${field}.name`, { max: 100 }),
    stowage: oneOf<'simple' | 'awkward'>(w.stowage, `${field}.stowage`, ['simple', 'awkward'], 'simple'),
    held: bool(w.held, `${field}.held`, false),
  };
  if (w.thrown !== undefined) item.thrown = readThrow(w.thrown, `${field}.thrown`, 0);
  return item;
}

/** The built-in punch every combatant has (archsoul.txt: Unarmed: "a simple punch"). */
export const FIST: Weapon = {
  id: 'fist', name: 'Fist', type: 'unarmed', damage: 0, reach: 1, strongAgainst: [], weakAgainst: [], armourPiercing: false,
  improvised: false, broken: false, criticalTable: 'unarmed', soulMagic: false, attackRoll: 0, stowage: 'simple', held: true,
  handling: 'light', twoHanded: false, hardness: 0, closeCombat: false, properties: [],
};
