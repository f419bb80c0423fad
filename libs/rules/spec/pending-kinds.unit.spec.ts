import { jsonSchemaOf } from '../src/core/contract';
import { eventSchemasOf } from '../src/core/lifecycle-contract';
import { FightCore, RuleEvent, RuleSystem } from '../src/core/types';
import { findSystem } from '../src/registry';
import { ARCHSOUL_VIEW } from '../src/archsoul';
import { ANSWERS as ARCANA_BEAST_ANSWERS } from '../src/arcana-beast/decide';
import { fightStarted } from './given';
import { FIGHT_ID, play, viewsParser } from './view-contract';
import { fight, foe, hero } from './archsoul/helpers';

/**
 * C4: the pending decision a view shows (and DiceRequested, PendingCancelled and DiceRequestCancelled
 * record) names its kind and the command that answers it, and each system's contract declares the closed set of
 * them: the core's (a dice request, C13; an initiative tie, C3) and the system's own. The kinds below are read from
 * the code paths that set `pending` (core/dice-requests.ts, core/lifecycle.ts, each system's evolve.ts), each with
 * its `answer` first and the other commands that answer it after (`detail.alsoAccepts`, the systems' ANSWERS).
 * The view-contract specs play fights that reach every kind but Archsoul's initiative tie (reached below), and the
 * fuzz specs parse every view they walk through against the declaration.
 */
const KINDS: Record<string, Record<string, string[]>> = {
  narateer: {
    dice: ['ProvideDice'],
    initiativeTie: ['SetInitiative'],
    exchangeResponse: ['RespondToExchange'],
    woundAllocation: ['AllocateWounds'],
    opportunityAttack: ['TakeOpportunityAttack', 'DeclineOpportunity'],
  },
  'arcana-beast': {
    dice: ['ProvideDice'],
    initiativeTie: ['SetInitiative', 'RerollInitiative'],
    intercept: ['Intercept'],
  },
  archsoul: {
    dice: ['ProvideDice'],
    initiativeTie: ['SetInitiative'],
    reactiveAttack: ['ReactiveAttack', 'DeclineReactiveAttack'],
    resumeAction: ['ResumeAction'],
  },
};

const systemOf = (id: string) => findSystem(id)!;
const sorted = (values: unknown) => [...(values as string[])].sort();
/** The kinds only other systems' fights await. */
const foreignKinds = (id: string) =>
  [
    ...new Set(
      Object.entries(KINDS)
        .filter(([other]) => other !== id)
        .flatMap(([, kinds]) => Object.keys(kinds)),
    ),
  ].filter((kind) => !Object.hasOwn(KINDS[id], kind));

type Json = {
  enum?: string[];
  description?: string;
  properties?: Record<string, Json>;
  anyOf?: Json[];
};
/** The object a published (JSON Schema) property declares, its `null` alternative aside. */
const objectOf = (schema: Json): Json => schema.anyOf?.find((s) => s.properties) ?? schema;

/** A view as the service sends it (a started fight, `seq` and `headHash` added), with `pending` replaced. */
function viewWith(system: RuleSystem<FightCore>, pending: unknown): Record<string, unknown> {
  const state = system.evolve(system.start(FIGHT_ID), fightStarted(system.id));
  return { ...system.view(state), seq: 1, headHash: '1'.padStart(64, '0'), pending };
}

const decision = (kind: string, answer: string) => ({ kind, awaiting: 'gm', answer, detail: { x: 1 } });

