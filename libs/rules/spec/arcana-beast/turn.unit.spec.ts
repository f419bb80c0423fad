import { arcanaBeast } from '../../src/arcana-beast';
import { given } from '../given';
import { close, exact, fight, find, joined, party, refused, stateOf, then, types, wild } from './helpers';
import { fightStarted, TEST_COMMITMENT, TEST_SEED } from '../given';

describe('arcana-beast.txt: Initiative & Turn Order (RULINGS.md A5, A15, A29)', () => {
  const setup = [fightStarted('arcana-beast'), ...party.map(joined)];

  it('"Roll Opposed Test using Arcana Beast\'s Initiative (= Agility)": only beasts roll, highest successes first, each Binder right after its beast', () => {
    // Join order ember, pip, wolf, wolf2 roll Agility 2 (d8), 3 (d6), 2, 2.
    const out = exact(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    const rolled = find(out, 'InitiativeRolled');
    expect(rolled.rolls.map((r: { combatantId: string; total: number }) => [r.combatantId, r.total])).toEqual(
      [
        ['ember', 2],
        ['pip', 3],
        ['wolf', 0],
        ['wolf2', 1],
      ],
    );
    expect(rolled.order).toEqual(['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf']);
  });

  it('"Ties: GM decides or calls for another roll": a tie opens a pending GM decision answered by SetInitiative or RerollInitiative', () => {
    const tied = then(setup, { type: 'RollInitiative' }, { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4] });
    expect(stateOf(tied).pending).toMatchObject({
      kind: 'initiativeTie',
      awaiting: 'gm',
      detail: { ties: [['ember', 'pip']] },
    });
    expect(refused(tied, { type: 'StartRound' })).toMatchObject({
      code: 'PENDING_DECISION',
      message: 'RULINGS.md C4: waiting for gm to answer initiativeTie with SetInitiative or RerollInitiative',
    });
    expect(refused(tied, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' }).message).toBe(
      'RULINGS.md C4: waiting for gm to answer initiativeTie with SetInitiative or RerollInitiative',
    );
    const rerolled = exact(tied, { type: 'RerollInitiative' }, { dice: [1, 1, 5, 1, 1] });
    expect(find(rerolled, 'InitiativeTieRerolled')).toMatchObject({
      order: ['wolf2', 'pip', 'bo', 'ember', 'ash', 'wolf'],
      unresolvedTies: [],
    });
    expect(stateOf([...tied, ...rerolled]).pending).toBeUndefined();
  });

  it('A5: the option initiativeTies: reroll rerolls the tied in advance, faces in rerollFaces', () => {
    const opt = [
      { ...setup[0], data: { ...(setup[0].data as object), options: { initiativeTies: 'reroll' } } },
      ...setup.slice(1),
    ];
    const out = exact(
      opt,
      { type: 'RollInitiative' },
      { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4], rerollFaces: [8, 8, 1, 1, 1] },
    );
    expect(find(out, 'InitiativeRolled')).toMatchObject({
      order: ['wolf2', 'ember', 'ash', 'pip', 'bo', 'wolf'],
      unresolvedTies: [],
    });
  });

  it('A31: a tie reroll is the same initiative roll again — a surprised beast rerolls with Setback (option initiativeTies: reroll)', () => {
    const opt = [
      { ...setup[0], data: { ...(setup[0].data as object), options: { initiativeTies: 'reroll' } } },
      ...setup.slice(1),
    ];
    // Ember 2 on d8 (2), Pip 3 (1), the surprised wolf 2 + the Setback die (6 dropped: 1), Grey Wolf 2 (0): Pip and the wolf tie.
    const out = exact(
      opt,
      { type: 'RollInitiative', surprised: ['wolf'] },
      { dice: [4, 4, 4, 1, 1, 6, 4, 1, 1, 1], rerollFaces: [1, 1, 1, 6, 4, 1] },
    );
    const rolled = find(out, 'InitiativeRolled');
    const reroll = rolled.rolls.find(
      (r: { combatantId: string; tieReroll?: number }) => r.combatantId === 'wolf' && r.tieReroll === 1,
    );
    expect(reroll).toMatchObject({
      surprised: true,
      total: 1,
      pool: { dice: 2, edge: 'setback', setbackSources: ['Surprised'], dropped: { face: 6 }, kept: [4, 1] },
    });
    expect(rolled).toMatchObject({
      order: ['ember', 'ash', 'wolf', 'pip', 'bo', 'wolf2'],
      unresolvedTies: [],
    });
  });

  it('A31: the GM’s RerollInitiative keeps a surprised beast’s Setback', () => {
    const tied = then(
      setup,
      { type: 'RollInitiative', surprised: ['wolf'] },
      { dice: [4, 4, 4, 1, 1, 6, 4, 1, 1, 1] },
    );
    expect(stateOf(tied).pending).toMatchObject({
      kind: 'initiativeTie',
      detail: { ties: [['pip', 'wolf']] },
    });
    const out = exact(tied, { type: 'RerollInitiative' }, { dice: [1, 1, 1, 6, 4, 1] });
    const rerolled = find(out, 'InitiativeTieRerolled');
    expect(rerolled.rolls[1]).toMatchObject({
      combatantId: 'wolf',
      surprised: true,
      pool: { edge: 'setback', kept: [4, 1] },
    });
    expect(rerolled.order).toEqual(['ember', 'ash', 'wolf', 'pip', 'bo', 'wolf2']);
  });

  it('A31: a surprised Binder surprises its shared turn — its beast rolls initiative with Setback', () => {
    const out = exact(
      setup,
      { type: 'RollInitiative', surprised: ['ash'] },
      { dice: [8, 4, 1, 5, 6, 6, 1, 1, 4, 1] },
    );
    const ember = find(out, 'InitiativeRolled').rolls[0];
    expect(ember).toMatchObject({
      combatantId: 'ember',
      surprised: true,
      total: 1,
      pool: { edge: 'setback', dropped: { face: 8 }, kept: [4, 1] },
    });
  });

  it('A5: the option initiativeTies is gm or reroll; anything else is refused naming it', () => {
    const v = given(arcanaBeast, [])
      .when({
        type: 'StartFight',
        dice: { mode: 'manual', commitment: TEST_COMMITMENT },
        options: { initiativeTies: 'rerol' },
      })
      .violation();
    expect(v).toMatchObject({ code: 'INVALID_FIELD', field: 'options.initiativeTies' });
    expect(
      given(arcanaBeast, [])
        .when({
          type: 'StartFight',
          dice: { mode: 'manual', commitment: TEST_COMMITMENT },
          options: { initiativeTies: 'gm' },
        })
        .events(),
    ).toHaveLength(1);
  });

  it('"Turn Order: remains fixed": a late joiner is slotted in; the order the GM set for the others does not change', () => {
    let e = then(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    e = then(e, { type: 'SetInitiative', order: ['wolf', 'ember', 'ash', 'pip', 'bo', 'wolf2'] });
    const late = {
      id: 'wolf3',
      name: 'Wolf 3',
      side: 'wild',
      sheet: {
        kind: 'beast',
        stats: { brawn: 2, agility: 4, endurance: 2, spirit: 2, technique: 2 },
        hp: 8,
        stamina: 1,
        stage: 1,
        stages: [{ stage: 1 }],
      },
    };
    // Four successes: more than anyone, so the new wolf goes first.
    const out = exact(e, { type: 'AddCombatant', combatant: late }, { dice: [4, 4, 4, 4] });
    expect(find(out, 'InitiativeRolled')).toMatchObject({
      order: ['wolf3', 'wolf', 'ember', 'ash', 'pip', 'bo', 'wolf2'],
      unresolvedTies: [],
    });
  });

  it('A32: a late joiner goes before the first beast with fewer successes; tied with the beast before that slot, the GM decides', () => {
    const rolled = then(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    const wolf3 = (agility: number) => ({
      id: 'wolf3',
      name: 'Wolf 3',
      side: 'wild',
      sheet: {
        kind: 'beast',
        stats: { brawn: 2, agility, endurance: 2, spirit: 2, technique: 2 },
        hp: 8,
        stamina: 1,
        stage: 1,
        stages: [{ stage: 1 }],
      },
    });
    // pip 3, ember 2, wolf2 1, wolf 0 successes. Two successes: before wolf2, right after ember's Binder, tied with ember.
    const tied = exact(rolled, { type: 'AddCombatant', combatant: wolf3(2) }, { dice: [4, 4] });
    expect(find(tied, 'InitiativeRolled').order).toEqual([
      'pip',
      'bo',
      'ember',
      'ash',
      'wolf3',
      'wolf2',
      'wolf',
    ]);
    expect(stateOf([...rolled, ...tied]).pending).toMatchObject({
      kind: 'initiativeTie',
      awaiting: 'gm',
      detail: { ties: [['ember', 'wolf3']] },
    });
    // Three successes: before ember, right after pip's Binder, tied with pip. Four: first, with no one before it.
    const withPip = exact(rolled, { type: 'AddCombatant', combatant: wolf3(3) }, { dice: [4, 4, 4] });
    expect(find(withPip, 'InitiativeRolled').order).toEqual([
      'pip',
      'bo',
      'wolf3',
      'ember',
      'ash',
      'wolf2',
      'wolf',
    ]);
    expect(stateOf([...rolled, ...withPip]).pending).toMatchObject({
      kind: 'initiativeTie',
      detail: { ties: [['pip', 'wolf3']] },
    });
    const first = exact(rolled, { type: 'AddCombatant', combatant: wolf3(4) }, { dice: [4, 4, 4, 4] });
    expect(find(first, 'InitiativeRolled').order).toEqual([
      'wolf3',
      'pip',
      'bo',
      'ember',
      'ash',
      'wolf2',
      'wolf',
    ]);
    expect(stateOf([...rolled, ...first]).pending).toBeUndefined();
  });

  it('A32: once rolled, a second RollInitiative is refused; the GM may still set the order', () => {
    const rolled = then(setup, { type: 'RollInitiative' }, { dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] });
    expect(refused(rolled, { type: 'RollInitiative' })).toMatchObject({
      code: 'INITIATIVE_ALREADY_SET',
      field: 'type',
    });
    const order = ['wolf', 'wolf2', 'ember', 'ash', 'pip', 'bo'];
    expect(find(exact(rolled, { type: 'SetInitiative', order }), 'InitiativeSet')).toMatchObject({ order });
  });

  it('"Surprised characters roll with Setback"', () => {
    const out = exact(
      setup,
      { type: 'RollInitiative', surprised: ['wolf'] },
      { dice: [4, 5, 6, 6, 6, 6, 6, 1, 4, 1] },
    );
    const wolf = find(out, 'InitiativeRolled').rolls.find(
      (r: { combatantId: string }) => r.combatantId === 'wolf',
    );
    expect(wolf).toMatchObject({
      surprised: true,
      total: 1,
      pool: { edge: 'setback', roll: { faces: [6, 6, 1] }, kept: [6, 1] },
    });
  });

  it('"Beast Binder Placement: shares turn with Arcana Beast": the Binder has no turn of its own', () => {
    let e = fight(party);
    e = then(e, { type: 'StartActivation' });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', binderId: 'ash' });
    e = then(e, { type: 'EndActivation' });
    e = then(e, { type: 'StartActivation' });
    expect(stateOf(e).activeId).toBe('pip');
    expect(refused(fight(party), { type: 'StartActivation', combatantId: 'ash' }).code).toBe(
      'COMBATANT_CANNOT_ACT',
    );
  });

  it('"command first, then action": a Command after the Action is refused', () => {
    const acted = then(fight(party, 'ember'), { type: 'Defend', combatantId: 'ember' });
    const v = refused(acted, { type: 'Direct', combatantId: 'ash' });
    expect(v).toMatchObject({ code: 'ARCANA_COMMAND_AFTER_ACTION', field: 'type' });
    expect(v.message).toMatch(/^arcana-beast.txt: Beast Binder Commands/);
  });

  it('"the beastbinder Commands before the Arcana Beast acts" (A15): the free band move or a Reposition is acting; a Command after it is refused', () => {
    const start = fight(party, 'ember');
    const moved = then(start, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(refused(moved, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMMAND_AFTER_ACTION',
      field: 'type',
      message:
        'arcana-beast.txt: Beast Binder Commands: "On their shared turn, the beastbinder Commands before the Arcana Beast acts"; ember already used its free band move',
    });
    const repositioned = then(start, {
      type: 'Reposition',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'close',
    });
    expect(refused(repositioned, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_COMMAND_AFTER_ACTION',
      message: expect.stringMatching(/; ember already took reposition$/),
    });
    // Command first, then the free move.
    const directed = then(start, { type: 'Direct', combatantId: 'ash' });
    expect(
      types(exact(directed, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' })),
    ).toEqual(['Moved']);
  });

  it('A38: "Evolving is immediate – does not take an Action": an Evolve is not the beast acting, so the Command may follow it', () => {
    const on = then(fight(party, 'ember'), {
      type: 'SetTrigger',
      combatantId: 'ember',
      stage: 3,
      active: true,
    });
    const evolved = then(on, { type: 'Evolve', combatantId: 'ember' });
    expect(find(exact(evolved, { type: 'Direct', combatantId: 'ash' }), 'BinderCommanded')).toMatchObject({
      command: 'direct',
    });
  });

  /** Ember intercepted the wolf's attack on Ash last round; its own turn of the next round has begun. */
  function emberAfterIntercepting() {
    let e = close(fight(party, 'ember'), 'ember', 'wolf');
    e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: 'wolf' });
    e = then(
      e,
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: true },
      { dice: [1, 1, 1, 1, 1] },
    );
    e = then(then(e, { type: 'EndActivation' }), { type: 'EndRound' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    return e;
  }

  it('A38: an Intercept’s forfeited Action is not acting in this turn; the beast’s free band move then is', () => {
    const e = emberAfterIntercepting();
    expect(stateOf(e).turn).toMatchObject({ action: 'forfeited' });
    expect(types(exact(e, { type: 'Direct', combatantId: 'ash' }))).toEqual(['BinderCommanded']);
    const moved = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'close' });
    expect(refused(moved, { type: 'Direct', combatantId: 'ash' }).code).toBe('ARCANA_COMMAND_AFTER_ACTION');
  });

  it('"uses next Action" (A15, A22): a beast that intercepted loses its Action, not its Binder’s Command', () => {
    const e = emberAfterIntercepting();
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', action: 'forfeited' });
    // Ash's Spirit 3 on d6, Diff 1: the Dodge die waits for the next attack on Ember.
    const out = exact(e, { type: 'Encourage', combatantId: 'ash', effect: 'dodgeDie' }, { dice: [4, 1, 1] });
    expect(find(out, 'BinderCommanded')).toMatchObject({ command: 'encourage', passed: true });
    expect(refused([...e, ...out], { type: 'Defend', combatantId: 'ember' }).code).toBe('ARCANA_ACTION_USED');
  });

  it('A15: at most one Command and one Action per turn', () => {
    const commanded = then(fight(party, 'ember'), { type: 'Direct', combatantId: 'ash' });
    expect(refused(commanded, { type: 'BondSurge', combatantId: 'ash' }).code).toBe('ARCANA_COMMAND_USED');
    const acted = then(commanded, { type: 'Defend', combatantId: 'ember' });
    expect(refused(acted, { type: 'Pass', combatantId: 'ember' }).code).toBe('ARCANA_ACTION_USED');
  });

  it('"Bond Surge: Boost on ALL rolls this turn" (A15, A26): the shared turn ends when its beast is removed from the fight; its Binder’s later rolls get no Boost', () => {
    let e = then(fight(party, 'ember'), { type: 'BondSurge', combatantId: 'ash' });
    e = then(e, { type: 'RemoveCombatant', combatantId: 'ember' });
    expect(stateOf(e)).toMatchObject({ activeId: undefined, turn: undefined });
    // Ash's Spirit 3 on d6, Diff 1: three dice, no Boost die.
    const test = find(
      exact(e, { type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 1 }, { dice: [4, 1, 1] }),
      'TestRolled',
    ).test;
    expect(test).toMatchObject({ dice: 3, edge: 'none', boostSources: [], successes: 1, passed: true });
    // The next shared turn is its own.
    expect(stateOf(then(e, { type: 'StartActivation' })).turn).toMatchObject({
      beastId: 'pip',
      bondSurge: false,
    });
  });

  it('acting out of turn names the rule and the field', () => {
    expect(refused(fight(party, 'ember'), { type: 'Defend', combatantId: 'pip' })).toMatchObject({
      code: 'ARCANA_NOT_YOUR_TURN',
      field: 'combatantId',
    });
    expect(refused(fight(party, 'ember'), { type: 'Direct', combatantId: 'bo' })).toMatchObject({
      code: 'ARCANA_NOT_YOUR_TURN',
      field: 'combatantId',
    });
    expect(refused(fight(party, 'ember'), { type: 'Defend', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_NOT_A_BEAST',
    });
  });

  it('actorOf (C3, C11): a Binder’s player acts for the Binder and its beast; wild beasts are their own', () => {
    const s = stateOf(fight(party, 'ember'));
    expect(arcanaBeast.actorOf!(s, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' })).toEqual({
      combatantId: 'ash',
      field: 'attackerId',
    });
    expect(arcanaBeast.actorOf!(s, { type: 'Direct', combatantId: 'ash' })).toEqual({
      combatantId: 'ash',
      field: 'combatantId',
    });
    expect(arcanaBeast.actorOf!(s, { type: 'EndActivation' })).toEqual({ combatantId: 'ash', field: 'type' });
    expect(arcanaBeast.actorOf!(s, { type: 'Attack', attackerId: 'wolf', targetId: 'ember' })).toEqual({
      combatantId: 'wolf',
      field: 'attackerId',
    });
    expect(
      arcanaBeast.actorOf!(s, { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' }),
    ).toBeUndefined();
  });

  it('a finished fight refuses every command with FIGHT_ENDED', () => {
    const ended = then(fight(party, 'ember'), { type: 'EndFight', revealedSeed: TEST_SEED });
    const commands = [
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
      { type: 'Direct', combatantId: 'ash' },
      { type: 'Evolve', combatantId: 'ember' },
      { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
      { type: 'RollTest', combatantId: 'ember', stat: 'brawn', difficulty: 1 },
      { type: 'EndScene' },
      { type: 'EndActivation' },
      { type: 'EndFight', revealedSeed: TEST_SEED },
    ];
    for (const c of commands) expect(refused(ended, c)).toMatchObject({ code: 'FIGHT_ENDED', field: 'type' });
  });

  it('a Binder naming a beast another Binder holds is refused', () => {
    const v = given(arcanaBeast, setup)
      .when({
        type: 'AddCombatant',
        combatant: { id: 'cy', name: 'Cy', side: 'heroes', sheet: party[1].sheet },
      })
      .violation();
    expect(v.code).toBe('ARCANA_BEAST_ALREADY_BOUND');
  });

  it('the view shows HP, Stamina, Stage, die size, bands, uses, turn and gauge', () => {
    const v = arcanaBeast.view(stateOf(close(fight(party, 'ember'), 'ember', 'wolf'))) as any;
    const ember = v.combatants.find((c: { id: string }) => c.id === 'ember');
    expect(ember).toMatchObject({
      hp: 12,
      maxHp: 12,
      stamina: 2,
      stage: 2,
      dieSides: 8,
      baseDamage: 5,
      binderId: 'ash',
      bands: { ash: 'close', wolf: 'close', wolf2: 'near' },
      specialAttacks: [{ id: 'inferno', usesLeft: 1 }],
      zeroPower: { used: false, triggerActive: false },
    });
    expect(v.combatants.find((c: { id: string }) => c.id === 'ash')).toMatchObject({
      kind: 'binder',
      dieSides: 6,
      bands: { wolf: 'close' },
      inventory: [
        { id: 'potion', quantityLeft: 1 },
        { id: 'salve', quantityLeft: 1 },
      ],
    });
    expect(v).toMatchObject({ criticalGauge: 0, turn: { beastId: 'ember', binderId: 'ash' }, pending: null });
    expect(types(exact(fight(party, 'ember'), { type: 'Pass', combatantId: 'ember' }))).toEqual([
      'ActionTaken',
    ]);
  });
});

describe('C11: a removed combatant’s id is never given to a newcomer (A14, A15, A20)', () => {
  const again = (id: string, sheet: Record<string, unknown>, side: string) => ({
    type: 'AddCombatant',
    combatant: { id, name: `${id} again`, side, sheet },
  });

  it('given a wolf with a band, difficult terrain and an open combo removed, when the GM adds a combatant with its id, then it is refused', () => {
    let e = then(fight(party, 'ember'), {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'close',
      difficultTerrain: 2,
    });
    // Ember's Claw on the wolf opens the heroes' combo chain on it (A20).
    e = then(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' },
      { dice: [8, 1, 1, 1, 1, 6, 4] },
    );
    e = then(e, { type: 'RemoveCombatant', combatantId: 'wolf' });
    const s = stateOf(e);
    // What the fight keeps under the wolf's id, which a newcomer under it would inherit.
    expect(Object.keys(s.bands).filter((k) => k.includes('wolf'))).not.toEqual([]);
    expect(Object.keys(s.terrain).filter((k) => k.includes('wolf'))).not.toEqual([]);
    expect(Object.keys(s.combos)).toContain('wolf');
    expect(refused(e, again('wolf', wild(), 'wild'), { dice: [4, 4, 4, 4] })).toMatchObject({
      code: 'COMBATANT_ID_TAKEN',
      field: 'combatant.id',
      message: expect.stringMatching(/wolf belonged to a combatant removed from this fight/),
    });
  });

  it('A21, A35: once its Binder has left the fight, a beast’s turn is its own — TurnStarted names no Binder, and the view’s turn none', () => {
    let e = then(fight(party), { type: 'RemoveCombatant', combatantId: 'ash' });
    e = then(e, { type: 'StartActivation' });
    expect(e[e.length - 1]).toEqual({ type: 'TurnStarted', data: { combatantId: 'ember' } });
    expect(stateOf(e).turn).toMatchObject({ beastId: 'ember', binderId: undefined });
  });

  it('given a bound beast removed, when the GM adds a beast with its id, then it is refused: it would have been bound to the old Binder', () => {
    const e = then(fight(party, 'ember'), { type: 'RemoveCombatant', combatantId: 'ember' });
    expect(stateOf(e).binderOf).toMatchObject({ ember: 'ash' });
    expect(refused(e, again('ember', wild(), 'wild'), { dice: [4, 4, 4, 4] })).toMatchObject({
      code: 'COMBATANT_ID_TAKEN',
      field: 'combatant.id',
    });
  });
});
