import { attackOption, clash, declaration, fullGuard } from '../options';
import { NarateerStrategy, NO_RESPONSE } from '../strategy';

/** N14 `flurry`: as many 1-AD-Boost exchanges as proactive uses (and Ready AD) allow. */
export const flurry: NarateerStrategy = {
  id: 'flurry',
  description: 'As many exchanges with 1 Boost AD as proactive uses allow; answers with a Clash at no Boost.',
  declare({ me }) {
    const o = attackOption(me);
    return o && declaration(o, 1);
  },
  respond({ me, exchange }) {
    return clash(me, exchange.kind, 0) ?? fullGuard(me, exchange.kind, 0) ?? NO_RESPONSE;
  },
};
