import { squareDistance } from '../core/space';
import { NarateerState } from './state';

/** N25: distance in Spaces on the square grid; a diagonal step counts 1. */
export const spaces = squareDistance;

/** The map distance between two combatants, when both stand on the map. */
export function mapDistance(state: NarateerState, aId: string, bId: string): number | undefined {
  const a = state.combatants[aId].position;
  const b = state.combatants[bId].position;
  return a && b ? spaces(a, b) : undefined;
}
