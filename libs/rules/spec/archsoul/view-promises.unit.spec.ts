import fc from 'fast-check';
import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { DiceSource } from '../../src/dice/roll';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import {
  AP_COST,
  ArchsoulCombatantView,
  ArchsoulState,
  ArchsoulView,
  canStep,
  distance,
  facings,
  handsFor,
  neighbours,
  same,
  Space,
} from '../../src/archsoul';
import { lineOfSight } from '../../src/archsoul/map';
import {
  AMMUNITION_KINDS,
  ATTACK_TYPES,
  ATTRIBUTES,
  CRITICAL_TABLES,
  HANDLING,
  SIZES,
  SKILLS,
  WEAPON_PROPERTIES,
} from '../../src/archsoul/data';
import { view as archsoulView } from '../../src/archsoul/view';
import { TEST_COMMITMENT } from '../given';
import { Choices, command, openFight, SIDES } from './command-space';
import { ARMOUR, item, list, opt, settleSheet, settleWeapon, strip, validSheet } from './sheet-space';
import { exact, fight, find, foe, hero, pistol, refused, stateOf, sword, then, types } from './helpers';

/**
 * What the view promises is what the decider accepts, and what it withholds the decider refuses. Clients build their
 * buttons from the view (ARCHSOUL_VIEW): who acts, AP left, ready weapons and their ammunition, moves and speed, hands,
 * the ground, grapples, the reaction offered and the pending decision with the command that answers it. Random fights
 * of random valid sheets (sheet-space.ts's, which sheet-fuzz.unit.spec.ts uses too, and sheets of everyday numbers) are walked
 * on seeded and manual dice; after every step the decider is probed on the state reached with the commands the view
 * offers (each with everything else legal) and with those it withholds, and each must be accepted, or refused with the
 * code that names what the view showed. A probe decides on the current state and its result is discarded: the walk
 * goes on as if nothing was asked. Two steps in three play a command the view offered (as a client would), the third
 * any command of sheet-fuzz's. FUZZ_RUNS and FUZZ_SEED explore further than the default run; FUZZ_SHRINK=0 reports a
 * failure as found, unshrunk; FUZZ_STATS=1 prints how often each promise was probed and what the walks played.
 */
const system = findSystem('archsoul') as RuleSystem<FightCore>;

/* ------------------------------------------------------------------------------------------------------------
 * Sheets: anything ARCHSOUL_SHEET and validateSheet accept (sheet-space.ts), and sheets of everyday numbers.
 * ---------------------------------------------------------------------------------------------------------- */

/**
 * A sheet of the numbers fights are played with (a few HP and dice, reaches and ranges of a few spaces, ammunition
 * that runs out), so that walks reach reactive attacks, grapples, prone riders, jams and empty quivers before
 * everybody is Down.
 */
const small = (max: number, min = 0) => fc.integer({ min, max });
const tameWeapon = (id: string) =>
  fc
    .record({
      name: fc.constant('W'),
      type: fc.constantFrom(...ATTACK_TYPES, 'melee', 'melee', 'ranged'),
      damage: small(3),
      reach: opt(small(2, 1)),
      accurateRange: small(4, 1),
      extraRange: opt(small(4)),
      criticalTable: opt(fc.constantFrom(...CRITICAL_TABLES)),
      soulMagic: opt(fc.boolean()),
      stowage: opt(fc.constantFrom('simple' as const, 'awkward' as const)),
      held: opt(fc.boolean()),
      handling: opt(fc.constantFrom(...HANDLING)),
      twoHanded: opt(fc.boolean()),
      hardness: opt(small(2)),
      closeCombat: opt(fc.boolean()),
      properties: opt(fc.subarray([...WEAPON_PROPERTIES], { maxLength: 3 })),
      areaRadius: opt(fc.constantFrom(2, 4)),
      hp: opt(small(6)),
      ammunition: opt(fc.record({ kind: fc.constantFrom(...AMMUNITION_KINDS), count: small(3) })),
      heavy: opt(fc.boolean()),
      thrown: opt(fc.record({ accurateRange: small(4, 1) })),
    })
    .map((w) => settleWeapon(id, w));
const tameSheet = fc
  .record({
    attributes: fc.record(Object.fromEntries(ATTRIBUTES.map((a) => [a, small(4)]))),
    skills: fc.dictionary(fc.constantFrom(...SKILLS), small(3), { maxKeys: 6 }),
    maxHp: small(20, 6),
    defense: opt(small(2)),
    speed: opt(small(4)),
    metalGauntlets: opt(fc.boolean()),
    weapons: fc
      .integer({ min: 1, max: 3 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => tameWeapon(`w${i}`)))),
    items: list('i', item, 3),
    animalIntelligence: opt(fc.boolean()),
    size: opt(fc.constantFrom(...SIZES)),
    shatterResponse: opt(fc.constantFrom('roll', 'drop')),
    trampleResponse: opt(fc.constantFrom('stop', 'avoid')),
    mount: opt(
      fc
        .record({ speed: small(4, 1), size: opt(fc.constantFrom(...SIZES)), trampleDamage: small(3) })
        .map(strip),
    ),
    armour: opt(fc.record({ type: fc.constantFrom(...ARMOUR), metal: opt(fc.boolean()) }).map(strip)),
    shield: opt(fc.record({ bonus: small(3), held: opt(fc.boolean()), hp: opt(small(5)) }).map(strip)),
  })
  .map((s) => settleSheet(strip({ ...s })));

/* ------------------------------------------------------------------------------------------------------------
 * Fights and walks: commands chosen from the state they are sent to.
 * ---------------------------------------------------------------------------------------------------------- */

/** Manual faces read from choices: none, all 1s (critical failures), all 6s, or random, each list 0–16 long. */
function faces(ch: Choices): ManualFaces {
  const list = (max: number) => {
    const n = ch.int(max + 1);
    const style = ch.int(5);
    return Array.from({ length: n }, () =>
      style === 0 ? 1 : style === 1 ? 6 : style === 2 ? 1 + ch.int(2) : 1 + ch.int(6),
    );
  };
  const f: ManualFaces = { dice: list(16) };
  if (ch.bool(2)) f.followUpFaces = list(4);
  if (ch.bool(4)) f.rerollFaces = list(6);
  return f;
}

/** The faces seeded dice show for `command`'s own first pool, and no more: the fight asks for its later rolls (C13). */
function firstPool(state: ArchsoulState, command: RuleCommand): ManualFaces {
  const seeded = new SeededDice({ seed: SEEDED, fightId: SEEDED, drawsUsed: 0 });
  const dice: number[] = [];
  let pools = 0;
  const recording: DiceSource = {
    roll(count, sides, kind = 'pool') {
      const r = seeded.roll(count, sides);
      if (kind === 'pool' && pools++ === 0) dice.push(...r.faces);
      return r;
    },
  };
  try {
    system.decide(state, structuredClone(command), recording);
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
  }
  return { dice };
}

interface Case {
  sheets: Record<string, unknown>[];
  sides: number[];
  places: number[][];
  setup: number[];
  steps: number[][];
}

const STEP = fc.array(fc.nat({ max: 0xffff }), { minLength: 48, maxLength: 48 });
const cases = fc.record({
  sheets: fc.oneof(
    fc.array(validSheet, { minLength: 3, maxLength: 6 }),
    fc.array(tameSheet, { minLength: 3, maxLength: 6 }),
  ),
  sides: fc.array(fc.nat({ max: 3 }), { minLength: 5, maxLength: 5 }),
  places: fc.array(fc.array(fc.nat({ max: 0xffff }), { minLength: 4, maxLength: 4 }), {
    minLength: 5,
    maxLength: 5,
  }),
  setup: fc.array(fc.nat({ max: 0xffff }), { minLength: 16, maxLength: 16 }),
  steps: fc.array(STEP, { minLength: 1, maxLength: 40, size: 'max' }),
});

/* ------------------------------------------------------------------------------------------------------------
 * Probes: the decider asked on the state the view shows, its answer discarded.
 * ---------------------------------------------------------------------------------------------------------- */

type Sheet = ArchsoulState['combatants'][string]['sheet'];
type SheetWeapon = Sheet['weapons'][number];
type CombatantView = ArchsoulCombatantView;

