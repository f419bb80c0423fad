/**
 * Audit of the Arcana Beast engine against arcana-beast.txt, case by case, each worked by hand
 * from the text (and RULINGS.md / docs/rulings*.md where they speak). Only cases no other spec covers are kept.
 */
import { RuleEvent } from '../../src/core/types';
import {
  beast,
  binder,
  close,
  exact,
  fight,
  Fighter,
  find,
  next,
  refused,
  stateOf,
  then,
  types,
  wild,
} from './helpers';

const st = (brawn: number, agility: number, endurance = 2) => ({
  brawn,
  agility,
  endurance,
  spirit: 3,
  technique: 2,
});

/** Ember (Stage 2, d8, Brawn 3: Base Damage 5; Claw 5 d8) against a wild wolf (2 d6 Dodge) with `hp`. */
const duel = (hp = 30, emberSheet: Record<string, unknown> = {}) =>
  close(
    fight(
      [
        { id: 'ember', sheet: beast(emberSheet), side: 'h' },
        { id: 'wolf', sheet: wild({ hp }), side: 'w' },
      ],
      'ember',
    ),
    'ember',
    'wolf',
  );
const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };

describe('audit — arcana-beast.txt lines 49–54: Results and Damage Formula', () => {
  it('l.50 "Miss: Defender equals … attacker’s successes": 2 successes against 2 is a miss, no damage', () => {
    // Claw 5 d8: 4, 4, 1, 1, 1 → 2; wolf Dodge 2 d6: 4, 4 → 2.
    const out = exact(duel(), claw, { dice: [4, 4, 1, 1, 1, 4, 4] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { successes: 2 },
      dodge: { successes: 2 },
      outcome: 'miss',
      damage: 0,
    });
    expect(types(out)).not.toContain('DamageDealt');
  });

  it('l.50: 0 successes against 0 is a miss (equal)', () => {
    const out = exact(duel(), claw, { dice: [1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'miss', damage: 0 });
  });

  it('l.51, l.53: exceeding by exactly 1 hits for Base Damage + 1: 3 vs 2 → 5 + 1 = 6', () => {
    // Claw 5 d8: 4, 5, 6, 1, 1 → 3; Dodge 2 d6: 4, 6 → 2.
    const out = exact(duel(), claw, { dice: [4, 5, 6, 1, 1, 4, 6] });
    expect(find(out, 'AttackResolved')).toMatchObject({ outcome: 'hit', extraSuccesses: 1, damage: 6 });
    expect(find(out, 'DamageDealt')).toMatchObject({ hpBefore: 30, hp: 24 });
  });

  it('l.52 "3+ faces showing 6+": exactly two 6+ faces on a hit are no Critical: 4 vs 0 → 5 + 4 = 9', () => {
    const out = exact(duel(), claw, { dice: [6, 8, 4, 4, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      outcome: 'hit',
      critical: false,
      attack: { successes: 4, sixes: 2 },
      damage: 9,
    });
  });

  it('l.52 on a d6 (Stage 1): three 6s exactly are a Critical: Base (2 + 1)·2 + 3 extra = 9', () => {
    const e = close(
      fight(
        [
          { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }], stats: st(2, 2) }), side: 'h' },
          { id: 'wolf', sheet: wild({ hp: 30 }), side: 'w' },
        ],
        'pip',
      ),
      'pip',
      'wolf',
    );
    // Pip's Claw: Brawn 2 + Rank 1 + Claws 1 = 4 d6: 6, 6, 6, 1; the wolf's Dodge 1, 1.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf', attackId: 'claw' },
      { dice: [6, 6, 6, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { sides: 6, successes: 3, sixes: 3 },
      critical: true,
      baseDamage: 3,
      damage: 9,
    });
  });

  it('l.52 with l.68 (Obscured: Setback): the dropped highest die does not count — 6, 6, 6 rolled, two kept: no Critical', () => {
    const e = then(duel(), { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    // 5 d8 + the Setback die: 6, 6, 6, 4, 1, 1 → the first 6 is dropped → kept 6, 6, 4, 1, 1: 3 successes, 2 sixes.
    const out = exact(e, claw, { dice: [6, 6, 6, 4, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { edge: 'setback', successes: 3, sixes: 2 },
      critical: false,
      damage: 5 + 3,
    });
  });

  it('l.54 "Brawn + Stage": a Brawn 0, Stage 0 beast hitting by 1 deals 0 + 1 = 1', () => {
    const e = duel(30, {
      stage: 0,
      stats: st(0, 2),
      attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
    });
    // Claw: Brawn 0 + Rank 0 = 0 dice; Direct would be needed to roll. Use bonusDice 1 (A30) instead: 1 d6.
    const out = exact(e, { ...claw, bonusDice: 1 }, { dice: [4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ baseDamage: 0, extraSuccesses: 1, damage: 1 });
  });
});

describe('audit — arcana-beast.txt lines 70–81: Knockout, Devolution, Critical Gauge', () => {
  it('l.71 "At 0 HP": damage exactly equal to HP knocks out; one HP more leaves 1 HP and no Knockout', () => {
    // Claw 1 success vs 0: 5 + 1 = 6.
    const exactly = exact(duel(6), claw, { dice: [4, 1, 1, 1, 1, 1, 1] });
    expect(find(exactly, 'DamageDealt')).toMatchObject({ damage: 6, hp: 0 });
    expect(types(exactly)).toContain('KnockedOut');
    const oneMore = exact(duel(7), claw, { dice: [4, 1, 1, 1, 1, 1, 1] });
    expect(find(oneMore, 'DamageDealt')).toMatchObject({ damage: 6, hp: 1 });
    expect(types(oneMore)).not.toContain('KnockedOut');
  });

  it('l.71: damage beyond the HP left stops at 0 (A11)', () => {
    const out = exact(duel(2), claw, { dice: [4, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'DamageDealt')).toMatchObject({ damage: 6, hpBefore: 2, hp: 0 });
  });

  /** Ember (3 HP, Agility 0: no Dodge dice) bitten by the wolf (2 d6) for 3 + 2 = 5: Knocked Out. */
  const ko = (stage: number, endurance: number, gauge?: number) => {
    const stages = [0, 1, 2, 3, 4].map((s) => ({ stage: s }));
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild(), side: 'wild' },
      {
        id: 'ember',
        sheet: beast({ hp: 3, stage, stages, stats: st(3, 0, endurance), defensiveQualities: [] }),
        side: 'h',
      },
      { id: 'ash', sheet: binder('ember'), side: 'h' },
    ];
    const e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    if (gauge !== undefined)
      e.splice(e.length - 2, 0, {
        type: 'CriticalGaugeRaised',
        data: { combatantId: 'x', from: 0, to: gauge },
      });
    return e;
  };
  const bite = { type: 'Attack', attackerId: 'wolf', targetId: 'ember' };

  it.each([
    [9, 10],
    [3, 4],
    [10, 11],
  ])('l.78–81 "Critical Gauge thresholds 3, 6, 9": from %i to %i triggers no Critical Move', (from, to) => {
    const out = exact(ko(0, 2, from), bite, { dice: [6, 6] });
    expect(find(out, 'CriticalGaugeRaised')).toMatchObject({ from, to });
    expect(types(out)).not.toContain('CriticalMoveTriggered');
  });

  it('l.76 "From Stage 2+: Endurance Test Diff 3 pass = Stage 1": from Stage 4 the test rolls d12; 3 successes pass → Stage 1', () => {
    const out = exact(ko(4, 3), bite, { dice: [6, 6], followUpFaces: [12, 4, 4] });
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 4,
      stageAfter: 1,
      test: { sides: 12, successes: 3, difficulty: 3, passed: true },
    });
    expect(find(out, 'StageDevolved')).toMatchObject({ from: 4, to: 1 });
  });

  it('l.76 "fail = Stage 0": from Stage 3, 2 successes of 3 d10 fail → Stage 0', () => {
    const out = exact(ko(3, 3), bite, { dice: [6, 6], followUpFaces: [10, 4, 3] });
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 3,
      stageAfter: 0,
      test: { sides: 10, successes: 2, passed: false },
    });
  });
});

