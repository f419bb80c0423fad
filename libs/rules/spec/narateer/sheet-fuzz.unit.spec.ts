import fc from 'fast-check';
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { DiceSource } from '../../src/dice/roll';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { SeededDice } from '../../src/dice/seeded';
import { CONDITIONS, HARM_CATALOGUE, LINGERING_HARM_DEFAULTS } from '../../src/narateer/data';
import { isObjectBuiltin, NARATEER_VIEW, NarateerState, validateSheet } from '../../src/narateer';
import { TEST_COMMITMENT, TEST_SEED } from '../given';
import { service } from './table';

/**
 * Whatever a client sends, the decider answers with events or a RuleViolation, from any valid sheet: random sheets
 * across the whole sheet contract (every optional field present or absent, every enum value, numbers at their bounds
 * and between, empty and full lists, odd combinations the contract allows) join fights of 2 to 5 combatants, and
 * random commands (the fight's own ids and plausible values, mixed with boundary ones) walk each fight with seeded
 * dice or manual faces. After every command: its events are declared, stored as JSON and folded by evolve, and the
 * view parses strictly against NARATEER_VIEW and matches a view of a copy of the state. FUZZ_RUNS and FUZZ_SEED
 * explore further than the default run.
 */

type Json = Record<string, unknown>;

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const FIGHT_ID = 'sheet-fuzz';
/** The seed the fight commits to (EndFight reveals it). */
const SEEDED = TEST_SEED;
const EVENT_SCHEMAS = eventSchemasOf(service.contract);
/** A bound on a hang that grows with FUZZ_RUNS (the default run takes a few seconds). */
const LONG = Math.max(120_000, RUNS * 200);

/** An integer in [min, max], often at a bound or just above the minimum. */
const int = (min: number, max: number) =>
  fc.oneof(
    fc.constantFrom(min, max),
    fc.integer({ min, max: Math.min(max, min + 3) }),
    fc.integer({ min, max }),
  );

const HARMS = Object.entries(HARM_CATALOGUE).flatMap(([domain, types]) =>
  types.map((type) => ({ domain, type })),
);
/** A Harm as the contract takes it: "Domain (Type)" (spaced or not) or { domain, type }. */
const harm = fc.oneof(
  fc.constantFrom(...HARMS).map((h) => `${h.domain} (${h.type})`),
  fc.constantFrom(...HARMS).map((h) => ` ${h.domain}(${h.type})  `),
  fc.constantFrom(...HARMS).map((h) => ({ ...h })),
);

/** A weapon id: common ones, the longest and shortest, any id that is not an object built-in. */
const weaponId = fc
  .oneof(
    fc.constantFrom('sword', 'bow', 'w1', 'w2', 'x', '_', '-', 'A'.repeat(64)),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/),
  )
  .filter((id) => !isObjectBuiltin(id));

const name = fc.oneof(
  fc.constant('N'),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constant('n'.repeat(100)),
);

const WEAPON_FIELDS = {
  id: weaponId,
  name,
  weight: fc.constantFrom('light', 'heavy'),
  baseAttackCost: fc.oneof(int(1, 10), fc.integer({ min: 1, max: 2 })),
  weaponDamage: int(0, 20),
  damageVitalCap: int(0, 20),
  needsLoading: fc.boolean(),
  loaded: fc.boolean(),
  ammunition: fc.oneof(fc.constant(null), int(0, 1000)),
  harm,
};
const REQUIRED = ['id', 'name', 'baseAttackCost', 'weaponDamage', 'damageVitalCap', 'harm'] as const;

const melee = fc.record(
  { ...WEAPON_FIELDS, kind: fc.constant('melee'), reach: int(1, 10) },
  { requiredKeys: [...REQUIRED] },
);
const ranged = fc.record(
  {
    ...WEAPON_FIELDS,
    kind: fc.constant('ranged'),
    ranges: fc.tuple(int(1, 1000), int(1, 1000)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]),
  },
  { requiredKeys: [...REQUIRED, 'kind', 'ranges'] },
);