/** How often each promise was probed, each way (FUZZ_STATS=1 prints it). */
const PROBED = new Map<string, number>();
const tally = (what: string) => PROBED.set(what, (PROBED.get(what) ?? 0) + 1);

/** Up to this many combinations of a request's faces, the engine tries every one (dice-requests.ts). */
const EVERY_COMBINATION = 64;

/** Every list of `count` faces of a d`sides`. */
function combinations(count: number, sides: number): number[][] {
  let out: number[][] = [[]];
  for (let i = 0; i < count; i++)
    out = out.flatMap((c) => Array.from({ length: sides }, (_, f) => [...c, f + 1]));
  return out;
}

/** The fist every combatant has (sheet.ts FIST): unarmed, reach 1, never held, never spent. */
const FIST_ID = 'fist';

/** S96: a sheet weapon with the fist's id stands in for the built-in fist, which the view does not list. */
const ownFist = (c: CombatantView) => c.weapons.some((w) => w.id === FIST_ID);

class Probe {
  readonly v: ArchsoulView;
  /** The commands the engine accepted as the view promised: what a client's buttons would send. */
  readonly offered: RuleCommand[] = [];

  /**
   * At most `n` of `xs`, a different window at each step of the walk: a sheet may carry 30 weapons and 50 items, and
   * probing each at every step would cost more than it finds; over a walk every one is probed.
   */
  some<T>(xs: readonly T[], n = 4): T[] {
    if (xs.length <= n) return [...xs];
    const from = this.history.length % xs.length;
    return [...xs, ...xs].slice(from, from + n);
  }
  constructor(
    readonly state: ArchsoulState,
    private readonly history: RuleCommand[],
  ) {
    this.v = system.view(state) as ArchsoulView;
  }

  /** The decider's answer on the current state (seeded dice, so no faces are ever short, or `faces`); nothing is kept. */
  private decide(
    command: RuleCommand,
    faces?: ManualFaces,
  ): { events?: RuleEvent[]; refused?: RuleViolation } {
    try {
      const dice = faces
        ? new ManualDice(faces)
        : new SeededDice({ seed: 'probe', fightId: 'probe', drawsUsed: 0 });
      return { events: system.decide(this.state, structuredClone(command), dice) };
    } catch (e) {
      if (e instanceof RuleViolation) return { refused: e };
      throw e;
    }
  }

  private broken(promise: string, command: RuleCommand | undefined, found: string): never {
    const id = command?.combatantId ?? command?.attackerId;
    const entry = typeof id === 'string' ? this.v.combatants.find((c) => c.id === id) : undefined;
    throw new Error(
      `the view promises ${promise}, but ${found}\n  probe: ${JSON.stringify(command)}\n  its view: ${JSON.stringify(entry)}\n  after: ${JSON.stringify(this.history)}`,
    );
  }

  /** A promise on the view alone (its fields agree with each other). */
  holds(promise: string, ok: boolean, found = 'the view says otherwise'): void {
    tally(promise);
    if (!ok) this.broken(promise, undefined, found);
  }

  accepts(promise: string, command: RuleCommand): RuleEvent[] {
    tally(`${promise} ⇒ accepted`);
    const out = this.decide(command);
    if (out.refused)
      this.broken(promise, command, `the engine refuses it: ${out.refused.code}: ${out.refused.message}`);
    this.offered.push(command);
    return out.events!;
  }

  /**
   * C13, C18: a dice request is answered with the faces its detail names: the held command reads every face it carries
   * on some roll, so one of the answers the engine tries itself is accepted (dice-requests.ts: every combination of a
   * few dice, each face repeated on many). When only repeated faces are tried, a refusal of all of them shows nothing:
   * a mixed answer (a tie) may be the one.
   */
  answersRequest(need: { field: keyof ManualFaces; count: number; sides: number }): void {
    const promise = `pending dice: ProvideDice with the ${need.count} d${need.sides} face(s) in ${need.field} it names`;
    const every = need.sides ** need.count <= EVERY_COMBINATION;
    const answers = Array.from({ length: need.sides }, (_, f) => Array<number>(need.count).fill(f + 1));
    if (every) answers.push(...combinations(need.count, need.sides).filter((c) => new Set(c).size > 1));
    const refused: string[] = [];
    for (const faces of answers) {
      const out = this.decide({ type: 'ProvideDice', [need.field]: faces }, { [need.field]: faces });
      if (out.events) {
        tally(`${promise} ⇒ accepted`);
        return;
      }
      refused.push(
        `${JSON.stringify(faces)}: ${out.refused!.code} ${out.refused!.field}: ${out.refused!.message}`,
      );
    }
    if (!every) {
      tally(`${promise} ⇒ no answer of one face on every die`);
      return;
    }
    this.broken(
      promise,
      { type: 'ProvideDice', [need.field]: answers[0] },
      `the engine refuses every one: ${refused.join('; ')}`,
    );
  }

  /** Refused with one of `codes` (any of the reasons the view shows). */
  refuses(promise: string, command: RuleCommand, ...codes: string[]): void {
    tally(`${promise} ⇒ ${codes.join(' | ')}`);
    const out = this.decide(command);
    if (!out.refused)
      this.broken(
        promise,
        command,
        `the engine accepts it: ${out.events!.map((e) => e.type).join(', ') || 'no events'}`,
      );
    if (!codes.includes(out.refused.code))
      this.broken(
        promise,
        command,
        `the engine refuses it with ${out.refused.code} (${out.refused.message}), not ${codes.join(' or ')}`,
      );
  }

  /** Accepted when the view shows no reason against it, else refused with one of the reasons it shows. */
  answers(
    promise: string,
    command: RuleCommand,
    reasons: (string | false | undefined)[],
  ): RuleEvent[] | undefined {
    const codes = reasons.filter((r): r is string => typeof r === 'string');
    if (codes.length === 0) return this.accepts(promise, command);
    this.refuses(promise, command, ...codes);
    return undefined;
  }

  sheet(id: string): Sheet {
    return this.state.combatants[id].sheet;
  }

  cv(id: string): CombatantView {
    return this.v.combatants.find((x) => x.id === id)!;
  }
}

const has = (c: CombatantView, condition: string) => c.conditions.some((k) => k.condition === condition);
const total = (c: CombatantView, condition: string) =>
  c.conditions.filter((k) => k.condition === condition).reduce((t, k) => t + k.amount, 0);
const ON_ITS_TURN = (c: CombatantView) => c.inTurn && c.state === 'Active';

/** The spaces `n` steps straight on from `from`, each a step S19 allows into a space nobody stands in. */
function freeLine(p: Probe, from: Space, n: number): Space[] | undefined {
  const map = p.v.map;
  const taken = (s: Space) => p.v.combatants.some((c) => c.position && same(c.position, s));
  for (const first of neighbours(map.grid, from)) {
    const path: Space[] = [];
    let at = from;
    for (let i = 1; i <= n; i++) {
      const s = { x: from.x + (first.x - from.x) * i, y: from.y + (first.y - from.y) * i };
      if (!canStep(map, at, s) || taken(s)) break;
      path.push(s);
      at = s;
    }
    if (path.length === n) return path;
  }
  return undefined;
}

/** A path of at most `n` steps toward the nearest foe, each step S19 allows, ending beside it; none when already there. */
function approach(p: Probe, c: CombatantView, n: number): Space[] | undefined {
  const grid = p.v.map.grid;
  const from = c.position!;
  const foes = p.v.combatants.filter((x) => x.party !== c.party && x.position);
  const far = (s: Space, x: CombatantView) => distance(grid, s, x.position!);
  const foe = foes.sort((a, b) => far(from, a) - far(from, b))[0];
  if (!foe) return undefined;
  const taken = (s: Space) => p.v.combatants.some((x) => x.position && same(x.position, s));
  const path: Space[] = [];
  let at = from;
  while (path.length < n && far(at, foe) > 1) {
    const next = neighbours(grid, at)
      .filter((s) => canStep(p.v.map, at, s) && !taken(s) && far(s, foe) < far(at, foe))
      .sort((a, b) => far(a, foe) - far(b, foe))[0];
    if (!next) break;
    path.push(next);
    at = next;
  }
  return path.length ? path : undefined;
}

