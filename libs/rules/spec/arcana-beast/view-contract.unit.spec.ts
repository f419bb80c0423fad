import { RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import {
  ARCANA_BEAST_CONTRACT,
  ARCANA_BEAST_VIEW,
  ArcanaBeastState,
  ArcanaBeastView,
} from '../../src/arcana-beast';
import { view } from '../../src/arcana-beast/view';
import { fightStarted, TEST_SEED } from '../given';
import { FIGHT_ID, play as playOn, publishedSchema, Step, viewsParser } from '../view-contract';
import { beast, binder, close, fight, Fighter, joined, party, wild } from './helpers';

/**
 * The view `view(state)` returns is what ARCANA_BEAST_VIEW declares: fights are played (initiative ties, intercepts,
 * dice requests, knockouts, a Call Back, the bands and tags of the map, an ended fight), and the view after every
 * event is parsed strictly with the service's `seq` and `headHash`. A field the declaration lacks, or declares with
 * another type or nullability, fails here.
 */
const system = findSystem('arcana-beast')!; // with dice requests, as the service plays it

const viewsOf = viewsParser(system, ARCANA_BEAST_VIEW, 'ARCANA_BEAST_VIEW', view);
const play = (history: RuleEvent[], steps: Step[]) => playOn(system, history, steps);

const seededFight = (fighters: Fighter[]) => [
  fightStarted('arcana-beast', 'seeded'),
  ...fight(fighters).slice(1),
];
const setup = [fightStarted('arcana-beast'), ...party.map(joined)];
const withOptions = (events: RuleEvent[], options: Record<string, unknown>) => [
  { ...events[0], data: { ...(events[0].data as object), options } },
  ...events.slice(1),
];
const end = { type: 'EndFight', revealedSeed: TEST_SEED };
const claw = { type: 'Attack', attackerId: 'ember', targetId: 'wolf', attackId: 'claw' };

const FIGHTS: Array<[string, RuleEvent[]]> = [
  [
    'initiative: a tie the GM must decide (pending initiativeTie), a reroll, a late joiner at 0 HP',
    play(setup, [
      [{ type: 'RollInitiative' }, { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4] }],
      [{ type: 'RerollInitiative' }, { dice: [1, 1, 5, 1, 1] }],
      { type: 'StartRound' },
      { type: 'StartActivation' },
      [
        {
          type: 'AddCombatant',
          combatant: {
            id: 'fallen',
            name: 'Fallen',
            side: 'wild',
            sheet: wild({
              hp: 0,
              maxHp: 8,
              stats: { brawn: 2, agility: 3, endurance: 2, spirit: 2, technique: 2 },
            }),
          },
        },
        { dice: [6, 6, 6] },
      ],
      { type: 'EndActivation' },
      { type: 'EndRound' },
      end,
    ]),
  ],
  [
    'initiative: a tie the GM settles with SetInitiative',
    play(setup, [
      [{ type: 'RollInitiative' }, { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4] }],
      { type: 'SetInitiative', order: ['pip', 'bo', 'ember', 'ash', 'wolf', 'wolf2'] },
    ]),
  ],
  [
    'initiative: a surprised beast, ties rerolled in advance (option initiativeTies: reroll)',
    play(withOptions(setup, { initiativeTies: 'reroll' }), [
      [
        { type: 'RollInitiative', surprised: ['wolf'] },
        { dice: [4, 4, 4, 1, 1, 6, 4, 1, 1, 1], rerollFaces: [1, 1, 1, 6, 4, 1] },
      ],
    ]),
  ],
  [
    'an intercept (pending intercept, the pending attack), then the forfeited Action',
    play(close(fight(party, 'ember'), 'ember', 'wolf'), [
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'wolf' },
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash' },
      [{ type: 'Intercept', combatantId: 'ember', intercept: true }, { dice: [1, 1, 1, 1, 1] }],
      { type: 'EndActivation' },
      { type: 'EndRound' },
      { type: 'StartRound' },
      { type: 'StartActivation', combatantId: 'ember' },
      end,
    ]),
  ],
  [
    'dice requests (pending dice), one over a pending intercept, cancelled and answered',
    play(close(fight(party, 'ember'), 'ember', 'wolf'), [
      [claw, { dice: [8, 5, 4, 2, 1] }],
      [{ type: 'ProvideDice' }, { dice: [6, 3] }],
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'wolf' },
      { type: 'Attack', attackerId: 'wolf', targetId: 'ash' },
      [{ type: 'Intercept', combatantId: 'ember', intercept: true }, { dice: [1, 1] }],
      { type: 'CancelPending', reason: 'the dice rolled off the table' },
      [{ type: 'Intercept', combatantId: 'ember', intercept: true }, { dice: [1, 1] }],
      [{ type: 'ProvideDice' }, { dice: [1, 1, 1] }],
      end,
    ]),
  ],
  [
    'knockouts: a beast devolves at 0 HP, its Binder commands alone, the Binder is knocked out, the scene ends',
    play(
      close(
        fight(
          [
            { id: 'wolf', sheet: wild(), side: 'wild' },
            {
              id: 'ember',
              sheet: beast({
                hp: 3,
                stats: { brawn: 3, agility: 0, endurance: 3, spirit: 3, technique: 2 },
                defensiveQualities: [],
              }),
              side: 'h',
            },
            { id: 'ash', sheet: binder('ember', { hp: 2 }), side: 'h' },
          ],
          'wolf',
        ),
        'wolf',
        'ember',
      ),
      [
        [
          { type: 'Attack', attackerId: 'wolf', targetId: 'ember' },
          { dice: [6, 6], followUpFaces: [8, 8, 1] },
        ],
        { type: 'EndActivation' },
        { type: 'StartActivation', combatantId: 'ember' },
        { type: 'UseItem', combatantId: 'ash', itemId: 'potion' },
        { type: 'EndActivation' },
        { type: 'StartRound' },
        { type: 'StartActivation', combatantId: 'wolf' },
        [{ type: 'Attack', attackerId: 'wolf', targetId: 'ash', intercept: false }, { dice: [6, 6, 1, 1] }],
        { type: 'EndActivation' },
        { type: 'EndScene' },
        end,
      ],
    ),
  ],
  [
    'the map and the shared turn: bands, difficult terrain, tags, triggers, evolution, combos, Guard, Call Back, EndScene',
    play(seededFight(party.map((f) => ({ ...f, sheet: { ...f.sheet, hp: 40 } }))), [
      { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'far', difficultTerrain: 2 },
      { type: 'SetBand', aId: 'pip', bId: 'wolf2', band: 'close' },
      { type: 'SetBand', aId: 'pip', bId: 'ember', band: 'close' },
      { type: 'SetBand', aId: 'wolf', bId: 'wolf2', band: 'close' },
      { type: 'SetTag', combatantId: 'ember', tag: 'highGround', againstId: 'wolf' },
      { type: 'SetTag', combatantId: 'pip', tag: 'cover' },
      { type: 'ApplyCondition', combatantId: 'pip', condition: 'dazed' },
      { type: 'SetTrigger', combatantId: 'ember', stage: 3, active: true },
      { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', active: true },
      { type: 'StartActivation', combatantId: 'ember' },
      { type: 'Direct', combatantId: 'ash' },
      { type: 'Move', combatantId: 'ember', towardId: 'wolf', band: 'close', using: 'flight' },
      claw,
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'pip' },
      { type: 'Encourage', combatantId: 'bo' },
      { type: 'Assist', combatantId: 'pip', allyId: 'ember' },
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'wolf' },
      { type: 'Guard', combatantId: 'wolf', allyId: 'wolf2' },
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'wolf2' },
      { type: 'Attack', attackerId: 'wolf2', targetId: 'pip' },
      { type: 'EndActivation' },
      { type: 'StartRound' },
      { type: 'StartActivation', combatantId: 'ember' },
      { type: 'Evolve', combatantId: 'ember', stage: 3 },
      { type: 'BondSurge', combatantId: 'ash' },
      { type: 'UseSpecialAttack', attackerId: 'ember', targetId: 'wolf2', specialAttackId: 'inferno' },
      { type: 'EndActivation' },
      { type: 'StartActivation', combatantId: 'pip' },
      { type: 'Strategize', combatantId: 'bo' },
      { type: 'Defend', combatantId: 'pip' },
      { type: 'EndActivation' },
      { type: 'EndRound' },
      { type: 'StartRound' },
      { type: 'StartActivation', combatantId: 'pip' },
      { type: 'CallBack', combatantId: 'bo', mode: 'retreat' },
      { type: 'EndActivation' },
      { type: 'EndRound' },
      { type: 'EndScene' },
      { type: 'RemoveCombatant', combatantId: 'wolf2' },
      end,
    ]),
  ],
];

