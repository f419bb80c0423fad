import fc from 'fast-check';
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { DiceSource } from '../../src/dice/roll';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import { ARCHSOUL_CONTRACT, ARCHSOUL_VIEW, ArchsoulState, facings, validateSheet } from '../../src/archsoul';
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
import { TEST_COMMITMENT } from '../given';
import { Choices, command, FACINGS, SIDES } from './command-space';

/**
 * Whatever a client sends, the decider answers with events or a RuleViolation, from any sheet the contract accepts:
 * random valid sheets across ARCHSOUL_SHEET (every optional field present or absent, every enum value, numbers at
 * their bounds and between, empty and full lists, every weapon type and critical table), fights of 2–5 of them,
 * and random walks of commands chosen from the fight as it stands (its ids, held items, spaces beside the actor,
 * the pending decision's answer) with boundary and hostile values mixed in, on seeded dice and on manual faces.
 * After each step: the decider threw nothing but a RuleViolation; every event is its declared data and folds; the
 * view parses strictly with ARCHSOUL_VIEW. FUZZ_RUNS and FUZZ_SEED explore further than the default run; FUZZ_SHRINK=0
 * reports a failure as found, unshrunk.
 */
const system = findSystem('archsoul') as RuleSystem<FightCore>;
const EVENT_SCHEMAS = eventSchemasOf(ARCHSOUL_CONTRACT);

/* ------------------------------------------------------------------------------------------------------------
 * Sheets: anything ARCHSOUL_SHEET and validateSheet accept.
 * ---------------------------------------------------------------------------------------------------------- */

/** An optional field: present with a value of `arb`, or absent. */
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
/** An integer in [min, max], at a bound half the time. */
const bounded = (min: number, max: number) =>
  fc.oneof(
    fc.constantFrom(min, max),
    fc.integer({ min, max }),
    fc.integer({ min, max: Math.min(max, min + 3) }),
  );
const name = fc.oneof(fc.constantFrom('X', 'A name'), fc.constant('N'.repeat(100)));
const ARMOUR = ['plate', 'leather', 'chain', 'hide', 'x'.repeat(40)];
const armourList = fc.oneof(
  fc.constant([] as string[]),
  fc.subarray(ARMOUR),
  fc.constant(Array.from({ length: 10 }, (_, i) => ARMOUR[i % ARMOUR.length])),
);
const throwStats = fc
  .record({
    accurateRange: bounded(1, 500),
    extra: opt(bounded(0, 500)),
    heavy: opt(fc.boolean()),
    damage: opt(bounded(0, 3000)),
  })
  .map(({ extra, ...t }) =>
    strip({ ...t, maximumRange: extra === undefined ? undefined : t.accurateRange + extra }),
  );

function strip<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const weapon = (id: string) =>
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
    .map(({ extraRange, ...w }) => {
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
      if (type !== 'thrown' && type !== 'elemental' && w.attackRoll !== undefined) out.attackRoll = 0;
      // S52: a two-handed weapon that is not a spear is drawn awkwardly.
      if (w.twoHanded && !(w.properties ?? []).includes('spear') && w.stowage === 'simple')
        out.stowage = 'awkward';
      return strip(out);
    });

