import { evolveLifecycle } from '../core/lifecycle';
import { isLifecycleEvent } from '../core/lifecycle-contract';
import { CombatantCore, RuleEvent } from '../core/types';
import { ArchsoulEvent, ArchsoulInitiativeRoll, isArchsoulEvent } from './events';
import { EMPTY_HANDS, freeHands, grasp, handsFor, handsOf, release } from './hands';
import { ArchsoulSheet } from './sheet';
import {
  ArchsoulCombatant,
  ArchsoulState,
  partyOf,
  ReactionQueue,
  ReactionSequence,
  Trigger,
  WeaponState,
} from './state';

/** The Moved actions that are the combatant's own walking (S14, S80). */
const WALKED: ReadonlySet<string> = new Set(['move', 'slowMove', 'free']);

export function newCombatant(base: CombatantCore): ArchsoulCombatant {
  const sheet = base.sheet as ArchsoulSheet;
  // S51: the sheet's held things take their hands in order (validateSheet made them fit; a sheet recorded
  // before hands were kept may say more, and what finds no free hand then starts stowed).
  const held: string[] = [];
  let hands = EMPTY_HANDS;
  for (const x of [...sheet.weapons, ...sheet.items, ...(sheet.shield ? [sheet.shield] : [])]) {
    if (!x.held) continue;
    const need = handsOf(x);
    if (need > freeHands(hands)) continue;
    hands = grasp(hands, x.id, need);
    held.push(x.id);
  }
  const weapons: Record<string, WeaponState> = {};
  // archsoul.txt: Shatter: a shield takes damage like a weapon.
  if (sheet.shield)
    weapons[sheet.shield.id] = {
      broken: false,
      destroyed: false,
      jammed: false,
      ...(sheet.shield.hp === undefined ? {} : { hp: sheet.shield.hp }),
    };
  for (const w of sheet.weapons)
    weapons[w.id] = {
      broken: w.broken,
      destroyed: false,
      jammed: false,
      ...(w.hp === undefined ? {} : { hp: w.hp }),
      ...(w.ammunition ? { ammunition: w.ammunition.count } : {}),
    };
  return {
    ...base,
    sheet,
    hp: sheet.hp,
    position: undefined,
    facing: 'N',
    initiative: undefined,
    ap: 0,
    inTurn: false,
    moves: 0,
    moveDistance: 0,
    freeMove: 0,
    held,
    hands,
    away: [],
    awkward: undefined,
    conditions: [],
    weapons,
    triggeredBy: [],
    drain: 0,
    soulpowerLoss: 0,
    attackedWith: [],
    quickAttacked: false,
    study: undefined,
    stolen: [],
    mounted: sheet.mount !== undefined,
  };
}

function patch(state: ArchsoulState, id: string, fields: Partial<ArchsoulCombatant>): ArchsoulState {
  return { ...state, combatants: { ...state.combatants, [id]: { ...state.combatants[id], ...fields } } };
}

/** S51: `id` leaves the hand(s) holding it. */
function letGo(x: ArchsoulCombatant, id: string): Pick<ArchsoulCombatant, 'held' | 'hands'> {
  return { held: x.held.filter((h) => h !== id), hands: release(x.hands, id) };
}

export function evolve(state: ArchsoulState, event: RuleEvent): ArchsoulState {
  const next = evolveLifecycle(state, event, { newCombatant }) ?? state;
  if (isLifecycleEvent(event)) {
    // Lifecycle events whose Archsoul meaning goes beyond the core's fold.
    switch (event.type) {
      case 'InitiativeRolled': {
        const combatants = { ...next.combatants };
        // The core declares a roll generically; Archsoul's own declaration (contract.ts) says what its rolls hold.
        for (const r of event.data.rolls as ArchsoulInitiativeRoll[])
          combatants[r.combatantId] = { ...combatants[r.combatantId], initiative: r.total };
        return { ...next, combatants };
      }
      case 'PendingCancelled':
        // S85, S106: a held free move or Quick Attack the GM's cancellation drops is not performed.
        return { ...heldNotPerformed(next, next.reaction), reaction: undefined };
      case 'RoundStarted': {
        // Ruling S77: the ambush's free move is owed to the surprising party as it stands when round 1 starts.
        const party = next.ambush;
        if (event.data.round !== 1 || !party) return next;
        return {
          ...next,
          ambushOwed: next.joined.filter((id) => partyOf(next.combatants[id].side) === party),
        };
      }
      case 'RoundEnded':
        return { ...next, phase: undefined };
      default:
        // The rest: the core's fold is all of it.
        return next;
    }
  }
  return isArchsoulEvent(event) ? evolveArchsoul(next, event) : next;
}

