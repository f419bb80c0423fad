import {
  attack,
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  javelin,
  refused,
  stateOf,
  sword,
  then,
  types,
} from './helpers';

const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const axe = { id: 'axe', name: 'Axe', type: 'melee', damage: 3 };
const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };

describe('Quick Attack (archsoul.txt: Special Attacks: Quick Attack, RULINGS.md S27)', () => {
  it('costs 1 AP; the damage roll is 1 harder; a non-light weapon makes the attack roll 1 harder', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, dagger] }), foe('v', [0, -1])]);
    // Attack pool 4 at 5: 5,5 → 2 > 1. Damage pool 5 at 5: one success.
    const out = exact(events, attack({ special: 'quick' }), { dice: [5, 5, 1, 1, 5, 4, 4, 1, 1] });
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'quickAttack', ap: 1, apLeft: 2 });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      special: 'quick',
      hit: true,
      attack: { difficulty: 5, modifiers: [{ reason: 'Quick Attack with a non-light weapon', amount: 1 }] },
    });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 1, damageRoll: { difficulty: 5 } });
  });

  it('a non-light weapon in the other hand adds 1 more; a light weapon with a light off-hand adds nothing', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, axe, dagger] }), foe('v', [0, -1])]);
    expect(
      find(exact(events, attack({ special: 'quick' }), { dice: [1, 2, 3, 4] }), 'ExchangeResolved').attack
        .difficulty,
    ).toBe(6);
    const light = fight([
      hero('a', [0, 0], 'N', { weapons: [dagger, { ...dagger, id: 'knife' }] }),
      foe('v', [0, -1]),
    ]);
    expect(
      find(
        exact(light, attack({ weaponId: 'dagger', special: 'quick' }), { dice: [1, 2, 3, 4] }),
        'ExchangeResolved',
      ).attack.difficulty,
    ).toBe(4);
  });

  it('after a Quick Attack no other attack this turn, but reactive attacks still may be made', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [sword, dagger] }), foe('v', [0, -1])]);
    events = then(events, attack({ special: 'quick' }), { dice: [1, 2, 3, 4] });
    expect(refused(events, attack({ weaponId: 'dagger' }))).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
      field: 'type',
    });
    expect(refused(events, attack({ weaponId: 'dagger', special: 'quick' })).code).toBe(
      'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
    );
    // Still in v's reach and front arc: a's own leaving triggers v; a's reactive attacks stay possible (not its turn limit).
    events = then(then(events, { type: 'EndTurn', combatantId: 'a' }), {
      type: 'Move',
      combatantId: 'v',
      path: [{ x: -1, y: -1 }],
    });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'a' });
  });

  it('only with a one-handed weapon not yet used this round', () => {
    // S51: the greatsword fills both hands, so the sword starts stowed.
    const events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword, sword] }), foe('v', [0, -1])]);
    expect(refused(events, attack({ weaponId: 'greatsword', special: 'quick' }))).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_ONE_HANDED',
      field: 'weaponId',
    });
    expect(refused(events, attack({ special: 'quick' }))).toMatchObject({
      code: 'ARCHSOUL_WEAPON_NOT_HELD',
      field: 'weaponId',
    });
    const armed = fight([hero('a', [0, 0], 'N', { weapons: [sword] }), foe('v', [0, -1])]);
    const used = then(armed, attack(), { dice: [1, 2, 3, 3] });
    expect(refused(used, attack({ special: 'quick' }))).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED',
      field: 'weaponId',
    });
  });
});