const item = (id: string) =>
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
function list(
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

const SKILL_NAMES = [...SKILLS, 'lockpicking', 'Z'.repeat(40)];

const rawSheet = fc
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
const validSheet = rawSheet.map((sheet) => {
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
});

/* ------------------------------------------------------------------------------------------------------------
 * Fights and walks: commands chosen from the state they are sent to.
 * ---------------------------------------------------------------------------------------------------------- */

/** Manual faces read from choices: none, all 1s (critical failures), all 6s, or random, each list 0–16 long. */
function faces(ch: Choices): ManualFaces {
  const list = (max: number) => {
    const n = ch.int(max + 1);
    const style = ch.int(5);
    return Array.from({ length: n }, () =>
      style === 0 ? 1 : style === 1 ? 6 : style === 2 ? 1 + ch.int(2) : 1 + ch.int(6),
    );
  };
  const f: ManualFaces = { dice: list(16) };
  if (ch.bool(2)) f.followUpFaces = list(4);
  if (ch.bool(4)) f.rerollFaces = list(6);
  return f;
}

interface Case {
  sheets: Record<string, unknown>[];
  sides: number[];
  places: number[][];
  setup: number[];
  steps: number[][];
}

const STEP = fc.array(fc.nat({ max: 0xffff }), { minLength: 48, maxLength: 48 });
const cases = fc.record({
  sheets: fc.array(validSheet, { minLength: 3, maxLength: 6 }),
  sides: fc.array(fc.nat({ max: 3 }), { minLength: 5, maxLength: 5 }),
  places: fc.array(fc.array(fc.nat({ max: 0xffff }), { minLength: 4, maxLength: 4 }), {
    minLength: 5,
    maxLength: 5,
  }),
  setup: fc.array(fc.nat({ max: 0xffff }), { minLength: 16, maxLength: 16 }),
  steps: fc.array(STEP, { minLength: 1, maxLength: 40, size: 'max' }),
});

interface Outcome {
  events: RuleEvent[] | undefined;
  refused?: RuleViolation;
}

/** One command decided on `state`, failing on anything but events or a RuleViolation, on an event that is not its declared data, a fold that throws or a view its declaration refuses. */
function step(
  state: ArchsoulState,
  command: RuleCommand,
  dice: DiceSource,
  history: RuleCommand[],
): [ArchsoulState, Outcome] {
  const where = () => `after ${JSON.stringify(history)}\n${JSON.stringify(command)}`;
  let events: RuleEvent[];
  try {
    events = system.decide(state, structuredClone(command), dice);
  } catch (e) {
    if (e instanceof RuleViolation) {
      if (!/^[A-Z][A-Z0-9_]*$/.test(e.code))
        throw new Error(`a RuleViolation without a code ${where()}`, { cause: e });
      return [state, { events: undefined, refused: e }];
    }
    throw new Error(`${where()}\nthrew ${String((e as Error)?.stack ?? e)}`, { cause: e });
  }
  let next = state;
  for (const event of events) {
    const schema = EVENT_SCHEMAS[event.type];
    if (!schema) throw new Error(`undeclared event ${event.type} ${where()}`);
    const parsed = schema.safeParse(event.data);
    if (!parsed.success)
      throw new Error(
        `${event.type} ${JSON.stringify(event.data)} is not its declared data: ${parsed.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')} ${where()}`,
      );
    try {
      next = system.evolve(next, event) as ArchsoulState;
    } catch (e) {
      throw new Error(`evolve could not fold ${event.type} ${JSON.stringify(event.data)} ${where()}`, {
        cause: e,
      });
    }
  }
  const sent = { ...system.view(next), seq: 1, headHash: '0'.repeat(64) };
  const view = ARCHSOUL_VIEW.safeParse(sent);
  if (!view.success)
    throw new Error(
      `the view breaks ARCHSOUL_VIEW: ${view.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')} ${where()}`,
    );
  return [next, { events }];
}

/** Plays a case: StartFight with the sheets, a map, placements, initiative, a round, then the walk. */
function play(k: Case, stats: { accepted: number; started: number }) {
  const setup = new Choices(k.setup);
  const seeded = setup.bool(3);
  const n = 2 + setup.int(4);
  const combatants = Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    name: `C${i}`,
    side: SIDES[k.sides[i]],
    sheet: k.sheets[i % k.sheets.length],
  }));
  const start: RuleCommand = {
    type: 'StartFight',
    name: 'Fuzz',
    dice: { mode: seeded ? 'seeded' : 'manual', commitment: TEST_COMMITMENT },
    combatants,
  };
  if (setup.bool(3)) start.options = { arrowBreakage: setup.bool() };
  let draws = 0;
  const history: RuleCommand[] = [];
  let state = system.start('fuzz') as ArchsoulState;
  const send = (command: RuleCommand, ch: Choices): Outcome => {
    const dice =
      seeded || ch.bool(3)
        ? new SeededDice({ seed: 'fuzz', fightId: 'fuzz', drawsUsed: draws })
        : new ManualDice(faces(ch));
    const [next, out] = step(state, command, dice, history);
    history.push(command);
    if (out.events) {
      state = next;
      if (dice instanceof SeededDice) draws = dice.drawsUsed;
      if (out.events.length) stats.accepted++;
    }
    return out;
  };
  if (!send(start, setup).events) throw new Error('StartFight refused valid sheets');
  stats.started++;
  if (setup.bool(3)) send(command(state, new Choices([setup.int(100), ...k.setup]), k.sheets), setup);
  const grid = setup.bool(3) ? 'square' : 'hex';
  if (grid === 'square' || setup.bool(4)) send({ type: 'SetMap', grid }, setup);
  for (let i = 0; i < n; i++) {
    const p = new Choices(k.places[i]);
    if (p.bool(12)) continue;
    send(
      {
        type: 'PlaceCombatant',
        combatantId: `c${i}`,
        position: { x: p.int(5) - 2, y: p.int(5) - 2 },
        facing: p.pick(p.bool(10) ? FACINGS : facings(grid)),
      },
      p,
    );
  }
  if (setup.bool(5)) send({ type: 'DeclareAmbush', party: setup.pick(['heroes', 'enemies']) }, setup);
  if (setup.bool(3)) send({ type: 'RollInitiative' }, setup);
  else send({ type: 'SetInitiative', order: combatants.map((c) => c.id) }, setup);
  if (state.pending && !seeded) send({ type: 'ProvideDice' }, setup);
  send({ type: 'StartRound' }, setup);
  for (const r of k.steps) {
    const ch = new Choices(r);
    send(command(state, ch, k.sheets), ch);
  }
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);

describe('Archsoul: random valid sheets in random fights never crash the decider', () => {
  it('every sheet the contract accepts is one validateSheet reads', () => {
    fc.assert(
      fc.property(rawSheet, (sheet) => {
        try {
          validateSheet(sheet, 'sheet');
        } catch (e) {
          if (!(e instanceof RuleViolation)) throw e;
        }
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
  });

  it('every command gives events that are their declared data and fold into a view ARCHSOUL_VIEW parses, or a RuleViolation with a code', () => {
    const stats = { accepted: 0, started: 0 };
    fc.assert(
      fc.property(cases, (k) => play(k, stats)),
      { numRuns: RUNS, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
    // The walks reach past validation: fights start and random commands change them.
    expect(stats.started).toBeGreaterThanOrEqual(RUNS);
    expect(stats.accepted).toBeGreaterThan(RUNS * 3);
  });
});
