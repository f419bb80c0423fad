import { evolveLifecycle, InitiativeRoll } from '../core/lifecycle';
import { CombatantCore, RuleEvent } from '../core/types';
import {
  ConditionAppliedData,
  DiceRefreshedData,
  DiceSpentData,
  ExchangeDeclaredData,
  ExchangeRespondedData,
  ExchangeResolvedData,
  LingeringHarmAppliedData,
  MovedData,
  OpportunitiesIdentifiedData,
  OpportunityData,
  WeaponFiredData,
  WoundAllocationRequestedData,
  WoundsAppliedData,
} from './events';
import { NarateerSheet } from './sheet';
import { CurrentExchange, DiceCounts, NarateerCombatant, NarateerState, WeaponState } from './state';

export function newCombatant(base: CombatantCore): NarateerCombatant {
  const sheet = base.sheet as NarateerSheet;
  const weapons: Record<string, WeaponState> = {};
  for (const w of sheet.weapons ?? []) weapons[w.id] = w.ammunition === undefined ? { loaded: w.loaded } : { loaded: w.loaded, ammunition: w.ammunition };
  return {
    id: base.id,
    name: base.name,
    side: base.side,
    sheet,
    vitality: sheet.maxVitality,
    initiative: undefined,
    position: undefined,
    ad: { ready: sheet.maxAD, used: 0, wounded: 0 },
    md: { ready: sheet.maxMD, used: 0, wounded: 0 },
    uses: { melee: 0, ranged: 0 },
    weapons,
    conditions: [],
    lingering: [],
    withdrawn: false,
    belowHalf: false,
  };
}

function patch(state: NarateerState, id: string, fields: Partial<NarateerCombatant>): NarateerState {
  return { ...state, combatants: { ...state.combatants, [id]: { ...state.combatants[id], ...fields } } };
}

/** RULINGS.md N3: committing moves Ready to Used. */
function commit(pool: DiceCounts, n: number): DiceCounts {
  return { ready: pool.ready - n, used: pool.used + n, wounded: pool.wounded };
}

export function evolve(state: NarateerState, event: RuleEvent): NarateerState {
  const next = (evolveLifecycle(state, event, { newCombatant }) ?? state) as NarateerState;
  const d = event.data as any;
  switch (event.type) {
    case 'InitiativeRolled': {
      const combatants = { ...next.combatants };
      for (const r of (d as { rolls: InitiativeRoll[] }).rolls) combatants[r.combatantId] = { ...combatants[r.combatantId], initiative: r.total };
      return { ...next, combatants };
    }
    case 'PendingCancelled':
      return cancelled(state, next);
    case 'DiceRefreshed': {
      const e = d as DiceRefreshedData;
      return patch(next, e.combatantId, { ad: e.ad, md: e.md, uses: { melee: 0, ranged: 0 } });
    }
    case 'DiceSpent': {
      const e = d as DiceSpentData;
      const c = next.combatants[e.combatantId];
      const uses = e.proactiveUse ? { ...c.uses, [e.proactiveUse]: c.uses[e.proactiveUse] + 1 } : c.uses;
      return patch(next, e.combatantId, { ad: commit(c.ad, e.ad), md: commit(c.md, e.md), uses });
    }
    case 'ExchangeDeclared': {
      const e = d as ExchangeDeclaredData;
      const c = next.combatants[e.attackerId];
      const uses = e.opportunity ? c.uses : { ...c.uses, [e.kind]: c.uses[e.kind] + 1 };
      const pending = { kind: 'exchangeResponse', awaiting: e.targetId, answer: 'RespondToExchange', detail: { exchangeId: e.exchangeId, attackerId: e.attackerId, kind: e.kind, weaponId: e.weaponId, dice: e.dice } };
      const exchange: CurrentExchange = Object.assign({ response: undefined }, e);
      return { ...patch(next, e.attackerId, { ad: commit(c.ad, e.dice), uses }), exchange, exchanges: next.exchanges + 1, pending };
    }
    case 'ExchangeResponded': {
      const e = d as ExchangeRespondedData;
      const c = next.combatants[e.combatantId];
      const after = e.dice > 0 ? patch(next, e.combatantId, { ad: commit(c.ad, e.dice) }) : next;
      return { ...after, exchange: { ...next.exchange!, response: e }, pending: undefined };
    }
    case 'ExchangeResolved': {
      const e = d as ExchangeResolvedData;
      return e.outcome === 'hit' || e.outcome === 'counterHit' ? next : { ...next, exchange: undefined };
    }
    case 'WeaponFired': {
      const e = d as WeaponFiredData;
      const ws: WeaponState = e.ammunition === undefined ? { loaded: e.loaded } : { loaded: e.loaded, ammunition: e.ammunition };
      return patch(next, e.combatantId, { weapons: { ...next.combatants[e.combatantId].weapons, [e.weaponId]: ws } });
    }
    case 'WeaponReloaded': {
      const c = next.combatants[d.combatantId];
      return patch(next, d.combatantId, { weapons: { ...c.weapons, [d.weaponId]: { ...c.weapons[d.weaponId], loaded: true } } });
    }
    case 'WoundAllocationRequested': {
      const e = d as WoundAllocationRequestedData;
      return { ...next, pendingWounds: e, pending: { kind: 'woundAllocation', awaiting: e.combatantId, answer: 'AllocateWounds', detail: { wounds: e.wounds, harm: e.harm } } };
    }
    case 'WoundsApplied': {
      const e = d as WoundsAppliedData;
      const c = next.combatants[e.combatantId];
      const after = patch(next, e.combatantId, { vitality: e.vitality, ad: e.ad, md: e.md, belowHalf: c.belowHalf || e.firstBelowHalf === true });
      if (!e.exchangeId && !after.pendingWounds) return after;
      return { ...after, exchange: e.exchangeId ? undefined : after.exchange, pendingWounds: undefined, pending: after.pending?.kind === 'woundAllocation' ? undefined : after.pending };
    }
    case 'ContinuationChecked':
      return patch(next, d.combatantId, { withdrawn: !d.passed });
    case 'LingeringHarmApplied': {
      const e = d as LingeringHarmAppliedData;
      const instance = { id: e.lingeringHarmId, form: e.form, harm: e.harm, wounds: e.wounds, appliedRound: e.round, ...(e.source ? { source: e.source } : {}) };
      return { ...patch(next, e.combatantId, { lingering: [...next.combatants[e.combatantId].lingering, instance] }), lingeringApplied: next.lingeringApplied + 1 };
    }
    case 'LingeringHarmTreated':
      return patch(next, d.combatantId, { lingering: next.combatants[d.combatantId].lingering.filter((l) => l.id !== d.lingeringHarmId) });
    case 'ConditionApplied': {
      const e = d as ConditionAppliedData;
      const others = next.combatants[e.combatantId].conditions.filter((k) => k.condition !== e.condition);
      return patch(next, e.combatantId, { conditions: [...others, { condition: e.condition, intensity: e.intensity, untilRound: e.untilRound }] });
    }
    case 'ConditionRemoved':
      return patch(next, d.combatantId, { conditions: next.combatants[d.combatantId].conditions.filter((k) => k.condition !== d.condition) });
    case 'PositionSet':
      return patch(next, d.combatantId, { position: d.position ?? undefined });
    case 'Moved':
      return patch(next, d.combatantId, { position: (d as MovedData).to });
    default:
      return evolveOpportunity(next, event);
  }
}

