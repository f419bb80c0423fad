import fc from 'fast-check';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { DiceSource } from '../../src/dice/roll';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { SeededDice } from '../../src/dice/seeded';
import { ATTACK_SKILL, CONDITIONS, ConditionEffect, FULL_GUARD_SKILL } from '../../src/narateer/data';
import { narateer, NarateerState, NarateerView, Weapon } from '../../src/narateer';
import { TEST_COMMITMENT, TEST_SEED } from '../given';
import {
  at,
  crossbow,
  duel,
  exact,
  fight,
  find,
  melee,
  mira,
  orin,
  ranged,
  refusal,
  respond,
  sheet,
  stateOf,
  step,
  sword,
  take,
  then,
  types,
} from './helpers';
import { service } from './table';

/**
 * What the view promises is what the engine accepts. Clients build their buttons from the view (who acts, which
 * weapons are ready, uses and dice left, the pending decision and the command that answers it, who may react), so
 * random fights of random valid sheets are walked with random commands (seeded dice and manual faces), and after
 * every command that changed the fight the engine is probed, on the same state, with the commands the view
 * promises and with those it forbids: the first must be accepted, the second refused with the matching code. The
 * decider is pure: probes decide on the current state and their events are discarded, so the walk is unchanged.
 * A client knows the sheets it sent (their responsePolicy) and the rules' data (what a condition does); everything
 * else a probe predicts comes from the view alone, weapon cost, reach and range and Skill Levels included. FUZZ_RUNS
 * and FUZZ_SEED explore further than the default run; FUZZ_REPORT=1 prints how often each probe was accepted or
 * refused, by code.
 */

type Json = Record<string, unknown>;
type View = NarateerView;
type Shown = View['combatants'][number];
type Kind = 'melee' | 'ranged';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20270315);
const FIGHT_ID = 'view-promises';
/** A bound on a hang that grows with FUZZ_RUNS (the default run takes a few seconds). */
const LONG = Math.max(60_000, RUNS * 400);

// ---------------------------------------------------------------------------------------------------------------
// Random fights: small sheets, so that exchanges, responses, wounds, reloads and Opportunity Attacks happen often.

/** The object without its undefined fields (an optional field left out). */
const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** `arb` one time in `n`, otherwise left out. */
const oneIn = <T>(n: number, arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const HARMS = ['Physical (Slashing)', 'Physical (Piercing)', 'Elemental (Fire)'];
const cost = fc.oneof(
  { weight: 4, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.integer({ min: 2, max: 4 }) },
);

const meleeArb = fc.record(
  {
    kind: fc.constant('melee'),
    name: fc.constant('Blade'),
    weight: fc.constantFrom('light', 'heavy'),
    baseAttackCost: cost,
    weaponDamage: fc.integer({ min: 0, max: 4 }),
    damageVitalCap: fc.integer({ min: 0, max: 4 }),
    reach: fc.integer({ min: 1, max: 2 }),
    loaded: fc.boolean(),
    harm: fc.constantFrom(...HARMS),
  },
  { requiredKeys: ['kind', 'name', 'baseAttackCost', 'weaponDamage', 'damageVitalCap', 'harm'] },
);

const rangedArb = fc
  .record(
    {
      kind: fc.constant('ranged'),
      name: fc.constant('Shooter'),
      weight: fc.constantFrom('light', 'heavy'),
      baseAttackCost: cost,
      weaponDamage: fc.integer({ min: 0, max: 4 }),
      damageVitalCap: fc.integer({ min: 0, max: 4 }),
      ranges: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 })),
      needsLoading: fc.boolean(),
      loaded: fc.boolean(),
      ammunition: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 })),
      harm: fc.constantFrom(...HARMS),
    },
    { requiredKeys: ['kind', 'name', 'baseAttackCost', 'weaponDamage', 'damageVitalCap', 'ranges', 'harm'] },
  )
  .map(({ ranges, ...w }): Json => {
    const out: Json = { ...w, effectiveRange: ranges[0], maximumRange: ranges[0] + ranges[1] };
    // N53: a weapon that needs Loading, loaded, counts its shot.
    if (out.needsLoading === true && out.loaded !== false && out.ammunition === 0) out.loaded = false;
    return out;
  });

const weaponsArb = fc
  .array(fc.oneof(meleeArb, rangedArb), { maxLength: 3 })
  .map((list) => list.map((w, i): Json => ({ ...w, id: `${String(w.kind)}${i + 1}` })));

const sheetArb: fc.Arbitrary<Json> = fc
  .record(
    {
      vitals: fc.record({
        strength: fc.integer({ min: 0, max: 4 }),
        agility: fc.integer({ min: 0, max: 4 }),
        resilience: fc.integer({ min: 0, max: 3 }),
      }),
      skills: fc.record(
        {
          melee: fc.integer({ min: 0, max: 3 }),
          ranged: fc.integer({ min: 0, max: 3 }),
          acrobatics: fc.integer({ min: 0, max: 3 }),
        },
        { requiredKeys: [] },
      ),
      maxVitality: fc.integer({ min: 1, max: 10 }),
      maxAD: fc.integer({ min: 0, max: 7 }),
      maxMD: fc.integer({ min: 0, max: 3 }),
      weapons: weaponsArb,
      armour: fc.record({ soak: fc.integer({ min: 0, max: 2 }) }),
      woundPreference: fc.constantFrom('AD_FIRST', 'MD_FIRST', 'ASK', 'ASK'),
      responsePolicy: oneIn(
        5,
        fc.record(
          {
            response: fc.constantFrom('none', 'fullGuard', 'clash'),
            boost: fc.integer({ min: 0, max: 2 }),
            fallback: fc.constantFrom('fullGuard', 'none'),
          },
          { requiredKeys: ['response'] },
        ),
      ),
    },
    { requiredKeys: ['vitals', 'skills', 'maxVitality', 'maxAD', 'weapons'] },
  )
  .map((s) => defined(s.maxAD + (s.maxMD ?? 0) === 0 ? { ...s, maxMD: 1 } : s));

interface Fight {
  mode: 'seeded' | 'manual';
  combatants: { id: string; name: string; side: string; sheet: Json }[];
  /** Each combatant's Space before the first round, in join order; null: off the map. */
  places: ({ x: number; y: number } | null)[];
}

const spaceArb = fc.record({ x: fc.integer({ min: -1, max: 2 }), y: fc.integer({ min: -1, max: 2 }) });

const fightArb: fc.Arbitrary<Fight> = fc.record({
  mode: fc.constantFrom('seeded', 'manual'),
  combatants: fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 2, maxLength: 4 })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.record({
            id: fc.constant(id),
            name: fc.constant(id.toUpperCase()),
            side: fc.constantFrom('red', 'blue', 'green'),
            sheet: sheetArb,
          }),
        ),
      ),
    ),
  places: fc.array(fc.option(spaceArb, { freq: 4, nil: null }), { minLength: 4, maxLength: 4 }),
});

/** Placeholders resolved against the state when the command is sent. */
const ACTIVE = '@active';
const AWAITING = '@awaiting';
const OTHER = ['@other0', '@other1', '@other2'];
const WEAPON = ['@weapon0', '@weapon1', '@weapon2'];
const BOOST = '@boost';
/** The kind of the weapon the command names. */
const KIND = '@kind';
/** The next lifecycle step the fight waits for (initiative, a round, an activation, the activation's end). */
const ADVANCE = '@advance';
/** An exchange the running activation's combatant declares, once the fight has come to an activation. */
const OPEN = '@open';
/** A legal allocation of the pending Wounds, preferring AD or MD. */
const LEGAL = ['@legalAD', '@legalMD'];

