import { archsoul } from '../../src/archsoul';
import { fight, sheet, stateOf } from './helpers';

const hero = (id: string, at: [number, number], facing = 'N', extra: Record<string, unknown> = {}) => ({
  id,
  at,
  facing,
  sheet: sheet(extra),
});
const foe = (id: string, at: [number, number], facing = 'S', extra: Record<string, unknown> = {}) => ({
  id,
  at,
  facing,
  side: 'enemies',
  sheet: sheet(extra),
});

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
