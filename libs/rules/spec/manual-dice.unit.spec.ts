import { RuleEvent } from '../src/core/types';
import { findSystem } from '../src/registry';
import { decide, refusal, stateOf } from './as-sent';
import * as n from './narateer/helpers';
import * as s from './archsoul/helpers';

const narateer = findSystem('narateer')!;
const archsoul = findSystem('archsoul')!;

const types = (events: RuleEvent[]) => events.map((e) => e.type);

describe('RULINGS.md C6, docs/rulings.md C13: a face is for exactly one roll; faces for no roll are refused when sent', () => {
  // Mira (Boost 1: 2 AD) against Orin's Clash (1 AD): 6,6 against 1 wounds Orin into a Continuation Check (2 d6).
  const duel = () => n.duel();
  const declared = () => n.then(duel(), n.melee('mira', 'orin', 1));
  const clash = n.respond('orin', 'clash', 0);

  it('C13: a response with one face too many in dice and its Continuation Check missing is refused at once, naming dice[3]', () => {
    const e = refusal(narateer, declared(), { ...clash, dice: [6, 6, 1, 1] });
    expect(e).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[3]' });
    expect(e.message).toContain('rolls 3 face(s) in dice, got 4');
    expect(e.message).toContain('2 face(s) it still needs in followUpFaces');
  });

  it('C13: the same response with exactly its pools is held for the check, and the check completes it as if sent up front', () => {
    const held = decide(narateer, declared(), { ...clash, dice: [6, 6, 1] });
    expect(types(held)).toEqual(['DiceRequested']);
    expect(stateOf(narateer, [...declared(), ...held]).pending?.detail).toMatchObject({
      field: 'followUpFaces',
      count: 2,
    });
    const done = decide(narateer, [...declared(), ...held], { type: 'ProvideDice', followUpFaces: [4, 1] });
    expect(done).toEqual(decide(narateer, declared(), { ...clash, dice: [6, 6, 1], followUpFaces: [4, 1] }));
  });

  it('C13: a ProvideDice that still leaves the command short refuses the faces it gives for no roll, in its own lists', () => {
    const events = [...declared(), ...decide(narateer, declared(), { ...clash, dice: [6, 6, 1] })];
    expect(
      refusal(narateer, events, { type: 'ProvideDice', followUpFaces: [4], rerollFaces: [3] }),
    ).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'rerollFaces[0]' });
    expect(refusal(narateer, events, { type: 'ProvideDice', dice: [3] })).toMatchObject({
      code: 'DICE_MANUAL_FACES_EXTRA',
      field: 'dice[0]',
    });
    // Part of the check is still an answer: the rest is asked for again.
    expect(types(decide(narateer, events, { type: 'ProvideDice', followUpFaces: [4] }))).toEqual([
      'DiceRequested',
    ]);
  });

  it('C13: faces a later roll does read are held with the command: a redirected hit’s damage pool sent up front (Archsoul S15)', () => {
    const hero = (id: string, at: [number, number]) => ({
      id,
      at,
      facing: 'N',
      sheet: s.sheet({ weapons: [s.bow] }),
    });
    const foe = (id: string, at: [number, number]) => ({
      id,
      at,
      facing: 'S',
      side: 'enemies',
      sheet: s.sheet(),
    });
    const events = s.fight(
      [
        hero('a', [0, 0]),
        foe('v', [0, -3]),
        foe('w', [1, -3]),
        { ...hero('b', [-1, -3]), sheet: s.sheet() },
        foe('x', [3, -3]),
      ],
      { options: { arrowBreakage: false } },
    );
    const bow = {
      type: 'Attack',
      attackerId: 'a',
      targetId: 'v',
      weaponId: 'bow',
      dice: [1, 1, 1, 2, 4, 5, 1],
    };
    const held = decide(archsoul, events, bow);
    expect(types(held)).toEqual(['DiceRequested']);
    const done = decide(archsoul, [...events, ...held], { type: 'ProvideDice', followUpFaces: [2, 2] });
    expect(done).toEqual(decide(archsoul, events, { ...bow, followUpFaces: [2, 2] }));
  });
});
