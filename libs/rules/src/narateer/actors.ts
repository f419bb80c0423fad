import { lifecycleActor } from '../core/lifecycle';
import { RuleCommand } from '../core/types';
import { NarateerState } from './state';

/** The payload field naming the combatant a player's command acts for (RULINGS.md C3); the rest is the GM's. */
const ACTING_FIELD: Record<string, string> = {
  DeclareExchange: 'attackerId',
  RespondToExchange: 'combatantId',
  AllocateWounds: 'combatantId',
  ReloadWeapon: 'combatantId',
  SpendDice: 'combatantId',
  Move: 'combatantId',
  TakeOpportunityAttack: 'combatantId',
  DeclineOpportunity: 'combatantId',
};

export function actorOf(state: NarateerState, command: RuleCommand): { combatantId: string; field: string } | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  if (!field) return lifecycleActor(state, command);
  const id = command[field];
  return typeof id === 'string' ? { combatantId: id, field } : { combatantId: '', field };
}
