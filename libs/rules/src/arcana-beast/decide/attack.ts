import { RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArcanaCommandOf } from '../contract';
import { COMBO, CRITICAL_BASE_MULTIPLIER, CRITICAL_DICE, REACH } from '../data';
import { AttackDeclaredData, DiceBonus, ev } from '../events';
import { evolve } from '../evolve';
import { dieFor, qualityRanks, rollPool } from '../rolls';
import { AttackDef } from '../sheet';
import {
  ArcanaBeastState,
  ArcanaCombatant,
  beastOfBinder,
  chainOf,
  combatantOf,
  isBeast,
  isBinder,
  out,
  sideTurnOf,
} from '../state';
import {
  actionTaken,
  anchor,
  bandBetween,
  beastWithAction,
  bonusDice,
  known,
  poolFor,
  present,
  required,
  sameSide,
  unused,
} from './common';
import { dealDamage } from './damage';

type AttackCommand = ArcanaCommandOf<'Attack' | 'UseSpecialAttack' | 'UseZeroPower'>;
const ACTION_OF = { Attack: 'attack', UseSpecialAttack: 'specialAttack', UseZeroPower: 'zeroPower' } as const;

/** arcana-beast.txt: Attack & Damage — Attack, Use Special Attack and Use Zero Power share the attack steps. */
export function attack(state: ArcanaBeastState, command: AttackCommand, dice: DiceSource): RuleEvent[] {
  const action = ACTION_OF[command.type];
  const attacker = beastWithAction(state, command.attackerId, 'attackerId');
  const answer = command.intercept;
  const { def, events, narrative } = chooseAttack(state, attacker, command);
  if (narrative) {
    // A Zero Power without an attack profile is narrated by the GM (A34); it asks no Intercept (A69) and rolls nothing,
    // so the GM's +1 dice (A30) have no roll to go to.
    if (answer) refuseIntercept('a Zero Power with no attack profile attacks no one (ruling A34)');
    unused(
      command.bonusDice,
      'bonusDice',
      'by a Zero Power with no attack profile: a narrative effect the GM resolves rolls nothing (rulings A30, A34)',
    );
    return [...events, ...actionTaken(state, attacker, 'zeroPower', { targetId: command.targetId })];
  }
  const declared = present(
    state,
    required(command.targetId, 'targetId', 'for a Zero Power that attacks (it has a range)'),
    'targetId',
  );
  ensure(
    declared.id !== attacker.id,
    'ARCANA_INVALID_TARGET',
    'arcana-beast.txt: Attack Steps: choose a target in range other than yourself',
    'targetId',
  );
  const band = bandBetween(state, attacker.id, declared.id);
  ensure(
    REACH[def.range].includes(band),
    'ARCANA_OUT_OF_RANGE',
    `arcana-beast.txt: Distance Bands: a ${def.range} attack reaches ${REACH[def.range].join('/')}; ${declared.id} is ${band}`,
    'targetId',
  );
  let after = [...events, ...actionTaken(state, attacker, action, { targetId: declared.id })];
  const data: AttackDeclaredData = {
    attackNo: state.attacks + 1,
    attackerId: attacker.id,
    targetId: declared.id,
    action,
    attackId: def.id,
    attackName: def.name,
    range: def.range,
    band,
    bonusDice: bonusDice(command.bonusDice).reduce((t, b) => t + b.dice, 0),
  };
  const guard = guardOf(state, declared, attacker);
  if (guard)
    Object.assign(data, { targetId: guard.id, declaredTargetId: declared.id, redirectedBy: 'guard' });
  const target = state.combatants[data.targetId];
  const interceptor = isBinder(target) ? beastOfBinder(state, target.id) : undefined;
  const noIntercept = whyNoIntercept(target, interceptor, attacker, guard ? declared : undefined);
  // A69: a beast cannot intercept an attack that asks it no Intercept: `intercept: true` is refused, not dropped.
  if (noIntercept !== undefined && answer) refuseIntercept(noIntercept);
  if (noIntercept === undefined && interceptor) {
    // A22: the beast may intercept an attack on its Binder; the attack may answer in advance.
    if (answer === undefined) return [...after, ev('AttackDeclared', data)];
    after = [
      ...after,
      ev('InterceptDecided', {
        combatantId: interceptor.id,
        binderId: target.id,
        intercept: answer,
        source: 'declaration',
      }),
    ];
    if (answer)
      Object.assign(data, {
        targetId: interceptor.id,
        declaredTargetId: data.declaredTargetId ?? target.id,
        redirectedBy: 'intercept',
      });
  }
  return [...after, ...resolve(after.reduce(evolve, state), data, dice)];
}

