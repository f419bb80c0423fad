/**
 * Ruling A75: two waiting +1 dice of one kind. "Assist: Help a Close ally's next roll (+1 die)", "Encourage: … +1 Dodge
 * die" and A3: '"+1 die" effects (Direct, Assist, Cover, High Ground, Flanking, combos) add to the pool and do
 * stack'. Every number is worked from the text; the dice are traced in comments.
 */
import { RuleEvent } from '../../src/core/types';
import { arcanaBeast, ArcanaBeastView } from '../../src/arcana-beast';
import {
  ash,
  attack,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  find,
  kit,
  next,
  pip,
  stateOf,
  then,
  types,
  wolf,
} from './helpers';

const viewOf = (events: RuleEvent[], id: string) =>
  (arcanaBeast.view(stateOf(events)) as ArcanaBeastView).combatants.find((c) => c.id === id)!;
/** The running turn ends; the round, which every beast has had, ends with it; the next starts with `id`’s turn. */
const nextRound = (e: RuleEvent[], id: string) =>
  then(then(end(e), { type: 'StartRound' }), { type: 'StartActivation', combatantId: id });

describe('A75: two waiting +1 dice of one kind go to the one roll they wait for', () => {
  // Pip: Stage 1 (d6), Brawn 2, Agility 3: Claw 2 + Rank 1 + Claws 1 = 4 d6, Dodge 3 + Nimble 1 = 4 d6, Base Damage
  // 2 + 1 = 3. The wolf: Bite 2 d6, Dodge 2 d6.

  it('A75: given Ember’s and Kit’s Assists on Pip, when Pip claws the wolf, then the Claw rolls 4 + 2 = 6 d6 and spends both, and Pip’s Dodge after it rolls 4 d6 with none', () => {
    let e = fight([ember(), ash, kit(), pip, bo, wolf()], 'ember');
    e = close(close(close(e, 'ember', 'pip'), 'kit', 'pip'), 'pip', 'wolf');
    e = then(e, { type: 'Assist', combatantId: 'ember', allyId: 'pip' });
    e = then(next(e, 'kit'), { type: 'Assist', combatantId: 'kit', allyId: 'pip' });
    expect(viewOf(e, 'pip').assistDice).toBe(2);

    // Claw 6 d6 [4, 1, 1, 1, 1, 1] = 1 against the wolf's Dodge [1, 1] = 0: a hit by 1, 3 + 1 = 4 damage.
    e = next(e, 'pip');
    let out = exact(e, attack('pip', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'pip', source: 'Assist', dice: 2 });
    expect(find(out, 'AttackResolved')).toMatchObject({
      attack: { dice: 6, bonuses: [{ source: 'Assist', dice: 2 }] },
      damage: 4,
    });
    e = [...e, ...out];
    expect(viewOf(e, 'pip').assistDice).toBe(0);

    // The wolf's Bite [4, 1] = 1 against Pip's Dodge 4 d6 [4, 1, 1, 1] = 1: a miss; no die is left for it.
    out = exact(next(e, 'wolf'), attack('wolf', 'pip'), { dice: [4, 1, 4, 1, 1, 1] });
    expect(types(out)).not.toContain('BonusDiceUsed');
    expect(find(out, 'AttackResolved')).toMatchObject({ dodge: { dice: 4, bonuses: [] }, outcome: 'miss' });
  });

  it('A75: given Kit’s Assists on Pip in two rounds and no roll of Pip’s between, when the wolf bites Pip, then Pip’s Dodge, its next roll, rolls 4 + 2 = 6 d6 and spends both', () => {
    let e = close(close(fight([kit(), pip, bo, wolf()], 'kit'), 'kit', 'pip'), 'pip', 'wolf');
    e = then(e, { type: 'Assist', combatantId: 'kit', allyId: 'pip' });
    e = then(next(e, 'pip'), { type: 'Pass', combatantId: 'pip' });
    e = then(next(e, 'wolf'), { type: 'Pass', combatantId: 'wolf' });
    e = then(nextRound(e, 'kit'), { type: 'Assist', combatantId: 'kit', allyId: 'pip' });
    expect(viewOf(e, 'pip').assistDice).toBe(2);
    e = then(next(e, 'pip'), { type: 'Pass', combatantId: 'pip' });

    // Bite 2 d6 [4, 4] = 2 against Pip's Dodge 6 d6 [4, 4, 4, 1, 1, 1] = 3: a miss.
    const out = exact(next(e, 'wolf'), attack('wolf', 'pip'), { dice: [4, 4, 4, 4, 4, 1, 1, 1] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'pip', source: 'Assist', dice: 2 });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 6, bonuses: [{ source: 'Assist', dice: 2 }], successes: 3 },
      outcome: 'miss',
    });
    expect(viewOf([...e, ...out], 'pip').assistDice).toBe(0);
  });

  // Ember: Stage 2 (d8), Claw 5 d8, Dodge Agility 2 + Nimble 1 = 3 d8. Ash's Encourage: Spirit 3 d6, Diff 1.
  it('A75: given two passed Encourages in Ember’s two turns, its Claw between them, when the wolf bites Ember, then its Dodge rolls 3 + 2 = 5 d8 and spends both, and the next Dodge rolls 3 d8', () => {
    let e = close(fight([ember(), ash, wolf()], 'ember'), 'ember', 'wolf');
    // Spirit [4, 1, 1] = 1: passed. Then the Claw 5 d8 [1, 1, 1, 1, 1] against [1, 1]: the Encourage die is for a Dodge.
    e = then(e, { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    let out = exact(e, attack('ember', 'wolf'), { dice: [1, 1, 1, 1, 1, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ attack: { dice: 5, bonuses: [] }, outcome: 'miss' });
    e = then([...e, ...out], { type: 'EndActivation' });
    e = then(then(e, { type: 'StartActivation', combatantId: 'wolf' }), {
      type: 'Pass',
      combatantId: 'wolf',
    });
    e = then(nextRound(e, 'ember'), { type: 'Encourage', combatantId: 'ash' }, { dice: [4, 1, 1] });
    expect(viewOf(e, 'ember')).toMatchObject({ encourageDodge: 2 });

    // Bite [4, 4] = 2 against Ember's Dodge 5 d8 [4, 4, 1, 1, 1] = 2: a miss.
    e = next(e, 'wolf');
    out = exact(e, attack('wolf', 'ember'), { dice: [4, 4, 4, 4, 1, 1, 1] });
    expect(find(out, 'BonusDiceUsed')).toEqual({ combatantId: 'ember', source: 'Encourage', dice: 2 });
    expect(find(out, 'AttackResolved')).toMatchObject({
      dodge: { dice: 5, bonuses: [{ source: 'Encourage', dice: 2 }] },
      outcome: 'miss',
    });
    e = [...e, ...out];
    expect(viewOf(e, 'ember')).toMatchObject({ encourageDodge: 0 });

    // Next round, the wolf's Bite [4, 4] = 2 against Ember's Dodge 3 d8 [4, 1, 1] = 1: a hit by 1, 3 + 1 = 4.
    e = then(nextRound(e, 'ember'), { type: 'Pass', combatantId: 'ember' });
    out = exact(next(e, 'wolf'), attack('wolf', 'ember'), { dice: [4, 4, 4, 1, 1] });
    expect(find(out, 'AttackResolved')).toMatchObject({ dodge: { dice: 3, bonuses: [] }, damage: 4 });
  });
});
