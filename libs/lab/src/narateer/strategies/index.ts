import { NarateerStrategy } from '../strategy';
import { clash } from './clash';
import { doubleTap } from './double-tap';
import { flurry } from './flurry';
import { guard } from './guard';
import { heavy } from './heavy';

/** Every Narateer strategy the lab knows, in matrix order (N14). Add a new file and list it here. */
export const NARATEER_STRATEGIES: readonly NarateerStrategy[] = [heavy, doubleTap, flurry, guard, clash];

export { clash, doubleTap, flurry, guard, heavy };
