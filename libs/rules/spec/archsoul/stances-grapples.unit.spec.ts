import { neighbours } from '../../src/archsoul/grid';
import {
  attack,
  bow,
  exact,
  fight,
  find,
  foe,
  hero,
  refused,
  stateOf,
  sword,
  then,
  types,
  unarmed,
} from './helpers';

const endRoundFor = (events: any[], ids: string[]) =>
  ids.reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);

describe('Defensive Maneuvers (archsoul.txt: Hold Firm, Shield Intercept, Soul Shield, RULINGS.md S32)', () => {
  it('Hold Firm (2 AP): until the next turn, attacks into the back arc count as front-arc attacks (Shield Bonus applies)', () => {
    let events = fight(
      [hero('a', [0, 0], 'N', { shield: { bonus: 2 } }), foe('v', [0, 3], 'N', { weapons: [bow] })],
      { options: { arrowBreakage: false } },
    );
    const held = exact(events, { type: 'HoldFirm', combatantId: 'a' });
    expect(types(held)).toEqual(['ApSpent', 'ConditionApplied']);
    expect(find(held, 'ApSpent')).toMatchObject({ action: 'holdFirm', ap: 2 });
    events = then([...events, ...held], { type: 'EndTurn', combatantId: 'a' });
    const shot = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'bow' },
      { dice: [5, 5, 5, 1] },
    );
    expect(find(shot, 'ExchangeResolved')).toMatchObject({
      targetArc: 'front',
      shieldBonus: 2,
      resistance: 3,
      hit: false,
    });
    events = then(endRoundFor([...events, ...shot], ['v']), { type: 'StartRound' });
    expect(stateOf(events).combatants.a.conditions).toEqual([]);
  });

  it('Shield Intercept (1 AP) needs a shield; a projectile fired through the space is 1 harder, even an ally’s', () => {
    const events = fight(
      [
        hero('b', [0, 0], 'N', { shield: { bonus: 1 } }),
        hero('n', [3, 3]),
        hero('a', [0, 2], 'N', { weapons: [bow] }),
        foe('v', [0, -3], 'S'),
      ],
      { options: { arrowBreakage: false } },
    );
    expect(refused(events, { type: 'ShieldIntercept', combatantId: 'n' })).toMatchObject({
      code: 'ARCHSOUL_SHIELD_INTERCEPT_NO_SHIELD',
      field: 'combatantId',
    });
    const after = then(events, { type: 'ShieldIntercept', combatantId: 'b' });
    expect(find(after.slice(events.length), 'ApSpent')).toMatchObject({ action: 'shieldIntercept', ap: 1 });
    const shot = exact(
      after,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
      { dice: [1, 2, 3, 4] },
    );
    expect(find(shot, 'ExchangeResolved').attack.modifiers).toEqual([
      { reason: 'Shield Intercept', amount: 1 },
    ]);
  });

  it('S63: an area shot is fired at its centre: an interceptor on the way to it makes every target’s roll harder, one beyond it none', () => {
    const cannon = {
      id: 'cannon',
      name: 'Steam cannon',
      type: 'elemental',
      attackRoll: 1,
      damage: 3,
      accurateRange: 4,
      maximumRange: 8,
      areaRadius: 4,
    };
    const shot = (interceptAt: [number, number]) => {
      const events = then(
        fight(
          [
            hero('b', interceptAt, 'N', { shield: { bonus: 1 } }),
            hero('a', [0, 4], 'N', { weapons: [cannon] }),
            foe('v', [0, -2], 'S'),
          ],
          { options: { arrowBreakage: false } },
        ),
        { type: 'ShieldIntercept', combatantId: 'b' },
      );
      // Precision/Ranged Weapons 2 + 2 = 4 dice; all 1s and 2s: no success, and no critical failure (half on 1).
      const out = exact(
        events,
        { type: 'AreaAttack', attackerId: 'a', weaponId: 'cannon', centre: { x: 0, y: 0 } },
        { dice: [1, 1, 2, 2] },
      );
      return find(out, 'AreaAttackResolved').targets.find((t: { targetId: string }) => t.targetId === 'v');
    };
    // The centre is at a's accurate range 4, so v's difficulty is the default 4, plus 1 for each interceptor crossed.
    // b at [0, 2] stands between a at [0, 4] and the centre [0, 0]: v's roll is 1 harder.
    expect(shot([0, 2]).difficulty).toBe(5);
    // b at [0, -1] is inside the area, past the centre: the shot never crosses its space, though it lies between a and v.
    expect(shot([0, -1]).difficulty).toBe(4);
  });

  it('Soul Shield (3 AP, soul magic): an adjacent willing ally defends with the caster’s Soulpower/Resolve until the caster’s next turn', () => {
    const rend = { id: 'rend', name: 'Rending', type: 'soul', damage: 0, accurateRange: 5, maximumRange: 10 };
    let events = fight([
      hero('c', [0, 0], 'N', {
        attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 3, intellect: 1 },
        skills: { resolve: 2 },
      }),
      hero('b', [1, 0]),
      foe('v', [0, -4], 'S', { weapons: [rend], skills: { soulCasting: 2 } }),
      foe('x', [5, 5], 'S'),
    ]);
    expect(refused(events, { type: 'SoulShield', combatantId: 'c', targetId: 'x' })).toMatchObject({
      code: 'ARCHSOUL_SOUL_SHIELD_UNWILLING',
      field: 'targetId',
    });
    const far = then(events, { type: 'Move', combatantId: 'b', path: [{ x: 2, y: 0 }] });
    expect(refused(far, { type: 'SoulShield', combatantId: 'c', targetId: 'b' })).toMatchObject({
      code: 'ARCHSOUL_SOUL_SHIELD_NOT_ADJACENT',
      field: 'targetId',
    });
    events = then(events, { type: 'SoulShield', combatantId: 'c', targetId: 'b' });
    expect(stateOf(events).combatants.b.conditions).toEqual([
      { condition: 'soulShield', amount: 1, untilNextTurn: true, sourceId: 'c' },
    ]);
    events = endRoundFor(events, ['c', 'b']);
    // v's Rending: 3 dice → 3; b defends with c's pool (3 + 2 = 5 dice) instead of its own 2: 4 successes.
    const soul = exact(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'b', weaponId: 'rend' },
      { dice: [4, 4, 4, 4, 4, 4, 4, 1] },
    );
    expect(find(soul, 'ExchangeResolved')).toMatchObject({
      soulDefence: { pool: 5, successes: 4 },
      hit: false,
    });
    // C7: the target's own next turn does not end it; the caster's does.
    const turn = (id: string) => ({
      type: 'TurnStarted',
      data: { combatantId: id, round: 2, ap: 3, freeMove: 0, expired: [] },
    });
    expect(stateOf([...events, turn('b')]).combatants.b.conditions).toHaveLength(1);
    expect(stateOf([...events, turn('c')]).combatants.b.conditions).toEqual([]);
  });

  it('S64: a combatant gone Down has no next turn: its Soul Shield and its own stance end when its phase begins without it', () => {
    let events = fight([
      hero('c', [0, 0]),
      hero('b', [1, 0]),
      hero('d', [2, 0], 'N', { shield: { bonus: 1 } }),
      foe('v', [0, -4], 'S'),
    ]);
    events = then(events, { type: 'SoulShield', combatantId: 'c', targetId: 'b' });
    events = then(events, { type: 'ShieldIntercept', combatantId: 'd' });
    events = then(events, { type: 'SoulShield', combatantId: 'b', targetId: 'd' });
    events = then(events, { type: 'ApplyDamage', combatantId: 'c', damage: 12 });
    events = then(events, { type: 'ApplyDamage', combatantId: 'd', damage: 12 });
    events = endRoundFor(events, ['b', 'v']);
    // The heroes' phase of round 2 opens without c and d: what they hold or caused "until your next turn" ends.
    const round2 = exact(events, { type: 'StartRound' });
    expect(round2.filter((e) => e.type === 'ConditionRemoved').map((e) => e.data)).toEqual([
      { combatantId: 'b', condition: 'soulShield', reason: 'c is Down: its turn would have started' },
      { combatantId: 'd', condition: 'shieldIntercept', reason: 'd is Down: its turn would have started' },
    ]);
    const s = stateOf([...events, ...round2]);
    expect(s.phase).toMatchObject({ round: 2, combatantIds: ['b'] });
    expect(s.combatants.b.conditions).toEqual([]);
    // b's own Soul Shield on d ends at b's turn (C7), which b takes.
    expect(s.combatants.d.conditions).toEqual([]);
  });

  it('S64: given a Down combatant with a “for one round” defenseDown and a lasting one the GM applied, when its phase begins without it, then only the one-round entry ends', () => {
    // C7 / S64: "until your next turn" ends when the Down combatant's phase begins without it; a lasting condition
    // of the same kind (untilNextTurn false) is not "until your next turn" and stays, as a turn's start keeps it.
    let events = fight([hero('c', [0, 0]), hero('b', [1, 0]), foe('v', [0, -4], 'S')]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'c', condition: 'defenseDown', amount: 2 });
    events = then(events, {
      type: 'ApplyCondition',
      combatantId: 'c',
      condition: 'defenseDown',
      amount: 1,
      untilNextTurn: true,
    });
    events = then(events, { type: 'ApplyDamage', combatantId: 'c', damage: 12 });
    events = endRoundFor(events, ['b', 'v']);
    const s = stateOf(then(events, { type: 'StartRound' }));
    expect(s.phase).toMatchObject({ round: 2, combatantIds: ['b'] });
    expect(s.combatants.c.conditions).toEqual([
      { condition: 'defenseDown', amount: 2, untilNextTurn: false },
    ]);
  });

  it('Soul Shield is soul magic: a foe in reach and front arc may react first', () => {
    const events = fight([hero('c', [0, 0]), hero('b', [1, 0]), foe('v', [0, -1], 'S')]);
    const out = exact(events, { type: 'SoulShield', combatantId: 'c', targetId: 'b' });
    expect(find(out, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'soulMagic', reactorIds: ['v'] });
  });
});

