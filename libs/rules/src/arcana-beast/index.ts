import { initialCore, LIFECYCLE_COMMANDS } from '../core/lifecycle';
import { RuleSystem } from '../core/types';
import { ARCANA_BEAST_CONTRACT } from './contract';
import { actorOf } from './actors';
import { ARCANA_COMMANDS } from './commands';
import { ARCANA_BEAST_DATA, ARCANA_BEAST_RULINGS } from './data';
import { decide } from './decide';
import { evolve } from './evolve';
import { ArcanaBeastState } from './state';
import { view } from './view';

/** Every optional field is present from the start so states keep one shape. */
function start(fightId: string): ArcanaBeastState {
  const core = initialCore(fightId, 'arcana-beast');
  return {
    ...core,
    combatants: {},
    activeId: undefined,
    pending: undefined,
    binderOf: {},
    bands: {},
    terrain: {},
    criticalGauge: 0,
    combos: {},
    chains: {},
    sideTurns: {},
    turn: undefined,
    pendingAttack: undefined,
    attacks: 0,
    devolutionDue: undefined,
  };
}

export const arcanaBeast: RuleSystem<ArcanaBeastState> = {
  id: 'arcana-beast',
  name: 'Arcana Beast',
  data: ARCANA_BEAST_DATA,
  rulings: ARCANA_BEAST_RULINGS,
  commands: { ...LIFECYCLE_COMMANDS, ...ARCANA_COMMANDS },
  contract: ARCANA_BEAST_CONTRACT,
  start,
  decide,
  evolve,
  view,
  viewVersion: 4,
  actorOf,
};

export * from './state';
export * from './sheet';
export * from './events';
export { ARCANA_COMMANDS } from './commands';
export type { ArcanaCommandType } from './commands';
export { ARCANA_BEAST_DATA, ARCANA_BEAST_RULINGS, BANDS, BOND_SURGE_STAMINA, REACH, TAGS } from './data';
export type { Band, Range } from './data';
export * from './contract';
