import { InitiativeResult, InitiativeRoll } from '../core/lifecycle';
import { DiceSource } from '../dice/roll';
import { dots, NARATEER_DIE_SIDES } from './data';
import { NarateerState } from './state';

/** RULINGS.md N4/N15: a Side Roll of Agility dice; higher total first, ties by higher Agility, then the GM. */
export function rollInitiative(state: NarateerState, ids: string[], dice: DiceSource): InitiativeResult {
  const rolls: InitiativeRoll[] = ids.map((id) => {
    const roll = dice.roll(Math.max(0, state.combatants[id].sheet.vitals.agility), NARATEER_DIE_SIDES);
    return { combatantId: id, roll, total: roll.faces.reduce((t, f) => t + dots(f), 0) };
  });
  const known = new Map<string, number>();
  const previous = state.order.filter((id) => !ids.includes(id));
  // A slotted-in late joiner is compared with the earlier combatants' recorded totals.
  const totals = new Map<string, number>(rolls.map((r) => [r.combatantId, r.total]));
  for (const id of previous) known.set(id, initiativeTotal(state, id));
  for (const [id, t] of totals) known.set(id, t);
  const agility = (id: string) => state.combatants[id].sheet.vitals.agility;
  const all = [...previous, ...ids];
  const order = [...all].sort((a, b) => known.get(b)! - known.get(a)! || agility(b) - agility(a) || all.indexOf(a) - all.indexOf(b));
  const ties: string[][] = [];
  for (let i = 0; i < order.length; ) {
    let j = i + 1;
    while (j < order.length && known.get(order[j]) === known.get(order[i]) && agility(order[j]) === agility(order[i])) j++;
    const group = order.slice(i, j);
    if (group.length > 1 && group.some((id) => ids.includes(id))) ties.push(group);
    i = j;
  }
  return { rolls, order, ties };
}

function initiativeTotal(state: NarateerState, id: string): number {
  return state.combatants[id].initiative ?? 0;
}