function commandArb(f: Fight): fc.Arbitrary<Json> {
  const ids = f.combatants.map((c) => c.id);
  const anyone = fc.oneof(fc.constantFrom(...ids), fc.constantFrom(ACTIVE, AWAITING, ...OTHER));
  const kind = fc.constantFrom('melee', 'ranged');
  const response = fc.constantFrom('none', 'fullGuard', 'clash');
  const weapon = fc.constantFrom(...WEAPON);
  const boost = fc.constantFrom(0, 0, 1, BOOST);
  const cmd = (type: string, fields: Record<string, fc.Arbitrary<unknown>>, required: string[]) =>
    fc.record(fields, { requiredKeys: required }).map((c): Json => defined({ type, ...c }));
  const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
  const step = fc.record({ dx: fc.integer({ min: -1, max: 1 }), dy: fc.integer({ min: -1, max: 1 }) });
  return fc.oneof(
    w(8, fc.constant({ type: ADVANCE })),
    w(3, cmd('EndActivation', {}, [])),
    w(2, cmd('StartActivation', { combatantId: anyone }, [])),
    w(1, cmd('EndRound', {}, [])),
    w(1, cmd('SetInitiative', { order: fc.shuffledSubarray(ids, { minLength: ids.length }) }, ['order'])),
    w(
      16,
      cmd(
        OPEN,
        {
          attackerId: fc.constant(ACTIVE),
          targetId: fc.constantFrom(...OTHER),
          kind: fc.oneof({ weight: 4, arbitrary: fc.constant(KIND) }, { weight: 1, arbitrary: kind }),
          weaponId: weapon,
          boost,
          response: oneIn(4, fc.oneof(response, fc.record({ response, boost, weaponId: weapon }))),
          targetUnaware: oneIn(8, fc.constant(true)),
          distance: fc.integer({ min: 0, max: 4 }),
        },
        ['attackerId', 'targetId', 'kind', 'weaponId', 'boost', 'response', 'targetUnaware'],
      ),
    ),
    w(
      10,
      cmd('RespondToExchange', { combatantId: fc.constant(AWAITING), response, boost, weaponId: weapon }, [
        'combatantId',
        'response',
        'boost',
      ]),
    ),
    w(
      5,
      cmd('AllocateWounds', { combatantId: fc.constant(AWAITING), allocation: fc.constantFrom(...LEGAL) }, [
        'combatantId',
        'allocation',
      ]),
    ),
    w(
      5,
      cmd('TakeOpportunityAttack', { combatantId: fc.constant(AWAITING), weaponId: weapon, boost }, [
        'combatantId',
        'weaponId',
        'boost',
      ]),
    ),
    w(2, cmd('DeclineOpportunity', { combatantId: fc.constant(AWAITING) }, ['combatantId'])),
    w(
      6,
      cmd(
        'Move',
        {
          combatantId: fc.oneof(fc.constant(ACTIVE), anyone),
          path: fc.array(step, { minLength: 1, maxLength: 3 }).map((steps) => ({ '@path': steps })),
          forced: fc.boolean(),
        },
        ['combatantId', 'path'],
      ),
    ),
    w(
      3,
      cmd('ReloadWeapon', { combatantId: fc.constant(ACTIVE), weaponId: weapon }, [
        'combatantId',
        'weaponId',
      ]),
    ),
    w(
      2,
      cmd(
        'SpendDice',
        {
          combatantId: fc.oneof(fc.constant(ACTIVE), anyone),
          ad: fc.integer({ min: 0, max: 2 }),
          md: fc.integer({ min: 0, max: 1 }),
          proactiveUse: kind,
        },
        ['combatantId'],
      ),
    ),
    w(
      3,
      cmd(
        'ApplyCondition',
        {
          combatantId: anyone,
          condition: fc.constantFrom(...Object.keys(CONDITIONS)),
          rounds: fc.integer({ min: 1, max: 2 }),
        },
        ['combatantId', 'condition'],
      ),
    ),
    w(
      2,
      cmd(
        'RemoveCondition',
        { combatantId: anyone, condition: fc.constantFrom(...Object.keys(CONDITIONS)) },
        ['combatantId', 'condition'],
      ),
    ),
    w(
      2,
      cmd(
        'ApplyWounds',
        { combatantId: anyone, wounds: fc.integer({ min: 0, max: 5 }), harm: fc.constant(HARMS[2]) },
        ['combatantId', 'wounds', 'harm'],
      ),
    ),
    w(
      1,
      cmd(
        'ApplyLingeringHarm',
        {
          combatantId: anyone,
          form: fc.constantFrom('Bleeding', 'Burning'),
          wounds: fc.integer({ min: 0, max: 2 }),
          tick: fc.constantFrom('roundEnd', 'roundStart', 'activationStart', 'activationEnd'),
        },
        ['combatantId', 'form'],
      ),
    ),
    w(
      1,
      cmd('TreatLingeringHarm', { combatantId: anyone, lingeringHarmId: fc.constantFrom('lh1', 'lh2') }, [
        'combatantId',
        'lingeringHarmId',
      ]),
    ),
    w(
      2,
      cmd('SetPosition', { combatantId: anyone, position: fc.oneof(spaceArb, fc.constant(null)) }, [
        'combatantId',
        'position',
      ]),
    ),
    w(2, cmd('CancelPending', {}, [])),
    w(3, cmd('ProvideDice', {}, [])),
    w(
      1,
      fc.oneof(
        cmd('RemoveCombatant', { combatantId: anyone }, ['combatantId']),
        cmd(
          'AddCombatant',
          {
            combatant: fc.record({
              id: fc.constant('late'),
              name: fc.constant('Late'),
              side: fc.constantFrom('red', 'blue'),
              sheet: sheetArb,
            }),
          },
          ['combatant'],
        ),
        cmd('EndFight', { unfinished: fc.boolean() }, []),
      ),
    ),
  );
}

/** Seeded dice, or manual faces (a dice request when too few). */
const diceArb: fc.Arbitrary<'seeded' | ManualFaces> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<'seeded'>('seeded') },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        dice: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 8 }),
        rerollFaces: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 2 }),
        followUpFaces: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
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

// ---------------------------------------------------------------------------------------------------------------
// What a client reads: the view, the sheets it sent, and what the rules' data says a condition does.

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));

const effect = (c: Shown, flag: keyof ConditionEffect) =>
  c.conditions.some((k) => Object.hasOwn(CONDITIONS, k.condition) && CONDITIONS[k.condition].effect[flag]);

/** Able to act (N20, N26): Active and neither Unconscious nor Paralyzed. */
const able = (c: Shown) => c.state === 'Active' && !effect(c, 'incapacitated');

/** N43: able to commit dice to an action that is not physical: Active and not out cold. */
const ableOtherThanPhysically = (c: Shown) =>
  c.state === 'Active' &&
  !c.conditions.some((k) => {
    const e = Object.hasOwn(CONDITIONS, k.condition) ? CONDITIONS[k.condition].effect : undefined;
    return e?.incapacitated && !e.physicalOnly;
  });

/** narateer.txt: Applying Wounds — the dice `wounds` Wounds take, Ready before Used, `prefer` where there is a choice. */
function allocation(
  c: Shown,
  wounds: number,
  prefer: 'AD' | 'MD',
): { list: ('AD' | 'MD')[]; choice: boolean } {
  const ad = { ...c.ad };
  const md = { ...c.md };
  const list: ('AD' | 'MD')[] = [];
  let choice = false;
  for (let i = 0; i < wounds; i++) {
    const from = ad.ready + md.ready > 0 ? 'ready' : ad.used + md.used > 0 ? 'used' : undefined;
    if (!from) break;
    if (ad[from] > 0 && md[from] > 0) choice = true;
    let kind = prefer;
    if ((kind === 'AD' ? ad : md)[from] === 0) kind = kind === 'AD' ? 'MD' : 'AD';
    (kind === 'AD' ? ad : md)[from]--;
    list.push(kind);
  }
  return { list, choice };
}

/** How often each kind of probe was made, and how often accepted: the walks must reach them all. */
const reached = new Map<string, number>();
const reach = (what: string) => reached.set(what, (reached.get(what) ?? 0) + 1);

type Outcome =
  { ok: true; events: RuleEvent[] } | { ok: false; code: string; field?: string; message: string };

const CODES = {
  notReady: ['NARATEER_WEAPON_NOT_LOADED', 'NARATEER_NO_AMMUNITION'],
};

/** The probes of one state: each decides a command on it with seeded dice and compares with what the view says. */
/** The d6 faces C18's search tries for a short draw of `count`: all orders of up to two, the multisets of three. */
function facesToTry(count: number): number[][] {
  const lists = (n: number, from: number, rising: boolean): number[][] =>
    n === 0
      ? [[]]
      : [1, 2, 3, 4, 5, 6]
          .filter((f) => f >= from)
          .flatMap((f) => lists(n - 1, rising ? f : 1, rising).map((rest) => [f, ...rest]));
  if (count <= 2) return lists(count, 1, false);
  if (count === 3) return lists(3, 1, true);
  return [1, 2, 3, 4, 5, 6].map((face) => Array<number>(count).fill(face));
}

class Probe {
  readonly v: View;

  constructor(
    readonly state: NarateerState,
    readonly draws: number,
    readonly trail: readonly string[],
  ) {
    this.v = service.view(state) as View;
  }

