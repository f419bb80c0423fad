import { bad } from '../../core/fields';
import { LifecycleHooks, readCombatant, tieBreakIds } from '../../core/lifecycle';
import { MAX_COMBATANTS } from '../../core/lifecycle-contract';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { knownEnemyTotal, orderedParties } from '../initiative';
import { ArchsoulState, partyOf } from '../state';

/**
 * Ruling S107, C10 with Archsoul's units: the GM's one roll for all enemies (archsoul.txt: Turn Order)
 * makes the enemies one unit, which ties and is tie-broken as one (S16). Checked before any die rolls, after the
 * checks the shared lifecycle makes first (the fight's state, the joiner), as C10's are: a `tieBreak` is refused where
 * the roll orders one unit alone, and where it would split the enemies. Any other command passes untouched.
 */
export function checkTieBreak(
  state: ArchsoulState,
  command: RuleCommand,
  hooks: LifecycleHooks<ArchsoulState>,
): void {
  if (command.tieBreak === undefined || state.status === 'new' || state.status === 'ended' || state.pending)
    return;
  if (command.type === 'RollInitiative' && state.order.length === 0) {
    const ids = state.joined.filter((id) => hooks.canActivate(state, id));
    // One combatant alone, or none: the shared lifecycle refuses it (C10, NO_COMBATANTS).
    if (ids.length > 1) checkUnits(state, ids, command.tieBreak);
  }
  if (command.type === 'AddCombatant' && state.order.length > 0 && state.joined.length < MAX_COMBATANTS) {
    const c = readCombatant(command.combatant, 'combatant', state, hooks, new Set());
    const joined = hooks.evolve(state, { type: 'CombatantJoined', data: { ...c } });
    const { enemies } = orderedParties(joined, [c.id]);
    // S109: an enemy joining enemies who have the GM's roll rolls nothing, a roll-off neither: it ties with no one.
    if (enemies.includes(c.id) && knownEnemyTotal(joined, enemies, [c.id]) !== undefined)
      bad(
        'tieBreak',
        `is not used when enemy ${c.id} joins: it shares the enemies’ initiative (${enemies.filter((id) => id !== c.id).join(', ')}) and takes their place, rolling nothing, so nothing can tie (docs/rulings.md C10, rulings S16, S109)`,
      );
    checkUnits(joined, [c.id], command.tieBreak);
  }
}

/** The units `ids` roll into (with the order's others): one alone ties with nothing; the enemies stay together. */
function checkUnits(state: ArchsoulState, ids: string[], raw: unknown): void {
  const { heroes, enemies } = orderedParties(state, ids);
  if (heroes.length + (enemies.length > 0 ? 1 : 0) < 2)
    bad(
      'tieBreak',
      heroes.length > 0
        ? `is not used when ${heroes[0]} alone is ordered: nothing can tie (docs/rulings.md C10, ruling S107)`
        : `is not used when the enemies (${enemies.join(', ')}) alone are ordered: the GM makes one roll for all enemies (archsoul.txt: Turn Order), so nothing can tie (docs/rulings.md C10, ruling S107)`,
    );
  const named = tieBreakIds(state, raw);
  const unit = named.filter((id) => enemies.includes(id));
  if (unit.length === 0) return;
  const unnamed = enemies.filter((id) => !unit.includes(id));
  if (unnamed.length > 0)
    bad(
      'tieBreak',
      `names ${unit.join(', ')} but not ${unnamed.join(', ')}: the enemies share the GM’s one roll and tie as one (ruling S16); name all of them side by side, or none (ruling S107)`,
    );
  // Only the ids this roll orders can stand between them (a Down combatant that rolls nothing stands unused, C10).
  const ordered = named
    .map((id, i) => ({ id, i }))
    .filter((x) => heroes.includes(x.id) || enemies.includes(x.id));
  const first = ordered.findIndex((x) => enemies.includes(x.id));
  const gap = ordered.findIndex(
    (x, k) => k > first && enemies.includes(x.id) && !enemies.includes(ordered[k - 1].id),
  );
  if (gap >= 0)
    bad(
      `tieBreak[${ordered[gap].i}]`,
      `names ${ordered[gap].id} after ${ordered[gap - 1].id}, who is named after ${ordered[first].id}: the enemies share the GM’s one roll and are ordered together (rulings S16, S107)`,
    );
}

/**
 * Ruling S107: SetInitiative's order keeps the enemies side by side, as the GM's one roll for all of them ranks them
 * (archsoul.txt: Turn Order), whoever sets it (the GM, or the surprising party of an ambush); a hero may stand
 * anywhere else. `events` are the shared lifecycle's, which checked the ids.
 */
export function checkOrder(state: ArchsoulState, events: RuleEvent[]): void {
  const set = events.find((e) => e.type === 'InitiativeSet');
  if (!set) return;
  const order = set.data.order as string[];
  const enemy = (id: string) => partyOf(state.combatants[id].side) === 'enemies';
  const first = order.findIndex(enemy);
  const gap = order.findIndex((id, i) => i > first && enemy(id) && !enemy(order[i - 1]));
  if (first >= 0 && gap >= 0)
    violation(
      'INITIATIVE_ORDER_INVALID',
      `ruling S107: ${order[gap]} stands after ${order[gap - 1]}, who stands after ${order[first]}: the enemies share the GM’s one initiative roll (archsoul.txt: Turn Order) and are ordered side by side`,
      `order[${gap}]`,
    );
}