/** Reach (melee, unarmed: at most adjacent, S26) or maximum range of a sheet weapon, or the fist's reach. */
function reachOf(w: SheetWeapon | undefined): number {
  if (!w) return 1;
  if (w.type === 'unarmed') return Math.min(1, w.reach);
  return w.type === 'melee' ? w.reach : w.maximumRange!;
}

/** Whether `w` (the fist when undefined) reaches from `a` to `t` (S23, S73: no wall or blocked space between). */
function reaches(p: Probe, a: CombatantView, t: CombatantView, range: number): boolean {
  if (!a.position || !t.position) return false;
  return (
    distance(p.v.map.grid, a.position, t.position) <= range && lineOfSight(p.v.map, a.position, t.position)
  );
}

/** archsoul.txt: Lifting, Throwing, and Improvised Weapons: too heavy when the Athletics Difference is 0 or less (S37). */
function tooHeavy(sheet: Sheet, w: SheetWeapon): boolean {
  return (
    w.liftingAthletics !== undefined &&
    (w.weightLb ?? 0) > 10 &&
    sheet.attributes.athletics <= w.liftingAthletics
  );
}

/** Items of `c` not on it: lying on the ground (S21, S60) or carried off by another (S33, S60). */
function awayOf(p: Probe, c: CombatantView): Set<string> {
  const away = new Set<string>();
  for (const g of p.v.ground) if (g.ownerId === c.id && !g.ammunition) away.add(g.itemId);
  for (const x of p.v.combatants) for (const s of x.stolen) if (s.fromId === c.id) away.add(s.itemId);
  return away;
}

/* ------------------------------------------------------------------------------------------------------------
 * The promises.
 * ---------------------------------------------------------------------------------------------------------- */

/** The view's fields agree with each other where a client reads one to mean another. */
function consistent(p: Probe): void {
  const v = p.v;
  const open = v.combatants.filter((c) => c.inTurn).map((c) => c.id);
  p.holds(
    'openTurns lists the combatants in their turn',
    JSON.stringify(open) === JSON.stringify(v.openTurns),
  );
  p.holds('activeCombatantId stays null (turns run in phases, S12)', v.activeCombatantId === null);
  p.holds('no phase, no open turn', v.phase !== null || open.length === 0);
  p.holds('a reaction is answered through the pending decision', v.reaction === null || v.pending !== null);
  for (const c of v.combatants) {
    const sheet = p.sheet(c.id);
    const who = `${c.id}: `;
    if (c.inTurn)
      p.holds(
        'a combatant in its turn is Active and in the running phase',
        c.state === 'Active' && !!v.phase?.combatantIds.includes(c.id),
        `${who}${c.state}, phase ${JSON.stringify(v.phase)}`,
      );
    p.holds(
      'ap are left this turn: none outside it',
      c.inTurn || c.ap === 0,
      `${who}ap ${c.ap} outside its turn`,
    );
    p.holds(
      'hasFrontArc: false exactly while Down or grappled',
      c.hasFrontArc === (c.state === 'Active' && !has(c, 'grappled')),
      `${who}hasFrontArc ${c.hasFrontArc}`,
    );
    p.holds(
      'defense: the sheet’s less defenseDown',
      c.defense === Math.max(0, c.baseDefense - total(c, 'defenseDown')),
    );
    p.holds(
      'speed: the mount’s while mounted (S86), else the sheet’s less slowed',
      c.speed === (c.mounted && c.mount ? c.mount.speed : Math.max(0, c.baseSpeed - total(c, 'slowed'))),
      `${who}speed ${c.speed}`,
    );
    p.holds('mounted: on the sheet’s mount', !c.mounted || c.mount !== null);
    const shield = sheet.shield;
    p.holds(
      'shieldBonus: a held shield’s, with a front arc',
      c.shieldBonus === (shield && c.held.includes(shield.id) && c.hasFrontArc ? shield.bonus : 0),
      `${who}shieldBonus ${c.shieldBonus}`,
    );
    p.holds(
      'hands and freeHands agree with held',
      c.hands.every((h) => h === null || c.held.includes(h)) &&
        c.freeHands === c.hands.filter((h) => h === null).length &&
        c.held.every((id) => handsFor(sheet, id) === 0 || c.hands.includes(id)),
      `${who}held ${JSON.stringify(c.held)}, hands ${JSON.stringify(c.hands)}, freeHands ${c.freeHands}`,
    );
    for (const w of c.weapons) {
      p.holds('a weapon’s held is held', w.held === c.held.includes(w.id));
      p.holds('a destroyed weapon is out of its hands', !w.destroyed || !w.held, `${who}${w.id}`);
    }
  }
  for (const g of v.grapples) {
    p.holds('a grapple’s control is one of its members', g.memberIds.includes(g.controlId));
    for (const id of g.memberIds)
      p.holds(
        'a grapple’s members are grappled, with no front arc',
        has(p.cv(id), 'grappled') && !p.cv(id).hasFrontArc,
        `${id} in ${g.grappleId}`,
      );
  }
}

/** What the running round and phase allow (C4: only with no pending decision). */
function roundPromises(p: Probe): void {
  const v = p.v;
  p.answers('roundOpen: StartRound opens the next round only between rounds', { type: 'StartRound' }, [
    v.roundOpen && 'ROUND_ALREADY_OPEN',
    v.initiative.length === 0 && 'INITIATIVE_NOT_SET',
  ]);
  p.answers('roundOpen: EndRound ends an open round', { type: 'EndRound' }, [
    !v.roundOpen && 'ROUND_NOT_OPEN',
  ]);
  p.answers('phase: EndPhase ends the running phase', { type: 'EndPhase' }, [
    !v.phase && 'ARCHSOUL_NO_PHASE',
  ]);
  p.refuses(
    'activeCombatantId null: no activations (S12)',
    { type: 'StartActivation' },
    'ARCHSOUL_USE_PHASES',
  );
}

/** C4: the pending decision names who answers with which command; nothing else is decided. */
function pendingPromises(p: Probe): void {
  const v = p.v;
  const pending = v.pending!;
  p.refuses('pending: only its answer is decided', { type: 'EndPhase' }, 'PENDING_DECISION');
  for (const c of v.combatants.filter(ON_ITS_TURN))
    p.refuses(
      'pending: an open turn waits for the answer',
      { type: 'EndTurn', combatantId: c.id },
      'PENDING_DECISION',
    );
  if (pending.kind !== 'reactiveAttack' && pending.kind !== 'resumeAction') {
    // The lifecycle's decisions (dice, initiativeTie): the GM may cancel them (C4).
    p.accepts('pending: the GM may cancel a lifecycle decision', { type: 'CancelPending' });
    if (pending.kind === 'dice')
      p.answersRequest(pending.detail as { field: keyof ManualFaces; count: number; sides: number });
    return;
  }
  const q = v.reaction;
  p.holds(
    'pending reactiveAttack / resumeAction: a reaction is answered',
    q !== null,
    JSON.stringify(pending),
  );
  if (!q) return;
  const others = v.combatants.filter((c) => c.id !== pending.awaiting);
  if (pending.kind === 'reactiveAttack') {
    const detail = pending.detail as { actorId?: string; trigger?: string; alsoAccepts?: string[] };
    p.holds(
      'pending reactiveAttack: awaits the reactor offered now, for the reaction’s actor and trigger',
      q.current === pending.awaiting &&
        detail.actorId === q.actorId &&
        detail.trigger === q.trigger &&
        pending.answer === 'ReactiveAttack' &&
        !!detail.alsoAccepts?.includes('DeclineReactiveAttack'),
      JSON.stringify({ pending, reaction: q }),
    );
    reactorPromises(p, p.cv(pending.awaiting), p.cv(q.actorId));
    for (const o of others)
      p.refuses(
        'pending reactiveAttack: only the awaited reactor declines',
        { type: 'DeclineReactiveAttack', combatantId: o.id },
        'ARCHSOUL_NOT_YOUR_REACTION',
      );
    p.accepts('pending reactiveAttack: the awaited reactor may decline (alsoAccepts)', {
      type: 'DeclineReactiveAttack',
      combatantId: pending.awaiting,
    });
    return;
  }
  if (pending.kind === 'resumeAction') {
    p.holds(
      'pending resumeAction: awaits the reaction’s actor, whose action is held',
      pending.awaiting === q.actorId &&
        q.action !== undefined &&
        pending.answer === 'ResumeAction' &&
        (pending.detail as { action?: string } | undefined)?.action === q.action.type,
      JSON.stringify({ pending, reaction: q }),
    );
    p.accepts('pending resumeAction: the actor may abandon its held action', {
      type: 'ResumeAction',
      combatantId: pending.awaiting,
      abandon: true,
    });
    p.accepts('pending resumeAction: the actor performs its held action', {
      type: 'ResumeAction',
      combatantId: pending.awaiting,
    });
    for (const o of others)
      p.refuses(
        'pending resumeAction: only the awaited actor resumes',
        { type: 'ResumeAction', combatantId: o.id },
        'ARCHSOUL_NOTHING_TO_RESUME',
      );
  }
}