/** A weapon the sheet contract accepts, of either kind, with or without its Damage Vitals. */
const weapon = fc
  .tuple(
    fc.oneof(melee, ranged),
    fc.option(fc.array(fc.constantFrom('strength', 'agility'), { minLength: 1, maxLength: 3 })),
  )
  .map(([raw, vitals]) => {
    const { ranges, ...w } = raw as Json & { ranges?: number[] };
    if (ranges) Object.assign(w, { effectiveRange: ranges[0], maximumRange: ranges[1] });
    // A heavy melee weapon deals damage with Strength alone (narateer.txt: Core Combat Attributes).
    if (vitals)
      w.damageVitals = w.kind !== 'ranged' && w.weight === 'heavy' ? vitals.map(() => 'strength') : vitals;
    // N53: a weapon that needs Loading, loaded, counts its shot.
    if (w.needsLoading === true && w.loaded !== false && w.ammunition === 0) w.loaded = false;
    // N64: Loading and ammunition are a ranged weapon's.
    if (w.kind !== 'ranged') {
      if (w.needsLoading === true) w.needsLoading = false;
      if (typeof w.ammunition === 'number') w.ammunition = null;
    }
    return w;
  });

const weapons = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Json[]>([]) },
  { weight: 8, arbitrary: fc.uniqueArray(weapon, { selector: (w) => w.id, minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.uniqueArray(weapon, { selector: (w) => w.id, minLength: 20, maxLength: 20 }) },
);

/** A sheet the contract accepts: every optional field present or absent, numbers at their bounds and between. */
export const sheetArb: fc.Arbitrary<Json> = fc
  .record(
    {
      vitals: fc.record({ strength: int(0, 20), agility: int(0, 20), resilience: int(0, 20) }),
      skills: fc.record(
        { melee: int(0, 10), ranged: int(0, 10), acrobatics: int(0, 10) },
        { requiredKeys: [] },
      ),
      maxVitality: int(1, 100),
      maxAD: fc.oneof(int(0, 30), fc.integer({ min: 3, max: 8 })),
      maxMD: int(0, 30),
      weapons: fc.option(weapons, { freq: 5, nil: undefined }),
      armour: fc.record({ soak: int(0, 20) }, { requiredKeys: [] }),
      woundPreference: fc.constantFrom('AD_FIRST', 'MD_FIRST', 'ASK'),
    },
    { requiredKeys: ['vitals', 'skills', 'maxVitality', 'maxAD', 'weapons'] },
  )
  .map(({ weapons: list, ...s }): Json & typeof s => (list === undefined ? s : { ...s, weapons: list }))
  .map((s) => (s.maxAD + (s.maxMD ?? 0) === 0 ? { ...s, maxMD: 1 } : s))
  .chain((s) => {
    const ids = ((s.weapons ?? []) as Json[]).map((w) => w.id as string);
    const policy = fc.record(
      {
        response: fc.constantFrom('none', 'fullGuard', 'clash'),
        boost: int(0, 10),
        weaponId: ids.length > 0 ? fc.constantFrom(...ids) : fc.constant(undefined),
        fallback: fc.constantFrom('fullGuard', 'none'),
      },
      { requiredKeys: ['response'] },
    );
    return fc.option(policy).map((p): Json => {
      if (p === null) return s;
      const responsePolicy = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
      return { ...s, responsePolicy };
    });
  });

interface Fight {
  mode: 'seeded' | 'manual';
  combatants: { id: string; name: string; side?: string; sheet: Json }[];
  opening: 'none' | 'roll' | 'set' | 'round' | 'activation';
  /** Spaces the GM places the combatants on before the first round, in join order; none: off the map. */
  places: { x: number; y: number }[];
}

/** Combatant ids, a name every object has among them (`__proto__` is refused as an id: see the lifecycle's specs). */
const COMBATANT_IDS = ['a', 'b', 'c', 'd', 'e', 'm-1', 'Z_9', 'k'.repeat(64), 'constructor'];

const fightArb: fc.Arbitrary<Fight> = fc.record({
  mode: fc.constantFrom('seeded', 'manual'),
  combatants: fc.uniqueArray(fc.constantFrom(...COMBATANT_IDS), { minLength: 2, maxLength: 5 }).chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record(
          {
            id: fc.constant(id),
            name,
            side: fc.constantFrom('red', 'blue', 'x', `own-${id.slice(0, 8)}`),
            sheet: sheetArb,
          },
          { requiredKeys: ['id', 'name', 'sheet'] },
        ),
      ),
    ),
  ),
  opening: fc.constantFrom('none', 'roll', 'set', 'round', 'activation', 'activation', 'activation'),
  places: fc.oneof(
    fc.constant<{ x: number; y: number }[]>([]),
    fc.array(fc.record({ x: fc.integer({ min: -2, max: 2 }), y: fc.integer({ min: -2, max: 2 }) }), {
      minLength: 5,
      maxLength: 5,
    }),
  ),
});

