import { lifecycleActor } from '../core/lifecycle';
import { RuleCommand } from '../core/types';
import { ArcanaBeastState } from './state';

/** The payload field naming the combatant a player's command acts for (RULINGS.md C3, C11). */
const ACTING_FIELD: Record<string, string> = {
  Attack: 'attackerId',
  UseSpecialAttack: 'attackerId',
  UseZeroPower: 'attackerId',
  Intercept: 'combatantId',
  Defend: 'combatantId',
  Assist: 'combatantId',
  Guard: 'combatantId',
  Pass: 'combatantId',
  Reposition: 'combatantId',
  Move: 'combatantId',
  Evolve: 'combatantId',
  Direct: 'combatantId',
  Encourage: 'combatantId',
  Strategize: 'combatantId',
  CallBack: 'combatantId',
  UseItem: 'combatantId',
  BondSurge: 'combatantId',
  RollTest: 'combatantId',
};

/** A bound beast is played by its Binder's player: the Binder is the combatant the token must hold. */
export function actorOf(state: ArcanaBeastState, command: RuleCommand): { combatantId: string; field: string } | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  const acting = field ? { combatantId: typeof command[field] === 'string' ? (command[field] as string) : '', field } : lifecycleActor(state, command);
  if (!acting) return undefined;
  const binder = state.binderOf[acting.combatantId];
  return binder && state.combatants[binder] ? { combatantId: binder, field: acting.field } : acting;
}
