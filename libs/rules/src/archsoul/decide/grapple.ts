import { bad } from '../../core/fields';
import { combatantId } from '../../core/lifecycle';
import { Push, run } from '../../core/run';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource, Roll } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import { DEFAULT_DIFFICULTY, GRAPPLE_ROLLS, GrappleRollKind, SIZES } from '../data';
import { ev, TestResult } from '../events';
import { evolve } from '../evolve';
import { distance, Space } from '../grid';
import { canStep } from '../map';
import { Modifier, poolOf, rollTest } from '../rolls';
import { describeHands, freeHands } from '../hands';
import { FIST, Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState, Grapple, grapplesOf, hasCondition, partnerOf } from '../state';
import { criticalFailure } from './critical';
import { damageTest, metalLimb, wound } from './damage';
import { acting, canReact, occupant, onMap, ownFist, spend, unhidden } from './common';
import { checkNotAfterQuick } from './maneuvers';
import { triggerReactions } from './reactions';
import { knockedDown, offTheMount } from './prone';

/** archsoul.txt: Grab: "an unarmed attack with an empty hand" (S33, S51: one of the two hands holds nothing). */
function hasEmptyHand(c: ArchsoulCombatant): boolean {
  return freeHands(c.hands) > 0;
}

/** S33: each size step larger than the opponent lowers the grapple difficulty by 1, each step smaller raises it. */
function sizeMods(c: ArchsoulCombatant, o: ArchsoulCombatant): Modifier[] {
  const diff = SIZES.indexOf(c.sheet.size) - SIZES.indexOf(o.sheet.size);
  return diff === 0
    ? []
    : [{ reason: diff > 0 ? 'larger than the opponent' : 'smaller than the opponent', amount: -diff }];
}

/** archsoul.txt: Grapple Rolls: an unarmed attack roll or Athletics/Agility; S33: the larger pool unless named. */
function grappleKind(c: ArchsoulCombatant, named?: GrappleRollKind): GrappleRollKind {
  if (named) return named;
  const p = (k: GrappleRollKind) => poolOf(c, GRAPPLE_ROLLS[k].attribute, GRAPPLE_ROLLS[k].skill);
  return p('athletics') > p('unarmed') ? 'athletics' : 'unarmed';
}

/**
 * Opposed grapple rolls (archsoul.txt: Grapple Rolls, Gaining Control): the actor's, then the opponent's; a tie
 * goes to whoever controls the grapple (no grapple yet: to the defender, S3). Winning gains control.
 */
export function grappleRoll(
  state: ArchsoulState,
  actor: ArchsoulCombatant,
  opponent: ArchsoulCombatant,
  purpose: string,
  dice: DiceSource,
  g: Grapple | undefined,
  push: Push,
  named?: GrappleRollKind,
  weaponId?: string,
): boolean {
  const k = grappleKind(actor, named);
  const ko = grappleKind(opponent);
  const mine = rollTest(
    dice,
    poolOf(actor, GRAPPLE_ROLLS[k].attribute, GRAPPLE_ROLLS[k].skill),
    DEFAULT_DIFFICULTY,
    sizeMods(actor, opponent),
  );
  const theirs = rollTest(
    dice,
    poolOf(opponent, GRAPPLE_ROLLS[ko].attribute, GRAPPLE_ROLLS[ko].skill),
    DEFAULT_DIFFICULTY,
    sizeMods(opponent, actor),
  );
  const success =
    mine.successes > theirs.successes || (mine.successes === theirs.successes && g?.controlId === actor.id);
  push(
    ev('GrappleRolled', {
      actorId: actor.id,
      opponentId: opponent.id,
      purpose,
      actor: mine,
      opponent: theirs,
      winnerId: success ? actor.id : opponent.id,
      success,
      // Ruling S98: a grapple Attack or Throw is an attack made with the weapon whose damage it deals; S102: a Grab
      // one made with the fist.
      ...(weaponId !== undefined ? { weaponId } : {}),
    }),
  );
  if (g && success && g.controlId !== actor.id)
    push(ev('GrappleControlChanged', { grappleId: g.grappleId, controlId: actor.id }));
  if (g && !success && g.controlId !== opponent.id)
    push(ev('GrappleControlChanged', { grappleId: g.grappleId, controlId: opponent.id }));
  return success;
}

