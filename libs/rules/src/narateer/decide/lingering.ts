import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { LINGERING_HARM_DEFAULTS } from '../data';
import { NarateerCommand } from '../commands';
import { ev, LingeringHarmAppliedData } from '../events';
import { evolve } from '../evolve';
import { NarateerState } from '../state';
import { applyWounds } from './wounds';

/** narateer.txt: Lingering Harm — Form, default classification (RULINGS.md N11), each source tracked separately. */
export function applyLingeringHarm(state: NarateerState, command: NarateerCommand<'ApplyLingeringHarm'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const named = command.form;
  const form = Object.keys(LINGERING_HARM_DEFAULTS).find((f) => f.toLowerCase() === named.toLowerCase()) ?? named;
  // A default only for a Form of the table: never what every object has (a Form named "constructor").
  const harm = command.harm ?? (Object.hasOwn(LINGERING_HARM_DEFAULTS, form) ? LINGERING_HARM_DEFAULTS[form] : undefined);
  ensure(harm, 'NARATEER_HARM_REQUIRED', `narateer.txt: Lingering Harm: ${form} has no default classification (RULINGS.md N11); give harm as "Domain (Type)"`, 'harm');
  const data: LingeringHarmAppliedData = {
    combatantId: id, lingeringHarmId: `lh${state.lingeringApplied + 1}`, form, harm,
    wounds: command.wounds, round: state.round,
  };
  if (command.source !== undefined) data.source = command.source;
  return [ev('LingeringHarmApplied', data)];
}

/** RULINGS.md N19: treatment ends one instance, no roll. */
export function treatLingeringHarm(state: NarateerState, command: NarateerCommand<'TreatLingeringHarm'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const lhId = command.lingeringHarmId;
  const instance = state.combatants[id].lingering.find((l) => l.id === lhId);
  ensure(instance, 'NARATEER_UNKNOWN_LINGERING_HARM', `${id} has no Lingering Harm ${lhId}`, 'lingeringHarmId');
  return [ev('LingeringHarmTreated', { combatantId: id, lingeringHarmId: lhId, form: instance.form })];
}

/**
 * RULINGS.md N19: at the end of each round every untreated instance ticks, one resolution each, even while
 * Collapsed; ticks do not pause for ASK (N28).
 */
export function tickLingeringHarm(state: NarateerState, dice: DiceSource): RuleEvent[] {
  const events: RuleEvent[] = [];
  let s = state;
  for (const id of state.joined) {
    for (const lh of state.combatants[id].lingering) {
      const calc = { combatantId: id, wounds: lh.wounds, harm: lh.harm, lingeringHarmId: lh.id, form: lh.form };
      const fallback = s.combatants[id].sheet.woundPreference === 'MD_FIRST' ? 'MD' : 'AD';
      for (const e of applyWounds(s, calc, () => fallback, dice)) {
        events.push(e);
        s = evolve(s, e);
      }
    }
  }
  return events;
}
