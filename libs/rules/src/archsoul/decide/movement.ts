import { z } from 'zod';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { bad } from '../../core/fields';
import { ensure } from '../../core/violation';
import { ArchsoulCommand, MovePayloadSchema } from '../contract';
import { ev } from '../events';
import { distance, Facing, nearestFacing, Space, stepFacings } from '../grid';
import { DiceSource } from '../../dice/roll';
import { JUMP, MOVE_ACTIONS_FOR_DOUBLE, SIZES, SPACE_METRES, TRAMPLE_DIFFICULTY } from '../data';
import { evolve } from '../evolve';
import { canStep, isAdjacent, isBlocked, wallBetween } from '../map';
import { rollTest } from '../rolls';
import { ArchsoulCombatant, ArchsoulState, hasCondition, HeldAction, isDown, speedNow } from '../state';
import { wound } from './damage';
import { acting, canReact, checkFacing, foes, occupant, occupantFor, onMap, spend } from './common';
import { knockedDown } from './prone';
import { triggerReactions } from './reactions';

/** archsoul.txt: The Battle Map; S5. */
export function setMap(state: ArchsoulState, command: ArchsoulCommand<'SetMap'>): RuleEvent[] {
  ensure(!state.roundOpen, 'ARCHSOUL_MAP_IN_ROUND', 'the map is set between rounds', 'type');
  const grid = command.grid ?? 'hex';
  const walls = command.walls ?? [];
  walls.forEach(([a, b], i) =>
    ensure(
      distance(grid, a, b) === 1,
      'ARCHSOUL_INVALID_WALL',
      'a wall stands between two adjacent spaces',
      `walls[${i}]`,
    ),
  );
  return [ev('MapSet', { grid, blocked: command.blocked ?? [], walls })];
}

export function placeCombatant(
  state: ArchsoulState,
  command: ArchsoulCommand<'PlaceCombatant'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const position = command.position;
  ensure(
    !isBlocked(state.map, position),
    'ARCHSOUL_SPACE_BLOCKED',
    'archsoul.txt: The Battle Map: that space is blocked',
    'position',
  );
  ensure(
    !occupant(state, position, id),
    'ARCHSOUL_SPACE_OCCUPIED',
    'ruling S19: another combatant stands there',
    'position',
  );
  const facing =
    command.facing === undefined ? state.combatants[id].facing : checkFacing(state, command.facing, 'facing');
  return [ev('CombatantPlaced', { combatantId: id, position, facing })];
}

/** A walk: a Move, Slow Move, free move or Charge path, and what it may do on the way (contract.ts). */
export type MovePayload = z.infer<typeof MovePayloadSchema>;

/** S35: while mounted, a Move uses the mount's speed (the view shows the same number, state.ts). */
const speedOf = speedNow;

export function checkMover(c: ArchsoulCombatant, regular: boolean): void {
  ensure(
    !hasCondition(c, 'prone'),
    'ARCHSOUL_PRONE',
    `ruling S19: ${c.id} is prone; StandUp (1 AP) first`,
    'combatantId',
  );
  // archsoul.txt: Being Grappled: no "regular move action"; a Slow Move needs a grapple roll (S33).
  ensure(
    !regular || !hasCondition(c, 'grappled'),
    'ARCHSOUL_GRAPPLED',
    `archsoul.txt: Being Grappled: ${c.id} may not perform a regular move action`,
    'combatantId',
  );
}

/** A straight line on the map: every step in the same direction (archsoul.txt: Jumping, Charge). */
export function straight(from: Space, path: Space[]): boolean {
  const dx = path[0].x - from.x;
  const dy = path[0].y - from.y;
  return path.every((s, i) => {
    const prev = i === 0 ? from : path[i - 1];
    return s.x - prev.x === dx && s.y - prev.y === dy;
  });
}

/** archsoul.txt: Jumping: Athletics + half Conditioning metres, in spaces (S36). */
export function jumpSpaces(c: ArchsoulCombatant): number {
  const metres =
    c.sheet.attributes[JUMP.attribute] + Math.floor((c.sheet.skills[JUMP.skill] ?? 0) / JUMP.skillShare);
  return Math.floor(metres / SPACE_METRES);
}

