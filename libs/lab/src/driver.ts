import {
  DiceSource,
  FightCore,
  RuleCommand,
  RuleEvent,
  RuleSystem,
  RuleViolation,
  SeededDice,
  seedCommitment,
} from '@app/rules';
import { renamedViolation } from './errors';

/** Setup commands roll no dice: a roll there is a lab bug, not a rule. */
export const NO_DICE: DiceSource = {
  roll: () => {
    throw new Error('the lab’s setup commands roll no dice');
  },
};

/**
 * Decides and folds a run's setup once (StartFight, then the GM's placing commands) through the system's own
 * decider; `rename` turns a refused field of the `index`-th command (0: StartFight) into the lab caller's field (`sheets[i]…`).
 */
export function decideSetup<S extends FightCore>(
  system: RuleSystem<S>,
  seed: string,
  start: RuleCommand,
  then: RuleCommand[],
  rename: (field: string, index: number) => string,
): S {
  let state = system.start('lab');
  const commands = [{ ...start, dice: { mode: 'seeded', commitment: seedCommitment(seed) } }, ...then];
  for (const [index, command] of commands.entries()) {
    let events: RuleEvent[];
    try {
      events = system.decide(state, command, NO_DICE);
    } catch (e) {
      if (e instanceof RuleViolation) throw renamedViolation(e, (field) => rename(field, index));
      throw e;
    }
    state = events.reduce(system.evolve, state);
  }
  return state;
}

/**
 * One fight's state, dice and refusals: `run` is the lab's own bookkeeping command (it must be legal), `propose`
 * is a strategy's, which the decider may refuse (counted in `illegal`, C5 dice for the fight id).
 */
export class Driver<S extends FightCore> {
  state: S;
  illegal = 0;
  private readonly dice: SeededDice;

  constructor(
    private readonly system: RuleSystem<S>,
    setup: S,
    seed: string,
    fightId: string,
    private readonly onEvent: (event: RuleEvent) => void,
  ) {
    this.state = { ...setup, fightId };
    this.dice = new SeededDice({ seed, fightId, drawsUsed: 0 });
  }

  run(command: RuleCommand): void {
    this.apply(this.system.decide(this.state, command, this.dice));
  }

  /** A strategy's proposal: true when the decider took it; a RuleViolation is counted instead of ending the run. */
  propose(command: RuleCommand): boolean {
    let events: RuleEvent[];
    try {
      events = this.system.decide(this.state, command, this.dice);
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      this.illegal++;
      return false;
    }
    this.apply(events);
    return true;
  }

  /** Like `run`, but a refusal is reported (false) without counting: for the lab's own fallbacks. */
  attempt(command: RuleCommand): boolean {
    try {
      this.run(command);
      return true;
    } catch (e) {
      if (e instanceof RuleViolation) return false;
      throw e;
    }
  }

  private apply(events: RuleEvent[]): void {
    for (const e of events) {
      this.state = this.system.evolve(this.state, e);
      this.onEvent(e);
    }
  }
}
