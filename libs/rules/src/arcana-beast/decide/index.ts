import { parseOrRefuse } from '../../core/contract';
import { Answers, checkEntry } from '../../core/entry';
import { decideLifecycle, LifecycleHooks, roundEndsEmpty, roundMayEmpty } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArcanaCommandType } from '../commands';
import { ARCANA_BEAST_COMMAND_SCHEMAS, ARCANA_BEAST_OPTIONS, ArcanaCommand } from '../contract';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { ArcanaBeastState, combatantOf, isBeast, isBinder } from '../state';
import { assistOrGuard, defend, pass } from './actions';
import { attack, intercept } from './attack';
import { bondSurge, callBack, direct, encourage, strategize, useItem } from './binder';
import { endScene, evolveStage, revertHighest, setTrigger } from './evolution';
import { applyCondition, clearTag, removeCondition, rollOpposedTest, rollTestCommand, setTag } from './gm';
import { move, reposition, setBand } from './movement';
import {
  bindersInPlace,
  canActivate,
  checkBinderPlaces,
  checkTieBreak,
  onActivationStart,
  rerollInitiative,
  rollInitiativeCommand,
} from './turn';
import { unused } from './common';
import { DEVOLUTION_TEST, devolutionTest, withDueDevolution } from './damage';

/** C4: the commands that answer each pending decision. */
export const ANSWERS: Answers = {
  intercept: ['Intercept'],
  initiativeTie: ['SetInitiative', 'RerollInitiative'],
};

export const hooks: LifecycleHooks<ArcanaBeastState> = {
  system: 'arcana-beast',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate,
  onActivationStart,
  evolve,
  answers: ANSWERS,
  initiativeRolledOnce:
    'arcana-beast.txt: Initiative & Turn Order: "Turn Order: Highest successes first, remains fixed": initiative is rolled once',
};

export function decide(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const events = decideAny(state, command, dice);
  return [...events, ...roundLeftEmpty(state, events, dice)];
}

function decideAny(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const lifecycle = decideShared(state, command, dice);
  if (lifecycle) return lifecycle;
  // A36: the held rest of a command, decided when its roller gives the faces; no one sends it.
  if (command.type === DEVOLUTION_TEST && state.status === 'active')
    return devolutionTest(state, command, dice);
  checkEntry('arcana-beast', ARCANA_BEAST_COMMAND_SCHEMAS, ANSWERS, state, command);
  // A13, A36: a Knockout's Devolution Test comes after the command's own events.
  return withDueDevolution(state, decideArcana(state, command, dice), dice);
}

/**
 * A68: between turns, the command that leaves the open round no one to wait for (the GM removes the last beast whose
 * turn it waits for, or the Binder whose Commands were all that turn still held, A21, A47) ends it, as that turn's
 * EndActivation would have; C16 and A61 do so for a turn that is running. While someone still waits, it stays open.
 */
function roundLeftEmpty(before: ArcanaBeastState, events: RuleEvent[], dice: DiceSource): RuleEvent[] {
  return roundMayEmpty(before, hooks) ? roundEndsEmpty(events.reduce(evolve, before), dice, hooks) : [];
}

function decideArcana(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  // The command as declared (contract.ts): its fields are typed from here on; the checks below are the rules'.
  const type = command.type as ArcanaCommandType;
  const cmd: ArcanaCommand = parseOrRefuse(ARCANA_BEAST_COMMAND_SCHEMAS[type], command, '', type);
  switch (cmd.type) {
    case 'Attack':
    case 'UseSpecialAttack':
    case 'UseZeroPower':
      return attack(state, cmd, dice);
    case 'Intercept':
      return intercept(state, cmd, dice);
    case 'Defend':
      return defend(state, cmd);
    case 'Assist':
    case 'Guard':
      return assistOrGuard(state, cmd);
    case 'Pass':
      return pass(state, cmd);
    case 'Reposition':
      return reposition(state, cmd, dice);
    case 'Move':
      return move(state, cmd, dice);
    case 'Evolve':
      return evolveStage(state, cmd);
    case 'Direct':
      return direct(state, cmd);
    case 'Encourage':
      return encourage(state, cmd, dice);
    case 'Strategize':
      return strategize(state, cmd, dice);
    case 'CallBack':
      return callBack(state, cmd, dice);
    case 'UseItem':
      return useItem(state, cmd, dice);
    case 'BondSurge':
      return bondSurge(state, cmd);
    case 'SetBand':
      return setBand(state, cmd);
    case 'SetTag':
      return setTag(state, cmd);
    case 'ClearTag':
      return clearTag(state, cmd);
    case 'ApplyCondition':
      return applyCondition(state, cmd);
    case 'RemoveCondition':
      return removeCondition(state, cmd);
    case 'SetTrigger':
      return setTrigger(state, cmd);
    case 'RollTest':
      return rollTestCommand(state, cmd, dice);
    case 'RollOpposedTest':
      return rollOpposedTest(state, cmd, dice);
    case 'RerollInitiative':
      return rerollInitiative(state, dice);
    case 'EndScene':
      return endScene(state);
    default: {
      const unhandled: never = cmd;
      return violation(
        'UNKNOWN_COMMAND',
        `arcana-beast has no command ${type} (${typeof unhandled})`,
        'type',
      );
    }
  }
}

