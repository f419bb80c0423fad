import type { RuleCommand } from '@app/rules';
import { BOND_SURGE_STAMINA, Band, REACH, Range } from '@app/rules/arcana-beast';
import { ArcanaInterceptCall, ArcanaTurn, BeastView, BinderView } from './strategy';

/**
 * Legal options read from the view, so strategies propose what the decider accepts (arcana-beast.txt; the
 * decider still judges every proposal). Nothing here decides an outcome: rolls and damage are the decider's.
 */

/** arcana-beast.txt: Beast Binder Commands: the Binder Commands once, before the beast acts, while both are in the encounter. */
export function canCommand(t: ArcanaTurn): t is ArcanaTurn & { binder: BinderView } {
  return (
    t.binder !== undefined &&
    t.binder.state === 'Active' &&
    t.me.state === 'Active' &&
    t.turn.command === undefined &&
    (t.turn.action === undefined || t.turn.action === 'forfeited')
  );
}

/** arcana-beast.txt: Evolution in Combat: lower unlocked Stages are free; the highest needs its trigger (A9). */
export function evolveStep(t: ArcanaTurn): RuleCommand | undefined {
  const b = t.me;
  if (b.state !== 'Active') return undefined;
  const free = b.stages
    .filter((s) => s.stage > b.stage && (s.stage < b.highestStage || s.triggerActive))
    .map((s) => s.stage);
  return free.length > 0 ? { type: 'Evolve', combatantId: b.id, stage: Math.max(...free) } : undefined;
}

export function command(
  t: ArcanaTurn & { binder: BinderView },
  type: 'Direct' | 'Strategize' | 'BondSurge',
): RuleCommand;
export function command(t: ArcanaTurn & { binder: BinderView }, type: 'Encourage'): RuleCommand;
export function command(t: ArcanaTurn & { binder: BinderView }, type: string): RuleCommand {
  return type === 'Encourage'
    ? { type, combatantId: t.binder.id, effect: 'dodgeDie' }
    : { type, combatantId: t.binder.id };
}

/** Bond Surge costs the beast 1 Stamina (arcana-beast.txt: Beast Binder Commands; A11). */
export function canSurge(t: ArcanaTurn): boolean {
  return t.me.stamina >= BOND_SURGE_STAMINA;
}

export function reaches(range: Range, band: Band): boolean {
  return REACH[range].includes(band);
}

function bandTo(me: BeastView, id: string): Band {
  return me.bands[id] ?? 'near';
}

/** The pool an attack rolls, as far as the view shows it (stat + Attack Ranks). */
function pool(me: BeastView, a: { stat: keyof BeastView['stats']; ranks: number }): number {
  return me.stats[a.stat] + a.ranks;
}

/** The attack that would roll the most dice against `targetId` from `band`; a Special Attack with a use left comes first. */
export function attackFrom(me: BeastView, targetId: string, band: Band): RuleCommand | undefined {
  const special = me.specialAttacks.find((s) => s.usesLeft > 0 && reaches(s.range, band));
  if (special) return { type: 'UseSpecialAttack', attackerId: me.id, targetId, specialAttackId: special.id };
  const usable = me.attacks.filter((a) => reaches(a.range, band));
  if (usable.length === 0) return undefined;
  const best = usable.reduce((b, a) => (pool(me, a) > pool(me, b) ? a : b));
  return { type: 'Attack', attackerId: me.id, targetId, attackId: best.id };
}

/** Whether closing in to Close gives a better attack than the one reachable from here. */
function wantsClose(me: BeastView, band: Band): boolean {
  if (band === 'close') return false;
  const best = (b: Band) =>
    Math.max(-1, ...me.attacks.filter((a) => reaches(a.range, b)).map((a) => pool(me, a)));
  return best('close') > best(band) || !me.attacks.some((a) => reaches(a.range, band));
}

/**
 * arcana-beast.txt: Movement Rules and Actions in Combat: the free move of one band toward the target when a
 * better attack waits at Close (not out of Far: that needs Reposition), then the attack; from Far with nothing
 * in reach, Reposition two bands toward it.
 */
export function attackStep(t: ArcanaTurn, targetId = t.foe.id): RuleCommand | undefined {
  const me = t.me;
  if (me.state !== 'Active' || t.turn.action !== undefined) return undefined;
  const band = bandTo(me, targetId);
  const toward = targetId === t.foe.id || targetId === t.foeBinder?.id ? t.foe.id : targetId;
  if (!t.turn.freeMoveUsed && band === 'near' && wantsClose(me, band))
    return { type: 'Move', combatantId: me.id, towardId: toward, band: 'close' };
  const attack = attackFrom(me, targetId, band);
  if (attack) return attack;
  if (band === 'far') return { type: 'Reposition', combatantId: me.id, towardId: toward, band: 'close' };
  return undefined;
}

/** Evolve when free, then the Binder's Command (when it can give one), then the beast's approach and attack. */
export function turnOf(
  t: ArcanaTurn,
  commandOf: (t: ArcanaTurn & { binder: BinderView }) => RuleCommand | undefined,
  action: (t: ArcanaTurn) => RuleCommand | undefined = attackStep,
): RuleCommand | undefined {
  return evolveStep(t) ?? (canCommand(t) ? commandOf(t) : undefined) ?? action(t);
}

/**
 * The default answer to an attack on the Binder (A22: the interceptor "forfeits its next Action"): the
 * beast steps in only when a hit could knock its Binder out (the Binder's HP is no more than the attacker's Base
 * Damage + 2, a hit with two extra successes).
 */
export function interceptWhenInDanger(call: ArcanaInterceptCall): boolean {
  return call.binder.hp <= call.attacker.baseDamage + 2;
}
