/**
 * arcana-beast.txt read from its first line to its last: for each statement with a number, a condition, a limit, a
 * table row or an exception that no other spec checks with concrete numbers (or checks on its easy branch only), a
 * case worked out by hand from the text, with manual dice (every face given, in pool order: the attack pool, then the
 * Dodge pool; a Boost or Setback die follows its pool's dice). Each comment traces a number to the line it comes from.
 */
import { RuleEvent } from '../../src/core/types';
import { view } from '../../src/arcana-beast/view';
import { fightStarted } from '../given';
import {
  ash,
  attack,
  beast,
  binder,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  Fighter,
  find,
  joined,
  next,
  party,
  pip,
  refused,
  stateOf,
  then,
  types,
  wild,
  wolf,
} from './helpers';

const stages04 = [0, 1, 2, 3, 4].map((stage) => ({ stage }));

/** Ends the running turn and, if it is still open, the round; starts the next round and `id`'s turn in it. */
function nextRound(e: RuleEvent[], id: string): RuleEvent[] {
  let events = stateOf(e).activeId ? end(e) : e;
  if (stateOf(events).roundOpen) events = then(events, { type: 'EndRound' });
  return then(then(events, { type: 'StartRound' }), { type: 'StartActivation', combatantId: id });
}

const viewOf = (e: RuleEvent[]) => view(stateOf(e));
const combatantView = (e: RuleEvent[], id: string) => {
  const c = viewOf(e).combatants.find((x) => x.id === id);
  if (!c) throw new Error(`no ${id} in the view`);
  return c;
};
const beastView = (e: RuleEvent[], id: string) => {
  const c = combatantView(e, id);
  if (c.kind !== 'beast') throw new Error(`${id} is no beast`);
  return c;
};
const resolved = (out: RuleEvent[]) => find(out, 'AttackResolved');
const bonusSources = (pool: { bonuses: { source: string }[] }) => pool.bonuses.map((b) => b.source);

describe('arcana-beast.txt: Combat — "Beast Binders always roll d6; Arcana Beast die size scales with Stage"', () => {
  it('"Beast Binders always roll d6": given Ember at Stage 4 (d12), when the wolf bites Ash (no Intercept), then Ash dodges Agility 2 on d6 — 6, 5 is 2 successes, equal to the Bite’s 4, 4: a miss; the view shows d12 for Ember, d6 for Ash', () => {
    let e = close(
      fight([wolf('wolf', 20), ember({ stage: 4, stages: stages04 }), ash], 'wolf'),
      'wolf',
      'ember',
    );
    // The Bite: Brawn 2 on d6 (Stage 1): 4, 4 = 2. Ash's Dodge: Agility 2, no defensive Qualities, on d6: 6, 5 = 2.
    const out = exact(e, attack('wolf', 'ash', { intercept: false }), { dice: [4, 4, 6, 5] });
    expect(resolved(out)).toMatchObject({
      targetId: 'ash',
      attack: { dice: 2, sides: 6, successes: 2 },
      dodge: { combatantId: 'ash', stat: 'agility', dice: 2, sides: 6, successes: 2 },
      outcome: 'miss',
      damage: 0,
    });
    e = [...e, ...out];
    expect(combatantView(e, 'ember').dieSides).toBe(12);
    expect(combatantView(e, 'ash').dieSides).toBe(6);
  });

  it.each([
    // "d10 at 3": a face of 6 is "6+" on a d10, a 5 is not.
    [[6, 6, 6, 5, 1], 4, 3, true, (3 + 3) * 2 + 4],
    [[6, 6, 5, 5, 5], 5, 2, false, 3 + 3 + 5],
  ])(
    '"Critical Hit: 3+ faces showing 6+" on Stage 3’s d10: Claw faces %j are %i successes with %i faces of 6+ — Critical %s, damage %i',
    (faces, successes, sixes, critical, damage) => {
      const e = close(fight([ember({ stage: 3 }), ash, wolf('wolf', 30)], 'ember'), 'ember', 'wolf');
      // Claw: Brawn 3 + Rank 1 + Claws 1 = 5 d10; the wolf's Dodge 2 d6: 1, 1 = 0. Base Damage Brawn 3 + Stage 3.
      const out = exact(e, attack('ember', 'wolf'), { dice: [...faces, 1, 1] });
      expect(resolved(out)).toMatchObject({
        attack: { dice: 5, sides: 10, successes, sixes },
        critical,
        baseDamage: 6,
        damage,
      });
    },
  );
});

describe('arcana-beast.txt: Initiative & Turn Order', () => {
  const setup = [fightStarted('arcana-beast'), ...party.map(joined)];

  it('"Ties: GM decides or calls for another roll": given Ember and Pip tied at 1 success, when the GM’s reroll ties them again (4, 1 on d8 and 4, 1, 1 on d6: 1 each), then the tie still waits for the GM, and the GM’s order decides it', () => {
    // Agility: Ember 2 d8 (4, 1 = 1), Pip 3 d6 (6, 1, 1 = 1), the wolf 2 d6 (1, 1 = 0), wolf2 2 d6 (4, 4 = 2).
    let e = then(setup, { type: 'RollInitiative' }, { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4] });
    expect(stateOf(e).pending).toMatchObject({ kind: 'initiativeTie', detail: { ties: [['ember', 'pip']] } });
    const again = exact(e, { type: 'RerollInitiative' }, { dice: [4, 1, 4, 1, 1] });
    expect(find(again, 'InitiativeTieRerolled')).toMatchObject({
      rolls: [
        { combatantId: 'ember', total: 1 },
        { combatantId: 'pip', total: 1 },
      ],
      unresolvedTies: [['ember', 'pip']],
    });
    e = [...e, ...again];
    expect(stateOf(e).pending).toMatchObject({ kind: 'initiativeTie', awaiting: 'gm' });
    expect(refused(e, { type: 'StartRound' }).code).toBe('PENDING_DECISION');
    const order = ['wolf2', 'pip', 'bo', 'ember', 'ash', 'wolf'];
    e = then(e, { type: 'SetInitiative', order });
    expect(stateOf(e).pending).toBeUndefined();
    expect(stateOf(e).order).toEqual(order);
    // "Turn Order … remains fixed": the first turn of the round is wolf2's, then Pip's.
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(stateOf(e).activeId).toBe('wolf2');
    expect(stateOf(next(e, 'pip')).turn).toMatchObject({ beastId: 'pip', binderId: 'bo' });
  });
});

