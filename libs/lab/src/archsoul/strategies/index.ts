import { ArchsoulStrategy } from '../strategy';
import { charger } from './charger';
import { grappler } from './grappler';
import { reckless } from './reckless';
import { spearman } from './spearman';
import { swordAndShield } from './sword-and-shield';

/** Every Archsoul strategy the lab knows, in matrix order (docs/lab.md). Add a new file and list it here. */
export const ARCHSOUL_STRATEGIES: readonly ArchsoulStrategy[] = [
  reckless,
  swordAndShield,
  grappler,
  spearman,
  charger,
];

export { charger, grappler, reckless, spearman, swordAndShield };
