import { parseOrRefuse } from '../../core/contract';
import { combatantId } from '../../core/lifecycle';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ARCHSOUL_COMMAND_SCHEMAS, ArchsoulCommand } from '../contract';
import { CHARGE, PREVENTION_TEST } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { distance } from '../grid';
import { poolOf, rollTest } from '../rolls';
import {
  ArchsoulCombatant,
  ArchsoulState,
  hasCondition,
  HeldAction,
  heldBy,
  grapplesOf,
  isDown,
  ReactionQueue,
  Trigger,
} from '../state';
import { ownFist, reachOf, weaponOf } from './common';
import { FIST, isMeleeOrUnarmed } from '../sheet';
import { performAttack, performThrow } from './attack';
import { performAwkward, performPickUp } from './items';
import { performStandUp, walk } from './movement';
import { performSoulShield } from './stances';
import { dragAlong, grappleRoll, performGrab } from './grapple';
import { describeHands, freeHands } from '../hands';
import { run } from '../../core/run';
import { performAreaAttack } from './area';
import { checkLimbArmoured, checkUnarmedStyle } from './weapons';
import { dismountOnInterrupt, performCharge } from './mounted';
import { checkOptions, readOptions } from './maneuvers';
import { ritualPerformed } from './ritual';
import { followUps } from './reactions';

function offered(state: ArchsoulState, command: { combatantId: string }) {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const q = state.reaction;
  ensure(
    q && q.current === id,
    'ARCHSOUL_NOT_YOUR_REACTION',
    `ruling S18: no reactive attack is offered to ${id}`,
    'combatantId',
  );
  return { id, q };
}

/**
 * The reactor's melee attack before the action (no AP); a hit forces the actor's Endurance/Resolve roll at
 * difficulty 3, which must exceed the damage taken or the action is prevented (S8, S13).
 */
export function reactiveAttack(
  state: ArchsoulState,
  command: ArchsoulCommand<'ReactiveAttack'>,
  dice: DiceSource,
): RuleEvent[] {
  const { id, q } = offered(state, command);
  if (command.grab) return reactiveGrab(state, command, id, q, dice);
  const reactor = state.combatants[id];
  const actor = state.combatants[q.actorId];
  const weapon = weaponOf(reactor, command.weaponId, 'weaponId');
  checkUnarmedStyle(weapon, command.unarmedStyle);
  checkLimbArmoured(weapon, command.limbArmoured);
  ensure(
    isMeleeOrUnarmed(weapon),
    'ARCHSOUL_NOT_A_MELEE_WEAPON',
    'archsoul.txt: Reactive Attack: "a melee attack or special maneuver"',
    'weaponId',
  );
  // S26 decides whether the reactor reaches; the attack it makes is with a weapon that reaches the actor.
  const d = distance(state.map.grid, reactor.position!, actor.position!);
  ensure(
    d <= reachOf(weapon),
    'ARCHSOUL_OUT_OF_REACH',
    `archsoul.txt: Reactive Attack: "within reach of one of your melee attacks … interrupt the action with a melee attack": ${weapon.name} reaches ${reachOf(weapon)} space(s); ${actor.id} is ${d} away`,
    'weaponId',
  );
  // archsoul.txt: Attack Modifiers "can modify other weapon attacks, including reactive attacks" (not Cleave).
  checkOptions(state, reactor, weapon, actor, readOptions(state, command), 'reactive');
  // archsoul.txt: Charge: "Reactive attacks made against you during this movement by a weapon with the Polearm property also gain the same boost to damage".
  const boost =
    q.action?.type === 'Charge' && weapon.properties.includes(CHARGE.boostedReactive)
      ? (actor.sheet.mount?.speed ?? 0)
      : 0;
  const events = performAttack(
    state,
    { attacker: reactor, weapon, target: actor, input: command, action: 'reactive', bonusDice: boost },
    dice,
  );
  let after = events.reduce(evolve, state);
  const resolved = events.find((e) => e.type === 'ExchangeResolved')!.data as { hit: boolean };
  // S59: a held action whose weapon or item the reactive attack took (shattered, or dropped instead) cannot happen.
  const lost = q.action ? lostItem(after.combatants[actor.id], q.action) : undefined;
  // S20: a reactive attack that left its attacker open critically failed (no hit); the reaction it opened comes first.
  const opened = after.reaction !== undefined && after.reaction.actorId === id;
  const wounds = events.find(
    (e) => e.type === 'WoundsApplied' && (e.data as { combatantId: string }).combatantId === actor.id,
  );
  const damage = wounds ? (wounds.data as { damage: number }).damage : 0;
  // archsoul.txt: Knockdown: "the opponent is knocked to the ground", even one that was getting up from it (StandUp).
  const knocked = events.some(
    (e) => e.type === 'KnockdownResolved' && (e.data as { knockedDown: boolean }).knockedDown,
  );
  let prevention: RuleEvent | undefined;
  let held = q.action;
  if ((resolved.hit || lost) && q.action && !opened)
    prevention = preventionRoll(after, actor, id, q.trigger, damage, dice, lost, knocked);
  else if (resolved.hit && !q.action) {
    // S20: no roll against an opening (nothing of its own to prevent); S26: one that leaves Down an actor whose action
    // a sequence it interrupted holds prevents that action without a roll.
    const holder = heldBy(after.reaction);
    if (holder && holder.actorId === actor.id && isDown(after.combatants[actor.id])) {
      held = holder.action;
      prevention = ev('PreventionRolled', {
        combatantId: actor.id,
        reactorId: id,
        damage,
        prevented: true,
        reason: `RULINGS.md S26: the actor is Down; its held ${holder.action.type} is prevented (S20: no roll)`,
      });
    }
  }
  if (prevention) after = prevent(after, events, prevention, actor.id, held);
  return [...events, ...followUps(after)];
}

