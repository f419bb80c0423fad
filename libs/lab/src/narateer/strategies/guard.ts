import { FULL_GUARD_COST } from '@app/rules/narateer';
import { attackOption, declaration, fullGuard, threatNextActivation, threatThisActivation } from '../options';
import { NarateerStrategy, NO_RESPONSE } from '../strategy';

/**
 * N14 `guard`: always Full Guard. It keeps 1 AD for every exchange the foe can press
 * in its next activation and attacks only with the dice beyond that reserve; a Full Guard takes
 * as much Boost as it can while keeping 1 AD for each exchange the attacker can still press.
 */
export const guard: NarateerStrategy = {
  id: 'guard',
  description:
    'Always answers with Full Guard (Boost kept for later exchanges); attacks only with dice beyond its guard reserve.',
  declare({ me, foe }) {
    const o = attackOption(me);
    if (!o) return undefined;
    const spare = me.ad.ready - threatNextActivation(foe) * FULL_GUARD_COST - o.weapon.baseAttackCost;
    return spare >= 0 ? declaration(o, spare) : undefined;
  },
  respond({ me, foe, exchange }) {
    const keep = threatThisActivation(foe) * FULL_GUARD_COST;
    return fullGuard(me, exchange.kind, me.ad.ready - FULL_GUARD_COST - keep) ?? NO_RESPONSE;
  },
};
