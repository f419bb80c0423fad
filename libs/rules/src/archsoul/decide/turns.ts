import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure, violation } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import { AP_PER_TURN } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { ActiveCondition, ArchsoulState, baseSpeed, isDown, Party, partyOf, Phase } from '../state';
import { endEntries } from './common';
import { pushOut } from './spaces';

export function canActivate(state: ArchsoulState, id: string): boolean {
  const c = state.combatants[id];
  return c !== undefined && !isDown(c);
}

/**
 * archsoul.txt: Turn Order (the heroes A, B, C example), S12/S17: round 1 opens with the first
 * party's combatants ranked above the other party; from round 2 the first phase holds the whole party.
 */
export function phasesOf(state: ArchsoulState, round: number): { party: Party; ids: string[] }[] {
  // S39: Down combatants keep their places, so a phase's index stays the same all round; openPhase skips them.
  const order = state.order.filter((id) => state.combatants[id] !== undefined);
  if (order.length === 0) return [];
  const first = partyOf(state.combatants[order[0]].side);
  const other: Party = first === 'heroes' ? 'enemies' : 'heroes';
  const firstIds =
    round === 1
      ? order.slice(
          0,
          Math.max(
            1,
            order.findIndex((id) => partyOf(state.combatants[id].side) !== first),
          ),
        )
      : order.filter((id) => partyOf(state.combatants[id].side) === first);
  const all = order.every((id) => partyOf(state.combatants[id].side) === first);
  const phases = [{ party: first, ids: all ? order : firstIds }];
  if (!all)
    phases.push({ party: other, ids: order.filter((id) => partyOf(state.combatants[id].side) === other) });
  return phases;
}

/**
 * Starts phase `index` of the open round (skipping phases with nobody able to act), or closes the round. `phases` is
 * the round's list; after a phase ends it is `phasesAfter`'s (S49, S75), so the next phase keeps its party.
 */
export function openPhase(
  state: ArchsoulState,
  index: number,
  phases = phasesOf(state, state.round),
): RuleEvent[] {
  const lapsed: RuleEvent[] = [];
  for (let i = index; i < phases.length; i++) {
    lapsed.push(...turnsNotTaken(state, phases[i].ids, lapsed));
    const ids = phases[i].ids.filter((id) => canActivate(state, id));
    if (ids.length === 0) continue;
    const events = [
      ...lapsed,
      ev('PhaseStarted', { round: state.round, index: i, party: phases[i].party, combatantIds: ids }),
    ];
    for (const id of ids) {
      const c = state.combatants[id];
      const expired = c.conditions
        .filter((k) => k.untilNextTurn && (k.sourceId ?? id) === id)
        .map((k) => k.condition);
      // archsoul.txt: Ambushes: the surprising party moves "up to their base movement speed" for free in "the first
      // round of combat": the speed before any condition (S101), the mount's while mounted (S35, S86).
      const freeMove = firstRoundOfCombat(state, id) && state.ambush === partyOf(c.side) ? baseSpeed(c) : 0;
      events.push(
        ev('TurnStarted', { combatantId: id, round: state.round, ap: AP_PER_TURN, freeMove, expired }),
      );
    }
    return events;
  }
  return [...lapsed, { type: 'RoundEnded', data: { round: state.round } }];
}

/**
 * S64: C7's "until your next turn" ends at that combatant's next turn; a Down combatant (S11) has none, so what it
 * holds or caused that way ends when its phase begins without it, as its turn would have: those entries only, as a
 * turn's start ends only its own (`TurnStarted`). ConditionRemoved takes every entry of the kind, so the others of
 * that kind (a lasting one the GM applied, another caster's Soul Shield) are applied again unchanged, as S76 does.
 */
function turnsNotTaken(state: ArchsoulState, ids: string[], already: RuleEvent[]): RuleEvent[] {
  let s = fold(state, already);
  const events: RuleEvent[] = [];
  for (const down of ids.filter((id) => state.combatants[id] && !canActivate(state, id))) {
    const out = Object.values(s.combatants).flatMap((x) => {
      const ends = (k: ActiveCondition) => k.untilNextTurn && (k.sourceId ?? x.id) === down;
      return endEntries(x, ends, (k) => !ends(k), `${down} is Down: its turn would have started`);
    });
    events.push(...out);
    s = fold(s, out);
  }
  return events;
}

/**
 * archsoul.txt: Turn Order: the first round of combat runs once down the initiative list; a member of the first party
 * ranked below the other party ("hero C") takes that turn with the first party's round-2 phase (S17). Ruling S77: it is
 * the first turn of each member present as round 1 started, whoever joined or left since; a joiner gets none. A state
 * folded without that list ranks by today's order.
 */
function firstRoundOfCombat(state: ArchsoulState, id: string): boolean {
  if (state.round > 2) return false;
  if (state.ambushOwed) return state.ambushOwed.includes(id);
  if (state.round === 1) return true;
  return state.round === 2 && !phasesOf(state, 1).some((p) => p.ids.includes(id));
}

function fold(state: ArchsoulState, events: RuleEvent[]): ArchsoulState {
  return events.reduce(evolve, state);
}

export function startRound(state: ArchsoulState): RuleEvent[] {
  ensure(
    state.order.length > 0,
    'INITIATIVE_NOT_SET',
    'roll or set initiative before the first round',
    'type',
  );
  ensure(!state.roundOpen, 'ROUND_ALREADY_OPEN', `round ${state.round} is still open`, 'type');
  const started: RuleEvent = { type: 'RoundStarted', data: { round: state.round + 1 } };
  return [started, ...openPhase(fold(state, [started]), 0)];
}

