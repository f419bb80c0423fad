import fc from 'fast-check';
import { z } from 'zod';
import { FightCore, RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { DiceSource } from '../../src/dice/roll';
import { ManualDice } from '../../src/dice/manual';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { ARCANA_BEAST_CONTRACT, ARCANA_BEAST_VIEW, ArcanaBeastState } from '../../src/arcana-beast';
import { canActivate } from '../../src/arcana-beast/decide/turn';
import { TEST_COMMITMENT, TEST_SEED } from '../given';
import { Json, defined, maybe, Joiner, fighters, options } from './sheet-space';
import { commands, CONDITIONS, facesOf, HOSTILE, OPENING, Pick, weighted } from './command-space';

/**
 * Whatever a client sends, a decider answers with events or a RuleViolation: never another exception, never an
 * event its own evolve cannot fold or its schema does not declare, never a view that breaks ARCANA_BEAST_VIEW. The
 * fights here are made of random sheets the sheet contract accepts — every optional field present or absent, every
 * enum value, numbers at their bounds and between, empty and maximal lists, ids every object has — 2 to 5 of them,
 * some joining late, then random commands walk them with seeded or manual dice. FUZZ_RUNS and FUZZ_SEED explore
 * further than the default run.
 */
const system = findSystem('arcana-beast')!;
const FIGHT_ID = 'sheet-fuzz';

/** Every command, its fields hostile now and then (command-space.ts), and bare turn commands and Close bands. */
const command = fc.oneof(
  ...weighted(commands({ hostile: HOSTILE, everyField: true })),
  {
    weight: 4,
    arbitrary: fc.constantFrom('StartRound', 'StartActivation', 'EndActivation').map((type) => ({ type })),
  },
  {
    weight: 4,
    arbitrary: fc.nat().map((i) => ({
      type: 'SetBand',
      aId: { $: 'active' },
      bId: { $: 'other', i },
      band: 'close',
    })),
  },
);

const faces = fc
  .record({ dice: facesOf, rerollFaces: maybe(facesOf), followUpFaces: maybe(facesOf) })
  .map(defined);

const walk = fc.record({
  mode: fc.constantFrom('seeded', 'manual'),
  options,
  fighters,
  late: fc.nat(),
  opening: fc.oneof(
    { weight: 4, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  steps: fc.array(fc.tuple(command, faces), { minLength: 5, maxLength: 40 }),
});

function resolve(value: unknown, state: ArcanaBeastState, joiners: Joiner[]): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, state, joiners));
  if (typeof value !== 'object' || value === null) return value;
  if (!('$' in value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, state, joiners)]));
  const p = value as Pick;
  const at = <T>(xs: T[], i: number): T | string => (xs.length > 0 ? xs[i % xs.length] : 'ghost');
  const all = state.joined.map((j) => state.combatants[j]);
  const active = state.turn?.beastId ?? state.activeId;
  const activeSheet =
    active && Object.hasOwn(state.combatants, active) ? state.combatants[active].sheet : undefined;
  switch (p.$) {
    case 'combatant':
      return at([...state.joined, ...(state.removed ?? [])], p.i);
    case 'other':
      return at(
        state.joined.filter((j) => j !== active),
        p.i,
      );
    case 'active':
      return active ?? 'ghost';
    case 'binder':
      return state.turn?.binderId ?? 'ghost';
    case 'awaiting':
      return state.pending?.awaiting ?? 'ghost';
    case 'attack':
      return at(
        activeSheet?.kind === 'beast'
          ? activeSheet.attacks.map((a) => a.id)
          : all.flatMap((c) => (c.sheet.kind === 'beast' ? c.sheet.attacks.map((a) => a.id) : [])),
        p.i,
      );
    case 'special':
      return at(
        all.flatMap((c) => (c.sheet.kind === 'beast' ? c.sheet.specialAttacks.map((a) => a.id) : [])),
        p.i,
      );
    case 'item':
      return at(
        all.flatMap((c) => (c.sheet.kind === 'binder' ? c.sheet.inventory.map((x) => x.id) : [])),
        p.i,
      );
    case 'condition':
      return at([...all.flatMap((c) => c.conditions), ...CONDITIONS], p.i);
    case 'order': {
      const order = [...state.joined].sort(
        (a, b) =>
          (p.shuffle[state.joined.indexOf(a) % (p.shuffle.length || 1)] ?? 0) -
          (p.shuffle[state.joined.indexOf(b) % (p.shuffle.length || 1)] ?? 0),
      );
      // Each Binder right after its beast, as ruling A21 asks, most of the time.
      if (p.shuffle.length % 4 === 3) return order;
      const placed: string[] = [];
      for (const id of order) {
        const c = state.combatants[id];
        if (c.sheet.kind === 'binder' && state.joined.includes(c.sheet.beastId)) continue;
        placed.push(id);
        for (const b of order) {
          const s = state.combatants[b].sheet;
          if (s.kind === 'binder' && s.beastId === id) placed.push(b);
        }
      }
      return placed;
    }
    case 'joiner':
      return joiners.length > 0 ? joiners[p.i % joiners.length] : { id: 'ghost', name: 'ghost', sheet: {} };
  }
}

