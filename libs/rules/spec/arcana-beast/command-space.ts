import fc from 'fast-check';
import { BANDS, BYPASS_MOVEMENT, STATS, TAGS } from '../../src/arcana-beast/data';
import { TEST_SEED } from '../given';
import { Json, defined, int, text, SIDES } from './sheet-space';

/**
 * The command space of Arcana Beast, as fast-check arbitraries: every command a client sends, its fields drawn as
 * plans (`Pick`) that each spec resolves against the fight as its walk reaches the step. Shared by the sheet-space
 * fuzz, which makes a field hostile now and then and sends every field a command takes, and the view-promises
 * property test, which does neither (a malformed command is refused before any rule and changes nothing a promise
 * speaks of). Each spec adds its own commands at the tail of its `command` (weighted, below).
 */

/** A value resolved against the fight as the walk reaches the step. */
export type Pick =
  | { $: 'combatant'; i: number }
  | { $: 'other'; i: number }
  | { $: 'active' }
  | { $: 'binder' }
  | { $: 'awaiting' }
  | { $: 'attack'; i: number }
  | { $: 'special'; i: number }
  | { $: 'item'; i: number }
  | { $: 'condition'; i: number }
  | { $: 'order'; shuffle: number[] }
  | { $: 'joiner'; i: number };

/** Field values no command takes: the sheet fuzz sends them now and then. */
export const HOSTILE = [null, '', -1, 1e9, 0.5, Number.NaN, [], {}, 'toString', '__proto__', true, 'ghost'];
export const CONDITIONS = ['Burning', 'Poisoned', 'c'.repeat(60)];

export const combatant = fc.oneof(
  fc.nat().map((i): Pick => ({ $: 'combatant', i })),
  fc.nat().map((i): Pick => ({ $: 'other', i })),
);
/** The running turn's beast (for an Action) or Binder (for a Command), mostly. */
export const actor = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Pick>({ $: 'active' }) },
  { weight: 1, arbitrary: combatant },
);
export const commander = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Pick>({ $: 'binder' }) },
  { weight: 1, arbitrary: combatant },
);

/** An optional field: absent half the time. */
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const bonus = int(0, 5);

export interface CommandSpace {
  /** Values a field takes one time in 26 instead of a plausible one; none: every field is plausible. */
  hostile: readonly unknown[];
  /**
   * Every field and command a client may send (the sheet fuzz): reasons and notes, a Test's GM modifiers, a
   * DevolutionTest, a wrong revealed seed and a winner. Otherwise only those the view's promises speak of.
   */
  everyField: boolean;
}

