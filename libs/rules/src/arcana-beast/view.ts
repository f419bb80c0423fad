import { coreView } from '../core/lifecycle';
import type { CoreViewKey } from '../core/lifecycle-contract';
import type { ArcanaBeastView, ArcanaCombatantView, ArcanaCombatantViewBase } from './contract';
import { Band, TAG_EFFECTS } from './data';
import { bandsOf, tagInForce } from './decide/common';
import { ANSWERS } from './decide';
import { highestStage } from './decide/evolution';
import { dieFor, qualitiesOf } from './rolls';
import { AttackDef, BeastSheet } from './sheet';
import {
  ArcanaBeastState,
  ArcanaCombatant,
  binderIdOf,
  combatantOf,
  isBeast,
  out,
  sideTurnOf,
} from './state';

/** A beast's entry in the view. */
type BeastView = Extract<ArcanaCombatantView, { kind: 'beast' }>;

/** The core's part of the view, as ARCANA_BEAST_VIEW declares it (coreView itself is typed loosely). */
type CoreView = Pick<ArcanaBeastView, CoreViewKey>;

/** What a frontend renders: the shared fight view plus each combatant's Arcana Beast state, as ARCANA_BEAST_VIEW declares it. */
export function view(state: ArcanaBeastState): ArcanaBeastView {
  const bands = bandsOf(state);
  return {
    ...(coreView(state) as CoreView),
    criticalGauge: state.criticalGauge,
    pending: pendingView(state),
    turn: turnView(state),
    pendingAttack: pendingAttackView(state),
    // C11: a combatant that has left the fight is no one's target any more; its chains are not shown.
    combos: Object.fromEntries(Object.entries(state.combos).filter(([id]) => combatantOf(state, id))),
    chains: Object.fromEntries(Object.entries(state.chains).filter(([id]) => combatantOf(state, id))),
    sideTurns: sideTurnsView(state),
    combatants: state.joined.map((id) => combatantView(state, state.combatants[id], bands)),
  };
}

/**
 * C4: the pending decision, naming every command that answers it: besides its `answer`, the others this system takes
 * (`detail.alsoAccepts`), as an initiative tie is answered by SetInitiative or RerollInitiative (A5).
 */
function pendingView(state: ArcanaBeastState): ArcanaBeastView['pending'] {
  const pending = state.pending;
  if (!pending) return null;
  const also = (Object.hasOwn(ANSWERS, pending.kind) ? ANSWERS[pending.kind] : []).filter(
    (answer) => answer !== pending.answer,
  );
  return also.length > 0 ? { ...pending, detail: { ...pending.detail, alsoAccepts: also } } : pending;
}

/**
 * A22: the attack waiting for the Intercept, with the bonus damage its sheet entry adds to a hit (A52), whoever takes it,
 * and what its pool rolls (A6). C4 keeps its attacker in the fight while it waits (the GM cannot remove it), so the
 * entry is always there.
 */
function pendingAttackView(state: ArcanaBeastState): ArcanaBeastView['pendingAttack'] {
  const p = state.pendingAttack;
  if (!p) return null;
  const attacker = combatantOf(state, p.attackerId);
  const def = sheetAttack(attacker, p.action, p.attackId);
  if (!attacker || !def) throw new Error(`unreachable: C4 keeps the attacker of ${p.attackId} in the fight`);
  return { ...p, bonusDamage: def.bonusDamage, ...poolView(attacker, def) };
}

/**
 * A6: "Attack pool = the attack's stat + Quality/Attack Ranks + modifiers" (arcana-beast.txt: Attack Steps,
 * "Build pool Stat + Quality/Attack Ranks + modifiers"): what the engine reads from the sheet's attack, defaults applied,
 * each Quality with the ranks it adds (qualitiesOf, as the decider sums them).
 */
function poolView(
  c: ArcanaCombatant,
  a: AttackDef,
): Pick<BeastView['attacks'][number], 'stat' | 'ranks' | 'qualities'> {
  return { stat: a.stat, ranks: a.ranks, qualities: qualitiesOf(c, a.qualities) };
}

/** The sheet's attack, Special Attack or Zero Power an attack names, as the decider finds it when it resolves. */
function sheetAttack(
  c: ArcanaCombatant | undefined,
  action: 'attack' | 'specialAttack' | 'zeroPower',
  attackId: string,
): AttackDef | undefined {
  if (!c || !isBeast(c)) return undefined;
  if (action === 'zeroPower') return c.sheet.zeroPower;
  return (action === 'attack' ? c.sheet.attacks : c.sheet.specialAttacks).find((a) => a.id === attackId);
}

/**
 * A20, A56: each side's beast-turn count, as the combo reads it. Every side in the fight is listed (0 before its first
 * beast turn), and a side that counted turns before its combatants left keeps its count.
 */