describe('Reckless Attack (archsoul.txt: Special Attacks: Reckless Attack)', () => {
  it('costs 3 AP: attack roll 2 harder, damage roll 1 easier; melee only; not as a reactive attack', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [sword, bow] }), foe('v', [0, -1])]);
    const out = exact(events, attack({ special: 'reckless' }), { dice: [6, 6, 1, 2, 3, 3, 3, 1, 1] });
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'recklessAttack', ap: 3, apLeft: 0 });
    expect(find(out, 'ExchangeResolved').attack).toMatchObject({ difficulty: 6, successes: 2 });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 3, damageRoll: { difficulty: 3 } });
    expect(refused(events, attack({ special: 'reckless', weaponId: 'bow' }))).toMatchObject({
      code: 'ARCHSOUL_RECKLESS_ATTACK_MELEE',
      field: 'weaponId',
    });
    const moving = then(then(events, { type: 'EndTurn', combatantId: 'a' }), {
      type: 'Move',
      combatantId: 'v',
      path: [{ x: -1, y: -1 }],
    });
    expect(
      refused(moving, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword', special: 'reckless' }),
    ).toMatchObject({ code: 'ARCHSOUL_SPECIAL_NOT_REACTIVE', field: 'special' });
  });
});

describe('Feint (archsoul.txt: Attack Modifiers: Feint, RULINGS.md S28)', () => {
  const trickster = {
    weapons: [sword],
    skills: { meleeWeapons: 2, weaponMastery: 1, resolve: 1, confusion: 2 },
  };

  it('Precision/Confusion at 5 beats Intellect/Read Emotions at 4: the opponent is rotated, then the declared attack is made', () => {
    const events = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -1], 'S')]);
    // Feint 4 dice at 5: 2; defence 1 die at 4: 1. Attack 4 dice: 2 > 1; damage 5 dice: 1.
    const out = exact(events, attack({ feint: { facing: 'N' } }), {
      dice: [5, 5, 1, 1, 4, 4, 4, 1, 2, 4, 1, 1, 1, 1],
    });
    expect(types(out)).toEqual(['ApSpent', 'FeintResolved', 'Turned', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(out, 'FeintResolved')).toMatchObject({
      success: true,
      facing: 'N',
      feint: { difficulty: 5, successes: 2 },
      defence: { difficulty: 4, successes: 1 },
    });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      targetArc: 'back',
      maneuvers: ['feint'],
      hit: true,
    });
  });

  it('a feint that does not exceed the opponent’s roll makes the declared attack miss automatically', () => {
    const events = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -1], 'S')]);
    const out = exact(events, attack({ feint: true }), { dice: [5, 1, 1, 1, 4] });
    expect(types(out)).toEqual(['ApSpent', 'FeintResolved', 'ExchangeResolved']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: false,
      automaticMiss: expect.stringContaining('Feint'),
    });
    expect(find(out, 'ExchangeResolved').attack).toBeUndefined();
  });

  it('non-human anatomy makes the feint 1 harder; animal-like intelligence cannot be feinted', () => {
    const beast = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -1], 'S', { anatomy: 'other' })]);
    expect(
      find(exact(beast, attack({ feint: true }), { dice: [1, 1, 1, 2, 1] }), 'FeintResolved').feint
        .difficulty,
    ).toBe(6);
    const wolf = fight([
      hero('a', [0, 0], 'N', trickster),
      foe('v', [0, -1], 'S', { animalIntelligence: true }),
    ]);
    expect(refused(wolf, attack({ feint: true }))).toMatchObject({
      code: 'ARCHSOUL_FEINT_ANIMAL_INTELLIGENCE',
      field: 'feint',
    });
  });

  it('S29: Feint combines with Knockdown or Shatter, not with Sneak Attack or Cleave', () => {
    const events = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -1], 'S')]);
    expect(refused(events, attack({ feint: true, sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_MANEUVER_COMBINATION',
      field: 'sneak',
    });
    expect(refused(events, attack({ knockdown: true, cleave: { spaces: [{ x: 0, y: -1 }] } }))).toMatchObject(
      { code: 'ARCHSOUL_MANEUVER_COMBINATION', field: 'cleave' },
    );
    // Feint + Knockdown: feint, defence, attack, Athletics/Resolve (3 dice at 3), damage.
    const out = exact(events, attack({ feint: true, knockdown: true }), {
      dice: [5, 5, 1, 1, 1, 4, 4, 1, 1, 3, 1, 1, 4, 4, 1, 1, 1],
    });
    expect(find(out, 'ExchangeResolved').maneuvers).toEqual(['feint', 'knockdown']);
    expect(find(out, 'KnockdownResolved')).toMatchObject({ knockedDown: true });
  });
});

