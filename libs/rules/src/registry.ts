import { FightCore, RuleSystem, SystemId } from './core/types';
import { narateer } from './narateer';
import { arcanaBeast } from './arcana-beast';
import { archsoul } from './archsoul';

/** Every rule system the service plays, by id. */
export const SYSTEMS: Partial<Record<SystemId, RuleSystem<FightCore>>> = {
  narateer: narateer as unknown as RuleSystem<FightCore>,
  'arcana-beast': arcanaBeast as unknown as RuleSystem<FightCore>,
  archsoul: archsoul as unknown as RuleSystem<FightCore>,
};

export function findSystem(id: string): RuleSystem<FightCore> | undefined {
  return Object.hasOwn(SYSTEMS, id) ? SYSTEMS[id as SystemId] : undefined;
}