/**
 * archsoul.txt: Reactive Attack: the offered reactor is Active with a front arc, within reach of one of its melee
 * attacks: each held melee or unarmed weapon that reaches the actor (or the fist) makes the attack; a Grab needs an
 * empty hand (S71).
 */
function reactorPromises(p: Probe, r: CombatantView, actor: CombatantView): void {
  p.holds('the reactor offered is Active with a front arc', r.state === 'Active' && r.hasFrontArc, r.id);
  const sheet = p.sheet(r.id);
  const close = [
    ...r.weapons.filter((w) => w.type === 'melee' || w.type === 'unarmed').map((w) => w.id),
    ...(ownFist(r) ? [] : [FIST_ID]),
  ];
  let reached = false;
  for (const id of close) {
    const w = sheet.weapons.find((x) => x.id === id);
    const vw = r.weapons.find((x) => x.id === id);
    if (!reaches(p, r, actor, reachOf(w))) continue;
    const command = { type: 'ReactiveAttack', combatantId: r.id, weaponId: id };
    const reasons = vw
      ? [vw.destroyed && 'ARCHSOUL_WEAPON_DESTROYED', !vw.held && !vw.destroyed && 'ARCHSOUL_WEAPON_NOT_HELD']
      : [];
    if (!vw || vw.held) reached = true;
    p.answers(
      'the reactor’s held melee weapon that reaches the actor makes the reactive attack',
      command,
      reasons,
    );
  }
  p.holds(
    'the reactor offered reaches the actor with a held melee weapon or its fist',
    reached,
    `${JSON.stringify(r)} does not reach ${JSON.stringify(actor.position)}`,
  );
  if (r.position && actor.position && distance(p.v.map.grid, r.position, actor.position) <= 1)
    p.answers(
      'freeHands: a reactive Grab needs an empty hand (S71)',
      { type: 'ReactiveAttack', combatantId: r.id, grab: true },
      [r.freeHands === 0 && 'ARCHSOUL_GRAB_NO_EMPTY_HAND'],
    );
}

/** What each combatant may do now, as its entry shows it (no decision pending). */
function combatantPromises(p: Probe, c: CombatantView): void {
  const turn = c.state === 'Down' ? 'ARCHSOUL_DOWN' : !c.inTurn ? 'ARCHSOUL_NOT_YOUR_TURN' : undefined;
  p.answers('inTurn: EndTurn ends an open turn', { type: 'EndTurn', combatantId: c.id }, [
    !c.inTurn && 'ARCHSOUL_NOT_YOUR_TURN',
  ]);
  const facing = facings(p.v.map.grid).find((f) => f !== c.facing)!;
  const turning = { type: 'Turn', combatantId: c.id, facing };
  if (!turn) p.accepts('inTurn, state: an Active combatant turns on its own turn only', turning);
  if (p.v.map.grid === 'hex' && c.inTurn)
    p.refuses(
      'facing: a hex grid has six facings (S5)',
      { type: 'Turn', combatantId: c.id, facing: 'E' },
      'ARCHSOUL_INVALID_FACING',
    );
  if (turn) {
    // A free action or one with AP, in turn.
    const action = p.some([turning, ritual(c, 1)], 1)[0];
    p.refuses('inTurn, state: no action outside an Active combatant’s turn', action, turn);
    return;
  }
  apPromises(p, c);
  movePromises(p, c);
  itemPromises(p, c);
  attackPromises(p, c);
  grapplePromises(p, c);
}

const ritual = (c: CombatantView, ap: number, movement = false): RuleCommand => ({
  type: 'PerformRitual',
  combatantId: c.id,
  name: 'Probe',
  ap,
  movement,
  provokes: false,
});

/** ap: an action costing at most the AP left is accepted, one costing more refused (archsoul.txt: The Action Economy). */
function apPromises(p: Probe, c: CombatantView): void {
  const poor = (cost: number) => c.ap < cost && 'ARCHSOUL_NOT_ENOUGH_AP';
  // The bound: a ritual of all the AP left is accepted, one of a point more refused (S46: 1–3 AP).
  for (const ap of [c.ap, c.ap + 1].filter((n) => n >= 1 && n <= 3))
    p.answers('ap: a ritual of 1–3 AP (S46)', ritual(c, ap), [poor(ap)]);
  p.answers('conditions: no ritual with movement while grappled', ritual(c, 1, true), [
    has(c, 'grappled') && 'ARCHSOUL_GRAPPLED',
    poor(1),
  ]);
  const other = p.v.combatants.find((x) => x.id !== c.id);
  if (other)
    p.answers('ap: Study (1 AP)', { type: 'Study', combatantId: c.id, targetId: other.id }, [poor(1)]);
  p.answers(
    'hasFrontArc, conditions: Hold Firm (2 AP) needs a front arc, once',
    { type: 'HoldFirm', combatantId: c.id },
    [
      !c.hasFrontArc && 'ARCHSOUL_NO_FRONT_ARC',
      c.hasFrontArc && has(c, 'holdFirm') && 'ARCHSOUL_STANCE_ACTIVE',
      poor(AP_COST.holdFirm),
    ],
  );
  const shield = p.sheet(c.id).shield;
  const shielded = !!shield && c.held.includes(shield.id);
  p.answers(
    'held: Shield Intercept (1 AP) with a held shield, once',
    { type: 'ShieldIntercept', combatantId: c.id },
    [
      !shielded && 'ARCHSOUL_SHIELD_INTERCEPT_NO_SHIELD',
      shielded && has(c, 'shieldIntercept') && 'ARCHSOUL_STANCE_ACTIVE',
      poor(AP_COST.shieldIntercept),
    ],
  );
  p.answers('conditions: StandUp (1 AP) only when prone', { type: 'StandUp', combatantId: c.id }, [
    !has(c, 'prone') && 'ARCHSOUL_NOT_PRONE',
    poor(AP_COST.standUp),
  ]);
  p.answers('mount, mounted: Dismount (1 AP) while mounted', { type: 'Dismount', combatantId: c.id }, [
    !c.position && 'ARCHSOUL_NOT_ON_MAP',
    !c.mounted && 'ARCHSOUL_NOT_MOUNTED',
    poor(AP_COST.dismount),
  ]);
  if (c.position && (c.mount === null || c.mounted))
    p.refuses(
      'mount, mounted: Mount needs a mount not ridden',
      { type: 'Mount', combatantId: c.id },
      c.mount === null ? 'ARCHSOUL_NO_MOUNT' : 'ARCHSOUL_ALREADY_MOUNTED',
    );
  for (const t of p.v.combatants) {
    if (t.id === c.id || t.party !== c.party || !t.position || !c.position) continue;
    if (distance(p.v.map.grid, c.position, t.position) !== 1) continue;
    p.answers(
      'party, position: Soul Shield (3 AP) on an adjacent ally',
      { type: 'SoulShield', combatantId: c.id, targetId: t.id },
      [poor(AP_COST.soulShield)],
    );
  }
}

/**
 * speed, moves, moveDistance, freeMove: a Move covers `speed` spaces, a third one 6 × speed less moveDistance (S6, S14);
 * an ambush's free move covers what freeMove says; prone and grappled combatants make none (S19, Being Grappled).
 */
