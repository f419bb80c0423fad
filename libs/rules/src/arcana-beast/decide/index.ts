import { decideLifecycle, LifecycleHooks } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ARCANA_COMMANDS, ArcanaCommandType } from '../commands';
import { evolve, newCombatant } from '../evolve';
import { rollInitiative } from '../initiative';
import { validateSheet } from '../sheet';
import { ArcanaBeastState, isBeast, isBinder } from '../state';
import { assistOrGuard, defend, pass } from './actions';
import { attack, intercept } from './attack';
import { bondSurge, callBack, direct, encourage, strategize, useItem } from './binder';
import { endScene, evolveStage, revertHighest, setTrigger } from './evolution';
import { applyCondition, clearTag, removeCondition, rollOpposedTest, rollTestCommand, setTag } from './gm';
import { move, reposition, setBand } from './movement';
import { canActivate, onActivationStart, rerollInitiative, rollInitiativeCommand } from './turn';

export const hooks: LifecycleHooks<ArcanaBeastState> = {
  system: 'arcana-beast',
  validateSheet,
  newCombatant,
  rollInitiative,
  canActivate,
  onActivationStart,
  evolve,
};

/** RULINGS.md C4: the commands that answer each pending decision. */
const ANSWERS: Record<string, readonly string[]> = {
  intercept: ['Intercept'],
  initiativeTie: ['SetInitiative', 'RerollInitiative'],
};

export function decide(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] {
  const lifecycle = decideShared(state, command, dice);
  if (lifecycle) return lifecycle;
  if (!Object.prototype.hasOwnProperty.call(ARCANA_COMMANDS, command.type)) violation('UNKNOWN_COMMAND', `arcana-beast has no command ${String(command.type)}`, 'type');
  ensure(state.status !== 'new', 'FIGHT_NOT_STARTED', 'the fight has not been started', 'type');
  ensure(state.status !== 'ended', 'FIGHT_ENDED', 'the fight has ended; it accepts no more commands', 'type');
  const pending = state.pending;
  const answers = pending ? (ANSWERS[pending.kind] ?? [pending.answer]) : [];
  if (pending && !answers.includes(command.type)) violation('PENDING_DECISION', `RULINGS.md C4: waiting for ${pending.awaiting} to answer ${pending.kind} with ${answers.join(' or ')}`, 'type');
  const type = command.type as ArcanaCommandType;
  switch (type) {
    case 'Attack': return attack(state, command, dice, 'attack');
    case 'UseSpecialAttack': return attack(state, command, dice, 'specialAttack');
    case 'UseZeroPower': return attack(state, command, dice, 'zeroPower');
    case 'Intercept': return intercept(state, command, dice);
    case 'Defend': return defend(state, command);
    case 'Assist': return assistOrGuard(state, command, 'assist');
    case 'Guard': return assistOrGuard(state, command, 'guard');
    case 'Pass': return pass(state, command);
    case 'Reposition': return reposition(state, command, dice);
    case 'Move': return move(state, command, dice);
    case 'Evolve': return evolveStage(state, command);
    case 'Direct': return direct(state, command);
    case 'Encourage': return encourage(state, command, dice);
    case 'Strategize': return strategize(state, command, dice);
    case 'CallBack': return callBack(state, command, dice);
    case 'UseItem': return useItem(state, command, dice);
    case 'BondSurge': return bondSurge(state, command);
    case 'SetBand': return setBand(state, command);
    case 'SetTag': return setTag(state, command);
    case 'ClearTag': return clearTag(state, command);
    case 'ApplyCondition': return applyCondition(state, command);
    case 'RemoveCondition': return removeCondition(state, command);
    case 'SetTrigger': return setTrigger(state, command);
    case 'RollTest': return rollTestCommand(state, command, dice);
    case 'RollOpposedTest': return rollOpposedTest(state, command, dice);
    case 'RerollInitiative': return rerollInitiative(state, dice);
    case 'EndScene': return endScene(state);
    default: {
      const unhandled: never = type;
      return violation('UNKNOWN_COMMAND', `arcana-beast has no command ${String(unhandled)}`, 'type');
    }
  }
}

/** The shared lifecycle, with Arcana Beast's additions around three of its commands. */
function decideShared(state: ArcanaBeastState, command: RuleCommand, dice: DiceSource): RuleEvent[] | undefined {
  if (command.type === 'RollInitiative' && state.status !== 'new' && state.status !== 'ended' && !state.pending) return rollInitiativeCommand(state, command, dice, hooks);
  const events = decideLifecycle(state, command, dice, hooks);
  if (!events) return undefined;
  if (command.type === 'StartFight' || command.type === 'AddCombatant') checkLinks(events.reduce(evolve, state));
  // RULINGS.md A9: the highest Stage lasts one Combat Encounter; the fight's end ends it.
  if (command.type === 'EndFight') return [...revertHighest(state), ...events];
  return events;
}

/** A Binder names one beast, which no other Binder names. */
function checkLinks(state: ArcanaBeastState): void {
  const claimed = new Map<string, string>();
  for (const id of state.joined) {
    const c = state.combatants[id];
    if (!isBinder(c)) continue;
    const beast = state.combatants[c.sheet.beastId];
    ensure(!beast || isBeast(beast), 'ARCANA_NOT_A_BEAST', `${id}'s beastId ${c.sheet.beastId} is not an Arcana Beast`, 'combatants');
    ensure(!claimed.has(c.sheet.beastId), 'ARCANA_BEAST_ALREADY_BOUND', `${c.sheet.beastId} is already bound to ${claimed.get(c.sheet.beastId)}`, 'combatants');
    claimed.set(c.sheet.beastId, id);
  }
}
