import { initialCore, LIFECYCLE_COMMANDS } from '../core/lifecycle';
import { RuleSystem } from '../core/types';
import { NARATEER_DATA, NARATEER_RULINGS } from './data';
import { decide } from './decide';
import { evolve } from './evolve';
import { NarateerState } from './state';
import { view } from './view';

export const narateer: RuleSystem<NarateerState> = {
  id: 'narateer',
  name: 'Narateer',
  data: NARATEER_DATA,
  rulings: NARATEER_RULINGS,
  commands: { ...LIFECYCLE_COMMANDS },
  start: (fightId) => initialCore(fightId, 'narateer') as NarateerState,
  decide,
  evolve,
  view,
};

export * from './state';
export * from './sheet';
