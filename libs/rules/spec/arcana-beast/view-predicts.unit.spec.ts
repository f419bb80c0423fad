/**
 * What a frontend predicts from the view alone: the pool an attack rolls, the combo die it adds and the damage of a
 * hit. Fights are built through the decider, the prediction is read from the view before the attack (as a client reads
 * it: `stats`, each attack's `stat`, `ranks` and `qualities`, `sideTurns`, `chains`, `baseDamage`, each attack's
 * `bonusDamage`, the same of `pendingAttack`), and the attack's AttackResolved must show it. Every number is worked
 * from arcana-beast.txt ("Attack Steps", "Combo Attacks", "Damage Formula") and the rulings first.
 */
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ArcanaBeastView } from '../../src/arcana-beast';
import { view } from '../../src/arcana-beast/view';
import {
  ash,
  attack,
  bo,
  close,
  ember,
  end,
  exact,
  fight,
  Fighter,
  find,
  kit,
  next,
  pip,
  stateOf,
  then,
  wild,
  wolf,
} from './helpers';

type View = ArcanaBeastView;
type BeastEntry = Extract<View['combatants'][number], { kind: 'beast' }>;

const viewOf = (e: RuleEvent[]): View => view(stateOf(e));
const entry = (v: View, id: string) => v.combatants.find((c) => c.id === id)!;
const beastEntry = (v: View, id: string) => entry(v, id) as BeastEntry;

/**
 * "Combo Attacks", read from the view only (rulings A20, A57, A59): an attack on an enemy continues its side's chain
 * when another beast of the side made the chain's last attack on the side's previous beast turn. Then "Second attacker
 * gains +1 die", and on a hit "second attack deals +1 extra damage", "Third consecutive hit deals +2 extra damage".
 */
function foretold(v: View, attackerId: string, targetId: string) {
  const side = entry(v, attackerId).side;
  const chain = entry(v, targetId).side === side ? undefined : v.chains[targetId]?.[side];
  const continues =
    chain !== undefined && chain.lastAttackerId !== attackerId && chain.sideTurn === v.sideTurns[side] - 1;
  const streakOnHit = (continues ? chain.hits : 0) + 1;
  return {
    comboDie: continues ? 1 : 0,
    comboDamageOnHit: streakOnHit >= 3 ? 2 : streakOnHit === 2 ? 1 : 0,
  };
}

/** The combo dice in a rolled attack pool (AttackResolved.attack.bonuses). */
const comboDice = (resolved: Record<string, any>): number =>
  (resolved.attack.bonuses as { source: string; dice: number }[])
    .filter((b) => b.source === 'Combo')
    .reduce((t, b) => t + b.dice, 0);

/** A third side: a wild beast of the rivals, Stage 1 (d6): Bite 2 d6, Dodge 2 d6, Base Damage 3. */
const rook: Fighter = { id: 'rook', sheet: wild({ hp: 20 }), side: 'rivals' };

