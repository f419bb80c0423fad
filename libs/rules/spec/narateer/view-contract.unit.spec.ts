import { jsonSchemaOf } from '../../src/core/contract';
import { RuleEvent } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { NARATEER_CONTRACT, NARATEER_VIEW, NarateerState, NarateerView } from '../../src/narateer';
import { view } from '../../src/narateer/view';
import { TEST_SEED } from '../given';
import { crossbow, mira, orin, sera, sheet, veyr } from './helpers';
import { FIGHT_ID, viewsParser } from '../view-contract';
import { duel as playDuel, gmRound, Table, yard as playYard } from './table';

/**
 * The view `view(state)` returns is what NARATEER_VIEW declares: fights are played (an initiative tie, a late
 * joiner, dice requests, exchanges answered, wounds to allocate, a Withdrawn and a Collapsed combatant, the map
 * and its Opportunity Attacks, conditions, Lingering Harm, weapons that run dry, ended fights), and the view after
 * every event is parsed strictly with the service's `seq` and `headHash`. A field the declaration lacks, or
 * declares with another type or nullability, fails here.
 */
const system = findSystem('narateer')!; // with dice requests, as the service plays it

const viewsOf = viewsParser(system, NARATEER_VIEW, 'NARATEER_VIEW', view);

const end = { type: 'EndFight', revealedSeed: TEST_SEED };

/** Initiative by dice: a tie the GM settles, a late joiner, an exchange's Edge reroll asked for (pending dice), cancelled, then given. */
function initiative(): RuleEvent[] {
  const t = new Table(
    [
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
    ],
    'manual',
  );
  // Agility 2 each: 1 dot + 1 dot against 2 dots + 0, tied with equal Agility: the GM decides (pending initiativeTie).
  t.run({ type: 'RollInitiative' }, { dice: [3, 3, 6, 1] });
  t.run({ type: 'SetInitiative', order: ['b', 'a'] });
  t.run({ type: 'StartRound' });
  t.run({ type: 'StartActivation', combatantId: 'b' });
  t.run(
    { type: 'AddCombatant', combatant: { id: 'c', name: 'Cole', side: 'c', sheet: sheet({ weapons: [] }) } },
    { dice: [6, 6] },
  );
  if (t.state.pending?.kind === 'initiativeTie') t.run({ type: 'SetInitiative', order: ['c', 'b', 'a'] });
  // An attack at Advantage without the reroll's face: a dice request (pending dice), cancelled, then answered.
  const attack = {
    type: 'DeclareExchange',
    attackerId: 'b',
    targetId: 'a',
    kind: 'melee',
    weaponId: 'sword',
    boost: 0,
    edge: 'advantage',
    response: 'none',
  };
  t.run(attack, { dice: [3] });
  t.run({ type: 'CancelPending', reason: 'the die rolled off the table' });
  t.run(attack, { dice: [3] });
  t.run({ type: 'ProvideDice' }, { rerollFaces: [6] });
  t.run({ type: 'AddNote', text: 'b presses on', combatantId: 'b' });
  t.run({ type: 'EndActivation' });
  t.run({ type: 'EndRound' });
  t.run({ type: 'RemoveCombatant', combatantId: 'c' });
  t.run(end);
  return t.log;
}

