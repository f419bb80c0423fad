import { lifecycleActor, playerAct } from '../core/lifecycle';
import { CommandActor, RuleCommand } from '../core/types';
import { ArchsoulState } from './state';

/**
 * C3/C11: the payload field naming the acting combatant; in a phase any of the party's combatants
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

/**
 * C12: a situational difficulty on the attack or damage roll, the narration that replaces a critical
 * failure roll (S2) and the per-attack override of the sheet's metal gauntlets (S22) are the GM's. ResumeAction
 * carries them too: its fields are laid over the held action's (S18).
 */
const ATTACK_GM_FIELDS = ['modifier', 'damageModifier', 'criticalNarration', 'limbArmoured'];
const ATTACKS = new Set(['Attack', 'ThrowItem', 'AreaAttack', 'Charge', 'ReactiveAttack', 'ResumeAction']);

export function actorOf(state: ArchsoulState, command: RuleCommand): CommandActor | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  if (!field) return lifecycleActor(state, command);
  const id = command[field];
  return playerAct(
    { combatantId: typeof id === 'string' ? id : '', field },
    command,
    ATTACKS.has(command.type) ? ATTACK_GM_FIELDS : [],
  );
}