describe('arcana-beast.txt: Movement & Range — Distance Bands', () => {
  it('"Close: Within arm’s reach. Melee attacks. No movement needed.": given Ember Close to the wolf, when it moves toward it to Close, then it is refused (it is already Close), and the Claw needs no move: 3 successes to 1, 5 + 2 = 7', () => {
    const e = close(fight([ember(), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    expect(refused(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' })).toMatchObject(
      {
        code: 'ARCANA_NO_MOVE',
        field: 'band',
      },
    );
    // Claw 5 d8: 8, 5, 4, 2, 1 = 3; the wolf's Dodge 2 d6: 4, 1 = 1. Base Damage 3 + 2 = 5, + 2 extra.
    const out = exact(e, attack('ember', 'wolf'), { dice: [8, 5, 4, 2, 1, 4, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt']);
    expect(resolved(out)).toMatchObject({ band: 'close', damage: 7 });
    expect(find(out, 'DamageDealt')).toMatchObject({ hpBefore: 20, hp: 13 });
  });

  it('"Far: Across the battlefield. Only long-range abilities reach.": given Ember Far from the wolf, the melee Claw and the ranged Spark are refused; the long-range Inferno hits: 4 d8 showing 8, 6, 5, 4 (4 successes, two 6+) to 1 — 5 + 3 + its bonus 1 = 9', () => {
    const e = then(fight([ember(), ash, wolf('wolf', 20)], 'ember'), {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'far',
    });
    expect(refused(e, attack('ember', 'wolf'))).toMatchObject({
      code: 'ARCANA_OUT_OF_RANGE',
      message: expect.stringContaining('a melee attack reaches close; wolf is far'),
    });
    expect(refused(e, attack('ember', 'wolf', { attackId: 'spark' }))).toMatchObject({
      code: 'ARCANA_OUT_OF_RANGE',
      message: expect.stringContaining('a ranged attack reaches close/near; wolf is far'),
    });
    // Inferno: Agility 2 + Rank 2 = 4 d8; the wolf's Dodge 2 d6: 4, 1 = 1.
    const out = exact(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [8, 6, 5, 4, 4, 1] },
    );
    expect(resolved(out)).toMatchObject({
      band: 'far',
      attack: { dice: 4, successes: 4, sixes: 2 },
      critical: false,
      extraSuccesses: 3,
      bonusDamage: 1,
      damage: 9,
    });
  });
});

describe('arcana-beast.txt: Movement & Range — Movement Rules', () => {
  it.each(['teleport', 'burrowing'])(
    '"Flight, Teleport, Burrowing bypass restrictions": given a beast whose sheet lists %s, Far from the wolf across Difficulty 2 ground, when its free move names it, then it reaches Close with no Agility Test; without it the move is refused',
    (movement) => {
      const e = then(fight([ember({ movement: [movement] }), ash, wolf()], 'ember'), {
        type: 'SetBand',
        aId: 'ember',
        bId: 'wolf',
        band: 'far',
        difficultTerrain: 2,
      });
      expect(
        refused(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }),
      ).toMatchObject({ code: 'ARCANA_REPOSITION_NEEDED' });
      // No faces given: the difficult ground rolls no test.
      const out = exact(e, {
        type: 'Move',
        combatantId: 'ember',
        towardId: 'wolf',
        band: 'close',
        using: movement,
      });
      expect(out).toEqual([
        {
          type: 'Moved',
          data: {
            combatantId: 'ember',
            towardId: 'wolf',
            from: 'far',
            to: 'close',
            by: 'free',
            using: movement,
          },
        },
      ]);
      expect(combatantView([...e, ...out], 'ember').bands.wolf).toBe('close');
    },
  );

  it('"Move one band for free per turn": given Ember’s free move Near → Close in round 1, when its turn comes again in round 2, then it has a free move again (Close → Near), and not a second one in that turn', () => {
    let e = then(fight([ember(), ash, wolf()], 'ember'), {
      type: 'Move',
      combatantId: 'ember',
      towardId: 'wolf',
      band: 'close',
    });
    expect(refused(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' }).code).toBe(
      'ARCANA_FREE_MOVE_USED',
    );
    e = nextRound(e, 'ember');
    const out = exact(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' });
    expect(find(out, 'Moved')).toMatchObject({ from: 'close', to: 'near', by: 'free' });
    expect(
      refused([...e, ...out], { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' }).code,
    ).toBe('ARCANA_FREE_MOVE_USED');
  });

  it('"Difficult terrain may require Agility Test" on Stage 3’s die: given Difficulty 2 between Ember and the wolf, Ember’s free move rolls Agility 2 d10 — 10, 4 pass; 10, 3 fail and leave it Near', () => {
    const e = then(fight([ember({ stage: 3 }), ash, wolf()], 'ember'), {
      type: 'SetBand',
      aId: 'ember',
      bId: 'wolf',
      band: 'near',
      difficultTerrain: 2,
    });
    const move = { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' };
    const passed = find(exact(e, move, { dice: [10, 4] }), 'Moved');
    expect(passed).toMatchObject({
      to: 'close',
      test: { stat: 'agility', dice: 2, sides: 10, difficulty: 2, successes: 2, passed: true },
    });
    const failed = exact(e, move, { dice: [10, 3] });
    expect(find(failed, 'Moved')).toMatchObject({ to: 'near', stopped: true, test: { successes: 1 } });
    expect(combatantView([...e, ...failed], 'ember').bands.wolf).toBe('near');
  });
});

describe('arcana-beast.txt: Actions in Combat', () => {
  it('"Defend: Boost on all Dodge rolls until next turn" at its last Dodge: given Ember’s Defend in round 1, when the wolf bites it in round 2 before Ember’s next turn, then the Dodge still has the Boost — 1, 4, 5, 2 keep 4, 5, 2: 2 successes, equal to the Bite’s 2: a miss; Ember’s turn then ends it', () => {
    let e = close(fight([wolf('wolf', 20), ember(), ash], 'wolf'), 'wolf', 'ember');
    e = then(next(e, 'ember'), { type: 'Defend', combatantId: 'ember' });
    e = nextRound(e, 'wolf');
    // The Bite 2 d6: 4, 4 = 2. Ember's Dodge: Agility 2 + Nimble 1 = 3 d8 and the Boost die, the lowest (1) dropped.
    const out = exact(e, attack('wolf', 'ember'), { dice: [4, 4, 1, 4, 5, 2] });
    expect(resolved(out)).toMatchObject({
      dodge: { dice: 3, edge: 'boost', boostSources: ['Defend'], kept: [4, 5, 2], successes: 2 },
      outcome: 'miss',
    });
    e = next([...e, ...out], 'ember');
    expect(find(e.slice(-1), 'TurnStarted')).toMatchObject({ combatantId: 'ember', defendEnded: true });
    expect(beastView(e, 'ember').defending).toBe(false);
  });

  it('"Use Special Attack: Costs a Special Attack Use" with 2 uses: given Inferno with uses 2, then rounds 1 and 2 each spend one (2 → 1 → 0), round 3’s is refused, and EndScene gives both back', () => {
    const inferno = { id: 'inferno', name: 'Inferno', range: 'long', ranks: 2, uses: 2, bonusDamage: 1 };
    let e = fight([ember({ specialAttacks: [inferno] }), ash, wolf('wolf', 60)], 'ember');
    const use = {
      type: 'UseSpecialAttack',
      attackerId: 'ember',
      targetId: 'wolf',
      specialAttackId: 'inferno',
    };
    // Inferno 4 d8 and the wolf's Dodge 2 d6, all 1s: a miss each time.
    const first = exact(e, use, { dice: [1, 1, 1, 1, 1, 1] });
    expect(find(first, 'SpecialAttackUsed')).toEqual({
      combatantId: 'ember',
      specialAttackId: 'inferno',
      usesLeft: 1,
    });
    e = nextRound([...e, ...first], 'ember');
    const second = exact(e, use, { dice: [1, 1, 1, 1, 1, 1] });
    expect(find(second, 'SpecialAttackUsed').usesLeft).toBe(0);
    e = nextRound([...e, ...second], 'ember');
    expect(beastView(e, 'ember').specialAttacks[0]).toMatchObject({ uses: 2, usesLeft: 0 });
    expect(refused(e, use)).toMatchObject({ code: 'ARCANA_NO_USES_LEFT', field: 'specialAttackId' });
    e = then(e, { type: 'EndScene' });
    expect(beastView(e, 'ember').specialAttacks[0]).toMatchObject({ uses: 2, usesLeft: 2 });
  });

  it('"Use Zero Power: Once per scene when trigger is active": given Zero Flare used in the first scene, when the next scene starts, then it waits for its trigger again (EndScene clears it), and once the GM marks it, it is used again: Brawn 3 + Ranks 3 = 6 d8', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 60)], 'ember'), 'ember', 'wolf');
    const on = { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true };
    const flare = { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' };
    e = then(then(e, on), flare, { dice: [1, 1, 1, 1, 1, 1, 1, 1] });
    e = then(e, { type: 'EndScene' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(refused(e, flare).code).toBe('ARCANA_TRIGGER_NOT_ACTIVE');
    e = then(e, on);
    // Zero Flare 6 d8: 8, 5, 4, 1, 1, 1 = 3 (one 6+); the wolf's Dodge 2 d6: 1, 1 = 0. 5 + 3 = 8.
    const out = exact(e, flare, { dice: [8, 5, 4, 1, 1, 1, 1, 1] });
    expect(find(out, 'ZeroPowerUsed')).toMatchObject({ combatantId: 'ember', targetId: 'wolf' });
    expect(resolved(out)).toMatchObject({ action: 'zeroPower', attack: { dice: 6 }, damage: 8 });
  });

  it('"Assist: Help a Close ally’s next roll (+1 die)" on a Dodge: given Pip’s Assist on Ember, when the wolf bites Ember, then Ember dodges Agility 2 + Nimble 1 + 1 = 4 d8 — 4, 4, 4, 1 = 3 beats the Bite’s 2 — and the die is spent', () => {
    let e = close(fight([pip, bo, ember(), ash, wolf('wolf', 20)], 'pip'), 'pip', 'ember');
    e = then(e, { type: 'Assist', combatantId: 'pip', allyId: 'ember' });
    expect(combatantView(e, 'ember').assistDice).toBe(1);
    e = close(next(e, 'wolf'), 'wolf', 'ember');
    const out = exact(e, attack('wolf', 'ember'), { dice: [4, 4, 4, 4, 4, 1] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Assist', dice: 1 });
    expect(resolved(out)).toMatchObject({
      dodge: { dice: 4, bonuses: [{ source: 'Assist', dice: 1 }], successes: 3 },
      outcome: 'miss',
    });
    expect(combatantView([...e, ...out], 'ember').assistDice).toBe(0);
  });

  it('"Reposition: … gain positional advantage" is the Action, not the move: given Ember’s Reposition for advantage, then the band is unchanged, its free move Near → Close still follows, and a second Action is refused', () => {
    let e = fight([ember(), ash, wolf()], 'ember');
    const out = exact(e, { type: 'Reposition', combatantId: 'ember' });
    expect(types(out)).toEqual(['ActionTaken']);
    expect(find(out, 'ActionTaken')).toMatchObject({ action: 'reposition' });
    e = [...e, ...out];
    expect(combatantView(e, 'ember').bands.wolf).toBe('near');
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' });
    expect(combatantView(e, 'ember').bands.wolf).toBe('close');
    expect(refused(e, attack('ember', 'wolf'))).toMatchObject({ code: 'ARCANA_ACTION_USED' });
  });

  it('"Guard: Redirect attacks on a Close ally to yourself": given Ember guarding Pip, when the wolf bites Pip, then Ember’s own Dodge (Agility 2 + Nimble 1 = 3 d8) meets it and Ember takes the damage: 2 successes to 1, (2 + 1) + 1 = 4', () => {
    let e = close(fight([ember(), ash, pip, bo, wolf('wolf', 20)], 'ember'), 'ember', 'pip');
    e = then(e, { type: 'Guard', combatantId: 'ember', allyId: 'pip' });
    e = close(next(e, 'wolf'), 'wolf', 'pip');
    // The Bite 2 d6: 5, 4 = 2; Ember's Dodge 3 d8: 4, 1, 1 = 1.
    const out = exact(e, attack('wolf', 'pip'), { dice: [5, 4, 4, 1, 1] });
    expect(resolved(out)).toMatchObject({
      targetId: 'ember',
      declaredTargetId: 'pip',
      dodge: { combatantId: 'ember', dice: 3, sides: 8, successes: 1 },
      baseDamage: 3,
      damage: 4,
    });
    expect(find(out, 'DamageDealt')).toMatchObject({ combatantId: 'ember', hpBefore: 12, hp: 8 });
  });

  it('"Evolve: Transform to higher stage (immediate, free)": given Ember at Stage 0 with the Stage 3 trigger marked, when it evolves straight to Stage 3, then it spends no Stamina, HP or Action, and its Claw rolls 5 d10 for Brawn 3 + Stage 3; the encounter’s end returns it to Stage 0, the Stage it evolved from (A24)', () => {
    let e = close(fight([ember({ stage: 0 }), ash, wolf('wolf', 30)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: true });
    const evolved = exact(e, { type: 'Evolve', combatantId: 'ember', stage: 3 });
    expect(evolved).toEqual([
      {
        type: 'StageEvolved',
        data: { combatantId: 'ember', from: 0, to: 3, reason: 'evolve', highest: true, triggerActive: true },
      },
    ]);
    e = [...e, ...evolved];
    expect(beastView(e, 'ember')).toMatchObject({
      stage: 3,
      dieSides: 10,
      baseDamage: 6,
      stamina: 2,
      hp: 12,
    });
    // Claw 5 d10: 10, 5, 4, 1, 1 = 3 (one 6+); the wolf's Dodge 1, 1 = 0: 6 + 3 = 9.
    const out = exact(e, attack('ember', 'wolf'), { dice: [10, 5, 4, 1, 1, 1, 1] });
    expect(resolved(out)).toMatchObject({ attack: { dice: 5, sides: 10 }, baseDamage: 6, damage: 9 });
    expect(beastView([...e, ...out], 'ember').revertTo).toBe(0);
    expect(find(exact([...e, ...out], { type: 'EndScene' }), 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 3,
      to: 0,
      reason: 'encounterEnded',
    });
  });
});

describe('arcana-beast.txt: Beast Binder Commands', () => {
  it.each([
    // Spirit 3 d6 (Ash's, "Beast Binders always roll d6"); Diff 1: one success is enough.
    ['passes', [4, 1, 1], true, ['burning']],
    ['fails', [3, 2, 1], false, ['dazed', 'burning']],
  ])(
    '"Encourage: Remove 1 condition (Spirit Test, Diff 1)": given Ember Dazed and Burning, when Ash’s Spirit Test %s (faces %j), then only Dazed is removed on a pass, nothing on a fail; the Command is spent either way',
    (_result, faces, passed, conditions) => {
      let e = fight([ember(), ash, wolf()], 'ember');
      e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'dazed' });
      e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'burning' });
      const out = exact(
        e,
        { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
        { dice: faces },
      );
      expect(find(out, 'BinderCommanded')).toMatchObject({
        command: 'encourage',
        effect: 'removeCondition',
        passed,
        test: { stat: 'spirit', dice: 3, sides: 6, difficulty: 1, successes: passed ? 1 : 0 },
      });
      expect(types(out).includes('ConditionRemoved')).toBe(passed);
      e = [...e, ...out];
      expect(combatantView(e, 'ember').conditions).toEqual(conditions);
      expect(combatantView(e, 'ember')).toMatchObject({ kind: 'beast', encourageDodge: 0 });
      expect(refused(e, { type: 'Direct', combatantId: 'ash' }).code).toBe('ARCANA_COMMAND_USED');
    },
  );

  it('"Strategize: Ignore enemy positioning benefit (Technique Test, Diff 2)": given the wolf in Cover and Obscured, after a passed Strategize (4, 4) Ember’s Spark at Near rolls 2 d8 with no Setback against a Dodge of 2 d6; after a failed one (4, 3) the Spark has the Setback and the Dodge the Cover die', () => {
    let e = fight([ember(), ash, wolf('wolf', 20)], 'ember');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cover' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    const spark = attack('ember', 'wolf', { attackId: 'spark' });
    // Passed: Spark Agility 2 d8: 8, 5 = 2; the Dodge Agility 2 d6: 4, 1 = 1. 5 + 1 = 6.
    const passed = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 4] });
    const clear = exact(passed, spark, { dice: [8, 5, 4, 1] });
    expect(resolved(clear)).toMatchObject({
      attack: { dice: 2, edge: 'none', setbackSources: [], successes: 2 },
      dodge: { dice: 2, bonuses: [], successes: 1 },
      damage: 6,
    });
    // Failed: Spark 2 d8 and the Setback die, 8 dropped: 5, 4 = 2; the Dodge 2 + Cover 1 = 3 d6: 4, 1, 1 = 1.
    const failed = then(e, { type: 'Strategize', combatantId: 'ash' }, { dice: [4, 3] });
    const hidden = exact(failed, spark, { dice: [8, 5, 4, 4, 1, 1] });
    expect(resolved(hidden)).toMatchObject({
      attack: { dice: 2, edge: 'setback', setbackSources: ['Obscured'], kept: [5, 4], successes: 2 },
      dodge: { dice: 3, bonuses: [{ source: 'Cover', dice: 1 }], successes: 1 },
      damage: 6,
    });
  });

  it.each([
    // Endurance 2 d6 and the Boost die, the lowest dropped.
    ['pass = stay', [4, 4, 1], [4, 4], true, 1],
    ['fail = Stage 0', [5, 3, 2], [5, 3], false, 0],
  ])(
    '"Call Back: … (Devolve/Retreat with Boost; no roll)" with "From Stage 1: Endurance Test Diff 2 %s": given Ember at Stage 1, when Ash calls it back, then faces %j keep %j — passed %s, Stage %i, in its vessel',
    (_row, faces, kept, passed, stage) => {
      const e = fight([ember({ stage: 1 }), ash, wolf()], 'ember');
      const out = exact(e, { type: 'CallBack', combatantId: 'ash' }, { followUpFaces: faces });
      expect(find(out, 'DevolutionTested')).toMatchObject({
        combatantId: 'ember',
        stageBefore: 1,
        reason: 'callBack',
        test: {
          stat: 'endurance',
          dice: 2,
          sides: 6,
          difficulty: 2,
          edge: 'boost',
          boostSources: ['Call Back'],
          kept,
          passed,
        },
        stageAfter: stage,
      });
      expect(types(out).includes('StageDevolved')).toBe(!passed);
      expect(beastView([...e, ...out], 'ember')).toMatchObject({ stage, state: 'InVessel' });
    },
  );

  it('"Call Back" and "At 0 HP": given Ember (Stage 1) Knocked Out, its Devolution Test passed (4, 4: Stage 1 stays), when Ash calls it back into its vessel, then no second test is rolled; it cannot be called back to devolve', () => {
    let e = close(fight([wolf('wolf', 20), ember({ stage: 1, hp: 3 }), ash], 'wolf'), 'wolf', 'ember');
    // The Bite 2 d6: 6, 6 = 2 (two 6+, no Critical); Ember's Dodge 3 d6: 1, 1, 1 = 0. (2 + 1) + 2 = 5 ≥ 3 HP.
    const bite = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [4, 4] });
    expect(find(bite, 'DevolutionTested')).toMatchObject({
      stageBefore: 1,
      test: { dice: 2, sides: 6, difficulty: 2, successes: 2, passed: true },
      stageAfter: 1,
    });
    e = next([...e, ...bite], 'ember');
    expect(refused(e, { type: 'CallBack', combatantId: 'ash', mode: 'devolve' })).toMatchObject({
      code: 'ARCANA_COMBATANT_OUT',
      field: 'mode',
    });
    const back = exact(e, { type: 'CallBack', combatantId: 'ash' });
    expect(types(back)).toEqual(['BinderCommanded', 'CalledBack']);
    expect(stateOf([...e, ...back]).combatants.ember).toMatchObject({
      stage: 1,
      knockedOut: true,
      inVessel: true,
    });
  });

  it.each([
    ['passes', [5, 4], 9, 1, ['BinderCommanded', 'ItemUsed', 'HpRestored', 'StaminaRestored']],
    ['fails', [5, 3], 6, 0, ['BinderCommanded', 'ItemUsed']],
  ])(
    '"Use Item: Spend Stuff … (catalog items or custom gear; may need a roll)": given custom gear healing 3 HP and 1 Stamina behind a Technique Test Diff 2, when Ash’s test %s (faces %j), then the gear is spent and Ember (6 of 12 HP, 0 of 2 Stamina) has %i HP and %i Stamina',
    (_result, faces, hp, stamina, eventTypes) => {
      const elixir = {
        id: 'elixir',
        name: 'Elixir',
        heal: 3,
        stamina: 1,
        test: { stat: 'technique', difficulty: 2 },
      };
      const e = fight(
        [
          ember({ hp: 6, maxHp: 12, stamina: 0, maxStamina: 2 }),
          { ...ash, sheet: binder('ember', { inventory: [elixir] }) },
          wolf(),
        ],
        'ember',
      );
      const out = exact(e, { type: 'UseItem', combatantId: 'ash', itemId: 'elixir' }, { dice: faces });
      expect(types(out)).toEqual(eventTypes);
      expect(find(out, 'BinderCommanded').test).toMatchObject({ stat: 'technique', dice: 2, difficulty: 2 });
      const after = [...e, ...out];
      expect(beastView(after, 'ember')).toMatchObject({ hp, stamina });
      const gear = combatantView(after, 'ash');
      expect(gear.kind === 'binder' && gear.inventory).toEqual([
        { id: 'elixir', name: 'Elixir', quantityLeft: 0, removesCondition: false },
      ]);
    },
  );

  it('"Bond Surge: Boost on ALL rolls this turn, costs 1 Stamina (no roll)": given Ash’s Bond Surge, then Ember pays 1 of its 2 Stamina (Ash keeps 3), a GM Test of Ash’s Spirit in the turn rolls 3 d6 + the Boost die, Ember’s Claw 5 d8 + the Boost die, and the wolf’s Dodge no Boost: 4 successes to 1, 5 + 3 = 8', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 20)], 'ember'), 'ember', 'wolf');
    const surge = exact(e, { type: 'BondSurge', combatantId: 'ash' });
    expect(surge).toEqual([
      { type: 'BinderCommanded', data: { binderId: 'ash', beastId: 'ember', command: 'bondSurge' } },
      { type: 'StaminaSpent', data: { combatantId: 'ember', amount: 1, stamina: 1 } },
    ]);
    e = [...e, ...surge];
    expect(combatantView(e, 'ember').stamina).toBe(1);
    expect(combatantView(e, 'ash').stamina).toBe(3);
    // Spirit 3 d6 and the Boost die: 6, 1, 1, 1, one 1 dropped: one success, Diff 2 fails.
    const test = exact(
      e,
      { type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 2 },
      { dice: [6, 1, 1, 1] },
    );
    expect(find(test, 'TestRolled').test).toMatchObject({
      dice: 3,
      edge: 'boost',
      boostSources: ['Bond Surge'],
      kept: [6, 1, 1],
      successes: 1,
      passed: false,
    });
    // Claw 5 d8 and the Boost die: 8, 5, 4, 4, 1, 2, the 1 dropped: 4 successes; the Dodge 2 d6: 4, 1 = 1.
    const out = exact([...e, ...test], attack('ember', 'wolf'), { dice: [8, 5, 4, 4, 1, 2, 4, 1] });
    expect(resolved(out)).toMatchObject({
      attack: { dice: 5, edge: 'boost', boostSources: ['Bond Surge'], kept: [8, 5, 4, 4, 2], successes: 4 },
      dodge: { dice: 2, edge: 'none', successes: 1 },
      damage: 8,
    });
  });
});

