import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { combatState, narateer } from '../../src/narateer';
import { findSystem } from '../../src/registry';
import { decide } from '../as-sent';
import { fightStarted, TEST_SEED } from '../given';
import { exact, fight, Fighter, joined, refusal, stateOf } from './helpers';
import { rng } from '../seeded-random';

/**
 * An oracle of the Combat Exchange, computed from narateer.txt, RULINGS.md (N1–N21) and the rulings N22–N70 alone
 * (not from the engine’s code), compared with the engine on random legal fights of two to four combatants with manual
 * dice, over two or three rounds, on the map or off it. Each tempo-holder declares Melee and Ranged Exchanges within
 * its proactive uses and Ready AD (any weapon, Boost within the Skill Level, a Damage Vital or the default, a distance,
 * the GM’s Edge, flags, harm and Strike/Protection modifiers) at any other combatant, reloads, spends dice on other
 * actions (N33) and moves, opening Opportunity Attacks (N24, N42, N45, N60). The target answers No Response, Full Guard
 * or Clash (with or without a named weapon) up front, by RespondToExchange or by its sheet’s response policy, or is
 * forced to No Response (unaware, Collapsed, Withdrawn, Unconscious or Paralyzed, no Ready AD). The GM applies and
 * removes conditions (Blinded, Invisible, Deafened, Unconscious, Paralyzed, Prone, for some rounds or until removed),
 * Wounds (N32, N59) and Lingering Harm with its own Wounds, tick timing, rounds and ticks (N11, N19, N38, N47, N62).
 * Every pool, Edge source, reroll, total, outcome and Hit Margin, every Strike and Protection Rating, Wound Margin and
 * Wound count, each die a Wound takes (by preference, in advance or as the wounded’s answer, N9, N28), Vitality, state,
 * Continuation Check, shot and Loading, each tick and what ends with a round, the next activation and its refreshed
 * dice, and the dice, uses, weapons, Spaces and conditions each combatant folds to are checked; a proactive use over
 * SL + 1 and a Base Attack Cost over the Ready AD must be refused. The same Lingering Harm source again refreshes its
 * instance (N39), a pending response may be withdrawn by the GM’s CancelPending (N29), a policy may name its Clash weapon
 * (N23), and a command may be sent short of its later faces, given by ProvideDice a part at a time (C13, C18, N61). FUZZ_RUNS and FUZZ_SEED explore further;
 * FUZZ_REPORT prints what was covered.
 *
 * Also modelled: initiative, either the GM's order or Side Rolls of Agility dice (N4, N15: higher total first, ties by
 * Agility, then the GM's SetInitiative or a `tieBreak`, C10, naming a whole tied group or part of it: its named members
 * first, the group the GM's until every member is named); late joiners (AddCombatant) at any point of a round, slotted
 * in by the totals (N16) or, after the GM's order, put last with the order left to the GM (N40), taking their
 * activation in the round they join (N49); activations and Opportunity Attacks in the initiative order; a forced No
 * Response's one recorded reason (N70); Restrained (N26: no voluntary move) and the label conditions (Hindered, Slowed,
 * Weakened, Unnerved, Panicked, Prone: the GM's `edge`, so no effect of their own), the GM's forced movement of anyone
 * (N24, N45), fallen or not, in an activation, between two activations and between rounds, and movement exempt from
 * Reactions; the GM's CancelPending of an offered Opportunity Attack, which ends the step's queue (N29); between two
 * activations, the round that the Opportunity Attacks of a forced move leave with no one to wait for ends with the
 * command that settles the queue's last decision (the last attack, its wounded's answer, a decline or the cancel) after
 * the attack's own Continuation Check, with the round's end (ticks, their checks and answers, what runs out with it),
 * and a round that waited for no one before the move does not (N59 with N45); TreatLingeringHarm (N19); SpendDice with
 * a proactive use (N33, N43: Paralyzed commits dice only to an action that is not physical); the refusals of a Boost
 * over the Skill Level or the Ready AD, a target beyond reach or Maximum Range, an unloaded or empty weapon. The GM's
 * RemoveCombatant between activations, of the combatant whose activation runs or of another (C11: its id is never given
 * again; C16: the running activation ends with it, nothing of its end applies; C16, N59: a round left with no one to
 * wait for ends in the same command); the GM's EndRound between activations or in one (the running activation ends
 * first, with its own end's ticks, then the round's end; N28: a tick there that asks its wounded holds the rest, and
 * the answer finishes the activation's end, the round left open for the GM's EndRound again, or ended with the answer
 * when no one is left to wait for, N59); EndFight at the end of a run or in the middle of one, a response, an
 * Opportunity Attack or Wounds (an exchange's, the GM's or a tick's) awaited (C17: `winnerSide` the side of a combatant
 * in the fight, a removed one's refused; N66: the ended fight accepts no command and awaits nothing; until then, what
 * came before the awaited Wounds stands and the view shows them: who chooses, how many, how many take a die, from which
 * exchange or tick, N9, N28). The view after every step: the round, whether it is open, the order, whose activation
 * runs, who acted this round, the decision awaited and what it shows (the Opportunity Attacks of a step, N24), and of
 * each combatant present its state, Vitality, initiative, dice by state, proactive uses left (N5, N63, N67),
 * conditions, Lingering Harm and its terms, Space, Soak, wound preference and each weapon as the rules read it
 * (defaults, N21, N36), with its Loading, ammunition and readiness (N27, N65).
 *
 * Left out (narateer.txt or the rulings, not modelled here): walls and obstruction ("Reach alone does not allow an
 * attack through a wall"; the engine does not know them, N24); Hide, which the engine keeps no state for (its first
 * attack is the GM's `attackerUnseen`, N41, modelled above), and Story and Cinematic Modes, which it has no mode for
 * (their agreed positions are the map's Spaces, N54); the Combat Lab strategies (N14: the simulator's); UndoCommands
 * (C8: the fight log's, not the rule system's: its fold of the events not undone is the fold of a shorter list here,
 * and manual dice have no draw counter to keep); the GM's CancelPending of a tick's allocation (N28, N59: that tick's
 * Wounds dropped, the other sources of that moment ticking with the cancel or the GM's EndRound); the view's names,
 * Vitals and Skill Levels (the sheet's, unchanged).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261208);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

type Vital = 'strength' | 'agility' | 'resilience';
type Kind = 'melee' | 'ranged';
type Die = 'AD' | 'MD';
type Net = 'advantage' | 'disadvantage' | 'none';
type Response = 'none' | 'fullGuard' | 'clash';
interface Weapon {
  id: string;
  name: string;
  kind: Kind;
  weight: 'light' | 'heavy';
  baseAttackCost: number;
  weaponDamage: number;
  damageVitalCap: number;
  damageVitals?: Vital[];
  reach?: number;
  effectiveRange?: number;
  maximumRange?: number;
  needsLoading?: boolean;
  loaded?: boolean;
  ammunition?: number;
  harm: string;
}
interface Sheet {
  vitals: Record<Vital, number>;
  skills: { melee: number; ranged: number; acrobatics: number };
  maxVitality: number;
  maxAD: number;
  maxMD: number;
  weapons: Weapon[];
  armour?: { soak: number };
  woundPreference?: 'AD_FIRST' | 'MD_FIRST' | 'ASK';
  responsePolicy?: { response: Response; boost?: number; weaponId?: string; fallback?: 'fullGuard' | 'none' };
}
interface Space {
  x: number;
  y: number;
}
interface Pool {
  ready: number;
  used: number;
  wounded: number;
}
type Tick = 'roundEnd' | 'roundStart' | 'activationStart' | 'activationEnd';
interface Lingering {
  id: string;
  form: string;
  label: string;
  /** N19, N39: the source the GM names, if any. */
  source?: string;
  wounds: number;
  allocation?: Die[];
  /** N38: when it ticks, at most once a round; the round it ends with; the ticks it has left. */
  tick: Tick;
  untilRound?: number;
  ticksLeft?: number;
  lastTick?: number;
  ended?: boolean;
  /** The round it was applied in (the view’s appliedRound). */
  appliedRound: number;
}
/** What the oracle knows of one combatant. */
interface Model {
  id: string;
  side: string;
  sheet: Sheet;
  /** N13, N25: a square-grid Space, in fights on the map. */
  pos?: Space;
  vit: number;
  ad: Pool;
  md: Pool;
  withdrawn: boolean;
  /** N18: fallen below half its Maximum Vitality once already. */
  belowHalf: boolean;
  uses: { melee: number; ranged: number };
  guns: Record<string, { loaded: boolean; ammunition?: number }>;
  /** Condition → the round it ends with (N26), or null: until removed. */
  conds: Record<string, number | null>;
  /** N41: the foes it has attacked while unseen by them. */
  unseen: Set<string>;
  lingering: Lingering[];
  acted: boolean;
  /** N4, N16: its initiative Side Roll total, once rolled (none in an order the GM set). */
  init?: number;
}
interface Side {
  combatantId: string;
  skill: string;
  rolled: number[];
  edge: Net;
  sources: { advantage: string[]; disadvantage: string[] };
  reroll?: { index: number; original: number; faces: number[]; kept: 'original' | 'reroll' };
  faces: number[];
  total: number;
}

/** N1: faces 1–2 show 0 dots, 3–5 one, 6 two. */
const dots = (f: number) => (f <= 2 ? 0 : f <= 5 ? 1 : 2);
const sum = (faces: number[]) => faces.reduce((s, f) => s + dots(f), 0);
/** Wound Conversion: 1–2 = 1, 3–4 = 2, 5–6 = 3, 7–8 = 5, 9+ = 8 (0 or less: no Wound). */
const convert = (wm: number) => (wm <= 0 ? 0 : wm <= 2 ? 1 : wm <= 4 ? 2 : wm <= 6 ? 3 : wm <= 8 ? 5 : 8);
/** "Only one source of Advantage and one source of Disadvantage can apply per roll …; if both apply, they cancel." */
const netOf = (s: { advantage: string[]; disadvantage: string[] }): Net =>
  s.advantage.length && !s.disadvantage.length
    ? 'advantage'
    : s.disadvantage.length && !s.advantage.length
      ? 'disadvantage'
      : 'none';
/**
 * N2: Advantage rerolls the die with the fewest dots (then the lowest face, then the first position) and keeps the
 * better; Disadvantage the die with the most dots (then the highest face, the first position) and keeps the worse;
 * equal dots keep the original.
 */
function edgeOf(side: Omit<Side, 'faces' | 'total' | 'reroll'>, rerollFace: number | undefined): Side {
  const faces = [...side.rolled];
  if (side.edge === 'none') return { ...side, faces, total: sum(faces) };
  const adv = side.edge === 'advantage';
  let index = 0;
  for (let i = 1; i < faces.length; i++)
    if (adv ? faces[i] < faces[index] : faces[i] > faces[index]) index = i;
  const original = faces[index];
  const f = rerollFace!;
  const kept = (adv ? dots(f) > dots(original) : dots(f) < dots(original)) ? 'reroll' : 'original';
  if (kept === 'reroll') faces[index] = f;
  return { ...side, reroll: { index, original, faces: [f], kept }, faces, total: sum(faces) };
}
/** JSON with sorted keys and without undefined fields, to compare by value. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  ) ?? 'undefined';
/**
 * N21: a default Damage Vital is the highest after the cap; when two Vitals give the same value the text names
 * neither, so any of them is accepted (the Strike Rating is the same).
 */
const tied = (want: Vital, allowed: Vital[], have: unknown) =>
  allowed.includes(have as Vital) ? (have as Vital) : want;
const sorted = (s: { advantage: string[]; disadvantage: string[] }) => ({
  advantage: [...new Set(s.advantage)].sort(),
  disadvantage: [...new Set(s.disadvantage)].sort(),
});

const LINGERING: Record<string, string> = {
  // N11: the default classifications.
  Bleeding: 'Affliction (Bleeding)',
  Burning: 'Elemental (Fire)',
  Poisoned: 'Affliction (Poison)',
};