/**
 * Placeholders resolved against the state when the command is sent: the running activation's combatant, who the
 * pending decision awaits, the exchange's target, another combatant, a path from the combatant's Space.
 */
const ACTIVE = '@active';
const AWAITING = '@awaiting';
const TARGET = '@target';
const OTHER = '@other';
/** The next lifecycle step the fight waits for: initiative, a round, an activation, or the running activation's end. */
const ADVANCE = '@advance';
/** An exchange the running activation's combatant declares, once the fight has come to an activation. */
const OPEN = '@open';
/** One of the acting combatant's weapons, of the exchange's kind when it has one. */
const WEAPON = ['@weapon0', '@weapon1', '@weapon2'];
/** The most Boost the acting combatant's Skill and Ready AD allow with its weapon (0 when none). */
const BOOST = '@boost';

function commandArb(f: Fight): fc.Arbitrary<Json> {
  const fighters = f.combatants.map((c) => c.id);
  const weaponIds = [
    ...new Set(f.combatants.flatMap((c) => ((c.sheet.weapons ?? []) as Json[]).map((w) => w.id as string))),
  ];
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...fighters) },
    { weight: 6, arbitrary: fc.constantFrom(ACTIVE, AWAITING, TARGET, OTHER) },
    { weight: 1, arbitrary: fc.constantFrom('nobody', 'toString', '') },
  );
  const wid = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...WEAPON) },
    { weight: 4, arbitrary: weaponIds.length > 0 ? fc.constantFrom(...weaponIds) : fc.constant('none') },
    { weight: 1, arbitrary: fc.constantFrom('nothing', 'constructor', 'sword') },
  );
  const boost = fc.oneof({ weight: 6, arbitrary: int(0, 3) }, { weight: 1, arbitrary: int(0, 30) });
  const vital = fc.constantFrom('strength', 'agility', 'resilience');
  const edge = fc.constantFrom('advantage', 'disadvantage');
  const modifier = int(-20, 20);
  const allocation = fc.array(fc.constantFrom('AD', 'MD'), { maxLength: 10 });
  const response = fc.constantFrom('none', 'fullGuard', 'clash');
  const responseFields = {
    response,
    boost,
    weaponId: wid,
    damageVital: vital,
    harm,
    strikeModifier: modifier,
    protectionModifier: modifier,
    allocation,
  };
  const advanceResponse = fc.oneof(response, fc.record(responseFields, { requiredKeys: ['response'] }));
  const attackFields = {
    weaponId: wid,
    boost,
    damageVital: vital,
    edge,
    responderEdge: edge,
    distance: fc.oneof(int(0, 3), int(0, 1000)),
    attackerUnseen: fc.boolean(),
    attackerCannotSeeTarget: fc.boolean(),
    targetCannotSeeAttacker: fc.boolean(),
    targetUnaware: fc.boolean(),
    harm,
    strikeModifier: modifier,
    protectionModifier: modifier,
    response: advanceResponse,
    allocation,
  };
  const space = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ x: fc.integer({ min: -3, max: 3 }), y: fc.integer({ min: -3, max: 3 }) }),
    },
    { weight: 1, arbitrary: fc.record({ x: int(-10000, 10000), y: int(-10000, 10000) }) },
  );
  const step = fc.record({ dx: fc.integer({ min: -1, max: 1 }), dy: fc.integer({ min: -1, max: 1 }) });
  const path = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.array(step, { minLength: 1, maxLength: 5 }).map((steps) => ({ '@path': steps })),
    },
    { weight: 1, arbitrary: fc.array(space, { minLength: 1, maxLength: 4 }) },
  );
  const form = fc.constantFrom(
    ...Object.keys(LINGERING_HARM_DEFAULTS),
    'bleeding',
    'BURNING',
    'Cursed',
    'Hex',
  );
  const cmd = (type: string, fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []) =>
    fc.record(fields, { requiredKeys: required }).map((c): Json => ({ type, ...c }));
  const weighted = (weight: number, arbitrary: fc.Arbitrary<Json>) => ({ weight, arbitrary });

  return fc.oneof(
    weighted(5, fc.constant({ type: ADVANCE })),
    weighted(6, cmd('StartRound', {})),
    weighted(6, cmd('StartActivation', { combatantId: id })),
    weighted(6, cmd('EndActivation', {})),
    weighted(1, cmd('EndRound', {})),
    weighted(1, cmd('RollInitiative', { tieBreak: fc.shuffledSubarray(fighters) })),
    weighted(2, cmd('SetInitiative', { order: fc.shuffledSubarray(fighters, { minLength: 1 }) }, ['order'])),
    weighted(
      1,
      cmd(
        'AddCombatant',
        {
          combatant: fc.record(
            {
              id: fc.constantFrom(...COMBATANT_IDS, 'late'),
              name,
              side: fc.constantFrom('red', 'blue'),
              sheet: sheetArb,
            },
            { requiredKeys: ['name', 'sheet'] },
          ),
          tieBreak: fc.shuffledSubarray(fighters),
        },
        ['combatant'],
      ),
    ),
    weighted(1, cmd('RemoveCombatant', { combatantId: id, reason: name }, ['combatantId'])),
    weighted(2, cmd('CancelPending', { reason: name })),
    weighted(
      1,
      fc.oneof(
        { weight: 3, arbitrary: cmd('AddNote', { text: name, combatantId: id }, ['text']) },
        {
          weight: 1,
          arbitrary: cmd('EndFight', {
            winnerSide: fc.constantFrom('red', 'blue'),
            unfinished: fc.boolean(),
          }),
        },
      ),
    ),
    weighted(3, cmd('ProvideDice', {})),
    weighted(
      20,
      cmd(
        'DeclareExchange',
        {
          attackerId: fc.oneof(fc.constant(ACTIVE), id),
          targetId: fc.oneof(fc.constant(OTHER), id),
          kind: fc.constantFrom('melee', 'ranged'),
          ...attackFields,
        },
        ['attackerId', 'targetId', 'kind', 'weaponId'],
      ),
    ),
    weighted(
      20,
      cmd(
        OPEN,
        {
          attackerId: fc.constant(ACTIVE),
          targetId: fc.oneof(
            { weight: 3, arbitrary: fc.constant(OTHER) },
            { weight: 1, arbitrary: fc.constantFrom(...fighters) },
          ),
          kind: fc.constantFrom('melee', 'ranged'),
          weaponId: fc.constantFrom(...WEAPON),
          boost: fc.constantFrom(0, BOOST),
          response: fc.oneof(
            response,
            fc.record({ response, boost: fc.constantFrom(0, BOOST), weaponId: fc.constantFrom(...WEAPON) }),
          ),
          edge,
          targetUnaware: fc.boolean(),
        },
        ['attackerId', 'targetId', 'kind', 'weaponId', 'boost'],
      ),
    ),
    weighted(
      8,
      cmd(
        'RespondToExchange',
        {
          combatantId: fc.constant(AWAITING),
          response,
          boost: fc.constantFrom(0, BOOST),
          weaponId: fc.constantFrom(...WEAPON),
        },
        ['combatantId', 'response', 'boost'],
      ),
    ),
    weighted(
      8,
      cmd('RespondToExchange', { combatantId: fc.oneof(fc.constant(AWAITING), id), ...responseFields }, [
        'combatantId',
        'response',
      ]),
    ),
    weighted(
      5,
      cmd('AllocateWounds', { combatantId: fc.oneof(fc.constant(AWAITING), id), allocation }, [
        'combatantId',
        'allocation',
      ]),
    ),
    weighted(
      3,
      fc
        .tuple(
          cmd('ApplyWounds', { combatantId: id, harm, effect: name, allocation }, ['combatantId', 'harm']),
          fc.oneof(
            fc.record({ wounds: fc.oneof(int(0, 4), int(0, 100)) }),
            fc.record({ woundMargin: fc.oneof(int(-2, 9), int(-100, 100)) }),
          ),
        )
        .map(([c, amount]) => ({ ...c, ...amount })),
    ),
    weighted(
      2,
      cmd('ReloadWeapon', { combatantId: fc.oneof(fc.constant(ACTIVE), id), weaponId: wid }, [
        'combatantId',
        'weaponId',
      ]),
    ),
    weighted(
      2,
      cmd(
        'SpendDice',
        {
          combatantId: fc.oneof(fc.constant(ACTIVE), id),
          ad: fc.oneof(int(0, 2), int(0, 30)),
          md: fc.oneof(int(0, 2), int(0, 30)),
          proactiveUse: fc.constantFrom('melee', 'ranged'),
          reason: name,
        },
        ['combatantId'],
      ),
    ),
    weighted(
      3,
      cmd(
        'ApplyLingeringHarm',
        {
          combatantId: id,
          form,
          harm,
          wounds: fc.oneof(int(0, 2), int(0, 20)),
          source: fc.constantFrom('knife', 'hex'),
          tick: fc.constantFrom('roundEnd', 'roundStart', 'activationStart', 'activationEnd'),
          rounds: fc.oneof(int(1, 3), int(1, 1000)),
          endsAfterTicks: fc.oneof(int(1, 3), int(1, 1000)),
          endsWhen: name,
          allocation,
        },
        ['combatantId', 'form'],
      ),
    ),
    weighted(
      1,
      cmd(
        'TreatLingeringHarm',
        { combatantId: id, lingeringHarmId: fc.constantFrom('lh1', 'lh2', 'lh3', 'lh9'), reason: name },
        ['combatantId', 'lingeringHarmId'],
      ),
    ),
    weighted(
      3,
      cmd(
        'ApplyCondition',
        {
          combatantId: id,
          condition: fc.constantFrom(...Object.keys(CONDITIONS)),
          intensity: int(1, 10),
          rounds: fc.oneof(int(1, 3), int(1, 1000)),
        },
        ['combatantId', 'condition'],
      ),
    ),
    weighted(
      1,
      cmd('RemoveCondition', { combatantId: id, condition: fc.constantFrom(...Object.keys(CONDITIONS)) }, [
        'combatantId',
        'condition',
      ]),
    ),
    weighted(
      4,
      cmd('SetPosition', { combatantId: id, position: fc.oneof(space, fc.constant(null)) }, [
        'combatantId',
        'position',
      ]),
    ),
    weighted(
      4,
      cmd(
        'Move',
        {
          combatantId: fc.oneof(fc.constant(ACTIVE), id),
          path,
          noReactions: fc.boolean(),
          forced: fc.boolean(),
        },
        ['combatantId', 'path'],
      ),
    ),
    weighted(
      4,
      cmd('TakeOpportunityAttack', { combatantId: fc.oneof(fc.constant(AWAITING), id), ...attackFields }, [
        'combatantId',
        'weaponId',
      ]),
    ),
    weighted(
      2,
      cmd('DeclineOpportunity', { combatantId: fc.oneof(fc.constant(AWAITING), id) }, ['combatantId']),
    ),
  );
}