/** The prevention's outcome joins the events; S35: a prevented Charge leaves a mounted actor's mount behind. */
function prevent(
  state: ArchsoulState,
  events: RuleEvent[],
  prevention: RuleEvent,
  actorId: string,
  held: HeldAction | undefined,
): ArchsoulState {
  events.push(prevention);
  let after = evolve(state, prevention);
  if (
    (prevention.data as { prevented: boolean }).prevented &&
    held?.type === 'Charge' &&
    after.combatants[actorId].mounted
  ) {
    const fell = dismountOnInterrupt(after, actorId);
    events.push(...fell);
    after = fell.reduce(evolve, after);
  }
  return after;
}

/** Fields of a reactive attack that a reactive Grab refuses (S71): its weapon, other maneuvers, the attack's own. */
const NOT_WITH_GRAB = {
  weapon: ['weaponId'],
  maneuver: ['feint', 'sneak', 'knockdown', 'shatter', 'cleave', 'special'],
  attack: ['unarmedStyle', 'limbArmoured', 'modifier', 'damageModifier', 'criticalNarration'],
} as const;

/** S71: what a reactive Grab refuses: a weapon, another maneuver, an attack's own fields, no empty hand, no adjacency. */
function checkReactiveGrab(
  state: ArchsoulState,
  command: ArchsoulCommand<'ReactiveAttack'>,
  reactor: ArchsoulCombatant,
  actor: ArchsoulCombatant,
): void {
  const id = reactor.id;
  const named = (fields: readonly string[]) =>
    fields.find(
      (f) =>
        (command as Record<string, unknown>)[f] !== undefined &&
        (command as Record<string, unknown>)[f] !== false,
    );
  const weaponField = named(NOT_WITH_GRAB.weapon);
  ensure(
    weaponField === undefined,
    'ARCHSOUL_REACTIVE_GRAB_WEAPON',
    `archsoul.txt: Grab: "roll an unarmed attack with an empty hand": a reactive Grab names no weapon (ruling S71)`,
    'weaponId',
  );
  const maneuver = named(NOT_WITH_GRAB.maneuver);
  ensure(
    maneuver === undefined,
    'ARCHSOUL_REACTIVE_GRAB_COMBINATION',
    `archsoul.txt: Reactive Attack: "a melee attack or special maneuver": a reactive Grab is that one maneuver; ${maneuver} cannot join it (ruling S71)`,
    maneuver ?? 'grab',
  );
  const extra = named(NOT_WITH_GRAB.attack);
  ensure(
    extra === undefined,
    'ARCHSOUL_REACTIVE_GRAB_FIELD',
    `archsoul.txt: Grab: its roll is the grapple's unarmed attack, as a Grab's; ${extra} belongs to an attack (ruling S71)`,
    extra ?? 'grab',
  );
  ensure(
    freeHands(reactor.hands) > 0,
    'ARCHSOUL_GRAB_NO_EMPTY_HAND',
    `archsoul.txt: Grab: "roll an unarmed attack with an empty hand"; ${id}'s two hands hold ${describeHands(reactor.sheet, reactor.hands)} (ruling S33, S51, S71)`,
    'combatantId',
  );
  const d = distance(state.map.grid, reactor.position!, actor.position!);
  ensure(
    d <= FIST.reach,
    'ARCHSOUL_OUT_OF_REACH',
    `archsoul.txt: Grab: an unarmed attack reaches adjacent spaces; ${actor.id} is ${d} away (ruling S71)`,
    'grab',
  );
}