  shown(id: string): Shown {
    return this.v.combatants.find((c) => c.id === id)!;
  }

  /** The combatant's weapons as the view shows them, in the sheet's shape (no reach or range: 0 and absent). */
  weapons(id: string): Weapon[] {
    return this.shown(id).weapons.map((w) => ({
      ...w,
      reach: w.reach ?? 0,
      effectiveRange: w.effectiveRange ?? undefined,
      maximumRange: w.maximumRange ?? undefined,
      ammunition: w.ammunition ?? undefined,
    }));
  }

  skill(id: string, name: 'melee' | 'ranged' | 'acrobatics'): number {
    return this.shown(id).skills[name];
  }

  between(a: Shown, b: Shown): number | undefined {
    return a.position && b.position ? distance(a.position, b.position) : undefined;
  }

  attempt(command: RuleCommand, faces?: ManualFaces): Outcome {
    const dice: DiceSource = faces
      ? new ManualDice(faces)
      : new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: this.draws });
    try {
      const events = service.decide(this.state, structuredClone(command), dice);
      reach(`${command.type} accepted`);
      return { ok: true, events };
    } catch (e) {
      if (e instanceof RuleViolation) {
        reach(`${command.type} ${e.code}`);
        return { ok: false, code: e.code, field: e.field, message: e.message };
      }
      this.fail('the probe crashed the decider', command, String((e as Error)?.stack ?? e));
    }
  }

  fail(promise: string, command: RuleCommand | undefined, got: string): never {
    throw new Error(
      `after\n  ${this.trail.join('\n  ')}\nthe view promises: ${promise}\n${
        command ? `probe ${JSON.stringify(command)}\n` : ''
      }got ${got}`,
    );
  }

  check(promise: string, holds: boolean): void {
    if (!holds) this.fail(promise, undefined, `a view that says otherwise: ${JSON.stringify(this.v)}`);
  }

  accepts(
    promise: string,
    command: RuleCommand,
    then?: (events: RuleEvent[]) => string | undefined,
    faces?: ManualFaces,
  ) {
    const out = this.attempt(command, faces);
    if (!out.ok) this.fail(promise, command, `${out.code} ${out.field ?? ''}: ${out.message}`);
    const wrong = then?.(out.events);
    if (wrong) this.fail(promise, command, `${wrong} in ${JSON.stringify(out.events)}`);
    return out.events;
  }

  refuses(promise: string, command: RuleCommand, codes: string[]): void {
    const out = this.attempt(command);
    if (out.ok) this.fail(promise, command, `accepted: ${JSON.stringify(out.events)}`);
    if (!codes.includes(out.code))
      this.fail(
        promise,
        command,
        `${out.code} ${out.field ?? ''} (${out.message}), not ${codes.join(' or ')}`,
      );
  }

  /** Accepted, or refused with one of `codes`, as `accepted` predicts. */
  agrees(promise: string, command: RuleCommand, accepted: boolean, codes: string[]): void {
    if (accepted) this.accepts(promise, command);
    else this.refuses(promise, command, codes);
  }

  all(): void {
    reach(`state ${this.v.status} ${this.v.pending?.kind ?? 'free'}`);
    this.consistency();
    if (this.v.status === 'ended') return this.ended();
    if (this.v.pending) return this.pending();
    this.lifecycle();
    this.pools();
    this.tempo();
  }

  // -- The pending decision and the fields that describe it -------------------------------------------------------

  consistency(): void {
    const { v } = this;
    const p = v.pending;
    const x = v.exchange;
    this.check('an activation runs only in an open round', v.activeCombatantId === null || v.roundOpen);
    this.check(
      'the pending decision awaits the GM or a combatant of the fight',
      !p || p.awaiting === 'gm' || v.combatants.some((c) => c.id === p.awaiting),
    );
    if (v.status === 'ended') {
      this.check(
        'an ended fight awaits no decision and runs no activation',
        !p && v.activeCombatantId === null,
      );
      this.check(
        'an ended fight resolves no exchange, no Wounds and no Opportunity Attack',
        !x && !v.pendingWounds && !v.opportunity,
      );
      return;
    }
    if (p?.kind === 'exchangeResponse')
      this.check(
        'a pending exchangeResponse is the view’s exchange, unanswered, awaiting its target with RespondToExchange',
        !!x &&
          !x.response &&
          x.targetId === p.awaiting &&
          p.answer === 'RespondToExchange' &&
          (p.detail as Json).exchangeId === x.exchangeId,
      );
    if (p?.kind === 'woundAllocation')
      this.check(
        'a pending woundAllocation is the view’s pendingWounds, awaiting its wounded with AllocateWounds',
        v.pendingWounds?.combatantId === p.awaiting &&
          p.answer === 'AllocateWounds' &&
          (p.detail as Json).wounds === v.pendingWounds.wounds,
      );
    if (p?.kind === 'opportunityAttack')
      this.check(
        'a pending opportunityAttack is the view’s opportunity, offered to its current reactor',
        v.opportunity?.current === p.awaiting &&
          v.opportunity.moverId === (p.detail as Json).moverId &&
          JSON.stringify(v.opportunity.step) === JSON.stringify((p.detail as Json).step),
      );
    const held = p?.kind === 'dice';
    this.check(
      'an unanswered exchange is the pending decision (or a dice request holding its answer)',
      !x || !!x.response || held || p?.kind === 'exchangeResponse',
    );
    this.check(
      'Wounds waiting for an allocation are the pending decision (or a dice request holding its answer)',
      !v.pendingWounds || held || p?.kind === 'woundAllocation',
    );
    this.check(
      'the current reactor is offered the Opportunity Attack (the pending decision, or a dice request holding its answer), or is resolving the one it took',
      v.opportunity?.current === undefined ||
        held ||
        p?.kind === 'opportunityAttack' ||
        (x?.opportunity === true && x.attackerId === v.opportunity.current),
    );
    if (!p)
      this.check(
        'with nothing pending, no exchange, Wounds or Opportunity Attack is being resolved',
        !x && !v.pendingWounds && !v.opportunity,
      );
    for (const c of v.combatants)
      for (const w of c.weapons)
        if (w.kind === 'melee')
          this.check(
            `${c.id}'s melee weapon ${w.id} is always ready, loaded, with no ammunition (ruling N64)`,
            w.ready,
          );
  }

  ended(): void {
    const first = this.v.combatants[0]?.id ?? 'a';
    for (const command of [
      { type: 'StartRound' },
      { type: 'DeclareExchange', attackerId: first, targetId: first, kind: 'melee', weaponId: 'x', boost: 0 },
      { type: 'RespondToExchange', combatantId: first, response: 'none', boost: 0 },
      { type: 'AllocateWounds', combatantId: first, allocation: [] },
      { type: 'DeclineOpportunity', combatantId: first },
    ])
      this.refuses('an ended fight accepts no more commands', command, ['FIGHT_ENDED']);
  }

  pending(): void {
    const p = this.v.pending!;
    const answers = [p.answer, ...((p.detail?.alsoAccepts as string[] | undefined) ?? [])];
    const first = this.v.combatants[0].id;
    const other = this.v.combatants.find((c) => c.id !== p.awaiting)?.id ?? first;
    const gated: RuleCommand[] = [
      { type: 'StartRound' },
      { type: 'EndActivation' },
      { type: 'StartActivation' },
      { type: 'SpendDice', combatantId: first, ad: 0, md: 0 },
      { type: 'ApplyCondition', combatantId: first, condition: 'prone' },
      { type: 'SetPosition', combatantId: first, position: null },
      {
        type: 'DeclareExchange',
        attackerId: p.awaiting,
        targetId: other,
        kind: 'melee',
        weaponId: 'x',
        boost: 0,
      },
      { type: 'RespondToExchange', combatantId: p.awaiting, response: 'none', boost: 0 },
      { type: 'AllocateWounds', combatantId: p.awaiting, allocation: [] },
      { type: 'DeclineOpportunity', combatantId: p.awaiting },
    ];
    for (const command of gated.filter((c) => !answers.includes(c.type)))
      this.refuses(`only ${answers.join(' or ')} answers the pending ${p.kind}`, command, [
        'PENDING_DECISION',
      ]);
    this.accepts('the GM may cancel the pending decision', { type: 'CancelPending' });
    this.answeredBy(p.awaiting, answers[0]);
    switch (p.kind) {
      case 'exchangeResponse':
        return this.responses(p.awaiting);
      case 'woundAllocation':
        return this.woundAllocation(p.awaiting);
      case 'opportunityAttack':
        return this.opportunity(p.awaiting);
      case 'initiativeTie':
        this.accepts('the GM settles the tie with SetInitiative', {
          type: 'SetInitiative',
          order: this.v.initiative,
        });
        return;
      case 'dice': {
        // The faces a die shows: some completion of the held command reads them all (C18), so some answer of the
        // faces the request names is accepted: of those the engine tries (dice-requests.ts), every list of few faces,
        // every multiset of three, each face repeated on more.
        const need = p.detail as { field: keyof ManualFaces; count: number };
        const answers = facesToTry(need.count).map((faces) => ({ [need.field]: faces }));
        const outcomes = answers.map((faces) => this.attempt({ type: 'ProvideDice', ...faces }, faces));
        if (!outcomes.some((o) => o.ok))
          this.fail(
            `ProvideDice with the ${need.count} face(s) in ${need.field} the request names`,
            { type: 'ProvideDice', ...answers[0] },
            JSON.stringify(outcomes),
          );
        return;
      }
    }
  }

  /** C3, C4: the awaited combatant's player may send the answer (the GM's decisions are the GM's alone). */
  answeredBy(awaiting: string, answer: string): void {
    const command: RuleCommand = { type: answer, combatantId: awaiting, order: this.v.initiative };
    const actor = service.actorOf?.(this.state, command)?.combatantId;
    if ((actor ?? 'gm') !== awaiting)
      this.fail(`${answer} answers for ${awaiting}`, command, `a command acting for ${actor ?? 'the GM'}`);
  }

  /** The view after `events`: what a client shows once the command is accepted. */
  after(events: RuleEvent[]): View {
    return service.view(events.reduce((s, e) => service.evolve(s, e), this.state)) as View;
  }

  /** narateer.txt: Exchange Responses — what the responder the view names may answer. */
  responses(id: string): void {
    const x = this.v.exchange!;
    const r = this.shown(id);
    const attacker = this.shown(x.attackerId);
    const notThem = this.v.combatants.find((c) => c.id !== id);
    if (notThem)
      this.refuses(
        'only the awaited responder answers',
        { type: 'RespondToExchange', combatantId: notThem.id, response: 'none', boost: 0 },
        ['NARATEER_NOT_THE_RESPONDER'],
      );
    const respond = (response: string, boost: number, extra: Json = {}): RuleCommand => ({
      type: 'RespondToExchange',
      combatantId: id,
      response,
      boost,
      ...extra,
    });
    this.accepts('No Response is always open to the responder', respond('none', 0));
    this.check('a responder asked to answer is able to act and has Ready AD (N6)', able(r) && r.ad.ready > 0);
    // Full Guard: Base Cost 1 AD, Boost within the Skill (Melee, or Acrobatics against a Ranged Exchange).
    const guardSkill = this.skill(id, FULL_GUARD_SKILL[x.kind]);
    const guardBoost = Math.min(guardSkill, r.ad.ready - 1);
    this.accepts(
      'Full Guard with the Boost its Skill and Ready AD allow',
      respond('fullGuard', Math.max(0, guardBoost)),
    );
    if (r.ad.ready <= guardSkill)
      this.refuses('Full Guard beyond the Ready AD the view shows', respond('fullGuard', r.ad.ready), [
        'NARATEER_NOT_ENOUGH_READY_AD',
      ]);
    // Clash: a ready weapon of the exchange's kind that reaches the tempo-holder, its Base Attack Cost paid.
    const dist = this.between(r, attacker) ?? x.distance;
    const shown = new Map(r.weapons.map((w) => [w.id, w]));
    let anyLegal = false;
    for (const w of this.weapons(id)) {
      const view = shown.get(w.id)!;
      if (w.kind !== x.kind) {
        this.refuses(
          `a ${x.kind} exchange is answered with a ${x.kind} weapon`,
          respond('clash', 0, { weaponId: w.id }),
          ['NARATEER_WRONG_WEAPON_KIND'],
        );
        continue;
      }
      const reaches = dist === undefined || dist <= (w.kind === 'melee' ? w.reach : w.maximumRange!);
      const paid = w.baseAttackCost <= r.ad.ready;
      anyLegal ||= view.ready && reaches && paid;
      const promise = `a Clash with ${w.id} (ready ${view.ready}, ${dist ?? 'no'} distance, cost ${w.baseAttackCost} of ${r.ad.ready} Ready AD)`;
      if (!view.ready) this.refuses(promise, respond('clash', 0, { weaponId: w.id }), CODES.notReady);
      else if (!reaches)
        this.refuses(promise, respond('clash', 0, { weaponId: w.id }), [
          'NARATEER_NOT_IN_REACH',
          'NARATEER_OUT_OF_RANGE',
        ]);
      else if (!paid)
        this.refuses(promise, respond('clash', 0, { weaponId: w.id }), ['NARATEER_NOT_ENOUGH_READY_AD']);
      else {
        // Boost within the attacking Skill and the Ready AD left after the Base Attack Cost.
        const skill = this.skill(id, ATTACK_SKILL[x.kind]);
        const spare = r.ad.ready - w.baseAttackCost;
        this.accepts(
          `${promise}, Boost ${Math.min(skill, spare)}`,
          respond('clash', Math.min(skill, spare), { weaponId: w.id }),
        );
        if (spare < skill)
          this.refuses(
            `${promise}, Boost beyond the Ready AD`,
            respond('clash', spare + 1, { weaponId: w.id }),
            ['NARATEER_NOT_ENOUGH_READY_AD'],
          );
      }
    }
    const clash = this.attempt(respond('clash', 0));
    if (clash.ok !== anyLegal)
      this.fail(
        `a Clash without naming a weapon is ${anyLegal ? 'open' : 'closed'} (ruling N35, N37)`,
        respond('clash', 0),
        clash.ok ? 'accepted' : `${clash.code}: ${clash.message}`,
      );
  }

  /** N9, N28: the wounded the view names answers with the dice the view shows. */
  woundAllocation(id: string): void {
    const pw = this.v.pendingWounds!;
    const c = this.shown(id);
    const notThem = this.v.combatants.find((o) => o.id !== id);
    if (notThem)
      this.refuses(
        'only the awaited wounded allocates',
        { type: 'AllocateWounds', combatantId: notThem.id, allocation: [] },
        ['NARATEER_NOT_THE_WOUNDED'],
      );
    const ad = allocation(c, pw.wounds, 'AD');
    const md = allocation(c, pw.wounds, 'MD');
    this.check('the wounded is asked only when it has a choice to make (N9)', ad.choice);
    for (const list of [ad.list, md.list])
      this.accepts(
        `AllocateWounds naming the ${list.length} dice the view's pools give ${pw.wounds} Wound(s)`,
        {
          type: 'AllocateWounds',
          combatantId: id,
          allocation: list,
        },
      );
    this.refuses(
      'an allocation longer than the dice the Wounds take',
      { type: 'AllocateWounds', combatantId: id, allocation: [...ad.list, 'AD'] },
      ['NARATEER_ALLOCATION_LENGTH'],
    );
  }

  /** N24, N42: the reactor offered the opportunity can take it with a weapon the view and its sheet say reaches and is paid for. */
  opportunity(id: string): void {
    const q = this.v.opportunity!;
    const r = this.shown(id);
    const mover = this.shown(q.moverId);
    this.check('the offered reactor is able to act (N20, N26)', able(r));
    const notThem = this.v.combatants.find((o) => o.id !== id);
    if (notThem)
      this.refuses(
        'only the offered reactor answers',
        { type: 'DeclineOpportunity', combatantId: notThem.id },
        ['NARATEER_NOT_YOUR_OPPORTUNITY'],
      );
    const dist = this.between(r, mover);
    let any = false;
    for (const w of this.weapons(id)) {
      if (w.kind !== 'melee') continue;
      const take = {
        type: 'TakeOpportunityAttack',
        combatantId: id,
        weaponId: w.id,
        boost: 0,
        response: 'none',
      };
      const paid = w.baseAttackCost <= r.ad.ready;
      const reaches = dist === undefined || dist <= w.reach;
      any ||= paid && reaches;
      const promise = `an Opportunity Attack with ${w.id} (cost ${w.baseAttackCost} of ${r.ad.ready} Ready AD, reach ${w.reach}, mover ${dist ?? 'no'} away)`;
      if (!paid) this.refuses(promise, take, ['NARATEER_NOT_ENOUGH_READY_AD']);
      else if (!reaches) this.refuses(promise, take, ['NARATEER_NOT_IN_REACH']);
      else
        this.accepts(promise, take, (events) => {
          const uses = this.after(events).combatants.find((c) => c.id === id)?.proactiveUsesLeft;
          return JSON.stringify(uses) === JSON.stringify(r.proactiveUsesLeft)
            ? undefined
            : `proactive uses ${JSON.stringify(uses)} after an Opportunity Attack, not ${JSON.stringify(r.proactiveUsesLeft)} (N5)`;
        });
    }
    this.check(
      'the offered reactor has a melee weapon that reaches the mover and that it can pay for (N42)',
      any,
    );
    const next = this.reactorsOf(q.moverId, mover.position!, mover.position!, q.remaining);
    this.accepts(
      'the reactor may decline; the next reactor the view lists that can still react is offered',
      { type: 'DeclineOpportunity', combatantId: id },
      (events) => {
        const offered = events
          .filter((e) => e.type === 'OpportunityOffered')
          .map((e) => (e.data as Json).reactorId);
        const expected = next.slice(0, 1);
        return JSON.stringify(offered) === JSON.stringify(expected)
          ? undefined
          : `offered ${JSON.stringify(offered)}, not ${JSON.stringify(expected)} (remaining ${JSON.stringify(q.remaining)})`;
      },
    );
  }

  /** Who of `among` can react to a step of the mover (N24, N42, N60), from the view and the sheets. */
  reactorsOf(
    moverId: string,
    from: { x: number; y: number },
    to: { x: number; y: number },
    among: readonly string[],
  ): string[] {
    const mover = this.shown(moverId);
    return among.filter((id) => {
      const r = this.shown(id);
      if (id === moverId || !r.position || !able(r)) return false;
      if ((effect(mover, 'unseen') || effect(r, 'cannotSee')) && effect(r, 'cannotHear')) return false;
      const melee = this.weapons(id).filter((w) => w.kind === 'melee');
      const reach = Math.max(0, ...melee.map((w) => w.reach));
      if (distance(r.position, from) > reach || distance(r.position, to) > reach) return false;
      return melee.some((w) => w.baseAttackCost <= r.ad.ready && distance(r.position!, to) <= w.reach);
    });
  }

  // -- Rounds and activations: who acts ---------------------------------------------------------------------------

  lifecycle(): void {
    const { v } = this;
    const active = v.activeCombatantId;
    // The round waits for those in the order who have not acted and are Active (N16, N20).
    const waitsFor = (but?: string) =>
      v.initiative.filter(
        (id) => id !== but && !v.actedThisRound.includes(id) && this.shown(id).state === 'Active',
      );
    if (active)
      this.accepts(
        `${active}'s activation runs: it may end it, and the round ends when no one else waits`,
        { type: 'EndActivation' },
        (events) => this.roundEnd(events, waitsFor(active).length === 0),
      );
    else this.refuses('no activation runs: none to end', { type: 'EndActivation' }, ['NO_ACTIVATION']);
    if (v.roundOpen)
      this.accepts('the GM may end the open round', { type: 'EndRound' }, (events) =>
        this.roundEnd(events, true),
      );
    if (v.roundOpen) this.refuses('a round is open', { type: 'StartRound' }, ['ROUND_ALREADY_OPEN']);
    else
      this.agrees(
        'a round may start once initiative is set',
        { type: 'StartRound' },
        v.initiative.length > 0,
        ['INITIATIVE_NOT_SET'],
      );
    if (!v.roundOpen)
      return this.refuses('no round is open: no activation starts', { type: 'StartActivation' }, [
        'ROUND_NOT_OPEN',
      ]);
    if (active)
      return this.refuses(`${active}'s activation runs`, { type: 'StartActivation' }, [
        'ACTIVATION_IN_PROGRESS',
      ]);
    const waiting = waitsFor();
    // A round whose end tick's allocation the GM cancelled waits for the GM's EndRound with no one left (N28).
    if (waiting.length === 0)
      this.refuses('everyone the round waited for has acted', { type: 'StartActivation' }, [
        'NO_ACTIVATION_LEFT',
      ]);
    else
      this.accepts(
        `the next in the order who has not acted and is Active (${waiting[0]}) starts`,
        { type: 'StartActivation' },
        (events) => {
          const started = events.find((e) => e.type === 'ActivationStarted');
          return started?.data?.combatantId === waiting[0] ? undefined : `not ${waiting[0]}'s activation`;
        },
      );
    for (const c of v.combatants) {
      const command = { type: 'StartActivation', combatantId: c.id };
      if (v.actedThisRound.includes(c.id))
        this.refuses(`${c.id} has acted this round`, command, ['ALREADY_ACTED']);
      else
        this.agrees(
          `${c.id} is ${c.state}: it gets an activation only when Active (N20)`,
          command,
          c.state === 'Active',
          ['COMBATANT_CANNOT_ACT'],
        );
    }
  }

  /**
   * Whether `events` end the round as the view says: they do when `ends` (unless a decision their ticks open holds it,
   * N28, or a Wound their ticks deal changed who waits, N59), and then the conditions and Lingering Harm the view
   * shows lasting until this round end with it (N26, N38).
   */
  roundEnd(events: RuleEvent[], ends: boolean): string | undefined {
    const ended = events.some((e) => e.type === 'RoundEnded');
    const held = events.some((e) => e.type === 'WoundAllocationRequested' || e.type === 'DiceRequested');
    const wounded = events.some((e) => e.type === 'WoundsApplied');
    if (ends && !ended && !held) return 'no RoundEnded';
    if (!ends && ended && !wounded) return 'a RoundEnded while someone still waits';
    if (!ended) return undefined;
    for (const c of this.v.combatants) {
      const gone = (type: string, key: string, id: string) =>
        events.some(
          (e) => e.type === type && (e.data as Json).combatantId === c.id && (e.data as Json)[key] === id,
        );
      for (const k of c.conditions)
        if ((k.untilRound === this.v.round) !== gone('ConditionRemoved', 'condition', k.condition))
          return `${c.id}'s ${k.condition} (until round ${k.untilRound}) ${k.untilRound === this.v.round ? 'does not end' : 'ends'}`;
      for (const l of c.lingeringHarm)
        if (
          l.untilRound === this.v.round &&
          !gone('LingeringHarmEnded', 'lingeringHarmId', l.id) &&
          !gone('LingeringHarmTreated', 'lingeringHarmId', l.id)
        )
          return `${c.id}'s ${l.id} (until round ${l.untilRound}) does not end`;
    }
    return undefined;
  }

  // -- Dice and Lingering Harm: what any combatant may spend or the GM treat -------------------------------------

  pools(): void {
    for (const c of this.v.combatants) {
      const spend = (ad: number, md: number): RuleCommand => ({
        type: 'SpendDice',
        combatantId: c.id,
        ad,
        md,
      });
      const can = ableOtherThanPhysically(c);
      const cannot = ['NARATEER_CANNOT_ACT'];
      this.agrees(
        `${c.id} may commit the ${c.ad.ready} Ready AD and ${c.md.ready} Ready MD the view shows (N43)`,
        spend(c.ad.ready, c.md.ready),
        can,
        cannot,
      );
      if (c.ad.ready < 30)
        this.refuses(
          `${c.id} has only ${c.ad.ready} Ready AD`,
          spend(c.ad.ready + 1, 0),
          can ? ['NARATEER_NOT_ENOUGH_READY_AD'] : cannot,
        );
      if (c.md.ready < 30)
        this.refuses(
          `${c.id} has only ${c.md.ready} Ready MD`,
          spend(0, c.md.ready + 1),
          can ? ['NARATEER_NOT_ENOUGH_READY_MD'] : cannot,
        );
      for (const l of c.lingeringHarm)
        this.accepts(`${c.id}'s ${l.label} (${l.id}) may be treated`, {
          type: 'TreatLingeringHarm',
          combatantId: c.id,
          lingeringHarmId: l.id,
        });
      this.refuses(
        `${c.id} has no Lingering Harm the view does not show`,
        { type: 'TreatLingeringHarm', combatantId: c.id, lingeringHarmId: 'lh999' },
        ['NARATEER_UNKNOWN_LINGERING_HARM'],
      );
    }
  }

  // -- The tempo-holder: exchanges, proactive uses, movement, reloading --------------------------------------------

  tempo(): void {
    const { v } = this;
    const active = v.roundOpen ? v.activeCombatantId : null;
    for (const c of v.combatants) {
      if (c.id === active) this.tempoHolder(c);
      else this.notTempoHolder(c);
    }
  }

  notTempoHolder(c: Shown): void {
    const target = this.v.combatants.find((o) => o.id !== c.id) ?? c;
    const weapon = this.weapons(c.id)[0];
    if (weapon)
      this.refuses(
        `${c.id} does not hold the Tempo`,
        {
          type: 'DeclareExchange',
          attackerId: c.id,
          targetId: target.id,
          kind: weapon.kind,
          weaponId: weapon.id,
          boost: 0,
        },
        ['NARATEER_NOT_YOUR_TEMPO'],
      );
    for (const kind of ['melee', 'ranged'] as const)
      this.refuses(
        `${c.id} takes no proactive ${kind} action outside its activation`,
        {
          type: 'SpendDice',
          combatantId: c.id,
          ad: 0,
          md: 0,
          proactiveUse: kind,
        },
        [able(c) ? 'NARATEER_NOT_YOUR_TEMPO' : 'NARATEER_CANNOT_ACT'],
      );
    if (c.position) {
      const to = { x: c.position.x + 1, y: c.position.y };
      this.refuses(
        `${c.id} moves by itself only in its activation (N24)`,
        { type: 'Move', combatantId: c.id, path: [to] },
        ['NARATEER_NOT_YOUR_ACTIVATION'],
      );
      this.accepts(
        `the GM may move ${c.id}, which is on the map; the opponents the view shows in reach, able and paying react (N24 forced, N45)`,
        { type: 'Move', combatantId: c.id, path: [to], forced: true },
        (events) => this.reactorsAre(c, to, events),
      );
    } else
      this.refuses(
        `${c.id} is off the map (N54)`,
        { type: 'Move', combatantId: c.id, path: [{ x: 0, y: 0 }], forced: true },
        ['NARATEER_NOT_ON_MAP'],
      );
    for (const w of c.weapons)
      if (!w.loaded)
        this.refuses(
          `${c.id}'s ${w.id} is not loaded, and reloading waits for its activation (N27)`,
          {
            type: 'ReloadWeapon',
            combatantId: c.id,
            weaponId: w.id,
          },
          ['NARATEER_NOT_YOUR_ACTIVATION'],
        );
  }

  tempoHolder(x: Shown): void {
    const own = this.weapons(x.id)[0];
    if (own && able(x) && x.proactiveUsesLeft[own.kind] > 0)
      this.refuses(
        `${x.id} names another combatant as its target (N48)`,
        {
          type: 'DeclareExchange',
          attackerId: x.id,
          targetId: x.id,
          kind: own.kind,
          weaponId: own.id,
          boost: 0,
        },
        ['NARATEER_INVALID_TARGET'],
      );
    for (const kind of ['melee', 'ranged'] as const) {
      const left = x.proactiveUsesLeft[kind];
      const shove = { type: 'SpendDice', combatantId: x.id, ad: 0, md: 0, proactiveUse: kind };
      const promise = `${x.id} has ${left} proactive ${kind} use(s) left (N5, N63)`;
      if (left === 0)
        this.refuses(promise, shove, [able(x) ? 'NARATEER_PROACTIVE_LIMIT' : 'NARATEER_CANNOT_ACT']);
      else this.accepts(promise, shove, (events) => this.usedOne(x.id, kind, left, events));
      for (const w of this.weapons(x.id).filter((o) => o.kind === kind))
        for (const target of this.v.combatants) if (target.id !== x.id) this.declare(x, w, target, left);
    }
    this.movement(x);
    this.reloading(x);
  }

  /** narateer.txt: Combat Exchange Flow steps 1–4, and the response it leaves open (step 5). */
  declare(x: Shown, w: Weapon, target: Shown, left: number): void {
    const view = x.weapons.find((o) => o.id === w.id)!;
    const dist = this.between(x, target);
    const reaches = dist === undefined || dist <= (w.kind === 'melee' ? w.reach : w.maximumRange!);
    const skill = this.skill(x.id, ATTACK_SKILL[w.kind]);
    const declare = (boost: number): RuleCommand => ({
      type: 'DeclareExchange',
      attackerId: x.id,
      targetId: target.id,
      kind: w.kind,
      weaponId: w.id,
      boost,
    });
    const promise = `${x.id} attacks ${target.id} with ${w.id} (uses left ${left}, ready ${view.ready}, cost ${w.baseAttackCost} of ${x.ad.ready} Ready AD, ${dist ?? 'no'} distance)`;
    if (left === 0)
      return this.refuses(promise, declare(0), ['NARATEER_PROACTIVE_LIMIT', 'NARATEER_CANNOT_ACT']);
    this.check(`${x.id} has proactive uses left only while able to act (N63)`, able(x));
    if (w.baseAttackCost > x.ad.ready)
      return this.refuses(promise, declare(0), ['NARATEER_NOT_ENOUGH_READY_AD']);
    if (!view.ready) return this.refuses(promise, declare(0), CODES.notReady);
    if (!reaches)
      return this.refuses(promise, declare(0), ['NARATEER_NOT_IN_REACH', 'NARATEER_OUT_OF_RANGE']);
    this.accepts(
      promise,
      declare(0),
      (events) => this.answered(target, events) ?? this.usedOne(x.id, w.kind, left, events),
    );
    const most = Math.min(skill, x.ad.ready - w.baseAttackCost);
    if (most > 0) this.accepts(`${promise}, Boost ${most}`, declare(most));
    if (x.ad.ready - w.baseAttackCost < skill)
      this.refuses(`${promise}, Boost beyond the Ready AD`, declare(x.ad.ready - w.baseAttackCost + 1), [
        'NARATEER_NOT_ENOUGH_READY_AD',
      ]);
  }

  /** N5: a proactive action takes one use of those the view showed left (all of them, if it leaves it unable to act: N63). */
  usedOne(id: string, kind: Kind, left: number, events: RuleEvent[]): string | undefined {
    const c = this.after(events).combatants.find((o) => o.id === id)!;
    const expected = able(c) ? left - 1 : 0;
    return c.proactiveUsesLeft[kind] === expected
      ? undefined
      : `${c.proactiveUsesLeft[kind]} ${kind} use(s) left after one of ${left}`;
  }

  /** N6, N20, N23: a target that cannot answer makes No Response; one that can is asked, unless its sheet answers. */
  answered(target: Shown, events: RuleEvent[]): string | undefined {
    const responded = events.find((e) => e.type === 'ExchangeResponded')?.data;
    const forced =
      target.state === 'Collapsed'
        ? 'collapsed'
        : target.state === 'Withdrawn'
          ? 'withdrawn'
          : effect(target, 'incapacitated')
            ? 'incapacitated'
            : target.ad.ready === 0
              ? 'noReadyAD'
              : undefined;
    if (forced) return responded?.forced === forced ? undefined : `not a No Response forced by ${forced}`;
    if (responded?.forced)
      return `a No Response forced by ${JSON.stringify(responded.forced)}, for a target the view shows able to answer`;
    const policy = this.state.combatants[target.id].sheet.responsePolicy;
    if (policy) return responded?.source === 'policy' ? undefined : 'no answer by the sheet’s responsePolicy';
    return responded ? 'an answer nobody gave' : undefined;
  }

  movement(x: Shown): void {
    if (!x.position)
      return this.refuses(
        `${x.id} is off the map (N54)`,
        { type: 'Move', combatantId: x.id, path: [{ x: 0, y: 0 }] },
        ['NARATEER_NOT_ON_MAP'],
      );
    const from = x.position;
    const to = { x: from.x + 1, y: from.y };
    const move = { type: 'Move', combatantId: x.id, path: [to] };
    if (!able(x)) return this.refuses(`${x.id} is not able to act`, move, ['NARATEER_CANNOT_ACT']);
    if (effect(x, 'cannotMove'))
      return this.refuses(`${x.id} is Restrained (N26)`, move, ['NARATEER_RESTRAINED']);
    this.accepts(
      `${x.id} steps; the opponents the view shows in reach, able and paying react (N24, N42, N54, N60)`,
      move,
      (events) => this.reactorsAre(x, to, events),
    );
  }

  /** The reactors a step of the mover to `to` opened are the opponents the view and the sheets say can react. */
  reactorsAre(mover: Shown, to: { x: number; y: number }, events: RuleEvent[]): string | undefined {
    const order = this.v.initiative.length > 0 ? this.v.initiative : this.v.combatants.map((c) => c.id);
    const foes = order.filter((id) => this.shown(id).side !== mover.side);
    const expected = this.reactorsOf(mover.id, mover.position!, to, foes);
    const found = events.find((e) => e.type === 'OpportunitiesIdentified')?.data;
    const got = (found?.reactorIds as string[] | undefined) ?? [];
    return JSON.stringify(got) === JSON.stringify(expected)
      ? undefined
      : `reactors ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`;
  }

  /** N27: a weapon the view shows not loaded is loaded in the own activation, with ammunition left; a loaded one needs nothing. */
  reloading(x: Shown): void {
    for (const w of x.weapons) {
      const reload = { type: 'ReloadWeapon', combatantId: x.id, weaponId: w.id };
      if (w.loaded) {
        const out = this.attempt(reload);
        if (out.ok && out.events.some((e) => e.type === 'WeaponReloaded'))
          this.fail(`${x.id}'s ${w.id} is loaded`, reload, 'a WeaponReloaded');
        continue;
      }
      const promise = `${x.id}'s ${w.id} is not loaded (ammunition ${w.ammunition ?? 'unlimited'})`;
      if (!able(x)) this.refuses(promise, reload, ['NARATEER_CANNOT_ACT']);
      else if (w.ammunition === 0) this.refuses(promise, reload, ['NARATEER_NO_AMMUNITION']);
      else
        this.accepts(promise, reload, (events) =>
          events.some((e) => e.type === 'WeaponReloaded') ? undefined : 'no WeaponReloaded',
        );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The walk: commands with placeholders resolved against the state, decided and folded as the service does.

class Walk {
  state: NarateerState = service.start(FIGHT_ID);
  draws = 0;
  probes = 0;
  readonly trail: string[] = [];

  /**
   * Decides `command`; manual faces whose `dice` the command's first pool does not take are fitted to it (cycled to
   * each length up to 8), so that the later faces it lacks are asked for (C13) as often as they are given.
   */
  run(command: RuleCommand, faces: 'seeded' | ManualFaces): boolean {
    if (faces === 'seeded' || this.state.status === 'new') return this.decide(command, faces) ?? false;
    const given = faces.dice ?? [];
    for (let n = -1; n <= 8; n++) {
      const dice =
        n < 0 ? given : Array.from({ length: n }, (_, i) => given[i % Math.max(1, given.length)] ?? 4);
      const fitted = { ...faces, dice };
      const out = this.decide(command, fitted, n < 8);
      if (out !== undefined) return out;
    }
    return false;
  }

  /** Decides and folds; undefined when `retry` and the manual faces did not fit the command's first pool. */
  private decide(command: RuleCommand, faces: 'seeded' | ManualFaces, retry = false): boolean | undefined {
    const sent = faces === 'seeded' ? command : { ...command, ...faces };
    const dice: DiceSource =
      faces === 'seeded'
        ? new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: this.draws })
        : new ManualDice(faces);
    let events: RuleEvent[];
    try {
      events = service.decide(this.state, structuredClone(sent), dice);
    } catch (e) {
      if (e instanceof RuleViolation) {
        if (retry && e.field?.startsWith('dice') && e.code.startsWith('DICE_MANUAL_FACES')) return undefined;
        reach(`walk ${command.type} ${e.code}`);
        return false;
      }
      throw new Error(`after\n  ${this.trail.join('\n  ')}\n${JSON.stringify(sent)} threw`, { cause: e });
    }
    for (const e of events)
      if (e.type === 'WoundAllocationRequested') {
        const id = (e.data as Json).combatantId as string;
        const shown = (service.view(this.state) as View).combatants.find((c) => c.id === id);
        if (shown && shown.woundPreference !== 'ASK')
          throw new Error(
            `after\n  ${this.trail.join('\n  ')}\n${JSON.stringify(sent)} asked ${id}, whose woundPreference is ${shown.woundPreference}, where its Wounds go`,
          );
      }
    this.trail.push(JSON.stringify(sent));
    reach(`walk ${command.type} accepted`);
    if (events.some((e) => e.type === 'ExchangeDeclared')) {
      const r = events.find((e) => e.type === 'ExchangeResponded')?.data;
      reach(`walk response ${r ? String(r.forced ?? r.source) : 'asked'}`);
    }
    if (dice instanceof SeededDice) this.draws = dice.drawsUsed;
    for (const event of events)
      this.state = service.evolve(this.state, JSON.parse(JSON.stringify(event)) as RuleEvent);
    return events.length > 0;
  }

  /** Every probe of the current state; the walk's state and view are the same after it. */
  probe(): void {
    const before = JSON.stringify(service.view(this.state));
    new Probe(this.state, this.draws, this.trail).all();
    this.probes++;
    expect(JSON.stringify(service.view(this.state))).toBe(before);
  }
}

