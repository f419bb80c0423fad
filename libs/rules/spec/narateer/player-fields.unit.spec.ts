import { RuleCommand, RuleEvent } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { decidedSeeded } from '../given';
import { at, fight, melee, mira, orin, respond, stateOf, then } from './helpers';

const actor = (events: RuleEvent[], command: RuleCommand) => narateer.actorOf!(stateOf(events), command);

/** What the decider makes of a command (events, or the violation), with the same seeded dice every time. */
const decided = (events: RuleEvent[], command: RuleCommand) =>
  decidedSeeded(narateer, stateOf(events), command);

const sword = {
  id: 'sword',
  name: 'Sword',
  kind: 'melee',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};

/** Mira's activation, Orin her target. */
const duel = fight(
  [
    { id: 'mira', sheet: mira },
    { id: 'orin', sheet: orin },
  ],
  'mira',
);
/** Orin's answer to Mira's exchange is pending. */
const pending = then(duel, melee('mira', 'orin', 1));
/** g (sword, reach 1) at (0,0) is offered an Opportunity Attack on m, who stepped from (1,0) to (1,1). */
const yard = (() => {
  let events = fight(
    [
      { id: 'g', sheet: { ...orin, weapons: [sword] } },
      { id: 'm', sheet: mira },
    ],
    'm',
  );
  events = at(at(events, 'g', 0, 0), 'm', 1, 0);
  return then(events, { type: 'Move', combatantId: 'm', path: [{ x: 1, y: 1 }] });
})();
const opportunity = (extra: Record<string, unknown> = {}): RuleCommand => ({
  type: 'TakeOpportunityAttack',
  combatantId: 'g',
  weaponId: 'sword',
  boost: 1,
  ...extra,
});

/** C12: each field an attack may not carry from a player, with a value and the rule that gives it to the GM. */
const ATTACK_FIELDS: [string, string, Record<string, unknown>][] = [
  [
    'edge',
    'narateer.txt: Combat Modifiers: "The Guide may apply Adv / Disadv" (N31 source gm)',
    { edge: 'advantage' },
  ],
  [
    'responderEdge',
    'narateer.txt: Combat Modifiers: the Guide’s Adv / Disadv on the responder (N31)',
    { responderEdge: 'disadvantage' },
  ],
  ['distance', 'RULINGS.md N25: without map positions the GM may give distance', { distance: 1 }],
  [
    'attackerUnseen',
    'Hidden and Unseen Creatures: whether the attacker is unseen is the GM’s call (N31)',
    { attackerUnseen: true },
  ],
  [
    'attackerCannotSeeTarget',
    'Hidden and Unseen Creatures: who cannot see whom is the GM’s call (N31)',
    { attackerCannotSeeTarget: true },
  ],
  [
    'targetCannotSeeAttacker',
    'Hidden and Unseen Creatures: who cannot see whom is the GM’s call (N31)',
    { targetCannotSeeAttacker: true },
  ],
  [
    'targetUnaware',
    'Hidden and Unseen Creatures: "an unaware target follows No Response" — the GM says who is unaware',
    { targetUnaware: true },
  ],
  ['harm', 'RULINGS.md N12: the GM may override the weapon’s Harm per attack', { harm: 'Elemental (Fire)' }],
  [
    'strikeModifier',
    'narateer.txt: Strike Rating: a Power’s stated modifier, which the GM rules on (N44)',
    { strikeModifier: 1 },
  ],
  [
    'protectionModifier',
    'narateer.txt: Protection Rating: "other explicit modifiers", the GM’s (N44)',
    { protectionModifier: 1 },
  ],
];

