/**
 * What arcana-beast.txt allows that the service could not express (a Gift that heals on Evolution, the dice an opposed
 * test's Qualities and surprise add), worked by hand from the text; each case failed before its fix.
 */
import { RuleEvent } from '../../src/core/types';
import { validateSheet } from '../../src/arcana-beast';
import { view } from '../../src/arcana-beast/view';
import { ash, beast, ember, exact, fight, find, stateOf, then, types, wolf } from './helpers';

describe('"Evolution does not heal HP unless a Gift says otherwise" (ruling A71)', () => {
  /** Ember at `stage`, whose Stage 3 carries a Gift (4 HP healed), hurt to `hp` of 12; its turn running, Stage 3's trigger marked. */
  function hurt(hp: number, gift: Record<string, unknown> = { giftHeal: 4 }, stage = 2): RuleEvent[] {
    const stages = [
      { stage: 0 },
      { stage: 1 },
      { stage: 2, trigger: 'stand together' },
      { stage: 3, name: 'Emberlord', trigger: 'protect Ash', ...gift },
    ];
    let e = fight([ember({ stages, stage }), ash, wolf()]);
    e.splice(e.length - 1, 0, {
      type: 'DamageDealt',
      data: { combatantId: 'ember', damage: 12 - hp, hpBefore: 12, hp },
    });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3 });
    return then(e, { type: 'StartActivation', combatantId: 'ember' });
  }

  it('A71: "unless a Gift says otherwise": given Ember at 5 of 12 HP whose Stage 3 Gift heals 4, when it evolves to Stage 3, then it is healed 4: 5 → 9', () => {
    const out = exact(hurt(5), { type: 'Evolve', combatantId: 'ember' });
    expect(types(out)).toEqual(['StageEvolved', 'HpRestored']);
    expect(find(out, 'HpRestored')).toEqual({ combatantId: 'ember', amount: 4, hpBefore: 5, hp: 9 });
    expect(stateOf([...hurt(5), ...out]).combatants.ember).toMatchObject({ stage: 3, hp: 9 });
  });

  it('A71: a Gift heals up to the sheet’s maximum, as Use Item does (A33): Ember at 10 of 12 is healed 2; at 12 nothing', () => {
    expect(find(exact(hurt(10), { type: 'Evolve', combatantId: 'ember' }), 'HpRestored')).toEqual({
      combatantId: 'ember',
      amount: 2,
      hpBefore: 10,
      hp: 12,
    });
    expect(types(exact(hurt(12), { type: 'Evolve', combatantId: 'ember' }))).toEqual(['StageEvolved']);
  });

  it('A71: "Evolution does not heal HP": the Gift is the Stage’s — evolving to Stage 3 of a sheet with no Gift, or to a Stage below the one with the Gift, heals nothing', () => {
    expect(types(exact(hurt(5, {}), { type: 'Evolve', combatantId: 'ember' }))).toEqual(['StageEvolved']);
    const midway = exact(hurt(5, { giftHeal: 4 }, 1), { type: 'Evolve', combatantId: 'ember', stage: 2 });
    expect(types(midway)).toEqual(['StageEvolved']);
  });

  it('A71: the Gift heals at each Evolution to its Stage: given Ember healed 5 → 9 by evolving, when Ash’s Call Back devolves it and it evolves to Stage 3 again in that turn, then the Gift heals it again, up to 12', () => {
    let e = then(hurt(5), { type: 'Evolve', combatantId: 'ember' });
    // "Call Back … (Devolve/Retreat with Boost; no roll)", after an Evolve (A38): from Stage 3, Endurance 2 d10 and
    // the Boost die [10, 10, 1], the 1 dropped: 2 successes, Diff 3 fails — Stage 0.
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'devolve' }, { followUpFaces: [10, 10, 1] });
    expect(stateOf(e).combatants.ember).toMatchObject({ stage: 0, hp: 9 });
    const out = exact(e, { type: 'Evolve', combatantId: 'ember' });
    expect(find(out, 'HpRestored')).toEqual({ combatantId: 'ember', amount: 3, hpBefore: 9, hp: 12 });
  });

  it('A71: the sheet names the Gift’s healing on an unlocked Stage (giftHeal, 1–500), and the view shows it', () => {
    const sheet = validateSheet(
      beast({ stages: [{ stage: 2 }, { stage: 3, giftHeal: 4 }], stage: 2 }),
      'sheet',
    ) as { stages: unknown[] };
    expect(sheet.stages).toEqual([
      { stage: 2, name: 'Stage 2', trigger: '' },
      { stage: 3, name: 'Stage 3', trigger: '', giftHeal: 4 },
    ]);
    expect(() => validateSheet(beast({ stages: [{ stage: 2, giftHeal: 0 }], stage: 2 }), 'sheet')).toThrow(
      /giftHeal/,
    );
    const v = view(stateOf(hurt(5)));
    const emberView = v.combatants.find((c) => c.id === 'ember') as { stages: unknown[] };
    expect(emberView.stages[3]).toEqual({
      stage: 3,
      name: 'Emberlord',
      trigger: 'protect Ash',
      giftHeal: 4,
      triggerActive: true,
    });
  });
});

describe('"Roll Opposed Test …": "Relevant Qualities or Talents add dice", "Surprised characters roll with Setback" (A25)', () => {
  const start = fight([ember(), ash, wolf()]);

  it('"Relevant Qualities or Talents add dice" to an opposed test, and "Surprised characters roll with Setback": the GM gives each side its Quality ranks, +1 dice, Boost or Setback, as a RollTest takes them (A25)', () => {
    // Ember: Agility 2 + Nimble 1 = 3 d8 [8, 4, 1] = 2. The wolf: Agility 2 + 1 die (a Talent) = 3 d6 and the Setback
    // die [6, 5, 1, 1], the 6 dropped: 1. Ember wins.
    const out = exact(
      start,
      {
        type: 'RollOpposedTest',
        aId: 'ember',
        aStat: 'agility',
        aRanks: 1,
        bId: 'wolf',
        bBonusDice: 1,
        bSetback: true,
        reason: 'a chase through the reeds',
      },
      { dice: [8, 4, 1, 6, 5, 1, 1] },
    );
    expect(find(out, 'OpposedTestRolled')).toMatchObject({
      a: { combatantId: 'ember', dice: 3, ranks: 1, sides: 8, edge: 'none', successes: 2 },
      b: {
        combatantId: 'wolf',
        dice: 3,
        bonuses: [{ source: 'bonusDice (RULINGS.md A30)', dice: 1 }],
        edge: 'setback',
        setbackSources: ['GM: Setback'],
        dropped: { index: 0, face: 6 },
        successes: 1,
      },
      winnerId: 'ember',
    });
    // Boost on a's side, the same way: Ember 2 d8 and the Boost die [1, 4, 8], the 1 dropped: 2 against the wolf's
    // 2 d6 [4, 4] = 2: a tie the GM settles.
    const boosted = exact(
      start,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', aBoost: true, bId: 'wolf' },
      { dice: [1, 4, 8, 4, 4] },
    );
    expect(find(boosted, 'OpposedTestRolled')).toMatchObject({
      a: { dice: 2, edge: 'boost', boostSources: ['GM: Boost'], successes: 2 },
      winnerId: null,
    });
  });
});