/** Every view of every fight, parsed (once, when a test first asks). */
let parsedViews: ArcanaBeastView[] | undefined;
const allViews = () => (parsedViews ??= FIGHTS.flatMap(([, events]) => viewsOf(events)));

describe('ARCANA_BEAST_VIEW declares the view every Arcana Beast fight shows', () => {
  it('is the view of the system’s contract', () => {
    expect(ARCANA_BEAST_CONTRACT.view).toBe(ARCANA_BEAST_VIEW);
  });

  it.each(FIGHTS)('%s: the view after every event parses strictly, unchanged', (_name, events) => {
    expect(viewsOf(events)).toHaveLength(events.length);
  });

  it('the view of a fight not started yet parses too (no seq, no headHash)', () => {
    expect(ARCANA_BEAST_VIEW.parse(view(system.start(FIGHT_ID) as ArcanaBeastState))).toMatchObject({
      status: 'new',
      combatants: [],
      turn: null,
    });
  });

  it('the fights show both forms of every field that has two (so each is checked against real views)', () => {
    const views = allViews();
    const combatants = views.flatMap((v) => v.combatants);
    const beasts = combatants.flatMap((c) => (c.kind === 'beast' ? [c] : []));
    expect([...new Set(views.map((v) => v.pending?.kind ?? null))].sort()).toEqual(
      ['dice', 'initiativeTie', 'intercept', null].sort(),
    );
    expect([...new Set(views.map((v) => v.status))].sort()).toEqual(['active', 'ended', 'setup']);
    expect(views.some((v) => v.dice.revealedSeed === TEST_SEED)).toBe(true);
    expect(views.some((v) => v.turn?.binderId && v.turn.command && v.turn.action)).toBe(true);
    expect(views.some((v) => v.turn?.action === 'forfeited')).toBe(true);
    expect(
      views.some((v) => v.pendingAttack !== null) && views.some((v) => Object.keys(v.combos).length > 0),
    ).toBe(true);
    expect(
      views.some((v) => Object.keys(v.chains).length > 0) &&
        views.some((v) => Object.values(v.sideTurns).some((n) => n > 0)),
    ).toBe(true);
    // A6: attacks whose pool adds Qualities' ranks, and attacks that add none.
    expect([...new Set(beasts.flatMap((b) => b.attacks.map((a) => a.qualities.length > 0)))].sort()).toEqual([
      false,
      true,
    ]);
    expect([...new Set(combatants.map((c) => c.state))].sort()).toEqual(['Active', 'InVessel', 'KnockedOut']);
    expect([...new Set(combatants.flatMap((c) => Object.values(c.bands)))].sort()).toEqual([
      'close',
      'far',
      'near',
    ]);
    expect(
      combatants.some((c) => c.tags.some((t) => t.againstId)) &&
        combatants.some((c) => c.tags.some((t) => !t.againstId)),
    ).toBe(true);
    expect(
      combatants.some((c) => c.initiative === null) && combatants.some((c) => c.initiative !== null),
    ).toBe(true);
    expect(
      combatants.some((c) => c.harms.length > 0 && c.conditions.length === 0) &&
        combatants.some((c) => c.conditions.length > 0),
    ).toBe(true);
    for (const field of ['binderId', 'zeroPower', 'guarding', 'revertTo'] as const) {
      expect([field, beasts.some((b) => b[field] === null), beasts.some((b) => b[field] !== null)]).toEqual([
        field,
        true,
        true,
      ]);
    }
    expect(
      beasts.some((b) => b.stages.some((s) => s.triggerActive)) &&
        beasts.some((b) => b.zeroPower?.triggerActive),
    ).toBe(true);
  });

  describe('a view that drifts from the declaration is refused', () => {
    type Drift = (shown: ArcanaBeastView, at: number) => unknown;
    /** A view with a running turn and a tagged beast (combatant `at`), drifted. */
    const refusal = (drift: Drift) => {
      const shown = allViews().find(
        (v) => v.turn !== null && v.combatants.some((c) => c.kind === 'beast' && c.tags.length > 0),
      )!;
      const at = shown.combatants.findIndex((c) => c.kind === 'beast' && c.tags.length > 0);
      expect(ARCANA_BEAST_VIEW.safeParse(shown).success).toBe(true);
      const result = ARCANA_BEAST_VIEW.safeParse(drift(shown, at));
      expect(result.success).toBe(false);
      return { issue: result.error!.issues[0], at };
    };
    const combatant = (v: ArcanaBeastView, at: number, patch: Record<string, unknown>) => ({
      ...v,
      combatants: v.combatants.map((c, i) => (i === at ? { ...c, ...patch } : c)),
    });

    it.each<[string, Drift, (at: number) => PropertyKey[]]>([
      ['an extra field of the view', (v) => ({ ...v, initiativeRolls: [] }), () => ['initiativeRolls']],
      [
        'an extra field of a combatant',
        (v, at) => combatant(v, at, { surprised: false }),
        (at) => ['combatants', at, 'surprised'],
      ],
      [
        'an extra field of the turn',
        (v) => ({ ...v, turn: { ...v.turn, bonusDice: 1 } }),
        () => ['turn', 'bonusDice'],
      ],
      [
        'an extra field of a tag',
        (v, at) => combatant(v, at, { tags: [{ ...v.combatants[at].tags[0], since: 1 }] }),
        (at) => ['combatants', at, 'tags', 0, 'since'],
      ],
      [
        'a Binder’s field on a beast',
        (v, at) => combatant(v, at, { beastId: 'ember' }),
        (at) => ['combatants', at, 'beastId'],
      ],
    ])('%s', (_what, drift, path) => {
      const { issue, at } = refusal(drift);
      expect(issue.code).toBe('unrecognized_keys');
      expect([...issue.path, ...(issue as { keys: string[] }).keys]).toEqual(path(at));
    });

    it.each<[string, Drift, (at: number) => PropertyKey[]]>([
      ['a field of another type', (v, at) => combatant(v, at, { hp: '3' }), (at) => ['combatants', at, 'hp']],
      ['null where the view always has a value', (v) => ({ ...v, combos: null }), () => ['combos']],
      ['a missing field', ({ criticalGauge: _gone, ...rest }) => rest, () => ['criticalGauge']],
      [
        'a state the view never shows',
        (v, at) => combatant(v, at, { state: 'Fainted' }),
        (at) => ['combatants', at, 'state'],
      ],
      [
        'a band that is not one',
        (v, at) => combatant(v, at, { bands: { wolf: 'adjacent' } }),
        (at) => ['combatants', at, 'bands', 'wolf'],
      ],
    ])('%s', (_what, drift, path) => {
      const { issue, at } = refusal(drift);
      expect(issue.path).toEqual(path(at));
    });
  });

  it('publishes as a closed JSON Schema (what OpenAPI types the view by)', () => {
    const schema = publishedSchema(ARCANA_BEAST_VIEW);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'fightId',
        'status',
        'pending',
        'criticalGauge',
        'turn',
        'pendingAttack',
        'combos',
        'chains',
        'sideTurns',
        'combatants',
      ]),
    );
    expect(schema.required).not.toContain('seq');
    expect(schema.properties.criticalGauge.description).toMatch(/Critical Gauge/);
  });
});