function resolve(state: NarateerState, command: Json): RuleCommand {
  if (command.type === ADVANCE) return advance(state);
  if (command.type === OPEN)
    return state.activeId === undefined && !state.pending && state.status !== 'ended'
      ? advance(state)
      : resolve(state, { ...command, type: 'DeclareExchange' });
  const first = state.joined[0] ?? 'a';
  const others = state.joined.filter((j) => j !== state.activeId);
  const who = (v: string): string => {
    if (v === ACTIVE) return state.activeId ?? first;
    if (v === AWAITING) return state.pending?.awaiting ?? first;
    if (OTHER.includes(v)) return others.length > 0 ? others[OTHER.indexOf(v) % others.length] : first;
    return v;
  };
  const out: Json = {};
  const kept = [...WEAPON, ...LEGAL, BOOST, KIND];
  for (const [k, v] of Object.entries(command))
    out[k] = typeof v === 'string' && v.startsWith('@') && !kept.includes(v) ? who(v) : v;
  const actor = [out.attackerId, out.combatantId].find((x): x is string => typeof x === 'string') ?? first;
  if (out.kind === KIND) {
    const own = Object.hasOwn(state.combatants, actor) ? state.combatants[actor].sheet.weapons : [];
    const n = typeof out.weaponId === 'string' ? Math.max(0, WEAPON.indexOf(out.weaponId)) : 0;
    out.kind = own.length > 0 ? own[n % own.length].kind : 'melee';
  }
  const kind = (out.kind as Kind | undefined) ?? (state.opportunity ? 'melee' : state.exchange?.kind);
  const fill = (fields: Json, id: string, k: Kind | undefined) => {
    if (typeof fields.weaponId === 'string' && WEAPON.includes(fields.weaponId))
      fields.weaponId = weaponOf(state, id, k, WEAPON.indexOf(fields.weaponId));
    if (fields.boost === BOOST) fields.boost = boostOf(state, id, String(fields.weaponId), k);
  };
  fill(out, actor, kind);
  if (out.response !== null && typeof out.response === 'object') {
    const answer = { ...(out.response as Json) };
    fill(answer, String(out.targetId), kind);
    out.response = answer;
  }
  if (typeof out.allocation === 'string') {
    const pw = state.pendingWounds;
    const c = pw && state.combatants[pw.combatantId];
    out.allocation = c
      ? allocation(
          { ad: { ...c.ad, max: 0 }, md: { ...c.md, max: 0 } } as Shown,
          pw.wounds,
          out.allocation === LEGAL[0] ? 'AD' : 'MD',
        ).list
      : [];
  }
  const path = out.path as { '@path'?: { dx: number; dy: number }[] } | undefined;
  if (path?.['@path']) {
    let { x, y } = (Object.hasOwn(state.combatants, actor) && state.combatants[actor].position) || {
      x: 0,
      y: 0,
    };
    out.path = path['@path'].map(({ dx, dy }) => ({ x: (x += dx === 0 && dy === 0 ? 1 : dx), y: (y += dy) }));
  }
  if (out.type === 'EndFight') out.revealedSeed = TEST_SEED;
  return out as RuleCommand;
}