describe.each(Object.keys(KINDS))('%s: the pending decisions its contract declares (RULINGS.md C4)', (id) => {
  const system = systemOf(id);
  const kinds = KINDS[id];
  const answers = [...new Set(Object.values(kinds).map((commands) => commands[0]))];
  const view = system.contract.view!;
  const events = eventSchemasOf(system.contract);

  it('publishes the kinds its fights can await, each described with who answers it with which command', () => {
    const published = objectOf((jsonSchemaOf(view) as Json).properties!.pending);
    const kind = published.properties!.kind;
    expect(sorted(kind.enum)).toEqual(sorted(Object.keys(kinds)));
    expect(sorted(published.properties!.answer.enum)).toEqual(sorted(answers));
    for (const [name, commands] of Object.entries(kinds)) {
      const line = kind.description!.split('\n').find((l) => l.startsWith(`- ${name}: `));
      expect([name, line !== undefined]).toEqual([name, true]);
      for (const command of commands) expect([name, line!.includes(command)]).toEqual([name, true]);
    }
  });

  it('every command that answers a kind is one of the system’s commands', () => {
    for (const command of Object.values(kinds).flat())
      expect([command, Object.hasOwn(system.contract.commands, command)]).toEqual([command, true]);
  });

  it('a view refuses a pending decision of a made-up kind, of another system’s kind, or with an answer no kind names', () => {
    for (const [kind, [answer]] of Object.entries(kinds))
      expect([kind, view.safeParse(viewWith(system, decision(kind, answer))).success]).toEqual([kind, true]);
    const refused = [
      decision('madeUp', 'ProvideDice'),
      ...foreignKinds(id).map((kind) => decision(kind, 'ProvideDice')),
      decision('dice', 'Nope'),
      decision('dice', 'AddNote'),
      decision('dice', 'CancelPending'),
    ];
    for (const pending of refused)
      expect([pending, view.safeParse(viewWith(system, pending)).success]).toEqual([pending, false]);
  });

  it('its lifecycle events name the same kinds: PendingCancelled, DiceRequested.previous, DiceRequestCancelled.restored', () => {
    const shapes = {
      PendingCancelled: (kind: string) => ({ kind }),
      DiceRequested: (kind: string) => ({
        command: { type: 'Attack' },
        awaiting: 'gm',
        need: { field: 'dice', count: 1, sides: 6, reason: 'a pool' },
        previous: decision(kind, kinds[kind]?.[0] ?? 'ProvideDice'),
      }),
      DiceRequestCancelled: (kind: string) => ({ commandType: 'Attack', restored: kind }),
    };
    for (const [type, data] of Object.entries(shapes)) {
      for (const kind of Object.keys(kinds))
        expect([type, kind, events[type].safeParse(data(kind)).success]).toEqual([type, kind, true]);
      for (const kind of ['madeUp', ...foreignKinds(id)])
        expect([type, kind, events[type].safeParse(data(kind)).success]).toEqual([type, kind, false]);
    }
    const published = (type: string) => jsonSchemaOf(events[type]) as Json;
    expect(sorted(published('PendingCancelled').properties!.kind.enum)).toEqual(sorted(Object.keys(kinds)));
    expect(sorted(published('DiceRequestCancelled').properties!.restored.enum)).toEqual(
      sorted(Object.keys(kinds)),
    );
    const previous = objectOf(published('DiceRequested').properties!.previous);
    expect(sorted(previous.properties!.kind.enum)).toEqual(sorted(Object.keys(kinds)));
    expect(sorted(previous.properties!.answer.enum)).toEqual(sorted(answers));
  });
});

describe('the commands each system takes for a pending decision are the ones its contract describes', () => {
  it('Arcana Beast: ANSWERS, what decide accepts (A5: an initiative tie is answered by the order or a reroll)', () => {
    for (const [kind, commands] of Object.entries(ARCANA_BEAST_ANSWERS))
      expect([kind, [...commands].sort()]).toEqual([kind, sorted(KINDS['arcana-beast'][kind])]);
  });
});

describe('Archsoul: the core’s initiative tie is one of its kinds too', () => {
  it('C10: a hero and the enemies tied on total, Awareness and Precision whose d6 roll-off ties again go to the GM (pending initiativeTie), and the view declares it', () => {
    const system = systemOf('archsoul');
    const start = fight([hero('a', [0, 0]), foe('v', [0, -3])], { round: false }).filter(
      (e) => e.type !== 'InitiativeSet',
    );
    // The same sheet, so the same pool: a rolls 4, 1, 1 and the enemies’ one roll 4, 1, 1, one success each at
    // difficulty 4; Awareness and Precision are equal; the roll-off is 3 against 3: still tied.
    const events: RuleEvent[] = play(system, start, [
      [{ type: 'RollInitiative' }, { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [3, 3] }],
    ]);
    const views = viewsParser(system, ARCHSOUL_VIEW, 'ARCHSOUL_VIEW', system.view)(events);
    expect(views.at(-1)!.pending).toEqual({
      kind: 'initiativeTie',
      awaiting: 'gm',
      answer: 'SetInitiative',
      detail: { ties: [['a', 'v']] },
    });
  });
});
