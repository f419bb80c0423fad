import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ev } from '../events';
import { distance, key, neighbours, same, Space } from '../grid';
import { canStep, isBlocked } from '../map';
import { ArchsoulCombatant, ArchsoulState, grapplesOf, partnerOf } from '../state';
import { occupant } from './common';

/** Someone other than a grapple partner standing in c's space (a Takedown's grapplers share it, archsoul.txt: Takedown). */
function sharer(state: ArchsoulState, c: ArchsoulCombatant): ArchsoulCombatant | undefined {
  const partners = grapplesOf(state, c.id).map((g) => partnerOf(g, c.id));
  return state.joined
    .map((id) => state.combatants[id])
    .find(
      (x) =>
        x.id !== c.id && !partners.includes(x.id) && x.position && c.position && same(x.position, c.position),
    );
}

function free(state: ArchsoulState, from: Space, to: Space): boolean {
  return canStep(state.map, from, to) && !isBlocked(state.map, to) && !occupant(state, to);
}

/** The nearest free space, searching outward by steps (neighbour order breaks ties). */
function nearestFree(state: ArchsoulState, start: Space): Space | undefined {
  const seen = new Set([key(start)]);
  let ring = [start];
  for (let depth = 0; depth < 20 && ring.length > 0; depth++) {
    const next: Space[] = [];
    for (const s of ring)
      for (const n of neighbours(state.map.grid, s)) {
        if (seen.has(key(n)) || isBlocked(state.map, n) || !canStep(state.map, s, n)) continue;
        if (!occupant(state, n)) return n;
        seen.add(key(n));
        next.push(n);
      }
    ring = next;
  }
  return undefined;
}

/**
 * S43 (archsoul.txt: Trample: "You cannot end your turn in your opponent's space"): a combatant left in
 * another's space at the end of its turn is pushed to `to` (a free adjacent space of its choice) or the nearest free one.
 * The push is not a move action and triggers no reactive attacks.
 */
export function pushOut(state: ArchsoulState, c: ArchsoulCombatant, chosen: Space | undefined): RuleEvent[] {
  const other = sharer(state, c);
  if (!other || !c.position) {
    ensure(
      chosen === undefined,
      'ARCHSOUL_NOT_SHARING',
      `ruling S43: ${c.id} shares no space; EndTurn takes no 'to'`,
      'to',
    );
    return [];
  }
  const from = c.position;
  let to: Space | undefined;
  if (chosen !== undefined) {
    to = chosen;
    ensure(
      free(state, from, chosen) && neighbours(state.map.grid, from).some((n) => same(n, chosen)),
      'ARCHSOUL_INVALID_STEP',
      `ruling S43: ${c.id} leaves ${other.id}'s space for a free adjacent space`,
      'to',
    );
  } else to = nearestFree(state, from);
  if (!to) return [];
  return [
    ev('Moved', {
      combatantId: c.id,
      action: 'pushed',
      path: [to],
      from,
      to,
      facing: c.facing,
      distance: distance(state.map.grid, from, to),
    }),
  ];
}
