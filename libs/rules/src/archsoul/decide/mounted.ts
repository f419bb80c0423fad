import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArchsoulCommand } from '../contract';
import { CHARGE } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { distance, Space } from '../grid';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import { performAttack } from './attack';
import { acting, onMap, spend, unhidden, weaponOf } from './common';
import { checkNotAfterQuick, checkOptions, readOptions } from './maneuvers';
import { checkMover, MovePayload, straight, walk } from './movement';
import { knockedDown } from './prone';

/**
 * archsoul.txt: Charge (3 AP, mounted): up to 6 × the mount's base speed in a straight line, at least 3 spaces,
 * then a melee attack with a Flail or a Lance whose damage pool gains the mount's base speed (S35).
 */
export function charge(
  state: ArchsoulState,
  command: ArchsoulCommand<'Charge'>,
  dice: DiceSource,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  onMap(c, 'combatantId');
  checkNotAfterQuick(c);
  checkChargePath(c, command.path);
  const w = weaponOf(c, command.weaponId, 'weaponId');
  ensure(
    w.type === 'melee' && w.properties.some((p) => CHARGE.weapons.includes(p)),
    'ARCHSOUL_CHARGE_WEAPON',
    `archsoul.txt: Charge: "a melee attack with a Flail or a Lance"; ${w.name} is neither`,
    'weaponId',
  );
  const targetId = combatantId(state, command.targetId, 'targetId');
  const t = state.combatants[targetId];
  onMap(t, 'targetId');
  const end = command.path[command.path.length - 1];
  const d = distance(state.map.grid, end, t.position!);
  ensure(
    d >= 1 && d <= w.reach,
    'ARCHSOUL_OUT_OF_REACH',
    `archsoul.txt: Charge: ${targetId} must be within ${w.name}'s reach (${w.reach}) of the charge's end; it is ${d} away`,
    'targetId',
  );
  ensure(
    unhidden(state, end, t.position!),
    'ARCHSOUL_NO_LINE_OF_SIGHT',
    `ruling S73: a wall or blocked space stands between the charge's end and ${targetId}; the ${w.name} does not reach through it`,
    'targetId',
  );
  checkChargeOptions(state, c, w, t, command);
  const paid = spend(c, 'charge');
  return [paid, ...performCharge(evolve(state, paid), chargePayload(command, c.id, w.id, targetId), dice)];
}

/** archsoul.txt: Charge: mounted, then a straight line of at least 3 spaces and at most 6 × the mount's speed. */
function checkChargePath(c: ArchsoulCombatant, path: Space[]): void {
  const mount = c.sheet.mount;
  ensure(
    c.mounted && mount,
    'ARCHSOUL_NOT_MOUNTED',
    `archsoul.txt: Mounted Maneuvers: "may only be used while mounted"; ${c.id} is not`,
    'combatantId',
  );
  checkMover(c, true);
  ensure(
    straight(c.position!, path),
    'ARCHSOUL_CHARGE_NOT_STRAIGHT',
    'archsoul.txt: Charge: "in a straight line"',
    'path',
  );
  ensure(
    path.length >= CHARGE.minSpaces,
    'ARCHSOUL_CHARGE_TOO_SHORT',
    `archsoul.txt: Charge: "You must move at least 3 spaces"; the path has ${path.length}`,
    'path',
  );
  ensure(
    path.length <= CHARGE.speedMultiple * mount.speed,
    'ARCHSOUL_MOVE_TOO_FAR',
    `archsoul.txt: Charge: up to 6 times the mount's base speed (${CHARGE.speedMultiple * mount.speed} spaces)`,
    'path',
  );
}