/** Seeded dice, or manual faces: mostly d6 faces, sometimes out of range. */
const diceArb: fc.Arbitrary<'seeded' | ManualFaces> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<'seeded'>('seeded') },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        dice: fc.array(
          fc.oneof(
            { weight: 12, arbitrary: fc.integer({ min: 1, max: 6 }) },
            { weight: 1, arbitrary: fc.constantFrom(0, 7) },
          ),
          {
            maxLength: 14,
          },
        ),
        rerollFaces: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 4 }),
        followUpFaces: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }),
      },
      { requiredKeys: [] },
    ),
  },
);

const walkArb = fightArb.chain((f) =>
  fc.record({
    fight: fc.constant(f),
    steps: fc.array(fc.tuple(commandArb(f), diceArb), { minLength: 1, maxLength: 40, size: 'max' }),
  }),
);

/** The command with its placeholders resolved against the state (unresolved ones name the first combatant). */
function resolve(state: NarateerState, command: Json): RuleCommand {
  if (command.type === ADVANCE) return advance(state);
  if (command.type === OPEN) {
    if (state.status !== 'ended' && state.activeId === undefined) return advance(state);
    return resolve(state, { ...command, type: 'DeclareExchange' });
  }
  const first = state.joined[0] ?? 'a';
  const who: Record<string, string | undefined> = {
    [ACTIVE]: state.activeId,
    [AWAITING]: state.pending?.awaiting,
    [TARGET]: state.exchange?.targetId,
    [OTHER]: state.joined.find((j) => j !== state.activeId),
  };
  const fill = (fields: Json, actor: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(fields)) {
      if (v === BOOST) out[k] = v;
      else if (typeof v === 'string' && WEAPON.includes(v))
        out[k] = weaponOf(state, actor, WEAPON.indexOf(v));
      else if (typeof v === 'string' && v.startsWith('@')) out[k] = who[v] ?? first;
      else if (v !== null && typeof v === 'object' && '@path' in v) {
        const mover = String(out.combatantId);
        let { x, y } = (Object.hasOwn(state.combatants, mover) && state.combatants[mover].position) || {
          x: 0,
          y: 0,
        };
        out[k] = (v['@path'] as { dx: number; dy: number }[]).map(({ dx, dy }) => ({
          x: (x += dx),
          y: (y += dy),
        }));
      } else if (k === 'response' && v !== null && typeof v === 'object')
        // A response given up front is the target's (or the mover's).
        out[k] = fill(v as Json, { combatantId: out.targetId ?? state.opportunity?.moverId, kind: out.kind });
      else out[k] = v;
    }
    return out;
  };
  const resolved = fill(command, {});
  // The acting combatant's weapon and Boost, once its id is known.
  for (const [k, v] of Object.entries(command))
    if (typeof v === 'string' && WEAPON.includes(v))
      resolved[k] = weaponOf(state, resolved, WEAPON.indexOf(v));
  if (resolved.boost === BOOST) resolved.boost = boostOf(state, resolved);
  const answer = resolved.response as Json | undefined;
  if (answer?.boost === BOOST)
    answer.boost = boostOf(state, { ...answer, combatantId: resolved.targetId, kind: resolved.kind });
  if (resolved.type === 'EndFight') resolved.revealedSeed = SEEDED;
  return resolved as RuleCommand;
}

