import { lifecycleActor, playerAct } from '../core/lifecycle';
import { CommandActor, FieldCombatant, RuleCommand } from '../core/types';
import { NarateerState } from './state';

/** The payload field naming the combatant a player's command acts for (C3); the rest is the GM's. */
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

/**
 * C12: an attack's circumstances are the Guide's (narateer.txt: Combat Modifiers, Hidden and Unseen
 * Creatures; N25 distance, N31 edge sources), and so are the harm override (N12) and the Strike and Protection
 * modifiers (N44), also inside an advance response.
 */
const ATTACK_GM_FIELDS = [
  'edge',
  'responderEdge',
  'distance',
  'attackerUnseen',
  'attackerCannotSeeTarget',
  'targetCannotSeeAttacker',
  'targetUnaware',
  'harm',
  'strikeModifier',
  'protectionModifier',
  'response.harm',
  'response.strikeModifier',
  'response.protectionModifier',
];

/** C12: the fields only the GM may set on a player's command. */
const GM_FIELDS: Record<string, readonly string[]> = {
  DeclareExchange: ATTACK_GM_FIELDS,
  TakeOpportunityAttack: ATTACK_GM_FIELDS,
  RespondToExchange: ['harm', 'strikeModifier', 'protectionModifier'],
  // N24: movement by another effect, and movement a rule exempts from Reactions.
  Move: ['forced', 'noReactions'],
};

export function actorOf(state: NarateerState, command: RuleCommand): CommandActor | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  if (!field) return lifecycleActor(state, command);
  const id = command[field];
  return playerAct(
    { combatantId: typeof id === 'string' ? id : '', field },
    command,
    GM_FIELDS[command.type],
    answeredFor(state, command),
  );
}

/** N23, C12: a `response` given up front answers for the responder: the target, or the mover an Opportunity Attack strikes. */
function answeredFor(state: NarateerState, command: RuleCommand): FieldCombatant[] {
  if (command.response === undefined) return [];
  if (command.type === 'DeclareExchange')
    return [{ combatantId: typeof command.targetId === 'string' ? command.targetId : '', field: 'response' }];
  if (command.type === 'TakeOpportunityAttack' && state.opportunity)
    return [{ combatantId: state.opportunity.moverId, field: 'response' }];
  return [];
}
