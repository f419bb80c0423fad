import { RuleEvent } from '../../core/types';
import { ev, Space } from '../events';
import { spaces } from '../space';
import { NarateerCombatant, NarateerState, unseenBy } from '../state';
import { ableToAct, hasEffect } from './common';

/**
 * N60: "You must be able to perceive the creature" — perceiving is more than seeing (N56). The engine knows that a
 * reactor cannot perceive the mover only when it can neither see it (it is Blinded, or the mover Invisible) nor hear
 * it (it is Deafened): "If can't see or hear, Blinded or Deafened". A reactor that only cannot see attacks with
 * Disadvantage (N31); one that perceives nothing in the fiction declines.
 */
export function cannotPerceive(r: NarateerCombatant, mover: NarateerCombatant): boolean {
  return unseenBy(mover, r) && hasEffect(r, 'cannotHear');
}

/**
 * narateer.txt: Opportunity Attacks — perceive the mover (N60); the step starts and ends within the reactor's melee
 * reach, the longest reach of its melee weapons (N42); a melee weapon that reaches the mover's new Space and whose
 * cost it can pay in Ready AD. Collapsed and Withdrawn never react (N20).
 */
export function canReact(r: NarateerCombatant, mover: NarateerCombatant, from: Space, to: Space): boolean {
  if (!r.position || !ableToAct(r) || cannotPerceive(r, mover)) return false;
  const pos = r.position;
  let reach = 0;
  for (const w of r.sheet.weapons) if (w.kind === 'melee') reach = Math.max(reach, w.reach);
  if (spaces(pos, from) > reach || spaces(pos, to) > reach) return false;
  return r.sheet.weapons.some(
    (w) => w.kind === 'melee' && w.baseAttackCost <= r.ad.ready && spaces(pos, to) <= w.reach,
  );
}

/** Opponents who can react to one step, in initiative order (table order without initiative). */
export function reactorsFor(state: NarateerState, moverId: string, from: Space, to: Space): string[] {
  const mover = state.combatants[moverId];
  const order = state.order.length > 0 ? state.order : state.joined;
  return order.filter(
    (id) =>
      id !== moverId &&
      state.combatants[id].side !== mover.side &&
      canReact(state.combatants[id], mover, from, to),
  );
}

/**
 * N24: after an opportunity is resolved or declined, re-check the next reactor and offer it, or finish. The reactor
 * is re-checked, not the mover: the next reactor may still attack a mover that fell to an earlier attack (N45).
 */
export function opportunityFollowUps(state: NarateerState): RuleEvent[] {
  const q = state.opportunity;
  if (!q) return [];
  const mover = state.combatants[q.moverId];
  const events: RuleEvent[] = [];
  for (const reactorId of q.remaining) {
    if (mover.position && canReact(state.combatants[reactorId], mover, mover.position, mover.position)) {
      events.push(ev('OpportunityOffered', { moverId: q.moverId, reactorId }));
      return events;
    }
    events.push(
      ev('OpportunityLapsed', {
        moverId: q.moverId,
        reactorId,
        reason: 'can no longer perceive, reach or pay for an attack',
      }),
    );
  }
  events.push(ev('OpportunitiesFinished', { moverId: q.moverId }));
  return events;
}