/** archsoul.txt: Grab (2 AP): triggers a reactive attack from the target, then an unarmed attack with an empty hand against its grapple roll. */
export function grab(state: ArchsoulState, command: ArchsoulCommand<'Grab'>, dice: DiceSource): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkNotAfterQuick(c);
  const id = combatantId(state, command.targetId, 'targetId');
  const t = state.combatants[id];
  ensure(id !== c.id, 'ARCHSOUL_SELF_TARGET', 'a grab targets someone else', 'targetId');
  onMap(t, 'targetId');
  ensure(
    distance(state.map.grid, c.position!, t.position!) <= FIST.reach,
    'ARCHSOUL_OUT_OF_REACH',
    `archsoul.txt: Grab: an unarmed attack reaches adjacent spaces; ${id} is not adjacent`,
    'targetId',
  );
  ensure(
    unhidden(state, c.position!, t.position!),
    'ARCHSOUL_NO_LINE_OF_SIGHT',
    `ruling S73: a wall stands between ${c.id} and ${id}; a Grab does not reach through it`,
    'targetId',
  );
  ensure(
    hasEmptyHand(c),
    'ARCHSOUL_GRAB_NO_EMPTY_HAND',
    `archsoul.txt: Grab: "roll an unarmed attack with an empty hand"; ${c.id}'s two hands hold ${describeHands(c.sheet, c.hands)}: drop one first, a free action (ruling S33, S51)`,
    'combatantId',
  );
  ensure(
    !grapplesOf(state, c.id).some((g) => g.memberIds.includes(id)),
    'ARCHSOUL_ALREADY_GRAPPLING',
    `${c.id} and ${id} are already grappling`,
    'targetId',
  );
  const paid = spend(c, 'grab');
  // archsoul.txt: Grab: "triggers a reactive attack from the person you are trying to grapple" (S33: if it could react),
  // whatever its side: the Grab calls that person "the opponent" (S78).
  if (canReact(state, t, c.position!)) {
    return [
      paid,
      ev('ReactiveAttackTriggered', {
        actorId: c.id,
        trigger: 'grab',
        reactorIds: [id],
        action: { type: 'Grab', payload: { combatantId: c.id, targetId: id } },
      }),
      ev('ReactiveAttackOffered', { actorId: c.id, reactorId: id }),
    ];
  }
  return [paid, ...performGrab(evolve(state, paid), c.id, id, dice)];
}

export function performGrab(
  state: ArchsoulState,
  actorId: string,
  targetId: string,
  dice: DiceSource,
): RuleEvent[] {
  const r = run(state, evolve);
  const c = state.combatants[actorId];
  const t = state.combatants[targetId];
  // Ruling S102: the Grab's roll is "an unarmed attack with an empty hand": an attack made with the fist, won or lost.
  if (!grappleRoll(state, c, t, 'Grab', dice, undefined, r.push, 'unarmed', FIST.id)) {
    // archsoul.txt: Grab: "roll an unarmed attack"; Critical Failure Tables: rolled "when a character rolls a critical
    // failure" (S2), here the unarmed table's.
    const rolled = r.events.find((e) => e.type === 'GrappleRolled')!.data as { actor: TestResult };
    if (rolled.actor.criticalFailure) {
      const s = r.state();
      const fumble = { attacker: s.combatants[actorId], weapon: FIST, input: {}, action: 'grab' };
      const target = s.combatants[targetId];
      r.push(...criticalFailure(s, { ...fumble, target, aim: target.position! }, dice).events);
    }
    return r.events;
  }
  const grappleId = `gr${state.grappleCount + 1}`;
  r.push(ev('GrappleStarted', { grappleId, memberIds: [actorId, targetId], controlId: actorId }));
  for (const x of [c, t])
    if (!hasCondition(x, 'grappled'))
      r.push(
        ev('ConditionApplied', {
          combatantId: x.id,
          condition: 'grappled',
          amount: 1,
          untilNextTurn: false,
          reason: `grapple ${grappleId}`,
        }),
      );
  return r.events;
}