describe('arcana-beast.txt: Attack & Damage', () => {
  it('"Build pool: Stat + Quality/Attack Ranks + modifiers": given Mind Lash (stat Spirit 4, Rank 1, Qualities Claws 1 and Nimble 1), when Ember uses it at Near, then it rolls 4 + 1 + 1 + 1 = 7 d8, and "Base Damage by Stage: Brawn + Stage" stays 3 + 2: 4 successes to 1, 5 + 3 = 8', () => {
    const lash = {
      id: 'lash',
      name: 'Mind Lash',
      range: 'ranged',
      stat: 'spirit',
      ranks: 1,
      qualities: ['Claws', 'Nimble'],
    };
    const e = fight(
      [
        ember({ stats: { brawn: 3, agility: 2, endurance: 2, spirit: 4, technique: 2 }, attacks: [lash] }),
        ash,
        wolf('wolf', 20),
      ],
      'ember',
    );
    const out = exact(e, attack('ember', 'wolf'), { dice: [5, 5, 4, 4, 1, 1, 1, 4, 1] });
    expect(resolved(out)).toMatchObject({
      attackId: 'lash',
      band: 'near',
      attack: { stat: 'spirit', statValue: 4, ranks: 3, dice: 7, sides: 8, successes: 4 },
      baseDamage: 5,
      extraSuccesses: 3,
      damage: 8,
    });
  });

  it('"Target rolls Dodge (Agility + defensive Qualities)": given a wolf with Thick Fur 1 and Quick 2 defensive and Fangs 2 not, then it dodges Agility 2 + 3 = 5 d6 — 6, 5, 4, 1, 1 = 3 against Ember’s 4: a hit for 5 + 1 = 6', () => {
    const furred = wild({
      hp: 20,
      qualities: { 'Thick Fur': 1, Quick: 2, Fangs: 2 },
      defensiveQualities: ['Thick Fur', 'Quick'],
    });
    const e = close(
      fight([ember(), ash, { id: 'wolf', sheet: furred, side: 'wild' }], 'ember'),
      'ember',
      'wolf',
    );
    // Claw 5 d8: 8, 5, 4, 4, 1 = 4.
    const out = exact(e, attack('ember', 'wolf'), { dice: [8, 5, 4, 4, 1, 6, 5, 4, 1, 1] });
    expect(resolved(out)).toMatchObject({
      dodge: { stat: 'agility', statValue: 2, ranks: 3, dice: 5, successes: 3 },
      outcome: 'hit',
      extraSuccesses: 1,
      damage: 6,
    });
  });

  it.each([
    [[8, 8, 7, 6, 1], 4, 4, 5 * 2 + 4],
    [[8, 8, 7, 6, 6], 5, 5, 5 * 2 + 5],
  ])(
    '"Critical Hit: 3+ faces showing 6+ double base Damage": more than three is still one doubling — Claw faces %j: %i successes, %i faces of 6+, damage %i',
    (faces, successes, sixes, damage) => {
      const e = close(fight([ember(), ash, wolf('wolf', 30)], 'ember'), 'ember', 'wolf');
      const out = exact(e, attack('ember', 'wolf'), { dice: [...faces, 1, 1] });
      expect(resolved(out)).toMatchObject({
        attack: { successes, sixes },
        critical: true,
        baseDamage: 5,
        extraSuccesses: successes,
        damage,
      });
    },
  );
});

