import fc from 'fast-check';
import { BYPASS_MOVEMENT, RANGES, STATS } from '../../src/arcana-beast/data';

/**
 * The sheet space of Arcana Beast, as fast-check arbitraries: valid sheets the sheet contract accepts (every optional
 * field present or absent, every enum value, numbers at their bounds and between, empty and maximal lists, ids every
 * object has) and fights of 2 to 5 of them. Shared by the sheet-space fuzz and the view-promises property test.
 */
export type Json = Record<string, unknown>;

/** An object without its absent fields, as a client's JSON has them. */
export const defined = (o: Json): Json =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** An integer in [min, max], at either bound about one time in three. */
export const int = (min: number, max: number) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 2, arbitrary: fc.integer({ min, max }) },
  );
export const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
export const text = (max: number) =>
  fc.oneof(
    fc.constantFrom('x', 'Zero Flare', 'x'.repeat(max), 'Ω ✦', ' '),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
/** Ids the pattern allows, names every object has among them. */
export const ODD_IDS = [
  'toString',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  'x'.repeat(64),
  '0',
  '-',
];
export const id = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...ODD_IDS, 'strike', 'zero-power') },
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/) },
);
/** Quality names the contract allows (none every object has). */
export const qualityName = fc.constantFrom(
  'Claws',
  'Nimble',
  'Tough',
  'length',
  'then',
  'prototype',
  'q'.repeat(60),
  'Ω',
);
export const list = <T>(a: fc.Arbitrary<T>, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(a, { maxLength: Math.min(max, 3) }) },
    { weight: 1, arbitrary: fc.array(a, { minLength: max, maxLength: max }) },
  );
export const some = <T>(names: readonly T[], max: number) =>
  names.length === 0 ? fc.constant<T[]>([]) : list(fc.constantFrom(...names), max);

export const stats = fc.record(Object.fromEntries(STATS.map((s) => [s, int(0, 20)])));

/** HP and Stamina with their optional maxima (A11): current at most the maximum, HP 1+ without one. */
export const vitals = fc.record({
  hp: fc.oneof(
    int(1, 500).map((hp) => ({ hp })),
    int(1, 500).chain((maxHp) =>
      fc
        .oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: int(1, maxHp) })
        .map((hp) => ({ maxHp, hp })),
    ),
  ),
  stamina: fc.oneof(
    int(0, 100).map((stamina) => ({ stamina })),
    int(0, 100).chain((maxStamina) => int(0, maxStamina).map((stamina) => ({ maxStamina, stamina }))),
  ),
});

export const common = fc
  .record({
    stats,
    qualities: maybe(fc.dictionary(qualityName, int(0, 10), { maxKeys: 6 })),
    vitals,
  })
  .map(({ stats, qualities, vitals }) => defined({ stats, qualities, ...vitals.hp, ...vitals.stamina }));

export const attackBody = (qualities: string[]) =>
  fc.record({
    name: text(100),
    range: maybe(fc.constantFrom(...RANGES)),
    stat: maybe(fc.constantFrom(...STATS)),
    ranks: maybe(int(0, 10)),
    qualities: maybe(some(qualities, 10)),
    bonusDamage: maybe(int(0, 50)),
  });

/** Ruling A76: a Zero Power without a range is a narrative effect and takes no attack fields. */
const zeroPowerBody = (body: Json): Json => {
  const { stat, ranks, qualities, bonusDamage, ...narrative } = body;
  return defined(
    body.range === undefined ? narrative : { ...narrative, stat, ranks, qualities, bonusDamage },
  );
};

export const item = fc.record({
  name: text(100),
  quantity: maybe(int(0, 99)),
  heal: maybe(int(0, 500)),
  stamina: maybe(int(0, 100)),
  removesCondition: maybe(fc.boolean()),
  test: maybe(fc.record({ stat: fc.constantFrom(...STATS), difficulty: int(1, 10) })),
});

/** n distinct ids. */
export const ids = (n: number) => fc.uniqueArray(id, { minLength: n, maxLength: n });

export const binderSheet = (beastId: string) =>
  common.chain((c) => {
    const qualities = Object.keys((c.qualities as Json | undefined) ?? {});
    return fc
      .record({
        defensiveQualities: maybe(some(qualities, 10)),
        inventory: maybe(
          fc
            .oneof(
              { weight: 4, arbitrary: fc.integer({ min: 0, max: 4 }) },
              { weight: 1, arbitrary: fc.constant(50) },
            )
            .chain((n) => fc.tuple(ids(n), fc.array(item, { minLength: n, maxLength: n }))),
        ),
      })
      .map(({ defensiveQualities, inventory }) =>
        defined({
          kind: 'binder',
          ...c,
          beastId,
          defensiveQualities,
          inventory: inventory?.[0].map((x, i) => defined({ id: x, ...defined(inventory[1][i]) })),
        }),
      );
  });

