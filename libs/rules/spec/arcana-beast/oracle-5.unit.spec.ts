import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { arcanaBeast } from '../../src/arcana-beast';
import { findSystem } from '../../src/registry';
import { fightStarted } from '../given';
import { exact, fight, Fighter, joined, stateOf, then } from './helpers';
import {
  beamer,
  binderSheet,
  decide,
  Ev,
  explore,
  find,
  initiative,
  keep,
  passRound,
  sidesOf,
  sixes,
  sortIds,
  stats,
  successes,
  TIERS,
} from './oracle-kit';

/**
 * The Arcana Beast oracle, fifth part (oracle.unit.spec.ts has the attack sequence, oracle-2.unit.spec.ts the first
 * initiative roll, bands and the Critical Gauge, oracle-3.unit.spec.ts the Binder’s Commands, tests, Evolution and the
 * end of the encounter, oracle-4.unit.spec.ts the GM’s order and late joiners): surprise and ties met by late joiners,
 * the Devolution of Knocked Out beasts in a fight that fills the Critical Gauge, and a Binder Knocked Out in its own
 * shared turn, each computed from arcana-beast.txt and the rulings alone (not from the engine’s code) and compared
 * with the engine on random fights with manual dice.
 *  - "Surprised characters roll with Setback" and "Ties: GM decides or calls for another roll": a surprised beast, or
 *    the beast of a surprised Binder, rolls with Setback and rerolls a tie with it, a late joiner’s tie included (A29,
 *    A31, A3); `AddCombatant` names no one surprised, so a late joiner rolls its plain pool (A32). While a tie waits
 *    for the GM nothing else changes the fight: a joiner is refused with PENDING_DECISION (C4), and joins once the GM
 *    has given the order or the reroll has settled it. A joiner is slotted by the successes of the first roll, a tie
 *    reroll only ordering the tied among themselves (A32, A77).
 *  - "Knockout & Devolution" with "Critical Gauge thresholds": a wild beast’s attacks on the heroes’ beasts (Stages 0
 *    to 4, gaps in the unlocked Stages) and Binders; a hurt combatant makes no test; at 0 HP the Gauge +1 and a Harm
 *    for each (A7, A13, A21), the Devolution Test on Endurance with the current Stage’s die (Diff 3 from Stage 2+, 2
 *    from Stage 1) for a beast above Stage 0 only, its faces on the attack or asked of the Binder (A16, A36), landing
 *    on an unlocked Stage (A37), where it stays (A67).
 *  - "Bond Surge: Boost on ALL rolls this turn" when the beast knocks out its own Binder in their shared turn (A74):
 *    the Boost stays on the beast’s rolls and leaves the Binder’s, and the view’s turn names no Binder.
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261211);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const arcana = findSystem('arcana-beast')!;
/** As the fight service decides: the faces from the command itself, every face used (C6, C13, A36). */
const fold = (events: RuleEvent[]) => events.reduce(arcana.evolve, arcana.start('f1'));
function decideFromCommand(events: RuleEvent[], command: RuleCommand): RuleEvent[] {
  const dice = new ManualDice(command as ManualFaces);
  const out = arcana.decide(fold(events), command, dice);
  dice.assertAllUsed();
  return out;
}

