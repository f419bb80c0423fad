import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../src/core/types';
import { RuleViolation } from '../src/core/violation';
import { DiceSource } from '../src/dice/roll';
import { ManualDice, ManualFaces } from '../src/dice/manual';
import { SeededDice, seedCommitment } from '../src/dice/seeded';

export const TEST_SEED = 'test-seed';
export const TEST_COMMITMENT = seedCommitment(TEST_SEED);

/** Given these events, when this command with these dice, then these events or this violation. */
export function given<S extends FightCore>(system: RuleSystem<S>, events: RuleEvent[], fightId = 'f1') {
  const state = events.reduce(system.evolve, system.start(fightId));
  return {
    state,
    when(command: RuleCommand, dice: DiceSource | ManualFaces = {}) {
      const source = 'roll' in dice ? dice : new ManualDice(dice);
      const run = () => system.decide(state, command, source);
      return {
        events: () => run(),
        violation: (): RuleViolation => {
          try {
            run();
          } catch (e) {
            if (e instanceof RuleViolation) return e;
            throw e;
          }
          throw new Error('expected a RuleViolation, got events');
        },
        state: () => run().reduce(system.evolve, state),
      };
    },
  };
}

export function fightStarted(system: string, mode: 'fair' | 'seeded' | 'manual' = 'manual'): RuleEvent {
  return {
    type: 'FightStarted',
    data: { system, name: 'Test', dice: { mode, commitment: TEST_COMMITMENT, clientSeed: '' }, options: {} },
  };
}

/** The events `command` decides, checking that it used exactly the manual faces given (C6). */
export function decideExact<S extends FightCore>(
  system: RuleSystem<S>,
  events: RuleEvent[],
  command: RuleCommand,
  faces: ManualFaces = {},
): RuleEvent[] {
  const dice = new ManualDice(faces);
  const out = given(system, events).when(command, dice).events();
  dice.assertAllUsed();
  return out;
}

/** The data of the first event of `type`; fails naming the types present. */
export function find(events: RuleEvent[], type: string): Record<string, any> {
  const e = events.find((x) => x.type === type);
  if (!e) throw new Error(`no ${type} in ${events.map((x) => x.type).join(', ')}`);
  return e.data as Record<string, any>;
}

export function types(events: RuleEvent[]): string[] {
  return events.map((e) => e.type);
}

/** What the decider makes of a command (its events, or the violation's code and field), with the same seeded dice every time. */
export function decidedSeeded<S extends FightCore>(
  system: RuleSystem<S>,
  state: S,
  command: RuleCommand,
): string {
  try {
    return JSON.stringify(
      system.decide(state, command, new SeededDice({ seed: TEST_SEED, fightId: 'f1', drawsUsed: 0 })),
    );
  } catch (e) {
    if (e instanceof RuleViolation) return `${e.code} ${e.field}`;
    throw e;
  }
}
