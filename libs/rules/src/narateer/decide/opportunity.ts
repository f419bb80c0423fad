import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { NarateerCommand } from '../commands';
import { ev } from '../events';
import { NarateerState } from '../state';
import { buildDeclaration, completeDeclaration } from './exchange';
import { opportunityFollowUps } from './reactors';

/** narateer.txt: Resolving the Attack — a Melee Exchange outside the reactor's activation, no proactive use (N5). */
export function takeOpportunityAttack(
  state: NarateerState,
  command: NarateerCommand<'TakeOpportunityAttack'>,
  dice: DiceSource,
): RuleEvent[] {
  const q = state.opportunity;
  ensure(q?.current, 'NARATEER_NO_OPPORTUNITY', 'no Opportunity Attack is on offer', 'type');
  const id = combatantId(state, command.combatantId, 'combatantId');
  ensure(
    id === q.current,
    'NARATEER_NOT_YOUR_OPPORTUNITY',
    `ruling N24: the opportunity is offered to ${q.current}, not ${id}`,
    'combatantId',
  );
  const declared = buildDeclaration(state, id, q.moverId, 'melee', command);
  declared.opportunity = true;
  return completeDeclaration(state, declared, command, dice);
}

export function declineOpportunity(
  state: NarateerState,
  command: NarateerCommand<'DeclineOpportunity'>,
): RuleEvent[] {
  const q = state.opportunity;
  ensure(q?.current, 'NARATEER_NO_OPPORTUNITY', 'no Opportunity Attack is on offer', 'type');
  const id = combatantId(state, command.combatantId, 'combatantId');
  ensure(
    id === q.current,
    'NARATEER_NOT_YOUR_OPPORTUNITY',
    `ruling N24: the opportunity is offered to ${q.current}, not ${id}`,
    'combatantId',
  );
  return [ev('OpportunityDeclined', { moverId: q.moverId, reactorId: id }), ...opportunityFollowUps(state)];
}

/**
 * N29 with narateer.txt: Resolving the Attack ("Finish these Reactions before the next step"): a cancelled
 * response withdraws the attack as if undeclared, so its reactor holds the offer again; cancelled Wounds are
 * dropped and the queue goes on as after an answered allocation. Only a cancelled offer ends the queue.
 * PendingCancelled still folds as it always has (the queue cleared with the exchange), so logs written
 * before this keep their meaning; the queue that goes on is identified again after it, then offered.
 */
export function queueAfterCancel(state: NarateerState): RuleEvent[] {
  const q = state.opportunity;
  const x = state.exchange;
  if (!q || !x?.opportunity) return [];
  const again = (reactorIds: string[]) =>
    ev('OpportunitiesIdentified', { moverId: q.moverId, step: q.step, reactorIds });
  if (state.pending?.kind === 'exchangeResponse')
    return [
      again([x.attackerId, ...q.remaining]),
      ev('OpportunityOffered', { moverId: q.moverId, reactorId: x.attackerId }),
    ];
  if (state.pending?.kind !== 'woundAllocation' || q.remaining.length === 0) return [];
  return [again(q.remaining), ...opportunityFollowUps(state)];
}