/**
 * archsoul.txt: Reactive Attack: "interrupt the action with a melee attack or special maneuver without spending
 * action points"; Grab: "roll an unarmed attack with an empty hand ... On a successful hit, you and your opponent
 * become grappled and you gain control of the grapple". S71: the reactor's Grab (no AP) against the actor's grapple
 * roll; a success decides the held action as Being Grappled does.
 */
function reactiveGrab(
  state: ArchsoulState,
  command: ArchsoulCommand<'ReactiveAttack'>,
  id: string,
  q: ReactionQueue,
  dice: DiceSource,
): RuleEvent[] {
  const reactor = state.combatants[id];
  const actor = state.combatants[q.actorId];
  checkReactiveGrab(state, command, reactor, actor);
  // The offer is answered first, as an attack's exchange answers it (S20: a fumble's opening then waits on top).
  const attempted = ev('ReactiveGrabAttempted', { actorId: actor.id, reactorId: id });
  const events = [attempted, ...performGrab(evolve(state, attempted), id, actor.id, dice)];
  let after = events.reduce(evolve, state);
  // S20: a fumbled Grab that left the reactor open: the reaction it opened comes first; no grapple, nothing prevented.
  const opened = after.reaction !== undefined && after.reaction.actorId === id;
  const started = events.some((e) => e.type === 'GrappleStarted');
  if (started && q.action && !opened) {
    const g = grapplesOf(after, id).find((x) => x.memberIds.includes(actor.id))!;
    const verdict = grabbedAction(after, after.combatants[actor.id], q.trigger, q.action);
    const stopped = (reason: string) =>
      ev('PreventionRolled', { combatantId: actor.id, reactorId: id, damage: 0, prevented: true, reason });
    let prevention: RuleEvent;
    if (verdict) prevention = stopped(verdict);
    else {
      // Being Grappled: "All other actions require a successful grapple roll to attempt"; the reactor controls (ties).
      const rolls = run(after, evolve);
      const s = rolls.state();
      const won = grappleRoll(
        s,
        s.combatants[actor.id],
        s.combatants[id],
        q.action.type,
        dice,
        g,
        rolls.push,
      );
      events.push(...rolls.events);
      after = rolls.state();
      prevention = won
        ? ev('PreventionRolled', {
            combatantId: actor.id,
            reactorId: id,
            damage: 0,
            prevented: false,
            reason: `archsoul.txt: Being Grappled: ${actor.id} won the grapple roll its ${q.action.type} requires (ruling S71)`,
          })
        : stopped(
            `archsoul.txt: Being Grappled: ${actor.id} lost the grapple roll its ${q.action.type} requires (ruling S71)`,
          );
    }
    after = prevent(after, events, prevention, actor.id, q.action);
  }
  return [...events, ...followUps(after)];
}

/**
 * S71: why a held action cannot be performed by an actor the reactive Grab grappled (archsoul.txt: Being Grappled:
 * "you may not attack with a weapon, perform a ritual that requires movement, or perform a regular move action";
 * S48: weapon attacks; a Grab of the reactor who now holds it has nothing left to start). Undefined: it takes the
 * grapple roll of "all other actions".
 */
function grabbedAction(
  state: ArchsoulState,
  actor: ArchsoulCombatant,
  trigger: Trigger,
  action: HeldAction,
): string | undefined {
  const because = (what: string) =>
    `archsoul.txt: Being Grappled: ${actor.id} may not ${what}: the reactive Grab prevented its ${action.type} (ruling S71)`;
  if (trigger === 'trample' || action.type === 'Move' || action.type === 'Charge')
    return because('perform a regular move action');
  if (action.type === 'ThrowItem') return because('attack with a weapon (a throw, ruling S48)');
  if (action.type === 'Attack' || action.type === 'AreaAttack') {
    const id = action.payload.weaponId;
    const w = actor.sheet.weapons.find((x) => x.id === id) ?? FIST;
    if (w.type !== 'unarmed' && !w.soulMagic) return because(`attack with a weapon (${w.name}, ruling S48)`);
  }
  if (action.type === 'PerformRitual' && action.payload.movement)
    return because('perform a ritual that requires movement');
  if (
    action.type === 'Grab' &&
    grapplesOf(state, actor.id).some((g) => g.memberIds.includes(action.payload.targetId))
  )
    return `ruling S71: ${actor.id} and ${action.payload.targetId} are already grappling: its Grab has nothing to start`;
  return undefined;
}

