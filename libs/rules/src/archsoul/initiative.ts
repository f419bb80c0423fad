import { InitiativeResult } from '../core/lifecycle';
import { DiceSource, Roll } from '../dice/roll';
import { DIE_SIDES, INITIATIVE_TEST } from './data';
import type { ArchsoulInitiativeRoll } from './events';
import { poolOf, rollTest } from './rolls';
import { ArchsoulCombatant, ArchsoulState, partyOf } from './state';

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
  const { heroes, enemies } = orderedParties(state, ids);
  const rolls: ArchsoulInitiativeRoll[] = [];
  const units: Unit[] = [];
  for (const id of heroes) units.push(heroUnit(state, id, ids.includes(id), dice, rolls));
  if (enemies.length > 0) units.push(enemyUnit(state, enemies, ids, dice, rolls));
  const placed = slotIn(state, units);
  const ties = rollOffs(placed, rolls, dice);
  return { rolls, order: placed.flatMap((u) => u.ids), ties };
}

/**
 * Ruling S109: "this becomes your Initiative for the combat" (Turn Order): the units already in the order keep it,
 * ties settled by Awareness, Precision or a roll-off included; each unit new to it (a fresh roll) is slotted in before
 * the first unit it outranks, after those it equals (with whom it rolls off). With no order yet, every unit is new
 * and this is the order of the roll.
 */
function slotIn(state: ArchsoulState, units: Unit[]): Unit[] {
  const at = (u: Unit) => Math.min(...u.ids.map((id) => state.order.indexOf(id)).filter((i) => i >= 0));
  const placed = units.filter((u) => !u.fresh).sort((a, b) => at(a) - at(b));
  for (const u of units.filter((x) => x.fresh).sort(compareUnits)) {
    const i = placed.findIndex((p) => compareUnits(u, p) < 0);
    placed.splice(i < 0 ? placed.length : i, 0, u);
  }
  return placed;
}

/**
 * The enemies' total already in the order (S16: the GM's one roll), if any: an enemy joining it rolls nothing and takes
 * the enemies' place (S109).
 */
export function knownEnemyTotal(state: ArchsoulState, enemies: string[], ids: string[]): number | undefined {
  const known = enemies.find((id) => !ids.includes(id) && state.combatants[id].initiative !== undefined);
  return known === undefined ? undefined : state.combatants[known].initiative;
}

/**
 * Who a roll of `ids` orders: the combatants of the order still in the fight, then `ids`; each hero is a unit of its
 * own, the enemies one unit together (archsoul.txt: Turn Order: "the Game Master makes the same roll once for all
 * enemies"; S16).
 */
export function orderedParties(state: ArchsoulState, ids: string[]): { heroes: string[]; enemies: string[] } {
  const previous = state.order.filter((id) => !ids.includes(id) && state.combatants[id]);
  const all = [...previous, ...ids];
  const enemy = (id: string) => partyOf(state.combatants[id].side) === 'enemies';
  return { heroes: all.filter((id) => !enemy(id)), enemies: all.filter(enemy) };
}

const awarenessOf = (c: ArchsoulCombatant) => c.sheet.skills.awareness ?? 0;
const precisionOf = (c: ArchsoulCombatant) => c.sheet.attributes.precision;

/** A hero's own roll when it is new to the order (`fresh`); otherwise the total it has. */
function heroUnit(
  state: ArchsoulState,
  id: string,
  fresh: boolean,
  dice: DiceSource,
  rolls: ArchsoulInitiativeRoll[],
): Unit {
  const c = state.combatants[id];
  let total = c.initiative ?? 0;
  if (fresh) {
    const test = rollTest(
      dice,
      poolOf(c, INITIATIVE_TEST.attribute, INITIATIVE_TEST.skill),
      INITIATIVE_TEST.difficulty,
    );
    total = test.successes;
    rolls.push({ combatantId: id, roll: test.roll, total });
  }
  return { ids: [id], total, awareness: awarenessOf(c), precision: precisionOf(c), fresh };
}

/** The enemies as one unit: the GM's one roll with the highest pool, or the total the enemies already have. */
function enemyUnit(
  state: ArchsoulState,
  enemies: string[],
  ids: string[],
  dice: DiceSource,
  rolls: ArchsoulInitiativeRoll[],
): Unit {
  const c = (id: string) => state.combatants[id];
  const awareness = (id: string) => awarenessOf(c(id));
  const precision = (id: string) => precisionOf(c(id));
  const fresh = enemies.filter((id) => ids.includes(id));
  const known = knownEnemyTotal(state, enemies, ids);
  let total = known ?? 0;
  let roll: Roll = { sides: DIE_SIDES, faces: [] };
  const rolled = known === undefined && fresh.length > 0;
  if (rolled) {
    const pool = Math.max(
      ...enemies.map((id) => poolOf(c(id), INITIATIVE_TEST.attribute, INITIATIVE_TEST.skill)),
    );
    const test = rollTest(dice, pool, INITIATIVE_TEST.difficulty);
    total = test.successes;
    roll = test.roll;
  }
  for (const id of fresh) rolls.push({ combatantId: id, roll, total, shared: true });
  const sorted = [...enemies].sort((a, b) => awareness(b) - awareness(a) || precision(b) - precision(a));
  return {
    ids: sorted,
    total,
    awareness: Math.max(...enemies.map(awareness)),
    precision: Math.max(...enemies.map(precision)),
    // S109: a joiner who shares the enemies' total makes them no new unit: they keep their place, roll-offs included.
    fresh: rolled,
  };
}

const compareUnits = (a: Unit, b: Unit) =>
  b.total - a.total || b.awareness - a.awareness || b.precision - a.precision;

/**
 * Units tied on total, Awareness and Precision roll off a d6 each when one of them is new to the order (S109: a
 * fresh roll; the units it ties with roll again against it); `units`
 * is reordered in place and each roll records its roll-off. Returns who is still tied (they go to the GM, C10).
 */
function rollOffs(units: Unit[], rolls: ArchsoulInitiativeRoll[], dice: DiceSource): string[][] {
  const ties: string[][] = [];
  for (let i = 0; i < units.length;) {
    let j = i + 1;
    while (j < units.length && compareUnits(units[i], units[j]) === 0) j++;
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
  return ties;
}