/** archsoul.txt: Move (1 AP): speed spaces, facing follows movement; S6/S14 for the third Move; Jumping; Trample. */
export function move(state: ArchsoulState, command: ArchsoulCommand<'Move'>, dice?: DiceSource): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkMover(c, true);
  const path = command.path;
  const free = command.free ?? false;
  const jump = command.jump ?? false;
  const jumpFrom = command.jumpFrom ?? 0;
  const trample = command.trample ?? false;
  // S41: the map has no height; a jump "straight up" is narrated by the GM.
  ensure(
    !command.vertical,
    'ARCHSOUL_VERTICAL_JUMP',
    'ruling S41: the battle map has no height; the GM narrates a vertical jump (archsoul.txt: Jumping: "one-third this amount straight up") and places the combatant',
    'vertical',
  );
  // S90: Jumping: "without spending an additional action point": a jump may be paid with more than one Move.
  const ap = command.ap ?? 1;
  if (command.ap !== undefined && free)
    bad('ap', 'is what a paid jump spends; the free movement of an ambush spends no action points');
  ensure(
    ap === 1 || jump,
    'ARCHSOUL_NOT_A_JUMP',
    `ruling S90: ap pays one jump with several Moves ("without spending an additional action point", archsoul.txt: Jumping); a walk over ${ap} Moves is ${ap} Move commands`,
    'ap',
  );
  const [budget, events] = moveBudget(c, free, ap);
  const doubled = !free && c.moves + ap >= MOVE_ACTIONS_FOR_DOUBLE;
  ensure(
    path.length <= budget,
    'ARCHSOUL_MOVE_TOO_FAR',
    `archsoul.txt: Move: ${c.id} may move ${budget} space(s) with this ${free ? 'free move' : ap > 1 ? `jump over ${ap} Moves (ruling S90)` : 'Move'}${doubled ? ' (RULINGS.md S6/S14: 6 × speed minus the distance already moved)' : ''}; the path has ${path.length}`,
    'path',
  );
  // S55: "walk one space forwards before jumping": the first jumpFrom spaces are walked, the rest is the jump.
  ensure(
    command.jumpFrom === undefined || (jump && jumpFrom < path.length),
    'ARCHSOUL_NOT_A_JUMP',
    `ruling S55: jumpFrom counts the spaces walked before a jump (jump: true), leaving at least one to jump; the path has ${path.length}`,
    'jumpFrom',
  );
  if (jump) checkJump(c, path, jumpFrom);
  if (trample)
    ensure(
      c.mounted && c.sheet.mount,
      'ARCHSOUL_NOT_MOUNTED',
      'archsoul.txt: Mounted Maneuvers: Trample "may only be used while mounted"',
      'trample',
    );
  const facing =
    command.facing === undefined
      ? undefined
      : checkEndFacing(state, c.position!, path, checkFacing(state, command.facing, 'facing'));
  return [
    ...events,
    ...walk(
      state,
      {
        combatantId: c.id,
        path,
        facing,
        budget,
        action: free ? 'free' : 'move',
        ...(jump ? { jump } : {}),
        ...(jumpFrom > 0 ? { jumpFrom } : {}),
        ...(trample ? { trample } : {}),
      },
      'path',
      dice,
    ),
  ];
}

/**
 * The spaces this Move may cover, and the AP it spends: a free move's remainder (Ambushes), or the speed
 * (S6/S14: a third Move, 6 × speed less what was already moved). S90: a jump paid with `ap` Moves spends one AP per
 * Move (each an ApSpent of the move action, a use of it) and covers what those Moves walk together: `ap` × speed, or,
 * when they make the third use, 6 × speed less what was already moved.
 */
function moveBudget(c: ArchsoulCombatant, free: boolean, ap = 1): [number, RuleEvent[]] {
  if (free) {
    ensure(
      c.freeMove > 0,
      'ARCHSOUL_NO_FREE_MOVE',
      `archsoul.txt: Ambushes: ${c.id} has no free movement left (only the surprising party, on its turn of the first round of combat)`,
      'free',
    );
    return [c.freeMove, []];
  }
  if (ap > 1)
    ensure(
      c.ap >= ap,
      'ARCHSOUL_NOT_ENOUGH_AP',
      `archsoul.txt: The Action Economy / ruling S90: a jump over ${ap} Moves costs ${ap} AP; ${c.id} has ${c.ap} left`,
      'ap',
    );
  const paid = Array.from({ length: ap }, (_, i) => spend({ ...c, ap: c.ap - i }, 'move'));
  const doubled = c.moves + ap >= MOVE_ACTIONS_FOR_DOUBLE;
  return [doubled ? 6 * speedOf(c) - c.moveDistance : ap * speedOf(c), paid];
}

