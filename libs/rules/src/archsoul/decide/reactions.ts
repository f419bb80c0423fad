import { RuleEvent } from '../../core/types';
import { ev } from '../events';
import { Space } from '../grid';
import { evolve } from '../evolve';
import { ArchsoulState, HeldAction, ReactionQueue, Trigger } from '../state';
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

/**
 * S18: the next reactor is checked again and offered, or lapses; after a prevention the rest lapse. S20: a sequence
 * that interrupted another (a reactive attack left its attacker open) finishes into it, and that one goes on where it was.
 */
export function followUps(state: ArchsoulState): RuleEvent[] {
  const events: RuleEvent[] = [];
  let s = state;
  for (;;) {
    const q = s.reaction;
    if (!q || q.current) return events;
    const next = nextOf(s, q);
    events.push(...next);
    if (next[next.length - 1].type !== 'ReactionsFinished' || !q.interrupted?.length) return events;
    s = next.reduce(evolve, s);
  }
}

/** One sequence's next step: the next reactor who can react offered (those who cannot lapse), or its end. */
function nextOf(state: ArchsoulState, q: ReactionQueue): RuleEvent[] {
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
