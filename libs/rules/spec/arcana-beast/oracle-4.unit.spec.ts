import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualFaces } from '../../src/dice/manual';
import { fightStarted } from '../given';
import { fight, Fighter, joined, stateOf, then } from './helpers';
import {
  BANDS,
  bandMap,
  binderSheet,
  decide,
  Ev,
  explore,
  find,
  initiative,
  RANGES,
  reaches,
  sidesOf,
  sortIds,
  stats,
  successes,
} from './oracle-kit';

/**
 * The Arcana Beast oracle, fourth part (oracle.unit.spec.ts has the attack sequence, oracle-2.unit.spec.ts the first
 * initiative roll, bands and the Critical Gauge, oracle-3.unit.spec.ts the Binder’s Commands, tests, Evolution and the
 * end of the encounter): what the GM and the late joiners do to the turn order, and what lifts or keeps the movement
 * restrictions, each computed from arcana-beast.txt and the rulings alone (not from the engine’s code) and compared
 * with the engine on random fights with manual dice.
 *  - "Ties: GM decides or calls for another roll" and "Turn Order: Highest successes first, remains fixed":
 *    RollInitiative’s `tieBreak` (C10, A29: beasts only, each once, refused whatever the dice; a group named whole is
 *    settled, named first, one named in part stays the GM’s), the GM’s SetInitiative answering a tie or changing the
 *    order (A21: each Binder right after its beast, or ARCANA_BINDER_ORDER on its place), and late joiners (A32: a beast
 *    rolls and goes before the first beast with fewer successes, the others’ order kept; a tie with the beasts just
 *    before it is an initiative tie its `tieBreak` may settle; a Binder rolls nothing and goes right after its beast).
 *  - "Movement Rules" and "Positioning in Combat": the free move and Reposition with Flight, Teleport or Burrowing
 *    the sheet lists (A18), difficult terrain’s Agility Test with Direct’s die on the Reposition’s test only (A19, A26),
 *    "Cornered: Cannot Reposition, Dodge with Setback" against no one, one opponent or a Binder and its beast (A39,
 *    A51, A53), and a Zero Power with a range checked for reach like any attack, with Direct’s die (A34).
 *  - The GM’s ApplyCondition and RemoveCondition: a condition held already, or not held, changes nothing (no event);
 *    a beast in its vessel still takes one (A23 bars attacks, Encourage and items, not the GM; A66).
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261210);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

describe('arcana-beast oracle (4): the GM’s order, late joiners, movement bypasses, Cornered and conditions from the text against the engine', () => {
  it('given random rolls, tieBreaks, SetInitiatives and late joiners, when the order is made, then it, the ties and the refusals match the text', () => {
    const fuzz = explore(SEED);
    const { r, int, shuffle, seen, covered } = fuzz;
    for (let run = 0; run < RUNS; run++) {
      // Beasts with a low Agility (ties are common), some with a Binder listed right after them.
      const n = int(2, 4);
      const beasts = Array.from({ length: n }, (_, i) => ({
        id: `b${i}`,
        agility: int(0, 2),
        stage: [0, 1, 2, 3, 4][int(0, 4)],
        binder: r() < 0.4 ? `b${i}x` : undefined,
      }));
      const sheet = (agility: number, stage: number) => ({
        kind: 'beast',
        stats: stats(agility),
        hp: 5,
        stamina: 1,
        stage,
        stages: [{ stage }],
      });
      const fighters: Fighter[] = beasts.flatMap((b) => [
        { id: b.id, side: `s${int(0, 1)}`, sheet: sheet(b.agility, b.stage) },
        ...(b.binder ? [{ id: b.binder, side: 'players', sheet: binderSheet(b.id) }] : []),
      ]);
      let e: RuleEvent[] = [fightStarted('arcana-beast'), ...fighters.map(joined)];
      const binderOf: Record<string, string | undefined> = Object.fromEntries(
        beasts.map((b) => [b.id, b.binder]),
      );
      const total: Record<string, number> = {};
      const beastIds = () => Object.keys(binderOf);
      const ctx = (extra: object = {}) => JSON.stringify({ run, beasts, total, binderOf, ...extra });
      /** A random tieBreak among the beasts: a random part of them in a random order (C10). */
      const someTieBreak = (must?: string) => {
        const ids = shuffle(beastIds()).slice(0, int(1, beastIds().length));
        if (must && !ids.includes(must)) ids.splice(int(0, ids.length), 0, must);
        return ids;
      };
      /**
       * C10, A29: a tieBreak naming someone not in the fight, a Binder or a beast twice could break no tie whatever
       * the dice: refused on its place, nothing appended.
       */
      const faultyTieBreak = (
        tb: string[],
        command: (tieBreak: string[]) => RuleCommand,
        faces: ManualFaces,
      ) => {
        const binders = Object.values(binderOf).filter((x): x is string => x !== undefined);
        const kinds = ['nobody', 'twice', ...(binders.length ? ['binder'] : [])] as const;
        const kind = kinds[int(0, kinds.length - 1)];
        const at = int(0, tb.length);
        const bad = [...tb];
        if (kind === 'nobody') bad.splice(at, 0, 'nobody');
        if (kind === 'twice') bad.splice(Math.max(at, 1), 0, tb[0]);
        if (kind === 'binder') bad.splice(at, 0, binders[int(0, binders.length - 1)]);
        const place = kind === 'twice' ? Math.max(at, 1) : at;
        const code = { nobody: 'COMBATANT_NOT_FOUND', twice: 'INVALID_FIELD', binder: 'ARCANA_NOT_A_BEAST' }[
          kind
        ];
        const got = decide(e, command(bad), faces);
        const have = got instanceof RuleViolation ? [got.code, got.field] : 'allowed';
        expect({ ctx: ctx({ bad }), have }).toEqual({
          ctx: ctx({ bad }),
          have: [code, `tieBreak[${place}]`],
        });
        seen(`tieBreak ${kind}`);
      };
      /**
       * C10: each tied group is ordered by the tieBreak among its own members, in the places it holds: the members it
       * names first, in its order; it is settled only when every member is named, else it stays the GM’s.
       */
      const checkGroup = (order: string[], group: string[], tb: string[], what: string) => {
        const places = group.map((id) => order.indexOf(id)).sort((a, b) => a - b);
        const named = tb.filter((id) => group.includes(id));
        const held = places.map((p) => order[p]);
        expect({ ctx: ctx({ what, order, group, tb }), named: held.slice(0, named.length) }).toEqual({
          ctx: ctx({ what, order, group, tb }),
          named,
        });
        return named.length === group.length;
      };
      /** A21: each Binder right after its beast. */
      const withBinders = (ids: string[]) => ids.flatMap((id) => (binderOf[id] ? [id, binderOf[id]] : [id]));
      const expectPending = (ties: string[][], what: string) => {
        const p = stateOf(e).pending as Ev | undefined;
        expect({
          ctx: ctx({ what }),
          pending: p && [p.kind, (p.detail.ties as string[][]).map(sortIds)],
        }).toEqual({
          ctx: ctx({ what }),
          pending: ties.length ? ['initiativeTie', ties.map(sortIds)] : undefined,
        });
      };

      // RollInitiative: every beast’s Agility on its Stage’s die, in join order (A16).
      const dice: number[] = [];
      for (const b of beasts) {
        const x = initiative(fuzz, b.agility, b.stage);
        dice.push(...x.faces);
        total[b.id] = x.total;
      }
      const tb = r() < 0.6 ? someTieBreak() : undefined;
      if (tb && r() < 0.2) faultyTieBreak(tb, (tieBreak) => ({ type: 'RollInitiative', tieBreak }), { dice });
      const got = decide(e, { type: 'RollInitiative', ...(tb ? { tieBreak: tb } : {}) }, { dice });
      if (got instanceof RuleViolation) throw new Error(`refused: ${got.message}\n${ctx({ tb })}`);
      e = [...e, ...got];
      // "Turn Order: Highest successes first"; "Ties: GM decides" (A5, C10).
      const levels = [...new Set(beasts.map((b) => total[b.id]))].sort((a, b) => b - a);
      const groups = levels.map((l) => beasts.filter((b) => total[b.id] === l).map((b) => b.id));
      const order = stateOf(e).order;
      const beastOrder = order.filter((id) => id in binderOf);
      expect({ ctx: ctx({ tb, order }), levels: beastOrder.map((id) => total[id]) }).toEqual({
        ctx: ctx({ tb, order }),
        levels: beastOrder.map((id) => total[id]).sort((a, b) => b - a),
      });
      expect({ ctx: ctx({ tb }), order }).toEqual({ ctx: ctx({ tb }), order: withBinders(beastOrder) });
      const open = groups.filter((g) => g.length > 1 && !checkGroup(order, g, tb ?? [], 'roll'));
      expectPending(open, 'roll');
      if (groups.some((g) => g.length > 1)) seen(open.length ? 'tie open' : 'tie settled');

      /**
       * The GM’s SetInitiative (C10, A32): any order of the fight’s beasts, each Binder right after its beast (A21);
       * a Binder placed anywhere else is refused on its own place, nothing appended.
       */
      const setInitiative = () => {
        const wanted = withBinders(shuffle(beastIds()));
        const binders = wanted.filter((id) => !(id in binderOf));
        if (binders.length && r() < 0.3) {
          const x = binders[int(0, binders.length - 1)];
          const rest = wanted.filter((id) => id !== x);
          const beastAt = rest.indexOf(Object.keys(binderOf).find((b) => binderOf[b] === x)!);
          // Anywhere but right after its beast.
          const spots = rest.map((_, i) => i).filter((i) => i !== beastAt + 1);
          spots.push(...(beastAt + 1 === rest.length ? [] : [rest.length]));
          const at = spots[int(0, spots.length - 1)];
          const bad = [...rest.slice(0, at), x, ...rest.slice(at)];
          const v = decide(e, { type: 'SetInitiative', order: bad });
          const have = v instanceof RuleViolation ? [v.code, v.field] : 'allowed';
          expect({ ctx: ctx({ bad }), have }).toEqual({
            ctx: ctx({ bad }),
            have: ['ARCANA_BINDER_ORDER', `order[${at}]`],
          });
          seen('binder misplaced');
        }
        const set = decide(e, { type: 'SetInitiative', order: wanted });
        if (set instanceof RuleViolation) throw new Error(`refused: ${set.message}\n${ctx({ wanted })}`);
        e = [...e, ...set];
        expect({ ctx: ctx({ wanted }), order: stateOf(e).order }).toEqual({
          ctx: ctx({ wanted }),
          order: wanted,
        });
        expectPending([], 'set');
        seen('set');
      };
      if (open.length || r() < 0.3) setInitiative();

      // Late joiners (A32): a beast, or a Binder for a beast that has none.
      for (let j = 0; j < int(1, 3); j++) {
        const lone = beastIds().filter((id) => !binderOf[id]);
        if (lone.length && r() < 0.25) {
          const beastId = lone[int(0, lone.length - 1)];
          const id = `${beastId}x`;
          const before = stateOf(e).order;
          const add = decide(e, {
            type: 'AddCombatant',
            combatant: { id, name: id, side: 'players', sheet: binderSheet(beastId) },
          });
          if (add instanceof RuleViolation) throw new Error(`refused: ${add.message}\n${ctx({ id })}`);
          e = [...e, ...add];
          binderOf[beastId] = id;
          // "Beast Binder Placement: Shares turn with Arcana Beast": right after its beast, the rest unchanged (A21).
          const at = before.indexOf(beastId) + 1;
          expect({ ctx: ctx({ id, before }), order: stateOf(e).order }).toEqual({
            ctx: ctx({ id, before }),
            order: [...before.slice(0, at), id, ...before.slice(at)],
          });
          seen('binder joins');
          continue;
        }
        const id = `j${run}_${j}`;
        const agility = int(0, 3);
        const stage = [0, 1, 2, 3, 4][int(0, 4)];
        const { faces, total: t } = initiative(fuzz, agility, stage);
        const before = stateOf(e).order;
        const beastsBefore = before.filter((x) => x in binderOf);
        // "remains fixed": slotted before the first beast with fewer successes, or last; the others keep their order.
        const firstFewer = beastsBefore.findIndex((x) => total[x] < t);
        // The successes rolled stand through an order the GM set (A32): the slot is read from them, not re-sorted.
        if (beastsBefore.some((x, k) => k > 0 && total[beastsBefore[k - 1]] < total[x]))
          seen('join after GM order');
        const slot = firstFewer < 0 ? before.length : before.indexOf(beastsBefore[firstFewer]);
        const slotted = [...before.slice(0, slot), id, ...before.slice(slot)];
        // A32: a tie with the beast just before it, and with those before that tied with it, is an initiative tie.
        const group = [id];
        for (let k = (firstFewer < 0 ? beastsBefore.length : firstFewer) - 1; k >= 0; k--) {
          if (total[beastsBefore[k]] !== t) break;
          group.unshift(beastsBefore[k]);
        }
        const combatant = { id, name: id, side: 'late', sheet: sheet(agility, stage) };
        binderOf[id] = undefined;
        const jtb = r() < 0.5 ? someTieBreak(r() < 0.7 ? id : undefined) : undefined;
        if (jtb && r() < 0.2)
          faultyTieBreak(jtb, (tieBreak) => ({ type: 'AddCombatant', combatant, tieBreak }), { dice: faces });
        const add = decide(
          e,
          { type: 'AddCombatant', combatant, ...(jtb ? { tieBreak: jtb } : {}) },
          { dice: faces },
        );
        if (add instanceof RuleViolation)
          throw new Error(`refused: ${add.message}\n${ctx({ id, jtb, faces })}`);
        e = [...e, ...add];
        total[id] = t;
        const now = stateOf(e).order;
        const what = 'join';
        const c = ctx({ id, t, jtb, before, slotted, group });
        if (group.length === 1) {
          expect({ c, order: now }).toEqual({ c, order: slotted });
          expectPending([], what);
          seen('join apart');
        } else {
          // The tied group holds the beasts’ places it held once slotted; every other beast keeps its place, and each
          // Binder stays right after its beast (A21).
          const beastNow = now.filter((x) => x in binderOf);
          const beastSlotted = slotted.filter((x) => x in binderOf);
          expect({ c, order: now }).toEqual({ c, order: withBinders(beastNow) });
          expect({ c, beasts: beastNow.map((x) => (group.includes(x) ? '*' : x)) }).toEqual({
            c,
            beasts: beastSlotted.map((x) => (group.includes(x) ? '*' : x)),
          });
          const settled = checkGroup(now, group, jtb ?? [], what);
          expectPending(settled ? [] : [group], what);
          seen(settled ? 'join tie settled' : 'join tie open');
          if (!settled) setInitiative();
        }
      }
    }
    covered([
      'tie open',
      'tie settled',
      'set',
      'binder misplaced',
      'binder joins',
      'join apart',
      'join tie settled',
      'join tie open',
      'join after GM order',
      'tieBreak nobody',
      'tieBreak twice',
      'tieBreak binder',
    ]);
  });
  it('given random bypass movements, difficult terrain, Cornered tags, Direct and ranged Zero Powers, when beasts move, Reposition and use the power, then what is allowed, the tests, the bands and the pools match the text', () => {
    const fuzz = explore(SEED + 1);
    const { r, int, pick, roll, seen, covered } = fuzz;
    const MOVES = ['flight', 'teleport', 'burrowing'] as const;
    for (let run = 0; run < RUNS; run++) {
      const ids = ['m0', 'm1', 'm2'];
      const beast = ids.map((id) => ({
        id,
        agility: int(0, 3),
        spirit: int(0, 3),
        stage: pick([0, 1, 2, 3, 4]),
        movement: MOVES.filter(() => r() < 0.3),
        zero: { range: pick(RANGES), ranks: int(0, 2) },
      }));
      const of = (id: string) => beast.find((b) => b.id === id)!;
      const bound = r() < 0.6; // m0’s Binder m0x (Agility 2 on d6) shares m0’s place and bands (A17).
      const fighters: Fighter[] = beast.map((b) => ({
        id: b.id,
        side: b.id, // every beast its own side: no combo, no ally (A20, A59)
        sheet: {
          kind: 'beast',
          stats: stats(b.agility, 2, b.spirit),
          hp: 99,
          stamina: 1,
          stage: b.stage,
          stages: [{ stage: b.stage }],
          attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
          zeroPower: {
            name: 'Zero',
            trigger: 'hope',
            range: b.zero.range,
            stat: 'spirit',
            ranks: b.zero.ranks,
          },
          ...(b.movement.length ? { movement: b.movement } : {}),
        },
      }));
      if (bound) fighters.splice(1, 0, { id: 'm0x', side: 'm0', sheet: binderSheet('m0') });
      let e = fight(fighters);
      const map = bandMap(fuzz, bound);
      const { band, terrain, place } = map;
      for (const [a, b] of map.pairs) e = map.set(e, a, b, pick(BANDS), r() < 0.5 ? int(1, 2) : 0);
      // "Cornered": against no one, one opponent, or m0’s Binder (which holds against m0 too, A51); never against
      // itself or whoever shares its place (A28).
      const cornered: Record<string, string | null> = {};
      for (const id of ids)
        if (r() < 0.45) {
          const against = pick([
            null,
            ...ids.filter((x) => x !== id),
            ...(bound && id !== 'm0' ? ['m0x'] : []),
          ]);
          e = then(e, {
            type: 'SetTag',
            combatantId: id,
            tag: 'cornered',
            ...(against ? { againstId: against } : {}),
          });
          cornered[id] = against;
        }
      /** A39, A51: a Cornered tag holds against its opponent and whoever shares its place, or against anyone. */
      const corneredBy = (id: string, other: string) =>
        id in cornered && (cornered[id] === null || place(cornered[id]) === place(other));
      const zpUsed: Record<string, boolean> = {};
      const trigger: Record<string, boolean> = {};
      for (let round = 1; round <= 2; round++) {
        if (round === 2) e = then(e, { type: 'StartRound' });
        for (const me of ids) {
          e = then(e, { type: 'StartActivation', combatantId: me });
          // "Direct: Arcana Beast's action gains +1 die (no roll)", given before the beast acts.
          let direct = false;
          if (me === 'm0' && bound && r() < 0.5) {
            e = then(e, { type: 'Direct', combatantId: 'm0x' });
            direct = true;
          }
          let action = false;
          let free = false;
          for (let step = 0; step < 3; step++) {
            const aim = map.aim(me);
            const { toward, from, to, dist } = aim;
            const using = r() < 0.45 ? pick(MOVES) : undefined;
            const listed = using === undefined || of(me).movement.includes(using);
            const kind = pick([
              'move',
              'move',
              'reposition',
              'reposition',
              'advantage',
              'zero',
              'zero',
            ] as const);
            const ctx = (extra: object = {}) =>
              JSON.stringify({
                run,
                round,
                me,
                kind,
                aim,
                using,
                band,
                terrain,
                cornered,
                beast,
                action,
                free,
                direct,
                ...extra,
              });
            const outcome = (got: RuleEvent[] | RuleViolation) =>
              got instanceof RuleViolation ? [got.code, got.field] : 'allowed';
            /** Allowed, or refused with the code and field `want` names ('refused': with any). */
            const expectOutcome = (got: RuleEvent[] | RuleViolation, want: unknown) => {
              const have = outcome(got);
              expect({
                ctx: ctx(),
                have: want === 'refused' && have !== 'allowed' ? 'refused' : have,
              }).toEqual({ ctx: ctx(), have: want });
            };
            if (kind === 'move' || kind === 'reposition') {
              const isFree = kind === 'move';
              // "Move one band for free per turn"; "Two bands … requires Reposition"; "Far … Requires Reposition";
              // "Flight, Teleport, Burrowing bypass restrictions" for a beast whose sheet lists it (A18).
              // "Cornered: Cannot Reposition" measured to its opponent (A39), whatever the movement (A53); the free
              // move is no Reposition.
              let want: unknown = 'allowed';
              // Two refusals at once may name either.
              if ((isFree ? free : action) || (!listed && !isFree && corneredBy(me, toward)))
                want = 'refused';
              else if (!listed) want = ['ARCANA_NO_SUCH_MOVEMENT', 'using'];
              else if (isFree && !using && (dist > 1 || from === 'far')) want = 'refused';
              else if (!isFree && corneredBy(me, toward))
                want = ['ARCANA_CORNERED', cornered[me] === null ? 'type' : 'towardId'];
              // A19: difficult terrain asks an Agility Test at its Difficulty with the beast’s die, unless a bypass
              // movement crosses it; Direct’s die goes to the Action’s roll, the Reposition’s test (A26), not the
              // free move’s.
              const dt = map.terrainOf(me, toward);
              const n = of(me).agility + (!isFree && direct ? 1 : 0);
              const test = want === 'allowed' && dt && !using ? roll(n, sidesOf(of(me).stage)) : undefined;
              const got = decide(
                e,
                {
                  type: isFree ? 'Move' : 'Reposition',
                  combatantId: me,
                  towardId: toward,
                  band: to,
                  ...(using ? { using } : {}),
                },
                test ? { dice: test } : {},
              );
              expectOutcome(got, want);
              if (got instanceof RuleViolation) {
                seen(Array.isArray(want) ? String(want[0]) : 'refused');
                continue;
              }
              const passed = test === undefined || successes(test) >= dt;
              const moved = find(got, 'Moved')!;
              expect({
                ctx: ctx({ test }),
                moved: [
                  moved.from,
                  moved.to,
                  moved.by,
                  moved.using,
                  moved.test?.successes,
                  moved.test?.dice ?? moved.test?.pool?.dice,
                ],
              }).toEqual({
                ctx: ctx({ test }),
                moved: [
                  from,
                  passed ? to : from,
                  isFree ? 'free' : 'reposition',
                  using,
                  test && successes(test),
                  test && n,
                ],
              });
              if (passed) map.moved(me, toward, to);
              if (isFree) free = true;
              else action = true;
              e = [...e, ...got];
              if (using) seen(`bypass ${using}`);
              if (test && !isFree && direct) seen('direct on test');
              if (test) seen('terrain test');
            } else if (kind === 'advantage') {
              // "Reposition: … gain positional advantage": not out of a corner, against anyone (A39).
              const got = decide(e, { type: 'Reposition', combatantId: me });
              const want = action ? 'refused' : me in cornered ? ['ARCANA_CORNERED', 'type'] : 'allowed';
              expectOutcome(got, want);
              if (!(got instanceof RuleViolation)) {
                e = [...e, ...got];
                action = true;
              } else if (me in cornered) seen('cornered advantage');
            } else {
              // "Use Zero Power: Once per scene when trigger is active"; a Zero Power with a range is an attack (A34),
              // with an attack’s reach.
              if (!trigger[me]) {
                e = then(e, { type: 'SetTrigger', combatantId: me, kind: 'zeroPower', active: true });
                trigger[me] = true;
              }
              const range = of(me).zero.range;
              let want: unknown = 'allowed';
              if (action) want = 'refused';
              else if (zpUsed[me]) want = ['ARCANA_ZERO_POWER_USED', 'type'];
              else if (!reaches(range, from)) want = ['ARCANA_OUT_OF_RANGE', 'targetId'];
              // A6: the power’s stat (Spirit) + its ranks + Direct (A26); the Dodge: Agility (m0x’s is 2, on d6), with
              // Setback when the target is Cornered against the attacker (A39, A51, A3). All ones: a miss.
              const atk = of(me).spirit + of(me).zero.ranks + (direct ? 1 : 0);
              const dodge = (toward === 'm0x' ? 2 : of(toward).agility) + (corneredBy(toward, me) ? 1 : 0);
              const cmd: RuleCommand = {
                type: 'UseZeroPower',
                attackerId: me,
                targetId: toward,
                ...(toward === 'm0x' ? { intercept: false } : {}),
              };
              const got = decide(e, cmd, want === 'allowed' ? { dice: Array(atk + dodge).fill(1) } : {});
              const have = outcome(got);
              const code = have === 'allowed' ? have : want === 'refused' ? 'refused' : have[0];
              expect({ ctx: ctx({ range, atk, dodge }), code }).toEqual({
                ctx: ctx({ range, atk, dodge }),
                code: Array.isArray(want) ? want[0] : want,
              });
              if (got instanceof RuleViolation) {
                seen(Array.isArray(want) ? String(want[0]) : 'refused');
                continue;
              }
              const res = find(got, 'AttackResolved')!;
              expect({ ctx: ctx(), res: [res.band, res.outcome, res.attack.dice, res.dodge.dice] }).toEqual({
                ctx: ctx(),
                res: [from, 'miss', atk, dodge - (corneredBy(toward, me) ? 1 : 0)],
              });
              if (corneredBy(toward, me)) seen('cornered dodge');
              if (direct) seen('direct on zero');
              zpUsed[me] = true;
              action = true;
              e = [...e, ...got];
            }
          }
          e = then(e, { type: 'EndActivation' });
        }
      }
    }
    covered([
      'bypass flight',
      'bypass teleport',
      'bypass burrowing',
      'terrain test',
      'direct on test',
      'direct on zero',
      'cornered dodge',
      'cornered advantage',
      'ARCANA_CORNERED',
      'ARCANA_NO_SUCH_MOVEMENT',
      'ARCANA_OUT_OF_RANGE',
      'ARCANA_ZERO_POWER_USED',
    ]);
  });
  it('given random conditions applied and removed, some on a beast in its vessel, when the GM sends them, then only a change appends an event', () => {
    const { r, int, seen, covered } = explore(SEED + 2);
    for (let run = 0; run < Math.ceil(RUNS / 3); run++) {
      // e at Stage 0 (a Call Back makes no Devolution Test from it, A23), its Binder b, and a wild w.
      const stage0 = { kind: 'beast', stats: stats(2), hp: 9, stamina: 1, stage: 0, stages: [{ stage: 0 }] };
      let e = fight([
        { id: 'e', side: 'heroes', sheet: stage0 },
        { id: 'b', side: 'heroes', sheet: binderSheet('e') },
        { id: 'w', side: 'wild', sheet: { ...stage0, stage: 1, stages: [{ stage: 1 }] } },
      ]);
      const held: Record<string, Set<string>> = { e: new Set(), b: new Set(), w: new Set() };
      let vessel = false;
      for (let k = 0; k < 12; k++) {
        if (!vessel && r() < 0.15) {
          // "Call Back: Arcana Beast returns to their Wearable Vessel" in the shared turn (A23).
          e = then(e, { type: 'StartActivation', combatantId: 'e' });
          e = then(e, { type: 'CallBack', combatantId: 'b', mode: 'retreat' });
          e = then(e, { type: 'EndActivation' });
          vessel = true;
          continue;
        }
        const id = ['e', 'b', 'w'][int(0, 2)];
        const condition = ['burned', 'dazed', 'poisoned'][int(0, 2)];
        const apply = r() < 0.6;
        const got = decide(e, {
          type: apply ? 'ApplyCondition' : 'RemoveCondition',
          combatantId: id,
          condition,
        });
        const c = JSON.stringify({
          run,
          k,
          id,
          condition,
          apply,
          vessel,
          held: Object.values(held).map((x) => [...x]),
        });
        if (got instanceof RuleViolation) throw new Error(`refused: ${got.message}\n${c}`);
        // "A command that changes nothing returns no events": a condition held already, or not held, is no change.
        const changes = apply !== held[id].has(condition);
        expect({
          c,
          got: got.map((x) => [x.type, (x.data as Ev).combatantId, (x.data as Ev).condition]),
        }).toEqual({
          c,
          got: changes ? [[apply ? 'ConditionApplied' : 'ConditionRemoved', id, condition]] : [],
        });
        e = [...e, ...got];
        if (apply) held[id].add(condition);
        else held[id].delete(condition);
        seen(
          `${apply ? 'apply' : 'remove'} ${changes ? 'change' : 'same'}${id === 'e' && vessel ? ' vessel' : ''}`,
        );
      }
    }
    covered([
      'apply change',
      'apply same',
      'remove change',
      'remove same',
      'apply change vessel',
      'apply same vessel',
    ]);
  });
});
