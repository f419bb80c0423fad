import { DICE_REQUEST_CANCELLED } from '../core/dice-requests';
import { evolveLifecycle } from '../core/lifecycle';
import { CombatantCore, RuleEvent } from '../core/types';
import { pairKey } from './decide/common';
import { ArcanaEvent, isArcanaEvent } from './events';
import { ArcanaInitiativeRoll } from './initiative';
import { highestStage } from './decide/evolution';
import { ArcanaSheet, BeastSheet } from './sheet';
import { ArcanaBeastState, ArcanaCombatant, beastOfBinder, isBeast, out, sideTurnOf } from './state';

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
    revertTo: beast ? startingRevert(beast) : undefined,
    defending: false,
    guarding: undefined,
    assistDice: 0,
    encourageDodge: 0,
    interceptOwed: false,
    items: sheet.kind === 'binder' ? Object.fromEntries(sheet.inventory.map((i) => [i.id, i.quantity])) : {},
  };
}

/**
 * A9, A41: "Highest Stage lasts one Combat Encounter or Scene" however the beast came to it: one that joins at its
 * highest Stage returns, when the encounter ends, to the highest unlocked Stage below (none: it keeps its only Stage).
 */
function startingRevert(sheet: BeastSheet): number | undefined {
  const below = sheet.stages.map((s) => s.stage).filter((s) => s < sheet.stage);
  return sheet.stage === highestStage(sheet) && below.length > 0 ? Math.max(...below) : undefined;
}

function patch(state: ArcanaBeastState, id: string, fields: Partial<ArcanaCombatant>): ArcanaBeastState {
  return { ...state, combatants: { ...state.combatants, [id]: { ...state.combatants[id], ...fields } } };
}

/**
 * The lifecycle events (declared in core) this system folds further, with the data it reads of them: CombatantJoined
 * as the lifecycle decides it, InitiativeRolled with this system's rolls (initiative.ts).
 */
type LifecycleFolded =
  | { type: 'CombatantJoined'; data: { id: string } }
  | { type: 'InitiativeRolled'; data: { rolls: ArcanaInitiativeRoll[] } }
  | { type: 'CombatantRemoved'; data: { combatantId: string } }
  | {
      type: 'ActivationEnded' | 'RoundEnded' | 'FightEnded' | 'PendingCancelled';
      data: Record<string, unknown>;
    };

const LIFECYCLE_FOLDED: ReadonlySet<string> = new Set<LifecycleFolded['type']>([
  'CombatantJoined',
  'InitiativeRolled',
  'CombatantRemoved',
  'ActivationEnded',
  'RoundEnded',
  'FightEnded',
  'PendingCancelled',
]);

function isLifecycleFolded(event: RuleEvent): event is LifecycleFolded {
  return LIFECYCLE_FOLDED.has(event.type);
}

export function evolve(state: ArcanaBeastState, event: RuleEvent): ArcanaBeastState {
  const next = evolveLifecycle(state, event, { newCombatant }) ?? state;
  if (isArcanaEvent(event)) return evolveArcana(next, event);
  // A36: the GM cancelled the dice request holding a Devolution Test: it is not owed any more.
  if (event.type === DICE_REQUEST_CANCELLED) return { ...next, devolutionDue: undefined };
  return isLifecycleFolded(event) ? afterLifecycle(next, event) : next;
}

