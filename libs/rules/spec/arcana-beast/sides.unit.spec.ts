import { FightCore, RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { findSystem } from '../../src/registry';
import { ARCANA_BEAST_OPTIONS } from '../../src/arcana-beast';
import { beast, binder, close, exact, fight, Fighter, find, refused, stateOf, types, wild } from './helpers';

const st = (brawn: number, agility: number, endurance: number) => ({
  brawn,
  agility,
  endurance,
  spirit: 3,
  technique: 2,
});
/** The fight with these options in its FightStarted. */
const withOptions = (events: RuleEvent[], options: Record<string, unknown>): RuleEvent[] => [
  { ...events[0], data: { ...events[0].data, options } },
  ...events.slice(1),
];

/**
 * Ash and Ember (Stage 2, d8, 3 HP) are the players'; Rook and Fang (Stage 1, d6, 3 HP) a rival Binder and its
 * beast; a wild wolf. Ember's claw: 5 d8; Fang's bite: 2 d6; Ember's Dodge 3 d8, Fang's 2 d6.
 */
const rivals = (emberSheet: Record<string, unknown> = {}): Fighter[] => [
  { id: 'ember', sheet: beast({ hp: 3, ...emberSheet }), side: 'heroes' },
  { id: 'ash', sheet: binder('ember'), side: 'heroes' },
  { id: 'fang', sheet: wild({ hp: 3 }), side: 'rivals' },
  { id: 'rook', sheet: binder('fang', { hp: 2 }), side: 'rivals' },
  { id: 'wolf', sheet: wild(), side: 'wild' },
];
const onTurn = (
  active: string,
  options: Record<string, unknown> = { playerSides: ['heroes'] },
  emberSheet: Record<string, unknown> = {},
) => close(close(withOptions(fight(rivals(emberSheet), active), options), 'ember', 'fang'), 'ember', 'wolf');
const claw = { type: 'Attack', attackerId: 'ember', targetId: 'fang', attackId: 'claw' };
const bite = (attackerId: string) => ({ type: 'Attack', attackerId, targetId: 'ember' });
const KO_CLAW = [5, 5, 5, 1, 1, 1, 1];
const KO_BITE = [5, 5, 1, 1, 1];

describe('RULINGS.md A35: which side is the players’ (A7 Critical Gauge, A13 Harm and Devolution)', () => {
  it('A35: "At 0 HP: Add 1 to Critical Gauge, Gain a Harm" is the player side’s — a rival Binder’s beast knocked out by the heroes simply drops out', () => {
    const start = onTurn('ember');
    const out = exact(start, claw, { dice: KO_CLAW });
    expect(types(out)).toEqual(['ActionTaken', 'AttackResolved', 'DamageDealt', 'KnockedOut']);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'fang', playerSide: false });
    const after = stateOf([...start, ...out]);
    expect(after.criticalGauge).toBe(0);
    expect(after.combatants.fang).toMatchObject({ knockedOut: true, harms: [], stage: 1 });
  });

  it('A35, A21: a rival Binder at 0 HP is Knocked Out with no Critical Gauge and no Harm', () => {
    const start = onTurn('ember');
    const out = exact(start, { ...claw, targetId: 'rook', intercept: false }, { dice: KO_CLAW });
    expect(types(out)).toEqual([
      'ActionTaken',
      'InterceptDecided',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
    ]);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'rook', playerSide: false });
  });

  it('A35: the rival’s beast knocking out a hero’s beast still raises the players’ Critical Gauge, gives a Harm and a Devolution Test', () => {
    const start = onTurn('fang');
    const out = exact(start, bite('fang'), { dice: KO_BITE, followUpFaces: [8, 8] });
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
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'ember', playerSide: true });
    expect(find(out, 'CriticalGaugeRaised')).toEqual({ combatantId: 'ember', from: 0, to: 1 });
  });

  it('A35: without playerSides every Binder and bound beast is on the player side, as before (a fight whose Binders are all the players’)', () => {
    const start = onTurn('ember', {});
    const out = exact(start, claw, { dice: KO_CLAW, followUpFaces: [4, 4] });
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DevolutionTested',
    ]);
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'fang', playerSide: true });
  });

  it('A35: a wild beast is never on the player side, even on a side playerSides names', () => {
    const start = onTurn('ember', { playerSides: ['heroes', 'wild'] });
    const out = exact(start, { ...claw, targetId: 'wolf' }, { dice: KO_CLAW });
    expect(find(out, 'KnockedOut')).toEqual({ combatantId: 'wolf', playerSide: false });
  });

  it('A35: playerSides is a list of distinct side ids; anything else is refused naming the field', () => {
    const refusal = (options: unknown) =>
      refused([], { type: 'StartFight', dice: { mode: 'manual', commitment: '0'.repeat(64) }, options });
    expect(refusal({ playerSides: 'heroes' })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'options.playerSides',
    });
    expect(refusal({ playerSides: ['heroes', 'heroes'] })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'options.playerSides',
    });
    expect(refusal({ playerSides: ['two words'] })).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'options.playerSides[0]',
    });
    expect(ARCANA_BEAST_OPTIONS.parse({ playerSides: [] })).toEqual({ playerSides: [] });
  });
});

