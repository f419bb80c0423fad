import { fightStarted, given, TEST_SEED } from '../given';
import { DiceSource, Roll } from '../../src/dice/roll';
import { SeededDice } from '../../src/dice/seeded';
import { narateer } from '../../src/narateer';
import { fight, mira, orin } from '../narateer/helpers';
import { RuleEvent } from '../../src/core/types';
import { answersTo, waitingFor } from '../../src/core/lifecycle';
import * as ab from '../arcana-beast/helpers';

const sheet = (agility: number) => ({
  vitals: { strength: 2, agility, resilience: 2 },
  skills: { melee: 1 },
  maxVitality: 6,
  maxAD: 4,
  maxMD: 1,
});
const joined = (id: string, agility = 2): RuleEvent => ({
  type: 'CombatantJoined',
  data: { id, name: id, side: 'default', sheet: sheet(agility) },
});
const start = [fightStarted('narateer'), joined('a', 3), joined('b', 2)];

describe('fight lifecycle', () => {
  it('StartFight records the dice commitment and one CombatantJoined per sheet', () => {
    const events = given(narateer, [])
      .when({
        type: 'StartFight',
        name: 'Duel',
        dice: { mode: 'manual', commitment: 'a'.repeat(64) },
        combatants: [
          { name: 'Mira', sheet: sheet(3) },
          { id: 'orin', name: 'Orin', sheet: sheet(2) },
        ],
      })
      .events();
    expect(events.map((e) => e.type)).toEqual(['FightStarted', 'CombatantJoined', 'CombatantJoined']);
    expect(events[1].data).toMatchObject({ id: 'c1', name: 'Mira' });
    expect(events[2].data).toMatchObject({ id: 'orin' });
  });

  it('combatant ids are the fight’s own: "toString" or "constructor" is free, a joined id is taken', () => {
    const added = given(narateer, start)
      .when({ type: 'AddCombatant', combatant: { id: 'toString', name: 'T', sheet: sheet(2) } })
      .events();
    expect(added[0].data).toMatchObject({ id: 'toString' });
    const taken = given(narateer, start)
      .when({ type: 'AddCombatant', combatant: { id: 'a', name: 'A', sheet: sheet(2) } })
      .violation();
    expect(taken).toMatchObject({ code: 'COMBATANT_ID_TAKEN', field: 'combatant.id' });
    expect(
      given(narateer, start).when({ type: 'RemoveCombatant', combatantId: 'constructor' }).violation().code,
    ).toBe('COMBATANT_NOT_FOUND');
  });

  it('a combatant id or side __proto__ is refused naming the field, on StartFight and AddCombatant alike: views are keyed by id and side, and JSON readers that build objects by assignment drop that key', () => {
    const refused = (combatant: Record<string, unknown>) =>
      given(narateer, start).when({ type: 'AddCombatant', combatant }).violation();
    expect(refused({ id: '__proto__', name: 'P', sheet: sheet(2) })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'combatant.id',
    });
    expect(refused({ id: 'p', name: 'P', side: '__proto__', sheet: sheet(2) })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'combatant.side',
    });
    const started = given(narateer, [])
      .when({
        type: 'StartFight',
        dice: { mode: 'manual', commitment: 'a'.repeat(64) },
        combatants: [
          { id: 'a', name: 'A', sheet: sheet(2) },
          { id: '__proto__', name: 'P', sheet: sheet(2) },
        ],
      })
      .violation();
    expect(started).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[1].id' });
    // Only that name: a near one is an id like any other.
    expect(
      given(narateer, start)
        .when({
          type: 'AddCombatant',
          combatant: { id: '__proto', name: 'P', side: 'proto__', sheet: sheet(2) },
        })
        .events()[0].data,
    ).toMatchObject({ id: '__proto', side: 'proto__' });
  });

  it('C11: given a removed combatant, when AddCombatant names its id, then it is refused as an id in the fight, and an id the decider picks skips it', () => {
    const removed = [...start, { type: 'CombatantRemoved', data: { combatantId: 'b' } }];
    const g = given(narateer, removed);
    expect(g.state.removed).toEqual(['b']);
    const again = g
      .when({ type: 'AddCombatant', combatant: { id: 'b', name: 'B', sheet: sheet(2) } })
      .violation();
    expect(again).toMatchObject({ code: 'COMBATANT_ID_TAKEN', field: 'combatant.id' });
    expect(again.message).toMatch(/b belonged to a combatant removed from this fight/);
    // c1 and c2 joined, c2 left: one combatant in the fight, so the pick starts at c2, which is skipped.
    const picked = [
      fightStarted('narateer'),
      joined('c1'),
      joined('c2'),
      { type: 'CombatantRemoved', data: { combatantId: 'c2' } },
    ];
    const added = given(narateer, picked)
      .when({ type: 'AddCombatant', combatant: { name: 'New', sheet: sheet(2) } })
      .events();
    expect(added[0].data).toMatchObject({ id: 'c3' });
  });

  it('C15: given a fight of 200 combatants, when AddCombatant adds another, then it is refused FIGHT_FULL; one removed makes room', () => {
    const full = [fightStarted('narateer'), ...Array.from({ length: 200 }, (_, i) => joined(`x${i}`))];
    const newcomer = { type: 'AddCombatant', combatant: { id: 'late', name: 'Late', sheet: sheet(2) } };
    expect(given(narateer, full).when(newcomer).violation()).toMatchObject({
      code: 'FIGHT_FULL',
      field: 'combatant',
    });
    const room = [...full, { type: 'CombatantRemoved', data: { combatantId: 'x7' } }];
    expect(given(narateer, room).when(newcomer).events()[0].data).toMatchObject({ id: 'late' });
    expect(given(narateer, full.slice(0, 200)).when(newcomer).events()[0].data).toMatchObject({ id: 'late' });
  });

  it('an invalid sheet is refused naming the field', () => {
    const v = given(narateer, [])
      .when({
        type: 'StartFight',
        dice: { mode: 'manual', commitment: 'a'.repeat(64) },
        combatants: [{ name: 'X', sheet: { ...sheet(2), maxVitality: 0 } }],
      })
      .violation();
    expect(v.field).toBe('combatants[0].sheet.maxVitality');
  });

  it('initiative: higher Side Roll first, ties broken by higher Agility (N4)', () => {
    // a rolls 3 dice (agility 3): faces 1,2,3 = 1 dot; b rolls 2 dice: 3,1 = 1 dot; tie → higher agility a first
    const events = given(narateer, start)
      .when({ type: 'RollInitiative' }, { dice: [1, 2, 3, 3, 1] })
      .events();
    expect(events[0].data).toMatchObject({ order: ['a', 'b'], unresolvedTies: [] });
  });

  it('a full tie opens a pending GM decision, answered by SetInitiative (C3, C4)', () => {
    const same = [fightStarted('narateer'), joined('a', 1), joined('b', 1)];
    const rolled = given(narateer, same)
      .when({ type: 'RollInitiative' }, { dice: [6, 6] })
      .events();
    const g = given(narateer, [...same, ...rolled]);
    expect(g.state.pending).toMatchObject({ kind: 'initiativeTie', awaiting: 'gm' });
    expect(g.when({ type: 'StartRound' }).violation().code).toBe('PENDING_DECISION');
    expect(g.when({ type: 'SetInitiative', order: ['b', 'a'] }).state().pending).toBeUndefined();
  });

  it('C4: a refused command names every command that answers the pending decision: its answer and those its detail.alsoAccepts names', () => {
    const offer = {
      kind: 'opportunityAttack',
      awaiting: 'g',
      answer: 'TakeOpportunityAttack',
      detail: { alsoAccepts: ['DeclineOpportunity'] },
    };
    expect(answersTo(offer)).toEqual(['TakeOpportunityAttack', 'DeclineOpportunity']);
    expect(answersTo({ kind: 'woundAllocation', awaiting: 'm', answer: 'AllocateWounds' })).toEqual([
      'AllocateWounds',
    ]);
    expect(() => waitingFor(offer)).toThrow(
      expect.objectContaining({
        code: 'PENDING_DECISION',
        field: 'type',
        message:
          'RULINGS.md C4: waiting for g to answer opportunityAttack with TakeOpportunityAttack or DeclineOpportunity',
      }),
    );
  });

  it('activations run in initiative order and the last one ends the round', () => {
    const g = given(narateer, [
      ...start,
      { type: 'InitiativeSet', data: { order: ['b', 'a'] } },
      { type: 'RoundStarted', data: { round: 1 } },
    ]);
    expect(g.when({ type: 'StartActivation' }).events()[0].data).toMatchObject({ combatantId: 'b' });
    const afterB = given(narateer, [
      ...start,
      { type: 'InitiativeSet', data: { order: ['b', 'a'] } },
      { type: 'RoundStarted', data: { round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'b' } },
      { type: 'ActivationEnded', data: { combatantId: 'b' } },
      { type: 'ActivationStarted', data: { combatantId: 'a' } },
    ]);
    expect(
      afterB
        .when({ type: 'EndActivation' })
        .events()
        .map((e) => e.type),
    ).toEqual(['ActivationEnded', 'RoundEnded']);
    expect(afterB.when({ type: 'StartActivation' }).violation().code).toBe('ACTIVATION_IN_PROGRESS');
  });

  it('C10: a tie no rule breaks waits for the GM, unless RollInitiative carries a tieBreak', () => {
    const same = [fightStarted('narateer'), joined('a', 1), joined('b', 1)];
    const tied = given(narateer, same)
      .when({ type: 'RollInitiative' }, { dice: [6, 6] })
      .events();
    expect(tied[0].data).toMatchObject({ unresolvedTies: [['a', 'b']] });
    expect(given(narateer, [...same, ...tied]).state.pending).toMatchObject({
      kind: 'initiativeTie',
      awaiting: 'gm',
      answer: 'SetInitiative',
    });
    const broken = given(narateer, same)
      .when({ type: 'RollInitiative', tieBreak: ['b', 'a'] }, { dice: [6, 6] })
      .events();
    expect(broken[0].data).toMatchObject({ order: ['b', 'a'] });
    expect(given(narateer, [...same, ...broken]).state.pending).toBeUndefined();
  });

  it('C1: every die the decider rolls is in the events it returns (sides, faces, draw), rerolls included; folding them rolls nothing', () => {
    const rolled: Roll[] = [];
    const seeded = new SeededDice({ seed: TEST_SEED, fightId: 'f1', drawsUsed: 0 });
    const dice: DiceSource = {
      roll: (count, sides) => {
        const r = seeded.roll(count, sides);
        rolled.push(r);
        return r;
      },
    };
    // Mira (melee 3) against Orin with Advantage: her pool, the reroll, and the wound's Continuation Check if any.
    const duel = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );
    const events = given(narateer, duel)
      .when(
        {
          type: 'DeclareExchange',
          attackerId: 'mira',
          targetId: 'orin',
          kind: 'melee',
          weaponId: 'sword',
          boost: 2,
          edge: 'advantage',
          response: 'none',
        },
        dice,
      )
      .events();
    const recorded: Roll[] = [];
    const collect = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(collect);
      else if (x && typeof x === 'object') {
        const o = x as Record<string, unknown>;
        if (typeof o.sides === 'number' && Array.isArray(o.faces) && typeof o.draw === 'number')
          recorded.push(o as unknown as Roll);
        else Object.values(o).forEach(collect);
      }
    };
    collect(events);
    expect(rolled.length).toBeGreaterThanOrEqual(2);
    expect(recorded.sort((x, y) => x.draw! - y.draw!)).toEqual(rolled);
    const before = rolled.length;
    events.reduce(narateer.evolve, given(narateer, duel).state);
    expect(rolled).toHaveLength(before);
  });

  it('C16: given the last activation of the round running, when RemoveCombatant takes out its combatant, then the round ends as after EndActivation', () => {
    const lastUp = [
      ...start,
      { type: 'InitiativeSet', data: { order: ['b', 'a'] } },
      { type: 'RoundStarted', data: { round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'b', round: 1 } },
      { type: 'ActivationEnded', data: { combatantId: 'b', round: 1 } },
      { type: 'ActivationStarted', data: { combatantId: 'a', round: 1 } },
    ];
    const removed = given(narateer, lastUp).when({ type: 'RemoveCombatant', combatantId: 'a' }).events();
    expect(removed.map((e) => e.type)).toEqual(['CombatantRemoved', 'RoundEnded']);
    const after = given(narateer, [...lastUp, ...removed]);
    expect(after.state).toMatchObject({ roundOpen: false, activeId: undefined, order: ['b'] });
    expect(after.when({ type: 'StartRound' }).events()[0]).toMatchObject({ data: { round: 2 } });
    // Someone still to act: the round stays open for their activation.
    const firstUp = lastUp.slice(0, 6);
    const early = given(narateer, firstUp).when({ type: 'RemoveCombatant', combatantId: 'b' }).events();
    expect(early.map((e) => e.type)).toEqual(['CombatantRemoved']);
    expect(
      given(narateer, [...firstUp, ...early])
        .when({ type: 'StartActivation' })
        .events()[0],
    ).toMatchObject({ data: { combatantId: 'a' } });
  });

  it('C16: an Arcana Beast whose turn is the round’s last leaves the fight, and the round ends with it', () => {
    const duel = [
      { id: 'pip', sheet: ab.party[2].sheet, side: 'heroes' },
      { id: 'wolf', sheet: ab.wild(), side: 'wild' },
    ];
    const events = ab.then(ab.then(ab.fight(duel, 'pip'), { type: 'EndActivation' }), {
      type: 'StartActivation',
    });
    expect(ab.exact(events, { type: 'RemoveCombatant', combatantId: 'wolf' }).map((e) => e.type)).toEqual([
      'CombatantRemoved',
      'RoundEnded',
    ]);
  });

  it('C17: given a fight whose combatants are on sides heroes and bandits, when EndFight names side martians, then it is refused SIDE_NOT_FOUND naming winnerSide and listing the sides; heroes, or no winner, ends the fight', () => {
    const sided = [
      fightStarted('narateer'),
      { ...joined('a', 3), data: { ...joined('a', 3).data, side: 'heroes' } },
      { ...joined('b', 2), data: { ...joined('b', 2).data, side: 'bandits' } },
    ];
    const seed = TEST_SEED;
    const refused = given(narateer, sided).when({
      type: 'EndFight',
      revealedSeed: seed,
      winnerSide: 'martians',
    });
    expect(refused.violation()).toMatchObject({ code: 'SIDE_NOT_FOUND', field: 'winnerSide' });
    expect(refused.violation().message).toMatch(/heroes, bandits/);
    expect(
      given(narateer, sided).when({ type: 'EndFight', revealedSeed: seed, winnerSide: 'heroes' }).events()[0]
        .data,
    ).toMatchObject({ winnerSide: 'heroes' });
    expect(
      given(narateer, sided).when({ type: 'EndFight', revealedSeed: seed }).events()[0].data.winnerSide,
    ).toBeUndefined();
  });

  it('EndFight reveals a seed that matches the commitment, and nothing is accepted after', () => {
    expect(given(narateer, start).when({ type: 'EndFight', revealedSeed: 'wrong' }).violation().code).toBe(
      'DICE_SEED_MISMATCH',
    );
    const ended = given(narateer, start).when({ type: 'EndFight', revealedSeed: TEST_SEED }).events();
    expect(ended[0].data).toMatchObject({ seed: TEST_SEED });
    expect(
      given(narateer, [...start, ...ended])
        .when({ type: 'StartRound' })
        .violation().code,
    ).toBe('FIGHT_ENDED');
  });
});