/** One Archsoul event type, narrowed to the data contract.ts declares. */
type Of<T extends ArchsoulEvent['type']> = Extract<ArchsoulEvent, { type: T }>;

/** Archsoul's own events, narrowed on `type` to the data contract.ts declares; each family folds in a function of its own. */
function evolveArchsoul(next: ArchsoulState, event: ArchsoulEvent): ArchsoulState {
  switch (event.type) {
    case 'MapSet':
    case 'CombatantPlaced':
    case 'AmbushDeclared':
    case 'PhaseStarted':
    case 'PhaseEnded':
    case 'TurnStarted':
    case 'TurnEnded':
    case 'ApSpent':
      return evolveBoardAndTurns(next, event);
    case 'Dismounted':
    case 'Mounted':
    case 'Moved':
    case 'Turned':
      return evolveMovement(next, event);
    case 'StudyTaken':
    case 'ConditionApplied':
    case 'ConditionRemoved':
    case 'DrainSuffered':
    case 'SoulpowerLowered':
      return evolveConditions(next, event);
    case 'ItemDrawn':
    case 'AwkwardDrawStarted':
    case 'ItemDropped':
    case 'ProjectileLanded':
    case 'AmmunitionSpent':
    case 'WeaponChanged':
    case 'ItemStolen':
    case 'ItemTaken':
      return evolveHandsAndItems(next, event);
    case 'WoundsApplied':
    case 'ExchangeResolved':
    case 'AreaAttackResolved':
      return evolveAttacks(next, event);
    case 'ReactiveAttackTriggered':
    case 'ReactiveAttackOffered':
    case 'ReactiveAttackDeclined':
    case 'ReactiveGrabAttempted':
    case 'ReactiveAttackLapsed':
    case 'PreventionRolled':
    case 'ReactionsFinished':
    case 'ActionResumed':
      return evolveReactions(next, event);
    case 'GrappleStarted':
    case 'GrappleControlChanged':
    case 'GrappleEnded':
      return evolveGrapples(next, event);
    // Records of rolls and narration: what follows from them comes in events of their own.
    case 'FeintResolved':
    case 'KnockdownResolved':
    case 'ShatterResolved':
    case 'Fell':
    case 'RitualPerformed':
    case 'CriticalFailureRolled':
      return next;
    case 'GrappleRolled': {
      // S83: a study whose grapple roll is lost was never attempted (Being Grappled), yet its AP were spent: it is
      // an action that is not studying, so the "three consecutive actions … studying" start again. S84: likewise a
      // lost second half of an awkward draw is no drawing, and "the two actions need to be consecutive".
      const d = event.data;
      const x = next.combatants[d.actorId];
      if (!x) return next;
      // S98: a grapple Attack or Throw, won or lost, is an attack made with its weapon (Quick Attack: "a one-handed
      // weapon that you have not yet made an attack with this round").
      const after =
        d.weaponId !== undefined && !x.attackedWith.includes(d.weaponId)
          ? patch(next, d.actorId, { attackedWith: [...x.attackedWith, d.weaponId] })
          : next;
      if (d.success) return after;
      if (d.purpose === 'Study') return patch(after, d.actorId, { study: undefined });
      if (d.purpose === 'DrawAwkwardItem') return patch(after, d.actorId, { awkward: undefined });
      return after;
    }
    default: {
      const unhandled: never = event;
      void unhandled;
      return next;
    }
  }
}