describe('RULINGS.md A36: a Devolution Test is rolled by the beast’s controller (C3, C11, C13)', () => {
  const arcana = findSystem('arcana-beast')!;
  const PROVIDE = (faces: ManualFaces): RuleCommand => ({ type: 'ProvideDice', ...faces });
  const fold = (events: RuleEvent[]): FightCore => events.reduce(arcana.evolve, arcana.start('f1'));
  /** As the fight service decides: the faces from the command, every face used. */
  const decide = (events: RuleEvent[], command: RuleCommand): RuleEvent[] => {
    const dice = new ManualDice(command as ManualFaces);
    const out = arcana.decide(fold(events), command, dice);
    dice.assertAllUsed();
    return out;
  };
  const refusal = (events: RuleEvent[], command: RuleCommand): RuleViolation => {
    try {
      decide(events, command);
    } catch (e) {
      if (e instanceof RuleViolation) return e;
      throw e;
    }
    throw new Error(`expected ${command.type} to be refused`);
  };
  const start = () => onTurn('wolf');

  it('"At 0 HP: … Stage 2+ PCs must Devolve": the wild beast’s attack stands, and the test’s dice are asked of the beast’s Binder', () => {
    const upFront = decide(start(), { ...bite('wolf'), dice: KO_BITE, followUpFaces: [8, 8] });
    const asked = decide(start(), { ...bite('wolf'), dice: KO_BITE });
    expect(types(asked)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DiceRequested',
    ]);
    expect(asked.slice(0, -1)).toEqual(upFront.slice(0, 6));
    expect(find(asked, 'DiceRequested')).toEqual({
      command: { type: 'DevolutionTest', combatantId: 'ember' },
      awaiting: 'ash',
      need: { field: 'followUpFaces', count: 2, sides: 8, reason: expect.stringContaining('DevolutionTest') },
    });
    const waiting = fold([...start(), ...asked]);
    expect(waiting.pending).toMatchObject({
      kind: 'dice',
      awaiting: 'ash',
      answer: 'ProvideDice',
      detail: { commandType: 'DevolutionTest', field: 'followUpFaces', count: 2, sides: 8 },
    });
    expect(arcana.actorOf!(waiting, PROVIDE({ followUpFaces: [8, 8] }))).toEqual({
      combatantId: 'ash',
      field: 'type',
    });
    const rolled = decide([...start(), ...asked], PROVIDE({ followUpFaces: [8, 8] }));
    expect(rolled).toEqual(upFront.slice(6));
    expect(fold([...start(), ...asked, ...rolled])).toEqual(fold([...start(), ...upFront]));
  });

  it('A36: answered in part, the test asks its Binder again for the rest', () => {
    const asked = [...start(), ...decide(start(), { ...bite('wolf'), dice: KO_BITE })];
    const part = decide(asked, PROVIDE({ followUpFaces: [8] }));
    expect(types(part)).toEqual(['DiceRequested']);
    expect(fold([...asked, ...part]).pending).toMatchObject({
      awaiting: 'ash',
      detail: { commandType: 'DevolutionTest', count: 1, sides: 8 },
    });
    expect(types(decide([...asked, ...part], PROVIDE({ followUpFaces: [1] })))).toEqual([
      'DevolutionTested',
      'StageDevolved',
    ]);
  });

  it('A36: an attack held for its Dodge pool asks the attacker; once decided, the Devolution Test is asked of the Binder', () => {
    const held = [...start(), ...decide(start(), { ...bite('wolf'), dice: [5, 5] })];
    expect(fold(held).pending).toMatchObject({
      awaiting: 'wolf',
      detail: { commandType: 'Attack', field: 'dice', count: 3 },
    });
    const out = decide(held, PROVIDE({ dice: [1, 1, 1] }));
    expect(types(out)).toEqual([
      'ActionTaken',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DiceRequested',
    ]);
    expect(fold([...held, ...out]).pending).toMatchObject({
      awaiting: 'ash',
      detail: { commandType: 'DevolutionTest' },
    });
  });

  it('A36, A22: a beast knocked out intercepting an attack on its Binder: the test is asked of that Binder, and cancelling it does not bring the answered Intercept back', () => {
    const declared = [
      ...onTurn('fang'),
      ...decide(onTurn('fang'), { type: 'Attack', attackerId: 'fang', targetId: 'ash' }),
    ];
    expect(fold(declared).pending).toMatchObject({ kind: 'intercept', awaiting: 'ember' });
    const asked = [
      ...declared,
      ...decide(declared, { type: 'Intercept', combatantId: 'ember', intercept: true, dice: KO_BITE }),
    ];
    expect(types(asked.slice(declared.length))).toEqual([
      'InterceptDecided',
      'AttackResolved',
      'DamageDealt',
      'KnockedOut',
      'CriticalGaugeRaised',
      'HarmGained',
      'DiceRequested',
    ]);
    expect(fold(asked).pending).toMatchObject({
      kind: 'dice',
      awaiting: 'ash',
      detail: { commandType: 'DevolutionTest' },
    });
    expect(fold([...asked, ...decide(asked, { type: 'CancelPending' })]).pending).toBeUndefined();
  });

  it('A36: part of the test’s faces on the attack is refused: all of them, or none and the Binder is asked', () => {
    expect(refusal(start(), { ...bite('wolf'), dice: KO_BITE, followUpFaces: [8] })).toMatchObject({
      code: 'DICE_MANUAL_FACES_MISSING',
      field: 'followUpFaces[1]',
      message: expect.stringMatching(/^ruling A36/),
    });
  });

  it('A36: the GM’s CancelPending drops the test (the beast keeps its Stage); DevolutionTest is never a command one sends', () => {
    const asked = [...start(), ...decide(start(), { ...bite('wolf'), dice: KO_BITE })];
    const cancelled = decide(asked, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual(['DiceRequestCancelled']);
    const after = [...asked, ...cancelled];
    expect(fold(after).pending).toBeUndefined();
    expect(fold(after).combatants.ember).toMatchObject({ knockedOut: true, stage: 2 });
    expect(refusal(after, { type: 'DevolutionTest', combatantId: 'ember', followUpFaces: [8, 8] }).code).toBe(
      'UNKNOWN_COMMAND',
    );
    expect(
      refusal(start(), { type: 'DevolutionTest', combatantId: 'ember', followUpFaces: [8, 8] }).code,
    ).toBe('UNKNOWN_COMMAND');
  });

  it('A26: an Assist die the Dodge used is not used again by the Knockout’s Devolution Test', () => {
    const assisted = [...start(), { type: 'Assisted', data: { combatantId: 'ash', allyId: 'ember' } }];
    // Ember's Dodge: 3 d8 + the Assist die; then its Devolution Test: Endurance 2 d8, no Assist left.
    const out = decide(assisted, { ...bite('wolf'), dice: [5, 5, 1, 1, 1, 1], followUpFaces: [8, 8] });
    expect(out.filter((e) => e.type === 'BonusDiceUsed')).toHaveLength(1);
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 4, bonuses: [{ source: 'Assist', dice: 1 }] },
    });
    expect(find(out, 'DevolutionTested')).toMatchObject({ test: { dice: 2, bonuses: [] } });
  });

  it('A36: the decider on its own refuses the attack short of the test’s faces, as RULINGS.md C6 says', () => {
    expect(refused(start(), bite('wolf'), { dice: KO_BITE })).toMatchObject({
      code: 'DICE_MANUAL_FACES_MISSING',
      field: 'followUpFaces[0]',
    });
  });
});

