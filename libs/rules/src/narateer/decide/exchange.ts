import { settledBefore } from '../../core/handed-over';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ATTACK_SKILL, ExchangeKind } from '../data';
import { AttackInput, NarateerCommand } from '../commands';
import { ev, ExchangeDeclaredData } from '../events';
import { evolve } from '../evolve';
import { NarateerState } from '../state';
import {
  ableToAct,
  cannotSee,
  checkCommitment,
  checkWeaponUse,
  damageVital,
  edgeSources,
  findWeapon,
  firstUnseenAttack,
  proactiveLimit,
} from './common';
import { answerInAdvance } from './respond';
import { resolveExchange } from './resolve';

/** narateer.txt: Combat Exchange Flow, steps 1–4; the tempo-holder declares during its own activation. */
export function declareExchange(
  state: NarateerState,
  command: NarateerCommand<'DeclareExchange'>,
  dice: DiceSource,
): RuleEvent[] {
  const attackerId = combatantId(state, command.attackerId, 'attackerId');
  const kind = command.kind;
  const attacker = state.combatants[attackerId];
  ensure(
    state.roundOpen && state.activeId === attackerId,
    'NARATEER_NOT_YOUR_TEMPO',
    `narateer.txt: Tempo: only the combatant whose activation it is initiates an exchange (now: ${state.activeId ?? 'nobody'})`,
    'attackerId',
  );
  const skill = ATTACK_SKILL[kind];
  const limit = proactiveLimit(attacker, skill);
  ensure(
    attacker.uses[kind] < limit,
    'NARATEER_PROACTIVE_LIMIT',
    `narateer.txt: Skill Level In Combat: ${attackerId} has used all ${limit} proactive ${skill} uses of this activation (RULINGS.md N5)`,
    'kind',
  );
  const declared = buildDeclaration(state, attackerId, command.targetId, kind, command);
  return completeDeclaration(state, declared, command, dice);
}

/** Steps 1, 3 and 4 for any initiator (tempo-holder or Opportunity Attack). */
export function buildDeclaration(
  state: NarateerState,
  attackerId: string,
  targetName: string,
  kind: ExchangeKind,
  input: AttackInput,
): ExchangeDeclaredData {
  const targetId = combatantId(state, targetName, 'targetId');
  const attacker = state.combatants[attackerId];
  const target = state.combatants[targetId];
  ensure(
    ableToAct(attacker),
    'NARATEER_CANNOT_ACT',
    `ruling N20/N26: ${attackerId} is not able to act`,
    'attackerId',
  );
  // N48: any other combatant may be the target (an ally, a Collapsed or Withdrawn one); only oneself is refused.
  ensure(
    targetId !== attackerId,
    'NARATEER_INVALID_TARGET',
    'narateer.txt: Combat Exchange Flow: name a target other than yourself',
    'targetId',
  );
  const weapon = findWeapon(attacker, input.weaponId, 'weaponId');
  ensure(
    weapon.kind === kind,
    'NARATEER_WRONG_WEAPON_KIND',
    `narateer.txt: ${kind === 'melee' ? 'Melee' : 'Ranged'} Exchanges: ${weapon.name} is a ${weapon.kind} weapon`,
    'weaponId',
  );
  const skill = ATTACK_SKILL[kind];
  checkCommitment(attacker, skill, weapon.baseAttackCost, input.boost, 'boost', 'weaponId');
  const reach = checkWeaponUse(state, attacker, weapon, targetId, input.distance, 'weaponId', 'distance');
  const edge = edgeSources();
  if (input.edge) edge[input.edge].push('gm');
  if (input.attackerUnseen || firstUnseenAttack(attacker, target)) edge.advantage.push('unseenAttacker');
  if (cannotSee(attacker, target, input.attackerCannotSeeTarget)) edge.disadvantage.push('cannotSeeTarget');
  if (reach.beyondEffective) edge.disadvantage.push('beyondEffectiveRange');
  const data: ExchangeDeclaredData = {
    exchangeId: `x${state.exchanges + 1}`,
    attackerId,
    targetId,
    kind,
    skill,
    weaponId: weapon.id,
    boost: input.boost,
    dice: weapon.baseAttackCost + input.boost,
    damageVital: damageVital(attacker, weapon, input.damageVital, 'damageVital'),
    harm: input.harm ?? weapon.harm,
    edge,
  };
  if (reach.distance !== undefined) data.distance = reach.distance;
  if (input.responderEdge) data.responderEdge = input.responderEdge;
  if (input.targetCannotSeeAttacker) data.targetCannotSeeAttacker = true;
  if (input.targetUnaware) data.targetUnaware = true;
  if (input.strikeModifier !== undefined) data.strikeModifier = input.strikeModifier;
  if (input.protectionModifier !== undefined) data.protectionModifier = input.protectionModifier;
  if (input.allocation) data.allocation = input.allocation;
  return data;
}

/** Step 5: a response known now (forced, given, or by policy) resolves at once; otherwise the responder is asked (C4). */
export function completeDeclaration(
  state: NarateerState,
  declared: ExchangeDeclaredData,
  input: AttackInput,
  dice: DiceSource,
): RuleEvent[] {
  const declaredEvent = ev('ExchangeDeclared', declared);
  const after = evolve(state, declaredEvent);
  const answer = answerInAdvance(after, input.response);
  if (!answer) return [declaredEvent];
  const responded = ev('ExchangeResponded', answer);
  return [
    declaredEvent,
    responded,
    ...settledBefore([declaredEvent, responded], () => resolveExchange(evolve(after, responded), dice)),
  ];
}
