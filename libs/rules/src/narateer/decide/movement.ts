import { combatantId } from '../../core/lifecycle';
import { same } from '../../core/space';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { NarateerCommand } from '../commands';
import { ev, MovedData } from '../events';
import { spaces } from '../space';
import { NarateerState } from '../state';
import { ableToAct, hasEffect } from './common';
import { reactorsFor } from './reactors';

/** N13: the GM places a combatant on a Space, or takes it off the map (null); where it already is, nothing changes. */
export function setPosition(state: NarateerState, command: NarateerCommand<'SetPosition'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const now = state.combatants[id].position;
  const to = command.position;
  if (to === null) return now ? [ev('PositionSet', { combatantId: id, position: null })] : [];
  if (now && same(now, to)) return [];
  return [ev('PositionSet', { combatantId: id, position: { x: to.x, y: to.y } })];
}

/**
 * narateer.txt: Opportunity Attacks — each step is checked separately; a step between two Spaces within an
 * opponent's reach stops the move there and offers the opportunities (N24).
 */
export function move(state: NarateerState, command: NarateerCommand<'Move'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const { path, noReactions, forced } = command;
  const c = state.combatants[id];
  ensure(
    c.position,
    'NARATEER_NOT_ON_MAP',
    `RULINGS.md N13: ${id} has no map position; the GM sets one with SetPosition`,
    'combatantId',
  );
  if (!forced) {
    ensure(
      state.roundOpen && state.activeId === id,
      'NARATEER_NOT_YOUR_ACTIVATION',
      `ruling N24: ${id} moves in its own activation; other movement is forced`,
      'combatantId',
    );
    ensure(ableToAct(c), 'NARATEER_CANNOT_ACT', `ruling N20/N26: ${id} is not able to act`, 'combatantId');
    ensure(
      !hasEffect(c, 'cannotMove'),
      'NARATEER_RESTRAINED',
      `ruling N26: ${id} is Restrained and cannot move by itself`,
      'combatantId',
    );
  }
  path.forEach((to, i) =>
    ensure(
      spaces(i === 0 ? c.position! : path[i - 1], to) === 1,
      'NARATEER_INVALID_STEP',
      'ruling N24: each step of a path moves to an adjacent Space',
      `path[${i}]`,
    ),
  );
  const base = {
    combatantId: id,
    from: c.position,
    ...(noReactions ? { noReactions: true as const } : {}),
    ...(forced ? { forced: true as const } : {}),
  };
  for (let i = 0; i < path.length && !noReactions; i++) {
    const from = i === 0 ? c.position : path[i - 1];
    const reactorIds = reactorsFor(state, id, from, path[i]);
    if (reactorIds.length === 0) continue;
    const moved: MovedData = { ...base, path: path.slice(0, i + 1), to: path[i] };
    if (i + 1 < path.length) moved.stoppedBefore = path.length - i - 1;
    return [
      ev('Moved', moved),
      ev('OpportunitiesIdentified', { moverId: id, step: { from, to: path[i] }, reactorIds }),
      ev('OpportunityOffered', { moverId: id, reactorId: reactorIds[0] }),
    ];
  }
  return [ev('Moved', { ...base, path, to: path[path.length - 1] })];
}
