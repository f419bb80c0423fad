import { bad } from '../../core/fields';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ArchsoulCommand } from '../contract';
import { ev } from '../events';
import { same } from '../grid';
import { checkHandsFree, describeHands, freeHands, handsFor } from '../hands';
import { ArchsoulCombatant, ArchsoulState, GroundItem } from '../state';
import { acting, onMap, spend } from './common';
import { triggerReactions } from './reactions';

function itemOf(
  c: ArchsoulCombatant,
  itemId: string,
): { id: string; name: string; stowage: 'simple' | 'awkward' } {
  const found =
    c.sheet.weapons.find((w) => w.id === itemId) ??
    c.sheet.items.find((i) => i.id === itemId) ??
    (c.sheet.shield?.id === itemId ? { ...c.sheet.shield, stowage: 'awkward' as const } : undefined);
  ensure(found, 'ARCHSOUL_UNKNOWN_ITEM', `${c.id} carries no item ${itemId}`, 'itemId');
  ensure(!c.weapons[itemId]?.destroyed, 'ARCHSOUL_WEAPON_DESTROYED', `${found.name} is destroyed`, 'itemId');
  return found;
}

/**
 * S52: why Draw Simple Item cannot draw this, from what the sheet says of it (undefined: it can).
 * archsoul.txt: Draw Awkward Item: "Draw a two-handed weapon, equip a shield, pull an item from a backpack, or
 * retrieve an item from a hard to reach spot"; Draw Simple Item: "*This includes spears wielded as two-handed weapons".
 */
function awkwardBecause(c: ArchsoulCombatant, itemId: string): string | undefined {
  if (c.sheet.shield?.id === itemId) return `"equip a shield": ${c.sheet.shield.name} is a shield`;
  const w = c.sheet.weapons.find((x) => x.id === itemId);
  const thing = w ?? c.sheet.items.find((x) => x.id === itemId);
  if (!thing) return undefined;
  if (thing.twoHanded && !w?.properties.includes('spear'))
    return `"Draw a two-handed weapon": ${thing.name} is two-handed (and not a spear, which Draw Simple Item draws)`;
  if (thing.stowage === 'awkward')
    return `"pull an item from a backpack, or retrieve an item from a hard to reach spot": ${thing.name} is stowed awkwardly (stowage: awkward)`;
  return undefined;
}

/** archsoul.txt: Free Actions: dropping a held item (in your own space); grappled, after a grapple roll (S33). */
export function dropItem(state: ArchsoulState, command: ArchsoulCommand<'DropItem'>): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const space = onMap(c, 'combatantId');
  const itemId = command.itemId;
  const item = itemOf(c, itemId);
  ensure(c.held.includes(itemId), 'ARCHSOUL_ITEM_NOT_HELD', `${c.id} does not hold ${item.name}`, 'itemId');
  return [
    ev('ItemDropped', {
      combatantId: c.id,
      itemId,
      groundId: `g${state.groundCount + 1}`,
      name: item.name,
      space,
      reason: 'dropped (free action)',
    }),
  ];
}

