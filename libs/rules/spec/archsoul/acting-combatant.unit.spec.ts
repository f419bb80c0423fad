import { archsoul } from '../../src/archsoul';
import { fight, foe, hero, stateOf } from './helpers';

describe('Who acts (RULINGS.md C11): each maneuver names its acting combatant', () => {
  it('actorOf reads combatantId, or attackerId for AreaAttack', () => {
    const s = stateOf(fight([hero('a', [0, 0]), foe('v', [0, -1])]));
    for (const type of [
      'Study',
      'HoldFirm',
      'ShieldIntercept',
      'SoulShield',
      'Grab',
      'GrappleAttack',
      'Escape',
      'Steal',
      'Takedown',
      'GrappleThrow',
      'Charge',
      'Mount',
      'Dismount',
    ]) {
      expect(archsoul.actorOf!(s, { type, combatantId: 'a' })).toEqual({
        combatantId: 'a',
        field: 'combatantId',
      });
    }
    expect(archsoul.actorOf!(s, { type: 'AreaAttack', attackerId: 'a' })).toEqual({
      combatantId: 'a',
      field: 'attackerId',
    });
  });
});