/** The map, placement, phases and turns: who acts when, with how many AP. */
function evolveBoardAndTurns(
  next: ArchsoulState,
  event: Of<
    | 'MapSet'
    | 'CombatantPlaced'
    | 'AmbushDeclared'
    | 'PhaseStarted'
    | 'PhaseEnded'
    | 'TurnStarted'
    | 'TurnEnded'
    | 'ApSpent'
  >,
): ArchsoulState {
  switch (event.type) {
    case 'MapSet': {
      const d = event.data;
      return { ...next, map: { grid: d.grid, blocked: d.blocked, walls: d.walls } };
    }
    case 'CombatantPlaced': {
      const d = event.data;
      return patch(next, d.combatantId, { position: d.position, facing: d.facing });
    }
    case 'AmbushDeclared':
      return { ...next, ambush: event.data.party };
    case 'PhaseStarted': {
      const d = event.data;
      return {
        ...next,
        phase: { round: d.round, index: d.index, party: d.party, combatantIds: d.combatantIds },
      };
    }
    case 'PhaseEnded':
      return { ...next, phase: undefined };
    case 'TurnStarted': {
      const d = event.data;
      // C7: "until your next turn" ends at the turn of the combatant who caused it (its own, or a Soul Shield's caster).
      const combatants = { ...next.combatants };
      for (const id of Object.keys(combatants)) {
        const x = combatants[id];
        if (x.conditions.some((k) => k.untilNextTurn && (k.sourceId ?? id) === d.combatantId))
          combatants[id] = {
            ...x,
            conditions: x.conditions.filter(
              (k) => !(k.untilNextTurn && (k.sourceId ?? id) === d.combatantId),
            ),
          };
      }
      const owed = next.ambushOwed && { ambushOwed: next.ambushOwed.filter((x) => x !== d.combatantId) };
      return patch({ ...next, ...owed, combatants }, d.combatantId, {
        ap: d.ap,
        inTurn: true,
        moves: 0,
        moveDistance: 0,
        freeMove: d.freeMove,
        triggeredBy: [],
        attackedWith: [],
        quickAttacked: false,
      });
    }
    case 'TurnEnded': {
      const d = event.data;
      const after = patch(next, d.combatantId, { ap: 0, inTurn: false, freeMove: 0 });
      return { ...after, actedThisRound: [...after.actedThisRound, d.combatantId] };
    }
    case 'ApSpent': {
      const d = event.data;
      const x = next.combatants[d.combatantId];
      return patch(next, d.combatantId, {
        ap: d.apLeft,
        moves: x.moves + (d.action === 'move' ? 1 : 0),
        awkward: d.action === 'drawAwkwardItem' ? x.awkward : undefined,
        // S30: any other AP action breaks a study.
        study: d.action === 'study' ? x.study : undefined,
        quickAttacked: x.quickAttacked || d.action === 'quickAttack',
      });
    }
  }
}

/** Moving, turning, mounting and dismounting. */
function evolveMovement(
  next: ArchsoulState,
  event: Of<'Dismounted' | 'Mounted' | 'Moved' | 'Turned'>,
): ArchsoulState {
  switch (event.type) {
    case 'Dismounted':
      return patch(next, event.data.combatantId, { mounted: false, mountAt: event.data.at });
    case 'Mounted':
      return patch(next, event.data.combatantId, { mounted: true, mountAt: undefined });
    case 'Moved': {
      const d = event.data;
      const x = next.combatants[d.combatantId];
      return patch(next, d.combatantId, {
        position: d.to,
        facing: d.facing,
        // S14: "the distance already moved this turn": every space the combatant walked itself (S80), its free
        // and Slow Moves' too; not a Charge (its own action), nor being dragged, pushed, thrown or shifted.
        moveDistance: x.moveDistance + (WALKED.has(d.action) ? d.distance : 0),
        freeMove: d.action === 'free' ? x.freeMove - d.distance : x.freeMove,
      });
    }
    case 'Turned':
      return patch(next, event.data.combatantId, { facing: event.data.facing });
  }
}

