import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualFaces } from '../../src/dice/manual';
import { fight, Fighter, then } from './helpers';
import { decide, Ev, explore, find, keep, netOf, sidesOf, sixes, successes } from './oracle-kit';

/**
 * The Arcana Beast oracle, third part (oracle.unit.spec.ts has the attack sequence, oracle-2.unit.spec.ts initiative,
 * bands and the Critical Gauge, oracle-4.unit.spec.ts the GM’s order, late joiners, bypass movement and Cornered): the Binder’s Commands, the GM’s tests, Evolution and the end of the encounter, each
 * computed from arcana-beast.txt and the rulings alone (not from the engine’s code) and compared with the engine on
 * random fights of several encounters with manual dice. A bound beast e (random Stats, unlocked Stages with gaps, a
 * Special Attack, a narrative Zero Power) shares its turn with its Binder b (random inventory); an allied beast k
 * Assists e; a wild beast w bites e or b; the GM sometimes starts the turns out of order (A44).
 *  - "Beast Binder Commands": Direct’s die on the Action’s roll (A26); Bond Surge’s Boost on every roll of b and e in
 *    the shared turn and its 1 Stamina, refused at 0 (A11, A26); Encourage’s Spirit Test (Diff 1) and its Dodge die
 *    or removed condition (A26, A55, A75); Strategize’s Technique Test (Diff 2); Call Back’s Devolution Test with
 *    Boost, an Assist die included, landing on an unlocked Stage (A3, A23, A26, A37), into the vessel or not (A23,
 *    A73); Use Item spent pass or fail, its test on b’s Stat, HP and Stamina up to the maxima, a condition removed, a
 *    Knocked Out beast healed but still out (A33, A55), a spent item refused.
 *  - `RollTest` and `RollOpposedTest` (A25, A30): stat + ranks + bonus dice + a waiting Assist die, one net Boost or
 *    Setback (A3, A58), the die by Stage, the Difficulty, the winner or a tie.
 *  - "Evolution in Combat": any higher unlocked Stage in the beast’s own turn, the highest only while the GM marks its
 *    trigger, never while out (A9, A24); "Highest Stage lasts one Combat Encounter or Scene": EndScene reverts it to
 *    the Stage it evolved from, or below the highest for a beast that began there (A41), a Devolution holding (A67).
 *  - EndScene (A24, A42, A45): a running turn and the open round end first; Special Attack uses and the Zero Power
 *    reset, triggers clear, the vessel opens, a Knocked Out beast with HP above 0 is back, Defend and waiting dice end;
 *    HP, Stamina, conditions and items stay (C7, A66).
 *  - "If beastbinder is targeted Arcana Beast can intercept (uses next Action)" (A22, A16, C4): answered on the
 *    attack, or left pending (nothing else goes on) and answered by Intercept with the faces, or voided by the GM’s
 *    CancelPending with w’s Action spent; the beast’s next turn starts with its Action forfeited. A Binder at 0 HP:
 *    a Harm, no Devolution Test, no Command; with its beast out too their turn is gone and the round does not wait
 *    for it (A21, A68).
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261209);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

const STATS = ['brawn', 'agility', 'endurance', 'spirit', 'technique'] as const;
type Stat = (typeof STATS)[number];
type Stats = Record<Stat, number>;

/**
 * "Devolution: From Stage 2+: Endurance Test Diff 3 pass = Stage 1, fail = Stage 0; From Stage 1: Endurance Test
 * Diff 2 pass = stay, fail = Stage 0", landing on an unlocked Stage (A37): the text’s Stage if unlocked, else the
 * highest unlocked below it, else the lowest unlocked.
 */
function landing(from: number, passed: boolean, unlocked: number[]): number {
  const text = from >= 2 ? (passed ? 1 : 0) : passed ? from : 0;
  if (unlocked.includes(text)) return text;
  const below = unlocked.filter((s) => s < text);
  return below.length ? Math.max(...below) : Math.min(...unlocked);
}

interface Item {
  id: string;
  heal: number;
  stamina: number;
  removes: boolean;
  test?: { stat: Stat; difficulty: number };
  quantity: number;
}

