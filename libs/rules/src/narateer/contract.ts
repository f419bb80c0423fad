import { z } from 'zod';
import { CommandSchemas, Id, Int, text } from '../core/contract';
import { lifecycleCommands } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';
import { HARM_CATALOGUE, RESPONSES, SKILLS, VITALS, WOUND_PREFERENCES } from './data';

/**
 * Narateer's contract: the sheet and every command, declared once. The schemas check what JSON can say
 * (fields, types, ranges, names from the rules' lists); the rule checks that need the fight (a combatant
 * exists, the AD are Ready, a weapon reaches…) stay in `decide`.
 */

/** Names every JavaScript object has (toString, constructor, __proto__…): never a key of a table or map. */
export function isObjectBuiltin(name: string): boolean {
  return name in Object.prototype;
}

/** A weapon id on a sheet: an id, and never a name every object has (weapons are kept by id in the fight state). */
const WeaponId = Id.refine((id) => !isObjectBuiltin(id), { error: 'must not be a name every JavaScript object has (toString, constructor, __proto__…)' });

export const VitalSchema = z.enum(VITALS);
export const ResponseSchema = z.enum(RESPONSES);

const HARM_TEXT = /^\s*(\w+)\s*\(\s*(\w+)\s*\)\s*$/;
const HARM_FORM = 'must read "Domain (Type)", e.g. "Physical (Slashing)", or be { domain, type }';
const HARM_DOMAINS = Object.keys(HARM_CATALOGUE) as [string, ...string[]];
const HARM_TYPES = [...new Set(Object.values(HARM_CATALOGUE).flat())] as [string, ...string[]];

/**
 * RULINGS.md N12: a Harm classification from the catalogue, as "Domain (Type)" or { domain, type }; parsed
 * to { domain, type }. Catalogue names are looked up as own keys only, so `toString (Slashing)` is refused.
 */
export const HarmSchema = z
  .union([
    z.strictObject({ domain: z.enum(HARM_DOMAINS), type: z.enum(HARM_TYPES) }, { error: (i) => (i.code === 'invalid_type' ? HARM_FORM : undefined) }),
    z.string({ error: HARM_FORM }).max(100).regex(HARM_TEXT, { error: 'must read "Domain (Type)", e.g. "Physical (Slashing)"' }),
  ])
  .transform((raw, ctx) => {
    const [domain, type] = typeof raw === 'string' ? HARM_TEXT.exec(raw)!.slice(1, 3) : [raw.domain, raw.type];
    if (!Object.hasOwn(HARM_CATALOGUE, domain)) {
      ctx.addIssue({ code: 'custom', input: raw, message: `must be one of ${HARM_DOMAINS.join(', ')}` });
      return z.NEVER;
    }
    if (!HARM_CATALOGUE[domain].includes(type)) {
      ctx.addIssue({ code: 'custom', input: raw, message: `must be one of ${HARM_CATALOGUE[domain].join(', ')}: the Types of ${domain}` });
      return z.NEVER;
    }
    return { domain, type };
  })
  .describe('RULINGS.md N12: "Domain (Type)", e.g. "Physical (Slashing)", or { domain, type } from the Harm catalogue.');

/** The fields every weapon has, whatever its kind. */
const WEAPON_FIELDS = {
  id: WeaponId.describe('Unique on the sheet.'),
  name: text(100),
  weight: z.enum(['light', 'heavy']).default('light').describe('Default light.'),
  baseAttackCost: Int.min(1).max(10),
  weaponDamage: Int.min(0).max(20),
  damageVitals: z
    .array(VitalSchema)
    .min(1, { error: 'must name at least one Vital' })
    .max(3)
    .optional()
    .describe('RULINGS.md N21, N36: the Vitals it deals damage with; default Strength or Agility (light), Strength (heavy), Agility (ranged).'),
  damageVitalCap: Int.min(0).max(20),
  needsLoading: z.boolean().default(false).describe('Default false.'),
  loaded: z.boolean().default(true).describe('Default true.'),
  ammunition: Int.min(0).max(1000).nullable().optional().describe('Shots left; absent or null: unlimited.'),
  harm: HarmSchema,
};

const MeleeWeapon = z.strictObject({
  kind: z.literal('melee').default('melee').describe('melee (the default) or ranged.'),
  ...WEAPON_FIELDS,
  reach: Int.min(1).max(10).default(1).describe('Melee reach in Spaces; default 1.'),
});

const RangedWeapon = z.strictObject({
  kind: z.literal('ranged'),
  ...WEAPON_FIELDS,
  effectiveRange: Int.min(1).max(1000).describe('In Spaces; beyond it, Disadvantage (RULINGS.md N31).'),
  maximumRange: Int.min(1).max(1000).describe('In Spaces, at least effectiveRange.'),
});

/** A weapon: melee (reach) or ranged (Effective and Maximum Range); a field of the other kind is refused. */
export const WeaponSchema = z.discriminatedUnion('kind', [MeleeWeapon, RangedWeapon], {
  error: (i) => (i.code === 'invalid_union' ? 'must be one of melee, ranged' : undefined),
});

const skillLevel = Int.min(0).max(10).default(0).describe('Skill Level; default 0.');

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts parses it, then applies the rules). */
export const NARATEER_SHEET = z.strictObject({
  vitals: z.strictObject(Object.fromEntries(VITALS.map((v) => [v, Int.min(0).max(20)])) as Record<(typeof VITALS)[number], typeof Int>),
  skills: z.strictObject(Object.fromEntries(SKILLS.map((k) => [k, skillLevel])) as Record<(typeof SKILLS)[number], typeof skillLevel>),
  maxVitality: Int.min(1).max(100),
  maxAD: Int.min(0).max(30),
  maxMD: Int.min(0).max(30).default(0).describe('Default 0; maxAD and maxMD cannot both be 0.'),
  weapons: z.array(WeaponSchema).max(20).default([]).describe('Default none.'),
  armour: z.strictObject({ soak: Int.min(0).max(20).default(0).describe('Protection Rating; default 0.') }).optional(),
  woundPreference: z.enum(WOUND_PREFERENCES).default('AD_FIRST').describe('RULINGS.md N9; default AD_FIRST.'),
  responsePolicy: z
    .strictObject({
      response: ResponseSchema,
      boost: Int.min(0).max(10).default(0).describe('Default 0; capped to what is legal (RULINGS.md N23).'),
      weaponId: Id.optional().describe('A weapon on this sheet to Clash with; default the first legal one.'),
      fallback: z.enum(['fullGuard', 'none']).default('fullGuard').describe('When the response is not legal; default fullGuard.'),
    })
    .optional()
    .describe('RULINGS.md N23: how the combatant answers exchanges when no response is given.'),
});

export type NarateerSheetInput = z.output<typeof NARATEER_SHEET>;

/** The fight options this system reads. */
export const NARATEER_OPTIONS = z.strictObject({});

/** Every narateer command beyond the lifecycle, declared once. */
export const NARATEER_COMMAND_SCHEMAS = {} satisfies CommandSchemas;

export const NARATEER_CONTRACT: SystemContract = {
  commands: { ...lifecycleCommands({ sheet: NARATEER_SHEET, options: NARATEER_OPTIONS }), ...NARATEER_COMMAND_SCHEMAS },
  sheet: NARATEER_SHEET,
  options: NARATEER_OPTIONS,
};