/** The grapple between the actor and its named partner. */
function partner(
  state: ArchsoulState,
  command: { targetId: string },
  c: ArchsoulCombatant,
  needControl: boolean,
): { g: Grapple; t: ArchsoulCombatant } {
  const id = combatantId(state, command.targetId, 'targetId');
  const g = grapplesOf(state, c.id).find((x) => x.memberIds.includes(id) && id !== c.id);
  ensure(g, 'ARCHSOUL_NOT_GRAPPLING', `archsoul.txt: Grappling: ${c.id} is not grappling ${id}`, 'targetId');
  if (needControl)
    ensure(
      g.controlId === c.id,
      'ARCHSOUL_GRAPPLE_NO_CONTROL',
      `archsoul.txt: Grappling: "Requires Control"; ${g.controlId} controls the grapple`,
      'targetId',
    );
  return { g, t: state.combatants[id] };
}

/** Every grapple `id` is in ends, one after another (each on the state the one before left): a fall (S47), a removal (S49), the GM (S91). */
export function endGrapplesOf(state: ArchsoulState, id: string, reason: string): RuleEvent[] {
  const out: RuleEvent[] = [];
  let s = state;
  for (const g of grapplesOf(state, id)) {
    const ended = endGrapple(s, g, reason);
    out.push(...ended);
    s = ended.reduce(evolve, s);
  }
  return out;
}

export function endGrapple(state: ArchsoulState, g: Grapple, reason: string): RuleEvent[] {
  const out: RuleEvent[] = [ev('GrappleEnded', { grappleId: g.grappleId, reason })];
  for (const id of g.memberIds) {
    const others = grapplesOf(state, id).filter((x) => x.grappleId !== g.grappleId);
    if (others.length === 0 && hasCondition(state.combatants[id], 'grappled'))
      out.push(ev('ConditionRemoved', { combatantId: id, condition: 'grappled', reason }));
  }
  return out;
}

/**
 * archsoul.txt: Grappling: Attack and Throw: "you deal your unarmed damage": the fist's, and ruling S96: a sheet weapon
 * with the fist's id is its holder's fist (while it is not destroyed), so its damage is the unarmed damage.
 */
function unarmedOf(c: ArchsoulCombatant): Weapon {
  const own = ownFist(c);
  return own && !c.weapons[own.id]?.destroyed ? own : FIST;
}

/** archsoul.txt: Grappling: Attack: unarmed damage, or a held Close Combat weapon's. */
function grappleWeapon(c: ArchsoulCombatant, weaponId: string | undefined): Weapon {
  if (weaponId === undefined) return unarmedOf(c);
  const w = c.sheet.weapons.find((x) => x.id === weaponId);
  ensure(
    w && c.held.includes(w.id) && (w.type === 'unarmed' || w.closeCombat),
    'ARCHSOUL_NOT_CLOSE_COMBAT',
    'archsoul.txt: Grappling: Attack: only unarmed damage or a held weapon with the Close Combat property',
    'weaponId',
  );
  return w;
}

/** archsoul.txt: Grappling: Attack (1 AP): opposed grapple rolls; on a success, unarmed damage. */
export function grappleAttack(
  state: ArchsoulState,
  command: ArchsoulCommand<'GrappleAttack'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  checkNotAfterQuick(c);
  const { g, t } = partner(state, command, c, false);
  const w = grappleWeapon(c, command.weaponId);
  const r = run(state, evolve);
  r.push(spend(c, 'grappleAttack'));
  if (grappleRoll(r.state(), c, t, 'Attack', dice, g, r.push, undefined, w.id))
    r.push(grappleDamage(r.state(), c, w, t, dice));
  return r.events;
}