/** wounds.unit.spec's lost Clash (its Continuation Check asked for: pending dice), Withdrawn; then hit, asked for its dice (ASK), Collapsed. */
function clash(): RuleEvent[] {
  const t = new Table(
    [
      { id: 'mira', sheet: { ...mira, maxMD: 2, woundPreference: 'ASK' } },
      { id: 'orin', sheet: orin },
    ],
    'manual',
  );
  t.run({ type: 'SetInitiative', order: ['mira', 'orin'] });
  t.run({ type: 'StartRound' });
  t.run({ type: 'StartActivation', combatantId: 'mira' });
  t.run({
    type: 'DeclareExchange',
    attackerId: 'mira',
    targetId: 'orin',
    kind: 'melee',
    weaponId: 'sword',
    boost: 2,
  });
  t.run(
    { type: 'RespondToExchange', combatantId: 'orin', response: 'clash', boost: 1 },
    { dice: [1, 1, 2, 6, 6] },
  );
  // Mira (ASK) chooses the dice for her 5 Wounds (pending woundAllocation); her Continuation Check's faces are asked for (pending dice).
  t.run({ type: 'AllocateWounds', combatantId: 'mira', allocation: ['AD', 'AD', 'MD', 'MD', 'AD'] });
  t.run({ type: 'ProvideDice' }, { followUpFaces: [2, 1] });
  t.run({ type: 'EndActivation' });
  t.run({ type: 'StartActivation', combatantId: 'orin' });
  // Withdrawn, Mira's response is forced to none: 2 dots, Hit Margin 2 + 5 − 1 → 3 Wounds, Vitality 3 → 0: Collapsed.
  t.run(
    {
      type: 'DeclareExchange',
      attackerId: 'orin',
      targetId: 'mira',
      kind: 'melee',
      weaponId: 'mace',
      boost: 0,
    },
    { dice: [6] },
  );
  if (t.state.pending?.kind === 'woundAllocation')
    t.run({ type: 'AllocateWounds', combatantId: 'mira', allocation: ['AD', 'AD', 'AD'] });
  t.run({
    type: 'ApplyWounds',
    combatantId: 'mira',
    wounds: 2,
    harm: 'Supernatural (Necrotic)',
    effect: 'Finger of death',
  });
  t.run({ type: 'EndActivation' });
  t.run({ type: 'StartRound' });
  t.run(end);
  return t.log;
}

/** fight.unit.spec's whole fight: rounds of melee exchanges to a collapse, answers up front and by policy, Lingering Harm. */
function duel(): RuleEvent[] {
  return playDuel().run(end).log;
}

