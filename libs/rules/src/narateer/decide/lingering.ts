import { settledBefore } from '../../core/handed-over';
import { combatantId } from '../../core/lifecycle';
import { run } from '../../core/run';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { Harm, LINGERING_HARM_DEFAULTS } from '../data';
import { NarateerCommand } from '../commands';
import { ev, LingeringHarmAppliedData } from '../events';
import { evolve } from '../evolve';
import { LingeringHarm, LingeringTick, NarateerState } from '../state';
import { applyWounds, choiceArises, preference } from './wounds';

/**
 * narateer.txt: Lingering Harm — Form, default classification (N11), each source tracked separately;
 * the source's stated tick timing, duration and ending condition override the defaults (N38); the same Form,
 * source and classification again is the same instance, refreshed (N39).
 */
export function applyLingeringHarm(
  state: NarateerState,
  command: NarateerCommand<'ApplyLingeringHarm'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const named = command.form;
  const form =
    Object.keys(LINGERING_HARM_DEFAULTS).find((f) => f.toLowerCase() === named.toLowerCase()) ?? named;
  // A default only for a Form of the table: never what every object has (a Form named "constructor").
  const harm =
    command.harm ??
    (Object.hasOwn(LINGERING_HARM_DEFAULTS, form) ? LINGERING_HARM_DEFAULTS[form] : undefined);
  ensure(
    harm,
    'NARATEER_HARM_REQUIRED',
    `narateer.txt: Lingering Harm: ${form} has no default classification (RULINGS.md N11); give harm as "Domain (Type)"`,
    'harm',
  );
  const untilRound =
    command.rounds === undefined
      ? undefined
      : (state.roundOpen ? state.round : state.round + 1) + command.rounds - 1;
  const existing =
    command.source === undefined
      ? undefined
      : state.combatants[id].lingering.find((l) => sameInstance(l, form, command.source!, harm));
  if (existing) return refresh(state, id, existing, command, untilRound);
  const data: LingeringHarmAppliedData = {
    combatantId: id,
    lingeringHarmId: `lh${state.lingeringApplied + 1}`,
    form,
    harm,
    wounds: command.wounds,
    round: state.round,
  };
  if (command.source !== undefined) data.source = command.source;
  terms(data, command.tick, untilRound, command.endsAfterTicks, command.endsWhen, command.allocation);
  return [ev('LingeringHarmApplied', data)];
}

/** N19, N39: an instance is Form + source + classification; without a named source each application is its own. */
function sameInstance(l: LingeringHarm, form: string, source: string, harm: Harm): boolean {
  return l.form === form && l.source === source && l.harm.domain === harm.domain && l.harm.type === harm.type;
}

/**
 * N39: a refresh keeps the instance and the worse of each term ("use the worst intensity or duration"):
 * the more Wounds per tick, the longer duration and the more ticks left (none stated = until treated, the longest);
 * a tick timing, ending condition or allocation the new application states replaces the old. It never ticks twice
 * in one round. A refresh that changes nothing returns no events.
 */
function refresh(
  state: NarateerState,
  id: string,
  l: LingeringHarm,
  command: NarateerCommand<'ApplyLingeringHarm'>,
  untilRound: number | undefined,
): RuleEvent[] {
  const longer = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : Math.max(a, b);
  const merged = {
    wounds: Math.max(l.wounds, command.wounds),
    tick: command.tick ?? l.tick,
    untilRound: longer(l.untilRound, untilRound),
    ticksLeft: longer(l.ticksLeft, command.endsAfterTicks),
    endsWhen: command.endsWhen ?? l.endsWhen,
    allocation: command.allocation ?? l.allocation,
  };
  const same =
    merged.wounds === l.wounds &&
    merged.tick === l.tick &&
    merged.untilRound === l.untilRound &&
    merged.ticksLeft === l.ticksLeft &&
    merged.endsWhen === l.endsWhen &&
    (merged.allocation ?? []).join() === (l.allocation ?? []).join();
  if (same) return [];
  const data: LingeringHarmAppliedData = {
    combatantId: id,
    lingeringHarmId: l.id,
    form: l.form,
    harm: l.harm,
    wounds: merged.wounds,
    round: state.round,
    source: l.source,
  };
  terms(data, merged.tick, merged.untilRound, merged.ticksLeft, merged.endsWhen, merged.allocation);
  data.refreshed = true;
  return [ev('LingeringHarmApplied', data)];
}