function grappleDamage(
  state: ArchsoulState,
  c: ArchsoulCombatant,
  w: Weapon,
  t: ArchsoulCombatant,
  dice: DiceSource,
): RuleEvent {
  const roll = damageTest(c, w, t.sheet.armour?.type, {}, dice);
  const bonus = metalLimb(c, w, {});
  return wound(state, t.id, roll.successes + bonus, `${c.id}:${w.id} (grapple)`, roll, bonus);
}

/**
 * archsoul.txt: Escape (2 AP): on a success you are no longer grappled; knocked down, you stand up instead, and
 * "standing up from a prone position" triggers reactive attacks (Reactive Attack; S33) before it happens.
 */
export function escape(
  state: ArchsoulState,
  command: ArchsoulCommand<'Escape'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const { g, t } = partner(state, command, c, false);
  const r = run(state, evolve);
  r.push(spend(c, 'escape'));
  if (!grappleRoll(r.state(), c, t, 'Escape', dice, g, r.push)) return r.events;
  if (!hasCondition(c, 'prone')) r.push(...endGrapple(r.state(), g, `${c.id} escaped`));
  else {
    const reactors = c.position
      ? triggerReactions(r.state(), c.id, 'standUp', c.position, {
          type: 'StandUp',
          payload: { combatantId: c.id },
        })
      : [];
    r.push(
      ...(reactors.length > 0
        ? reactors
        : [
            ev('ConditionRemoved', {
              combatantId: c.id,
              condition: 'prone',
              reason: 'Escape while knocked down: stood up, still grappled',
            }),
          ]),
    );
  }
  return r.events;
}

/** archsoul.txt: Steal (1 AP, control): an item from the target's hand or an easily reached place (simple stowage). */
export function steal(
  state: ArchsoulState,
  command: ArchsoulCommand<'Steal'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const { g, t } = partner(state, command, c, true);
  const itemId = command.itemId;
  const item =
    t.sheet.weapons.find((x) => x.id === itemId) ??
    t.sheet.items.find((x) => x.id === itemId) ??
    (t.sheet.shield?.id === itemId ? { ...t.sheet.shield, stowage: 'awkward' as const } : undefined);
  ensure(
    item && !t.away.includes(itemId) && !t.weapons[itemId]?.destroyed,
    'ARCHSOUL_UNKNOWN_ITEM',
    `${t.id} carries no ${itemId}`,
    'itemId',
  );
  ensure(
    t.held.includes(itemId) || item.stowage === 'simple',
    'ARCHSOUL_STEAL_OUT_OF_REACH',
    `archsoul.txt: Steal: "from the target's hand or an easily accessible place"; ${item.name} is stowed awkwardly`,
    'itemId',
  );
  const r = run(state, evolve);
  r.push(spend(c, 'steal'));
  if (grappleRoll(r.state(), c, t, 'Steal', dice, g, r.push))
    r.push(ev('ItemStolen', { combatantId: c.id, fromId: t.id, itemId, name: item.name }));
  return r.events;
}

/** archsoul.txt: Takedown (1 AP, control): both knocked down and you move into the opponent's space. */
export function takedown(
  state: ArchsoulState,
  command: ArchsoulCommand<'Takedown'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  const { g, t } = partner(state, command, c, true);
  const r = run(state, evolve);
  r.push(spend(c, 'takedown'));
  if (!grappleRoll(r.state(), c, t, 'Takedown', dice, g, r.push)) return r.events;
  for (const x of [c, t]) r.push(...knockedDown(r.state().combatants[x.id], `Takedown by ${c.id}`));
  // "you move into your opponent's space": a taker already in it (an earlier Takedown, S43) does not move.
  if (c.position!.x === t.position!.x && c.position!.y === t.position!.y) return r.events;
  const before = r.state();
  r.push(
    ev('Moved', {
      combatantId: c.id,
      action: 'takedown',
      path: [t.position!],
      from: c.position!,
      to: t.position!,
      facing: c.facing,
      distance: 1,
    }),
  );
  // Being Grappled: "Any action that would cause your character to move causes all targets grappling you to move as
  // well": the taker's other grapplers follow it (S33); the one taken down is where it moves to.
  r.push(...drag(before, r.state(), c.id, { from: c.position!, to: t.position! }, g.grappleId));
  return r.events;
}

