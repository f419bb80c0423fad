import { RuleCommand, RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { TEST_SEED } from '../given';
import {
  at,
  bow,
  crossbow,
  duel,
  exact,
  fight,
  find,
  greatsword,
  mace,
  melee,
  mira,
  orin,
  ranged,
  refusal,
  respond,
  sera,
  sheet,
  spear,
  stateOf,
  step,
  sword,
  take,
  then,
  veyr,
} from './helpers';

/** The view after `events`. */
const viewOf = (events: RuleEvent[]) => narateer.view(stateOf(events)) as any;
/** The view's entry of combatant `id` after `events`. */
const shown = (events: RuleEvent[], id: string) => viewOf(events).combatants.find((c: any) => c.id === id);
/** The view's entry of weapon `weaponId` of combatant `id` after `events`. */
const weaponShown = (events: RuleEvent[], id: string, weaponId: string) =>
  shown(events, id).weapons.find((w: any) => w.id === weaponId);

/** A proactive action paid with no die (ruling N33): a shove (Melee) or a thrown net (Ranged). */
const shove = (combatantId: string, kind: 'melee' | 'ranged' = 'melee'): RuleCommand => ({
  type: 'SpendDice',
  combatantId,
  ad: 0,
  md: 0,
  proactiveUse: kind,
});

describe('The view shows a combatant’s Skill Levels and Vitals as the rules read them', () => {
  it('"Maximum Boost AD = Skill Level being tested": given Mira (Melee SL 3, Ranged SL 0, Acrobatics SL 1) and Orin, whose sheet gives only Melee SL 1, then the view shows every Skill Level (0 where the sheet left it out), and the engine allows exactly that Boost', () => {
    const archer = { ...mira, weapons: [sword, bow] };
    const start = duel(archer, orin);
    expect(shown(start, 'mira')).toMatchObject({
      skills: { melee: 3, ranged: 0, acrobatics: 1 },
      vitals: { strength: 2, agility: 3, resilience: 2 },
    });
    expect(shown(start, 'orin')).toMatchObject({
      skills: { melee: 1, ranged: 0, acrobatics: 0 },
      vitals: { strength: 3, agility: 2, resilience: 2 },
    });
    // Mira has 5 Ready AD: Boost 3 with the sword (1 + 3 = 4 dice) is hers, Boost 4 is beyond her Melee SL.
    expect(find(exact(start, melee('mira', 'orin', 3)), 'ExchangeDeclared')).toMatchObject({ dice: 4 });
    expect(refusal(start, melee('mira', 'orin', 4))).toMatchObject({ code: 'NARATEER_BOOST_OVER_SKILL' });
    // Ranged SL 0: the bow takes no Boost.
    expect(refusal(start, ranged('mira', 'orin', 'bow', 1))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
    });
    // Orin's Full Guard against a Melee Exchange tests Melee: SL 1 allows Boost 1, not 2.
    const pending = then(start, melee('mira', 'orin', 0));
    expect(refusal(pending, respond('orin', 'fullGuard', 2))).toMatchObject({
      code: 'NARATEER_BOOST_OVER_SKILL',
    });
  });
});

