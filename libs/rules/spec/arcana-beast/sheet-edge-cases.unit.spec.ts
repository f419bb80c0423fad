import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { ARCANA_BEAST_CONTRACT } from '../../src/arcana-beast';
import { beast, exact, fight, joined, party, wild } from './helpers';

/**
 * Sheets the contract accepts that are unusual but valid, each found by random walks through fights of random sheets
 * (sheet-fuzz.unit.spec.ts): what the engine makes of them, as the text or a ruling says.
 */
const EVENT_SCHEMAS = eventSchemasOf(ARCANA_BEAST_CONTRACT);

describe('Sheet edge cases', () => {
  it.each([
    ['with a range (an attack)', { name: 'Zero Flare', trigger: 'Ash falls', range: 'long' }, true],
    ['without a range (a narrative effect)', { name: 'Zero Hush', trigger: 'Ash falls' }, false],
  ])(
    'A34: "A Zero Power with a range is an attack; without one it is a narrative effect": a Zero Power %s is recorded in CombatantJoined as its schema declares',
    (_what, zeroPower, attack) => {
      const event = joined({ id: 'ember', sheet: beast({ zeroPower }), side: 'heroes' });
      const parsed = EVENT_SCHEMAS.CombatantJoined.safeParse(event.data);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.data).toEqual(event.data);
      expect((event.data.sheet as { zeroPower: { attack: boolean } }).zeroPower.attack).toBe(attack);
    },
  );

  it('A34: a late joiner with a Zero Power is recorded as the CombatantJoined schema declares', () => {
    const events = exact(
      fight(party),
      {
        type: 'AddCombatant',
        combatant: {
          id: 'ghost',
          name: 'Ghost',
          side: 'wild',
          sheet: wild({ zeroPower: { name: 'Zero Hush', trigger: 'the moon rises' } }),
        },
      },
      { dice: [1, 1] },
    );
    for (const e of events) expect(EVENT_SCHEMAS[e.type].safeParse(e.data).error?.issues ?? []).toEqual([]);
  });
});
