import { lifecycleActor } from '../core/lifecycle';
import { RuleCommand } from '../core/types';
import { ArchsoulState } from './state';

/**
 * RULINGS.md C3/C11: the payload field naming the acting combatant; in a phase any of the party's combatants
 * may act (S9/S12), so a player sends commands for its own combatants whenever their turn is open.
 */
const ACTING_FIELD: Record<string, string> = {
  EndTurn: 'combatantId',
  Move: 'combatantId',
  SlowMove: 'combatantId',
  Turn: 'combatantId',
  DropProne: 'combatantId',
  StandUp: 'combatantId',
  DropItem: 'combatantId',
  DrawSimpleItem: 'combatantId',
  DrawAwkwardItem: 'combatantId',
  Attack: 'attackerId',
  ThrowItem: 'combatantId',
  ReactiveAttack: 'combatantId',
  DeclineReactiveAttack: 'combatantId',
  ResumeAction: 'combatantId',
  ClearJam: 'combatantId',
  Study: 'combatantId',
  HoldFirm: 'combatantId',
  ShieldIntercept: 'combatantId',
  SoulShield: 'combatantId',
  AreaAttack: 'attackerId',
  Grab: 'combatantId',
  GrappleAttack: 'combatantId',
  Escape: 'combatantId',
  Steal: 'combatantId',
  Takedown: 'combatantId',
  GrappleThrow: 'combatantId',
  Charge: 'combatantId',
  Mount: 'combatantId',
  Dismount: 'combatantId',
  PerformRitual: 'combatantId',
};

export function actorOf(state: ArchsoulState, command: RuleCommand): { combatantId: string; field: string } | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  if (!field) return lifecycleActor(state, command);
  const id = command[field];
  return typeof id === 'string' ? { combatantId: id, field } : { combatantId: '', field };
}