describe('the view foretells the combo die (sideTurns, chains)', () => {
  it('A57: given Ember’s Claw on the wolf, then a rival’s Bite on it, when Pip claws it, then the heroes’ chain the view shows beside the rivals’ gives Pip the combo die and +1 damage, as the engine rolls them', () => {
    // Order: Ember (Ash), the rook, Pip (Bo), the wolf; every attacker Close to the wolf.
    let e = fight([ember(), ash, rook, pip, bo, wolf('wolf', 40)]);
    for (const id of ['ember', 'rook', 'pip']) e = close(e, id, 'wolf');
    expect(viewOf(e).sideTurns).toEqual({ heroes: 0, rivals: 0, wild: 0 });

    // Ember, the heroes' 1st beast turn: Claw 5 d8 [4, 4, 1, 1, 1] = 2 against the wolf's Dodge 2 d6 [1, 1] = 0.
    e = then(e, { type: 'StartActivation', combatantId: 'ember' });
    expect(viewOf(e).sideTurns).toEqual({ heroes: 1, rivals: 0, wild: 0 });
    e = then(e, attack('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] });
    // The rook, the rivals' 1st: Bite 2 d6 [4, 1] = 1 against [1, 1]: it starts the rivals' own chain (A57).
    e = then(next(e, 'rook'), attack('rook', 'wolf'), { dice: [4, 1, 1, 1] });
    e = next(e, 'pip');

    const v = viewOf(e);
    expect(v.sideTurns).toEqual({ heroes: 2, rivals: 1, wild: 0 });
    // `combos` shows the rivals' chain only (the last attacker's); `chains` shows both sides'.
    expect(v.combos.wolf).toMatchObject({ side: 'rivals', lastAttackerId: 'rook' });
    expect(v.chains.wolf).toEqual({
      heroes: { side: 'heroes', lastAttackerId: 'ember', sideTurn: 1, attacks: 1, hits: 1 },
      rivals: { side: 'rivals', lastAttackerId: 'rook', sideTurn: 1, attacks: 1, hits: 1 },
    });
    const said = foretold(v, 'pip', 'wolf');
    expect(said).toEqual({ comboDie: 1, comboDamageOnHit: 1 });

    // Pip: Claw 4 d6 + the combo die = 5 d6 [4, 4, 4, 1, 1] = 3 against [4, 1] = 1: hit by 2; 3 + 2 + 0 + 1 = 6.
    const out = exact(e, attack('pip', 'wolf'), { dice: [4, 4, 4, 1, 1, 4, 1] });
    const r = find(out, 'AttackResolved');
    expect(comboDice(r)).toBe(said.comboDie);
    expect(r.attack.dice).toBe(5);
    expect(r.combo).toMatchObject({ position: 2, dieBonus: 1, damageBonus: said.comboDamageOnHit });
    const claw = beastEntry(v, 'pip').attacks.find((a) => a.id === 'claw')!;
    expect(r.damage).toBe(beastEntry(v, 'pip').baseDamage + r.extraSuccesses + claw.bonusDamage + 1);
    expect(r.damage).toBe(6);
  });

  it.each([
    // A56: Pip Knocked Out, its Binder's Commands only: no beast turn of the heroes, the chain runs across it.
    ['Knocked Out (its Binder’s Commands only, A56)', { hp: 0, maxHp: 12 }, 1, 1, [4, 4, 1], 6],
    // A20, A40: Pip in the fight and Passing: the heroes' 2nd beast turn, spent; Kit's Bite starts a new chain.
    ['in the fight and Passing (A40)', {}, 2, 0, [4, 4], 5],
  ])(
    'A56, A70: given Ember’s Claw on the wolf, when Pip’s turn passes %s, then sideTurns shows it, and Kit’s Bite rolls the combo die the view foretells',
    (_what, pipSheet, heroesInPipsTurn, die, faces, damage) => {
      const pipThen: Fighter = { ...pip, sheet: { ...pip.sheet, ...pipSheet } };
      let e = fight([ember(), ash, pipThen, bo, kit(), wolf('wolf', 40)]);
      e = close(close(e, 'ember', 'wolf'), 'kit', 'wolf');
      e = then(e, { type: 'StartActivation', combatantId: 'ember' });
      e = end(then(e, attack('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] }));
      // Between turns the count is the turns started so far: a turn counts from its start (A70).
      expect(viewOf(e).sideTurns.heroes).toBe(1);

      e = then(e, { type: 'StartActivation', combatantId: 'pip' });
      if (entry(viewOf(e), 'pip').state === 'Active') e = then(e, { type: 'Pass', combatantId: 'pip' });
      expect(viewOf(e).sideTurns.heroes).toBe(heroesInPipsTurn);
      e = next(e, 'kit');
      const v = viewOf(e);
      expect(v.sideTurns.heroes).toBe(heroesInPipsTurn + 1);
      expect(foretold(v, 'kit', 'wolf').comboDie).toBe(die);

      // Kit: Bite 2 d6 (+ the combo die) against the wolf's Dodge [1, 1]: two successes, hit by 2.
      const r = find(exact(e, attack('kit', 'wolf'), { dice: [...faces, 1, 1] }), 'AttackResolved');
      expect([comboDice(r), r.combo.dieBonus]).toEqual([die, die]);
      expect(r.damage).toBe(
        beastEntry(v, 'kit').baseDamage + 2 + foretold(v, 'kit', 'wolf').comboDamageOnHit,
      );
      expect(r.damage).toBe(damage);
    },
  );

  it.each([
    // "Third consecutive hit deals +2 extra damage": Pip's Claw [4, 4, 4, 1, 1] against [4, 1] hits.
    ['hits: Kit’s is the third consecutive hit', [4, 4, 4, 1, 1, 4, 1], 2, 2, 7],
    // A20: "a miss ends the streak but not the chain": Pip's [1, 1, 1, 1, 1] against [1, 1] misses.
    ['misses: the streak ends, the chain does not', [1, 1, 1, 1, 1, 1, 1], 0, 0, 5],
  ])(
    '"Combo Attacks": given Ember’s and Pip’s attacks on the wolf on consecutive turns, when Pip’s %s, then the view’s chain foretells Kit’s combo damage',
    (_what, pipFaces, hitsShown, comboDamage, damage) => {
      let e = fight([ember(), ash, pip, bo, kit(), wolf('wolf', 40)]);
      for (const id of ['ember', 'pip', 'kit']) e = close(e, id, 'wolf');
      e = then(e, { type: 'StartActivation', combatantId: 'ember' });
      e = then(e, attack('ember', 'wolf'), { dice: [4, 4, 1, 1, 1, 1, 1] });
      e = then(next(e, 'pip'), attack('pip', 'wolf'), { dice: pipFaces });
      e = next(e, 'kit');

      const v = viewOf(e);
      expect(v.chains.wolf.heroes).toEqual({
        side: 'heroes',
        lastAttackerId: 'pip',
        sideTurn: 2,
        attacks: 2,
        hits: hitsShown,
      });
      expect(foretold(v, 'kit', 'wolf')).toEqual({ comboDie: 1, comboDamageOnHit: comboDamage });

      // Kit: Bite 2 d6 + the combo die = 3 d6 [4, 4, 1] = 2 against [1, 1]: hit by 2; 3 + 2 + combo damage.
      const r = find(exact(e, attack('kit', 'wolf'), { dice: [4, 4, 1, 1, 1] }), 'AttackResolved');
      expect(r.combo).toMatchObject({ position: 3, dieBonus: 1, damageBonus: comboDamage });
      expect(r.damage).toBe(damage);
    },
  );

  it('A10, A57, C11: the wolf’s own Action ends every side’s chain on it; a target that has left the fight is not listed, nor a side with no one left and no beast turn', () => {
    let e = fight([ember(), ash, rook, pip, bo, wolf('wolf', 40)]);
    for (const id of ['ember', 'rook']) e = close(e, id, 'wolf');
    e = then(e, { type: 'StartActivation', combatantId: 'ember' });
    e = then(e, attack('ember', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1] });
    e = then(next(e, 'rook'), attack('rook', 'wolf'), { dice: [4, 1, 1, 1] });
    expect(Object.keys(viewOf(e).chains.wolf)).toEqual(['heroes', 'rivals']);

    // The wolf defends: "Combos reset if the target acts between allied attacks", every side's (A57).
    const acted = then(next(e, 'wolf'), { type: 'Defend', combatantId: 'wolf' });
    expect(viewOf(acted).chains).toEqual({});
    expect(viewOf(acted).sideTurns).toEqual({ heroes: 1, rivals: 1, wild: 1 });
    // The GM removes the wolf in the rook's turn: no chain on it is shown, and its side, alone and without a beast
    // turn, is no longer listed.
    const gone = then(e, { type: 'RemoveCombatant', combatantId: 'wolf' });
    expect(viewOf(gone).chains).toEqual({});
    expect(viewOf(gone).sideTurns).toEqual({ heroes: 1, rivals: 1 });
  });
});

describe('the view shows the bonus damage a hit adds (bonusDamage)', () => {
  it('A52: "Ember (Brawn 3, Stage 2) rolling a Critical with Inferno (bonus 1) and 4 successes to none deals 5·2 + 4 + 1 = 15": the view’s baseDamage and Inferno’s bonusDamage give it', () => {
    let e = fight([ember(), ash, wolf('wolf', 40)], 'ember');
    const v = viewOf(e);
    const me = beastEntry(v, 'ember');
    expect(me.baseDamage).toBe(5);
    expect(me.specialAttacks.map((s) => [s.id, s.bonusDamage])).toEqual([['inferno', 1]]);
    expect(me.attacks.map((a) => [a.id, a.bonusDamage])).toEqual([
      ['claw', 0],
      ['spark', 0],
    ]);
    // Inferno: Agility 2 + Ranks 2 = 4 d8 [6, 6, 6, 4]: 4 successes, three 6s; the wolf's Dodge 2 d6 [1, 1] = 0.
    const out = exact(
      e,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
      { dice: [6, 6, 6, 4, 1, 1] },
    );
    const r = find(out, 'AttackResolved');
    expect(r).toMatchObject({ critical: true, extraSuccesses: 4, bonusDamage: 1, damage: 15 });
    expect(r.damage).toBe(me.baseDamage * 2 + r.extraSuccesses + me.specialAttacks[0].bonusDamage);
    e = [...e, ...out];
    expect(entry(viewOf(e), 'wolf').hp).toBe(25);
  });

  it('"Damage Formula: Base Damage + extra successes beyond defender": given a Claw (bonusDamage 2) and a Zero Power (bonusDamage 3) on Ember’s sheet, when each hits, then the damage is the view’s baseDamage + extra successes + the bonusDamage it shows', () => {
    const sheet = {
      attacks: [{ id: 'claw', name: 'Claw', range: 'melee', ranks: 1, qualities: ['Claws'], bonusDamage: 2 }],
      zeroPower: { name: 'Zero Flare', trigger: 'Ash falls', range: 'melee', ranks: 3, bonusDamage: 3 },
    };
    let e = close(fight([ember(sheet), ash, wolf('wolf', 40)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower' });
    const me = beastEntry(viewOf(e), 'ember');
    expect([me.attacks[0].bonusDamage, me.zeroPower?.bonusDamage]).toEqual([2, 3]);

    // Claw 5 d8 [4, 1, 1, 1, 1] = 1 against [1, 1]: hit by 1; 5 + 1 + 2 = 8.
    const claw = find(exact(e, attack('ember', 'wolf'), { dice: [4, 1, 1, 1, 1, 1, 1] }), 'AttackResolved');
    expect(claw.damage).toBe(me.baseDamage + 1 + me.attacks[0].bonusDamage);
    expect(claw.damage).toBe(8);
    // Zero Flare: Brawn 3 + Ranks 3 = 6 d8 [4, 1, 1, 1, 1, 1] = 1 against [1, 1]: hit by 1; 5 + 1 + 3 = 9.
    const zero = find(
      exact(
        e,
        { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
        { dice: [4, 1, 1, 1, 1, 1, 1, 1] },
      ),
      'AttackResolved',
    );
    expect(zero.damage).toBe(me.baseDamage + 1 + me.zeroPower!.bonusDamage);
    expect(zero.damage).toBe(9);
  });

  it.each([
    ['Ember intercepts: it takes the Gore', true, 'ember', [1, 1, 1]],
    ['Ember lets it through: Ash takes the Gore', false, 'ash', [1, 1]],
  ])(
    'A22, A52: given the wolf’s Gore (bonusDamage 2) on Ash waiting for the Intercept, when %s, then the hit adds the pendingAttack’s bonusDamage',
    (_what, intercept, taker, dodgeFaces) => {
      const gorer = wolf('wolf', 40);
      const gore = { id: 'gore', name: 'Gore', range: 'melee', uses: 1, bonusDamage: 2 };
      const fighters = [ember(), ash, { ...gorer, sheet: { ...gorer.sheet, specialAttacks: [gore] } }];
      let e = close(fight(fighters, 'wolf'), 'wolf', 'ash');
      e = then(e, { type: 'UseSpecialAttack', attackerId: 'wolf', targetId: 'ash', specialAttackId: 'gore' });
      const waiting = viewOf(e).pendingAttack!;
      expect(waiting).toMatchObject({
        action: 'specialAttack',
        attackId: 'gore',
        targetId: 'ash',
        bonusDamage: 2,
      });

      // Gore: Brawn 2 = 2 d6 [4, 4] = 2 against the taker's Dodge, no success: hit by 2; 3 + 2 + 2 = 7.
      const out = exact(
        e,
        { type: 'Intercept', combatantId: 'ember', intercept },
        { dice: [4, 4, ...dodgeFaces] },
      );
      const r = find(out, 'AttackResolved');
      expect(r).toMatchObject({ targetId: taker, bonusDamage: waiting.bonusDamage, extraSuccesses: 2 });
      expect(r.damage).toBe(beastEntry(viewOf(e), 'wolf').baseDamage + 2 + waiting.bonusDamage);
      expect(r.damage).toBe(7);
      expect(viewOf([...e, ...out]).pendingAttack).toBeNull();
    },
  );
});

describe('the view shows what an attack pool rolls (stat, ranks, qualities)', () => {
  /** "Build pool Stat + Quality/Attack Ranks + modifiers" (A6), read from the view only. */
  const poolOf = (
    me: BeastEntry,
    a: { stat: keyof BeastEntry['stats']; ranks: number; qualities: { ranks: number }[] },
  ): number => me.stats[a.stat] + a.ranks + a.qualities.reduce((t, q) => t + q.ranks, 0);

  it('"Build pool Stat + Quality/Attack Ranks + modifiers": given Ember’s sheet naming Qualities on its Claw, Spark, Inferno and Zero Power, when the view shows them, then each lists its stat, ranks and Qualities with their ranks, and the pool each rolls is the one the view gives', () => {
    const sheet = {
      qualities: { Claws: 2, Fire: 3, Keen: 0, Nimble: 1 },
      attacks: [
        { id: 'claw', name: 'Claw', range: 'melee', ranks: 1, qualities: ['Claws'] },
        { id: 'spark', name: 'Spark', range: 'ranged', qualities: ['Fire', 'Keen'] },
      ],
      specialAttacks: [
        {
          id: 'inferno',
          name: 'Inferno',
          range: 'long',
          ranks: 2,
          uses: 1,
          qualities: ['Fire'],
          bonusDamage: 1,
        },
      ],
      zeroPower: {
        name: 'Zero Flare',
        trigger: 'Ash falls',
        range: 'melee',
        stat: 'spirit',
        ranks: 3,
        qualities: ['Claws'],
      },
    };
    let e = close(fight([ember(sheet), ash, wolf('wolf', 40)], 'ember'), 'ember', 'wolf');
    e = then(e, { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower' });
    const me = beastEntry(viewOf(e), 'ember');
    // Defaults applied (A6): Spark is ranged and Inferno long, so both roll Agility; Spark has no ranks.
    expect(me.attacks.map(({ id, stat, ranks, qualities }) => ({ id, stat, ranks, qualities }))).toEqual([
      { id: 'claw', stat: 'brawn', ranks: 1, qualities: [{ name: 'Claws', ranks: 2 }] },
      {
        id: 'spark',
        stat: 'agility',
        ranks: 0,
        qualities: [
          { name: 'Fire', ranks: 3 },
          { name: 'Keen', ranks: 0 },
        ],
      },
    ]);
    expect(
      me.specialAttacks.map(({ id, stat, ranks, qualities }) => ({ id, stat, ranks, qualities })),
    ).toEqual([{ id: 'inferno', stat: 'agility', ranks: 2, qualities: [{ name: 'Fire', ranks: 3 }] }]);
    expect(me.zeroPower).toMatchObject({
      stat: 'spirit',
      ranks: 3,
      qualities: [{ name: 'Claws', ranks: 2 }],
    });

    // Ember: Brawn 3, Agility 2, Spirit 2. Claw 3 + 1 + 2 = 6 d8; Spark 2 + 0 + 3 + 0 = 5 d8; Inferno 2 + 2 + 3 = 7 d8;
    // Zero Flare 2 + 3 + 2 = 7 d8. Each against the wolf's Dodge 2 d6 [1, 1].
    const rolls: [string, number, RuleCommand, number][] = [
      ['claw', poolOf(me, me.attacks[0]), attack('ember', 'wolf'), 6],
      ['spark', poolOf(me, me.attacks[1]), attack('ember', 'wolf', { attackId: 'spark' }), 5],
      [
        'inferno',
        poolOf(me, me.specialAttacks[0]),
        { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
        7,
      ],
      [
        'zero power',
        poolOf(me, me.zeroPower!),
        { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
        7,
      ],
    ];
    for (const [what, said, command, dice] of rolls) {
      const r = find(exact(e, command, { dice: [...Array<number>(dice).fill(1), 1, 1] }), 'AttackResolved');
      expect([what, r.attack.dice]).toEqual([what, said]);
      expect([what, r.attack.dice]).toEqual([what, dice]);
    }
  });

  it.each([
    ['Ember intercepts', true, [1, 1, 1]],
    ['Ember lets it through', false, [1, 1]],
  ])(
    'A6, A22: given the wolf’s Gore (Ranks 1, the Horns Quality at 2) on Ash waiting for the Intercept, when %s, then the pendingAttack’s stat, ranks and Qualities give the pool Gore rolls',
    (_what, intercept, dodgeFaces) => {
      const gorer = wolf('wolf', 40);
      const gore = { id: 'gore', name: 'Gore', range: 'melee', ranks: 1, qualities: ['Horns'], uses: 1 };
      const fighters = [
        ember(),
        ash,
        { ...gorer, sheet: { ...gorer.sheet, qualities: { Horns: 2 }, specialAttacks: [gore] } },
      ];
      let e = close(fight(fighters, 'wolf'), 'wolf', 'ash');
      e = then(e, { type: 'UseSpecialAttack', attackerId: 'wolf', targetId: 'ash', specialAttackId: 'gore' });
      const v = viewOf(e);
      const waiting = v.pendingAttack!;
      expect(waiting).toMatchObject({ stat: 'brawn', ranks: 1, qualities: [{ name: 'Horns', ranks: 2 }] });

      // Gore: Brawn 2 + Ranks 1 + Horns 2 = 5 d6 [1, 1, 1, 1, 1] against the taker's Dodge: a miss.
      const out = exact(
        e,
        { type: 'Intercept', combatantId: 'ember', intercept },
        { dice: [1, 1, 1, 1, 1, ...dodgeFaces] },
      );
      const r = find(out, 'AttackResolved');
      expect(r.attack.dice).toBe(poolOf(beastEntry(v, 'wolf'), waiting));
      expect(r.attack.dice).toBe(5);
    },
  );
});

describe('the view shows what a Dodge pool rolls (defensiveQualities)', () => {
  /** "Target rolls Dodge (Agility + defensive Qualities)" (A6), read from the view only. */
  const dodgeOf = (c: View['combatants'][number]): number =>
    c.stats.agility + c.defensiveQualities.reduce((t, q) => t + q.ranks, 0);

  it('A6: "Target rolls Dodge (Agility + defensive Qualities)": given Ember’s sheet naming Nimble (1) and Shell (2) as defensive Qualities, Ash’s naming Alert (2) and the wolf’s naming none, when the wolf bites Ember, then Ash, then each Dodge rolls the pool the view gives: 5 d8 and 4 d6', () => {
    const fighters: Fighter[] = [
      ember({ qualities: { Claws: 1, Nimble: 1, Shell: 2 }, defensiveQualities: ['Nimble', 'Shell'] }),
      { ...ash, sheet: { ...ash.sheet, qualities: { Alert: 2 }, defensiveQualities: ['Alert'] } },
      wolf('wolf', 40),
    ];
    const e = close(fight(fighters, 'wolf'), 'wolf', 'ember');
    const v = viewOf(e);
    expect(entry(v, 'ember').defensiveQualities).toEqual([
      { name: 'Nimble', ranks: 1 },
      { name: 'Shell', ranks: 2 },
    ]);
    expect(entry(v, 'ash').defensiveQualities).toEqual([{ name: 'Alert', ranks: 2 }]);
    expect(entry(v, 'wolf').defensiveQualities).toEqual([]);

    // Ember: Agility 2 + Nimble 1 + Shell 2 = 5 d8. Ash: Agility 2 + Alert 2 = 4 d6. Bite 2 d6 [1, 1] each time.
    const onEmber = find(
      exact(e, attack('wolf', 'ember'), { dice: [1, 1, 1, 1, 1, 1, 1] }),
      'AttackResolved',
    );
    expect(onEmber.dodge.dice).toBe(dodgeOf(entry(v, 'ember')));
    expect(onEmber.dodge).toMatchObject({
      combatantId: 'ember',
      stat: 'agility',
      ranks: 3,
      dice: 5,
      sides: 8,
    });
    const onAsh = find(
      exact(e, attack('wolf', 'ash', { intercept: false }), { dice: [1, 1, 1, 1, 1, 1] }),
      'AttackResolved',
    );
    expect(onAsh.dodge.dice).toBe(dodgeOf(entry(v, 'ash')));
    expect(onAsh.dodge).toMatchObject({ combatantId: 'ash', stat: 'agility', ranks: 2, dice: 4, sides: 6 });
  });

  it('A6: given a Binder’s sheet naming no defensive Qualities, when the view shows it, then its defensiveQualities are empty and the wolf’s Bite meets a Dodge of its Agility alone (2 d6)', () => {
    const e = close(fight([ember(), ash, wolf('wolf', 40)], 'wolf'), 'wolf', 'ember');
    expect(entry(viewOf(e), 'ash').defensiveQualities).toEqual([]);
    const r = find(
      exact(e, attack('wolf', 'ash', { intercept: false }), { dice: [1, 1, 1, 1] }),
      'AttackResolved',
    );
    expect(r.dodge).toMatchObject({ ranks: 0, dice: 2 });
  });
});