describe('RULINGS.md C12: the GM’s fields on a Narateer player’s command', () => {
  it.each(ATTACK_FIELDS)('DeclareExchange: %s is the GM’s (%s)', (field, _rule, extra) => {
    expect(actor(duel, melee('mira', 'orin', 1, extra))).toEqual({
      combatantId: 'mira',
      field: 'attackerId',
      gmOnly: [field],
    });
    // The field is no dead letter: the declaration comes out differently with it.
    expect(decided(duel, melee('mira', 'orin', 1, extra))).not.toEqual(
      decided(duel, melee('mira', 'orin', 1)),
    );
  });

  it.each(ATTACK_FIELDS)('TakeOpportunityAttack: %s is the GM’s (%s)', (field, _rule, extra) => {
    expect(actor(yard, opportunity(extra))).toEqual({
      combatantId: 'g',
      field: 'combatantId',
      gmOnly: [field],
    });
    // N25: map positions win over distance, and an Opportunity Attack always has them; the field stays the GM's.
    if (field !== 'distance')
      expect(decided(yard, opportunity(extra))).not.toEqual(decided(yard, opportunity()));
  });

  it('N12: a harm override inside a response given up front is the GM’s too (response.harm)', () => {
    const answer = { response: 'clash', boost: 0, weaponId: 'mace' };
    const command = melee('mira', 'orin', 1, { response: { ...answer, harm: 'Elemental (Fire)' } });
    expect(actor(duel, command)).toMatchObject({ gmOnly: ['response.harm'] });
    expect(decided(duel, command)).not.toEqual(decided(duel, melee('mira', 'orin', 1, { response: answer })));
  });

  it('every GM field present is named, in the ruling’s order', () => {
    expect(
      actor(
        duel,
        melee('mira', 'orin', 1, { harm: 'Elemental (Fire)', edge: 'advantage', targetUnaware: false }),
      )!.gmOnly,
    ).toEqual(['edge', 'targetUnaware', 'harm']);
  });

  it('N44: a Clash’s Strike and Protection modifiers are the GM’s, on RespondToExchange and inside a response given up front', () => {
    const plain = respond('orin', 'clash', 0, { weaponId: 'mace' });
    const modified = { ...plain, strikeModifier: 1, protectionModifier: -1 };
    expect(actor(pending, modified)).toEqual({
      combatantId: 'orin',
      field: 'combatantId',
      gmOnly: ['strikeModifier', 'protectionModifier'],
    });
    expect(decided(pending, modified)).not.toEqual(decided(pending, plain));
    const answer = { response: 'clash', boost: 0, weaponId: 'mace' };
    const command = melee('mira', 'orin', 1, { response: { ...answer, strikeModifier: 2 } });
    expect(actor(duel, command)).toMatchObject({ gmOnly: ['response.strikeModifier'] });
    expect(decided(duel, command)).not.toEqual(decided(duel, melee('mira', 'orin', 1, { response: answer })));
  });

  it('RespondToExchange: harm is the GM’s (RULINGS.md N12)', () => {
    const plain = respond('orin', 'clash', 0, { weaponId: 'mace' });
    const withHarm = { ...plain, harm: 'Elemental (Fire)' };
    expect(actor(pending, withHarm)).toEqual({ combatantId: 'orin', field: 'combatantId', gmOnly: ['harm'] });
    expect(decided(pending, withHarm)).not.toEqual(decided(pending, plain));
  });

  it('Move: forced is the GM’s — movement by another effect, at any time (RULINGS.md N24)', () => {
    const move = { type: 'Move', combatantId: 'm', path: [{ x: 1, y: 1 }] };
    const fromYard = at(
      at(
        fight(
          [
            { id: 'g', sheet: { ...orin, weapons: [sword] } },
            { id: 'm', sheet: mira },
          ],
          'g',
        ),
        'g',
        5,
        5,
      ),
      'm',
      1,
      0,
    );
    expect(actor(fromYard, { ...move, forced: true })).toEqual({
      combatantId: 'm',
      field: 'combatantId',
      gmOnly: ['forced'],
    });
    // Outside m's own activation only a forced move is allowed.
    expect(decided(fromYard, move)).toBe('NARATEER_NOT_YOUR_ACTIVATION combatantId');
    expect(decided(fromYard, { ...move, forced: true })).toContain('"forced":true');
  });

  it('Move: noReactions is the GM’s — a rule that exempts movement from Reactions (RULINGS.md N24)', () => {
    let events = fight(
      [
        { id: 'g', sheet: { ...orin, weapons: [sword] } },
        { id: 'm', sheet: mira },
      ],
      'm',
    );
    events = at(at(events, 'g', 0, 0), 'm', 1, 0);
    const move = { type: 'Move', combatantId: 'm', path: [{ x: 1, y: 1 }] };
    expect(actor(events, { ...move, noReactions: true })).toEqual({
      combatantId: 'm',
      field: 'combatantId',
      gmOnly: ['noReactions'],
    });
    expect(decided(events, move)).toContain('OpportunityOffered');
    expect(decided(events, { ...move, noReactions: true })).not.toContain('OpportunityOffered');
  });
});

describe('RULINGS.md C12, N23: a response given up front speaks for the responder', () => {
  it('on DeclareExchange it answers for the target', () => {
    expect(actor(duel, melee('mira', 'orin', 1, { response: 'none' }))).toEqual({
      combatantId: 'mira',
      field: 'attackerId',
      speaksFor: [{ combatantId: 'orin', field: 'response' }],
    });
  });

  it('on TakeOpportunityAttack it answers for the mover', () => {
    expect(actor(yard, opportunity({ response: { response: 'fullGuard', boost: 0 } }))).toEqual({
      combatantId: 'g',
      field: 'combatantId',
      speaksFor: [{ combatantId: 'm', field: 'response' }],
    });
  });

  it('a responder answering its own exchange speaks only for itself', () => {
    expect(actor(pending, respond('orin', 'fullGuard', 1, { allocation: ['AD'] }))).toEqual({
      combatantId: 'orin',
      field: 'combatantId',
    });
  });
});

describe('RULINGS.md C12: what stays the player’s', () => {
  it('an attack’s target, kind, weapon, Boost, Damage Vital and own wound allocation', () => {
    expect(
      actor(duel, melee('mira', 'orin', 2, { damageVital: 'agility', allocation: ['AD', 'MD'] })),
    ).toEqual({ combatantId: 'mira', field: 'attackerId' });
    expect(actor(yard, opportunity({ damageVital: 'strength', allocation: ['AD'] }))).toEqual({
      combatantId: 'g',
      field: 'combatantId',
    });
  });

  it('a response’s kind, Boost, weapon, Damage Vital and allocation; wound allocations, reloads, spent dice, moves and declines', () => {
    const commands: RuleCommand[] = [
      respond('orin', 'clash', 1, { weaponId: 'mace', damageVital: 'strength', allocation: ['AD'] }),
      { type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD', 'AD'] },
      { type: 'ReloadWeapon', combatantId: 'orin', weaponId: 'mace' },
      { type: 'SpendDice', combatantId: 'orin', ad: 1, md: 0, proactiveUse: 'melee', reason: 'shove' },
      { type: 'Move', combatantId: 'orin', path: [{ x: 1, y: 0 }] },
      { type: 'DeclineOpportunity', combatantId: 'orin' },
    ];
    for (const command of commands)
      expect(actor(pending, command)).toEqual({ combatantId: 'orin', field: 'combatantId' });
  });

  it('the GM’s own commands stay the GM’s, whatever they carry', () => {
    for (const type of [
      'ApplyWounds',
      'ApplyLingeringHarm',
      'TreatLingeringHarm',
      'ApplyCondition',
      'RemoveCondition',
      'SetPosition',
    ]) {
      expect(actor(duel, { type, combatantId: 'mira', harm: 'Elemental (Fire)' })).toBeUndefined();
    }
  });
});
