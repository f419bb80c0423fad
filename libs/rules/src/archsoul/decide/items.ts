import { bad } from '../../core/fields';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import { ev } from '../events';
import { same } from '../grid';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import { acting, onMap, spend } from './common';
import { triggerReactions } from './reactions';

function itemOf(c: ArchsoulCombatant, itemId: string): { id: string; name: string; stowage: 'simple' | 'awkward' } {
  const found = c.sheet.weapons.find((w) => w.id === itemId) ?? c.sheet.items.find((i) => i.id === itemId) ?? (c.sheet.shield?.id === itemId ? { ...c.sheet.shield, stowage: 'awkward' as const } : undefined);
  ensure(found, 'ARCHSOUL_UNKNOWN_ITEM', `${c.id} carries no item ${itemId}`, 'itemId');
  ensure(!(c.weapons[itemId]?.destroyed), 'ARCHSOUL_WEAPON_DESTROYED', `${found.name} is destroyed`, 'itemId');
  return found;
}

/** archsoul.txt: Free Actions: dropping a held item (in your own space). */
export function dropItem(state: ArchsoulState, command: ArchsoulCommand<'DropItem'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const space = onMap(c, 'combatantId');
  const itemId = command.itemId;
  const item = itemOf(c, itemId);
  ensure(c.held.includes(itemId), 'ARCHSOUL_ITEM_NOT_HELD', `${c.id} does not hold ${item.name}`, 'itemId');
  return [ev('ItemDropped', { combatantId: c.id, itemId, groundId: `g${state.groundCount + 1}`, name: item.name, space, reason: 'dropped (free action)' })];
}

/** archsoul.txt: Draw Simple Item (1 AP): a one-handed item from a scabbard, pouch or bandolier, or pick one up (triggers). */
export function drawSimpleItem(state: ArchsoulState, command: ArchsoulCommand<'DrawSimpleItem'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  if (command.groundId !== undefined) {
    const groundId = command.groundId;
    const g = state.ground.find((x) => x.groundId === groundId);
    ensure(g, 'ARCHSOUL_UNKNOWN_GROUND_ITEM', `nothing ${groundId} lies on the ground`, 'groundId');
    ensure(c.position && same(c.position, g.space), 'ARCHSOUL_ITEM_NOT_HERE', `archsoul.txt: Draw Simple Item: ${g.name} lies at ${g.space.x},${g.space.y}, not in ${c.id}'s space`, 'groundId');
    ensure(g.ownerId === c.id, 'ARCHSOUL_NOT_YOUR_ITEM', `${g.name} belongs to ${g.ownerId}'s sheet; the GM moves items between sheets`, 'groundId');
    const paid = spend(c, 'drawSimpleItem');
    const reactors = triggerReactions(state, c.id, 'pickUp', c.position, { type: 'DrawSimpleItem', payload: { combatantId: c.id, groundId } });
    return [paid, ...(reactors.length > 0 ? reactors : performPickUp(state, c, groundId))];
  }
  const itemId = command.itemId ?? bad('itemId', 'is required (or groundId, to pick an item up)');
  const item = itemOf(c, itemId);
  ensure(!c.away.includes(itemId), 'ARCHSOUL_ITEM_AWAY', `${item.name} is not on ${c.id} (on the ground or lost); pick it up with groundId`, 'itemId');
  ensure(!c.held.includes(itemId), 'ARCHSOUL_ALREADY_HELD', `${c.id} already holds ${item.name}`, 'itemId');
  ensure(item.stowage === 'simple', 'ARCHSOUL_AWKWARD_ITEM', `archsoul.txt: Draw Awkward Item: ${item.name} (two-handed, a shield, in a backpack) takes Draw Awkward Item`, 'itemId');
  return [spend(c, 'drawSimpleItem'), ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' })];
}

export function performPickUp(state: ArchsoulState, c: ArchsoulCombatant, groundId: string): RuleEvent[] {
  const g = state.ground.find((x) => x.groundId === groundId)!;
  return [ev('ItemDrawn', { combatantId: c.id, itemId: g.itemId, from: 'ground', groundId })];
}

/** archsoul.txt: Draw Awkward Item (2 AP, consecutive, may span turns); RULINGS.md S25. */
export function drawAwkwardItem(state: ArchsoulState, command: ArchsoulCommand<'DrawAwkwardItem'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const itemId = command.itemId;
  const item = itemOf(c, itemId);
  ensure(!c.away.includes(itemId), 'ARCHSOUL_ITEM_AWAY', `${item.name} is not on ${c.id}`, 'itemId');
  ensure(!c.held.includes(itemId), 'ARCHSOUL_ALREADY_HELD', `${c.id} already holds ${item.name}`, 'itemId');
  if (c.awkward === itemId) return [spend(c, 'drawAwkwardItem', 1), ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' })];
  const ap = c.ap >= 2 ? 2 : 1;
  const paid = spend(c, 'drawAwkwardItem', ap);
  if (command.fromBackpack && c.position) {
    const reactors = triggerReactions(state, c.id, 'backpack', c.position, { type: 'DrawAwkwardItem', payload: { combatantId: c.id, itemId, ap } });
    if (reactors.length > 0) return [paid, ...reactors];
  }
  return [paid, ...performAwkward(state, c, itemId, ap)];
}

export function performAwkward(_state: ArchsoulState, c: ArchsoulCombatant, itemId: string, ap: number): RuleEvent[] {
  return [ap >= 2 ? ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' }) : ev('AwkwardDrawStarted', { combatantId: c.id, itemId })];
}
