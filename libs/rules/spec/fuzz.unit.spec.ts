import fc from 'fast-check';
import { FightCore, RuleEvent, RuleSystem } from '../src/core/types';
import { RuleViolation } from '../src/core/violation';
import { DiceSource } from '../src/dice/roll';
import { ManualDice } from '../src/dice/manual';
import { SeededDice } from '../src/dice/seeded';
import { findSystem } from '../src/registry';
import * as ab from './arcana-beast/helpers';
import * as as from './archsoul/helpers';
import * as nt from './narateer/helpers';

/**
 * Whatever a client sends, a decider answers with events or a RuleViolation (a 4xx with a code):
 * never another exception (a 500), never an event its own evolve or view cannot fold. Random
 * walks from a running fight, with commands of every type whose fields mix the fight's own ids
 * and plausible values with hostile ones. FUZZ_RUNS and FUZZ_SEED explore further than the default run.
 */
interface Walk {
  system: RuleSystem<FightCore>;
  start: RuleEvent[];
  ids: string[];
  items: string[];
}

const walks: Record<string, () => Walk> = {
  narateer: () => ({
    system: findSystem('narateer')!,
    start: nt.fight(
      [
        { id: 'mira', sheet: nt.sheet({ weapons: [nt.sword, nt.spear] }), side: 'a' },
        { id: 'orin', sheet: nt.orin, side: 'b' },
        { id: 'sera', sheet: nt.sera, side: 'a' },
        { id: 'veyr', sheet: nt.veyr, side: 'b' },
      ],
      'mira',
    ),
    ids: ['mira', 'orin', 'sera', 'veyr'],
    items: ['sword', 'spear', 'mace', 'bow', 'crossbow'],
  }),
  'arcana-beast': () => ({
    system: findSystem('arcana-beast')!,
    start: ab.close(ab.fight(ab.party, 'ember'), 'ember', 'wolf'),
    ids: ['ember', 'ash', 'pip', 'bo', 'wolf', 'wolf2'],
    items: ['bite', 'blaze', 'potion', 'tackle'],
  }),
  archsoul: () => ({
    system: findSystem('archsoul')!,
    start: as.fight([
      { id: 'a', at: [0, 0], facing: 'N', sheet: as.sheet({ weapons: [as.sword, as.bow, as.javelin] }) },
      { id: 'b', at: [1, 0], facing: 'N', sheet: as.sheet({ weapons: [as.sword, as.pistol] }) },
      { id: 'v', at: [0, -1], facing: 'S', side: 'enemies', sheet: as.sheet({ weapons: [as.sword] }) },
      { id: 'w', at: [2, -3], facing: 'S', side: 'enemies', sheet: as.sheet({ weapons: [as.bow] }) },
    ]),
    ids: ['a', 'b', 'v', 'w'],
    items: ['sword', 'bow', 'javelin', 'pistol'],
  }),
};

/** Field names as the command descriptions list them ("combatantId, path, jump?, …"), plus the dice fields. */
function fieldsOf(system: RuleSystem<FightCore>): string[] {
  const names = new Set([
    'dice',
    'rerollFaces',
    'followUpFaces',
    'combatantId',
    'targetId',
    'attackerId',
    'weaponId',
    '__proto__',
    'constructor',
  ]);
  for (const text of Object.values(system.commands))
    for (const m of text.matchAll(/\b([a-z][A-Za-z]{1,30})\??(?=[,.;:)\s]|$)/g)) names.add(m[1]);
  return [...names];
}

function arbitraries(w: Walk) {
  const id = fc.constantFrom(...w.ids);
  const space = fc.record({ x: fc.integer({ min: -3, max: 6 }), y: fc.integer({ min: -5, max: 4 }) });
  const value = fc.oneof(
    { weight: 4, arbitrary: id },
    { weight: 2, arbitrary: fc.constantFrom(...w.items) },
    { weight: 3, arbitrary: fc.integer({ min: -2, max: 8 }) },
    { weight: 2, arbitrary: fc.boolean() },
    { weight: 2, arbitrary: space },
    { weight: 2, arbitrary: fc.array(space, { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.array(id, { maxLength: 3 }) },
    { weight: 2, arbitrary: fc.array(fc.integer({ min: 0, max: 13 }), { maxLength: 8 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'melee',
        'ranged',
        'clash',
        'fullGuard',
        'none',
        'close',
        'near',
        'far',
        'N',
        'S',
        'NE',
        'prone',
        'quick',
        'reckless',
        'strength',
        'agility',
        'AD',
        'MD',
      ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(null, '', -1, 1e9, 0.5, Number.NaN, [], {}, 'toString', '__proto__'),
    },
  );
  const types = fc.constantFrom(
    ...Object.keys(w.system.commands),
    'Nope',
    'toString',
    '__proto__',
    'constructor',
  );
  const command = fc
    .tuple(types, fc.dictionary(fc.constantFrom(...fieldsOf(w.system)), value, { maxKeys: 6 }))
    .map(([type, p]) => ({ ...p, type }));
  const dice = fc.oneof(
    { weight: 3, arbitrary: fc.constant<'seeded'>('seeded') },
    {
      weight: 1,
      arbitrary: fc.record({
        dice: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
        followUpFaces: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
      }),
    },
  );
  return fc.array(fc.tuple(command, dice), { minLength: 1, maxLength: 25 });
}

describe.each(Object.keys(walks))('%s: random command walks never crash the decider', (name) => {
  it('every command gives events its own evolve and view fold, or a RuleViolation with a code, and changes no state in place', () => {
    const w = walks[name]();
    const initial = w.start.reduce(w.system.evolve, w.system.start('fuzz'));
    let accepted = 0;
    fc.assert(
      fc.property(arbitraries(w), (steps) => {
        let state = initial;
        let draws = 0;
        for (const [command, faces] of steps) {
          const dice: DiceSource =
            faces === 'seeded'
              ? new SeededDice({ seed: 'fuzz', fightId: 'fuzz', drawsUsed: draws })
              : new ManualDice(faces);
          let events: RuleEvent[];
          try {
            events = w.system.decide(state, structuredClone(command), dice);
          } catch (e) {
            if (e instanceof RuleViolation) {
              expect(e.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
              continue;
            }
            throw new Error(
              `${command.type} ${JSON.stringify(command)} threw ${String((e as Error)?.stack ?? e)}`,
              { cause: e },
            );
          }
          if (dice instanceof SeededDice) draws = dice.drawsUsed;
          state = events.reduce(w.system.evolve, state);
          // A view keeps each unchanged combatant's entry (view.ts): what it answers is what a view of
          // the same state in new objects answers, so no decide or evolve changed a combatant in place.
          expect(JSON.stringify(w.system.view(state))).toBe(
            JSON.stringify(w.system.view(structuredClone(state))),
          );
          accepted += events.length > 0 ? 1 : 0;
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 20261130) },
    );
    // The walk reaches past validation: some random commands are legal and change the fight.
    expect(accepted).toBeGreaterThan(20);
  });
});
