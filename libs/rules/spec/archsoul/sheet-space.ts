import fc from 'fast-check';
import { RuleViolation } from '../../src/core/violation';
import { validateSheet } from '../../src/archsoul';
import {
  AMMUNITION_KINDS,
  ANATOMIES,
  ATTACK_TYPES,
  ATTRIBUTES,
  CRITICAL_TABLES,
  HANDLING,
  SIZES,
  SKILLS,
  WEAPON_PROPERTIES,
} from '../../src/archsoul/data';

/**
 * Sheets: anything ARCHSOUL_SHEET and validateSheet accept, for the sheet fuzz and the view-promises walks alike
 * (every optional field present or absent, every enum value, numbers at their bounds and between, empty and full
 * lists, every weapon type and critical table).
 */

/** An optional field: present with a value of `arb`, or absent. */
export const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
/** An integer in [min, max], at a bound half the time. */
export const bounded = (min: number, max: number) =>
  fc.oneof(
    fc.constantFrom(min, max),
    fc.integer({ min, max }),
    fc.integer({ min, max: Math.min(max, min + 3) }),
  );
export const name = fc.oneof(fc.constantFrom('X', 'A name'), fc.constant('N'.repeat(100)));
export const ARMOUR = ['plate', 'leather', 'chain', 'hide', 'x'.repeat(40)];
export const armourList = fc.oneof(
  fc.constant([] as string[]),
  fc.subarray(ARMOUR),
  fc.constant(Array.from({ length: 10 }, (_, i) => ARMOUR[i % ARMOUR.length])),
);
export const throwStats = fc
  .record({
    accurateRange: bounded(1, 500),
    extra: opt(bounded(0, 500)),
    heavy: opt(fc.boolean()),
    damage: opt(bounded(0, 3000)),
  })
  .map(({ extra, ...t }) =>
    strip({ ...t, maximumRange: extra === undefined ? undefined : t.accurateRange + extra }),
  );

export function strip<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export const weapon = (id: string) =>
  fc
    .record({
      name,
      type: opt(fc.constantFrom(...ATTACK_TYPES)),
      damage: opt(bounded(0, 3000)),
      reach: opt(bounded(0, 10)),
      accurateRange: bounded(1, 500),
      extraRange: opt(bounded(0, 500)),
      strongAgainst: opt(armourList),
      weakAgainst: opt(armourList),
      armourPiercing: opt(fc.boolean()),
      improvised: opt(fc.boolean()),
      broken: opt(fc.boolean()),
      criticalTable: opt(fc.constantFrom(...CRITICAL_TABLES)),
      soulMagic: opt(fc.boolean()),
      attackRoll: opt(bounded(0, 1)),
      stowage: opt(fc.constantFrom('simple' as const, 'awkward' as const)),
      held: opt(fc.boolean()),
      handling: opt(fc.constantFrom(...HANDLING)),
      twoHanded: opt(fc.boolean()),
      hardness: opt(bounded(0, 100)),
      closeCombat: opt(fc.boolean()),
      properties: opt(
        fc.oneof(
          fc.subarray([...WEAPON_PROPERTIES]),
          fc.array(fc.constantFrom(...WEAPON_PROPERTIES), { maxLength: 10 }),
        ),
      ),
      weightLb: opt(bounded(1, 100000)),
      liftingAthletics: opt(bounded(0, 30)),
      areaRadius: opt(bounded(2, 100)),
      hp: opt(bounded(0, 1000)),
      ammunition: opt(fc.record({ kind: fc.constantFrom(...AMMUNITION_KINDS), count: bounded(0, 1000) })),
      heavy: opt(fc.boolean()),
      thrown: opt(throwStats),
    })
    .map((w) => settleWeapon(id, w));

/** A generated weapon made what validateSheet asks beyond the contract. */
export function settleWeapon(
  id: string,
  { extraRange, ...w }: { extraRange?: number; [k: string]: unknown } & WeaponFields,
): Record<string, unknown> {
  {
    const type = w.type ?? 'melee';
    const close = type === 'melee' || type === 'unarmed';
    const out: Record<string, unknown> = { id, ...w };
    // What validateSheet asks beyond the contract: ranges for what is not close, a reach of 1 or more for
    // what is, an unarmed reach of 1, a second attack roll only for thrown and elemental weapons.
    if (close) {
      delete out.accurateRange;
      if (w.reach === 0) out.reach = 1;
      if (type === 'unarmed' && w.reach !== undefined) out.reach = 1;
    } else if (extraRange !== undefined) out.maximumRange = w.accurateRange + extraRange;
    // S104: no field its type never reads: reach (but 0) beyond melee and unarmed, heavy beyond thrown, a thrown
    // weapon's second throwing ranges, an area beyond ranged, thrown and elemental weapons.
    if (!close && w.reach !== 0) delete out.reach;
    if (type !== 'thrown') delete out.heavy;
    if (type === 'thrown') delete out.thrown;
    if (type !== 'ranged' && type !== 'thrown' && type !== 'elemental') delete out.areaRadius;
    if (type !== 'thrown' && type !== 'elemental' && w.attackRoll !== undefined) out.attackRoll = 0;
    // S105: twoHanded on what fills no hand (unarmed, soul magic), a lifting row but on an improvised weapon over 10 lb.
    const soulMagic = w.soulMagic ?? (type === 'soul' || (type === 'elemental' && (w.attackRoll ?? 0) === 0));
    if (w.twoHanded && (type === 'unarmed' || type === 'soul' || soulMagic)) delete out.twoHanded;
    if (!((w.improvised ?? w.weightLb !== undefined) && (w.weightLb ?? 0) > 10)) delete out.liftingAthletics;
    // S52: a two-handed weapon that is not a spear is drawn awkwardly.
    if (out.twoHanded && !(w.properties ?? []).includes('spear') && w.stowage === 'simple')
      out.stowage = 'awkward';
    return strip(out);
  }
}

