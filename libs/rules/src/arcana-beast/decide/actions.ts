import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArcanaCommandOf } from '../contract';
import { ev } from '../events';
import { ArcanaBeastState } from '../state';
import { actionTaken, bandBetween, beastWithAction, present, sameSide } from './common';

/** arcana-beast.txt: Actions in Combat: Defend: Boost on all Dodge rolls until next turn. */
export function defend(state: ArcanaBeastState, command: ArcanaCommandOf<'Defend'>): RuleEvent[] {
  return actionTaken(state, beastWithAction(state, command.combatantId, 'combatantId'), 'defend');
}

/** arcana-beast.txt: Actions in Combat: Pass — choosing not to act does not reset combos (A10). */
export function pass(state: ArcanaBeastState, command: ArcanaCommandOf<'Pass'>): RuleEvent[] {
  return actionTaken(state, beastWithAction(state, command.combatantId, 'combatantId'), 'pass');
}

/** arcana-beast.txt: Actions in Combat: Assist a Close ally's next roll (+1 die); Guard: redirect attacks on a Close ally. */
export function assistOrGuard(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Assist' | 'Guard'>,
): RuleEvent[] {
  const action = command.type === 'Assist' ? 'assist' : 'guard';
  const c = beastWithAction(state, command.combatantId, 'combatantId');
  const ally = present(state, command.allyId, 'allyId');
  const rule =
    action === 'assist'
      ? "Assist: Help a Close ally's next roll"
      : 'Guard: Redirect attacks on a Close ally to yourself';
  ensure(
    ally.id !== c.id && sameSide(c, ally),
    'ARCANA_NOT_AN_ALLY',
    `arcana-beast.txt: Actions in Combat: ${rule}; ${ally.id} is not an ally of ${c.id}`,
    'allyId',
  );
  const band = bandBetween(state, c.id, ally.id);
  ensure(
    band === 'close',
    'ARCANA_NOT_CLOSE',
    `arcana-beast.txt: Actions in Combat: ${rule}; ${ally.id} is ${band}`,
    'allyId',
  );
  const events = actionTaken(state, c, action, { allyId: ally.id });
  return action === 'assist' ? [...events, ev('Assisted', { combatantId: c.id, allyId: ally.id })] : events;
}
