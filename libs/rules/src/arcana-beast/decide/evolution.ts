import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArcanaCommandOf } from '../contract';
import { ev } from '../events';
import { BeastSheet } from '../sheet';
import { ArcanaBeastState, ArcanaCombatant, isBeast } from '../state';
import { beastInTurn, known, unused } from './common';

export function highestStage(sheet: BeastSheet): number {
  return sheet.stages[sheet.stages.length - 1].stage;
}

/** arcana-beast.txt: Evolution in Combat (A9, A24): immediate, no Action, no healing. */
export function evolveStage(state: ArcanaBeastState, command: ArcanaCommandOf<'Evolve'>): RuleEvent[] {
  const c = beastInTurn(state, command.combatantId, 'combatantId') as ArcanaCombatant & { sheet: BeastSheet };
  const highest = highestStage(c.sheet);
  const to = command.stage ?? highest;
  ensure(
    c.sheet.stages.some((s) => s.stage === to),
    'ARCANA_STAGE_LOCKED',
    `arcana-beast.txt: Evolution in Combat: ${c.id} has not unlocked Stage ${to} (unlocked: ${c.sheet.stages.map((s) => s.stage).join(', ')})`,
    'stage',
  );
  ensure(
    to > c.stage,
    'ARCANA_NOT_HIGHER_STAGE',
    `arcana-beast.txt: Actions in Combat: Evolve: transform to a higher stage; ${c.id} is at Stage ${c.stage}`,
    'stage',
  );
  const triggerActive = c.activeTriggers.includes(to);
  ensure(
    to < highest || triggerActive,
    'ARCANA_TRIGGER_NOT_ACTIVE',
    `arcana-beast.txt: Evolution in Combat: the highest unlocked Stage is free when its emotional Trigger is true; the GM has not marked "${c.sheet.stages.find((s) => s.stage === to)!.trigger}" (SetTrigger)`,
    'stage',
  );
  return [
    ev('StageEvolved', {
      combatantId: c.id,
      from: c.stage,
      to,
      reason: 'evolve',
      highest: to === highest,
      triggerActive,
    }),
    ...giftHealing(c, to),
  ];
}

/**
 * arcana-beast.txt: Evolution in Combat: "Evolution does not heal HP unless a Gift says otherwise" (A71): the Gift of
 * the Stage evolved to restores its HP, up to the sheet's maximum (as Use Item's, A33).
 */
function giftHealing(c: ArcanaCombatant & { sheet: BeastSheet }, to: number): RuleEvent[] {
  const gift = c.sheet.stages.find((s) => s.stage === to)?.giftHeal ?? 0;
  const amount = Math.min(gift, c.sheet.maxHp - c.hp);
  return amount > 0
    ? [ev('HpRestored', { combatantId: c.id, amount, hpBefore: c.hp, hp: c.hp + amount })]
    : [];
}

/** A9: the GM marks an emotional trigger (a Stage's, or the Zero Power's) active or not. */
export function setTrigger(state: ArcanaBeastState, command: ArcanaCommandOf<'SetTrigger'>): RuleEvent[] {
  const c = known(state, command.combatantId, 'combatantId');
  ensure(
    isBeast(c),
    'ARCANA_NOT_A_BEAST',
    `RULINGS.md A9: ${c.id} is a Beast Binder; emotional triggers belong to Arcana Beasts`,
    'combatantId',
  );
  const kind = command.kind ?? 'stage';
  const active = command.active ?? true;
  if (kind === 'zeroPower') {
    unused(command.stage, 'stage', 'with kind zeroPower (a Stage’s trigger is kind stage)');
    ensure(
      c.sheet.zeroPower,
      'ARCANA_NO_ZERO_POWER',
      `arcana-beast.txt: Actions in Combat: Use Zero Power: ${c.id} has no Zero Power on its sheet`,
      'kind',
    );
    return c.zeroPowerTrigger === active ? [] : [ev('TriggerSet', { combatantId: c.id, kind, active })];
  }
  const stage = command.stage ?? highestStage(c.sheet);
  ensure(
    c.sheet.stages.some((s) => s.stage === stage),
    'ARCANA_STAGE_LOCKED',
    `arcana-beast.txt: Evolution in Combat: ${c.id} has not unlocked Stage ${stage}`,
    'stage',
  );
  return c.activeTriggers.includes(stage) === active
    ? []
    : [ev('TriggerSet', { combatantId: c.id, kind, stage, active })];
}

/**
 * A9/A24/C7: the encounter ends — the highest Stage reverts; uses and the Zero Power reset. A45: its running turn
 * (with what the Command gave, Bond Surge included) and its open round end first, as EndActivation and EndRound
 * would end them.
 */
export function endScene(state: ArcanaBeastState): RuleEvent[] {
  const turnAndRound: RuleEvent[] = [];
  if (state.activeId)
    turnAndRound.push({ type: 'ActivationEnded', data: { combatantId: state.activeId, round: state.round } });
  if (state.roundOpen) turnAndRound.push({ type: 'RoundEnded', data: { round: state.round } });
  const events = revertHighest(state);
  const revived = state.joined.filter((id) => state.combatants[id].knockedOut && state.combatants[id].hp > 0);
  return [...turnAndRound, ...events, ev('SceneEnded', { revived })];
}

export function revertHighest(state: ArcanaBeastState): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const id of state.joined) {
    const c = state.combatants[id];
    if (isBeast(c) && c.revertTo !== undefined && c.stage > c.revertTo) {
      events.push(
        ev('StageDevolved', { combatantId: id, from: c.stage, to: c.revertTo, reason: 'encounterEnded' }),
      );
    }
  }
  return events;
}