/**
 * Whether a hit prevents the action: a Trample's hit stops the movement, a Down or knocked-down actor is stopped
 * (S26, S32); otherwise the actor's Endurance/Resolve roll must exceed the damage taken.
 */
function preventionRoll(
  after: ArchsoulState,
  actor: ArchsoulCombatant,
  reactorId: string,
  trigger: Trigger,
  damage: number,
  dice: DiceSource,
  lost?: string,
  knocked = false,
): RuleEvent {
  const hurt = after.combatants[actor.id];
  const stopped = (reason: string) =>
    ev('PreventionRolled', { combatantId: actor.id, reactorId, damage, prevented: true, reason });
  if (trigger === 'trample')
    return stopped('archsoul.txt: Trample: "If the attack hits, your movement is stopped"');
  if (isDown(hurt)) return stopped('RULINGS.md S26: the actor is Down');
  // S32; archsoul.txt: Knockdown: an actor standing up that is knocked to the ground again does not get up.
  if (knocked || (hasCondition(hurt, 'prone') && !hasCondition(actor, 'prone')))
    return stopped('RULINGS.md S32: a reactive Knockdown knocked the actor down');
  if (lost) return stopped(lost);
  const test = rollTest(
    dice,
    poolOf(hurt, PREVENTION_TEST.attribute, PREVENTION_TEST.skill),
    PREVENTION_TEST.difficulty,
  );
  const prevented = test.successes <= damage;
  return ev('PreventionRolled', {
    combatantId: actor.id,
    reactorId,
    damage,
    test,
    prevented,
    reason: `archsoul.txt: Reactive Attack: Endurance/Resolve ${test.successes} ${prevented ? 'does not exceed' : 'exceeds'} ${damage} damage`,
  });
}

/**
 * S59: why the held action can no longer be performed as declared: the weapon or item it is made with is no longer
 * in hand or is destroyed (a reactive Shatter broke it, or the actor dropped it instead). Undefined: it still can.
 */
function lostItem(c: ArchsoulCombatant, action: HeldAction): string | undefined {
  const itemId =
    action.type === 'Attack' || action.type === 'AreaAttack'
      ? action.payload.weaponId
      : action.type === 'ThrowItem'
        ? action.payload.itemId
        : action.type === 'Charge'
          ? action.payload.charge?.weaponId
          : undefined;
  // S96: the built-in fist is never lost; a sheet's weapon with its id can be.
  if (itemId === undefined || (itemId === FIST.id && !ownFist(c))) return undefined;
  if (c.held.includes(itemId) && !c.weapons[itemId]?.destroyed) return undefined;
  return `ruling S59: the held ${action.type} is made with ${itemId}, which ${c.id} no longer holds: the reactive attack prevented it`;
}

export function declineReactiveAttack(
  state: ArchsoulState,
  command: ArchsoulCommand<'DeclineReactiveAttack'>,
): RuleEvent[] {
  const { id, q } = offered(state, command);
  const declined = ev('ReactiveAttackDeclined', { actorId: q.actorId, reactorId: id });
  return [declined, ...followUps(evolve(state, declined))];
}

/** What a ResumeAction may carry: its own fields as declared, the held action's dice and the GM's circumstances (C12). */
const RESUME_FIELDS = Object.keys(ARCHSOUL_COMMAND_SCHEMAS.ResumeAction.shape);

/**
 * S18: the held action is performed (or abandoned; its AP stay spent). S50: it was checked when it was
 * declared, so a field the resume does not declare is refused naming the held action before the contract is applied.
 */
export function resumeAction(state: ArchsoulState, raw: RuleCommand, dice: DiceSource): RuleEvent[] {
  const q = state.reaction;
  const extra = Object.keys(raw).find((k) => !RESUME_FIELDS.includes(k));
  if (extra !== undefined && q?.action)
    violation(
      'ARCHSOUL_RESUME_FIELD',
      `ruling S50: ResumeAction performs the held ${q.action.type} as declared; ${extra} cannot be added or changed now (allowed: ${RESUME_FIELDS.slice(1).join(', ')})`,
      extra,
    );
  const command = parseOrRefuse(ARCHSOUL_COMMAND_SCHEMAS.ResumeAction, raw, '', 'ResumeAction');
  const id = combatantId(state, command.combatantId, 'combatantId');
  ensure(
    q && q.action && q.actorId === id && state.pending?.kind === 'resumeAction',
    'ARCHSOUL_NOTHING_TO_RESUME',
    `ruling S18: ${id} has no held action`,
    'combatantId',
  );
  checkResumeReads(state, id, q.action, command);
  const resumed = ev('ActionResumed', {
    combatantId: id,
    action: q.action,
    abandoned: command.abandon ?? false,
  });
  if (command.abandon) return [resumed];
  return [resumed, ...performHeld(evolve(state, resumed), id, q.action, command, dice)];
}

