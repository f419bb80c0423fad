import { narateer } from '../../src/narateer';
import { melee, ranged, shootout, stateOf, then } from './helpers';

describe('Narateer view', () => {
  it('shows what a frontend renders: Vitality, dice, state, uses left, weapons, conditions, Lingering Harm, position, pending and exchange', () => {
    let events = shootout();
    events = then(events, { type: 'SetPosition', combatantId: 'sera', position: { x: 0, y: 0 } });
    events = then(events, { type: 'SetPosition', combatantId: 'veyr', position: { x: 5, y: 0 } });
    events = then(events, { type: 'ApplyCondition', combatantId: 'veyr', condition: 'prone', intensity: 1 });
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'veyr', form: 'Poisoned' });
    events = then(events, ranged('sera', 'veyr', 'bow', 1));
    const v = narateer.view(stateOf(events)) as any;
    expect(v.pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'veyr' });
    expect(v.exchange).toMatchObject({ exchangeId: 'x1', attackerId: 'sera', targetId: 'veyr', dice: 2 });
    expect(v.combatants[0]).toMatchObject({
      id: 'sera',
      state: 'Active',
      vitality: 6,
      ad: { ready: 3, used: 2, wounded: 0, max: 5 },
      proactiveUsesLeft: { melee: 1, ranged: 2 },
      position: { x: 0, y: 0 },
    });
    expect(v.combatants[1]).toMatchObject({
      conditions: [{ condition: 'prone', intensity: 1, untilRound: null }],
      lingeringHarm: [{ id: 'lh1', label: 'Lingering Harm: Poisoned', harmLabel: 'Affliction (Poison)' }],
      weapons: [{ id: 'crossbow', loaded: true, ammunition: 10, ready: true }],
    });
    expect(JSON.parse(JSON.stringify(v))).toBeTruthy();
  });

  it('the system lists its commands and rulings', () => {
    expect(Object.keys(narateer.commands)).toEqual(
      expect.arrayContaining([
        'DeclareExchange',
        'RespondToExchange',
        'AllocateWounds',
        'Move',
        'TakeOpportunityAttack',
        'DeclineOpportunity',
        'StartFight',
      ]),
    );
    expect(narateer.rulings.map((r) => r.id)).toEqual(
      expect.arrayContaining(['N2', 'N9', 'N21', 'N22', 'N35', 'N36', 'N37']),
    );
    expect(melee('a', 'b', 0).type).toBe('DeclareExchange');
  });
});
