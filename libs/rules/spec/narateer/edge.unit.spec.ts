import { given } from '../given';
import { narateer } from '../../src/narateer';
import { applyEdge } from '../../src/narateer/rolls';
import { ManualDice } from '../../src/dice/manual';
import { RolledSide } from '../../src/narateer/events';
import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, melee, mira, orin, ranged, respond, shootout, stateOf, then } from './helpers';

const side = (faces: number[], edge: RolledSide['edge']): RolledSide => ({
  combatantId: 'a',
  skill: 'melee',
  roll: { sides: 6, faces },
  edge,
  sources: { advantage: [], disadvantage: [] },
  faces,
  total: 0,
});
const duel = () =>
  fight(
    [
      { id: 'mira', sheet: mira },
      { id: 'orin', sheet: orin },
    ],
    'mira',
  );

describe('Edge (RULINGS.md N2)', () => {
  it('Advantage rerolls the die with the fewest dots (lowest face, first position) and keeps the better', () => {
    const r = applyEdge(side([4, 2, 6, 2], 'advantage'), new ManualDice({ rerollFaces: [6] }));
    expect(r.reroll).toEqual({ index: 1, original: 2, roll: { sides: 6, faces: [6] }, kept: 'reroll' });
    expect(r.faces).toEqual([4, 6, 6, 2]);
    expect(r.total).toBe(5);
  });

  it('Advantage keeps the original on equal dots', () => {
    const r = applyEdge(side([3, 1], 'advantage'), new ManualDice({ rerollFaces: [2] }));
    expect(r.reroll).toMatchObject({ index: 1, original: 1, kept: 'original' });
    expect(r.faces).toEqual([3, 1]);
  });

  it('Disadvantage rerolls the die with the most dots (highest face, first position) and keeps the worse', () => {
    const r = applyEdge(side([5, 6, 6], 'disadvantage'), new ManualDice({ rerollFaces: [3] }));
    expect(r.reroll).toMatchObject({ index: 1, original: 6, kept: 'reroll' });
    expect(r.total).toBe(4);
    const same = applyEdge(side([5, 4], 'disadvantage'), new ManualDice({ rerollFaces: [3] }));
    expect(same.reroll).toMatchObject({ index: 0, original: 5, kept: 'original' });
  });

  it('Only one source of Advantage applies; one of each cancels (narateer.txt: Combat Modifiers)', () => {
    // Unseen attacker + GM Advantage: still one reroll.
    const both = exact(
      duel(),
      melee('mira', 'orin', 1, { response: 'none', edge: 'advantage', attackerUnseen: true }),
      { dice: [1, 1], rerollFaces: [6] },
    );
    expect(find(both, 'ExchangeDeclared').edge).toEqual({
      advantage: ['gm', 'unseenAttacker'],
      disadvantage: [],
    });
    expect(find(both, 'ExchangeResolved').attacker).toMatchObject({ edge: 'advantage', total: 2 });
    // Full Guard's Advantage is cancelled by the GM's Disadvantage: no reroll, no rerollFaces needed.
    const declared = then(duel(), melee('mira', 'orin', 0, { responderEdge: 'disadvantage' }));
    const guard = exact(declared, respond('orin', 'fullGuard'), { dice: [4, 1] });
    expect(find(guard, 'ExchangeResolved').responder).toMatchObject({
      edge: 'none',
      sources: { advantage: ['fullGuard'], disadvantage: ['gm'] },
    });
    expect(find(guard, 'ExchangeResolved').responder.reroll).toBeUndefined();
  });
});

