import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { NarateerCommand } from '../commands';
import { ConditionAppliedData, ev } from '../events';
import { ActiveCondition, NarateerState } from '../state';

/** narateer.txt: Conditions and Statuses — no stacking of like effects: the worst intensity or duration (N26). */
export function applyCondition(
  state: NarateerState,
  command: NarateerCommand<'ApplyCondition'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const { condition, intensity, rounds } = command;
  const untilRound =
    rounds === undefined ? undefined : (state.roundOpen ? state.round : state.round + 1) + rounds - 1;
  const existing = state.combatants[id].conditions.find((k) => k.condition === condition);
  const merged = existing ? worst(existing, intensity, untilRound) : { condition, intensity, untilRound };
  if (existing && existing.intensity === merged.intensity && existing.untilRound === merged.untilRound)
    return [];
  const data: ConditionAppliedData = { combatantId: id, condition };
  if (merged.intensity !== undefined) data.intensity = merged.intensity;
  if (merged.untilRound !== undefined) data.untilRound = merged.untilRound;
  return [ev('ConditionApplied', data)];
}

function worst(
  existing: ActiveCondition,
  intensity: number | undefined,
  untilRound: number | undefined,
): ActiveCondition {
  const i =
    existing.intensity === undefined
      ? intensity
      : intensity === undefined
        ? existing.intensity
        : Math.max(existing.intensity, intensity);
  // No end (absent) is the longest duration.
  const u =
    existing.untilRound === undefined || untilRound === undefined
      ? undefined
      : Math.max(existing.untilRound, untilRound);
  return { condition: existing.condition, intensity: i, untilRound: u };
}

export function removeCondition(
  state: NarateerState,
  command: NarateerCommand<'RemoveCondition'>,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const { condition } = command;
  if (!state.combatants[id].conditions.some((k) => k.condition === condition)) return [];
  return [ev('ConditionRemoved', { combatantId: id, condition })];
}

/** N26: a condition given in rounds ends with the last of them. */
export function expireConditions(state: NarateerState): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const id of state.joined) {
    for (const k of state.combatants[id].conditions) {
      if (k.untilRound !== undefined && k.untilRound <= state.round)
        events.push(ev('ConditionRemoved', { combatantId: id, condition: k.condition, reason: 'expired' }));
    }
  }
  return events;
}
