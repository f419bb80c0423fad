import { exact, fight, find, foe, hero, refused, stateOf, sword, then, types } from './helpers';

describe('S44: Shatter against ordinary items (archsoul.txt: Shatter: "makes a weapon attack roll with the targeted item")', () => {
  it('S44: an ordinary held item cannot be shattered; the GM lists it as an improvised weapon instead', () => {
    const lantern = { id: 'lantern', name: 'Lantern', stowage: 'simple', held: true };
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { items: [lantern] })]);
    const violation = refused(events, {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'lantern' },
    });
    expect(violation).toMatchObject({ code: 'ARCHSOUL_SHATTER_ORDINARY_ITEM', field: 'shatter.itemId' });
    const improvised = fight([
      hero('a', [0, 0]),
      foe('v', [0, -1], 'S', {
        weapons: [sword, { id: 'lantern', name: 'Lantern', type: 'melee', weightLb: 5, held: true }],
      }),
    ]);
    expect(
      types(
        exact(
          improvised,
          {
            type: 'Attack',
            attackerId: 'a',
            targetId: 'v',
            weaponId: 'sword',
            shatter: { itemId: 'lantern' },
          },
          { dice: [4, 4, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1] },
        ),
      ),
    ).toContain('ShatterResolved');
  });
});

describe('Shatter with Sneak Attack and a critical result (archsoul.txt: Sneak Attack, Shatter, Critical Failure Tables; RULINGS.md S20, S29, S30)', () => {
  const shatterSword = (extra: Record<string, unknown> = {}) => ({
    type: 'Attack',
    attackerId: 'a',
    targetId: 'v',
    weaponId: 'sword',
    shatter: { itemId: 'sword' },
    ...extra,
  });

  it('S29/S30: a melee sneak attack that shatters cannot critically miss, and the sneak attack removes unaware', () => {
    // Given v unaware and studied three times (a's turn in round 1), a's round-2 turn.
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    // When a's sneak Shatter rolls 1,1,1,2 (0 successes, three of four dice on 1: a critical failure, S2)
    // against v's sword roll 3,3,3,3 (0 at difficulty 4): a tie, nothing damaged.
    const out = exact(events, shatterSword({ sneak: true }), { dice: [1, 1, 1, 2, 3, 3, 3, 3] });
    // Then no critical table is rolled ("Sneak attacks made with a melee weapon cannot critically miss"),
    // and v is no longer unaware.
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      attack: { successes: 0, criticalFailure: true },
      maneuvers: ['sneak', 'shatter'],
    });
    expect(find(out, 'ShatterResolved')).toMatchObject({ winner: 'tie', damage: 0 });
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'ShatterResolved', 'ConditionRemoved']);
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'unaware' });
  });

  it('S20: a Shatter attack consumes “difficulty of next attack increases by 1”', () => {
    const events = then(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]), {
      type: 'ApplyCondition',
      combatantId: 'a',
      condition: 'nextAttackHarder',
    });
    // a's Precision 2 + Melee Weapons 2 at 4 + 1 = 5: 5,5,4,1 → 2; v's sword roll 3,3,3,3 → 0; a's damage
    // (Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice at 4) 1,1,1,1,1 → 0 against the sword.
    const out = exact(events, shatterSword(), { dice: [5, 5, 4, 1, 3, 3, 3, 3, 1, 1, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5, successes: 2 });
    expect(find(out, 'ShatterResolved')).toMatchObject({ winner: 'attacker', damage: 0 });
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'a', condition: 'nextAttackHarder' });
    expect(stateOf([...events, ...out]).combatants.a.conditions).toEqual([]);
  });
});

describe('S31: the opponent drops the targeted item (archsoul.txt: Shatter: "Your opponent may drop the targeted item instead of making an attack roll"; Quick Attack; Reactive Attack)', () => {
  it('S31: an item dropped against a reactive Shatter ends that reactive attack as a miss: no prevention roll, the held Move waits to resume', () => {
    // v walks out of a's reach and front arc; a reacts with a Shatter on v's sword, and v drops it (its policy).
    let events = fight([foe('v', [0, -1], 'S', { shatterResponse: 'drop' }), hero('a', [0, 0], 'N')]);
    events = then(events, { type: 'Move', combatantId: 'v', path: [{ x: 0, y: -2 }] });
    const out = exact(events, {
      type: 'ReactiveAttack',
      combatantId: 'a',
      weaponId: 'sword',
      shatter: { itemId: 'sword' },
    });
    // Nothing is rolled: v drops the sword, a's attack strikes nothing, so nothing can prevent the Move.
    expect(types(out)).toEqual(['ItemDropped', 'ExchangeResolved', 'ShatterResolved', 'ReactionsFinished']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      action: 'reactive',
      hit: false,
      weaponId: 'sword',
    });
    expect(find(out, 'ShatterResolved')).toMatchObject({ dropped: true, damage: 0 });
    const after = stateOf([...events, ...out]);
    expect(after.pending).toMatchObject({ kind: 'resumeAction', awaiting: 'v' });
    expect(after.combatants.a.attackedWith).toEqual(['sword']);
  });

  it('S27/S31: an Attack whose targeted item was dropped was still made with the weapon, so no Quick Attack with it follows', () => {
    const events = then(fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', { shatterResponse: 'drop' })]), {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'sword',
      shatter: { itemId: 'sword' },
    });
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 1, attackedWith: ['sword'] });
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        targetId: 'v',
        weaponId: 'sword',
        special: 'quick',
      }),
    ).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED', field: 'weaponId' });
  });
});

