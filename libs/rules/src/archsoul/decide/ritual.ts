import { bad, bool, int, str } from '../../core/fields';
import { RuleCommand, RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { RITUAL } from '../data';
import { ev } from '../events';
import { ArchsoulCombatant, ArchsoulState, hasCondition } from '../state';
import { acting, spend } from './common';
import { triggerReactions } from './reactive';

export interface Ritual {
  name: string;
  description?: string;
  ap: number;
  movement: boolean;
  provokes: boolean;
}

/** RULINGS.md C3: the text says only "some rituals", so the declaration names both properties; the engine never guesses. */
function required(raw: unknown, field: string): boolean {
  if (raw === undefined) bad(field, 'must be given (true or false): RULINGS.md S46: the ritual declares it');
  return bool(raw, field, false);
}

function readRitual(command: RuleCommand): Ritual {
  const description = str(command.description, 'description', { optional: true, max: 1000 });
  return {
    name: str(command.name, 'name', { max: 100 }),
    ...(description === undefined ? {} : { description }),
    ap: int(command.ap, 'ap', { min: RITUAL.minAp, max: RITUAL.maxAp }),
    movement: required(command.movement, 'movement'),
    provokes: required(command.provokes, 'provokes'),
  };
}

/**
 * RULINGS.md S46: a ritual spends its declared AP; archsoul.txt: Being Grappled: "you may not ... perform a ritual that
 * requires movement" (any other needs the grapple roll, S33); Reactive Attack: "performing some rituals" triggers.
 */
export function performRitual(state: ArchsoulState, command: RuleCommand): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const r = readRitual(command);
  ensure(!r.movement || !hasCondition(c, 'grappled'), 'ARCHSOUL_GRAPPLED', `archsoul.txt: Being Grappled: ${c.id} may not perform a ritual that requires movement`, 'movement');
  const paid = spend(c, 'performRitual', r.ap);
  const reactors = r.provokes && c.position ? triggerReactions(state, c.id, 'ritual', c.position, { type: 'PerformRitual', payload: { combatantId: c.id, ...r } }) : [];
  return [paid, ...(reactors.length > 0 ? reactors : ritualPerformed(c, r))];
}

export function ritualPerformed(c: ArchsoulCombatant, r: Ritual): RuleEvent[] {
  const { name, description, ap, movement, provokes } = r;
  return [ev('RitualPerformed', { combatantId: c.id, name, ...(description === undefined ? {} : { description }), ap, movement, provokes })];
}
