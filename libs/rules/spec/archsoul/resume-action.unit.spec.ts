import { bow, exact, fight, foe, hero, refused, then, types } from './helpers';

describe('S50: ResumeAction performs the held action as declared', () => {
  const held = () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')], {
      options: { arrowBreakage: false },
    });
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    return then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
  };

  it('S50: a maneuver, another target or weapon cannot be added when the held attack resumes', () => {
    const events = held();
    for (const [field, value] of [
      ['knockdown', true],
      ['special', 'quick'],
      ['feint', { facing: 'N' }],
      ['targetId', 'a'],
      ['weaponId', 'sword'],
    ] as const) {
      expect(refused(events, { type: 'ResumeAction', combatantId: 'a', [field]: value })).toMatchObject({
        code: 'ARCHSOUL_RESUME_FIELD',
        field,
      });
    }
  });

  it('S50: its dice and the GM’s circumstances of the moment still ride on it', () => {
    const events = held();
    const shot = exact(
      events,
      { type: 'ResumeAction', combatantId: 'a', modifier: 1 },
      { dice: [1, 2, 3, 2] },
    );
    expect(types(shot)).toEqual(['ActionResumed', 'AmmunitionSpent', 'ExchangeResolved', 'ProjectileLanded']);
    expect(types(exact(events, { type: 'ResumeAction', combatantId: 'a', abandon: true }))).toEqual([
      'ActionResumed',
    ]);
  });
});
