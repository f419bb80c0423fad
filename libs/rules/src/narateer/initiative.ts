import { InitiativeResult, InitiativeRoll } from '../core/lifecycle';
import { DiceSource } from '../dice/roll';
import { dots, NARATEER_DIE_SIDES } from './data';
import { NarateerState } from './state';

/**
 * N4/N15: a Side Roll of Agility dice; higher total first, ties by higher Agility, then the GM.
 * N16: a late joiner rolls and is slotted in by the recorded totals; where the GM set the order (N40), the
 * totals say nothing about it, so the GM places the newcomer (a pending decision answered by SetInitiative).
 */
export function rollInitiative(state: NarateerState, ids: string[], dice: DiceSource): InitiativeResult {
  const rolls: InitiativeRoll[] = ids.map((id) => {
    const roll = dice.roll(Math.max(0, state.combatants[id].sheet.vitals.agility), NARATEER_DIE_SIDES);
    return { combatantId: id, roll, total: roll.faces.reduce((t, f) => t + dots(f), 0) };
  });
  const known = new Map<string, number>();
  const previous = state.order.filter((id) => !ids.includes(id));
  const agility = (id: string) => state.combatants[id].sheet.vitals.agility;
  if (previous.length > 0 && orderSetByGm(state, previous)) {
    const order = [...previous, ...ids];
    return { rolls, order, ties: [order] };
  }
  // A slotted-in late joiner is compared with the earlier combatants' recorded totals.
  const totals = new Map<string, number>(rolls.map((r) => [r.combatantId, r.total]));
  for (const id of previous) known.set(id, state.combatants[id].initiative ?? 0);
  for (const [id, t] of totals) known.set(id, t);
  const all = [...previous, ...ids];
  const order = [...all].sort(
    (a, b) => known.get(b)! - known.get(a)! || agility(b) - agility(a) || all.indexOf(a) - all.indexOf(b),
  );
  const ties: string[][] = [];
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (
      j < order.length &&
      known.get(order[j]) === known.get(order[i]) &&
      agility(order[j]) === agility(order[i])
    )
      j++;
    const group = order.slice(i, j);
    if (group.length > 1 && group.some((id) => ids.includes(id))) ties.push(group);
    i = j;
  }
  return { rolls, order, ties };
}

/**
 * N40: the order is the GM's, not the rolls', when someone in it has no Side Roll total (SetInitiative
 * without a roll) or it is not the order the totals and Agility give (SetInitiative reordered it). An order that
 * only breaks ties the rolls left (C10) is still the rolls' order.
 */
function orderSetByGm(state: NarateerState, order: string[]): boolean {
  const key = (id: string) =>
    [state.combatants[id].initiative, state.combatants[id].sheet.vitals.agility] as const;
  if (order.some((id) => state.combatants[id].initiative === undefined)) return true;
  for (let i = 1; i < order.length; i++) {
    const [t0, a0] = key(order[i - 1]);
    const [t1, a1] = key(order[i]);
    if (t1! > t0! || (t1 === t0 && a1 > a0)) return true;
  }
  return false;
}
