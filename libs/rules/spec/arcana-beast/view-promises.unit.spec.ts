import fc from 'fast-check';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { DiceSource } from '../../src/dice/roll';
import { ManualDice } from '../../src/dice/manual';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import { ArcanaBeastState, ArcanaBeastView, Range, REACH } from '../../src/arcana-beast';
import { canActivate } from '../../src/arcana-beast/decide/turn';
import { BANDS, BYPASS_MOVEMENT, DIE_BY_STAGE } from '../../src/arcana-beast/data';
import { fightStarted, TEST_COMMITMENT, TEST_SEED } from '../given';
import {
  ash,
  binder,
  close,
  ember,
  exact,
  fight,
  find,
  joined,
  next,
  party,
  refused,
  stateOf,
  then,
  types,
  wild,
  wolf,
} from './helpers';
import { Json, defined, maybe, Joiner, fighters, options } from './sheet-space';
import { commands, CONDITIONS, facesOf, OPENING, Pick as CommandPick, weighted } from './command-space';

/**
 * What the view promises is what the engine does. Clients build their buttons from the view: whose turn it is, whether
 * its Action, its free move and its Binder's Command are left, Special Attack uses and the Zero Power, the Stages it
 * may evolve to, who is in reach, which pending decision waits for whom and which command answers it. Random fights of
 * random valid sheets (as sheet-fuzz builds them) are walked with random commands, seeded or manual dice; after every
 * step the engine is probed, on the state as it is, with the commands the view offers and those it rules out, and the
 * view's verdict (accepted, or refused with a given code) is the engine's. The decider is pure: a probe is decided and
 * its result dropped, so the walk goes on as if it had not been made. FUZZ_RUNS and FUZZ_SEED explore further.
 */
const system = findSystem('arcana-beast')!; // with dice requests, as the service plays it
const FIGHT_ID = 'view-promises';

type View = ArcanaBeastView;
type Entry = View['combatants'][number];
type BeastEntry = Extract<Entry, { kind: 'beast' }>;
type BinderEntry = Extract<Entry, { kind: 'binder' }>;
type Pending = NonNullable<View['pending']>;

// ---------------------------------------------------------------------------------------------------------------
// What the view says, read as a client reads it: only from the view.
// ---------------------------------------------------------------------------------------------------------------

const OK = 'accepted';
const entryOf = (v: View, id: string): Entry | undefined => v.combatants.find((c) => c.id === id);
const isBeastEntry = (c: Entry | undefined): c is BeastEntry => c?.kind === 'beast';
const isBinderEntry = (c: Entry | undefined): c is BinderEntry => c?.kind === 'binder';
/** A Binder stands where its beast stands (A17): a tag or a band naming either names both. */
const anchorOf = (v: View, id: string): string => {
  const c = entryOf(v, id);
  return isBinderEntry(c) ? c.beastId : id;
};
/** The Binder's beast, as the view links them: the beast names the Binder back. */
const beastOf = (v: View, x: BinderEntry): BeastEntry | undefined => {
  const b = entryOf(v, x.beastId);
  return isBeastEntry(b) && b.binderId === x.id ? b : undefined;
};
/** A tag the view lists on `owner` that holds against `foeId` (A28, A51). */
const holds = (v: View, owner: Entry, tag: string, foeId: string): boolean =>
  owner.tags.some(
    (t) => t.tag === tag && (t.againstId === undefined || anchorOf(v, t.againstId) === anchorOf(v, foeId)),
  );
/** A beast takes its turn while it is Active, or while its Binder (shown, Active) gives its Commands (A21). */
const takesTurns = (v: View, c: Entry | undefined): boolean =>
  isBeastEntry(c) &&
  (c.state === 'Active' || (c.binderId !== null && entryOf(v, c.binderId)?.state === 'Active'));
/** The beasts the open round still waits for, in the initiative order the view shows. */
const waitingIn = (v: View): string[] =>
  v.initiative.filter((id) => !v.actedThisRound.includes(id) && takesTurns(v, entryOf(v, id)));
/** C4: the commands the pending decision names: its answer and those `detail.alsoAccepts` lists. */
const answersOf = (p: Pending): string[] => {
  const also = p.detail?.alsoAccepts;
  return [p.answer, ...(Array.isArray(also) ? (also as string[]) : [])];
};
const ANYTIME = ['AddNote', 'CancelPending', 'EndFight'];

/** The shared gate: an ended fight takes nothing; a pending decision takes its answers and the GM's anytime commands. */
function gate(v: View, type: string): string | undefined {
  if (v.status === 'ended') return 'FIGHT_ENDED';
  if (v.pending && !answersOf(v.pending).includes(type) && !ANYTIME.includes(type)) return 'PENDING_DECISION';
  return undefined;
}

/** An Action (or, with `action` false, a free move or an Evolve) of beast `id`: its turn, in the fight, Action left. */
function acting(v: View, type: string, id: string, action: boolean): string | undefined {
  const c = entryOf(v, id);
  return (
    gate(v, type) ??
    (!c
      ? 'COMBATANT_NOT_FOUND'
      : !isBeastEntry(c)
        ? 'ARCANA_NOT_A_BEAST'
        : v.turn?.beastId !== id
          ? 'ARCANA_NOT_YOUR_TURN'
          : c.state !== 'Active'
            ? 'ARCANA_COMBATANT_OUT'
            : action && v.turn.action !== undefined
              ? 'ARCANA_ACTION_USED'
              : undefined)
  );
}

/** A Binder's Command: it is Active, named by the turn, no Command yet, its beast has not acted (A15, A61). */
function commanding(
  v: View,
  type: string,
  id: string,
  beastMustAct: boolean,
): { refused?: string; beast?: BeastEntry } {
  const refused = gate(v, type);
  if (refused) return { refused };
  const x = entryOf(v, id);
  if (!x) return { refused: 'COMBATANT_NOT_FOUND' };
  if (x.state !== 'Active') return { refused: 'ARCANA_COMBATANT_OUT' };
  if (!isBinderEntry(x)) return { refused: 'ARCANA_NOT_A_BINDER' };
  const beast = beastOf(v, x);
  const t = v.turn;
  if (!beast || t?.binderId !== x.id) return { refused: 'ARCANA_NOT_YOUR_TURN' };
  if (t.command !== undefined) return { refused: 'ARCANA_COMMAND_USED' };
  if (t.freeMoveUsed || (t.action !== undefined && t.action !== 'forfeited' && t.action !== 'pass'))
    return { refused: 'ARCANA_COMMAND_AFTER_ACTION' };
  if (beastMustAct && beast.state !== 'Active') return { refused: 'ARCANA_COMBATANT_OUT' };
  return { beast };
}

/** A62: the guard that takes an attack on `target`: the first in the turn order that guards it, Close, in the fight. */
function guardOf(v: View, targetId: string, attackerId: string): Entry | undefined {
  const byTurn = [
    ...v.initiative,
    ...v.combatants.map((c) => c.id).filter((id) => !v.initiative.includes(id)),
  ];
  return byTurn
    .map((id) => entryOf(v, id))
    .find(
      (g) =>
        isBeastEntry(g) &&
        g.guarding === targetId &&
        g.id !== attackerId &&
        g.state === 'Active' &&
        g.bands[targetId] === 'close',
    );
}