export const stageEntry = (stage: number) =>
  fc
    .record({ name: maybe(text(100)), trigger: maybe(text(300)), giftHeal: maybe(int(1, 500)) })
    .map((s) => defined({ stage, ...s }));

export const beastSheet = common.chain((c) => {
  const qualities = Object.keys((c.qualities as Json | undefined) ?? {});
  const count = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) },
    { weight: 1, arbitrary: fc.constant(20) },
  );
  return fc
    .record({
      stages: maybe(fc.shuffledSubarray([0, 1, 2, 3, 4]).chain((s) => fc.tuple(...s.map(stageEntry)))),
      stageChoice: fc.option(fc.nat(), { nil: undefined, freq: 3 }),
      defensiveQualities: maybe(some(qualities, 10)),
      lists: fc.tuple(count, count).chain(([a, s]) =>
        fc.tuple(
          ids(a + s),
          fc.array(attackBody(qualities), { minLength: a, maxLength: a }),
          fc.array(
            fc.tuple(attackBody(qualities), int(0, 50)).map(([b, uses]) => ({ ...b, uses })),
            { minLength: s, maxLength: s },
          ),
        ),
      ),
      attacksAbsent: fc.boolean(),
      specialAbsent: fc.boolean(),
      zeroPower: maybe(
        fc.record({
          id: maybe(id),
          trigger: text(300),
          body: attackBody(qualities),
        }),
      ),
      movement: maybe(list(fc.constantFrom(...BYPASS_MOVEMENT), 3)),
      initiativeDice: maybe(int(0, 10)),
    })
    .map((b) => {
      const stages: Json[] | undefined = b.stages;
      const unlocked = stages && stages.length > 0 ? stages.map((s) => s.stage as number) : [0];
      const [attackIds, attacks, specials] = b.lists;
      return defined({
        kind: 'beast',
        ...c,
        stages,
        stage: b.stageChoice === undefined ? undefined : unlocked[b.stageChoice % unlocked.length],
        defensiveQualities: b.defensiveQualities,
        attacks:
          b.attacksAbsent && attacks.length === 0
            ? undefined
            : attacks.map((a, i) => defined({ id: attackIds[i], ...defined(a) })),
        specialAttacks:
          b.specialAbsent && specials.length === 0
            ? undefined
            : specials.map((a, i) => defined({ id: attackIds[attacks.length + i], ...defined(a) })),
        zeroPower: b.zeroPower
          ? defined({ ...zeroPowerBody(b.zeroPower.body), id: b.zeroPower.id, trigger: b.zeroPower.trigger })
          : undefined,
        movement: b.movement,
        initiativeDice: b.initiativeDice,
      });
    });
});

/**
 * Combatant ids and sides, names every object has among them; not `__proto__`, a key the view's tables (bands,
 * combos) cannot carry through a parse of ARCANA_BEAST_VIEW: the fight's lifecycle refuses it as an id or a side.
 */
export const COMBATANT_IDS = [
  'ember',
  'ash',
  'wolf',
  'pip',
  'bo',
  ...ODD_IDS.filter((x) => x !== '__proto__'),
];
export const SIDES = ['heroes', 'wild', 'third', 'toString'];

export interface Joiner {
  id: string;
  name: string;
  side: string;
  sheet: Json;
}

/**
 * 2 to 5 combatants with distinct ids; each Binder names a beast no other Binder names (one of the fight's, or
 * one that is not there), as Beast Binder Placement asks.
 */
export const fighters = fc
  .uniqueArray(fc.constantFrom(...COMBATANT_IDS), { minLength: 2, maxLength: 5 })
  .chain((names) =>
    fc.tuple(
      fc.constant(names),
      fc.array(
        fc.integer({ min: 0, max: 2 }).map((n) => n === 0),
        { minLength: names.length, maxLength: names.length },
      ),
      fc.array(fc.constantFrom(...SIDES), { minLength: names.length, maxLength: names.length }),
      fc.array(fc.nat(), { minLength: names.length, maxLength: names.length }),
    ),
  )
  .chain(([names, binder, sides, picks]) => {
    const beasts = names.filter((_, i) => !binder[i]);
    const claimed = new Set<string>();
    const sheets = names.map((name, i) => {
      if (!binder[i]) return beastSheet;
      const free = [...beasts.filter((b) => !claimed.has(b)), `lost${i}`];
      const beastId = free[picks[i] % free.length];
      claimed.add(beastId);
      return binderSheet(beastId);
    });
    return fc
      .tuple(...sheets)
      .map((ss) => ss.map((sheet, i): Joiner => ({ id: names[i], name: names[i], side: sides[i], sheet })));
  });

export const options = fc
  .record({
    initiativeTies: maybe(fc.constantFrom('gm', 'reroll')),
    playerSides: maybe(fc.subarray(SIDES)),
  })
  .map(defined);