/** ranged.unit.spec's shootout: fire, Clash back, a crossbow to reload and one bolt left, unaware and unseen targets. */
function shootout(): RuleEvent[] {
  const t = new Table([
    { id: 'sera', sheet: sera },
    { id: 'veyr', sheet: { ...veyr, maxVitality: 12, weapons: [{ ...crossbow, ammunition: 2 }] } },
  ]);
  t.run({ type: 'SetInitiative', order: ['sera', 'veyr'] });
  for (let round = 1; round <= 3; round++) {
    t.run({ type: 'StartRound' });
    t.run({ type: 'StartActivation', combatantId: 'sera' });
    t.run({
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
      boost: 0,
      distance: 15,
      attackerUnseen: round === 2,
      targetUnaware: round === 3,
    });
    const ready =
      (t.state.combatants.veyr.weapons.crossbow.ammunition ?? 1) > 0 &&
      t.state.combatants.veyr.weapons.crossbow.loaded;
    if (t.state.pending?.kind === 'exchangeResponse')
      t.run({
        type: 'RespondToExchange',
        combatantId: 'veyr',
        response: ready ? 'clash' : 'fullGuard',
        boost: 0,
        weaponId: ready ? 'crossbow' : undefined,
      });
    t.run({ type: 'EndActivation' });
    if (!t.state.roundOpen) continue;
    t.run({ type: 'StartActivation', combatantId: 'veyr' });
    if (t.state.combatants.veyr.weapons.crossbow.ammunition !== 0)
      t.run({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    t.run({ type: 'EndActivation' });
  }
  return t.log;
}

/** opportunity.unit.spec's yard: a move opens Opportunity Attacks, one taken, one declined, one lapsed; then off the map. */
function yard(): RuleEvent[] {
  return playYard().run({ type: 'Move', combatantId: 'g', path: [{ x: 0, y: 1 }], forced: true }).log;
}

/** The GM's tools: conditions that run out, harm by spell with an allocation asked for, Lingering Harm with a source, treated. */
function gm(): RuleEvent[] {
  const t = gmRound();
  t.run({ type: 'ApplyLingeringHarm', combatantId: 'b', form: 'Burning' });
  t.run({ type: 'RemoveCondition', combatantId: 'b', condition: 'blinded' });
  t.run({ type: 'EndRound' });
  // The hex ticks at the round's end; should its Wounds wait for a's choice (ASK), a chooses.
  if (t.state.pending?.kind === 'woundAllocation')
    t.run({ type: 'AllocateWounds', combatantId: 'a', allocation: ['AD', 'AD'] });
  t.run({ type: 'TreatLingeringHarm', combatantId: 'a', lingeringHarmId: 'lh1' });
  t.run({ type: 'StartRound' });
  t.run({ type: 'ApplyCondition', combatantId: 'b', condition: 'restrained', intensity: 1 });
  t.run({ type: 'SetPosition', combatantId: 'a', position: { x: 0, y: 0 } });
  t.run({ type: 'SetPosition', combatantId: 'b', position: { x: 3, y: -2 } });
  t.run({ type: 'StartActivation', combatantId: 'a' });
  t.run({
    type: 'DeclareExchange',
    attackerId: 'a',
    targetId: 'b',
    kind: 'ranged',
    weaponId: 'crossbow',
    boost: 0,
    response: 'none',
  });
  t.run({ type: 'EndActivation' });
  return t.log;
}

const FIGHTS: Array<[string, () => RuleEvent[]]> = [
  [
    'initiative: a tie the GM settles (pending initiativeTie), a late joiner and an exchange asked for dice (pending dice), a cancellation, an ended fight',
    initiative,
  ],
  [
    'a lost Clash: the pending response, wounds to allocate (pending woundAllocation), Withdrawn, then Collapsed by a spell',
    clash,
  ],
  ['a whole duel to a collapse: answers up front and by policy, Bleeding, an ended fight', duel],
  ['a shootout: ranged exchanges, a crossbow reloaded and out of bolts', shootout],
  [
    'the map: positions, Opportunity Attacks offered (pending opportunityAttack), taken, declined and lapsed, off the map',
    yard,
  ],
  [
    'the GM’s tools: conditions for a round and until removed, spells, Lingering Harm with a source, treated',
    gm,
  ],
];
const LOGS = new Map(FIGHTS.map(([name, play]) => [name, play()]));

/** Every view of every fight, parsed (once, when a test first asks). */
let parsedViews: NarateerView[] | undefined;
const allViews = () => (parsedViews ??= [...LOGS.values()].flatMap(viewsOf));

describe('NARATEER_VIEW declares the view every Narateer fight shows', () => {
  it('is the view of the system’s contract', () => {
    expect(NARATEER_CONTRACT.view).toBe(NARATEER_VIEW);
    expect(system.contract.view).toBe(NARATEER_VIEW);
  });

  it.each(FIGHTS.map(([name]) => name))(
    '%s: the view after every event parses strictly, unchanged',
    (name) => {
      const events = LOGS.get(name)!;
      expect(viewsOf(events)).toHaveLength(events.length);
    },
  );

  it('the view of a fight not started yet parses too (no seq, no headHash)', () => {
    expect(NARATEER_VIEW.parse(view(system.start(FIGHT_ID) as NarateerState))).toMatchObject({
      status: 'new',
      combatants: [],
      exchange: null,
      pendingWounds: null,
      opportunity: null,
    });
  });

  it('the fights show both forms of every field that has two (so each is checked against real views)', () => {
    const views = allViews();
    const combatants = views.flatMap((v) => v.combatants);
    const both = <T>(name: string, items: T[], present: (item: T) => boolean) =>
      expect([name, items.some(present), items.some((i) => !present(i))]).toEqual([name, true, true]);
    expect([...new Set(views.map((v) => v.pending?.kind ?? null))].sort()).toEqual(
      ['dice', 'exchangeResponse', 'initiativeTie', 'opportunityAttack', 'woundAllocation', null].sort(),
    );
    expect([...new Set(views.map((v) => v.status))].sort()).toEqual(['active', 'ended', 'setup']);
    expect([...new Set(combatants.map((c) => c.state))].sort()).toEqual(['Active', 'Collapsed', 'Withdrawn']);
    expect(combatants.some((c) => c.vitality < 0)).toBe(true);
    both('dice.revealedSeed', views, (v) => v.dice.revealedSeed === TEST_SEED);
    both('activeCombatantId', views, (v) => v.activeCombatantId !== null);
    both('exchange', views, (v) => v.exchange !== null);
    both(
      'exchange.response',
      views.flatMap((v) => (v.exchange ? [v.exchange] : [])),
      (x) => x.response !== undefined,
    );
    expect(
      views.some((v) => v.exchange?.opportunity) &&
        views.some((v) => v.exchange?.response?.forced) &&
        views.some((v) => v.exchange?.response?.source),
    ).toBe(true);
    both('pendingWounds', views, (v) => v.pendingWounds !== null);
    both('opportunity', views, (v) => v.opportunity !== null);
    both(
      'opportunity.current',
      views.flatMap((v) => (v.opportunity ? [v.opportunity] : [])),
      (o) => o.current !== undefined,
    );
    both('initiative', combatants, (c) => c.initiative !== null);
    both('position', combatants, (c) => c.position !== null);
    both('proactiveUsesLeft', combatants, (c) => c.proactiveUsesLeft.melee < 2);
    const conditions = combatants.flatMap((c) => c.conditions);
    both('conditions[].intensity', conditions, (k) => k.intensity !== null);
    both('conditions[].untilRound', conditions, (k) => k.untilRound !== null);
    both(
      'lingeringHarm[].source',
      combatants.flatMap((c) => c.lingeringHarm),
      (l) => l.source !== undefined,
    );
    const weapons = combatants.flatMap((c) => c.weapons);
    both('weapons[].ammunition', weapons, (w) => w.ammunition !== null);
    both('weapons[].loaded', weapons, (w) => w.loaded);
    both('weapons[].ready', weapons, (w) => w.ready);
    expect(
      weapons.some((w) => w.ammunition === 0 && !w.ready) &&
        weapons.some((w) => w.ammunition !== 0 && !w.loaded && !w.ready),
    ).toBe(true);
    expect([...new Set(combatants.map((c) => c.woundPreference))].sort()).toEqual([
      'AD_FIRST',
      'ASK',
      'MD_FIRST',
    ]);
  });

  describe('a view that drifts from the declaration is refused', () => {
    type Drift = (shown: NarateerView, at: number) => unknown;
    /** A view with a pending exchange and a combatant (`at`) with conditions, Lingering Harm and a position, drifted. */
    const refusal = (drift: Drift) => {
      const shown = allViews().find(
        (v) =>
          v.exchange !== null &&
          v.combatants.some((c) => c.lingeringHarm.length > 0 && c.conditions.length > 0),
      )!;
      const at = shown.combatants.findIndex((c) => c.lingeringHarm.length > 0 && c.conditions.length > 0);
      expect(NARATEER_VIEW.safeParse(shown).success).toBe(true);
      const result = NARATEER_VIEW.safeParse(drift(shown, at));
      expect(result.success).toBe(false);
      return { issue: result.error!.issues[0], at };
    };
    const combatant = (v: NarateerView, at: number, patch: Record<string, unknown>) => ({
      ...v,
      combatants: v.combatants.map((c, i) => (i === at ? { ...c, ...patch } : c)),
    });

    it.each<[string, Drift, (at: number) => PropertyKey[]]>([
      ['an extra field of the view', (v) => ({ ...v, exchanges: 3 }), () => ['exchanges']],
      [
        'an extra field of a combatant',
        (v, at) => combatant(v, at, { belowHalf: false }),
        (at) => ['combatants', at, 'belowHalf'],
      ],
      [
        'an extra field of a die pool',
        (v, at) => combatant(v, at, { ad: { ...v.combatants[at].ad, spent: 0 } }),
        (at) => ['combatants', at, 'ad', 'spent'],
      ],
      [
        'an extra field of a Lingering Harm',
        (v, at) =>
          combatant(v, at, { lingeringHarm: [{ ...v.combatants[at].lingeringHarm[0], severity: 2 }] }),
        (at) => ['combatants', at, 'lingeringHarm', 0, 'severity'],
      ],
      [
        'an extra field of the exchange',
        (v) => ({ ...v, exchange: { ...v.exchange, outcome: 'hit' } }),
        () => ['exchange', 'outcome'],
      ],
    ])('%s', (_what, drift, path) => {
      const { issue, at } = refusal(drift);
      expect(issue.code).toBe('unrecognized_keys');
      expect([...issue.path, ...(issue as { keys: string[] }).keys]).toEqual(path(at));
    });

    it.each<[string, Drift, (at: number) => PropertyKey[]]>([
      [
        'a field of another type',
        (v, at) => combatant(v, at, { vitality: '3' }),
        (at) => ['combatants', at, 'vitality'],
      ],
      [
        'null where the view always has a value',
        (v, at) => combatant(v, at, { weapons: null }),
        (at) => ['combatants', at, 'weapons'],
      ],
      ['absent where the view shows null', ({ opportunity: _gone, ...rest }) => rest, () => ['opportunity']],
      [
        'undefined where the view shows null',
        (v, at) =>
          combatant(v, at, { conditions: [{ ...v.combatants[at].conditions[0], untilRound: undefined }] }),
        (at) => ['combatants', at, 'conditions', 0, 'untilRound'],
      ],
      [
        'a state the view never shows',
        (v, at) => combatant(v, at, { state: 'Unconscious' }),
        (at) => ['combatants', at, 'state'],
      ],
      [
        'a condition not in the picker',
        (v, at) =>
          combatant(v, at, { conditions: [{ ...v.combatants[at].conditions[0], condition: 'toString' }] }),
        (at) => ['combatants', at, 'conditions', 0, 'condition'],
      ],
      [
        'a position off the grid',
        (v, at) => combatant(v, at, { position: { x: 1.5, y: 0 } }),
        (at) => ['combatants', at, 'position', 'x'],
      ],
    ])('%s', (_what, drift, path) => {
      const { issue, at } = refusal(drift);
      expect(issue.path).toEqual(path(at));
    });
  });

  it('publishes as a closed JSON Schema (what OpenAPI types the view by)', () => {
    type Schema = {
      additionalProperties?: boolean;
      required?: string[];
      properties: Record<string, Schema & { description?: string; items?: Schema; anyOf?: Schema[] }>;
    };
    const schema = jsonSchemaOf(NARATEER_VIEW, 'openapi-3.0') as Schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'fightId',
        'status',
        'pending',
        'combatants',
        'exchange',
        'pendingWounds',
        'opportunity',
      ]),
    );
    expect(schema.required).not.toContain('seq');
    expect(schema.properties.opportunity.description).toMatch(/Opportunity Attacks/);
    const combatantSchema = schema.properties.combatants.items!;
    expect(combatantSchema.additionalProperties).toBe(false);
    expect(combatantSchema.required).toEqual(
      expect.arrayContaining([
        'state',
        'vitality',
        'ad',
        'md',
        'proactiveUsesLeft',
        'conditions',
        'lingeringHarm',
        'position',
        'weapons',
      ]),
    );
    expect(combatantSchema.properties.state.description).toMatch(/Collapsed/);
  });
});
