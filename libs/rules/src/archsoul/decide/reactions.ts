import { RuleEvent } from '../../core/types';
import { ev } from '../events';
import { Space } from '../grid';
import { ArchsoulState, HeldAction, Trigger } from '../state';
import { canReact, reactorsFor } from './common';

/**
 * archsoul.txt: Reactive Attack; S18: the action is held (its AP already spent), the reactors are
 * identified together in initiative order and offered one at a time. Returns [] when nobody can react.
 */
export function triggerReactions(
  state: ArchsoulState,
  actorId: string,
  trigger: Trigger,
  space: Space,
  action: HeldAction | undefined,
  skip: string[] = [],
): RuleEvent[] {
  const reactorIds = reactorsFor(state, actorId, space, skip);
  if (reactorIds.length === 0) return [];
  return [
    ev('ReactiveAttackTriggered', { actorId, trigger, reactorIds, ...(action ? { action } : {}) }),
    ev('ReactiveAttackOffered', { actorId, reactorId: reactorIds[0] }),
  ];
}

/** S18: the next reactor is checked again and offered, or lapses; after a prevention the rest lapse. */
export function followUps(state: ArchsoulState): RuleEvent[] {
  const q = state.reaction;
  if (!q || q.current) return [];
  const actor = state.combatants[q.actorId];
  const events: RuleEvent[] = [];
  for (const reactorId of q.remaining) {
    const r = state.combatants[reactorId];
    if (!q.prevented && actor.position && r && canReact(state, r, actor.position)) {
      events.push(ev('ReactiveAttackOffered', { actorId: q.actorId, reactorId }));
      return events;
    }
    events.push(
      ev('ReactiveAttackLapsed', {
        actorId: q.actorId,
        reactorId,
        reason: q.prevented ? 'the action was prevented' : 'can no longer react',
      }),
    );
  }
  events.push(
    ev('ReactionsFinished', {
      actorId: q.actorId,
      prevented: q.prevented,
      ...(q.action ? { action: q.action } : {}),
    }),
  );
  return events;
}