/** A22, A69: the beast an attack on `taker` asks to intercept, when it asks one. */
function interceptorOf(v: View, taker: Entry, attackerId: string): BeastEntry | undefined {
  if (!isBinderEntry(taker)) return undefined;
  const beast = beastOf(v, taker);
  return beast && beast.state === 'Active' && !beast.interceptOwed && beast.id !== attackerId
    ? beast
    : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Probes: a command, the view's verdict, and what an accepted one must show.
// ---------------------------------------------------------------------------------------------------------------

interface Probe {
  /** The promise, as a key of the tally (which promises were seen both ways). */
  promise: string;
  command: RuleCommand;
  expect: string;
  /** Checks of an accepted probe: its events, and the view after them (built when asked). */
  check?: (events: RuleEvent[], after: () => View) => void;
  /** Manual faces for the probe, tried in turn until the engine accepts one (ProvideDice); seeded dice otherwise. */
  answers?: Json[];
}

class Disagreement extends Error {}
/** A disagreement; with FUZZ_FIRST set, the first one is written out at once (shrinking a long walk takes a while). */
let told = false;
const disagree = (what: string): never => {
  if (process.env.FUZZ_FIRST && !told) {
    told = true;
    process.stderr.write(`first disagreement:\n${what}\n`);
  }
  throw new Disagreement(what);
};
const agree = (ok: boolean, what: string): void => {
  if (!ok) throw new Disagreement(what);
};
const dataOf = (events: RuleEvent[], type: string) =>
  events.find((e) => e.type === type)?.data as Record<string, any> | undefined;

function lifecycleProbes(v: View): Probe[] {
  const out: Probe[] = [];
  out.push({
    promise: 'StartRound: a round opens once initiative is set and no round is open',
    command: { type: 'StartRound' },
    expect:
      gate(v, 'StartRound') ??
      (v.initiative.length === 0 ? 'INITIATIVE_NOT_SET' : v.roundOpen ? 'ROUND_ALREADY_OPEN' : OK),
  });
  const waiting = waitingIn(v);
  const startGate =
    gate(v, 'StartActivation') ??
    (!v.roundOpen ? 'ROUND_NOT_OPEN' : v.activeCombatantId !== null ? 'ACTIVATION_IN_PROGRESS' : undefined);
  out.push({
    promise: 'StartActivation: the next is the first beast of the initiative the round still waits for',
    command: { type: 'StartActivation' },
    expect: startGate ?? (waiting.length === 0 ? 'NO_ACTIVATION_LEFT' : OK),
    check: (events) =>
      agree(
        dataOf(events, 'ActivationStarted')?.combatantId === waiting[0],
        `the view's next turn is ${waiting[0]}'s`,
      ),
  });
  for (const c of v.combatants) {
    out.push({
      promise: 'StartActivation: a beast takes a turn while it, or its Binder, is Active, once a round',
      command: { type: 'StartActivation', combatantId: c.id },
      expect:
        startGate ??
        (v.actedThisRound.includes(c.id) ? 'ALREADY_ACTED' : !takesTurns(v, c) ? 'COMBATANT_CANNOT_ACT' : OK),
      check: (events, after) => {
        if (!isBeastEntry(c)) return;
        const started = dataOf(events, 'TurnStarted');
        const binder = c.binderId === null ? undefined : entryOf(v, c.binderId);
        // "interceptOwed: forfeits its next Action"; "Beast Binder Placement: Shares turn": its Binder, if Active.
        agree(
          (started?.actionForfeited === 'intercept') === c.interceptOwed,
          `interceptOwed ${c.interceptOwed}: the turn starts with its Action ${started?.actionForfeited ? 'forfeited' : 'free'}`,
        );
        const turn = after().turn;
        agree(
          turn?.beastId === c.id &&
            turn.binderId === (binder?.state === 'Active' ? binder.id : undefined) &&
            (turn.action === 'forfeited') === c.interceptOwed,
          `the turn shown after StartActivation is ${JSON.stringify(turn)}`,
        );
      },
    });
  }
  out.push({
    promise: 'EndActivation: ends the running turn the view names',
    command: { type: 'EndActivation' },
    expect: gate(v, 'EndActivation') ?? (v.activeCombatantId === null ? 'NO_ACTIVATION' : OK),
  });
  out.push({
    promise: 'EndRound: ends the open round',
    command: { type: 'EndRound' },
    expect: gate(v, 'EndRound') ?? (!v.roundOpen ? 'ROUND_NOT_OPEN' : OK),
  });
  out.push({
    promise: 'RollInitiative: once, while no initiative is shown, with a beast that can take a turn',
    command: { type: 'RollInitiative' },
    expect:
      gate(v, 'RollInitiative') ??
      (v.initiative.length > 0
        ? 'INITIATIVE_ALREADY_SET'
        : !v.combatants.some((c) => takesTurns(v, c))
          ? 'NO_COMBATANTS'
          : OK),
  });
  out.push({
    promise: 'CancelPending: only with a pending decision shown',
    command: { type: 'CancelPending' },
    expect: v.status === 'ended' ? 'FIGHT_ENDED' : v.pending === null ? 'NO_PENDING_DECISION' : OK,
  });
  out.push({
    promise: 'RerollInitiative: answers a pending initiative tie',
    command: { type: 'RerollInitiative' },
    expect:
      gate(v, 'RerollInitiative') ?? (v.pending?.kind !== 'initiativeTie' ? 'ARCANA_NO_INITIATIVE_TIE' : OK),
  });
  if (v.pending?.kind === 'initiativeTie')
    out.push({
      promise: 'SetInitiative: answers a pending initiative tie',
      command: { type: 'SetInitiative', order: placed(v) },
      expect: gate(v, 'SetInitiative') ?? OK,
    });
  // C4, A22: the Intercept the pending decision awaits, from the beast it names; no one else answers it.
  const interceptors = [
    ...new Set([v.pending?.awaiting, ...v.combatants.map((c) => c.id)].filter((x) => x !== undefined)),
  ].slice(0, 3);
  for (const id of interceptors)
    for (const yes of [true, false])
      out.push({
        promise: 'Intercept: the beast the pending intercept awaits answers it',
        command: { type: 'Intercept', combatantId: id, intercept: yes },
        expect:
          gate(v, 'Intercept') ??
          (v.pending?.kind !== 'intercept'
            ? 'ARCANA_NO_ATTACK_TO_INTERCEPT'
            : id !== v.pending.awaiting
              ? 'ARCANA_NOT_YOUR_DECISION'
              : OK),
        check: (events, after) => {
          const resolved = dataOf(events, 'AttackResolved')!;
          const attack = v.pendingAttack!;
          const takerId = yes ? id : attack.targetId;
          agree(
            resolved.targetId === takerId,
            `the attack the view shows waiting (${JSON.stringify(attack)}) goes to ${resolved.targetId}`,
          );
          const attacker = entryOf(v, attack.attackerId);
          if (isBeastEntry(attacker) && v.turn?.beastId === attacker.id)
            rolled(v, attacker, entryOf(v, takerId)!, attack.range, resolved);
          // "interceptOwed: forfeits its next Action".
          agree(
            (entryOf(after(), id) as BeastEntry).interceptOwed === yes,
            `${id} owes its next Action: ${yes}`,
          );
        },
      });
  // C13: a dice request is answered by ProvideDice with the faces its detail asks for. The held command reads every
  // face it carries on some roll (C18): of the answers that show one face on every die, one is accepted.
  const d = v.pending?.kind === 'dice' ? (v.pending.detail as Record<string, any>) : undefined;
  out.push({
    promise: 'ProvideDice: answers a pending dice request with the faces it names',
    command: { type: 'ProvideDice' },
    answers: d
      ? Array.from({ length: d.sides }, (_, f) => ({ [d.field]: Array<number>(d.count).fill(d.sides - f) }))
      : [{ dice: [1] }],
    expect: v.status === 'ended' ? 'FIGHT_ENDED' : d === undefined ? 'NO_DICE_REQUEST' : OK,
  });
  out.push({
    promise: 'EndScene: ends the encounter as the view says it does',
    command: { type: 'EndScene' },
    expect: gate(v, 'EndScene') ?? OK,
    check: (_events, after) => sceneEnded(v, after()),
  });
  return out;
}

/** A SetInitiative order the GM may give: the view's order, each Binder right after its beast (A21). */
function placed(v: View): string[] {
  const order = [
    ...v.initiative,
    ...v.combatants.map((c) => c.id).filter((id) => !v.initiative.includes(id)),
  ];
  const out: string[] = [];
  for (const id of order) {
    const c = entryOf(v, id)!;
    if (isBinderEntry(c) && beastOf(v, c)) continue;
    out.push(id);
    for (const b of order) {
      const x = entryOf(v, b)!;
      if (isBinderEntry(x) && x.beastId === id && beastOf(v, x)) out.push(b);
    }
  }
  return out;
}

/** What the view says the end of the encounter resets (A24, A42, C7), and what it leaves. */
function sceneEnded(before: View, after: View): void {
  agree(
    after.turn === null && after.activeCombatantId === null && !after.roundOpen,
    'EndScene ends turn and round',
  );
  for (const b of before.combatants) {
    const a = entryOf(after, b.id)!;
    // A24: called-back beasts return; the Knocked Out with HP above 0 recover (in a vessel or not).
    const state = b.state === 'Active' || b.hp > 0 ? 'Active' : 'KnockedOut';
    agree(a.state === state, `EndScene: ${b.id} ${b.state} at ${b.hp} HP is ${a.state}, not ${state}`);
    agree(a.assistDice === 0, `EndScene: ${b.id}'s Assist dice end with the encounter`);
    if (!isBeastEntry(b) || !isBeastEntry(a)) continue;
    const stage = b.revertTo ?? b.stage;
    agree(
      a.stage === stage,
      `EndScene: revertTo ${b.revertTo}: ${b.id} goes from Stage ${b.stage} to ${a.stage}`,
    );
    agree(
      a.specialAttacks.every((s) => s.usesLeft === s.uses) &&
        (a.zeroPower === null || (!a.zeroPower.used && !a.zeroPower.triggerActive)) &&
        a.stages.every((s) => !s.triggerActive),
      `EndScene: ${b.id}'s uses per scene and triggers reset`,
    );
    agree(
      !a.defending && a.guarding === null && !a.interceptOwed && a.encourageDodge === 0,
      `EndScene: ${b.id}'s Defend, Guard, owed Intercept and Encourage die end with the encounter`,
    );
  }
}

/** An attack the view shows: its command and field, its range (null: a narrative Zero Power), why it is refused. */
interface Offer {
  type: string;
  field: Json;
  range: Range | null;
  refused?: string;
  name: string;
}

/** The attacks a beast's view offers, with the command that makes each, up to a few of each kind. */
function offeredAttacks(b: BeastEntry): Offer[] {
  const out: Offer[] = [];
  const few = <T>(xs: T[]) => (xs.length > 3 ? [xs[0], xs[1], xs[xs.length - 1]] : xs);
  for (const a of few(b.attacks))
    out.push({ type: 'Attack', field: { attackId: a.id }, range: a.range, name: a.id });
  for (const s of few(b.specialAttacks))
    out.push({
      type: 'UseSpecialAttack',
      field: { specialAttackId: s.id },
      range: s.range,
      refused: s.usesLeft > 0 ? undefined : 'ARCANA_NO_USES_LEFT',
      name: s.id,
    });
  const z = b.zeroPower;
  out.push({
    type: 'UseZeroPower',
    field: {},
    range: z?.range ?? null,
    refused:
      z === null
        ? 'ARCANA_NO_ZERO_POWER'
        : z.used
          ? 'ARCANA_ZERO_POWER_USED'
          : !z.triggerActive
            ? 'ARCANA_TRIGGER_NOT_ACTIVE'
            : undefined,
    name: 'zero power',
  });
  return out;
}

function actionProbes(v: View, id: string): Probe[] {
  const out: Probe[] = [];
  const me = entryOf(v, id)!;
  const others = v.combatants.filter((c) => c.id !== id);
  for (const type of ['Pass', 'Defend'])
    out.push({
      promise: `${type}: an Action of the turn's beast, Active, its Action not taken`,
      command: { type, combatantId: id },
      expect: acting(v, type, id, true) ?? OK,
      check: (_e, after) => {
        const a = after();
        agree(a.turn?.action === type.toLowerCase(), `after ${type} the turn shows ${a.turn?.action}`);
        agree((entryOf(a, id) as BeastEntry).defending === (type === 'Defend'), `${type}: defending`);
      },
    });
  // Evolve (A9, A24): to an unlocked higher Stage; the highest needs its trigger; no Action needed.
  for (const stage of [undefined, 0, 1, 2, 3, 4])
    out.push({
      promise: 'Evolve: to an unlocked Stage above the current one; the highest while its trigger is active',
      command: { type: 'Evolve', combatantId: id, ...(stage === undefined ? {} : { stage }) },
      expect:
        acting(v, 'Evolve', id, false) ??
        (() => {
          const b = me as BeastEntry;
          const to = stage ?? b.highestStage;
          const st = b.stages.find((s) => s.stage === to);
          return !st
            ? 'ARCANA_STAGE_LOCKED'
            : to <= b.stage
              ? 'ARCANA_NOT_HIGHER_STAGE'
              : to === b.highestStage && !st.triggerActive
                ? 'ARCANA_TRIGGER_NOT_ACTIVE'
                : OK;
        })(),
      check: (_e, after) => {
        const b = me as BeastEntry;
        const a = entryOf(after(), id) as BeastEntry;
        const to = stage ?? b.highestStage;
        const gift = b.stages.find((s) => s.stage === to)?.giftHeal ?? 0;
        // "giftHeal: HP a Gift restores when the beast evolves to this Stage" (A71); "revertTo: the Stage it
        // evolved from", once at its highest (A9); an Evolve is no Action (A15).
        agree(
          a.stage === to && a.hp === Math.min(b.maxHp, b.hp + gift),
          `Evolve to ${to}: Stage ${a.stage}, ${a.hp} HP`,
        );
        agree(
          a.revertTo === (to === b.highestStage ? (b.revertTo ?? b.stage) : b.revertTo),
          `Evolve from ${b.stage} to ${to}: revertTo ${a.revertTo}`,
        );
        agree(after().turn?.action === v.turn?.action, 'an Evolve takes no Action');
      },
    });
  // Reposition for positional advantage: forbidden by a Cornered tag the view lists (A28, A39, A72).
  out.push({
    promise: 'Reposition (positional advantage): an Action, not while the view lists Cornered',
    command: { type: 'Reposition', combatantId: id },
    expect:
      acting(v, 'Reposition', id, true) ??
      (me.tags.some((t) => t.tag === 'cornered') ? 'ARCANA_CORNERED' : OK),
  });
  for (const o of others) {
    for (const type of ['Assist', 'Guard'])
      out.push({
        promise: `${type}: a Close ally of the same side, in the fight`,
        command: { type, combatantId: id, allyId: o.id },
        expect:
          acting(v, type, id, true) ??
          (o.state !== 'Active'
            ? 'ARCANA_COMBATANT_OUT'
            : o.side !== me.side
              ? 'ARCANA_NOT_AN_ALLY'
              : me.bands[o.id] !== 'close'
                ? 'ARCANA_NOT_CLOSE'
                : OK),
        check: (_e, after) => {
          const a = entryOf(after(), o.id)!;
          if (type === 'Assist')
            agree(a.assistDice === o.assistDice + 1, `Assist: ${o.id} has ${a.assistDice} dice waiting`);
          else agree((entryOf(after(), id) as BeastEntry).guarding === o.id, `Guard: ${id} guards ${o.id}`);
        },
      });
    for (const band of BANDS)
      for (const using of band === 'far' ? [undefined, ...BYPASS_MOVEMENT] : [undefined]) {
        const step = moveStep(v, me, o, band, using);
        out.push({
          promise: 'Move: the free move, one band, not from Far, unless the sheet’s movement bypasses',
          command: { type: 'Move', combatantId: id, towardId: o.id, band, ...(using ? { using } : {}) },
          expect:
            acting(v, 'Move', id, false) ??
            (v.turn!.freeMoveUsed
              ? 'ARCANA_FREE_MOVE_USED'
              : (step.refused ??
                (!using && step.steps > 1
                  ? 'ARCANA_REPOSITION_NEEDED'
                  : !using && me.bands[o.id] === 'far'
                    ? 'ARCANA_REPOSITION_NEEDED'
                    : OK))),
          check: (events, after) => moved(v, after(), id, o.id, band, events),
        });
        const corner = me.tags.find((t) => t.tag === 'cornered');
        out.push({
          promise:
            'Reposition: an Action, up to two bands, not toward whoever the view lists it Cornered against',
          command: { type: 'Reposition', combatantId: id, towardId: o.id, band, ...(using ? { using } : {}) },
          expect:
            acting(v, 'Reposition', id, true) ??
            (corner && (corner.againstId === undefined || anchorOf(v, corner.againstId) === anchorOf(v, o.id))
              ? 'ARCANA_CORNERED'
              : (step.refused ?? OK)),
          check: (events, after) => moved(v, after(), id, o.id, band, events),
        });
      }
  }
  if (isBeastEntry(me))
    for (const a of offeredAttacks(me))
      for (const t of [me, ...others])
        for (const intercept of [undefined, true] as const) {
          if (intercept && a.type !== 'Attack' && t !== others[0]) continue;
          out.push(attackProbe(v, me, t, a, intercept));
        }
  return out;
}

/** Move and Reposition: toward someone in the fight, not its own place, to another band, with movement it has. */
function moveStep(
  v: View,
  me: Entry,
  o: Entry,
  band: string,
  using: string | undefined,
): { refused?: string; steps: number } {
  const from = me.bands[o.id];
  const steps = Math.abs(BANDS.indexOf(from) - BANDS.indexOf(band as (typeof BANDS)[number]));
  const refused =
    o.state !== 'Active'
      ? 'ARCANA_COMBATANT_OUT'
      : anchorOf(v, o.id) === me.id
        ? 'ARCANA_SAME_POSITION'
        : steps === 0
          ? 'ARCANA_NO_MOVE'
          : using !== undefined && !(isBeastEntry(me) && me.movement.includes(using as never))
            ? 'ARCANA_NO_SUCH_MOVEMENT'
            : undefined;
  return { refused, steps };
}

/** A move lands where it says, and the view shows the band from both ends (A14, A17). */
function moved(
  before: View,
  after: View,
  id: string,
  towardId: string,
  band: string,
  events: RuleEvent[],
): void {
  const m = dataOf(events, 'Moved')!;
  const to = m.stopped ? before.combatants.find((c) => c.id === id)!.bands[towardId] : band;
  agree(
    entryOf(after, id)!.bands[towardId] === to && entryOf(after, towardId)!.bands[id] === to,
    `the move to ${band} shows ${entryOf(after, id)!.bands[towardId]}`,
  );
}

function attackProbe(v: View, me: BeastEntry, t: Entry, a: Offer, intercept: true | undefined): Probe {
  const narrative = a.type === 'UseZeroPower' && a.range === null;
  const guard = t.id === me.id ? undefined : guardOf(v, t.id, me.id);
  const taker = guard ?? t;
  const interceptor = guard ? undefined : interceptorOf(v, taker, me.id);
  const expect =
    acting(v, a.type, me.id, true) ??
    a.refused ??
    (narrative
      ? intercept
        ? 'ARCANA_NO_ATTACK_TO_INTERCEPT'
        : OK
      : t.state !== 'Active'
        ? 'ARCANA_COMBATANT_OUT'
        : t.id === me.id
          ? 'ARCANA_INVALID_TARGET'
          : !REACH[a.range!].includes(me.bands[t.id])
            ? 'ARCANA_OUT_OF_RANGE'
            : intercept && !interceptor
              ? 'ARCANA_NO_ATTACK_TO_INTERCEPT'
              : OK);
  return {
    promise: `${a.type}: ${a.type === 'Attack' ? 'an Action' : 'uses left, trigger active'}, a target in the fight in reach${intercept ? ', intercept only where asked' : ''}`,
    command: {
      type: a.type,
      attackerId: me.id,
      targetId: t.id,
      ...a.field,
      ...(intercept ? { intercept } : {}),
    },
    expect,
    check: (events, after) => {
      const later = entryOf(after(), me.id) as BeastEntry;
      if (a.type === 'UseZeroPower') agree(later.zeroPower?.used === true, 'the Zero Power shows used');
      if (a.type === 'UseSpecialAttack') {
        const [was, now] = [me, later].map((b) => b.specialAttacks.find((x) => x.id === a.name)!.usesLeft);
        agree(now === was - 1, `${a.name}: ${was} uses left, then ${now}`);
      }
      if (narrative) return;
      const declared = dataOf(events, 'AttackDeclared');
      const resolved = dataOf(events, 'AttackResolved');
      // A22: an attack on a Binder whose beast can intercept waits for it; the view says which.
      agree(
        (declared !== undefined && resolved === undefined) === (interceptor !== undefined && !intercept),
        `${interceptor ? `${interceptor.id} may intercept` : 'no beast may intercept'}, yet the attack ${declared && !resolved ? 'waits' : 'resolves'}`,
      );
      if (!resolved) return;
      const takerId = intercept ? interceptor!.id : taker.id;
      agree(
        resolved.targetId === takerId,
        `the attack goes to ${resolved.targetId}, the view says ${takerId}`,
      );
      rolled(v, me, entryOf(v, takerId)!, a.range!, resolved);
    },
  };
}

/**
 * The dice of an attack as the view foretells them: dice size, the attack pool (stat, ranks, Qualities and +1 dice),
 * the Dodge pool (Agility, defensive Qualities and +1 dice), base damage, waiting dice, tags, Defend, Bond Surge, the combo, and the damage of a hit.
 */
function rolled(v: View, me: BeastEntry, taker: Entry, range: string, r: Record<string, any>): void {
  const t = v.turn!;
  const sources = (bonuses: { source: string; dice: number }[]) =>
    Object.fromEntries(bonuses.map((b) => [b.source, b.dice]));
  const atk = sources(r.attack.bonuses);
  const dodge = sources(r.dodge.bonuses);
  const strategized = t.strategized;
  const flankers = v.combatants.filter(
    (p) =>
      p.id !== me.id &&
      p.side === me.side &&
      anchorOf(v, p.id) !== anchorOf(v, me.id) &&
      p.state === 'Active' &&
      holds(v, p, 'flanking', taker.id),
  );
  // The attack pool's +1 dice the view foretells (Positioning, Combo Attacks, Direct, Assist; rulings A20, A26, A28, A50).
  const combo = comboOf(v, me, taker);
  const foretold: Record<string, number | undefined> = {
    Direct: t.directed ? 1 : undefined,
    Assist: me.assistDice > 0 ? me.assistDice : undefined,
    'High Ground':
      holds(v, me, 'highGround', taker.id) && (strategized || !holds(v, taker, 'highGround', me.id))
        ? 1
        : undefined,
    Flanking: holds(v, me, 'flanking', taker.id) && flankers.length > 0 ? 1 : undefined,
    Combo: combo.position >= 2 ? 1 : undefined,
    'bonusDice (RULINGS.md A30)': r.bonusDice > 0 ? r.bonusDice : undefined,
  };
  const expected: [string, unknown, unknown][] = [
    ...Object.entries(foretold).map(([source, dice]): [string, unknown, unknown] => [
      `${source} on the attack`,
      atk[source],
      dice,
    ]),
    ['attack die', r.attack.sides, me.dieSides],
    ['dodge die', r.dodge.sides, taker.dieSides],
    ['base damage', r.baseDamage, me.baseDamage],
    ['Assist on the Dodge', dodge.Assist, taker.assistDice > 0 ? taker.assistDice : undefined],
    [
      'Encourage on the Dodge',
      dodge.Encourage,
      isBeastEntry(taker) && taker.encourageDodge > 0 ? taker.encourageDodge : undefined,
    ],
    ['Bond Surge on the attack', r.attack.boostSources.includes('Bond Surge'), t.bondSurge],
    [
      'Bond Surge on the Dodge',
      r.dodge.boostSources.includes('Bond Surge'),
      t.bondSurge && (taker.id === t.beastId || taker.id === t.binderId),
    ],
    ['Defend', r.dodge.boostSources.includes('Defend'), isBeastEntry(taker) && taker.defending],
    ['Cornered', r.dodge.setbackSources.includes('Cornered'), holds(v, taker, 'cornered', me.id)],
    [
      'Obscured',
      r.attack.setbackSources.includes('Obscured'),
      holds(v, taker, 'obscured', me.id) && !strategized,
    ],
    [
      'Cover',
      dodge.Cover,
      range !== 'melee' && holds(v, taker, 'cover', me.id) && !strategized ? 1 : undefined,
    ],
  ];
  // "Combo Attacks" from the view's sideTurns and chains (A20, A57); "Damage Formula" with the bonusDamage it shows (A52).
  const entry =
    r.action === 'zeroPower'
      ? me.zeroPower
      : (r.action === 'attack' ? me.attacks : me.specialAttacks).find((x) => x.id === r.attackId);
  const bonusDamage = v.pendingAttack?.bonusDamage ?? entry?.bonusDamage;
  // "Build pool Stat + Quality/Attack Ranks + modifiers" (A6): the stat's value in the view's stats, the attack's ranks
  // and its Qualities' ranks as the view shows them (the pending attack's, or the entry's), and the +1 dice above.
  const shown = v.pendingAttack ?? entry!;
  const ranks = shown.ranks + shown.qualities.reduce((n, q) => n + q.ranks, 0);
  const plusDice = Object.values(foretold).reduce((n: number, d) => n + (d ?? 0), 0);
  expected.push(
    ['attack stat', r.attack.stat, shown.stat],
    ['attack ranks and Qualities', r.attack.ranks, ranks],
    ['attack pool', r.attack.dice, me.stats[shown.stat] + ranks + plusDice],
  );
  // "Target rolls Dodge (Agility + defensive Qualities)" (A6): the taker's Agility in the view's stats, the ranks of the
  // defensive Qualities the view shows, and the +1 dice foretold above (Assist, Encourage, Cover).
  const dodgeRanks = taker.defensiveQualities.reduce((n, q) => n + q.ranks, 0);
  const dodgeDice = (['Assist on the Dodge', 'Encourage on the Dodge', 'Cover'] as const).reduce(
    (n, what) => n + ((expected.find(([w]) => w === what)?.[2] as number | undefined) ?? 0),
    0,
  );
  expected.push(
    ['dodge stat', r.dodge.stat, 'agility'],
    ['dodge ranks (defensive Qualities)', r.dodge.ranks, dodgeRanks],
    ['dodge pool', r.dodge.dice, taker.stats.agility + dodgeRanks + dodgeDice],
  );
  const hit = r.outcome === 'hit';
  const streak = hit ? combo.hits + 1 : 0;
  const comboDamage = streak >= 3 ? 2 : streak === 2 ? 1 : 0;
  expected.push(
    ['combo position', r.combo.position, combo.position],
    ['bonus damage', r.bonusDamage, hit ? bonusDamage : 0],
    [
      'damage',
      r.damage,
      hit ? r.baseDamage * (r.critical ? 2 : 1) + r.extraSuccesses + bonusDamage + comboDamage : 0,
    ],
  );
  for (const [what, got, said] of expected)
    agree(
      got === said,
      `${what}: the roll shows ${JSON.stringify(got)}, the view says ${JSON.stringify(said)}`,
    );
}

/** The attack's place in its side's chain on the taker and the streak before it, as the view foretells (A20, A57, A59). */
function comboOf(v: View, me: BeastEntry, taker: Entry): { position: number; hits: number } {
  const chains = Object.hasOwn(v.chains, taker.id) ? v.chains[taker.id] : {};
  // A beast's Action ends the chains on its own Binder before its attack lands (A54): an attack on it starts anew.
  const chain =
    taker.side !== me.side && taker.id !== me.binderId && Object.hasOwn(chains, me.side)
      ? chains[me.side]
      : undefined;
  return chain && chain.lastAttackerId !== me.id && chain.sideTurn === v.sideTurns[me.side] - 1
    ? { position: chain.attacks + 1, hits: chain.hits }
    : { position: 1, hits: 0 };
}

function commandProbes(v: View, x: Entry): Probe[] {
  const out: Probe[] = [];
  const simple: [string, boolean][] = [
    ['Direct', true],
    ['Strategize', true],
    ['BondSurge', true],
  ];
  for (const [type, mustAct] of simple) {
    const c = commanding(v, type, x.id, mustAct);
    out.push({
      promise: `${type}: the Binder the turn names, before its beast acts, its beast in the fight`,
      command: { type, combatantId: x.id },
      expect: c.refused ?? (type === 'BondSurge' && c.beast!.stamina < 1 ? 'ARCANA_NO_STAMINA' : OK),
      check: (_e, after) => {
        const a = after();
        const t = a.turn!;
        agree(
          t.command !== undefined && t.directed === (type === 'Direct'),
          `${type}: the turn shows ${JSON.stringify(t)}`,
        );
        if (type === 'BondSurge')
          agree(
            t.bondSurge && entryOf(a, c.beast!.id)!.stamina === c.beast!.stamina - 1,
            'Bond Surge: Boost this turn, 1 Stamina of the beast',
          );
      },
    });
  }
  const enc = commanding(v, 'Encourage', x.id, false);
  const conditions = enc.beast ? [...enc.beast.conditions.slice(0, 2), 'Never Applied'] : ['Never Applied'];
  for (const condition of [undefined, ...conditions])
    out.push({
      promise:
        'Encourage: its beast not in its vessel; a Dodge die for a beast in the fight, or a condition it has',
      command: {
        type: 'Encourage',
        combatantId: x.id,
        effect: condition ? 'removeCondition' : 'dodgeDie',
        ...(condition ? { condition } : {}),
      },
      expect:
        enc.refused ??
        (enc.beast!.state === 'InVessel' || (enc.beast!.state === 'KnockedOut' && !condition)
          ? 'ARCANA_COMBATANT_OUT'
          : condition && !enc.beast!.conditions.includes(condition)
            ? 'ARCANA_NO_SUCH_CONDITION'
            : OK),
    });
  const back = commanding(v, 'CallBack', x.id, false);
  for (const mode of ['retreat', 'devolve'])
    out.push({
      promise: 'CallBack: a beast not in its vessel; devolve: one in the fight above Stage 0',
      command: { type: 'CallBack', combatantId: x.id, mode },
      expect:
        back.refused ??
        (back.beast!.state === 'InVessel' || (mode === 'devolve' && back.beast!.state === 'KnockedOut')
          ? 'ARCANA_COMBATANT_OUT'
          : mode === 'devolve' && back.beast!.stage < 1
            ? 'ARCANA_NOTHING_TO_DEVOLVE'
            : OK),
    });
  if (isBinderEntry(x)) {
    const use = commanding(v, 'UseItem', x.id, false);
    for (const item of x.inventory.slice(0, 3))
      for (const target of [undefined, ...v.combatants.slice(0, 3)]) {
        const on = target ?? use.beast;
        const condition = item.removesCondition ? (on?.conditions[0] ?? 'Never Applied') : undefined;
        out.push({
          promise: 'UseItem: an item with some left, on anyone not in a vessel',
          command: {
            type: 'UseItem',
            combatantId: x.id,
            itemId: item.id,
            ...(target ? { targetId: target.id } : {}),
            ...(condition ? { condition } : {}),
          },
          expect:
            use.refused ??
            (item.quantityLeft <= 0
              ? 'ARCANA_ITEM_SPENT'
              : on!.state === 'InVessel'
                ? 'ARCANA_COMBATANT_OUT'
                : condition && !on!.conditions.includes(condition)
                  ? 'ARCANA_NO_SUCH_CONDITION'
                  : OK),
          check: (events, after) => {
            const left = (entryOf(after(), x.id) as BinderEntry).inventory.find((i) => i.id === item.id)!;
            agree(left.quantityLeft === item.quantityLeft - 1, 'Use Item spends one');
            void events;
          },
        });
      }
  }
  return out;
}

/** The GM's commands the view bounds: triggers a beast has, tags and bands between two places, a Test's waiting dice. */
function gmProbes(v: View): Probe[] {
  const out: Probe[] = [];
  for (const c of v.combatants.slice(0, 2)) {
    for (const stage of [undefined, 0, 2, 4])
      out.push({
        promise: 'SetTrigger: a Stage the beast has unlocked',
        command: {
          type: 'SetTrigger',
          combatantId: c.id,
          kind: 'stage',
          ...(stage === undefined ? {} : { stage }),
        },
        expect:
          gate(v, 'SetTrigger') ??
          (!isBeastEntry(c)
            ? 'ARCANA_NOT_A_BEAST'
            : stage !== undefined && !c.stages.some((s) => s.stage === stage)
              ? 'ARCANA_STAGE_LOCKED'
              : OK),
        check: (_e, after) => {
          const a = entryOf(after(), c.id) as BeastEntry;
          const to = stage ?? a.highestStage;
          agree(
            a.stages.find((s) => s.stage === to)!.triggerActive,
            `SetTrigger: Stage ${to}'s trigger shows active`,
          );
        },
      });
    out.push({
      promise: 'SetTrigger: the Zero Power of a beast that has one',
      command: { type: 'SetTrigger', combatantId: c.id, kind: 'zeroPower' },
      expect:
        gate(v, 'SetTrigger') ??
        (!isBeastEntry(c) ? 'ARCANA_NOT_A_BEAST' : c.zeroPower === null ? 'ARCANA_NO_ZERO_POWER' : OK),
      check: (_e, after) =>
        agree(
          (entryOf(after(), c.id) as BeastEntry).zeroPower!.triggerActive,
          'the Zero Power trigger shows active',
        ),
    });
    for (const o of v.combatants) {
      const samePlace = anchorOf(v, o.id) === anchorOf(v, c.id);
      out.push({
        promise: 'SetTag: against anyone but who stands in its own place',
        command: { type: 'SetTag', combatantId: c.id, tag: 'cornered', againstId: o.id },
        expect: gate(v, 'SetTag') ?? (samePlace ? 'ARCANA_INVALID_TARGET' : OK),
        check: (_e, after) =>
          agree(
            entryOf(after(), c.id)!.tags.some((t) => t.tag === 'cornered' && t.againstId === o.id),
            `the tag against ${o.id} is listed`,
          ),
      });
      if (o.id !== c.id)
        out.push({
          promise: 'SetBand: between two places (a Binder and its beast are always Close)',
          command: { type: 'SetBand', aId: c.id, bId: o.id, band: 'far' },
          expect: gate(v, 'SetBand') ?? (samePlace ? 'ARCANA_SAME_POSITION' : OK),
          check: (_e, after) =>
            agree(entryOf(after(), c.id)!.bands[o.id] === 'far', `SetBand far to ${o.id}`),
        });
    }
    // A26: the Assist dice the view shows go to the next roll of any kind; Bond Surge gives Boost to the turn's rolls.
    out.push({
      promise: 'RollTest: the view’s die, waiting Assist dice, the turn’s Bond Surge',
      command: { type: 'RollTest', combatantId: c.id, stat: 'spirit', difficulty: 1 },
      expect: gate(v, 'RollTest') ?? OK,
      check: (events) => {
        const test = dataOf(events, 'TestRolled')!.test;
        const assist = test.bonuses.find((b: { source: string }) => b.source === 'Assist')?.dice;
        const surge = v.turn?.bondSurge === true && (c.id === v.turn.beastId || c.id === v.turn.binderId);
        agree(test.sides === c.dieSides, `the Test rolls d${test.sides}, the view says d${c.dieSides}`);
        agree(
          assist === (c.assistDice > 0 ? c.assistDice : undefined),
          `Assist dice ${assist} of ${c.assistDice}`,
        );
        agree(test.boostSources.includes('Bond Surge') === surge, `Bond Surge on the Test: ${surge}`);
      },
    });
  }
  return out;
}

/** Who plays each command (C3, C11): a bound beast's Binder while the view shows it, else the combatant itself. */
function checkActors(state: ArcanaBeastState, v: View): void {
  for (const c of v.combatants) {
    const player = isBeastEntry(c) ? (c.binderId ?? c.id) : c.id;
    const got = system.actorOf!(state, { type: isBeastEntry(c) ? 'Pass' : 'Direct', combatantId: c.id });
    agree(got?.combatantId === player, `${c.id} is played by ${got?.combatantId}, the view says ${player}`);
  }
  if (v.pending?.kind === 'dice') {
    const got = system.actorOf!(state, { type: 'ProvideDice' });
    agree(
      (got?.combatantId ?? 'gm') === v.pending.awaiting,
      `the dice awaited from ${v.pending.awaiting} are given by ${got?.combatantId ?? 'the GM'}`,
    );
  }
  if (v.pending?.kind === 'intercept') {
    const beast = entryOf(v, v.pending.awaiting) as BeastEntry;
    const got = system.actorOf!(state, { type: 'Intercept', combatantId: beast.id, intercept: true });
    agree(
      got?.combatantId === (beast.binderId ?? beast.id),
      `the Intercept awaited from ${beast.id} is played by ${got?.combatantId}`,
    );
  }
}

/** What one view says of itself: fields that must agree with each other. */
function checkView(v: View): void {
  const t = v.turn;
  agree(
    (t?.beastId ?? null) === v.activeCombatantId,
    `the turn ${t?.beastId} and the activation ${v.activeCombatantId}`,
  );
  agree(
    (v.pending?.kind === 'intercept') === (v.pendingAttack !== null && v.pending?.kind !== 'dice'),
    `pending ${v.pending?.kind} with pendingAttack ${v.pendingAttack !== null}`,
  );
  if (v.pending?.kind === 'intercept') {
    const beast = entryOf(v, v.pending.awaiting);
    agree(
      isBeastEntry(beast) && beast.binderId === v.pendingAttack!.targetId,
      `the intercept awaits ${v.pending.awaiting} for an attack on ${v.pendingAttack!.targetId}`,
    );
  }
  if (v.pending && v.pending.awaiting !== 'gm')
    agree(
      entryOf(v, v.pending.awaiting) !== undefined,
      `the pending decision awaits ${v.pending.awaiting}, not in the fight`,
    );
  for (const c of v.combatants) {
    agree(c.hp > 0 || c.state !== 'Active', `${c.id} at 0 HP is ${c.state}`);
    agree(c.hp <= c.maxHp && c.stamina <= c.maxStamina, `${c.id}'s HP and Stamina within their maxima`);
    for (const [o, band] of Object.entries(c.bands)) {
      const other = entryOf(v, o)!;
      agree(
        other.bands[c.id] === band,
        `the band ${c.id}–${o} is ${band} one way, ${other.bands[c.id]} the other`,
      );
      if (anchorOf(v, o) === anchorOf(v, c.id)) agree(band === 'close', `${c.id} and ${o} share a place`);
    }
    if (isBeastEntry(c)) {
      agree(c.dieSides === DIE_BY_STAGE[c.stage], `${c.id} at Stage ${c.stage} rolls d${c.dieSides}`);
      agree(c.baseDamage === c.stats.brawn + c.stage, `${c.id}'s base damage is Brawn + Stage`);
      agree(
        c.stages.some((s) => s.stage === c.stage),
        `${c.id}'s Stage ${c.stage} is unlocked`,
      );
      agree(
        c.revertTo === null || (c.stage === c.highestStage && c.revertTo < c.stage),
        `${c.id}: revertTo ${c.revertTo} "while at its highest" (Stage ${c.stage} of ${c.highestStage})`,
      );
      agree(
        c.specialAttacks.every((s) => s.usesLeft <= s.uses),
        `${c.id}'s uses left within its uses per scene`,
      );
      agree(
        (!c.defending && c.guarding === null) || c.state === 'Active',
        `${c.id} ${c.state} defends or guards`,
      );
    } else agree(c.dieSides === 6, `Binder ${c.id} rolls d6`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Deciding a probe, and the tally.
// ---------------------------------------------------------------------------------------------------------------

interface Outcome {
  code: string;
  message?: string;
  events?: RuleEvent[];
}

function decided(state: ArcanaBeastState, command: RuleCommand, faces?: Json): Outcome {
  const dice: DiceSource = faces
    ? new ManualDice(faces)
    : new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: 0 });
  try {
    return { code: OK, events: system.decide(state, structuredClone({ ...command, ...faces }), dice) };
  } catch (e) {
    if (e instanceof RuleViolation) return { code: e.code, message: e.message };
    throw e;
  }
}

/** Promise → how often the view and the engine agreed on an accepted and on a refused probe. */
type Tally = Map<string, { accepted: number; refused: number }>;

/** The probes of one view: the lifecycle's, the Actions of the turn's beast and one other, the Binders' Commands. */
function probesOf(v: View): Probe[] {
  const all: Probe[] = [...lifecycleProbes(v)];
  const turnBeast = v.turn?.beastId;
  const actors = [
    ...(turnBeast ? [turnBeast] : []),
    ...v.combatants.filter((c) => c.id !== turnBeast).map((c) => c.id),
  ].slice(0, 2);
  for (const id of actors) all.push(...actionProbes(v, id));
  for (const c of v.combatants.filter((x) => isBinderEntry(x) || x.id === turnBeast).slice(0, 3))
    all.push(...commandProbes(v, c));
  all.push(...gmProbes(v));
  return all;
}

/** A command the view offers (one the walk then plays): a kind of command first, then one of that kind. */
function offered(state: ArcanaBeastState, i: number, k: number): RuleCommand | undefined {
  const legal = probesOf(system.view(state) as View).filter(
    (p) =>
      p.expect === OK && !['EndScene', 'CancelPending', 'ProvideDice', 'RollTest'].includes(p.command.type),
  );
  const types = [...new Set(legal.map((p) => p.command.type))].flatMap((t) =>
    Array<string>(OFFERED_WEIGHT[t] ?? 1).fill(t),
  );
  if (types.length === 0) return undefined;
  const kind = legal.filter((p) => p.command.type === types[k % types.length]);
  // An attack on a Binder, half the time: its beast may intercept (A22).
  const onBinder = kind.filter((p) =>
    isBinderEntry(entryOf(system.view(state) as View, String(p.command.targetId))),
  );
  const from = onBinder.length > 0 && Math.floor(k / types.length) % 2 === 0 ? onBinder : kind;
  return from[i % from.length].command;
}
/** How much more often the walk takes an offered command of these kinds. */
const OFFERED_WEIGHT: Record<string, number> = {
  Attack: 12,
  UseSpecialAttack: 4,
  UseZeroPower: 4,
  Intercept: 6,
  Assist: 3,
  Guard: 3,
  Evolve: 3,
  Move: 3,
  Direct: 3,
  Encourage: 2,
  Strategize: 2,
  BondSurge: 2,
  CallBack: 2,
  UseItem: 2,
  StartActivation: 2,
};

function probeAll(state: ArcanaBeastState, tally: Tally, pick: number): void {
  const v = system.view(state) as View;
  try {
    checkView(v);
    checkActors(state, v);
  } catch (e) {
    if (e instanceof Disagreement) disagree(`${e.message}\n  view: ${brief(v)}`);
    throw e;
  }
  const all = probesOf(v);
  // A share of the probes (`pick` chooses which): more of those of the running turn's beast and Binder.
  const chosen = all.filter(
    (p, i) => (i + pick) % (involvesTurn(v, p) ? PROBE_SHARE : 3 * PROBE_SHARE) === 0,
  );
  for (const p of chosen) {
    if (p.command.type === 'ProvideDice' && state.dice.mode !== 'manual') continue;
    const got = decidedAnswering(state, p);
    const what = `${p.promise}\n  command ${JSON.stringify(p.command)}\n  the view says ${p.expect}, the engine ${got.code}${got.message ? `: ${got.message}` : ''}`;
    if (got.code !== p.expect) disagree(`${what}\n  view: ${brief(v)}`);
    const seen = tally.get(p.promise) ?? { accepted: 0, refused: 0 };
    seen[got.code === OK ? 'accepted' : 'refused']++;
    tally.set(p.promise, seen);
    if (got.events && p.check) {
      const events = got.events;
      try {
        p.check(events, () => system.view(events.reduce(system.evolve, state)) as View);
      } catch (e) {
        if (e instanceof Disagreement) disagree(`${e.message}\n  after ${what}\n  view: ${brief(v)}`);
        throw e;
      }
    }
  }
}

/** A probe decided: with seeded dice, or with each of its answers in turn until one is accepted (else the last refusal). */
function decidedAnswering(state: ArcanaBeastState, p: Probe): Outcome {
  if (!p.answers) return decided(state, p.command);
  let got = decided(state, p.command, p.answers[0]);
  for (const faces of p.answers.slice(1)) {
    if (got.code === OK) break;
    got = decided(state, p.command, faces);
  }
  return got;
}

/**
 * One probe in PROBE_SHARE of the running turn's (and of the pending decision's) is decided after each step, one in
 * three times that many of the others; PROBE_SHARE=1 decides every probe of the turn (a slower, closer run).
 */
const PROBE_SHARE = Number(process.env.PROBE_SHARE ?? 2);
/** A probe of the running turn's beast or Binder, or of the pending decision's answer. */
const involvesTurn = (v: View, p: Probe): boolean => {
  const id = (p.command.combatantId ?? p.command.attackerId) as string | undefined;
  return (
    (id !== undefined && (id === v.turn?.beastId || id === v.turn?.binderId || id === v.pending?.awaiting)) ||
    (v.pending !== null && answersOf(v.pending).includes(p.command.type))
  );
};

/** The view, shortened for a failure message. */
const brief = (v: View): string =>
  JSON.stringify({
    status: v.status,
    round: v.round,
    roundOpen: v.roundOpen,
    initiative: v.initiative,
    active: v.activeCombatantId,
    acted: v.actedThisRound,
    pending: v.pending,
    turn: v.turn,
    combatants: v.combatants.map((c) => ({
      id: c.id,
      kind: c.kind,
      side: c.side,
      state: c.state,
      hp: c.hp,
      bands: c.bands,
      tags: c.tags.map((t) => `${t.tag}${t.againstId ? `@${t.againstId}` : ''}`),
      ...(isBeastEntry(c)
        ? { binderId: c.binderId, stage: c.stage, guarding: c.guarding, interceptOwed: c.interceptOwed }
        : { beastId: c.beastId }),
    })),
  });

// ---------------------------------------------------------------------------------------------------------------
// Random fights, as sheet-fuzz.unit.spec.ts builds them (command-space.ts; no hostile field values here: a malformed
// command is refused before any rule and changes nothing a promise speaks of).
// ---------------------------------------------------------------------------------------------------------------

/** A value resolved against the fight as the walk reaches the step; a lead's too (LEADS). */
type Pick = CommandPick | { $: 'binderFoe'; i: number } | { $: 'ally'; i: number };

/**
 * Commands that lead where the view promises most, some of them two in a row (`$then`): a Binder brought in reach and
 * attacked (an Intercept), an ally brought Close and helped or guarded, a trigger marked.
 */
const LEADS: [number, fc.Arbitrary<Json>][] = [
  [
    10,
    fc
      .tuple(fc.nat(), fc.nat(), fc.constantFrom('close', 'near'), fc.boolean())
      .map(([i, k, band, bare]) => ({
        $then: [
          { type: 'SetBand', aId: { $: 'active' }, bId: { $: 'binderFoe', i }, band },
          {
            type: ['Attack', 'UseSpecialAttack', 'UseZeroPower'][k % 3],
            attackerId: { $: 'active' },
            targetId: { $: 'binderFoe', i },
            ...(k % 3 === 0 ? { attackId: { $: 'attack', i: k } } : {}),
            ...(k % 3 === 1 ? { specialAttackId: { $: 'special', i: k } } : {}),
            ...(bare ? {} : { intercept: k % 2 === 0 }),
          },
        ],
      })),
  ],
  [
    6,
    fc.tuple(fc.nat(), fc.constantFrom('Assist', 'Guard')).map(([i, type]) => ({
      $then: [
        { type: 'SetBand', aId: { $: 'active' }, bId: { $: 'ally', i }, band: 'close' },
        { type, combatantId: { $: 'active' }, allyId: { $: 'ally', i } },
      ],
    })),
  ],
  [
    4,
    fc
      .constantFrom('stage', 'zeroPower')
      .map((kind) => ({ type: 'SetTrigger', combatantId: { $: 'active' }, kind })),
  ],
];
/** Every command (command-space.ts), SetTag a little more often, the leads, and mostly a command the view offers. */
const command = fc.oneof(
  ...weighted(commands({ hostile: [], everyField: false }), { SetTag: 4 }),
  ...LEADS.map(([weight, arbitrary]) => ({ weight, arbitrary })),
  { weight: 300, arbitrary: fc.tuple(fc.nat(), fc.nat()).map(($offered) => ({ $offered })) },
  {
    weight: 6,
    arbitrary: fc
      .nat()
      .map((i) => ({ type: 'SetBand', aId: { $: 'active' }, bId: { $: 'other', i }, band: 'close' })),
  },
);
const faces = fc
  .record({ dice: facesOf, rerollFaces: maybe(facesOf), followUpFaces: maybe(facesOf), how: fc.nat() })
  .map(defined);

const walk = fc.record({
  mode: fc.constantFrom('seeded', 'manual'),
  options,
  fighters,
  late: fc.nat(),
  opening: fc.oneof(
    { weight: 4, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  /** Everyone starts Close (melee reaches), or Near as the GM left them (A17). */
  close: fc.boolean(),
  steps: fc.array(fc.tuple(command, faces, fc.nat()), { minLength: 5, maxLength: 60, size: 'max' }),
});
function resolve(value: unknown, state: ArcanaBeastState, joiners: Joiner[]): unknown {
  if (Array.isArray(value)) return value.map((x) => resolve(x, state, joiners));
  if (typeof value !== 'object' || value === null) return value;
  if (!('$' in value))
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, resolve(x, state, joiners)]));
  const p = value as Pick;
  const at = <T>(xs: T[], i: number): T | string => (xs.length > 0 ? xs[i % xs.length] : 'ghost');
  const all = state.joined.map((j) => state.combatants[j]);
  const active = state.turn?.beastId ?? state.activeId;
  const activeSheet =
    active && Object.hasOwn(state.combatants, active) ? state.combatants[active].sheet : undefined;
  switch (p.$) {
    case 'combatant':
      return at([...state.joined, ...(state.removed ?? [])], p.i);
    case 'other':
      return at(
        state.joined.filter((j) => j !== active),
        p.i,
      );
    case 'active':
      return active ?? 'ghost';
    case 'binder':
      return state.turn?.binderId ?? 'ghost';
    case 'awaiting':
      return state.pending?.awaiting ?? 'ghost';
    case 'attack':
      return at(
        activeSheet?.kind === 'beast'
          ? activeSheet.attacks.map((a) => a.id)
          : all.flatMap((c) => (c.sheet.kind === 'beast' ? c.sheet.attacks.map((a) => a.id) : [])),
        p.i,
      );
    case 'special':
      return at(
        all.flatMap((c) => (c.sheet.kind === 'beast' ? c.sheet.specialAttacks.map((a) => a.id) : [])),
        p.i,
      );
    case 'item':
      return at(
        all.flatMap((c) => (c.sheet.kind === 'binder' ? c.sheet.inventory.map((x) => x.id) : [])),
        p.i,
      );
    case 'condition':
      return at([...all.flatMap((c) => c.conditions), ...CONDITIONS], p.i);
    case 'order': {
      const order = [...state.joined].sort(
        (a, b) =>
          (p.shuffle[state.joined.indexOf(a) % (p.shuffle.length || 1)] ?? 0) -
          (p.shuffle[state.joined.indexOf(b) % (p.shuffle.length || 1)] ?? 0),
      );
      const out: string[] = [];
      for (const x of order) {
        const c = state.combatants[x];
        if (c.sheet.kind === 'binder' && state.joined.includes(c.sheet.beastId)) continue;
        out.push(x);
        for (const b of order) {
          const s = state.combatants[b].sheet;
          if (s.kind === 'binder' && s.beastId === x) out.push(b);
        }
      }
      return out;
    }
    case 'joiner':
      return joiners.length > 0 ? joiners[p.i % joiners.length] : { id: 'ghost', name: 'ghost', sheet: {} };
    case 'binderFoe':
      return at(
        all.filter((c) => c.sheet.kind === 'binder' && c.sheet.beastId !== active).map((c) => c.id),
        p.i,
      );
    case 'ally': {
      const side =
        active && Object.hasOwn(state.combatants, active) ? state.combatants[active].side : undefined;
      return at(
        all.filter((c) => c.side === side && c.id !== active).map((c) => c.id),
        p.i,
      );
    }
  }
}

/**
 * A manual command's faces: the random ones given, or (`how` 1 and 2) the faces seeded dice would show, all of them or
 * only the first pool (so the fight asks for the rest, C13).
 */
function facesFor(state: ArcanaBeastState, c: RuleCommand, given: Json): Json {
  const how = (given.how as number) % 3;
  const { how: _how, ...random } = given;
  if (how === 0) return random;
  const seeded = new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: 0 });
  const read: Record<string, number[]> = { dice: [], rerollFaces: [], followUpFaces: [] };
  let pools = 0;
  const field = { pool: 'dice', reroll: 'rerollFaces', followUp: 'followUpFaces' } as const;
  const recording: DiceSource = {
    roll(count, sides, kind = 'pool') {
      const r = seeded.roll(count, sides);
      if (how === 1 || (kind === 'pool' && pools++ === 0)) read[field[kind]].push(...r.faces);
      return r;
    },
  };
  try {
    system.decide(state, structuredClone(c), recording);
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
  }
  return defined(Object.fromEntries(Object.entries(read).map(([k, f]) => [k, f.length > 0 ? f : undefined])));
}