/** What the service sends as the view: parsed strictly against ARCANA_BEAST_VIEW, and unchanged by the parse. */
function checkView(state: FightCore, seq: number, after: string): void {
  const sent = { ...system.view(state), seq, headHash: seq.toString(16).padStart(64, '0') };
  const parsed = ARCANA_BEAST_VIEW.safeParse(sent);
  if (!parsed.success)
    throw new Error(`the view after ${after} breaks ARCANA_BEAST_VIEW:\n${z.prettifyError(parsed.error)}`);
  expect(parsed.data).toEqual(sent);
}

/** Every event the fights hold, the lifecycle's too (CombatantJoined with the sheet as recorded). */
const EVENT_SCHEMAS = eventSchemasOf(ARCANA_BEAST_CONTRACT);

function checkEvents(events: RuleEvent[], after: string): void {
  for (const e of events) {
    if (!Object.hasOwn(EVENT_SCHEMAS, e.type))
      throw new Error(`${after} gave a ${e.type}, which no schema declares`);
    const parsed = EVENT_SCHEMAS[e.type].safeParse(e.data);
    if (!parsed.success)
      throw new Error(`${after} gave a ${e.type} its schema refuses:\n${z.prettifyError(parsed.error)}`);
  }
}

describe('arcana-beast: random walks through fights of random valid sheets never crash the decider', () => {
  it('every command gives events its schemas declare and its evolve folds, with a view ARCANA_BEAST_VIEW declares, or a RuleViolation with a code', () => {
    let accepted = 0;
    fc.assert(
      fc.property(walk, ({ mode, options, fighters, late, opening, steps: random }) => {
        const split = fighters.length - (late % 3 === 0 ? Math.min(2, fighters.length - 1) : 0);
        const joiners = fighters.slice(split);
        const start: RuleCommand = {
          type: 'StartFight',
          name: 'Sheet fuzz',
          dice: { mode, commitment: TEST_COMMITMENT },
          options,
          combatants: fighters.slice(0, split),
        };
        let state = system.start(FIGHT_ID) as ArcanaBeastState;
        let seq = 0;
        // The sheets are valid: the fight starts with them.
        const started = system.decide(state, structuredClone(start), new ManualDice({}));
        checkEvents(started, 'StartFight');
        for (const e of started) {
          state = system.evolve(state, e) as ArcanaBeastState;
          checkView(state, ++seq, 'StartFight');
        }
        let draws = 0;
        const steps = opening
          ? [...OPENING.map((o, i) => [o, random[i % random.length][1]] as const), ...random]
          : random;
        const play = (plan: unknown, manual: Json): void => {
          const command = resolve(plan, state, joiners) as RuleCommand;
          const dice: DiceSource =
            mode === 'seeded'
              ? new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: draws })
              : new ManualDice(manual);
          const sent = mode === 'manual' ? { ...command, ...manual } : command;
          const what = `${command.type} ${JSON.stringify(sent)}`;
          let events: RuleEvent[];
          try {
            events = system.decide(state, structuredClone(sent), dice);
          } catch (e) {
            if (e instanceof RuleViolation) {
              expect(e.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
              return;
            }
            throw new Error(`${what} threw ${String((e as Error)?.stack ?? e)}`, { cause: e });
          }
          if (dice instanceof SeededDice) draws = dice.drawsUsed;
          checkEvents(events, what);
          for (const e of events) {
            try {
              state = system.evolve(state, e) as ArcanaBeastState;
            } catch (err) {
              throw new Error(
                `${what}: evolve could not fold ${JSON.stringify(e)}: ${String((err as Error)?.stack ?? err)}`,
                { cause: err },
              );
            }
            checkView(state, ++seq, `${e.type} of ${what}`);
          }
          // No decide or evolve changed a combatant in place (view.ts keeps unchanged entries).
          expect(JSON.stringify(system.view(state))).toBe(
            JSON.stringify(system.view(structuredClone(state))),
          );
          accepted += events.length > 0 ? 1 : 0;
        };
        const pendingKind = (): string | undefined => state.pending?.kind;
        for (const [plan, manual] of steps) {
          // A command for the running turn's beast or Binder, with no turn running, starts the next one first.
          const forTurn = /"\$":"(active|binder)"/.test(JSON.stringify(plan));
          // A turn whose Action is taken ends first, half the time.
          if (
            forTurn &&
            state.turn?.action !== undefined &&
            !state.pending &&
            manual.dice &&
            (manual.dice as number[]).length % 2
          )
            play({ type: 'EndActivation' }, manual);
          if (forTurn && !state.turn && !state.pending) {
            const order = { type: 'SetInitiative', order: { $: 'order', shuffle: [] } };
            if (state.order.length === 0) play({ type: 'RollInitiative' }, manual);
            // `play` folds new events into `state`: what RollInitiative left pending is read afresh.
            if (pendingKind() === 'initiativeTie') play(order, manual);
            const waiting = state.order.filter(
              (id) => !state.actedThisRound.includes(id) && canActivate(state, id),
            );
            if (state.roundOpen && waiting.length === 0) play({ type: 'EndRound' }, manual);
            if (!state.roundOpen) play({ type: 'StartRound' }, manual);
            play({ type: 'StartActivation' }, manual);
          }
          play(plan, manual);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 100), seed: Number(process.env.FUZZ_SEED ?? 20261201) },
    );
    // The walks reach past validation: many random commands are legal and change the fight.
    expect(accepted).toBeGreaterThan(100);
  });
});
