import { LabSystem } from '../lab-system';
import DUELLISTS from './duellists.json';
import { NarateerMatch, playFight, prepareMatch } from './fight';
import { NarateerStrategy } from './strategy';
import { NARATEER_STRATEGIES } from './strategies';

const BY_ID = new Map<string, NarateerStrategy>(NARATEER_STRATEGIES.map((s) => [s.id, s]));

/** The Combat Lab's Narateer: N14 strategies, a mirror pair of duellists, fights through `narateer.decide`. */
export const narateerLab: LabSystem<NarateerMatch> = {
  id: 'narateer',
  strategies: NARATEER_STRATEGIES,
  defaultSheets: DUELLISTS,
  prepare: prepareMatch,
  play(match, row, col, fightIndex) {
    return playFight(
      match,
      [BY_ID.get(row)!, BY_ID.get(col)!],
      `lab-${row}-${col}-${fightIndex}`,
      fightIndex,
    );
  },
};

export * from './strategy';
export * from './options';
export { NARATEER_STRATEGIES } from './strategies';
export { playFight, prepareMatch, type NarateerMatch } from './fight';