/** archsoul.txt: Jumping: in a straight line, at most the jump's spaces (S36), from where it takes off (S55). */
function checkJump(c: ArchsoulCombatant, path: Space[], from: number): void {
  const jumped = path.slice(from);
  ensure(
    straight(from === 0 ? c.position! : path[from - 1], jumped),
    'ARCHSOUL_JUMP_NOT_STRAIGHT',
    'archsoul.txt: Jumping: "A jumping character can only move in a straight line"',
    'path',
  );
  ensure(
    jumped.length <= jumpSpaces(c),
    'ARCHSOUL_JUMP_TOO_FAR',
    `archsoul.txt: Jumping: Athletics plus half Conditioning metres: ${c.id} jumps ${jumpSpaces(c)} space(s) (ruling S36)`,
    'path',
  );
}

/** archsoul.txt: Slow Move (1 AP): one space, any facing. */
export function slowMove(state: ArchsoulState, command: ArchsoulCommand<'SlowMove'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkMover(c, false);
  const to = command.to;
  const facing = command.facing === undefined ? c.facing : checkFacing(state, command.facing, 'facing');
  return [
    spend(c, 'slowMove'),
    ...walk(state, { combatantId: c.id, path: [to], facing, budget: 1, action: 'slowMove' }, 'to'),
  ];
}

function checkPath(state: ArchsoulState, c: ArchsoulCombatant, p: MovePayload, field: string): void {
  p.path.forEach((to, i) => {
    const f = field === 'path' ? `path[${i}]` : field;
    const prev = i === 0 ? c.position! : p.path[i - 1];
    const last = i === p.path.length - 1;
    // S36: a jump passes over blocked spaces and combatants, not through walls; it lands on a free space.
    if (jumped(p, i))
      ensure(
        isAdjacent(state.map, prev, to) &&
          !wallBetween(state.map, prev, to) &&
          (!last || !isBlocked(state.map, to)),
        'ARCHSOUL_INVALID_STEP',
        'ruling S36: a jump crosses adjacent spaces, no wall, and lands on an open space',
        f,
      );
    else
      ensure(
        canStep(state.map, prev, to),
        'ARCHSOUL_INVALID_STEP',
        'ruling S19: each step goes to an adjacent space that is not blocked, and not through a wall',
        f,
      );
    const there = occupantFor(state, to, c);
    if (there && foes(there, c) && !jumped(p, i)) {
      ensure(p.trample, 'ARCHSOUL_SPACE_OCCUPIED', `ruling S19: ${there.id} (a foe) stands in that space`, f);
      const mount = SIZES.indexOf(c.sheet.mount!.size);
      ensure(
        SIZES.indexOf(there.sheet.size) < mount,
        'ARCHSOUL_TRAMPLE_SIZE',
        `archsoul.txt: Trample: "only works against targets that are smaller than your mount"; ${there.id} is ${there.sheet.size}, the mount ${c.sheet.mount!.size}`,
        f,
      );
    }
    ensure(
      !there || !last,
      'ARCHSOUL_SPACE_OCCUPIED',
      `ruling S19 / archsoul.txt: Trample: a move cannot end in ${there?.id}'s space`,
      f,
    );
  });
}

/**
 * Walks the path step by step; leaving a space within a foe's reach and front arc stops the walk and triggers
 * reactive attacks (archsoul.txt: Reactive Attack; S13, S18); entering a trampled foe's space forces
 * its reactive attack (Trample, S35); a jump triggers only on leaving and on landing (Jumping, S36).
 */
