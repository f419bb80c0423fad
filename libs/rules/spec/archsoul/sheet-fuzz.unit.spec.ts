import fc from 'fast-check';
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { DiceSource } from '../../src/dice/roll';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import { ARCHSOUL_CONTRACT, ARCHSOUL_VIEW, ArchsoulState, validateSheet } from '../../src/archsoul';
import { TEST_COMMITMENT } from '../given';
import { Choices, command, openFight, SIDES } from './command-space';
import { rawSheet, validSheet } from './sheet-space';

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
  openFight(setup, k.places, combatants, send, () => !seeded && !!state.pending);
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
