import {
  attackOption,
  clash as clashAnswer,
  clashCost,
  declaration,
  fullGuard,
  threatNextActivation,
  threatThisActivation,
} from '../options';
import { NarateerStrategy, NO_RESPONSE } from '../strategy';

/**
 * N14 `clash`: always Clash when able (a weapon of the exchange's kind and its cost in
 * Ready AD), else Full Guard. Like `guard` it keeps a reserve — one Clash's cost for every exchange
 * the foe can press — and attacks with the dice beyond it.
 */
export const clash: NarateerStrategy = {
  id: 'clash',
  description:
    'Always answers with a Clash when able (Boost kept for later exchanges), else Full Guard; attacks with dice beyond its Clash reserve.',
  declare({ me, foe }) {
    const o = attackOption(me);
    if (!o) return undefined;
    const foeKind = foe.sheet.weapons[0]?.kind ?? o.weapon.kind;
    const spare = me.ad.ready - threatNextActivation(foe) * clashCost(me, foeKind) - o.weapon.baseAttackCost;
    return spare >= 0 ? declaration(o, spare) : undefined;
  },
  respond({ me, foe, exchange }) {
    const cost = clashCost(me, exchange.kind);
    const keep = threatThisActivation(foe) * cost;
    return (
      clashAnswer(me, exchange.kind, me.ad.ready - cost - keep) ??
      fullGuard(me, exchange.kind, 0) ??
      NO_RESPONSE
    );
  },
};
