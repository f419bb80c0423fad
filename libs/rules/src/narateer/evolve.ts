import { evolveLifecycle, InitiativeRoll } from '../core/lifecycle';
import { CombatantCore, RuleEvent } from '../core/types';
import { NarateerSheet } from './sheet';
import { NarateerCombatant, NarateerState } from './state';

export function newCombatant(base: CombatantCore): NarateerCombatant {
  const sheet = base.sheet as NarateerSheet;
  return { ...base, sheet, vitality: sheet.maxVitality };
}

export function evolve(state: NarateerState, event: RuleEvent): NarateerState {
  const next = evolveLifecycle(state, event, { newCombatant }) ?? state;
  switch (event.type) {
    case 'InitiativeRolled': {
      const combatants = { ...next.combatants };
      for (const r of (event.data as { rolls: InitiativeRoll[] }).rolls) {
        combatants[r.combatantId] = { ...combatants[r.combatantId], initiative: r.total };
      }
      return { ...next, combatants };
    }
  }
  return next;
}