describe('arcana-beast.txt: Combo Attacks', () => {
  it('"When two or more allied Arcana Beast target the same enemy on consecutive turns": given Ember alone on its side, when it claws the wolf in round 1 and again in round 2, then the second Claw is no combo — 5 d8, no extra damage: 5 + 4 = 9 both times', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 60)], 'ember'), 'ember', 'wolf');
    // Claw 5 d8: 8, 5, 4, 4, 1 = 4; the wolf's Dodge 1, 1 = 0.
    const claw = { dice: [8, 5, 4, 4, 1, 1, 1] };
    const first = exact(e, attack('ember', 'wolf'), claw);
    expect(resolved(first).damage).toBe(9);
    // The wolf's turn passes with no Action: it has not acted (A10).
    e = nextRound(next([...e, ...first], 'wolf'), 'ember');
    const second = exact(e, attack('ember', 'wolf'), claw);
    expect(resolved(second)).toMatchObject({
      attack: { dice: 5, bonuses: [] },
      combo: { position: 1, dieBonus: 0, damageBonus: 0 },
      damage: 9,
    });
  });

  describe('"If both hit, second attack deals +1 extra damage" and "Third consecutive hit deals +2 extra damage": the hits must follow each other', () => {
    const level1 = beast({ stage: 1, stages: [{ stage: 1 }] });
    // Ember (Claw 5 d8, Base 5), then Pip and Kit (Stage 1: Claw 5 d6 + the combo die, Base 3 + 1 = 4), all Close to the wolf.
    const fighters: Fighter[] = [
      ember(),
      { id: 'pip', sheet: level1, side: 'heroes' },
      { id: 'kit', sheet: level1, side: 'heroes' },
      wolf('wolf', 90),
    ];
    const hitEmber = [6, 5, 4, 4, 4, 1, 1];
    const missEmber = [1, 1, 1, 1, 1, 1, 1];
    // 6 d6: 6, 5, 4, 4, 4, 1 = 5 successes (one 6+); the wolf's Dodge 1, 1 = 0.
    const hit = [6, 5, 4, 4, 4, 1, 1, 1];
    const miss = [1, 1, 1, 1, 1, 1, 1, 1];

    it.each([
      [
        'hit, miss, hit',
        'the first hit of a new streak: +0',
        4 + 5,
        [hitEmber, miss, hit],
        { hits: 1, damageBonus: 0 },
      ],
      [
        'miss, hit, hit',
        'the second consecutive hit: +1',
        4 + 5 + 1,
        [missEmber, hit, hit],
        { hits: 2, damageBonus: 1 },
      ],
      ['hit, hit, miss', 'a miss: no damage', 0, [hitEmber, hit, miss], { hits: 0, damageBonus: 0 }],
    ])(
      'given %s by Ember, Pip and Kit, the third attack (5 d6 + the combo die) is %s — it deals %i',
      (_p, _what, damage, rolls, combo) => {
        let e = ['ember', 'pip', 'kit'].reduce((x, id) => close(x, id, 'wolf'), fight(fighters, 'ember'));
        const out: RuleEvent[][] = [];
        ['ember', 'pip', 'kit'].forEach((id, i) => {
          if (i > 0) e = next(e, id);
          out.push(exact(e, attack(id, 'wolf'), { dice: rolls[i] }));
          e = [...e, ...out[i]];
        });
        expect(resolved(out[2])).toMatchObject({
          attack: { dice: 6 },
          combo: { ...combo, position: 3, dieBonus: 1 },
          damage,
        });
        // The view's chain on the wolf: three heroes' attacks, the streak as it stands.
        expect(viewOf(e).combos.wolf).toMatchObject({
          side: 'heroes',
          lastAttackerId: 'kit',
          attacks: 3,
          hits: combo.hits,
        });
      },
    );
  });

  it('"Combos reset if the target acts between allied attacks": given Ember’s Claw on the wolf, when the wolf bites Pip in its turn (an Action on someone else), then the combo on the wolf resets and Pip’s Claw rolls its own 4 d6 with no combo die', () => {
    let e = close(
      close(fight([ember(), ash, wolf('wolf', 20), pip, bo], 'ember'), 'ember', 'wolf'),
      'pip',
      'wolf',
    );
    e = then(e, attack('ember', 'wolf'), { dice: [1, 1, 1, 1, 1, 1, 1] });
    e = next(e, 'wolf');
    // The Bite 2 d6 against Pip's Dodge, Agility 3 + Nimble 1 = 4 d6.
    const bite = exact(e, attack('wolf', 'pip'), { dice: [1, 1, 1, 1, 1, 1] });
    expect(find(bite, 'ComboReset')).toEqual({
      targetId: 'wolf',
      reason: 'the target acted (RULINGS.md A10)',
    });
    e = next([...e, ...bite], 'pip');
    // Pip's Claw: Brawn 2 + Rank 1 + Claws 1 = 4 d6.
    const out = exact(e, attack('pip', 'wolf'), { dice: [1, 1, 1, 1, 1, 1] });
    expect(resolved(out)).toMatchObject({ attack: { dice: 4, bonuses: [] }, combo: { position: 1 } });
  });
});