describe('Grappling (archsoul.txt: Grappling, RULINGS.md S33)', () => {
  const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, held: false };
  /** a holds v: v faces away, so the Grab draws no reactive attack; a's unarmed 3 dice against v's 3. */
  const grappled = (extra: Record<string, unknown> = {}) => {
    const events = then(
      fight([hero('a', [0, 0], 'N', { weapons: [sword, dagger], ...extra }), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    return then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
  };

  it('Grab (2 AP) triggers a reactive attack from the target; then an unarmed roll against its grapple roll starts the grapple under the grabber’s control', () => {
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'S')]);
    const grab = exact(events, { type: 'Grab', combatantId: 'a', targetId: 'v' });
    expect(find(grab, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'grab', reactorIds: ['v'] });
    events = then([...events, ...grab], { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const resumed = exact(events, { type: 'ResumeAction', combatantId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    expect(types(resumed)).toEqual([
      'ActionResumed',
      'GrappleRolled',
      'GrappleStarted',
      'ConditionApplied',
      'ConditionApplied',
    ]);
    const s = stateOf([...events, ...resumed]);
    expect(s.grapples).toEqual([{ grappleId: 'gr1', memberIds: ['a', 'v'], controlId: 'a' }]);
    expect(s.combatants.a.ap).toBe(1);
  });

  it('a failed Grab starts nothing; Grab needs an empty hand', () => {
    const events = fight([
      hero('a', [0, 0], 'N', {
        weapons: [{ id: 'gs', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true }],
      }),
      foe('v', [0, -1], 'N'),
    ]);
    expect(refused(events, { type: 'Grab', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_GRAB_NO_EMPTY_HAND',
      field: 'combatantId',
    });
    const free = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    expect(
      types(exact(free, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 1, 1, 4, 1, 1] })),
    ).toEqual(['ApSpent', 'GrappleRolled']);
  });

  it('Grab: given a critical failure of the Grab’s unarmed attack roll, then the unarmed table is rolled: Overextend knocks the grabber down', () => {
    // archsoul.txt: Grab: "roll an unarmed attack"; Critical Failure Tables: "when a character rolls a critical
    // failure" (S2: rolled by default). a's 1, 1, 2: no success, two of three dice on 1.
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    const out = exact(
      events,
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 4, 1, 1], followUpFaces: [1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'GrappleRolled', 'CriticalFailureRolled', 'ConditionApplied']);
    expect(find(out, 'CriticalFailureRolled')).toMatchObject({ weaponId: 'fist', table: 'unarmed', face: 1 });
    expect(find(out, 'ConditionApplied')).toMatchObject({ combatantId: 'a', condition: 'prone' });
    expect(stateOf([...events, ...out]).grapples).toEqual([]);
  });

  it('given a wrist sprain and then a fumbled Grab’s elbow sprain, when the next attack is made, then both “difficulty of next attack increases by 1” count (+2) and are spent', () => {
    // archsoul.txt: Critical Failure Tables, melee 3 and unarmed 3: each raises the difficulty of the next attack by 1;
    // a Grab's roll is not that attack (S65), so the first sprain still waits when the second comes.
    let events = fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]);
    events = then(events, attack(), { dice: [1, 1, 1, 2], followUpFaces: [3] });
    events = then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
    events = then(
      events,
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 4, 1, 1], followUpFaces: [3] },
    );
    expect(stateOf(events).combatants.a.conditions.map((k) => [k.condition, k.amount])).toEqual([
      ['nextAttackHarder', 1],
      ['nextAttackHarder', 1],
    ]);
    events = then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
    // Precision 2 + Melee Weapons 2 at 4 + 2 = 6: 6, 6, 5, 5 is 2 successes, above Defense 1.
    const out = exact(events, attack(), { dice: [6, 6, 5, 5, 4, 4, 1, 1, 1] });
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      hit: true,
      attack: {
        difficulty: 6,
        successes: 2,
        modifiers: [{ reason: 'critical failure: next attack harder', amount: 2 }],
      },
    });
    expect(stateOf([...events, ...out]).combatants.a.conditions).toEqual([]);
  });

  it('Being Grappled: no weapon attacks, no regular move, no front arc; other actions need a grapple roll first (a failure spends the AP)', () => {
    const events = grappled();
    expect(refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' }).code).toBe(
      'ARCHSOUL_GRAPPLED',
    );
    expect(refused(events, { type: 'Move', combatantId: 'a', path: [{ x: -1, y: 0 }] }).code).toBe(
      'ARCHSOUL_GRAPPLED',
    );
    expect(stateOf(events).combatants.a.conditions.map((k) => k.condition)).toEqual(['grappled']);
    const failed = exact(
      events,
      { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' },
      { dice: [1, 1, 2, 4, 1, 1] },
    );
    expect(types(failed)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent']);
    const drawn = exact(
      events,
      { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(drawn)).toEqual(['GrappleRolled', 'ApSpent', 'ItemDrawn']);
  });

  it('Being Grappled: “All other actions require a successful grapple roll”: dropping a held item and dropping to the ground (Free Actions) first take the grapple roll, as turning in place does', () => {
    const events = grappled();
    const conditions = (es: any[]) => stateOf(es).combatants.a.conditions.map((k) => k.condition);
    // A won roll (4,4,1 = 2 against 1,1,1 = 0): the free action happens, no AP spent.
    const dropped = exact(
      events,
      { type: 'DropItem', combatantId: 'a', itemId: 'sword' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(dropped)).toEqual(['GrappleRolled', 'ItemDropped']);
    expect(stateOf([...events, ...dropped]).combatants.a.ap).toBe(3);
    // A lost roll (1,1,2 = 0 against 4,4,1 = 2): v takes control and a still holds the sword.
    const kept = exact(
      events,
      { type: 'DropItem', combatantId: 'a', itemId: 'sword' },
      { dice: [1, 1, 2, 4, 4, 1] },
    );
    expect(types(kept)).toEqual(['GrappleRolled', 'GrappleControlChanged']);
    expect(stateOf([...events, ...kept]).combatants.a.held).toContain('sword');
    const prone = exact(events, { type: 'DropProne', combatantId: 'a' }, { dice: [4, 4, 1, 1, 1, 1] });
    expect(types(prone)).toEqual(['GrappleRolled', 'ConditionApplied']);
    expect(conditions([...events, ...prone])).toEqual(['grappled', 'prone']);
    // Already on the ground, dropping to it is nothing to attempt: no roll.
    expect(exact([...events, ...prone], { type: 'DropProne', combatantId: 'a' })).toEqual([]);
    const standing = exact(events, { type: 'DropProne', combatantId: 'a' }, { dice: [1, 1, 2, 4, 4, 1] });
    expect(types(standing)).toEqual(['GrappleRolled', 'GrappleControlChanged']);
    expect(conditions([...events, ...standing])).toEqual(['grappled']);
  });

  it('moving drags the grapplers along (Slow Move after a grapple roll)', () => {
    const out = exact(
      grappled(),
      { type: 'SlowMove', combatantId: 'a', to: { x: 0, y: 1 } },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual(['GrappleRolled', 'ApSpent', 'Moved', 'Moved']);
    expect(
      out.filter((e) => e.type === 'Moved').map((e) => [(e.data as any).combatantId, (e.data as any).to]),
    ).toEqual([
      ['a', { x: 0, y: 1 }],
      ['v', { x: 0, y: 0 }],
    ]);
  });

  it('Being Grappled: “Any action that would cause your character to move causes all targets grappling you to move as well”: a Takedown’s step into the opponent’s space drags the taker’s other grappler', () => {
    // c grabs a from behind; on a's turn a wins the grapple roll against c (taking control) and grabs b from behind.
    let events = fight([foe('c', [0, 1], 'N'), hero('a', [0, 0], 'N'), foe('b', [0, -1], 'N')]);
    events = then(events, { type: 'Grab', combatantId: 'c', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'c' });
    events = then(
      events,
      { type: 'Grab', combatantId: 'a', targetId: 'b' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4, 1, 4, 1, 1] },
    );
    // Takedown: a (2) beats b (0); both go down and a moves into b's space; c, still holding a, follows it.
    const out = exact(
      events,
      { type: 'Takedown', combatantId: 'a', targetId: 'b' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'GrappleRolled',
      'ConditionApplied',
      'ConditionApplied',
      'Moved',
      'Moved',
    ]);
    expect(out.filter((e) => e.type === 'Moved').map((e) => e.data)).toMatchObject([
      { combatantId: 'a', action: 'takedown', to: { x: 0, y: -1 } },
      { combatantId: 'c', action: 'dragged', from: { x: 0, y: 1 }, to: { x: 0, y: 0 } },
    ]);
    const after = stateOf([...events, ...out]).combatants;
    expect([after.a.position, after.b.position, after.c.position]).toEqual([
      { x: 0, y: -1 },
      { x: 0, y: -1 },
      { x: 0, y: 0 },
    ]);
  });

  it('Attack (1 AP): opposed grapple rolls, the controller wins ties, unarmed damage', () => {
    const out = exact(
      grappled(),
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [4, 1, 1, 4, 1, 1, 4, 1] },
    );
    expect(find(out, 'GrappleRolled')).toMatchObject({ success: true, winnerId: 'a' });
    expect(find(out, 'WoundsApplied')).toMatchObject({ combatantId: 'v', damage: 1 });
  });

  it('Steal, Takedown and Throw require control; losing a roll loses control', () => {
    let events = grappled();
    events = then(
      events,
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' },
      { dice: [1, 1, 2, 4, 1, 1] },
    );
    expect(stateOf(events).grapples[0].controlId).toBe('v');
    expect(
      refused(events, { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_GRAPPLE_NO_CONTROL', field: 'targetId' });
    expect(refused(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' }).code).toBe(
      'ARCHSOUL_GRAPPLE_NO_CONTROL',
    );
  });

  it('Steal (1 AP): an item from the target’s hand', () => {
    const out = exact(
      grappled(),
      { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'sword' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    const s = stateOf([...grappled(), ...out]);
    expect(s.combatants.v.held).not.toContain('sword');
    expect(s.combatants.a.stolen).toEqual([{ itemId: 'sword', fromId: 'v', name: 'Sword' }]);
  });

  it('S62: a stowed two-handed weapon is no “easily accessible place” and cannot be stolen; the one in hand can', () => {
    const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
    const grabbed = (weapons: unknown[]) =>
      then(
        endRoundFor(
          then(
            fight([
              hero('a', [0, 0], 'N', { weapons: [sword, dagger] }),
              foe('v', [0, -1], 'N', { weapons }),
            ]),
            { type: 'Grab', combatantId: 'a', targetId: 'v' },
            { dice: [4, 4, 1, 4, 1, 1] },
          ),
          ['a', 'v'],
        ),
        { type: 'StartRound' },
      );
    const steal = { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'greatsword' };
    // S51: the first weapon is in hand; a two-handed one after it is stowed awkwardly (S52), like a backpack's.
    expect(refused(grabbed([sword, greatsword]), steal)).toMatchObject({
      code: 'ARCHSOUL_STEAL_OUT_OF_REACH',
      field: 'itemId',
    });
    const out = exact(grabbed([greatsword, sword]), steal, { dice: [4, 4, 1, 1, 1, 1] });
    expect(find(out, 'ItemStolen')).toMatchObject({ combatantId: 'a', fromId: 'v', itemId: 'greatsword' });
  });

  it('Takedown (1 AP): both knocked down, the taker moves into the opponent’s space', () => {
    const out = exact(
      grappled(),
      { type: 'Takedown', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    const s = stateOf([...grappled(), ...out]);
    expect(s.combatants.a.position).toEqual({ x: 0, y: -1 });
    expect([s.combatants.a, s.combatants.v].map((c) => c.conditions.map((k) => k.condition).sort())).toEqual([
      ['grappled', 'prone'],
      ['grappled', 'prone'],
    ]);
  });

  it('Escape (2 AP) ends the grapple; knocked down, the escaper stands up instead and stays grappled', () => {
    const out = exact(
      grappled(),
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    const s = stateOf([...grappled(), ...out]);
    expect(s.grapples).toEqual([]);
    expect(s.combatants.v.conditions).toEqual([]);
    const prone = then(grappled(), { type: 'ApplyCondition', combatantId: 'a', condition: 'prone' });
    const stood = exact(
      prone,
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(find(stood, 'ConditionRemoved')).toMatchObject({ combatantId: 'a', condition: 'prone' });
    expect(stateOf([...prone, ...stood]).grapples).toHaveLength(1);
  });

  it('Throw (2 AP): unarmed damage, then the opponent is knocked down (or thrown) and the grapple ends', () => {
    const out = exact(
      grappled(),
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4] },
    );
    expect(types(out)).toEqual([
      'ApSpent',
      'GrappleRolled',
      'WoundsApplied',
      'ConditionApplied',
      'GrappleEnded',
      'ConditionRemoved',
      'ConditionRemoved',
    ]);
    const thrown = exact(
      grappled(),
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v', outcome: 'throw', to: { x: -1, y: 0 } },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4] },
    );
    expect(find(thrown, 'Moved')).toMatchObject({ combatantId: 'v', action: 'thrown', to: { x: -1, y: 0 } });
  });

  it('Throw: “either throw the opponent or knock the opponent down”: a landing space with knockDown is refused, not ignored', () => {
    const command = { type: 'GrappleThrow', combatantId: 'a', targetId: 'v', to: { x: -1, y: 0 } };
    for (const outcome of [undefined, 'knockDown'])
      expect(refused(grappled(), { ...command, ...(outcome ? { outcome } : {}) })).toMatchObject({
        code: 'INVALID_FIELD',
        field: 'to',
      });
  });
});

describe('Area of effect attacks (archsoul.txt: Area of Effect Attacks, RULINGS.md S7, S14, S34)', () => {
  const bomb = {
    id: 'bomb',
    name: 'Bomb',
    type: 'thrown',
    damage: 3,
    accurateRange: 3,
    maximumRange: 6,
    areaRadius: 2,
    weakAgainst: ['plate'],
  };

  it('one attack roll recounted for each target’s difficulty, each defends separately, one damage roll for all hit', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [bomb] }),
      foe('v', [0, -3]),
      foe('w', [1, -3], 'S', { armour: { type: 'plate' } }),
      foe('x', [0, -5]),
    ]);
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
      { dice: [5, 4, 1, 4, 4, 4, 1, 1, 1] },
    );
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'throwItem', ap: 1 });
    const area = find(out, 'AreaAttackResolved');
    expect(area.spaces).toHaveLength(7);
    expect(area.targets.map((t: any) => [t.targetId, t.difficulty, t.successes, t.hit])).toEqual([
      ['v', 4, 2, true],
      ['w', 5, 1, false],
    ]);
    expect(
      out
        .filter((e) => e.type === 'WoundsApplied')
        .map((e) => [(e.data as any).combatantId, (e.data as any).damage]),
    ).toEqual([['v', 3]]);
    expect(find(out, 'ProjectileLanded')).toMatchObject({ space: { x: 0, y: -3 }, broken: true });
  });

  it('S58: a roll of 0 lands the thrown bomb in a random adjacent space (Throw an Item); it hits nobody there either', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb] }), foe('v', [0, -3]), foe('w', [1, -4])]);
    // Precision 2 + Primitive Attacks 1 = 3 dice, no success (one 1: no critical failure); follow-up 1 names the
    // first neighbour of the centre on the hex grid, where the spent bomb lies.
    const out = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
      { dice: [1, 2, 3], followUpFaces: [1] },
    );
    expect(types(out)).toEqual(['ApSpent', 'AreaAttackResolved', 'ProjectileLanded']);
    expect(find(out, 'AreaAttackResolved').targets.every((t: any) => !t.hit)).toBe(true);
    expect(find(out, 'ProjectileLanded')).toMatchObject({
      space: neighbours('hex', { x: 0, y: -3 })[0],
      broken: true,
      reason: expect.stringContaining('a roll of 0'),
    });
  });

  it('the centre must be in range and the weapon must have an area', () => {
    const events = fight([hero('a', [0, 0], 'N', { weapons: [bomb, sword] }), foe('v', [0, -3])]);
    expect(
      refused(events, { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -7 } }),
    ).toMatchObject({ code: 'ARCHSOUL_OUT_OF_RANGE', field: 'centre' });
    expect(
      refused(events, { type: 'AreaAttack', attackerId: 'a', weaponId: 'sword', centre: { x: 0, y: -1 } }),
    ).toMatchObject({ code: 'ARCHSOUL_NOT_AN_AREA_WEAPON', field: 'weaponId' });
  });

  it('S34: a technological elemental area attack provokes no reactive attack, as the same weapon’s Attack does not (Reactive Attack: "a thrown or projectile weapon")', () => {
    const cannon = {
      id: 'cannon',
      name: 'Steam cannon',
      type: 'elemental',
      attackRoll: 1,
      damage: 3,
      accurateRange: 4,
      maximumRange: 8,
      areaRadius: 2,
    };
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [cannon] }),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -4], 'S'),
    ]);
    // v stands in reach and front arc; Precision/Ranged Weapons 4 dice: 2 successes beat w's Defense 1, damage 3 dice.
    const single = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'cannon' },
      { dice: [4, 4, 1, 2, 4, 1, 1] },
    );
    expect(types(single)).toEqual(['ApSpent', 'ExchangeResolved', 'WoundsApplied']);
    const area = exact(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'cannon', centre: { x: 0, y: -4 } },
      { dice: [4, 4, 1, 2, 4, 1, 1] },
    );
    expect(types(area)).toEqual(['ApSpent', 'AreaAttackResolved', 'WoundsApplied']);
    expect(find(area, 'WoundsApplied')).toMatchObject({ combatantId: 'w', damage: 1 });
    // A bomb (thrown) still provokes: "Making a ranged attack with a thrown or projectile weapon".
    const thrown = fight([
      hero('a', [0, 0], 'N', { weapons: [bomb] }),
      foe('v', [0, -1], 'S'),
      foe('w', [0, -4], 'S'),
    ]);
    expect(
      types(
        exact(thrown, { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -4 } }),
      ),
    ).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
  });

  it('S34/S37: a heavy improvised area weapon is too heavy at an Athletics difference of 0, and caps Athletics in its attack roll', () => {
    const keg = {
      id: 'keg',
      name: 'Powder keg',
      type: 'thrown',
      weightLb: 200,
      liftingAthletics: 2,
      heavy: true,
      accurateRange: 3,
      maximumRange: 6,
      areaRadius: 2,
    };
    const tooHeavy = fight([hero('a', [0, 0], 'N', { weapons: [keg] }), foe('w', [0, -3], 'S')]);
    expect(
      refused(tooHeavy, { type: 'AreaAttack', attackerId: 'a', weaponId: 'keg', centre: { x: 0, y: -3 } }),
    ).toMatchObject({ code: 'ARCHSOUL_TOO_HEAVY', field: 'weaponId' });
    // Athletics 4 against the keg's 2: difference 2, Attribute Maximum 3: Athletics/Primitive Attacks is 3 + 1 dice.
    // Nobody stands in the area, so no target's difficulty is recounted, but the roll takes every modifier that needs
    // no target: 4 + 1 (improvised) + 1 (the row's difficulty) + 1 (oversized throw) + 1 (the row's accurate throw range,
    // 4 m = 2 spaces; the centre is 3 away) = 8: difficulty 6, two dice removed (S1), 2 of the 4 rolled.
    const lifted = fight([
      hero('a', [0, 0], 'N', { weapons: [keg], attributes: { ...unarmed.attributes, athletics: 4 } }),
      foe('w', [3, -3], 'S'),
    ]);
    const out = exact(
      lifted,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'keg', centre: { x: 0, y: -3 } },
      { dice: [6, 6] },
    );
    expect(find(out, 'AreaAttackResolved').attack).toMatchObject({
      pool: 4,
      difficulty: 6,
      removed: 2,
      successes: 2,
    });
  });
});