describe('Knockdown (archsoul.txt: Attack Modifiers: Knockdown, RULINGS.md S32)', () => {
  it('on a hit the opponent rolls Athletics/Resolve at 3; a damage roll above it knocks it down; the damage is ignored', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1])]);
    const out = exact(events, attack({ knockdown: true }), { dice: [4, 4, 1, 2, 3, 1, 1, 4, 4, 1, 1, 1] });
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'KnockdownResolved', 'ConditionApplied']);
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      knockedDown: true,
      resist: { difficulty: 3, successes: 1 },
      damageRoll: { successes: 2 },
    });
    expect(stateOf([...events, ...out]).combatants.v).toMatchObject({
      hp: 10,
      conditions: [{ condition: 'prone' }],
    });
    const stood = exact(events, attack({ knockdown: true }), { dice: [4, 4, 1, 2, 3, 3, 1, 4, 4, 1, 1, 1] });
    expect(find(stood, 'KnockdownResolved').knockedDown).toBe(false);
    expect(types(stood)).not.toContain('WoundsApplied');
  });

  it('with a ranged weapon the attack and damage rolls are 1 harder', () => {
    const events = fight(
      [hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -3], 'S', { defense: 0 })],
      { options: { arrowBreakage: false } },
    );
    const out = exact(events, attack({ weaponId: 'bow', knockdown: true }), {
      dice: [5, 1, 1, 2, 1, 1, 1, 5, 5, 1],
    });
    expect(find(out, 'ExchangeResolved').attack.difficulty).toBe(5);
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      damageRoll: { difficulty: 5, successes: 2 },
      knockedDown: true,
    });
  });

  it('S22: a gauntleted punch’s Knockdown compares the damage roll with its +1 (archsoul.txt: Unarmed: “The damage roll is increased by 1”; Knockdown)', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [], metalGauntlets: true }), foe('v', [0, -1])]);
    // The punch: Precision 2 + Primitive Attacks 1, 5,5,1 → 2 > Defense 1. v's Athletics/Resolve at 3: 3,3,1 → 2.
    // The damage roll: Athletics 2, 4,4 → 2, and 1 for the gauntlet: 3 surpasses 2.
    const punch = { type: 'Attack', attackerId: 'a', targetId: 'v', knockdown: true };
    const out = exact(events, punch, { dice: [5, 5, 1, 3, 3, 1, 4, 4] });
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      damageRoll: { successes: 2 },
      resist: { successes: 2 },
      knockedDown: true,
    });
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved', 'KnockdownResolved', 'ConditionApplied']);
    // Bare-handed this time (the GM's limbArmoured: false): 2 does not surpass 2.
    const bare = exact(events, { ...punch, limbArmoured: false }, { dice: [5, 5, 1, 3, 3, 1, 4, 4] });
    expect(find(bare, 'KnockdownResolved').knockedDown).toBe(false);
  });

  it('S32: a reactive Knockdown that knocks the mover down prevents its move without a roll', () => {
    let events = fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] });
    const out = exact(
      events,
      { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword', knockdown: true },
      { dice: [4, 4, 1, 2, 3, 1, 1, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'PreventionRolled')).toMatchObject({
      prevented: true,
      reason: expect.stringContaining('S32'),
    });
    expect(stateOf([...events, ...out]).combatants.a.position).toEqual({ x: 0, y: 0 });
  });
});

