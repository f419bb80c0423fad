import { RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { ARCHSOUL_CONTRACT, ARCHSOUL_VIEW, ArchsoulState, ArchsoulView } from '../../src/archsoul';
import { view } from '../../src/archsoul/view';
import { TEST_SEED } from '../given';
import { FIGHT_ID, play as playOn, publishedSchema, Step, viewsParser } from '../view-contract';
import { bow, fight, foe, hero, rider, sheet, sword } from './helpers';

/**
 * The view `view(state)` returns is what ARCHSOUL_VIEW declares: fights are played (a rolled initiative, an ambush
 * on a square map with walls, reactive attacks and held actions, a dice request, a grapple and a theft, a combatant
 * Down, a rider, an ended fight), and the view after every event is parsed strictly with the service's `seq` and
 * `headHash`. A field the declaration lacks, or declares with another type or nullability, fails here.
 */
const system = findSystem('archsoul')!; // with dice requests, as the service plays it

const viewsOf = viewsParser(system, ARCHSOUL_VIEW, 'ARCHSOUL_VIEW', view);
const play = (history: RuleEvent[], steps: Step[]) => playOn(system, history, steps);

const rope = { id: 'rope', name: 'Rope', stowage: 'awkward' };
// S51: the bow and the shield fill both hands; the sword starts stowed.
const shielded = { weapons: [{ ...bow, hp: 5 }, sword], shield: { bonus: 2, hp: 6 }, items: [rope] };
// A free hand for the rope: the shield starts stowed.
const handFree = { weapons: [sword], shield: { bonus: 2, hp: 6, held: false }, items: [rope] };
const end = { type: 'EndFight', revealedSeed: TEST_SEED };

const FIGHTS: Array<[string, RuleEvent[]]> = [
  [
    'a rolled initiative (the enemies’ shared roll, a roll-off), a late joiner already Down, the fight ended',
    play(
      fight([hero('a', [0, 0]), foe('v', [0, -3])], { round: false }).filter(
        (e) => e.type !== 'InitiativeSet',
      ),
      [
        [{ type: 'RollInitiative' }, { dice: [4, 1, 1, 4, 1, 1], followUpFaces: [2, 5] }],
        { type: 'StartRound' },
        [
          {
            type: 'AddCombatant',
            combatant: { id: 'fallen', name: 'Fallen', side: 'enemies', sheet: sheet({ hp: 0 }) },
          },
          { followUpFaces: [3, 4] },
        ],
        { type: 'EndPhase' },
        { type: 'EndRound' },
        end,
      ],
    ),
  ],
  [
    'an ambush on a square map with blocked spaces and walls; conditions with and without an end; damage to Down',
    play(
      fight([hero('a', [0, 0], 'N', rider), foe('v', [0, 6]), foe('w', [3, 3])], {
        round: false,
        map: {
          grid: 'square',
          blocked: [{ x: 5, y: 5 }],
          walls: [
            [
              { x: 1, y: 0 },
              { x: 2, y: 0 },
            ],
          ],
        },
      }),
      [
        { type: 'DeclareAmbush', party: 'heroes' },
        { type: 'StartRound' },
        {
          type: 'Move',
          combatantId: 'a',
          free: true,
          path: [
            { x: 0, y: 1 },
            { x: 0, y: 2 },
          ],
        },
        {
          type: 'ApplyCondition',
          combatantId: 'v',
          condition: 'defenseDown',
          amount: 2,
          untilNextTurn: true,
        },
        { type: 'ApplyCondition', combatantId: 'w', condition: 'slowed' },
        { type: 'Dismount', combatantId: 'a' },
        { type: 'ApplyDamage', combatantId: 'w', damage: 20 },
        { type: 'EndTurn', combatantId: 'a' },
        { type: 'EndRound' },
        end,
      ],
    ),
  ],
  [
    'a ranged attack in reach (pending reactiveAttack, the held action), declined, resumed (pending resumeAction), the arrow on the ground',
    play(
      fight([hero('a', [0, 0], 'N', shielded), foe('v', [0, -1], 'S')], {
        options: { arrowBreakage: false },
      }),
      [
        { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'bow' },
        { type: 'DeclineReactiveAttack', combatantId: 'v' },
        [{ type: 'ResumeAction', combatantId: 'a' }, { dice: [1, 2, 3, 2] }],
        { type: 'EndTurn', combatantId: 'a' },
      ],
    ),
  ],
  [
    'a Move out of reach attacked (pending reactiveAttack), then resumed',
    play(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]), [
      {
        type: 'Move',
        combatantId: 'a',
        path: [
          { x: -1, y: 0 },
          { x: -2, y: 0 },
        ],
      },
      [{ type: 'ReactiveAttack', combatantId: 'v', weaponId: 'sword' }, { dice: [6, 1, 1, 1] }],
      { type: 'ResumeAction', combatantId: 'a' },
    ]),
  ],
  [
    'a dice request (pending dice) answered with ProvideDice, a Quick Attack, Study, an awkward draw',
    play(fight([hero('a', [0, 0], 'N', handFree), foe('v', [0, -1], 'N')]), [
      [
        { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', special: 'quick' },
        { dice: [6, 6, 6, 6] },
      ],
      [{ type: 'ProvideDice' }, { dice: [1, 1, 1, 1, 1] }],
      { type: 'Study', combatantId: 'a', targetId: 'v' },
      { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'rope' },
      { type: 'EndTurn', combatantId: 'a' },
      end,
    ]),
  ],
  [
    'a grapple and a theft',
    play(fight([hero('a', [0, 0]), foe('v', [0, -1], 'N')]), [
      [{ type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] }],
      [{ type: 'Steal', combatantId: 'a', targetId: 'v', itemId: 'sword' }, { dice: [4, 4, 1, 1, 1, 1] }],
    ]),
  ],
];

