import { RuleCommand, RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { given } from '../given';
import {
  bow,
  condition,
  crossbow,
  duel,
  find,
  mace,
  melee,
  mira,
  ranged,
  refusal,
  sera,
  sheet,
  then,
} from './helpers';

/**
 * N23 lets a forced No Response win over a response given up front; N68: it wins over what the state refuses (Ready AD,
 * reach, loading), not over a response that is impossible for the responder’s sheet whatever the state.
 */

// Orin: Melee, Ranged and Acrobatics SL 1, 5 AD; a heavy mace (Strength only, N21) and a bow.
const orin = sheet({ skills: { melee: 1, ranged: 1, acrobatics: 1 }, weapons: [mace, bow] });
const archer = sheet({ skills: { melee: 1, ranged: 1, acrobatics: 1 }, weapons: [bow] });

/** Mira’s sword against Orin with `response` up front. */
const strike = (response: unknown, extra: Record<string, unknown> = {}) =>
  melee('mira', 'orin', 0, { response, ...extra });

/** The ways a target is forced to No Response (N6, N20, N23), each with Mira’s declaration to send. */
const forcedBy = (target: Record<string, unknown>) => {
  const start = duel(mira, target);
  return [
    { reason: 'unaware', events: start, extra: { targetUnaware: true } },
    { reason: 'noReadyAD', events: then(start, { type: 'SpendDice', combatantId: 'orin', ad: 5, md: 0 }) },
    { reason: 'incapacitated', events: then(start, condition('orin', 'unconscious')) },
    {
      reason: 'collapsed',
      events: then(start, {
        type: 'ApplyWounds',
        combatantId: 'orin',
        wounds: 20,
        harm: 'Physical (Impact)',
      }),
    },
  ];
};

const codeAndField = (events: RuleEvent[], command: RuleCommand) => {
  const v = refusal(events, command);
  return { code: v.code, field: v.field };
};

describe('N68: an advance response impossible for the sheet is refused, forced or not', () => {
  const cases: [string, Record<string, unknown>, unknown, string, string][] = [
    [
      'a weapon with Full Guard',
      orin,
      { response: 'fullGuard', boost: 0, weaponId: 'mace' },
      'NARATEER_CLASH_ONLY_FIELD',
      'response.weaponId',
    ],
    [
      'a Boost with No Response',
      orin,
      { response: 'none', boost: 1 },
      'NARATEER_BOOST_WITHOUT_ROLL',
      'response.boost',
    ],
    [
      'a Full Guard Boost over Acrobatics SL 1',
      orin,
      { response: 'fullGuard', boost: 2 },
      'NARATEER_BOOST_OVER_SKILL',
      'response.boost',
    ],
    [
      'a Clash Boost over Melee SL 1',
      orin,
      { response: 'clash', boost: 2, weaponId: 'mace' },
      'NARATEER_BOOST_OVER_SKILL',
      'response.boost',
    ],
    [
      'an unknown weapon',
      orin,
      { response: 'clash', boost: 0, weaponId: 'axe' },
      'NARATEER_UNKNOWN_WEAPON',
      'response.weaponId',
    ],
    [
      'a ranged weapon in a Melee Clash',
      orin,
      { response: 'clash', boost: 0, weaponId: 'bow' },
      'NARATEER_WRONG_WEAPON_KIND',
      'response.weaponId',
    ],
    [
      'a Damage Vital the mace does not allow',
      orin,
      { response: 'clash', boost: 0, weaponId: 'mace', damageVital: 'agility' },
      'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      'response.damageVital',
    ],
    [
      'a Damage Vital no melee weapon allows',
      orin,
      { response: 'clash', boost: 0, damageVital: 'agility' },
      'NARATEER_DAMAGE_VITAL_NOT_ALLOWED',
      'response.damageVital',
    ],
    [
      'a Melee Clash with no melee weapon',
      archer,
      { response: 'clash', boost: 0 },
      'NARATEER_NO_LEGAL_CLASH',
      'response.response',
    ],
  ];

  it.each(cases)(
    'N68: given a target forced to No Response (unaware, out of Ready AD, Unconscious, Collapsed), when the response sent up front has %s, then it is refused with the code and field a target able to answer gets',
    (_what, target, response, code, field) => {
      // N23 (validated as strictly as RespondToExchange) and the house rule: bad input is refused, never ignored.
      expect(codeAndField(duel(mira, target), strike(response))).toEqual({ code, field });
      for (const f of forcedBy(target)) {
        const none = given(narateer, f.events)
          .when(strike('none', f.extra), { dice: [1] })
          .events();
        expect(find(none, 'ExchangeResponded').forced).toBe(f.reason);
        expect({ reason: f.reason, ...codeAndField(f.events, strike(response, f.extra)) }).toEqual({
          reason: f.reason,
          code,
          field,
        });
      }
    },
  );
});

describe('N68: what the state refuses does not outweigh a forced No Response', () => {
  it('N68: given a target forced to No Response, when the response sent up front is legal for its sheet but not for its state (an unloaded crossbow, AD it has not got), then the forced No Response wins (N23) with its allocation (N28); and a response wrong both ways gets the sheet’s refusal, forced or not', () => {
    // Veyr’s crossbow is not loaded: "To choose Ranged Clash, the responder must have a ranged weapon that is loaded".
    const veyr = sheet({
      skills: { ranged: 1, acrobatics: 1 },
      maxAD: 4,
      weapons: [{ ...crossbow, loaded: false }],
    });
    // Sera’s bow (as "mira") against Veyr (as "orin").
    const start = duel(sera, veyr);
    const shoot = (response: unknown, extra: Record<string, unknown> = {}) =>
      ranged('mira', 'orin', 'bow', 0, { response, ...extra });
    const clash = { response: 'clash', boost: 0, weaponId: 'crossbow', allocation: ['AD'] };
    expect(codeAndField(start, shoot(clash))).toEqual({
      code: 'NARATEER_WEAPON_NOT_LOADED',
      field: 'response.weaponId',
    });
    const unaware = given(narateer, start)
      .when(shoot(clash, { targetUnaware: true }), { dice: [1] })
      .events();
    expect(find(unaware, 'ExchangeResponded')).toMatchObject({
      response: 'none',
      forced: 'unaware',
      allocation: ['AD'],
    });

    // Orin out of Ready AD answers a Clash with a Boost of 1 he could not pay: the forced No Response, his allocation kept.
    const spent = then(duel(mira, orin), { type: 'SpendDice', combatantId: 'orin', ad: 5, md: 0 });
    const boosted = { response: 'clash', boost: 1, weaponId: 'mace', allocation: ['AD'] };
    const drained = given(narateer, spent)
      .when(strike(boosted), { dice: [1] })
      .events();
    expect(find(drained, 'ExchangeResponded')).toMatchObject({
      response: 'none',
      forced: 'noReadyAD',
      allocation: ['AD'],
    });

    // The same input, the same answer: a Boost over Veyr’s Ranged SL 1 with his unloaded crossbow is the sheet’s
    // refusal whether he could answer (the unloaded weapon is the state’s, checked after) or is forced.
    const both = { response: 'clash', boost: 2, weaponId: 'crossbow' };
    const sheetsRefusal = { code: 'NARATEER_BOOST_OVER_SKILL', field: 'response.boost' };
    expect(codeAndField(start, shoot(both))).toEqual(sheetsRefusal);
    expect(codeAndField(start, shoot(both, { targetUnaware: true }))).toEqual(sheetsRefusal);
    // An allocation entry that is neither AD nor MD the contract refuses before any rule runs, forced or not.
    const badAllocation = { response: 'fullGuard', boost: 0, allocation: ['AD', 'XD'] };
    const contractsRefusal = { code: 'INVALID_FIELD', field: 'response.allocation[1]' };
    expect(codeAndField(start, shoot(badAllocation))).toEqual(contractsRefusal);
    expect(codeAndField(start, shoot(badAllocation, { targetUnaware: true }))).toEqual(contractsRefusal);
  });
});