function advance(state: NarateerState): RuleCommand {
  if (state.pending?.kind === 'initiativeTie') return { type: 'SetInitiative', order: state.order };
  if (state.order.length === 0) return { type: 'SetInitiative', order: state.joined };
  if (!state.roundOpen) return { type: 'StartRound' };
  if (state.activeId === undefined) return { type: 'StartActivation' };
  return { type: 'EndActivation' };
}

/** The acting combatant's `n`th weapon (of the exchange's kind when it has one), or an id no sheet has. */
function weaponOf(state: NarateerState, command: Json, n: number): string {
  const id = String(command.attackerId ?? command.combatantId);
  const all = Object.hasOwn(state.combatants, id) ? state.combatants[id].sheet.weapons : [];
  const kind = command.kind ?? (state.opportunity ? 'melee' : state.exchange?.kind);
  const fit = all.filter((w) => w.kind === kind);
  const list = fit.length > 0 ? fit : all;
  return list.length > 0 ? list[n % list.length].id : 'unarmed';
}

function boostOf(state: NarateerState, command: Json): number {
  const id = String(command.attackerId ?? command.combatantId);
  if (!Object.hasOwn(state.combatants, id)) return 0;
  const c = state.combatants[id];
  const w = c.sheet.weapons.find((x) => x.id === command.weaponId);
  const kind = command.kind ?? state.exchange?.kind;
  const skill = c.sheet.skills[kind === 'ranged' ? 'ranged' : 'melee'];
  return Math.max(0, Math.min(skill, c.ad.ready - (w?.baseAttackCost ?? 1)));
}