describe('arcana-beast.txt: Positioning in Combat', () => {
  it('"Flanking: Two allies on opposite sides both gain +1 attack die": given Ember and Pip both Flanking the wolf, then Ember’s Claw rolls 5 + 1 = 6 d8 and Pip’s, next, 4 + 1 + the combo die = 6 d6', () => {
    let e = close(
      close(fight([ember(), ash, pip, bo, wolf('wolf', 20)], 'ember'), 'ember', 'wolf'),
      'pip',
      'wolf',
    );
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'flanking', againstId: 'wolf' });
    e = then(e, { type: 'SetTag', combatantId: 'pip', tag: 'flanking', againstId: 'wolf' });
    const ember6 = exact(e, attack('ember', 'wolf'), { dice: [1, 1, 1, 1, 1, 1, 1, 1] });
    expect(resolved(ember6).attack).toMatchObject({ dice: 6, sides: 8 });
    expect(bonusSources(resolved(ember6).attack)).toEqual(['Flanking']);
    e = next([...e, ...ember6], 'pip');
    const pip6 = exact(e, attack('pip', 'wolf'), { dice: [1, 1, 1, 1, 1, 1, 1, 1] });
    expect(resolved(pip6).attack).toMatchObject({ dice: 6, sides: 6 });
    expect(bonusSources(resolved(pip6).attack)).toEqual(['Flanking', 'Combo']);
  });

  it('"High Ground: +1 die on attacks against targets below" on a ranged attack, and "Cover: +1 die on Dodge vs ranged attacks": given Ember on High Ground and the wolf in Cover, Ember’s Spark at Near rolls 2 + 1 = 3 d8 (8, 5, 4 = 3) against 2 + 1 = 3 d6 (4, 1, 1 = 1): 5 + 2 = 7', () => {
    let e = fight([ember(), ash, wolf('wolf', 20)], 'ember');
    e = then(e, { type: 'SetTag', combatantId: 'ember', tag: 'highGround' });
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'cover' });
    const out = exact(e, attack('ember', 'wolf', { attackId: 'spark' }), { dice: [8, 5, 4, 4, 1, 1] });
    expect(resolved(out)).toMatchObject({
      attack: { dice: 3, bonuses: [{ source: 'High Ground', dice: 1 }], successes: 3 },
      dodge: { dice: 3, bonuses: [{ source: 'Cover', dice: 1 }], successes: 1 },
      damage: 7,
    });
  });
});

