import { z } from 'zod';
import { parseOrRefuse } from '../core/contract';
import { bad } from '../core/fields';
import { ARCANA_BEAST_SHEET } from './contract';
import { BypassMovement, DEFAULT_ATTACK_STAT, Range, Stat } from './data';

export interface AttackDef {
  id: string;
  name: string;
  range: Range;
  stat: Stat;
  /** Attack Ranks (A6). */
  ranks: number;
  /** Sheet Qualities whose ranks add to the pool. */
  qualities: string[];
  bonusDamage: number;
}

export interface SpecialAttackDef extends AttackDef {
  uses: number;
}

export interface ZeroPowerDef extends AttackDef {
  trigger: string;
  /** A Zero Power without an attack profile is a narrative effect the GM resolves. */
  attack: boolean;
}

export interface StageDef {
  stage: number;
  name: string;
  trigger: string;
  /**
   * A71: HP a Gift of this Stage restores when the beast evolves to it; present only when the sheet names it, so a
   * CombatantJoined recorded before replays the same.
   */
  giftHeal?: number;
}

export interface Item {
  id: string;
  name: string;
  quantity: number;
  heal: number;
  stamina: number;
  removesCondition: boolean;
  test?: { stat: Stat; difficulty: number };
}

interface Common {
  stats: Record<Stat, number>;
  qualities: Record<string, number>;
  maxHp: number;
  hp: number;
  maxStamina: number;
  stamina: number;
}

export interface BinderSheet extends Common {
  kind: 'binder';
  beastId: string;
  /** A6; present only when the sheet names them, so a Binder's CombatantJoined recorded before replays the same. */
  defensiveQualities?: string[];
  inventory: Item[];
}

export interface BeastSheet extends Common {
  kind: 'beast';
  stage: number;
  stages: StageDef[];
  defensiveQualities: string[];
  attacks: AttackDef[];
  specialAttacks: SpecialAttackDef[];
  zeroPower?: ZeroPowerDef;
  movement: BypassMovement[];
  initiativeDice: number;
}

export type ArcanaSheet = BinderSheet | BeastSheet;

const DEFAULT_ATTACK: AttackDef = {
  id: 'strike',
  name: 'Strike',
  range: 'melee',
  stat: 'brawn',
  ranks: 0,
  qualities: [],
  bonusDamage: 0,
};

type Input = z.infer<typeof ARCANA_BEAST_SHEET>;
type BeastInput = Extract<Input, { kind: 'beast' }>;
type AttackInput = NonNullable<BeastInput['attacks']>[number] | NonNullable<BeastInput['zeroPower']>;

/** The sheet as declared (ARCANA_BEAST_SHEET), then the rules the declaration cannot say, then every default filled in. */
export function validateSheet(raw: unknown, field: string): ArcanaSheet {
  const s = parseOrRefuse(ARCANA_BEAST_SHEET, raw, field, 'sheet');
  // A record drops a `__proto__` key as it parses; the name is refused like the other names every object has.
  const rawQualities = (raw as { qualities?: unknown }).qualities;
  if (typeof rawQualities === 'object' && rawQualities !== null && Object.hasOwn(rawQualities, '__proto__'))
    bad(`${field}.qualities.__proto__`, 'is not a usable Quality name: every JavaScript object has it');
  const qualities = s.qualities ?? {};
  // A11: HP and Stamina are required sheet values; the maximum defaults to the current value.
  if (s.maxHp === undefined && s.hp < 1) bad(`${field}.hp`, 'must be at least 1');
  const maxHp = s.maxHp ?? s.hp;
  if (s.hp > maxHp) bad(`${field}.hp`, `must be at most ${maxHp}`);
  const maxStamina = s.maxStamina ?? s.stamina;
  if (s.stamina > maxStamina) bad(`${field}.stamina`, `must be at most ${maxStamina}`);
  const common: Common = { stats: s.stats, qualities, maxHp, hp: s.hp, maxStamina, stamina: s.stamina };
  if (s.kind === 'binder') {
    const inventory = (s.inventory ?? []).map((x): Item => ({
      id: x.id,
      name: x.name,
      quantity: x.quantity ?? 1,
      heal: x.heal ?? 0,
      stamina: x.stamina ?? 0,
      removesCondition: x.removesCondition === true,
      ...(x.test ? { test: x.test } : {}),
    }));
    unique(inventory.map((x, i) => ({ id: x.id, field: `${field}.inventory[${i}].id` })));
    const defensive =
      s.defensiveQualities === undefined
        ? {}
        : { defensiveQualities: defensiveQualities(s.defensiveQualities, field, qualities) };
    return { kind: 'binder', ...common, beastId: s.beastId, ...defensive, inventory };
  }
  return { kind: 'beast', ...common, ...readBeast(s, field, qualities) };
}

