import { Answers, checkEntry } from '../../core/entry';
import { decideLifecycle, LifecycleHooks } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { parseOrRefuse } from '../../core/contract';
import { ARCHSOUL_COMMANDS, ArchsoulCommandType } from '../commands';
import { ARCHSOUL_COMMAND_SCHEMAS, ArchsoulCommand } from '../contract';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { ArchsoulState } from '../state';
import { attack, clearJam, throwItem } from './attack';
import { applyCondition, applyDamage, fall, removeCondition } from './conditions';
import { drawAwkwardItem, drawSimpleItem, dropItem } from './items';
import { dropProne, move, placeCombatant, setMap, slowMove, standUp, turn } from './movement';
import { declineReactiveAttack, reactiveAttack, resumeAction } from './reactive';
import { holdFirm, shieldIntercept, soulShield, study } from './stances';
import { escape, gated, GRAPPLE_GATED, grab, grappleAttack, grappleThrow, steal, takedown } from './grapple';
import { areaAttack } from './area';
import { charge, dismount, mount } from './mounted';
import { performRitual } from './ritual';
import { leave } from './leave';
import { checkOrder, checkTieBreak } from './initiative';
import { actorOf } from '../actors';
import {
  canActivate,
  closeIdlePhase,
  declareAmbush,
  endPhase,
  endRound,
  endTurn,
  refuseActivation,
  startRound,
} from './turns';

export const hooks: LifecycleHooks<ArchsoulState> = {
  system: 'archsoul',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate,
  evolve,
  initiativeRolledOnce:
    'archsoul.txt: Turn Order: "All players record their results rolled - this becomes your Initiative for the combat": initiative is rolled once',
};

/** C4: the commands that answer each pending decision. */
const ANSWERS: Answers = {
  reactiveAttack: ['ReactiveAttack', 'DeclineReactiveAttack'],
  resumeAction: ['ResumeAction'],
};

/** Lifecycle commands whose Archsoul meaning differs (phases, S12/S17). */
const INTERCEPTED = new Set(['StartRound', 'EndRound']);
/**
 * S12/S17: the lifecycle's activations, which Archsoul's contract does not declare: refused whatever the fight's
 * state, as a command of no system is (core/entry.ts), with the phases' commands named in their place.
 */
const ACTIVATIONS = new Set(['StartActivation', 'EndActivation']);

export function decide(state: ArchsoulState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  if (ACTIVATIONS.has(command.type)) return refuseActivation(command.type);
  if (INTERCEPTED.has(command.type) && state.status !== 'new' && state.status !== 'ended' && !state.pending)
    return command.type === 'StartRound' ? startRound(state) : endRound(state);
  // S107: the enemies are one unit of initiative (C10's tieBreak checks for Archsoul's units).
  checkTieBreak(state, command, hooks);
  const lifecycle = decideLifecycle(state, command, dice, hooks);
  if (lifecycle && command.type === 'SetInitiative') checkOrder(state, lifecycle);
  // S39: a cancelled decision or a departure may leave the phase without an open turn (S49: what leaving ends).
  if (lifecycle && command.type === 'CancelPending') return closeIdlePhase(state, lifecycle);
  if (lifecycle && command.type === 'RemoveCombatant') return closeIdlePhase(state, leave(state, lifecycle));
  if (lifecycle) return lifecycle;
  checkEntry('archsoul', ARCHSOUL_COMMANDS, ANSWERS, state, command);
  const actor = GRAPPLE_GATED.has(command.type) ? actorOf(state, command) : undefined;
  if (actor && state.combatants[actor.combatantId])
    return closeIdlePhase(
      state,
      gated(state, actor.combatantId, command.type, dice, (s, d) => dispatch(s, command, d)),
    );
  return closeIdlePhase(state, dispatch(state, command, dice));
}

/** A command of this system as its schema parses it (ResumeAction parses its own, after S50). */
type Parsed = { [K in Exclude<ArchsoulCommandType, 'ResumeAction'>]: ArchsoulCommand<K> }[Exclude<
  ArchsoulCommandType,
  'ResumeAction'
>];

