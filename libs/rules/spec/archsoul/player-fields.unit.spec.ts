import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { archsoul } from '../../src/archsoul';
import { bow, fight, foe, hero, javelin, stateOf, sword, then } from './helpers';

const actor = (events: RuleEvent[], command: RuleCommand) => archsoul.actorOf!(stateOf(events), command);

/** What the decider makes of a command with these faces (events, or the violation). */
function decided(events: RuleEvent[], command: RuleCommand, faces: ManualFaces): string {
  try {
    return JSON.stringify(archsoul.decide(stateOf(events), command, new ManualDice(faces)));
  } catch (e) {
    if (e instanceof RuleViolation) return `${e.code} ${e.field}`;
    throw e;
  }
}

/** a (sword, a javelin in hand) faces v, adjacent, in the heroes' phase. */
const duel = fight([
  hero('a', [0, 0], 'N', { weapons: [sword, { ...javelin, held: true }] }),
  foe('v', [0, -1], 'S', { defense: 0 }),
]);

/** C12: each field an attack may not carry from a player, with a value and why it is the GM's. */
const FIELDS: [string, string, unknown][] = [
  ['modifier', 'a situational difficulty on the attack roll (the event records it as "situational (GM)")', 1],
  ['damageModifier', 'a situational difficulty on the damage roll ("situational (GM)")', 1],
  [
    'criticalNarration',
    'RULINGS.md S2: the GM may replace the critical failure roll with a narrated result',
    'The blade sticks in a beam',
  ],
  ['limbArmoured', 'RULINGS.md S22: overrides the sheet’s metal gauntlets for one attack', true],
];