/** A22: the intercepting beast's answer; the command carries the attack's dice (A16). */
export function intercept(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Intercept'>,
  dice: DiceSource,
): RuleEvent[] {
  const pending = state.pendingAttack;
  ensure(
    pending && state.pending?.kind === 'intercept',
    'ARCANA_NO_ATTACK_TO_INTERCEPT',
    'ruling A22: no attack on a Binder is waiting for an Intercept',
    'type',
  );
  const beastId = command.combatantId;
  ensure(
    beastId === state.pending.awaiting,
    'ARCANA_NOT_YOUR_DECISION',
    `RULINGS.md C4: ${state.pending.awaiting} answers this Intercept, not ${beastId}`,
    'combatantId',
  );
  const yes = command.intercept ?? true;
  const decided = ev('InterceptDecided', {
    combatantId: beastId,
    binderId: pending.targetId,
    intercept: yes,
    source: 'answer',
  });
  const data: AttackDeclaredData = yes
    ? {
        ...pending,
        targetId: beastId,
        declaredTargetId: pending.declaredTargetId ?? pending.targetId,
        redirectedBy: 'intercept',
      }
    : pending;
  return [decided, ...resolve(evolve(state, decided), data, dice)];
}

/**
 * A22, A27, A65: why an attack asks its target's beast no Intercept, or undefined when it asks one: a Guard took the
 * attack first, the target is no Binder, or the Binder's beast cannot intercept (gone, out, owing its next Action, or the
 * attacker itself).
 */
function whyNoIntercept(
  target: ArcanaCombatant,
  interceptor: ArcanaCombatant | undefined,
  attacker: ArcanaCombatant,
  guarded: ArcanaCombatant | undefined,
): string | undefined {
  if (guarded)
    return `${target.id}'s Guard takes the attack on ${guarded.id} before any Intercept, and an attack is redirected once (rulings A27, A65)`;
  if (!isBinder(target))
    return `${target.id} is no Beast Binder: only an attack on a Binder asks its beast to intercept (ruling A22)`;
  if (!interceptor) return `${target.id}'s beast has left the fight (ruling A47)`;
  if (out(interceptor))
    return `${interceptor.id} is ${interceptor.knockedOut ? 'Knocked Out' : 'back in its Wearable Vessel'} and cannot intercept (ruling A22)`;
  if (interceptor.interceptOwed)
    return `${interceptor.id} already owes its next Action to an Intercept (ruling A22)`;
  if (interceptor.id === attacker.id) return `${attacker.id} is the attacker (ruling A22)`;
  return undefined;
}

/** A69: `intercept: true` on an attack that asks no Intercept, refused with the reason. */
function refuseIntercept(reason: string): never {
  return violation(
    'ARCANA_NO_ATTACK_TO_INTERCEPT',
    `ruling A69: intercept: true answers an Intercept this attack does not ask for: ${reason}; send the attack without it (or with intercept: false)`,
    'intercept',
  );
}

function chooseAttack(
  state: ArcanaBeastState,
  attacker: ArcanaCombatant,
  command: AttackCommand,
): { def: AttackDef; events: RuleEvent[]; narrative?: true } {
  if (!isBeast(attacker)) throw new Error('unreachable');
  const sheet = attacker.sheet;
  if (command.type === 'Attack') {
    const id = command.attackId ?? sheet.attacks[0].id;
    const def = sheet.attacks.find((a) => a.id === id);
    ensure(
      def,
      'ARCANA_UNKNOWN_ATTACK',
      `arcana-beast.txt: Attack Steps: ${attacker.id} has no attack ${id} on its sheet (Special Attacks use UseSpecialAttack)`,
      'attackId',
    );
    return { def, events: [] };
  }
  if (command.type === 'UseSpecialAttack') {
    const id = command.specialAttackId;
    const def = sheet.specialAttacks.find((a) => a.id === id);
    ensure(
      def,
      'ARCANA_UNKNOWN_ATTACK',
      `arcana-beast.txt: Actions in Combat: Use Special Attack: ${attacker.id} has no Special Attack ${id} on its sheet`,
      'specialAttackId',
    );
    const left = attacker.specialUses[id];
    ensure(
      left > 0,
      'ARCANA_NO_USES_LEFT',
      `arcana-beast.txt: Actions in Combat: Use Special Attack costs a Special Attack Use; ${def.name} has none left this scene (RULINGS.md C7)`,
      'specialAttackId',
    );
    return {
      def,
      events: [
        ev('SpecialAttackUsed', { combatantId: attacker.id, specialAttackId: id, usesLeft: left - 1 }),
      ],
    };
  }
  const zp = sheet.zeroPower;
  ensure(
    zp,
    'ARCANA_NO_ZERO_POWER',
    `arcana-beast.txt: Actions in Combat: Use Zero Power: ${attacker.id} has no Zero Power on its sheet`,
    'type',
  );
  ensure(
    !attacker.zeroPowerUsed,
    'ARCANA_ZERO_POWER_USED',
    `arcana-beast.txt: Actions in Combat: Use Zero Power once per scene; ${zp.name} was used`,
    'type',
  );
  ensure(
    attacker.zeroPowerTrigger,
    'ARCANA_TRIGGER_NOT_ACTIVE',
    `arcana-beast.txt: Actions in Combat: Use Zero Power when its trigger is active; the GM has not marked "${zp.trigger}" (SetTrigger)`,
    'type',
  );
  const targetId = command.targetId === undefined ? undefined : known(state, command.targetId, 'targetId').id;
  return {
    def: zp,
    events: [ev('ZeroPowerUsed', { combatantId: attacker.id, targetId, trigger: zp.trigger })],
    ...(zp.attack ? {} : { narrative: true as const }),
  };
}

