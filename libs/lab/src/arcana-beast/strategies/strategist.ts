import { command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/** arcana-beast.txt: Strategize: "Ignore enemy positioning benefit (Technique Test, Diff 2)", every turn (A28). */
export const strategist: ArcanaStrategy = {
  id: 'strategist',
  description:
    'Strategize every turn (Technique Test Diff 2: the foe’s Cover and Obscured are ignored this turn).',
  next: (t) => turnOf(t, (c) => command(c, 'Strategize')),
};