function movePromises(p: Probe, c: CombatantView): void {
  if (!c.position) {
    p.refuses(
      'position null: a combatant off the map does not move',
      { type: 'Move', combatantId: c.id, path: [{ x: 0, y: 0 }] },
      'ARCHSOUL_NOT_ON_MAP',
    );
    return;
  }
  const held = has(c, 'prone') ? 'ARCHSOUL_PRONE' : has(c, 'grappled') ? 'ARCHSOUL_GRAPPLED' : undefined;
  const move = (path: Space[], free = false): RuleCommand => ({
    type: 'Move',
    combatantId: c.id,
    path,
    ...(free ? { free } : {}),
  });
  const budget = c.moves + 1 >= 3 ? 6 * c.speed - c.moveDistance : c.speed;
  const poor = c.ap < AP_COST.move && 'ARCHSOUL_NOT_ENOUGH_AP';
  for (const [n, within] of [
    [budget, true],
    [Math.max(1, budget + 1), false],
  ] as const) {
    if (n < 1 || n > 200) continue;
    const path = freeLine(p, c.position, n);
    if (path)
      p.answers('speed, moves, moveDistance: how far a Move goes', move(path), [
        held,
        poor,
        !within && !poor && 'ARCHSOUL_MOVE_TOO_FAR',
      ]);
  }
  const step = freeLine(p, c.position, 1);
  if (step)
    p.answers(
      'conditions: a Slow Move (1 AP) of one space, not prone (grappled: after a grapple roll)',
      { type: 'SlowMove', combatantId: c.id, to: step[0] },
      [has(c, 'prone') && 'ARCHSOUL_PRONE', poor],
    );
  const toward = approach(p, c, Math.min(budget, 200));
  if (toward)
    p.answers('speed, moves, moveDistance: a Move toward a foe, within speed', move(toward), [held, poor]);
  for (const [n, within] of [
    [c.freeMove, true],
    [c.freeMove + 1, false],
  ] as const) {
    if (n < 1 || n > 200) continue;
    const path = freeLine(p, c.position, n);
    if (path)
      p.answers('freeMove: how far the ambush’s free move goes', move(path, true), [
        held,
        c.freeMove === 0 && 'ARCHSOUL_NO_FREE_MOVE',
        !within && c.freeMove > 0 && 'ARCHSOUL_MOVE_TOO_FAR',
      ]);
  }
}

/** held, hands, freeHands, awkwardDraw, ground: what may be dropped, drawn and picked up (S51, S52, S60). */
function itemPromises(p: Probe, c: CombatantView): void {
  const sheet = p.sheet(c.id);
  const poor = (cost: number) => c.ap < cost && 'ARCHSOUL_NOT_ENOUGH_AP';
  const away = awayOf(p, c);
  for (const id of p.some(c.held))
    p.answers(
      'held: a held item may be dropped (free)',
      { type: 'DropItem', combatantId: c.id, itemId: id },
      [!c.position && 'ARCHSOUL_NOT_ON_MAP'],
    );
  const things = [
    ...sheet.weapons.map((w) => ({
      id: w.id,
      twoHanded: w.twoHanded,
      stowage: w.stowage,
      spear: w.properties.includes('spear'),
      shield: false,
    })),
    ...sheet.items.map((i) => ({
      id: i.id,
      twoHanded: i.twoHanded,
      stowage: i.stowage,
      spear: false,
      shield: false,
    })),
    ...(sheet.shield
      ? [{ id: sheet.shield.id, twoHanded: false, stowage: 'awkward' as const, spear: false, shield: true }]
      : []),
  ];
  for (const x of p.some(things)) {
    if (c.held.includes(x.id)) continue;
    const vw = c.weapons.find((w) => w.id === x.id);
    const destroyed = vw?.destroyed && 'ARCHSOUL_WEAPON_DESTROYED';
    const gone = away.has(x.id) && 'ARCHSOUL_ITEM_AWAY';
    const hands = handsFor(sheet, x.id) > c.freeHands && 'ARCHSOUL_HANDS_FULL';
    const awkward =
      (x.shield || (x.twoHanded && !x.spear) || x.stowage === 'awkward') && 'ARCHSOUL_AWKWARD_ITEM';
    if (c.position)
      p.answers(
        'held: an item not held cannot be dropped',
        { type: 'DropItem', combatantId: c.id, itemId: x.id },
        [destroyed, !destroyed && 'ARCHSOUL_ITEM_NOT_HELD'],
      );
    p.answers(
      'held, freeHands, ground, stolen, weapons: Draw Simple Item (1 AP) draws a simple item carried, into free hands',
      { type: 'DrawSimpleItem', combatantId: c.id, itemId: x.id },
      [destroyed, gone, awkward, hands, poor(AP_COST.drawSimpleItem)],
    );
    const drawn = p.answers(
      'held, freeHands, ground, stolen, weapons: Draw Awkward Item draws anything carried, into free hands',
      { type: 'DrawAwkwardItem', combatantId: c.id, itemId: x.id },
      [destroyed, gone, hands, poor(1)],
    );
    const paid = drawn?.find((e) => e.type === 'ApSpent')?.data.ap;
    if (paid !== undefined)
      p.holds(
        'awkwardDraw: the draw in progress takes its second AP, any other two (S25)',
        paid === (c.awkwardDraw === x.id || c.ap < 2 ? 1 : 2),
        `${c.id} drawing ${x.id} paid ${JSON.stringify(paid)}, awkwardDraw ${c.awkwardDraw}`,
      );
  }
  if (c.awkwardDraw !== null)
    p.holds(
      'awkwardDraw: an item carried, not in hand',
      !c.held.includes(c.awkwardDraw) && !away.has(c.awkwardDraw),
      `${c.id} ${c.awkwardDraw}`,
    );
  for (const g of p.some(p.v.ground)) {
    if (!c.position) break;
    const here = same(c.position, g.space);
    const owner = p.state.combatants[g.ownerId];
    const need = g.ammunition ? 0 : owner ? handsFor(owner.sheet, g.itemId) : 1;
    p.answers(
      'ground: an item in the own space may be picked up (1 AP), into free hands',
      { type: 'DrawSimpleItem', combatantId: c.id, groundId: g.groundId },
      [
        !here && 'ARCHSOUL_ITEM_NOT_HERE',
        here && need > c.freeHands && 'ARCHSOUL_HANDS_FULL',
        here && poor(AP_COST.drawSimpleItem),
      ],
    );
  }
}

/**
 * weapons (held, destroyed, jammed, ammunition), attackedWith, quickAttacked: a ready weapon attacks a target in its
 * reach or range, a weapon that is not refuses with what the view shows; the fist is always ready (S26).
 */
