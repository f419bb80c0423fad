import type { RuleCommand } from '@app/rules';
import type { ArcanaBeastView, ArcanaCombatantView } from '@app/rules/arcana-beast';
import { LabStrategy } from '../lab-system';

export type BeastView = Extract<ArcanaCombatantView, { kind: 'beast' }>;
export type BinderView = Extract<ArcanaCombatantView, { kind: 'binder' }>;

/**
 * What a strategy sees on its own shared turn (arcana-beast.txt: Beast Binder Placement): the fight view
 * (`arcanaBeast.view`), its beast, its Binder, and the foe's. `view.turn` says what this turn has spent.
 */
export interface ArcanaTurn {
  view: ArcanaBeastView;
  turn: NonNullable<ArcanaBeastView['turn']>;
  me: BeastView;
  binder: BinderView | undefined;
  foe: BeastView;
  foeBinder: BinderView | undefined;
}

/** The attack on its Binder that the strategy's beast may intercept (A22). */
export interface ArcanaInterceptCall {
  view: ArcanaBeastView;
  me: BeastView;
  binder: BinderView;
  attacker: BeastView;
}

/**
 * A Combat Lab strategy for Arcana Beast: `next` proposes the turn's next command (the Binder's Command, the
 * beast's Evolve, free move and Action) from the view, or undefined to end the turn. The decider judges each
 * proposal; a refused one is counted in `illegalProposals` and ends the turn.
 */
export interface ArcanaStrategy extends LabStrategy {
  next(turn: ArcanaTurn): RuleCommand | undefined;
  /** Whether the beast intercepts an attack on its Binder; default `interceptWhenInDanger` (options.ts). */
  intercept?(call: ArcanaInterceptCall): boolean;
}
