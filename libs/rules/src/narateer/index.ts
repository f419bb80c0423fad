import { initialCore, LIFECYCLE_COMMANDS } from '../core/lifecycle';
import { RuleSystem } from '../core/types';
import { NARATEER_CONTRACT } from './contract';
import { NARATEER_COMMANDS } from './commands';
import { NARATEER_DATA, NARATEER_RULINGS } from './data';
import { decide } from './decide';
import { evolve } from './evolve';
import { NarateerState } from './state';
import { view } from './view';
import { actorOf } from './actors';

/** Every optional field is present from the start so states keep one shape (fast spreads in evolve). */
function start(fightId: string): NarateerState {
  const core = initialCore(fightId, 'narateer');
  return {
    ...core,
    combatants: {},
    activeId: undefined,
    pending: undefined,
    exchange: undefined,
    pendingWounds: undefined,
    opportunity: undefined,
    continuationDue: undefined,
    roundWaitedAtMove: undefined,
    exchanges: 0,
    lingeringApplied: 0,
  };
}

export const narateer: RuleSystem<NarateerState> = {
  id: 'narateer',
  name: 'Narateer',
  data: NARATEER_DATA,
  rulings: NARATEER_RULINGS,
  commands: { ...LIFECYCLE_COMMANDS, ...NARATEER_COMMANDS },
  contract: NARATEER_CONTRACT,
  start,
  decide,
  evolve,
  view,
  viewVersion: 1,
  actorOf,
};

export * from './state';
export * from './sheet';
export * from './events';
export { NARATEER_COMMANDS } from './commands';
export type { NarateerCommandType } from './commands';
export * from './contract';
/** What a driver of the system (the Lab) reads of its tables and of who may act. */
export { ATTACK_SKILL, FULL_GUARD_COST, FULL_GUARD_SKILL } from './data';
export type { ExchangeKind, ResponseKind } from './data';
export { ableToAct, proactiveLimit } from './decide/common';