describe('Edge from several rules on one roll', () => {
  it('an unseen shooter beyond Effective Range: Advantage and Disadvantage cancel, no die is rerolled', () => {
    const events = exact(
      shootout(),
      ranged('sera', 'veyr', 'bow', 0, { distance: 20, attackerUnseen: true, response: 'none' }),
      { dice: [1] },
    );
    expect(find(events, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: ['unseenAttacker'], disadvantage: ['beyondEffectiveRange'] },
      total: 0,
    });
    expect(find(events, 'ExchangeResolved').attacker.reroll).toBeUndefined();
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'tie', targetNumber: 0 });
  });

  it('two sources of Disadvantage give one reroll: the die with the most dots, keeping the worse', () => {
    const events = exact(
      shootout(),
      ranged('sera', 'veyr', 'bow', 2, { distance: 20, attackerCannotSeeTarget: true, response: 'none' }),
      { dice: [3, 6, 4], rerollFaces: [2], followUpFaces: [4, 1] },
    );
    expect(find(events, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'disadvantage',
      reroll: { index: 1, original: 6, kept: 'reroll' },
      faces: [3, 2, 4],
      total: 2,
    });
    // Hit Margin 2 + Strike Rating 5 − Protection 1 = 6 → 3 Wounds; Veyr (Maximum Vitality 4) is left at 1 and checks once.
    expect(find(events, 'WoundsApplied')).toMatchObject({
      hitMargin: 2,
      woundMargin: 6,
      wounds: 3,
      vitality: 1,
    });
  });
});

describe('Hidden and Unseen Creatures', () => {
  it('the first attack while unseen by its target gains Advantage', () => {
    const events = exact(duel(), melee('mira', 'orin', 0, { attackerUnseen: true, response: 'none' }), {
      dice: [1],
      rerollFaces: [4],
    });
    expect(find(events, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'advantage',
      faces: [4],
      total: 1,
    });
  });

  it('a target that cannot see the attacker but knows its position Clashes with Disadvantage', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { targetCannotSeeAttacker: true }));
    const events = exact(declared, respond('orin', 'clash', 1), { dice: [3, 6, 4], rerollFaces: [1] });
    expect(find(events, 'ExchangeResolved').responder).toMatchObject({
      edge: 'disadvantage',
      sources: { disadvantage: ['cannotSeeTarget'] },
      faces: [1, 4],
    });
  });

  it('a Blinded attacker, or an attacker facing an Invisible target, attacks with Disadvantage (N26)', () => {
    const blind = then(duel(), { type: 'ApplyCondition', combatantId: 'mira', condition: 'blinded' });
    expect(find(exact(blind, melee('mira', 'orin', 0)), 'ExchangeDeclared').edge.disadvantage).toEqual([
      'cannotSeeTarget',
    ]);
    const invisible = then(duel(), { type: 'ApplyCondition', combatantId: 'orin', condition: 'invisible' });
    expect(find(exact(invisible, melee('mira', 'orin', 0)), 'ExchangeDeclared').edge.disadvantage).toEqual([
      'cannotSeeTarget',
    ]);
  });

  it('an unaware target follows No Response', () => {
    const events = exact(duel(), melee('mira', 'orin', 0, { targetUnaware: true, attackerUnseen: true }), {
      dice: [3],
      rerollFaces: [1],
    });
    expect(find(events, 'ExchangeResponded')).toMatchObject({ response: 'none', forced: 'unaware' });
  });
});