export function walk(state: ArchsoulState, p: MovePayload, field = 'path', dice?: DiceSource): RuleEvent[] {
  const c = state.combatants[p.combatantId];
  const grid = state.map.grid;
  let from = c.position!;
  checkPath(state, c, p, field);
  const pre: RuleEvent[] = [];
  let trampled = p.trampled ?? [];
  if (p.trampleThrough && dice && c.sheet.mount) {
    // archsoul.txt: Trample: "If the attack misses, your mount may roll its trample damage against the opponent as you pass".
    const roll = rollTest(dice, c.sheet.mount.trampleDamage, TRAMPLE_DIFFICULTY);
    pre.push(wound(state, p.trampleThrough, roll.successes, `${c.id}:${c.sheet.mount.name} (trample)`, roll));
    trampled = [...trampled, p.trampleThrough];
  }
  const rest = (i: number, extra: Partial<MovePayload> = {}): HeldAction => {
    const { trampleThrough: _t, ...base } = p;
    const payload: MovePayload = {
      ...base,
      path: p.path.slice(i),
      budget: p.budget - i,
      trampled,
      ...(p.jumpFrom === undefined ? {} : { jumpFrom: Math.max(0, p.jumpFrom - i) }),
      ...extra,
    };
    return p.action === 'charge' ? { type: 'Charge', payload } : { type: 'Move', payload };
  };
  // S54: the mover keeps the facing it had before the Move until its first step is taken; each later
  // trigger sees it facing along the step that brought it into the space it is leaving.
  let facing = c.facing;
  // What the walk has done so far (trample wounds), so a trampled foe left Down does not react afterwards.
  let now = pre.reduce(evolve, state);
  const takeOff = p.jumpFrom ?? 0;
  let walkedFacing = facing;
  for (let i = 0; i < p.path.length; i++) {
    if (i === takeOff) walkedFacing = facing;
    if (!p.jump || i <= takeOff) {
      const reactors = triggerReactions(now, c.id, 'leaveReach', from, rest(i), c.triggeredBy);
      if (reactors.length > 0) return [...pre, ...(i === 0 ? [] : [moved(state, p, i, facing)]), ...reactors];
    }
    const there = occupantFor(now, p.path[i], c);
    // S55: a jump passes over combatants (S36): only walked spaces are trampled.
    if (
      p.trample &&
      !jumped(p, i) &&
      there &&
      foes(there, c) &&
      !trampled.includes(there.id) &&
      there.sheet.trampleResponse === 'stop'
    ) {
      if (canReact(now, there, from)) {
        // archsoul.txt: Trample: a forced reactive attack, "even if the opponent has already made a reactive attack against your movement".
        const forced = [
          ev('ReactiveAttackTriggered', {
            actorId: c.id,
            trigger: 'trample',
            reactorIds: [there.id],
            action: rest(i, { trampleThrough: there.id }),
          }),
          ev('ReactiveAttackOffered', { actorId: c.id, reactorId: there.id }),
        ];
        return [...pre, ...(i === 0 ? [] : [moved(state, p, i, facing)]), ...forced];
      }
      // S54: a stop needs a reactive attack, and a reactive attack needs the mover "within your front arc"
      // (and a front arc: not Down or grappled). From its back arc the opponent cannot stop the rider: the stop fails as
      // a miss does ("If the attack misses, your mount may roll its trample damage against the opponent as you pass").
      if (dice && c.sheet.mount && !isDown(there)) {
        const roll = rollTest(dice, c.sheet.mount.trampleDamage, TRAMPLE_DIFFICULTY);
        const hurt = wound(now, there.id, roll.successes, `${c.id}:${c.sheet.mount.name} (trample)`, roll);
        pre.push(hurt);
        now = evolve(now, hurt);
      }
      trampled = [...trampled, there.id];
    }
    facing =
      p.action === 'slowMove' ? facing : nearestFacing(grid, facing, stepFacings(grid, from, p.path[i]));
    from = p.path[i];
  }
  const done = moved(state, p, p.path.length, finalFacing(state, p, facing));
  if (!p.jump) return [...pre, done];
  // S55: the walk before the take-off and the jump are recorded apart.
  const both = takeOff > 0 ? [moved(state, p, takeOff, walkedFacing), jumpedFrom(p, takeOff, done)] : [done];
  // archsoul.txt: Jumping: "When you land, you trigger reactive attacks as if you were moving out of the space you landed in".
  const after = [...pre, ...both].reduce(evolve, state);
  return [...pre, ...both, ...triggerReactions(after, c.id, 'landing', from, undefined, c.triggeredBy)];
}