/** Conditions, studies, drain and lost soulpower: what a combatant carries besides its things. */
function evolveConditions(
  next: ArchsoulState,
  event: Of<'StudyTaken' | 'ConditionApplied' | 'ConditionRemoved' | 'DrainSuffered' | 'SoulpowerLowered'>,
): ArchsoulState {
  switch (event.type) {
    case 'StudyTaken': {
      const d = event.data;
      return patch(next, d.combatantId, { study: { targetId: d.targetId, count: d.count } });
    }
    case 'ConditionApplied': {
      const d = event.data;
      return patch(next, d.combatantId, {
        conditions: [
          ...next.combatants[d.combatantId].conditions,
          {
            condition: d.condition,
            amount: d.amount,
            untilNextTurn: d.untilNextTurn,
            ...(d.sourceId ? { sourceId: d.sourceId } : {}),
          },
        ],
      });
    }
    case 'ConditionRemoved': {
      const d = event.data;
      return patch(next, d.combatantId, {
        conditions: next.combatants[d.combatantId].conditions.filter((k) => k.condition !== d.condition),
      });
    }
    case 'DrainSuffered':
      return patch(next, event.data.combatantId, { drain: event.data.total });
    case 'SoulpowerLowered':
      return patch(next, event.data.combatantId, { soulpowerLoss: event.data.total });
  }
}

/** S51/S52: hands, held and stowed things, the ground, ammunition and weapon damage. */
function evolveHandsAndItems(
  next: ArchsoulState,
  event: Of<
    | 'ItemDrawn'
    | 'AwkwardDrawStarted'
    | 'ItemDropped'
    | 'ProjectileLanded'
    | 'AmmunitionSpent'
    | 'WeaponChanged'
    | 'ItemStolen'
    | 'ItemTaken'
  >,
): ArchsoulState {
  const c = (id: string) => next.combatants[id];
  switch (event.type) {
    case 'ItemDrawn':
      return itemDrawn(next, event.data);
    case 'AwkwardDrawStarted':
      return patch(next, event.data.combatantId, { awkward: event.data.itemId });
    case 'ItemDropped': {
      const d = event.data;
      const x = c(d.combatantId);
      const after = patch(next, d.combatantId, { ...letGo(x, d.itemId), away: [...x.away, d.itemId] });
      return {
        ...after,
        ground: [
          ...after.ground,
          { groundId: d.groundId, itemId: d.itemId, ownerId: d.combatantId, name: d.name, space: d.space },
        ],
        groundCount: after.groundCount + 1,
      };
    }
    case 'ProjectileLanded':
      return projectileLanded(next, event.data);
    case 'AmmunitionSpent': {
      const d = event.data;
      const x = c(d.combatantId);
      return patch(next, d.combatantId, {
        weapons: { ...x.weapons, [d.weaponId]: { ...x.weapons[d.weaponId], ammunition: d.left } },
      });
    }
    case 'WeaponChanged': {
      const d = event.data;
      const x = c(d.combatantId);
      const ws: WeaponState = {
        ...x.weapons[d.weaponId],
        broken: d.broken,
        destroyed: d.destroyed,
        jammed: d.jammed,
        ...(d.hp === undefined ? {} : { hp: d.hp }),
      };
      return patch(next, d.combatantId, {
        weapons: { ...x.weapons, [d.weaponId]: ws },
        ...(d.destroyed ? letGo(x, d.weaponId) : {}),
      });
    }
    case 'ItemStolen':
      return itemStolen(next, event.data);
    case 'ItemTaken': {
      // S60: off the ground and carried by the taker, like a stolen item (its owner already let go of it).
      const d = event.data;
      return {
        ...patch(next, d.combatantId, {
          stolen: [...c(d.combatantId).stolen, { itemId: d.itemId, fromId: d.fromId, name: d.name }],
        }),
        ground: next.ground.filter((g) => g.groundId !== d.groundId),
      };
    }
  }
}

/** S51/S52: a drawn item: an arrow or bolt back in its weapon, a shield carried again, or a thing in hand. */
function itemDrawn(next: ArchsoulState, d: Of<'ItemDrawn'>['data']): ArchsoulState {
  const x = next.combatants[d.combatantId];
  const ground = d.groundId ? next.ground.filter((g) => g.groundId !== d.groundId) : next.ground;
  const picked = d.groundId ? next.ground.find((g) => g.groundId === d.groundId) : undefined;
  if (picked?.ammunition) {
    const ws = x.weapons[picked.itemId];
    return {
      ...patch(next, d.combatantId, {
        weapons: { ...x.weapons, [picked.itemId]: { ...ws, ammunition: (ws.ammunition ?? 0) + 1 } },
      }),
      ground,
    };
  }
  // S52: a shield picked up from the ground is carried again, not equipped ("equip a shield" is Draw Awkward Item).
  if (d.from === 'ground' && x.sheet.shield?.id === d.itemId)
    return {
      ...patch(next, d.combatantId, { away: x.away.filter((a) => a !== d.itemId), awkward: undefined }),
      ground,
    };
  return {
    ...patch(next, d.combatantId, {
      held: [...x.held.filter((h) => h !== d.itemId), d.itemId],
      hands: grasp(x.hands, d.itemId, handsFor(x.sheet, d.itemId)),
      away: x.away.filter((a) => a !== d.itemId),
      awkward: undefined,
    }),
    ground,
  };
}