/** The shared lifecycle, with Arcana Beast's additions around some of its commands. */
function decideShared(
  state: ArcanaBeastState,
  command: RuleCommand,
  dice: DiceSource,
): RuleEvent[] | undefined {
  if (
    command.type === 'RollInitiative' &&
    state.status !== 'new' &&
    state.status !== 'ended' &&
    !state.pending
  )
    return rollInitiativeCommand(state, command, dice, hooks);
  const events = decideLifecycle(state, command, dice, hooks);
  if (!events) return undefined;
  // The options as declared (the contract checks them at the edge too; a decider called directly checks them here).
  if (command.type === 'StartFight')
    parseOrRefuse(ARCANA_BEAST_OPTIONS, command.options ?? {}, 'options', 'options');
  const set = command.type === 'SetInitiative' ? events.find((e) => e.type === 'InitiativeSet') : undefined;
  if (set) checkBinderPlaces(state, set.data.order as string[]);
  if (command.type === 'StartFight' || command.type === 'AddCombatant')
    checkLinks(events.reduce(evolve, state), joinedFields(command, events));
  if (command.type === 'AddCombatant') return lateTieBreak(state, command, events);
  // A9: the highest Stage lasts one Combat Encounter; the fight's end ends it.
  if (command.type === 'EndFight') return [...revertHighest(state), ...events];
  if (command.type === 'RemoveCombatant')
    return [...events, ...emptyTurnEnded(events.reduce(evolve, state), dice)];
  return events;
}

/**
 * A32, C10: a late joiner's `tieBreak` names beasts of the fight, the joiner included (checkTieBreak), and the Binders
 * keep their places after it (A29). A Binder rolls no initiative: with one joining, nothing can tie, and a tieBreak is
 * refused.
 */
function lateTieBreak(state: ArcanaBeastState, command: RuleCommand, events: RuleEvent[]): RuleEvent[] {
  const after = events.reduce(evolve, state);
  const joiner = events.find((e) => e.type === 'CombatantJoined')!.data.id as string;
  if (isBinder(after.combatants[joiner]))
    unused(
      command.tieBreak,
      'tieBreak',
      `when a Beast Binder joins: ${joiner} rolls no initiative (ruling A29)`,
    );
  checkTieBreak(after, command.tieBreak);
  return bindersInPlace(state, events);
}

/**
 * A61: a Binder leaving in its Knocked Out or called-back beast's turn leaves no one in that turn (A21): it ends as
 * EndActivation ends it, and the round with it when no one else is left to act (C16).
 */
function emptyTurnEnded(after: ArcanaBeastState, dice: DiceSource): RuleEvent[] {
  if (after.activeId === undefined || after.pending || canActivate(after, after.activeId)) return [];
  return decideLifecycle(after, { type: 'EndActivation' }, dice, hooks) ?? [];
}

/** The payload field of each combatant the command adds: `combatants[i]` (StartFight) or `combatant` (AddCombatant). */
function joinedFields(command: RuleCommand, events: RuleEvent[]): Map<string, string> {
  const ids = events.filter((e) => e.type === 'CombatantJoined').map((e) => e.data.id as string);
  return new Map(ids.map((id, i) => [id, command.type === 'StartFight' ? `combatants[${i}]` : 'combatant']));
}

/** A Binder names one beast, which no other Binder names (arcana-beast.txt: Beast Binder Placement). */
function checkLinks(state: ArcanaBeastState, added: Map<string, string>): void {
  const claimed = new Map<string, string>();
  for (const id of state.joined) {
    const c = state.combatants[id];
    if (!isBinder(c)) continue;
    const beast = combatantOf(state, c.sheet.beastId);
    // Only the added combatants can break a link; name the field of the one that did.
    const field = added.has(id)
      ? `${added.get(id)}.sheet.beastId`
      : `${added.get(c.sheet.beastId)}.sheet.kind`;
    ensure(
      !beast || isBeast(beast),
      'ARCANA_NOT_A_BEAST',
      `arcana-beast.txt: Beast Binder Placement: a Binder shares its turn with an Arcana Beast; ${id}'s beastId ${c.sheet.beastId} is a Beast Binder`,
      field,
    );
    ensure(
      !claimed.has(c.sheet.beastId),
      'ARCANA_BEAST_ALREADY_BOUND',
      `arcana-beast.txt: Beast Binder Placement: ${c.sheet.beastId} already shares its turn with ${claimed.get(c.sheet.beastId)}`,
      field,
    );
    claimed.set(c.sheet.beastId, id);
  }
}