describe('N41: unseen by the conditions the engine knows', () => {
  const invisible = (id: string) => ({ type: 'ApplyCondition', combatantId: id, condition: 'invisible' });
  const blinded = (id: string) => ({ type: 'ApplyCondition', combatantId: id, condition: 'blinded' });
  const unseen = (events: RuleEvent[]) => find(events, 'ExchangeDeclared').edge.advantage;

  it('N41: an Invisible attacker’s first attack on a target gains Advantage without the GM’s flag; its second does not', () => {
    let events = then(duel(), invisible('mira'));
    // Mira's 1 die: a 1, rerolled to a 4 (Advantage keeps the better): 1 dot against target number 0.
    const first = exact(events, melee('mira', 'orin', 0, { response: 'none' }), {
      dice: [1],
      rerollFaces: [4],
    });
    expect(unseen(first)).toEqual(['unseenAttacker']);
    expect(find(first, 'ExchangeResolved').attacker).toMatchObject({ edge: 'advantage', total: 1 });
    events = [...events, ...first];
    // Orin now knows where she is: her next attack on him has no Advantage, and no reroll is asked for.
    const second = exact(events, melee('mira', 'orin', 0, { response: 'none' }), { dice: [1] });
    expect(unseen(second)).toEqual([]);
    expect(find(second, 'ExchangeResolved').attacker.reroll).toBeUndefined();
  });

  it('N41: attacking a Blinded target is an attack unseen by it; the first on each target counts once', () => {
    let events = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
        { id: 'veyr', sheet: orin },
      ],
      'mira',
    );
    events = then(then(events, blinded('orin')), blinded('veyr'));
    const onOrin = exact(events, melee('mira', 'orin', 0, { response: 'none' }), {
      dice: [4],
      rerollFaces: [1],
    });
    expect(unseen(onOrin)).toEqual(['unseenAttacker']);
    events = [...events, ...onOrin];
    // Orin: Hit Margin 1 + Strike Rating 5 − Protection 1 = 5 → 3 Wounds, 8 → 5, not below half.
    expect(find(onOrin, 'WoundsApplied')).toMatchObject({ wounds: 3, vitality: 5 });
    // Veyr has not been attacked yet: Mira's first attack on him gains Advantage too.
    const onVeyr = exact(events, melee('mira', 'veyr', 0, { response: 'none' }), {
      dice: [1],
      rerollFaces: [1],
    });
    expect(unseen(onVeyr)).toEqual(['unseenAttacker']);
  });

  it('N41: once seen again, the attacker’s next unseen spell has its first attack again', () => {
    let events = then(duel(), invisible('mira'));
    events = then(events, melee('mira', 'orin', 0, { response: 'none' }), { dice: [1], rerollFaces: [1] });
    expect(stateOf(events).combatants.mira.unseenAttacks).toEqual(['orin']);
    events = then(events, { type: 'RemoveCondition', combatantId: 'mira', condition: 'invisible' });
    expect(stateOf(events).combatants.mira.unseenAttacks).toBeUndefined();
    events = then(events, invisible('mira'));
    const again = exact(events, melee('mira', 'orin', 0, { response: 'none' }), {
      dice: [1],
      rerollFaces: [1],
    });
    expect(unseen(again)).toEqual(['unseenAttacker']);
  });

  it('N41: an attack withdrawn before the roll (CancelPending) was not made: the next is still the first', () => {
    let events = then(duel(), invisible('mira'));
    events = then(events, melee('mira', 'orin', 0));
    events = then(events, { type: 'CancelPending' });
    const first = exact(events, melee('mira', 'orin', 0, { response: 'none' }), {
      dice: [1],
      rerollFaces: [1],
    });
    expect(unseen(first)).toEqual(['unseenAttacker']);
  });

  it('N41: an Invisible responder’s Clash is its first attack on the tempo-holder while unseen: Advantage', () => {
    let events = then(duel(), invisible('orin'));
    events = then(events, melee('mira', 'orin', 0));
    // Mira cannot see Orin: Disadvantage on her attack (N31). Orin's Clash with the mace: Advantage.
    expect(find(events.slice(-1), 'ExchangeDeclared').edge).toEqual({
      advantage: [],
      disadvantage: ['cannotSeeTarget'],
    });
    const clash = exact(events, respond('orin', 'clash', 0, { weaponId: 'mace' }), {
      dice: [4, 1],
      rerollFaces: [1, 6],
    });
    expect(find(clash, 'ExchangeResponded').edge).toEqual({
      advantage: ['unseenAttacker'],
      disadvantage: [],
    });
    // Mira's 4 rerolled to a 1 (Disadvantage keeps the worse): 0 dots; Orin's 1 rerolled to a 6: 2 dots.
    expect(find(clash, 'ExchangeResolved')).toMatchObject({ outcome: 'counterHit', hitMargin: 2 });
    expect(stateOf([...events, ...clash]).combatants.orin.unseenAttacks).toEqual(['mira']);
  });

  it('N41: the GM’s attackerUnseen still gives Advantage where the engine sees nothing (Hide), and is not repeated', () => {
    const events = exact(duel(), melee('mira', 'orin', 0, { response: 'none', attackerUnseen: true }), {
      dice: [1],
      rerollFaces: [1],
    });
    expect(unseen(events)).toEqual(['unseenAttacker']);
    const both = exact(
      then(duel(), invisible('mira')),
      melee('mira', 'orin', 0, { response: 'none', attackerUnseen: true }),
      { dice: [1], rerollFaces: [1] },
    );
    expect(unseen(both)).toEqual(['unseenAttacker']);
  });
});

