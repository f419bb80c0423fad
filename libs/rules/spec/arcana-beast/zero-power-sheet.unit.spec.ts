import { arcanaBeast } from '../../src/arcana-beast';
import { view } from '../../src/arcana-beast/view';
import { fightStarted, given, TEST_COMMITMENT } from '../given';
import { beast, binder, close, exact, fight, joined, stateOf, then, wild, wolf } from './helpers';

type Sheet = Record<string, unknown>;

/** A Zero Power with no range: a narrative effect the GM resolves (A34). */
const calm = (extra: Sheet = {}): Sheet => ({ name: 'Calm Aura', trigger: 'Ash sings', ...extra });

function startWith(zeroPower: Sheet) {
  return given(arcanaBeast, [])
    .when({
      type: 'StartFight',
      dice: { mode: 'manual', commitment: TEST_COMMITMENT },
      combatants: [
        { id: 'ember', name: 'Ember', side: 'heroes', sheet: beast({ zeroPower }) },
        { id: 'ash', name: 'Ash', side: 'heroes', sheet: binder('ember') },
      ],
    })
    .violation();
}

describe('A76: a narrative Zero Power takes no attack fields', () => {
  it.each<[string, Sheet]>([
    ['stat', { stat: 'spirit' }],
    ['ranks', { ranks: 3 }],
    ['ranks', { ranks: 0 }],
    ['qualities', { qualities: ['Claws'] }],
    ['qualities', { qualities: [] }],
    ['bonusDamage', { bonusDamage: 2 }],
    ['bonusDamage', { bonusDamage: 0 }],
  ])(
    'A76: given a Zero Power with no range, when the sheet gives it %s (%j), then the sheet is refused naming that field',
    (name, extra) => {
      expect(startWith(calm(extra))).toMatchObject({
        code: 'INVALID_FIELD',
        field: `combatants[0].sheet.zeroPower.${name}`,
      });
    },
  );

  it('A76: given a late joiner whose Zero Power has no range and ranks 2, when it joins, then AddCombatant is refused naming the field', () => {
    const v = given(arcanaBeast, [
      fightStarted('arcana-beast'),
      joined({ id: 'ember', sheet: beast(), side: 'h' }),
    ])
      .when({
        type: 'AddCombatant',
        combatant: {
          id: 'ghost',
          name: 'Ghost',
          side: 'wild',
          sheet: wild({ zeroPower: calm({ ranks: 2 }) }),
        },
      })
      .violation();
    expect(v).toMatchObject({ code: 'INVALID_FIELD', field: 'combatant.sheet.zeroPower.ranks' });
  });

  it('A76: given a Zero Power with a range, when the sheet gives it stat, ranks, qualities and bonusDamage, then its attack reads them', () => {
    // Ember (Spirit 2, Claws 1, Stage 2 so d8) with Zero Flare: melee, Spirit, Ranks 1, Claws, bonus 2.
    const flare = { name: 'Zero Flare', trigger: 'Ash falls', range: 'melee', stat: 'spirit' };
    const sheet = beast({ zeroPower: { ...flare, ranks: 1, qualities: ['Claws'], bonusDamage: 2 } });
    let e = close(fight([{ id: 'ember', sheet, side: 'heroes' }, wolf()], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true });
    // Pool: Spirit 2 + Ranks 1 + Claws 1 = 4 d8 [5, 1, 1, 1]: 1 success; the wolf's Dodge, Agility 2 d6 [1, 1]: none.
    // A hit by 1: Base Damage Brawn 3 + Stage 2 = 5, + 1 extra success, + bonusDamage 2 = 8.
    const out = exact(
      e,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      { dice: [5, 1, 1, 1, 1, 1] },
    );
    const res = out.find((x) => x.type === 'AttackResolved')!.data as Record<string, any>;
    expect({ dice: res.attack.dice, damage: res.damage }).toEqual({ dice: 4, damage: 8 });
  });

  it('A76: given a Zero Power with no range and only its id, name and trigger, when the fight starts, then the view shows a narrative power that rolls no pool of its own', () => {
    const e = fight([{ id: 'ember', sheet: beast({ zeroPower: calm({ id: 'calm' }) }), side: 'heroes' }]);
    expect(view(stateOf(e)).combatants.find((c) => c.id === 'ember')).toMatchObject({
      zeroPower: { name: 'Calm Aura', range: null, bonusDamage: 0, ranks: 0, qualities: [] },
    });
  });
});