describe('S48: "attack with a weapon" while grappled (archsoul.txt: Being Grappled)', () => {
  const javelin = {
    id: 'javelin',
    name: 'Javelin',
    type: 'thrown',
    damage: 2,
    accurateRange: 3,
    maximumRange: 6,
  };
  const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
  /** v (first in initiative) grabs a from behind; a's turn opens next. */
  const held = () => {
    const events = fight([
      foe('v', [0, -1], 'S'),
      hero('a', [0, 0], 'S', {
        weapons: [sword, javelin, rend],
        skills: { primitiveAttacks: 1, soulCasting: 2, resolve: 1 },
      }),
      foe('w', [0, -4], 'S'),
    ]);
    return then(
      then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] }),
      { type: 'EndTurn', combatantId: 'v' },
    );
  };

  it('S48: throwing an item at a target is a weapon attack and is refused; soul magic is not, and takes the grapple roll', () => {
    const events = held();
    expect(
      refused(events, { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'w' }),
    ).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'itemId' });
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'sword' }),
    ).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'weaponId' });
    // Grapple roll 2 against 0 (a takes control), then Rending 3 dice → 3 against w's Soulpower/Resolve 0: a hit; the GM applies its effect (S24).
    const soul = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'w', weaponId: 'rend' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 4, 4, 1, 1] },
    );
    expect(types(soul)).toEqual(['GrappleRolled', 'GrappleControlChanged', 'ApSpent', 'ExchangeResolved']);
    expect(find(soul, 'ExchangeResolved')).toMatchObject({ attackType: 'soul', hit: true });
  });
});

