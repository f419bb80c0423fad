import { coreView } from '../core/lifecycle';
import { TAG_EFFECTS } from './data';
import { bandBetween } from './decide/common';
import { highestStage } from './decide/evolution';
import { dieFor } from './rolls';
import { ArcanaBeastState, ArcanaCombatant, binderIdOf, isBeast, isBinder } from './state';

/** What a frontend renders: the shared fight view plus each combatant's Arcana Beast state. */
export function view(state: ArcanaBeastState): Record<string, unknown> {
  return {
    ...coreView(state),
    criticalGauge: state.criticalGauge,
    turn: state.turn ?? null,
    pendingAttack: state.pendingAttack ?? null,
    combos: state.combos,
    combatants: state.joined.map((id) => combatantView(state, state.combatants[id])),
  };
}

function combatantView(state: ArcanaBeastState, c: ArcanaCombatant): Record<string, unknown> {
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
    bands: Object.fromEntries(others.map((id) => [id, bandBetween(state, c.id, id)])),
    tags: c.tags.map((t) => ({ ...t, effect: TAG_EFFECTS[t.tag] })),
    conditions: c.conditions,
    harms: c.harms,
    assistDice: c.assistDice,
  };
  if (isBinder(c)) {
    return { ...base, beastId: c.sheet.beastId, inventory: c.sheet.inventory.map((i) => ({ id: i.id, name: i.name, quantityLeft: c.items[i.id] })) };
  }
  if (!isBeast(c)) return base;
  const s = c.sheet;
  return {
    ...base,
    binderId: binderIdOf(state, c.id) ?? null,
    wild: binderIdOf(state, c.id) === undefined,
    stage: c.stage,
    highestStage: highestStage(s),
    stages: s.stages.map((st) => ({ ...st, triggerActive: c.activeTriggers.includes(st.stage) })),
    revertTo: c.revertTo ?? null,
    baseDamage: s.stats.brawn + c.stage,
    attacks: s.attacks.map((a) => ({ id: a.id, name: a.name, range: a.range, stat: a.stat, ranks: a.ranks })),
    specialAttacks: s.specialAttacks.map((a) => ({ id: a.id, name: a.name, range: a.range, uses: a.uses, usesLeft: c.specialUses[a.id] })),
    zeroPower: s.zeroPower ? { name: s.zeroPower.name, trigger: s.zeroPower.trigger, triggerActive: c.zeroPowerTrigger, used: c.zeroPowerUsed } : null,
    movement: s.movement,
    defending: c.defending,
    guarding: c.guarding ?? null,
    encourageDodge: c.encourageDodge,
    interceptOwed: c.interceptOwed,
  };
}
