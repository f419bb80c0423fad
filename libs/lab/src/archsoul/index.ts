import { LabSystem } from '../lab-system';
import KNIGHTS from './knights.json';
import { ArchsoulMatch, playFight, prepareMatch } from './fight';
import { ArchsoulStrategy } from './strategy';
import { ARCHSOUL_STRATEGIES } from './strategies';

const BY_ID = new Map<string, ArchsoulStrategy>(ARCHSOUL_STRATEGIES.map((s) => [s.id, s]));

/** The Combat Lab's Archsoul: a mirror pair of knights on a hex map, fights through `archsoul.decide`. */
export const archsoulLab: LabSystem<ArchsoulMatch> = {
  id: 'archsoul',
  strategies: ARCHSOUL_STRATEGIES,
  defaultSheets: KNIGHTS,
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
export { ARCHSOUL_STRATEGIES } from './strategies';
export {
  playFight as playArchsoulFight,
  prepareMatch as prepareArchsoulMatch,
  type ArchsoulMatch,
} from './fight';