/** Records only the terms a source states, so an instance with the defaults keeps the event it always had. */
function terms(
  data: LingeringHarmAppliedData,
  tick: LingeringTick | undefined,
  untilRound: number | undefined,
  ticks: number | undefined,
  endsWhen: string | undefined,
  allocation: LingeringHarmAppliedData['allocation'],
): void {
  if (tick !== undefined && tick !== 'roundEnd') data.tick = tick;
  if (untilRound !== undefined) data.untilRound = untilRound;
  if (ticks !== undefined) data.ticksLeft = ticks;
  if (endsWhen !== undefined) data.endsWhen = endsWhen;
  if (allocation !== undefined) data.allocation = allocation;
}

/** N19, N38: treatment (or the source's ending condition, met) ends one instance, no roll. */
export function treatLingeringHarm(
  state: NarateerState,
  command: NarateerCommand<'TreatLingeringHarm'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const lhId = command.lingeringHarmId;
  const instance = state.combatants[id].lingering.find((l) => l.id === lhId);
  ensure(
    instance,
    'NARATEER_UNKNOWN_LINGERING_HARM',
    `${id} has no Lingering Harm ${lhId}`,
    'lingeringHarmId',
  );
  const data: { combatantId: string; lingeringHarmId: string; form: string; reason?: string } = {
    combatantId: id,
    lingeringHarmId: lhId,
    form: instance.form,
  };
  if (command.reason !== undefined) data.reason = command.reason;
  return [ev('LingeringHarmTreated', data)];
}

/**
 * N19, N38: every untreated instance of `ids` (in join order) that ticks at `tick` and has not ticked in
 * this round ticks, one resolution each, even while Collapsed. An ASK combatant with a choice to make and no
 * allocation in advance gets a pending woundAllocation (N28): the events stop there, and AllocateWounds resumes.
 */
export function tickLingeringHarm(
  state: NarateerState,
  tick: LingeringTick,
  ids: readonly string[],
  dice: DiceSource,
): { events: RuleEvent[]; state: NarateerState } {
  const r = run(state, evolve);
  for (const [at, id] of ids.entries()) {
    for (const lh of state.combatants[id]?.lingering ?? []) {
      if (lh.tick !== tick || lh.lastTick === r.state().round) continue;
      const c = r.state().combatants[id];
      const calc = {
        combatantId: id,
        wounds: lh.wounds,
        harm: lh.harm,
        lingeringHarmId: lh.id,
        form: lh.form,
      };
      if (!lh.allocation && c.sheet.woundPreference === 'ASK' && choiceArises(c, lh.wounds)) {
        r.push(ev('WoundAllocationRequested', calc));
        return { events: r.events, state: r.state() };
      }
      // N47: a tick of 0 Wounds is still a tick: recorded with 0 Wounds, and counted.
      // N61: a Continuation Check held for its roller holds the rest of the ticks of this moment.
      r.push(
        ...settledBefore(
          [...r.events],
          () => applyWounds(r.state(), calc, preference(c, lh.allocation), dice),
          lh.ticksLeft === 1
            ? { step: 'tickEnded', combatantId: id, lingeringHarmId: lh.id, form: lh.form }
            : undefined,
          { step: 'ticks', tick, ids: ids.slice(at) },
        ),
      );
      r.push(...tickEnded(id, lh));
    }
  }
  return { events: r.events, state: r.state() };
}

/** N38: the tick that was the last of the count ends the instance. */
export function tickEnded(id: string, lh: LingeringHarm): RuleEvent[] {
  return lh.ticksLeft === 1
    ? [ev('LingeringHarmEnded', { combatantId: id, lingeringHarmId: lh.id, form: lh.form, reason: 'ticks' })]
    : [];
}

/** N38: at the end of the round, instances whose duration ends with it end (after their last tick). */
export function expireLingeringHarm(state: NarateerState): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const id of state.joined) {
    for (const lh of state.combatants[id].lingering) {
      if (lh.untilRound !== undefined && lh.untilRound <= state.round)
        events.push(
          ev('LingeringHarmEnded', {
            combatantId: id,
            lingeringHarmId: lh.id,
            form: lh.form,
            reason: 'rounds',
          }),
        );
    }
  }
  return events;
}