function advance(state: NarateerState): RuleCommand {
  if (state.pending?.kind === 'initiativeTie') return { type: 'SetInitiative', order: state.order };
  if (state.order.length === 0) return { type: 'SetInitiative', order: state.joined };
  if (!state.roundOpen) return { type: 'StartRound' };
  if (state.activeId === undefined) return { type: 'StartActivation' };
  return { type: 'EndActivation' };
}

function weaponOf(state: NarateerState, id: string, kind: Kind | undefined, n: number): string {
  const all = Object.hasOwn(state.combatants, id) ? state.combatants[id].sheet.weapons : [];
  const fit = all.filter((w) => w.kind === kind);
  const list = fit.length > 0 ? fit : all;
  return list.length > 0 ? list[n % list.length].id : 'unarmed';
}

function boostOf(state: NarateerState, id: string, weaponId: string, kind: Kind | undefined): number {
  if (!Object.hasOwn(state.combatants, id)) return 0;
  const c = state.combatants[id];
  const w = c.sheet.weapons.find((o) => o.id === weaponId);
  return Math.max(
    0,
    Math.min(c.sheet.skills[kind === 'ranged' ? 'ranged' : 'melee'], c.ad.ready - (w?.baseAttackCost ?? 1)),
  );
}

function opening(f: Fight): RuleCommand[] {
  return [
    {
      type: 'StartFight',
      name: 'Promises',
      dice: { mode: f.mode, commitment: TEST_COMMITMENT },
      combatants: f.combatants,
    },
    ...f.combatants.flatMap((c, i) =>
      f.places[i] ? [{ type: 'SetPosition', combatantId: c.id, position: f.places[i] }] : [],
    ),
    { type: 'SetInitiative', order: f.combatants.map((c) => c.id) },
    { type: 'StartRound' },
    { type: 'StartActivation' },
  ];
}

