import { CombatantCore, FightCore } from '../core/types';
import { NarateerSheet } from './sheet';

export interface NarateerCombatant extends CombatantCore<NarateerSheet> {
  vitality: number;
  /** Initiative Side Roll total, once rolled. */
  initiative?: number;
}

export type NarateerState = FightCore<NarateerCombatant>;
