import type { RuleCommand } from '@app/rules';
import type { ArchsoulCombatantView, ArchsoulSheet, ArchsoulView } from '@app/rules/archsoul';
import { LabStrategy } from '../lab-system';

/**
 * What a strategy sees on its own open turn: the fight view (`archsoul.view`: map, positions, facings, AP, hands),
 * its combatant and the foe, and both sheets as the decider read them (weapon reach, hands, stowage).
 */
export interface ArchsoulTurn {
  view: ArchsoulView;
  me: ArchsoulCombatantView;
  foe: ArchsoulCombatantView;
  sheet: ArchsoulSheet;
  foeSheet: ArchsoulSheet;
}

/**
 * A Combat Lab strategy for Archsoul: `next` proposes the turn's next command (Move, Draw, Attack, …) or undefined
 * to end the turn (EndTurn); `react` answers a reactive attack it is offered (archsoul.txt: Reactive Attack) with a
 * ReactiveAttack or DeclineReactiveAttack. A refused proposal is counted in `illegalProposals`: a refused turn
 * command ends the turn, a refused reaction becomes a decline.
 */
export interface ArchsoulStrategy extends LabStrategy {
  next(turn: ArchsoulTurn): RuleCommand | undefined;
  react?(turn: ArchsoulTurn): RuleCommand;
}