/** archsoul.txt: Draw Simple Item (1 AP): a one-handed item from a scabbard, pouch or bandolier, or pick one up (triggers). */
export function drawSimpleItem(
  state: ArchsoulState,
  command: ArchsoulCommand<'DrawSimpleItem'>,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  if (command.groundId !== undefined) {
    if (command.itemId !== undefined)
      bad('itemId', 'names an item to draw; groundId picks one up instead: send one of them');
    const groundId = command.groundId;
    const g = state.ground.find((x) => x.groundId === groundId);
    ensure(g, 'ARCHSOUL_UNKNOWN_GROUND_ITEM', `nothing ${groundId} lies on the ground`, 'groundId');
    ensure(
      c.position && same(c.position, g.space),
      'ARCHSOUL_ITEM_NOT_HERE',
      `archsoul.txt: Draw Simple Item: ${g.name} lies at ${g.space.x},${g.space.y}, not in ${c.id}'s space`,
      'groundId',
    );
    // S60: anyone's item may be picked up; another's is carried like a stolen one, needing the hands its owner's sheet
    // says it needs to be lifted. S51: a recovered arrow or bolt goes back into the quiver (S21); anything else into
    // free hands.
    if (g.ownerId !== c.id) checkHandsForForeign(state, c, g);
    else if (!g.ammunition)
      checkHandsFree(
        c.sheet,
        c.id,
        c.hands,
        g.itemId,
        'archsoul.txt: Draw Simple Item: "pick an item up from the ground"',
        'groundId',
      );
    const paid = spend(c, 'drawSimpleItem');
    const reactors = triggerReactions(state, c.id, 'pickUp', c.position, {
      type: 'DrawSimpleItem',
      payload: { combatantId: c.id, groundId },
    });
    return [paid, ...(reactors.length > 0 ? reactors : performPickUp(state, c, groundId))];
  }
  const itemId = command.itemId ?? bad('itemId', 'is required (or groundId, to pick an item up)');
  const item = itemOf(c, itemId);
  ensure(
    !c.away.includes(itemId),
    'ARCHSOUL_ITEM_AWAY',
    `${item.name} is not on ${c.id} (on the ground or lost); pick it up with groundId`,
    'itemId',
  );
  ensure(!c.held.includes(itemId), 'ARCHSOUL_ALREADY_HELD', `${c.id} already holds ${item.name}`, 'itemId');
  const awkward = awkwardBecause(c, itemId);
  ensure(
    awkward === undefined,
    'ARCHSOUL_AWKWARD_ITEM',
    `archsoul.txt: Draw Awkward Item (2 AP): ${awkward}; draw it with DrawAwkwardItem (ruling S52)`,
    'itemId',
  );
  checkHandsFree(
    c.sheet,
    c.id,
    c.hands,
    itemId,
    'archsoul.txt: Draw Simple Item: "Draw a one-handed item"',
    'itemId',
  );
  return [spend(c, 'drawSimpleItem'), ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' })];
}

export function performPickUp(state: ArchsoulState, c: ArchsoulCombatant, groundId: string): RuleEvent[] {
  const g = state.ground.find((x) => x.groundId === groundId)!;
  if (g.ownerId !== c.id)
    return [
      ev('ItemTaken', { combatantId: c.id, fromId: g.ownerId, itemId: g.itemId, name: g.name, groundId }),
    ];
  return [ev('ItemDrawn', { combatantId: c.id, itemId: g.itemId, from: 'ground', groundId })];
}

/** S60: lifting another combatant's item takes the hands its owner's sheet says it needs (S51); ammunition none. */
function checkHandsForForeign(state: ArchsoulState, c: ArchsoulCombatant, g: GroundItem): void {
  const owner = state.combatants[g.ownerId];
  const need = g.ammunition ? 0 : owner ? handsFor(owner.sheet, g.itemId) : 1;
  ensure(
    freeHands(c.hands) >= need,
    'ARCHSOUL_HANDS_FULL',
    `archsoul.txt: Draw Simple Item: "pick an item up from the ground": ${g.name} needs ${need === 2 ? 'both hands' : 'a free hand'}; ${c.id} has two (ruling S51) and holds ${describeHands(c.sheet, c.hands)}: drop something first (a free action)`,
    'groundId',
  );
}

/** archsoul.txt: Draw Awkward Item (2 AP, consecutive, may span turns); S25. */
export function drawAwkwardItem(
  state: ArchsoulState,
  command: ArchsoulCommand<'DrawAwkwardItem'>,
): RuleEvent[] {
  const c = acting(state, command, 'combatantId');
  const itemId = command.itemId;
  const item = itemOf(c, itemId);
  ensure(!c.away.includes(itemId), 'ARCHSOUL_ITEM_AWAY', `${item.name} is not on ${c.id}`, 'itemId');
  ensure(!c.held.includes(itemId), 'ARCHSOUL_ALREADY_HELD', `${c.id} already holds ${item.name}`, 'itemId');
  checkHandsFree(
    c.sheet,
    c.id,
    c.hands,
    itemId,
    'archsoul.txt: Draw Awkward Item: "Draw a two-handed weapon, equip a shield"',
    'itemId',
  );
  if (c.awkward === itemId) {
    // S25, ruling S105: a draw from a backpack triggers reactive attacks as it starts; its second half triggers none.
    if (command.fromBackpack)
      bad(
        'fromBackpack',
        `is never read on the second half of a draw: ${item.name}’s draw has started (AwkwardDrawStarted), and a draw from a backpack triggers reactive attacks as it starts (rulings S25, S105); send the second half without it`,
      );
    return [spend(c, 'drawAwkwardItem', 1), ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' })];
  }
  const ap = c.ap >= 2 ? 2 : 1;
  const paid = spend(c, 'drawAwkwardItem', ap);
  if (command.fromBackpack && c.position) {
    const reactors = triggerReactions(state, c.id, 'backpack', c.position, {
      type: 'DrawAwkwardItem',
      payload: { combatantId: c.id, itemId, ap },
    });
    if (reactors.length > 0) return [paid, ...reactors];
  }
  return [paid, ...performAwkward(state, c, itemId, ap)];
}

export function performAwkward(
  _state: ArchsoulState,
  c: ArchsoulCombatant,
  itemId: string,
  ap: number,
): RuleEvent[] {
  return [
    ap >= 2
      ? ev('ItemDrawn', { combatantId: c.id, itemId, from: 'stowed' })
      : ev('AwkwardDrawStarted', { combatantId: c.id, itemId }),
  ];
}
