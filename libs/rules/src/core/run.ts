import { RuleEvent } from './types';

/** Adds events to a run: each is kept and folded into the state the next one is decided against. */
export type Push = (...events: RuleEvent[]) => void;

/** A command's events decided one after another (`push`), and the state they have made so far (`state()`). */
export interface Run<S> {
  readonly events: RuleEvent[];
  readonly push: Push;
  state(): S;
}

/** Starts a run at `state`; `evolve` is the system's fold. */
export function run<S>(state: S, evolve: (state: S, event: RuleEvent) => S): Run<S> {
  const events: RuleEvent[] = [];
  let s = state;
  const push: Push = (...es) => {
    for (const e of es) {
      events.push(e);
      s = evolve(s, e);
    }
  };
  return { events, push, state: () => s };
}
