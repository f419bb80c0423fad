import { settledBefore } from '../../core/handed-over';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { DieKind } from '../data';
import { NarateerCommand } from '../commands';
import { evolve } from '../evolve';
import { NarateerCombatant, NarateerState } from '../state';
import { resumeTicks } from './activation';
import { tickEnded } from './lingering';
import { opportunityFollowUps } from './reactors';
import { allocate, applyWounds } from './wounds';

/** N9: the answer to a pending allocation names AD or MD for every Wound that takes a die. */
export function allocateWounds(
  state: NarateerState,
  command: NarateerCommand<'AllocateWounds'>,
  dice: DiceSource,
): RuleEvent[] {
  const pw = state.pendingWounds;
  ensure(pw, 'NARATEER_NO_WOUNDS_PENDING', 'no wound allocation is waiting', 'type');
  const id = combatantId(state, command.combatantId, 'combatantId');
  ensure(
    id === pw.combatantId,
    'NARATEER_NOT_THE_WOUNDED',
    `RULINGS.md N9: ${pw.combatantId} chooses where its Wounds go, not ${id}`,
    'combatantId',
  );
  const allocation = command.allocation;
  checkAllocation(state.combatants[id], pw.wounds, allocation);
  const lh =
    pw.lingeringHarmId === undefined
      ? undefined
      : state.combatants[id].lingering.find((l) => l.id === pw.lingeringHarmId);
  // N61: a Continuation Check held for its roller holds what follows it here.
  const events = settledBefore(
    [],
    () => applyWounds(state, pw, (i) => allocation[i], dice),
    state.exchange?.opportunity ? { step: 'followUps' } : undefined,
    lh?.ticksLeft === 1
      ? { step: 'tickEnded', combatantId: id, lingeringHarmId: lh.id, form: lh.form }
      : undefined,
    lh ? { step: 'resumeTicks', tick: lh.tick, combatantId: id } : undefined,
  );
  if (state.exchange?.opportunity) for (const e of opportunityFollowUps(state)) events.push(e);
  if (lh) {
    // N28/N38: the tick this answered may have been its last; the ticks of that moment, and a held round end, go on.
    events.push(...tickEnded(id, lh));
    events.push(
      ...settledBefore([...events], () => resumeTicks(events.reduce(evolve, state), lh.tick, id, dice)),
    );
  }
  return events;
}

function checkAllocation(c: NarateerCombatant, wounds: number, allocation: DieKind[]): void {
  const moved = allocate(c, wounds, (i) => allocation[i] ?? 'AD').moved;
  ensure(
    allocation.length === moved.length,
    'NARATEER_ALLOCATION_LENGTH',
    `RULINGS.md N9: ${moved.length} Wound(s) take a die; name AD or MD for each`,
    'allocation',
  );
  moved.forEach((m, i) => {
    if (m.kind === allocation[i]) return;
    const code = m.from === 'ready' ? 'NARATEER_READY_BEFORE_USED' : 'NARATEER_ALLOCATION_INVALID';
    ensure(
      false,
      code,
      `narateer.txt: Applying Wounds: Wound ${i + 1} must take a ${m.from} die and ${c.id} has no ${m.from} ${allocation[i]}; Ready dice always come before Used dice`,
      `allocation[${i}]`,
    );
  });
}