/** archsoul.txt: Throw (2 AP, control): unarmed damage, then throw (to an adjacent free space, S33) or knock down; the grapple ends. */
export function grappleThrow(
  state: ArchsoulState,
  command: ArchsoulCommand<'GrappleThrow'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  // S27: a Throw deals unarmed damage like a grapple Attack, so it is an attack a Quick Attack rules out.
  checkNotAfterQuick(c);
  const { g, t } = partner(state, command, c, true);
  const outcome = command.outcome ?? 'knockDown';
  let to: Space | undefined;
  if (outcome !== 'throw' && command.to !== undefined)
    bad('to', 'is where a thrown opponent lands: only with outcome throw (knockDown leaves it in its space)');
  if (outcome === 'throw') {
    to = command.to ?? bad('to', 'is required with outcome throw');
    ensure(
      canStep(state.map, c.position!, to),
      'ARCHSOUL_THROW_SPACE',
      'ruling S33: a thrown opponent lands in a free space adjacent to the thrower (ruling S73: not over a wall)',
      'to',
    );
    ensure(
      !occupant(state, to, t.id),
      'ARCHSOUL_SPACE_OCCUPIED',
      'ruling S19: someone stands in that space',
      'to',
    );
  }
  const r = run(state, evolve);
  r.push(spend(c, 'grappleThrow'));
  const fist = unarmedOf(c);
  if (!grappleRoll(r.state(), c, t, 'Throw', dice, g, r.push, undefined, fist.id)) return r.events;
  r.push(grappleDamage(r.state(), c, fist, t, dice));
  // S35: a rider thrown out of the saddle comes off its mount, which waits in the space it was thrown from (as a fall).
  if (to) r.push(...offTheMount(r.state().combatants[t.id], `ruling S35: thrown from the mount by ${c.id}`));
  if (to)
    r.push(
      ev('Moved', {
        combatantId: t.id,
        action: 'thrown',
        path: [to],
        from: t.position!,
        to,
        facing: t.facing,
        distance: distance(state.map.grid, t.position!, to),
      }),
    );
  else r.push(...knockedDown(r.state().combatants[t.id], `thrown down by ${c.id}`));
  r.push(...endGrapple(r.state(), g, `${c.id} threw ${t.id}`));
  return r.events;
}

/** Commands a grappled combatant may only attempt after a successful grapple roll (archsoul.txt: Being Grappled). */
export const GRAPPLE_GATED = new Set([
  'SlowMove',
  // Free Actions: "Dropping a held item", "Turning in place", "Dropping to the ground"; Being Grappled: "All other
  // actions require a successful grapple roll" (only the weapon attack, the ritual with movement and the regular move
  // are barred, so a free action is allowed, after the roll).
  'DropItem',
  'Turn',
  'DropProne',
  'StandUp',
  'DrawSimpleItem',
  'DrawAwkwardItem',
  'Attack',
  'Study',
  'HoldFirm',
  'ShieldIntercept',
  'SoulShield',
  'Grab',
  'ClearJam',
  'AreaAttack',
  'PerformRitual',
  // S42: mounting and dismounting are AP actions like any other (no "regular move action"), so they take the roll too.
  'Mount',
  'Dismount',
]);

const NO_DICE: DiceSource = {
  roll: (count: number, sides: number): Roll => ({ sides, faces: Array.from({ length: count }, () => 1) }),
};

