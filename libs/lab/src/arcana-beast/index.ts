import { LabSystem } from '../lab-system';
import SIDES from './sides.json';
import { ArcanaMatch, playFight, prepareMatch } from './fight';
import { ArcanaStrategy } from './strategy';
import { ARCANA_BEAST_STRATEGIES } from './strategies';

const BY_ID = new Map<string, ArcanaStrategy>(ARCANA_BEAST_STRATEGIES.map((s) => [s.id, s]));

/** The Combat Lab's Arcana Beast: a Binder and its beast per side, a mirror pair, fights through `arcanaBeast.decide`. */
export const arcanaBeastLab: LabSystem<ArcanaMatch> = {
  id: 'arcana-beast',
  strategies: ARCANA_BEAST_STRATEGIES,
  defaultSheets: SIDES,
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
export { ARCANA_BEAST_STRATEGIES } from './strategies';
export { playFight as playArcanaFight, prepareMatch as prepareArcanaMatch, type ArcanaMatch } from './fight';
