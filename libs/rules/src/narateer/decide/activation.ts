import { settledBefore } from '../../core/handed-over';
import { waitingIn } from '../../core/lifecycle';
import { run } from '../../core/run';
import { RuleEvent } from '../../core/types';
import { DiceSource } from '../../dice/roll';
import { ev } from '../events';
import { evolve } from '../evolve';
import { canActivate, LingeringTick, NarateerState } from '../state';
import { expireConditions } from './conditions';
import { expireLingeringHarm, tickLingeringHarm } from './lingering';

/** N20: who may still have an activation (kept in state.ts: the fold reads it too, N59). */
export { canActivate };

/**
 * C7/N3/N17: Used AD and MD become Ready (Wounded stay) and proactive uses reset; then the combatant's
 * Lingering Harm that ticks at the start of its activation ticks (N38).
 */
export function onActivationStart(state: NarateerState, id: string, dice: DiceSource): RuleEvent[] {
  const c = state.combatants[id];
  const refreshed = ev('DiceRefreshed', {
    combatantId: id,
    ad: { ready: c.ad.ready + c.ad.used, used: 0, wounded: c.ad.wounded },
    md: { ready: c.md.ready + c.md.used, used: 0, wounded: c.md.wounded },
  });
  return [
    refreshed,
    ...settledBefore(
      [refreshed],
      () => tickLingeringHarm(evolve(state, refreshed), 'activationStart', [id], dice).events,
    ),
  ];
}

/** N38: the combatant's Lingering Harm that ticks at the end of its activation. */
export function onActivationEnd(state: NarateerState, id: string, dice: DiceSource): RuleEvent[] {
  return tickLingeringHarm(state, 'activationEnd', [id], dice).events;
}

/** N38: Lingering Harm that ticks at the start of each round. */
export function onRoundStart(state: NarateerState, dice: DiceSource): RuleEvent[] {
  return tickLingeringHarm(state, 'roundStart', state.joined, dice).events;
}

/**
 * N16/N19: Lingering Harm ticks, then instances and conditions measured in rounds run out (N38, N26).
 * A tick waiting for an ASK allocation (N28) holds the rest: AllocateWounds resumes it (resumeTicks).
 */
export function onRoundEnd(state: NarateerState, dice: DiceSource): RuleEvent[] {
  const ticked = settledBefore([], () => tickLingeringHarm(state, 'roundEnd', state.joined, dice), {
    step: 'expire',
  });
  if (ticked.state.pending) return ticked.events;
  return [...ticked.events, ...expireLingeringHarm(ticked.state), ...expireConditions(ticked.state)];
}

/**
 * N28/N29: a cancelled tick allocation drops that tick's Wounds only. The other sources that tick at the same moment
 * still tick ("Track and resolve each source separately"): at the round's end the GM's EndRound ticks them (onRoundEnd);
 * at a round's or an activation's start or an activation's end nothing else would, so they tick now.
 */
export function ticksAfterCancel(before: NarateerState, after: NarateerState, dice: DiceSource): RuleEvent[] {
  const pw = before.pendingWounds;
  if (before.pending?.kind !== 'woundAllocation' || pw?.lingeringHarmId === undefined) return [];
  const lh = before.combatants[pw.combatantId]?.lingering.find((l) => l.id === pw.lingeringHarmId);
  if (!lh || lh.tick === 'roundEnd') return [];
  const ids = lh.tick === 'roundStart' ? after.joined : [pw.combatantId];
  return tickLingeringHarm(after, lh.tick, ids, dice).events;
}

/**
 * N28: after the allocation a tick waited for, the ticks of the same moment go on; a round whose end
 * (or whose last activation's end) was held ends now, unless another tick waits.
 */
export function resumeTicks(
  state: NarateerState,
  tick: LingeringTick,
  id: string,
  dice: DiceSource,
): RuleEvent[] {
  const r = run(state, evolve);
  const then = { step: 'closeAfterTick', tick };
  if (tick === 'roundStart')
    r.push(
      ...settledBefore(
        [],
        () => tickLingeringHarm(r.state(), 'roundStart', r.state().joined, dice).events,
        then,
      ),
    );
  else if (tick === 'activationStart' || tick === 'activationEnd')
    r.push(...settledBefore([], () => tickLingeringHarm(r.state(), tick, [id], dice).events, then));
  r.push(...settledBefore([...r.events], () => closeAfterTick(r.state(), tick, dice)));
  return r.events;
}

/** N28: once a moment's ticks are done, a round whose end (or whose last activation's end) was held ends now. */
export function closeAfterTick(s: NarateerState, tick: LingeringTick, dice: DiceSource): RuleEvent[] {
  if (s.pending) return [];
  const closing =
    tick === 'roundEnd' ||
    (tick === 'activationEnd' && s.roundOpen && !s.activeId && waitingIn(s, { canActivate }).length === 0);
  if (!closing) return [];
  const r = run(s, evolve);
  r.push(...settledBefore([], () => onRoundEnd(s, dice), { step: 'roundEnded' }));
  if (!r.state().pending) r.push({ type: 'RoundEnded', data: { round: r.state().round } });
  return r.events;
}
