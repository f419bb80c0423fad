import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { exact, fight, Fighter, foe, hero, stateOf, sword, then, types } from './helpers';
import { rng } from '../seeded-random';

/**
 * An oracle of grappling, computed from archsoul.txt (Grappling, Being Grappled, Grapple Rolls, Gaining Control) and
 * the rulings S3, S19, S26, S33, S48, S71 and S82 alone (not from the engine’s code), compared with the engine on random
 * fights with manual dice. A hero and an enemy of random Precision, Athletics, Primitive Attacks, Agility and size
 * (small, medium or large), empty-handed or with a sword, stand in adjacent spaces, each facing the other or away.
 * Each turn the combatant Grabs (2 AP) or, once grappled, makes a grapple Attack (1 AP), Escape (2 AP), Takedown (1 AP),
 * Throw (2 AP, thrown to the side or knocked down) or stands up (1 AP). A Grab of a target facing the grabber is offered
 * to it as a reactive attack (Grab: “triggers a reactive attack from the person you are trying to grapple”; S26), which
 * it declines or answers with its own Grab (S71). Checked: every grapple roll’s pool (the grabber’s unarmed roll, any
 * other side the better of unarmed and Athletics/Agility), difficulty (4, ±1 per size step), successes and winner (ties
 * to the controller, a Grab’s tie to the one grabbed, S3); control after every roll (S33: the winner takes it); the
 * grapple’s start and end; the unarmed damage (Athletics dice at 4, the fist’s base 0) and HP; prone and the Takedown’s
 * step; an Escape while prone standing up instead (no reactor: the partner has no front arc); AP. Refused while
 * grappled: a Move (no “regular move action”), an Attack with the sword (S48), a Takedown or Throw without control, a
 * second Grab of the partner. The runs stop when the grapple ends or a combatant goes Down. Not covered: Steal, a Close
 * Combat weapon’s grapple damage, grappling more than one, the other grappled actions’ rolls (S33’s list), reactive
 * attacks on the way of a Charge.
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261209);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

const SIZES = ['small', 'medium', 'large'];

interface Body {
  id: string;
  precision: number;
  athletics: number;
  primitiveAttacks: number;
  agility: number;
  size: number;
  sword: boolean;
  hp: number;
  at: { x: number; y: number };
  facing: 'N' | 'S';
  prone: boolean;
  ap: number;
}
interface Roll {
  pool: number;
  difficulty: number;
  faces: number[];
  successes: number;
}

const summarize = (events: RuleEvent[]): string[] =>
  events.flatMap((e) => {
    const d = e.data as any;
    switch (e.type) {
      case 'ApSpent':
        return [`ap ${d.combatantId} ${d.ap} left ${d.apLeft}`];
      case 'GrappleRolled':
        return [
          `roll ${d.purpose} ${d.actorId}>${d.opponentId} ${d.actor.pool}@${d.actor.difficulty}:${d.actor.roll.faces.join('')}=${d.actor.successes} ` +
            `vs ${d.opponent.pool}@${d.opponent.difficulty}:${d.opponent.roll.faces.join('')}=${d.opponent.successes} win ${d.winnerId}`,
        ];
      case 'GrappleStarted':
        return [`start ${[...d.memberIds].sort().join(',')} control ${d.controlId}`];
      case 'GrappleEnded':
        return ['end'];
      case 'WoundsApplied':
        return [
          `wound ${d.combatantId} ${d.damageRoll.pool}:${d.damageRoll.roll.faces.join('')} ${d.damage} hp ${d.hp}`,
        ];
      case 'ConditionApplied':
      case 'ConditionRemoved':
        return d.condition === 'prone' || d.condition === 'grappled'
          ? [`${e.type === 'ConditionApplied' ? '+' : '-'}${d.condition} ${d.combatantId}`]
          : [];
      case 'Moved':
        return [`moved ${d.combatantId} ${d.to.x},${d.to.y}${d.distance === 0 ? ' (0)' : ''}`];
      case 'ReactiveAttackOffered':
        return [`offer ${d.reactorId}`];
      case 'ReactionsFinished':
        return [`finished ${d.prevented}`];
      default:
        return [];
    }
  });

/** AP spent and conditions applied or removed together are compared as sets: their order is not a rule. */
const normalize = (lines: string[]): string[] => {
  const out: string[] = lines.filter((l) => l.startsWith('ap '));
  lines = lines.filter((l) => !l.startsWith('ap '));
  let run: string[] = [];
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const l of lines)
    if (/^[+-]/.test(l)) run.push(l);
    else {
      flush();
      out.push(l);
    }
  flush();
  return out;
};