class Walk {
  state: NarateerState = service.start(FIGHT_ID);
  private draws = 0;
  accepted = 0;
  readonly trail: string[] = [];

  /** Decides `command` with `faces` (seeded dice or manual faces) and checks what it gives. */
  run(command: RuleCommand, faces: 'seeded' | ManualFaces): void {
    const sent = faces === 'seeded' ? command : { ...command, ...faces };
    const dice: DiceSource =
      faces === 'seeded'
        ? new SeededDice({ seed: SEEDED, fightId: FIGHT_ID, drawsUsed: this.draws })
        : new ManualDice(faces);
    this.trail.push(JSON.stringify(sent));
    let events: RuleEvent[];
    try {
      events = service.decide(this.state, structuredClone(sent), dice);
    } catch (e) {
      if (e instanceof RuleViolation) {
        if (!/^[A-Z][A-Z0-9_]*$/.test(e.code)) this.fail(`a refusal without a code: ${e.code}`, e);
        return;
      }
      this.fail(`threw ${String((e as Error)?.stack ?? e)}`, e);
    }
    if (dice instanceof SeededDice) this.draws = dice.drawsUsed;
    for (const event of events) {
      if (!Object.hasOwn(EVENT_SCHEMAS, event.type)) this.fail(`emitted the undeclared event ${event.type}`);
      const declared = EVENT_SCHEMAS[event.type].safeParse(event.data);
      if (!declared.success)
        this.fail(
          `emitted ${event.type} ${JSON.stringify(event.data)} against its declaration: ${declared.error.message}`,
        );
      const stored = JSON.parse(JSON.stringify(event)) as RuleEvent;
      try {
        this.state = service.evolve(this.state, stored);
      } catch (e) {
        this.fail(
          `emitted ${JSON.stringify(stored)}, which evolve cannot fold: ${String((e as Error)?.stack ?? e)}`,
          e,
        );
      }
    }
    let shown: object;
    try {
      shown = service.view(this.state);
    } catch (e) {
      this.fail(`left a state view cannot show: ${String((e as Error)?.stack ?? e)}`, e);
    }
    const sentView = { ...shown, seq: 1, headHash: '0'.repeat(64) };
    const parsed = NARATEER_VIEW.safeParse(sentView);
    if (!parsed.success) this.fail(`left a view that breaks NARATEER_VIEW: ${parsed.error.message}`);
    // A view keeps each unchanged combatant's entry (view.ts): it answers what a view of the same state in new
    // objects answers, so no decide or evolve changed a combatant in place.
    if (JSON.stringify(shown) !== JSON.stringify(service.view(structuredClone(this.state))))
      this.fail('changed a combatant in place: its kept view entry differs from a fresh one');
    if (events.length > 0) this.accepted++;
  }