describe('Shatter (archsoul.txt: Attack Modifiers: Shatter, RULINGS.md S31)', () => {
  const guard = { weapons: [{ ...sword, hp: 5, hardness: 1 }] };

  it('the opponent rolls with the targeted item instead of Defense; the higher roll damages the other’s item, less hardness', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', guard)]);
    // a: 3 successes; v's Precision/Melee Weapons with the sword: 1. a's damage 3 − hardness 1 = 2.
    const out = exact(events, attack({ shatter: { itemId: 'sword' } }), {
      dice: [4, 4, 4, 1, 4, 1, 1, 1, 4, 4, 4, 1, 1],
    });
    expect(find(out, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedId: 'v',
      damagedItemId: 'sword',
      hardness: 1,
      damage: 2,
    });
    expect(stateOf([...events, ...out]).combatants.v.weapons.sword).toMatchObject({ hp: 3, broken: false });
    expect(types(out)).not.toContain('WoundsApplied');
  });

  it('on a tie neither item is damaged; if the opponent rolls higher it damages the attacker’s weapon', () => {
    const events = fight([hero('a', [0, 0], 'N', guard), foe('v', [0, -1], 'S', guard)]);
    const tie = exact(events, attack({ shatter: { itemId: 'sword' } }), { dice: [4, 4, 1, 2, 4, 4, 1, 2] });
    expect(find(tie, 'ShatterResolved')).toMatchObject({ winner: 'tie', damage: 0 });
    const lost = exact(events, attack({ shatter: { itemId: 'sword' } }), {
      dice: [4, 1, 2, 2, 4, 4, 1, 2, 4, 4, 1, 1, 1],
    });
    expect(find(lost, 'ShatterResolved')).toMatchObject({ winner: 'defender', damagedId: 'a', damage: 1 });
  });

  it('the opponent’s standing policy may drop the item instead, unless it is a shield', () => {
    const dropper = fight([
      hero('a', [0, 0]),
      foe('v', [0, -1], 'S', { ...guard, shatterResponse: 'drop', shield: { bonus: 1 } }),
    ]);
    const dropped = exact(dropper, attack({ shatter: { itemId: 'sword' } }));
    expect(types(dropped)).toEqual(['ApSpent', 'ItemDropped', 'ExchangeResolved', 'ShatterResolved']);
    expect(find(dropped, 'ShatterResolved').dropped).toBe(true);
    const shield = exact(dropper, attack({ shatter: { itemId: 'shield' } }), {
      dice: [1, 2, 3, 3, 1, 2, 3, 3],
    });
    expect(find(shield, 'ShatterResolved')).toMatchObject({ dropped: false, winner: 'tie' });
  });

  it('unarmed or ranged shatter is 1 harder to hit and damage; only a held item can be targeted', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S', guard)]);
    const fist = exact(events, attack({ weaponId: undefined, shatter: { itemId: 'sword' } }), {
      dice: [5, 1, 4, 1, 1, 1, 2, 5, 1],
    });
    expect(find(fist, 'ExchangeResolved').attack.difficulty).toBe(5);
    expect(find(fist, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damageRoll: { difficulty: 5, successes: 1 },
      damage: 0,
    });
    expect(refused(events, attack({ shatter: { itemId: 'bow' } }))).toMatchObject({
      code: 'ARCHSOUL_SHATTER_ITEM',
      field: 'shatter.itemId',
    });
  });
});

