import { RuleEvent } from '../../src/core/types';
import {
  ash,
  attack,
  beast,
  close,
  ember,
  exact,
  fight,
  Fighter,
  find,
  next,
  stateOf,
  then,
  wild,
  wolf,
} from './helpers';

// More cases worked out by hand from arcana-beast.txt (and RULINGS.md where it decides), each number traced in a
// comment to the line it comes from. Every case agreed with the engine when written.

describe('arcana-beast.txt: conditions that combine, worked by hand', () => {
  it('"Critical Hit: 3+ faces showing 6+" and "Obscured: Attacks against you made with Setback": given Ember’s Claw on an Obscured wolf, when 6 d8 show 8, 8, 8, 1, 1, 1, then the Setback drops one 8 and two 6+ faces are no Critical: 5 + 2 = 7', () => {
    let e = close(fight([ember(), wolf('wolf', 40)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    // "Build pool Stat + Quality/Attack Ranks": Brawn 3 + Rank 1 + Claws 1 = 5 d8 (Stage 2), + 1 Setback die = 6.
    // Setback drops the highest (A3): kept 8, 8, 1, 1, 1: 2 successes, 2 faces of 6+ (A12: kept dice only).
    // The wolf's Dodge, Agility 2 on d6: 1, 1 = 0. Hit by 2: Base Damage Brawn 3 + Stage 2 = 5, + 2 = 7.
    const r = find(exact(e, attack('ember', 'wolf'), { dice: [8, 8, 8, 1, 1, 1, 1, 1] }), 'AttackResolved');
    expect(r.attack).toMatchObject({ dice: 5, edge: 'setback', successes: 2, sixes: 2 });
    expect(r).toMatchObject({ outcome: 'hit', critical: false, extraSuccesses: 2, damage: 7 });
  });

  it('"Bond Surge: Boost on ALL rolls this turn" and "Obscured … Setback": given Ash’s Bond Surge and an Obscured wolf, when Ember claws it, then Boost and Setback cancel (A3): 5 d8 rolled, no extra die, and the Stamina is spent: 2 → 1', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 40)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTag', combatantId: 'wolf', tag: 'obscured' });
    e = then(e, { type: 'BondSurge', combatantId: 'ash' });
    expect(stateOf(e).combatants.ember.stamina).toBe(1);
    // 5 d8 (no extra die: one Boost and one Setback cancel), then the wolf's 2 d6.
    const r = find(exact(e, attack('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] }), 'AttackResolved');
    expect(r.attack).toMatchObject({
      dice: 5,
      edge: 'none',
      boostSources: ['Bond Surge'],
      setbackSources: ['Obscured'],
    });
    expect(r.attack.kept).toHaveLength(5);
  });

  it('"Defend: Boost on all Dodge rolls until next turn", "Encourage: +1 Dodge die" and "If beastbinder is targeted Arcana Beast can intercept": given Ember Defended after Ash’s passed Encourage, when the wolf bites Ash and Ember intercepts, then Ember’s Dodge rolls 3 + 1 dice with Boost: 5 d8, the lowest dropped', () => {
    let e = close(fight([ember(), ash, wolf('wolf', 40)], 'ember'), 'ember', 'wolf');
    // Encourage: Spirit Test, Diff 1: Ash's Spirit 3 on d6: 4, 1, 1 = 1 success, passed.
    e = then(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    e = then(e, { type: 'Defend', combatantId: 'ember' });
    e = next(e, 'wolf');
    e = then(e, attack('wolf', 'ash'));
    // Bite: Brawn 2 on d6: 4, 4 = 2. Ember's Dodge: Agility 2 + Nimble 1 + Encourage 1 = 4 d8, + 1 Boost die (Defend) = 5,
    // 1 dropped: kept 5, 4, 2, 2: 2 successes, equal to the Bite's: "Miss: Defender equals/exceeds".
    const r = find(
      exact(e, { type: 'Intercept', combatantId: 'ember', intercept: true }, { dice: [4, 4, 5, 4, 2, 2, 1] }),
      'AttackResolved',
    );
    expect(r).toMatchObject({ targetId: 'ember', declaredTargetId: 'ash', redirectedBy: 'intercept' });
    expect(r.dodge).toMatchObject({ combatantId: 'ember', dice: 4, sides: 8, edge: 'boost', successes: 2 });
    expect(r.dodge.boostSources).toEqual(['Defend']);
    expect(r.dodge.bonuses).toEqual([{ source: 'Encourage', dice: 1 }]);
    expect(r.outcome).toBe('miss');
  });

  const stage1Pc = (followUpFaces: number[]): RuleEvent[] => {
    const fighters: Fighter[] = [
      { id: 'wolf', sheet: wild({ hp: 20 }), side: 'wild' },
      { id: 'pip', sheet: beast({ stage: 1, stages: [{ stage: 0 }, { stage: 1 }], hp: 3 }), side: 'heroes' },
      {
        id: 'bo',
        sheet: { kind: 'binder', beastId: 'pip', stats: ash.sheet.stats, hp: 10, stamina: 3 },
        side: 'heroes',
      },
    ];
    const e = close(fight(fighters, 'wolf'), 'wolf', 'pip');
    // Bite 2 d6: 6, 6 = 2 successes; Pip's Dodge Agility 2 + Nimble 1 = 3 d6 (Stage 1): 1, 1, 1 = 0. Hit by 2: the
    // wolf's Base Damage Brawn 2 + Stage 1 = 3, + 2 = 5 on Pip's 3 HP: 0 HP.
    return exact(e, attack('wolf', 'pip'), { dice: [6, 6, 1, 1, 1], followUpFaces });
  };

  it.each([
    ['4, 5', 2, 1, true],
    ['4, 3', 1, 0, false],
  ])(
    '"At 0 HP" and "From Stage 1: Endurance Test Diff 2 pass = stay, fail = Stage 0": given Pip at Stage 1 with 3 HP, when the wolf’s Bite deals 5 and its Endurance 2 d6 show %s, then the Gauge goes 0 → 1, Pip gains a Harm, and %i successes leave it at Stage %i',
    (shown, successes, stage, passed) => {
      const faces = shown.split(', ').map(Number);
      const out = stage1Pc(faces);
      expect(find(out, 'DamageDealt')).toMatchObject({ damage: 5, hpBefore: 3, hp: 0 });
      expect(find(out, 'CriticalGaugeRaised')).toMatchObject({ from: 0, to: 1 });
      expect(find(out, 'HarmGained')).toMatchObject({ combatantId: 'pip' });
      expect(find(out, 'DevolutionTested')).toMatchObject({
        stageBefore: 1,
        stageAfter: stage,
        test: { dice: 2, sides: 6, difficulty: 2, successes, passed },
      });
      expect(out.some((ev) => ev.type === 'StageDevolved')).toBe(!passed);
    },
  );
});
