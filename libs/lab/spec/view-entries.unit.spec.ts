import { FightCore, RuleEvent, RuleSystem } from '@app/rules';
import { narateer } from '@app/rules/narateer';
import { archsoul } from '@app/rules/archsoul';
import { archsoulLab, LabSystem, narateerLab, planLab } from '../src';

/**
 * Narateer's and Archsoul's views keep each unchanged combatant's entry (a WeakMap on the combatant
 * object), which is right only while no decide or evolve changes a combatant in place. Whole fights of
 * the Lab, every pair of strategies: after each event, the view of the state is the view of the same
 * state in new objects (whose entries are built afresh).
 */
describe.each([
  ['narateer', narateer, narateerLab],
  ['archsoul', archsoul, archsoulLab],
] as const)('%s: a view of a fight at every event is the view built afresh', (id, system, lab) => {
  it('in whole Lab fights of every pair of strategies', () => {
    const rules = system as unknown as RuleSystem<FightCore>;
    const evolve = rules.evolve;
    let compared = 0;
    const spy = jest.spyOn(rules, 'evolve').mockImplementation((state: FightCore, event: RuleEvent) => {
      const next = evolve(state, event);
      const kept = JSON.stringify(rules.view(next));
      if (kept !== JSON.stringify(rules.view(structuredClone(next))))
        throw new Error(`after ${event.type} (${compared} events in), the view kept a stale combatant entry`);
      compared++;
      return next;
    });
    try {
      const l = lab as LabSystem;
      const plan = planLab({ system: id, fights: 1, seed: 'entries' });
      const match = l.prepare(plan.sheets, plan.seed, plan.roundCap);
      for (const row of l.strategies) for (const col of l.strategies) l.play(match, row.id, col.id, 0);
    } finally {
      spy.mockRestore();
    }
    expect(compared).toBeGreaterThan(500);
  });
});
