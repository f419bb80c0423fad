import { command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/** arcana-beast.txt: Direct: "Arcana Beast's action gains +1 die (no roll)", every turn. */
export const director: ArcanaStrategy = {
  id: 'director',
  description: 'Direct every turn (+1 die on the attack, no roll); never spends Stamina.',
  next: (t) => turnOf(t, (c) => command(c, 'Direct')),
};