/** S35: the attack modifiers a Charge may carry: not Quick, Reckless, Cleave or Sneak. */
function checkChargeOptions(
  state: ArchsoulState,
  c: ArchsoulCombatant,
  w: Weapon,
  t: ArchsoulCombatant,
  command: ArchsoulCommand<'Charge'>,
): void {
  const o = readOptions(state, command);
  ensure(
    !o.special && !o.cleave,
    'ARCHSOUL_MANEUVER_COMBINATION',
    'ruling S35: a Charge is its own special attack; it takes no Quick, Reckless or Cleave',
    o.special ? 'special' : 'cleave',
  );
  checkOptions(
    state,
    c,
    w,
    t,
    { ...o, sneak: false, modifiers: o.modifiers.filter((m) => m !== 'sneak') },
    'attack',
  );
  ensure(
    !o.sneak,
    'ARCHSOUL_MANEUVER_COMBINATION',
    'ruling S35: a charging rider cannot catch its target unaware',
    'sneak',
  );
}

/** The charge as performed (and as held while reactive attacks interrupt it): the path, then the attack. */
function chargePayload(
  command: ArchsoulCommand<'Charge'>,
  riderId: string,
  weaponId: string,
  targetId: string,
): MovePayload {
  const {
    dice: _d,
    rerollFaces: _r,
    followUpFaces: _f,
    path: _p,
    trample: _t,
    type: _y,
    combatantId: _c,
    ...attack
  } = command;
  return {
    combatantId: riderId,
    path: command.path,
    budget: command.path.length,
    action: 'charge',
    charge: { ...attack, weaponId, targetId },
    ...(command.trample ? { trample: true } : {}),
  };
}

export function performCharge(state: ArchsoulState, p: MovePayload, dice: DiceSource): RuleEvent[] {
  const events = walk(state, p, 'path', dice);
  if (events.some((e) => e.type === 'ReactiveAttackTriggered')) return events;
  const s = events.reduce(evolve, state);
  const c = s.combatants[p.combatantId];
  const a = p.charge!;
  return [
    ...events,
    ...performAttack(
      s,
      {
        attacker: c,
        weapon: weaponOf(c, a.weaponId, 'weaponId'),
        target: s.combatants[a.targetId],
        input: a,
        action: 'attack',
        bonusDice: c.sheet.mount!.speed,
      },
      dice,
    ),
  ];
}

/** archsoul.txt: Charge: "If any reactive attack interrupts your action, you are immediately dismounted and knocked down". */
export function dismountOnInterrupt(state: ArchsoulState, actorId: string): RuleEvent[] {
  return knockedDown(
    state.combatants[actorId],
    'dismounted by an interrupted charge',
    'archsoul.txt: Charge: a reactive attack interrupted the charge',
  );
}

/** S42: Mount (1 AP, like a Move): the mount waits in or beside the rider's space; no reactive attacks. */
export function mount(state: ArchsoulState, command: ArchsoulCommand<'Mount'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const here = onMap(c, 'combatantId');
  ensure(c.sheet.mount, 'ARCHSOUL_NO_MOUNT', `ruling S35: ${c.id}'s sheet lists no mount`, 'combatantId');
  ensure(
    !c.mounted,
    'ARCHSOUL_ALREADY_MOUNTED',
    `${c.id} is already riding ${c.sheet.mount.name}`,
    'combatantId',
  );
  // S42: prone, it stands up first; grappled, mounting is no "regular move action" (Being Grappled): the roll (S33).
  checkMover(c, false);
  const at = c.mountAt ?? here;
  ensure(
    distance(state.map.grid, here, at) <= 1,
    'ARCHSOUL_MOUNT_NOT_ADJACENT',
    `ruling S42: ${c.sheet.mount.name} waits at (${at.x}, ${at.y}); ${c.id} must stand in or beside that space`,
    'combatantId',
  );
  return [spend(c, 'mount'), ev('Mounted', { combatantId: c.id, at })];
}

/** S42: Dismount (1 AP, like a Move): the mount waits in the rider's space; no reactive attacks. */
export function dismount(state: ArchsoulState, command: ArchsoulCommand<'Dismount'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const here = onMap(c, 'combatantId');
  ensure(c.mounted && c.sheet.mount, 'ARCHSOUL_NOT_MOUNTED', `${c.id} is not mounted`, 'combatantId');
  return [
    spend(c, 'dismount'),
    ev('Dismounted', { combatantId: c.id, reason: 'RULINGS.md S42: dismounted at will', at: here }),
  ];
}
