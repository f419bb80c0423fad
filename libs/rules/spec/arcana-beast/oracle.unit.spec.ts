import { RuleCommand, RuleEvent } from '../../src/core/types';
import { close, exact, fight, Fighter, refused, then } from './helpers';
import { binderSheet, explore, keep, sidesOf, sixes, successes } from './oracle-kit';

/**
 * An oracle of the attack sequence, computed from arcana-beast.txt and the rulings A1–A76 alone (not from the engine’s
 * code), compared with the engine on random legal two-round fights with manual dice: the target t (bound or wild) may
 * have its Binder Encourage it, then Defends, Passes or bites p or a (a Guard by p redirecting it); p, a and q (allies
 * of one side) claw t, Assist a, Guard a or Pass, a after its Binder’s Direct, Bond Surge or Strategize and maybe an
 * Evolve (its highest Stage’s Gift healing up to maxHp, A71), with an attack, a ranged or long-range attack, a Special
 * Attack (bonusDamage, A52) or a Zero Power with a range (A34: once per scene while the GM marks its trigger active;
 * refused otherwise), under random High Ground, Cover, Obscured, Cornered (some against one opponent or a Binder, A39,
 * A51) and Flanking (A50). Every attack’s pools, dice sizes, successes, outcome, Critical and damage, the HP left, the
 * Knockout, Critical Gauge, Harm and Devolution Test are checked. Initiative, bands, movement and reach are in
 * oracle-2.unit.spec.ts; the Binder’s Commands, the GM’s tests, Evolution, the end of the encounter and Intercept
 * decisions in oracle-3.unit.spec.ts; the GM’s order, late joiners, bypass movement and Cornered in
 * oracle-4.unit.spec.ts. FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

type Stats = { brawn: number; agility: number; endurance: number; spirit: number; technique: number };
interface Atk {
  id: string;
  range: 'melee' | 'ranged' | 'long';
  stat?: keyof Stats;
  ranks: number;
  qualities: string[];
  bonusDamage: number;
  special: boolean;
  /** The Zero Power with a range (A34): an attack once per scene while its trigger is active. */
  zero?: boolean;
}
interface Beast {
  stats: Stats;
  stage: number;
  /** The highest unlocked Stage (its emotional trigger: 'rage'); Stages 0 to it are unlocked. */
  max: number;
  qualities: Record<string, number>;
  defensive: string[];
  hp: number;
  atk: Atk[];
  /** A71: the HP the highest unlocked Stage’s Gift restores when the beast evolves to it (0: none), up to maxHp. */
  gift: number;
  maxHp: number;
}

/** What a sheet says of an attack, a Special Attack or a Zero Power: its range, stat, ranks, Qualities and bonus. */
const powerOf = (a: Atk) => ({
  range: a.range,
  ...(a.stat ? { stat: a.stat } : {}),
  ranks: a.ranks,
  qualities: a.qualities,
  bonusDamage: a.bonusDamage,
});

/** A34: a Zero Power with a range, on the sheet as the attack it is. */
function zeroPowerOf(b: Beast) {
  const z = b.atk.find((a) => a.zero);
  return z ? { zeroPower: { name: 'Zero', trigger: 'hope', ...powerOf(z) } } : {};
}

