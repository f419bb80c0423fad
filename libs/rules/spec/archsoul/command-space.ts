import { RuleCommand } from '../../src/core/types';
import { findSystem } from '../../src/registry';
import { ArchsoulState, distance, facings, neighbours, SQUARE_FACINGS } from '../../src/archsoul';
import { CONDITIONS } from '../../src/archsoul/data';

/**
 * Commands chosen from a fight as it stands (its ids, held items, spaces beside the actor, the open decision),
 * read from a list of numbers (Choices) that fast-check draws and shrinks. Shared by the sheet-space fuzz, which
 * also makes a field hostile now and then, and the view-promises property test, which does not.
 */
const system = findSystem('archsoul')!;

export const SIDES = ['heroes', 'enemies', 'enemies', 'rogues'];
export const ITEM_FIELDS = ['weapons', 'items'] as const;

/** Reads a list of numbers as choices; past its end every choice is the first. */
export class Choices {
  private i = 0;
  constructor(private readonly r: number[]) {}
  int(n: number): number {
    return n <= 0 ? 0 : (this.r[this.i++] ?? 0) % n;
  }
  bool(oneIn = 2): boolean {
    return this.int(oneIn) === 0;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

export const HOSTILE: unknown[] = [
  null,
  '',
  -1,
  0,
  1e9,
  0.5,
  [],
  {},
  'nobody',
  'toString',
  '__proto__',
  true,
];

/** The grapple partner of `id`, else the nearest placed combatant on another side, else anyone else. */
export function nearest(state: ArchsoulState, id: string | undefined, ch: Choices): string {
  const me = id ? state.combatants[id] : undefined;
  const others = state.joined.filter((x) => x !== id && state.combatants[x]);
  if (!me || !others.length) return ch.pick([...others, 'ghost']);
  const partner = state.grapples.find((g) => g.memberIds.includes(me.id));
  if (partner && ch.bool()) return partner.memberIds.find((x) => x !== me.id) ?? me.id;
  const foes = others.filter((x) => state.combatants[x].side !== me.side);
  const pool = foes.length && ch.int(4) ? foes : others;
  const at = me.position;
  const far = (x: string) => {
    const p = state.combatants[x].position;
    return at && p ? distance(state.map.grid, at, p) : 99;
  };
  const best = Math.min(...pool.map(far));
  return ch.pick(pool.filter((x) => far(x) === best));
}

export function holdables(state: ArchsoulState, id: string | undefined): string[] {
  const c = id ? state.combatants[id] : undefined;
  if (!c) return ['nothing'];
  return [
    ...c.held,
    ...ITEM_FIELDS.flatMap((f) => c.sheet[f].map((x) => x.id)),
    ...(c.sheet.shield ? [c.sheet.shield.id] : []),
    'fist',
  ];
}

export function weaponsOf(state: ArchsoulState, id: string | undefined): (string | undefined)[] {
  const c = id ? state.combatants[id] : undefined;
  return [
    ...(c ? [...c.held, ...c.held, ...c.held] : []),
    ...(c ? c.sheet.weapons.map((w) => w.id) : []),
    'fist',
    undefined,
  ];
}

export function near(state: ArchsoulState, id: string | undefined, ch: Choices): { x: number; y: number } {
  const at = (id && state.combatants[id]?.position) || { x: ch.int(7) - 3, y: ch.int(7) - 3 };
  const steps = ch.int(3);
  let s = at;
  for (let i = 0; i < steps; i++) s = ch.pick(neighbours(state.map.grid, s));
  return s;
}

/** A path from `id`'s space: toward `toward` (stopping beside it), straight on, or wandering. */
export function walk(
  state: ArchsoulState,
  id: string | undefined,
  ch: Choices,
  length: number,
  straight: boolean,
  toward?: string,
) {
  let s = (id && state.combatants[id]?.position) || { x: 0, y: 0 };
  const goal = toward ? state.combatants[toward]?.position : undefined;
  const first = ch.int(8);
  const path = [];
  for (let i = 0; i < length; i++) {
    const options = neighbours(state.map.grid, s);
    if (goal && distance(state.map.grid, s, goal) <= 1) break;
    s = goal
      ? options.reduce((a, b) =>
          distance(state.map.grid, b, goal) < distance(state.map.grid, a, goal) ? b : a,
        )
      : options[(straight ? first : ch.int(8)) % options.length];
    path.push(s);
  }
  return path.length ? path : [ch.pick(neighbours(state.map.grid, s))];
}

export const FACINGS = [...SQUARE_FACINGS];
export const MODIFIERS = [-5, -1, 0, 1, 5];

/** An attack's optional fields: GM circumstances, special attacks and attack modifiers, each present or not. */
export function attackFields(
  state: ArchsoulState,
  actor: string | undefined,
  target: string | undefined,
  ch: Choices,
) {
  const f: Record<string, unknown> = {};
  if (ch.bool(3)) f.modifier = ch.pick(MODIFIERS);
  if (ch.bool(3)) f.damageModifier = ch.pick(MODIFIERS);
  if (ch.bool(8)) f.criticalNarration = 'It goes wrong';
  if (ch.bool(4)) f.unarmedStyle = ch.pick(['punch', 'other']);
  if (ch.bool(5)) f.limbArmoured = ch.bool();
  if (ch.bool(5))
    f.feint = ch.pick([
      true,
      false,
      {},
      { skill: ch.pick(['confusion', 'acting']), facing: ch.pick(FACINGS) },
    ]);
  if (ch.bool(5)) f.sneak = ch.bool(4) ? false : true;
  if (ch.bool(5)) f.knockdown = true;
  if (ch.bool(5)) f.shatter = { itemId: ch.pick(holdables(state, target)) };
  if (ch.bool(6)) f.special = ch.pick(['quick', 'reckless']);
  if (ch.bool(8)) f.cleave = { spaces: [near(state, actor, ch), near(state, actor, ch)].slice(0, ch.int(3)) };
  return f;
}

/** An initiative order of `ids` as given, the enemies moved up beside the first of them (ruling S107: one unit). */
export function enemiesTogether(ids: string[], enemy: (id: string) => boolean): string[] {
  const first = ids.findIndex(enemy);
  if (first < 0) return ids;
  const rest = ids.filter((id) => !enemy(id));
  return [...rest.slice(0, first), ...ids.filter(enemy), ...rest.slice(first)];
}

/**
 * A fight's opening after StartFight, as both property tests play it: a square map one time in three (a hex one set
 * now and then), each combatant placed unless its choices skip it, maybe an ambush, then initiative, rolled or set with
 * the enemies together (S107), the dice a roll asks for when `asksDice` says so, and round 1.
 */
export function openFight(
  setup: Choices,
  places: number[][],
  combatants: { id: string; side: string }[],
  send: (command: RuleCommand, ch: Choices) => unknown,
  asksDice: () => boolean,
): void {
  const grid = setup.bool(3) ? 'square' : 'hex';
  if (grid === 'square' || setup.bool(4)) send({ type: 'SetMap', grid }, setup);
  combatants.forEach((c, i) => {
    const p = new Choices(places[i]);
    if (p.bool(12)) return;
    send(
      {
        type: 'PlaceCombatant',
        combatantId: c.id,
        position: { x: p.int(5) - 2, y: p.int(5) - 2 },
        facing: p.pick(p.bool(10) ? FACINGS : facings(grid)),
      },
      p,
    );
  });
  if (setup.bool(5)) send({ type: 'DeclareAmbush', party: setup.pick(['heroes', 'enemies']) }, setup);
  if (setup.bool(3)) send({ type: 'RollInitiative' }, setup);
  else
    send(
      {
        type: 'SetInitiative',
        order: enemiesTogether(
          combatants.map((c) => c.id),
          (id) => combatants.find((c) => c.id === id)!.side === 'enemies',
        ),
      },
      setup,
    );
  if (asksDice()) send({ type: 'ProvideDice' }, setup);
  send({ type: 'StartRound' }, setup);
}

export function command(
  state: ArchsoulState,
  ch: Choices,
  extraSheets: Record<string, unknown>[],
  hostile = true,
): RuleCommand {
  const ids = state.joined.filter((id) => state.combatants[id]);
  const everyone = [...ids, 'ghost'];
  const reactor = state.reaction?.current;
  const awaiting = state.pending?.awaiting;
  const open = ids.filter((id) => state.combatants[id].inTurn);
  const actor = ch.bool(6)
    ? ch.pick(everyone)
    : awaiting && awaiting !== 'gm'
      ? awaiting
      : (reactor ?? (open.length ? ch.pick(open) : ch.pick(everyone)));
  const other = ch.bool(4)
    ? ch.pick(everyone.filter((x) => x !== actor).concat(actor))
    : nearest(state, actor, ch);
  const pendingAnswer = state.pending?.answer;
  // A fight between turns mostly moves on: the pending decision's answer, the next round or phase.
  const between =
    !state.pending && !open.length && ch.int(3)
      ? !state.order.length
        ? ch.pick(['SetInitiative', 'RollInitiative'])
        : state.phase
          ? 'EndPhase'
          : 'StartRound'
      : undefined;
  const type =
    pendingAnswer && ch.int(3)
      ? ch.pick(
          pendingAnswer === 'ReactiveAttack' ? ['ReactiveAttack', 'DeclineReactiveAttack'] : [pendingAnswer],
        )
      : (between ?? ch.pick(open.length && ch.int(5) ? ACTIONS : TYPES));
  const held = holdables(state, actor);
  const grid = state.map.grid;
  const c: Record<string, unknown> = { type };
  switch (type) {
    case 'Attack':
      Object.assign(
        c,
        { attackerId: actor, weaponId: ch.pick(weaponsOf(state, actor)) },
        attackFields(state, actor, other, ch),
      );
      if (!ch.bool(10) || !c.cleave) c.targetId = other;
      break;
    case 'ThrowItem':
      Object.assign(
        c,
        { combatantId: actor, itemId: ch.pick(held), targetId: other },
        attackFields(state, actor, other, ch),
      );
      delete c.special;
      delete c.cleave;
      delete c.unarmedStyle;
      delete c.limbArmoured;
      break;
    case 'ReactiveAttack':
      Object.assign(
        c,
        { combatantId: actor, weaponId: ch.pick(weaponsOf(state, actor)) },
        attackFields(state, actor, state.reaction?.actorId, ch),
      );
      if (ch.bool(6)) c.grab = true;
      if (!ch.bool(8)) {
        delete c.special;
        delete c.cleave;
      }
      if (c.grab && ch.bool())
        for (const k of Object.keys(c)) if (!['type', 'combatantId', 'grab'].includes(k)) delete c[k];
      break;
    case 'ResumeAction':
      c.combatantId = actor;
      if (ch.bool(6)) c.abandon = true;
      if (ch.bool(4)) c.modifier = ch.pick(MODIFIERS);
      if (ch.bool(4)) c.damageModifier = ch.pick(MODIFIERS);
      if (ch.bool(8)) c.criticalNarration = 'Narrated';
      if (ch.bool(8)) c.limbArmoured = ch.bool();
      break;
    case 'Move': {
      c.combatantId = actor;
      c.path = walk(
        state,
        actor,
        ch,
        1 + ch.int(ch.bool(4) ? 12 : 4),
        ch.bool(3),
        ch.bool() ? other : undefined,
      );
      if (ch.bool(4)) c.facing = ch.pick(FACINGS);
      if (ch.bool(5)) c.free = true;
      if (ch.bool(4)) c.jump = true;
      if (ch.bool(5)) c.jumpFrom = ch.pick([0, 1, 2, 199]);
      if (ch.bool(5)) c.ap = ch.pick([1, 2, 3]);
      if (ch.bool(5)) c.trample = true;
      if (ch.bool(20)) c.vertical = true;
      break;
    }
    case 'Charge':
      Object.assign(c, {
        combatantId: actor,
        path: walk(
          state,
          actor,
          ch,
          1 + ch.int(ch.bool() ? 20 : 8),
          !ch.bool(5),
          ch.bool() ? other : undefined,
        ),
        targetId: other,
        weaponId: ch.pick(weaponsOf(state, actor)) ?? 'fist',
      });
      if (ch.bool(3)) c.trample = true;
      if (ch.bool(4)) Object.assign(c, attackFields(state, actor, other, ch));
      break;
    case 'SlowMove':
      c.combatantId = actor;
      c.to = near(state, actor, ch);
      if (ch.bool(3)) c.facing = ch.pick(FACINGS);
      break;
    case 'Turn':
      Object.assign(c, { combatantId: actor, facing: ch.pick(FACINGS) });
      break;
    case 'DropItem':
    case 'ClearJam':
    case 'DrawAwkwardItem':
      c.combatantId = actor;
      c[type === 'ClearJam' ? 'weaponId' : 'itemId'] = ch.pick(held);
      if (type === 'DrawAwkwardItem' && ch.bool(3)) c.fromBackpack = ch.bool(4) ? false : true;
      break;
    case 'DrawSimpleItem':
      c.combatantId = actor;
      if (state.ground.length && ch.bool()) c.groundId = ch.pick(state.ground).groundId;
      else if (ch.bool(10)) c.groundId = `g${ch.int(4)}`;
      else c.itemId = ch.pick(held);
      if (ch.bool(20)) c.itemId = ch.pick(held);
      break;
    case 'ApplyCondition':
      Object.assign(c, { combatantId: ch.pick(everyone), condition: ch.pick(CONDITIONS) });
      if (ch.bool(3)) c.amount = ch.pick([1, 2, 10]);
      if (ch.bool(3)) c.untilNextTurn = ch.bool();
      if (ch.bool(5)) c.reason = 'GM';
      break;
    case 'RemoveCondition':
      Object.assign(c, { combatantId: ch.pick(everyone), condition: ch.pick(CONDITIONS) });
      break;
    case 'ApplyDamage':
    case 'Fall':
      Object.assign(c, {
        combatantId: ch.pick(everyone),
        damage: ch.bool(8) ? ch.pick([0, 1000]) : 1 + ch.int(4),
      });
      if (type === 'Fall' && ch.bool()) c.metres = ch.pick([0, 4, 10000]);
      if (type === 'ApplyDamage' && ch.bool(4)) c.source = 'A trap';
      break;
    case 'Study':
    case 'SoulShield':
    case 'Grab':
    case 'GrappleAttack':
    case 'Escape':
    case 'Takedown':
      Object.assign(c, { combatantId: actor, targetId: other });
      if (type === 'GrappleAttack' && ch.bool()) c.weaponId = ch.pick(weaponsOf(state, actor)) ?? 'fist';
      break;
    case 'Steal':
      Object.assign(c, { combatantId: actor, targetId: other, itemId: ch.pick(holdables(state, other)) });
      break;
    case 'GrappleThrow':
      Object.assign(c, { combatantId: actor, targetId: other });
      if (ch.bool()) c.outcome = ch.pick(['throw', 'knockDown']);
      if (ch.bool()) c.to = near(state, actor, ch);
      break;
    case 'AreaAttack':
      Object.assign(c, {
        attackerId: actor,
        weaponId: ch.pick(weaponsOf(state, actor)) ?? 'fist',
        centre: near(state, other, ch),
      });
      if (ch.bool(3)) c.modifier = ch.pick(MODIFIERS);
      if (ch.bool(3)) c.damageModifier = ch.pick(MODIFIERS);
      if (ch.bool(8)) c.criticalNarration = 'Boom';
      break;
    case 'PerformRitual':
      Object.assign(c, {
        combatantId: actor,
        name: 'Rite',
        ap: ch.pick([1, 2, 3]),
        movement: ch.bool(),
        provokes: ch.bool(),
      });
      if (ch.bool(3)) c.description = 'It glows';
      break;
    case 'EndTurn':
      c.combatantId = actor;
      if (ch.bool(4)) c.to = near(state, actor, ch);
      break;
    case 'SetMap':
      if (ch.bool()) c.grid = ch.pick(['hex', 'square']);
      if (ch.bool(3)) c.blocked = [near(state, ch.pick(everyone), ch)];
      if (ch.bool(3)) {
        const a = near(state, ch.pick(everyone), ch);
        c.walls = [[a, ch.pick(neighbours(grid, a))]];
      }
      break;
    case 'PlaceCombatant':
      Object.assign(c, { combatantId: ch.pick(everyone), position: near(state, ch.pick(everyone), ch) });
      if (ch.bool()) c.facing = ch.pick(FACINGS);
      break;
    case 'DeclareAmbush':
      c.party = ch.pick(['heroes', 'enemies']);
      break;
    case 'AddCombatant':
      c.combatant = {
        id: ch.bool(8) ? ch.pick(everyone) : `late${ch.int(3)}`,
        name: 'Late',
        side: ch.pick(SIDES),
        sheet: ch.pick(extraSheets),
      };
      break;
    case 'RemoveCombatant':
      c.combatantId = ch.pick(everyone);
      break;
    case 'SetInitiative': {
      const order = [...ids];
      for (let i = order.length - 1; i > 0; i--) {
        const j = ch.int(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      // Now and then an order that splits the enemies, refused (S107); mostly one that keeps them side by side.
      c.order = ch.bool(8)
        ? order.slice(1)
        : ch.bool(4)
          ? order
          : enemiesTogether(order, (id) => state.combatants[id].side === 'enemies');
      break;
    }
    case 'AddNote':
      c.text = 'Note';
      if (ch.bool()) c.combatantId = ch.pick(everyone);
      break;
    case 'EndFight':
      if (ch.bool()) c.winnerSide = ch.pick(SIDES);
      break;
    case 'RollInitiative':
    case 'StartRound':
    case 'EndRound':
    case 'EndPhase':
    case 'CancelPending':
    case 'ProvideDice':
      break;
    default:
      c.combatantId = actor;
  }
  if (!hostile) return c as RuleCommand;
  // Now and then one field is hostile, or one is added that the command does not have.
  const keys = Object.keys(c).filter((k) => k !== 'type');
  if (keys.length && ch.bool(25)) c[ch.pick(keys)] = ch.pick(HOSTILE);
  if (ch.bool(60)) c[ch.pick(['extra', 'weaponId', 'targetId', 'path'])] = ch.pick(HOSTILE);
  return c as RuleCommand;
}

/** Every command the system knows but StartFight (the fight's first) and the service's own. */
export const TYPES = Object.keys(system.commands).filter(
  (t) => !['StartFight', 'UndoCommands', 'StartActivation', 'EndActivation'].includes(t),
);
/** What a combatant does on its turn, the commands a fight uses most listed more than once. */
export const ACTIONS = [
  ...[
    'Attack',
    'Attack',
    'Attack',
    'Attack',
    'Attack',
    'Attack',
    'Move',
    'Move',
    'Move',
    'EndTurn',
    'ThrowItem',
  ],
  ...[
    'Grab',
    'Grab',
    'Charge',
    'AreaAttack',
    'DrawSimpleItem',
    'DrawAwkwardItem',
    'DropItem',
    'GrappleAttack',
  ],
  ...['Steal', 'GrappleThrow', 'Takedown', 'Escape', 'SlowMove', 'Turn', 'DropProne', 'StandUp', 'ClearJam'],
  ...[
    'Study',
    'HoldFirm',
    'ShieldIntercept',
    'SoulShield',
    'Mount',
    'Dismount',
    'PerformRitual',
    'ApplyCondition',
  ],
  ...['ApplyDamage', 'Fall', 'RemoveCondition', 'EndPhase'],
];