describe('Sneak Attack (archsoul.txt: Attack Modifiers: Sneak Attack, RULINGS.md S30)', () => {
  const studied = (extra: Record<string, unknown> = {}, aExtra: Record<string, unknown> = {}) => {
    let events = fight([hero('a', [0, 0], 'N', aExtra), foe('v', [0, -1], 'N', extra)]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    return events;
  };

  it('three consecutive studying actions across turns, a target unaware: damage 1 easier, no critical miss in melee', () => {
    const events = studied();
    expect(stateOf(events).combatants.a.study).toEqual({ targetId: 'v', count: 3 });
    const out = exact(events, attack({ sneak: true }), { dice: [4, 4, 1, 2, 3, 3, 1, 1, 1] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 3 } });
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'unaware' });
    const fumble = exact(events, attack({ sneak: true }), { dice: [1, 1, 1, 2] });
    expect(types(fumble)).toEqual(['ApSpent', 'ExchangeResolved', 'ConditionRemoved']);
  });

  it('refused without the studies, when another action broke them, or against an aware target', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    events = then(then(events, { type: 'Study', combatantId: 'a', targetId: 'v' }), {
      type: 'Study',
      combatantId: 'a',
      targetId: 'v',
    });
    expect(refused(events, attack({ sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_SNEAK_NOT_STUDIED',
      field: 'sneak',
    });
    const broken = then(events, { type: 'SlowMove', combatantId: 'a', to: { x: -1, y: 0 } });
    expect(stateOf(broken).combatants.a.study).toBeUndefined();
    const aware = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    expect(refused(aware, attack({ sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_SNEAK_TARGET_AWARE',
      field: 'sneak',
    });
  });

  it('golems need 5 ranks of Engineering, hostile plants 5 of Survival; unfamiliar anatomy never', () => {
    expect(refused(studied({ creature: 'golem' }), attack({ sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_SNEAK_CREATURE_SKILL',
      field: 'sneak',
    });
    expect(
      types(
        exact(
          studied({ creature: 'golem' }, { skills: { meleeWeapons: 2, engineering: 5 } }),
          attack({ sneak: true }),
          { dice: [1, 2, 3, 3] },
        ),
      ),
    ).toContain('ExchangeResolved');
    expect(refused(studied({ creature: 'plant' }), attack({ sneak: true })).code).toBe(
      'ARCHSOUL_SNEAK_CREATURE_SKILL',
    );
    expect(refused(studied({ anatomy: 'unfamiliar' }), attack({ sneak: true })).code).toBe(
      'ARCHSOUL_SNEAK_UNFAMILIAR_ANATOMY',
    );
  });

  it('a ranged sneak attack must be within the weapon’s accurate range', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -7], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    expect(refused(events, attack({ weaponId: 'bow', sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_SNEAK_OUT_OF_ACCURATE_RANGE',
      field: 'sneak',
    });
  });
});

describe('Cleave (archsoul.txt: Attack Modifiers: Cleave, Area of Effect Attacks, RULINGS.md S34)', () => {
  it('S65: “difficulty of next attack” makes a Cleave’s one roll harder for every target, and is spent once', () => {
    let events = fight([hero('a', [0, 0], 'N', { weapons: [axe] }), foe('v', [0, -1]), foe('w', [1, -1])]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'nextAttackHarder' });
    // 4 dice at 4 + 1 (Cleave) + 1 (next attack): 6, 1, 2, 3 is 1 success, not above Defense 1 for either.
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: 0, y: -1 },
            { x: 1, y: -1 },
          ],
        },
      },
      { dice: [6, 1, 2, 3] },
    );
    expect(
      find(out, 'AreaAttackResolved').targets.map((t: any) => [t.targetId, t.difficulty, t.hit]),
    ).toEqual([
      ['v', 6, false],
      ['w', 6, false],
    ]);
    expect(out.filter((e) => e.type === 'ConditionRemoved').map((e) => e.data)).toEqual([
      { combatantId: 'a', condition: 'nextAttackHarder', reason: 'applied to this attack' },
    ]);
    expect(stateOf([...events, ...out]).combatants.a.conditions).toEqual([]);
  });

  it('two adjacent spaces in reach: one attack roll recounted per difficulty, each target defends, one damage roll', () => {
    const cleaver = { weapons: [{ ...axe, strongAgainst: ['plate'] }] };
    const events = fight([
      hero('a', [0, 0], 'N', cleaver),
      foe('v', [0, -1], 'S', { armour: { type: 'plate' } }),
      foe('w', [1, -1], 'S'),
    ]);
    const out = exact(
      events,
      {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: 0, y: -1 },
            { x: 1, y: -1 },
          ],
        },
      },
      { dice: [5, 4, 4, 1, 5, 5, 1, 1, 1, 1] },
    );
    const area = find(out, 'AreaAttackResolved');
    expect(area.targets.map((t: any) => [t.targetId, t.difficulty, t.successes, t.hit])).toEqual([
      ['v', 4, 3, true],
      ['w', 5, 1, false],
    ]);
    expect(out.filter((e) => e.type === 'WoundsApplied').map((e) => (e.data as any).combatantId)).toEqual([
      'v',
    ]);
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 5 } });
  });

  it('not with a light or semi-light weapon, not on reactive attacks, spaces adjacent and in reach', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [axe, dagger] }),
      foe('v', [0, -1], 'S'),
      foe('w', [1, -1], 'S'),
    ]);
    const spaces = [
      { x: 0, y: -1 },
      { x: 1, y: -1 },
    ];
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', weaponId: 'dagger', cleave: { spaces } }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_WEAPON', field: 'weaponId' });
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: 0, y: -1 },
            { x: 0, y: -2 },
          ],
        },
      }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_SPACES', field: 'cleave.spaces[1]' });
    expect(
      refused(events, {
        type: 'Attack',
        attackerId: 'a',
        weaponId: 'axe',
        cleave: {
          spaces: [
            { x: -1, y: 0 },
            { x: 1, y: -1 },
          ],
        },
      }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_SPACES', field: 'cleave.spaces[1]' });
    const moving = then(then(events, { type: 'EndTurn', combatantId: 'a' }), {
      type: 'Move',
      combatantId: 'v',
      path: [{ x: -1, y: -1 }],
    });
    expect(
      refused(moving, { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'axe', cleave: { spaces } }),
    ).toMatchObject({ code: 'ARCHSOUL_CLEAVE_NOT_REACTIVE', field: 'cleave' });
  });
});

