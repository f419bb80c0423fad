import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../src/core/types';
import { RuleViolation } from '../src/core/violation';
import { ManualDice, ManualFaces } from '../src/dice/manual';

/** Commands decided as the fight service decides them, for the specs of manual dice and dice requests. */
export function stateOf(system: RuleSystem<FightCore>, events: RuleEvent[]): FightCore {
  return events.reduce(system.evolve, system.start('f1'));
}

/** As the fight service decides a command: manual faces from the command, every face used (C6). */
export function decide(
  system: RuleSystem<FightCore>,
  events: RuleEvent[],
  command: RuleCommand,
): RuleEvent[] {
  const dice = new ManualDice(command as ManualFaces);
  const out = system.decide(stateOf(system, events), command, dice);
  dice.assertAllUsed();
  return out;
}

export function refusal(
  system: RuleSystem<FightCore>,
  events: RuleEvent[],
  command: RuleCommand,
): RuleViolation {
  try {
    decide(system, events, command);
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error(`expected ${command.type} to be refused`);
}
