import { arr, bool, oneOf } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ev } from '../events';
import { distance, Facing, GridKind, nearestFacing, Space, stepFacings } from '../grid';
import { canStep, isBlocked } from '../map';
import { ArchsoulCombatant, ArchsoulState, conditionTotal, hasCondition } from '../state';
import { acting, foes, occupant, onMap, readFacing, readSpace, spend } from './common';
import { triggerReactions } from './reactive';

/** archsoul.txt: The Battle Map; RULINGS.md S5. */
export function setMap(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  ensure(!state.roundOpen, 'ARCHSOUL_MAP_IN_ROUND', 'the map is set between rounds', 'type');
  const grid = oneOf<GridKind>(command.grid, 'grid', ['hex', 'square'], 'hex');
  const blocked = arr(command.blocked, 'blocked', { max: 2000, optional: true }).map((s, i) => readSpace(s, `blocked[${i}]`));
  const walls = arr(command.walls, 'walls', { max: 2000, optional: true }).map((w, i) => {
    const pair = arr(w, `walls[${i}]`, { max: 2 });
    const a = readSpace(pair[0], `walls[${i}][0]`);
    const b = readSpace(pair[1], `walls[${i}][1]`);
    ensure(distance(grid, a, b) === 1, 'ARCHSOUL_INVALID_WALL', 'a wall stands between two adjacent spaces', `walls[${i}]`);
    return [a, b] as [Space, Space];
  });
  return [ev('MapSet', { grid, blocked, walls })];
}

export function placeCombatant(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const position = readSpace(command.position, 'position');
  ensure(!isBlocked(state.map, position), 'ARCHSOUL_SPACE_BLOCKED', 'archsoul.txt: The Battle Map: that space is blocked', 'position');
  ensure(!occupant(state, position, id), 'ARCHSOUL_SPACE_OCCUPIED', 'RULINGS.md S19: another combatant stands there', 'position');
  const facing = command.facing === undefined ? state.combatants[id].facing : readFacing(state, command.facing, 'facing');
  return [ev('CombatantPlaced', { combatantId: id, position, facing })];
}

export interface MovePayload {
  combatantId: string;
  path: Space[];
  facing?: Facing;
  budget: number;
  action: 'move' | 'slowMove' | 'free';
}

function speedOf(c: ArchsoulCombatant): number {
  return Math.max(0, c.sheet.speed - conditionTotal(c, 'slowed'));
}

function readPath(raw: unknown): Space[] {
  const list = arr(raw, 'path', { max: 200 }).map((s, i) => readSpace(s, `path[${i}]`));
  ensure(list.length > 0, 'INVALID_FIELD', 'path must name at least one space', 'path');
  return list;
}

function checkMover(c: ArchsoulCombatant): void {
  ensure(!hasCondition(c, 'prone'), 'ARCHSOUL_PRONE', `RULINGS.md S19: ${c.id} is prone; StandUp (1 AP) first`, 'combatantId');
  ensure(!hasCondition(c, 'grappled'), 'ARCHSOUL_GRAPPLED', `archsoul.txt: Being Grappled: ${c.id} may not perform a regular move action`, 'combatantId');
}

/** archsoul.txt: Move (1 AP): speed spaces, facing follows movement; RULINGS.md S6/S14 for the third Move. */
export function move(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkMover(c);
  const path = readPath(command.path);
  const free = bool(command.free, 'free', false);
  let budget: number;
  const events: RuleEvent[] = [];
  if (free) {
    ensure(c.freeMove > 0, 'ARCHSOUL_NO_FREE_MOVE', `archsoul.txt: Ambushes: ${c.id} has no free movement left (only the surprising party, in round 1)`, 'free');
    budget = c.freeMove;
  } else {
    budget = c.moves === 2 ? 6 * speedOf(c) - c.moveDistance : speedOf(c);
    events.push(spend(c, 'move'));
  }
  ensure(path.length <= budget, 'ARCHSOUL_MOVE_TOO_FAR', `archsoul.txt: Move: ${c.id} may move ${budget} space(s) with this ${free ? 'free move' : 'Move'}${c.moves === 2 && !free ? ' (RULINGS.md S6/S14: 6 × speed minus the distance already moved)' : ''}; the path has ${path.length}`, 'path');
  const facing = command.facing === undefined ? undefined : readFacing(state, command.facing, 'facing');
  return [...events, ...walk(state, { combatantId: c.id, path, facing, budget, action: free ? 'free' : 'move' })];
}

