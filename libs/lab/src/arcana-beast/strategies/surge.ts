import { canSurge, command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/** arcana-beast.txt: Bond Surge: "Boost on ALL rolls this turn, costs 1 Stamina": every turn while the beast has Stamina, then Direct. */
export const surge: ArcanaStrategy = {
  id: 'surge',
  description:
    'Bond Surge every turn while the beast has Stamina, then Direct; the beast attacks every turn.',
  next: (t) => turnOf(t, (c) => command(c, canSurge(c) ? 'BondSurge' : 'Direct')),
};