describe('Narateer: what the view promises is what the engine accepts', () => {
  it(
    'in random fights of random sheets, every command the view promises is accepted and every one it forbids is refused with the matching code',
    () => {
      let probes = 0;
      fc.assert(
        fc.property(walkArb, ({ fight, steps }) => {
          const walk = new Walk();
          for (const command of opening(fight)) walk.run(command, 'seeded');
          walk.probe();
          for (const [command, faces] of steps)
            if (walk.run(resolve(walk.state, command), faces)) walk.probe();
          probes += walk.probes;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      if (process.env.FUZZ_REPORT)
        console.log(
          [...reached]
            .sort()
            .map(([k, n]) => `${k}: ${n}`)
            .join('\n'),
        );
      // The walks reach past the opening: many random commands change the fight and are probed, in every kind of
      // pending decision, and the probes reach the promises they check.
      expect(probes).toBeGreaterThan(RUNS * 5);
      if (RUNS >= 100)
        expect(
          [
            'state active exchangeResponse',
            'state active woundAllocation',
            'state active opportunityAttack',
            'state active initiativeTie',
            'state active dice',
            'state ended free',
            'DeclareExchange accepted',
            'RespondToExchange accepted',
            'AllocateWounds accepted',
            'TakeOpportunityAttack accepted',
            'ReloadWeapon accepted',
            'Move accepted',
            'NARATEER_WEAPON_NOT_LOADED',
            'NARATEER_NO_AMMUNITION',
            'NARATEER_PROACTIVE_LIMIT',
            'NARATEER_RESTRAINED',
          ].filter((what) => ![...reached.keys()].some((k) => k.endsWith(what) || k.startsWith(what))),
        ).toEqual([]);
    },
    LONG,
  );
});

describe('Narateer: what the view promises, hand-worked', () => {
  const viewOf = (events: RuleEvent[]) => narateer.view(stateOf(events)) as View;
  const shownIn = (events: RuleEvent[], id: string) => viewOf(events).combatants.find((c) => c.id === id)!;
  const end: RuleCommand = { type: 'EndFight', revealedSeed: TEST_SEED };
  /** Mira stepping from (1, 0) to (1, 1), both within the reach of Orin's mace at (0, 0): his opportunity is offered. */
  const offered = () => then(at(at(duel(), 'mira', 1, 0), 'orin', 0, 0), step('mira', 1, 1));

  it('N65: given a blade and a sling whose sheet says loaded: false and a crossbow that needs Loading, unloaded, then the view shows the blade and the sling loaded and ready ("a ranged weapon that is loaded or otherwise ready to fire"): ReloadWeapon has nothing to load in them and they attack; only the crossbow is shown not loaded, and ReloadWeapon loads it', () => {
    const sling = {
      id: 'sling',
      name: 'Sling',
      kind: 'ranged',
      baseAttackCost: 1,
      weaponDamage: 1,
      damageVitalCap: 2,
      effectiveRange: 6,
      maximumRange: 12,
      loaded: false,
      harm: 'Physical (Impact)',
    };
    const a = sheet({ weapons: [{ ...sword, loaded: false }, sling, { ...crossbow, loaded: false }] });
    const events = fight(
      [
        { id: 'a', sheet: a },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    expect(shownIn(events, 'a').weapons.map((w) => [w.id, w.loaded, w.ready])).toEqual([
      ['sword', true, true],
      ['sling', true, true],
      ['crossbow', false, false],
    ]);
    for (const weaponId of ['sword', 'sling'])
      expect(refusal(events, { type: 'ReloadWeapon', combatantId: 'a', weaponId })).toMatchObject({
        code: 'NARATEER_NO_LOADING_NEEDED',
      });
    expect(types(exact(events, { type: 'ReloadWeapon', combatantId: 'a', weaponId: 'crossbow' }))).toEqual([
      'WeaponReloaded',
    ]);
    // The sling shoots b, who makes No Response: 1 die, face 4 (1 dot) against target number 0; Hit Margin 1,
    // Strike Rating 1 + min(Agility 2, cap 2) = 3, Protection 1: Wound Margin 3, 2 Wounds (8 Vitality to 6, no check).
    const shot = exact(events, ranged('a', 'b', 'sling', 0, { response: 'none' }), { dice: [4] });
    expect(find(shot, 'WoundsApplied')).toMatchObject({ combatantId: 'b', wounds: 2 });
    expect(shownIn([...events, ...shot], 'a').weapons[1]).toMatchObject({
      id: 'sling',
      loaded: true,
      ready: true,
    });
    // The blade too: Hit Margin 1, Strike Rating 2 + min(2, 3) = 4, Protection 1: Wound Margin 4, 2 Wounds.
    const cut = exact(events, melee('a', 'b', 0, { response: 'none' }), { dice: [4] });
    expect(find(cut, 'WoundsApplied')).toMatchObject({ combatantId: 'b', wounds: 2 });
  });

  it('N66: given a fight the GM ends while an exchange awaits its response, Wounds their allocation or an Opportunity Attack its reactor, then the view shows no exchange, no pendingWounds and no opportunity, as the ended fight answers none of them (FIGHT_ENDED)', () => {
    // Mira's exchange awaits Orin's response.
    const declared = then(duel(), melee('mira', 'orin', 0));
    // The GM's spell wounds Orin (ASK, with AD and MD Ready): where the Wound goes awaits him.
    const asking = fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: { ...orin, maxMD: 2, woundPreference: 'ASK' } },
      ],
      'mira',
    );
    const wounded = then(asking, {
      type: 'ApplyWounds',
      combatantId: 'orin',
      wounds: 1,
      harm: 'Elemental (Fire)',
    });
    const cases: [RuleEvent[], string, RuleCommand][] = [
      [declared, 'exchangeResponse', respond('orin', 'none')],
      [wounded, 'woundAllocation', { type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD'] }],
      [offered(), 'opportunityAttack', { type: 'DeclineOpportunity', combatantId: 'orin' }],
    ];
    for (const [events, kind, answer] of cases) {
      expect(viewOf(events).pending?.kind).toBe(kind);
      const ended = then(events, end);
      expect([kind, viewOf(ended)]).toMatchObject([
        kind,
        { status: 'ended', pending: null, exchange: null, pendingWounds: null, opportunity: null },
      ]);
      expect(refusal(ended, answer)).toMatchObject({ code: 'FIGHT_ENDED' });
    }
  });

  it('N24: given a reactor that took its Opportunity Attack, while the mover’s response is pending, then the view’s opportunity.current still names that reactor, whose attack the exchange resolves, and no offer is open: DeclineOpportunity waits for the response', () => {
    const taken = then(offered(), take('orin', { weaponId: 'mace' }));
    const v = viewOf(taken);
    expect(v.pending).toMatchObject({
      kind: 'exchangeResponse',
      awaiting: 'mira',
      answer: 'RespondToExchange',
    });
    expect(v.exchange).toMatchObject({ attackerId: 'orin', targetId: 'mira', opportunity: true });
    expect(v.opportunity).toMatchObject({ moverId: 'mira', current: 'orin', remaining: [] });
    expect(refusal(taken, { type: 'DeclineOpportunity', combatantId: 'orin' })).toMatchObject({
      code: 'PENDING_DECISION',
    });
  });
});