/** The fields settleWeapon reads. */
export interface WeaponFields {
  type?: (typeof ATTACK_TYPES)[number];
  reach?: number;
  accurateRange: number;
  attackRoll?: number;
  twoHanded?: boolean;
  soulMagic?: boolean;
  improvised?: boolean;
  weightLb?: number;
  properties?: string[];
  stowage?: string;
}

export const item = (id: string) =>
  fc
    .record({
      name,
      stowage: opt(fc.constantFrom('simple' as const, 'awkward' as const)),
      held: opt(fc.boolean()),
      twoHanded: opt(fc.boolean()),
      thrown: opt(throwStats),
    })
    .map((x) => {
      const out: Record<string, unknown> = { id, ...x };
      if (x.twoHanded && x.stowage === 'simple') out.stowage = 'awkward';
      return strip(out);
    });

/** A list of `make(id)`: empty, short or as long as the contract allows. */
export function list(
  prefix: string,
  make: (id: string) => fc.Arbitrary<Record<string, unknown>>,
  max: number,
): fc.Arbitrary<Record<string, unknown>[] | undefined> {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const of = (n: number) => fc.tuple(...ids(n).map(make));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constant<Record<string, unknown>[]>([]) },
    { weight: 12, arbitrary: fc.integer({ min: 1, max: 4 }).chain(of) },
    { weight: 1, arbitrary: of(max) },
  );
}

export const SKILL_NAMES = [...SKILLS, 'lockpicking', 'Z'.repeat(40)];

export const rawSheet = fc
  .record({
    attributes: opt(fc.record(Object.fromEntries(ATTRIBUTES.map((a) => [a, opt(bounded(0, 20))])))),
    skills: opt(
      fc.dictionary(fc.constantFrom(...SKILL_NAMES), bounded(0, 20), { maxKeys: SKILL_NAMES.length }),
    ),
    maxHp: fc.oneof(bounded(1, 1000), fc.integer({ min: 5, max: 30 })),
    hpShare: fc.option(fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })), {
      nil: undefined,
      freq: 5,
    }),
    defense: opt(bounded(0, 30)),
    speed: opt(bounded(0, 30)),
    metalGauntlets: opt(fc.boolean()),
    weapons: list('w', weapon, 30),
    items: list('i', item, 50),
    anatomy: opt(fc.constantFrom(...ANATOMIES)),
    animalIntelligence: opt(fc.boolean()),
    size: opt(fc.constantFrom(...SIZES)),
    shatterResponse: opt(fc.constantFrom('roll', 'drop')),
    trampleResponse: opt(fc.constantFrom('stop', 'avoid')),
    mount: opt(
      fc
        .record({
          name: opt(name),
          speed: bounded(1, 30),
          size: opt(fc.constantFrom(...SIZES)),
          trampleDamage: opt(bounded(0, 30)),
        })
        .map(strip),
    ),
    creature: opt(fc.constantFrom('golem', 'plant', 'beast', 'c'.repeat(40))),
    armour: opt(fc.record({ type: fc.constantFrom(...ARMOUR), metal: opt(fc.boolean()) }).map(strip)),
    shield: opt(
      fc
        .record({
          id: opt(fc.constantFrom('s', 'buckler')),
          name: opt(name),
          bonus: bounded(0, 10),
          held: opt(fc.boolean()),
          hardness: opt(bounded(0, 100)),
          hp: opt(bounded(0, 1000)),
        })
        .map(strip),
    ),
    fistWeapon: fc.boolean(),
  })
  .map(({ hpShare, fistWeapon, ...s }) => {
    const out: Record<string, unknown> = { ...s };
    if (s.attributes) out.attributes = strip({ ...s.attributes });
    if (hpShare !== undefined) out.hp = Math.floor(hpShare * s.maxHp);
    // An odd id the contract allows: a sheet weapon named like the built-in fist.
    if (fistWeapon && s.weapons?.length) s.weapons[0].id = 'fist';
    return strip(out);
  });

/** A valid sheet: S51 refuses what `held: true` cannot fit in two hands, so each such claim that does not fit is dropped. */
export function settleSheet(sheet: Record<string, unknown>): Record<string, unknown> {
  let last: unknown;
  for (let tries = 0; tries < 100; tries++) {
    try {
      // A parse is kept per object (core/contract.ts): each try reads a fresh copy.
      validateSheet(structuredClone(sheet), 'sheet');
      return sheet;
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      last = e;
      const m = /^sheet\.(weapons|items)\[(\d+)\]\.held$|^sheet\.shield\.held$/.exec(e.field ?? '');
      if (!m) throw new Error(`a generated sheet was refused: ${e.field} ${e.message}`, { cause: e });
      const x = m[1]
        ? (sheet[m[1]] as Record<string, unknown>[])[Number(m[2])]
        : (sheet.shield as Record<string, unknown>);
      delete x.held;
    }
  }
  throw new Error(`held claims did not settle: ${String(last)} ${(last as RuleViolation).field}`);
}

/** A valid sheet across the whole contract. */
export const validSheet = rawSheet.map(settleSheet);
