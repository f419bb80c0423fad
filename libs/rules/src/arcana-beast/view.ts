import { coreView } from '../core/lifecycle';
import type { CORE_VIEW_SHAPE } from '../core/lifecycle-contract';
import type { ArcanaBeastView, ArcanaCombatantView, ArcanaCombatantViewBase } from './contract';
import { Band, TAG_EFFECTS } from './data';
import { bandsOf } from './decide/common';
import { highestStage } from './decide/evolution';
import { dieFor } from './rolls';
import { ArcanaBeastState, ArcanaCombatant, binderIdOf } from './state';

/** The core's part of the view, as ARCANA_BEAST_VIEW declares it (coreView itself is typed loosely). */
type CoreView = Pick<ArcanaBeastView, keyof typeof CORE_VIEW_SHAPE>;

/** What a frontend renders: the shared fight view plus each combatant's Arcana Beast state, as ARCANA_BEAST_VIEW declares it. */
export function view(state: ArcanaBeastState): ArcanaBeastView {
  const bands = bandsOf(state);
  return {
    ...(coreView(state) as CoreView),
    criticalGauge: state.criticalGauge,
    turn: state.turn ?? null,
    pendingAttack: state.pendingAttack ?? null,
    combos: state.combos,
    combatants: state.joined.map((id) => combatantView(state, state.combatants[id], bands)),
  };
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
    state: c.knockedOut ? 'KnockedOut' : c.inVessel ? 'InVessel' : 'Active',
    hp: c.hp,
    maxHp: c.sheet.maxHp,
    stamina: c.stamina,
    maxStamina: c.sheet.maxStamina,
    stats: c.sheet.stats,
    qualities: c.sheet.qualities,
    dieSides: dieFor(c),
    initiative: c.initiative ?? null,
    bands: Object.fromEntries(others.map((id) => [id, bandBetween(c.id, id)])),
    tags: c.tags.map((t) => ({ ...t, effect: TAG_EFFECTS[t.tag] })),
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
      inventory: s.inventory.map((i) => ({ id: i.id, name: i.name, quantityLeft: c.items[i.id] })),
    };
  }
  return {
    ...base,
    kind: s.kind,
    binderId: binderIdOf(state, c.id) ?? null,
    wild: binderIdOf(state, c.id) === undefined,
    stage: c.stage,
    highestStage: highestStage(s),
    stages: s.stages.map((st) => ({ ...st, triggerActive: c.activeTriggers.includes(st.stage) })),
    revertTo: c.revertTo ?? null,
    baseDamage: s.stats.brawn + c.stage,
    attacks: s.attacks.map((a) => ({ id: a.id, name: a.name, range: a.range, stat: a.stat, ranks: a.ranks })),
    specialAttacks: s.specialAttacks.map((a) => ({
      id: a.id,
      name: a.name,
      range: a.range,
      uses: a.uses,
      usesLeft: c.specialUses[a.id],
    })),
    zeroPower: s.zeroPower
      ? {
          name: s.zeroPower.name,
          trigger: s.zeroPower.trigger,
          triggerActive: c.zeroPowerTrigger,
          used: c.zeroPowerUsed,
        }
      : null,
    movement: s.movement,
    defending: c.defending,
    guarding: c.guarding ?? null,
    encourageDodge: c.encourageDodge,
    interceptOwed: c.interceptOwed,
  };
}
