import { evolveLifecycle } from '../core/lifecycle';
import { CombatantCore, RuleEvent } from '../core/types';
import { pairKey } from './decide/common';
import { ArcanaEventMap } from './events';
import { ArcanaInitiativeRoll } from './initiative';
import { ArcanaSheet } from './sheet';
import { ArcanaBeastState, ArcanaCombatant, beastOfBinder, isBeast } from './state';

export function newCombatant(base: CombatantCore): ArcanaCombatant {
  const sheet = base.sheet as ArcanaSheet;
  const beast = sheet.kind === 'beast' ? sheet : undefined;
  return {
    id: base.id,
    name: base.name,
    side: base.side,
    sheet,
    hp: sheet.hp,
    stamina: sheet.stamina,
    stage: beast ? beast.stage : 0,
    initiative: undefined,
    surprised: false,
    knockedOut: sheet.hp === 0,
    inVessel: false,
    tags: [],
    conditions: [],
    harms: [],
    specialUses: Object.fromEntries((beast?.specialAttacks ?? []).map((s) => [s.id, s.uses])),
    zeroPowerUsed: false,
    zeroPowerTrigger: false,
    activeTriggers: [],
    revertTo: undefined,
    defending: false,
    guarding: undefined,
    assistDice: 0,
    encourageDodge: 0,
    interceptOwed: false,
    items: sheet.kind === 'binder' ? Object.fromEntries(sheet.inventory.map((i) => [i.id, i.quantity])) : {},
  };
}

function patch(state: ArcanaBeastState, id: string, fields: Partial<ArcanaCombatant>): ArcanaBeastState {
  return { ...state, combatants: { ...state.combatants, [id]: { ...state.combatants[id], ...fields } } };
}

type Data<T extends keyof ArcanaEventMap> = ArcanaEventMap[T];