/** The held actions whose resume rolls an attack: the GM's circumstances (C12) ride on it (S50). */
const ROLLS_AN_ATTACK: ReadonlySet<HeldAction['type']> = new Set([
  'Attack',
  'ThrowItem',
  'AreaAttack',
  'Charge',
]);
const RESUME_GM_FIELDS = ['modifier', 'damageModifier', 'criticalNarration', 'limbArmoured'] as const;

/**
 * S100: a field of the resume that its held action never reads is refused, as the held action's own command would
 * refuse it: nothing is rolled when it is abandoned or has no attack roll (a move, standing up, a pick-up, a Grab, Soul
 * Shield, a ritual); `limbArmoured` names the limb of an unarmed Attack only (archsoul.txt: Unarmed, S72).
 */
function checkResumeReads(
  state: ArchsoulState,
  id: string,
  action: HeldAction,
  command: ArchsoulCommand<'ResumeAction'>,
): void {
  const given = RESUME_GM_FIELDS.find((f) => command[f] !== undefined);
  if (given === undefined) return;
  const refuse = (why: string) =>
    violation(
      'ARCHSOUL_RESUME_FIELD',
      `ruling S100: ${given} is a circumstance of an attack roll; ${why}`,
      given,
    );
  if (command.abandon) refuse(`the held ${action.type} is abandoned: nothing is rolled`);
  if (!ROLLS_AN_ATTACK.has(action.type)) refuse(`the held ${action.type} rolls no attack`);
  if (command.limbArmoured === undefined) return;
  if (action.type !== 'Attack')
    violation(
      'ARCHSOUL_RESUME_FIELD',
      `ruling S100: limbArmoured names the limb of an unarmed Attack; the held ${action.type} has none`,
      'limbArmoured',
    );
  const c = state.combatants[id];
  checkLimbArmoured(weaponOf(c, action.payload.weaponId, 'weaponId'), command.limbArmoured);
}

/** S18: the held action, performed as it was declared, with the resume's dice and circumstances (C12). */
function performHeld(
  s: ArchsoulState,
  id: string,
  action: HeldAction,
  command: ArchsoulCommand<'ResumeAction'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = s.combatants[id];
  switch (action.type) {
    case 'Move':
      // archsoul.txt: Being Grappled: a grappled actor's Slow Move, resumed, drags its partners as when not held.
      return dragAlong(s, walk(s, action.payload, 'path', dice), id);
    case 'Charge': {
      // S50, S100: the GM's circumstances of the moment ride on the Charge's attack too (Charge has no limbArmoured).
      const { modifier, damageModifier, criticalNarration } = command;
      const gm = Object.fromEntries(
        Object.entries({ modifier, damageModifier, criticalNarration }).filter(([, v]) => v !== undefined),
      );
      const p = action.payload;
      return performCharge(s, { ...p, charge: { ...p.charge!, ...gm } }, dice);
    }
    case 'StandUp':
      return performStandUp(c);
    case 'Attack': {
      const p = action.payload;
      return performAttack(
        s,
        {
          attacker: c,
          weapon: weaponOf(c, p.weaponId, 'weaponId'),
          target: s.combatants[p.targetId!],
          input: { ...p, ...command },
          action: 'attack',
        },
        dice,
      );
    }
    case 'ThrowItem': {
      const p = action.payload;
      return performThrow(s, c, p.itemId, s.combatants[p.targetId], { ...p, ...command }, dice);
    }
    case 'DrawSimpleItem':
      return performPickUp(s, c, action.payload.groundId);
    case 'DrawAwkwardItem':
      return performAwkward(s, c, action.payload.itemId, action.payload.ap);
    case 'SoulShield':
      return performSoulShield(c, action.payload.targetId);
    case 'Grab':
      return performGrab(s, c.id, action.payload.targetId, dice);
    case 'AreaAttack': {
      const p = action.payload;
      return performAreaAttack(s, c, p.weaponId, p.centre, { ...p, ...command }, dice);
    }
    case 'PerformRitual': {
      const { combatantId: _c, ...ritual } = action.payload;
      return ritualPerformed(c, ritual);
    }
    default: {
      const unhandled: never = action;
      return unhandled;
    }
  }
}