describe('Shatter’s damage roll (archsoul.txt: Shatter, Unarmed, Armor Advantages; RULINGS.md S22, S31)', () => {
  const shatter = (itemId: string, weaponId?: string) => ({
    type: 'Attack',
    attackerId: 'a',
    targetId: 'v',
    ...(weaponId ? { weaponId } : {}),
    shatter: { itemId },
  });
  const pick = {
    id: 'pick',
    name: 'War Pick',
    type: 'melee',
    damage: 2,
    strongAgainst: ['plate'],
    armourPiercing: true,
  };

  it('S22: an unarmed Shatter with metal on the limb adds 1 to the damage roll against the item', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [], metalGauntlets: true }),
      foe('v', [0, -1], 'S', { weapons: [{ ...sword, hp: 5 }] }),
    ]);
    // The punch at 4 + 1 (unarmed Shatter): 5,5,5 → 3 against v's sword roll 4,1,1,1 → 1. The damage roll
    // (Athletics 2 at 5): 5,5 → 2, and 1 for the gauntlet: 3 damage to the sword, hardness 0.
    const out = exact(events, shatter('sword'), { dice: [5, 5, 5, 4, 1, 1, 1, 5, 5] });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damageRoll: { pool: 2, difficulty: 5, successes: 2 },
      damage: 3,
    });
    expect(stateOf([...events, ...out]).combatants.v.weapons.sword.hp).toBe(2);
  });

  it('S31: an armour-piercing Shatter of a weapon takes no advantage from the wearer’s armour in the damage roll either', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [pick] }),
      foe('v', [0, -1], 'S', { weapons: [{ ...sword, hp: 20 }], armour: { type: 'plate' } }),
    ]);
    // The pick at 4: 6,6,6,1 → 3 against 4,1,1,1 → 1. Damage: 2 + 1 + 2 = 5 dice at 4 (the sword is no plate),
    // 3,3,3,1,1 → 0.
    const out = exact(events, shatter('sword', 'pick'), { dice: [6, 6, 6, 1, 4, 1, 1, 1, 3, 3, 3, 1, 1] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 4, modifiers: [] });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damageRoll: { difficulty: 4, modifiers: [], successes: 0 },
      damage: 0,
    });
  });

  it('S31: an armour-piercing Shatter of a shield counts it as plate in the damage roll too (archsoul.txt: “Weapons that are strong or weak against plate armor apply that adjustment while shattering a shield”; Armor Piercing)', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [pick] }),
      foe('v', [0, -1], 'S', { armour: { type: 'leather' }, shield: { bonus: 1, hp: 20 } }),
    ]);
    // The pick at 4 − 1: 6,6,6,1 → 3 against the shield's 4,1,1,1 → 1. Damage at 4 − 1: 3,3,3,1,1 → 3.
    const strong = [{ reason: 'armour piercing, strong against plate', amount: -1 }];
    const out = exact(events, shatter('shield', 'pick'), { dice: [6, 6, 6, 1, 4, 1, 1, 1, 3, 3, 3, 1, 1] });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 3 });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedItemId: 'shield',
      damageRoll: { difficulty: 3, modifiers: strong, successes: 3 },
      damage: 3,
    });
  });

  it('S31: a defender’s armour-piercing item that wins strikes the attacker’s weapon, not its armour', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [{ ...sword, hp: 20 }], armour: { type: 'plate' } }),
      foe('v', [0, -1], 'S', { weapons: [pick] }),
    ]);
    // a's sword: 4,1,1,1 → 1 against v's pick roll 6,6,6,1 → 3. v's damage to the sword: 5 dice at 4, 3,3,3,1,1 → 0.
    const out = exact(events, shatter('pick', 'sword'), { dice: [4, 1, 1, 1, 6, 6, 6, 1, 3, 3, 3, 1, 1] });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'defender',
      damagedId: 'a',
      damageRoll: { difficulty: 4, modifiers: [], successes: 0 },
      damage: 0,
    });
  });
});