function attackPromises(p: Probe, c: CombatantView): void {
  const sheet = p.sheet(c.id);
  const grappled = has(c, 'grappled');
  const poor = (cost: number) => c.ap < cost && 'ARCHSOUL_NOT_ENOUGH_AP';
  for (const w of p.some(c.weapons)) {
    const notHeld = !w.destroyed && !w.held && 'ARCHSOUL_WEAPON_NOT_HELD';
    p.answers(
      'weapons jammed: ClearJam (3 AP) clears a held jammed weapon',
      { type: 'ClearJam', combatantId: c.id, weaponId: w.id },
      [
        w.destroyed && 'ARCHSOUL_WEAPON_DESTROYED',
        notHeld,
        w.held && !w.jammed && 'ARCHSOUL_NOT_JAMMED',
        poor(AP_COST.clearJam),
      ],
    );
  }
  if (!c.position) return;
  if (c.quickAttacked) {
    p.refuses(
      'quickAttacked: no other attacks this turn',
      { type: 'Attack', attackerId: c.id, targetId: c.id },
      'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS',
    );
    return;
  }
  const targets = p.v.combatants.filter((t) => t.id !== c.id && t.position);
  const weapons = [
    ...p.some(c.weapons.filter((w) => w.type !== 'thrown')),
    ...(ownFist(c) ? [] : [undefined]),
  ];
  for (const w of weapons) {
    const sw = w && sheet.weapons.find((x) => x.id === w.id)!;
    const t = targets.find((x) => reaches(p, c, x, reachOf(sw)));
    if (!t) continue;
    // S95: a jam and the ammunition concern shots, not a melee or unarmed blow.
    const shoots = w !== undefined && w.type !== 'melee' && w.type !== 'unarmed';
    const reasons = w
      ? [
          w.destroyed && 'ARCHSOUL_WEAPON_DESTROYED',
          !w.destroyed && !w.held && 'ARCHSOUL_WEAPON_NOT_HELD',
          shoots && w.jammed && 'ARCHSOUL_WEAPON_JAMMED',
          grappled && sw!.type !== 'unarmed' && !sw!.soulMagic && 'ARCHSOUL_GRAPPLED',
          shoots && w.ammunition === 0 && 'ARCHSOUL_NO_AMMUNITION',
          tooHeavy(sheet, sw!) && 'ARCHSOUL_TOO_HEAVY',
        ]
      : [];
    const weaponId = w?.id ?? FIST_ID;
    const attack = { type: 'Attack', attackerId: c.id, targetId: t.id, weaponId };
    const events = p.answers(
      'weapons: a ready weapon (held, not destroyed; one that shoots not jammed, with ammunition left) attacks a target in reach or range (2 AP)',
      attack,
      [...reasons, poor(AP_COST.attack)],
    );
    exchangePromises(p, c, t, events);
    shatterPromises(p, c, t, sw, attack, [...reasons, poor(AP_COST.attack)]);
    sneakPromises(p, c, t, sw, attack, [...reasons, poor(AP_COST.attack)]);
    if (sw?.twoHanded) continue;
    p.answers(
      'attackedWith: a Quick Attack (1 AP) takes a one-handed weapon not yet attacked with',
      { ...attack, special: 'quick' },
      [...reasons, c.attackedWith.includes(weaponId) && 'ARCHSOUL_QUICK_ATTACK_WEAPON_USED', poor(1)],
    );
  }
  const thrown = [
    ...sheet.weapons.filter((x) => x.thrown).map((x) => ({ id: x.id, range: x.thrown!.maximumRange, w: x })),
    ...sheet.items
      .filter((x) => x.thrown)
      .map((x) => ({ id: x.id, range: x.thrown!.maximumRange, w: undefined })),
  ];
  for (const x of p.some(thrown)) {
    const t = targets.find((y) => reaches(p, c, y, x.range));
    if (!t) continue;
    p.answers(
      'held: a held item with throwing ranges is thrown at a target in range (1 AP)',
      { type: 'ThrowItem', combatantId: c.id, itemId: x.id, targetId: t.id },
      [
        !c.held.includes(x.id) && 'ARCHSOUL_ITEM_NOT_HELD',
        c.held.includes(x.id) && grappled && 'ARCHSOUL_GRAPPLED',
        c.held.includes(x.id) && x.w && tooHeavy(sheet, x.w) && 'ARCHSOUL_TOO_HEAVY',
        poor(AP_COST.throwItem),
      ],
    );
  }
  areaPromises(p, c, targets);
  for (const t of targets) {
    if (!reaches(p, c, t, 1)) continue;
    if (p.v.grapples.some((g) => g.memberIds.includes(c.id) && g.memberIds.includes(t.id))) continue;
    p.answers(
      'freeHands: a Grab (2 AP) of an adjacent combatant needs an empty hand',
      { type: 'Grab', combatantId: c.id, targetId: t.id },
      [c.freeHands === 0 && 'ARCHSOUL_GRAB_NO_EMPTY_HAND', poor(AP_COST.grab)],
    );
  }
}

/**
 * weapons: a ready area weapon (ranged, elemental: 2 AP; a thrown bomb, held: 1 AP) attacks a centre in range and sight
 * (S34); one that is not refuses with what the view shows.
 */
function areaPromises(p: Probe, c: CombatantView, targets: CombatantView[]): void {
  const sheet = p.sheet(c.id);
  const grappled = has(c, 'grappled');
  for (const w of p.some(
    c.weapons.filter((x) => ['ranged', 'thrown', 'elemental'].includes(x.type)),
    2,
  )) {
    const sw = sheet.weapons.find((x) => x.id === w.id)!;
    if (!sw.areaRadius) continue;
    const thrown = sw.type === 'thrown';
    const t = targets.find((x) => reaches(p, c, x, thrown ? sw.thrown!.maximumRange : sw.maximumRange!));
    if (!t) continue;
    const notHeld =
      !w.held &&
      (thrown
        ? 'ARCHSOUL_ITEM_NOT_HELD'
        : w.destroyed
          ? 'ARCHSOUL_WEAPON_DESTROYED'
          : 'ARCHSOUL_WEAPON_NOT_HELD');
    p.answers(
      'weapons: a ready area weapon attacks a centre in range (S34)',
      { type: 'AreaAttack', attackerId: c.id, weaponId: w.id, centre: t.position },
      [
        notHeld,
        // S48: a bomb is thrown, a weapon attack whatever its sheet says of soul magic.
        grappled && (thrown || !sw.soulMagic) && 'ARCHSOUL_GRAPPLED',
        !thrown && w.jammed && 'ARCHSOUL_WEAPON_JAMMED',
        !thrown && w.ammunition === 0 && 'ARCHSOUL_NO_AMMUNITION',
        tooHeavy(sheet, sw) && 'ARCHSOUL_TOO_HEAVY',
        c.ap < (thrown ? AP_COST.throwItem : AP_COST.attack) && 'ARCHSOUL_NOT_ENOUGH_AP',
      ],
    );
  }
}

/**
 * The target's held (S31): a Shatter targets a weapon or shield the target holds, with a melee, unarmed, ranged or thrown
 * weapon; an ordinary item has no weapon attack roll to defend it (S44).
 */
function shatterPromises(
  p: Probe,
  a: CombatantView,
  t: CombatantView,
  w: SheetWeapon | undefined,
  attack: RuleCommand,
  reasons: (string | false | undefined)[],
): void {
  const sheet = p.sheet(t.id);
  const type = w?.type ?? 'unarmed';
  const weapon = (type === 'elemental' || type === 'soul') && 'ARCHSOUL_SHATTER_WEAPON';
  const ids = [
    ...sheet.weapons.map((x) => x.id),
    ...sheet.items.map((x) => x.id),
    ...(sheet.shield ? [sheet.shield.id] : []),
  ];
  for (const itemId of p.some(ids, 3)) {
    const ordinary = sheet.items.some((x) => x.id === itemId);
    p.answers(
      'held (of the target): a Shatter targets a weapon or shield it holds',
      { ...attack, shatter: { itemId } },
      [
        ...reasons,
        weapon,
        ordinary && 'ARCHSOUL_SHATTER_ORDINARY_ITEM',
        !ordinary && !t.held.includes(itemId) && 'ARCHSOUL_SHATTER_ITEM',
      ],
    );
  }
}

/**
 * study, conditions (unaware): three consecutive studies of an unaware target allow a Sneak Attack on it (S30), within a
 * ranged weapon's accurate range (S94), on a familiar anatomy and a golem or plant only with the skill its kind needs.
 */
function sneakPromises(
  p: Probe,
  a: CombatantView,
  t: CombatantView,
  w: SheetWeapon | undefined,
  attack: RuleCommand,
  reasons: (string | false | undefined)[],
): void {
  const studied = a.study?.targetId === t.id ? a.study.count : 0;
  if (studied === 0 && !has(t, 'unaware')) return;
  const sheet = p.sheet(t.id);
  const need =
    sheet.creature === 'golem' ? 'engineering' : sheet.creature === 'plant' ? 'survival' : undefined;
  const far =
    w &&
    w.type !== 'melee' &&
    w.type !== 'unarmed' &&
    distance(p.v.map.grid, a.position!, t.position!) > w.accurateRange!;
  p.answers(
    'study, conditions: three studies of an unaware target allow a Sneak Attack',
    { ...attack, sneak: true },
    [
      ...reasons,
      !has(t, 'unaware') && 'ARCHSOUL_SNEAK_TARGET_AWARE',
      studied < 3 && 'ARCHSOUL_SNEAK_NOT_STUDIED',
      far && 'ARCHSOUL_SNEAK_OUT_OF_ACCURATE_RANGE',
      sheet.anatomy === 'unfamiliar' && 'ARCHSOUL_SNEAK_UNFAMILIAR_ANATOMY',
      need !== undefined && (p.sheet(a.id).skills[need] ?? 0) < 5 && 'ARCHSOUL_SNEAK_CREATURE_SKILL',
    ],
  );
}

