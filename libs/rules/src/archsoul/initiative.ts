import { InitiativeResult } from '../core/lifecycle';
import { DiceSource, Roll } from '../dice/roll';
import { DIE_SIDES, INITIATIVE_TEST } from './data';
import type { ArchsoulInitiativeRoll } from './events';
import { poolOf, rollTest } from './rolls';
import { ArchsoulState, partyOf } from './state';

interface Unit {
  ids: string[];
  total: number;
  awareness: number;
  precision: number;
  rollOff?: number;
  fresh: boolean;
}

/**
 * archsoul.txt: Turn Order, S9/S12/S16: heroes roll Precision/Awareness at 4; the GM rolls once
 * for all enemies with the highest enemy pool; ties by Awareness, then Precision (the enemies' highest),
 * then a d6 roll-off (a follow-up draw); a roll-off tie goes to the GM (C10).
 */
export function rollInitiative(state: ArchsoulState, ids: string[], dice: DiceSource): InitiativeResult {
  const c = (id: string) => state.combatants[id];
  const awareness = (id: string) => c(id).sheet.skills.awareness ?? 0;
  const precision = (id: string) => c(id).sheet.attributes.precision;
  const previous = state.order.filter((id) => !ids.includes(id) && state.combatants[id]);
  const enemies = [...previous, ...ids].filter((id) => partyOf(c(id).side) === 'enemies');
  const rolls: ArchsoulInitiativeRoll[] = [];
  const units: Unit[] = [];
  for (const id of [...previous, ...ids]) {
    if (partyOf(c(id).side) === 'enemies') continue;
    let total = c(id).initiative ?? 0;
    if (ids.includes(id)) {
      const test = rollTest(
        dice,
        poolOf(c(id), INITIATIVE_TEST.attribute, INITIATIVE_TEST.skill),
        INITIATIVE_TEST.difficulty,
      );
      total = test.successes;
      rolls.push({ combatantId: id, roll: test.roll, total });
    }
    units.push({
      ids: [id],
      total,
      awareness: awareness(id),
      precision: precision(id),
      fresh: ids.includes(id),
    });
  }
  if (enemies.length > 0) {
    const fresh = enemies.filter((id) => ids.includes(id));
    const known = enemies.find((id) => !ids.includes(id) && c(id).initiative !== undefined);
    let total = known ? c(known).initiative! : 0;
    let roll: Roll = { sides: DIE_SIDES, faces: [] };
    if (!known && fresh.length > 0) {
      const pool = Math.max(
        ...enemies.map((id) => poolOf(c(id), INITIATIVE_TEST.attribute, INITIATIVE_TEST.skill)),
      );
      const test = rollTest(dice, pool, INITIATIVE_TEST.difficulty);
      total = test.successes;
      roll = test.roll;
    }
    for (const id of fresh) rolls.push({ combatantId: id, roll, total, shared: true });
    const sorted = [...enemies].sort((a, b) => awareness(b) - awareness(a) || precision(b) - precision(a));
    units.push({
      ids: sorted,
      total,
      awareness: Math.max(...enemies.map(awareness)),
      precision: Math.max(...enemies.map(precision)),
      fresh: fresh.length > 0,
    });
  }
  const cmp = (a: Unit, b: Unit) =>
    b.total - a.total || b.awareness - a.awareness || b.precision - a.precision;
  units.sort(cmp);
  const ties: string[][] = [];
  for (let i = 0; i < units.length;) {
    let j = i + 1;
    while (j < units.length && cmp(units[i], units[j]) === 0) j++;
    const group = units.slice(i, j);
    if (group.length > 1 && group.some((u) => u.fresh)) {
      const off = dice.roll(group.length, DIE_SIDES, 'followUp');
      group.forEach((u, k) => (u.rollOff = off.faces[k]));
      group.sort((a, b) => b.rollOff! - a.rollOff!);
      units.splice(i, group.length, ...group);
      for (let k = 0; k < group.length;) {
        let m = k + 1;
        while (m < group.length && group[m].rollOff === group[k].rollOff) m++;
        if (m - k > 1) ties.push(group.slice(k, m).flatMap((u) => u.ids));
        k = m;
      }
      for (const r of rolls) {
        const u = group.find((x) => x.ids.includes(r.combatantId));
        if (u) r.rollOff = u.rollOff;
      }
    }
    i = j;
  }
  return { rolls, order: units.flatMap((u) => u.ids), ties };
}
