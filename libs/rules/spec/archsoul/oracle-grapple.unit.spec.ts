import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { exact, fight, Fighter, foe, hero, stateOf, sword, then, types } from './helpers';
import { rng } from '../seeded-random';
import { distance, inFrontArc, same, Space, STEPS } from './oracle-kit';

/**
 * An oracle of grappling, computed from archsoul.txt (Grappling, Being Grappled, Grapple Rolls, Gaining Control, Steal)
 * and the rulings S3, S19, S26, S33, S43, S48, S51, S62, S71 and S82 alone (not from the engine’s code), compared with the
 * engine on random fights with manual dice. A hero a and an enemy v of random Precision, Athletics, Primitive Attacks,
 * Agility and size (small, medium or large), a sword in hand or in its scabbard, a greatsword stowed, a potion in a
 * pouch and a rope in a backpack, stand in adjacent spaces, each facing the other or away; in half the runs a second
 * enemy w stands on a’s other side, facing away, and may grab a too, so that a is held by two (or a grabs w while v holds
 * it). Each turn the combatant Grabs (2 AP) or, once grappled, makes against one partner a grapple Attack (1 AP), Escape
 * (2 AP), Takedown (1 AP), Throw (2 AP, thrown to the side or knocked down) or Steal (1 AP), or stands up (1 AP) or Slow
 * Moves (1 AP). A Grab of a target free to react and facing the grabber is offered to it as a reactive attack (Grab:
 * “triggers a reactive attack from the person you are trying to grapple”; S26), which it declines or answers with its
 * own Grab (S71). Checked: every grapple roll’s pool (the grabber’s unarmed roll, any other side the better of unarmed
 * and Athletics/Agility), difficulty (4, ±1 per size step), successes and winner (ties to the controller of that
 * grapple, a Grab’s tie to the one grabbed, S3); control after every roll (S33: the winner takes it); each grapple’s
 * start and end, and `grappled` while any grapple holds; the unarmed damage (Athletics dice at 4, the fist’s base 0) and
 * HP; prone and the Takedown’s step; an Escape while prone standing up instead; the actions Being Grappled lets through
 * after a grapple roll (S33: Stand Up, Slow Move, a Grab of another), rolled against each partner in turn, the first lost
 * roll ending the attempt with its AP spent; “Any action that would cause your character to move causes all targets
 * grappling you to move as well” (S33: a Slow Move drags each partner by the same step, or into the space left when that
 * is not free; so does a Takedown’s step, for the taker’s other partners); Steal: “a single item from the target’s hand
 * or an easily accessible place on the body, such as a bandolier or scabbard” (the sword in hand or scabbard, the potion
 * taken; the stowed greatsword, S62, and the backpack’s rope refused), the item leaving its owner for the thief’s
 * `stolen`; two grapplers sharing a space after a Takedown until their grapple ends, the one that entered then pushed out
 * to a free adjacent space when its turn ends (S43); AP. Refused while grappled: a Move (no “regular move action”), an Attack with the sword (S48), a Takedown,
 * Throw or Steal without control, a second Grab of a partner. The runs stop when a combatant goes Down. Not covered: a
 * Close Combat weapon’s grapple damage; a Throw of one that another still holds (whether those grappling it are thrown
 * along is not the text’s: such a one is knocked down); an Escape standing up while another partner still holds; a Slow
 * Move or a stand-up a free foe could react to; a move that would leave a grapple’s two members apart (the engine drags
 * only the mover’s own partners, not those grappling a partner it drags: see oracle-findings.unit.spec.ts); a grapple
 * ended in a shared space by the one that did not enter it; the other grappled actions’ rolls (S33’s list); reactive
 * attacks on the way of a Charge (see oracle.unit.spec.ts).
 * FUZZ_RUNS and FUZZ_SEED explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261209);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const SIZES = ['small', 'medium', 'large'];
const greatsword = {
  id: 'greatsword',
  name: 'Greatsword',
  type: 'melee',
  damage: 3,
  twoHanded: true,
  held: false,
};
const ITEMS = [
  { id: 'potion', name: 'Potion' },
  { id: 'rope', name: 'Rope', stowage: 'awkward' },
];

interface Body {
  id: string;
  side: 'heroes' | 'enemies';
  precision: number;
  athletics: number;
  primitiveAttacks: number;
  agility: number;
  size: number;
  /** The sword in hand (else in its scabbard). */
  sword: boolean;
  hp: number;
  at: Space;
  facing: 'N' | 'S';
  prone: boolean;
  ap: number;
  /** Steal: what can be taken from it (from its hand, a scabbard or a pouch); the rest is out of reach. */
  items: string[];
  /** What it stole: owner and item. */
  stolen: string[];
}
/** A grapple: who grabbed, who was grabbed, who has control, who took the other down into its space (S43). */
interface Grip {
  x: Body;
  y: Body;
  control: Body;
  entered?: Body;
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
      case 'ItemStolen':
        return [`stolen ${d.combatantId}<${d.fromId} ${d.itemId}`];
      case 'ReactiveAttackOffered':
        return [`offer ${d.reactorId}`];
      case 'ReactionsFinished':
        return [`finished ${d.prevented}`];
      default:
        return [];
    }
  });