/** Every command whose payload reaches the attack and damage rolls. */
const COMMANDS: RuleCommand[] = [
  { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' },
  { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
  { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
  { type: 'Charge', combatantId: 'a', path: [{ x: 0, y: -1 }], targetId: 'v', weaponId: 'lance' },
  { type: 'ReactiveAttack', combatantId: 'a', weaponId: 'sword' },
  { type: 'ResumeAction', combatantId: 'a' },
];

describe('RULINGS.md C12: the GM’s fields on an Archsoul player’s command', () => {
  describe.each(COMMANDS.map((c) => [c.type, c] as const))('%s', (_type, command) => {
    it.each(FIELDS)('%s is the GM’s: %s', (field, _why, value) => {
      const field0 = command.attackerId ? 'attackerId' : 'combatantId';
      expect(actor(duel, { ...command, [field]: value })).toEqual({
        combatantId: 'a',
        field: field0,
        gmOnly: [field],
      });
      expect(actor(duel, command)).toEqual({ combatantId: 'a', field: field0 });
    });
  });

  it('every GM field present is named, whatever its value', () => {
    expect(
      actor(duel, { ...COMMANDS[0], limbArmoured: false, modifier: 0, criticalNarration: '' })!.gmOnly,
    ).toEqual(['modifier', 'criticalNarration', 'limbArmoured']);
  });

  describe('none is a dead letter: the attack comes out differently with it', () => {
    const attack = COMMANDS[0];
    // Sword: 4 attack dice, then 5 damage dice.
    const hit = { dice: [6, 6, 6, 1, 4, 4, 4, 1, 1] };

    it('modifier makes the attack roll harder', () => {
      expect(decided(duel, { ...attack, modifier: 1 }, hit)).toContain('situational (GM)');
      expect(decided(duel, attack, hit)).not.toContain('situational (GM)');
    });

    it('damageModifier makes the damage roll harder', () => {
      expect(decided(duel, { ...attack, damageModifier: 1 }, hit)).toContain('situational (GM)');
      expect(decided(duel, attack, hit)).not.toContain('situational (GM)');
    });

    it('criticalNarration replaces the critical failure table', () => {
      const fumble = { dice: [1, 1, 1, 2], followUpFaces: [2] };
      expect(decided(duel, { ...attack, criticalNarration: 'The blade sticks in a beam' }, fumble)).toContain(
        '"narrated":true',
      );
      expect(decided(duel, attack, fumble)).not.toContain('"narrated":true');
    });

    it('limbArmoured adds the metal armour’s +1 to an unarmed hit', () => {
      const punch = { type: 'Attack', attackerId: 'a', targetId: 'v' };
      const faces = { dice: [4, 1, 1, 1, 1] };
      expect(decided(duel, { ...punch, limbArmoured: true }, faces)).toContain('"bonus":1');
      expect(decided(duel, punch, faces)).toContain('"bonus":0');
    });

    it('ResumeAction lays its fields over the held attack’s (RULINGS.md S18), so they count there too', () => {
      let events = fight([
        hero('a', [0, 0], 'N', { weapons: [bow] }),
        foe('v', [0, -1], 'S', { defense: 0 }),
      ]);
      events = then(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' });
      events = then(events, { type: 'DeclineReactiveAttack', combatantId: 'v' });
      expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
      const faces = { dice: [6, 6, 6, 1, 4, 4, 4, 1, 1, 1, 1, 1], followUpFaces: [6] };
      expect(decided(events, { type: 'ResumeAction', combatantId: 'a', modifier: 1 }, faces)).toContain(
        'situational (GM)',
      );
      expect(decided(events, { type: 'ResumeAction', combatantId: 'a' }, faces)).not.toContain(
        'situational (GM)',
      );
    });
  });
});

describe('RULINGS.md C12: what stays the player’s', () => {
  it('an attack’s target, weapon, style and maneuvers', () => {
    const maneuvers = {
      special: 'reckless',
      feint: { skill: 'acting', facing: 'N' },
      sneak: true,
      knockdown: true,
      shatter: { itemId: 'sword' },
      cleave: { spaces: [{ x: 0, y: -1 }] },
      unarmedStyle: 'other',
    };
    expect(actor(duel, { ...COMMANDS[0], ...maneuvers })).toEqual({ combatantId: 'a', field: 'attackerId' });
    expect(actor(duel, { ...COMMANDS[3], trample: true, feint: true, knockdown: true })).toEqual({
      combatantId: 'a',
      field: 'combatantId',
    });
  });

  it('moves, items, stances, grapples, mounts and rituals with their own fields; speaking for nobody else', () => {
    const commands: RuleCommand[] = [
      { type: 'EndTurn', combatantId: 'a', to: { x: 1, y: 0 } },
      {
        type: 'Move',
        combatantId: 'a',
        path: [{ x: 1, y: 0 }],
        facing: 'N',
        free: true,
        jump: true,
        trample: true,
      },
      { type: 'SlowMove', combatantId: 'a', to: { x: 1, y: 0 }, facing: 'S' },
      { type: 'Turn', combatantId: 'a', facing: 'S' },
      { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'javelin', fromBackpack: true },
      { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' },
      { type: 'SoulShield', combatantId: 'a', targetId: 'b' },
      { type: 'GrappleThrow', combatantId: 'a', targetId: 'v', outcome: 'throw', to: { x: 1, y: 0 } },
      { type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'sword' },
      { type: 'GrappleAttack', combatantId: 'a', targetId: 'v', weaponId: 'sword' },
      { type: 'PerformRitual', combatantId: 'a', name: 'Ward', ap: 2, movement: false, provokes: false },
      { type: 'ResumeAction', combatantId: 'a', abandon: true },
    ];
    for (const command of commands)
      expect(actor(duel, command)).toEqual({ combatantId: 'a', field: 'combatantId' });
  });

  it('the GM’s own commands stay the GM’s, whatever they carry', () => {
    for (const type of [
      'SetMap',
      'PlaceCombatant',
      'DeclareAmbush',
      'EndPhase',
      'ApplyCondition',
      'RemoveCondition',
      'ApplyDamage',
      'Fall',
    ]) {
      expect(actor(duel, { type, combatantId: 'a', modifier: 1 })).toBeUndefined();
    }
  });
});
