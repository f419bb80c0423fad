import { DICE_REQUEST_CANCELLED } from '../core/dice-requests';
import { evolveLifecycle, InitiativeRoll, roundMayEmpty } from '../core/lifecycle';
import { CombatantCore, RuleEvent } from '../core/types';
import { DiceCounts, isNarateerEvent, NarateerEvent, RolledSide } from './events';
import { NarateerSheet } from './sheet';
import {
  canActivate,
  CurrentExchange,
  LingeringHarm,
  NarateerCombatant,
  NarateerState,
  unseenBy,
  WeaponState,
} from './state';

export function newCombatant(base: CombatantCore): NarateerCombatant {
  const sheet = base.sheet as NarateerSheet;
  const weapons: Record<string, WeaponState> = {};
  for (const w of sheet.weapons ?? [])
    weapons[w.id] =
      w.ammunition === undefined ? { loaded: w.loaded } : { loaded: w.loaded, ammunition: w.ammunition };
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

/** N38: an instance has ticked this round (and counts the tick, when it ended in Wounds). */
function ticked(list: LingeringHarm[], id: string, round: number, counted: boolean): LingeringHarm[] {
  return list.map((l) =>
    l.id !== id
      ? l
      : {
          ...l,
          lastTick: round,
          ...(counted && l.ticksLeft !== undefined ? { ticksLeft: l.ticksLeft - 1 } : {}),
        },
  );
}

function patch(state: NarateerState, id: string, fields: Partial<NarateerCombatant>): NarateerState {
  return { ...state, combatants: { ...state.combatants, [id]: { ...state.combatants[id], ...fields } } };
}

/** N3: committing moves Ready to Used. */
function commit(pool: DiceCounts, n: number): DiceCounts {
  return { ready: pool.ready - n, used: pool.used + n, wounded: pool.wounded };
}

/** The lifecycle events Narateer folds further (core/lifecycle.ts emits them; Narateer's rolls are the core's). */
type LifecycleFolded =
  | { type: 'InitiativeRolled'; data: { rolls: InitiativeRoll[] } }
  | { type: 'PendingCancelled'; data: Record<string, unknown> };

const LIFECYCLE_FOLDED: ReadonlySet<string> = new Set<LifecycleFolded['type']>([
  'InitiativeRolled',
  'PendingCancelled',
]);

function isLifecycleFolded(event: RuleEvent): event is LifecycleFolded {
  return LIFECYCLE_FOLDED.has(event.type);
}

export function evolve(state: NarateerState, event: RuleEvent): NarateerState {
  const next = evolveLifecycle(state, event, { newCombatant }) ?? state;
  if (isNarateerEvent(event)) return evolveNarateer(next, event);
  if (event.type === DICE_REQUEST_CANCELLED) return checkDropped(next, event);
  if (!isLifecycleFolded(event)) return next;
  switch (event.type) {
    case 'InitiativeRolled': {
      const combatants = { ...next.combatants };
      for (const r of event.data.rolls)
        combatants[r.combatantId] = { ...combatants[r.combatantId], initiative: r.total };
      return { ...next, combatants };
    }
    case 'PendingCancelled':
      return cancelled(state, next);
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** One Narateer event type, narrowed to its data. */
type Of<T extends NarateerEvent['type']> = Extract<NarateerEvent, { type: T }>;

/** Narateer's own events, narrowed on `type`; each family folds in a function of its own. */
function evolveNarateer(next: NarateerState, event: NarateerEvent): NarateerState {
  switch (event.type) {
    case 'DiceRefreshed':
    case 'DiceSpent':
      return evolveDice(next, event);
    case 'ExchangeDeclared':
    case 'ExchangeResponded':
    case 'ExchangeResolved':
      return evolveExchanges(next, event);
    case 'WeaponFired':
    case 'WeaponReloaded':
      return evolveWeapons(next, event);
    case 'WoundAllocationRequested':
    case 'WoundsApplied':
    case 'ContinuationChecked':
      return evolveWounds(next, event);
    case 'LingeringHarmApplied':
    case 'LingeringHarmEnded':
    case 'LingeringHarmTreated':
      return evolveLingering(next, event);
    case 'ConditionApplied':
    case 'ConditionRemoved':
      return evolveConditions(next, event);
    case 'PositionSet':
    case 'Moved':
      return evolveMovement(next, event);
    case 'OpportunitiesIdentified':
    case 'OpportunityOffered':
    case 'OpportunityDeclined':
    case 'OpportunityLapsed':
    case 'OpportunitiesFinished':
      return evolveOpportunities(next, event);
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** AD and MD: refreshing them, committing them, and proactive uses. */
function evolveDice(next: NarateerState, event: Of<'DiceRefreshed' | 'DiceSpent'>): NarateerState {
  switch (event.type) {
    case 'DiceRefreshed': {
      const e = event.data;
      return patch(next, e.combatantId, { ad: e.ad, md: e.md, uses: { melee: 0, ranged: 0 } });
    }
    case 'DiceSpent': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      const uses = e.proactiveUse ? { ...c.uses, [e.proactiveUse]: c.uses[e.proactiveUse] + 1 } : c.uses;
      return patch(next, e.combatantId, { ad: commit(c.ad, e.ad), md: commit(c.md, e.md), uses });
    }
  }
}

/** An exchange: its declaration, the target's response and its outcome. */
function evolveExchanges(
  next: NarateerState,
  event: Of<'ExchangeDeclared' | 'ExchangeResponded' | 'ExchangeResolved'>,
): NarateerState {
  switch (event.type) {
    case 'ExchangeDeclared': {
      const e = event.data;
      const c = next.combatants[e.attackerId];
      const uses = e.opportunity ? c.uses : { ...c.uses, [e.kind]: c.uses[e.kind] + 1 };
      const pending = {
        kind: 'exchangeResponse',
        awaiting: e.targetId,
        answer: 'RespondToExchange',
        detail: {
          exchangeId: e.exchangeId,
          attackerId: e.attackerId,
          kind: e.kind,
          weaponId: e.weaponId,
          dice: e.dice,
        },
      };
      const exchange: CurrentExchange = Object.assign({ response: undefined }, e);
      return {
        ...patch(next, e.attackerId, { ad: commit(c.ad, e.dice), uses }),
        exchange,
        exchanges: next.exchanges + 1,
        pending,
      };
    }
    case 'ExchangeResponded': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      const after = e.dice > 0 ? patch(next, e.combatantId, { ad: commit(c.ad, e.dice) }) : next;
      return { ...after, exchange: { ...next.exchange!, response: e }, pending: undefined };
    }
    case 'ExchangeResolved': {
      const e = event.data;
      let after = attackedUnseen(next, e.attacker, e.targetId);
      if (e.responder) after = attackedUnseen(after, e.responder, e.attackerId);
      return e.outcome === 'hit' || e.outcome === 'counterHit' ? after : { ...after, exchange: undefined };
    }
  }
}

/** N41: a roll with the unseen attacker's Advantage, made while unseen by the foe, was that attack's first. */
function attackedUnseen(state: NarateerState, side: RolledSide, foeId: string): NarateerState {
  const c = state.combatants[side.combatantId];
  const foe = state.combatants[foeId];
  if (!side.sources.advantage.includes('unseenAttacker') || !unseenBy(c, foe)) return state;
  const done = c.unseenAttacks ?? [];
  return done.includes(foeId) ? state : patch(state, c.id, { unseenAttacks: [...done, foeId] });
}

/** N41: an attacker seen again by a foe (a condition ended or began) has its next unseen spell's first attack again. */
function seenAgain(state: NarateerState, changed: string): NarateerState {
  let next = state;
  for (const id of state.joined) {
    const c = next.combatants[id];
    if (!c.unseenAttacks) continue;
    const kept = c.unseenAttacks.filter(
      (foeId) =>
        (id !== changed && foeId !== changed) ||
        (next.combatants[foeId] !== undefined && unseenBy(c, next.combatants[foeId])),
    );
    if (kept.length === c.unseenAttacks.length) continue;
    const { unseenAttacks: _dropped, ...rest } = c;
    next = {
      ...next,
      combatants: { ...next.combatants, [id]: kept.length > 0 ? { ...rest, unseenAttacks: kept } : rest },
    };
  }
  return next;
}

/** Firing and reloading weapons. */
function evolveWeapons(next: NarateerState, event: Of<'WeaponFired' | 'WeaponReloaded'>): NarateerState {
  switch (event.type) {
    case 'WeaponFired': {
      const e = event.data;
      const ws: WeaponState =
        e.ammunition === undefined ? { loaded: e.loaded } : { loaded: e.loaded, ammunition: e.ammunition };
      return patch(next, e.combatantId, {
        weapons: { ...next.combatants[e.combatantId].weapons, [e.weaponId]: ws },
      });
    }
    case 'WeaponReloaded': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      return patch(next, e.combatantId, {
        weapons: { ...c.weapons, [e.weaponId]: { ...c.weapons[e.weaponId], loaded: true } },
      });
    }
  }
}

/** Wounds, their allocation and continuation checks. */
function evolveWounds(
  next: NarateerState,
  event: Of<'WoundAllocationRequested' | 'WoundsApplied' | 'ContinuationChecked'>,
): NarateerState {
  switch (event.type) {
    case 'WoundAllocationRequested': {
      const e = event.data;
      return {
        ...next,
        pendingWounds: e,
        pending: {
          kind: 'woundAllocation',
          awaiting: e.combatantId,
          answer: 'AllocateWounds',
          detail: { wounds: e.wounds, harm: e.harm },
        },
      };
    }
    case 'WoundsApplied': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      const lingering = e.lingeringHarmId
        ? ticked(c.lingering, e.lingeringHarmId, next.round, true)
        : c.lingering;
      // N18, N61: the check this resolution calls for is due until ContinuationChecked.
      const due = e.state === 'Active' && (e.firstBelowHalf === true || 2 * e.wounds > c.sheet.maxVitality);
      const after = {
        ...patch(next, e.combatantId, {
          vitality: e.vitality,
          ad: e.ad,
          md: e.md,
          belowHalf: c.belowHalf || e.firstBelowHalf === true,
          lingering,
        }),
        continuationDue: due ? e.combatantId : undefined,
      };
      if (!e.exchangeId && !after.pendingWounds) return after;
      return {
        ...after,
        exchange: e.exchangeId ? undefined : after.exchange,
        pendingWounds: undefined,
        pending: after.pending?.kind === 'woundAllocation' ? undefined : after.pending,
      };
    }
    case 'ContinuationChecked':
      return {
        ...patch(next, event.data.combatantId, { withdrawn: !event.data.passed }),
        continuationDue: undefined,
      };
  }
}

/**
 * N61: the GM's CancelPending on a Continuation Check held alone drops the check and what waited for it: the
 * combatant stays as it was, and the Opportunity Attacks its exchange had still to offer lapse with the queue.
 */
function checkDropped(next: NarateerState, event: RuleEvent): NarateerState {
  if (event.data.commandType !== 'ContinuationCheck' || next.continuationDue === undefined) return next;
  return { ...next, continuationDue: undefined, opportunity: next.exchange ? next.opportunity : undefined };
}

/** Lingering harms applied (or refreshed), ended and treated. */
function evolveLingering(
  next: NarateerState,
  event: Of<'LingeringHarmApplied' | 'LingeringHarmEnded' | 'LingeringHarmTreated'>,
): NarateerState {
  switch (event.type) {
    case 'LingeringHarmApplied': {
      const e = event.data;
      const instance: LingeringHarm = {
        id: e.lingeringHarmId,
        form: e.form,
        harm: e.harm,
        wounds: e.wounds,
        appliedRound: e.round,
        tick: e.tick ?? 'roundEnd',
        ...(e.source ? { source: e.source } : {}),
      };
      if (e.untilRound !== undefined) instance.untilRound = e.untilRound;
      if (e.ticksLeft !== undefined) instance.ticksLeft = e.ticksLeft;
      if (e.endsWhen !== undefined) instance.endsWhen = e.endsWhen;
      if (e.allocation !== undefined) instance.allocation = e.allocation;
      const list = next.combatants[e.combatantId].lingering;
      if (e.refreshed) {
        // N39: the same instance, its terms replaced; its first round and last tick stay.
        const refreshed = list.map((l) =>
          l.id === e.lingeringHarmId
            ? {
                ...instance,
                appliedRound: l.appliedRound,
                ...(l.lastTick === undefined ? {} : { lastTick: l.lastTick }),
              }
            : l,
        );
        return patch(next, e.combatantId, { lingering: refreshed });
      }
      return {
        ...patch(next, e.combatantId, { lingering: [...list, instance] }),
        lingeringApplied: next.lingeringApplied + 1,
      };
    }
    case 'LingeringHarmEnded':
    case 'LingeringHarmTreated': {
      const e = event.data;
      return patch(next, e.combatantId, {
        lingering: next.combatants[e.combatantId].lingering.filter((l) => l.id !== e.lingeringHarmId),
      });
    }
  }
}

/** Conditions applied and removed. */
function evolveConditions(
  next: NarateerState,
  event: Of<'ConditionApplied' | 'ConditionRemoved'>,
): NarateerState {
  switch (event.type) {
    case 'ConditionApplied': {
      const e = event.data;
      const others = next.combatants[e.combatantId].conditions.filter((k) => k.condition !== e.condition);
      const after = patch(next, e.combatantId, {
        conditions: [...others, { condition: e.condition, intensity: e.intensity, untilRound: e.untilRound }],
      });
      return seenAgain(after, e.combatantId);
    }
    case 'ConditionRemoved': {
      const e = event.data;
      const after = patch(next, e.combatantId, {
        conditions: next.combatants[e.combatantId].conditions.filter((k) => k.condition !== e.condition),
      });
      return seenAgain(after, e.combatantId);
    }
  }
}

/** Positions and movement. */
function evolveMovement(next: NarateerState, event: Of<'PositionSet' | 'Moved'>): NarateerState {
  switch (event.type) {
    case 'PositionSet':
      return patch(next, event.data.combatantId, { position: event.data.position ?? undefined });
    case 'Moved':
      // N59 with N45: whether the round, open between two activations, still waited for someone as the move began.
      return {
        ...patch(next, event.data.combatantId, { position: event.data.to }),
        roundWaitedAtMove: roundMayEmpty(next, { canActivate }) || undefined,
      };
  }
}

/** Opportunity attacks: the queue of reactors and each one's offer. */
function evolveOpportunities(
  next: NarateerState,
  event: Of<
    | 'OpportunitiesIdentified'
    | 'OpportunityOffered'
    | 'OpportunityDeclined'
    | 'OpportunityLapsed'
    | 'OpportunitiesFinished'
  >,
): NarateerState {
  switch (event.type) {
    case 'OpportunitiesIdentified': {
      const e = event.data;
      return { ...next, opportunity: { moverId: e.moverId, step: e.step, remaining: e.reactorIds } };
    }
    case 'OpportunityOffered': {
      const e = event.data;
      const q = next.opportunity!;
      const pending = {
        kind: 'opportunityAttack',
        awaiting: e.reactorId,
        answer: 'TakeOpportunityAttack',
        detail: { moverId: e.moverId, step: q.step, alsoAccepts: ['DeclineOpportunity'] },
      };
      return {
        ...next,
        opportunity: {
          ...q,
          current: e.reactorId,
          remaining: q.remaining.filter((id) => id !== e.reactorId),
        },
        pending,
      };
    }
    case 'OpportunityDeclined':
      return { ...next, opportunity: { ...next.opportunity!, current: undefined }, pending: undefined };
    case 'OpportunityLapsed': {
      const e = event.data;
      return {
        ...next,
        opportunity: {
          ...next.opportunity!,
          remaining: next.opportunity!.remaining.filter((id) => id !== e.reactorId),
        },
      };
    }
    case 'OpportunitiesFinished':
      return { ...next, opportunity: undefined };
  }
}

/** N29: what a GM cancellation undoes, by the kind of decision that was pending. */
function cancelled(before: NarateerState, next: NarateerState): NarateerState {
  const kind = before.pending?.kind;
  const x = before.exchange;
  if (kind === 'exchangeResponse' && x) {
    const c = next.combatants[x.attackerId];
    const uses = x.opportunity ? c.uses : { ...c.uses, [x.kind]: c.uses[x.kind] - 1 };
    const ad = { ready: c.ad.ready + x.dice, used: c.ad.used - x.dice, wounded: c.ad.wounded };
    return {
      ...patch(next, x.attackerId, { ad, uses }),
      exchange: undefined,
      opportunity: x.opportunity ? undefined : next.opportunity,
    };
  }
  if (kind === 'woundAllocation') {
    // N28/N29: a cancelled tick's Wounds are dropped; the instance has had its tick this round.
    const pw = before.pendingWounds;
    const after = pw?.lingeringHarmId
      ? patch(next, pw.combatantId, {
          lingering: ticked(next.combatants[pw.combatantId].lingering, pw.lingeringHarmId, next.round, false),
        })
      : next;
    return {
      ...after,
      exchange: undefined,
      pendingWounds: undefined,
      opportunity: x?.opportunity ? undefined : next.opportunity,
    };
  }
  if (kind === 'opportunityAttack') return { ...next, opportunity: undefined };
  return next;
}
