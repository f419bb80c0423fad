import { withDiceRequests } from './core/dice-requests';
import { FightCore, RuleSystem, SystemId } from './core/types';
import { narateer } from './narateer';
import { arcanaBeast } from './arcana-beast';
import { archsoul } from './archsoul';

/** Every rule system the service plays, by id; each asks for the later dice a manual command lacks (C13). */
export const SYSTEMS: Partial<Record<SystemId, RuleSystem<FightCore>>> = {
  narateer: withDiceRequests(narateer as unknown as RuleSystem<FightCore>),
  'arcana-beast': withDiceRequests(arcanaBeast as unknown as RuleSystem<FightCore>),
  archsoul: withDiceRequests(archsoul as unknown as RuleSystem<FightCore>),
};

export function findSystem(id: string): RuleSystem<FightCore> | undefined {
  return Object.hasOwn(SYSTEMS, id) ? SYSTEMS[id as SystemId] : undefined;
}

export { DICE_REQUEST_CANCELLED, DICE_REQUESTED, PROVIDE_DICE, withDiceRequests } from './core/dice-requests';
export type { DiceRequestedData } from './core/dice-requests';