describe('arcana-beast oracle (3): Binder Commands, tests, Evolution and the end of the encounter from the text against the engine', () => {
  it('given random Commands, tests, Evolves, Knockouts and EndScenes, when each resolves, then what is allowed, the pools, the Stages, HP, Stamina, items and resets match the text', () => {
    const { r, int, pick, roll, seen, covered } = explore(SEED);
    const stats = (lo = 0): Stats => ({
      brawn: int(lo, 4),
      agility: int(0, 3),
      endurance: int(0, 4),
      spirit: int(0, 3),
      technique: int(0, 3),
    });

    for (let run = 0; run < RUNS; run++) {
      // e: unlocked Stages with gaps (the highest has the trigger), starting on any of them.
      const unlocked = [0, 1, 2, 3, 4].filter(() => r() < 0.55);
      if (unlocked.length === 0) unlocked.push(int(0, 4));
      const highest = Math.max(...unlocked);
      const E = {
        stats: stats(),
        nimble: r() < 0.5 ? int(1, 2) : 0,
        maxHp: int(4, 18),
        maxStamina: int(0, 3),
        spRanks: int(0, 2),
        spUses: int(1, 2),
      };
      const B = { stats: stats(), maxHp: int(6, 12), maxStamina: int(1, 4) };
      const W = { stats: stats(3) };
      const K = { stats: stats() };
      const items: Item[] = Array.from({ length: int(1, 3) }, (_, i) => {
        const kind = pick(['heal', 'stamina', 'removes', 'mixed'] as const);
        return {
          id: `item${i}`,
          heal: kind === 'heal' || kind === 'mixed' ? int(1, 8) : 0,
          stamina: kind === 'stamina' || kind === 'mixed' ? int(1, 3) : 0,
          removes: kind === 'removes' || (kind === 'mixed' && r() < 0.5),
          test: r() < 0.5 ? { stat: pick(STATS), difficulty: int(1, 2) } : undefined,
          quantity: int(0, 2),
        };
      });
      /** What e starts an encounter with, and EndScene gives back (A24, A42, A45). */
      const fresh = () => ({
        vessel: false,
        defending: false,
        spLeft: E.spUses,
        zpUsed: false,
        zpTrigger: false,
        stageTrigger: false,
        assist: 0, // waiting Assist dice: the next roll of any kind (A26, A75)
        encourage: 0, // waiting Encourage dice: the next Dodge (A26, A75)
        owes: false, // an Intercept costs its next Action (A22)
      });
      const s = {
        e: {
          stage: pick(unlocked),
          hp: int(1, E.maxHp),
          stamina: int(0, E.maxStamina),
          ko: false,
          revertTo: undefined as number | undefined,
          ...fresh(),
        },
        b: { hp: int(1, B.maxHp), stamina: int(0, B.maxStamina), ko: false },
        conditions: { e: new Set<string>(), b: new Set<string>() } as Record<string, Set<string>>,
        quantity: Object.fromEntries(items.map((x) => [x.id, x.quantity])) as Record<string, number>,
      };
      // A41: a beast that begins at its highest Stage reverts to the highest unlocked Stage below it.
      const below = unlocked.filter((x) => x < highest);
      if (s.e.stage === highest && below.length) s.e.revertTo = Math.max(...below);

      const fighters: Fighter[] = [
        {
          id: 'e',
          side: 'heroes',
          sheet: {
            kind: 'beast',
            stats: E.stats,
            qualities: E.nimble ? { Nimble: E.nimble } : {},
            defensiveQualities: E.nimble ? ['Nimble'] : [],
            hp: s.e.hp,
            maxHp: E.maxHp,
            stamina: s.e.stamina,
            maxStamina: E.maxStamina,
            stage: s.e.stage,
            stages: unlocked.map((x) => ({ stage: x, ...(x === highest ? { trigger: 'rage' } : {}) })),
            attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
            specialAttacks: [{ id: 'sp', name: 'Sp', range: 'melee', ranks: E.spRanks, uses: E.spUses }],
            zeroPower: { name: 'Zero', trigger: 'hope' },
          },
        },
        {
          id: 'b',
          side: 'heroes',
          sheet: {
            kind: 'binder',
            beastId: 'e',
            stats: B.stats,
            hp: s.b.hp,
            maxHp: B.maxHp,
            stamina: s.b.stamina,
            maxStamina: B.maxStamina,
            inventory: items.map((x) => ({
              id: x.id,
              name: x.id,
              quantity: x.quantity,
              ...(x.heal ? { heal: x.heal } : {}),
              ...(x.stamina ? { stamina: x.stamina } : {}),
              ...(x.removes ? { removesCondition: true } : {}),
              ...(x.test ? { test: x.test } : {}),
            })),
          },
        },
        {
          id: 'k',
          side: 'heroes',
          sheet: { kind: 'beast', stats: K.stats, hp: 50, stamina: 1, stage: 1, stages: [{ stage: 1 }] },
        },
        {
          id: 'w',
          side: 'wild',
          sheet: {
            kind: 'beast',
            stats: W.stats,
            hp: 400,
            stamina: 1,
            stage: 1,
            stages: [{ stage: 1 }],
            attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
          },
        },
      ];
      let e = fight(fighters);
      for (const [a, b] of [
        ['e', 'k'],
        ['e', 'w'],
      ])
        e = then(e, { type: 'SetBand', aId: a, bId: b, band: 'close' });

      // The turn running: whose, and what its Command gave (A26) and whether the beast has taken its Action.
      const turn = { of: '', surge: false, direct: false, acted: false, open: true };
      const inFight = () => !s.e.ko && !s.e.vessel;
      /** A21: e’s turn is taken by e in the fight, or by its Binder alone while e is out; w’s and k’s always. */
      const able = (id: string) => id !== 'e' || inFight() || !s.b.ko;
      const dieOf = (id: string) => (id === 'e' ? sidesOf(s.e.stage) : 6);
      const statsOf = (id: string): Stats =>
        ({ e: E.stats, b: B.stats, k: K.stats, w: W.stats })[id as 'e' | 'b' | 'k' | 'w'];
      const ctx = (extra: object = {}) =>
        JSON.stringify(
          { run, unlocked, E, B, W, K, items, s, turn, conditions: s.conditions, ...extra },
          (_, v) => (v instanceof Set ? [...v] : v),
        );
      const step = (cmd: RuleCommand, faces: ManualFaces = {}) => {
        const got = decide(e, cmd, faces);
        if (got instanceof RuleViolation)
          throw new Error(`engine refused ${JSON.stringify(cmd)}: ${got.message}\n${ctx({ faces })}`);
        e = [...e, ...got];
        return got;
      };
      const refusal = (cmd: RuleCommand, code?: string, faces: ManualFaces = {}) => {
        const got = decide(e, cmd, faces);
        const have = got instanceof RuleViolation ? (code === undefined ? 'refused' : got.code) : 'allowed';
        expect({ ctx: ctx({ cmd }), have }).toEqual({ ctx: ctx({ cmd }), have: code ?? 'refused' });
      };
      const refuse = (tag: string, cmd: RuleCommand, code?: string) => {
        refusal(cmd, code);
        seen(tag);
      };
      /** Bond Surge: "Boost on ALL rolls this turn": every roll of the Binder and its beast in the shared turn. */
      const surged = (id: string) => turn.surge && turn.of === 'e' && (id === 'e' || id === 'b');
      /** A pool as the text builds it, its faces and what it keeps; an Assist die waiting on e goes to its roll. */
      const pool = (id: string, n: number, boost: boolean, setback: boolean) => {
        const assisted = id === 'e' ? s.e.assist : 0;
        if (id === 'e') s.e.assist = 0;
        const net = netOf(boost || surged(id), setback);
        const dice = n + assisted;
        const faces = roll(dice + (net ? 1 : 0), dieOf(id));
        const kept = keep(faces, net);
        return { dice, faces, sides: dieOf(id), net, successes: successes(kept), sixes: sixes(kept) };
      };
      const edge = (net: number) => (net > 0 ? 'boost' : net < 0 ? 'setback' : 'none');
      const expectPool = (have: Ev | undefined, want: ReturnType<typeof pool>, what: string) =>
        expect({
          ctx: ctx({ what, want }),
          p: have && [have.dice, have.sides, have.edge, have.successes],
        }).toEqual({ ctx: ctx({ what, want }), p: [want.dice, want.sides, edge(want.net), want.successes] });

      /** The GM’s RollTest or RollOpposedTest on whoever can roll (A25, A30). */
      const gmRoll = () => {
        const who = [...(s.b.ko ? [] : ['b']), 'k', 'w', ...(inFight() ? ['e'] : [])];
        const opt = () => ({
          stat: pick(STATS),
          ranks: r() < 0.3 ? int(1, 2) : 0,
          bonusDice: r() < 0.3 ? int(1, 2) : 0,
          boost: r() < 0.25,
          setback: r() < 0.25,
        });
        if (r() < 0.5) {
          const id = pick(who);
          const o = opt();
          const difficulty = int(1, 3);
          const p = pool(id, statsOf(id)[o.stat] + o.ranks + o.bonusDice, o.boost, o.setback);
          const got = step(
            {
              type: 'RollTest',
              combatantId: id,
              stat: o.stat,
              difficulty,
              ...(o.ranks ? { ranks: o.ranks } : {}),
              ...(o.bonusDice ? { bonusDice: o.bonusDice } : {}),
              ...(o.boost ? { boost: true } : {}),
              ...(o.setback ? { setback: true } : {}),
            },
            { dice: p.faces },
          );
          const t = find(got, 'TestRolled')?.test;
          expectPool(t, p, 'RollTest');
          expect({ ctx: ctx({ p }), passed: t?.passed }).toEqual({
            ctx: ctx({ p }),
            passed: p.successes >= difficulty, // A1: Difficulty N passes with N or more successes
          });
          seen('test');
        } else {
          const a = pick(who);
          const b = pick(who.filter((x) => x !== a));
          const oa = opt();
          const ob = opt();
          const bStat = r() < 0.5 ? ob.stat : oa.stat; // bStat absent: b rolls a’s Stat
          const pa = pool(a, statsOf(a)[oa.stat] + oa.ranks + oa.bonusDice, oa.boost, oa.setback);
          const pb = pool(b, statsOf(b)[bStat] + ob.ranks + ob.bonusDice, ob.boost, ob.setback);
          const got = step(
            {
              type: 'RollOpposedTest',
              aId: a,
              aStat: oa.stat,
              bId: b,
              ...(bStat !== oa.stat || r() < 0.5 ? { bStat } : {}),
              ...(oa.ranks ? { aRanks: oa.ranks } : {}),
              ...(oa.bonusDice ? { aBonusDice: oa.bonusDice } : {}),
              ...(oa.boost ? { aBoost: true } : {}),
              ...(oa.setback ? { aSetback: true } : {}),
              ...(ob.ranks ? { bRanks: ob.ranks } : {}),
              ...(ob.bonusDice ? { bBonusDice: ob.bonusDice } : {}),
              ...(ob.boost ? { bBoost: true } : {}),
              ...(ob.setback ? { bSetback: true } : {}),
            },
            { dice: [...pa.faces, ...pb.faces] },
          );
          const o = find(got, 'OpposedTestRolled');
          expectPool(o?.a, pa, 'opposed a');
          expectPool(o?.b, pb, 'opposed b');
          // A25: more successes wins; an equal result is a tie the GM settles.
          const winner = pa.successes > pb.successes ? a : pb.successes > pa.successes ? b : null;
          expect({ ctx: ctx({ pa, pb }), w: o?.winnerId }).toEqual({ ctx: ctx({ pa, pb }), w: winner });
          seen('opposed');
        }
        if (turn.surge && turn.of === 'e') seen('surgedRoll');
      };

      /** A Binder’s Test (Encourage, Strategize, an item’s): its Stat on d6, the Difficulty (A1, A4). */
      const binderTest = (stat: Stat, difficulty: number) => {
        const p = pool('b', B.stats[stat], false, false);
        return { ...p, difficulty, passed: p.successes >= difficulty };
      };
      const expectTest = (have: Ev | undefined, want: ReturnType<typeof binderTest>, what: string) => {
        expectPool(have, want, what);
        expect({ ctx: ctx({ what }), passed: have?.passed }).toEqual({
          ctx: ctx({ what }),
          passed: want.passed,
        });
      };

      /** A Devolution Test (A13, A23): Endurance on the current Stage’s die, Boost for Call Back, then A37. */
      const devolution = (boost: boolean) => {
        const p = pool('e', E.stats.endurance, boost, false);
        const difficulty = s.e.stage >= 2 ? 3 : 2;
        const after = landing(s.e.stage, p.successes >= difficulty, unlocked);
        return { p, difficulty, after };
      };
      const expectDevolution = (got: RuleEvent[], d: ReturnType<typeof devolution>, reason: string) => {
        const dt = find(got, 'DevolutionTested');
        expectPool(dt?.test, d.p, `devolution ${reason}`);
        expect({
          ctx: ctx({ d }),
          dt: dt && [dt.stageBefore, dt.stageAfter, dt.reason, dt.test.difficulty],
        }).toEqual({ ctx: ctx({ d }), dt: [s.e.stage, d.after, reason, d.difficulty] });
        const dv = find(got, 'StageDevolved');
        expect({ ctx: ctx({ d }), dv: dv && [dv.from, dv.to] }).toEqual({
          ctx: ctx({ d }),
          dv: d.after < s.e.stage ? [s.e.stage, d.after] : undefined,
        });
        s.e.stage = d.after;
      };

      /** Use Item (A33): spent pass or fail; a pass restores HP and Stamina up to the maxima, removes a condition. */
      const useItem = (to?: 'e') => {
        const target = to ?? pick(['e', 'b'] as const);
        const it = pick(items);
        const cond = it.removes ? [...s.conditions[target]][0] : undefined;
        if (it.removes && cond === undefined) return;
        const cmd: RuleCommand = {
          type: 'UseItem',
          combatantId: 'b',
          itemId: it.id,
          ...(target === 'b' || r() < 0.5 ? { targetId: target } : {}),
          ...(cond ? { condition: cond } : {}),
        };
        // A33: a used-up item is refused; A23: nothing reaches a beast in its vessel.
        const reasons = [
          ...(s.quantity[it.id] === 0 ? ['ARCANA_ITEM_SPENT'] : []),
          ...(target === 'e' && s.e.vessel ? ['ARCANA_COMBATANT_OUT'] : []),
        ];
        if (reasons.length)
          return refuse(
            reasons.length === 1 ? reasons[0] : 'itemRefused',
            cmd,
            reasons.length === 1 ? reasons[0] : undefined,
          );
        const test = it.test && binderTest(it.test.stat, it.test.difficulty);
        const got = step(cmd, test ? { dice: test.faces } : {});
        if (test) expectTest(find(got, 'BinderCommanded')?.test, test, 'item test');
        const used = find(got, 'ItemUsed');
        s.quantity[it.id]--;
        expect({ ctx: ctx(), used: used && [used.itemId, used.targetId, used.quantityLeft] }).toEqual({
          ctx: ctx(),
          used: [it.id, target, s.quantity[it.id]],
        });
        const works = !test || test.passed;
        const max = target === 'e' ? { hp: E.maxHp, st: E.maxStamina } : { hp: B.maxHp, st: B.maxStamina };
        const heal = works ? Math.min(it.heal, max.hp - s[target].hp) : 0;
        const st = works ? Math.min(it.stamina, max.st - s[target].stamina) : 0;
        const hr = find(got, 'HpRestored');
        const sr = find(got, 'StaminaRestored');
        const cr = find(got, 'ConditionRemoved');
        expect({
          ctx: ctx({ test }),
          hr: hr && [hr.hpBefore, hr.hp],
          sr: sr?.stamina,
          cr: cr?.condition,
        }).toEqual({
          ctx: ctx({ test }),
          hr: heal > 0 ? [s[target].hp, s[target].hp + heal] : undefined,
          sr: st > 0 ? s[target].stamina + st : undefined,
          cr: works && cond ? cond : undefined,
        });
        s[target].hp += heal;
        s[target].stamina += st;
        if (works && cond) s.conditions[target].delete(cond);
        seen(works ? 'itemWorked' : 'itemFailed');
        if (target === 'e' && s.e.ko && heal > 0) seen('healedWhileOut');
      };

      /** Call Back (A23, A73): retreat or devolve; a beast at Stage 1+ not Knocked Out tests with Boost. */
      const callBack = () => {
        const mode = s.e.ko || r() < 0.5 ? 'retreat' : 'devolve';
        const cmd: RuleCommand = { type: 'CallBack', combatantId: 'b', mode };
        if (s.e.vessel) return refuse('callBackVessel', cmd, 'ARCANA_COMBATANT_OUT');
        if (mode === 'devolve' && s.e.stage === 0)
          return refuse('devolveStage0', cmd, 'ARCANA_NOTHING_TO_DEVOLVE');
        const tests = s.e.stage >= 1 && !s.e.ko;
        const d = tests ? devolution(true) : undefined;
        const got = step(cmd, d ? { followUpFaces: d.p.faces } : {});
        if (d) expectDevolution(got, d, 'callBack');
        else expect({ ctx: ctx(), dt: find(got, 'DevolutionTested') }).toEqual({ ctx: ctx(), dt: undefined });
        if (mode === 'retreat') s.e.vessel = true;
        seen(`callBack ${mode}${d ? ' tested' : ''}`);
      };

      /** Evolve (A9, A24): any higher unlocked Stage, the highest only with its trigger, never while out. */
      const evolve = () => {
        const want = r() < 0.3 ? undefined : int(0, 4);
        const to = want ?? highest;
        const cmd: RuleCommand = {
          type: 'Evolve',
          combatantId: 'e',
          ...(want === undefined ? {} : { stage: want }),
        };
        const reasons = [
          ...(!unlocked.includes(to) ? ['ARCANA_STAGE_LOCKED'] : []),
          ...(to <= s.e.stage ? ['ARCANA_NOT_HIGHER_STAGE'] : []),
          ...(to === highest && !s.e.stageTrigger ? ['ARCANA_TRIGGER_NOT_ACTIVE'] : []),
        ];
        if (!inFight()) return refuse('evolveOut', cmd);
        if (reasons.length)
          return refuse('evolveRefused', cmd, reasons.length === 1 ? reasons[0] : undefined);
        const got = step(cmd);
        const ev = find(got, 'StageEvolved');
        expect({
          ctx: ctx({ to }),
          ev: ev && [ev.from, ev.to, ev.highest],
          heal: find(got, 'HpRestored'),
        }).toEqual({
          ctx: ctx({ to }),
          ev: [s.e.stage, to, to === highest],
          heal: undefined, // "Evolution does not heal HP unless a Gift says otherwise": no Gift here
        });
        if (to === highest) s.e.revertTo = s.e.stage; // A24: reverts to the Stage it evolved from
        s.e.stage = to;
        seen(to === highest ? 'evolveHighest' : 'evolveLower');
      };

      /** The Binder’s Command in e’s turn (A15, A26): one at most. */
      const command = () => {
        // A21, A74: a Binder at 0 HP gives no Command.
        if (s.b.ko) return refuse('binderOutCommand', { type: 'Direct', combatantId: 'b' });
        if (!inFight()) {
          // A21: Commands only. A55: Encourage’s Dodge die on a Knocked Out beast is refused; A23: nothing reaches
          // a beast in its vessel; A73: Call Back retreats a Knocked Out beast not yet in its vessel.
          const k = pick(['item', 'item', 'encourage', 'callBack', 'none'] as const);
          if (k === 'item') useItem(s.e.ko && !s.e.vessel && r() < 0.7 ? 'e' : undefined);
          if (k === 'callBack') callBack();
          if (k === 'encourage') {
            const cond = [...s.conditions.e][0];
            const dodge = s.e.vessel || cond === undefined || r() < 0.5;
            const cmd: RuleCommand = dodge
              ? { type: 'Encourage', combatantId: 'b', effect: 'dodgeDie' }
              : { type: 'Encourage', combatantId: 'b', effect: 'removeCondition', condition: cond };
            if (dodge || s.e.vessel) return refuse('encourageOut', cmd, 'ARCANA_COMBATANT_OUT');
            const t = binderTest('spirit', 1);
            const got = step(cmd, { dice: t.faces });
            expectTest(find(got, 'BinderCommanded')?.test, t, 'encourage condition (out)');
            expect({ ctx: ctx(), cr: find(got, 'ConditionRemoved')?.condition }).toEqual({
              ctx: ctx(),
              cr: t.passed ? cond : undefined,
            });
            if (t.passed) s.conditions.e.delete(cond);
            seen('encourageKnockedOut');
          }
          return;
        }
        const k = pick([
          'direct',
          'surge',
          'surge',
          'encourage',
          'strategize',
          'callBack',
          'item',
          'item',
        ] as const);
        if (k === 'direct') {
          step({ type: 'Direct', combatantId: 'b' });
          turn.direct = true;
        }
        if (k === 'surge') {
          const cmd: RuleCommand = { type: 'BondSurge', combatantId: 'b' };
          // A11: "Bond Surge … costs 1 Stamina" of the beast, which never goes below 0.
          if (s.e.stamina === 0) return refuse('surgeRefused', cmd, 'ARCANA_NO_STAMINA');
          const got = step(cmd);
          s.e.stamina--;
          const sp = find(got, 'StaminaSpent');
          expect({ ctx: ctx(), sp: sp && [sp.combatantId, sp.amount, sp.stamina] }).toEqual({
            ctx: ctx(),
            sp: ['e', 1, s.e.stamina],
          });
          turn.surge = true;
          seen('surge');
        }
        if (k === 'encourage') {
          const cond = [...s.conditions.e][0];
          const dodge = cond === undefined || r() < 0.5;
          const t = binderTest('spirit', 1);
          const got = step(
            dodge
              ? { type: 'Encourage', combatantId: 'b', effect: 'dodgeDie' }
              : { type: 'Encourage', combatantId: 'b', effect: 'removeCondition', condition: cond },
            { dice: t.faces },
          );
          expectTest(find(got, 'BinderCommanded')?.test, t, 'encourage');
          if (t.passed && dodge) s.e.encourage++;
          expect({ ctx: ctx(), cr: find(got, 'ConditionRemoved')?.condition }).toEqual({
            ctx: ctx(),
            cr: t.passed && !dodge ? cond : undefined,
          });
          if (t.passed && !dodge) s.conditions.e.delete(cond);
        }
        if (k === 'strategize') {
          const t = binderTest('technique', 2);
          expectTest(
            find(step({ type: 'Strategize', combatantId: 'b' }, { dice: t.faces }), 'BinderCommanded')?.test,
            t,
            'strategize',
          );
        }
        if (k === 'callBack') callBack();
        if (k === 'item') useItem();
      };

      /** e’s Action (A15): Pass, Defend, its Special Attack on w, its narrative Zero Power. */
      const action = () => {
        const k = pick(['pass', 'defend', 'special', 'special', 'zero', 'zero'] as const);
        turn.acted = true;
        if (k === 'pass') step({ type: 'Pass', combatantId: 'e' });
        if (k === 'defend') {
          step({ type: 'Defend', combatantId: 'e' });
          s.e.defending = true;
        }
        if (k === 'special') {
          const cmd: RuleCommand = {
            type: 'UseSpecialAttack',
            attackerId: 'e',
            targetId: 'w',
            specialAttackId: 'sp',
          };
          // "Use Special Attack: Costs a Special Attack Use"; uses reset per scene (C7).
          if (s.e.spLeft === 0) {
            turn.acted = false;
            return refuse('spRefused', cmd, 'ARCANA_NO_USES_LEFT');
          }
          // A6: melee, Brawn + ranks; Direct +1 die (A26); Bond Surge Boost. w dodges Agility on d6, no Boost.
          const a = pool('e', E.stats.brawn + E.spRanks + (turn.direct ? 1 : 0), false, false);
          const faces = roll(W.stats.agility, 6);
          const got = step(cmd, { dice: [...a.faces, ...faces] });
          s.e.spLeft--;
          const res = find(got, 'AttackResolved');
          expectPool(res?.attack, a, 'special attack');
          expect({
            ctx: ctx(),
            out: res?.outcome,
            left: find(got, 'SpecialAttackUsed')?.usesLeft,
          }).toEqual({ ctx: ctx(), out: a.successes > successes(faces) ? 'hit' : 'miss', left: s.e.spLeft });
          seen('special');
        }
        if (k === 'zero') {
          if (!s.e.zpTrigger && r() < 0.6) {
            step({ type: 'SetTrigger', combatantId: 'e', kind: 'zeroPower', active: true });
            s.e.zpTrigger = true;
          }
          const cmd: RuleCommand = { type: 'UseZeroPower', attackerId: 'e' };
          // "Use Zero Power: Once per scene when trigger is active" (A24: the use resets and the trigger clears).
          if (s.e.zpUsed) {
            turn.acted = false;
            return refuse('zeroUsed', cmd, 'ARCANA_ZERO_POWER_USED');
          }
          if (!s.e.zpTrigger) {
            turn.acted = false;
            return refuse('zeroUnready', cmd, 'ARCANA_TRIGGER_NOT_ACTIVE');
          }
          step(cmd);
          s.e.zpUsed = true;
          seen('zero');
        }
      };

      /**
       * w bites e or b: Brawn on d6 against the Dodge of the one it reaches: e’s Agility + Nimble + waiting dice with
       * Defend’s Boost (A6, A26), or b’s Agility on d6 (A4: a Binder has no defensive Qualities here).
       */
      const resolveBite = (target: 'e' | 'b', cmd: RuleCommand) => {
        const a = pool('w', W.stats.brawn, false, false);
        const enc = target === 'e' ? s.e.encourage : 0;
        if (target === 'e') s.e.encourage = 0;
        const d =
          target === 'e'
            ? pool('e', E.stats.agility + E.nimble + enc, s.e.defending, false)
            : pool('b', B.stats.agility, false, false);
        const hit = a.successes > d.successes;
        const crit = hit && a.sixes >= 3;
        // "Base Damage by Stage: Brawn + Stage"; a Critical doubles it; + extra successes.
        const damage = hit ? (crit ? 2 : 1) * (W.stats.brawn + 1) + a.successes - d.successes : 0;
        const ko = hit && damage >= s[target].hp;
        // A13: a player-side beast at Stage 1+ makes the Devolution Test (no Boost; its Dodge spent the Assist die);
        // A21: a Binder at 0 HP makes none.
        const dv = target === 'e' && ko && s.e.stage >= 1 ? devolution(false) : undefined;
        const got = step(cmd, {
          dice: [...a.faces, ...d.faces],
          ...(dv ? { followUpFaces: dv.p.faces } : {}),
        });
        const res = find(got, 'AttackResolved');
        expectPool(res?.dodge, d, 'dodge');
        expect({
          ctx: ctx(),
          res: res && [res.targetId, res.outcome, res.damage],
          ko: !!find(got, 'KnockedOut'),
          harm: !!find(got, 'HarmGained'),
        }).toEqual({ ctx: ctx(), res: [target, hit ? 'hit' : 'miss', damage], ko, harm: ko });
        s[target].hp = Math.max(0, s[target].hp - damage);
        if (dv) expectDevolution(got, dv, 'knockedOut');
        else expect({ ctx: ctx(), dt: find(got, 'DevolutionTested') }).toEqual({ ctx: ctx(), dt: undefined });
        if (ko) s[target].ko = true;
        seen(ko ? `knockout ${target}` : `bite ${target}`);
      };
      /**
       * "If beastbinder is targeted Arcana Beast can intercept (uses next Action)" (A22): a beast in the fight that owes
       * no Intercept is asked, in advance on the attack or by a pending decision its Intercept answers (the faces come
       * with the answer, A16); the GM’s CancelPending voids the attack and w’s Action stays spent.
       */
      const bite = () => {
        const onE: RuleCommand = { type: 'Attack', attackerId: 'w', targetId: 'e', attackId: 'bite' };
        if (s.b.ko || r() < 0.6) return inFight() ? resolveBite('e', onE) : refuse('biteOut', onE);
        const onB: RuleCommand = { ...onE, targetId: 'b' };
        if (!inFight() || s.e.owes) return resolveBite('b', onB);
        const how = pick(['yes', 'no', 'pending', 'pending'] as const);
        if (how !== 'pending') {
          s.e.owes = how === 'yes';
          seen(`intercept ${how}`);
          return resolveBite(how === 'yes' ? 'e' : 'b', { ...onB, intercept: how === 'yes' });
        }
        const got = step(onB);
        expect({ ctx: ctx(), resolved: !!find(got, 'AttackResolved') }).toEqual({
          ctx: ctx(),
          resolved: false,
        });
        refusal({ type: 'EndActivation' }, 'PENDING_DECISION'); // C4: one pending decision at a time
        const answer = pick(['yes', 'no', 'cancel'] as const);
        seen(`pending ${answer}`);
        if (answer === 'cancel') {
          step({ type: 'CancelPending' });
          return refuse('cancelled', { type: 'Pass', combatantId: 'w' });
        }
        s.e.owes = answer === 'yes';
        resolveBite(answer === 'yes' ? 'e' : 'b', {
          type: 'Intercept',
          combatantId: 'e',
          intercept: answer === 'yes',
        });
      };

      /** EndScene (A24, A42, A45): the running turn and open round end, then the encounter’s resets. */
      const endScene = () => {
        const got = step({ type: 'EndScene' });
        const types = got.map((x) => x.type);
        const dv = find(got, 'StageDevolved');
        const revert = s.e.stage === highest && s.e.revertTo !== undefined ? s.e.revertTo : undefined;
        const revived = s.e.ko && s.e.hp > 0 ? ['e'] : [];
        expect({
          ctx: ctx(),
          ended: types.includes('ActivationEnded'),
          round: types.includes('RoundEnded'),
          dv: dv && [dv.from, dv.to, dv.reason],
          revived: find(got, 'SceneEnded')?.revived,
        }).toEqual({
          ctx: ctx(),
          ended: turn.of !== '',
          round: turn.open,
          dv: revert === undefined ? undefined : [s.e.stage, revert, 'encounterEnded'],
          revived,
        });
        if (revert !== undefined) s.e.stage = revert;
        if (revived.length) s.e.ko = false;
        Object.assign(s.e, fresh());
        Object.assign(turn, { of: '', surge: false, direct: false, open: false });
        if (revert !== undefined) seen('reverted');
        if (revived.length) seen('revived');
      };

      const encounters = int(1, 3);
      let ended = false;
      for (let enc = 0; enc < encounters; enc++) {
        const rounds = int(1, 3);
        const sceneAt = enc < encounters - 1 || r() < 0.7 ? int(0, 3) : -1; // 0–2: in a turn; 3: after the round
        for (let round = 0; round < rounds && !ended; round++) {
          if (enc + round > 0) {
            step({ type: 'StartRound' });
            turn.open = true;
          }
          const last = round === rounds - 1;
          // A44: the GM may start the turns out of the order (C3); "Defend … until next turn" then spans w’s bite.
          const order = r() < 0.3 ? [...['e', 'k', 'w']].sort(() => r() - 0.5) : ['e', 'k', 'w'];
          for (const [i, id] of order.entries()) {
            if (ended) break;
            // A21, A68: with its Binder out too, a beast out of the fight gets no turn.
            if (!able(id)) {
              refuse('noTurn', { type: 'StartActivation', combatantId: id });
              continue;
            }
            const started = find(step({ type: 'StartActivation', combatantId: id }), 'TurnStarted');
            Object.assign(turn, { of: id, surge: false, direct: false, acted: false });
            if (id === 'e') {
              // A22: the turn after an Intercept starts with its Action spent (a Commands-only turn too, A21, if the
              // bite knocked it out); its Binder still commands.
              const forfeits = s.e.owes;
              s.e.owes = false;
              expect({ ctx: ctx(), f: started?.actionForfeited }).toEqual({
                ctx: ctx(),
                f: forfeits ? 'intercept' : undefined,
              });
              s.e.defending = false; // "Defend: Boost on all Dodge rolls until next turn"
              if (r() < 0.25) evolve();
              if (r() < 0.8) command();
              if (r() < 0.3) gmRoll();
              if (r() < 0.35) {
                if (!s.e.stageTrigger && r() < 0.6) {
                  step({ type: 'SetTrigger', combatantId: 'e', kind: 'stage', stage: highest, active: true });
                  s.e.stageTrigger = true;
                }
                evolve();
              }
              if (inFight() && forfeits) refuse('forfeited', { type: 'Pass', combatantId: 'e' });
              else if (inFight() && r() < 0.85) action();
              if (r() < 0.3) gmRoll();
            }
            if (id === 'k') {
              if (inFight() && r() < 0.5) {
                step({ type: 'Assist', combatantId: 'k', allyId: 'e' });
                s.e.assist++; // A75: Assist dice stack on the next roll
              } else step({ type: 'Pass', combatantId: 'k' });
              if (r() < 0.3) gmRoll();
            }
            if (id === 'w') {
              const who = pick(['e', 'b'] as const);
              const cond = pick(['burned', 'dazed']);
              if (!(who === 'e' && s.e.vessel) && !s.conditions[who].has(cond) && r() < 0.4) {
                step({ type: 'ApplyCondition', combatantId: who, condition: cond });
                s.conditions[who].add(cond);
              }
              if (r() < 0.75) bite();
              else step({ type: 'Pass', combatantId: 'w' });
            }
            if (last && sceneAt === i) {
              endScene();
              ended = true;
              break;
            }
            const got = step({ type: 'EndActivation' });
            Object.assign(turn, { of: '', surge: false, direct: false });
            // A68: the last turn of the round ends it, a turn no one is left to take (A21) not waited for.
            const roundOver = !order.slice(i + 1).some(able);
            expect({ ctx: ctx(), ended: got.some((x) => x.type === 'RoundEnded') }).toEqual({
              ctx: ctx(),
              ended: roundOver,
            });
            if (roundOver) {
              turn.open = false;
              break;
            }
          }
          if (last && sceneAt === 3 && !ended) {
            endScene();
            ended = true;
          }
        }
        ended = false;
      }
    }
    covered([
      'test',
      'opposed',
      'surgedRoll',
      'surge',
      'surgeRefused',
      'itemWorked',
      'itemFailed',
      'ARCANA_ITEM_SPENT',
      'healedWhileOut',
      'callBack retreat tested',
      'callBack devolve tested',
      'callBackVessel',
      'evolveHighest',
      'evolveLower',
      'evolveRefused',
      'special',
      'spRefused',
      'zero',
      'zeroUsed',
      'knockout e',
      'knockout b',
      'intercept yes',
      'intercept no',
      'pending yes',
      'pending no',
      'pending cancel',
      'forfeited',
      'noTurn',
      'reverted',
      'revived',
      'encourageOut',
    ]);
  });
});
