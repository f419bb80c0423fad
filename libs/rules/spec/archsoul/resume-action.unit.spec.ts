import { bow, exact, fight, find, foe, hero, refused, stateOf, sword, then, types } from './helpers';

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

describe('S59: a held action whose weapon a reactive attack took (archsoul.txt: Reactive Attack, Shatter)', () => {
  it('S59: the archer drops the bow against a reactive Shatter: the held shot is prevented, its AP stay spent', () => {
    // a shoots at w; v, in reach and front arc, reacts with a Shatter on the bow, which a drops (its standing policy).
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [bow, sword], shatterResponse: 'drop' }),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -4], 'S'),
    ]);
    events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'bow' });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'bow' },
    });
    expect(types(out)).toEqual([
      'ItemDropped',
      'ExchangeResolved',
      'ShatterResolved',
      'PreventionRolled',
      'ReactionsFinished',
    ]);
    expect(find(out, 'PreventionRolled')).toMatchObject({ prevented: true, damage: 0 });
    expect(find(out, 'PreventionRolled')).not.toHaveProperty('test');
    const after = stateOf([...events, ...out]);
    expect(after.pending).toBeUndefined();
    expect(after.combatants.a).toMatchObject({ ap: 1, inTurn: true });
  });

  it('S59: a charging rider who drops the lance against a reactive Shatter is interrupted: dismounted and knocked down', () => {
    const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, reach: 2, properties: ['lance'] };
    const horse = { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 };
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [lance], mount: horse, shatterResponse: 'drop' }),
      foe('w', [1, -1], 'S'),
      foe('v', [0, -6], 'S'),
    ]);
    const path = [1, 2, 3, 4].map((n) => ({ x: 0, y: -n }));
    events = then(events, { type: 'Charge', combatantId: 'a', path, targetId: 'v', weaponId: 'lance' });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'w',
      weaponId: 'sword',
      shatter: { itemId: 'lance' },
    });
    expect(types(out)).toEqual([
      'ItemDropped',
      'ExchangeResolved',
      'ShatterResolved',
      'PreventionRolled',
      'Dismounted',
      'ConditionApplied',
      'ReactionsFinished',
    ]);
    const after = stateOf([...events, ...out]).combatants.a;
    expect(after).toMatchObject({
      mounted: false,
      position: { x: 0, y: 0 },
      conditions: [{ condition: 'prone' }],
    });
  });

  it('S59: a held Move needs no weapon, so a dropped sword leaves it to resume (S31)', () => {
    let events = fight([foe('v', [0, -1], 'S', { shatterResponse: 'drop' }), hero('a', [0, 0], 'N')]);
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'a',
      weaponId: 'sword',
      shatter: { itemId: 'sword' },
    });
    expect(types(out)).not.toContain('PreventionRolled');
    expect(stateOf([...events, ...out]).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'v' });
  });
});