/** A thrown item leaves the thrower's hands; what can be recovered lies on the ground. */
function projectileLanded(next: ArchsoulState, d: Of<'ProjectileLanded'>['data']): ArchsoulState {
  let after = next;
  if (!d.ammunition) {
    const x = next.combatants[d.combatantId];
    // S34: a thrown area weapon that lands spent is gone for good: destroyed, as the view shows it.
    const spent =
      d.broken && x.weapons[d.itemId] ? { [d.itemId]: { ...x.weapons[d.itemId], destroyed: true } } : {};
    after = patch(next, d.combatantId, {
      ...letGo(x, d.itemId),
      away: [...x.away, d.itemId],
      weapons: { ...x.weapons, ...spent },
    });
  }
  if (!d.groundId) return after;
  const item = {
    groundId: d.groundId,
    itemId: d.ammunition ? d.weaponId : d.itemId,
    ownerId: d.combatantId,
    name: d.name,
    space: d.space,
    ...(d.ammunition ? { ammunition: d.ammunition } : {}),
  };
  return { ...after, ground: [...after.ground, item], groundCount: after.groundCount + 1 };
}

/** The stolen item leaves its owner's hands and goes with the thief. */
function itemStolen(next: ArchsoulState, d: Of<'ItemStolen'>['data']): ArchsoulState {
  const from = next.combatants[d.fromId];
  const thief = next.combatants[d.combatantId];
  const combatants = {
    ...next.combatants,
    [from.id]: { ...from, ...letGo(from, d.itemId), away: [...from.away, d.itemId] },
  };
  combatants[thief.id] = {
    ...combatants[thief.id],
    stolen: [...thief.stolen, { itemId: d.itemId, fromId: d.fromId, name: d.name }],
  };
  return { ...next, combatants };
}

/** Wounds, and which weapons a combatant has attacked with this turn. */
function evolveAttacks(
  next: ArchsoulState,
  event: Of<'WoundsApplied' | 'ExchangeResolved' | 'AreaAttackResolved'>,
): ArchsoulState {
  switch (event.type) {
    case 'WoundsApplied': {
      const d = event.data;
      // S11: Down, it has no turn: no AP, and none of an ambush's free movement (a turn ended keeps none either).
      return patch(
        next,
        d.combatantId,
        d.down ? { hp: d.hp, ap: 0, inTurn: false, freeMove: 0 } : { hp: d.hp },
      );
    }
    case 'ExchangeResolved': {
      const d = event.data;
      const a = next.combatants[d.attackerId];
      // S67: the sneak attack a study allowed uses it up, a reactive one too (an AP attack's ApSpent already has).
      const studied = d.maneuvers?.includes('sneak') ? { study: undefined } : {};
      const after =
        a.attackedWith.includes(d.weaponId) && !('study' in studied)
          ? next
          : {
              ...next,
              combatants: {
                ...next.combatants,
                [a.id]: {
                  ...a,
                  attackedWith: a.attackedWith.includes(d.weaponId)
                    ? a.attackedWith
                    : [...a.attackedWith, d.weaponId],
                  ...studied,
                },
              },
            };
      return after.reaction && d.action === 'reactive'
        ? { ...after, reaction: { ...after.reaction, current: undefined }, pending: undefined }
        : after;
    }
    case 'AreaAttackResolved': {
      const d = event.data;
      const a = next.combatants[d.attackerId];
      return a.attackedWith.includes(d.weaponId)
        ? next
        : {
            ...next,
            combatants: {
              ...next.combatants,
              [a.id]: { ...a, attackedWith: [...a.attackedWith, d.weaponId] },
            },
          };
    }
  }
}

