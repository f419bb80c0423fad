import { settledBefore } from '../../core/handed-over';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ATTACK_SKILL, FULL_GUARD_COST, FULL_GUARD_SKILL, ResponseKind } from '../data';
import { NarateerCommand, ResponseInput } from '../commands';
import { EdgeSources, ev, ExchangeRespondedData } from '../events';
import { evolve } from '../evolve';
import { Weapon, ResponsePolicy } from '../sheet';
import { combatState, CurrentExchange, NarateerCombatant, NarateerState } from '../state';
import {
  cannotSee,
  checkBoost,
  checkReadyAD,
  checkWeaponUse,
  damageVital,
  edgeSources,
  findWeapon,
  firstUnseenAttack,
  hasEffect,
  tryWeaponUse,
  WeaponReach,
} from './common';
import { resolveExchange } from './resolve';

/** narateer.txt: Combat Exchange Flow, steps 5–6, answering the pending decision (C4). */
export function respondToExchange(
  state: NarateerState,
  command: NarateerCommand<'RespondToExchange'>,
  dice: DiceSource,
): RuleEvent[] {
  const x = state.exchange;
  ensure(x && !x.response, 'NARATEER_NO_EXCHANGE', 'there is no exchange waiting for a response', 'type');
  const id = combatantId(state, command.combatantId, 'combatantId');
  ensure(
    id === x.targetId,
    'NARATEER_NOT_THE_RESPONDER',
    `RULINGS.md C4: ${x.targetId} answers this exchange, not ${id}`,
    'combatantId',
  );
  const answer = buildResponse(state, x, command, '');
  const responded = ev('ExchangeResponded', answer);
  return [responded, ...settledBefore([responded], () => resolveExchange(evolve(state, responded), dice))];
}

/** N6/N23: forced none first, then the response given up front, then the sheet's standing policy. */
export function answerInAdvance(
  state: NarateerState,
  given: ResponseInput | undefined,
): ExchangeRespondedData | undefined {
  const x = state.exchange!;
  const forced = forcedNone(state, x);
  if (forced) {
    // N68: the forced No Response wins over what the state refuses, not over a response impossible for the sheet.
    if (given) checkResponseInput(state.combatants[x.targetId], x, given, 'response.');
    return forcedAnswer(x, forced, given?.allocation);
  }
  if (given) {
    const answer = buildResponse(state, x, given, 'response');
    answer.source = 'declaration';
    return answer;
  }
  const policy = state.combatants[x.targetId].sheet.responsePolicy;
  return policy ? policyResponse(state, x, policy) : undefined;
}

/**
 * N6/N23: a forced No Response. Only the response is forced: "The character taking the Wound chooses between AD and MD
 * within the required state" (narateer.txt: Applying Wounds), so an allocation given up front still goes with it (N28).
 */
function forcedAnswer(
  x: CurrentExchange,
  forced: NonNullable<ExchangeRespondedData['forced']>,
  allocation: ResponseInput['allocation'],
): ExchangeRespondedData {
  const answer: ExchangeRespondedData = {
    exchangeId: x.exchangeId,
    combatantId: x.targetId,
    response: 'none',
    boost: 0,
    dice: 0,
    forced,
  };
  if (allocation) answer.allocation = allocation;
  return answer;
}

/** narateer.txt: No Response — unaware, unable to act, out of Ready AD, or incapacitated (N6, N20). */
export function forcedNone(state: NarateerState, x: CurrentExchange): ExchangeRespondedData['forced'] {
  const target = state.combatants[x.targetId];
  if (x.targetUnaware) return 'unaware';
  const s = combatState(target);
  if (s !== 'Active') return s === 'Collapsed' ? 'collapsed' : 'withdrawn';
  if (hasEffect(target, 'incapacitated')) return 'incapacitated';
  if (target.ad.ready === 0) return 'noReadyAD';
  return undefined;
}

function buildResponse(
  state: NarateerState,
  x: CurrentExchange,
  input: ResponseInput,
  prefix: string,
): ExchangeRespondedData {
  const p = prefix ? `${prefix}.` : '';
  const r = state.combatants[x.targetId];
  const base: ExchangeRespondedData = {
    exchangeId: x.exchangeId,
    combatantId: r.id,
    response: input.response,
    boost: input.boost,
    dice: 0,
  };
  if (input.allocation) base.allocation = input.allocation;
  const named = checkResponseInput(r, x, input, p);
  if (input.response === 'none') return base;
  const edge = edgeSources();
  if (x.responderEdge) edge[x.responderEdge].push('gm');
  if (input.response === 'fullGuard') {
    // narateer.txt: Full Guard: Base Cost 1 AD, Melee vs melee, Acrobatics vs ranged, always with Advantage.
    const skill = FULL_GUARD_SKILL[x.kind];
    checkReadyAD(r, FULL_GUARD_COST, input.boost, `${p}boost`);
    edge.advantage.push('fullGuard');
    base.skill = skill;
    base.dice = FULL_GUARD_COST + input.boost;
    base.edge = edge;
    return base;
  }
  return buildClash(state, x, r, input, named, p, base, edge);
}

