import { given } from '../given';
import { narateer } from '../../src/narateer';
import { duel, mira, orin, sheet, stateOf, then, fight, exact } from './helpers';

const spend = (combatantId: string, extra: Record<string, unknown> = {}) => ({
  type: 'SpendDice',
  combatantId,
  ...extra,
});

describe('N43: who may commit whose dice to another action (SpendDice), and when', () => {
  it('N43: SpendDice acts for the combatant it names: a player commits only its own combatant’s dice (RULINGS.md C3)', () => {
    const state = stateOf(duel());
    expect(narateer.actorOf!(state, spend('orin', { md: 1 }))).toEqual({
      combatantId: 'orin',
      field: 'combatantId',
    });
  });

  it('N43: outside its own activation a combatant may still commit dice to a power or a reaction', () => {
    const events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: { ...orin, maxMD: 2 } },
      ],
      'mira',
    );
    const spent = exact(events, spend('orin', { md: 1, reason: 'a warding power' }));
    expect(spent).toEqual([
      {
        type: 'DiceSpent',
        data: { combatantId: 'orin', ad: 0, md: 1, reason: 'a warding power' },
      },
    ]);
  });

  it('N43: an Unconscious combatant commits no dice: it is not able to act (RULINGS.md N26); a Paralyzed one commits none to a physical (proactive) action', () => {
    const out = then(duel(), { type: 'ApplyCondition', combatantId: 'orin', condition: 'unconscious' });
    expect(
      given(narateer, out)
        .when(spend('orin', { ad: 1 }))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_CANNOT_ACT',
      field: 'combatantId',
    });
    const held = then(duel(), { type: 'ApplyCondition', combatantId: 'mira', condition: 'paralyzed' });
    expect(
      given(narateer, held)
        .when(spend('mira', { ad: 1, proactiveUse: 'melee' }))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_CANNOT_ACT',
      field: 'proactiveUse',
    });
  });

  it('N43: a Collapsed or Withdrawn combatant commits no dice (RULINGS.md N20)', () => {
    const collapsed = then(duel(), {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 8,
      harm: 'Physical (Impact)',
    });
    expect(stateOf(collapsed).combatants.orin.vitality).toBe(0);
    expect(
      given(narateer, collapsed)
        .when(spend('orin', { ad: 0, md: 0 }))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_CANNOT_ACT',
      field: 'combatantId',
    });
    // 5 Wounds of 8 Vitality: below half and more than half in one resolution; a 2-die check of two Misses fails.
    const withdrawn = then(
      fight([
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ]),
      { type: 'ApplyWounds', combatantId: 'b', wounds: 5, harm: 'Physical (Impact)' },
      { followUpFaces: [1, 2] },
    );
    expect(stateOf(withdrawn).combatants.b.withdrawn).toBe(true);
    expect(
      given(narateer, withdrawn)
        .when(spend('b', { ad: 1 }))
        .violation(),
    ).toMatchObject({
      code: 'NARATEER_CANNOT_ACT',
      field: 'combatantId',
    });
  });
});
