import { RuleCommand, RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { decide, refusal, stateOf } from '../as-sent';
import { fightStarted } from '../given';
import * as n from '../narateer/helpers';
import * as a from '../arcana-beast/helpers';
import * as s from '../archsoul/helpers';

const narateer = findSystem('narateer')!;
const arcana = findSystem('arcana-beast')!;
const archsoul = findSystem('archsoul')!;

const types = (events: RuleEvent[]) => events.map((e) => e.type);
/** What a client is told of a refusal: its code, field and message. */
const told = (e: { code: string; field?: string; message: string }) => ({
  code: e.code,
  field: e.field,
  message: e.message,
});

describe('docs/rulings.md C18: a command is held only for an answer that can complete it', () => {
  describe('Narateer', () => {
    // Mira's attack (one die) is the response's first pool; Orin's Clash with Boost 1 (2 d6), a later pool in dice.
    const declared = () => n.then(n.duel(), n.melee('mira', 'orin', 0));
    const clash = n.respond('orin', 'clash', 1);

    it('C18: given a Clash sent with part of its counter-pool, when one face of it is out of range (7, 0), then it is refused at once as the whole response is: DICE_FACE_OUT_OF_RANGE, dice[1]', () => {
      for (const bad of [7, 0]) {
        const part = refusal(narateer, declared(), { ...clash, dice: [1, bad] });
        expect(part).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[1]' });
        expect(told(part)).toEqual(told(refusal(narateer, declared(), { ...clash, dice: [1, bad, 3] })));
      }
      // A fraction breaks the contract on either path.
      expect(told(refusal(narateer, declared(), { ...clash, dice: [1, 2.5] }))).toEqual(
        told(refusal(narateer, declared(), { ...clash, dice: [1, 2.5, 3] })),
      );
      // In range, the same part is held for the face it lacks.
      expect(types(decide(narateer, declared(), { ...clash, dice: [1, 6] }))).toEqual(['DiceRequested']);
    });

    it('C18: given a Continuation Check at the round’s end, when one face of its two is given and it is 7, then it is refused at once as the whole check is: DICE_FACE_OUT_OF_RANGE, followUpFaces[0]', () => {
      const solo = n.fight([{ id: 'a', sheet: n.sheet({ maxVitality: 4 }) }], 'a');
      let events = n.then(solo, {
        type: 'ApplyWounds',
        combatantId: 'a',
        wounds: 2,
        harm: 'Physical (Impact)',
      });
      events = n.then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
      const end = (followUpFaces: number[]): RuleCommand => ({ type: 'EndActivation', followUpFaces });
      const part = refusal(narateer, events, end([7]));
      expect(part).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'followUpFaces[0]' });
      expect(told(part)).toEqual(told(refusal(narateer, events, end([7, 1]))));
      expect(refusal(narateer, events, end([0]))).toMatchObject({
        code: 'DICE_FACE_OUT_OF_RANGE',
        field: 'followUpFaces[0]',
      });
      expect(types(decide(narateer, events, end([6])))).toEqual(['DiceRequested']);
    });

    /** Sera's gun (1 AD) at Veyr, whose Resilience 0 makes every Continuation Check of his a roll of no dice. */
    const shot = (effectiveRange: number) => {
      const gunner = n.sheet({
        skills: { melee: 1, ranged: 0, acrobatics: 2 },
        maxAD: 7,
        weapons: [
          {
            ...n.crossbow,
            id: 'gun',
            baseAttackCost: 1,
            needsLoading: false,
            effectiveRange,
            maximumRange: 4,
          },
        ],
      });
      const veyr = n.sheet({
        vitals: { strength: 4, agility: 1, resilience: 0 },
        skills: { melee: 2, ranged: 1, acrobatics: 0 },
        maxVitality: 10,
        maxAD: 7,
      });
      let events = n.fight(
        [
          { id: 'sera', sheet: gunner },
          { id: 'veyr', sheet: veyr },
        ],
        'sera',
      );
      events = n.at(n.at(events, 'sera', 2, 1), 'veyr', 1, -1);
      return n.then(events, n.ranged('sera', 'veyr', 'gun', 0));
    };
    const guard = n.respond('veyr', 'fullGuard');

    it('C18: given a Full Guard against a shot within effective range, when it is sent with a follow-up face, then it is refused at once (DICE_MANUAL_FACES_EXTRA, followUpFaces[0]): every completion is tried and none reads it', () => {
      // Veyr's Full Guard: 1 AD with Advantage (narateer.txt: Full Guard), so his die (6 faces) and its reroll (6 each):
      // 6 + 36 = 42 completions, within the 256 decisions. With Resilience 0 no Continuation Check rolls a die (N15).
      const events = shot(4);
      const e = refusal(narateer, events, { ...guard, dice: [4], followUpFaces: [1] });
      expect(e).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'followUpFaces[0]' });
      expect(e.message).toContain('rolls 0 face(s) in followUpFaces, got 1');
      // Without it the response is held, and its request names the responder's pool.
      const held = [...events, ...decide(narateer, events, { ...guard, dice: [4] })];
      expect(stateOf(narateer, held).pending).toMatchObject({
        kind: 'dice',
        detail: { commandType: 'RespondToExchange', field: 'dice', count: 1, sides: 6 },
      });
    });

    it('C18: given a Full Guard against a shot beyond effective range, when it is sent with a follow-up face, then it is refused at once (DICE_MANUAL_FACES_EXTRA, followUpFaces[0]) though its pool, the Disadvantage reroll and the Edge reroll are too many ways to try them all', () => {
      // Beyond effective range Sera's shot has Disadvantage (narateer.txt: Range): Veyr's die (6), Sera's reroll (36)
      // and Veyr's Advantage reroll (216) make 258 completions, more than the 256 decisions; none of those tried reads
      // the follow-up face (Resilience 0: no check rolls a die, N15).
      const events = shot(1);
      const e = refusal(narateer, events, { ...guard, dice: [4], followUpFaces: [1] });
      expect(e).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'followUpFaces[0]' });
      expect(e.message).toContain('rolls 0 face(s) in followUpFaces, got 1');
    });

    it('C18: given an exchange with Edge on both sides and a Full Guard given up front, when it is sent with dice: [3] and followUpFaces: [6], then it is held, and the answers complete it reading that face as the whole command does', () => {
      // Orin with Resilience 3 and Maximum Vitality 5. Mira's sword: 1 AD, no Boost; the GM's Advantage on both rolls.
      const orin = n.sheet({ vitals: { strength: 2, agility: 2, resilience: 3 }, maxVitality: 5 });
      const events = n.duel(n.mira, orin);
      const exchange = n.melee('mira', 'orin', 0, {
        edge: 'advantage',
        responderEdge: 'advantage',
        response: { response: 'fullGuard', boost: 0, allocation: ['AD', 'AD', 'AD'] },
      });
      // Mira 3 (1 dot), Advantage rerolls it: 6 (2 dots), kept. Orin's Full Guard 1 (0 dots), rerolled: 4 (1 dot),
      // kept (N1, N2). 2 > 1: a hit, Hit Margin 1. Strike Rating 2 + min(Agility 3, cap 3) = 5, Protection 1 (Soak):
      // Wound Margin 1 + 5 - 1 = 5, 3 Wounds. Vitality 5 - 3 = 2, below half of 5: a Continuation Check of 3 dice
      // (Resilience 3), 6, 3, 4: 2 + 1 + 1 = 4 dots, passed.
      const whole = { dice: [3, 1], rerollFaces: [6, 4], followUpFaces: [6, 3, 4] };
      const upFront = decide(narateer, events, { ...exchange, ...whole });
      expect(types(upFront)).toContain('ContinuationChecked');
      const answers: [RuleCommand, string, number][] = [
        [{ ...exchange, dice: [3], followUpFaces: [6] }, 'dice', 1],
        [{ type: 'ProvideDice', dice: [1] }, 'rerollFaces', 1],
        [{ type: 'ProvideDice', rerollFaces: [6] }, 'rerollFaces', 1],
        [{ type: 'ProvideDice', rerollFaces: [4] }, 'followUpFaces', 2],
      ];
      let held = events;
      for (const [command, field, count] of answers) {
        held = [...held, ...decide(narateer, held, command)];
        expect(stateOf(narateer, held).pending).toMatchObject({
          kind: 'dice',
          detail: { field, count, sides: 6 },
        });
      }
      expect(decide(narateer, held, { type: 'ProvideDice', followUpFaces: [3, 4] })).toEqual(upFront);
    });
    it('C18: given Mira (Maximum Vitality 4) answered by a Clash of three dice, when it is sent with her faces and a follow-up face but none of the Clash, then it is held: a total of 4 dots, which no face repeated three times shows, wounds her into a Continuation Check', () => {
      const mira = n.sheet({
        vitals: { strength: 2, agility: 3, resilience: 2 },
        skills: { melee: 3, ranged: 0, acrobatics: 1 },
        maxVitality: 4,
      });
      // Orin's 30 Vitality: Mira's hit never takes him below half, so only his win wounds into a check.
      const events = n.then(
        n.duel(mira, { ...n.orin, skills: { melee: 2 }, maxVitality: 30 }),
        n.melee('mira', 'orin', 1),
      );
      const clash = n.respond('orin', 'clash', 2);
      // Mira 6, 5: 2 + 1 = 3 dots. Orin's Clash, 1 AD and Boost 2: 6, 6, 1 = 4 dots, a counter hit by 1. Mace 2 +
      // min(Strength 3, cap 3) = Strike Rating 5, Mira's soak 1: Wound Margin 1 + 5 - 1 = 5, 3 Wounds; Vitality 4 - 3 = 1,
      // below half: a check of 2 dice (Resilience 2), 6, 5. Each face repeated: 1, 1, 1 or 2, 2, 2 is 0 dots (Mira wins,
      // Orin stays above half), 3, 3, 3 to 5, 5, 5 a tie, 6, 6, 6 a margin of 3 that takes her to 0 (no check): no
      // completion of those reads the follow-up face; of the 56 multisets of three faces, 6, 6, 1 does.
      const whole = decide(narateer, events, { ...clash, dice: [6, 5, 6, 6, 1], followUpFaces: [6, 5] });
      expect(types(whole)).toContain('ContinuationChecked');
      const held = [...events, ...decide(narateer, events, { ...clash, dice: [6, 5], followUpFaces: [6] })];
      expect(stateOf(narateer, held).pending).toMatchObject({
        kind: 'dice',
        detail: { commandType: 'RespondToExchange', field: 'dice', count: 3, sides: 6 },
      });
      const rest = [...held, ...decide(narateer, held, { type: 'ProvideDice', dice: [6, 6, 1] })];
      expect(decide(narateer, rest, { type: 'ProvideDice', followUpFaces: [5] })).toEqual(whole);
    });
  });

  describe('Arcana Beast', () => {
    const tied = () => {
      const setup = [fightStarted('arcana-beast'), ...a.party.map(a.joined)];
      const options = { ...(setup[0].data as object), options: { initiativeTies: 'reroll' } };
      return [{ ...setup[0], data: options }, ...setup.slice(1)];
    };
    const roll = (dice: number[]): RuleCommand => ({ type: 'RollInitiative', dice });
    const POOL = [4, 1, 6, 1, 1, 1, 1, 4, 4];

    it('C18: given tied initiative, when it is sent with one face more than its pool, then it is refused at once (DICE_MANUAL_FACES_EXTRA, dice[9]): the rerolls go in rerollFaces, however often the beasts tie again', () => {
      const e = refusal(arcana, tied(), roll([...POOL, 4]));
      expect(e).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[9]' });
      expect(e.message).toContain('rolls 9 face(s) in dice, got 10');
      expect(stateOf(arcana, [...tied(), ...decide(arcana, tied(), roll(POOL))]).pending).toMatchObject({
        kind: 'dice',
        detail: { commandType: 'RollInitiative', field: 'rerollFaces', count: 2, sides: 8 },
      });
    });
  });

  describe('Archsoul', () => {
    // a's sword against v (Defense 1): 4 attack dice at 4 (4, 5 hit), then a damage pool of 5 d6 in dice.
    const events = () => s.fight([s.hero('a', [0, 0]), s.foe('v', [0, -1], 'S', { defense: 1 })]);
    const sword = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword' };
    const HIT = [4, 5, 1, 2];

    it('C18: given an Attack that hits, when it is sent with part of its damage pool and one face of it is out of range, then it is refused at once as the whole Attack is: DICE_FACE_OUT_OF_RANGE, dice[5]', () => {
      const part = refusal(archsoul, events(), { ...sword, dice: [...HIT, 6, 7] });
      expect(part).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[5]' });
      expect(told(part)).toEqual(
        told(refusal(archsoul, events(), { ...sword, dice: [...HIT, 6, 7, 4, 1, 2] })),
      );
      expect(types(decide(archsoul, events(), { ...sword, dice: [...HIT, 6] }))).toEqual(['DiceRequested']);
    });

    it('C18: given an Attack whose damage pool is longer than a list of faces holds (200), when it is sent, then it is refused at once, as the whole Attack is: INVALID_FIELD, dice', () => {
      // A 300-dice sword: a damage pool of 2 + 1 + 300 after the 4 attack dice, 307 faces in dice.
      const heavy = () =>
        s.fight([
          s.hero('a', [0, 0], 'N', { weapons: [{ ...s.sword, damage: 300 }] }),
          s.foe('v', [0, -1], 'S', { defense: 1 }),
        ]);
      const e = refusal(archsoul, heavy(), { ...sword, dice: HIT });
      expect(e).toMatchObject({ code: 'INVALID_FIELD', field: 'dice' });
      expect(e.message).toMatch(/^dice must have at most 200 items: .*Attack rolls 307 face\(s\) in dice/);
      const whole = refusal(archsoul, heavy(), { ...sword, dice: [...HIT, ...Array<number>(303).fill(1)] });
      expect(whole).toMatchObject({
        code: e.code,
        field: e.field,
        message: 'dice must have at most 200 items',
      });
    });

    it('C18: given a held Attack, when a ProvideDice gives part of the damage pool with one face out of range, then it is refused naming its own list, and the request stands as it was', () => {
      const held = [...events(), ...decide(archsoul, events(), { ...sword, dice: HIT })];
      expect(stateOf(archsoul, held).pending).toMatchObject({
        detail: { field: 'dice', count: 5, sides: 6 },
      });
      expect(refusal(archsoul, held, { type: 'ProvideDice', dice: [6, 7] })).toMatchObject({
        code: 'DICE_FACE_OUT_OF_RANGE',
        field: 'dice[1]',
        message: expect.not.stringContaining('the held'),
      });
      expect(decide(archsoul, held, { type: 'ProvideDice', dice: [6, 4, 4, 1, 2] })).toEqual(
        decide(archsoul, events(), { ...sword, dice: [...HIT, 6, 4, 4, 1, 2] }),
      );
    });
  });
});