type Walk = typeof walk extends fc.Arbitrary<infer T> ? T : never;

/** Walks one random fight, probing the view's promises after every step. */
function walkAndProbe(
  { mode, options, fighters, late, opening, close, steps: random }: Walk,
  tally: Tally,
): void {
  const split = fighters.length - (late % 3 === 0 ? Math.min(2, fighters.length - 1) : 0);
  const joiners = fighters.slice(split);
  let state = system.start(FIGHT_ID) as ArcanaBeastState;
  const started = system.decide(
    state,
    {
      type: 'StartFight',
      name: 'View promises',
      dice: { mode, commitment: TEST_COMMITMENT },
      options,
      combatants: structuredClone(fighters.slice(0, split)),
    },
    new ManualDice({}),
  );
  state = started.reduce(system.evolve, state) as ArcanaBeastState;
  let draws = 0;
  const play = (plan: unknown, given: Json): void => {
    if (typeof plan === 'object' && plan !== null && '$then' in plan) {
      for (const p of (plan as { $then: unknown[] }).$then) play(p, given);
      return;
    }
    if (typeof plan === 'object' && plan !== null && '$offered' in plan) {
      const [i, k] = (plan as { $offered: [number, number] }).$offered;
      const chosen = offered(state, i, k);
      if (chosen) play(chosen, given);
      return;
    }
    const c = resolve(plan, state, joiners) as RuleCommand;
    const manual = mode === 'manual' ? facesFor(state, c, given) : given;
    const dice: DiceSource =
      mode === 'seeded'
        ? new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: draws })
        : new ManualDice(manual);
    try {
      const events = system.decide(state, structuredClone(mode === 'manual' ? { ...c, ...manual } : c), dice);
      if (dice instanceof SeededDice) draws = dice.drawsUsed;
      state = events.reduce(system.evolve, state) as ArcanaBeastState;
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
    }
  };
  const steps = opening
    ? [
        ...OPENING.map((o, i) => [o, random[i % random.length][1], random[i % random.length][2]] as const),
        ...random,
      ]
    : random;
  if (close)
    for (const [i, a] of state.joined.entries())
      for (const b of state.joined.slice(i + 1)) play({ type: 'SetBand', aId: a, bId: b, band: 'close' }, {});
  const pendingKind = (): string | undefined => state.pending?.kind;
  probeAll(state, tally, 0);
  for (const [plan, manual, pick] of steps) {
    const forTurn = /"\$":"(active|binder)"/.test(JSON.stringify(plan));
    if (forTurn && state.turn?.action !== undefined && !state.pending && (manual.dice as number[]).length % 2)
      play({ type: 'EndActivation' }, manual);
    if (forTurn && !state.turn && !state.pending) {
      if (state.order.length === 0) play({ type: 'RollInitiative' }, manual);
      // `play` folds the new events into `state`: what RollInitiative left pending is read afresh.
      if (pendingKind() === 'initiativeTie')
        play({ type: 'SetInitiative', order: { $: 'order', shuffle: [] } }, manual);
      const waiting = state.order.filter((x) => !state.actedThisRound.includes(x) && canActivate(state, x));
      if (state.roundOpen && waiting.length === 0) play({ type: 'EndRound' }, manual);
      if (!state.roundOpen) play({ type: 'StartRound' }, manual);
      play({ type: 'StartActivation' }, manual);
    }
    play(plan, manual);
    probeAll(state, tally, pick);
  }
}