/**
 * archsoul.txt: Being Grappled: "All other actions require a successful grapple roll to attempt" and "Any action
 * that would cause your character to move causes all targets grappling you to move as well" (S33):
 * the command is checked first, then one opposed roll against each partner; a failure spends the action's AP.
 */
export function gated(
  state: ArchsoulState,
  actorId: string,
  type: string,
  dice: DiceSource,
  perform: (s: ArchsoulState, d: DiceSource) => RuleEvent[],
): RuleEvent[] {
  const gs = grapplesOf(state, actorId);
  if (gs.length === 0) return perform(state, dice);
  const dry = perform(state, NO_DICE);
  // Nothing to attempt (a turn to the facing it already has): no roll either.
  if (dry.length === 0) return [];
  const r = run(state, evolve);
  for (const g of gs) {
    const s = r.state();
    if (!grappleRoll(s, s.combatants[actorId], s.combatants[partnerOf(g, actorId)], type, dice, g, r.push)) {
      const paid = dry.find((e) => e.type === 'ApSpent');
      if (paid) r.push(paid);
      return r.events;
    }
  }
  const before = r.state();
  dragAlong(before, perform(before, dice), actorId).forEach((e) => r.push(e));
  return r.events;
}

/**
 * archsoul.txt: Being Grappled: "Any action that would cause your character to move causes all targets grappling you
 * to move as well": `events` (the actor's action, performed on `before`) and each partner dragged after its move, also
 * when the move comes with a held action resumed after reactive attacks (S18).
 */
export function dragAlong(before: ArchsoulState, events: RuleEvent[], actorId: string): RuleEvent[] {
  const moved = events.find(
    (e) => e.type === 'Moved' && (e.data as { combatantId: string }).combatantId === actorId,
  );
  if (!moved || grapplesOf(before, actorId).length === 0) return events;
  const after = events.reduce(evolve, before);
  return [...events, ...drag(before, after, actorId, moved.data as { from: Space; to: Space })];
}

/**
 * S33: each grappler is dragged by the same step, or into the space the mover left when that is not free; a grappler
 * dragged moves too, so its own other grapplers follow it the same way, and so on through the whole group of grapples
 * (Being Grappled: "Any action that would cause your character to move"), nearest first, each combatant at most once.
 * `except`, a grapple whose partner is not dragged (a Takedown's opponent, whose space the taker moves into).
 */
function drag(
  before: ArchsoulState,
  after: ArchsoulState,
  actorId: string,
  m: { from: Space; to: Space },
  except?: string,
): RuleEvent[] {
  const out: RuleEvent[] = [];
  let s = after;
  const reached = new Set([actorId]);
  const taken = before.grapples.find((g) => g.grappleId === except);
  if (taken) reached.add(partnerOf(taken, actorId));
  // Who is dragged, and by whose move: a grappler not yet reached, after everyone nearer the actor.
  const queue: { id: string; by: { from: Space; to: Space } }[] = [];
  const reach = (moverId: string, by: { from: Space; to: Space }) => {
    for (const g of grapplesOf(before, moverId)) {
      const id = partnerOf(g, moverId);
      if (reached.has(id)) continue;
      reached.add(id);
      queue.push({ id, by });
    }
  };
  reach(actorId, m);
  for (let i = 0; i < queue.length; i++) {
    const { id, by } = queue[i];
    const p = s.combatants[id];
    if (!p.position) continue;
    const shifted = { x: p.position.x + by.to.x - by.from.x, y: p.position.y + by.to.y - by.from.y };
    const free = (sp: Space) => canStep(s.map, p.position!, sp) && !occupant(s, sp, p.id);
    const to = free(shifted) ? shifted : free(by.from) ? by.from : undefined;
    if (!to) continue;
    const e = ev('Moved', {
      combatantId: p.id,
      action: 'dragged',
      path: [to],
      from: p.position,
      to,
      facing: p.facing,
      distance: 1,
    });
    out.push(e);
    s = evolve(s, e);
    reach(p.id, { from: p.position, to });
  }
  return out;
}
