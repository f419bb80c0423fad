import { initialCore, LIFECYCLE_COMMANDS } from '../core/lifecycle';
import { RuleSystem } from '../core/types';
import { ARCHSOUL_CONTRACT } from './contract';
import { actorOf } from './actors';
import { ARCHSOUL_COMMANDS, ARCHSOUL_LIFECYCLE_TEXTS } from './commands';
import { ARCHSOUL_DATA, ARCHSOUL_RULINGS } from './data';
import { decide } from './decide';
import { evolve } from './evolve';
import { DEFAULT_MAP } from './map';
import { ArchsoulState, heldBy } from './state';
import { view } from './view';

function start(fightId: string): ArchsoulState {
  const core = initialCore(fightId, 'archsoul');
  return {
    ...core,
    combatants: {},
    activeId: undefined,
    pending: undefined,
    map: DEFAULT_MAP,
    phase: undefined,
    ambush: undefined,
    ground: [],
    groundCount: 0,
    reaction: undefined,
    grapples: [],
    grappleCount: 0,
  };
}

const { StartActivation: _s, EndActivation: _e, ...lifecycle } = LIFECYCLE_COMMANDS;

export const archsoul: RuleSystem<ArchsoulState> = {
  id: 'archsoul',
  name: 'Archsoul',
  data: ARCHSOUL_DATA,
  rulings: ARCHSOUL_RULINGS,
  commands: {
    ...lifecycle,
    ...ARCHSOUL_LIFECYCLE_TEXTS,
    ...ARCHSOUL_COMMANDS,
  },
  contract: ARCHSOUL_CONTRACT,
  start,
  decide,
  evolve,
  view,
  viewVersion: 4,
  actorOf,
  // C13: a triggering action waits for its reactive attacks; ResumeAction carries its dice (S18).
  // S20: an action stays held while a reaction opened inside its sequence is answered.
  heldAction: (s) => {
    const held = heldBy(s.reaction);
    return held
      ? {
          type: held.action.type,
          reason: `RULINGS.md S18: reactive attacks against ${held.actorId} come first`,
          awaiting: held.actorId,
          answer: 'ResumeAction',
        }
      : undefined;
  },
};

export * from './state';
export * from './sheet';
export * from './events';
export * from './grid';
/** What a driver of the system reads (the Combat Lab's strategies): AP costs, the Charge's limits, the steps the map allows. */
export { AP_COST, CHARGE } from './data';
export { canStep } from './map';
export { handsFor } from './hands';
export { ARCHSOUL_COMMANDS } from './commands';
export type { ArchsoulCommandType } from './commands';
export * from './contract';
