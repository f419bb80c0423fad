import { DiceShortfall } from '../dice/manual';
import { RuleCommand, RuleEvent } from './types';

/** What a held roll's rest does after the roll, in order (N61): each step is decided on the state the roll leaves. */
export interface HandOverStep {
  step: string;
  [field: string]: unknown;
}

/**
 * A later draw that is another combatant's roll (Arcana Beast's Devolution Test at 0 HP, A36; Narateer's
 * Continuation Check, N61): what the command decided before it stands (`settled`), and `rest`, the roll with what
 * waits for its result (`rest.then`), is held for the faces, awaiting `awaiting`. A decider used on its own surfaces it
 * as the C6 refusal it extends.
 */
export class RollHandedOver extends DiceShortfall {
  constructor(
    shortfall: DiceShortfall,
    readonly settled: RuleEvent[],
    readonly rest: RuleCommand,
    readonly awaiting: string,
  ) {
    super(shortfall.need, shortfall.have, shortfall.from);
  }

  /** The same roll, with `before` among the events that stand and `then` after what its rest already does. */
  after(before: readonly RuleEvent[], then: readonly HandOverStep[]): RollHandedOver {
    const rest = then.length === 0 ? this.rest : { ...this.rest, then: [...stepsOf(this.rest), ...then] };
    return new RollHandedOver(this, [...before, ...this.settled], rest, this.awaiting);
  }
}

/** The steps a held rest does after its roll. */
export function stepsOf(rest: RuleCommand): HandOverStep[] {
  return Array.isArray(rest.then) ? (rest.then as HandOverStep[]) : [];
}

/**
 * Decides a part of a command: when a roll in it is handed over (N61), the events `before` it stand with the
 * part's own, and `then` waits with the roll, after what the part still had to do.
 */
export function settledBefore<T>(
  before: readonly RuleEvent[],
  decide: () => T,
  ...then: (HandOverStep | undefined)[]
): T {
  try {
    return decide();
  } catch (e) {
    if (!(e instanceof RollHandedOver)) throw e;
    throw e.after(
      before,
      then.filter((s): s is HandOverStep => s !== undefined),
    );
  }
}