describe('arcana-beast.txt: Knockout & Devolution', () => {
  it('"From Stage 2+: Endurance Test Diff 3 … fail = Stage 0": given Ember at Stage 2 with Endurance 2, when the wolf’s Bite knocks it out, then 8, 8 on its 2 d8 are 2 successes of 3: Stage 0; the view shows the Harm, the Gauge at 1 and the d6', () => {
    let e = close(fight([wolf('wolf', 20), ember({ hp: 3 }), ash], 'wolf'), 'wolf', 'ember');
    // The Bite 2 d6: 6, 6 = 2; Ember's Dodge 3 d8: 1, 1, 1 = 0. (2 + 1) + 2 = 5 ≥ 3 HP.
    const out = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1], followUpFaces: [8, 8] });
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DevolutionTested',
      'StageDevolved',
    ]);
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 2,
      test: { stat: 'endurance', dice: 2, sides: 8, difficulty: 3, successes: 2, passed: false },
      stageAfter: 0,
    });
    e = [...e, ...out];
    expect(viewOf(e).criticalGauge).toBe(1);
    expect(beastView(e, 'ember')).toMatchObject({
      state: 'KnockedOut',
      hp: 0,
      stage: 0,
      dieSides: 6,
      harms: ['Harm (reduced to 0 HP)'],
    });
  });

  it('"Stage 2+ PCs must Devolve" is the PCs’: given a wild beast at Stage 3 (4 HP), when Ember’s Claw knocks it out (4 successes to 0, 5 + 4 = 9), then it simply drops out — no Critical Gauge, no Harm, no Devolution Test; it stays at Stage 3', () => {
    const fang = wild({ hp: 4, stage: 3, stages: [{ stage: 2 }, { stage: 3 }] });
    let e = close(fight([ember(), ash, { id: 'fang', sheet: fang, side: 'wild' }], 'ember'), 'ember', 'fang');
    // Fang's Dodge: Agility 2 on Stage 3's d10: 1, 1.
    const out = exact(e, attack('ember', 'fang'), { dice: [8, 5, 4, 4, 1, 1, 1] });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt', 'KnockedOut']);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'fang', playerSide: false });
    expect(resolved(out)).toMatchObject({ dodge: { sides: 10 }, damage: 9 });
    e = [...e, ...out];
    expect(viewOf(e).criticalGauge).toBe(0);
    expect(beastView(e, 'fang')).toMatchObject({ state: 'KnockedOut', stage: 3, harms: [] });
  });
});

