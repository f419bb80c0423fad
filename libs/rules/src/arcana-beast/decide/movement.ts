import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArcanaCommandOf } from '../contract';
import { Band, BypassMovement, DIFFICULT_TERRAIN_DIFFICULTY } from '../data';
import { ev, MovedData } from '../events';
import { dieFor, rollTest } from '../rolls';
import { ArcanaBeastState, ArcanaCombatant, isBeast } from '../state';
import {
  actionTaken,
  anchor,
  bandBetween,
  bandSteps,
  beastInTurn,
  beastWithAction,
  known,
  pairKey,
  poolFor,
  present,
  required,
  tagInForce,
  unused,
} from './common';

/** A14/A17/A19: the GM places a pair in a band and may mark the ground between them difficult. */
export function setBand(state: ArcanaBeastState, command: ArcanaCommandOf<'SetBand'>): RuleEvent[] {
  const a = known(state, command.aId, 'aId').id;
  const b = known(state, command.bId, 'bId').id;
  ensure(
    anchor(state, a) !== anchor(state, b),
    'ARCANA_SAME_POSITION',
    'ruling A17: a Binder and its own beast are always Close',
    'bId',
  );
  const flag = command.difficultTerrain;
  const difficultTerrain = typeof flag === 'boolean' ? (flag ? DIFFICULT_TERRAIN_DIFFICULTY : 0) : flag;
  return [
    ev('BandSet', { aId: anchor(state, a), bId: anchor(state, b), band: command.band, difficultTerrain }),
  ];
}

/** arcana-beast.txt: Movement Rules: move one band for free per turn (A14, A18). */
export function move(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Move'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = beastInTurn(state, command.combatantId, 'combatantId');
  ensure(
    !state.turn!.freeMoveUsed,
    'ARCANA_FREE_MOVE_USED',
    `arcana-beast.txt: Movement Rules: move one band for free per turn; ${c.id} already moved (Reposition moves two bands)`,
    'type',
  );
  const step = readStep(state, c, command.towardId, command.band, command.using);
  if (!step.using) {
    // The Reposition the text asks for is an Action: say so when this turn's is already taken.
    const spent =
      state.turn!.action === undefined
        ? ''
        : `; ${c.id} has taken this turn's Action, so its move is one band`;
    ensure(
      step.steps <= 1,
      'ARCANA_REPOSITION_NEEDED',
      `arcana-beast.txt: Movement Rules: two bands in one turn requires Reposition action${spent}`,
      'band',
    );
    ensure(
      step.from !== 'far',
      'ARCANA_REPOSITION_NEEDED',
      `arcana-beast.txt: Distance Bands: Far requires Reposition action to move${spent ? `; ${c.id} has taken this turn's Action` : ''}`,
      'band',
    );
  }
  return moved(state, c, step, 'free', dice);
}

/** arcana-beast.txt: Actions in Combat: Reposition: move two bands or gain positional advantage; Cornered cannot Reposition. */
export function reposition(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Reposition'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = beastWithAction(state, command.combatantId, 'combatantId');
  cornered(state, c, command.towardId);
  if (command.towardId === undefined) {
    unused(
      command.band,
      'band',
      'without towardId (a Reposition without one gains positional advantage and moves nobody)',
    );
    unused(command.using, 'using', 'without towardId (a Reposition without one moves nobody)');
  }
  if (command.towardId === undefined)
    return actionTaken(state, c, 'reposition', {
      note: 'positional advantage (the GM sets the tag, RULINGS.md A8)',
    });
  const step = readStep(
    state,
    c,
    command.towardId,
    required(command.band, 'band', 'with towardId'),
    command.using,
  );
  return [
    ...actionTaken(state, c, 'reposition', { targetId: step.towardId }),
    ...moved(state, c, step, 'reposition', dice),
  ];
}

/**
 * arcana-beast.txt: Positioning in Combat: "Cornered: Cannot Reposition". Cornered against one opponent holds
 * against it only (A28, A39): no Reposition measured to it (or to whoever shares its bands, A17), and none for
 * positional advantage, which names no one; a Reposition toward another combatant leaves the corner as it is (A14).
 */
function cornered(state: ArcanaBeastState, c: ArcanaCombatant, towardId: string | undefined): void {
  // A72: Cornered against a combatant who has left the fight (and left no one in its place) corners no one.
  const tag = c.tags.find((t) => t.tag === 'cornered' && tagInForce(state, t));
  if (!tag) return;
  const rule = 'arcana-beast.txt: Positioning in Combat: Cornered: Cannot Reposition';
  ensure(tag.againstId !== undefined, 'ARCANA_CORNERED', rule, 'type');
  const against = `${rule}; ${c.id} is Cornered against ${tag.againstId} (ruling A39)`;
  ensure(
    towardId !== undefined,
    'ARCANA_CORNERED',
    `${against}: positional advantage is a way out of it`,
    'type',
  );
  ensure(anchor(state, towardId) !== anchor(state, tag.againstId), 'ARCANA_CORNERED', against, 'towardId');
}

interface Step {
  towardId: string;
  from: Band;
  to: Band;
  steps: number;
  using?: BypassMovement;
}

function readStep(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  towardId: string,
  to: Band,
  using: BypassMovement | undefined,
): Step {
  const toward = present(state, towardId, 'towardId');
  ensure(
    anchor(state, toward.id) !== c.id,
    'ARCANA_SAME_POSITION',
    'ruling A17: a Binder and its own beast are always Close',
    'towardId',
  );
  const from = bandBetween(state, c.id, toward.id);
  const steps = bandSteps(from, to);
  ensure(
    steps > 0,
    'ARCANA_NO_MOVE',
    `arcana-beast.txt: Distance Bands: ${c.id} is already ${to} to ${toward.id}`,
    'band',
  );
  if (using !== undefined) {
    ensure(
      isBeast(c) && c.sheet.movement.includes(using),
      'ARCANA_NO_SUCH_MOVEMENT',
      `arcana-beast.txt: Movement Rules: Flight, Teleport, Burrowing bypass restrictions; ${c.id} has no ${using}`,
      'using',
    );
  }
  return { towardId: toward.id, from, to, steps, using };
}

/**
 * A19: difficult terrain needs an Agility Test unless Flight, Teleport or Burrowing bypass it; on a
 * Reposition it is the Action's roll, so Direct's die goes to it (A26).
 */
function moved(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  step: Step,
  by: MovedData['by'],
  dice: DiceSource,
): RuleEvent[] {
  const data: MovedData = {
    combatantId: c.id,
    towardId: step.towardId,
    from: step.from,
    to: step.to,
    by,
    using: step.using,
  };
  const difficulty = state.terrain[pairKey(state, c.id, step.towardId)];
  if (!difficulty || step.using) return [ev('Moved', data)];
  const directed = by === 'reposition' && state.turn?.directed ? [{ source: 'Direct', dice: 1 }] : [];
  const { spec, spent } = poolFor(state, c, 'difficultTerrain', 'agility', 0, directed, [], []);
  data.test = rollTest(spec, dieFor(c), difficulty, dice);
  if (!data.test.passed) Object.assign(data, { to: step.from, stopped: true });
  return [...spent, ev('Moved', data)];
}
