import { RuleEvent } from '../../core/types';
import { evolve } from '../evolve';
import { ArchsoulState } from '../state';
import { endEntries } from './common';
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
  return Object.values(state.combatants)
    .filter((x) => x.id !== id)
    .flatMap((x) =>
      endEntries(
        x,
        (k) => k.untilNextTurn && k.sourceId === id,
        (k) => k.sourceId !== id,
        `ruling S76: ${id} left the fight`,
      ),
    );
}
