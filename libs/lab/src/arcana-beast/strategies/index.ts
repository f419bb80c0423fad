import { ArcanaStrategy } from '../strategy';
import { director } from './director';
import { guardian } from './guardian';
import { hunter } from './hunter';
import { saver } from './saver';
import { strategist } from './strategist';
import { surge } from './surge';

/** Every Arcana Beast strategy the lab knows, in matrix order (docs/lab.md). Add a new file and list it here. */
export const ARCANA_BEAST_STRATEGIES: readonly ArcanaStrategy[] = [
  surge,
  saver,
  director,
  strategist,
  guardian,
  hunter,
];

export { director, guardian, hunter, saver, strategist, surge };