describe('The view shows each weapon as the rules read it: cost, reach, range, damage and Loading', () => {
  /** A melee weapon whose sheet leaves out kind, weight, reach, damageVitals and needsLoading. */
  const knife = {
    id: 'knife',
    name: 'Knife',
    baseAttackCost: 1,
    weaponDamage: 1,
    damageVitalCap: 2,
    harm: 'Physical (Piercing)',
  };

  it('given a sheet that leaves fields out, then each weapon shows the value the engine uses: light, reach 1, Strength or Agility, no Loading; a heavy weapon Strength; a ranged weapon Agility, its ranges and no reach', () => {
    const armoury = sheet({ weapons: [knife, mace, spear, bow, crossbow] });
    const events = duel(armoury, orin);
    const weapons = shown(events, 'mira').weapons;
    expect(weapons.map((w: any) => w.id)).toEqual(['knife', 'mace', 'spear', 'bow', 'crossbow']);
    expect(weapons[0]).toEqual({
      id: 'knife',
      name: 'Knife',
      kind: 'melee',
      weight: 'light',
      baseAttackCost: 1,
      reach: 1,
      effectiveRange: null,
      maximumRange: null,
      weaponDamage: 1,
      damageVitals: ['strength', 'agility'],
      damageVitalCap: 2,
      harm: { domain: 'Physical', type: 'Piercing' },
      needsLoading: false,
      loaded: true,
      ammunition: null,
      ready: true,
    });
    // narateer.txt: Core Combat Attributes: "Heavy weapons use Strength for damage."
    expect(weapons[1]).toMatchObject({ weight: 'heavy', reach: 1, damageVitals: ['strength'] });
    expect(weapons[2]).toMatchObject({ reach: 2, baseAttackCost: 1 });
    // A loaded projectile uses Agility (N21); a ranged weapon has ranges, not reach.
    expect(weapons[3]).toEqual({
      id: 'bow',
      name: 'Bow',
      kind: 'ranged',
      weight: 'light',
      baseAttackCost: 1,
      reach: null,
      effectiveRange: 12,
      maximumRange: 30,
      weaponDamage: 2,
      damageVitals: ['agility'],
      damageVitalCap: 3,
      harm: { domain: 'Physical', type: 'Piercing' },
      needsLoading: false,
      loaded: true,
      ammunition: 20,
      ready: true,
    });
    expect(weapons[4]).toMatchObject({
      baseAttackCost: 2,
      effectiveRange: 10,
      maximumRange: 20,
      needsLoading: true,
      loaded: true,
      ammunition: 10,
    });
  });

  it('"Attack Dice = weapon Base Attack Cost + Boost AD": Mira’s arming sword shows Base Attack Cost 1, and surging at Orin with 2 Boost AD commits 3 AD; a greatsword whose cost (3) the 2 Ready AD cannot pay is refused', () => {
    const start = duel();
    expect(weaponShown(start, 'mira', 'sword').baseAttackCost).toBe(1);
    const surge = then(start, melee('mira', 'orin', 2));
    expect(find(surge.slice(start.length), 'ExchangeDeclared')).toMatchObject({ weaponId: 'sword', dice: 3 });
    expect(shown(surge, 'mira').ad).toMatchObject({ ready: 2, used: 3 });
    const short = duel({ ...mira, maxAD: 2, weapons: [greatsword] });
    expect(weaponShown(short, 'mira', 'greatsword').baseAttackCost).toBe(3);
    expect(refusal(short, { ...melee('mira', 'orin', 0), weaponId: 'greatsword' })).toMatchObject({
      code: 'NARATEER_NOT_ENOUGH_READY_AD',
      field: 'weaponId',
    });
  });

  it('"A Melee Exchange requires the combatants to be within the reach needed": the spear’s reach 2 and the sword’s default reach 1 the view shows are the distances the engine allows on the map', () => {
    const start = duel({ ...mira, weapons: [sword, spear] });
    expect(weaponShown(start, 'mira', 'sword').reach).toBe(1);
    expect(weaponShown(start, 'mira', 'spear').reach).toBe(2);
    const placed = at(at(start, 'mira', 0, 0), 'orin', 2, 0);
    const thrust = { ...melee('mira', 'orin', 0), weaponId: 'spear' };
    expect(find(exact(placed, thrust), 'ExchangeDeclared')).toMatchObject({ weaponId: 'spear', distance: 2 });
    expect(refusal(placed, melee('mira', 'orin', 0))).toMatchObject({ code: 'NARATEER_NOT_IN_REACH' });
    expect(refusal(at(placed, 'orin', 3, 0), thrust)).toMatchObject({ code: 'NARATEER_NOT_IN_REACH' });
  });

  it('"An attack beyond Effective Range but within Maximum Range has Disadvantage. A target beyond Maximum Range cannot be targeted": the bow’s Effective Range 12 and Maximum Range 30 the view shows are the engine’s', () => {
    const start = fight(
      [
        { id: 'sera', sheet: sera },
        { id: 'veyr', sheet: veyr },
      ],
      'sera',
    );
    expect(weaponShown(start, 'sera', 'bow')).toMatchObject({ effectiveRange: 12, maximumRange: 30 });
    const shotAt = (x: number) => at(at(start, 'sera', 0, 0), 'veyr', x, 0);
    const shot = ranged('sera', 'veyr', 'bow', 0);
    const edgeAt = (x: number) => find(exact(shotAt(x), shot), 'ExchangeDeclared').edge;
    expect(edgeAt(12).disadvantage).not.toContain('beyondEffectiveRange');
    expect(edgeAt(13).disadvantage).toContain('beyondEffectiveRange');
    expect(edgeAt(30).disadvantage).toContain('beyondEffectiveRange');
    expect(refusal(shotAt(31), shot)).toMatchObject({ code: 'NARATEER_OUT_OF_RANGE' });
  });

  it('"Strike Rating = Weapon Damage + min(active Damage Vital, Damage Vital Cap)": from the view, Mira’s arming sword (Weapon Damage 2, Strength or Agility, cap 3) with her Agility 3 gives Strike Rating 5, as the worked example’s hit does', () => {
    const start = duel();
    const m = shown(start, 'mira');
    const w = m.weapons.find((x: any) => x.id === 'sword');
    expect(w).toMatchObject({ weaponDamage: 2, damageVitals: ['strength', 'agility'], damageVitalCap: 3 });
    const strike =
      w.weaponDamage +
      Math.max(...w.damageVitals.map((v: string) => Math.min(m.vitals[v], w.damageVitalCap)));
    expect(strike).toBe(5);
    // One die showing 6 (2 dots) against No Response: Hit Margin 2 + Strike Rating 5 − Protection 1 = 6 → 3 Wounds.
    const hit = exact(start, melee('mira', 'orin', 0, { response: 'none' }), { dice: [6] });
    expect(find(hit, 'WoundsApplied')).toMatchObject({
      damageVital: 'agility',
      hitMargin: 2,
      strikeRating: strike,
      protectionRating: shown(start, 'orin').soak,
      woundMargin: 6,
      wounds: 3,
    });
  });
});

