import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import { ev } from '../events';
import { ArchsoulCombatant, ArchsoulState, hasCondition } from '../state';
import { acting, spend } from './common';
import { triggerReactions } from './reactions';

export interface Ritual {
  name: string;
  description?: string;
  ap: number;
  movement: boolean;
  provokes: boolean;
}

/**
 * S46: a ritual spends its declared AP; archsoul.txt: Being Grappled: "you may not ... perform a ritual that
 * requires movement" (any other needs the grapple roll, S33); Reactive Attack: "performing some rituals" triggers.
 */
export function performRitual(state: ArchsoulState, command: ArchsoulCommand<'PerformRitual'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  // C3: the text says only "some rituals", so the declaration names both properties; the engine never guesses.
  const { name, description, ap, movement, provokes } = command;
  const r: Ritual = { name, ...(description === undefined ? {} : { description }), ap, movement, provokes };
  ensure(
    !r.movement || !hasCondition(c, 'grappled'),
    'ARCHSOUL_GRAPPLED',
    `archsoul.txt: Being Grappled: ${c.id} may not perform a ritual that requires movement`,
    'movement',
  );
  const paid = spend(c, 'performRitual', r.ap);
  const reactors =
    r.provokes && c.position
      ? triggerReactions(state, c.id, 'ritual', c.position, {
          type: 'PerformRitual',
          payload: { combatantId: c.id, ...r },
        })
      : [];
  return [paid, ...(reactors.length > 0 ? reactors : ritualPerformed(c, r))];
}

export function ritualPerformed(c: ArchsoulCombatant, r: Ritual): RuleEvent[] {
  const { name, description, ap, movement, provokes } = r;
  return [
    ev('RitualPerformed', {
      combatantId: c.id,
      name,
      ...(description === undefined ? {} : { description }),
      ap,
      movement,
      provokes,
    }),
  ];
}