describe('arcana-beast.txt: Evolution in Combat', () => {
  it('"Highest unlocked Stage is free when its emotional Trigger is true": given Stage 3’s trigger marked and then cleared by the GM, when Ember (Stage 0) evolves to Stage 3, then it is refused; "Lower unlocked Stages cost nothing": Stage 2 needs no trigger', () => {
    let e = fight([ember({ stage: 0 }), ash, wolf()], 'ember');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: true });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: false });
    expect(refused(e, { type: 'Evolve', combatantId: 'ember', stage: 3 })).toMatchObject({
      code: 'ARCANA_TRIGGER_NOT_ACTIVE',
      field: 'stage',
    });
    expect(exact(e, { type: 'Evolve', combatantId: 'ember', stage: 2 })).toEqual([
      {
        type: 'StageEvolved',
        data: {
          combatantId: 'ember',
          from: 0,
          to: 2,
          reason: 'evolve',
          highest: false,
          triggerActive: false,
        },
      },
    ]);
  });

  it('"Highest Stage lasts one Combat Encounter or Scene" to its last round, and "Evolution does not heal HP": given Ember (5 of 12 HP) evolved to Stage 3 in round 1, then in round 3 it is still Stage 3 (d10, Base Damage 6) at 5 HP; EndScene returns it to Stage 2 (d8, Base Damage 5)', () => {
    let e = fight([ember({ hp: 5, maxHp: 12 }), ash, wolf()], 'ember');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'stage', stage: 3, active: true });
    e = then(e, { type: 'Evolve', combatantId: 'ember' });
    e = nextRound(nextRound(e, 'ember'), 'ember');
    expect(stateOf(e).round).toBe(3);
    expect(beastView(e, 'ember')).toMatchObject({
      stage: 3,
      dieSides: 10,
      baseDamage: 6,
      hp: 5,
      revertTo: 2,
    });
    const scene = exact(e, { type: 'EndScene' });
    expect(find(scene, 'StageDevolved')).toEqual({
      combatantId: 'ember',
      from: 3,
      to: 2,
      reason: 'encounterEnded',
    });
    expect(beastView([...e, ...scene], 'ember')).toMatchObject({
      stage: 2,
      dieSides: 8,
      baseDamage: 5,
      hp: 5,
      revertTo: null,
    });
  });
});