describe('N67: outside its own activation, the proactive uses the view shows are those its next activation starts with', () => {
  // a: Melee SL 1, Ranged SL 0: "Melee SL + 1" = 2 Melee uses and "Minimum = 1" Ranged use per activation.
  const a = sheet({ skills: { melee: 1, ranged: 0, acrobatics: 0 } });
  const b = sheet({ skills: { melee: 1, ranged: 0, acrobatics: 0 } });
  const start = () =>
    fight(
      [
        { id: 'a', sheet: a },
        { id: 'b', sheet: b },
      ],
      'a',
    );

  it('N67: given a combatant that spent its proactive uses in its activation, when the activation ends, then the view shows the uses its next activation starts with (SL + 1, minimum 1), and the engine allows exactly those when it starts; an Opportunity Attack taken meanwhile spends none', () => {
    let events = at(at(start(), 'a', 0, 0), 'b', 1, 0);
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });
    events = then(events, shove('a'));
    events = then(events, shove('a'));
    events = then(events, shove('a', 'ranged'));
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 0, ranged: 0 });
    expect(refusal(events, shove('a'))).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT' });

    events = then(events, { type: 'EndActivation' });
    const between = shown(events, 'a').proactiveUsesLeft;
    expect(between).toEqual({ melee: 2, ranged: 1 });

    // b's activation: a takes no proactive action, and what it does take spends no use.
    events = then(events, { type: 'StartActivation' });
    expect(viewOf(events).activeCombatantId).toBe('b');
    expect(shown(events, 'a').proactiveUsesLeft).toEqual(between);
    expect(refusal(events, shove('a'))).toMatchObject({ code: 'NARATEER_NOT_YOUR_TEMPO' });
    // b steps from (1, 0) to (1, 1), both within a's sword reach: a's Opportunity Attack, one die showing 1 against
    // No Response: 0 dots against target number 0, nothing lands ("Opportunity Attacks do not consume proactive Melee uses").
    events = then(events, step('b', 1, 1));
    expect(viewOf(events).opportunity).toMatchObject({ moverId: 'b', current: 'a' });
    events = then(events, take('a', { response: 'none' }), { dice: [1] });
    expect(shown(events, 'a').proactiveUsesLeft).toEqual(between);
    // b attacks, a Clashes: one die each, 1 and 1, a tie; the Clash is a response, not a proactive use.
    events = then(events, melee('b', 'a', 0));
    events = then(events, respond('a', 'clash', 0), { dice: [1, 1] });
    expect(shown(events, 'a').proactiveUsesLeft).toEqual(between);

    // Round 2: a's next activation allows exactly the uses the view showed.
    for (const type of ['EndActivation', 'StartRound', 'StartActivation']) events = then(events, { type });
    expect(viewOf(events).activeCombatantId).toBe('a');
    expect(shown(events, 'a').proactiveUsesLeft).toEqual(between);
    for (const kind of ['melee', 'ranged'] as const) {
      for (let i = 0; i < between[kind]; i++) events = then(events, shove('a', kind));
      expect(refusal(events, shove('a', kind))).toMatchObject({ code: 'NARATEER_PROACTIVE_LIMIT' });
    }
  });

  it('N67: given a combatant outside its activation, when it is knocked out, wakes, and the GM then ends the fight, then it shows no proactive use while it cannot act (N63), its next activation’s uses once it can again, and no use for anyone once the fight has ended, which accepts no command (N66)', () => {
    let events = then(start(), shove('a'));
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartActivation' });
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });
    const out = then(events, { type: 'ApplyCondition', combatantId: 'a', condition: 'unconscious' });
    expect(shown(out, 'a').proactiveUsesLeft).toEqual({ melee: 0, ranged: 0 });
    const woken = then(out, { type: 'RemoveCondition', combatantId: 'a', condition: 'unconscious' });
    expect(shown(woken, 'a').proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });
    // b's activation runs: its own uses are counted down as before.
    events = then(woken, shove('b'));
    expect(shown(events, 'b').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });

    const ended = then(events, { type: 'EndFight', revealedSeed: TEST_SEED });
    expect(viewOf(ended).combatants.map((c: any) => [c.id, c.proactiveUsesLeft])).toEqual([
      ['a', { melee: 0, ranged: 0 }],
      ['b', { melee: 0, ranged: 0 }],
    ]);
    expect(refusal(ended, shove('b'))).toMatchObject({ code: 'FIGHT_ENDED' });
  });

  it('N67: given a combatant in its own activation, when an event changes nothing and then the activation ends with no change to it, then the view follows the activation: the same entry while nothing changes, the next activation’s uses once it has ended', () => {
    // Folded event by event, as the service and the projections fold a fight.
    const events = then(start(), shove('a'));
    const before = stateOf(events);
    const note = exact(events, { type: 'AddNote', text: 'a presses on' });
    const noted = note.reduce(narateer.evolve, before);
    const entries = (s: typeof before) => (narateer.view(s) as any).combatants;
    // Nothing changed: the read side gets the same entries again and knows their rows did not change.
    expect(entries(noted)[0]).toBe(entries(before)[0]);
    expect(entries(noted)[1]).toBe(entries(before)[1]);
    expect(entries(noted)[0].proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
    const ended = exact([...events, ...note], { type: 'EndActivation' }).reduce(narateer.evolve, noted);
    expect(ended.combatants.a).toBe(noted.combatants.a);
    expect(entries(ended)[0].proactiveUsesLeft).toEqual({ melee: 2, ranged: 1 });
  });
});