/**
 * AP spent, conditions applied or removed together, and combatants moved together are compared as sets: their order is
 * not a rule.
 */
const normalize = (lines: string[]): string[] => {
  const out: string[] = lines.filter((l) => l.startsWith('ap '));
  lines = lines.filter((l) => !l.startsWith('ap '));
  const kind = (l: string) => (/^[+-]/.test(l) ? 'condition' : l.startsWith('moved ') ? 'moved' : undefined);
  let run: string[] = [];
  let runKind: string | undefined;
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const l of lines) {
    const k = kind(l);
    if (k !== runKind) flush();
    runKind = k;
    if (k) run.push(l);
    else out.push(l);
  }
  flush();
  return out;
};

describe('archsoul oracle: grappling from the text against the engine', () => {
  it('given random grapples of two or three, when each Grab, grapple Attack, Escape, Takedown, Throw, Steal, stand up and Slow Move resolves, then rolls, control, damage, prone, steps, drags, thefts, AP and refusals match the text', () => {
    const r = rng(SEED);
    const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
    const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)];
    const stats: Record<string, number> = {};
    const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);

    for (let run = 0; run < RUNS; run++) {
      const body = (id: string, side: Body['side'], y: number, facing?: Body['facing']): Body => ({
        id,
        side,
        precision: int(1, 4),
        athletics: int(1, 4),
        primitiveAttacks: int(0, 3),
        agility: int(0, 3),
        size: int(0, 2),
        sword: r() < 0.5,
        hp: 10,
        at: { x: 0, y },
        facing: facing ?? (r() < 0.5 ? 'N' : 'S'),
        prone: false,
        ap: 0,
        items: ['sword', 'potion'],
        stolen: [],
      });
      const a = body('a', 'heroes', 0);
      const v = body('v', 'enemies', -1);
      // w stands south of a facing south, away from it: it never has a in its front arc, so it reacts to nothing.
      const bodies = r() < 0.5 ? [a, v, body('w', 'enemies', 1, 'S')] : [a, v];
      const fighter = (b: Body): Fighter => ({
        id: b.id,
        side: b.side,
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
          weapons: [{ ...sword, held: b.sword }, greatsword],
          items: ITEMS,
        },
      });
      let events = fight(bodies.map(fighter));
      let grips: Grip[] = [];
      let over = false;
      const where = () => `run ${run} (FUZZ_SEED=${SEED})`;
      if (bodies.length === 3) count('three');

      const dist = (p: Space, q: Space) => distance('hex', p, q);
      const foes = (b: Body) => bodies.filter((c) => c.side !== b.side);
      const gripOf = (b: Body, c: Body) =>
        grips.find((g) => (g.x === b && g.y === c) || (g.x === c && g.y === b));
      /** Its partners, in the order their grapples began (S33: “against each partner in turn”). */
      const partners = (b: Body) =>
        grips.filter((g) => g.x === b || g.y === b).map((g) => (g.x === b ? g.y : g.x));
      const grappled = (b: Body) => partners(b).length > 0;
      const occupied = (sp: Space) => bodies.some((c) => same(c.at, sp));
      /**
       * Reactive Attack: f may react to x only with x within reach (the fist or the sword: adjacent) and in its front
       * arc; Being Grappled: “You also do not have a front arc while grappled”.
       */
      const canReact = (f: Body, x: Body) =>
        f.side !== x.side &&
        !grappled(f) &&
        dist(f.at, x.at) === 1 &&
        inFrontArc('hex', f.at, f.facing, x.at);

      // Grapple Rolls: “The difficulty of these rolls may increase or decrease based on the size of the opponent” (S33:
      // ±1 per size step). A die succeeds at or above the difficulty.
      const roll = (pool: number, b: Body, o: Body, dice: number[], noFumble = false): Roll => {
        const difficulty = 4 - (b.size - o.size);
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
      /** A grapple begins (S33): both grappled, the one not already. */
      const begin = (x: Body, y: Body, control: Body, out: string[]) => {
        const fresh = [x, y].filter((b) => !grappled(b));
        grips.push({ x, y, control });
        out.push(`start ${[x.id, y.id].sort().join(',')} control ${control.id}`);
        for (const b of fresh) out.push(`+grappled ${b.id}`);
      };
      /** A grapple ends; a member in no other grapple is no longer grappled. */
      const finish = (g: Grip, out: string[]) => {
        grips = grips.filter((k) => k !== g);
        out.push('end');
        for (const b of [g.x, g.y]) if (!grappled(b)) out.push(`-grappled ${b.id}`);
        count('grapple ended');
      };

      /**
       * An opposed grapple roll of x against y; the controller of their grapple wins ties (Gaining Control), the winner
       * takes control of it.
       */
      const opposed = (purpose: string, x: Body, y: Body, dice: number[], out: string[]) => {
        const g = gripOf(x, y)!;
        const p = roll(better(x), x, y, dice);
        const q = roll(better(y), y, x, dice);
        const won = p.successes > q.successes || (p.successes === q.successes && g.control === x);
        out.push(line(purpose, x, y, p, q, won ? x : y));
        g.control = won ? x : y;
        count(`${purpose} ${won ? 'won' : 'lost'}`);
        return won;
      };
      /**
       * Being Grappled: “any actions you attempt must overcome the force grappling you … All other actions require a
       * successful grapple roll to attempt” (S33: against each partner in turn; the first lost ends the attempt, its
       * AP spent).
       */
      const gate = (purpose: string, x: Body, dice: number[], out: string[]) => {
        const ps = partners(x);
        if (ps.length > 1) count(`${purpose} against two`);
        for (const p of ps) if (!opposed(purpose, x, p, dice, out)) return false;
        return true;
      };
      /**
       * Being Grappled: “Any action that would cause your character to move causes all targets grappling you to move as
       * well” (S33: each partner of x moving from `from` to `to`, `except` the one it steps onto, by the same step, or
       * into the space left when that is not free; then each of their other partners, by their step). Undefined where the text leaves the outcome to an order: a partner
       * stepping where another partner stands, or two falling back into the one space left; and where a grapple would
       * be left with its members apart.
       */
      const dragPlan = (
        x: Body,
        from: Space,
        to: Space,
        except?: Body,
      ): [Body, Space, boolean, boolean?][] | undefined => {
        const movers = partners(x).filter((k) => k !== except);
        const staying = bodies.filter((c) => c !== x && !movers.includes(c));
        const plan: [Body, Space, boolean, boolean?][] = [];
        let fallen = false;
        for (const z of movers) {
          const step = { x: z.at.x + to.x - from.x, y: z.at.y + to.y - from.y };
          if (movers.some((o) => o !== z && same(o.at, step))) return undefined;
          if (same(step, to) || staying.some((c) => same(c.at, step))) {
            if (fallen) return undefined;
            fallen = true;
            plan.push([z, { ...from }, true]);
          } else plan.push([z, step, false]);
        }
        // A partner dragged moves too, so its own other partners move as well (S33: by its step, or into the space it
        // left; each once, the one stepped onto staying). Undefined where more than one would follow (an order again).
        const at = (b: Body) => (b === x ? to : (plan.find(([z]) => z === b)?.[1] ?? b.at));
        const next = plan.flatMap(([z, zTo]) =>
          partners(z)
            .filter((k) => k !== x && k !== except && !movers.includes(k))
            .map((k): [Body, Body, Space] => [k, z, zTo]),
        );
        if (next.length > 1) return undefined;
        for (const [k, z, zTo] of next) {
          const step = { x: k.at.x + zTo.x - z.at.x, y: k.at.y + zTo.y - z.at.y };
          const taken = (sp: Space) => bodies.some((c) => c !== k && same(at(c), sp));
          // A drag is one step: k, sharing the space z left (a Takedown, S43), has no step into it.
          const into = !taken(step) ? step : !taken(z.at) && !same(z.at, k.at) ? z.at : undefined;
          if (into) plan.push([k, { ...into }, into === z.at, true]);
        }
        // Off: a grapple left with its members apart (a partner with no free space left behind).
        if (grips.some((g) => dist(at(g.x), at(g.y)) > 1)) return undefined;
        return plan;
      };
      const drag = (plan: [Body, Space, boolean, boolean?][], from: Space, out: string[], why: string) => {
        for (const [z, to, fell, inTurn] of plan) {
          count(fell ? 'dragged into the space left' : 'dragged');
          if (inTurn) count('dragged in turn');
          count(`dragged by ${why}`);
          z.at = to;
          out.push(`moved ${z.id} ${z.at.x},${z.at.y}`);
        }
      };

      /** Grab: 2 AP, the target’s reactive attack first if it can make one, then the unarmed roll. */
      const grab = (x: Body, y: Body) => {
        x.ap -= 2;
        const out = [`ap ${x.id} 2 left ${x.ap}`];
        const gated = grappled(x);
        // Grab: “triggers a reactive attack from the person you are trying to grapple”, if x is in y’s front arc (S26).
        const faces = canReact(y, x);
        if (faces) {
          out.push(`offer ${y.id}`);
          send({ type: 'Grab', combatantId: x.id, targetId: y.id }, [], out);
          if (r() < 0.5) {
            // S71: the reactive Grab: y’s unarmed roll against x’s better grapple roll, the tie to x; a win grapples
            // both, y in control, and x’s Grab has nothing left to start (prevented).
            const dice: number[] = [];
            const p = roll(unarmed(y), y, x, dice, true);
            const q = roll(better(x), x, y, dice);
            const won = p.successes > q.successes;
            const res = [line('Grab', y, x, p, q, won ? y : x)];
            if (won) begin(y, x, y, res);
            res.push(`finished ${won}`);
            count(`reactive Grab ${won ? 'won' : 'lost'}`);
            send({ type: 'ReactiveAttack', combatantId: y.id, grab: true }, dice, res);
            if (won) return;
          } else send({ type: 'DeclineReactiveAttack', combatantId: y.id }, [], ['finished false']);
          out.length = 0;
        }
        const dice: number[] = [];
        const command: RuleCommand = faces
          ? { type: 'ResumeAction', combatantId: x.id }
          : { type: 'Grab', combatantId: x.id, targetId: y.id };
        // Being Grappled: a Grab is one of the “other actions”: against each partner first (S33).
        if (gated && !gate('Grab', x, dice, out)) return void send(command, dice, out);
        // Grab: “roll an unarmed attack with an empty hand. The opponent may defend with either an unarmed attack roll
        // of their own or an Athletics/Agility roll.” No one is in control yet: the tie fails (S3).
        const p = roll(unarmed(x), x, y, dice, true);
        const q = roll(better(y), y, x, dice);
        const won = p.successes > q.successes;
        out.push(line('Grab', x, y, p, q, won ? x : y));
        if (won) begin(x, y, x, out);
        count(`${gated ? 'gated ' : ''}Grab ${won ? 'won' : 'lost'}`);
        if (won && partners(y).length > 1) count('held by two');
        send(command, dice, out);
      };

      const act = (x: Body) => {
        const ps = partners(x);
        // A Grab of an adjacent foe it does not hold yet; a grappled grabber only of one that cannot react (the order of
        // its grapple rolls and the target’s reaction is not the text’s).
        const targets = foes(x).filter(
          (t) => !gripOf(x, t) && dist(x.at, t.at) === 1 && (!ps.length || !canReact(t, x)),
        );
        if (targets.length && x.ap >= 2 && r() < (ps.length ? 0.25 : 0.7)) return grab(x, pick(targets));
        if (!ps.length) {
          x.ap = 0;
          return;
        }
        const y = pick(ps);
        const control = gripOf(x, y)!.control === x;
        // Held by two, it often moves (a Takedown or a Slow Move drags the other) or, prone, stands up.
        const choice = ps.length > 1 && r() < 0.4 ? pick(x.prone ? [4, 4, 6] : [6, 9]) : int(0, 11);
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
            pick([
              { type: 'Takedown', combatantId: x.id, targetId: y.id },
              { type: 'GrappleThrow', combatantId: x.id, targetId: y.id },
              ...y.items.map((itemId) => ({ type: 'Steal', combatantId: x.id, targetId: y.id, itemId })),
            ]),
            'ARCHSOUL_GRAPPLE_NO_CONTROL',
          );
        // Out of reach (a partner dragged away by another, S33) the Grab fails on its reach first.
        if (choice === 3 && x.ap >= 2 && dist(x.at, y.at) <= 1)
          return refuse({ type: 'Grab', combatantId: x.id, targetId: y.id }, 'ARCHSOUL_ALREADY_GRAPPLING');
        const dice: number[] = [];
        const out: string[] = [];
        const spend = (n: number) => {
          x.ap -= n;
          out.push(`ap ${x.id} ${n} left ${x.ap}`);
        };
        // Standing up triggers reactive attacks (S19): the oracle stands up only where no free foe could react.
        const unwatched = !foes(x).some((f) => canReact(f, x));
        // A partner sharing x’s space would be dragged into the space it stands in (no step).
        const sharing = ps.some((z) => same(z.at, x.at));
        /**
         * S43: grapplers share a space after a Takedown “as long as they stay there”; one left in another’s space is
         * pushed out when its turn ends. The oracle ends a grapple in a shared space only by the one that entered it,
         * held by nobody else, which then ends its turn and is pushed (to a free adjacent space of its choice).
         */
        const mayEnd = !same(x.at, y.at) || (gripOf(x, y)!.entered === x && ps.length === 1);
        const leave = () => {
          if (same(x.at, y.at) && !gripOf(x, y)) {
            x.ap = 0;
            count('left in a shared space');
          }
        };
        if (choice === 4 && x.prone && unwatched) {
          // S33: Stand Up while grappled first takes the grapple roll against each partner.
          spend(1);
          if (gate('StandUp', x, dice, out)) {
            x.prone = false;
            out.push(`-prone ${x.id}`);
          }
          return send({ type: 'StandUp', combatantId: x.id }, dice, out);
        }
        if (choice <= 5 && x.ap >= 2 && (x.prone ? ps.length === 1 && unwatched : mayEnd)) {
          // Escape: “On a success, you are no longer grappled. If you are knocked down, you instead stand up, but are
          // still grappled.” Held by two, the escape is from the one named (S33: a grapple joins two).
          spend(2);
          if (opposed('Escape', x, y, dice, out)) {
            if (x.prone) {
              count('Escape stood up');
              x.prone = false;
              out.push(`-prone ${x.id}`);
            } else {
              if (ps.length > 1) count('Escape from one of two');
              finish(gripOf(x, y)!, out);
            }
          }
          send({ type: 'Escape', combatantId: x.id, targetId: y.id }, dice, out);
          return leave();
        }
        const dragged = dragPlan(x, x.at, y.at, y);
        // S43: nobody else may enter a space two grapplers share.
        const alone = bodies.filter((c) => same(c.at, y.at)).length === 1;
        if (choice === 6 && control && !sharing && dragged && (alone || same(x.at, y.at))) {
          // Takedown: “you and your opponent are both knocked down and you move into your opponent’s space”; the
          // taker’s other partners are dragged along (S33).
          spend(1);
          if (opposed('Takedown', x, y, dice, out)) {
            for (const b of [x, y].filter((k) => !k.prone)) {
              out.push(`+prone ${b.id}`);
              b.prone = true;
            }
            gripOf(x, y)!.entered = x;
            if (!same(x.at, y.at)) {
              const from = x.at;
              x.at = { ...y.at };
              out.push(`moved ${x.id} ${x.at.x},${x.at.y}`);
              drag(dragged, from, out, 'Takedown');
            }
          }
          return send({ type: 'Takedown', combatantId: x.id, targetId: y.id }, dice, out);
        }
        if (choice === 7 && control && x.ap >= 2 && mayEnd) {
          // Throw: “you deal your unarmed damage to the opponent and may either throw the opponent or knock the
          // opponent down. The grapple immediately ends.” A lost roll: nothing (S82). Thrown into a free space beside
          // the thrower, and only when nobody else holds the opponent.
          spend(2);
          const to = STEPS.hex
            .map(([dx, dy]) => ({ x: x.at.x + dx, y: x.at.y + dy }))
            .find((sp) => !occupied(sp))!;
          const away = r() < 0.5 && partners(y).length === 1;
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
            finish(gripOf(x, y)!, out);
          }
          send(
            away
              ? { type: 'GrappleThrow', combatantId: x.id, targetId: y.id, outcome: 'throw', to }
              : { type: 'GrappleThrow', combatantId: x.id, targetId: y.id, outcome: 'knockDown' },
            dice,
            out,
          );
          return leave();
        }
        if (choice === 8 && control && y.items.length) {
          // Steal: “take a single item from the target’s hand or an easily accessible place on the body, such as a
          // bandolier or scabbard”: a stowed two-handed weapon (S62) or a backpack’s rope is out of reach.
          if (r() < 0.3)
            refuse(
              { type: 'Steal', combatantId: x.id, targetId: y.id, itemId: pick(['greatsword', 'rope']) },
              'ARCHSOUL_STEAL_OUT_OF_REACH',
            );
          const item = pick(y.items);
          spend(1);
          if (opposed('Steal', x, y, dice, out)) {
            y.items = y.items.filter((k) => k !== item);
            if (item === 'sword') y.sword = false;
            x.stolen.push(`${y.id}:${item}`);
            out.push(`stolen ${x.id}<${y.id} ${item}`);
          }
          return send({ type: 'Steal', combatantId: x.id, targetId: y.id, itemId: item }, dice, out);
        }
        if (choice === 9 && !x.prone && !sharing && unwatched) {
          // Slow Move (1 AP) one space, after the grapple roll against each partner (S33); each partner dragged.
          const free = STEPS.hex
            .map(([dx, dy]) => ({ x: x.at.x + dx, y: x.at.y + dy }))
            .filter((sp) => !occupied(sp));
          // Now and then a space that leaves a partner no same step, so that it falls back into the space left.
          const back = free.filter((sp) => dragPlan(x, x.at, sp)?.some(([, , fell]) => fell));
          const to = back.length && r() < 0.5 ? pick(back) : free.length ? pick(free) : undefined;
          const plan = to && dragPlan(x, x.at, to);
          // Each dragged partner leaves its space too: the oracle keeps it off any free foe’s reach and front arc.
          const watched = ps.some((z) => foes(z).some((f) => canReact(f, z)));
          if (to && plan && !watched) {
            spend(1);
            if (gate('SlowMove', x, dice, out)) {
              const from = x.at;
              x.at = to;
              out.push(`moved ${x.id} ${to.x},${to.y}`);
              drag(plan, from, out, 'SlowMove');
              count('slow move');
            }
            return send({ type: 'SlowMove', combatantId: x.id, to, facing: x.facing }, dice, out);
          }
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
          // S43: “wherever its turn ends, a Moved (action: pushed) comes first”, to `to`, a free adjacent space.
          const shared = bodies.some((c) => c !== x && same(c.at, x.at) && !gripOf(x, c));
          const to = shared
            ? pick(
                STEPS.hex
                  .map(([dx, dy]) => ({ x: x.at.x + dx, y: x.at.y + dy }))
                  .filter((sp) => !occupied(sp)),
              )
            : undefined;
          if (to) {
            x.at = to;
            count('pushed');
          }
          send(
            { type: 'EndTurn', combatantId: x.id, ...(to ? { to } : {}) },
            [],
            to ? [`moved ${x.id} ${to.x},${to.y}`] : [],
          );
        }
      }

      const s = stateOf(events);
      for (const b of bodies) {
        const c = s.combatants[b.id];
        expect({
          id: `${b.id}, ${where()}`,
          hp: c.hp,
          at: c.position,
          prone: c.conditions.some((k) => k.condition === 'prone'),
          sword: c.held.includes('sword'),
          stolen: c.stolen.map((k) => `${k.fromId}:${k.itemId}`).sort(),
        }).toEqual({
          id: `${b.id}, ${where()}`,
          hp: b.hp,
          at: b.at,
          prone: b.prone,
          sword: b.sword,
          stolen: [...b.stolen].sort(),
        });
      }
      expect({
        where: where(),
        grapples: s.grapples.map((g) => `${[...g.memberIds].sort().join(',')}:${g.controlId}`).sort(),
      }).toEqual({
        where: where(),
        grapples: grips.map((g) => `${[g.x.id, g.y.id].sort().join(',')}:${g.control.id}`).sort(),
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
      'Steal won',
      'slow move',
      'held by two',
      'gated Grab won',
      'dragged by SlowMove',
      'dragged by Takedown',
      'dragged in turn',
      'StandUp against two',
      'pushed',
      'refused ARCHSOUL_STEAL_OUT_OF_REACH',
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
