import { RuleEvent } from '../../core/types';
import { ev } from '../events';
import { evolve } from '../evolve';
import { ArchsoulState } from '../state';
import { endGrapplesOf } from './grapple';

/**
 * S49: a combatant removed from the fight first leaves its grapples: they end and its partners are free
 * (a pending decision, which could involve it, must be cancelled before RemoveCombatant, C4). Ruling S76: what it
 * caused "until your next turn" on others (a Soul Shield) ends as it leaves.
 */
export function leave(state: ArchsoulState, removal: RuleEvent[]): RuleEvent[] {
  const id = (removal[0].data as { combatantId: string }).combatantId;
  const out = endGrapplesOf(state, id, `${id} left the fight`);
  return [...out, ...causedUntilNextTurn(out.reduce(evolve, state), id), ...removal];
}

/**
 * Ruling S76: C7's "until your next turn" ends at the caster's next turn, and a combatant who left has none: its Soul
 * Shield on an ally ends now. ConditionRemoved takes every entry of the kind, so another caster's shield on the same
 * ally is applied again, unchanged.
 */
function causedUntilNextTurn(state: ArchsoulState, id: string): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const x of Object.values(state.combatants)) {
    if (x.id === id) continue;
    const kinds = new Set(
      x.conditions.filter((k) => k.untilNextTurn && k.sourceId === id).map((k) => k.condition),
    );
    for (const condition of kinds) {
      events.push(
        ev('ConditionRemoved', { combatantId: x.id, condition, reason: `ruling S76: ${id} left the fight` }),
      );
      for (const k of x.conditions.filter((k) => k.condition === condition && k.sourceId !== id))
        events.push(
          ev('ConditionApplied', {
            combatantId: x.id,
            condition,
            amount: k.amount,
            untilNextTurn: k.untilNextTurn,
            reason: `kept: ${condition} from ${k.sourceId ?? x.id}`,
            ...(k.sourceId ? { sourceId: k.sourceId } : {}),
          }),
        );
    }
  }
  return events;
}
