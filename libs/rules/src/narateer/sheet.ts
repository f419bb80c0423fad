import { arr, bad, bool, ID_PATTERN, int, obj, oneOf, str } from '../core/fields';
import {
  ALLOWED_DAMAGE_VITALS,
  DEFAULT_DAMAGE_VITALS,
  DEFAULT_MELEE_REACH,
  ExchangeKind,
  Harm,
  HARM_CATALOGUE,
  RESPONSES,
  ResponseKind,
  SKILLS,
  Vital,
  VITALS,
  WOUND_PREFERENCES,
  WoundPreference,
} from './data';

export interface Weapon {
  id: string;
  name: string;
  kind: ExchangeKind;
  weight: 'light' | 'heavy';
  baseAttackCost: number;
  weaponDamage: number;
  damageVitals: Vital[];
  damageVitalCap: number;
  /** Melee reach in Spaces. */
  reach: number;
  effectiveRange?: number;
  maximumRange?: number;
  needsLoading: boolean;
  loaded: boolean;
  /** Shots left; absent = unlimited. */
  ammunition?: number;
  harm: Harm;
}

/** RULINGS.md C4 / N23: how an NPC answers exchanges when no response is given. */
export interface ResponsePolicy {
  response: ResponseKind;
  boost: number;
  weaponId?: string;
  fallback: 'fullGuard' | 'none';
}

export interface NarateerSheet {
  vitals: Record<Vital, number>;
  skills: Record<(typeof SKILLS)[number], number>;
  maxVitality: number;
  maxAD: number;
  maxMD: number;
  weapons: Weapon[];
  soak: number;
  woundPreference: WoundPreference;
  responsePolicy?: ResponsePolicy;
}

export function validateSheet(raw: unknown, field: string): NarateerSheet {
  const s = obj(raw, field);
  const vitalsIn = obj(s.vitals, `${field}.vitals`);
  const skillsIn = obj(s.skills, `${field}.skills`);
  const vitals = Object.fromEntries(VITALS.map((v) => [v, int(vitalsIn[v], `${field}.vitals.${v}`, { min: 0, max: 20 })])) as NarateerSheet['vitals'];
  const skills = Object.fromEntries(SKILLS.map((k) => [k, int(skillsIn[k] ?? 0, `${field}.skills.${k}`, { min: 0, max: 10 })])) as NarateerSheet['skills'];
  const weapons = arr(s.weapons, `${field}.weapons`, { max: 20, optional: true }).map((w, i) => readWeapon(w, `${field}.weapons[${i}]`));
  weapons.forEach((w, i) => weapons.findIndex((o) => o.id === w.id) !== i && bad(`${field}.weapons[${i}].id`, `repeats weapon id ${w.id}`));
  const sheet: NarateerSheet = {
    vitals,
    skills,
    maxVitality: int(s.maxVitality, `${field}.maxVitality`, { min: 1, max: 100 }),
    maxAD: int(s.maxAD, `${field}.maxAD`, { min: 0, max: 30 }),
    maxMD: int(s.maxMD ?? 0, `${field}.maxMD`, { min: 0, max: 30 }),
    weapons,
    soak: s.armour === undefined ? 0 : int(obj(s.armour, `${field}.armour`).soak ?? 0, `${field}.armour.soak`, { min: 0, max: 20 }),
    woundPreference: oneOf(s.woundPreference, `${field}.woundPreference`, WOUND_PREFERENCES, 'AD_FIRST'),
  };
  if (sheet.maxAD + sheet.maxMD === 0) bad(`${field}.maxAD`, 'and maxMD cannot both be 0');
  if (s.responsePolicy !== undefined) sheet.responsePolicy = readPolicy(s.responsePolicy, `${field}.responsePolicy`, weapons);
  return sheet;
}