/** Reactive attacks: the queue of reactors, each one's offer, prevention, and resuming the interrupted action. */
function evolveReactions(
  next: ArchsoulState,
  event: Of<
    | 'ReactiveAttackTriggered'
    | 'ReactiveAttackOffered'
    | 'ReactiveAttackDeclined'
    | 'ReactiveGrabAttempted'
    | 'ReactiveAttackLapsed'
    | 'PreventionRolled'
    | 'ReactionsFinished'
    | 'ActionResumed'
  >,
): ArchsoulState {
  switch (event.type) {
    case 'ReactiveAttackTriggered':
      return reactiveAttackTriggered(next, event.data);
    case 'ReactiveAttackOffered':
      return reactiveAttackOffered(next, event.data);
    // S71: a reactive Grab answers the offer as a reactive attack's exchange does.
    case 'ReactiveAttackDeclined':
    case 'ReactiveGrabAttempted':
      return { ...next, reaction: { ...next.reaction!, current: undefined }, pending: undefined };
    case 'ReactiveAttackLapsed': {
      const d = event.data;
      return {
        ...next,
        reaction: {
          ...next.reaction!,
          remaining: next.reaction!.remaining.filter((id) => id !== d.reactorId),
        },
      };
    }
    case 'PreventionRolled':
      return event.data.prevented
        ? { ...next, reaction: preventedIn(next.reaction!, event.data.combatantId) }
        : next;
    case 'ReactionsFinished': {
      const d = event.data;
      // S20: a sequence opened inside another (a reactive attack left its attacker open) hands back to it.
      if (next.reaction?.interrupted?.length)
        return { ...next, reaction: resumed(next.reaction), pending: undefined };
      // S81: a prevented free move (Ambushes) ends the free movement, as a prevented Move ends that Move (S13);
      // S106: a prevented Quick Attack was not performed, so it ends no attacks.
      const after = d.prevented ? notPerformed(next, d) : next;
      if (d.prevented || !d.action) return { ...after, reaction: undefined, pending: undefined };
      return {
        ...next,
        reaction: { ...next.reaction!, current: undefined, remaining: [] },
        pending: {
          kind: 'resumeAction',
          awaiting: d.actorId,
          answer: 'ResumeAction',
          detail: { action: d.action.type },
        },
      };
    }
    case 'ActionResumed': {
      // S85, S106: an abandoned free move or Quick Attack is not performed, as a prevented one is not (S81).
      const after = event.data.abandoned ? heldNotPerformed(next, next.reaction) : next;
      return { ...after, reaction: undefined, pending: undefined };
    }
  }
}

/**
 * A held action that is not performed: prevented, abandoned or dropped by the GM. S81, S85: a free move (Ambushes)
 * ends the free movement (`freeMove` 0). S106: a Quick Attack ("After performing a Quick Attack, you cannot make any
 * other attacks") ends no attacks: its ApSpent set `quickAttacked`, which no attack performed earlier this turn can
 * have set (S27 refuses an attack after one), so it goes back to false; its AP stay spent (S8).
 */
function notPerformed(next: ArchsoulState, x: Pick<ReactionSequence, 'actorId' | 'action'>): ArchsoulState {
  const a = x.action;
  if (!a || !next.combatants[x.actorId]) return next;
  if (a.type === 'Move' && a.payload.action === 'free') return patch(next, x.actorId, { freeMove: 0 });
  if (a.type === 'Attack' && a.payload.special === 'quick')
    return patch(next, x.actorId, { quickAttacked: false });
  return next;
}

/** `notPerformed` for every sequence of the queue, the interrupted ones too. */
function heldNotPerformed(next: ArchsoulState, q: ReactionQueue | undefined): ArchsoulState {
  return q ? [q, ...(q.interrupted ?? [])].reduce(notPerformed, next) : next;
}