/**
 * arcana-beast.txt: Guard: redirect attacks on a Close ally to yourself (A27). A62: with several guards on the ally,
 * the first of them in the turn order takes the attack, and the redirect happens once (the guard's own guard does not
 * take it in turn).
 */
function guardOf(
  state: ArcanaBeastState,
  target: ArcanaCombatant,
  attacker: ArcanaCombatant,
): ArcanaCombatant | undefined {
  const byTurn = [...state.order, ...state.joined.filter((id) => !state.order.includes(id))];
  for (const id of byTurn) {
    const g = combatantOf(state, id);
    if (!g) continue;
    if (
      g.guarding === target.id &&
      g.id !== attacker.id &&
      !out(g) &&
      bandBetween(state, g.id, target.id) === 'close'
    )
      return g;
  }
  return undefined;
}

/**
 * A28, A51: a tag held against no one, or against the foe — a tag against a Binder or its beast holds against both,
 * as they share their place and bands (A17, A39).
 */
function hasTag(state: ArcanaBeastState, c: ArcanaCombatant, tag: string, foeId: string): boolean {
  return c.tags.some(
    (t) =>
      t.tag === tag && (t.againstId === undefined || anchor(state, t.againstId) === anchor(state, foeId)),
  );
}

/** arcana-beast.txt: Attack Steps, Results, Damage Formula, Combo Attacks, Positioning (A6, A10, A12, A20, A28). */
function resolve(state: ArcanaBeastState, data: AttackDeclaredData, dice: DiceSource): RuleEvent[] {
  const attacker = state.combatants[data.attackerId];
  const target = state.combatants[data.targetId];
  const def = findDef(attacker, data);
  const turn = state.turn;
  const strategized = turn?.beastId === attacker.id && turn.strategized;
  const combo = comboFor(state, attacker, target);
  const setback = hasTag(state, target, 'obscured', attacker.id) && !strategized ? ['Obscured'] : [];
  const a = poolFor(
    state,
    attacker,
    'attack',
    def.stat,
    def.ranks + qualityRanks(attacker, def.qualities),
    attackBonuses(state, attacker, target, combo.position, data.bonusDice, strategized),
    [],
    setback,
  );
  const attackPool = rollPool(a.spec, dieFor(attacker), dice);
  const d = dodgePoolFor(state, target, attacker, def.range !== 'melee', strategized);
  const dodge = rollPool(d.spec, dieFor(target), dice);
  const hit = attackPool.successes > dodge.successes;
  const critical = hit && attackPool.sixes >= CRITICAL_DICE;
  const baseDamage = attacker.sheet.stats.brawn + attacker.stage;
  const streak = hit ? combo.hits + 1 : 0;
  const damageBonus = !hit
    ? 0
    : streak >= 3
      ? COMBO.thirdHitDamage
      : streak === 2
        ? COMBO.secondHitDamage
        : 0;
  const extraSuccesses = hit ? attackPool.successes - dodge.successes : 0;
  // A12: the Critical doubles Base Damage only; combo damage is added after doubling.
  const damage = hit
    ? baseDamage * (critical ? CRITICAL_BASE_MULTIPLIER : 1) + extraSuccesses + def.bonusDamage + damageBonus
    : 0;
  const resolved = ev('AttackResolved', {
    ...data,
    attack: attackPool,
    dodge,
    outcome: hit ? 'hit' : 'miss',
    critical,
    baseDamage,
    extraSuccesses,
    bonusDamage: hit ? def.bonusDamage : 0,
    combo: {
      position: combo.position,
      dieBonus: combo.position >= 2 ? COMBO.dieBonus : 0,
      damageBonus,
      hits: streak,
      side: attacker.side,
      sideTurn: sideTurnOf(state, attacker.side),
    },
    damage,
  });
  const events = [...a.spent, ...d.spent, resolved];
  if (hit) events.push(...dealDamage(events.reduce(evolve, state), target, damage, data.attackNo));
  return events;
}