function readWeapon(raw: unknown, field: string): Weapon {
  const w = obj(raw, field);
  const kind = oneOf<ExchangeKind>(w.kind, `${field}.kind`, ['melee', 'ranged'], 'melee');
  const weight = oneOf<'light' | 'heavy'>(w.weight, `${field}.weight`, ['light', 'heavy'], 'light');
  const weapon: Weapon = {
    id: str(w.id, `${field}.id`, { pattern: ID_PATTERN }),
    name: str(w.name, `${field}.name`, { max: 100 }),
    kind,
    weight,
    baseAttackCost: int(w.baseAttackCost, `${field}.baseAttackCost`, { min: 1, max: 10 }),
    weaponDamage: int(w.weaponDamage, `${field}.weaponDamage`, { min: 0, max: 20 }),
    damageVitals: readDamageVitals(w.damageVitals, `${field}.damageVitals`, kind, weight),
    damageVitalCap: int(w.damageVitalCap, `${field}.damageVitalCap`, { min: 0, max: 20 }),
    reach: kind === 'melee' ? int(w.reach ?? DEFAULT_MELEE_REACH, `${field}.reach`, { min: 1, max: 10 }) : 0,
    needsLoading: bool(w.needsLoading, `${field}.needsLoading`, false),
    loaded: bool(w.loaded, `${field}.loaded`, true),
    harm: readHarm(w.harm, `${field}.harm`),
  };
  if (w.ammunition !== undefined && w.ammunition !== null) weapon.ammunition = int(w.ammunition, `${field}.ammunition`, { min: 0, max: 1000 });
  if (kind === 'ranged') {
    weapon.effectiveRange = int(w.effectiveRange, `${field}.effectiveRange`, { min: 1, max: 1000 });
    weapon.maximumRange = int(w.maximumRange, `${field}.maximumRange`, { min: weapon.effectiveRange, max: 1000 });
  }
  return weapon;
}

/**
 * narateer.txt: Core Combat Attributes — light weapons Strength or Agility, heavy weapons Strength; loaded
 * projectiles Agility (RULINGS.md N21), so a ranged weapon of either weight may also list Agility (N36).
 */
function readDamageVitals(raw: unknown, field: string, kind: ExchangeKind, weight: 'light' | 'heavy'): Vital[] {
  if (raw === undefined) return [...(kind === 'ranged' ? DEFAULT_DAMAGE_VITALS.ranged : DEFAULT_DAMAGE_VITALS[weight])];
  const allowed: readonly string[] = kind === 'ranged' ? ALLOWED_DAMAGE_VITALS.ranged[weight] : ALLOWED_DAMAGE_VITALS[weight];
  const list = arr(raw, field, { max: 3 }).map((v, i) => oneOf<Vital>(v, `${field}[${i}]`, VITALS));
  if (list.length === 0) bad(field, 'must name at least one Vital');
  list.forEach((v, i) => allowed.includes(v) || bad(`${field}[${i}]`, `narateer.txt: Core Combat Attributes: a ${weight} ${kind} weapon may use ${allowed.join(' or ')} for damage (RULINGS.md N21, N36)`, 'NARATEER_DAMAGE_VITAL_NOT_ALLOWED'));
  return list;
}

/** RULINGS.md N12: "Domain (Type)" or { domain, type } from the catalogue. */
export function readHarm(raw: unknown, field: string): Harm {
  let domain: unknown;
  let type: unknown;
  if (typeof raw === 'string') {
    const m = /^\s*(\w+)\s*\(\s*(\w+)\s*\)\s*$/.exec(raw);
    if (!m) bad(field, 'must read "Domain (Type)", e.g. "Physical (Slashing)"');
    [domain, type] = [m[1], m[2]];
  } else {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad(field, 'must read "Domain (Type)", e.g. "Physical (Slashing)", or be { domain, type }');
    const h = raw as Record<string, unknown>;
    [domain, type] = [h.domain, h.type];
  }
  const d = oneOf(domain, field, Object.keys(HARM_CATALOGUE));
  return { domain: d, type: oneOf(type, field, HARM_CATALOGUE[d]) };
}

function readPolicy(raw: unknown, field: string, weapons: Weapon[]): ResponsePolicy {
  const p = obj(raw, field);
  const policy: ResponsePolicy = {
    response: oneOf(p.response, `${field}.response`, RESPONSES),
    boost: int(p.boost ?? 0, `${field}.boost`, { min: 0, max: 10 }),
    fallback: oneOf<'fullGuard' | 'none'>(p.fallback, `${field}.fallback`, ['fullGuard', 'none'], 'fullGuard'),
  };
  if (p.weaponId !== undefined) {
    policy.weaponId = str(p.weaponId, `${field}.weaponId`);
    if (!weapons.some((w) => w.id === policy.weaponId)) bad(`${field}.weaponId`, `names no weapon on this sheet`);
  }
  return policy;
}
