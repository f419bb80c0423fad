import { given } from '../given';
import { narateer } from '../../src/narateer';
import { RuleEvent } from '../../src/core/types';
import {
  bow,
  crossbow,
  exact,
  fight,
  find,
  ranged,
  respond,
  sera,
  sheet,
  stateOf,
  then,
  veyr,
} from './helpers';

const shootout = (a = sera, b = veyr, active = 'sera') =>
  fight(
    [
      { id: 'sera', sheet: a },
      { id: 'veyr', sheet: b },
    ],
    active,
  );

describe('Ranged Exchanges', () => {
  it('Ranged Full Guard uses Acrobatics with Advantage; Acrobatics SL 0 may still guard without Boost', () => {
    const clumsy = { ...veyr, skills: { ranged: 1, acrobatics: 0 } };
    const declared = then(shootout(sera, clumsy), ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    expect(
      given(narateer, declared)
        .when(respond('veyr', 'fullGuard', 1))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL', field: 'boost' });
    const events = exact(declared, respond('veyr', 'fullGuard'), { dice: [3, 3], rerollFaces: [3] });
    expect(find(events, 'ExchangeResponded')).toMatchObject({
      skill: 'acrobatics',
      dice: 1,
      edge: { advantage: ['fullGuard'] },
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
  });

  it('Ammunition and Loading resolve whether the shooter wins or loses', () => {
    const declared = then(shootout(), ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    // Veyr loses the exchange of fire, yet his bolt is spent and the crossbow is unloaded.
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [6, 1, 1],
      followUpFaces: [4, 4],
    });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'hit', winnerId: 'sera' });
    const s = stateOf([...declared, ...events]);
    expect(s.combatants.veyr.weapons.crossbow).toEqual({ loaded: false, ammunition: 9 });
    expect(s.combatants.sera.weapons.bow).toEqual({ loaded: true, ammunition: 19 });
  });

  it('a weapon that needs Loading cannot fire or Clash until reloaded; ReloadWeapon loads it in the own activation (N27)', () => {
    const unloaded = { ...veyr, weapons: [{ ...crossbow, loaded: false }] };
    let events = shootout(sera, unloaded, 'veyr');
    expect(
      given(narateer, events)
        .when(ranged('veyr', 'sera', 'crossbow', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_WEAPON_NOT_LOADED', field: 'weaponId' });
    events = then(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    expect(events[events.length - 1]).toEqual({
      type: 'WeaponReloaded',
      data: { combatantId: 'veyr', weaponId: 'crossbow' },
    });
    expect(exact(events, ranged('veyr', 'sera', 'crossbow', 0))[0].type).toBe('ExchangeDeclared');
    // Reloading a loaded weapon changes nothing; reloading out of activation is refused.
    expect(exact(events, { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })).toEqual([]);
    const notHis = shootout(sera, unloaded, 'sera');
    expect(
      given(narateer, notHis)
        .when({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })
        .violation().code,
    ).toBe('NARATEER_NOT_YOUR_ACTIVATION');
  });

  it('a Ranged Clash needs a loaded weapon; without one the responder may still Full Guard or not respond', () => {
    const unloaded = { ...veyr, weapons: [{ ...crossbow, loaded: false }] };
    const declared = then(shootout(sera, unloaded), ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    expect(
      given(narateer, declared)
        .when(respond('veyr', 'clash', 0, { weaponId: 'crossbow' }))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_WEAPON_NOT_LOADED', field: 'weaponId' });
    expect(given(narateer, declared).when(respond('veyr', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_WEAPON_NOT_LOADED',
      field: 'weaponId',
    });
  });

  it('no ammunition: no shot, no Clash, no reload', () => {
    const empty = {
      ...sera,
      weapons: [
        {
          id: 'bow',
          name: 'Bow',
          kind: 'ranged',
          baseAttackCost: 1,
          weaponDamage: 2,
          damageVitalCap: 3,
          effectiveRange: 12,
          maximumRange: 30,
          ammunition: 0,
          harm: 'Physical (Piercing)',
        },
      ],
    };
    expect(
      given(narateer, shootout(empty))
        .when(ranged('sera', 'veyr', 'bow', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NO_AMMUNITION', field: 'weaponId' });
    const dry = { ...veyr, weapons: [{ ...crossbow, loaded: false, ammunition: 0 }] };
    expect(
      given(narateer, shootout(sera, dry, 'veyr'))
        .when({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })
        .violation().code,
    ).toBe('NARATEER_NO_AMMUNITION');
  });

  it('unlimited ammunition never runs out; the last shot of a counted supply empties it', () => {
    const thrower = sheet({
      skills: { ranged: 3 },
      weapons: [
        {
          id: 'stones',
          name: 'Stones',
          kind: 'ranged',
          baseAttackCost: 1,
          weaponDamage: 1,
          damageVitalCap: 2,
          effectiveRange: 4,
          maximumRange: 8,
          harm: 'Physical (Impact)',
        },
      ],
    });
    const events = exact(shootout(thrower), ranged('sera', 'veyr', 'stones', 0, { response: 'none' }), {
      dice: [1],
    });
    expect(find(events, 'WeaponFired')).toEqual({
      combatantId: 'sera',
      weaponId: 'stones',
      exchangeId: 'x1',
      loaded: true,
    });
    const lastArrow = { ...sera, weapons: [{ ...bow, ammunition: 1 }] };
    const shot = then(shootout(lastArrow), ranged('sera', 'veyr', 'bow', 0, { response: 'none' }), {
      dice: [1],
    });
    expect(find(shot, 'WeaponFired')).toMatchObject({ ammunition: 0 });
    expect(
      given(narateer, shot)
        .when(ranged('sera', 'veyr', 'bow', 0))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NO_AMMUNITION', field: 'weaponId' });
    expect((narateer.view(stateOf(shot)) as any).combatants[0].weapons[0]).toMatchObject({
      ammunition: 0,
      ready: false,
    });
  });

  it('a Clash with the last bolt spends it, even on a tie: the crossbow can then neither Clash nor be reloaded', () => {
    const oneBolt = { ...veyr, weapons: [{ ...crossbow, ammunition: 1 }] };
    let events = then(shootout(sera, oneBolt), ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    // Sera's 1 die against Veyr's 2: 1 dot each, a tie, and both shots are spent.
    events = then(events, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), { dice: [3, 3, 1] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'tie' });
    expect(stateOf(events).combatants.veyr.weapons.crossbow).toEqual({ loaded: false, ammunition: 0 });
    const again = then(events, ranged('sera', 'veyr', 'bow', 0, { distance: 5 }));
    expect(given(narateer, again).when(respond('veyr', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_WEAPON_NOT_LOADED',
      field: 'weaponId',
    });
    expect(
      find(
        exact(again, respond('veyr', 'fullGuard'), { dice: [3, 3], rerollFaces: [3] }),
        'ExchangeResolved',
      ),
    ).toMatchObject({ outcome: 'guarded' });
    const veyrsTurn = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    expect(
      given(narateer, veyrsTurn)
        .when({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NO_AMMUNITION', field: 'weaponId' });
  });

  it('a shot stopped by Full Guard or tied still spends ammunition and Loading', () => {
    const reloader = { ...sera, weapons: [crossbow], skills: { ranged: 2, acrobatics: 1 } };
    // Sera's 2 dice show 1 dot, Veyr's guard die 1 dot (its Advantage reroll kept the original): stopped.
    const events = exact(
      shootout(reloader),
      ranged('sera', 'veyr', 'crossbow', 0, { distance: 5, response: 'fullGuard' }),
      { dice: [3, 1, 3], rerollFaces: [2] },
    );
    expect(find(events, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
    expect(find(events, 'WeaponFired')).toEqual({
      combatantId: 'sera',
      weaponId: 'crossbow',
      exchangeId: 'x1',
      loaded: false,
      ammunition: 9,
    });
  });
});

describe('N52: a shot within melee reach', () => {
  const at = (events: RuleEvent[], id: string, x: number, y: number) =>
    then(events, { type: 'SetPosition', combatantId: id, position: { x, y } });

  it('N52: given a swordsman 1 Space from a shooter, when the shooter fires at it, then the shot has no Edge of its own and opens no Opportunity Attack; the swordsman may Full Guard with Acrobatics but not Clash with its sword', () => {
    // narateer.txt: Ranged Exchanges — the only range Edge is "beyond Effective Range"; 1 Space is within the bow's 12.
    const start = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'brute', sheet: sheet() },
      ],
      'sera',
    );
    const adjacent = at(at(start, 'sera', 0, 0), 'brute', 1, 0);
    const declared = exact(adjacent, ranged('sera', 'brute', 'bow', 0));
    expect(declared.map((e) => e.type)).toEqual(['ExchangeDeclared']);
    expect(find(declared, 'ExchangeDeclared')).toMatchObject({
      distance: 1,
      edge: { advantage: [], disadvantage: [] },
    });
    const events = [...adjacent, ...declared];
    expect(stateOf(events).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'brute' });
    // "In a Ranged Exchange, both combatants roll Ranged": a sword is no return fire.
    expect(given(narateer, events).when(respond('brute', 'clash')).violation()).toMatchObject({
      code: 'NARATEER_NO_LEGAL_CLASH',
      field: 'response',
    });
    // Sera 6 = 2 dots. Brute's guard 3 = 1 dot; Full Guard's Advantage rerolls it to a 4, no better: 1 dot.
    // Sera wins by 1: Strike 2 + min(Agility 3, cap 3) = 5, Soak 1: Wound Margin 5, 3 Wounds.
    const guarded = exact(events, respond('brute', 'fullGuard'), { dice: [6, 3], rerollFaces: [4] });
    expect(find(guarded, 'ExchangeResponded')).toMatchObject({
      skill: 'acrobatics',
      edge: { advantage: ['fullGuard'], disadvantage: [] },
    });
    expect(find(guarded, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      hitMargin: 1,
      attacker: { edge: 'none', total: 2 },
      responder: { edge: 'advantage', total: 1 },
    });
    expect(find(guarded, 'WoundsApplied')).toMatchObject({ strikeRating: 5, woundMargin: 5, wounds: 3 });
  });

  it('N52: given two shooters 1 Space apart, when one fires and the other returns fire, then neither roll has Edge from the distance; a cramped shot is the GM’s edge', () => {
    const start = at(at(shootout(), 'sera', 0, 0), 'veyr', 0, 1);
    const declared = then(start, ranged('sera', 'veyr', 'bow', 0));
    // Sera's 1 die, 6 = 2 dots; Veyr's crossbow, 2 dice, 3 and 1 = 1 dot. Sera wins by 1: Wound Margin 1 + 5 − 1 = 5,
    // 3 Wounds: Veyr (Maximum Vitality 4) drops to 1, below half and more than half in one: one check, 3 and 1 pass.
    const events = exact(declared, respond('veyr', 'clash', 0, { weaponId: 'crossbow' }), {
      dice: [6, 3, 1],
      followUpFaces: [3, 1],
    });
    expect(find(events, 'ExchangeResponded').edge).toEqual({ advantage: [], disadvantage: [] });
    expect(find(events, 'ExchangeResolved')).toMatchObject({
      outcome: 'hit',
      hitMargin: 1,
      attacker: { edge: 'none' },
      responder: { edge: 'none' },
    });
    expect(find(events, 'WoundsApplied')).toMatchObject({ wounds: 3, vitality: 1 });
    // narateer.txt: Combat Modifiers — "The Guide may apply Adv / Disadv for other situational factors".
    const cramped = exact(start, ranged('sera', 'veyr', 'bow', 0, { edge: 'disadvantage' }));
    expect(find(cramped, 'ExchangeDeclared').edge).toEqual({ advantage: [], disadvantage: ['gm'] });
  });
});
