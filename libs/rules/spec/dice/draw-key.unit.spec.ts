import { findSystem } from '../../src/registry';
import { RuleViolation } from '../../src/core/violation';
import { SeededDice, seedCommitment } from '../../src/dice/seeded';

/** C14: a drawKey takes the fight id's place in the draw derivation (C5). */
describe('C14: seeded dice: drawKey', () => {
  const faces = (opts: { fightId: string; drawKey?: string }, seed = 'same-seed') => {
    const dice = new SeededDice({ seed, clientSeed: 'c', drawsUsed: 0, ...opts });
    return [1, 2, 3, 4, 5].map((n) => dice.roll(n + 3, 6).faces);
  };

  it('the same seed and drawKey give the same faces in two fights', () => {
    expect(faces({ fightId: 'fight-1', drawKey: 'duel' })).toEqual(
      faces({ fightId: 'fight-2', drawKey: 'duel' }),
    );
  });

  it('without a drawKey, the same seed gives other faces in another fight', () => {
    expect(faces({ fightId: 'fight-1' })).not.toEqual(faces({ fightId: 'fight-2' }));
  });

  it('the default is the fight id: a drawKey equal to it changes nothing (old logs derive as before)', () => {
    expect(faces({ fightId: 'fight-1', drawKey: 'fight-1' })).toEqual(faces({ fightId: 'fight-1' }));
    expect(faces({ fightId: 'fight-1', drawKey: 'other' })).not.toEqual(faces({ fightId: 'fight-1' }));
  });

  describe('StartFight', () => {
    const system = findSystem('narateer')!;
    const start = (dice: Record<string, unknown>) =>
      system.decide(
        system.start('f'),
        { type: 'StartFight', dice: { commitment: seedCommitment('s'), ...dice } },
        new SeededDice({ seed: 's', fightId: 'f', drawsUsed: 0 }),
      );
    const refusal = (dice: Record<string, unknown>) => {
      try {
        start(dice);
      } catch (e) {
        return e instanceof RuleViolation ? { code: e.code, field: e.field } : e;
      }
      return 'accepted';
    };

    it('records the drawKey in FightStarted when given, and nothing when not', () => {
      expect(start({ mode: 'seeded', drawKey: 'duel' })[0].data).toMatchObject({
        dice: { mode: 'seeded', drawKey: 'duel' },
      });
      expect(start({ mode: 'seeded' })[0].data.dice).not.toHaveProperty('drawKey');
    });

    it('refuses a drawKey for fair and manual dice, and a bad one, naming dice.drawKey', () => {
      expect(refusal({ mode: 'manual', drawKey: 'duel' })).toEqual({
        code: 'DICE_DRAW_KEY_NOT_ALLOWED',
        field: 'dice.drawKey',
      });
      expect(refusal({ mode: 'fair', drawKey: 'duel' })).toEqual({
        code: 'DICE_DRAW_KEY_NOT_ALLOWED',
        field: 'dice.drawKey',
      });
      for (const bad of ['', 'x'.repeat(65), 5])
        expect(refusal({ mode: 'seeded', drawKey: bad })).toMatchObject({ field: 'dice.drawKey' });
      expect(refusal({ mode: 'seeded', drawKey: 'x'.repeat(64) })).toBe('accepted');
    });
  });
});
