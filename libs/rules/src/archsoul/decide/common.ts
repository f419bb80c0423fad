import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { AP_COST, ApAction } from '../data';
import { ev } from '../events';
import { distance, Facing, facings, inFrontArc, same, Space } from '../grid';
import { lineOfSight } from '../map';
import { FIST, isMeleeOrUnarmed, Weapon } from '../sheet';
import { ActiveCondition, ArchsoulCombatant, ArchsoulState, hasFrontArc, isDown, partyOf } from '../state';

/** S5: the facing must be one of the map's (a hex grid has six of the eight). */
export function checkFacing(state: ArchsoulState, f: Facing, field: string): Facing {
  ensure(
    facings(state.map.grid).includes(f),
    'ARCHSOUL_INVALID_FACING',
    `RULINGS.md S5: a ${state.map.grid} grid has the facings ${facings(state.map.grid).join(', ')}; not ${f}`,
    field,
  );
  return f;
}

/** S12, C7: the combatant acting on its own open turn, not Down (S11). */
export function acting(state: ArchsoulState, command: RuleCommand, field: string): ArchsoulCombatant {
  const id = combatantId(state, command[field], field);
  const c = state.combatants[id];
  ensure(!isDown(c), 'ARCHSOUL_DOWN', `RULINGS.md S11: ${id} is Down (0 HP) and takes no turns`, field);
  ensure(
    c.inTurn,
    'ARCHSOUL_NOT_YOUR_TURN',
    `archsoul.txt: The Action Economy / RULINGS.md S12: ${id} has no open turn in the ${state.phase?.party ?? 'current'} phase`,
    field,
  );
  return c;
}

export function onMap(c: ArchsoulCombatant, field: string): Space {
  ensure(
    c.position,
    'ARCHSOUL_NOT_ON_MAP',
    `archsoul.txt: The Battle Map: ${c.id} has no position; the GM places it with PlaceCombatant`,
    field,
  );
  return c.position;
}

/** archsoul.txt: The Action Economy: "up to three action points"; AP never go below zero. */
export function spend(c: ArchsoulCombatant, action: ApAction, ap: number = AP_COST[action]): RuleEvent {
  ensure(
    c.ap >= ap,
    'ARCHSOUL_NOT_ENOUGH_AP',
    `archsoul.txt: The Action Economy: ${action} costs ${ap} AP; ${c.id} has ${c.ap} left`,
    'type',
  );
  return ev('ApSpent', { combatantId: c.id, action, ap, apLeft: c.ap - ap });
}

/** Ruling S96: the sheet's weapon with the fist's id, which stands in for the built-in fist; undefined when none. */
export function ownFist(c: ArchsoulCombatant): Weapon | undefined {
  return c.sheet.weapons.find((x) => x.id === FIST.id);
}

/** The weapon a command names; none names the fist: the built-in one, or the sheet's of that id (ruling S96). */
export function weaponOf(c: ArchsoulCombatant, weaponId: string | undefined, field: string): Weapon {
  const id = weaponId ?? FIST.id;
  const w = c.sheet.weapons.find((x) => x.id === id);
  if (!w && id === FIST.id) return FIST;
  ensure(w, 'ARCHSOUL_UNKNOWN_WEAPON', `${c.id} carries no weapon ${id}`, field);
  ensure(
    !c.weapons[w.id].destroyed,
    'ARCHSOUL_WEAPON_DESTROYED',
    `archsoul.txt: Critical Failure Tables: ${w.name} is destroyed`,
    field,
  );
  ensure(
    c.held.includes(w.id),
    'ARCHSOUL_WEAPON_NOT_HELD',
    `archsoul.txt: Draw Simple Item / Draw Awkward Item: ${w.name} is not in ${c.id}'s hands`,
    field,
  );
  return w;
}

export function occupant(state: ArchsoulState, s: Space, except?: string): ArchsoulCombatant | undefined {
  for (const id of state.joined) {
    const c = state.combatants[id];
    if (id !== except && c.position && same(c.position, s)) return c;
  }
  return undefined;
}

/**
 * Who stands in `s` for a mover: a foe first, when one is there (two may share a space after a Takedown, S43), so a
 * foe's space is never passed for an ally's that shares it (S19).
 */
export function occupantFor(
  state: ArchsoulState,
  s: Space,
  mover: ArchsoulCombatant,
): ArchsoulCombatant | undefined {
  const there = state.joined
    .map((id) => state.combatants[id])
    .filter((c) => c.id !== mover.id && c.position && same(c.position, s));
  return there.find((c) => foes(c, mover)) ?? there[0];
}

export function foes(a: ArchsoulCombatant, b: ArchsoulCombatant): boolean {
  return partyOf(a.side) !== partyOf(b.side);
}

/** archsoul.txt: Unarmed: "These may only be performed against targets in adjacent spaces", whatever reach a sheet gives. */
export function reachOf(w: Weapon): number {
  return w.type === 'unarmed' ? Math.min(w.reach, FIST.reach) : w.reach;
}

/** Held melee and unarmed weapons, with the fist (S26): the built-in one unless the sheet's stands in for it (S96). */
export function closeWeapons(c: ArchsoulCombatant): Weapon[] {
  const held = c.sheet.weapons.filter(
    (w) => isMeleeOrUnarmed(w) && c.held.includes(w.id) && !c.weapons[w.id].destroyed,
  );
  return ownFist(c) ? held : [...held, FIST];
}

/**
 * S73: a melee or unarmed attack reaches no space that a wall or a blocked space hides from it (S23's line of
 * sight), however near: the text measures reach, and the map's walls (S19) stop a blade as they stop a step.
 */
export function unhidden(state: ArchsoulState, from: Space, to: Space): boolean {
  return lineOfSight(state.map, from, to);
}

/** archsoul.txt: Reactive Attack: a) within reach of one of your melee attacks, b) within your front arc; S11, Being Grappled; S73. */
export function canReact(state: ArchsoulState, r: ArchsoulCombatant, space: Space): boolean {
  if (!r.position || !hasFrontArc(r)) return false;
  const pos = r.position;
  const d = distance(state.map.grid, pos, space);
  return (
    d > 0 &&
    inFrontArc(state.map.grid, pos, r.facing, space) &&
    closeWeapons(r).some((w) => d <= reachOf(w)) &&
    unhidden(state, pos, space)
  );
}

/** The foes who may react to `actor` acting from `space`, in initiative order (table order without it). */
export function reactorsFor(
  state: ArchsoulState,
  actorId: string,
  space: Space,
  skip: string[] = [],
): string[] {
  const actor = state.combatants[actorId];
  const order = state.order.length > 0 ? state.order : state.joined;
  return order.filter(
    (id) =>
      id !== actorId &&
      !skip.includes(id) &&
      state.combatants[id] &&
      foes(actor, state.combatants[id]) &&
      canReact(state, state.combatants[id], space),
  );
}

/**
 * Ends the entries of `x`'s conditions that `ends` picks. ConditionRemoved takes every entry of a kind, so the entries
 * of those kinds that `keeps` picks are applied again, unchanged (S64, S76).
 */
export function endEntries(
  x: ArchsoulCombatant,
  ends: (k: ActiveCondition) => boolean,
  keeps: (k: ActiveCondition) => boolean,
  reason: string,
): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const condition of new Set(x.conditions.filter(ends).map((k) => k.condition))) {
    events.push(ev('ConditionRemoved', { combatantId: x.id, condition, reason }));
    for (const k of x.conditions.filter((k) => k.condition === condition && keeps(k)))
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
  return events;
}