function readBeast(
  s: BeastInput,
  field: string,
  qualities: Record<string, number>,
): Omit<BeastSheet, 'kind' | keyof Common> {
  const stages: StageDef[] = (s.stages ?? []).map((st) => ({
    stage: st.stage,
    name: st.name ?? `Stage ${st.stage}`,
    trigger: st.trigger ?? '',
    ...(st.giftHeal === undefined ? {} : { giftHeal: st.giftHeal }),
  }));
  stages.forEach(
    (st, i) =>
      stages.findIndex((o) => o.stage === st.stage) !== i &&
      bad(`${field}.stages[${i}].stage`, `repeats Stage ${st.stage}`),
  );
  if (stages.length === 0) stages.push({ stage: 0, name: 'Stage 0', trigger: '' });
  stages.sort((a, b) => a.stage - b.stage);
  const stage = s.stage ?? stages[0].stage;
  if (!stages.some((st) => st.stage === stage))
    bad(`${field}.stage`, `must be one of the unlocked stages ${stages.map((st) => st.stage).join(', ')}`);
  const attacks = (s.attacks ?? []).map((a, i) => readAttack(a, `${field}.attacks[${i}]`, qualities));
  const specialAttacks = (s.specialAttacks ?? []).map((a, i) => ({
    ...readAttack(a, `${field}.specialAttacks[${i}]`, qualities),
    uses: a.uses,
  }));
  unique([
    ...attacks.map((a, i) => ({ id: a.id, field: `${field}.attacks[${i}].id` })),
    ...specialAttacks.map((a, i) => ({ id: a.id, field: `${field}.specialAttacks[${i}].id` })),
  ]);
  const beast: Omit<BeastSheet, 'kind' | keyof Common> = {
    stage,
    stages,
    defensiveQualities: defensiveQualities(s.defensiveQualities ?? [], field, qualities),
    attacks: attacks.length > 0 ? attacks : [DEFAULT_ATTACK],
    specialAttacks,
    movement: s.movement ?? [],
    initiativeDice: s.initiativeDice ?? 0,
  };
  if (s.zeroPower !== undefined) {
    const zp = s.zeroPower;
    // A34: a Zero Power with a range is an attack; without one, a narrative effect that rolls nothing and deals no
    // damage, so A76 refuses the attack fields it would never read.
    if (zp.range === undefined)
      for (const f of NARRATIVE_UNREAD)
        if (zp[f] !== undefined)
          bad(
            `${field}.zeroPower.${f}`,
            'is read by no rule: a Zero Power without a range is a narrative effect the GM resolves, which rolls nothing and deals no damage (rulings A34, A76)',
          );
    const base = readAttack(
      { ...zp, id: zp.id ?? 'zero-power', range: zp.range ?? 'melee' },
      `${field}.zeroPower`,
      qualities,
    );
    beast.zeroPower = { ...base, trigger: zp.trigger, attack: zp.range !== undefined };
  }
  return beast;
}

/** A76: what only an attack reads: its pool (A6) and its bonus damage (A52). */
const NARRATIVE_UNREAD = ['stat', 'ranks', 'qualities', 'bonusDamage'] as const;

function readAttack(
  a: AttackInput & { id: string },
  field: string,
  qualities: Record<string, number>,
): AttackDef {
  const range = a.range ?? 'melee';
  return {
    id: a.id,
    name: a.name,
    range,
    stat: a.stat ?? DEFAULT_ATTACK_STAT[range],
    ranks: a.ranks ?? 0,
    qualities: (a.qualities ?? []).map((q, i) => knownQuality(q, `${field}.qualities[${i}]`, qualities)),
    bonusDamage: a.bonusDamage ?? 0,
  };
}

/** A6: the Qualities whose ranks add to Dodge, each one of the sheet's own; a Binder's as a beast's. */
function defensiveQualities(names: string[], field: string, qualities: Record<string, number>): string[] {
  return names.map((q, i) => knownQuality(q, `${field}.defensiveQualities[${i}]`, qualities));
}

/** A Quality named elsewhere on the sheet must be one of its own `qualities` (an own key: never an inherited name). */
function knownQuality(name: string, field: string, qualities: Record<string, number>): string {
  if (!Object.hasOwn(qualities, name)) bad(field, `names no Quality on this sheet (${name})`);
  return name;
}

/** Ids are unique within a list; the repeat is named by its own field. */
function unique(list: { id: string; field: string }[]): void {
  list.forEach((x, i) => list.findIndex((o) => o.id === x.id) !== i && bad(x.field, `repeats id ${x.id}`));
}
