import { arr, bad, ID_PATTERN, int, obj, oneOf, str } from '../core/fields';
import { BYPASS_MOVEMENT, BypassMovement, DEFAULT_ATTACK_STAT, Range, RANGES, Stat, STATS } from './data';

export interface AttackDef {
  id: string;
  name: string;
  range: Range;
  stat: Stat;
  /** Attack Ranks (RULINGS.md A6). */
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

const DEFAULT_ATTACK: AttackDef = { id: 'strike', name: 'Strike', range: 'melee', stat: 'brawn', ranks: 0, qualities: [], bonusDamage: 0 };

export function validateSheet(raw: unknown, field: string): ArcanaSheet {
  const s = obj(raw, field);
  const kind = oneOf<'binder' | 'beast'>(s.kind, `${field}.kind`, ['binder', 'beast']);
  const statsIn = obj(s.stats, `${field}.stats`);
  const stats = Object.fromEntries(STATS.map((k) => [k, int(statsIn[k], `${field}.stats.${k}`, { min: 0, max: 20 })])) as Record<Stat, number>;
  const qualitiesIn = s.qualities === undefined ? {} : obj(s.qualities, `${field}.qualities`);
  const qualities: Record<string, number> = {};
  for (const [q, r] of Object.entries(qualitiesIn)) qualities[str(q, `${field}.qualities`, { max: 60 })] = int(r, `${field}.qualities.${q}`, { min: 0, max: 10 });
  // RULINGS.md A11: HP and Stamina are required sheet values.
  const maxHp = int(s.maxHp ?? s.hp, s.maxHp === undefined ? `${field}.hp` : `${field}.maxHp`, { min: 1, max: 500 });
  const maxStamina = int(s.maxStamina ?? s.stamina, s.maxStamina === undefined ? `${field}.stamina` : `${field}.maxStamina`, { min: 0, max: 100 });
  const common: Common = {
    stats,
    qualities,
    maxHp,
    hp: int(s.hp, `${field}.hp`, { min: 0, max: maxHp }),
    maxStamina,
    stamina: int(s.stamina, `${field}.stamina`, { min: 0, max: maxStamina }),
  };
  if (kind === 'binder') {
    const inventory = arr(s.inventory, `${field}.inventory`, { max: 50, optional: true }).map((x, i) => readItem(x, `${field}.inventory[${i}]`));
    unique(inventory.map((x, i) => ({ id: x.id, field: `${field}.inventory[${i}].id` })));
    return { kind, ...common, beastId: str(s.beastId, `${field}.beastId`, { pattern: ID_PATTERN }), inventory };
  }
  return { kind, ...common, ...readBeast(s, field, qualities) };
}

function readBeast(s: Record<string, unknown>, field: string, qualities: Record<string, number>): Omit<BeastSheet, 'kind' | keyof Common> {
  const stages = arr(s.stages, `${field}.stages`, { max: 5, optional: true }).map((x, i) => readStage(x, `${field}.stages[${i}]`));
  stages.forEach((st, i) => stages.findIndex((o) => o.stage === st.stage) !== i && bad(`${field}.stages[${i}].stage`, `repeats Stage ${st.stage}`));
  if (stages.length === 0) stages.push({ stage: 0, name: 'Stage 0', trigger: '' });
  stages.sort((a, b) => a.stage - b.stage);
  const stage = int(s.stage ?? stages[0].stage, `${field}.stage`, { min: 0, max: 4 });
  if (!stages.some((st) => st.stage === stage)) bad(`${field}.stage`, `must be one of the unlocked stages ${stages.map((st) => st.stage).join(', ')}`);
  const attacks = arr(s.attacks, `${field}.attacks`, { max: 20, optional: true }).map((x, i) => readAttack(x, `${field}.attacks[${i}]`, qualities));
  const specialAttacks = arr(s.specialAttacks, `${field}.specialAttacks`, { max: 20, optional: true }).map((x, i) => {
    const f = `${field}.specialAttacks[${i}]`;
    return { ...readAttack(x, f, qualities), uses: int(obj(x, f).uses, `${f}.uses`, { min: 0, max: 50 }) };
  });
  unique([...attacks.map((a, i) => ({ id: a.id, field: `${field}.attacks[${i}].id` })), ...specialAttacks.map((a, i) => ({ id: a.id, field: `${field}.specialAttacks[${i}].id` }))]);
  const defensiveQualities = arr(s.defensiveQualities, `${field}.defensiveQualities`, { max: 10, optional: true }).map((q, i) => knownQuality(q, `${field}.defensiveQualities[${i}]`, qualities));
  const beast: Omit<BeastSheet, 'kind' | keyof Common> = {
    stage,
    stages,
    defensiveQualities,
    attacks: attacks.length > 0 ? attacks : [DEFAULT_ATTACK],
    specialAttacks,
    movement: arr(s.movement, `${field}.movement`, { max: 3, optional: true }).map((m, i) => oneOf(m, `${field}.movement[${i}]`, BYPASS_MOVEMENT)),
    initiativeDice: int(s.initiativeDice ?? 0, `${field}.initiativeDice`, { min: 0, max: 10 }),
  };
  if (s.zeroPower !== undefined) {
    const z = obj(s.zeroPower, `${field}.zeroPower`);
    const isAttack = z.range !== undefined;
    const base = readAttack({ id: 'zero-power', ...z, range: z.range ?? 'melee' }, `${field}.zeroPower`, qualities);
    beast.zeroPower = { ...base, trigger: str(z.trigger, `${field}.zeroPower.trigger`, { max: 300 }), attack: isAttack };
  }
  return beast;
}

function readAttack(raw: unknown, field: string, qualities: Record<string, number>): AttackDef {
  const a = obj(raw, field);
  const range = oneOf<Range>(a.range, `${field}.range`, RANGES, 'melee');
  return {
    id: str(a.id, `${field}.id`, { pattern: ID_PATTERN }),
    name: str(a.name, `${field}.name`, { max: 100 }),
    range,
    stat: oneOf(a.stat, `${field}.stat`, STATS, DEFAULT_ATTACK_STAT[range]),
    ranks: int(a.ranks ?? 0, `${field}.ranks`, { min: 0, max: 10 }),
    qualities: arr(a.qualities, `${field}.qualities`, { max: 10, optional: true }).map((q, i) => knownQuality(q, `${field}.qualities[${i}]`, qualities)),
    bonusDamage: int(a.bonusDamage ?? 0, `${field}.bonusDamage`, { min: 0, max: 50 }),
  };
}

function readStage(raw: unknown, field: string): StageDef {
  const st = obj(raw, field);
  const stage = int(st.stage, `${field}.stage`, { min: 0, max: 4 });
  return { stage, name: st.name === undefined ? `Stage ${stage}` : str(st.name, `${field}.name`, { max: 100 }), trigger: st.trigger === undefined ? '' : str(st.trigger, `${field}.trigger`, { max: 300 }) };
}

function readItem(raw: unknown, field: string): Item {
  const x = obj(raw, field);
  const item: Item = {
    id: str(x.id, `${field}.id`, { pattern: ID_PATTERN }),
    name: str(x.name, `${field}.name`, { max: 100 }),
    quantity: int(x.quantity ?? 1, `${field}.quantity`, { min: 0, max: 99 }),
    heal: int(x.heal ?? 0, `${field}.heal`, { min: 0, max: 500 }),
    stamina: int(x.stamina ?? 0, `${field}.stamina`, { min: 0, max: 100 }),
    removesCondition: x.removesCondition === true,
  };
  if (x.test !== undefined) {
    const t = obj(x.test, `${field}.test`);
    item.test = { stat: oneOf(t.stat, `${field}.test.stat`, STATS), difficulty: int(t.difficulty, `${field}.test.difficulty`, { min: 1, max: 10 }) };
  }
  return item;
}

function knownQuality(q: unknown, field: string, qualities: Record<string, number>): string {
  const name = str(q, field, { max: 60 });
  if (!(name in qualities)) bad(field, `names no Quality on this sheet (${name})`);
  return name;
}

/** Ids are unique within a list; the repeat is named by its own field. */
function unique(list: { id: string; field: string }[]): void {
  list.forEach((x, i) => list.findIndex((o) => o.id === x.id) !== i && bad(x.field, `repeats id ${x.id}`));
}