/** archsoul.txt: Slow Move (1 AP): one space, any facing. */
export function slowMove(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkMover(c);
  const to = readSpace(command.to, 'to');
  const facing = command.facing === undefined ? c.facing : readFacing(state, command.facing, 'facing');
  return [spend(c, 'slowMove'), ...walk(state, { combatantId: c.id, path: [to], facing, budget: 1, action: 'slowMove' }, 'to')];
}

/**
 * Walks the path step by step; leaving a space within a foe's reach and front arc stops the walk and triggers
 * reactive attacks (archsoul.txt: Reactive Attack; RULINGS.md S13, S18).
 */
export function walk(state: ArchsoulState, p: MovePayload, field = 'path'): RuleEvent[] {
  const c = state.combatants[p.combatantId];
  const grid = state.map.grid;
  let from = c.position!;
  p.path.forEach((to, i) => {
    const f = field === 'path' ? `path[${i}]` : field;
    ensure(canStep(state.map, i === 0 ? from : p.path[i - 1], to), 'ARCHSOUL_INVALID_STEP', 'RULINGS.md S19: each step goes to an adjacent space that is not blocked, and not through a wall', f);
    const there = occupant(state, to, c.id);
    ensure(!there || !foes(there, c), 'ARCHSOUL_SPACE_OCCUPIED', `RULINGS.md S19: ${there?.id} (a foe) stands in that space`, f);
    ensure(!there || i < p.path.length - 1, 'ARCHSOUL_SPACE_OCCUPIED', `RULINGS.md S19: a move cannot end in ${there?.id}'s space`, f);
  });
  let facing = c.facing;
  for (let i = 0; i < p.path.length; i++) {
    const reactors = triggerReactions(state, c.id, 'leaveReach', from, { type: 'Move', payload: { ...p, path: p.path.slice(i), budget: p.budget - i } as unknown as Record<string, unknown> }, c.triggeredBy);
    if (reactors.length > 0) return i === 0 ? reactors : [moved(state, p, i, facing), ...reactors];
    facing = p.action === 'slowMove' ? facing : nearestFacing(grid, facing, stepFacings(grid, from, p.path[i]));
    from = p.path[i];
  }
  return [moved(state, p, p.path.length, finalFacing(state, p, facing))];
}

function finalFacing(state: ArchsoulState, p: MovePayload, walked: Facing): Facing {
  if (p.facing === undefined) return walked;
  if (p.action === 'slowMove') return p.facing;
  const last = p.path.length;
  const before = last > 1 ? p.path[last - 2] : state.combatants[p.combatantId].position!;
  const options = stepFacings(state.map.grid, before, p.path[last - 1]);
  ensure(options.includes(p.facing), 'ARCHSOUL_INVALID_FACING', `RULINGS.md S5: after that step the mover faces ${options.join(' or ')}`, 'facing');
  return p.facing;
}

function moved(state: ArchsoulState, p: MovePayload, steps: number, facing: Facing): RuleEvent {
  const c = state.combatants[p.combatantId];
  const path = p.path.slice(0, steps);
  return ev('Moved', { combatantId: c.id, action: p.action, path, from: c.position!, to: path[path.length - 1], facing, distance: steps, ...(steps < p.path.length ? { stoppedBefore: p.path.length - steps } : {}) });
}

/** archsoul.txt: "you may freely rotate your mini" between actions on your own turn only. */
export function turn(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  ensure(!hasCondition(c, 'grappled'), 'ARCHSOUL_GRAPPLED', 'archsoul.txt: Being Grappled: no front arc to turn', 'combatantId');
  const facing = readFacing(state, command.facing, 'facing');
  return facing === c.facing ? [] : [ev('Turned', { combatantId: c.id, facing })];
}

/** archsoul.txt: Free Actions: dropping to the ground. */
export function dropProne(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  return hasCondition(c, 'prone') ? [] : [ev('ConditionApplied', { combatantId: c.id, condition: 'prone', amount: 1, untilNextTurn: false, reason: 'dropped to the ground' })];
}

/** Standing up triggers reactive attacks (archsoul.txt: Reactive Attack); RULINGS.md S19: it costs 1 AP. */
export function standUp(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  ensure(hasCondition(c, 'prone'), 'ARCHSOUL_NOT_PRONE', `${c.id} is not prone`, 'combatantId');
  const paid = spend(c, 'standUp');
  const reactors = c.position ? triggerReactions(state, c.id, 'standUp', c.position, { type: 'StandUp', payload: { combatantId: c.id } }) : [];
  return [paid, ...(reactors.length > 0 ? reactors : performStandUp(c))];
}

export function performStandUp(c: ArchsoulCombatant): RuleEvent[] {
  return [ev('ConditionRemoved', { combatantId: c.id, condition: 'prone', reason: 'stood up' })];
}