describe('narateer oracle: the Combat Exchange from the text against the engine', () => {
  it('given random legal fights, when exchanges resolve, then pools, Edge, totals, outcomes, Wounds, their dice, Vitality and Continuation Checks match the text', () => {
    const r = rng(SEED);
    const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
    const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)];
    const d6 = (n: number) => Array.from({ length: n }, () => int(1, 6));
    const stats: Record<string, number> = {
      exchanges: 0,
      hits: 0,
      counters: 0,
      guarded: 0,
      ties: 0,
      checks: 0,
      asked: 0,
      ticks: 0,
    };
    const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);

    const mkWeapon = (i: number): Weapon => {
      const harm = pick([
        'Physical (Slashing)',
        'Physical (Piercing)',
        'Physical (Impact)',
        'Elemental (Fire)',
      ]);
      const weight = pick(['light', 'heavy'] as const);
      if (r() < 0.6) {
        const w: Weapon = {
          id: `w${i}`,
          name: `w${i}`,
          kind: 'melee',
          weight,
          baseAttackCost: pick([1, 1, 1, 2, 3]),
          weaponDamage: int(0, 4),
          damageVitalCap: int(0, 4),
          harm,
        };
        if (r() < 0.3) w.reach = 2;
        const lists: (Vital[] | undefined)[] =
          weight === 'light'
            ? [undefined, ['strength'], ['agility'], ['strength', 'agility']]
            : [undefined, ['strength']];
        const dv = pick(lists);
        if (dv) w.damageVitals = dv;
        return w;
      }
      const effectiveRange = int(2, 6);
      const w: Weapon = {
        id: `w${i}`,
        name: `w${i}`,
        kind: 'ranged',
        weight,
        baseAttackCost: pick([1, 1, 2]),
        weaponDamage: int(0, 3),
        damageVitalCap: int(1, 4),
        effectiveRange,
        maximumRange: effectiveRange + int(0, 8),
        harm,
      };
      if (r() < 0.4) {
        w.needsLoading = true;
        w.loaded = r() < 0.7;
      }
      if (r() < 0.5) w.ammunition = int(w.loaded ? 1 : 0, 4);
      const dv = pick([undefined, ['agility'], ['strength']] as (Vital[] | undefined)[]);
      if (dv) w.damageVitals = dv;
      return w;
    };
    const mkSheet = (): Sheet => {
      const s: Sheet = {
        vitals: { strength: int(0, 4), agility: int(0, 4), resilience: int(0, 3) },
        skills: { melee: int(0, 3), ranged: int(0, 3), acrobatics: int(0, 2) },
        maxVitality: int(2, 10),
        maxAD: int(1, 7),
        maxMD: r() < 0.5 ? 0 : int(1, 3),
        weapons: Array.from({ length: int(1, 3) }, (_, i) => mkWeapon(i)),
      };
      if (r() < 0.7) s.armour = { soak: int(0, 2) };
      const pref = pick([undefined, 'AD_FIRST', 'MD_FIRST', 'ASK'] as const);
      if (pref) s.woundPreference = pref;
      if (r() < 0.35) {
        const response = pick(['none', 'fullGuard', 'clash', 'clash'] as const);
        s.responsePolicy = { response, ...(response === 'none' ? {} : { boost: int(0, 3) }) };
        if (response === 'clash' && r() < 0.5) s.responsePolicy.weaponId = pick(s.weapons).id;
        const fallback = pick([undefined, 'fullGuard', 'none'] as const);
        if (fallback) s.responsePolicy.fallback = fallback;
      }
      return s;
    };

    for (let run = 0; run < RUNS; run++) {
      /** Join order (N22: ticks go in it); `order` is the initiative order. */
      const ids = ['a', 'b', 'c', 'd'].slice(0, int(2, 4));
      const m: Record<string, Model> = {};
      const newModel = (id: string, sheet: Sheet): Model => ({
        id,
        side: r() < 0.5 ? 'x' : 'y',
        sheet,
        vit: sheet.maxVitality,
        ad: { ready: sheet.maxAD, used: 0, wounded: 0 },
        md: { ready: sheet.maxMD, used: 0, wounded: 0 },
        withdrawn: false,
        belowHalf: false,
        uses: { melee: 0, ranged: 0 },
        guns: Object.fromEntries(
          sheet.weapons.map((w) => [
            w.id,
            {
              loaded: w.needsLoading ? w.loaded !== false : true,
              ...(w.ammunition === undefined ? {} : { ammunition: w.ammunition }),
            },
          ]),
        ),
        conds: {},
        unseen: new Set(),
        lingering: [],
        acted: false,
      });
      const fighters: Fighter[] = ids.map((id) => {
        m[id] = newModel(id, mkSheet());
        return { id, sheet: m[id].sheet as unknown as Record<string, unknown>, side: m[id].side };
      });
      // Either the GM's order (SetInitiative: the listed order, no Side Roll) or a rolled one, below.
      const rolled = r() < 0.5;
      let e: RuleEvent[] = rolled ? [fightStarted('narateer'), ...fighters.map(joined)] : fight(fighters);
      let order = [...ids];
      let round = 1;
      /** What the view’s core shows: the round last started, whether it is open, whose activation runs, who acted. */
      let viewRound = 1;
      let roundOpen = true;
      let active: string | undefined;
      let actedList: string[] = [];
      /** C17, N66: the GM ended the fight. */
      let ended = false;
      const onMap = r() < 0.5;
      /** N25: the larger of |dx| and |dy|. */
      const cheb = (p: Space, q: Space) => Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y));
      let log: string[] = [];

      const has = (c: Model, cond: string) => Object.hasOwn(c.conds, cond);
      const stateOfM = (c: Model) => (c.vit <= 0 ? 'Collapsed' : c.withdrawn ? 'Withdrawn' : 'Active');
      /** N26: Unconscious and Paralyzed incapacitate. */
      const incapacitated = (c: Model) => has(c, 'unconscious') || has(c, 'paralyzed');
      const canAct = (c: Model) => stateOfM(c) === 'Active' && !incapacitated(c);
      /** N41: unseen by the foe: Invisible, or the foe Blinded. */
      const unseenBy = (a: Model, foe: Model) => has(a, 'invisible') || has(foe, 'blinded');
      /** N41: a foe is forgotten once the attacker is seen by it again. */
      const forget = () => {
        for (const c of Object.values(m))
          for (const f of [...c.unseen]) if (!unseenBy(c, m[f])) c.unseen.delete(f);
      };
      /** N21, N36: the weapon’s list, else light melee Strength or Agility, heavy melee Strength, ranged Agility. */
      const vitalsOf = (w: Weapon): Vital[] =>
        w.damageVitals ??
        (w.kind === 'ranged' ? ['agility'] : w.weight === 'light' ? ['strength', 'agility'] : ['strength']);
      const capped = (c: Model, w: Weapon, v: Vital) => Math.min(c.sheet.vitals[v], w.damageVitalCap);
      /** N21: default, the highest after the cap (every Vital that gives it: the text does not break the tie). */
      const bestVitals = (c: Model, w: Weapon) => {
        const best = Math.max(...vitalsOf(w).map((v) => capped(c, w, v)));
        return vitalsOf(w).filter((v) => capped(c, w, v) === best);
      };
      /** "a ranged weapon that is loaded or otherwise ready to fire", with ammunition (N27). */
      const canFire = (c: Model, w: Weapon) =>
        c.guns[w.id].loaded && (c.guns[w.id].ammunition === undefined || c.guns[w.id].ammunition! > 0);
      /** Reach and Maximum Range (N25: without a distance the GM asserts them). */
      const reaches = (c: Model, w: Weapon, distance: number | undefined) =>
        w.kind === 'melee'
          ? distance === undefined || distance <= (w.reach ?? 1)
          : canFire(c, w) && (distance === undefined || distance <= w.maximumRange!);
      const usesOf = (c: Model, k: Kind) => c.sheet.skills[k] + 1; // "SL + 1", minimum 1
      const soak = (c: Model) => c.sheet.armour?.soak ?? 0;

      /** N9 with N28: the required state (Ready while any Ready die is left), then the choice or the preference. */
      const takeWounds = (c: Model, n: number, allocation?: Die[]) => {
        const dice: { kind: Die; from: 'ready' | 'used' }[] = [];
        const pref: Die = c.sheet.woundPreference === 'MD_FIRST' ? 'MD' : 'AD';
        for (let i = 0; i < n; i++) {
          c.vit -= 1;
          const from = c.ad.ready + c.md.ready > 0 ? 'ready' : c.ad.used + c.md.used > 0 ? 'used' : undefined;
          if (!from) continue;
          const want = allocation?.[i] ?? pref;
          const pool = (k: Die) => (k === 'AD' ? c.ad : c.md);
          const kind: Die = pool(want)[from] > 0 ? want : want === 'AD' ? 'MD' : 'AD';
          pool(kind)[from] -= 1;
          pool(kind).wounded += 1;
          dice.push({ kind, from });
        }
        return dice;
      };
      /** N9: ASK asks only when both kinds exist in a required state some Wound reaches. */
      const asks = (c: Model, n: number) =>
        c.sheet.woundPreference === 'ASK' &&
        n > 0 &&
        ((c.ad.ready > 0 && c.md.ready > 0) ||
          (n > c.ad.ready + c.md.ready && c.ad.used > 0 && c.md.used > 0));
      /** A legal answer to ASK, Wound by Wound. */
      const answer = (c: Model, n: number): Die[] => {
        const ad = { ...c.ad };
        const md = { ...c.md };
        const out: Die[] = [];
        for (let i = 0; i < n; i++) {
          const from = ad.ready + md.ready > 0 ? 'ready' : ad.used + md.used > 0 ? 'used' : undefined;
          if (!from) break;
          const kinds = (['AD', 'MD'] as Die[]).filter((k) => (k === 'AD' ? ad : md)[from] > 0);
          const k = pick(kinds);
          (k === 'AD' ? ad : md)[from] -= 1;
          out.push(k);
        }
        return out;
      };

      /**
       * Applying Wounds, then Continuation Checks (N10, N18): only one who stays Active checks, when its Vitality falls
       * below half its maximum for the first time, or one resolution deals more Wounds than half of it; Resilience dice,
       * 1 or more dots passes, else Withdrawn (N50: Resilience 0 fails with nothing rolled).
       */
      const wound = (c: Model, n: number, allocation?: Die[]) => {
        const before = c.vit;
        const dice = takeWounds(c, n, allocation);
        const firstBelowHalf = n > 0 && !c.belowHalf && 2 * c.vit < c.sheet.maxVitality;
        if (firstBelowHalf) c.belowHalf = true;
        const state = stateOfM(c);
        const applied = {
          combatantId: c.id,
          wounds: n,
          dice,
          vitalityBefore: before,
          vitality: c.vit,
          ad: { ...c.ad },
          md: { ...c.md },
          state,
          ...(firstBelowHalf ? { firstBelowHalf: true } : {}),
        };
        const triggers = [
          ...(firstBelowHalf ? ['belowHalf'] : []),
          ...(2 * n > c.sheet.maxVitality ? ['heavyWounds'] : []),
        ];
        let check: Record<string, unknown> | undefined;
        let faces: number[] = [];
        if (state === 'Active' && n > 0 && triggers.length) {
          faces = d6(c.sheet.vitals.resilience);
          const passed = sum(faces) >= 1;
          if (!passed) c.withdrawn = true;
          check = {
            combatantId: c.id,
            triggers,
            dice: faces.length,
            faces,
            dots: sum(faces),
            passed,
            state: passed ? 'Active' : 'Withdrawn',
          };
          stats.checks++;
        }
        return { applied, check, faces };
      };

      const ctxOf = () =>
        JSON.stringify({ run, seed: SEED, round, log, sheets: Object.values(m).map((c) => [c.id, c.sheet]) });
      const fail = (what: string, want: unknown, have: unknown, got?: RuleEvent[]) => {
        throw new Error(
          `${what}\nwant ${JSON.stringify(want)}\nhave ${JSON.stringify(have)}\n${ctxOf()}\n${JSON.stringify(got ?? [])}`,
        );
      };
      const same = (what: string, want: unknown, have: unknown, got?: RuleEvent[]) => {
        if (canon(want) !== canon(have)) fail(what, want, have, got);
      };
      const run1 = (cmd: RuleCommand, faces: ManualFaces = {}) => {
        log.push(JSON.stringify({ cmd, faces }));
        let got: RuleEvent[];
        try {
          got = exact(e, cmd, faces);
        } catch (err) {
          throw new Error(`engine refused: ${(err as Error).message}\n${ctxOf()}`, { cause: err });
        }
        e = [...e, ...got];
        return got;
      };
      /**
       * C13, C18, N22, N61: the same command sent with its first pool (the attacker’s) and only part of its later faces;
       * each DiceRequested asks for faces still to come, and ProvideDice gives them, a part at a time. The held
       * command’s events, the requests left out, are those of the command sent with every face up front.
       */
      const asking = findSystem('narateer')!;
      const runInParts = (cmd: RuleCommand, faces: ManualFaces, first: number) => {
        const fields = ['dice', 'rerollFaces', 'followUpFaces'] as const;
        const left: Record<string, number[]> = Object.fromEntries(
          fields.map((k) => [k, [...(faces[k] ?? [])]]),
        );
        const take = (k: string, n: number) => left[k].splice(0, n);
        const part = (need?: { field: string; count: number }) => {
          const out: ManualFaces = {};
          for (const k of fields) {
            const least = need ? (need.field === k ? 1 : 0) : k === 'dice' ? first : 0;
            // C13 tries every completion of a shortfall of at most 64 combinations (two d6), every multiset of three d6,
            // each face repeated beyond: a later list's faces that only mixed faces of four or more missing dice would
            // read are refused (C18). It tries them within 256 decisions, each missing reroll one shortfall of 6: a
            // Continuation Check's faces sent ahead of more than that may be read by no completion it tries (C18).
            const shortfalls =
              (left.dice.length <= 2 ? 6 ** left.dice.length : left.dice.length === 3 ? 56 : 6) *
              (k === 'followUpFaces' ? 6 ** left.rerollFaces.length : 1);
            const most =
              k !== 'dice' && (left.dice.length >= 4 || shortfalls > 256)
                ? Math.min(least, left[k].length)
                : left[k].length;
            const n = int(Math.min(least, left[k].length), most);
            if (n) out[k] = take(k, n);
          }
          return out;
        };
        const upFront = exact(e, cmd, faces);
        let ew = [...e];
        let sent = { ...cmd, ...part() } as RuleCommand;
        const got: RuleEvent[] = [];
        for (let asks = 0; ; asks++) {
          log.push(JSON.stringify({ inParts: sent }));
          let out: RuleEvent[];
          try {
            out = decide(asking, ew, sent);
          } catch (err) {
            throw new Error(`engine refused: ${(err as Error).message}\n${ctxOf()}`, { cause: err });
          }
          ew = [...ew, ...out];
          got.push(...out.filter((x) => x.type !== 'DiceRequested'));
          const req = out.at(-1)?.type === 'DiceRequested' ? out.at(-1)!.data : undefined;
          if (!req) break;
          count(
            `dice asked for later (C13${(req.command as RuleCommand).type === 'ContinuationCheck' ? ', N61' : ''})`,
          );
          const need = req.need as { field: string; count: number; sides: number };
          same(
            'a DiceRequested asks for faces still to come (C13)',
            { sides: 6, within: true },
            { sides: need.sides, within: need.count >= 1 && need.count <= left[need.field].length },
            out,
          );
          if (asks > 20) fail('too many requests', [], out);
          sent = { type: 'ProvideDice', ...part(need) };
        }
        same(
          'no face is left over',
          [[], [], []],
          fields.map((k) => left[k]),
        );
        same('the events of the whole command sent up front (C13)', upFront, got, got);
        log.push(JSON.stringify({ cmd, faces }));
        e = [...e, ...upFront];
        return upFront;
      };
      /** "Physical (Slashing)" as the folded sheet and the view hold it. */
      const harmOf = (label: string) => {
        const [, domain, type] = /^(\w+) \((\w+)\)$/.exec(label)!;
        return { domain, type };
      };
      /**
       * N5 with N63 and N67: in its own running activation the uses left, outside it those its next activation starts
       * with (SL + 1, minimum 1), none for one that can take no proactive action, none for anyone once the fight ended.
       */
      const usesShown = (c: Model) =>
        ended || !canAct(c)
          ? { melee: 0, ranged: 0 }
          : roundOpen && active === c.id
            ? { melee: usesOf(c, 'melee') - c.uses.melee, ranged: usesOf(c, 'ranged') - c.uses.ranged }
            : { melee: usesOf(c, 'melee'), ranged: usesOf(c, 'ranged') };
      /** What the view promises of one combatant, from the oracle’s own state. */
      const shown = (c: Model) => ({
        id: c.id,
        side: c.side,
        state: stateOfM(c),
        vitality: c.vit,
        maxVitality: c.sheet.maxVitality,
        initiative: c.init ?? null,
        ad: { ...c.ad, max: c.sheet.maxAD },
        md: { ...c.md, max: c.sheet.maxMD },
        proactiveUsesLeft: usesShown(c),
        conditions: Object.entries(c.conds)
          .map(([condition, untilRound]) => ({ condition, intensity: null, untilRound }))
          .sort((a, b) => a.condition.localeCompare(b.condition)),
        lingeringHarm: c.lingering
          .filter((l) => !l.ended)
          .map((l) => ({
            id: l.id,
            form: l.form,
            harm: harmOf(l.label),
            wounds: l.wounds,
            ...(l.source === undefined ? {} : { source: l.source }),
            appliedRound: l.appliedRound,
            label: `Lingering Harm: ${l.form}`,
            harmLabel: l.label,
            tick: l.tick,
            untilRound: l.untilRound ?? null,
            ticksLeft: l.ticksLeft ?? null,
          })),
        position: c.pos ?? null,
        soak: soak(c),
        woundPreference: c.sheet.woundPreference ?? 'AD_FIRST',
        weapons: c.sheet.weapons.map((w) => {
          const g = c.guns[w.id];
          // N27, N65: a weapon that needs no Loading is "otherwise ready to fire".
          const loaded = !w.needsLoading || g.loaded;
          return {
            id: w.id,
            kind: w.kind,
            weight: w.weight,
            baseAttackCost: w.baseAttackCost,
            reach: w.kind === 'melee' ? (w.reach ?? 1) : null,
            effectiveRange: w.effectiveRange ?? null,
            maximumRange: w.maximumRange ?? null,
            weaponDamage: w.weaponDamage,
            damageVitals: vitalsOf(w),
            damageVitalCap: w.damageVitalCap,
            harm: harmOf(w.harm),
            needsLoading: !!w.needsLoading,
            loaded,
            ammunition: g.ammunition ?? null,
            ready: loaded && g.ammunition !== 0,
          };
        }),
      });
      type Awaited = { kind: string; awaiting: string; opportunity?: Record<string, unknown> } | null;
      /**
       * The view (what narateer's view returns) against the oracle: the round, the order, whose activation runs, who
       * acted, the decision awaited (`'skip'`: one the caller checks itself), and each combatant present, in join order.
       */
      const viewMatches = (state: ReturnType<typeof stateOf>, awaited: Awaited | 'skip') => {
        const v = narateer.view(state) as unknown as Record<string, any>;
        same(
          'the view’s round, order, activation and decision',
          {
            status: ended ? 'ended' : 'active',
            round: viewRound,
            roundOpen,
            initiative: order,
            activeCombatantId: active ?? null,
            actedThisRound: actedList,
            ...(awaited === 'skip'
              ? {}
              : {
                  pending: awaited && { kind: awaited.kind, awaiting: awaited.awaiting },
                  exchange: null,
                  pendingWounds: null,
                  opportunity: awaited?.opportunity ?? null,
                }),
          },
          {
            status: v.status,
            round: v.round,
            roundOpen: v.roundOpen,
            initiative: v.initiative,
            activeCombatantId: v.activeCombatantId,
            actedThisRound: v.actedThisRound,
            ...(awaited === 'skip'
              ? {}
              : {
                  pending: v.pending && { kind: v.pending.kind, awaiting: v.pending.awaiting },
                  exchange: v.exchange,
                  pendingWounds: v.pendingWounds,
                  opportunity: v.opportunity,
                }),
          },
        );
        const c0 = v.combatants as Record<string, any>[];
        same(
          'the view’s combatants, in join order',
          ids,
          c0.map((x) => x.id),
        );
        for (const x of c0)
          same(`the view of ${String(x.id)}`, shown(m[x.id]), {
            ...x,
            name: undefined,
            vitals: undefined,
            skills: undefined,
            conditions: [...(x.conditions as { condition: string }[])].sort((a, b) =>
              a.condition.localeCompare(b.condition),
            ),
            lingeringHarm: (x.lingeringHarm as Record<string, unknown>[]).map((l) => ({
              ...l,
              endsWhen: undefined,
            })),
            weapons: (x.weapons as Record<string, unknown>[]).map((w) => ({ ...w, name: undefined })),
          });
      };
      /** The dice, Vitality, state, uses, weapons and conditions every combatant folds to, and the view. */
      const folds = (awaited: Awaited | 'skip' = null) => {
        const s = stateOf(e);
        same('the initiative order (N4, N16, N40)', order, s.order);
        for (const c of Object.values(m)) {
          const x = s.combatants[c.id];
          same(
            `folded ${c.id}`,
            {
              vit: c.vit,
              ad: c.ad,
              md: c.md,
              state: stateOfM(c),
              uses: c.uses,
              guns: c.guns,
              pos: c.pos,
              conds: Object.entries(c.conds)
                .map(([k, v]) => [k, v])
                .sort(),
            },
            {
              vit: x.vitality,
              ad: x.ad,
              md: x.md,
              state: combatState(x),
              uses: x.uses,
              guns: x.weapons,
              pos: x.position,
              conds: x.conditions.map((k) => [k.condition, k.untilRound ?? null]).sort(),
            },
          );
        }
        viewMatches(s, awaited);
      };

      /** One Combat Exchange, from the declaration to the last Wound. */
      const exchange = (
        att: Model,
        tgt: Model,
        w: Weapon,
        boost: number,
        distance: number | undefined,
        opportunity = false,
        /**
         * N59 with N45: the steps that follow the exchange in the command that settles it (the round’s end when the
         * queue’s last decision leaves no one to wait for), asked for once the exchange is modelled.
         */
        tail?: () => Step[],
      ) => {
        const kind = w.kind;
        /** N29: what the exchange withdrawn by the GM’s CancelPending leaves, as if it had not been declared. */
        const before = structuredClone(m);
        // N24: an Opportunity Attack is a Melee Exchange the reactor initiates against the mover.
        const cmd: Record<string, unknown> = opportunity
          ? { type: 'TakeOpportunityAttack', combatantId: att.id, weaponId: w.id, boost }
          : { type: 'DeclareExchange', attackerId: att.id, targetId: tgt.id, kind, weaponId: w.id, boost };
        // N25: without a map the GM gives the distance; with one, the map’s wins over a distance given.
        if (!opportunity && !onMap && distance !== undefined) cmd.distance = distance;
        if (!opportunity && onMap && r() < 0.3) cmd.distance = int(0, 12);
        const vitals = bestVitals(att, w);
        let attVital: Vital = vitals[0];
        let attVitals = vitals;
        if (r() < 0.3) {
          cmd.damageVital = attVital = pick(vitalsOf(w));
          attVitals = [attVital];
        }
        const gmEdge = pick([undefined, undefined, 'advantage', 'disadvantage'] as const);
        if (gmEdge) cmd.edge = gmEdge;
        const respEdge = pick([undefined, undefined, 'advantage', 'disadvantage'] as const);
        if (respEdge) cmd.responderEdge = respEdge;
        // N41: the GM’s attackerUnseen, for the first attack while unseen for a reason the engine does not see (Hide).
        const gmUnseen = !opportunity && r() < 0.06;
        if (gmUnseen) cmd.attackerUnseen = true;
        const cannotSee = r() < 0.1;
        if (cannotSee) cmd.attackerCannotSeeTarget = true;
        const targetCannotSee = r() < 0.1;
        if (targetCannotSee) cmd.targetCannotSeeAttacker = true;
        const unaware = r() < 0.08;
        if (unaware) cmd.targetUnaware = true;
        if (r() < 0.15) cmd.strikeModifier = int(-3, 3);
        if (r() < 0.15) cmd.protectionModifier = int(-3, 3);
        if (r() < 0.1) cmd.harm = 'Supernatural (Psychic)';
        if (att.sheet.woundPreference === 'ASK' ? r() < 0.5 : r() < 0.2)
          cmd.allocation = Array.from({ length: int(1, 4) }, () => pick(['AD', 'MD'] as const));

        // Combat Exchange Flow 3–4: the Base Attack Cost and Boost move from Ready to Used.
        const dice = w.baseAttackCost + boost;
        att.ad.ready -= dice;
        att.ad.used += dice;
        if (!opportunity) att.uses[kind] += 1; // "Opportunity Attacks do not consume proactive Melee uses"

        // N6, N20, N23, N26: a forced No Response, with its reasons in the order N23 lists them (N70).
        const forced = [
          ...(unaware ? ['unaware'] : []),
          ...(tgt.vit <= 0 ? ['collapsed'] : []),
          ...(tgt.vit > 0 && tgt.withdrawn ? ['withdrawn'] : []),
          ...(incapacitated(tgt) ? ['incapacitated'] : []),
          ...(tgt.ad.ready === 0 ? ['noReadyAD'] : []),
        ];
        const fgSkill = kind === 'melee' ? 'melee' : 'acrobatics';
        /** Clash: "a legal attack that can reach the tempo-holder", paid for with its Boost (N35, N37, N52). */
        const clashable = (b: number) =>
          tgt.sheet.weapons.filter(
            (x) => x.kind === kind && reaches(tgt, x, distance) && x.baseAttackCost + b <= tgt.ad.ready,
          );
        interface Resp {
          response: Response;
          boost: number;
          weapon?: Weapon;
          vital?: Vital;
          vitals?: Vital[];
          source?: 'declaration' | 'policy';
          allocation?: Die[];
          strikeModifier?: number;
          protectionModifier?: number;
          harm?: string;
        }
        let resp: Resp;
        let upFront: Record<string, unknown> | undefined;
        let pendingAnswer: Record<string, unknown> | undefined;
        const allocationFor = () =>
          (tgt.sheet.woundPreference === 'ASK' ? r() < 0.7 : r() < 0.2)
            ? Array.from({ length: int(1, 4) }, () => pick(['AD', 'MD'] as const))
            : undefined;
        if (forced.length) {
          // N68 with N28: a response sent up front, legal for the sheet, is overridden; its allocation still applies.
          const allocation = allocationFor();
          const sent = pick([undefined, 'none', 'fullGuard'] as const);
          if (sent) upFront = { response: sent, boost: 0, ...(allocation ? { allocation } : {}) };
          resp = { response: 'none', boost: 0, allocation: sent ? allocation : undefined };
        } else {
          // A legal answer of the responder’s choice.
          const choices: Response[] = ['none', 'fullGuard', 'fullGuard'];
          if (clashable(0).length) choices.push('clash', 'clash', 'clash');
          const response = pick(choices);
          const sl = response === 'clash' ? tgt.sheet.skills[kind] : tgt.sheet.skills[fgSkill];
          let b = 0;
          let weapon: Weapon | undefined;
          let named = false;
          if (response === 'fullGuard') b = int(0, Math.min(sl, tgt.ad.ready - 1));
          if (response === 'clash') {
            weapon = pick(clashable(0));
            b = int(0, Math.min(sl, tgt.ad.ready - weapon.baseAttackCost));
            // N35, N37: without a named weapon, the first of the kind that reaches and can be paid for.
            named = r() < 0.5;
            if (!named) weapon = clashable(b)[0];
          }
          resp = { response, boost: b, weapon };
          if (weapon) {
            resp.vitals = bestVitals(tgt, weapon);
            resp.vital = resp.vitals[0];
          }
          const fields: Record<string, unknown> = { response, boost: b };
          if (weapon && named) fields.weaponId = weapon.id;
          if (weapon && named && r() < 0.3) {
            fields.damageVital = resp.vital = pick(vitalsOf(weapon));
            resp.vitals = [resp.vital];
          }
          if (weapon && r() < 0.1) fields.harm = resp.harm = 'Elemental (Acid)';
          if (weapon && r() < 0.15) fields.strikeModifier = resp.strikeModifier = int(-3, 3);
          if (weapon && r() < 0.15) fields.protectionModifier = resp.protectionModifier = int(-3, 3);
          const allocation = allocationFor();
          if (allocation) fields.allocation = resp.allocation = allocation;
          const policy = tgt.sheet.responsePolicy;
          // N23: a policy answers whatever is not given up front; without one, RespondToExchange does.
          const how = r() < (policy ? 0.3 : 0.5) ? 'upFront' : policy ? 'policy' : 'answer';
          if (how === 'upFront') {
            upFront = fields;
            resp.source = 'declaration';
          } else if (how === 'answer')
            pendingAnswer = { type: 'RespondToExchange', combatantId: tgt.id, ...fields };
          else {
            // N23: the policy’s Boost lowered to what the Skill Level and Ready AD allow; impossible: its fallback
            // (default Full Guard), then No Response.
            const p = policy!;
            const pb = p.boost ?? 0;
            resp = { response: 'none', boost: 0, source: 'policy' };
            let answered = false;
            if (p.response === 'clash') {
              // N23: the policy’s weapon when it names one (a legal Clash with it, else its fallback).
              const x = tgt.sheet.weapons.find(
                (y) =>
                  (p.weaponId === undefined || y.id === p.weaponId) &&
                  y.kind === kind &&
                  reaches(tgt, y, distance) &&
                  y.baseAttackCost <= tgt.ad.ready,
              );
              if (p.weaponId) count(`policy names its weapon: ${x ? 'clash' : 'fallback'}`);
              if (x) {
                const vs = bestVitals(tgt, x);
                resp = {
                  response: 'clash',
                  boost: Math.min(pb, tgt.sheet.skills[kind], tgt.ad.ready - x.baseAttackCost),
                  weapon: x,
                  vitals: vs,
                  vital: vs[0],
                  source: 'policy',
                };
                answered = true;
              }
            } else {
              answered = true;
              if (p.response === 'fullGuard')
                resp = {
                  response: 'fullGuard',
                  boost: Math.min(pb, tgt.sheet.skills[fgSkill], tgt.ad.ready - 1),
                  source: 'policy',
                };
            }
            if (!answered && (p.fallback ?? 'fullGuard') === 'fullGuard')
              resp = {
                response: 'fullGuard',
                boost: Math.min(pb, tgt.sheet.skills[fgSkill], tgt.ad.ready - 1),
                source: 'policy',
              };
          }
        }
        if (upFront) cmd.response = upFront;
        count(
          `response ${resp.response} ${forced.length ? `forced ${forced.length > 1 ? 'several' : forced[0]}` : (resp.source ?? 'answer')}`,
        );

        // The responder commits the response’s AD (Full Guard 1, Clash its weapon’s Base Attack Cost, + Boost).
        const rDice =
          resp.response === 'none'
            ? 0
            : (resp.response === 'fullGuard' ? 1 : resp.weapon!.baseAttackCost) + resp.boost;
        tgt.ad.ready -= rDice;
        tgt.ad.used += rDice;

        // Edge sources (N31, N41, N52).
        const aSources = { advantage: [] as string[], disadvantage: [] as string[] };
        if (gmEdge) aSources[gmEdge].push('gm');
        const attUnseen = unseenBy(att, tgt);
        if (gmUnseen || (attUnseen && !att.unseen.has(tgt.id))) aSources.advantage.push('unseenAttacker');
        if (cannotSee || has(att, 'blinded') || has(tgt, 'invisible'))
          aSources.disadvantage.push('cannotSeeTarget');
        if (kind === 'ranged' && distance !== undefined && distance > w.effectiveRange!)
          aSources.disadvantage.push('beyondEffectiveRange');
        const rSources = { advantage: [] as string[], disadvantage: [] as string[] };
        if (respEdge) rSources[respEdge].push('gm');
        const respUnseen = unseenBy(tgt, att);
        if (resp.response === 'fullGuard') rSources.advantage.push('fullGuard');
        if (resp.response === 'clash') {
          if (respUnseen && !tgt.unseen.has(att.id)) rSources.advantage.push('unseenAttacker');
          if (targetCannotSee || has(tgt, 'blinded') || has(att, 'invisible'))
            rSources.disadvantage.push('cannotSeeTarget');
          if (kind === 'ranged' && distance !== undefined && distance > resp.weapon!.effectiveRange!)
            rSources.disadvantage.push('beyondEffectiveRange');
        }
        for (const x of [...aSources.advantage, ...aSources.disadvantage]) count(`attack edge ${x}`);
        for (const x of [...rSources.advantage, ...rSources.disadvantage]) count(`response edge ${x}`);
        // N41: an attack counts once it is rolled.
        if (attUnseen) att.unseen.add(tgt.id);
        if (resp.response === 'clash' && respUnseen) tgt.unseen.add(att.id);

        // Steps 7–9: roll every committed die, Edge, compare.
        const aRolled = d6(dice);
        const rRolled = d6(rDice);
        const aNet = netOf(aSources);
        const rNet = resp.response === 'none' ? 'none' : netOf(rSources);
        const rerolls = [...(aNet !== 'none' ? d6(1) : []), ...(rNet !== 'none' ? d6(1) : [])];
        const A = edgeOf(
          { combatantId: att.id, skill: kind, rolled: aRolled, edge: aNet, sources: sorted(aSources) },
          aNet !== 'none' ? rerolls[0] : undefined,
        );
        const R =
          resp.response === 'none'
            ? undefined
            : edgeOf(
                {
                  combatantId: tgt.id,
                  skill: resp.response === 'clash' ? kind : fgSkill,
                  rolled: rRolled,
                  edge: rNet,
                  sources: sorted(rSources),
                },
                rNet !== 'none' ? rerolls[rerolls.length - 1] : undefined,
              );
        let outcome: string;
        let margin: number | undefined;
        let winner: string | undefined;
        if (!R) {
          // No Response: target number 0; N30: 0 against 0 is a tie.
          outcome = A.total > 0 ? 'hit' : 'tie';
          margin = A.total > 0 ? A.total : undefined;
        } else if (resp.response === 'fullGuard') {
          outcome = R.total >= A.total ? 'guarded' : 'hit'; // N7: the tie favours Full Guard
          margin = outcome === 'hit' ? A.total - R.total : undefined;
        } else outcome = A.total > R.total ? 'hit' : R.total > A.total ? 'counterHit' : 'tie';
        if (R && resp.response === 'clash' && outcome !== 'tie') margin = Math.abs(A.total - R.total);
        if (outcome === 'hit') winner = att.id;
        if (outcome === 'counterHit' || outcome === 'guarded') winner = tgt.id;
        stats.exchanges++;
        if (outcome === 'hit') stats.hits++;
        if (outcome === 'counterHit') stats.counters++;
        if (outcome === 'guarded') stats.guarded++;
        if (outcome === 'tie') stats.ties++;

        // WeaponFired: "Firing expends ammunition and resolves the weapon’s Loading state whether that combatant wins or
        // loses" (N27).
        const fired: Record<string, unknown>[] = [];
        const fire = (c: Model, x: Weapon) => {
          const g = c.guns[x.id];
          if (g.ammunition !== undefined) g.ammunition -= 1;
          if (x.needsLoading) g.loaded = false;
          fired.push({ combatantId: c.id, weaponId: x.id, loaded: g.loaded, ammunition: g.ammunition });
        };
        if (kind === 'ranged') fire(att, w);
        if (kind === 'ranged' && resp.response === 'clash') fire(tgt, resp.weapon!);

        // Calculating Wounds: Strike Rating = Weapon Damage + min(Damage Vital, cap) (+ N44 modifier, not below 0);
        // Protection Rating = Soak (+ modifier, not below 0); Wound Margin = Hit Margin + Strike − Protection.
        let woundsWant: Record<string, unknown> | undefined;
        let pendingAlloc: { c: Model; n: number; snap: Record<string, Model> } | undefined;
        let hurt: ReturnType<typeof wound> | undefined;
        let allocationAnswer: Die[] | undefined;
        const calc = (
          winnerM: Model,
          loser: Model,
          x: Weapon,
          vital: Vital,
          sm: number | undefined,
          pm: number | undefined,
          harm: string,
          allocation: Die[] | undefined,
        ) => {
          const strikeRating = Math.max(0, x.weaponDamage + capped(winnerM, x, vital) + (sm ?? 0));
          const protectionRating = Math.max(0, soak(loser) + (pm ?? 0));
          const woundMargin = margin! + strikeRating - protectionRating;
          const n = convert(woundMargin);
          const head = {
            sourceId: winnerM.id,
            weaponId: x.id,
            damageVital: vital,
            hitMargin: margin,
            strikeRating,
            ...(sm === undefined ? {} : { strikeModifier: sm }),
            protectionRating,
            ...(pm === undefined ? {} : { protectionModifier: pm }),
            woundMargin,
            harmLabel: harm,
          };
          if (!allocation && asks(loser, n)) {
            allocationAnswer = answer(loser, n);
            // N66: what stands while the Wounds await their allocation (the exchange rolled, its shots fired).
            pendingAlloc = { c: loser, n, snap: structuredClone(m) };
            stats.asked++;
          }
          hurt = wound(loser, n, allocation ?? allocationAnswer);
          woundsWant = { ...head, ...hurt.applied };
        };
        if (outcome === 'hit')
          calc(
            att,
            tgt,
            w,
            attVital,
            cmd.strikeModifier as number | undefined,
            cmd.protectionModifier as number | undefined,
            (cmd.harm as string | undefined) ?? w.harm,
            resp.allocation,
          );
        if (outcome === 'counterHit')
          calc(
            tgt,
            att,
            resp.weapon!,
            resp.vital!,
            resp.strikeModifier,
            resp.protectionModifier,
            resp.harm ?? resp.weapon!.harm,
            cmd.allocation as Die[] | undefined,
          );
        // The commands, each carrying the faces of the rolls it completes (N22): the pools and rerolls, then the
        // Continuation Check, with the AllocateWounds when the wounded chooses (N9), then what follows in that command.
        const base: ManualFaces = {
          dice: [...aRolled, ...rRolled],
          ...(rerolls.length ? { rerollFaces: rerolls } : {}),
        };
        const steps = (): Step[] => [
          {
            faces: hurt?.faces ?? [],
            ...(pendingAlloc
              ? {
                  ask: {
                    id: pendingAlloc.c.id,
                    allocation: allocationAnswer!,
                    wounds: pendingAlloc.n,
                    snap: pendingAlloc.snap,
                    exchange: { attackerId: att.id, targetId: tgt.id },
                  },
                }
              : {}),
          },
          ...(tail?.() ?? []),
        ];
        const decl = cmd as unknown as RuleCommand;
        let got: RuleEvent[];
        if (pendingAnswer) {
          got = run1(decl);
          same(
            'declared, awaiting the response',
            ['ExchangeDeclared'],
            got.map((x) => x.type),
            got,
          );
          if (r() < 0.08) {
            // N66: the GM ends the fight while the response is awaited. Until then only the declaration stands: the
            // attacker's committed dice (and its proactive use), as the view shows with the pending response.
            for (const id of ids) Object.assign(m[id], before[id]);
            att.ad.ready -= dice;
            att.ad.used += dice;
            if (!opportunity) att.uses[kind] += 1;
            stats.exchanges--;
            folds('skip');
            const v = narateer.view(stateOf(e)) as unknown as Record<string, any>;
            same(
              'the response awaited, its exchange shown (C4, N23)',
              ['exchangeResponse', tgt.id, att.id],
              [v.pending?.kind, v.pending?.awaiting, v.exchange?.attackerId],
            );
            count('fight ended while a response is awaited (N66)');
            endFight();
          }
          if (!opportunity && r() < 0.12) {
            // N29: "withdraws the exchange as if it had not been declared: the attacker’s AD go back to Ready and its
            // proactive use is returned"; N41: an attack withdrawn before the roll was not made.
            run1({ type: 'CancelPending' });
            for (const id of ids) Object.assign(m[id], before[id]);
            stats.exchanges--;
            count('response pending cancelled (N29)');
            folds();
            return got;
          }
          got = [...got, ...send(pendingAnswer as unknown as RuleCommand, steps(), base, aRolled.length)];
        } else got = send(decl, steps(), base, aRolled.length);
        // The exchange’s own events: what follows the end of its step’s Opportunity Attacks is the round’s end (N59).
        const done = got.findIndex((x) => x.type === 'OpportunitiesFinished');
        const all = got;
        got = done < 0 ? got : got.slice(0, done + 1);
        const ev = (t: string) => got.find((x) => x.type === t)?.data as Record<string, any> | undefined;

        const declared = ev('ExchangeDeclared');
        same(
          'ExchangeDeclared',
          {
            attackerId: att.id,
            targetId: tgt.id,
            kind,
            skill: kind,
            weaponId: w.id,
            boost,
            dice,
            damageVital: tied(attVital, attVitals, declared?.damageVital),
            edge: sorted(aSources),
            distance,
            opportunity: opportunity || undefined,
          },
          declared && {
            attackerId: declared.attackerId,
            targetId: declared.targetId,
            kind: declared.kind,
            skill: declared.skill,
            weaponId: declared.weaponId,
            boost: declared.boost,
            dice: declared.dice,
            damageVital: declared.damageVital,
            edge: sorted(declared.edge),
            distance: declared.distance,
            opportunity: declared.opportunity,
          },
          got,
        );
        const responded = ev('ExchangeResponded');
        same(
          'ExchangeResponded',
          {
            response: resp.response,
            boost: resp.boost,
            dice: rDice,
            skill: R?.skill,
            weaponId: resp.weapon?.id,
            damageVital: resp.weapon ? tied(resp.vital!, resp.vitals!, responded?.damageVital) : undefined,
            edge: R ? sorted(rSources) : undefined,
            // N70: the first reason in the order N23 lists them.
            forced: forced.length ? forced[0] : undefined,
            // N23: a forced No Response wins over the answer sent up front or the policy; it is no one’s answer.
            source: forced.length ? undefined : resp.source,
          },
          responded && {
            response: responded.response,
            boost: responded.boost,
            dice: responded.dice,
            skill: responded.skill,
            weaponId: responded.weaponId,
            damageVital: responded.damageVital,
            edge: responded.edge && sorted(responded.edge),
            forced: responded.forced,
            source: responded.source,
          },
          got,
        );
        const side = (s: Side | undefined) =>
          s && {
            combatantId: s.combatantId,
            skill: s.skill,
            roll: s.rolled,
            edge: s.edge,
            reroll: s.reroll,
            faces: s.faces,
            total: s.total,
          };
        const engineSide = (s: Record<string, any> | undefined) =>
          s && {
            combatantId: s.combatantId,
            skill: s.skill,
            roll: s.roll.faces,
            edge: s.edge,
            reroll: s.reroll && {
              index: s.reroll.index,
              original: s.reroll.original,
              faces: s.reroll.roll.faces,
              kept: s.reroll.kept,
            },
            faces: s.faces,
            total: s.total,
          };
        const resolved = ev('ExchangeResolved');
        same(
          'ExchangeResolved',
          {
            attacker: side(A),
            responder: side(R),
            targetNumber: R ? undefined : 0,
            outcome,
            winnerId: winner,
            hitMargin: margin,
          },
          resolved && {
            attacker: engineSide(resolved.attacker),
            responder: engineSide(resolved.responder),
            targetNumber: resolved.targetNumber,
            outcome: resolved.outcome,
            winnerId: resolved.winnerId,
            hitMargin: resolved.hitMargin,
          },
          got,
        );
        same(
          'WeaponFired',
          fired,
          got
            .filter((x) => x.type === 'WeaponFired')
            .map((x) => ({
              combatantId: x.data.combatantId,
              weaponId: x.data.weaponId,
              loaded: x.data.loaded,
              ammunition: x.data.ammunition,
            })),
          got,
        );
        const applied = ev('WoundsApplied');
        const w2 = woundsWant;
        if (w2)
          w2.damageVital = tied(
            w2.damageVital as Vital,
            outcome === 'hit' ? attVitals : resp.vitals!,
            applied?.damageVital,
          );
        same(
          'WoundsApplied',
          w2,
          applied &&
            Object.fromEntries(Object.entries(applied).filter(([k]) => k !== 'harm' && k !== 'exchangeId')),
          got,
        );
        const checked = ev('ContinuationChecked');
        same(
          'ContinuationChecked',
          hurt?.check,
          checked && {
            combatantId: checked.combatantId,
            triggers: checked.triggers,
            dice: checked.dice,
            faces: checked.roll.faces,
            dots: checked.dots,
            passed: checked.passed,
            state: checked.state,
          },
          got,
        );
        const want = [
          'ExchangeDeclared',
          'ExchangeResponded',
          'ExchangeResolved',
          ...fired.map(() => 'WeaponFired'),
          ...(pendingAlloc ? ['WoundAllocationRequested'] : []),
          ...(w2 ? ['WoundsApplied'] : []),
          ...(hurt?.check ? ['ContinuationChecked'] : []),
        ].sort();
        same(
          'the exchange’s events',
          want,
          got
            .map((x) => x.type)
            .filter((t) => !t.startsWith('Opportunit'))
            .sort(),
          got,
        );
        // An Opportunity Attack’s view is checked by its move, once the round’s end it may bring is known (N59).
        if (!opportunity) folds();
        return all;
      };

      /**
       * Lingering Harm: "Unless its source says otherwise, Lingering Harm causes 1 Wound at the end of each round until
       * treated"; "A source may state a different … number of Wounds, tick timing, duration, or ending condition" (N38:
       * at most once a round, first at the first such moment after it is applied; activation-timed harm only in an
       * activation the afflicted gets; N47: a tick of 0 Wounds is still a tick). Combatants in join order, instances in
       * the order applied (N22).
       */
      /**
       * The wounded’s choice when ASK asks for it (N9, N28): its answer, how many Wounds wait, and for N66 what stands
       * while they wait (the oracle’s combatants before they land), the tick’s instance or the exchange they come from.
       */
      type Ask = {
        id: string;
        allocation: Die[];
        wounds: number;
        snap: Record<string, Model>;
        lingeringHarmId?: string;
        exchange?: { attackerId: string; targetId: string };
      };
      /** One resolution of a moment: its check’s faces, and the wounded’s choice when ASK asks for it (N28). */
      type Step = { faces: number[]; ask?: Ask };
      type Moment = { steps: Step[]; ticks: Record<string, unknown>[]; ended: string[]; expired: string[] };
      const tickAt = (tick: Tick, who: string[], into: Moment) => {
        for (const id of who)
          for (const l of m[id].lingering)
            if (l.tick === tick && !l.ended && l.lastTick !== round) {
              l.lastTick = round;
              const ask = !l.allocation && asks(m[id], l.wounds) ? answer(m[id], l.wounds) : undefined;
              if (ask) count('a tick asks (N28)');
              const snap = ask && structuredClone(m);
              const t = wound(m[id], l.wounds, l.allocation ?? ask);
              into.ticks.push({
                lingeringHarmId: l.id,
                ...t.applied,
                harmLabel: l.label,
                form: l.form,
                check: t.check,
              });
              into.steps.push({
                faces: t.faces,
                ...(ask
                  ? { ask: { id, allocation: ask, wounds: l.wounds, snap: snap!, lingeringHarmId: l.id } }
                  : {}),
              });
              stats.ticks++;
              count(`tick ${tick}${t.check ? ' checked' : ''}`);
              if (l.ticksLeft !== undefined && --l.ticksLeft === 0) {
                l.ended = true;
                into.ended.push(l.id);
              }
            }
        return into;
      };
      const moment = (): Moment => ({ steps: [], ticks: [], ended: [], expired: [] });
      /**
       * Sends `cmd` with `base` (its pools and rerolls) and the faces of the checks it resolves (N22); a tick or Wounds
       * whose wounded chose ASK waits for its AllocateWounds (N9, N28), which carries the faces of the checks from there
       * to the next wait. Now and then the GM ends the fight while the Wounds wait (N66). `parts`: the size of the first
       * pool, to send the last command short of its later faces now and then (C13), when nothing asks.
       */
      const send = (cmd: RuleCommand, steps: Step[], base: ManualFaces = {}, parts?: number) => {
        let got: RuleEvent[] = [];
        let next = cmd;
        let first = base;
        let faces: number[] = [];
        const withFaces = (): ManualFaces => ({
          ...first,
          ...(faces.length ? { followUpFaces: faces } : {}),
        });
        for (const st of steps) {
          if (st.ask) {
            got = [...got, ...run1(next, withFaces())];
            const last = got.at(-1);
            same(
              'Wounds wait for the choice of the wounded who chose ASK (N9, N28)',
              ['WoundAllocationRequested', st.ask.id, st.ask.wounds, st.ask.lingeringHarmId],
              [last?.type, last?.data.combatantId, last?.data.wounds, last?.data.lingeringHarmId],
              got,
            );
            if (r() < 0.2) endAwaitingWounds(st.ask);
            next = { type: 'AllocateWounds', combatantId: st.ask.id, allocation: st.ask.allocation };
            first = {};
            faces = [];
          }
          faces.push(...st.faces);
        }
        const inParts = parts !== undefined && !steps.some((x) => x.ask) && r() < 0.2;
        return [...got, ...(inParts ? runInParts(next, withFaces(), parts) : run1(next, withFaces()))];
      };
      /**
       * N66 with C4 and N9: the GM ends the fight while Wounds await their allocation. Until then what came before them
       * stands (the exchange rolled and its shots fired, the ticks before this one, the activation ended), and the view
       * shows the Wounds waiting: who chooses, how many, and how many of them take a die (Ready dice, then Used: the
       * Wounds beyond the dice left take none). The ended fight then resolves none of it.
       */
      const endAwaitingWounds = (ask: Ask) => {
        for (const id of ids) Object.assign(m[id], ask.snap[id]);
        const c = m[ask.id];
        folds('skip');
        const v = narateer.view(stateOf(e)) as unknown as Record<string, any>;
        const pw = v.pendingWounds as Record<string, unknown> | null;
        same(
          'Wounds awaiting their allocation, shown (N9, N28)',
          {
            pending: ['woundAllocation', ask.id],
            wounds: {
              combatantId: ask.id,
              wounds: ask.wounds,
              lingeringHarmId: ask.lingeringHarmId,
              allocationLength: Math.min(ask.wounds, c.ad.ready + c.md.ready + c.ad.used + c.md.used),
            },
            exchange: ask.exchange ?? null,
          },
          {
            pending: [v.pending?.kind, v.pending?.awaiting],
            wounds: pw && {
              combatantId: pw.combatantId,
              wounds: pw.wounds,
              lingeringHarmId: pw.lingeringHarmId,
              allocationLength: pw.allocationLength,
            },
            exchange: v.exchange && { attackerId: v.exchange.attackerId, targetId: v.exchange.targetId },
          },
        );
        count(
          `fight ended while Wounds await their allocation (N66): ${ask.lingeringHarmId ? 'a tick' : ask.exchange ? 'an exchange' : 'the GM’s'}`,
        );
        endFight();
      };
      /** The round’s end: its ticks, then what runs out with it (N26, N38), then RoundEnded. */
      const roundEnd = (into = moment()) => {
        tickAt('roundEnd', ids, into);
        for (const id of ids)
          for (const l of m[id].lingering)
            if (!l.ended && l.untilRound === round) {
              l.ended = true;
              into.ended.push(l.id);
              count('lingering harm ends with its rounds');
            }
        for (const id of ids)
          for (const [k, v] of Object.entries(m[id].conds))
            if (v === round) {
              delete m[id].conds[k];
              into.expired.push(`${id}:${k}`);
            }
        forget();
        return into;
      };

      /** A moment’s ticks, checks, ends and expiries as the events show them, and whether the round ended. */
      const sameMoment = (what: string, want: Moment, roundEnded: boolean, got: RuleEvent[]) => {
        const wounds = got.filter((x) => x.type === 'WoundsApplied');
        same(
          what,
          { ticks: want.ticks, ended: [...want.ended].sort(), expired: [...want.expired].sort(), roundEnded },
          {
            ticks: wounds.map((x, i) => {
              const d = x.data as Record<string, any>;
              const next = got
                .slice(got.indexOf(x) + 1, wounds[i + 1] ? got.indexOf(wounds[i + 1]) : undefined)
                .find((y) => y.type === 'ContinuationChecked')?.data as Record<string, any> | undefined;
              return {
                lingeringHarmId: d.lingeringHarmId,
                combatantId: d.combatantId,
                wounds: d.wounds,
                dice: d.dice,
                vitalityBefore: d.vitalityBefore,
                vitality: d.vitality,
                ad: d.ad,
                md: d.md,
                state: d.state,
                ...(d.firstBelowHalf ? { firstBelowHalf: true } : {}),
                harmLabel: d.harmLabel,
                form: d.form,
                check: next && {
                  combatantId: next.combatantId,
                  triggers: next.triggers,
                  dice: next.dice,
                  faces: next.roll.faces,
                  dots: next.dots,
                  passed: next.passed,
                  state: next.state,
                },
              };
            }),
            ended: got
              .filter((x) => x.type === 'LingeringHarmEnded')
              .map((x) => String(x.data.lingeringHarmId))
              .sort(),
            expired: got
              .filter((x) => x.type === 'ConditionRemoved')
              .map((x) => `${String(x.data.combatantId)}:${String(x.data.condition)}`)
              .sort(),
            roundEnded: got.some((x) => x.type === 'RoundEnded'),
          },
          got,
        );
        if (roundEnded) {
          for (const id of ids) m[id].acted = false;
          roundOpen = false;
        }
      };
      /** N16, N20: the round still waits for someone not Collapsed or Withdrawn who has not had its activation. */
      const waiting = () =>
        ids.some((id) => !m[id].acted && stateOfM(m[id]) !== 'Collapsed' && stateOfM(m[id]) !== 'Withdrawn');

      /** The own activation’s end: its ticks, then the round’s end if no one is left to wait for. */
      const endActivation = (c: Model) => {
        c.acted = true;
        active = undefined;
        actedList.push(c.id);
        const at = tickAt('activationEnd', [c.id], moment());
        const ends = !waiting();
        if (ends) roundEnd(at);
        const got = send({ type: 'EndActivation' }, at.steps);
        sameMoment('the activation’s end: ticks, checks, ends, expiries (N38, N16)', at, ends, got);
        folds();
        return ends;
      };

      let lh = 0;
      /** N11, N19, N38, N47: the GM’s Lingering Harm, its Form’s default classification, its own terms. */
      const gmLingering = () => {
        // "until treated": TreatLingeringHarm (GM, no roll) ends one instance (N19).
        const untreated = ids.flatMap((id) =>
          m[id].lingering.filter((l) => !l.ended).map((l) => ({ id, l })),
        );
        if (untreated.length && r() < 0.25) {
          const { id, l } = pick(untreated);
          const got = run1({ type: 'TreatLingeringHarm', combatantId: id, lingeringHarmId: l.id });
          l.ended = true;
          count('lingering harm treated (N19)');
          same(
            'LingeringHarmTreated (N19)',
            [{ type: 'LingeringHarmTreated', combatantId: id, lingeringHarmId: l.id, form: l.form }],
            got.map((x) => ({ type: x.type, ...x.data })),
            got,
          );
          folds();
          return;
        }
        // N39: now and then the same Form, source and classification again, on a live instance.
        const live = ids.flatMap((id) =>
          m[id].lingering.filter((l) => l.source && !l.ended).map((l) => ({ id, l })),
        );
        const again = live.length && r() < 0.4 ? pick(live) : undefined;
        // One who chooses its dice (ASK, N28) is afflicted more often, to be asked at its activation's end.
        const choosers = ids.filter((id) => m[id].sheet.woundPreference === 'ASK' && m[id].sheet.maxMD > 0);
        const c = m[again?.id ?? (choosers.length && r() < 0.3 ? pick(choosers) : pick(ids))];
        const form = again?.l.form ?? pick(Object.keys(LINGERING));
        const source = again?.l.source ?? (r() < 0.5 ? `s${lh + 1}` : undefined);
        // … and gets a tick at its activation's end more often, to be asked there.
        const chooses = c.sheet.woundPreference === 'ASK' && c.sheet.maxMD > 0;
        const allocation = r() < (chooses ? 0.1 : 0.5) ? [pick(['AD', 'MD'] as const)] : undefined;
        const wounds = pick([undefined, undefined, 0, 1, 2]);
        const tick =
          chooses && r() < 0.6
            ? 'activationEnd'
            : pick([
                undefined,
                undefined,
                'roundEnd',
                'roundStart',
                'activationStart',
                'activationEnd',
              ] as const);
        const rounds = r() < 0.3 ? int(1, 2) : undefined;
        const endsAfterTicks = r() < 0.3 ? int(1, 2) : undefined;
        const got = run1({
          type: 'ApplyLingeringHarm',
          combatantId: c.id,
          form,
          ...(source ? { source } : {}),
          ...(wounds === undefined ? {} : { wounds }),
          ...(tick ? { tick } : {}),
          ...(rounds ? { rounds } : {}),
          ...(endsAfterTicks ? { endsAfterTicks } : {}),
          ...(allocation ? { allocation } : {}),
        });
        const untilRound = rounds ? round + rounds - 1 : undefined;
        let l: Lingering;
        if (again) {
          // N39: "use the worst intensity or duration": the more Wounds per tick (unstated: 1), the later end, the more
          // ticks left (none stated: until treated, the longest); a stated tick timing or allocation replaces the old.
          l = again.l;
          const was = canon(l);
          const worst = (a: number | undefined, b: number | undefined) =>
            a === undefined || b === undefined ? undefined : Math.max(a, b);
          l.wounds = Math.max(l.wounds, wounds ?? 1);
          l.untilRound = worst(l.untilRound, untilRound);
          l.ticksLeft = worst(l.ticksLeft, endsAfterTicks);
          if (tick) l.tick = tick;
          if (allocation) l.allocation = allocation;
          const changed = canon(l) !== was;
          count(`lingering harm refreshed${changed ? '' : ' unchanged'} (N39)`);
          if (!changed) {
            same('a refresh that changes nothing returns no events (N39)', [], got, got);
            folds();
            return;
          }
        } else {
          l = {
            id: `lh${++lh}`,
            appliedRound: round,
            form,
            label: LINGERING[form],
            ...(source ? { source } : {}),
            wounds: wounds ?? 1,
            allocation,
            tick: tick ?? 'roundEnd',
            ...(untilRound ? { untilRound } : {}),
            ...(endsAfterTicks ? { ticksLeft: endsAfterTicks } : {}),
          };
          c.lingering.push(l);
        }
        const d = got.find((x) => x.type === 'LingeringHarmApplied')?.data;
        same(
          'LingeringHarmApplied (N38, N39)',
          {
            combatantId: c.id,
            lingeringHarmId: l.id,
            refreshed: again ? true : undefined,
            form,
            wounds: l.wounds,
            round,
            tick: l.tick,
            untilRound: l.untilRound,
            ticksLeft: l.ticksLeft,
          },
          d && {
            combatantId: d.combatantId,
            lingeringHarmId: d.lingeringHarmId,
            refreshed: d.refreshed,
            form: d.form,
            wounds: d.wounds,
            round: d.round,
            tick: d.tick ?? 'roundEnd',
            untilRound: d.untilRound,
            ticksLeft: d.ticksLeft,
          },
          got,
        );
      };

      /**
       * N32: the GM’s ApplyWounds, a spell’s or other effect’s harm as one resolution (Wounds, or a Wound Margin the
       * table converts), with the same allocation, collapse and Continuation Check rules. N59: between two
       * activations, Wounds that leave the round no one to wait for end it in the same command.
       */
      const gmWounds = (between: boolean, id = pick(ids), wounds?: number) => {
        const c = m[id];
        const byMargin = wounds === undefined && r() < 0.5;
        const given = wounds ?? (byMargin ? int(-2, 10) : int(0, 4));
        const n = byMargin ? convert(given) : given;
        const harm = pick(['Elemental (Cold)', 'Supernatural (Necrotic)', 'Affliction (Poison)']);
        const allocation = (c.sheet.woundPreference === 'ASK' ? r() < 0.5 : r() < 0.2)
          ? Array.from({ length: int(1, 4) }, () => pick(['AD', 'MD'] as const))
          : undefined;
        const chosen = !allocation && asks(c, n) ? answer(c, n) : undefined;
        if (chosen) stats.asked++;
        const snap = chosen && structuredClone(m);
        const hurt = wound(c, n, allocation ?? chosen);
        const end = between && !waiting() ? roundEnd() : undefined;
        const cmd = {
          type: 'ApplyWounds',
          combatantId: c.id,
          ...(byMargin ? { woundMargin: given } : { wounds: given }),
          harm,
          effect: 'a spell',
          ...(allocation ? { allocation } : {}),
        };
        const got = send(cmd, [
          {
            faces: hurt.faces,
            ...(chosen ? { ask: { id: c.id, allocation: chosen, wounds: n, snap: snap! } } : {}),
          },
          ...(end?.steps ?? []),
        ]);
        const at = got.findIndex((x) => x.type === 'WoundsApplied');
        const applied = got[at]?.data;
        same(
          'WoundsApplied by the GM (N32, N34)',
          {
            harmLabel: harm,
            effect: 'a spell',
            ...(byMargin ? { woundMargin: given } : {}),
            ...hurt.applied,
          },
          applied && Object.fromEntries(Object.entries(applied).filter(([k]) => k !== 'harm')),
          got,
        );
        const rest = got.slice(at + 1);
        const next = rest.findIndex((x) => x.type === 'WoundsApplied');
        const checked = rest
          .slice(0, next < 0 ? undefined : next)
          .find((x) => x.type === 'ContinuationChecked')?.data;
        same(
          'ContinuationChecked after the GM’s Wounds',
          hurt.check,
          checked && {
            combatantId: checked.combatantId,
            triggers: checked.triggers,
            dice: checked.dice,
            faces: (checked.roll as { faces: number[] }).faces,
            dots: checked.dots,
            passed: checked.passed,
            state: checked.state,
          },
          got,
        );
        sameMoment('the round’s end the GM’s Wounds bring, or none (N59)', end ?? moment(), !!end, rest);
        folds();
        count(end ? 'gm wounds end the round' : 'gm wounds');
        return !!end;
      };

      /**
       * The GM’s conditions between actions (N26): Blinded, Invisible, Deafened, Unconscious, Paralyzed, Restrained, and
       * the labels the GM rules on through `edge` (Hindered, Slowed, Weakened, Unnerved, Panicked, Prone), which change
       * nothing the oracle models: any effect of theirs on a roll, a move or a pool shows as a mismatch.
       */
      const gmCondition = () => {
        const c = m[pick(ids)];
        const cond = pick([
          'hindered',
          'slowed',
          'weakened',
          'unnerved',
          'panicked',
          'blinded',
          'blinded',
          'invisible',
          'invisible',
          'deafened',
          'unconscious',
          'paralyzed',
          'prone',
          'restrained',
          'restrained',
        ]);
        if (has(c, cond) && r() < 0.6) {
          run1({ type: 'RemoveCondition', combatantId: c.id, condition: cond });
          delete c.conds[cond];
        } else {
          const rounds = r() < 0.6 ? int(1, 2) : undefined;
          const until = rounds === undefined ? null : round + rounds - 1;
          const old = c.conds[cond];
          // N26: the worst duration; no duration is the longest.
          c.conds[cond] =
            old === null || until === null ? null : old === undefined ? until : Math.max(old, until);
          run1({
            type: 'ApplyCondition',
            combatantId: c.id,
            condition: cond,
            ...(rounds ? { rounds } : {}),
          });
        }
        forget();
        folds();
      };

      /**
       * Initiative. N4: "a Side Roll of Agility dice for each combatant, higher total first, ties by higher Agility,
       * then by the GM's order"; N15: no Edge, X dice from no pool; C10: a group still tied is the GM's (a pending
       * `initiativeTie` answered by SetInitiative with the full order), or a `tieBreak` naming its members orders it
       * in the places it holds. N16: "a late joiner rolls and is slotted in" by the recorded totals; N40: when the
       * order is the GM's (someone in it has no total, or it is not the order the totals and Agility give), the
       * newcomer goes last for now and the whole order is the GM's.
       */
      const agi = (id: string) => m[id].sheet.vitals.agility;
      const key = (id: string) => [m[id].init!, agi(id)] as const;
      const sameKey = (a: string, b: string) => key(a)[0] === key(b)[0] && key(a)[1] === key(b)[1];
      const byRoll = (list: string[]) =>
        [...list].sort((a, b) => key(b)[0] - key(a)[0] || key(b)[1] - key(a)[1]);
      /** The runs of equal total and Agility, of two or more, in a list sorted by the rolls. */
      const tiedRuns = (list: string[]) => {
        const runs: string[][] = [];
        for (let i = 0; i < list.length;) {
          let j = i + 1;
          while (j < list.length && sameKey(list[i], list[j])) j++;
          if (j - i > 1) runs.push(list.slice(i, j));
          i = j;
        }
        return runs;
      };
      /** N40: the rolls' order: everyone has a total, and no one stands ahead of a higher total (or Agility on a tie). */
      const rollsOrder = () =>
        order.every((id) => m[id].init !== undefined) &&
        order.every(
          (id, i) =>
            i === 0 ||
            key(order[i - 1])[0] > key(id)[0] ||
            (key(order[i - 1])[0] === key(id)[0] && key(order[i - 1])[1] >= key(id)[1]),
        );
      const shuffle = <T>(xs: readonly T[]) => {
        const a = [...xs];
        for (let i = a.length - 1; i > 0; i--) {
          const j = int(0, i);
          [a[i], a[j]] = [a[j], a[i]];
        }
        return a;
      };
      /**
       * The order with each still-tied group's members in a fixed order: the rulings leave their interim order open,
       * except that the members a `tieBreak` names come first, in its order (C10), so those keep their places.
       */
      const canonTies = (list: string[], groups: string[][], named: string[] = []) =>
        list.map((id) => {
          const g = groups.find((x) => x.includes(id));
          return g && !named.includes(id)
            ? g
                .filter((x) => !named.includes(x))
                .sort()
                .join('|')
            : id;
        });
      /**
       * Checks an InitiativeRolled against the rolls and the order wanted; a group still tied is settled by the GM's
       * SetInitiative (in the rolls' order, or now and then any order: the GM's). Returns the order settled.
       */
      const initiative = (
        got: RuleEvent[],
        rolls: { combatantId: string; faces: number[] }[],
        want: string[],
        ties: string[][],
        tieBreak: string[] | undefined,
      ) => {
        let settled = want;
        let open = ties;
        if (tieBreak) {
          // C10: "A tieBreak orders each tied group among its own members, in the places the group holds: the members
          // it names come first, in its order, the others after them"; "A group is settled only when every member is
          // named; a group named in part stays the GM's (its whole group in the pending decision)".
          settled = [...want];
          for (const g of ties) {
            const slots = g.map((id) => want.indexOf(id)).sort((a, b) => a - b);
            const inOrder = [
              ...tieBreak.filter((id) => g.includes(id)),
              ...g.filter((id) => !tieBreak.includes(id)),
            ];
            slots.forEach((slot, i) => (settled[slot] = inOrder[i]));
          }
          open = ties.filter((g) => g.some((id) => !tieBreak.includes(id)));
          if (open.length) count('a tieBreak names part of a tied group (C10)');
        }
        const d = got.find((x) => x.type === 'InitiativeRolled')?.data as Record<string, any> | undefined;
        same(
          'InitiativeRolled: Side Rolls of Agility dice, higher total first, ties by Agility, then the GM (N4, N16, N40, C10)',
          {
            rolls: rolls.map((x) => ({ combatantId: x.combatantId, faces: x.faces, total: sum(x.faces) })),
            order: canonTies(settled, open, tieBreak),
            unresolvedTies: open.map((g) => [...g].sort()).sort(),
          },
          d && {
            rolls: (d.rolls as Record<string, any>[]).map((x) => ({
              combatantId: x.combatantId,
              faces: x.roll.faces,
              total: x.total,
            })),
            order: canonTies(d.order, open, tieBreak),
            unresolvedTies: (d.unresolvedTies as string[][]).map((g) => [...g].sort()).sort(),
          },
          got,
        );
        if (!open.length) return settled;
        count(`initiative tie answered by the GM${rolls.length > 1 ? '' : ' (late joiner)'}`);
        if (r() < 0.25) settled = shuffle(settled);
        else
          for (const g of open) {
            const slots = g.map((id) => settled.indexOf(id)).sort((a, b) => a - b);
            const inOrder = shuffle(g);
            settled = [...settled];
            slots.forEach((slot, i) => (settled[slot] = inOrder[i]));
          }
        same('an initiative tie waits for the GM (C10)', 'initiativeTie', stateOf(e).pending?.kind);
        run1({ type: 'SetInitiative', order: settled });
        return settled;
      };
      if (rolled) {
        const rolls = ids.map((id) => ({ combatantId: id, faces: d6(agi(id)) }));
        for (const x of rolls) m[x.combatantId].init = sum(x.faces);
        const want = byRoll(ids);
        const ties = tiedRuns(want);
        // C10: a tieBreak naming everyone, or now and then only some of them.
        const tieBreak =
          ties.length && r() < 0.5
            ? shuffle(ids).slice(0, r() < 0.6 ? ids.length : int(1, ids.length - 1))
            : undefined;
        count(`initiative rolled${ties.length ? ` tied${tieBreak ? ', tieBreak' : ''}` : ''}`);
        const got = run1(
          { type: 'RollInitiative', ...(tieBreak ? { tieBreak } : {}) },
          { dice: rolls.flatMap((x) => x.faces) },
        );
        order = initiative(got, rolls, want, ties, tieBreak);
        run1({ type: 'StartRound' });
      }
      folds();

      /** N13, N51: the GM places a combatant on the map; two may share a Space. */
      const place = (id: string) => {
        m[id].pos = { x: int(0, 3), y: int(0, 2) };
        run1({ type: 'SetPosition', combatantId: id, position: m[id].pos });
      };
      if (onMap) for (const id of ids) place(id);

      /**
       * N33, N43: SpendDice in the own activation commits Ready dice to an action the engine does not model; with
       * `proactiveUse` it is a proactive Melee or Ranged action ("shoves, trips, feints, disarms, grapples") that counts
       * against SL + 1. Unconscious ("out cold") commits nothing; Paralyzed ("aware but can't take physical actions")
       * commits dice to an action that is not physical only; nor does one Collapsed or Withdrawn (by a tick at the
       * activation's start, or in it).
       */
      const spend = (c: Model) => {
        const ad = int(0, c.ad.ready);
        const md = int(ad === 0 && c.md.ready > 0 ? 1 : 0, c.md.ready);
        const kind = r() < 0.4 ? pick(['melee', 'ranged'] as const) : undefined;
        if (!ad && !md && !kind) return;
        const cmd = {
          type: 'SpendDice',
          combatantId: c.id,
          ad,
          md,
          ...(kind ? { proactiveUse: kind } : {}),
        };
        const why =
          stateOfM(c) !== 'Active' || has(c, 'unconscious')
            ? 'NARATEER_CANNOT_ACT'
            : has(c, 'paralyzed') && kind
              ? 'NARATEER_CANNOT_ACT'
              : kind && c.uses[kind] >= usesOf(c, kind)
                ? 'NARATEER_PROACTIVE_LIMIT'
                : undefined;
        count(
          `spend dice${kind ? ' (proactive)' : ''}${has(c, 'paralyzed') ? ' while Paralyzed' : ''}${why ? ` refused ${why}` : ''}`,
        );
        if (why) {
          same('SpendDice refused (N33, N43)', why, refusal(e, cmd).code);
          return;
        }
        const got = run1(cmd);
        same(
          'DiceSpent (N33)',
          { combatantId: c.id, ad, md, proactiveUse: kind },
          got.find((x) => x.type === 'DiceSpent')?.data,
          got,
        );
        c.ad.ready -= ad;
        c.ad.used += ad;
        c.md.ready -= md;
        c.md.used += md;
        if (kind) c.uses[kind] += 1;
        folds();
      };

      /**
       * A late joiner (N16, N40, C10): it rolls its Side Roll and is slotted in by the totals, or, in the
       * GM's order, put last with the whole order left to the GM; `tieBreak` may answer in advance. N49: it is one of
       * the round's combatants from the moment it joins.
       */
      let joiners = 0;
      const join = () => {
        const id = `j${++joiners}`;
        m[id] = newModel(id, mkSheet());
        const faces = d6(agi(id));
        const gm = !rollsOrder();
        m[id].init = sum(faces);
        const want = gm ? [...order, id] : byRoll([...order, id]);
        const ties = gm ? [want] : tiedRuns(want).filter((g) => g.includes(id));
        // C10: a tieBreak naming the full order, or now and then (not after the GM's order, N40) only part of it.
        const tieBreak =
          ties.length && r() < 0.4
            ? shuffle(want).slice(0, gm || r() < 0.6 ? want.length : int(1, want.length - 1))
            : undefined;
        count(`late joiner${gm ? ' after the GM’s order (N40)' : ''}${ties.length ? ' tied' : ''}`);
        const got = run1(
          {
            type: 'AddCombatant',
            combatant: { id, name: id, side: m[id].side, sheet: m[id].sheet },
            ...(tieBreak ? { tieBreak } : {}),
          },
          { dice: faces },
        );
        ids.push(id);
        order = initiative(got, [{ combatantId: id, faces }], want, ties, tieBreak);
        if (onMap) place(id);
        folds();
      };

      /** N42: the longest reach of the melee weapons; N24: a melee weapon that reaches and that the Ready AD pay. */
      const reachOf = (x: Model) =>
        Math.max(0, ...x.sheet.weapons.filter((y) => y.kind === 'melee').map((y) => y.reach ?? 1));
      const strikers = (x: Model, d: number) =>
        x.sheet.weapons.filter(
          (y) => y.kind === 'melee' && (y.reach ?? 1) >= d && y.baseAttackCost <= x.ad.ready,
        );
      /** N60: a reactor fails to perceive the mover only when it can neither see it nor hear it. */
      const perceives = (x: Model, mover: Model) =>
        !((has(x, 'blinded') || has(mover, 'invisible')) && has(x, 'deafened'));
      /** N24: an opponent, Active, not incapacitated, perceiving the mover, able to strike it at its new Space. */
      const mayReact = (x: Model, mover: Model) =>
        x.side !== mover.side &&
        stateOfM(x) === 'Active' &&
        !incapacitated(x) &&
        perceives(x, mover) &&
        strikers(x, cheb(x.pos!, mover.pos!)).length > 0;
      /**
       * Opportunity Attacks: "After a creature moves from one Space within your melee reach to another Space within
       * your melee reach, you may make an Opportunity Attack against it"; "Check each movement step separately";
       * "identify their opportunities before resolving any of them. Resolve them in initiative order"; "Before each
       * attack, check that the attacker can still perceive, reach and legally attack the creature" (N24, N42, N45).
       */
      /**
       * N24: `forced` is movement by another effect (the GM's, any time, Restrained or not, the mover fallen or not:
       * N45), which triggers the same way; `noReactions` is movement a rule exempts ("If a Power or another rule says
       * that movement does not trigger Reactions, it does not trigger Opportunity Attacks"). N26: "Restrained stops
       * voluntary moves" ("held in place").
       */
      const move = (c: Model, how: { forced?: true; noReactions?: true } = {}, toward?: Model): boolean => {
        const start = c.pos!;
        // N59 with N45: between two activations, a round that still waits for someone ends with the command that
        // settles the step’s last decision when no one is left to wait for; one that waited for no one stays open.
        const between = roundOpen && active === undefined;
        const waitedBefore = between && waiting();
        const path: Space[] = [];
        const around = (p: Space) =>
          [-1, 0, 1]
            .flatMap((dx) => [-1, 0, 1].map((dy) => ({ x: p.x + dx, y: p.y + dy })))
            .filter((q) => cheb(p, q));
        if (toward) {
          // Up to the foe `toward`, then one step around it, still beside it.
          let p = start;
          while (cheb(p, toward.pos!) > 1) {
            p = { x: p.x + Math.sign(toward.pos!.x - p.x), y: p.y + Math.sign(toward.pos!.y - p.y) };
            path.push(p);
          }
          // Most often to a Space that opens the step to the most foes (N24: both Spaces within a foe's reach).
          const beside = around(p).filter((q) => cheb(q, toward.pos!) <= 1);
          const opens = (q: Space) =>
            ids.filter(
              (id) =>
                id !== c.id && cheb(p, m[id].pos!) <= reachOf(m[id]) && mayReact(m[id], { ...c, pos: q }),
            ).length;
          const most = Math.max(...beside.map(opens));
          path.push(pick(r() < 0.7 ? beside.filter((q) => opens(q) === most) : beside));
        } else
          for (let i = int(1, 3), p = start; i > 0; i--) {
            p = pick(around(p));
            path.push(p);
          }
        const cmd = { type: 'Move', combatantId: c.id, path, ...how };
        if (!how.forced && has(c, 'restrained')) {
          count('a Restrained combatant’s own move refused (N26)');
          same(
            'a Restrained combatant does not move by itself (N26)',
            'NARATEER_RESTRAINED',
            refusal(e, cmd).code,
          );
          return false;
        }
        count(
          `move${how.forced ? ' forced' : ''}${between ? ' between activations' : roundOpen ? '' : ' between rounds'}${how.noReactions ? ', no reactions' : ''}`,
        );
        let reactors: Model[] = [];
        let taken = 0;
        let stepFrom = start;
        for (let from = start; taken < path.length;) {
          const to = path[taken++];
          c.pos = to;
          stepFrom = from;
          if (how.noReactions) {
            from = to;
            continue;
          }
          // "Resolve them in initiative order."
          reactors = order
            .map((id) => m[id])
            .filter((x) => x.id !== c.id && mayReact(x, c) && cheb(from, x.pos!) <= reachOf(x));
          if (reactors.length) break;
          from = to;
        }
        if (reactors.length > 1) count('several reactors to one step');
        const got = run1(cmd);
        const moved = got.find((x) => x.type === 'Moved')?.data;
        same(
          'Moved: the steps taken, stopped at the first that opens Opportunity Attacks (N24)',
          {
            path: path.slice(0, taken),
            from: start,
            to: c.pos,
            stoppedBefore: path.length - taken,
            reactorIds: reactors.length ? reactors.map((x) => x.id) : undefined,
            offered: reactors[0]?.id,
            forced: how.forced,
            noReactions: how.noReactions,
          },
          moved && {
            forced: moved.forced,
            noReactions: moved.noReactions,
            path: moved.path,
            from: moved.from,
            to: moved.to,
            stoppedBefore: moved.stoppedBefore ?? 0,
            reactorIds: got.find((x) => x.type === 'OpportunitiesIdentified')?.data.reactorIds,
            offered: got.find((x) => x.type === 'OpportunityOffered')?.data.reactorId,
          },
          got,
        );
        /** The view’s opportunity while `x` is offered the attack, `rest` still to come (N24). */
        const offered = (x: Model, rest: Model[]): Awaited => ({
          kind: 'opportunityAttack',
          awaiting: x.id,
          opportunity: {
            moverId: c.id,
            step: { from: stepFrom, to: c.pos },
            current: x.id,
            remaining: rest.map((y) => y.id),
          },
        });
        folds(reactors.length ? offered(reactors[0], reactors.slice(1)) : null);
        const queue = reactors.slice(1);
        let now: Model | undefined = reactors[0];
        /**
         * After a reactor’s decision: the next reactor, checked again (N24, N45), or the queue’s end; and N59’s round
         * end when the queue is done and no one is left to wait for.
         */
        const settle = () => {
          const want: string[] = [];
          let next: Model | undefined;
          while (queue.length) {
            const x = queue.shift()!;
            if (mayReact(x, c)) {
              want.push(`OpportunityOffered ${x.id}`);
              next = x;
              break;
            }
            want.push(`OpportunityLapsed ${x.id}`);
            count('opportunity lapsed');
          }
          if (!next) want.push(`OpportunitiesFinished ${c.id}`);
          const end = !next && waitedBefore && !waiting() ? roundEnd() : undefined;
          return { want, next, end };
        };
        let roundEnded = false;
        /** The round’s end that the command settling the queue’s last decision brings, or none (N59). */
        const closes = (what: string, end: Moment | undefined, rest: RuleEvent[]) => {
          sameMoment(`the round’s end ${what} brings, or none (N59 with N45)`, end ?? moment(), !!end, rest);
          if (end) {
            roundEnded = true;
            count(`a forced move’s attacks end the round (N59): ${what}`);
          }
        };
        while (now) {
          if (r() < 0.1) {
            count('fight ended while an Opportunity Attack is offered (N66)');
            endFight();
          }
          // N45: "a reactor who would not strike a fallen foe declines", or the GM cancels the offer.
          const fallen = stateOfM(c) !== 'Active';
          if (r() < (fallen ? 0.2 : 0.06)) {
            // N29: "While an Opportunity Attack is offered, the whole queue for that step ends."
            count('opportunity offer cancelled (N29)');
            queue.length = 0;
            const end = waitedBefore && !waiting() ? roundEnd() : undefined;
            const got = send({ type: 'CancelPending' }, end?.steps ?? []);
            same(
              'the cancel ends the step’s queue (N29)',
              ['PendingCancelled'],
              got
                .filter((x) => x.type === 'PendingCancelled' || x.type.startsWith('Opportunit'))
                .map((x) => x.type),
              got,
            );
            closes('the cancel', end, got.slice(1));
            folds();
            return roundEnded;
          }
          const d = cheb(now.pos!, c.pos!);
          let after: RuleEvent[];
          let settled: ReturnType<typeof settle> | undefined;
          if (r() < (fallen ? 0.5 : 0.75)) {
            count(
              `opportunity taken${between ? ' between activations' : roundOpen ? '' : ' between rounds'}`,
            );
            const w = pick(strikers(now, d));
            const boost = int(0, Math.min(now.sheet.skills.melee, now.ad.ready - w.baseAttackCost));
            after = exchange(now, c, w, boost, d, true, () => {
              settled = settle();
              return settled.end?.steps ?? [];
            });
          } else {
            count('opportunity declined');
            settled = settle();
            after = send({ type: 'DeclineOpportunity', combatantId: now.id }, settled.end?.steps ?? []);
          }
          const { want, next, end } = settled!;
          same(
            'the next reactor, checked again (N24, N45)',
            want,
            after
              .filter((x) =>
                ['OpportunityOffered', 'OpportunityLapsed', 'OpportunitiesFinished'].includes(x.type),
              )
              .map((x) => `${x.type} ${String(x.data.reactorId ?? x.data.moverId)}`),
            after,
          );
          const done = after.findIndex((x) => x.type === 'OpportunitiesFinished');
          closes(
            after[0]?.type === 'OpportunityDeclined' ? 'the decline' : 'the attack',
            end,
            done < 0 ? [] : after.slice(done + 1),
          );
          now = next;
          folds(now ? offered(now, queue) : null);
        }
        return roundEnded;
      };

      /** The sides of the combatants removed (C17: a side no combatant of the fight is on names no winner). */
      const removedSides: string[] = [];
      /**
       * The GM's RemoveCombatant (C11, C16, N59). The combatant leaves the order and the round; the id is never given to
       * another (an AddCombatant naming it is refused, COMBATANT_ID_TAKEN). C16: removing the combatant whose activation
       * runs ends that activation with it, and nothing of its end applies (no ActivationEnded, no tick at its end).
       * C16, N59: when no one is left that the round waits for, and no other activation runs, the round ends in the same
       * command as after the last EndActivation (its Lingering Harm ticks, what runs out with it). Returns whether the
       * round ended.
       */
      const remove = (id: string) => {
        const x = m[id];
        const wasActive = active === id;
        ids.splice(ids.indexOf(id), 1);
        order = order.filter((y) => y !== id);
        delete m[id];
        removedSides.push(x.side);
        for (const y of Object.values(m)) y.unseen.delete(id);
        if (wasActive) active = undefined;
        const ends = roundOpen && active === undefined && !waiting();
        const at = ends ? roundEnd() : moment();
        count(
          `removed${wasActive ? ' in its activation (C16)' : active ? ' in another’s activation' : ' between activations'}${ends ? ', the round ends (C16, N59)' : ''}`,
        );
        const got = send({ type: 'RemoveCombatant', combatantId: id }, at.steps);
        same(
          'CombatantRemoved, no ActivationEnded (C16)',
          [['CombatantRemoved', id]],
          got
            .filter((y) => y.type === 'CombatantRemoved' || y.type === 'ActivationEnded')
            .map((y) => [y.type, y.data.combatantId]),
          got,
        );
        sameMoment('the round’s end a removal brings, or none (C16, N59)', at, ends, got);
        folds();
        // C11: "once RemoveCombatant has taken a combatant out, its id is never given to another".
        same(
          'a removed id is not given again (C11)',
          ['COMBATANT_ID_TAKEN', 'combatant.id'],
          (({ code, field }) => [code, field])(
            refusal(e, {
              type: 'AddCombatant',
              combatant: { id, name: id, side: x.side, sheet: x.sheet },
            }),
          ),
        );
        return ends;
      };
      /** Whether `c`'s activation's end has a tick that asks its wounded (N28). */
      const endAsks = (c: Model) =>
        c.lingering.some(
          (l) =>
            !l.ended &&
            l.tick === 'activationEnd' &&
            !l.allocation &&
            l.lastTick !== round &&
            asks(c, l.wounds),
        );
      /**
       * N24, N45: the GM moves a combatant by another effect while no activation runs (between two activations or
       * between rounds), most often one the round still waits for; N59: returns whether its attacks ended the round.
       */
      /** The foes able to strike `id` beside them (N24, N42, N60), wherever they stand now. */
      const foesOf = (id: string) =>
        ids.filter(
          (x) => x !== id && mayReact({ ...m[x], pos: { x: 0, y: 0 } }, { ...m[id], pos: { x: 0, y: 0 } }),
        );
      /** The one the round still waits for, alone (N59). */
      const lastWaiting = () => {
        const waits = ids.filter((id) => !m[id].acted && stateOfM(m[id]) === 'Active');
        return waits.length === 1 ? waits[0] : undefined;
      };
      const forcedMove = (who = pick(ids), alone = false) => {
        // Now and then the effect that moves the one the round waits for has wounded it first (N32), down to Vitality 1,
        // which may itself end the round (N59: its Continuation Check failing).
        if (alone && m[who].vit > 1 && r() < 0.5 && gmWounds(true, who, m[who].vit - 1)) return true;
        // "After the Exchange, the creature may continue": the effect moves it on, now and then, as a new Move, most
        // often past a foe able to strike it beside it.
        for (let i = 0; i < 4; i++) {
          const foes = foesOf(who);
          const toward = foes.length && r() < 0.8 ? m[pick(foes)] : undefined;
          if (move(m[who], { forced: true, ...(r() < 0.1 ? { noReactions: true as const } : {}) }, toward))
            return true;
          if (r() < (toward ? 0.2 : 0.6)) break;
        }
        return false;
      };
      /**
       * The GM's EndRound, "GM ends the open round early": between activations, or in `c`'s activation, which ends first
       * with its own end's ticks (N22, N28: the round's end comes with "the EndActivation / EndRound that closes the
       * round"). Those still waiting lose their activation in this round; the round's end comes (ticks, what runs out
       * with it), then RoundEnded. N28: a tick at the activation's end may ask its wounded (ASK), and "the moment it
       * ticks at waits for the answer"; "When a last activation's end tick waits and was reached by an early EndRound,
       * the GM sends EndRound again after the answer": the answer finishes the activation's end and leaves the round
       * open for the GM's next EndRound, unless it leaves no one to wait for, which ends the round with it (N59, as the
       * activation's own EndActivation would). Returns whether the round ended, or only the activation.
       */
      const gmEndRound = (c?: Model): 'roundEnded' | 'activationEnded' => {
        if (c) {
          c.acted = true;
          active = undefined;
          actedList.push(c.id);
        }
        const at = c ? tickAt('activationEnd', [c.id], moment()) : moment();
        const asked = at.steps.some((x) => x.ask);
        const ends = !asked || !waiting();
        if (ends) roundEnd(at);
        count(
          `EndRound ${c ? 'in an activation' : 'between activations'}${asked ? `, its end’s tick asks (N28)${ends ? ', no one left' : ', EndRound again'}` : ''}`,
        );
        const got = send({ type: 'EndRound' }, at.steps);
        same(
          'EndRound ends the running activation first',
          c ? [c.id] : [],
          got.filter((y) => y.type === 'ActivationEnded').map((y) => y.data.combatantId),
          got,
        );
        sameMoment('the round’s end the GM’s EndRound brings (N28: after the answer)', at, ends, got);
        folds();
        return ends ? 'roundEnded' : 'activationEnded';
      };
      /** The GM ended the fight: the run stops there. */
      class FightOver extends Error {}
      /**
       * EndFight (C17, N66, N67): `winnerSide` must be the side of a combatant in the fight (SIDE_NOT_FOUND, a removed
       * combatant's side too when no one present is on it); the fight then accepts no command (FIGHT_ENDED), awaits
       * nothing, and its view shows nothing being resolved and no proactive use for anyone.
       */
      const endFight = () => {
        const sides = [...new Set(ids.map((id) => m[id].side))];
        const absent = [...removedSides.filter((x) => !sides.includes(x)), 'z'];
        if (r() < 0.4) {
          const bogus = pick(absent);
          count(`EndFight refused: ${bogus === 'z' ? 'no such side' : 'a removed combatant’s side'} (C17)`);
          const no = refusal(e, { type: 'EndFight', revealedSeed: TEST_SEED, winnerSide: bogus });
          same(
            'a winnerSide no combatant of the fight is on (C17)',
            ['SIDE_NOT_FOUND', 'winnerSide'],
            [no.code, no.field],
          );
        }
        const winnerSide = r() < 0.7 ? pick(sides) : undefined;
        const unfinished = r() < 0.3 ? true : undefined;
        const got = run1({
          type: 'EndFight',
          revealedSeed: TEST_SEED,
          ...(winnerSide ? { winnerSide } : {}),
          ...(unfinished ? { unfinished } : {}),
        });
        const d = got.find((x) => x.type === 'FightEnded')?.data;
        same(
          'FightEnded (C17)',
          { types: ['FightEnded'], winnerSide, unfinished: !!unfinished, seed: TEST_SEED },
          {
            types: got.map((x) => x.type),
            winnerSide: d?.winnerSide,
            unfinished: d?.unfinished,
            seed: d?.seed,
          },
          got,
        );
        // Nothing runs in an ended fight: no round is open and no activation runs.
        ended = true;
        roundOpen = false;
        active = undefined;
        folds();
        const after = pick([
          { type: 'StartRound' },
          { type: 'EndRound' },
          { type: 'AddNote', text: 'after the end' },
          { type: 'ApplyCondition', combatantId: ids[0], condition: 'prone' },
          { type: 'CancelPending' },
        ] as RuleCommand[]);
        same('an ended fight accepts no command (N66)', 'FIGHT_ENDED', refusal(e, after).code);
        count('fight ended');
        throw new FightOver();
      };

      const rounds = int(2, 3);
      try {
        for (; round <= rounds; round++) {
          if (round > 1) {
            // N24: a forced move between rounds opens Opportunity Attacks too, most often of one a foe could strike; no
            // round is open to end (N59).
            const struck = onMap ? ids.filter((id) => foesOf(id).length) : [];
            if (onMap && r() < 0.4) forcedMove(struck.length && r() < 0.8 ? pick(struck) : undefined);
            // N38: the round’s start ticks; N62: a round start that leaves no one to act ends the round at once.
            const downBefore = !waiting();
            const at = tickAt('roundStart', ids, moment());
            const ends = !waiting();
            // "if the round waited for no one even before it …, the GM ends the round with EndRound after the answer".
            const gmEnds = downBefore && at.steps.some((x) => x.ask);
            if (ends && !gmEnds) roundEnd(at);
            // "Combatants whose activation has ended this round": the view's round is the one last started.
            viewRound = round;
            roundOpen = true;
            actedList = [];
            const got = send({ type: 'StartRound' }, at.steps);
            sameMoment('the round’s start: ticks, checks, ends (N38, N62)', at, ends && !gmEnds, got);
            folds();
            if (gmEnds) {
              count('the GM ends a round that waited for no one (N62)');
              const end = roundEnd();
              sameMoment(
                'the GM’s EndRound after the answer (N28, N62)',
                end,
                true,
                send({ type: 'EndRound' }, end.steps),
              );
              folds();
            }
            if (ends) {
              count('a round start ends the round (N62)');
              break;
            }
          }
          if (r() < 0.4) gmLingering();
          if (r() < 0.4) gmCondition();
          for (;;) {
            // N16, N49: the next in the initiative order who has not acted, a late joiner included.
            const next = order.find(
              (id) => !m[id].acted && stateOfM(m[id]) !== 'Collapsed' && stateOfM(m[id]) !== 'Withdrawn',
            );
            if (!next) break;
            const c = m[next];
            // C7, N3: Used dice become Ready and proactive uses reset at the start of the own activation.
            c.ad = { ...c.ad, ready: c.ad.ready + c.ad.used, used: 0 };
            c.md = { ...c.md, ready: c.md.ready + c.md.used, used: 0 };
            c.uses = { melee: 0, ranged: 0 };
            const refreshedWant = { combatantId: next, ad: { ...c.ad }, md: { ...c.md } };
            active = next;
            // N38: ticks at the own activation’s start come after the dice refresh.
            const at = tickAt('activationStart', [c.id], moment());
            const got = send({ type: 'StartActivation' }, at.steps);
            const refreshed = got.find((x) => x.type === 'DiceRefreshed')?.data;
            same('the next activation (N16, N20) and its refreshed dice (N3)', refreshedWant, refreshed, got);
            sameMoment('the activation’s start: ticks, checks, ends (N38)', at, false, got);
            folds();
            const stop = !canAct(c);
            if (r() < 0.3) spend(c);
            for (const w of c.sheet.weapons)
              if (
                !stop &&
                w.needsLoading &&
                !c.guns[w.id].loaded &&
                c.guns[w.id].ammunition !== 0 &&
                r() < 0.7
              ) {
                // N27: ReloadWeapon in the own activation, no AD, no use.
                run1({ type: 'ReloadWeapon', combatantId: c.id, weaponId: w.id });
                c.guns[w.id].loaded = true;
                folds();
              }
            let gone: 'removed' | 'roundEnded' | 'activationEnded' | undefined;
            for (let k = 0; k < 5 && !stop; k++) {
              if (r() < 0.01) endFight();
              // N28: more often where the activation's end has a tick that asks its wounded.
              if (r() < (endAsks(c) ? 0.4 : 0.02)) {
                gone = gmEndRound(c);
                break;
              }
              if (r() < 0.03 && ids.length > 2) {
                const who = r() < 0.5 ? c.id : pick(ids.filter((id) => id !== c.id));
                const ends = remove(who);
                if (who !== c.id) continue;
                gone = ends ? 'roundEnded' : 'removed';
                break;
              }
              if (joiners < 2 && r() < 0.04) join();
              if (r() < 0.07) gmCondition();
              if (r() < 0.04) gmWounds(false);
              if (r() < 0.04) gmLingering();
              if (!canAct(c) || r() < 0.15) break;
              if (r() < 0.1) {
                spend(c);
                continue;
              }
              if (onMap && r() < 0.25) {
                move(c);
                continue;
              }
              if (onMap && r() < 0.1) {
                // N24, N45: the GM moves anyone, the tempo-holder too, by another effect.
                move(m[pick(ids)], { forced: true, ...(r() < 0.25 ? { noReactions: true as const } : {}) });
                continue;
              }
              const w = pick(c.sheet.weapons);
              // N25: on the map, only a target the weapon reaches, or within its Maximum Range.
              const targets = ids.filter(
                (id) =>
                  id !== c.id &&
                  (!onMap ||
                    cheb(c.pos!, m[id].pos!) <= (w.kind === 'melee' ? (w.reach ?? 1) : w.maximumRange!)),
              );
              if (!targets.length) continue;
              const tgt = m[pick(targets)];
              const declare = (targetId: string, boost: number, more: Record<string, unknown> = {}) =>
                ({
                  type: 'DeclareExchange',
                  attackerId: c.id,
                  targetId,
                  kind: w.kind,
                  weaponId: w.id,
                  boost,
                  ...more,
                }) as RuleCommand;
              if (c.uses[w.kind] >= usesOf(c, w.kind)) {
                // "Confirm the tempo-holder has not exceeded the proactive-use limit for the attacking Skill."
                if (w.baseAttackCost <= c.ad.ready && (w.kind === 'melee' || canFire(c, w)))
                  same(
                    'a proactive use over SL + 1 is refused',
                    'NARATEER_PROACTIVE_LIMIT',
                    refusal(e, declare(tgt.id, 0)).code,
                  );
                continue;
              }
              if (w.baseAttackCost > c.ad.ready) {
                // Step 3: the Base Attack Cost must be paid from Ready AD (MD never pays, N17).
                same(
                  'a Base Attack Cost over the Ready AD is refused',
                  'NARATEER_NOT_ENOUGH_READY_AD',
                  refusal(e, declare(tgt.id, 0)).code,
                );
                continue;
              }
              const refused = (what: string, code: string, cmd: RuleCommand) => {
                count(`refused: ${what}`);
                same(`refused: ${what}`, code, refusal(e, cmd).code);
              };
              if (w.kind === 'ranged' && !canFire(c, w)) {
                // "a ranged weapon that is loaded or otherwise ready to fire", "ammunition" (N27).
                if (!c.guns[w.id].loaded)
                  refused('not loaded', 'NARATEER_WEAPON_NOT_LOADED', declare(tgt.id, 0));
                else refused('no ammunition', 'NARATEER_NO_AMMUNITION', declare(tgt.id, 0));
                continue;
              }
              const sl = c.sheet.skills[w.kind];
              if (r() < 0.08) {
                // "Maximum Boost AD = Skill Level being tested"; steps 3–4: cost and Boost from the Ready AD.
                if (w.baseAttackCost + sl + 1 <= c.ad.ready)
                  refused('Boost over the Skill Level', 'NARATEER_BOOST_OVER_SKILL', declare(tgt.id, sl + 1));
                else if (w.baseAttackCost + sl > c.ad.ready)
                  refused('Boost over the Ready AD', 'NARATEER_NOT_ENOUGH_READY_AD', declare(tgt.id, sl));
                continue;
              }
              const far = onMap ? ids.filter((id) => id !== c.id && !targets.includes(id)) : [];
              if (r() < 0.08 && (!onMap || far.length)) {
                // "within the reach needed for their declared attacks"; "A target beyond Maximum Range cannot be
                // targeted with that weapon" (N25: off the map, the GM's distance).
                const limit = w.kind === 'melee' ? (w.reach ?? 1) : w.maximumRange!;
                const cmd = onMap
                  ? declare(pick(far), 0)
                  : declare(tgt.id, 0, { distance: limit + int(1, 3) });
                if (w.kind === 'melee') refused('beyond reach', 'NARATEER_NOT_IN_REACH', cmd);
                else refused('beyond Maximum Range', 'NARATEER_OUT_OF_RANGE', cmd);
                continue;
              }
              // Step 4: Boost within the Skill Level and the Ready AD.
              const boost = int(0, Math.min(sl, c.ad.ready - w.baseAttackCost));
              const distance = onMap
                ? cheb(c.pos!, tgt.pos!)
                : r() < 0.4
                  ? undefined
                  : w.kind === 'melee'
                    ? int(0, w.reach ?? 1)
                    : int(0, w.maximumRange!);
              exchange(c, tgt, w, boost, distance);
            }
            if (gone === 'roundEnded') break;
            // N28: "the GM sends EndRound again after the answer", or now and then lets the next activation start.
            if (gone === 'activationEnded' && r() < 0.7) {
              gmEndRound();
              break;
            }
            if (gone === undefined && endActivation(c)) break;
            if (joiners < 2 && r() < 0.1) join();
            if (r() < 0.15 && gmWounds(true)) break;
            // C16, N59: now and then the one the round waits for alone.
            const last = lastWaiting();
            if (r() < 0.06 && ids.length > 2 && remove(last && r() < 0.5 ? last : pick(ids))) break;
            if (r() < 0.05 && gmEndRound()) break;
            // N59: most often when the round waits for one combatant alone.
            // N59: most often the one the round waits for alone, when a foe could strike it.
            const alone = onMap ? lastWaiting() : undefined;
            const struck = alone && foesOf(alone).length ? alone : undefined;
            if (onMap && r() < (struck ? 0.95 : 0.1) && forcedMove(struck, !!struck)) break;
          }
          log = log.slice(-40);
        }
        if (r() < 0.6) endFight();
      } catch (x) {
        if (!(x instanceof FightOver)) throw x;
      }
    }
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify(stats, null, 1));
    expect(stats.exchanges).toBeGreaterThan(RUNS);
    // Every outcome, a check, a choice asked for, a tick and an Opportunity Attack were compared.
    if (RUNS >= 60)
      for (const k of [
        'hits',
        'counters',
        'guarded',
        'ties',
        'checks',
        'asked',
        'ticks',
        'opportunity taken',
      ])
        expect({ [k]: (stats[k] ?? 0) > 0 }).toEqual({ [k]: true });
    // … and each part added since: initiative rolled and tied, late joiners (N40 too), a forced No Response for
    // several reasons (N70), moves forced and refused, several reactors to a step, treatment, SpendDice, refusals.
    if (RUNS >= 120)
      for (const k of [
        'initiative rolled tied',
        'late joiner after the GM’s order',
        'late joiner tied',
        'response none forced several',
        'move forced',
        'a Restrained',
        'several reactors',
        'lingering harm treated',
        'spend dice (proactive) refused',
        'refused: Boost over the Skill Level',
        'refused: beyond',
        'refused: not loaded',
      ])
        expect({ [k]: Object.keys(stats).some((x) => x.startsWith(k)) }).toEqual({ [k]: true });
    // … and the round's and the fight's ends: removals (C16, N59), the GM's EndRound, EndFight (C17, N66), a tieBreak
    // naming part of a group (C10).
    if (RUNS >= 200)
      for (const k of [
        'removed in its activation (C16), the round ends',
        'removed between activations, the round ends',
        'removed in another',
        'EndRound in an activation',
        'EndRound between activations',
        'EndFight refused: no such side',
        'fight ended while a response is awaited',
        'a tieBreak names part of a tied group',
        // … the GM's forced moves between activations and between rounds, whose attacks may end the round (N59); an
        // offer cancelled (N29); EndRound in an activation whose end's tick asks (N28); the fight ended while Wounds
        // await their allocation (N66).
        'opportunity taken between activations',
        'opportunity taken between rounds',
        'a forced move’s attacks end the round (N59)',
        'opportunity offer cancelled',
        'EndRound in an activation, its end’s tick asks',
        'fight ended while Wounds await their allocation',
      ])
        expect({ [k]: Object.keys(stats).some((x) => x.startsWith(k)) }).toEqual({ [k]: true });
    // … and, over longer runs, each way those end: the round left open for the GM's EndRound after a tick's answer, or
    // ended with it (N28), and Wounds awaited from each source (N66). (A round ended by the decline or the cancel of a
    // later offer, N59, needs two foes beside the last one the round waits for: FUZZ_REPORT counts it.)
    if (RUNS >= 1000)
      for (const k of [
        'EndRound in an activation, its end’s tick asks (N28), no one left',
        'EndRound in an activation, its end’s tick asks (N28), EndRound again',
        'fight ended while Wounds await their allocation (N66): a tick',
        'fight ended while Wounds await their allocation (N66): an exchange',
        'fight ended while Wounds await their allocation (N66): the GM’s',
      ])
        expect({ [k]: Object.keys(stats).some((x) => x.startsWith(k)) }).toEqual({ [k]: true });
  });
});
