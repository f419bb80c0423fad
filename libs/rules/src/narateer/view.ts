import { coreView } from '../core/lifecycle';
import { keptPerObject } from '../core/kept';
import type { CoreViewKey } from '../core/lifecycle-contract';
import type { NarateerCombatantView, NarateerView } from './contract';
import { ATTACK_SKILL } from './data';
import { ableToAct, proactiveLimit } from './decide/common';
import { allocate } from './decide/wounds';
import { Weapon } from './sheet';
import { combatState, NarateerCombatant, NarateerState, WeaponState } from './state';

/** The core's part of the view, as NARATEER_VIEW declares it (coreView itself is typed loosely). */
type CoreView = Pick<NarateerView, CoreViewKey>;

/** What a frontend renders: the shared fight view plus each combatant's Narateer state, as NARATEER_VIEW declares it. */
export function view(state: NarateerState): NarateerView {
  // Ruling N66: the GM may end the fight while a decision is pending; what it interrupted is resolved no more.
  const open = state.status !== 'ended';
  return {
    ...(coreView(state) as CoreView),
    combatants: state.joined.map((id) => combatantView[usesFor(state, id)](state.combatants[id])),
    exchange: (open && state.exchange) || null,
    pendingWounds: (open && pendingWoundsView(state)) || null,
    opportunity: (open && state.opportunity) || null,
  };
}

/** The Wounds awaiting allocation, with how many entries their AllocateWounds takes (the Wounds that take a die). */
function pendingWoundsView(state: NarateerState): NarateerView['pendingWounds'] {
  const pw = state.pendingWounds;
  if (!pw) return null;
  const allocationLength = allocate(state.combatants[pw.combatantId], pw.wounds, () => 'AD').moved.length;
  return { ...pw, allocationLength };
}

/** One entry of a list of the combatant's view: annotating a mapping by it makes a field the declaration lacks a type error. */
type Entry<K extends 'conditions' | 'lingeringHarm' | 'weapons'> = NarateerCombatantView[K][number];

/**
 * Ruling N67: which proactive uses a combatant's entry shows: those left in its own running activation, those its next
 * activation starts with, or none once the fight has ended.
 */
type UsesFor = 'activation' | 'next' | 'ended';

function usesFor(state: NarateerState, id: string): UsesFor {
  if (state.status === 'ended') return 'ended';
  return state.roundOpen && state.activeId === id ? 'activation' : 'next';
}

/**
 * A combatant's entry depends on the combatant and on whether its activation runs (N67): an unchanged combatant keeps
 * its entry while that stays the same (keptPerObject).
 */
const combatantView: Record<UsesFor, (c: NarateerCombatant) => NarateerCombatantView> = {
  activation: keptPerObject((c) => buildCombatantView(c, 'activation')),
  next: keptPerObject((c) => buildCombatantView(c, 'next')),
  ended: keptPerObject((c) => buildCombatantView(c, 'ended')),
};

/**
 * N5 with rulings N63 and N67: the proactive uses left, as the engine would allow them. A combatant that can take no
 * proactive action (Collapsed or Withdrawn, N20; Unconscious or Paralyzed, N26, N43, N46) has none, whatever its count.
 * Outside its own activation it takes no proactive action and its count resets when its next one starts (C7), so the
 * entry shows the uses that activation starts with; an ended fight accepts no command (N66), so none.
 */
function usesLeft(c: NarateerCombatant, when: UsesFor): NarateerCombatantView['proactiveUsesLeft'] {
  if (when === 'ended' || !ableToAct(c)) return { melee: 0, ranged: 0 };
  const spent = when === 'activation' ? c.uses : { melee: 0, ranged: 0 };
  return {
    melee: proactiveLimit(c, ATTACK_SKILL.melee) - spent.melee,
    ranged: proactiveLimit(c, ATTACK_SKILL.ranged) - spent.ranged,
  };
}

function buildCombatantView(c: NarateerCombatant, when: UsesFor): NarateerCombatantView {
  return {
    id: c.id,
    name: c.name,
    side: c.side,
    state: combatState(c),
    vitality: c.vitality,
    maxVitality: c.sheet.maxVitality,
    initiative: c.initiative ?? null,
    ad: { ...c.ad, max: c.sheet.maxAD },
    md: { ...c.md, max: c.sheet.maxMD },
    vitals: c.sheet.vitals,
    skills: c.sheet.skills,
    proactiveUsesLeft: usesLeft(c, when),
    conditions: c.conditions.map((k): Entry<'conditions'> => ({
      condition: k.condition,
      intensity: k.intensity ?? null,
      untilRound: k.untilRound ?? null,
    })),
    lingeringHarm: c.lingering.map((l): Entry<'lingeringHarm'> => ({
      id: l.id,
      form: l.form,
      harm: l.harm,
      wounds: l.wounds,
      ...(l.source === undefined ? {} : { source: l.source }),
      appliedRound: l.appliedRound,
      label: `Lingering Harm: ${l.form}`,
      harmLabel: `${l.harm.domain} (${l.harm.type})`,
      // N38: the source's stated terms.
      tick: l.tick,
      untilRound: l.untilRound ?? null,
      ticksLeft: l.ticksLeft ?? null,
      endsWhen: l.endsWhen ?? null,
    })),
    position: c.position ?? null,
    soak: c.sheet.soak,
    woundPreference: c.sheet.woundPreference,
    weapons: c.sheet.weapons.map((w) => weaponView(w, c.weapons[w.id])),
  };
}

/**
 * A weapon as the rules read it (decide/common.ts, decide/exchange.ts): the folded sheet, defaults applied; a range or
 * reach the weapon's kind never uses is null (a ranged weapon is folded with reach 0). N27 with ruling N65: a weapon
 * that needs no Loading is "otherwise ready to fire": it has nothing to load, so it is shown loaded whatever its sheet
 * said (ReloadWeapon has nothing to do for it); ready when not out of ammunition.
 */
function weaponView(w: Weapon, ws: WeaponState): Entry<'weapons'> {
  const loaded = !w.needsLoading || ws.loaded;
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    weight: w.weight,
    baseAttackCost: w.baseAttackCost,
    reach: w.kind === 'melee' ? w.reach : null,
    effectiveRange: w.effectiveRange ?? null,
    maximumRange: w.maximumRange ?? null,
    weaponDamage: w.weaponDamage,
    damageVitals: w.damageVitals,
    damageVitalCap: w.damageVitalCap,
    harm: w.harm,
    needsLoading: w.needsLoading,
    loaded,
    ammunition: ws.ammunition ?? null,
    ready: loaded && ws.ammunition !== 0,
  };
}
