import { coreView } from '../core/lifecycle';
import { keptPerObject } from '../core/kept';
import type { CORE_VIEW_SHAPE } from '../core/lifecycle-contract';
import type { NarateerCombatantView, NarateerView } from './contract';
import { ATTACK_SKILL } from './data';
import { ableToAct, proactiveLimit } from './decide/common';
import { allocate } from './decide/wounds';
import { Weapon } from './sheet';
import { combatState, NarateerCombatant, NarateerState, WeaponState } from './state';

/** The core's part of the view, as NARATEER_VIEW declares it (coreView itself is typed loosely). */
type CoreView = Pick<NarateerView, keyof typeof CORE_VIEW_SHAPE>;

/** What a frontend renders: the shared fight view plus each combatant's Narateer state, as NARATEER_VIEW declares it. */
export function view(state: NarateerState): NarateerView {
  // Ruling N66: the GM may end the fight while a decision is pending; what it interrupted is resolved no more.
  const open = state.status !== 'ended';
  return {
    ...(coreView(state) as CoreView),
    combatants: state.joined.map((id) => combatantView(state.combatants[id])),
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

/** A combatant's entry depends on the combatant alone: an unchanged one keeps its entry (keptPerObject). */
const combatantView = keptPerObject(buildCombatantView);

/**
 * N5 with ruling N63: the proactive uses left, as the engine would allow them. A combatant that can take no proactive
 * action (Collapsed or Withdrawn, N20; Unconscious or Paralyzed, N26, N43, N46) has none, whatever its count.
 */
function usesLeft(c: NarateerCombatant): NarateerCombatantView['proactiveUsesLeft'] {
  if (!ableToAct(c)) return { melee: 0, ranged: 0 };
  return {
    melee: proactiveLimit(c, ATTACK_SKILL.melee) - c.uses.melee,
    ranged: proactiveLimit(c, ATTACK_SKILL.ranged) - c.uses.ranged,
  };
}

function buildCombatantView(c: NarateerCombatant): NarateerCombatantView {
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
    proactiveUsesLeft: usesLeft(c),
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
 * N27 with ruling N65: a weapon that needs no Loading is "otherwise ready to fire": it has nothing to load, so it is
 * shown loaded whatever its sheet said (ReloadWeapon has nothing to do for it); ready when not out of ammunition.
 */
function weaponView(w: Weapon, ws: WeaponState): Entry<'weapons'> {
  const loaded = !w.needsLoading || ws.loaded;
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    loaded,
    ammunition: ws.ammunition ?? null,
    ready: loaded && ws.ammunition !== 0,
  };
}
