import { attackOption, clash, declaration, fullGuard } from '../options';
import { NarateerStrategy, NO_RESPONSE } from '../strategy';

/** N14 `heavy`: one exchange per activation with maximum Boost; answers all-in too. */
export const heavy: NarateerStrategy = {
  id: 'heavy',
  description:
    'One exchange per activation with maximum Boost; answers with a Clash at maximum Boost, else Full Guard.',
  declare({ me, declared }) {
    const o = declared.length === 0 ? attackOption(me) : undefined;
    return o && declaration(o, o.maxBoost);
  },
  respond({ me, exchange }) {
    return clash(me, exchange.kind, Infinity) ?? fullGuard(me, exchange.kind, Infinity) ?? NO_RESPONSE;
  },
};