/** Every view of every fight, parsed (once, when a test first asks). */
let parsedViews: ArchsoulView[] | undefined;
const allViews = () => (parsedViews ??= FIGHTS.flatMap(([, events]) => viewsOf(events)));

describe('ARCHSOUL_VIEW declares the view every Archsoul fight shows', () => {
  it('is the view of the system’s contract', () => {
    expect(ARCHSOUL_CONTRACT.view).toBe(ARCHSOUL_VIEW);
  });

  it.each(FIGHTS)('%s: the view after every event parses strictly, unchanged', (_name, events) => {
    expect(viewsOf(events)).toHaveLength(events.length);
  });

  it('the view of a fight not started yet parses too (no seq, no headHash)', () => {
    expect(ARCHSOUL_VIEW.parse(view(system.start(FIGHT_ID) as ArchsoulState))).toMatchObject({
      status: 'new',
      combatants: [],
      phase: null,
      reaction: null,
    });
  });

  it('the fights show both forms of every field that has two (so each is checked against real views)', () => {
    const views = allViews();
    const combatants = views.flatMap((v) => v.combatants);
    expect([...new Set(views.map((v) => v.pending?.kind ?? null))].sort()).toEqual(
      ['dice', 'reactiveAttack', 'resumeAction', null].sort(),
    );
    expect([...new Set(views.map((v) => v.status))].sort()).toEqual(['active', 'ended', 'setup']);
    expect(views.some((v) => v.dice.revealedSeed === TEST_SEED)).toBe(true);
    expect([...new Set(views.map((v) => v.map.grid))].sort()).toEqual(['hex', 'square']);
    expect(views.some((v) => v.map.walls.length > 0 && v.map.blocked.length > 0)).toBe(true);
    for (const field of ['phase', 'ambush', 'reaction'] as const) {
      expect([field, views.some((v) => v[field] === null), views.some((v) => v[field] !== null)]).toEqual([
        field,
        true,
        true,
      ]);
    }
    expect(
      views.some((v) => v.reaction?.action) &&
        views.some((v) => v.reaction?.current) &&
        views.some((v) => v.reaction && !v.reaction.current),
    ).toBe(true);
    expect(
      views.some((v) => v.ground.some((g) => g.ammunition)) &&
        views.some((v) => v.grapples.length > 0) &&
        views.some((v) => v.openTurns.length > 0),
    ).toBe(true);
    expect([...new Set(combatants.map((c) => c.state))].sort()).toEqual(['Active', 'Down']);
    expect([...new Set(combatants.map((c) => c.party))].sort()).toEqual(['enemies', 'heroes']);
    for (const field of ['initiative', 'position', 'awkwardDraw', 'study', 'mount'] as const) {
      expect([
        field,
        combatants.some((c) => c[field] === null),
        combatants.some((c) => c[field] !== null),
      ]).toEqual([field, true, true]);
    }
    expect(
      combatants.some((c) => c.conditions.some((x) => x.untilNextTurn)) &&
        combatants.some((c) => c.conditions.some((x) => !x.untilNextTurn)),
    ).toBe(true);
    expect(
      combatants.some((c) => c.weapons.some((w) => w.hp !== undefined && w.ammunition !== undefined)) &&
        combatants.some((c) => c.weapons.some((w) => w.hp === undefined)),
    ).toBe(true);
    expect(
      combatants.some((c) => c.shieldBonus > 0) &&
        combatants.some((c) => c.defense < c.baseDefense) &&
        combatants.some((c) => c.stolen.length > 0),
    ).toBe(true);
    expect(
      combatants.some((c) => c.mounted) &&
        combatants.some((c) => c.mount && !c.mounted) &&
        combatants.some((c) => c.quickAttacked),
    ).toBe(true);
    expect(combatants.some((c) => !c.hasFrontArc) && combatants.some((c) => c.freeMove > 0)).toBe(true);
  });

  describe('a view that drifts from the declaration is refused', () => {
    type Drift = (shown: ArchsoulView) => unknown;
    /** A view with a running phase, reactive attacks being answered and a placed combatant (combatant 0), drifted. */
    const refusal = (drift: Drift) => {
      const shown = allViews().find(
        (v) => v.phase !== null && v.reaction?.action && v.combatants[0]?.position,
      )!;
      expect(ARCHSOUL_VIEW.safeParse(shown).success).toBe(true);
      const result = ARCHSOUL_VIEW.safeParse(drift(shown));
      expect(result.success).toBe(false);
      return result.error!.issues[0];
    };
    const first = (v: ArchsoulView, patch: Record<string, unknown>) => ({
      ...v,
      combatants: v.combatants.map((c, i) => (i === 0 ? { ...c, ...patch } : c)),
    });

    it.each<[string, Drift, PropertyKey[]]>([
      ['an extra field of the view', (v) => ({ ...v, initiativeRolls: [] }), ['initiativeRolls']],
      [
        'an extra field of a combatant',
        (v) => first(v, { surprised: false }),
        ['combatants', 0, 'surprised'],
      ],
      ['an extra field of the phase', (v) => ({ ...v, phase: { ...v.phase, bonus: 1 } }), ['phase', 'bonus']],
      [
        'an extra field of the reaction',
        (v) => ({ ...v, reaction: { ...v.reaction, offered: [] } }),
        ['reaction', 'offered'],
      ],
      [
        'an extra field of a position',
        (v) => first(v, { position: { ...v.combatants[0].position, z: 1 } }),
        ['combatants', 0, 'position', 'z'],
      ],
      [
        'an extra field of a weapon',
        (v) => first(v, { weapons: v.combatants[0].weapons.map((w) => ({ ...w, hardness: 1 })) }),
        ['combatants', 0, 'weapons', 0, 'hardness'],
      ],
    ])('%s', (_what, drift, path) => {
      const issue = refusal(drift);
      expect(issue.code).toBe('unrecognized_keys');
      expect([...issue.path, ...(issue as { keys: string[] }).keys]).toEqual(path);
    });

    it.each<[string, Drift, PropertyKey[]]>([
      ['a field of another type', (v) => first(v, { hp: '3' }), ['combatants', 0, 'hp']],
      ['null where the view always has a value', (v) => ({ ...v, map: null }), ['map']],
      ['a missing field', ({ openTurns: _gone, ...rest }) => rest, ['openTurns']],
      ['a state the view never shows', (v) => first(v, { state: 'KnockedOut' }), ['combatants', 0, 'state']],
      ['a facing that is not one', (v) => first(v, { facing: 'up' }), ['combatants', 0, 'facing']],
      [
        'a held action that is not one',
        (v) => ({ ...v, reaction: { ...v.reaction, action: { type: 'Dance', payload: {} } } }),
        ['reaction', 'action', 'type'],
      ],
    ])('%s', (_what, drift, path) => {
      expect(refusal(drift).path).toEqual(path);
    });
  });

  it('publishes as a closed JSON Schema (what OpenAPI types the view by)', () => {
    const schema = publishedSchema(ARCHSOUL_VIEW);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'fightId',
        'status',
        'pending',
        'map',
        'phase',
        'openTurns',
        'ambush',
        'ground',
        'reaction',
        'grapples',
        'combatants',
      ]),
    );
    expect(schema.required).not.toContain('seq');
    expect(schema.properties.reaction.description).toMatch(/Reactive attacks/);
  });
});
