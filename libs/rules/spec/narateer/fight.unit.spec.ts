import { RuleCommand, RuleEvent } from '../../src/core/types';
import { SeededDice } from '../../src/dice/seeded';
import { narateer, NarateerState, combatState } from '../../src/narateer';
import { fightStarted, TEST_SEED } from '../given';
import { joined, mira, orin } from './helpers';

function hasUndefined(v: unknown): boolean {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.some(hasUndefined);
  if (v && typeof v === 'object') return Object.values(v).some(hasUndefined);
  return false;
}

describe('a whole short fight', () => {
  it('plays several rounds to a collapse, folding every event, JSON-safe and replayable', () => {
    const dice = new SeededDice({ seed: TEST_SEED, fightId: 'f1', drawsUsed: 0 });
    const log: RuleEvent[] = [fightStarted('narateer', 'seeded')];
    let state: NarateerState = log.reduce(narateer.evolve, narateer.start('f1'));
    const run = (command: RuleCommand) => {
      for (const e of narateer.decide(state, command, dice)) {
        log.push(e);
        state = narateer.evolve(state, e);
      }
    };
    const hero = { ...mira, maxVitality: 12, vitals: { strength: 2, agility: 3, resilience: 4 } };
    const brute = { ...orin, maxVitality: 6, responsePolicy: { response: 'clash', boost: 1 } };
    for (const e of [joined({ id: 'mira', sheet: hero }), joined({ id: 'orin', sheet: brute })]) {
      log.push(e);
      state = narateer.evolve(state, e);
    }
    run({ type: 'RollInitiative' });
    run({ type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Bleeding' });
    while (state.round < 10 && state.joined.every((id) => combatState(state.combatants[id]) === 'Active')) {
      run({ type: 'StartRound' });
      while (state.roundOpen) {
        run({ type: 'StartActivation' });
        const me = state.activeId!;
        const foe = me === 'mira' ? 'orin' : 'mira';
        if (combatState(state.combatants[foe]) === 'Active' && state.combatants[me].ad.ready > 0) {
          const weaponId = state.combatants[me].sheet.weapons[0].id;
          const boost = Math.min(state.combatants[me].sheet.skills.melee, state.combatants[me].ad.ready - 1);
          // Mira's pre-answers come up front; Orin answers by his sheet's policy.
          run({
            type: 'DeclareExchange',
            attackerId: me,
            targetId: foe,
            kind: 'melee',
            weaponId,
            boost,
            response: foe === 'mira' ? { response: 'fullGuard' } : undefined,
          });
          if (state.pending?.kind === 'exchangeResponse')
            run({ type: 'RespondToExchange', combatantId: foe, response: 'none' });
        }
        if (state.activeId) run({ type: 'EndActivation' });
      }
    }
    const types = log.map((e) => e.type);
    expect(state.round).toBeGreaterThan(1);
    expect(types).toEqual(
      expect.arrayContaining([
        'InitiativeRolled',
        'ExchangeResolved',
        'WoundsApplied',
        'RoundEnded',
        'DiceRefreshed',
      ]),
    );
    // Seeded dice make the fight deterministic: Orin collapses, Mira stands.
    expect(combatState(state.combatants.orin)).toBe('Collapsed');
    expect(combatState(state.combatants.mira)).toBe('Active');
    expect(
      log.filter((e) => e.type === 'WoundsApplied' && (e.data as any).lingeringHarmId).length,
    ).toBeGreaterThan(0);
    // Events are plain JSON data, and folding the log from scratch gives the same state.
    expect(log.some((e) => hasUndefined(e.data))).toBe(false);
    const replayed = (JSON.parse(JSON.stringify(log)) as RuleEvent[]).reduce(
      narateer.evolve,
      narateer.start('f1'),
    );
    expect(narateer.view(replayed)).toEqual(narateer.view(state));
    expect(dice.drawsUsed).toBeGreaterThan(4);
  });
});