describe('S27: a grapple Throw is an attack (archsoul.txt: Quick Attack, Throw)', () => {
  it('S27: after a Quick Attack the grapple Throw is refused like the grapple Attack', () => {
    let events = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    // S102: the Grab was an attack with the fist, so its Quick Attack waits for a's next turn.
    events = ['a', 'v'].reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);
    events = then(events, { type: 'StartRound' });
    // The unarmed Quick Attack takes the grapple roll first (S33), then misses: 1 success against Defense 1.
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', special: 'quick' },
      { dice: [4, 4, 1, 1, 1, 1, 4, 2, 3] },
    );
    expect(refused(events, { type: 'GrappleThrow', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
      field: 'type',
    });
    expect(refused(events, { type: 'GrappleAttack', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
    });
  });
});

describe('S33: Escape while knocked down stands up (archsoul.txt: Escape; Reactive Attack: "Standing up from a prone position")', () => {
  it('S33: an Escape while knocked down stands up, and a foe in reach and front arc may react to the standing up first', () => {
    let events = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N'), foe('w', [0, 1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    events = ['a', 'v', 'w'].reduce((e, id) => then(e, { type: 'EndTurn', combatantId: id }), events);
    events = then(then(events, { type: 'StartRound' }), {
      type: 'ApplyCondition',
      combatantId: 'a',
      condition: 'prone',
    });
    const escape = exact(
      events,
      { type: 'Escape', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 1, 1, 1] },
    );
    expect(types(escape)).toEqual([
      'ApSpent',
      'GrappleRolled',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(find(escape, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'standUp',
      reactorIds: ['w'],
      action: { type: 'StandUp' },
    });
    events = then([...events, ...escape], { type: 'DeclineReactiveAttack', combatantId: 'w' });
    const stood = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(types(stood)).toEqual(['ActionResumed', 'ConditionRemoved']);
    const s = stateOf([...events, ...stood]);
    expect(s.combatants.a.conditions.map((k) => k.condition)).toEqual(['grappled']);
    expect(s.grapples).toHaveLength(1);
  });
});

describe('S32: Hold Firm needs a front arc (archsoul.txt: Hold Firm; Being Grappled: “You also do not have a front arc while grappled”)', () => {
  it('S32/S33: a grappled combatant cannot Hold Firm; refused before any grapple roll, nothing spent', () => {
    // Given a holding v in a grapple (a's unarmed 4,4,1 → 2 against v's 4,1,1 → 1), in a's round-2 turn.
    let events = then(
      fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      { dice: [4, 4, 1, 4, 1, 1] },
    );
    events = then(endRoundFor(events, ['a', 'v']), { type: 'StartRound' });
    expect(stateOf(events).combatants.a).toMatchObject({ ap: 3, inTurn: true });
    // When a tries to Hold Firm (no dice given: no grapple roll is asked for), then it is refused.
    expect(refused(events, { type: 'HoldFirm', combatantId: 'a' })).toMatchObject({
      code: 'ARCHSOUL_NO_FRONT_ARC',
      field: 'combatantId',
    });
  });
});

describe('Area of Effect Attacks: “A radius of 4 meters will hit all of the spaces that a 2 meter radius would hit, as well as all spaces immediately adjacent to that area” (archsoul.txt: Area of Effect Attacks, RULINGS.md S7, S14)', () => {
  const bomb = (areaRadius: number) => ({
    id: `bomb${areaRadius}`,
    name: `Bomb (${areaRadius} m)`,
    type: 'thrown',
    damage: 3,
    accurateRange: 3,
    maximumRange: 6,
    areaRadius,
  });
  const spacesOf = (grid: 'hex' | 'square', radius: number) =>
    find(
      exact(
        fight([hero('a', [0, 0], 'N', { weapons: [bomb(radius)] }), foe('v', [0, -6])], { map: { grid } }),
        { type: 'AreaAttack', attackerId: 'a', weaponId: `bomb${radius}`, centre: { x: 0, y: -3 } },
        { dice: [4, 2, 3] },
      ),
      'AreaAttackResolved',
    ).spaces as { x: number; y: number }[];
  const key = (s: { x: number; y: number }) => `${s.x},${s.y}`;

  it.each([
    ['hex', 7, 19],
    ['square', 9, 25],
  ] as const)(
    'on a %s grid 2 m hits %i spaces and 4 m hits %i: those and every space adjacent to them',
    (grid, two, four) => {
      const small = spacesOf(grid, 2);
      const large = spacesOf(grid, 4);
      expect([small.length, large.length]).toEqual([two, four]);
      // Hex: 1 + 6 = 7, then the ring of 12 around them = 19. Square: 3 × 3 = 9, then 5 × 5 = 25.
      const grown = new Set([...small, ...small.flatMap((s) => neighbours(grid, s))].map(key));
      expect(new Set(large.map(key))).toEqual(grown);
    },
  );
});

describe('S56: an unarmed Cleave (archsoul.txt: Unarmed, Cleave, Being Grappled)', () => {
  const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 2, handling: 'regular' };
  const cleave = {
    type: 'Attack',
    attackerId: 'a',
    weaponId: 'claws',
    cleave: {
      spaces: [
        { x: 0, y: -1 },
        { x: 1, y: -1 },
      ],
    },
  };

  it('S56: unarmed attacks count as melee weapon attacks for maneuvers, so non-light claws may Cleave', () => {
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [claws] }),
      foe('v', [0, -1]),
      foe('w', [1, -1]),
    ]);
    // Precision 2 + Primitive Attacks 1 = 3 dice at 4 + 1 (Cleave): 2 successes beat both Defenses of 1.
    // Damage Athletics 2 + Unarmed damage 2 = 4 dice at 4 + 1: 2 successes, one roll for both.
    const out = exact(events, cleave, { dice: [5, 5, 1, 5, 5, 1, 1] });
    expect(types(out)).toEqual(['ApSpent', 'AreaAttackResolved', 'WoundsApplied', 'WoundsApplied']);
    expect(find(out, 'AreaAttackResolved')).toMatchObject({ action: 'cleave', weaponId: 'claws' });
    expect(find(out, 'WoundsApplied')).toMatchObject({ damage: 2, damageRoll: { difficulty: 5 } });
  });

  it('S56/S22: an unarmed Cleave is still an unarmed attack: metal armour on the limb adds 1 to the damage each target takes', () => {
    // Unarmed: "The damage roll is increased by 1 if you are wearing metal armor on the limb you are attacking with".
    const events = fight([
      hero('a', [0, 0], 'N', { weapons: [claws], metalGauntlets: true }),
      foe('v', [0, -1]),
      foe('w', [1, -1]),
    ]);
    // As above: 2 successes hit both; the one damage roll (4 dice at 5) has 2 successes, +1 for the gauntlets: 3 each.
    const out = exact(events, cleave, { dice: [5, 5, 1, 5, 5, 1, 1] });
    const wounds = out.filter((e) => e.type === 'WoundsApplied').map((e) => e.data);
    expect(wounds).toMatchObject([
      { combatantId: 'v', bonus: 1, damage: 3, hp: 7 },
      { combatantId: 'w', bonus: 1, damage: 3, hp: 7 },
    ]);
    // The GM's limbArmoured names the limb, as for any unarmed Attack: bare claws deal the roll's 2.
    const bare = exact(events, { ...cleave, limbArmoured: false }, { dice: [5, 5, 1, 5, 5, 1, 1] });
    expect(find(bare, 'WoundsApplied')).toMatchObject({ bonus: 0, damage: 2 });
  });

  it('S56: a grappled combatant’s unarmed Cleave is not an attack with a weapon: it takes the grapple roll (S48)', () => {
    let events = fight([
      foe('v', [0, -1], 'S'),
      hero('a', [0, 0], 'S', { weapons: [claws, sword] }),
      foe('w', [1, -1], 'S'),
    ]);
    events = then(events, { type: 'Grab', combatantId: 'v', targetId: 'a' }, { dice: [4, 4, 1, 4, 1, 1] });
    events = then(events, { type: 'EndTurn', combatantId: 'v' });
    // Grapple roll: a's 3 unarmed dice, 2 successes, against v's 0: a takes control; then the Cleave as above.
    const out = exact(events, cleave, { dice: [4, 4, 1, 1, 1, 1, 5, 5, 1, 5, 5, 1, 1] });
    expect(types(out).slice(0, 4)).toEqual([
      'GrappleRolled',
      'GrappleControlChanged',
      'ApSpent',
      'AreaAttackResolved',
    ]);
    expect(
      refused(events, { ...cleave, weaponId: 'sword', cleave: { spaces: [{ x: 0, y: -1 }] } }),
    ).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'weaponId' });
  });
});