describe('arcana-beast oracle (5): surprise and ties with late joiners, Devolution with the Critical Gauge, a Binder Knocked Out in its shared turn, from the text against the engine', () => {
  it('given surprised beasts and Binders, ties rerolled or ordered by the GM and late joiners, when the order is made, then the Setback, the order, the ties and the refusals match the text', () => {
    const fuzz = explore(SEED);
    const { r, int, roll, shuffle, seen, covered } = fuzz;
    for (let run = 0; run < RUNS; run++) {
      // Low Agility, so ties are common; some beasts with a Binder, some with Quality/Talent initiative dice (A29).
      type B = { id: string; agility: number; stage: number; dice: number; binder?: string };
      const beasts: B[] = Array.from({ length: int(2, 4) }, (_, i) => ({
        id: `b${i}`,
        agility: int(0, 2),
        stage: int(0, 4),
        dice: r() < 0.25 ? 1 : 0,
        binder: r() < 0.4 ? `b${i}x` : undefined,
      }));
      const sheet = (b: B) => ({
        kind: 'beast',
        stats: stats(b.agility),
        hp: 5,
        stamina: 1,
        stage: b.stage,
        stages: [{ stage: b.stage }],
        ...(b.dice ? { initiativeDice: b.dice } : {}),
      });
      const fighters: Fighter[] = beasts.flatMap((b) => [
        { id: b.id, side: `s${int(0, 1)}`, sheet: sheet(b) },
        ...(b.binder ? [{ id: b.binder, side: 'players', sheet: binderSheet(b.id) }] : []),
      ]);
      const named = fighters.filter(() => r() < 0.3).map((f) => f.id);
      let e: RuleEvent[] = [fightStarted('arcana-beast'), ...fighters.map(joined)];
      const byId: Record<string, B> = Object.fromEntries(beasts.map((b) => [b.id, b]));
      // A29, A31: a beast named surprised, or whose Binder is, rolls with Setback; a late joiner never is (A32).
      const surprised = new Set(
        beasts.filter((b) => named.includes(b.id) || (b.binder && named.includes(b.binder))).map((b) => b.id),
      );
      const total: Record<string, number> = {};
      const ctx = (extra: object = {}) =>
        JSON.stringify({ run, beasts, named, total, order: stateOf(e).order, ...extra });
      /** One initiative roll: Agility + initiativeDice on the Stage’s die, one more die and the highest dropped if surprised. */
      const rollOf = (b: B) => initiative(fuzz, b.agility + b.dice, b.stage, surprised.has(b.id));
      const withBinders = (ids: string[]) =>
        ids.flatMap((id) => [id, ...(byId[id].binder ? [byId[id].binder] : [])]);
      const beastOrder = () => stateOf(e).order.filter((id) => id in byId);
      const pendingTies = () => {
        const p = stateOf(e).pending as Ev | undefined;
        return p?.kind === 'initiativeTie' ? (p.detail.ties as string[][]) : [];
      };
      const expectTies = (ties: string[][], what: string) => {
        const have = pendingTies().map(sortIds).sort();
        const want = ties.map(sortIds).sort();
        expect({ ctx: ctx({ what }), ties: have }).toEqual({ ctx: ctx({ what }), ties: want });
        expect({ ctx: ctx({ what }), order: stateOf(e).order }).toEqual({
          ctx: ctx({ what }),
          order: withBinders(beastOrder()),
        });
      };
      /** C4: while a tie waits for the GM, a joiner changes the fight and is refused, nothing appended. */
      const joinWhilePending = () => {
        const j: B = { id: `p${run}`, agility: int(0, 2), stage: int(0, 4), dice: 0 };
        const faces = roll(j.agility, sidesOf(j.stage));
        const got = decide(
          e,
          { type: 'AddCombatant', combatant: { id: j.id, name: j.id, side: 'late', sheet: sheet(j) } },
          { dice: faces },
        );
        const have = got instanceof RuleViolation ? got.code : 'allowed';
        expect({ ctx: ctx({ j }), have }).toEqual({ ctx: ctx({ j }), have: 'PENDING_DECISION' });
        seen('join refused while tied');
      };
      /**
       * The GM answers the ties: SetInitiative with any order, each Binder right after its beast (A21), or
       * RerollInitiative ("calls for another roll"): each tied beast rolls again, Setback kept (A31), and the tied
       * hold their places ordered by the new successes; a tie among them waits again.
       */
      const answerTies = () => {
        for (let k = 0; pendingTies().length; k++) {
          if (pendingTies().length && r() < 0.4) joinWhilePending();
          if (k >= 4 || r() < 0.35) {
            const wanted = withBinders(shuffle(beastOrder()));
            e = then(e, { type: 'SetInitiative', order: wanted });
            expect({ ctx: ctx({ wanted }), order: stateOf(e).order }).toEqual({
              ctx: ctx({ wanted }),
              order: wanted,
            });
            expectTies([], 'set');
            seen('set');
            continue;
          }
          const groups = pendingTies();
          const before = beastOrder();
          const dice: number[] = [];
          const again: Record<string, number> = {};
          for (const g of groups)
            for (const id of g) {
              const x = rollOf(byId[id]);
              dice.push(...x.faces);
              again[id] = x.total;
              if (surprised.has(id)) seen('surprised reroll');
            }
          const got = exact(e, { type: 'RerollInitiative' }, { dice });
          e = [...e, ...got];
          const rolls = (find(got, 'InitiativeTieRerolled')?.rolls ?? []) as Ev[];
          expect({
            ctx: ctx({ again }),
            setback: rolls.map((x) => [x.combatantId, x.pool.edge, x.total]),
          }).toEqual({
            ctx: ctx({ again }),
            setback: groups.flat().map((id) => [id, surprised.has(id) ? 'setback' : 'none', again[id]]),
          });
          const now = beastOrder();
          const open: string[][] = [];
          for (const g of groups) {
            const places = g.map((id) => before.indexOf(id)).sort((a, b) => a - b);
            const held = places.map((p) => now[p]);
            expect({ ctx: ctx({ g, again }), held: sortIds(held) }).toEqual({
              ctx: ctx({ g, again }),
              held: sortIds(g),
            });
            const levels = held.map((id) => again[id]);
            expect({ ctx: ctx({ g, again }), levels }).toEqual({
              ctx: ctx({ g, again }),
              levels: [...levels].sort((a, b) => b - a),
            });
            for (const l of new Set(levels)) {
              const sub = g.filter((id) => again[id] === l);
              if (sub.length > 1) open.push(sub);
            }
          }
          expect({ ctx: ctx({ again }), rest: now.filter((id) => !groups.flat().includes(id)) }).toEqual({
            ctx: ctx({ again }),
            rest: before.filter((id) => !groups.flat().includes(id)),
          });
          expectTies(open, 'reroll');
          seen(open.length ? 'reroll ties again' : 'reroll settles');
        }
      };

      // RollInitiative: every beast’s pool in join order (A16), the surprised with Setback.
      const dice: number[] = [];
      for (const b of beasts) {
        const x = rollOf(b);
        dice.push(...x.faces);
        total[b.id] = x.total;
      }
      const got = exact(e, { type: 'RollInitiative', surprised: named }, { dice });
      e = [...e, ...got];
      const rolls = (find(got, 'InitiativeRolled')?.rolls ?? []) as Ev[];
      expect({ ctx: ctx(), rolls: rolls.map((x) => [x.combatantId, x.pool.edge, x.total]) }).toEqual({
        ctx: ctx(),
        rolls: beasts.map((b) => [b.id, surprised.has(b.id) ? 'setback' : 'none', total[b.id]]),
      });
      if (surprised.size) seen('surprised roll');
      // "Highest successes first"; equal successes wait for the GM (A5).
      expect({ ctx: ctx(), levels: beastOrder().map((id) => total[id]) }).toEqual({
        ctx: ctx(),
        levels: beasts.map((b) => total[b.id]).sort((a, b) => b - a),
      });
      const levels = [...new Set(beasts.map((b) => total[b.id]))];
      expectTies(
        levels
          .map((l) => beasts.filter((b) => total[b.id] === l).map((b) => b.id))
          .filter((g) => g.length > 1),
        'roll',
      );
      answerTies();

      // Late joiners (A32): a plain roll, slotted by the first roll’s successes (A77); a tie is answered as above.
      for (let j = 0; j < int(1, 3); j++) {
        const b: B = { id: `j${run}_${j}`, agility: int(0, 3), stage: int(0, 4), dice: 0 };
        const x = rollOf(b);
        const before = beastOrder();
        const firstFewer = before.findIndex((id) => total[id] < x.total);
        const end = firstFewer < 0 ? before.length : firstFewer;
        const group = [b.id];
        for (let k = end - 1; k >= 0 && total[before[k]] === x.total; k--) group.unshift(before[k]);
        const add = exact(
          e,
          { type: 'AddCombatant', combatant: { id: b.id, name: b.id, side: 'late', sheet: sheet(b) } },
          { dice: x.faces },
        );
        e = [...e, ...add];
        byId[b.id] = b;
        total[b.id] = x.total;
        const jr = (find(add, 'InitiativeRolled')?.rolls ?? []) as Ev[];
        expect({ ctx: ctx({ b }), roll: jr.map((y) => [y.combatantId, y.pool.edge, y.total]) }).toEqual({
          ctx: ctx({ b }),
          roll: [[b.id, 'none', x.total]],
        });
        const now = beastOrder();
        const slotted = [...before.slice(0, end), b.id, ...before.slice(end)];
        const mask = (ids: string[]) => ids.map((id) => (group.includes(id) ? '*' : id));
        expect({ ctx: ctx({ b, group }), order: mask(now) }).toEqual({
          ctx: ctx({ b, group }),
          order: mask(slotted),
        });
        expectTies(group.length > 1 ? [group] : [], 'join');
        if (group.length > 1) {
          seen(group.some((id) => surprised.has(id)) ? 'join tie with surprised' : 'join tie');
          if (group.length > 2) seen('join tie with a run');
          answerTies();
        } else seen('join apart');
      }
    }
    covered([
      'surprised roll',
      'surprised reroll',
      'set',
      'reroll settles',
      'reroll ties again',
      'join refused while tied',
      'join apart',
      'join tie',
      'join tie with surprised',
      'join tie with a run',
    ]);
  });
  it('given a wild beast wearing down the heroes’ beasts at Stages 0 to 4 and their Binders, when an attack hurts or knocks out, then the Critical Gauge, the Harm and the Devolution Test match the text', () => {
    const runs = Math.ceil(RUNS / 2);
    const { r, int, pick, roll, seen, covered } = explore(SEED + 1);
    for (let run = 0; run < runs; run++) {
      type H = { id: string; unlocked: number[]; endurance: number; hp: number };
      const heroes: H[] = Array.from({ length: int(2, 3) }, (_, i) => ({
        id: `h${i}`,
        unlocked: [0, 1, 2, 3, 4].filter(() => r() < 0.5),
        endurance: int(1, 3),
        hp: int(1, 6),
      }));
      for (const h of heroes) if (!h.unlocked.length) h.unlocked.push(int(0, 4));
      const stage: Record<string, number> = Object.fromEntries(heroes.map((h) => [h.id, pick(h.unlocked)]));
      const hp: Record<string, number> = {};
      const fighters: Fighter[] = [
        { id: 'w', side: 'wild', sheet: beamer(1, 4, 5) },
        ...heroes.flatMap((h): Fighter[] => {
          hp[h.id] = h.hp;
          hp[`${h.id}x`] = int(1, 3);
          return [
            {
              id: h.id,
              side: 'heroes',
              sheet: {
                kind: 'beast',
                stats: stats(1, 2, 2, h.endurance),
                hp: h.hp,
                stamina: 1,
                stage: stage[h.id],
                stages: h.unlocked.map((x) => ({ stage: x })),
              },
            },
            { id: `${h.id}x`, side: 'heroes', sheet: binderSheet(h.id, hp[`${h.id}x`]) },
          ];
        }),
      ];
      const byId = Object.fromEntries(heroes.map((h) => [h.id, h]));
      let e = fight(fighters);
      let gauge = 0;
      const out = new Set<string>();
      for (let round = 1; round <= 14 && out.size < fighters.length - 1; round++) {
        if (round > 1) e = then(e, { type: 'StartRound' });
        e = then(e, { type: 'StartActivation', combatantId: 'w' });
        const target = pick(fighters.map((f) => f.id).filter((id) => id !== 'w' && !out.has(id)));
        const h = byId[target] as H | undefined;
        // Beam: Spirit 4 d6 (w at Stage 1). Dodge: Agility 1 on the beast’s Stage die, or a Binder’s Agility 2 d6 (A4, A6).
        const atk = roll(4, 6);
        const dodge = h ? [int(1, sidesOf(stage[target]))] : [int(1, 6), int(1, 6)];
        const extra = successes(atk) - successes(dodge);
        // "Hit: Attacker exceeds"; "Base Damage: Brawn + Stage" = 2 + 1; a Critical (three 6s) doubles it (A2, A12).
        const base = sixes(atk) >= 3 ? 6 : 3;
        const damage = extra > 0 ? base + extra : 0;
        const ko = damage > 0 && damage >= hp[target];
        // A13: the Devolution Test on Endurance with the current Stage’s die, for a beast above Stage 0 (A21: no Binder).
        const devolves = ko && h !== undefined && stage[target] >= 1;
        const devol = devolves ? roll(h.endurance, sidesOf(stage[target])) : [];
        const onAttack = devolves && r() < 0.5;
        const ctx = JSON.stringify({ run, round, target, atk, dodge, devol, hp, stage, gauge, onAttack });
        let got = decideFromCommand(e, {
          type: 'Attack',
          attackerId: 'w',
          targetId: target,
          dice: [...atk, ...dodge],
          ...(h ? {} : { intercept: false }),
          ...(onAttack ? { followUpFaces: devol } : {}),
        });
        e = [...e, ...got];
        if (devolves && !onAttack) {
          // A36: the command’s own events stand and the test’s dice are asked of the beast’s Binder.
          const p = fold(e).pending as Ev | undefined;
          expect({
            ctx,
            p: p && [p.kind, p.awaiting, p.detail.commandType, p.detail.count, p.detail.sides],
          }).toEqual({
            ctx,
            p: ['dice', `${target}x`, 'DevolutionTest', devol.length, sidesOf(stage[target])],
          });
          const answer = decideFromCommand(e, { type: 'ProvideDice', followUpFaces: devol });
          e = [...e, ...answer];
          got = [...got, ...answer];
          seen('devolution asked');
        }
        const dealt = find(got, 'DamageDealt');
        expect({ ctx, hit: dealt && [dealt.damage, dealt.hp] }).toEqual({
          ctx,
          hit: damage > 0 ? [damage, Math.max(0, hp[target] - damage)] : undefined,
        });
        hp[target] = Math.max(0, hp[target] - damage);
        // "At 0 HP: Add 1 to Critical Gauge; Gain a Harm" (A7, A13, A21: beasts and Binders of the players alike).
        const rose = find(got, 'CriticalGaugeRaised');
        const move = find(got, 'CriticalMoveTriggered');
        const to = ko ? gauge + 1 : gauge;
        expect({
          ctx,
          ko: !!find(got, 'KnockedOut'),
          harm: !!find(got, 'HarmGained'),
          rose: rose && [rose.from, rose.to],
          move: move && [move.threshold, move.tier],
        }).toEqual({
          ctx,
          ko,
          harm: ko,
          rose: ko ? [gauge, to] : undefined,
          move: ko && TIERS[to] ? [to, TIERS[to]] : undefined,
        });
        gauge = to;
        // "From Stage 2+: Endurance Test Diff 3 pass = Stage 1, fail = Stage 0; From Stage 1: Diff 2 pass = stay,
        // fail = Stage 0", landing on a Stage the sheet unlocks, never above the one it was at (A37).
        const dt = find(got, 'DevolutionTested');
        const sd = find(got, 'StageDevolved');
        if (devolves) {
          const from = stage[target];
          const diff = from >= 2 ? 3 : 2;
          const pass = successes(devol) >= diff;
          const text = pass ? 1 : 0;
          const below = h.unlocked.filter((x) => x < text);
          const land = Math.min(
            from,
            h.unlocked.includes(text) ? text : below.length ? Math.max(...below) : Math.min(...h.unlocked),
          );
          expect({
            ctx,
            dt: dt && [
              dt.stageBefore,
              dt.test.difficulty,
              dt.test.sides,
              dt.test.successes,
              dt.test.passed,
              dt.stageAfter,
            ],
            sd: sd && [sd.from, sd.to],
          }).toEqual({
            ctx,
            dt: [from, diff, sidesOf(from), successes(devol), pass, land],
            sd: land !== from ? [from, land] : undefined,
          });
          stage[target] = land;
          seen(`devolution from ${from >= 2 ? '2+' : '1'} ${pass ? 'passed' : 'failed'}`);
          if (land !== (pass ? (from >= 2 ? 1 : from) : 0)) seen('landed by A37');
        } else {
          expect({ ctx, dt, sd }).toEqual({ ctx, dt: undefined, sd: undefined });
          seen(ko ? (h ? 'knocked out at Stage 0' : 'Binder knocked out') : damage > 0 ? 'hurt' : 'missed');
        }
        if (ko) out.add(target);
        const stages = heroes.map((x) => stateOf(e).combatants[x.id].stage);
        expect({ ctx, stages }).toEqual({ ctx, stages: heroes.map((x) => stage[x.id]) });
        e = passRound(e, out);
      }
    }
    covered([
      'devolution asked',
      'devolution from 2+ passed',
      'devolution from 2+ failed',
      'devolution from 1 passed',
      'devolution from 1 failed',
      'landed by A37',
      'knocked out at Stage 0',
      'Binder knocked out',
      'hurt',
      'missed',
    ]);
  });
  it('A74: given a Bond Surge, a Direct or no Command in Ember’s turn, when Ember’s Claw hurts or knocks out its own Binder Ash, then Ash’s Gauge and Harm, the turn’s Binder and the Boost on each one’s Test in that turn match the text', () => {
    const { int, pick, roll, seen, covered } = explore(SEED + 2);
    type Turn = { beastId?: string; binderId?: string; bondSurge?: boolean };
    const turnOf = (ev: RuleEvent[]) => (arcanaBeast.view(stateOf(ev)) as { turn: Turn | null }).turn;
    for (let run = 0; run < RUNS; run++) {
      const stage = int(0, 4);
      const brawn = int(1, 3);
      const ashHp = int(2, 10);
      const cmd = pick(['surge', 'surge', 'direct', 'none'] as const);
      const ember: Fighter = {
        id: 'ember',
        side: 'heroes',
        sheet: {
          kind: 'beast',
          stats: stats(1, brawn),
          hp: 10,
          stamina: 2,
          stage,
          stages: [{ stage }],
          attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
        },
      };
      const wolf: Fighter = {
        id: 'wolf',
        side: 'wild',
        sheet: { kind: 'beast', stats: stats(1), hp: 5, stamina: 1, stage: 1, stages: [{ stage: 1 }] },
      };
      let e = fight(
        [ember, { id: 'ash', side: 'heroes', sheet: binderSheet('ember', ashHp) }, wolf],
        'ember',
      );
      const surge = cmd === 'surge';
      if (surge) e = then(e, { type: 'BondSurge', combatantId: 'ash' });
      if (cmd === 'direct') e = then(e, { type: 'Direct', combatantId: 'ash' });
      // Claw: Brawn on Ember’s Stage die, +1 die for Direct, one more die and the lowest dropped for Bond Surge (A3,
      // A26). Ash dodges with Agility 2 d6, with Bond Surge’s Boost too: it is still in the shared turn then. A Binder’s
      // own beast is the attacker, so no Intercept is asked (A22).
      const net = surge ? 1 : 0;
      const atk = roll(brawn + (cmd === 'direct' ? 1 : 0) + net, sidesOf(stage));
      const dodge = roll(2 + net, 6);
      const ka = keep(atk, net);
      const extra = successes(ka) - successes(keep(dodge, net));
      // "Base Damage: Brawn + Stage"; a Critical (three kept dice showing 6+) doubles it (A2, A12).
      const base = (brawn + stage) * (sixes(ka) >= 3 ? 2 : 1);
      const damage = extra > 0 ? base + extra : 0;
      const ko = damage >= ashHp;
      const ctx = JSON.stringify({ run, stage, brawn, ashHp, cmd, atk, dodge, damage });
      const got = exact(
        e,
        { type: 'Attack', attackerId: 'ember', targetId: 'ash', attackId: 'claw' },
        { dice: [...atk, ...dodge] },
      );
      e = [...e, ...got];
      const res = find(got, 'AttackResolved');
      const rose = find(got, 'CriticalGaugeRaised');
      // "At 0 HP: Add 1 to Critical Gauge; Gain a Harm"; a Binder makes no Devolution Test (A13, A21).
      expect({
        ctx,
        edges: res && [res.attack.edge, res.dodge.edge],
        damage: res?.damage ?? 0,
        ko: !!find(got, 'KnockedOut'),
        harm: !!find(got, 'HarmGained'),
        rose: rose && [rose.from, rose.to],
        dt: find(got, 'DevolutionTested'),
      }).toEqual({
        ctx,
        edges: surge ? ['boost', 'boost'] : ['none', 'none'],
        damage,
        ko,
        harm: ko,
        rose: ko ? [0, 1] : undefined,
        dt: undefined,
      });
      // A74, A61: the view’s turn names no Binder once it is Knocked Out; Bond Surge holds for the beast.
      const turn = turnOf(e);
      expect({ ctx, turn: turn && [turn.beastId, turn.binderId, turn.bondSurge === true] }).toEqual({
        ctx,
        turn: ['ember', ko ? undefined : 'ash', surge],
      });
      // A Test the GM has each roll in that turn: Spirit 2 (Ember on its Stage die, Ash d6), Difficulty 1 or 2; Bond
      // Surge’s Boost for Ember, and for Ash only while it still shares the turn (A26, A74).
      for (const [id, sides, boosted] of [
        ['ember', sidesOf(stage), surge],
        ['ash', 6, surge && !ko],
      ] as const) {
        const difficulty = int(1, 2);
        const faces = roll(2 + (boosted ? 1 : 0), sides);
        const s = successes(keep(faces, boosted ? 1 : 0));
        const t = find(
          exact(e, { type: 'RollTest', combatantId: id, stat: 'spirit', difficulty }, { dice: faces }),
          'TestRolled',
        )?.test as Ev | undefined;
        expect({ ctx, id, faces, t: t && [t.edge, t.successes, t.passed] }).toEqual({
          ctx,
          id,
          faces,
          t: [boosted ? 'boost' : 'none', s, s >= difficulty],
        });
      }
      seen(`${cmd} ${ko ? 'knocked out' : damage ? 'hurt' : 'missed'}`);
      // The next shared turn: a Binder at 0 HP gives no Command (A21) and the turn still names none.
      e = then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: 'wolf' });
      e = then(then(e, { type: 'EndActivation' }), { type: 'StartRound' });
      e = then(e, { type: 'StartActivation', combatantId: 'ember' });
      const next = turnOf(e);
      const again = decide(e, { type: 'BondSurge', combatantId: 'ash' });
      expect({ ctx, binderId: next?.binderId, refused: again instanceof RuleViolation }).toEqual({
        ctx,
        binderId: ko ? undefined : 'ash',
        refused: ko,
      });
    }
    covered(['surge knocked out', 'surge hurt', 'direct knocked out', 'none knocked out', 'surge missed']);
  });
  it('A77: given a surprised a and b tied on initiative, when a late joiner c arrives before and after the GM calls for another roll, then c is refused while the tie waits, rolls without Setback, ties with the run the reroll ordered, and a rerolls that tie with Setback again', () => {
    const wildSheet = (agility: number) => ({
      kind: 'beast',
      stats: stats(agility),
      hp: 5,
      stamina: 1,
      stage: 1,
      stages: [{ stage: 1 }],
    });
    let e: RuleEvent[] = [
      fightStarted('arcana-beast'),
      ...[
        { id: 'a', agility: 2 },
        { id: 'b', agility: 2 },
        { id: 'd', agility: 1 },
      ].map((x) => joined({ id: x.id, side: 'wild', sheet: wildSheet(x.agility) })),
    ];
    // a surprised: 2 d6 and one more, the highest dropped: 5, 5, 5 keeps 5, 5 = 2 successes. b: 5, 5 = 2. d: 1 = 0.
    e = then(e, { type: 'RollInitiative', surprised: ['a'] }, { dice: [5, 5, 5, 5, 5, 1] });
    expect(stateOf(e).pending).toMatchObject({ kind: 'initiativeTie', detail: { ties: [['a', 'b']] } });
    const c = { type: 'AddCombatant', combatant: { id: 'c', name: 'c', side: 'late', sheet: wildSheet(2) } };
    // C4: a tie waits for the GM; a joiner would change the fight.
    expect(decide(e, c, { dice: [5, 5] })).toMatchObject({ code: 'PENDING_DECISION' });
    // "calls for another roll": a with Setback again (A31): 5, 1, 1 keeps 1, 1 = 0; b: 5, 5 = 2. b before a.
    e = then(e, { type: 'RerollInitiative' }, { dice: [5, 1, 1, 5, 5] });
    expect(stateOf(e).order).toEqual(['b', 'a', 'd']);
    expect(stateOf(e).pending).toBeUndefined();
    // c: 2 d6, no Setback (AddCombatant names no one surprised): 5, 5 = 2 successes. The first roll gave b and a 2
    // each and d 0, so c goes before d and ties with the run b, a (A32, A77); by the reroll (b 2, a 0) it would go
    // before a, tied with b alone.
    const added = exact(e, c, { dice: [5, 5] });
    expect(find(added, 'InitiativeRolled')?.rolls).toMatchObject([
      { combatantId: 'c', total: 2, pool: { edge: 'none', dice: 2 } },
    ]);
    e = [...e, ...added];
    expect(stateOf(e).order).toEqual(['b', 'a', 'c', 'd']);
    expect(stateOf(e).pending).toMatchObject({ kind: 'initiativeTie', detail: { ties: [['b', 'a', 'c']] } });
    // The reroll of that tie, in its order: b 1, 1 = 0; a with Setback 6, 6, 1 keeps 6, 1 = 1; c 5, 5 = 2.
    const rerolled = exact(e, { type: 'RerollInitiative' }, { dice: [1, 1, 6, 6, 1, 5, 5] });
    expect(find(rerolled, 'InitiativeTieRerolled')?.rolls).toMatchObject([
      { combatantId: 'b', total: 0, pool: { edge: 'none' } },
      { combatantId: 'a', total: 1, pool: { edge: 'setback', setbackSources: ['Surprised'] } },
      { combatantId: 'c', total: 2, pool: { edge: 'none' } },
    ]);
    e = [...e, ...rerolled];
    expect(stateOf(e).order).toEqual(['c', 'a', 'b', 'd']);
    expect(stateOf(e).pending).toBeUndefined();
  });
});