describe('audit — arcana-beast.txt lines 82–87 and 30: Evolution in Combat', () => {
  it('l.83 "Evolving is immediate – does not take an Action": a beast may Evolve after its Action too', () => {
    let e = then(duel(), claw, { dice: [1, 1, 1, 1, 1, 1, 1] });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    const out = exact(e, { type: 'Evolve', combatantId: 'ember' });
    expect(find(out, 'StageEvolved')).toMatchObject({ from: 2, to: 3 });
  });

  it('l.84–85, l.87: Stage 0 → 2 costs nothing, then 2 → 3 with the Trigger, in one turn; the encounter’s end reverts only the highest', () => {
    let e = fight([{ id: 'ember', sheet: beast({ stage: 0 }), side: 'h' }], 'ember');
    e = then(e, { type: 'Evolve', combatantId: 'ember', stage: 2 });
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true });
    e = then(e, { type: 'Evolve', combatantId: 'ember', stage: 3 });
    expect(stateOf(e).combatants.ember.stage).toBe(3);
    const out = exact(e, { type: 'EndScene' });
    expect(find(out, 'StageDevolved')).toMatchObject({ from: 3, to: 2, reason: 'encounterEnded' });
  });
});

describe('audit — arcana-beast.txt lines 11–24: Movement & Range', () => {
  it('l.24 "ranged (Close/Near)": a ranged attack reaches a Close target', () => {
    const out = exact(
      duel(),
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'spark' },
      { dice: [1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved')).toMatchObject({ range: 'ranged', band: 'close' });
  });

  it('l.17–18: Close → Far with the free move is two bands: refused without Reposition; a Reposition does it', () => {
    const e = duel();
    expect(refused(e, { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'far' })).toMatchObject({
      code: 'ARCANA_REPOSITION_NEEDED',
    });
    const out = exact(e, { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'far' });
    expect(find(out, 'Moved')).toMatchObject({ from: 'close', to: 'far', by: 'reposition' });
  });
});

describe('audit — arcana-beast.txt lines 33–41: Beast Binder Commands', () => {
  const pair = () =>
    close(
      fight(
        [
          { id: 'ember', sheet: beast({ stamina: 1 }), side: 'h' },
          { id: 'ash', sheet: binder('ember'), side: 'h' },
          { id: 'wolf', sheet: wild({ hp: 30 }), side: 'w' },
        ],
        'ember',
      ),
      'ember',
      'wolf',
    );

  it('l.38 "Strategize (Technique Test, Diff 2)": 1 success of 2 fails', () => {
    const out = exact(pair(), { type: 'Strategize', combatantId: 'ash' }, { dice: [6, 3] });
    expect(find(out, 'BinderCommanded')).toMatchObject({
      passed: false,
      test: { successes: 1, difficulty: 2 },
    });
  });

  it('l.41 "Bond Surge … costs 1 Stamina": the last point of Stamina pays for it; the beast is left at 0', () => {
    const out = exact(pair(), { type: 'BondSurge', combatantId: 'ash' });
    expect(find(out, 'StaminaSpent')).toEqual({ combatantId: 'ember', amount: 1, stamina: 0 });
  });
});

describe('audit — arcana-beast.txt lines 55–60: Combo Attacks with a third side', () => {
  /**
   * Heroes Ember and Pip, and a rival beast Fang, against a wild wolf, in the order Ember, Fang, Pip. Ember claws
   * the wolf, Fang bites it, Pip claws it. The text ("the same enemy on consecutive turns", reset when "the target
   * acts") keeps the heroes' chain: Fang's attack is neither an allied attack nor the wolf acting (A57).
   */
  it('l.56–60: a rival side’s attack on the same target between two allied attacks leaves the allies’ chain (A57)', () => {
    const fighters: Fighter[] = [
      { id: 'ember', sheet: beast(), side: 'heroes' },
      { id: 'fang', sheet: wild(), side: 'rivals' },
      { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 1 }] }), side: 'heroes' },
      { id: 'wolf', sheet: wild({ hp: 60 }), side: 'wild' },
    ];
    let e = ['fang', 'pip'].reduce(
      (x, id) => close(x, id, 'wolf'),
      close(fight(fighters, 'ember'), 'ember', 'wolf'),
    );
    e = then(e, claw, { dice: [6, 5, 4, 4, 4, 1, 1] });
    e = then(
      next(e, 'fang'),
      { type: 'Attack', attackerId: 'fang', targetId: 'wolf' },
      { dice: [1, 1, 1, 1] },
    );
    e = next(e, 'pip');
    // Pip's Claw: 5 d6 + the combo die, all misses; the wolf's Dodge 2 d6.
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { dice: [1, 1, 1, 1, 1, 1, 1, 1] },
    );
    expect(find(out, 'AttackResolved').combo).toMatchObject({ position: 2, dieBonus: 1 });
  });
});

describe('audit — arcana-beast.txt lines 1, 3–5: Initiative on the Stage die', () => {
  it('l.1, l.4–5: a Stage 4 beast rolls its Agility initiative on d12 and a Stage 0 one on d6; most successes first', () => {
    const stages = [0, 1, 2, 3, 4].map((stage) => ({ stage }));
    const events: RuleEvent[] = fight([
      { id: 'old', sheet: beast({ stage: 4, stages, stats: st(3, 2) }), side: 'h' },
      { id: 'cub', sheet: beast({ stage: 0, stages, stats: st(3, 3) }), side: 'w' },
    ]).slice(0, 3);
    // old: 2 d12 → 12, 4 = 2 successes; cub: 3 d6 → 4, 1, 1 = 1 success.
    const out = exact(events, { type: 'RollInitiative' }, { dice: [12, 4, 4, 1, 1] });
    const rolled = find(out, 'InitiativeRolled');
    expect(
      rolled.rolls.map((r: { roll: { sides: number }; total: number }) => [r.roll.sides, r.total]),
    ).toEqual([
      [12, 2],
      [6, 1],
    ]);
    expect(rolled.order).toEqual(['old', 'cub']);
  });
});