export function evolve(state: ArcanaBeastState, event: RuleEvent): ArcanaBeastState {
  const next = (evolveLifecycle(state, event, { newCombatant }) ?? state) as ArcanaBeastState;
  const d = event.data as any;
  switch (event.type) {
    case 'CombatantJoined': {
      const c = next.combatants[d.id];
      return c.sheet.kind === 'binder' ? { ...next, binderOf: { ...next.binderOf, [c.sheet.beastId]: c.id } } : next;
    }
    case 'InitiativeRolled': {
      const combatants = { ...next.combatants };
      for (const r of d.rolls as ArcanaInitiativeRoll[]) if (r.tieReroll === undefined) combatants[r.combatantId] = { ...combatants[r.combatantId], initiative: r.total, surprised: r.surprised === true };
      return { ...next, combatants };
    }
    case 'InitiativeTieRerolled': {
      const e = d as Data<'InitiativeTieRerolled'>;
      const pending = e.unresolvedTies.length > 0 ? { kind: 'initiativeTie', awaiting: 'gm', answer: 'SetInitiative', detail: { ties: e.unresolvedTies } } : undefined;
      return { ...next, order: e.order, pending };
    }
    case 'TurnStarted': {
      const e = d as Data<'TurnStarted'>;
      const c = next.combatants[e.combatantId];
      const turn = { beastId: c.id, binderId: e.binderId, action: e.actionForfeited ? 'forfeited' : undefined, command: undefined, freeMoveUsed: false, directed: false, bondSurge: false, strategized: false };
      const sideTurns = { ...next.sideTurns, [c.side]: (next.sideTurns[c.side] ?? 0) + 1 };
      return { ...patch(next, c.id, { defending: false, guarding: undefined, interceptOwed: false }), turn, sideTurns };
    }
    case 'ActivationEnded':
    case 'RoundEnded':
    case 'FightEnded':
      return { ...next, turn: undefined };
    case 'PendingCancelled':
      return { ...next, pendingAttack: undefined };
    case 'ActionTaken': {
      const e = d as Data<'ActionTaken'>;
      const after = { ...next, turn: { ...next.turn!, action: e.action } };
      if (e.action === 'defend') return patch(after, e.combatantId, { defending: true });
      if (e.action === 'guard') return patch(after, e.combatantId, { guarding: e.allyId });
      return after;
    }
    case 'BinderCommanded': {
      const e = d as Data<'BinderCommanded'>;
      const turn = { ...next.turn!, command: e.command };
      if (e.command === 'direct') turn.directed = true;
      if (e.command === 'bondSurge') turn.bondSurge = true;
      if (e.command === 'strategize' && e.passed) turn.strategized = true;
      const after = { ...next, turn };
      if (e.command === 'encourage' && e.passed && e.effect === 'dodgeDie') return patch(after, e.beastId, { encourageDodge: next.combatants[e.beastId].encourageDodge + 1 });
      return after;
    }
    case 'AttackDeclared': {
      const e = d as Data<'AttackDeclared'>;
      const beast = beastOfBinder(next, e.targetId)!;
      const pending = { kind: 'intercept', awaiting: beast.id, answer: 'Intercept', detail: { attackNo: e.attackNo, attackerId: e.attackerId, binderId: e.targetId, attackName: e.attackName } };
      return { ...next, pendingAttack: e, pending };
    }
    case 'InterceptDecided': {
      const e = d as Data<'InterceptDecided'>;
      const after = { ...next, pending: next.pending?.kind === 'intercept' ? undefined : next.pending };
      return e.intercept ? patch(after, e.combatantId, { interceptOwed: true }) : after;
    }
    case 'AttackResolved': {
      const e = d as Data<'AttackResolved'>;
      const combo = { side: e.combo.side, lastAttackerId: e.attackerId, sideTurn: e.combo.sideTurn, attacks: e.combo.position, hits: e.combo.hits };
      return { ...next, pendingAttack: undefined, attacks: e.attackNo, combos: { ...next.combos, [e.targetId]: combo } };
    }
    case 'BonusDiceUsed':
      return patch(next, d.combatantId, d.source === 'Assist' ? { assistDice: 0 } : { encourageDodge: 0 });
    case 'Assisted':
      return patch(next, d.allyId, { assistDice: next.combatants[d.allyId].assistDice + 1 });
    case 'DamageDealt':
    case 'HpRestored':
      return patch(next, d.combatantId, { hp: d.hp });
    case 'KnockedOut': {
      const { [d.combatantId]: _gone, ...combos } = next.combos;
      return { ...patch(next, d.combatantId, { knockedOut: true, defending: false, guarding: undefined }), combos };
    }
    case 'CriticalGaugeRaised':
      return { ...next, criticalGauge: d.to };
    case 'HarmGained':
      return patch(next, d.combatantId, { harms: [...next.combatants[d.combatantId].harms, d.harm] });
    case 'StageEvolved': {
      const e = d as Data<'StageEvolved'>;
      const c = next.combatants[e.combatantId];
      return patch(next, c.id, { stage: e.to, revertTo: e.highest ? (c.revertTo ?? e.from) : c.revertTo });
    }
    case 'StageDevolved':
      return patch(next, d.combatantId, { stage: d.to, revertTo: undefined });
    case 'SpecialAttackUsed':
      return patch(next, d.combatantId, { specialUses: { ...next.combatants[d.combatantId].specialUses, [d.specialAttackId]: d.usesLeft } });
    case 'ZeroPowerUsed':
      return patch(next, d.combatantId, { zeroPowerUsed: true });
    case 'TriggerSet': {
      const e = d as Data<'TriggerSet'>;
      const c = next.combatants[e.combatantId];
      if (e.kind === 'zeroPower') return patch(next, c.id, { zeroPowerTrigger: e.active });
      const others = c.activeTriggers.filter((s) => s !== e.stage);
      return patch(next, c.id, { activeTriggers: e.active ? [...others, e.stage!] : others });
    }
    case 'TagSet': {
      const e = d as Data<'TagSet'>;
      const others = next.combatants[e.combatantId].tags.filter((t) => t.tag !== e.tag);
      return patch(next, e.combatantId, { tags: [...others, e.againstId ? { tag: e.tag, againstId: e.againstId } : { tag: e.tag }] });
    }
    case 'TagCleared':
      return patch(next, d.combatantId, { tags: next.combatants[d.combatantId].tags.filter((t) => t.tag !== d.tag) });
    case 'ConditionApplied':
      return patch(next, d.combatantId, { conditions: [...next.combatants[d.combatantId].conditions, d.condition] });
    case 'ConditionRemoved':
      return patch(next, d.combatantId, { conditions: next.combatants[d.combatantId].conditions.filter((k) => k !== d.condition) });
    case 'ComboReset': {
      const { [d.targetId]: _gone, ...combos } = next.combos;
      return { ...next, combos };
    }
    case 'StaminaSpent':
    case 'StaminaRestored':
      return patch(next, d.combatantId, { stamina: d.stamina });
    case 'ItemUsed':
      return patch(next, d.binderId, { items: { ...next.combatants[d.binderId].items, [d.itemId]: d.quantityLeft } });
    case 'BandSet': {
      const e = d as Data<'BandSet'>;
      const key = pairKey(next, e.aId, e.bId);
      const terrain = { ...next.terrain };
      if (e.difficultTerrain !== undefined) {
        if (e.difficultTerrain > 0) terrain[key] = e.difficultTerrain;
        else delete terrain[key];
      }
      return { ...next, bands: { ...next.bands, [key]: e.band }, terrain };
    }
    case 'Moved': {
      const e = d as Data<'Moved'>;
      const turn = e.by === 'free' && next.turn ? { ...next.turn, freeMoveUsed: true } : next.turn;
      return { ...next, bands: { ...next.bands, [pairKey(next, e.combatantId, e.towardId)]: e.to }, turn };
    }
    case 'CalledBack':
      return d.mode === 'retreat' ? patch(next, d.beastId, { inVessel: true, guarding: undefined, defending: false }) : next;
    case 'SceneEnded':
      return sceneEnded(next, (d as Data<'SceneEnded'>).revived);
  }
  return next;
}

/** RULINGS.md A24/C7: what the end of an encounter resets. */
function sceneEnded(state: ArcanaBeastState, revived: string[]): ArcanaBeastState {
  const combatants = { ...state.combatants };
  for (const id of state.joined) {
    const c = combatants[id];
    combatants[id] = {
      ...c,
      specialUses: isBeast(c) ? Object.fromEntries(c.sheet.specialAttacks.map((s) => [s.id, s.uses])) : {},
      zeroPowerUsed: false,
      zeroPowerTrigger: false,
      activeTriggers: [],
      revertTo: undefined,
      inVessel: false,
      knockedOut: revived.includes(id) ? false : c.knockedOut,
    };
  }
  return { ...state, combatants, combos: {} };
}
