import type {
  CurrentExchange,
  ExchangeKind,
  NarateerCombatant,
  NarateerState,
  ResponseKind,
} from '@app/rules/narateer';
import { LabStrategy } from '../lab-system';

/** What a strategy proposes on its own Tempo: the decider still judges it (DeclareExchange). */
export interface Declaration {
  weaponId: string;
  kind: ExchangeKind;
  boost: number;
}

/** What a strategy answers to an exchange (RespondToExchange). */
export interface Answer {
  response: ResponseKind;
  boost: number;
  weaponId?: string;
}

/** The strategy's own activation so far. */
export interface Turn {
  state: NarateerState;
  me: NarateerCombatant;
  foe: NarateerCombatant;
  /** Exchanges already declared in this activation, in order. */
  declared: readonly Declaration[];
  /** Ready AD when the activation started (after the refresh). */
  readyAtStart: number;
}

/** An exchange declared against the strategy's combatant, waiting for its answer. */
export interface Threat {
  state: NarateerState;
  me: NarateerCombatant;
  foe: NarateerCombatant;
  exchange: CurrentExchange;
}

/**
 * N14: a Combat Lab strategy is how a combatant declares and how it responds.
 * `declare` returns undefined to end the activation. Read legal options from `options.ts`;
 * a proposal the decider refuses is counted as illegal and replaced by ending the
 * activation or answering `none`.
 */
export interface NarateerStrategy extends LabStrategy {
  declare(turn: Turn): Declaration | undefined;
  respond(threat: Threat): Answer;
}

export const NO_RESPONSE: Answer = { response: 'none', boost: 0 };
