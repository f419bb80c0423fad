import { RuleCommand, RuleEvent } from '../../src/core/types';
import { arcanaBeast } from '../../src/arcana-beast';
import { decidedSeeded } from '../given';
import { close, fight, party, stateOf, then } from './helpers';

const actor = (events: RuleEvent[], command: RuleCommand) => arcanaBeast.actorOf!(stateOf(events), command);

/** What the decider makes of a command (events, or the violation), with the same seeded dice every time. */
const decided = (events: RuleEvent[], command: RuleCommand) =>
  decidedSeeded(arcanaBeast, stateOf(events), command);

/** Ember's turn (Ash's beast), Close to the wolf, its Zero Power's trigger marked. */
const emberTurn = then(close(fight(party, 'ember'), 'ember', 'wolf'), {
  type: 'SetTrigger',
  combatantId: 'ember',
  kind: 'zeroPower',
  active: true,
});
/** Pip's turn (Bo's beast), Close to Ash and Ember. */
const pipTurn = close(fight(party, 'pip'), 'pip', 'ember');

const ATTACKS: [string, RuleCommand][] = [
  ['Attack', { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' }],
  [
    'UseSpecialAttack',
    { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'inferno' },
  ],
  ['UseZeroPower', { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' }],
];

describe('RULINGS.md C12: the GM’s fields on an Arcana Beast player’s command', () => {
  it.each(ATTACKS)(
    '%s: bonusDice is the GM’s — "+1 dice the GM allows" (RULINGS.md A30)',
    (_type, command) => {
      expect(actor(emberTurn, { ...command, bonusDice: 2 })).toEqual({
        combatantId: 'ash',
        field: 'attackerId',
        gmOnly: ['bonusDice'],
      });
      // The field is no dead letter: the attack pool grows by the dice.
      expect(decided(emberTurn, { ...command, bonusDice: 2 })).toContain('bonusDice (RULINGS.md A30)');
      expect(decided(emberTurn, command)).not.toContain('bonusDice (RULINGS.md A30)');
    },
  );

  it('bonusDice counts when present, whatever its value', () => {
    expect(actor(emberTurn, { ...ATTACKS[0][1], bonusDice: 0 })!.gmOnly).toEqual(['bonusDice']);
  });

  it('RollTest is the GM’s as a whole: a Test’s Difficulty, ranks, dice, Boost and Setback are the GM’s, and the command needs a Difficulty', () => {
    expect(
      actor(emberTurn, { type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 1 }),
    ).toBeUndefined();
    expect(
      actor(emberTurn, {
        type: 'RollTest',
        combatantId: 'ember',
        stat: 'agility',
        difficulty: 2,
        ranks: 1,
        bonusDice: 1,
        boost: true,
        setback: false,
        reason: 'leap',
      }),
    ).toBeUndefined();
    expect(decided(emberTurn, { type: 'RollTest', combatantId: 'ash', stat: 'spirit' })).toBe(
      'INVALID_FIELD difficulty',
    );
  });
});

describe('RULINGS.md C12, A22: intercept given with an attack speaks for the attacked Binder’s beast', () => {
  it('an attack on Ash answers for Ember’s Intercept, which Ash’s player decides', () => {
    const attack = { type: 'Attack', attackerId: 'pip', targetId: 'ash', intercept: false };
    expect(actor(pipTurn, attack)).toEqual({
      combatantId: 'bo',
      field: 'attackerId',
      speaksFor: [{ combatantId: 'ash', field: 'intercept' }],
    });
    // Without it Ember is asked; with it the attack resolves at once.
    expect(decided(pipTurn, { ...attack, intercept: undefined })).toContain('"type":"AttackDeclared"');
    expect(decided(pipTurn, { ...attack, intercept: undefined })).not.toContain('"type":"AttackResolved"');
    expect(decided(pipTurn, attack)).toContain('"type":"AttackResolved"');
  });

  it.each(ATTACKS)('%s with intercept speaks for the target’s player, whoever it is', (_type, command) => {
    expect(actor(emberTurn, { ...command, intercept: true })).toMatchObject({
      combatantId: 'ash',
      speaksFor: [{ combatantId: 'wolf', field: 'intercept' }],
    });
    expect(
      actor(pipTurn, { ...command, attackerId: 'pip', targetId: 'ember', intercept: true }),
    ).toMatchObject({ combatantId: 'bo', speaksFor: [{ combatantId: 'ash', field: 'intercept' }] });
  });

  it('the beast answering its own Intercept decision speaks only for its Binder', () => {
    const asked = then(pipTurn, { type: 'Attack', attackerId: 'pip', targetId: 'ash' });
    expect(actor(asked, { type: 'Intercept', combatantId: 'ember', intercept: true })).toEqual({
      combatantId: 'ash',
      field: 'combatantId',
    });
  });
});

describe('RULINGS.md C12: what stays the player’s', () => {
  it('an attack’s target and attack, and every Action and Command with its own fields', () => {
    const emberCommands: RuleCommand[] = [
      ...ATTACKS.map(([, c]) => c),
      { type: 'Defend', combatantId: 'ember' },
      { type: 'Pass', combatantId: 'ember' },
      { type: 'Assist', combatantId: 'ember', allyId: 'pip' },
      { type: 'Guard', combatantId: 'ember', allyId: 'ash' },
      { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'far', using: 'flight' },
      { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'close', using: 'flight' },
      { type: 'Evolve', combatantId: 'ember', stage: 3 },
    ];
    for (const command of emberCommands)
      expect(actor(emberTurn, command)).toEqual({
        combatantId: 'ash',
        field: command.attackerId ? 'attackerId' : 'combatantId',
      });
    const ashCommands: RuleCommand[] = [
      { type: 'Direct', combatantId: 'ash' },
      { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
      { type: 'Strategize', combatantId: 'ash' },
      { type: 'CallBack', combatantId: 'ash', mode: 'devolve' },
      { type: 'UseItem', combatantId: 'ash', itemId: 'salve', targetId: 'pip', condition: 'dazed' },
      { type: 'BondSurge', combatantId: 'ash' },
    ];
    for (const command of ashCommands)
      expect(actor(emberTurn, command)).toEqual({ combatantId: 'ash', field: 'combatantId' });
  });

  it('the GM’s own commands stay the GM’s, whatever they carry', () => {
    for (const type of [
      'SetBand',
      'SetTag',
      'ClearTag',
      'ApplyCondition',
      'RemoveCondition',
      'SetTrigger',
      'RollOpposedTest',
      'RerollInitiative',
      'EndScene',
    ]) {
      expect(actor(emberTurn, { type, combatantId: 'ember', aId: 'ember', bonusDice: 1 })).toBeUndefined();
    }
  });
});