function evolveOpportunity(next: NarateerState, event: RuleEvent): NarateerState {
  switch (event.type) {
    case 'OpportunitiesIdentified': {
      const e = event.data as unknown as OpportunitiesIdentifiedData;
      return { ...next, opportunity: { moverId: e.moverId, step: e.step, remaining: e.reactorIds } };
    }
    case 'OpportunityOffered': {
      const e = event.data as unknown as OpportunityData;
      const q = next.opportunity!;
      const pending = { kind: 'opportunityAttack', awaiting: e.reactorId, answer: 'TakeOpportunityAttack', detail: { moverId: e.moverId, step: q.step, alsoAccepts: ['DeclineOpportunity'] } };
      return { ...next, opportunity: { ...q, current: e.reactorId, remaining: q.remaining.filter((id) => id !== e.reactorId) }, pending };
    }
    case 'OpportunityDeclined':
      return { ...next, opportunity: { ...next.opportunity!, current: undefined }, pending: undefined };
    case 'OpportunityLapsed': {
      const e = event.data as unknown as OpportunityData;
      return { ...next, opportunity: { ...next.opportunity!, remaining: next.opportunity!.remaining.filter((id) => id !== e.reactorId) } };
    }
    case 'OpportunitiesFinished':
      return { ...next, opportunity: undefined };
  }
  return next;
}

/** RULINGS.md N29: what a GM cancellation undoes, by the kind of decision that was pending. */
function cancelled(before: NarateerState, next: NarateerState): NarateerState {
  const kind = before.pending?.kind;
  const x = before.exchange;
  if (kind === 'exchangeResponse' && x) {
    const c = next.combatants[x.attackerId];
    const uses = x.opportunity ? c.uses : { ...c.uses, [x.kind]: c.uses[x.kind] - 1 };
    const ad = { ready: c.ad.ready + x.dice, used: c.ad.used - x.dice, wounded: c.ad.wounded };
    return { ...patch(next, x.attackerId, { ad, uses }), exchange: undefined, opportunity: x.opportunity ? undefined : next.opportunity };
  }
  if (kind === 'woundAllocation') return { ...next, exchange: undefined, pendingWounds: undefined, opportunity: x?.opportunity ? undefined : next.opportunity };
  if (kind === 'opportunityAttack') return { ...next, opportunity: undefined };
  return next;
}