describe('Range', () => {
  it('an attack beyond Effective Range but within Maximum Range has Disadvantage', () => {
    const events = exact(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 20 }));
    expect(find(events, 'ExchangeDeclared')).toMatchObject({
      distance: 20,
      edge: { disadvantage: ['beyondEffectiveRange'] },
    });
  });

  it('at exactly Effective Range there is no Disadvantage; at exactly Maximum Range the shot is allowed with it', () => {
    expect(
      find(exact(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 12 })), 'ExchangeDeclared').edge
        .disadvantage,
    ).toEqual([]);
    expect(
      find(exact(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 13 })), 'ExchangeDeclared').edge
        .disadvantage,
    ).toEqual(['beyondEffectiveRange']);
    expect(
      find(exact(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 30 })), 'ExchangeDeclared').edge
        .disadvantage,
    ).toEqual(['beyondEffectiveRange']);
  });

  it('a target beyond Maximum Range cannot be targeted with that weapon', () => {
    expect(
      given(narateer, shootout())
        .when(ranged('sera', 'veyr', 'bow', 0, { distance: 31 }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'distance' });
    let mapped = then(shootout(), { type: 'SetPosition', combatantId: 'sera', position: { x: 0, y: 0 } });
    mapped = then(mapped, { type: 'SetPosition', combatantId: 'veyr', position: { x: 10, y: 31 } });
    expect(
      given(narateer, mapped)
        .when(ranged('sera', 'veyr', 'bow', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'weaponId' });
  });

  it('a Ranged Clash beyond the responder’s Effective Range has Disadvantage; beyond its Maximum Range it is impossible', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 12 }));
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [3, 3, 3],
      rerollFaces: [1],
    });
    expect(find(events, 'ExchangeResponded').edge.disadvantage).toEqual(['beyondEffectiveRange']);
    const far = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 25 }));
    expect(
      given(narateer, far)
        .when(respond('veyr', 'clash', 0, { weaponId: 'crossbow' }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE', field: 'weaponId' });
    // A responder who cannot return fire may still Full Guard, with Acrobatics.
    const guard = exact(far, respond('veyr', 'fullGuard'), { dice: [3, 3], rerollFaces: [3, 3] });
    expect(find(guard, 'ExchangeResponded')).toMatchObject({ skill: 'acrobatics' });
  });
});

describe('N31: Edge sources', () => {
  it('N31: each roll records its named sources: the GM’s edge, an unseen attacker, a target it cannot see', () => {
    const events = exact(
      duel(),
      melee('mira', 'orin', 0, {
        response: 'none',
        edge: 'disadvantage',
        attackerUnseen: true,
        attackerCannotSeeTarget: true,
      }),
      { dice: [3] },
    );
    expect(find(events, 'ExchangeDeclared').edge).toEqual({
      advantage: ['unseenAttacker'],
      disadvantage: ['gm', 'cannotSeeTarget'],
    });
    // One of each cancels (N2): no die is rerolled, the sources stay on the roll.
    expect(find(events, 'ExchangeResolved').attacker).toMatchObject({
      edge: 'none',
      sources: { advantage: ['unseenAttacker'], disadvantage: ['gm', 'cannotSeeTarget'] },
    });
  });

  it('N31: the responder’s Edge is the GM’s responderEdge, and Full Guard is Advantage: one of each cancels', () => {
    const declared = then(duel(), melee('mira', 'orin', 0, { responderEdge: 'disadvantage' }));
    const events = exact(declared, respond('orin', 'fullGuard', 0), { dice: [3, 3] });
    expect(find(events, 'ExchangeResponded').edge).toEqual({
      advantage: ['fullGuard'],
      disadvantage: ['gm'],
    });
    expect(find(events, 'ExchangeResolved').responder).toMatchObject({ edge: 'none' });
  });
});