describe('S68: a throw takes the attack modifiers (archsoul.txt: Attack Modifiers, Throw an Item)', () => {
  const throwAt = (extra: Record<string, unknown> = {}) => ({
    type: 'ThrowItem',
    combatantId: 'a',
    itemId: 'javelin',
    targetId: 'v',
    ...extra,
  });
  const thrower = { weapons: [sword, javelin] };
  /** a has studied an unaware v three times, v `y` spaces north; a new round. */
  const studiedAt = (y: number) => {
    let events = fight([hero('a', [0, 0], 'N', thrower), foe('v', [0, y], 'N')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++) events = then(events, { type: 'Study', combatantId: 'a', targetId: 'v' });
    return then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
  };

  it('a thrown sneak attack within accurate range: damage 1 easier, the target no longer unaware, the study used', () => {
    const events = studiedAt(-1);
    // Precision/Primitive Attacks 3 dice at 4: 3 > Defense 1. Athletics/Weapon Mastery + 2: 5 dice at 3: 2.
    const out = exact(events, throwAt({ sneak: true }), { dice: [4, 4, 4, 3, 3, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, action: 'throw', maneuvers: ['sneak'] });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 3 } });
    expect(find(out, 'ConditionRemoved')).toMatchObject({ combatantId: 'v', condition: 'unaware' });
    expect(find(out, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -1 } });
    expect(stateOf([...events, ...out]).combatants.a.study).toBeUndefined();
  });

  it('a thrown sneak attack beyond the accurate range is refused', () => {
    expect(refused(studiedAt(-5), throwAt({ sneak: true }))).toMatchObject({
      code: 'ARCHSOUL_SNEAK_OUT_OF_ACCURATE_RANGE',
      field: 'sneak',
    });
  });

  it('a thrown Knockdown is 1 harder to hit and for damage, as with a ranged weapon, and deals no HP damage', () => {
    const events = fight([hero('a', [0, 0], 'N', thrower), foe('v', [0, -2], 'S')]);
    // Attack 3 dice at 5: 3. v's Athletics/Resolve 3 dice at 3: 0. Damage 5 dice at 5: 1 > 0.
    const out = exact(events, throwAt({ knockdown: true }), { dice: [5, 5, 5, 1, 1, 1, 5, 1, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: true, attack: { difficulty: 5 } });
    expect(find(out, 'KnockdownResolved')).toMatchObject({
      knockedDown: true,
      damageRoll: { difficulty: 5 },
    });
    expect(types(out)).not.toContain('WoundsApplied');
    expect(find(out, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -2 } });
  });

  it('a thrown Shatter is 1 harder; the javelin lands in the target’s space when it wins, at maximum range on a tie', () => {
    const guard = { weapons: [{ ...sword, hp: 5, hardness: 1 }] };
    const events = fight([hero('a', [0, 0], 'N', thrower), foe('v', [0, -2], 'S', guard)]);
    // Attack 3 dice at 5: 3; v's Precision/Melee Weapons 4 dice at 4: 1; damage 5 dice at 5: 3 − hardness 1.
    const won = exact(events, throwAt({ shatter: { itemId: 'sword' } }), {
      dice: [5, 5, 5, 4, 1, 1, 1, 5, 5, 5, 1, 1],
    });
    expect(find(won, 'ExchangeResolved').attack).toMatchObject({ difficulty: 5 });
    expect(find(won, 'ShatterResolved')).toMatchObject({
      winner: 'attacker',
      damagedItemId: 'sword',
      damage: 2,
    });
    expect(find(won, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -2 } });
    expect(stateOf([...events, ...won]).combatants.a.held).toEqual(['sword']);
    const tie = exact(events, throwAt({ shatter: { itemId: 'sword' } }), { dice: [5, 1, 1, 4, 1, 1, 1] });
    expect(find(tie, 'ShatterResolved')).toMatchObject({ winner: 'tie', damage: 0 });
    expect(find(tie, 'ProjectileLanded')).toMatchObject({ itemId: 'javelin', space: { x: 0, y: -6 } });
  });

  it('a shot at an item lands as any shot does (S21): the arrow of a won ranged Shatter in the target’s space', () => {
    const guard = { weapons: [{ ...sword, hp: 5, hardness: 1 }] };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bow] }), foe('v', [0, -2], 'S', guard)]);
    // Precision/Ranged Weapons 4 dice at 5: 2; v’s sword 4 dice at 4: 1; the bow’s damage 3 dice at 5: 1 − hardness 1.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow', shatter: { itemId: 'sword' } },
      { dice: [5, 5, 1, 1, 4, 1, 1, 1, 5, 1, 1], followUpFaces: [4] },
    );
    expect(find(out, 'ShatterResolved')).toMatchObject({ winner: 'attacker', damage: 0 });
    // The arrow's 1-in-6 breakage roll (S21): a 4 keeps it.
    expect(find(out, 'ProjectileLanded')).toMatchObject({
      itemId: 'bow:arrow',
      space: { x: 0, y: -2 },
      broken: false,
    });
  });

  it('a thrown feint that fails misses without a throw: the javelin stays in hand', () => {
    const trickster = { ...thrower, skills: { primitiveAttacks: 1, weaponMastery: 1, confusion: 2 } };
    const events = fight([hero('a', [0, 0], 'N', trickster), foe('v', [0, -2], 'S')]);
    // Precision/Confusion 4 dice at 5: 1; v's Intellect/Read Emotions 1 die at 4: 1, not exceeded.
    const out = exact(events, throwAt({ feint: true }), { dice: [5, 1, 1, 1, 4] });
    expect(types(out)).toEqual(['ApSpent', 'FeintResolved', 'ExchangeResolved']);
    expect(find(out, 'ExchangeResolved')).toMatchObject({ hit: false, action: 'throw' });
    expect(stateOf([...events, ...out]).combatants.a.held).toEqual(['sword', 'javelin']);
  });

  it('a throw takes the modifiers’ combinations as an attack does (S29)', () => {
    const events = studiedAt(-1);
    expect(refused(events, throwAt({ sneak: true, feint: true }))).toMatchObject({
      code: 'ARCHSOUL_MANEUVER_COMBINATION',
    });
  });
});