describe('arcana-beast: what the view promises is what the engine accepts, and what it rules out the engine refuses', () => {
  it('random fights of random valid sheets: every probe of the view’s promises agrees with the decider', () => {
    const tally: Tally = new Map();
    const numRuns = Number(process.env.FUZZ_RUNS ?? 40);
    try {
      fc.assert(
        fc.property(walk, (w) => walkAndProbe(w, tally)),
        { numRuns, seed: Number(process.env.FUZZ_SEED ?? 20261207) },
      );
    } finally {
      if (process.env.FUZZ_TALLY)
        process.stderr.write(
          `${[...tally].map(([p, n]) => `${n.accepted}\t${n.refused}\t${p}`).join('\n')}\n`,
        );
    }
    // The walks reach both sides of the promises that matter most (the default run and longer ones).
    if (numRuns >= 40)
      for (const [promise, n] of tally)
        if (/^(StartActivation|EndActivation|Pass|Attack|Move|Evolve|Direct|Intercept)/.test(promise))
          expect([promise, n.accepted > 0, n.refused > 0]).toEqual([promise, true, true]);
  });
});

/** The view of the fight after `events`, and one combatant's entry in it. */
const viewAfter = (events: RuleEvent[]) => system.view(stateOf(events)) as View;
const entryAfter = (events: RuleEvent[], id: string) => entryOf(viewAfter(events), id)!;
/** What the engine makes of a command on the fight after `events`, with seeded dice: its code or `accepted`. */
const verdict = (events: RuleEvent[], command: RuleCommand) => decided(stateOf(events), command).code;