function afterLifecycle(next: ArcanaBeastState, event: LifecycleFolded): ArcanaBeastState {
  switch (event.type) {
    case 'CombatantJoined': {
      const c = next.combatants[event.data.id];
      return c.sheet.kind === 'binder'
        ? { ...next, binderOf: { ...next.binderOf, [c.sheet.beastId]: c.id } }
        : next;
    }
    case 'InitiativeRolled': {
      const combatants = { ...next.combatants };
      for (const r of event.data.rolls)
        if (r.tieReroll === undefined)
          combatants[r.combatantId] = {
            ...combatants[r.combatantId],
            initiative: r.total,
            surprised: r.surprised === true,
          };
      return { ...next, combatants };
    }
    case 'CombatantRemoved':
      // A15, A26: the running beast leaving ends its activation, and with it the shared turn (Bond Surge, Direct…).
      return next.turn?.beastId === event.data.combatantId ? { ...next, turn: undefined } : next;
    case 'ActivationEnded':
    case 'RoundEnded':
      return { ...next, turn: undefined };
    case 'FightEnded':
      // A22: the fight's end leaves no attack waiting for an Intercept (its pending decision ends with it).
      return { ...next, turn: undefined, pendingAttack: undefined };
    case 'PendingCancelled':
      return { ...next, pendingAttack: undefined };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** One Arcana Beast event type, narrowed to its data. */
type Of<T extends ArcanaEvent['type']> = Extract<ArcanaEvent, { type: T }>;

/** Arcana Beast's own events, narrowed on `type`; each family folds in a function of its own. */
function evolveArcana(next: ArcanaBeastState, event: ArcanaEvent): ArcanaBeastState {
  switch (event.type) {
    case 'InitiativeTieRerolled':
    case 'TurnStarted':
    case 'ActionTaken':
    case 'BinderCommanded':
      return evolveTurns(next, event);
    case 'AttackDeclared':
    case 'InterceptDecided':
    case 'AttackResolved':
    case 'BonusDiceUsed':
    case 'Assisted':
    case 'CriticalGaugeRaised':
    case 'ComboReset':
      return evolveAttacks(next, event);
    case 'DamageDealt':
    case 'HpRestored':
    case 'KnockedOut':
    case 'HarmGained':
    case 'ConditionApplied':
    case 'ConditionRemoved':
    case 'StaminaSpent':
    case 'StaminaRestored':
      return evolveWounds(next, event);
    case 'StageEvolved':
    case 'StageDevolved':
    case 'SpecialAttackUsed':
    case 'ZeroPowerUsed':
    case 'TriggerSet':
    case 'DevolutionTested':
      return evolveStages(next, event);
    case 'TagSet':
    case 'TagCleared':
    case 'ItemUsed':
      return evolveTagsAndItems(next, event);
    case 'BandSet':
    case 'Moved':
    case 'CalledBack':
      return evolveBands(next, event);
    case 'SceneEnded':
      return sceneEnded(next, event.data.revived);
    // Records of rolls and thresholds: nothing more to fold.
    case 'CriticalMoveTriggered':
    case 'TestRolled':
    case 'OpposedTestRolled':
      return next;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** Initiative ties, the turn, its action and the binder's command. */
function evolveTurns(
  next: ArcanaBeastState,
  event: Of<'InitiativeTieRerolled' | 'TurnStarted' | 'ActionTaken' | 'BinderCommanded'>,
): ArcanaBeastState {
  switch (event.type) {
    case 'InitiativeTieRerolled': {
      const e = event.data;
      const pending =
        e.unresolvedTies.length > 0
          ? {
              kind: 'initiativeTie',
              awaiting: 'gm',
              answer: 'SetInitiative',
              detail: { ties: e.unresolvedTies },
            }
          : undefined;
      return { ...next, order: e.order, pending };
    }
    case 'TurnStarted': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      const turn = {
        beastId: c.id,
        binderId: e.binderId,
        action: e.actionForfeited ? 'forfeited' : undefined,
        command: undefined,
        freeMoveUsed: false,
        directed: false,
        bondSurge: false,
        strategized: false,
      };
      // A20, A56: a turn whose beast is out (its Binder's Commands only) is no beast turn of its side.
      const sideTurns = out(c)
        ? next.sideTurns
        : { ...next.sideTurns, [c.side]: sideTurnOf(next, c.side) + 1 };
      return {
        ...patch(next, c.id, { defending: false, guarding: undefined, interceptOwed: false }),
        turn,
        sideTurns,
      };
    }
    case 'ActionTaken': {
      const e = event.data;
      const after = { ...next, turn: { ...next.turn!, action: e.action } };
      if (e.action === 'defend') return patch(after, e.combatantId, { defending: true });
      if (e.action === 'guard') return patch(after, e.combatantId, { guarding: e.allyId });
      return after;
    }
    case 'BinderCommanded': {
      const e = event.data;
      const turn = { ...next.turn!, command: e.command };
      if (e.command === 'direct') turn.directed = true;
      if (e.command === 'bondSurge') turn.bondSurge = true;
      if (e.command === 'strategize' && e.passed) turn.strategized = true;
      const after = { ...next, turn };
      if (e.command === 'encourage' && e.passed && e.effect === 'dodgeDie')
        return patch(after, e.beastId, { encourageDodge: next.combatants[e.beastId].encourageDodge + 1 });
      return after;
    }
  }
}

/** Attacks, intercepts, combos, bonus dice and the Critical Gauge. */
function evolveAttacks(
  next: ArcanaBeastState,
  event: Of<
    | 'AttackDeclared'
    | 'InterceptDecided'
    | 'AttackResolved'
    | 'BonusDiceUsed'
    | 'Assisted'
    | 'CriticalGaugeRaised'
    | 'ComboReset'
  >,
): ArcanaBeastState {
  switch (event.type) {
    case 'AttackDeclared': {
      const e = event.data;
      const beast = beastOfBinder(next, e.targetId)!;
      const pending = {
        kind: 'intercept',
        awaiting: beast.id,
        answer: 'Intercept',
        detail: {
          attackNo: e.attackNo,
          attackerId: e.attackerId,
          binderId: e.targetId,
          attackName: e.attackName,
        },
      };
      // A22: the attack has its number from its declaration, so one the GM voids keeps it (the next is numbered on).
      return { ...next, pendingAttack: e, pending, attacks: e.attackNo };
    }
    case 'InterceptDecided': {
      const e = event.data;
      const after = { ...next, pending: next.pending?.kind === 'intercept' ? undefined : next.pending };
      return e.intercept ? patch(after, e.combatantId, { interceptOwed: true }) : after;
    }
    case 'AttackResolved': {
      const e = event.data;
      const combo = {
        side: e.combo.side,
        lastAttackerId: e.attackerId,
        sideTurn: e.combo.sideTurn,
        attacks: e.combo.position,
        hits: e.combo.hits,
      };
      const chains = Object.hasOwn(next.chains, e.targetId) ? next.chains[e.targetId] : {};
      return {
        ...next,
        pendingAttack: undefined,
        attacks: e.attackNo,
        combos: { ...next.combos, [e.targetId]: combo },
        chains: { ...next.chains, [e.targetId]: { ...chains, [combo.side]: combo } },
      };
    }
    case 'BonusDiceUsed':
      return patch(
        next,
        event.data.combatantId,
        event.data.source === 'Assist' ? { assistDice: 0 } : { encourageDodge: 0 },
      );
    case 'Assisted':
      return patch(next, event.data.allyId, {
        assistDice: next.combatants[event.data.allyId].assistDice + 1,
      });
    case 'CriticalGaugeRaised':
      return { ...next, criticalGauge: event.data.to };
    case 'ComboReset':
      return withoutCombos(next, event.data.targetId);
  }
}

/** HP, knockouts, harms, conditions and stamina. */
function evolveWounds(
  next: ArcanaBeastState,
  event: Of<
    | 'DamageDealt'
    | 'HpRestored'
    | 'KnockedOut'
    | 'HarmGained'
    | 'ConditionApplied'
    | 'ConditionRemoved'
    | 'StaminaSpent'
    | 'StaminaRestored'
  >,
): ArcanaBeastState {
  switch (event.type) {
    case 'DamageDealt':
    case 'HpRestored':
      return patch(next, event.data.combatantId, { hp: event.data.hp });
    case 'KnockedOut': {
      // arcana-beast.txt: Knockout & Devolution (A13, A35): a player-side beast at Stage 1+ owes a Devolution Test.
      const c = next.combatants[event.data.combatantId];
      const devolutionDue = event.data.playerSide && isBeast(c) && c.stage >= 1 ? c.id : next.devolutionDue;
      return {
        ...withoutCombos(
          patch(next, c.id, { knockedOut: true, defending: false, guarding: undefined }),
          c.id,
        ),
        devolutionDue,
      };
    }
    case 'HarmGained':
      return patch(next, event.data.combatantId, {
        harms: [...next.combatants[event.data.combatantId].harms, event.data.harm],
      });
    case 'ConditionApplied':
      return patch(next, event.data.combatantId, {
        conditions: [...next.combatants[event.data.combatantId].conditions, event.data.condition],
      });
    case 'ConditionRemoved': {
      const e = event.data;
      return patch(next, e.combatantId, {
        conditions: next.combatants[e.combatantId].conditions.filter((k) => k !== e.condition),
      });
    }
    case 'StaminaSpent':
    case 'StaminaRestored':
      return patch(next, event.data.combatantId, { stamina: event.data.stamina });
  }
}

/** Evolution stages, special attacks, Zero Power and triggers. */
function evolveStages(
  next: ArcanaBeastState,
  event: Of<
    | 'StageEvolved'
    | 'StageDevolved'
    | 'SpecialAttackUsed'
    | 'ZeroPowerUsed'
    | 'TriggerSet'
    | 'DevolutionTested'
  >,
): ArcanaBeastState {
  switch (event.type) {
    case 'StageEvolved': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      return patch(next, c.id, { stage: e.to, revertTo: e.highest ? (c.revertTo ?? e.from) : c.revertTo });
    }
    case 'StageDevolved':
      return patch(next, event.data.combatantId, { stage: event.data.to, revertTo: undefined });
    case 'SpecialAttackUsed': {
      const e = event.data;
      return patch(next, e.combatantId, {
        specialUses: { ...next.combatants[e.combatantId].specialUses, [e.specialAttackId]: e.usesLeft },
      });
    }
    case 'ZeroPowerUsed':
      return patch(next, event.data.combatantId, { zeroPowerUsed: true });
    case 'TriggerSet': {
      const e = event.data;
      const c = next.combatants[e.combatantId];
      if (e.kind === 'zeroPower') return patch(next, c.id, { zeroPowerTrigger: e.active });
      const others = c.activeTriggers.filter((s) => s !== e.stage);
      return patch(next, c.id, { activeTriggers: e.active ? [...others, e.stage] : others });
    }
    case 'DevolutionTested':
      return next.devolutionDue === event.data.combatantId ? { ...next, devolutionDue: undefined } : next;
  }
}

/** Tags, and the binder's items. */
function evolveTagsAndItems(
  next: ArcanaBeastState,
  event: Of<'TagSet' | 'TagCleared' | 'ItemUsed'>,
): ArcanaBeastState {
  switch (event.type) {
    case 'TagSet': {
      const e = event.data;
      const others = next.combatants[e.combatantId].tags.filter((t) => t.tag !== e.tag);
      return patch(next, e.combatantId, {
        tags: [...others, e.againstId ? { tag: e.tag, againstId: e.againstId } : { tag: e.tag }],
      });
    }
    case 'TagCleared': {
      const e = event.data;
      return patch(next, e.combatantId, {
        tags: next.combatants[e.combatantId].tags.filter((t) => t.tag !== e.tag),
      });
    }
    case 'ItemUsed': {
      const e = event.data;
      return patch(next, e.binderId, {
        items: { ...next.combatants[e.binderId].items, [e.itemId]: e.quantityLeft },
      });
    }
  }
}

/** Range bands, terrain, movement and calling a beast back. */
function evolveBands(
  next: ArcanaBeastState,
  event: Of<'BandSet' | 'Moved' | 'CalledBack'>,
): ArcanaBeastState {
  switch (event.type) {
    case 'BandSet': {
      const e = event.data;
      const key = pairKey(next, e.aId, e.bId);
      const terrain = { ...next.terrain };
      if (e.difficultTerrain !== undefined) {
        if (e.difficultTerrain > 0) terrain[key] = e.difficultTerrain;
        else delete terrain[key];
      }
      return { ...next, bands: { ...next.bands, [key]: e.band }, terrain };
    }
    case 'Moved': {
      const e = event.data;
      const turn = e.by === 'free' && next.turn ? { ...next.turn, freeMoveUsed: true } : next.turn;
      return { ...next, bands: { ...next.bands, [pairKey(next, e.combatantId, e.towardId)]: e.to }, turn };
    }
    case 'CalledBack':
      return event.data.mode === 'retreat'
        ? patch(next, event.data.beastId, { inVessel: true, guarding: undefined, defending: false })
        : next;
  }
}

/** A24/C7/A42: what the end of an encounter resets. */
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
      // A42: what waits for a next turn or a next roll was given for this encounter.
      defending: false,
      guarding: undefined,
      interceptOwed: false,
      assistDice: 0,
      encourageDodge: 0,
    };
  }
  return { ...state, combatants, combos: {}, chains: {} };
}

/** A10, A57: every side's chain on the target ends. */
function withoutCombos(state: ArcanaBeastState, targetId: string): ArcanaBeastState {
  const { [targetId]: _gone, ...combos } = state.combos;
  const { [targetId]: _chains, ...chains } = state.chains;
  return { ...state, combos, chains };
}