describe('arcana-beast oracle: the attack sequence from the text against the engine', () => {
  it('given random legal exchanges, when each attack resolves, then pools, successes, Critical, damage, HP and Knockouts match the text', () => {
    const { r, int, pick, roll, count, seen, covered } = explore(SEED);
    const stats = (): Stats => ({
      brawn: int(0, 4),
      agility: int(0, 4),
      endurance: int(0, 4),
      spirit: int(1, 3),
      technique: int(1, 3),
    });
    const mkBeast = (prefix: string): Beast => {
      const st = int(0, 4);
      const qualities: Record<string, number> = {};
      for (const q of ['Claws', 'Nimble', 'Hide', 'Fire']) if (r() < 0.5) qualities[q] = int(1, 3);
      const names = Object.keys(qualities);
      const atk: Atk[] = [];
      const n = int(1, 3);
      for (let i = 0; i < n; i++) {
        const range = pick(['melee', 'ranged', 'long'] as const);
        atk.push({
          id: `${prefix}a${i}`,
          range,
          stat: range === 'long' || r() < 0.4 ? pick(['brawn', 'agility', 'spirit'] as const) : undefined,
          ranks: int(0, 2),
          qualities: names.filter(() => r() < 0.4),
          bonusDamage: r() < 0.3 ? int(1, 3) : 0,
          special: r() < 0.3,
        });
      }
      if (r() < 0.4) {
        const range = pick(['melee', 'ranged', 'long'] as const);
        atk.push({
          id: 'zero-power',
          range,
          stat: r() < 0.4 ? pick(['brawn', 'agility', 'spirit'] as const) : undefined,
          ranks: int(0, 3),
          qualities: names.filter(() => r() < 0.4),
          bonusDamage: r() < 0.3 ? int(1, 3) : 0,
          special: false,
          zero: true,
        });
      }
      const hp = int(1, 14);
      const max = Math.min(4, st + int(0, 1));
      return {
        stats: stats(),
        stage: st,
        max,
        qualities,
        defensive: names.filter(() => r() < 0.5),
        hp,
        atk,
        gift: max > st && r() < 0.5 ? int(1, 4) : 0,
        maxHp: hp + (r() < 0.5 ? int(1, 3) : 0),
      };
    };
    const sheetOf = (b: Beast) => ({
      kind: 'beast',
      stats: b.stats,
      qualities: b.qualities,
      defensiveQualities: b.defensive,
      hp: b.hp,
      maxHp: b.maxHp,
      stamina: 2,
      stage: b.stage,
      stages: Array.from({ length: b.max + 1 }, (_, s) => ({
        stage: s,
        ...(s === b.max ? { trigger: 'rage' } : {}),
        ...(s === b.max && b.gift ? { giftHeal: b.gift } : {}),
      })),
      ...zeroPowerOf(b),
      attacks: b.atk
        .filter((a) => !a.special && !a.zero)
        .map((a) => ({ id: a.id, name: a.id, ...powerOf(a) })),
      specialAttacks: b.atk
        .filter((a) => a.special)
        .map((a) => ({ id: a.id, name: a.id, ...powerOf(a), uses: 1 })),
    });
    for (let run = 0; run < RUNS; run++) {
      const A = mkBeast('x');
      const P = mkBeast('p');
      const Q = mkBeast('q');
      for (const b of [P, Q]) {
        b.atk = [{ id: 'claw', range: 'melee', ranks: 1, qualities: [], bonusDamage: 0, special: false }];
        b.gift = 0;
      }
      const T = mkBeast('t');
      T.hp += 6;
      T.maxHp = T.hp;
      T.atk = [{ id: 'bite', range: 'melee', ranks: 0, qualities: [], bonusDamage: 0, special: false }];
      T.gift = 0;
      const aBound = r() < 0.7;
      const tBound = r() < 0.6;
      // a’s Binder, as a defender: d6 (A4), Agility 2, no defensive Qualities.
      const AB: Beast = {
        ...binderSheet('a'),
        stage: 0,
        max: 0,
        qualities: {},
        defensive: [],
        atk: [],
        gift: 0,
        maxHp: 10,
      };
      const beasts: Record<string, Beast> = { a: A, p: P, q: Q, t: T, ab: AB };
      const fighters: Fighter[] = [
        { id: 't', sheet: sheetOf(T), side: 'foes' },
        ...(tBound ? [{ id: 'tb', sheet: binderSheet('t'), side: 'foes' }] : []),
        { id: 'p', sheet: sheetOf(P), side: 'heroes' },
        { id: 'a', sheet: sheetOf(A), side: 'heroes' },
        ...(aBound ? [{ id: 'ab', sheet: binderSheet('a'), side: 'heroes' }] : []),
        { id: 'q', sheet: sheetOf(Q), side: 'heroes' },
      ];
      let e: RuleEvent[] = fight(fighters);
      for (const x of ['a', 'p', 'q']) e = close(e, x, 't');
      e = close(close(close(e, 'a', 'p'), 'a', 'q'), 'p', 'q');
      // Tags (A8, A28, A50), set by the GM before the turns.
      const tag = (combatantId: string, t: string, againstId?: string) =>
        (e = then(e, { type: 'SetTag', combatantId, tag: t, ...(againstId ? { againstId } : {}) }));
      const high: Record<string, boolean> = { a: r() < 0.3, t: r() < 0.2 };
      const highAgainstT = r() < 0.5;
      const tCover = r() < 0.3;
      const tObscured = r() < 0.25;
      const tCornered = r() < 0.25;
      // A28, A39, A51: a tag on t may name one opponent; naming a’s Binder holds against a too.
      const against = (): string | undefined =>
        r() < 0.6 ? undefined : pick(aBound ? ['a', 'ab', 'p'] : ['a', 'p']);
      const agOf: Record<string, string | undefined> = {
        cover: against(),
        obscured: against(),
        cornered: against(),
      };
      const holds = (t: string, att: string) => {
        const ag = agOf[t];
        return ag === undefined || ag === att || (ag === 'ab' && att === 'a');
      };
      const flank: Record<string, boolean> = { a: r() < 0.3, p: r() < 0.3, q: r() < 0.2 };
      if (high.a) tag('a', 'highGround', highAgainstT ? 't' : undefined);
      if (high.t) tag('t', 'highGround');
      if (tCover) tag('t', 'cover', agOf.cover);
      if (tObscured) tag('t', 'obscured', agOf.obscured);
      if (tCornered) tag('t', 'cornered', agOf.cornered);
      for (const x of ['a', 'p', 'q']) if (flank[x]) tag(x, 'flanking', 't');

      const hp: Record<string, number> = { a: A.hp, p: P.hp, q: Q.hp, t: T.hp, ab: AB.hp };
      const stage: Record<string, number> = { a: A.stage, p: P.stage, q: Q.stage, t: T.stage, ab: 0 };
      let aForfeits = false; // A22: an Intercept spends a’s next Action
      const isOut: Record<string, boolean> = {};
      let gauge = 0;
      // A20: the heroes’ chain on t: the last attacker, on which of the side’s beast turns, and the hit streak.
      let heroTurn = 0;
      let last: { by: string; turn: number } | undefined;
      let streak = 0;
      let tDefending = false;
      let tEncouraged = 0; // waiting Encourage dice
      const assist: Record<string, number> = {}; // waiting Assist dice; A3: +1 dice stack
      let zeroOn = false; // the Zero Power’s trigger, marked by the GM
      let zeroUsed = false; // once per scene (C7: one scene here)
      let pGuards = false; // Guard: p redirects attacks on a to itself until its next turn (A15, A27)

      const resolve = (
        att: string,
        def: string,
        a: Atk,
        cmd: RuleCommand,
        mods: { direct: boolean; surge: boolean; bonusDice: number; strategized: boolean },
      ) => {
        const b = beasts[att];
        const D = beasts[def];
        const ranged = a.range !== 'melee';
        // A6: the attack's stat (default Brawn for melee, Agility for ranged) + Quality/Attack Ranks + modifiers.
        const stat = a.stat ?? (a.range === 'melee' ? 'brawn' : 'agility');
        const onT = def === 't';
        const continues = onT && last !== undefined && last.by !== att && last.turn === heroTurn - 1; // A20
        // A50: Flanking counts while another ally still in the fight flanks the same target.
        const flanks = onT && flank[att] && ['a', 'p', 'q'].some((o) => o !== att && flank[o] && !isOut[o]);
        // A28, A49: High Ground counts against a target without High Ground of its own, unless Strategize ignores it.
        const highHolds =
          high[att] && (att !== 'a' || !highAgainstT || def === 't') && (!high[def] || mods.strategized);
        const assisted = assist[att] ?? 0;
        assist[att] = 0;
        let n = b.stats[stat] + a.ranks + a.qualities.reduce((s, q) => s + (b.qualities[q] ?? 0), 0);
        n +=
          mods.bonusDice +
          (mods.direct ? 1 : 0) +
          (continues ? 1 : 0) +
          (flanks ? 1 : 0) +
          (highHolds ? 1 : 0);
        n += assisted;
        // Bond Surge: Boost; "Obscured: Attacks against you made with Setback" (not with Strategize, A28).
        const aNet =
          (mods.surge ? 1 : 0) - (onT && tObscured && holds('obscured', att) && !mods.strategized ? 1 : 0);
        // "Dodge (Agility + defensive Qualities)"; "Cover: +1 die on Dodge vs ranged attacks"; Encourage’s die.
        const cover = onT && tCover && holds('cover', att) && ranged && !mods.strategized;
        const encouraged = (onT ? tEncouraged : 0) + (assist[def] ?? 0); // A26: an Assist die goes to the next roll
        assist[def] = 0;
        if (onT) tEncouraged = 0;
        const d =
          D.stats.agility +
          D.defensive.reduce((s, q) => s + (D.qualities[q] ?? 0), 0) +
          (cover ? 1 : 0) +
          encouraged;
        // "Defend: Boost on all Dodge rolls"; "Cornered: Dodge with Setback"; A3: one of each cancels.
        const dNet = onT ? (tDefending ? 1 : 0) - (tCornered && holds('cornered', att) ? 1 : 0) : 0;
        const aSides = sidesOf(stage[att]);
        const dSides = sidesOf(stage[def]);
        const aFaces = roll(n + (aNet !== 0 ? 1 : 0), aSides);
        const dFaces = roll(d + (dNet !== 0 ? 1 : 0), dSides);
        const aKept = keep(aFaces, aNet);
        const dKept = keep(dFaces, dNet);
        const aS = successes(aKept);
        const dS = successes(dKept);
        const hit = aS > dS;
        const critical = hit && sixes(aKept) >= 3; // A12: a Critical needs a hit
        let comboDamage = 0;
        if (onT) {
          streak = continues ? (hit ? streak + 1 : 0) : hit ? 1 : 0;
          // "If both hit, second attack deals +1 extra damage"; "Third consecutive hit deals +2 extra damage".
          comboDamage = hit && continues ? (streak >= 3 ? 2 : streak === 2 ? 1 : 0) : 0;
          if (comboDamage) seen('combos');
          last = { by: att, turn: heroTurn };
        }
        // "Base Damage by Stage: Brawn + Stage"; a Critical doubles it (A52); extra successes, combo and bonus after.
        const base = b.stats.brawn + stage[att];
        const damage = hit ? (critical ? 2 * base : base) + (aS - dS) + comboDamage + a.bonusDamage : 0;
        const willKo = hit && hp[def] - damage <= 0;
        const bound = def === 't' ? tBound : def === 'a' ? aBound : def === 'ab';
        const devol = willKo && bound && stage[def] >= 1 ? roll(D.stats.endurance, sidesOf(stage[def])) : [];
        const faces = { dice: [...aFaces, ...dFaces], ...(devol.length ? { followUpFaces: devol } : {}) };
        const ctx = JSON.stringify({
          run,
          att,
          def,
          beasts,
          hp,
          stage,
          cmd,
          mods,
          faces,
          high,
          highAgainstT,
          tCover,
          tObscured,
          tCornered,
          flank,
          last,
          streak,
          tDefending,
          encouraged,
          assisted,
          continues,
          aForfeits,
        });
        let got: RuleEvent[];
        try {
          got = exact(e, cmd, faces);
        } catch (err) {
          throw new Error(`engine refused: ${(err as Error).message}\n${ctx}`, { cause: err });
        }
        const ev = (t: string) => got.find((x) => x.type === t)?.data as Record<string, any> | undefined;
        const res = ev('AttackResolved');
        const want = {
          attack: { dice: n, sides: aSides, successes: aS },
          dodge: { dice: d, sides: dSides, successes: dS },
          outcome: hit ? 'hit' : 'miss',
          critical,
          damage,
        };
        const have = res && {
          attack: { dice: res.attack.dice, sides: res.attack.sides, successes: res.attack.successes },
          dodge: { dice: res.dodge.dice, sides: res.dodge.sides, successes: res.dodge.successes },
          outcome: res.outcome,
          critical: res.critical,
          damage: res.damage,
        };
        if (JSON.stringify(have) !== JSON.stringify(want))
          throw new Error(
            `mismatch\nwant ${JSON.stringify(want)}\nhave ${JSON.stringify(have)}\n${ctx}\n${JSON.stringify(got)}`,
          );
        seen('compared');
        if (hit) seen('hits');
        if (critical) seen('crits');
        const dealt = ev('DamageDealt');
        if (hit) {
          const left = Math.max(0, hp[def] - damage);
          expect({ ctx, d: dealt && { hpBefore: dealt.hpBefore, hp: dealt.hp } }).toEqual({
            ctx,
            d: { hpBefore: hp[def], hp: left },
          });
          hp[def] = left;
        } else expect({ ctx, d: dealt }).toEqual({ ctx, d: undefined });
        const ko = ev('KnockedOut');
        expect({ ctx, ko: ko && ko.playerSide }).toEqual({ ctx, ko: willKo ? bound : undefined });
        if (willKo) {
          seen('kos');
          isOut[def] = true;
          // A13: the player side: Critical Gauge +1, one Harm, the Devolution Test on Endurance.
          const g = ev('CriticalGaugeRaised');
          expect({ ctx, g: g && [g.from, g.to] }).toEqual({ ctx, g: bound ? [gauge, gauge + 1] : undefined });
          expect({ ctx, h: !!ev('HarmGained') }).toEqual({ ctx, h: bound });
          const dt = ev('DevolutionTested');
          if (bound && stage[def] >= 1) {
            const s = successes(devol);
            // "From Stage 2+: … Diff 3 pass = Stage 1, fail = Stage 0; From Stage 1: … Diff 2 pass = stay, fail = Stage 0".
            const after = stage[def] >= 2 ? (s >= 3 ? 1 : 0) : s >= 2 ? 1 : 0;
            expect({ ctx, dt: dt && [dt.stageBefore, dt.stageAfter, dt.test.successes] }).toEqual({
              ctx,
              dt: [stage[def], after, s],
            });
            stage[def] = after;
          } else expect({ ctx, dt }).toEqual({ ctx, dt: undefined });
          if (bound) gauge++;
          if (def === 't') last = undefined;
        }
        e = [...e, ...got];
      };
      const melee = (id: string): RuleCommand => ({
        type: 'Attack',
        attackerId: id,
        targetId: 't',
        attackId: 'claw',
      });

      for (let round = 1; round <= 2 && !isOut.t; round++) {
        if (round === 2) {
          const ended = e.some((x, i) => i > e.length - 4 && x.type === 'RoundEnded');
          e = then(ended ? e : then(e, { type: 'EndRound' }), { type: 'StartRound' });
        }
        // t’s turn: Defend ends (“until next turn”); its Binder may Encourage; it Defends, Passes or bites p.
        e = then(e, { type: 'StartActivation', combatantId: 't' });
        tDefending = false;
        if (tBound && r() < 0.4) {
          const test = roll(2, 6);
          e = then(e, { type: 'Encourage', combatantId: 'tb', effect: 'dodgeDie' }, { dice: test });
          if (successes(test) >= 1) tEncouraged++; // Spirit Test, Diff 1
        }
        const preys = ['p', 'a', ...(aBound ? ['ab'] : [])].filter(
          (x) => !isOut[x] && !high[x === 'ab' ? 'a' : x],
        );
        const tAct =
          preys.length === 0 ? pick(['defend', 'pass'] as const) : pick(['defend', 'pass', 'bite'] as const);
        if (tAct !== 'pass') {
          last = undefined; // A10: "Combos reset if the target acts between allied attacks"; A40: Pass is not acting
          streak = 0;
        }
        if (tAct === 'defend') {
          e = then(e, { type: 'Defend', combatantId: 't' });
          tDefending = true;
        }
        if (tAct === 'pass') e = then(e, { type: 'Pass', combatantId: 't' });
        if (tAct === 'bite') {
          const named = pick(preys);
          // "Guard: Redirect attacks on a Close ally to yourself".
          // "If beastbinder is targeted Arcana Beast can intercept (uses next Action)" (A22), answered in advance.
          const intercept = named === 'ab' && !isOut.a && !aForfeits ? r() < 0.5 : undefined;
          const prey = named === 'a' && pGuards && !isOut.p ? 'p' : intercept ? 'a' : named;
          if (intercept) aForfeits = true;
          const bite: RuleCommand = {
            type: 'Attack',
            attackerId: 't',
            targetId: named,
            attackId: 'bite',
            ...(intercept === undefined ? {} : { intercept }),
          };
          resolve('t', prey, T.atk[0], bite, {
            direct: false,
            surge: false,
            bonusDice: 0,
            strategized: false,
          });
        }
        e = then(e, { type: 'EndActivation' });
        for (const id of ['p', 'a', 'q']) {
          if (isOut.t) break;
          if (isOut[id]) continue;
          heroTurn++;
          e = then(e, { type: 'StartActivation', combatantId: id });
          if (id === 'p') pGuards = false;
          const mods = { direct: false, surge: false, bonusDice: 0, strategized: false };
          if (id === 'a' && aBound && !isOut.ab) {
            const kind = pick(['none', 'direct', 'surge', 'strategize'] as const);
            if (kind === 'direct') e = then(e, { type: 'Direct', combatantId: 'ab' });
            if (kind === 'surge' && round === 1) e = then(e, { type: 'BondSurge', combatantId: 'ab' });
            if (kind === 'strategize') {
              const test = roll(2, 6);
              e = then(e, { type: 'Strategize', combatantId: 'ab' }, { dice: test });
              mods.strategized = successes(test) >= 2; // Technique Test, Diff 2
            }
            mods.direct = kind === 'direct';
            mods.surge = kind === 'surge' && round === 1;
          }
          // "Evolving is immediate – does not take an Action"; the highest Stage is free while its trigger is true (A9).
          if (id === 'a' && stage.a < A.max && r() < 0.4) {
            e = then(e, { type: 'SetTrigger', combatantId: 'a', kind: 'stage', stage: A.max, active: true });
            const evolved = exact(e, { type: 'Evolve', combatantId: 'a', stage: A.max });
            // A71: "Evolution does not heal HP unless a Gift says otherwise": the Stage’s Gift, up to maxHp.
            const healed = Math.min(A.maxHp, hp.a + A.gift) - hp.a;
            const restored = evolved.find((x) => x.type === 'HpRestored')?.data as
              Record<string, number> | undefined;
            expect({ run, restored: restored && [restored.hpBefore, restored.hp] }).toEqual({
              run,
              restored: healed > 0 ? [hp.a, hp.a + healed] : undefined,
            });
            hp.a += healed;
            if (healed > 0) seen('heals');
            e = [...e, ...evolved];
            stage.a = A.max;
          }
          const act = id === 'a' && aForfeits ? -1 : r();
          if (act < 0)
            aForfeits = false; // the turn starts with its Action spent
          else if (id !== 'a' && act < 0.2 && !isOut.a) {
            e = then(e, { type: 'Assist', combatantId: id, allyId: 'a' });
            assist.a = (assist.a ?? 0) + 1;
          } else if (id === 'p' && act < 0.3 && !isOut.a) {
            e = then(e, { type: 'Guard', combatantId: 'p', allyId: 'a' });
            pGuards = true;
          } else if (act < 0.35) e = then(e, { type: 'Pass', combatantId: id });
          else if (id === 'a') {
            const zp = A.atk.find((x) => x.zero);
            const a = zp && r() < 0.4 ? zp : pick(A.atk.filter((x) => !x.special || round === 1));
            // "Use Zero Power: Once per scene when trigger is active": the GM marks the trigger, maybe (A9, A24).
            if (a?.zero && !zeroOn && r() < 0.7) {
              e = then(e, { type: 'SetTrigger', combatantId: 'a', kind: 'zeroPower', active: true });
              zeroOn = true;
            }
            if (a === undefined) e = then(e, { type: 'Pass', combatantId: id });
            else if (a.zero && (!zeroOn || zeroUsed)) {
              // Used this scene, or its trigger not active: refused, and nothing is spent.
              const v = refused(e, { type: 'UseZeroPower', attackerId: 'a', targetId: 't' });
              expect({ run, code: v.code }).toEqual({
                run,
                code: zeroUsed ? 'ARCANA_ZERO_POWER_USED' : 'ARCANA_TRIGGER_NOT_ACTIVE',
              });
              seen(zeroUsed ? 'reused' : 'unready');
              e = then(e, { type: 'Pass', combatantId: id });
            } else {
              mods.bonusDice = r() < 0.3 ? int(1, 2) : 0;
              const extra = mods.bonusDice ? { bonusDice: mods.bonusDice } : {};
              if (a.zero) zeroUsed = true;
              if (a.zero) seen('zeros');
              const cmd: RuleCommand = a.zero
                ? { type: 'UseZeroPower', attackerId: 'a', targetId: 't', ...extra }
                : a.special
                  ? {
                      type: 'UseSpecialAttack',
                      attackerId: 'a',
                      targetId: 't',
                      specialAttackId: a.id,
                      ...extra,
                    }
                  : { type: 'Attack', attackerId: 'a', targetId: 't', attackId: a.id, ...extra };
              resolve('a', 't', a, cmd, mods);
            }
          } else resolve(id, 't', beasts[id].atk[0], melee(id), mods);
          e = then(e, { type: 'EndActivation' });
        }
      }
    }
    covered(['combos', 'zeros', 'unready', 'reused', 'heals']);
    expect(count.compared ?? 0).toBeGreaterThan(RUNS);
  });
});
