import { bow, exact, fight, find, foe, hero, refused, stateOf, sword, then, types } from './helpers';

/** Ruling S100: a field given up front is refused, on every path, when nothing the state can do would ever read it. */
describe('S100: a field only some paths read (archsoul.txt: Unarmed, Reactive Attack; rulings S50, S72)', () => {
  const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };

  it('S100: given an Attack or a reactive attack with a sword, when it names limbArmoured, then it is refused as unarmedStyle is; an unarmed one takes it', () => {
    const duel = fight([hero('a', [0, 0], 'N', { weapons: [sword, claws] }), foe('v', [0, -1], 'S')]);
    for (const limbArmoured of [true, false])
      expect(
        refused(duel, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', limbArmoured }),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'limbArmoured' });
    expect(
      types(
        exact(
          duel,
          { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'claws', limbArmoured: true },
          { dice: [2, 2, 2] },
        ),
      ),
    ).toContain('ExchangeResolved');
    // v walks away from a; a’s reactive attack with the sword names a limb it does not strike with.
    let moving = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N', { weapons: [sword, claws] })]);
    moving = then(moving, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    expect(
      refused(moving, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword', limbArmoured: true }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'limbArmoured' });
  });

  it('S100: given a held action, when its resume is abandoned or the action rolls no attack, then a GM circumstance given with it is refused naming it', () => {
    let shot = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -1], 'S')], {
      options: { arrowBreakage: false },
    });
    shot = then(shot, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
    shot = then(shot, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    for (const [field, value] of [
      ['modifier', 1],
      ['damageModifier', -1],
      ['criticalNarration', 'It snaps'],
    ] as const)
      expect(
        refused(shot, { type: 'ResumeAction', combatantId: 'a', abandon: true, [field]: value }),
      ).toMatchObject({ code: 'ARCHSOUL_RESUME_FIELD', field });
    // The bow shot is no unarmed Attack: the same refusal as the Attack’s own.
    expect(refused(shot, { type: 'ResumeAction', combatantId: 'a', limbArmoured: true })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'limbArmoured',
    });

    let walk = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N')]);
    walk = then(walk, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    walk = then(walk, { type: 'DeclineReactiveAttack', combatantId: 'a' });
    for (const [field, value] of [
      ['modifier', 1],
      ['damageModifier', 1],
      ['criticalNarration', 'Trips'],
      ['limbArmoured', true],
    ] as const)
      expect(refused(walk, { type: 'ResumeAction', combatantId: 'v', [field]: value })).toMatchObject({
        code: 'ARCHSOUL_RESUME_FIELD',
        field,
      });
    expect(types(exact(walk, { type: 'ResumeAction', combatantId: 'v' }))).toEqual([
      'ActionResumed',
      'Moved',
    ]);
  });

  it('S100: given a held Charge, when it resumes with the GM’s modifier, then the charge’s attack roll takes it (S50)', () => {
    const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, reach: 2, properties: ['lance'] };
    const horse = { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 };
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [lance], mount: horse }),
      foe('w', [1, -1], 'S'),
      foe('v', [0, -6], 'S'),
    ]);
    const path = [1, 2, 3, 4].map((n) => ({ x: 0, y: -n }));
    events = then(events, { type: 'Charge', combatantId: 'a', path, targetId: 'v', weaponId: 'lance' });
    events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'w' });
    expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    const miss = { dice: [2, 2, 2, 2] };
    const plain = find(
      exact(events, { type: 'ResumeAction', combatantId: 'a' }, miss),
      'ExchangeResolved',
    ) as any;
    const harder = find(
      exact(events, { type: 'ResumeAction', combatantId: 'a', modifier: 2 }, miss),
      'ExchangeResolved',
    ) as any;
    expect(harder.attack.difficulty).toBe(plain.attack.difficulty + 2);
    expect(harder.attack.modifiers).toContainEqual(expect.objectContaining({ amount: 2 }));
  });
});
