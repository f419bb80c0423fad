import { RuleCommand } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualFaces } from '../../src/dice/manual';
import { fightStarted } from '../given';
import { exact, fight, Fighter, joined, then } from './helpers';
import {
  BANDS,
  bandMap,
  beamer,
  binderSheet,
  decide,
  explore,
  initiative,
  passRound,
  RANGES,
  reaches,
  sidesOf,
  sortIds,
  stats,
  successes,
  TIERS,
} from './oracle-kit';

/**
 * The Arcana Beast oracle, second part (oracle.unit.spec.ts has the attack sequence, oracle-3.unit.spec.ts the Binder’s
 * Commands, tests, Evolution, EndScene and Intercept decisions, oracle-4.unit.spec.ts the GM’s order, late joiners,
 * bypass movement and Cornered): initiative and turn order, and the
 * distance bands with their movement and reach, each computed from arcana-beast.txt and the rulings alone (not from
 * the engine’s code) and compared with the engine on random fights with manual dice.
 *  - "Initiative & Turn Order": every beast’s Agility pool with its initiativeDice (A29) on its Stage’s die (A4),
 *    Setback for a surprised beast or Binder (A29, A31, A3, A58), highest successes first, each Binder right after its
 *    beast (A21), ties left to the GM or rerolled in advance (A5, A31), a beast Knocked Out from the start included (A63).
 *  - "Movement & Range": bands per pair, Near until set, a Binder sharing its beast’s (A14, A17); the free move of one
 *    band, not out of Far; Reposition for two bands or out of Far, or for positional advantage; Flight bypassing both
 *    (A18); difficult terrain’s Agility Test (A19); melee at Close, ranged at Close or Near, long at any band; one Action
 *    and one free move a turn (A15).
 *  - "Knockout & Devolution" and "Critical Gauge thresholds": a player-side beast or Binder at 0 HP adds 1 (A13, A21),
 *    the players’ sides named or not (A35), Critical Moves at 3, 6 and 9 and none past 9 (A7, A60).
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261208);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

describe('arcana-beast oracle (2): initiative, bands, movement, reach and the Critical Gauge from the text against the engine', () => {
  it('given random beasts, Binders and surprise, when RollInitiative rolls, then totals, order, ties and rerolls match the text', () => {
    const fuzz = explore(SEED);
    const { r, int, pick, count, seen, covered } = fuzz;
    for (let run = 0; run < RUNS; run++) {
      const n = int(2, 5);
      const beasts = Array.from({ length: n }, (_, i) => ({
        id: `b${i}`,
        agility: int(0, 3),
        stage: pick([0, 1, 1, 2, 3, 4]),
        dice: r() < 0.3 ? int(1, 2) : 0,
        out: i > 0 && r() < 0.1, // b0 can act: initiative needs someone who can
        binder: r() < 0.4 ? `b${i}x` : undefined,
      }));
      // Join order: beasts in order, each Binder somewhere after the fight’s start (before or after its beast).
      const joiners: Fighter[] = [];
      for (const b of beasts) {
        joiners.push({
          id: b.id,
          side: `s${int(0, 1)}`,
          sheet: {
            kind: 'beast',
            stats: stats(b.agility),
            hp: b.out ? 0 : 5,
            maxHp: 5,
            stamina: 1,
            stage: b.stage,
            stages: [{ stage: b.stage }],
            ...(b.dice ? { initiativeDice: b.dice } : {}),
          },
        });
        if (b.binder) {
          const f = { id: b.binder, side: 'players', sheet: binderSheet(b.id) };
          if (r() < 0.5) joiners.splice(int(0, joiners.length), 0, f);
          else joiners.push(f);
        }
      }
      const reroll = r() < 0.5;
      const surprised = joiners.filter(() => r() < 0.25).map((f) => f.id);
      const start = fightStarted('arcana-beast');
      if (reroll) (start.data as { options: object }).options = { initiativeTies: 'reroll' };
      const setup = [start, ...joiners.map(joined)];
      // A29, A31: the beast rolls with Setback when it or its Binder is named surprised.
      const isSurprised = (b: (typeof beasts)[number]) =>
        surprised.includes(b.id) || (b.binder !== undefined && surprised.includes(b.binder));
      const rollOf = (b: (typeof beasts)[number], out: number[]) => {
        const { faces, total } = initiative(fuzz, b.agility + b.dice, b.stage, isSurprised(b));
        out.push(...faces);
        return total;
      };
      // A16: every beast’s pool in join order, Knocked Out ones too (A63).
      const joinedBeasts = joiners.flatMap((f) => beasts.filter((b) => b.id === f.id));
      const dice: number[] = [];
      const total: Record<string, number> = {};
      for (const b of joinedBeasts) total[b.id] = rollOf(b, dice);
      // "Turn Order: Highest successes first"; "Ties: GM decides or calls for another roll" (A5): groups of equal
      // totals; with initiativeTies: reroll the tied reroll, group by group, until none is tied (at most 10 rounds).
      const byTotal = (ids: string[], t: Record<string, number>) => {
        const levels = [...new Set(ids.map((id) => t[id]))].sort((a, b) => b - a);
        return levels.map((l) => ids.filter((id) => t[id] === l));
      };
      let groups = byTotal(
        joinedBeasts.map((b) => b.id),
        total,
      );
      const rerollFaces: number[] = [];
      const rerolls: { id: string; total: number; round: number }[] = [];
      if (reroll)
        for (let round = 1; round <= 10 && groups.some((g) => g.length > 1); round++) {
          const next: string[][] = [];
          for (const g of groups) {
            if (g.length === 1) {
              next.push(g);
              continue;
            }
            const t: Record<string, number> = {};
            for (const id of g) {
              t[id] = rollOf(
                beasts.find((b) => b.id === id)!,
                rerollFaces,
              );
              rerolls.push({ id, total: t[id], round });
            }
            next.push(...byTotal(g, t));
          }
          groups = next;
        }
      const ties = groups.filter((g) => g.length > 1);
      const faces: ManualFaces = { dice, ...(rerollFaces.length ? { rerollFaces } : {}) };
      const ctx = JSON.stringify({
        run,
        beasts,
        joiners: joiners.map((f) => f.id),
        surprised,
        reroll,
        faces,
      });
      const got = decide(
        setup,
        { type: 'RollInitiative', ...(surprised.length ? { surprised } : {}) },
        faces,
      );
      if (got instanceof RuleViolation) throw new Error(`engine refused: ${got.message}\n${ctx}`);
      const rolled = got.find((e) => e.type === 'InitiativeRolled')!.data as {
        rolls: { combatantId: string; total: number; tieReroll?: number; roll: { sides: number } }[];
        order: string[];
        unresolvedTies: string[][];
      };
      const first = rolled.rolls.filter((x) => x.tieReroll === undefined);
      expect({ ctx, rolls: first.map((x) => [x.combatantId, x.total, x.roll.sides]) }).toEqual({
        ctx,
        rolls: joinedBeasts.map((b) => [b.id, total[b.id], sidesOf(b.stage)]),
      });
      const again = rolled.rolls.filter((x) => x.tieReroll !== undefined);
      expect({ ctx, again: again.map((x) => [x.combatantId, x.total, x.tieReroll]) }).toEqual({
        ctx,
        again: rerolls.map((x) => [x.id, x.total, x.round]),
      });
      expect({ ctx, ties: rolled.unresolvedTies.map(sortIds) }).toEqual({ ctx, ties: ties.map(sortIds) });
      // The order: the groups in turn (the GM orders a group still tied), each Binder right after its beast (A21).
      const place = (id: string) => groups.findIndex((g) => g.includes(id));
      const beastOrder = rolled.order.filter((id) => beasts.some((b) => b.id === id));
      expect({ ctx, places: beastOrder.map(place) }).toEqual({
        ctx,
        places: [...beastOrder.map(place)].sort((a, b) => a - b),
      });
      expect({ ctx, n: beastOrder.length }).toEqual({ ctx, n: joinedBeasts.length });
      const withBinders = beastOrder.flatMap((id) => {
        const b = beasts.find((x) => x.id === id)!;
        return b.binder ? [id, b.binder] : [id];
      });
      expect({ ctx, order: rolled.order }).toEqual({ ctx, order: withBinders });
      seen('compared');
      if (ties.length || rerolls.length) seen('tied');
      if (rerolls.length) seen('rerolled');
    }
    covered(['rerolled']);
    expect(count.compared).toBe(RUNS);
  });

  it('given random bands, difficult terrain and flight, when beasts Move, Reposition and attack, then what is allowed, the bands and the tests match the text', () => {
    const fuzz = explore(SEED + 1);
    const { r, int, pick, roll, count, seen, covered } = fuzz;
    for (let run = 0; run < RUNS; run++) {
      const ids = ['m0', 'm1', 'm2'];
      const beast = ids.map((id) => ({
        id,
        agility: int(0, 3),
        brawn: int(0, 3),
        spirit: int(0, 3),
        stage: pick([0, 1, 2, 3, 4]),
        flight: r() < 0.3,
      }));
      const of = (id: string) => beast.find((b) => b.id === id)!;
      const bound = r() < 0.5; // m0’s Binder m0x shares m0’s bands (A17).
      const fighters: Fighter[] = beast.map((b) => ({
        id: b.id,
        side: b.id, // every beast its own side: no combo, no ally (A20, A59)
        sheet: {
          kind: 'beast',
          stats: stats(b.agility, b.brawn, b.spirit),
          hp: 99,
          stamina: 1,
          stage: b.stage,
          stages: [{ stage: b.stage }],
          attacks: [
            { id: 'bite', name: 'Bite', range: 'melee' },
            { id: 'spit', name: 'Spit', range: 'ranged' },
            { id: 'beam', name: 'Beam', range: 'long', stat: 'spirit' },
          ],
          ...(b.flight ? { movement: ['flight'] } : {}),
        },
      }));
      if (bound) fighters.splice(1, 0, { id: 'm0x', side: 'm0', sheet: binderSheet('m0') });
      let e = fight(fighters);
      // A17: a pair the GM has not set is Near; A19: difficult terrain per pair.
      const map = bandMap(fuzz, bound);
      const { band, terrain, bandOf } = map;
      for (const [a, b] of map.pairs) {
        const set = r() < 0.8 ? pick(BANDS) : undefined;
        const dt = r() < 0.35 ? int(1, 2) : 0;
        if (set === undefined && !dt) continue;
        e = map.set(e, a, b, set ?? bandOf(a, b), dt);
      }
      for (let round = 1; round <= 2; round++) {
        // A68: the last turn’s EndActivation ends the round.
        if (round === 2) e = then(e, { type: 'StartRound' });
        for (const me of ids) {
          e = then(e, { type: 'StartActivation', combatantId: me });
          let action = false;
          let free = false;
          for (let step = 0; step < 3; step++) {
            const aim = map.aim(me);
            const { toward, from, to, dist } = aim;
            const using = of(me).flight && r() < 0.5 ? 'flight' : undefined;
            const kind = pick([
              'move',
              'move',
              'reposition',
              'advantage',
              'attack',
              'attack',
              'pass',
            ] as const);
            const ctx = () =>
              JSON.stringify({ run, round, me, kind, aim, using, band, terrain, beast, action, free });
            if (kind === 'move' || kind === 'reposition') {
              const isFree = kind === 'move';
              // "Move one band for free per turn"; "Far … Requires Reposition action to move"; "Two bands in one turn
              // requires Reposition action"; A18: Flight bypasses both for the free move.
              const allowed = isFree
                ? !free && (using !== undefined || (dist === 1 && from !== 'far'))
                : !action;
              // A19: difficult terrain asks an Agility Test at its Difficulty, with the beast’s die, unless it flies.
              const dt = map.terrainOf(me, toward);
              const test = allowed && dt && !using ? roll(of(me).agility, sidesOf(of(me).stage)) : undefined;
              const cmd: RuleCommand = {
                type: isFree ? 'Move' : 'Reposition',
                combatantId: me,
                towardId: toward,
                band: to,
                ...(using ? { using } : {}),
              };
              const got = decide(e, cmd, test ? { dice: test } : {});
              if (got instanceof RuleViolation === allowed)
                throw new Error(
                  `${allowed ? 'refused' : 'allowed'}: ${got instanceof RuleViolation ? got.message : JSON.stringify(got)}\n${ctx()}`,
                );
              if (got instanceof RuleViolation) {
                seen('refusedMoves');
                continue;
              }
              const passed = test === undefined || successes(test) >= dt;
              const moved = got.find((x) => x.type === 'Moved')!.data as Record<string, any>;
              expect({
                ctx: ctx(),
                moved: [moved.from, moved.to, moved.by, !!moved.stopped, moved.test?.successes],
              }).toEqual({
                ctx: ctx(),
                moved: [
                  from,
                  passed ? to : from,
                  isFree ? 'free' : 'reposition',
                  !passed,
                  test && successes(test),
                ],
              });
              if (test) seen('tests');
              if (passed) map.moved(me, toward, to);
              if (isFree) free = true;
              else action = true;
              seen('moves');
              e = [...e, ...got];
            } else if (kind === 'advantage' || kind === 'pass') {
              const cmd: RuleCommand =
                kind === 'pass' ? { type: 'Pass', combatantId: me } : { type: 'Reposition', combatantId: me };
              const got = decide(e, cmd);
              expect({ ctx: ctx(), refused: got instanceof RuleViolation }).toEqual({
                ctx: ctx(),
                refused: action,
              });
              if (!(got instanceof RuleViolation)) e = [...e, ...got];
              action = true;
            } else {
              const range = pick(RANGES);
              const at = bandOf(me, toward);
              const allowed = !action && reaches(range, at);
              const attackId = { melee: 'bite', ranged: 'spit', long: 'beam' }[range];
              const stat = { melee: of(me).brawn, ranged: of(me).agility, long: of(me).spirit }[range];
              // A6: the attack’s stat (default Brawn for melee, Agility for ranged) + 0 ranks; Dodge = Agility (a
              // Binder’s is 2, on d6, A4). All ones: a miss, as the text says of a tie.
              const dodge = toward === 'm0x' ? 2 : of(toward).agility;
              const got = decide(
                e,
                {
                  type: 'Attack',
                  attackerId: me,
                  targetId: toward,
                  attackId,
                  ...(toward === 'm0x' ? { intercept: false } : {}),
                },
                allowed ? { dice: Array(stat + dodge).fill(1) } : {},
              );
              if (got instanceof RuleViolation === allowed)
                throw new Error(
                  `${allowed ? 'refused' : 'allowed'} ${range} at ${at}: ${got instanceof RuleViolation ? got.message : ''}\n${ctx()}`,
                );
              if (got instanceof RuleViolation) {
                seen('refusedAttacks');
                continue;
              }
              const res = got.find((x) => x.type === 'AttackResolved')!.data as Record<string, any>;
              expect({ ctx: ctx(), res: [res.band, res.outcome] }).toEqual({ ctx: ctx(), res: [at, 'miss'] });
              seen('attacks');
              action = true;
              e = [...e, ...got];
            }
          }
          e = then(e, { type: 'EndActivation' });
        }
      }
    }
    covered(['refusedMoves', 'refusedAttacks', 'tests']);
    expect(count.moves ?? 0).toBeGreaterThan(RUNS);
    expect(count.attacks ?? 0).toBeGreaterThan(RUNS / 2);
  });

  it('given random Knockouts on the player side, when the Critical Gauge rises, then its count and the Critical Moves at 3, 6 and 9 match the text', () => {
    const { r, int, pick, count, seen, covered } = explore(SEED + 2);
    for (let run = 0; run < Math.ceil(RUNS / 6); run++) {
      // Five heroes’ beasts at Stage 0 (no Devolution Test, A13), each with its Binder, all at 1 HP; a wild beast
      // whose long-range Beam (Spirit 3, reaching every band) strikes one of them each round.
      const n = 5;
      const heroes = Array.from({ length: n }, (_, i) => `h${i}`);
      const fighters: Fighter[] = [
        { id: 'w', side: 'wild', sheet: beamer(2, 3, 99) },
        ...heroes.flatMap((id): Fighter[] => [
          {
            id,
            side: 'heroes',
            sheet: { kind: 'beast', stats: stats(1), hp: 1, stamina: 1, stage: 0, stages: [{ stage: 0 }] },
          },
          { id: `${id}x`, side: 'heroes', sheet: { ...binderSheet(id), hp: 1 } },
        ]),
      ];
      // A35: without playerSides every Binder and bound beast is on the player side; [] names none.
      const none = r() < 0.2;
      let e = fight(fighters);
      if (none) (e[0].data as { options: object }).options = { playerSides: [] };
      let gauge = 0;
      const out = new Set<string>();
      for (let round = 1; round <= 12 && out.size < 2 * n; round++) {
        if (round > 1) e = then(e, { type: 'StartRound' });
        e = then(e, { type: 'StartActivation', combatantId: 'w' });
        const target = pick(fighters.map((f) => f.id).filter((id) => id !== 'w' && !out.has(id)));
        // Beam: Spirit 3 d6 (Stage 1); Dodge: Agility 1 d6 for a beast, 2 d6 for a Binder (A4, A6).
        const atk = [int(1, 6), int(1, 6), int(1, 6)];
        const dodge = Array.from({ length: target.endsWith('x') ? 2 : 1 }, () => int(1, 6));
        const got = exact(
          e,
          {
            type: 'Attack',
            attackerId: 'w',
            targetId: target,
            ...(target.endsWith('x') ? { intercept: false } : {}),
          },
          { dice: [...atk, ...dodge] },
        );
        const ctx = JSON.stringify({ run, round, target, atk, dodge, gauge, none });
        // "Hit: Attacker exceeds"; 1 HP: any hit knocks out. A13, A21: Gauge +1 for a beast or a Binder of the players.
        const ko = successes(atk) > successes(dodge);
        const rose = got.find((x) => x.type === 'CriticalGaugeRaised')?.data as
          Record<string, number> | undefined;
        const move = got.find((x) => x.type === 'CriticalMoveTriggered')?.data;
        const to = ko && !none ? gauge + 1 : gauge;
        // "Critical Gauge thresholds: 3 Minor, 6 Major, 9 Climactic" (A7: crossing means reaching them).
        expect({
          ctx,
          rose: rose && [rose.from, rose.to],
          move: move && [move.threshold, move.tier, move.gauge],
        }).toEqual({
          ctx,
          rose: to > gauge ? [gauge, to] : undefined,
          move: to > gauge && TIERS[to] ? [to, TIERS[to], to] : undefined,
        });
        if (to > gauge) seen('raised');
        if (move) seen('moves');
        gauge = to;
        if (ko) out.add(target);
        e = passRound([...e, ...got], out);
      }
    }
    covered();
    expect(count.moves ?? 0).toBeGreaterThan(2);
  });
});
