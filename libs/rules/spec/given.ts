import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../src/core/types';
import { RuleViolation } from '../src/core/violation';
import { DiceSource } from '../src/dice/roll';
import { ManualDice, ManualFaces } from '../src/dice/manual';
import { seedCommitment } from '../src/dice/seeded';

export const TEST_SEED = 'test-seed';
export const TEST_COMMITMENT = seedCommitment(TEST_SEED);

/** Given these events, when this command with these dice, then these events or this violation. */
export function given<S extends FightCore>(system: RuleSystem<S>, events: RuleEvent[], fightId = 'f1') {
  const state = events.reduce(system.evolve, system.start(fightId));
  return {
    state,
    when(command: RuleCommand, dice: DiceSource | ManualFaces = {}) {
      const source = 'roll' in dice ? (dice as DiceSource) : new ManualDice(dice as ManualFaces);
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
  return { type: 'FightStarted', data: { system, name: 'Test', dice: { mode, commitment: TEST_COMMITMENT, clientSeed: '' }, options: {} } };
}