function sideTurnsView(state: ArcanaBeastState): Record<string, number> {
  const sides = new Set([
    ...state.joined.map((id) => state.combatants[id].side),
    ...Object.keys(state.sideTurns),
  ]);
  return Object.fromEntries([...sides].map((side) => [side, sideTurnOf(state, side)]));
}

/**
 * The running shared turn. Its Binder is named while it may give the turn's Command: not once it has left the fight
 * (A21, A61: the turn goes on as the beast's own), nor while it is Knocked Out (A21: a Binder at 0 HP gives no Command).
 */
function turnView(state: ArcanaBeastState): ArcanaBeastView['turn'] {
  const turn = state.turn;
  if (!turn) return null;
  const { binderId, ...rest } = turn;
  const binder = combatantOf(state, binderId);
  return binder && !out(binder) ? turn : rest;
}

function combatantView(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  bandBetween: (a: string, b: string) => Band,
): ArcanaCombatantView {
  const others = state.joined.filter((id) => id !== c.id);
  const base = {
    id: c.id,
    name: c.name,
    side: c.side,
    kind: c.sheet.kind,
    // A23, A73: back in its Wearable Vessel, a beast is no target, Knocked Out or not: that decides what it is shown.
    state: c.inVessel ? 'InVessel' : c.knockedOut ? 'KnockedOut' : 'Active',
    hp: c.hp,
    maxHp: c.sheet.maxHp,
    stamina: c.stamina,
    maxStamina: c.sheet.maxStamina,
    stats: c.sheet.stats,
    qualities: c.sheet.qualities,
    // A6: "Target rolls Dodge (Agility + defensive Qualities)": the ranks the decider adds to its Dodge (dodgePoolFor).
    defensiveQualities: qualitiesOf(c, c.sheet.defensiveQualities ?? []),
    dieSides: dieFor(c),
    initiative: c.initiative ?? null,
    bands: Object.fromEntries(others.map((id) => [id, bandBetween(c.id, id)])),
    // A72: a tag against a combatant who has left the fight, with no one left in its place, holds against no one.
    tags: c.tags.filter((t) => tagInForce(state, t)).map((t) => ({ ...t, effect: TAG_EFFECTS[t.tag] })),
    conditions: c.conditions,
    harms: c.harms,
    assistDice: c.assistDice,
  } satisfies ArcanaCombatantViewBase;
  // A sheet is a Binder's or a beast's (ArcanaSheet): narrowing on it types each view by its declaration.
  const s = c.sheet;
  if (s.kind === 'binder') {
    return {
      ...base,
      kind: s.kind,
      beastId: s.beastId,
      inventory: s.inventory.map((i) => ({
        id: i.id,
        name: i.name,
        quantityLeft: c.items[i.id],
        removesCondition: i.removesCondition,
      })),
    };
  }
  return {
    ...base,
    kind: s.kind,
    // A21, A61: a Binder that has left the fight is no longer the beast's; A35 still keeps the beast from being wild.
    binderId: combatantOf(state, binderIdOf(state, c.id))?.id ?? null,
    wild: binderIdOf(state, c.id) === undefined,
    stage: c.stage,
    highestStage: highestStage(s),
    stages: s.stages.map((st) => ({ ...st, triggerActive: c.activeTriggers.includes(st.stage) })),
    revertTo: c.revertTo ?? null,
    baseDamage: s.stats.brawn + c.stage,
    ...attacksView(c, s),
    movement: s.movement,
    defending: c.defending,
    // C11: an ally that has left the fight is guarded by no one.
    guarding: combatantOf(state, c.guarding)?.id ?? null,
    encourageDodge: c.encourageDodge,
    interceptOwed: c.interceptOwed,
  };
}

/**
 * A beast's attacks, Special Attacks and Zero Power, each with the bonus damage its sheet adds to a hit (A52): what a
 * hit deals past Base Damage and extra successes, besides combo damage; and what its pool rolls (A6, poolView).
 */
function attacksView(
  c: ArcanaCombatant,
  s: BeastSheet,
): Pick<BeastView, 'attacks' | 'specialAttacks' | 'zeroPower'> {
  return {
    attacks: s.attacks.map((a) => ({
      id: a.id,
      name: a.name,
      range: a.range,
      stat: a.stat,
      ranks: a.ranks,
      bonusDamage: a.bonusDamage,
      qualities: qualitiesOf(c, a.qualities),
    })),
    specialAttacks: s.specialAttacks.map((a) => ({
      id: a.id,
      name: a.name,
      range: a.range,
      uses: a.uses,
      usesLeft: c.specialUses[a.id],
      bonusDamage: a.bonusDamage,
      ...poolView(c, a),
    })),
    zeroPower: s.zeroPower
      ? {
          name: s.zeroPower.name,
          trigger: s.zeroPower.trigger,
          range: s.zeroPower.attack ? s.zeroPower.range : null,
          bonusDamage: s.zeroPower.bonusDamage,
          triggerActive: c.zeroPowerTrigger,
          used: c.zeroPowerUsed,
          ...poolView(c, s.zeroPower),
        }
      : null,
  };
}