/** defense, shieldBonus: what an attack finds is what the view shows (S10). */
function exchangePromises(
  p: Probe,
  a: CombatantView,
  t: CombatantView,
  events: RuleEvent[] | undefined,
): void {
  const x = events?.find(
    (e) => e.type === 'ExchangeResolved' && e.data.attackerId === a.id && e.data.targetId === t.id,
  );
  if (!x) return;
  const d = x.data as { defense: number; shieldBonus: number; attackType: string; targetArc: string };
  p.holds(
    'defense: the Defense an attack meets',
    d.defense === t.defense,
    `${t.id}: ${d.defense} vs ${t.defense}`,
  );
  if (
    d.attackType !== 'melee' &&
    d.attackType !== 'unarmed' &&
    d.attackType !== 'soul' &&
    d.targetArc === 'front'
  )
    p.holds(
      'shieldBonus: the Shield Bonus a ranged attack into the front arc meets',
      d.shieldBonus === t.shieldBonus,
      `${t.id}: ${d.shieldBonus} vs ${t.shieldBonus}`,
    );
}

/** grapples: its members attack, escape and (in control) take down each other; nobody else (S33). */
function grapplePromises(p: Probe, c: CombatantView): void {
  const poor = (cost: number) => c.ap < cost && 'ARCHSOUL_NOT_ENOUGH_AP';
  const mine = p.v.grapples.filter((g) => g.memberIds.includes(c.id));
  if (mine.length === 0) {
    const t = p.v.combatants.find((x) => x.id !== c.id);
    if (t)
      p.refuses(
        'grapples: only a member attacks in a grapple',
        { type: 'GrappleAttack', combatantId: c.id, targetId: t.id },
        ...(c.quickAttacked ? ['ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS'] : []),
        'ARCHSOUL_NOT_GRAPPLING',
      );
    return;
  }
  for (const g of mine) {
    const t = g.memberIds.find((id) => id !== c.id)!;
    const control = g.controlId === c.id;
    p.answers(
      'grapples: a member attacks its partner (1 AP)',
      { type: 'GrappleAttack', combatantId: c.id, targetId: t },
      [c.quickAttacked && 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS', poor(AP_COST.grappleAttack)],
    );
    p.answers(
      'grapples: a member may try to escape (2 AP)',
      { type: 'Escape', combatantId: c.id, targetId: t },
      [poor(AP_COST.escape)],
    );
    p.answers(
      'grapples controlId: Takedown (1 AP) requires control',
      { type: 'Takedown', combatantId: c.id, targetId: t },
      [
        !c.position && 'ARCHSOUL_NOT_ON_MAP',
        !control && 'ARCHSOUL_GRAPPLE_NO_CONTROL',
        poor(AP_COST.takedown),
      ],
    );
    if (!control) {
      // Steal and Throw require control too; the partner's held item is one a controller could take.
      const item = p.cv(t).held[0] ?? FIST_ID;
      p.refuses(
        'grapples controlId: Steal requires control',
        { type: 'Steal', combatantId: c.id, targetId: t, itemId: item },
        'ARCHSOUL_GRAPPLE_NO_CONTROL',
      );
      if (c.position)
        p.refuses(
          'grapples controlId: a grapple Throw requires control',
          { type: 'GrappleThrow', combatantId: c.id, targetId: t },
          ...(c.quickAttacked ? ['ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS'] : []),
          'ARCHSOUL_GRAPPLE_NO_CONTROL',
        );
    } else if (p.cv(t).held.length)
      p.answers(
        'grapples controlId, held (of the partner): Steal (1 AP) takes a held item with control',
        { type: 'Steal', combatantId: c.id, targetId: t, itemId: p.cv(t).held[0] },
        [poor(AP_COST.steal)],
      );
  }
}

/** Every promise the view makes on the state reached; the commands accepted as promised. */
function checkView(state: ArchsoulState, history: RuleCommand[]): RuleCommand[] {
  const p = new Probe(state, history);
  consistent(p);
  if (p.v.status !== 'active' && p.v.status !== 'setup') return p.offered;
  if (p.v.pending) pendingPromises(p);
  else {
    roundPromises(p);
    for (const c of p.v.combatants) combatantPromises(p, c);
  }
  return p.offered;
}

/* ------------------------------------------------------------------------------------------------------------
 * The walk: sheet-fuzz's, with the view's promises checked after every step.
 * ---------------------------------------------------------------------------------------------------------- */

/** The seed (and fight id) of the walk's seeded dice. */
const SEEDED = 'promises';

/** The state a walk's history leads to: each command decided again with its manual faces, or the seeded dice in turn. */
function replay(history: RuleCommand[]): ArchsoulState {
  let state = system.start(SEEDED) as ArchsoulState;
  let draws = 0;
  for (const entry of history) {
    const { dice: faces, rerollFaces, followUpFaces, ...command } = entry;
    const manual = Array.isArray(faces) || rerollFaces !== undefined || followUpFaces !== undefined;
    const dice = manual
      ? new ManualDice({ dice: faces, rerollFaces, followUpFaces } as ManualFaces)
      : new SeededDice({ seed: SEEDED, fightId: SEEDED, drawsUsed: draws });
    const events = system.decide(state, manual ? command : entry, dice);
    state = events.reduce((s, e) => system.evolve(s, e) as ArchsoulState, state);
    if (dice instanceof SeededDice) draws = dice.drawsUsed;
  }
  return state;
}

/** How much likelier a client plays each offered command than the rest (1): the fight itself over its bookkeeping. */
const PLAYED: Record<string, number> = {
  Attack: 8,
  Move: 8,
  ThrowItem: 4,
  Grab: 4,
  GrappleAttack: 2,
  Takedown: 2,
  Escape: 2,
  StandUp: 3,
  ReactiveAttack: 6,
  DeclineReactiveAttack: 2,
  ResumeAction: 6,
  EndTurn: 3,
  StartRound: 4,
  EndRound: 0,
  DropItem: 0,
};

/** Plays a case: StartFight with the sheets, a map, placements, initiative, a round, then the walk. */
function play(k: Case, stats: { accepted: number; probed: number }) {
  const setup = new Choices(k.setup);
  const seeded = setup.bool(3);
  const n = 2 + setup.int(4);
  const combatants = Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    name: `C${i}`,
    side: SIDES[k.sides[i]],
    sheet: k.sheets[i % k.sheets.length],
  }));
  const start: RuleCommand = {
    type: 'StartFight',
    name: 'Promises',
    dice: { mode: seeded ? 'seeded' : 'manual', commitment: TEST_COMMITMENT },
    combatants,
  };
  if (setup.bool(3)) start.options = { arrowBreakage: setup.bool() };
  let draws = 0;
  const history: RuleCommand[] = [];
  let state = system.start(SEEDED) as ArchsoulState;
  let offered: RuleCommand[] = [];
  const send = (command: RuleCommand, ch: Choices): void => {
    const manual = seeded || ch.bool(3) ? undefined : ch.bool(3) ? firstPool(state, command) : faces(ch);
    const dice = manual
      ? new ManualDice(manual)
      : new SeededDice({ seed: SEEDED, fightId: SEEDED, drawsUsed: draws });
    try {
      const events = system.decide(state, structuredClone(command), dice);
      state = events.reduce((s, e) => system.evolve(s, e) as ArchsoulState, state);
      if (dice instanceof SeededDice) draws = dice.drawsUsed;
      if (events.length) stats.accepted++;
      if (events.length) tally(`walk: ${command.type} accepted`);
      for (const e of events)
        if (e.type === 'ReactiveAttackTriggered') tally(`walk: ${command.type} triggered reactive attacks`);
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      tally(`walk: ${command.type} refused ${e.code}`);
      return;
    }
    // What replay() plays again: the commands accepted, manual ones with their faces.
    history.push(manual && command.type !== 'StartFight' ? { ...command, ...manual } : command);
    // The decider is pure: probing leaves the state as it was (checked now and then, as it costs a copy).
    const before = stats.probed % 8 === 0 ? JSON.stringify(state) : undefined;
    offered = checkView(state, history);
    stats.probed++;
    if (before !== undefined && JSON.stringify(state) !== before)
      throw new Error(`probing changed the state after ${JSON.stringify(history)}`);
  };
  send(start, setup);
  if (setup.bool(3)) send(command(state, new Choices([setup.int(100), ...k.setup]), k.sheets, false), setup);
  openFight(setup, k.places, combatants, send, () => !seeded && !!state.pending);
  // Two steps in three play one of the commands the view offered (as a client would, mostly fighting), the third
  // anything at all.
  for (const r of k.steps) {
    const ch = new Choices(r);
    const likely = offered.flatMap((x) => Array<RuleCommand>(PLAYED[x.type] ?? 1).fill(x));
    send(likely.length && ch.int(3) ? ch.pick(likely) : command(state, ch, k.sheets, false), ch);
  }
  // The history a broken promise reports is the walk: played again, it reaches the same state.
  if (JSON.stringify(replay(history)) !== JSON.stringify(state))
    throw new Error(`the history does not replay to the state it reached: ${JSON.stringify(history)}`);
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);