/** Every command type with the arbitrary of its commands, in a fixed order (fc.oneof draws by position). */
export function commands({ hostile, everyField }: CommandSpace): [string, fc.Arbitrary<Json>][] {
  /** A field's value: usually plausible, now and then hostile. */
  const field = <T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
    hostile.length === 0
      ? plausible
      : fc.oneof(
          { weight: 25, arbitrary: plausible },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(...hostile) },
        );
  const cmd = (type: string, fields: Record<string, fc.Arbitrary<unknown>>): [string, fc.Arbitrary<Json>] => [
    type,
    fc
      .record(
        Object.fromEntries(
          Object.entries(fields).map(([k, a]) => [
            k,
            fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 12, arbitrary: field(a) }),
          ]),
        ),
      )
      .map((f) => ({ type, ...defined(f) })),
  ];
  /** A field only `everyField` sends: `every` keeps it in its place among the others, or drops it. */
  const only = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T> | false => everyField && a;
  const every = (
    fields: Record<string, fc.Arbitrary<unknown> | false>,
  ): Record<string, fc.Arbitrary<unknown>> =>
    Object.fromEntries(
      Object.entries(fields).filter((f): f is [string, fc.Arbitrary<unknown>] => f[1] !== false),
    );
  const list: ([string, fc.Arbitrary<Json>] | false)[] = [
    cmd('Attack', {
      attackerId: actor,
      targetId: combatant,
      attackId: fc.nat().map((i): Pick => ({ $: 'attack', i })),
      bonusDice: opt(bonus),
      intercept: opt(fc.boolean()),
    }),
    cmd('UseSpecialAttack', {
      attackerId: actor,
      targetId: combatant,
      specialAttackId: fc.nat().map((i): Pick => ({ $: 'special', i })),
      bonusDice: opt(bonus),
      intercept: opt(fc.boolean()),
    }),
    cmd('UseZeroPower', {
      attackerId: actor,
      targetId: opt(combatant),
      bonusDice: opt(bonus),
      intercept: opt(fc.boolean()),
    }),
    cmd('Intercept', { combatantId: fc.constant<Pick>({ $: 'awaiting' }), intercept: fc.boolean() }),
    cmd('Defend', { combatantId: actor }),
    cmd('Assist', { combatantId: actor, allyId: combatant }),
    cmd('Guard', { combatantId: actor, allyId: combatant }),
    cmd('Pass', { combatantId: actor }),
    cmd('Reposition', {
      combatantId: actor,
      towardId: combatant,
      band: fc.constantFrom(...BANDS),
      using: fc.constantFrom(...BYPASS_MOVEMENT),
    }),
    cmd('Move', {
      combatantId: actor,
      towardId: combatant,
      band: fc.constantFrom(...BANDS),
      using: fc.constantFrom(...BYPASS_MOVEMENT),
    }),
    cmd('Evolve', { combatantId: actor, stage: int(0, 4) }),
    cmd('Direct', { combatantId: commander }),
    cmd('Encourage', {
      combatantId: commander,
      effect: fc.constantFrom('dodgeDie', 'removeCondition'),
      condition: fc.nat().map((i): Pick => ({ $: 'condition', i })),
    }),
    cmd('Strategize', { combatantId: commander }),
    cmd('CallBack', { combatantId: commander, mode: fc.constantFrom('retreat', 'devolve') }),
    cmd('UseItem', {
      combatantId: commander,
      itemId: fc.nat().map((i): Pick => ({ $: 'item', i })),
      targetId: combatant,
      condition: fc.nat().map((i): Pick => ({ $: 'condition', i })),
    }),
    cmd('BondSurge', { combatantId: commander }),
    cmd('SetBand', {
      aId: combatant,
      bId: combatant,
      band: fc.constantFrom(...BANDS),
      difficultTerrain: fc.oneof(fc.boolean(), int(0, 10)),
    }),
    cmd('SetTag', { combatantId: combatant, tag: fc.constantFrom(...TAGS), againstId: combatant }),
    cmd('ClearTag', { combatantId: combatant, tag: fc.constantFrom(...TAGS) }),
    cmd('ApplyCondition', { combatantId: combatant, condition: fc.constantFrom(...CONDITIONS) }),
    cmd('RemoveCondition', { combatantId: combatant, condition: fc.constantFrom(...CONDITIONS) }),
    cmd('SetTrigger', {
      combatantId: fc.oneof(actor, combatant),
      kind: fc.constantFrom('stage', 'zeroPower'),
      stage: int(0, 4),
      active: fc.boolean(),
    }),
    cmd(
      'RollTest',
      every({
        combatantId: combatant,
        stat: fc.constantFrom(...STATS),
        difficulty: int(0, 20),
        ranks: only(int(0, 10)),
        bonusDice: only(bonus),
        boost: only(fc.boolean()),
        setback: only(fc.boolean()),
        reason: only(text(200)),
      }),
    ),
    cmd(
      'RollOpposedTest',
      every({
        aId: combatant,
        aStat: fc.constantFrom(...STATS),
        aRanks: only(int(0, 10)),
        aBonusDice: only(bonus),
        aBoost: only(fc.boolean()),
        aSetback: only(fc.boolean()),
        bId: combatant,
        bStat: only(fc.constantFrom(...STATS)),
        bRanks: only(int(0, 10)),
        bBonusDice: only(bonus),
        bBoost: only(fc.boolean()),
        bSetback: only(fc.boolean()),
      }),
    ),
    cmd('RerollInitiative', {}),
    cmd('EndScene', {}),
    cmd('RollInitiative', {
      surprised: fc.array(combatant, { maxLength: 3 }),
      tieBreak: fc.array(combatant),
    }),
    cmd('SetInitiative', {
      order: fc.array(fc.nat(), { maxLength: 8 }).map((shuffle): Pick => ({ $: 'order', shuffle })),
    }),
    cmd('StartRound', {}),
    cmd('StartActivation', { combatantId: combatant }),
    cmd('EndActivation', {}),
    cmd('EndRound', {}),
    cmd('RemoveCombatant', every({ combatantId: combatant, reason: only(text(20)) })),
    cmd('AddCombatant', { combatant: fc.nat().map((i): Pick => ({ $: 'joiner', i })) }),
    everyField && cmd('AddNote', { text: text(20), combatantId: combatant }),
    cmd('CancelPending', every({ reason: only(text(20)) })),
    cmd('ProvideDice', {}),
    everyField && cmd('DevolutionTest', { combatantId: combatant }),
    cmd(
      'EndFight',
      everyField
        ? { revealedSeed: fc.constantFrom(TEST_SEED, 'wrong'), winnerSide: fc.constantFrom(...SIDES) }
        : { revealedSeed: fc.constant(TEST_SEED) },
    ),
  ];
  return list.filter((c): c is [string, fc.Arbitrary<Json>] => c !== false);
}

/** How often each command comes: the beasts' and Binders' most, what ends a turn, a scene or the fight least. */
const WEIGHT: Record<string, number> = {
  Attack: 12,
  UseSpecialAttack: 6,
  UseZeroPower: 4,
  Intercept: 6,
  SetBand: 6,
  SetTrigger: 4,
  EndActivation: 2,
  EndRound: 1,
  EndScene: 1,
  RemoveCombatant: 1,
  EndFight: 1,
  StartRound: 4,
  StartActivation: 6,
};

/** The commands as fc.oneof entries, each at its weight (`weights` first, then WEIGHT, else 3). */
export const weighted = (
  list: [string, fc.Arbitrary<Json>][],
  weights: Record<string, number> = {},
): fc.WeightedArbitrary<Json>[] =>
  list.map(([type, arbitrary]) => ({ weight: weights[type] ?? WEIGHT[type] ?? 3, arbitrary }));

/** Manual faces: a short pattern repeated to a length, so a pool of any size can be covered. */
export const facesOf = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 80 })),
    fc.array(
      fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 1, max: 6 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
      ),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([n, p]) => Array.from({ length: n }, (_, i) => p[i % p.length]));

/** The first turn of a fight: most walks start from it. */
export const OPENING = [
  { type: 'RollInitiative' },
  { type: 'SetInitiative', order: { $: 'order', shuffle: [] } },
  { type: 'StartRound' },
  { type: 'StartActivation' },
];
