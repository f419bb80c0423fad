import { FightCore, RuleSystem, SystemId } from './core/types';
import { narateer } from './narateer';

/** Every rule system the service plays, by id. */
export const SYSTEMS: Partial<Record<SystemId, RuleSystem<FightCore>>> = {
  narateer: narateer as unknown as RuleSystem<FightCore>,
};

export function findSystem(id: string): RuleSystem<FightCore> | undefined {
  return SYSTEMS[id as SystemId];
}