describe('archsoul oracle: grappling from the text against the engine', () => {
  it('given random grapples, when each Grab, grapple Attack, Escape, Takedown, Throw and stand up resolves, then rolls, control, damage, prone, steps, AP and refusals match the text', () => {
    const r = rng(SEED);
    const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
    const stats: Record<string, number> = {};
    const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);

    for (let run = 0; run < RUNS; run++) {
      const body = (id: string, y: number): Body => ({
        id,
        precision: int(1, 4),
        athletics: int(1, 4),
        primitiveAttacks: int(0, 3),
        agility: int(0, 3),
        size: int(0, 2),
        sword: r() < 0.5,
        hp: 10,
        at: { x: 0, y },
        facing: r() < 0.5 ? 'N' : 'S',
        prone: false,
        ap: 0,
      });
      const a = body('a', 0);
      const v = body('v', -1);
      const bodies = [a, v];
      const other = (b: Body) => (b === a ? v : a);
      const fighter = (b: Body, side: string): Fighter => ({
        id: b.id,
        side,
        at: [b.at.x, b.at.y],
        facing: b.facing,
        sheet: {
          attributes: {
            precision: b.precision,
            athletics: b.athletics,
            endurance: 2,
            soulpower: 1,
            intellect: 1,
          },
          skills: {
            awareness: 1,
            primitiveAttacks: b.primitiveAttacks,
            agility: b.agility,
            meleeWeapons: 1,
            resolve: 1,
          },
          maxHp: 10,
          defense: 1,
          size: SIZES[b.size],
          weapons: b.sword ? [sword] : [],
        },
      });
      let events = fight([fighter(a, 'heroes'), fighter(v, 'enemies')]);
      let grapple: { control: string } | undefined;
      let over = false;
      const where = () => `run ${run} (FUZZ_SEED=${SEED})`;

      // Grapple Rolls: “The difficulty of these rolls may increase or decrease based on the size of the opponent” (S33:
      // ±1 per size step). A die succeeds at or above the difficulty.
      const roll = (pool: number, b: Body, dice: number[], noFumble = false): Roll => {
        const difficulty = 4 - (b.size - other(b).size);
        for (;;) {
          const faces = Array.from({ length: pool }, () => int(1, 6));
          const successes = faces.filter((f) => f >= difficulty).length;
          const ones = faces.filter((f) => f === 1).length;
          // A Grab’s roll is an unarmed attack whose critical failure rolls the unarmed table (S33): kept off it.
          if (noFumble && successes === 0 && 2 * ones > faces.length) continue;
          dice.push(...faces);
          return { pool, difficulty, faces, successes };
        }
      };
      const unarmed = (b: Body) => b.precision + b.primitiveAttacks;
      // Grapple Rolls: “either an unarmed attack roll or an Athletics/Agility roll”: the better pool (S33).
      const better = (b: Body) => Math.max(unarmed(b), b.athletics + b.agility);
      const line = (purpose: string, x: Body, y: Body, p: Roll, q: Roll, win: Body) =>
        `roll ${purpose} ${x.id}>${y.id} ${p.pool}@${p.difficulty}:${p.faces.join('')}=${p.successes} ` +
        `vs ${q.pool}@${q.difficulty}:${q.faces.join('')}=${q.successes} win ${win.id}`;

      const send = (command: RuleCommand, dice: number[], expected: string[]) => {
        const out = exact(events, command, { dice });
        if (process.env.FUZZ_TRACE === String(run)) console.log(JSON.stringify(command), summarize(out));
        expect({ where: where(), command, got: normalize(summarize(out)) }).toEqual({
          where: where(),
          command,
          got: normalize(expected),
        });
        events = [...events, ...out];
        return out;
      };
      const refuse = (command: RuleCommand, code: string, also?: string) => {
        let violation: unknown;
        try {
          exact(events, command, {});
        } catch (e) {
          violation = e;
        }
        const got = (violation as RuleViolation | undefined)?.code;
        expect({ where: where(), command, code: got === also ? code : got }).toEqual({
          where: where(),
          command,
          code,
        });
        count(`refused ${code}`);
      };
      const damage = (x: Body, y: Body, dice: number[], out: string[]) => {
        // Grappling: Attack: “you deal your unarmed damage”: the fist’s base 0 plus Athletics, difficulty 4.
        const faces = Array.from({ length: x.athletics }, () => int(1, 6));
        dice.push(...faces);
        const dealt = faces.filter((f) => f >= 4).length;
        y.hp = Math.max(0, y.hp - dealt);
        out.push(`wound ${y.id} ${x.athletics}:${faces.join('')} ${dealt} hp ${y.hp}`);
        if (y.hp === 0) over = true;
      };
      const ended = (out: string[]) => {
        grapple = undefined;
        out.push('end', `-grappled ${a.id}`, `-grappled ${v.id}`);
        over = true;
      };

      /** An opposed grapple roll of x against y; the controller wins ties (Gaining Control), the winner takes control. */
      const opposed = (purpose: string, x: Body, y: Body, dice: number[], out: string[]) => {
        const p = roll(better(x), x, dice);
        const q = roll(better(y), y, dice);
        const won = p.successes > q.successes || (p.successes === q.successes && grapple?.control === x.id);
        out.push(line(purpose, x, y, p, q, won ? x : y));
        grapple = { control: won ? x.id : y.id };
        count(`${purpose} ${won ? 'won' : 'lost'}`);
        return won;
      };

      const grab = (x: Body) => {
        const y = other(x);
        x.ap -= 2;
        const out = [`ap ${x.id} 2 left ${x.ap}`];
        // Grab: “triggers a reactive attack from the person you are trying to grapple”, if x is in y’s front arc (S26).
        const faces = y.facing === (x.at.y > y.at.y ? 'S' : 'N');
        if (faces) {
          out.push(`offer ${y.id}`);
          send({ type: 'Grab', combatantId: x.id, targetId: y.id }, [], out);
          if (r() < 0.5) {
            // S71: the reactive Grab: y’s unarmed roll against x’s better grapple roll, the tie to x; a win grapples
            // both, y in control, and x’s Grab has nothing left to start (prevented).
            const dice: number[] = [];
            const p = roll(unarmed(y), y, dice, true);
            const q = roll(better(x), x, dice);
            const won = p.successes > q.successes;
            const res = [line('Grab', y, x, p, q, won ? y : x)];
            if (won) {
              grapple = { control: y.id };
              res.push(`start a,v control ${y.id}`, `+grappled ${y.id}`, `+grappled ${x.id}`);
            }
            res.push(`finished ${won}`);
            count(`reactive Grab ${won ? 'won' : 'lost'}`);
            send({ type: 'ReactiveAttack', combatantId: y.id, grab: true }, dice, res);
            if (won) return;
          } else send({ type: 'DeclineReactiveAttack', combatantId: y.id }, [], ['finished false']);
          out.length = 0;
        }
        // Grab: “roll an unarmed attack with an empty hand. The opponent may defend with either an unarmed attack roll
        // of their own or an Athletics/Agility roll.” No one is in control yet: the tie fails (S3).
        const dice: number[] = [];
        const p = roll(unarmed(x), x, dice, true);
        const q = roll(better(y), y, dice);
        const won = p.successes > q.successes;
        out.push(line('Grab', x, y, p, q, won ? x : y));
        if (won) {
          grapple = { control: x.id };
          out.push(`start a,v control ${x.id}`, `+grappled ${x.id}`, `+grappled ${y.id}`);
        }
        count(`Grab ${won ? 'won' : 'lost'}`);
        send(
          faces
            ? { type: 'ResumeAction', combatantId: x.id }
            : { type: 'Grab', combatantId: x.id, targetId: y.id },
          dice,
          out,
        );
      };

      const act = (x: Body) => {
        const y = other(x);
        if (!grapple) {
          if (x.ap >= 2 && r() < 0.7) grab(x);
          else x.ap = 0;
          return;
        }
        const control = grapple.control === x.id;
        const choice = int(0, 9);
        if (choice === 0)
          return refuse(
            { type: 'Move', combatantId: x.id, path: [{ x: x.at.x + 1, y: x.at.y }] },
            'ARCHSOUL_GRAPPLED',
            x.prone ? 'ARCHSOUL_PRONE' : undefined,
          );
        if (choice === 1 && x.sword)
          return refuse(
            { type: 'Attack', attackerId: x.id, targetId: y.id, weaponId: 'sword' },
            'ARCHSOUL_GRAPPLED',
          );
        if (choice === 2 && !control)
          return refuse(
            r() < 0.5
              ? { type: 'Takedown', combatantId: x.id, targetId: y.id }
              : { type: 'GrappleThrow', combatantId: x.id, targetId: y.id },
            'ARCHSOUL_GRAPPLE_NO_CONTROL',
          );
        if (choice === 3 && x.ap >= 2)
          return refuse({ type: 'Grab', combatantId: x.id, targetId: y.id }, 'ARCHSOUL_ALREADY_GRAPPLING');
        const dice: number[] = [];
        const out: string[] = [];
        const spend = (n: number) => {
          x.ap -= n;
          out.push(`ap ${x.id} ${n} left ${x.ap}`);
        };
        if (choice === 4 && x.prone) {
          // S33: Stand Up while grappled first takes the grapple roll; the partner has no front arc, so no reactor.
          spend(1);
          if (opposed('StandUp', x, y, dice, out)) {
            x.prone = false;
            out.push(`-prone ${x.id}`);
          }
          return send({ type: 'StandUp', combatantId: x.id }, dice, out);
        }
        if (choice <= 5 && x.ap >= 2) {
          // Escape: “On a success, you are no longer grappled. If you are knocked down, you instead stand up, but are
          // still grappled.”
          spend(2);
          if (opposed('Escape', x, y, dice, out)) {
            if (x.prone) {
              count('Escape stood up');
              x.prone = false;
              out.push(`-prone ${x.id}`);
            } else ended(out);
          }
          return send({ type: 'Escape', combatantId: x.id, targetId: y.id }, dice, out);
        }
        if (choice === 6 && control) {
          // Takedown: “you and your opponent are both knocked down and you move into your opponent’s space.”
          spend(1);
          if (opposed('Takedown', x, y, dice, out)) {
            for (const b of [x, y].filter((k) => !k.prone)) {
              out.push(`+prone ${b.id}`);
              b.prone = true;
            }
            if (x.at.x !== y.at.x || x.at.y !== y.at.y) {
              x.at = { ...y.at };
              out.push(`moved ${x.id} ${x.at.x},${x.at.y}`);
            }
          }
          return send({ type: 'Takedown', combatantId: x.id, targetId: y.id }, dice, out);
        }
        if (choice === 7 && control && x.ap >= 2) {
          // Throw: “you deal your unarmed damage to the opponent and may either throw the opponent or knock the
          // opponent down. The grapple immediately ends.” A lost roll: nothing (S82).
          spend(2);
          const away = r() < 0.5;
          const to = { x: x.at.x + 1, y: x.at.y };
          if (opposed('Throw', x, y, dice, out)) {
            damage(x, y, dice, out);
            // The text does not spare an opponent the damage takes Down: it is thrown or knocked down all the same.
            if (away) {
              y.at = to;
              out.push(`moved ${y.id} ${to.x},${to.y}`);
            } else if (!y.prone) {
              y.prone = true;
              out.push(`+prone ${y.id}`);
            }
            ended(out);
          }
          return send(
            away
              ? { type: 'GrappleThrow', combatantId: x.id, targetId: y.id, outcome: 'throw', to }
              : { type: 'GrappleThrow', combatantId: x.id, targetId: y.id, outcome: 'knockDown' },
            dice,
            out,
          );
        }
        if (x.ap >= 1) {
          // Grappling: Attack: “Make opposed grapple rolls with your target. On a success, you deal your unarmed damage.”
          spend(1);
          if (opposed('Attack', x, y, dice, out)) damage(x, y, dice, out);
          return send({ type: 'GrappleAttack', combatantId: x.id, targetId: y.id }, dice, out);
        }
        x.ap = 0;
      };

      for (let round = 1; round <= 3 && !over; round++) {
        if (round > 1) events = [...events, ...exact(events, { type: 'StartRound' })];
        for (const x of bodies) {
          if (over) break;
          x.ap = 3;
          for (let step = 0; step < 6 && x.ap > 0 && !over; step++) act(x);
          if (over) break;
          events = [...events, ...exact(events, { type: 'EndTurn', combatantId: x.id })];
        }
      }

      const s = stateOf(events);
      for (const b of bodies) {
        const c = s.combatants[b.id];
        expect({
          where: where(),
          id: b.id,
          hp: c.hp,
          at: c.position,
          prone: c.conditions.some((k) => k.condition === 'prone'),
        }).toEqual({
          where: where(),
          id: b.id,
          hp: b.hp,
          at: b.at,
          prone: b.prone,
        });
      }
      expect({ where: where(), grapples: s.grapples.map((g) => g.controlId) }).toEqual({
        where: where(),
        grapples: grapple ? [grapple.control] : [],
      });
    }
    if (process.env.FUZZ_REPORT) console.log(stats);
    for (const k of [
      'Grab won',
      'Grab lost',
      'reactive Grab won',
      'Attack won',
      'Escape won',
      'Takedown won',
      'Throw won',
      'StandUp won',
    ])
      expect({ k, seen: (stats[k] ?? 0) > 0 }).toEqual({ k, seen: true });
  });
});

