import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { findSystem } from '../../src/registry';
import { bow, fight, sheet } from './helpers';

/** The system as the fight service plays it: dice requests and the C6 checks around it (C13). */
const archsoul = findSystem('archsoul')!;
const stateOf = (events: RuleEvent[]) => events.reduce(archsoul.evolve, archsoul.start('f1'));

function decide(events: RuleEvent[], command: RuleCommand): RuleEvent[] {
  const dice = new ManualDice(command as ManualFaces);
  const out = archsoul.decide(stateOf(events), command, dice);
  dice.assertAllUsed();
  return out;
}

function refusal(events: RuleEvent[], command: RuleCommand): RuleViolation {
  try {
    decide(events, command);
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error(`expected ${command.type} to be refused`);
}

const hero = (id: string, at: [number, number], extra: Record<string, unknown> = {}) => ({
  id,
  at,
  facing: 'N',
  sheet: sheet(extra),
});
const foe = (id: string, at: [number, number]) => ({ id, at, facing: 'S', side: 'enemies', sheet: sheet() });
const types = (events: RuleEvent[]) => events.map((e) => e.type);

describe('docs/rulings-archsoul.md S18, docs/rulings.md C13: a held action’s dice belong on ResumeAction', () => {
  const inReach = () =>
    fight([hero('a', [0, 0], { weapons: [bow] }), foe('v', [0, -1])], { options: { arrowBreakage: false } });
  const shot = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' };
  const move = {
    type: 'Move',
    combatantId: 'a',
    path: [
      { x: -1, y: 0 },
      { x: -2, y: 0 },
    ],
  };

  it('S18: an Attack a reactive attack holds, sent with its dice, is refused as DICE_ACTION_HELD naming dice and ResumeAction', () => {
    const e = refusal(inReach(), { ...shot, dice: [1, 2, 3, 2] });
    expect(e).toMatchObject({ code: 'DICE_ACTION_HELD', field: 'dice' });
    expect(e.message).toMatch(/Attack is held before it rolls .*S18.*belong on the ResumeAction from a/);
  });

  it('S18: a Move that provokes, sent with dice, is refused the same way; nothing of it is decided', () => {
    const e = refusal(fight([hero('a', [0, 0]), foe('v', [0, -1])]), {
      ...move,
      dice: [1, 2, 3, 4, 5, 6, 1],
    });
    expect(e).toMatchObject({ code: 'DICE_ACTION_HELD', field: 'dice' });
    expect(e.message).toContain('Move is held');
  });

  it('S18: sent without them, the action is held; its faces then go with ResumeAction, which rolls them', () => {
    let events = [...inReach(), ...decide(inReach(), shot)];
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    events = [...events, ...decide(events, { type: 'DeclineReactiveAttack', combatantId: 'v' })];
    expect(stateOf(events).pending).toMatchObject({ kind: 'resumeAction', awaiting: 'a' });
    expect(types(decide(events, { type: 'ResumeAction', combatantId: 'a', dice: [1, 2, 3, 2] }))).toEqual([
      'ActionResumed',
      'AmmunitionSpent',
      'ExchangeResolved',
      'ProjectileLanded',
    ]);
    // Too many on the resume is an ordinary extra face: the resume is the roll.
    expect(refusal(events, { type: 'ResumeAction', combatantId: 'a', dice: [1, 2, 3, 2, 5] })).toMatchObject({
      code: 'DICE_MANUAL_FACES_EXTRA',
      field: 'dice[4]',
    });
  });

  it('C6: a reactor’s extra faces, while an action is already held, stay DICE_MANUAL_FACES_EXTRA', () => {
    const events = [...inReach(), ...decide(inReach(), shot)];
    expect(
      refusal(events, { type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword', dice: [6, 1, 1, 1, 1] }),
    ).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[4]' });
  });
});
