import { RuleCommand, RuleEvent } from '../../src/core/types';
import { close, fight, party, refused, then } from './helpers';

/** Ember's shared turn (Ash commands), Ember Close to the wolf, everyone else Near. */
const start = close(fight(party, 'ember'), 'ember', 'wolf');
const defended = then(start, { type: 'Defend', combatantId: 'ember' });
const directed = then(start, { type: 'Direct', combatantId: 'ash' });
const moved = then(start, { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'close' });
const cornered = then(start, { type: 'SetTag', combatantId: 'ember', tag: 'cornered' });

describe('Every illegal intent is refused with a code that names the rule, and the field', () => {
  it.each<[string, RuleEvent[], RuleCommand, string, string]>([
    [
      'an Action out of turn',
      start,
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      'ARCANA_NOT_YOUR_TURN',
      'attackerId',
    ],
    [
      'an Action by a Binder',
      start,
      { type: 'Attack', attackerId: 'ash', targetId: 'wolf' },
      'ARCANA_NOT_A_BEAST',
      'attackerId',
    ],
    [
      'an attack on yourself',
      start,
      { type: 'Attack', attackerId: 'ember', targetId: 'ember' },
      'ARCANA_INVALID_TARGET',
      'targetId',
    ],
    [
      'a melee attack at Near',
      start,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf2' },
      'ARCANA_OUT_OF_RANGE',
      'targetId',
    ],
    [
      'an attack the sheet lacks',
      start,
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'inferno' },
      'ARCANA_UNKNOWN_ATTACK',
      'attackId',
    ],
    [
      'a Special Attack the sheet lacks',
      start,
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf', specialAttackId: 'claw' },
      'ARCANA_UNKNOWN_ATTACK',
      'specialAttackId',
    ],
    [
      'a Zero Power without its trigger',
      start,
      { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' },
      'ARCANA_TRIGGER_NOT_ACTIVE',
      'type',
    ],
    ['a second Action', defended, { type: 'Pass', combatantId: 'ember' }, 'ARCANA_ACTION_USED', 'type'],
    [
      'a Command after the Action',
      defended,
      { type: 'Direct', combatantId: 'ash' },
      'ARCANA_COMMAND_AFTER_ACTION',
      'type',
    ],
    ['a second Command', directed, { type: 'BondSurge', combatantId: 'ash' }, 'ARCANA_COMMAND_USED', 'type'],
    [
      'a Command by a beast',
      start,
      { type: 'Direct', combatantId: 'ember' },
      'ARCANA_NOT_A_BINDER',
      'combatantId',
    ],
    [
      'a Command by another Binder',
      start,
      { type: 'Direct', combatantId: 'bo' },
      'ARCANA_NOT_YOUR_TURN',
      'combatantId',
    ],
    [
      'Assist for an enemy',
      start,
      { type: 'Assist', combatantId: 'ember', allyId: 'wolf' },
      'ARCANA_NOT_AN_ALLY',
      'allyId',
    ],
    [
      'Assist for an ally at Near',
      start,
      { type: 'Assist', combatantId: 'ember', allyId: 'pip' },
      'ARCANA_NOT_CLOSE',
      'allyId',
    ],
    [
      'Guard on yourself',
      start,
      { type: 'Guard', combatantId: 'ember', allyId: 'ember' },
      'ARCANA_NOT_AN_ALLY',
      'allyId',
    ],
    [
      'a free move of two bands',
      start,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'far' },
      'ARCANA_REPOSITION_NEEDED',
      'band',
    ],
    [
      'a move to the band you are in',
      start,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close' },
      'ARCANA_NO_MOVE',
      'band',
    ],
    [
      'a movement the sheet lacks',
      start,
      { type: 'Move', combatantId: 'ember', towardId: 'wolf2', band: 'close', using: 'teleport' },
      'ARCANA_NO_SUCH_MOVEMENT',
      'using',
    ],
    [
      'a move away from your own Binder',
      start,
      { type: 'Move', combatantId: 'ember', towardId: 'ash', band: 'near' },
      'ARCANA_SAME_POSITION',
      'towardId',
    ],
    [
      'a second free move',
      moved,
      { type: 'Move', combatantId: 'ember', towardId: 'pip', band: 'close' },
      'ARCANA_FREE_MOVE_USED',
      'type',
    ],
    [
      'a Reposition while Cornered',
      cornered,
      { type: 'Reposition', combatantId: 'ember', towardId: 'wolf', band: 'near' },
      'ARCANA_CORNERED',
      'type',
    ],
    [
      'Evolve to a locked Stage',
      start,
      { type: 'Evolve', combatantId: 'ember', stage: 4 },
      'ARCANA_STAGE_LOCKED',
      'stage',
    ],
    [
      'Evolve to a lower Stage',
      start,
      { type: 'Evolve', combatantId: 'ember', stage: 1 },
      'ARCANA_NOT_HIGHER_STAGE',
      'stage',
    ],
    [
      'Evolve to the highest Stage without its trigger',
      start,
      { type: 'Evolve', combatantId: 'ember' },
      'ARCANA_TRIGGER_NOT_ACTIVE',
      'stage',
    ],
    [
      'Encourage removing a condition the beast lacks',
      start,
      { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'dazed' },
      'ARCANA_NO_SUCH_CONDITION',
      'condition',
    ],
    [
      'Use Item the Binder does not carry',
      start,
      { type: 'UseItem', combatantId: 'ash', itemId: 'rope' },
      'ARCANA_UNKNOWN_ITEM',
      'itemId',
    ],
    [
      'Intercept with no attack waiting',
      start,
      { type: 'Intercept', combatantId: 'ember', intercept: true },
      'ARCANA_NO_ATTACK_TO_INTERCEPT',
      'type',
    ],
    [
      'RerollInitiative without a tie',
      start,
      { type: 'RerollInitiative' },
      'ARCANA_NO_INITIATIVE_TIE',
      'type',
    ],
    [
      'SetBand between a Binder and its beast',
      start,
      { type: 'SetBand', aId: 'ash', bId: 'ember', band: 'near' },
      'ARCANA_SAME_POSITION',
      'bId',
    ],
    [
      'a trigger on a Binder',
      start,
      { type: 'SetTrigger', combatantId: 'ash', stage: 1 },
      'ARCANA_NOT_A_BEAST',
      'combatantId',
    ],
    [
      'a Zero Power trigger for a beast without one',
      start,
      { type: 'SetTrigger', combatantId: 'pip', kind: 'zeroPower' },
      'ARCANA_NO_ZERO_POWER',
      'kind',
    ],
    [
      'a trigger for a locked Stage',
      start,
      { type: 'SetTrigger', combatantId: 'pip', stage: 3 },
      'ARCANA_STAGE_LOCKED',
      'stage',
    ],
    [
      'A28: a tag against yourself (a tag names an opponent)',
      start,
      { type: 'SetTag', combatantId: 'ember', tag: 'highGround', againstId: 'ember' },
      'ARCANA_INVALID_TARGET',
      'againstId',
    ],
    [
      'A28: a tag against your own Binder, who shares your place (A17)',
      start,
      { type: 'SetTag', combatantId: 'ember', tag: 'cornered', againstId: 'ash' },
      'ARCANA_INVALID_TARGET',
      'againstId',
    ],
    [
      'an opposed test against yourself',
      start,
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'agility', bId: 'ember' },
      'ARCANA_INVALID_TARGET',
      'bId',
    ],
  ])('%s', (_what, events, command, code, field) => {
    const v = refused(events, command);
    expect(v).toMatchObject({ code, field });
    expect(v.message).toMatch(/^(arcana-beast\.txt:|RULINGS\.md [AC]\d+|ruling [AC]\d+)/);
  });

  it.each<[string, RuleCommand, string]>([
    [
      'intercept that is not true or false, on any target',
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', intercept: 'yes' },
      'intercept',
    ],
    ['an unknown Encourage effect', { type: 'Encourage', combatantId: 'ash', effect: 'cheer' }, 'effect'],
    ['an unknown Call Back mode', { type: 'CallBack', combatantId: 'ash', mode: 'dismiss' }, 'mode'],
    ['a Stage that is no integer', { type: 'Evolve', combatantId: 'ember', stage: 'max' }, 'stage'],
    ['surprised that is not a list', { type: 'RollInitiative', surprised: 'wolf' }, 'surprised'],
  ])('a bad payload: %s, names the field', (_what, command, field) => {
    expect(refused(start, command)).toMatchObject({ code: 'INVALID_FIELD', field });
  });
});