function finalFacing(state: ArchsoulState, p: MovePayload, walked: Facing): Facing {
  if (p.facing === undefined) return walked;
  if (p.action === 'slowMove') return p.facing;
  return checkEndFacing(state, state.combatants[p.combatantId].position!, p.path, p.facing);
}

/**
 * archsoul.txt: Move: "you are considered to be facing in the direction you are moving": the facing a Move ends with is
 * one its last step allows. Checked when the Move is declared too, so a Move held by reactive attacks before its first
 * step is one its ResumeAction can perform as declared (S50).
 */
function checkEndFacing(state: ArchsoulState, from: Space, path: Space[], facing: Facing): Facing {
  const last = path.length;
  const before = last > 1 ? path[last - 2] : from;
  const options = stepFacings(state.map.grid, before, path[last - 1]);
  ensure(
    options.includes(facing),
    'ARCHSOUL_INVALID_FACING',
    `RULINGS.md S5: after that step the mover faces ${options.join(' or ')}`,
    'facing',
  );
  return facing;
}

/** S55: whether step i of the path is jumped: every step from the take-off on. */
function jumped(p: MovePayload, i: number): boolean {
  return p.jump === true && i >= (p.jumpFrom ?? 0);
}

/** S55: the jump after a walk: the whole Move's Moved, from the take-off space on. */
function jumpedFrom(p: MovePayload, takeOff: number, whole: RuleEvent): RuleEvent {
  const d = whole.data as { path: Space[] };
  return {
    type: 'Moved',
    data: { ...d, path: d.path.slice(takeOff), from: p.path[takeOff - 1], distance: d.path.length - takeOff },
  };
}

function moved(state: ArchsoulState, p: MovePayload, steps: number, facing: Facing): RuleEvent {
  const c = state.combatants[p.combatantId];
  const path = p.path.slice(0, steps);
  return ev('Moved', {
    combatantId: c.id,
    action: p.action,
    ...(p.jump && steps > (p.jumpFrom ?? 0) ? { jump: true as const } : {}),
    path,
    from: c.position!,
    to: path[path.length - 1],
    facing,
    distance: steps,
    ...(steps < p.path.length ? { stoppedBefore: p.path.length - steps } : {}),
  });
}

/**
 * archsoul.txt: "you may freely rotate your mini" between actions on your own turn only. Turning in place is a
 * free action, so while grappled it is one of the "other actions" that first take the grapple roll (S33,
 * GRAPPLE_GATED); the facing it sets counts once the grapple ends (a grappled combatant has no front arc).
 */
export function turn(state: ArchsoulState, command: ArchsoulCommand<'Turn'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const facing = checkFacing(state, command.facing, 'facing');
  return facing === c.facing ? [] : [ev('Turned', { combatantId: c.id, facing })];
}

/**
 * archsoul.txt: Free Actions: "Dropping to the ground". The text does not bar a rider from it (Mounted Maneuvers
 * only limit what needs a mount), and a rider on the ground is off its mount: it comes off as when knocked down (S35).
 * While grappled it is one of the "other actions" that first take the grapple roll (S33, GRAPPLE_GATED).
 */
export function dropProne(state: ArchsoulState, command: ArchsoulCommand<'DropProne'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  return knockedDown(c, 'dropped to the ground', 'ruling S35: dropped to the ground from the mount');
}

/** Standing up triggers reactive attacks (archsoul.txt: Reactive Attack); S19: it costs 1 AP. */
export function standUp(state: ArchsoulState, command: ArchsoulCommand<'StandUp'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  ensure(hasCondition(c, 'prone'), 'ARCHSOUL_NOT_PRONE', `${c.id} is not prone`, 'combatantId');
  const paid = spend(c, 'standUp');
  const reactors = c.position
    ? triggerReactions(state, c.id, 'standUp', c.position, {
        type: 'StandUp',
        payload: { combatantId: c.id },
      })
    : [];
  return [paid, ...(reactors.length > 0 ? reactors : performStandUp(c))];
}

export function performStandUp(c: ArchsoulCombatant): RuleEvent[] {
  return [ev('ConditionRemoved', { combatantId: c.id, condition: 'prone', reason: 'stood up' })];
}