/**
 * N68: what makes a response impossible for the responder's sheet, whatever the state: checked first, given or forced
 * over (N23), with the code and field it always has. What the state decides (Ready AD, reach, range, loading,
 * ammunition, which weapon a Clash without one takes: N37) is checked after, and not when a forced No Response wins.
 * Returns the weapon a Clash names, so the state's checks need not look it up again.
 */
function checkResponseInput(
  r: NarateerCombatant,
  x: CurrentExchange,
  input: ResponseInput,
  p: string,
): Weapon | undefined {
  if (input.response !== 'clash') notForThisResponse(input, p);
  if (input.response === 'none') {
    ensure(
      input.boost === 0,
      'NARATEER_BOOST_WITHOUT_ROLL',
      'narateer.txt: No Response: the responder makes no roll, so it cannot Boost',
      `${p}boost`,
    );
    return;
  }
  if (input.response === 'fullGuard') {
    checkBoost(r, FULL_GUARD_SKILL[x.kind], input.boost, `${p}boost`);
    return;
  }
  let weapons: Weapon[];
  if (input.weaponId !== undefined) {
    const weapon = findWeapon(r, input.weaponId, `${p}weaponId`);
    ensure(
      weapon.kind === x.kind,
      'NARATEER_WRONG_WEAPON_KIND',
      `narateer.txt: Clash: a ${x.kind} exchange is answered with a ${x.kind} weapon; ${weapon.name} is ${weapon.kind}`,
      `${p}weaponId`,
    );
    weapons = [weapon];
  } else {
    weapons = r.sheet.weapons.filter((w) => w.kind === x.kind);
    ensure(
      weapons.length > 0,
      'NARATEER_NO_LEGAL_CLASH',
      `narateer.txt: Clash: ${r.id} has no ${x.kind} weapon to answer with; Full Guard or No Response remain`,
      `${p}response`,
    );
  }
  checkBoost(r, ATTACK_SKILL[x.kind], input.boost, `${p}boost`);
  const named = input.weaponId === undefined ? undefined : weapons[0];
  const vital = input.damageVital;
  // N21: refused when no weapon it may Clash with deals damage with the Vital; of several, which one the Clash takes
  // is the state's (N37), checked after.
  if (vital === undefined) return named;
  if (weapons.length === 1) damageVital(r, weapons[0], vital, `${p}damageVital`);
  else
    ensure(
      weapons.some((w) => w.damageVitals.includes(vital)),
      'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      `RULINGS.md N21: no ${x.kind} weapon of ${r.id} deals damage with ${vital}`,
      `${p}damageVital`,
    );
  return named;
}

/** The fields only a Clash uses (its weapon, its damage, its hit's modifiers): refused with another response, never ignored. */
const CLASH_ONLY = ['weaponId', 'damageVital', 'harm', 'strikeModifier', 'protectionModifier'] as const;

function notForThisResponse(input: ResponseInput, p: string): void {
  for (const field of CLASH_ONLY)
    ensure(
      input[field] === undefined,
      'NARATEER_CLASH_ONLY_FIELD',
      `narateer.txt: Exchange Responses: only a Clash attacks, so ${input.response} takes no ${field}`,
      `${p}${field}`,
    );
}