/** arcana-beast.txt: Positioning, Combo Attacks (A20, A28, A30): the bonus dice the attacker rolls. */
function attackBonuses(
  state: ArcanaBeastState,
  attacker: ArcanaCombatant,
  target: ArcanaCombatant,
  comboPosition: number,
  bonusDice: number,
  strategized: boolean,
): DiceBonus[] {
  const turn = state.turn;
  const bonuses: DiceBonus[] = [];
  if (turn?.beastId === attacker.id && turn.directed) bonuses.push({ source: 'Direct', dice: 1 });
  // A28, A49: the target's own High Ground is an enemy positioning benefit a passed Strategize ignores.
  if (
    hasTag(state, attacker, 'highGround', target.id) &&
    (strategized || !hasTag(state, target, 'highGround', attacker.id))
  )
    bonuses.push({ source: 'High Ground', dice: 1 });
  if (hasTag(state, attacker, 'flanking', target.id) && flankingPartner(state, attacker, target))
    bonuses.push({ source: 'Flanking', dice: 1 });
  if (comboPosition >= 2) bonuses.push({ source: 'Combo', dice: COMBO.dieBonus });
  if (bonusDice > 0) bonuses.push({ source: 'bonusDice (RULINGS.md A30)', dice: bonusDice });
  return bonuses;
}

/**
 * arcana-beast.txt: "Flanking: Two allies on opposite sides both gain +1 attack die" (A50): the attacker's Flanking
 * counts while another ally still in the encounter (not Knocked Out, not in its vessel) flanks the same target.
 */
function flankingPartner(
  state: ArcanaBeastState,
  attacker: ArcanaCombatant,
  target: ArcanaCombatant,
): boolean {
  return state.joined.some((id) => {
    const p = state.combatants[id];
    return (
      p.id !== attacker.id &&
      p.side === attacker.side &&
      anchor(state, p.id) !== anchor(state, attacker.id) &&
      !out(p) &&
      hasTag(state, p, 'flanking', target.id)
    );
  });
}

/** arcana-beast.txt: Attack Steps, Positioning: the target's dodge pool, with Cover, Defend and Cornered. */
function dodgePoolFor(
  state: ArcanaBeastState,
  target: ArcanaCombatant,
  attacker: ArcanaCombatant,
  ranged: boolean,
  strategized: boolean,
): ReturnType<typeof poolFor> {
  const dodgeBonuses: DiceBonus[] =
    ranged && hasTag(state, target, 'cover', attacker.id) && !strategized
      ? [{ source: 'Cover', dice: 1 }]
      : [];
  // A6: "Dodge (Agility + defensive Qualities)" for a Binder as for a beast.
  const defensive = target.sheet.defensiveQualities ?? [];
  return poolFor(
    state,
    target,
    'dodge',
    'agility',
    qualityRanks(target, defensive),
    dodgeBonuses,
    target.defending ? ['Defend'] : [],
    hasTag(state, target, 'cornered', attacker.id) ? ['Cornered'] : [],
    true,
  );
}

/**
 * A20: the chain continues from another beast of the side on the side's previous turn. A57: each side keeps its own
 * chain on a target; another side's attack in between neither continues nor breaks it. A59: "target the same enemy":
 * an attack on an ally of the attacker's side is in no combo.
 */
function comboFor(
  state: ArcanaBeastState,
  attacker: ArcanaCombatant,
  target: ArcanaCombatant,
): { position: number; hits: number } {
  if (sameSide(attacker, target)) return { position: 1, hits: 0 };
  const prev = chainOf(state, target.id, attacker.side);
  const sideTurn = sideTurnOf(state, attacker.side);
  if (prev && prev.lastAttackerId !== attacker.id && prev.sideTurn === sideTurn - 1)
    return { position: prev.attacks + 1, hits: prev.hits };
  return { position: 1, hits: 0 };
}

function findDef(attacker: ArcanaCombatant, data: AttackDeclaredData): AttackDef {
  if (!isBeast(attacker)) throw new Error('unreachable');
  const s = attacker.sheet;
  if (data.action === 'zeroPower') return s.zeroPower!;
  return (data.action === 'attack' ? s.attacks : s.specialAttacks).find((x) => x.id === data.attackId)!;
}
