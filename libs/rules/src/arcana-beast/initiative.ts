import { z } from 'zod';
import { InitiativeResult } from '../core/lifecycle';
import { DiceSource, DrawKind } from '../dice/roll';
import { MAX_TIE_REROLLS } from './data';
import { ARCANA_INITIATIVE_ROLL } from './events';
import { dieFor, rollPool } from './rolls';
import { ArcanaBeastState, binderIdOf, combatantOf, isBeast, isBinder } from './state';

export type ArcanaInitiativeRoll = z.infer<typeof ARCANA_INITIATIVE_ROLL>;

/**
 * arcana-beast.txt: Initiative & Turn Order: an opposed Agility Test; surprised combatants roll with Setback
 * (A5, A29); a surprised Binder surprises its beast's roll, and a tie reroll keeps the Setback (A31).
 */
export function initiativeRoll(
  state: ArcanaBeastState,
  id: string,
  dice: DiceSource,
  kind: DrawKind,
  tieReroll?: number,
): ArcanaInitiativeRoll {
  const c = state.combatants[id];
  const named = state.surprised ?? [];
  const surprised = c.surprised || named.includes(id) || named.includes(binderIdOf(state, id) ?? '');
  const bonuses =
    isBeast(c) && c.sheet.initiativeDice > 0
      ? [{ source: 'Qualities/Talents (initiativeDice)', dice: c.sheet.initiativeDice }]
      : [];
  const pool = rollPool(
    {
      combatantId: id,
      purpose: 'initiative',
      stat: 'agility',
      statValue: c.sheet.stats.agility,
      ranks: 0,
      bonuses,
      boost: [],
      setback: surprised ? ['Surprised'] : [],
    },
    dieFor(c),
    dice,
    kind,
  );
  const roll: ArcanaInitiativeRoll = { combatantId: id, roll: pool.roll, total: pool.successes, pool };
  if (surprised) roll.surprised = true;
  if (tieReroll !== undefined) roll.tieReroll = tieReroll;
  return roll;
}

/**
 * A5: highest successes first, fixed; ties go to the GM or are rerolled (option initiativeTies: reroll). A63: the
 * first roll is every beast's in the fight (A16), a Knocked Out one's too: the encounter's end may bring it back (A24),
 * and the order it returns to stays fixed.
 */
export function rollInitiative(state: ArcanaBeastState, ids: string[], dice: DiceSource): InitiativeResult {
  const rolling = state.order.length === 0 ? state.joined : ids;
  const beasts = rolling.filter((id) => isBeast(state.combatants[id]));
  const rolls = beasts.map((id) => initiativeRoll(state, id, dice, 'pool'));
  const totals = new Map<string, number>();
  const previous = state.order.filter((id) => !ids.includes(id) && isBeast(state.combatants[id]));
  for (const id of previous) totals.set(id, state.combatants[id].initiative ?? 0);
  for (const r of rolls) totals.set(r.combatantId, r.total);
  // arcana-beast.txt: "Turn Order: Highest successes first, remains fixed": a late joiner is slotted in before the first lower total.
  let order = [...previous];
  for (const id of [...beasts].sort(
    (a, b) => totals.get(b)! - totals.get(a)! || beasts.indexOf(a) - beasts.indexOf(b),
  )) {
    const at = order.findIndex((o) => totals.get(o)! < totals.get(id)!);
    order.splice(at === -1 ? order.length : at, 0, id);
  }
  let ties = tiedGroups(order, totals, beasts);
  if (state.options.initiativeTies === 'reroll') {
    // A5/A16: the tied reroll among themselves; manual faces come in rerollFaces.
    for (let n = 1; n <= MAX_TIE_REROLLS && ties.length > 0; n++) {
      const again = ties.flat().map((id) => initiativeRoll(state, id, dice, 'reroll', n));
      rolls.push(...again);
      order = reorderGroups(order, ties, new Map(again.map((r) => [r.combatantId, r.total])));
      ties = ties.flatMap((g) =>
        tiedGroups(
          order.filter((id) => g.includes(id)),
          new Map(again.map((r) => [r.combatantId, r.total])),
          g,
        ),
      );
    }
  }
  return { rolls, order: withBinders(state, order), ties };
}

/** Orders each tied group by its reroll, keeping the group's slots. */
export function reorderGroups(order: string[], groups: string[][], totals: Map<string, number>): string[] {
  const next = [...order];
  for (const g of groups) {
    const slots = g.map((id) => next.indexOf(id)).sort((a, b) => a - b);
    const sorted = [...g].sort((a, b) => totals.get(b)! - totals.get(a)! || g.indexOf(a) - g.indexOf(b));
    slots.forEach((slot, i) => (next[slot] = sorted[i]));
  }
  return next;
}

export function tiedGroups(order: string[], totals: Map<string, number>, involved: string[]): string[][] {
  const groups: string[][] = [];
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && totals.get(order[j]) === totals.get(order[i])) j++;
    const group = order.slice(i, j);
    if (group.length > 1 && group.some((id) => involved.includes(id))) groups.push(group);
    i = j;
  }
  return groups;
}

/** A29: each Binder is listed right after its beast; a Binder without its beast comes last. */
export function withBinders(state: ArcanaBeastState, beasts: string[]): string[] {
  const order: string[] = [];
  const binders = state.joined.filter((id) => isBinder(state.combatants[id]));
  for (const id of beasts) {
    order.push(id);
    const binder = binderIdOf(state, id);
    if (binder && combatantOf(state, binder)) order.push(binder);
  }
  for (const id of binders) if (!order.includes(id)) order.push(id);
  return order;
}