  private fail(what: string, cause?: unknown): never {
    throw new Error(
      `after\n  ${this.trail.slice(0, -1).join('\n  ')}\nthe command\n  ${this.trail.at(-1)}\n${what}`,
      {
        cause,
      },
    );
  }
}

function opening(f: Fight): RuleCommand[] {
  const start: RuleCommand = {
    type: 'StartFight',
    name: 'Fuzz',
    dice: { mode: f.mode, commitment: TEST_COMMITMENT },
    combatants: f.combatants,
  };
  const placed = f.places
    .slice(0, f.combatants.length)
    .map((position, i) => ({ type: 'SetPosition', combatantId: f.combatants[i].id, position }));
  const order = { type: 'SetInitiative', order: f.combatants.map((c) => c.id) };
  switch (f.opening) {
    case 'none':
      return [start, ...placed];
    case 'roll':
      return [start, ...placed, { type: 'RollInitiative' }];
    case 'set':
      return [start, ...placed, order];
    case 'round':
      return [start, ...placed, order, { type: 'StartRound' }];
    case 'activation':
      return [start, ...placed, order, { type: 'StartRound' }, { type: 'StartActivation' }];
  }
}

describe('Narateer: random valid sheets never crash the decider', () => {
  it('the generator makes only sheets the contract accepts', () => {
    fc.assert(
      fc.property(sheetArb, (s) => {
        validateSheet(s, 'sheet');
      }),
      { numRuns: Math.max(200, RUNS), seed: SEED },
    );
  });

  it(
    'every command from fights of random sheets gives declared events evolve folds into a view NARATEER_VIEW accepts, or a RuleViolation with a code',
    () => {
      let accepted = 0;
      fc.assert(
        fc.property(walkArb, ({ fight, steps }) => {
          const walk = new Walk();
          for (const command of opening(fight)) walk.run(command, 'seeded');
          expect(walk.state.joined).toHaveLength(fight.combatants.length);
          for (const [command, faces] of steps) walk.run(resolve(walk.state, command), faces);
          accepted += walk.accepted;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // The walks reach past validation: many random commands are legal and change the fight.
      expect(accepted).toBeGreaterThan(RUNS * 3);
    },
    LONG,
  );
});