describe('Archsoul: what the view promises is what the decider accepts', () => {
  it('after every step of random fights, the commands the view offers are accepted and those it withholds refused with the code of what it shows', () => {
    const stats = { accepted: 0, probed: 0 };
    fc.assert(
      fc.property(cases, (k) => play(k, stats)),
      { numRuns: RUNS, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
    if (process.env.FUZZ_STATS === '1')
      console.log(
        [...PROBED.entries()]
          .sort()
          .map(([k, v]) => `${String(v).padStart(7)} ${k}`)
          .join('\n'),
      );
    expect(stats.probed).toBeGreaterThan(RUNS * 5);
    // The walks reach reactive attacks offered and held actions resumed, whose promises clients act on most.
    if (RUNS >= 60)
      for (const promise of [
        'pending reactiveAttack: the awaited reactor may decline (alsoAccepts) ⇒ accepted',
        'pending resumeAction: the actor performs its held action ⇒ accepted',
      ])
        expect([promise, PROBED.get(promise) ?? 0]).not.toEqual([promise, 0]);
  });
});

/* ------------------------------------------------------------------------------------------------------------
 * Disagreements the walks found, each as its smallest fight.
 * ---------------------------------------------------------------------------------------------------------- */

const entryOf = (events: RuleEvent[], id: string) =>
  archsoulView(stateOf(events)).combatants.find((c) => c.id === id)!;

describe('What the view shows of a weapon is what the engine lets it do', () => {
  it('S95: given a melee weapon whose sheet counts no ammunition left, when its holder attacks with it, then the blow is struck and spends none; a pistol with none left is still refused', () => {
    const gunAxe = { ...sword, id: 'axe', name: 'Gun-axe', ammunition: { kind: 'bullet', count: 0 } };
    const empty = { ...pistol, ammunition: { kind: 'bullet', count: 0 } };
    const events = fight([hero('a', [0, 0], 'N', { weapons: [gunAxe, empty] }), foe('v', [0, -1])]);
    expect(entryOf(events, 'a').weapons).toMatchObject([
      { id: 'axe', held: true, ammunition: 0 },
      { id: 'pistol', held: true, ammunition: 0 },
    ]);
    // Precision 2 + Melee Weapons 2: no success against Defense 1, no critical failure.
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'axe' },
      { dice: [2, 2, 3, 3] },
    );
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved']);
    expect(entryOf([...events, ...out], 'a').weapons[0].ammunition).toBe(0);
    expect(
      refused(events, { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' }),
    ).toMatchObject({
      code: 'ARCHSOUL_NO_AMMUNITION',
      field: 'weaponId',
    });
  });

  it('S95: given a melee weapon whose sheet names the firearm table, when “Barrel jams” and its holder strikes again, then the blow is struck: the view’s jammed stops shots only', () => {
    const gunblade = { ...sword, id: 'gunblade', name: 'Gunblade', criticalTable: 'firearm' };
    let events = fight([hero('a', [0, 0], 'N', { weapons: [gunblade] }), foe('v', [0, -1])]);
    // Four 1s: a critical failure; the firearm table's face 1 jams it.
    events = then(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'gunblade' },
      { dice: [1, 1, 1, 1], followUpFaces: [1] },
    );
    expect(entryOf(events, 'a').weapons[0]).toMatchObject({ held: true, jammed: true });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    const out = exact(
      events,
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'gunblade' },
      { dice: [2, 2, 3, 3] },
    );
    expect(types(out)).toEqual(['ApSpent', 'ExchangeResolved']);
    expect(types(exact(events, { type: 'ClearJam', combatantId: 'a', weaponId: 'gunblade' }))).toEqual([
      'ApSpent',
      'WeaponChanged',
    ]);
  });

  it('S34: given a bomb thrown with AreaAttack, when it lands spent, then the view shows it destroyed and drawing it again is refused as destroyed', () => {
    const bomb = { id: 'bomb', name: 'Bomb', type: 'thrown', damage: 1, accurateRange: 3, areaRadius: 2 };
    let events = fight([hero('a', [0, 0], 'N', { weapons: [sword, bomb] }), foe('v', [0, -3])]);
    // Precision 2 + Primitive Attacks 1: three 6s hit v at the centre; the damage roll (4 dice) deals nothing.
    events = then(
      events,
      { type: 'AreaAttack', attackerId: 'a', weaponId: 'bomb', centre: { x: 0, y: -3 } },
      { dice: [6, 6, 6, 1, 1, 1, 1] },
    );
    expect(find(events, 'ProjectileLanded')).toMatchObject({ itemId: 'bomb', broken: true });
    expect(entryOf(events, 'a').weapons[1]).toMatchObject({ id: 'bomb', held: false, destroyed: true });
    for (const type of ['DrawSimpleItem', 'DrawAwkwardItem'])
      expect(refused(events, { type, combatantId: 'a', itemId: 'bomb' })).toMatchObject({
        code: 'ARCHSOUL_WEAPON_DESTROYED',
      });
  });
});

describe('The weapon a command names is the one the view lists', () => {
  const longFist = { id: 'fist', name: 'Iron arm', type: 'melee', damage: 1, reach: 2 };

  it('S96: given a sheet weapon with the fist’s id that reaches two spaces, when its holder attacks naming no weapon, or a foe two spaces away leaves its reach, then the blow and the reactive attack are made with that weapon', () => {
    // Precision 2 + Melee Weapons 2: no success against Defense 1, no critical failure.
    const miss = { dice: [2, 2, 3, 3] };
    const armed = fight([hero('a', [0, 0], 'N', { weapons: [longFist] }), foe('v', [0, -2])]);
    const blow = exact(armed, { type: 'Attack', attackerId: 'a', targetId: 'v' }, miss);
    expect(find(blow, 'ExchangeResolved')).toMatchObject({
      weaponId: 'fist',
      attackType: 'melee',
      distance: 2,
    });
    // v, two spaces north of a and facing it, reaches a with its iron arm: a step south leaves its reach.
    let events = fight([hero('a', [0, 0]), foe('v', [0, -2], 'S', { weapons: [longFist] })]);
    events = then(events, { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] });
    expect(stateOf(events).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    const reaction = exact(events, { type: 'ReactiveAttack', combatantId: 'v' }, miss);
    expect(find(reaction, 'ExchangeResolved')).toMatchObject({
      weaponId: 'fist',
      attackType: 'melee',
      distance: 2,
    });
  });
});

describe('A held action the pending decision offers to resume can be resumed', () => {
  it('S50: given a foe whose reactive attack a Move waits for, when the Move declares a facing its last step does not allow, then it is refused at once (RULINGS.md S5), leaving no held Move its ResumeAction could not perform', () => {
    // v, north of a and facing it, reaches a: a step south leaves its reach.
    const events = fight([hero('a', [0, 0]), foe('v', [0, -1])]);
    const away = { type: 'Move', combatantId: 'a', path: [{ x: 0, y: 1 }] };
    expect(refused(events, { ...away, facing: 'N' })).toMatchObject({
      code: 'ARCHSOUL_INVALID_FACING',
      field: 'facing',
    });
    let held = then(events, { ...away, facing: 'SE' });
    expect(stateOf(held).pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'v' });
    held = then(held, { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const resumed = exact(held, { type: 'ResumeAction', combatantId: 'a' });
    expect(find(resumed, 'Moved')).toMatchObject({ to: { x: 0, y: 1 }, facing: 'SE' });
  });
});
