import { lifecycleActor, playerAct } from '../core/lifecycle';
import { CommandActor, FieldCombatant, RuleCommand } from '../core/types';
import { ArcanaBeastState, controllerOf } from './state';

/**
 * The payload field naming the combatant a player's command acts for (C3, C11). `RollTest` is not
 * here: a Test's Difficulty is the GM's and the command needs one (C12).
 */
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
};

const ATTACKS = new Set(['Attack', 'UseSpecialAttack', 'UseZeroPower']);

/** A30, C12: situational dice are the ones the GM allows. */
const ATTACK_GM_FIELDS = ['bonusDice'];

/** A bound beast is played by its Binder's player: the Binder is the combatant the token must hold. */
export function actorOf(state: ArcanaBeastState, command: RuleCommand): CommandActor | undefined {
  const field = Object.hasOwn(ACTING_FIELD, command.type) ? ACTING_FIELD[command.type] : undefined;
  const acting = field
    ? { combatantId: typeof command[field] === 'string' ? command[field] : '', field }
    : lifecycleActor(state, command);
  if (!acting) return undefined;
  const played = { combatantId: playerOf(state, acting.combatantId), field: acting.field };
  return field
    ? playerAct(
        played,
        command,
        ATTACKS.has(command.type) ? ATTACK_GM_FIELDS : [],
        interceptAnswer(state, command),
      )
    : played;
}

function playerOf(state: ArcanaBeastState, id: string): string {
  return controllerOf(state, id);
}

/**
 * A22, C12: `intercept` on an attack answers for the attacked Binder's beast, which its Binder's player
 * plays: the token must hold the target.
 */
function interceptAnswer(state: ArcanaBeastState, command: RuleCommand): FieldCombatant[] {
  if (command.intercept === undefined || !ATTACKS.has(command.type)) return [];
  return [
    {
      combatantId: playerOf(state, typeof command.targetId === 'string' ? command.targetId : ''),
      field: 'intercept',
    },
  ];
}
