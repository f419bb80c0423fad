import { RuleEvent } from '../../core/types';
import { evolve } from '../evolve';
import { ArchsoulState, grapplesOf } from '../state';
import { endGrapple } from './grapple';

/**
 * S49: a combatant removed from the fight first leaves its grapples: they end and its partners are free
 * (a pending decision, which could involve it, must be cancelled before RemoveCombatant, C4).
 */
export function leave(state: ArchsoulState, removal: RuleEvent[]): RuleEvent[] {
  const id = (removal[0].data as { combatantId: string }).combatantId;
  const out: RuleEvent[] = [];
  let s = state;
  for (const g of grapplesOf(state, id)) {
    const ended = endGrapple(s, g, `${id} left the fight`);
    out.push(...ended);
    s = ended.reduce(evolve, s);
  }
  return [...out, ...removal];
}
