import { HandOverStep, settledBefore, stepsOf } from '../../core/handed-over';
import { LifecycleHooks, lifecycleStep, roundEndsEmpty } from '../../core/lifecycle';
import { run } from '../../core/run';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ContinuationTrigger, ev } from '../events';
import { evolve } from '../evolve';
import { LingeringTick, NarateerState } from '../state';
import { closeAfterTick, resumeTicks } from './activation';
import { expireConditions } from './conditions';
import { expireLingeringHarm, tickLingeringHarm } from './lingering';
import { opportunityFollowUps } from './reactors';
import { CONTINUATION_CHECK, continuationCheck } from './wounds';

/**
 * N61: the held rest of a command whose Continuation Check waited for the checking combatant, decided with the faces
 * it gives: the check, then what the command still had to do after it (`then`), each on the state the check leaves, as
 * the whole command sent with every face would have done. Refused as unknown when no check is due for it.
 */
export function decideContinuation(
  state: NarateerState,
  command: RuleCommand,
  dice: DiceSource,
  hooks: LifecycleHooks<NarateerState>,
): RuleEvent[] {
  const c = typeof command.combatantId === 'string' ? state.combatants[command.combatantId] : undefined;
  if (c === undefined || state.continuationDue !== c.id)
    violation('UNKNOWN_COMMAND', `narateer has no command ${CONTINUATION_CHECK}`, 'type');
  const r = run(state, evolve);
  r.push(continuationCheck(c, command.triggers as ContinuationTrigger[], dice));
  const then = stepsOf(command);
  then.forEach((step, i) =>
    r.push(
      ...settledBefore([...r.events], () => decideStep(r.state(), step, dice, hooks), ...then.slice(i + 1)),
    ),
  );
  return r.events;
}

/** One thing the command did after the check, decided again on the state the check left. */
function decideStep(
  state: NarateerState,
  step: HandOverStep,
  dice: DiceSource,
  hooks: LifecycleHooks<NarateerState>,
): RuleEvent[] {
  switch (step.step) {
    case 'followUps':
      // N24: the queue, its mover and the reactors still to offer are as the exchange left them.
      return opportunityFollowUps(state);
    case 'tickEnded':
      // N38: the tick the check followed was the instance's last.
      return [
        ev('LingeringHarmEnded', {
          combatantId: step.combatantId as string,
          lingeringHarmId: step.lingeringHarmId as string,
          form: step.form as string,
          reason: 'ticks',
        }),
      ];
    case 'ticks':
      return tickLingeringHarm(state, step.tick as LingeringTick, step.ids as string[], dice).events;
    case 'expire':
      // N16/N19: after the round's ticks, unless one waits for an allocation (onRoundEnd).
      return state.pending ? [] : [...expireLingeringHarm(state), ...expireConditions(state)];
    case 'resumeTicks':
      return resumeTicks(state, step.tick as LingeringTick, step.combatantId as string, dice);
    case 'closeAfterTick':
      return closeAfterTick(state, step.tick as LingeringTick, dice);
    case 'roundLeftEmpty':
      return roundEndsEmpty(state, dice, hooks);
  }
  return (
    lifecycleStep(state, step, dice, hooks) ?? violation('UNKNOWN_COMMAND', `no step ${step.step}`, 'type')
  );
}
