import { RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { condition, exact, fight, find, melee, refusal, respond, sheet, stateOf, then } from './helpers';

/** The view's entry of combatant `id` after `events`. */
const shown = (events: RuleEvent[], id: string) =>
  (narateer.view(stateOf(events)) as any).combatants.find((c: any) => c.id === id);

/** A shove: a proactive Melee action paid with no die (ruling N33). */
const shove = (combatantId: string) => ({
  type: 'SpendDice',
  combatantId,
  ad: 0,
  md: 0,
  proactiveUse: 'melee',
  reason: 'shove',
});

describe('N63: the proactive uses the view shows are the ones the combatant may take', () => {
  // a: Melee SL 1, Ranged SL 0 — 2 proactive Melee uses and 1 Ranged use in its activation.
  const a = sheet({ maxVitality: 2, skills: { melee: 1, ranged: 0, acrobatics: 0 } });
  const b = sheet({ skills: { melee: 1, ranged: 0, acrobatics: 0 } });
  const start = () =>
    fight(
      [
        { id: 'a', sheet: a },
        { id: 'b', sheet: b },
      ],
      'a',
    );

  it('N63: given a tempo-holder that Collapses when its own attack is Clashed, when its activation goes on, then the view shows no proactive use left, as the engine refuses them ("During your activation, proactive combat actions are limited by the Skill used")', () => {
    let events = then(start(), melee('a', 'b', 0));
    // Before the roll: one of a's 2 Melee uses spent, its 1 Ranged use untouched.
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
    // a: 1 die, face 1 = 0 dots. b's Clash: cost 1 + Boost 1 = 2 dice, 6 and 6 = 4 dots. b wins by 4.
    // Sword: Weapon Damage 2 + min(Strength 2, cap 3) = Strike 4; a's Soak 1. 4 + 4 − 1 = 7 → 5 Wounds.
    const clash = exact(events, respond('b', 'clash', 1), { dice: [1, 6, 6] });
    expect(find(clash, 'WoundsApplied')).toMatchObject({
      combatantId: 'a',
      hitMargin: 4,
      strikeRating: 4,
      protectionRating: 1,
      woundMargin: 7,
      wounds: 5,
      vitality: -3,
      state: 'Collapsed',
    });
    events = [...events, ...clash];
    const view = narateer.view(stateOf(events)) as any;
    expect(view.activeCombatantId).toBe('a');
    expect(shown(events, 'a')).toMatchObject({
      state: 'Collapsed',
      proactiveUsesLeft: { melee: 0, ranged: 0 },
    });
    // What the view says is what the engine does: neither an exchange nor a shove.
    expect(refusal(events, melee('a', 'b', 0))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
    expect(refusal(events, shove('a'))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
  });

  it('N63: given a tempo-holder knocked out in its own activation, then it has no proactive use while Unconscious or Paralyzed, and its uses left come back when the condition ends (N43, N46)', () => {
    let events = then(start(), shove('a'));
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
    for (const name of ['unconscious', 'paralyzed']) {
      const out = then(events, condition('a', name));
      expect([name, shown(out, 'a').proactiveUsesLeft]).toEqual([name, { melee: 0, ranged: 0 }]);
      expect(refusal(out, melee('a', 'b', 0))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
      expect(refusal(out, shove('a'))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
      const woken = then(out, { type: 'RemoveCondition', combatantId: 'a', condition: name });
      expect([name, shown(woken, 'a').proactiveUsesLeft]).toEqual([name, { melee: 1, ranged: 1 }]);
    }
    // A label condition (Prone, Restrained) takes none away.
    events = then(events, condition('a', 'restrained'));
    expect(shown(events, 'a').proactiveUsesLeft).toEqual({ melee: 1, ranged: 1 });
  });

  it('N63: given a tempo-holder Withdrawn by a failed Continuation Check in its own activation, then the view shows no proactive use left', () => {
    const sturdy = sheet({ maxVitality: 8, skills: { melee: 1, ranged: 0, acrobatics: 0 } });
    let events = fight(
      [
        { id: 'a', sheet: sturdy },
        { id: 'b', sheet: b },
      ],
      'a',
    );
    // The GM's spell: Wound Margin 7 → 5 Wounds; Vitality 3 of 8 is below half and 5 is more than half: one check.
    // Resilience 2: faces 1 and 2 show 0 dots, so the check fails.
    events = then(
      events,
      { type: 'ApplyWounds', combatantId: 'a', woundMargin: 7, harm: 'Elemental (Fire)' },
      { followUpFaces: [1, 2] },
    );
    expect(shown(events, 'a')).toMatchObject({
      state: 'Withdrawn',
      vitality: 3,
      proactiveUsesLeft: { melee: 0, ranged: 0 },
    });
    expect(refusal(events, melee('a', 'b', 0))).toMatchObject({ code: 'NARATEER_CANNOT_ACT' });
  });
});
