import { attackStep, command, turnOf } from '../options';
import { ArcanaStrategy } from '../strategy';

/**
 * Goes for the foe's Binder while it stands (arcana-beast.txt: "If beastbinder is targeted Arcana Beast can
 * intercept (uses next Action)"), with Direct every turn; then the beast.
 */
export const hunter: ArcanaStrategy = {
  id: 'hunter',
  description:
    'Direct every turn and attack the foe’s Binder while it stands (its beast may intercept), then the beast.',
  next: (t) =>
    turnOf(
      t,
      (c) => command(c, 'Direct'),
      (c) => attackStep(c, c.foeBinder && c.foeBinder.state === 'Active' ? c.foeBinder.id : c.foe.id),
    ),
};
