import { RuleEvent } from '../../src/core/types';
import { condition, duel, exact, find, melee, then } from './helpers';

/**
 * N70: a target forced to No Response for several reasons at once (N6, N20, N23) records one reason, the first in
 * the order N23 lists them: unaware, collapsed, withdrawn, incapacitated, noReadyAD.
 */

// duel(): Mira’s sword against Orin (Maximum Vitality 8, 5 AD, no MD, Resilience 2, soak 1), Mira’s activation open.
const start = duel();
/** The GM’s Wounds on Orin; each takes one of his Ready AD (no MD, N9). */
const hurt = (events: RuleEvent[], wounds: number, followUpFaces: number[] = []) =>
  then(
    events,
    { type: 'ApplyWounds', combatantId: 'orin', wounds, harm: 'Physical (Impact)' },
    followUpFaces.length ? { followUpFaces } : {},
  );
// 8 Wounds: Vitality 8 − 8 = 0, Collapsed (N10), no Continuation Check; all 5 AD Wounded: no Ready AD.
const collapsed = hurt(start, 8);
// 5 Wounds: Vitality 3, 2·3 < 8 for the first time and 2·5 > 8: one check of 2 dice; faces 1, 1 show 0 dots, so it
// fails and Orin is Withdrawn; his 5 AD are Wounded: no Ready AD.
const withdrawn = hurt(start, 5, [1, 1]);
// Orin commits his 5 Ready AD to another action (N33, N43: outside his activation too): no Ready AD.
const spent = then(start, { type: 'SpendDice', combatantId: 'orin', ad: 5, md: 0 });

describe('N70: one reason for a forced No Response, in the order N23 lists them', () => {
  it.each([
    ['unaware', then(collapsed, condition('orin', 'unconscious')), { targetUnaware: true }],
    ['collapsed', then(collapsed, condition('orin', 'unconscious')), {}],
    ['withdrawn', then(withdrawn, condition('orin', 'unconscious')), {}],
    ['incapacitated', then(spent, condition('orin', 'paralyzed')), {}],
    ['noReadyAD', spent, {}],
  ])(
    'N70: given a target forced to No Response for several reasons at once, when Mira declares her exchange, then the recorded reason is %s, the first of them in the order unaware, collapsed, withdrawn, incapacitated, noReadyAD',
    (reason, events, extra) => {
      // Mira’s 1 die shows a 1: 0 dots against target number 0, no clean hit (N30), nothing else to roll.
      const got = exact(events, melee('mira', 'orin', 0, extra), { dice: [1] });
      expect(find(got, 'ExchangeResponded')).toMatchObject({ response: 'none', dice: 0, forced: reason });
    },
  );
});