/** narateer.txt: Clash — a legal attack that reaches the tempo-holder, paying its Base Attack Cost before Boost. */
function buildClash(
  state: NarateerState,
  x: CurrentExchange,
  r: NarateerCombatant,
  input: ResponseInput,
  named: Weapon | undefined,
  p: string,
  base: ExchangeRespondedData,
  edge: EdgeSources,
): ExchangeRespondedData {
  const skill = ATTACK_SKILL[x.kind];
  const { weapon, reach } = clashWeapon(state, x, r, named, input.boost, `${p}weaponId`, `${p}response`);
  // The Boost is within the Skill Level: checkResponseInput.
  checkReadyAD(r, weapon.baseAttackCost, input.boost, `${p}boost`, `${p}weaponId`);
  const attacker = state.combatants[x.attackerId];
  // N41: a Clash is the responder's attack on the tempo-holder; its first while unseen gains Advantage.
  if (firstUnseenAttack(r, attacker)) edge.advantage.push('unseenAttacker');
  if (cannotSee(r, attacker, x.targetCannotSeeAttacker === true)) edge.disadvantage.push('cannotSeeTarget');
  if (reach.beyondEffective) edge.disadvantage.push('beyondEffectiveRange');
  // Built field by field: V8 spreads that add keys are slow, and this is the benchmark's hot path.
  base.skill = skill;
  base.dice = weapon.baseAttackCost + input.boost;
  base.weaponId = weapon.id;
  base.damageVital = damageVital(r, weapon, input.damageVital, `${p}damageVital`);
  base.harm = input.harm ?? weapon.harm;
  base.edge = edge;
  if (input.strikeModifier !== undefined) base.strikeModifier = input.strikeModifier;
  if (input.protectionModifier !== undefined) base.protectionModifier = input.protectionModifier;
  return base;
}

/**
 * N35/N37: the named weapon (found and of the exchange's kind: checkResponseInput, N68), or the first of the
 * exchange's kind that reaches (or can fire) and whose Base Attack Cost and Boost the Ready AD pay; failing that, the
 * first that reaches, to be refused.
 */
function clashWeapon(
  state: NarateerState,
  x: CurrentExchange,
  r: NarateerCombatant,
  named: Weapon | undefined,
  boost: number,
  field: string,
  responseField: string,
): { weapon: Weapon; reach: WeaponReach } {
  if (named)
    return { weapon: named, reach: checkWeaponUse(state, r, named, x.attackerId, x.distance, field) };
  const candidates = r.sheet.weapons.filter((w) => w.kind === x.kind);
  let reaching: { weapon: Weapon; reach: WeaponReach } | undefined;
  for (const weapon of candidates) {
    const reach = tryWeaponUse(state, r, weapon, x.attackerId, x.distance);
    if (reach && weapon.baseAttackCost + boost <= r.ad.ready) return { weapon, reach };
    if (reach) reaching ??= { weapon, reach };
  }
  if (reaching) return reaching;
  if (candidates.length > 0) checkWeaponUse(state, r, candidates[0], x.attackerId, x.distance, field);
  ensure(
    false,
    'NARATEER_NO_LEGAL_CLASH',
    `narateer.txt: Clash: ${r.id} has no ${x.kind} weapon to answer with; Full Guard or No Response remain`,
    responseField,
  );
}

/** N23: the policy's response with its Boost capped to what is legal, else its fallback, else none. */
function policyResponse(
  state: NarateerState,
  x: CurrentExchange,
  policy: ResponsePolicy,
): ExchangeRespondedData {
  for (const response of [policy.response, policy.fallback]) {
    const answer = policyTry(state, x, response, policy);
    if (answer) {
      answer.source = 'policy';
      return answer;
    }
  }
  return {
    exchangeId: x.exchangeId,
    combatantId: x.targetId,
    response: 'none',
    boost: 0,
    dice: 0,
    source: 'policy',
  };
}

function policyTry(
  state: NarateerState,
  x: CurrentExchange,
  response: ResponseKind,
  policy: ResponsePolicy,
): ExchangeRespondedData | undefined {
  const r = state.combatants[x.targetId];
  if (response === 'none') return buildResponse(state, x, { response, boost: 0 }, 'responsePolicy');
  let cost = FULL_GUARD_COST;
  let weaponId: string | undefined;
  if (response === 'clash') {
    // N37: only a weapon that reaches and whose Base Attack Cost the Ready AD pay is a legal Clash.
    const preferred = policy.weaponId
      ? r.sheet.weapons.filter((w) => w.id === policy.weaponId)
      : r.sheet.weapons;
    const weapon = preferred.find(
      (w) =>
        w.kind === x.kind &&
        w.baseAttackCost <= r.ad.ready &&
        tryWeaponUse(state, r, w, x.attackerId, x.distance),
    );
    if (!weapon) return undefined;
    [cost, weaponId] = [weapon.baseAttackCost, weapon.id];
  }
  if (cost > r.ad.ready) return undefined;
  const skill = response === 'fullGuard' ? FULL_GUARD_SKILL[x.kind] : ATTACK_SKILL[x.kind];
  const boost = Math.min(policy.boost, r.sheet.skills[skill], r.ad.ready - cost);
  return buildResponse(state, x, { response, boost, weaponId }, 'responsePolicy');
}
