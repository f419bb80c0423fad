import { ATTACK_SKILL } from '@app/rules/narateer';
import { attackOption, declaration, fullGuard } from '../options';
import { NarateerStrategy, NO_RESPONSE } from '../strategy';

/**
 * N14 `doubleTap`: two exchanges, the Boost a heavy strike would take split between them
 * (larger half first), keeping the second exchange's cost in hand; answers with a cheap Full Guard.
 */
export const doubleTap: NarateerStrategy = {
  id: 'doubleTap',
  description:
    'Two exchanges per activation with the Boost split between them; answers with Full Guard at no Boost.',
  declare({ me, declared, readyAtStart }) {
    if (declared.length >= 2) return undefined;
    const o = attackOption(me);
    if (!o) return undefined;
    const cost = o.weapon.baseAttackCost;
    const budget = Math.max(
      0,
      Math.min(me.sheet.skills[ATTACK_SKILL[o.weapon.kind]], readyAtStart - 2 * cost),
    );
    const split = [Math.ceil(budget / 2), Math.floor(budget / 2)];
    return declaration(o, split[declared.length]);
  },
  respond({ me, exchange }) {
    return fullGuard(me, exchange.kind, 0) ?? NO_RESPONSE;
  },
};
