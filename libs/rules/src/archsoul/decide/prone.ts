import { RuleEvent } from '../../core/types';
import { ev } from '../events';
import { ArchsoulCombatant, hasCondition } from '../state';

/**
 * A combatant knocked down (archsoul.txt: Knockdown "knocked to the ground", Takedown and Throw "knocked down", the
 * unarmed table's "knocking yourself down"): prone unless it already is; a rider knocked to the ground comes off its
 * mount, which waits in the rider's space (S35, as a fall does, S40, and an interrupted Charge).
 */
export function knockedDown(c: ArchsoulCombatant, reason: string): RuleEvent[] {
  const out: RuleEvent[] = [];
  if (c.mounted)
    out.push(
      ev('Dismounted', {
        combatantId: c.id,
        reason: `ruling S35: knocked to the ground (${reason})`,
        ...(c.position ? { at: c.position } : {}),
      }),
    );
  if (!hasCondition(c, 'prone'))
    out.push(
      ev('ConditionApplied', {
        combatantId: c.id,
        condition: 'prone',
        amount: 1,
        untilNextTurn: false,
        reason,
      }),
    );
  return out;
}