describe('Takedown: “you move into your opponent’s space” (archsoul.txt: Grappling: Takedown)', () => {
  it('archsoul.txt: Takedown: given a taker already in its opponent’s space after an earlier Takedown, when it wins another, then it does not move', () => {
    // Default sheets (helpers.ts), both medium: a’s grapple roll is the better of unarmed (Precision 2 + Primitive
    // Attacks 1 = 3) and Athletics 2 + Agility 0 = 2, so 3 dice at 4; v’s the same. v faces away: no reactive attack.
    // Grab (2 AP): 4, 4, 1 = 2 beat 4, 1, 1 = 1, a in control. Takedown (1 AP): 2 beat 1, both prone, a steps from
    // (0, 0) into v’s space (0, -1). Next round, a second Takedown: 2 beat 1 again; a is already in v’s space.
    const win = { dice: [4, 4, 1, 4, 1, 1] };
    let events = then(
      fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'N')]),
      { type: 'Grab', combatantId: 'a', targetId: 'v' },
      win,
    );
    events = then(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' }, win);
    expect(stateOf(events).combatants.a.position).toEqual({ x: 0, y: -1 });
    for (const id of ['a', 'v']) events = then(events, { type: 'EndTurn', combatantId: id });
    events = then(events, { type: 'StartRound' });
    const again = exact(events, { type: 'Takedown', combatantId: 'a', targetId: 'v' }, win);
    expect(types(again)).toEqual(['ApSpent', 'GrappleRolled']);
    expect(stateOf([...events, ...again]).combatants.a.position).toEqual({ x: 0, y: -1 });
  });
});