describe('the view’s promises, case by case', () => {
  it('A5, C4: given an initiative tie, when the view shows the pending decision, then it names RerollInitiative beside SetInitiative (detail.alsoAccepts), as the engine takes either', () => {
    const tied = then(
      [fightStarted('arcana-beast'), ...party.map(joined)],
      { type: 'RollInitiative' },
      {
        dice: [4, 1, 6, 1, 1, 1, 1, 4, 4],
      },
    );
    expect(viewAfter(tied).pending).toEqual({
      kind: 'initiativeTie',
      awaiting: 'gm',
      answer: 'SetInitiative',
      detail: { ties: [['ember', 'pip']], alsoAccepts: ['RerollInitiative'] },
    });
    expect(types(exact(tied, { type: 'RerollInitiative' }, { dice: [1, 1, 5, 1, 1] }))).toEqual([
      'InitiativeTieRerolled',
    ]);
    const order = ['pip', 'bo', 'ember', 'ash', 'wolf', 'wolf2'];
    expect(types(exact(tied, { type: 'SetInitiative', order }))).toEqual(['InitiativeSet']);
    expect(refused(tied, { type: 'StartRound' })).toMatchObject({ code: 'PENDING_DECISION' });
    // What the events fold to is unchanged: the view names the answers the system takes (decide/index.ts).
    expect(stateOf(tied).pending?.detail).toEqual({ ties: [['ember', 'pip']] });
  });

  it('A73: given Ember Knocked Out and called back into its Wearable Vessel, when the view shows it, then it is InVessel at 0 HP, and the engine refuses what that state rules out (Encourage, Use Item, Call Back) though it took them while Ember was only Knocked Out; the next encounter brings it back Knocked Out', () => {
    let e = fight([ember({ hp: 0, maxHp: 12 }), ash, wolf()], 'ember');
    e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'Dazed' });
    expect(entryAfter(e, 'ember')).toMatchObject({ state: 'KnockedOut', hp: 0 });
    // A55: Knocked Out only, Ember may still be tended: Ash's Encourage (Spirit 3: 4, 4, 4) and Use Item.
    const tend = { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition', condition: 'Dazed' };
    expect(types(exact(e, tend, { dice: [4, 4, 4] }))).toEqual(['BinderCommanded', 'ConditionRemoved']);
    expect(verdict(e, { type: 'UseItem', combatantId: 'ash', itemId: 'potion' })).toBe('accepted');
    // A23: Call Back can only retreat a Knocked Out beast; it makes no Devolution Test.
    e = then(e, { type: 'CallBack', combatantId: 'ash', mode: 'retreat' });
    expect(entryAfter(e, 'ember')).toMatchObject({ state: 'InVessel', hp: 0 });
    e = then(next(e, 'wolf'), { type: 'EndActivation' });
    e = then(then(e, { type: 'StartRound' }), { type: 'StartActivation', combatantId: 'ember' });
    expect(viewAfter(e).turn).toMatchObject({ beastId: 'ember', binderId: 'ash' });
    for (const command of [
      tend,
      { type: 'UseItem', combatantId: 'ash', itemId: 'potion' },
      { type: 'CallBack', combatantId: 'ash', mode: 'retreat' },
    ])
      expect(refused(e, command)).toMatchObject({ code: 'ARCANA_COMBATANT_OUT' });
    expect(entryAfter(then(e, { type: 'EndScene' }), 'ember')).toMatchObject({ state: 'KnockedOut', hp: 0 });
  });

  it('A74: given Ash’s Bond Surge in Ember’s turn, when Ember’s Claw knocks Ash out, then the view’s turn names no Binder, and a Test Ash rolls in that turn gets no Boost, while Ember’s rolls keep it', () => {
    const frail = { ...ash, sheet: binder('ember', { hp: 1 }) };
    let e = then(fight([ember(), frail, wolf()], 'ember'), { type: 'BondSurge', combatantId: 'ash' });
    expect(viewAfter(e).turn).toMatchObject({ binderId: 'ash', bondSurge: true });
    // Claw 5 d8 with Boost: 8, 8, 8, 8, 8 and 1 (dropped); Ash's Dodge 2 d6 with Boost (still in the turn): 1, 1, 1.
    e = then(
      e,
      { type: 'Attack', attackerId: 'ember', targetId: 'ash', attackId: 'claw' },
      {
        dice: [8, 8, 8, 8, 8, 1, 1, 1, 1],
      },
    );
    expect(entryAfter(e, 'ash')).toMatchObject({ state: 'KnockedOut', hp: 0 });
    expect(viewAfter(e).turn).not.toHaveProperty('binderId');
    expect(viewAfter(e).turn).toMatchObject({ beastId: 'ember', bondSurge: true });
    const test = (combatantId: string, dice: number[]) =>
      find(exact(e, { type: 'RollTest', combatantId, stat: 'spirit', difficulty: 1 }, { dice }), 'TestRolled')
        .test;
    // Ash: Spirit 3, no Boost. Ember: Spirit 2 with Bond Surge's Boost (one more die, the lowest dropped).
    expect(test('ash', [4, 4, 4])).toMatchObject({ dice: 3, edge: 'none', boostSources: [] });
    expect(test('ember', [4, 4, 1])).toMatchObject({ dice: 2, edge: 'boost', boostSources: ['Bond Surge'] });
  });

  it('A34: given Ember’s Zero Power with a melee range and Kit’s without one, when the view shows them, then it gives the range a target must be in, and null for the narrative one, which the engine takes with no target', () => {
    const kit = {
      id: 'kit',
      side: 'heroes',
      sheet: wild({ zeroPower: { name: 'Howl', trigger: 'the moon' } }),
    };
    let e = fight([ember(), ash, kit, wolf()], 'ember');
    for (const id of ['ember', 'kit'])
      e = then(e, { type: 'SetTrigger', combatantId: id, kind: 'zeroPower' });
    expect((entryAfter(e, 'ember') as BeastEntry).zeroPower).toMatchObject({
      range: 'melee',
      triggerActive: true,
    });
    expect((entryAfter(e, 'kit') as BeastEntry).zeroPower).toMatchObject({
      range: null,
      triggerActive: true,
    });
    // Melee reaches Close: the wolf, Near, is out of reach until the GM brings it Close.
    const flare = { type: 'UseZeroPower', attackerId: 'ember', targetId: 'wolf' };
    expect(refused(e, flare)).toMatchObject({ code: 'ARCANA_OUT_OF_RANGE' });
    expect(verdict(close(e, 'ember', 'wolf'), flare)).toBe('accepted');
    expect(refused(e, { type: 'UseZeroPower', attackerId: 'ember' })).toMatchObject({ field: 'targetId' });
    const howl = next(e, 'kit');
    expect(verdict(howl, { type: 'UseZeroPower', attackerId: 'kit' })).toBe('accepted');
  });

  it('A33: given Ash’s Salve, which removes a condition, and its Potion, which does not, when the view shows the inventory, then it says which Use Item must name a condition, and the engine takes the commands built that way', () => {
    let e = fight([ember(), ash, wolf()], 'ember');
    e = then(e, { type: 'ApplyCondition', combatantId: 'ember', condition: 'Dazed' });
    expect((entryAfter(e, 'ash') as BinderEntry).inventory).toEqual([
      { id: 'potion', name: 'Potion', quantityLeft: 1, removesCondition: false },
      { id: 'salve', name: 'Salve', quantityLeft: 1, removesCondition: true },
    ]);
    const use = (itemId: string, condition?: string) => ({
      type: 'UseItem',
      combatantId: 'ash',
      itemId,
      ...(condition ? { condition } : {}),
    });
    expect(verdict(e, use('salve', 'Dazed'))).toBe('accepted');
    expect(verdict(e, use('potion'))).toBe('accepted');
    expect(refused(e, use('salve'))).toMatchObject({ code: 'INVALID_FIELD', field: 'condition' });
    expect(refused(e, use('potion', 'Dazed'))).toMatchObject({ code: 'INVALID_FIELD', field: 'condition' });
  });
});
