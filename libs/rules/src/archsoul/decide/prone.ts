import { RuleEvent } from '../../core/types';
import { ev } from '../events';
import { ArchsoulCombatant, hasCondition } from '../state';

/**
 * A rider leaving its mount without choosing to (S35): the mount waits in the space the rider is in now, as after a
 * fall (S40) or an interrupted Charge. Nothing when the combatant rides nothing.
 */
export function offTheMount(c: ArchsoulCombatant, reason: string): RuleEvent[] {
  return c.mounted
    ? [ev('Dismounted', { combatantId: c.id, reason, ...(c.position ? { at: c.position } : {}) })]
    : [];
}

/**
 * A combatant knocked down (archsoul.txt: Knockdown "knocked to the ground", Takedown and Throw "knocked down", the
 * unarmed table's "knocking yourself down") or dropping to the ground (Free Actions): prone unless it already is; a
 * rider on the ground comes off its mount, which waits in the rider's space (S35, as a fall does, S40, and an
 * interrupted Charge).
 */
export function knockedDown(
  c: ArchsoulCombatant,
  reason: string,
  dismountReason = `ruling S35: knocked to the ground (${reason})`,
): RuleEvent[] {
  const out: RuleEvent[] = offTheMount(c, dismountReason);
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