describe('arcana-beast.txt: Initiative & Turn Order — ties among three', () => {
  it('"Ties: GM decides or calls for another roll": given Ember, Pip and the wolf tied at 1, when the GM calls for another roll and Ember rolls 8, 4 (2) while Pip and the wolf roll 1 each, then Ember goes first among them and only Pip and the wolf still wait for the GM', () => {
    const setup = [fightStarted('arcana-beast'), ...party.map(joined)];
    // Ember 2 d8: 4, 1 = 1; Pip 3 d6: 4, 1, 1 = 1; the wolf 2 d6: 4, 1 = 1; wolf2 2 d6: 1, 1 = 0.
    const e = then(setup, { type: 'RollInitiative' }, { dice: [4, 1, 4, 1, 1, 4, 1, 1, 1] });
    expect(stateOf(e).pending).toMatchObject({ detail: { ties: [['ember', 'pip', 'wolf']] } });
    const out = exact(e, { type: 'RerollInitiative' }, { dice: [8, 4, 4, 1, 1, 4, 1] });
    expect(find(out, 'InitiativeTieRerolled')).toMatchObject({
      order: ['ember', 'ash', 'pip', 'bo', 'wolf', 'wolf2'],
      unresolvedTies: [['pip', 'wolf']],
    });
    expect(stateOf([...e, ...out]).pending).toMatchObject({
      kind: 'initiativeTie',
      detail: { ties: [['pip', 'wolf']] },
    });
  });
});

describe('arcana-beast.txt: Beast Binder Commands — "If beastbinder is targeted Arcana Beast can intercept (uses next Action)"', () => {
  it('given the wolf’s Bite on Ash before Ember’s turn in round 1, when Ember intercepts (its Dodge 3 d8: 1, 1, 1 against 1, 1: a miss), then Ember’s round 1 turn has no Action (its free move stays), and its round 2 turn has its Action again', () => {
    let e = close(fight([wolf('wolf', 20), ember(), ash], 'wolf'), 'wolf', 'ember');
    const bite = exact(e, attack('wolf', 'ash', { intercept: true }), { dice: [1, 1, 1, 1, 1] });
    expect(resolved(bite)).toMatchObject({ targetId: 'ember', declaredTargetId: 'ash', outcome: 'miss' });
    e = next([...e, ...bite], 'ember');
    expect(find(e.slice(-1), 'TurnStarted')).toMatchObject({
      combatantId: 'ember',
      actionForfeited: 'intercept',
    });
    expect(refused(e, attack('ember', 'wolf'))).toMatchObject({ code: 'ARCANA_ACTION_USED' });
    e = then(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'near' });
    e = nextRound(e, 'ember');
    expect(find(e.slice(-1), 'TurnStarted')).toEqual({ combatantId: 'ember', binderId: 'ash' });
    // The Action is back; taking it is Ember acting, so the wolf's chain on it (the Bite it took, A46) resets.
    expect(types(exact(e, { type: 'Defend', combatantId: 'ember' }))).toEqual(['ActionTaken', 'ComboReset']);
  });
});

describe('arcana-beast.txt: Knockout & Devolution — the Critical Gauge from real Knockouts', () => {
  it('"At 0 HP: Add 1 to Critical Gauge, Gain a Harm" and "Critical Gauge thresholds: 3 Minor Critical Move (complication)": given Ember (Stage 0), Ash and Bo at 3 HP, when the wolves’ Bites knock them out one by one, then the Gauge reads 1, 2 (no Critical Move below 3), then 3 with the Minor Critical Move; each gains one Harm', () => {
    const fighters: Fighter[] = [
      wolf('wolf', 20),
      wolf('wolf2', 20),
      ember({ stage: 0, hp: 3 }),
      { ...ash, sheet: binder('ember', { hp: 3 }) },
      pip,
      { ...bo, sheet: binder('pip', { hp: 3 }) },
    ];
    let e = close(close(close(fight(fighters, 'wolf'), 'wolf', 'ember'), 'wolf2', 'ember'), 'wolf', 'pip');
    // Each Bite: 2 d6 showing 6, 6 = 2 (two 6+, no Critical) against a Dodge of all 1s: (2 + 1) + 2 = 5 ≥ 3 HP.
    // Ember (Stage 0) dodges 3 d6 and makes no Devolution Test; Ash is no one's to intercept for (its beast is out).
    const first = exact(e, attack('wolf', 'ember'), { dice: [6, 6, 1, 1, 1] });
    expect(find(first, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 0, to: 1 });
    expect(types(first)).not.toContain('CriticalMoveTriggered');
    e = next([...e, ...first], 'wolf2');
    const second = exact(e, attack('wolf2', 'ash'), { dice: [6, 6, 1, 1] });
    expect(find(second, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ash', from: 1, to: 2 });
    expect(types(second)).not.toContain('CriticalMoveTriggered');
    e = nextRound([...e, ...second], 'wolf');
    const third = exact(e, attack('wolf', 'bo', { intercept: false }), { dice: [6, 6, 1, 1] });
    expect(types(third).slice(-4)).toEqual([
      'KnockedOut',
      'CriticalGaugeRaised',
      'CriticalMoveTriggered',
      'HarmGained',
    ]);
    expect(find(third, 'CriticalMoveTriggered')).toEqual({
      threshold: 3,
      tier: 'minor',
      meaning: 'Minor Critical Move (complication)',
      gauge: 3,
    });
    e = [...e, ...third];
    expect(viewOf(e).criticalGauge).toBe(3);
    for (const id of ['ember', 'ash', 'bo'])
      expect(combatantView(e, id)).toMatchObject({ state: 'KnockedOut', harms: ['Harm (reduced to 0 HP)'] });
  });
});