/** The contract (contract.ts): the command as declared, or a refusal naming its field (core/contract.ts). */
function parsed(command: RuleCommand): Parsed {
  const type = command.type as ArchsoulCommandType;
  return parseOrRefuse(ARCHSOUL_COMMAND_SCHEMAS[type], command, '', type) as Parsed;
}

/** The commands of attacks, reactive attacks and grapples (dispatchAttacks); the rest are dispatched directly. */
type AttackCommand = Extract<
  Parsed,
  {
    type:
      | 'Attack'
      | 'ThrowItem'
      | 'ReactiveAttack'
      | 'DeclineReactiveAttack'
      | 'ClearJam'
      | 'AreaAttack'
      | 'Grab'
      | 'GrappleAttack'
      | 'Escape'
      | 'Steal'
      | 'Takedown'
      | 'GrappleThrow'
      | 'Charge';
  }
>;

function dispatch(state: ArchsoulState, raw: RuleCommand, dice: DiceSource): RuleEvent[] {
  // S50: a resume names the held action it cannot change before its contract applies.
  if (raw.type === 'ResumeAction') return resumeAction(state, raw, dice);
  const command = parsed(raw);
  switch (command.type) {
    case 'SetMap':
      return setMap(state, command);
    case 'PlaceCombatant':
      return placeCombatant(state, command);
    case 'DeclareAmbush':
      return declareAmbush(state, command);
    case 'EndTurn':
      return endTurn(state, command);
    case 'EndPhase':
      return endPhase(state);
    case 'Move':
      return move(state, command, dice);
    case 'SlowMove':
      return slowMove(state, command);
    case 'Turn':
      return turn(state, command);
    case 'DropProne':
      return dropProne(state, command);
    case 'StandUp':
      return standUp(state, command);
    case 'DropItem':
      return dropItem(state, command);
    case 'DrawSimpleItem':
      return drawSimpleItem(state, command);
    case 'DrawAwkwardItem':
      return drawAwkwardItem(state, command);
    case 'ApplyCondition':
      return applyCondition(state, command);
    case 'RemoveCondition':
      return removeCondition(state, command);
    case 'ApplyDamage':
      return applyDamage(state, command);
    case 'Study':
      return study(state, command);
    case 'HoldFirm':
      return holdFirm(state, command);
    case 'ShieldIntercept':
      return shieldIntercept(state, command);
    case 'SoulShield':
      return soulShield(state, command);
    case 'Mount':
      return mount(state, command);
    case 'Dismount':
      return dismount(state, command);
    case 'Fall':
      return fall(state, command);
    case 'PerformRitual':
      return performRitual(state, command);
    default:
      return dispatchAttacks(state, command, dice);
  }
}

function dispatchAttacks(state: ArchsoulState, command: AttackCommand, dice: DiceSource): RuleEvent[] {
  switch (command.type) {
    case 'Attack':
      return attack(state, command, dice);
    case 'ThrowItem':
      return throwItem(state, command, dice);
    case 'ReactiveAttack':
      return reactiveAttack(state, command, dice);
    case 'DeclineReactiveAttack':
      return declineReactiveAttack(state, command);
    case 'ClearJam':
      return clearJam(state, command);
    case 'AreaAttack':
      return areaAttack(state, command, dice);
    case 'Grab':
      return grab(state, command, dice);
    case 'GrappleAttack':
      return grappleAttack(state, command, dice);
    case 'Escape':
      return escape(state, command, dice);
    case 'Steal':
      return steal(state, command, dice);
    case 'Takedown':
      return takedown(state, command, dice);
    case 'GrappleThrow':
      return grappleThrow(state, command, dice);
    case 'Charge':
      return charge(state, command, dice);
    default: {
      const unhandled: never = command;
      return violation(
        'UNKNOWN_COMMAND',
        `archsoul has no command ${String((unhandled as RuleCommand).type)}`,
        'type',
      );
    }
  }
}