/** S12: a turn ends on EndTurn; the last open turn ends the phase. */
export function endTurn(state: ArchsoulState, command: ArchsoulCommand<'EndTurn'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const c = state.combatants[id];
  ensure(c.inTurn, 'ARCHSOUL_NOT_YOUR_TURN', `RULINGS.md S12: ${id} has no open turn`, 'combatantId');
  return afterTurns(state, [
    ...pushOut(state, c, command.to),
    ev('TurnEnded', { combatantId: id, apLost: c.ap }),
  ]);
}

function afterTurns(state: ArchsoulState, ended: RuleEvent[]): RuleEvent[] {
  const after = fold(state, ended);
  const phase = after.phase!;
  if (phase.combatantIds.some((id) => after.combatants[id]?.inTurn)) return ended;
  return [...ended, ...nextPhase(after, phase)];
}

/** The phase ends and the next opens (or the round closes), as `phasesAfter` says. */
function nextPhase(state: ArchsoulState, phase: Phase): RuleEvent[] {
  const closed = ev('PhaseEnded', { round: phase.round, index: phase.index, party: phase.party });
  const after = fold(state, [closed]);
  return [closed, ...openPhase(after, phase.index + 1, phasesAfter(after, phase))];
}

/**
 * Ruling S75: archsoul.txt: Turn Order: "heroes and villains taking turns": a round's phases alternate as they opened.
 * When its first phase ends, the other party's opens with that party's members as they are now (a late joiner
 * included, one who left not, S49), even if a joiner's initiative has since put the other party first; after the
 * second, the round ends. The new order counts from the next round.
 */
function phasesAfter(state: ArchsoulState, ended: Phase): { party: Party; ids: string[] }[] {
  const other: Party = ended.party === 'heroes' ? 'enemies' : 'heroes';
  const ids = state.order.filter(
    (id) => state.combatants[id] && partyOf(state.combatants[id].side) === other,
  );
  return [{ party: ended.party, ids: [] }, ...(ended.index === 0 ? [{ party: other, ids }] : [])];
}

/**
 * S11/S12, S39: a combatant who goes Down loses its open turn (S43: a turn lost so is pushed out of another's
 * space like any other); when that leaves the running phase with no open turn and no pending decision, the phase ends
 * as if by the last EndTurn.
 */
export function closeIdlePhase(state: ArchsoulState, events: RuleEvent[]): RuleEvent[] {
  if (!state.phase || events.length === 0) return events;
  const pushed = pushLostTurns(state, fold(state, events), events);
  const all = [...events, ...pushed.events];
  if (all.some((e) => e.type === 'PhaseEnded' || e.type === 'RoundEnded')) return all;
  const after = pushed.after;
  const phase = after.phase;
  if (!phase || after.pending || phase.combatantIds.some((id) => after.combatants[id]?.inTurn)) return all;
  return [...all, ...nextPhase(after, phase)];
}

/** S43: open turns that `events` closed without a TurnEnded (going Down) push their combatant out of a shared space. */
function pushLostTurns(
  state: ArchsoulState,
  folded: ArchsoulState,
  events: RuleEvent[],
): { events: RuleEvent[]; after: ArchsoulState } {
  const ended = new Set(
    events.filter((e) => e.type === 'TurnEnded').map((e) => (e.data as { combatantId: string }).combatantId),
  );
  let after = folded;
  const out: RuleEvent[] = [];
  for (const id of state.joined) {
    const c = after.combatants[id];
    if (!state.combatants[id].inTurn || ended.has(id) || !c || c.inTurn) continue;
    const pushed = pushOut(after, c, undefined);
    out.push(...pushed);
    after = fold(after, pushed);
  }
  return { events: out, after };
}

export function endPhase(state: ArchsoulState): RuleEvent[] {
  ensure(state.phase, 'ARCHSOUL_NO_PHASE', 'RULINGS.md S12: no phase is running', 'type');
  return afterTurns(state, openTurns(state));
}

/** S12: the phase's open turns end; S43: each combatant left in another's space is pushed out first. */
function openTurns(state: ArchsoulState): RuleEvent[] {
  const out: RuleEvent[] = [];
  let s = state;
  for (const id of (state.phase?.combatantIds ?? []).filter((x) => state.combatants[x]?.inTurn)) {
    const ended = [
      ...pushOut(s, s.combatants[id], undefined),
      ev('TurnEnded', { combatantId: id, apLost: s.combatants[id].ap }),
    ];
    out.push(...ended);
    s = fold(s, ended);
  }
  return out;
}

export function endRound(state: ArchsoulState): RuleEvent[] {
  ensure(state.roundOpen, 'ROUND_NOT_OPEN', 'no round is open', 'type');
  const events = openTurns(state);
  if (state.phase)
    events.push(
      ev('PhaseEnded', { round: state.phase.round, index: state.phase.index, party: state.phase.party }),
    );
  return [...events, { type: 'RoundEnded', data: { round: state.round } }];
}

export function declareAmbush(state: ArchsoulState, command: ArchsoulCommand<'DeclareAmbush'>): RuleEvent[] {
  ensure(
    state.round === 0,
    'ARCHSOUL_AMBUSH_TOO_LATE',
    'archsoul.txt: Ambushes: declared before the first round',
    'type',
  );
  return [ev('AmbushDeclared', { party: command.party })];
}

/** S12, S17: Archsoul has no activations; a client used to them is told what to send instead. */
export function refuseActivation(type: string): never {
  violation(
    'ARCHSOUL_USE_PHASES',
    `archsoul has no command ${type}: its turns run in phases (RULINGS.md S12, ruling S17): StartRound opens the round and its first phase, where every combatant of the phase has an open turn; EndTurn ends one, EndPhase (GM) ends them all`,
    'type',
  );
}
