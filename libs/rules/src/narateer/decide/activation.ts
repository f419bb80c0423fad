import { RuleEvent } from '../../core/types';
import { DiceSource } from '../../dice/roll';
import { ev } from '../events';
import { combatState, NarateerState } from '../state';
import { expireConditions } from './conditions';
import { tickLingeringHarm } from './lingering';

/** RULINGS.md N20: Collapsed and Withdrawn combatants get no activations. */
export function canActivate(state: NarateerState, id: string): boolean {
  const c = state.combatants[id];
  return c !== undefined && combatState(c) === 'Active';
}

/** RULINGS.md C7/N3/N17: Used AD and MD become Ready (Wounded stay) and proactive uses reset. */
export function onActivationStart(state: NarateerState, id: string): RuleEvent[] {
  const c = state.combatants[id];
  return [
    ev('DiceRefreshed', {
      combatantId: id,
      ad: { ready: c.ad.ready + c.ad.used, used: 0, wounded: c.ad.wounded },
      md: { ready: c.md.ready + c.md.used, used: 0, wounded: c.md.wounded },
    }),
  ];
}

/** RULINGS.md N16/N19: Lingering Harm ticks, then conditions measured in rounds run out. */
export function onRoundEnd(state: NarateerState, dice: DiceSource): RuleEvent[] {
  return [...tickLingeringHarm(state, dice), ...expireConditions(state)];
}