describe('RULINGS.md A37: Devolution lands on an unlocked Stage', () => {
  const stages = (...s: number[]) => s.map((stage) => ({ stage }));
  const koed = (sheet: Record<string, unknown>, faces: number[]) =>
    exact(onTurn('wolf', { playerSides: ['heroes'] }, sheet), bite('wolf'), {
      dice: KO_BITE,
      followUpFaces: faces,
    });

  it.each([
    [
      '[0, 2]',
      'a pass ("pass = Stage 1") gives Stage 0, the highest unlocked below 1',
      { stage: 2, stages: stages(0, 2), stats: st(3, 2, 3) },
      [8, 8, 8],
      true,
      0,
    ],
    [
      '[1, 2]',
      'a fail ("fail = Stage 0") gives Stage 1, the lowest unlocked',
      { stage: 2, stages: stages(1, 2) },
      [1, 1],
      false,
      1,
    ],
    ['[1]', 'a fail from Stage 1 leaves it at Stage 1', { stage: 1, stages: stages(1) }, [1, 1], false, 1],
    [
      '[0, 1, 2]',
      'a pass gives Stage 1, as the text says',
      { stage: 2, stages: stages(0, 1, 2), stats: st(3, 2, 3) },
      [8, 8, 8],
      true,
      1,
    ],
  ])(
    '"From Stage 2+: … pass = Stage 1, fail = Stage 0": unlocked stages %s: %s',
    (_unlocked, _what, sheet, faces, passed, after) => {
      const out = koed(sheet, faces);
      const before = (sheet as { stage: number }).stage;
      expect(find(out, 'DevolutionTested')).toMatchObject({
        stageBefore: before,
        stageAfter: after,
        test: { passed },
      });
      expect(types(out).includes('StageDevolved')).toBe(after < before);
      const ember = stateOf([...onTurn('wolf', { playerSides: ['heroes'] }, sheet), ...out]).combatants.ember;
      expect((sheet as { stages: { stage: number }[] }).stages.map((s) => s.stage)).toContain(ember.stage);
    },
  );

  it('A37: a Call Back’s Devolution Test lands the same way', () => {
    const start = onTurn(
      'ember',
      { playerSides: ['heroes'] },
      { hp: 12, stage: 2, stages: stages(0, 2), stats: st(3, 2, 3) },
    );
    const out = exact(
      start,
      { type: 'CallBack', combatantId: 'ash', mode: 'devolve' },
      { followUpFaces: [8, 8, 8, 1] },
    );
    expect(find(out, 'DevolutionTested')).toMatchObject({
      stageBefore: 2,
      stageAfter: 0,
      test: { passed: true },
    });
    expect(find(out, 'StageDevolved')).toMatchObject({ from: 2, to: 0 });
  });
});

describe('arcana-beast.txt: Initiative & Turn Order: "Turn Order: Highest successes first, remains fixed"', () => {
  it('a second RollInitiative is refused citing the Arcana Beast text, not Narateer’s N16', () => {
    const refusal = refused(fight(rivals()), { type: 'RollInitiative' });
    expect(refusal).toMatchObject({ code: 'INITIATIVE_ALREADY_SET', field: 'type' });
    expect(refusal.message).toMatch(/^arcana-beast\.txt: Initiative & Turn Order: .*remains fixed/);
    expect(refusal.message).not.toMatch(/N16/);
  });
});