/** The reactors queue up. */
function reactiveAttackTriggered(
  next: ArchsoulState,
  d: Of<'ReactiveAttackTriggered'>['data'],
): ArchsoulState {
  // S66: paying for another item's awkward draw (held here by the reactions it triggered) ends the half-drawn one.
  const drawn = d.action?.type === 'DrawAwkwardItem' ? d.action.payload.itemId : undefined;
  const actor = next.combatants[d.actorId];
  const base =
    drawn !== undefined && actor?.awkward !== undefined && actor.awkward !== drawn
      ? patch(next, d.actorId, { awkward: undefined })
      : next;
  // S20: a sequence opened while another is answered (`interrupts`) waits on top of it; the other resumes after it.
  const outer = d.interrupts !== undefined ? next.reaction : undefined;
  const interrupted = outer ? [...(outer.interrupted ?? []), sequenceOf(outer)] : undefined;
  return {
    ...base,
    reaction: {
      actorId: d.actorId,
      trigger: d.trigger,
      ...(d.action ? { action: d.action } : {}),
      remaining: d.reactorIds,
      prevented: false,
      ...(interrupted ? { interrupted } : {}),
    },
  };
}

/**
 * The sequence whose held action a prevention stops: the one answered now when it holds the actor's action, else
 * (S20, S26: an actor left Down by a reactive attack on an opening) the innermost interrupted one that does.
 */
function preventedIn(q: ReactionQueue, actorId: string): ReactionQueue {
  const holds = (x: ReactionSequence) => x.actorId === actorId && x.action !== undefined;
  const stack = q.interrupted ?? [];
  const i = holds(q) ? -1 : stack.map(holds).lastIndexOf(true);
  if (i < 0) return { ...q, prevented: true };
  return { ...q, interrupted: stack.map((x, j) => (j === i ? { ...x, prevented: true } : x)) };
}

/** A queue without the sequences it interrupted. */
function sequenceOf({ interrupted: _outer, ...q }: ReactionQueue): ReactionSequence {
  return q;
}

/** S20: the sequence the finished one interrupted, where it was, with the ones it interrupted in turn. */
function resumed(q: ReactionQueue): ReactionQueue {
  const stack = q.interrupted!;
  const outer = stack[stack.length - 1];
  return stack.length > 1 ? { ...outer, interrupted: stack.slice(0, -1) } : outer;
}

/** Triggers that use a reactor's once-per-turn reaction to the mover's leaving a space (S13). */
const ONCE_PER_TURN: readonly Trigger[] = ['leaveReach', 'landing'];

/**
 * The next reactor's reactive attack becomes the pending decision. S18: a leave-reach trigger counts as used once
 * offered (a reactor that lapses unoffered keeps it); archsoul.txt: Jumping: a landing triggers "as if you were moving
 * out of the space you landed in", so it counts the same.
 */
function reactiveAttackOffered(next: ArchsoulState, d: Of<'ReactiveAttackOffered'>['data']): ArchsoulState {
  const q = next.reaction!;
  const actor = next.combatants[d.actorId];
  const combatants = ONCE_PER_TURN.includes(q.trigger)
    ? { ...next.combatants, [actor.id]: { ...actor, triggeredBy: [...actor.triggeredBy, d.reactorId] } }
    : next.combatants;
  const pending = {
    kind: 'reactiveAttack',
    awaiting: d.reactorId,
    answer: 'ReactiveAttack',
    detail: { actorId: d.actorId, trigger: q.trigger, alsoAccepts: ['DeclineReactiveAttack'] },
  };
  return {
    ...next,
    combatants,
    reaction: { ...q, current: d.reactorId, remaining: q.remaining.filter((id) => id !== d.reactorId) },
    pending,
  };
}

/** Grapples: who is in one, and who controls it. */
function evolveGrapples(
  next: ArchsoulState,
  event: Of<'GrappleStarted' | 'GrappleControlChanged' | 'GrappleEnded'>,
): ArchsoulState {
  switch (event.type) {
    case 'GrappleStarted': {
      const d = event.data;
      return {
        ...next,
        grapples: [
          ...next.grapples,
          { grappleId: d.grappleId, memberIds: d.memberIds, controlId: d.controlId },
        ],
        grappleCount: next.grappleCount + 1,
      };
    }
    case 'GrappleControlChanged': {
      const d = event.data;
      return {
        ...next,
        grapples: next.grapples.map((g) =>
          g.grappleId === d.grappleId ? { ...g, controlId: d.controlId } : g,
        ),
      };
    }
    case 'GrappleEnded':
      return { ...next, grapples: next.grapples.filter((g) => g.grappleId !== event.data.grappleId) };
  }
}
