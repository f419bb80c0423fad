import type { z } from 'zod';
import { parseOrRefuse } from '../core/contract';
import { bad } from '../core/fields';
import { NARATEER_SHEET, NarateerSheetInput } from './contract';
import { ALLOWED_DAMAGE_VITALS, DEFAULT_DAMAGE_VITALS, ExchangeKind, Vital } from './data';
import { NARATEER_FOLDED_SHEET } from './events';

/** A sheet as folded (events.ts: NARATEER_FOLDED_SHEET): what the fight state keeps. */
export type NarateerSheet = z.infer<typeof NARATEER_FOLDED_SHEET>;
export type Weapon = NarateerSheet['weapons'][number];
/** C4 / N23: how an NPC answers exchanges when no response is given. */
export type ResponsePolicy = NonNullable<NarateerSheet['responsePolicy']>;

/** Parses the sheet against its declaration (contract.ts), then applies the rules a schema cannot say. */
export function validateSheet(raw: unknown, field: string): NarateerSheet {
  const s = parseOrRefuse(NARATEER_SHEET, raw, field, 'sheet');
  const weapons = s.weapons.map((w, i) => foldWeapon(w, `${field}.weapons[${i}]`));
  weapons.forEach(
    (w, i) =>
      weapons.findIndex((o) => o.id === w.id) !== i &&
      bad(`${field}.weapons[${i}].id`, `repeats weapon id ${w.id}`),
  );
  const sheet: NarateerSheet = {
    vitals: { strength: s.vitals.strength, agility: s.vitals.agility, resilience: s.vitals.resilience },
    skills: { melee: s.skills.melee, ranged: s.skills.ranged, acrobatics: s.skills.acrobatics },
    maxVitality: s.maxVitality,
    maxAD: s.maxAD,
    maxMD: s.maxMD,
    weapons,
    soak: s.armour?.soak ?? 0,
    woundPreference: s.woundPreference,
  };
  if (sheet.maxAD + sheet.maxMD === 0) bad(`${field}.maxAD`, 'and maxMD cannot both be 0');
  if (s.responsePolicy !== undefined)
    sheet.responsePolicy = foldPolicy(s.responsePolicy, `${field}.responsePolicy`, weapons);
  return sheet;
}

function foldWeapon(w: NarateerSheetInput['weapons'][number], field: string): Weapon {
  const weapon: Weapon = {
    id: w.id,
    name: w.name,
    kind: w.kind,
    weight: w.weight,
    baseAttackCost: w.baseAttackCost,
    weaponDamage: w.weaponDamage,
    damageVitals: damageVitals(w.damageVitals, `${field}.damageVitals`, w.kind, w.weight),
    damageVitalCap: w.damageVitalCap,
    reach: w.kind === 'melee' ? w.reach : 0,
    needsLoading: w.needsLoading,
    loaded: w.loaded,
    harm: w.harm,
  };
  // Ruling N64: Loading and ammunition are a ranged weapon's (narateer.txt: Ranged Exchanges); on a melee weapon
  // the engine would never read them, while the view would show the weapon unready.
  if (w.kind === 'melee' && w.needsLoading)
    bad(
      `${field}.needsLoading`,
      'is for a ranged weapon (ruling N64): a melee weapon needs no Loading',
      'NARATEER_RANGED_WEAPON_ONLY',
    );
  if (w.kind === 'melee' && w.ammunition !== undefined && w.ammunition !== null)
    bad(
      `${field}.ammunition`,
      'is for a ranged weapon (ruling N64): a melee weapon fires nothing; leave it out',
      'NARATEER_RANGED_WEAPON_ONLY',
    );
  if (w.ammunition !== undefined && w.ammunition !== null) weapon.ammunition = w.ammunition;
  // Ruling N53: ammunition counts the shot a loaded weapon holds (N27), so loaded with none left says two things.
  if (w.needsLoading && w.loaded && weapon.ammunition === 0)
    bad(
      `${field}.ammunition`,
      'counts the shot a loaded weapon holds (ruling N27, N53): count it (1 or more), or give loaded: false (loaded is the default)',
      'NARATEER_LOADED_WITHOUT_AMMUNITION',
    );
  if (w.kind === 'ranged') {
    if (w.maximumRange < w.effectiveRange)
      bad(`${field}.maximumRange`, `must be at least ${w.effectiveRange}`);
    weapon.effectiveRange = w.effectiveRange;
    weapon.maximumRange = w.maximumRange;
  }
  return weapon;
}

/**
 * narateer.txt: Core Combat Attributes — light weapons Strength or Agility, heavy weapons Strength; loaded
 * projectiles Agility (N21), so a ranged weapon of either weight may also list Agility (N36).
 */
function damageVitals(
  list: Vital[] | undefined,
  field: string,
  kind: ExchangeKind,
  weight: 'light' | 'heavy',
): Vital[] {
  if (list === undefined)
    return [...(kind === 'ranged' ? DEFAULT_DAMAGE_VITALS.ranged : DEFAULT_DAMAGE_VITALS[weight])];
  const allowed: readonly string[] =
    kind === 'ranged' ? ALLOWED_DAMAGE_VITALS.ranged[weight] : ALLOWED_DAMAGE_VITALS[weight];
  list.forEach(
    (v, i) =>
      allowed.includes(v) ||
      bad(
        `${field}[${i}]`,
        `narateer.txt: Core Combat Attributes: a ${weight} ${kind} weapon may use ${allowed.join(' or ')} for damage (ruling N21, N36)`,
        'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      ),
  );
  return list;
}

function foldPolicy(
  p: NonNullable<NarateerSheetInput['responsePolicy']>,
  field: string,
  weapons: Weapon[],
): ResponsePolicy {
  const policy: ResponsePolicy = { response: p.response, boost: p.boost, fallback: p.fallback };
  if (p.weaponId !== undefined) {
    policy.weaponId = p.weaponId;
    if (!weapons.some((w) => w.id === policy.weaponId))
      bad(`${field}.weaponId`, `names no weapon on this sheet`);
  }
  return policy;
}
