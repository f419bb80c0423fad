import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { DiceSource } from '../../dice/roll';
import { ArcanaCommandOf } from '../contract';
import { BOND_SURGE_STAMINA, ENCOURAGE, STRATEGIZE } from '../data';
import { ev } from '../events';
import { dieFor, rollTest } from '../rolls';
import { ArcanaBeastState, ArcanaCombatant, beastOfBinder, isBinder, out } from '../state';
import { BinderSheet, Item } from '../sheet';
import { known, poolFor, present, required, unused } from './common';
import { devolve } from './damage';

type Binder = ArcanaCombatant & { sheet: BinderSheet };

/** arcana-beast.txt: Beast Binder Commands: on the shared turn, one Command, before the Arcana Beast acts (A15). */
function commanding(
  state: ArcanaBeastState,
  command: { combatantId: string },
  beastMustAct: boolean,
): { binder: Binder; beast: ArcanaCombatant } {
  const binder = present(state, command.combatantId, 'combatantId');
  ensure(
    isBinder(binder),
    'ARCANA_NOT_A_BINDER',
    `arcana-beast.txt: Beast Binder Commands: ${binder.id} is not a Beast Binder`,
    'combatantId',
  );
  const beast = beastOfBinder(state, binder.id);
  ensure(
    !beast || state.turn?.beastId !== beast.id || state.turn.binderId === binder.id,
    'ARCANA_NOT_YOUR_TURN',
    `ruling A61: ${binder.id} joined during ${beast?.id}'s turn, which started without it; it shares ${beast?.id}'s turns from the next one`,
    'combatantId',
  );
  ensure(
    beast && state.turn?.binderId === binder.id,
    'ARCANA_NOT_YOUR_TURN',
    `arcana-beast.txt: Initiative & Turn Order: ${binder.id} shares its beast's turn, which is not running`,
    'combatantId',
  );
  const t = state.turn;
  ensure(
    t.command === undefined,
    'ARCANA_COMMAND_USED',
    `RULINGS.md A15: the Binder gives at most one Command per turn; ${binder.id} already gave ${t.command}`,
    'type',
  );
  // A15: the beast acts by its Action or its free band move. A22: an Intercept spends the beast's next
  // Action, not its Binder's Command. A38: an Evolve takes no Action and is not the beast acting. A40:
  // "Pass: Choose not to act" is not acting either (as for A10).
  const acted = t.freeMoveUsed
    ? 'used its free band move'
    : t.action !== undefined && t.action !== 'forfeited' && t.action !== 'pass'
      ? `took ${t.action}`
      : undefined;
  ensure(
    acted === undefined,
    'ARCANA_COMMAND_AFTER_ACTION',
    `arcana-beast.txt: Beast Binder Commands: "On their shared turn, the beastbinder Commands before the Arcana Beast acts"; ${beast.id} already ${acted}`,
    'type',
  );
  if (beastMustAct)
    ensure(
      !out(beast),
      'ARCANA_COMBATANT_OUT',
      `ruling A13/A23: ${beast.id} is out of the encounter`,
      'type',
    );
  return { binder, beast };
}

function binderTest(
  state: ArcanaBeastState,
  binder: Binder,
  stat: 'spirit' | 'technique',
  difficulty: number,
  dice: DiceSource,
) {
  const { spec, spent } = poolFor(state, binder, stat, stat, 0, [], [], []);
  return { test: rollTest(spec, dieFor(binder), difficulty, dice), spent };
}

/** Direct: the Arcana Beast's action gains +1 die (no roll). Bond Surge: Boost on ALL rolls this turn, costs 1 Stamina. */
export function direct(state: ArcanaBeastState, command: ArcanaCommandOf<'Direct'>): RuleEvent[] {
  const { binder, beast } = commanding(state, command, true);
  return [ev('BinderCommanded', { binderId: binder.id, beastId: beast.id, command: 'direct' })];
}

export function bondSurge(state: ArcanaBeastState, command: ArcanaCommandOf<'BondSurge'>): RuleEvent[] {
  const { binder, beast } = commanding(state, command, true);
  ensure(
    beast.stamina >= BOND_SURGE_STAMINA,
    'ARCANA_NO_STAMINA',
    `arcana-beast.txt: Beast Binder Commands: Bond Surge costs ${BOND_SURGE_STAMINA} Stamina; ${beast.id} has ${beast.stamina} (RULINGS.md A11)`,
    'type',
  );
  return [
    ev('BinderCommanded', { binderId: binder.id, beastId: beast.id, command: 'bondSurge' }),
    ev('StaminaSpent', {
      combatantId: beast.id,
      amount: BOND_SURGE_STAMINA,
      stamina: beast.stamina - BOND_SURGE_STAMINA,
    }),
  ];
}

/** Encourage: remove 1 condition or +1 Dodge die (Spirit Test, Diff 1). */
export function encourage(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Encourage'>,
  dice: DiceSource,
): RuleEvent[] {
  const { binder, beast } = commanding(state, command, false);
  // A23: back in its Wearable Vessel, the beast is not targetable for the encounter (as for Use Item).
  ensure(
    !beast.inVessel,
    'ARCANA_COMBATANT_OUT',
    `ruling A23: ${beast.id} is back in its Wearable Vessel for this encounter`,
    'type',
  );
  const effect = command.effect ?? 'dodgeDie';
  // A55: Knocked Out for the encounter, the beast makes no Dodge, so a Dodge die has nothing to go to; removing a
  // condition still does what it says (conditions outlast the encounter, A66), as Use Item's does (A33).
  ensure(
    !beast.knockedOut || effect === 'removeCondition',
    'ARCANA_COMBATANT_OUT',
    `ruling A55: ${beast.id} is Knocked Out for this encounter and makes no Dodge: Encourage's +1 Dodge die needs a beast in the fight (removing a condition, or Use Item, may still tend it)`,
    'type',
  );
  if (effect !== 'removeCondition')
    unused(command.condition, 'condition', 'with effect dodgeDie (only removeCondition names one)');
  const condition =
    effect === 'removeCondition'
      ? required(command.condition, 'condition', 'with effect removeCondition')
      : undefined;
  if (condition)
    ensure(
      beast.conditions.includes(condition),
      'ARCANA_NO_SUCH_CONDITION',
      `arcana-beast.txt: Beast Binder Commands: Encourage removes 1 condition; ${beast.id} is not ${condition}`,
      'condition',
    );
  const { test, spent } = binderTest(state, binder, ENCOURAGE.stat, ENCOURAGE.difficulty, dice);
  const events = [
    ...spent,
    ev('BinderCommanded', {
      binderId: binder.id,
      beastId: beast.id,
      command: 'encourage',
      test,
      passed: test.passed,
      effect,
      condition,
    }),
  ];
  if (test.passed && condition)
    events.push(ev('ConditionRemoved', { combatantId: beast.id, condition, reason: 'Encourage' }));
  return events;
}

/** Strategize: ignore enemy positioning benefit (Technique Test, Diff 2), A28. */
export function strategize(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'Strategize'>,
  dice: DiceSource,
): RuleEvent[] {
  const { binder, beast } = commanding(state, command, true);
  const { test, spent } = binderTest(state, binder, STRATEGIZE.stat, STRATEGIZE.difficulty, dice);
  return [
    ...spent,
    ev('BinderCommanded', {
      binderId: binder.id,
      beastId: beast.id,
      command: 'strategize',
      test,
      passed: test.passed,
    }),
  ];
}

/** Call Back: the beast returns to its Wearable Vessel (Devolve/Retreat with Boost; no roll), A3, A23. */
export function callBack(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'CallBack'>,
  dice: DiceSource,
): RuleEvent[] {
  const { binder, beast } = commanding(state, command, false);
  ensure(
    !beast.inVessel,
    'ARCANA_COMBATANT_OUT',
    `arcana-beast.txt: Beast Binder Commands: Call Back: ${beast.id} is already in its Wearable Vessel (ruling A23)`,
    'type',
  );
  const mode = command.mode ?? 'retreat';
  if (mode === 'devolve') {
    ensure(
      !beast.knockedOut,
      'ARCANA_COMBATANT_OUT',
      `ruling A23: ${beast.id} is Knocked Out; Call Back can only retreat it`,
      'mode',
    );
    ensure(
      beast.stage >= 1,
      'ARCANA_NOTHING_TO_DEVOLVE',
      `arcana-beast.txt: Devolution: ${beast.id} is at Stage 0`,
      'mode',
    );
  }
  const events = [
    ev('BinderCommanded', { binderId: binder.id, beastId: beast.id, command: 'callBack', mode }),
    ev('CalledBack', { binderId: binder.id, beastId: beast.id, mode }),
  ];
  if (beast.stage >= 1 && !beast.knockedOut)
    events.push(...devolve(state, beast, dice, 'callBack', ['Call Back']));
  return events;
}

/** Use Item: spend Stuff from the Binder's inventory; an item with a test works only when it passes. */
export function useItem(
  state: ArcanaBeastState,
  command: ArcanaCommandOf<'UseItem'>,
  dice: DiceSource,
): RuleEvent[] {
  const { binder, beast } = commanding(state, command, false);
  const itemId = command.itemId;
  const item = binder.sheet.inventory.find((i) => i.id === itemId);
  ensure(
    item,
    'ARCANA_UNKNOWN_ITEM',
    `arcana-beast.txt: Beast Binder Commands: Use Item spends Stuff from the Binder's inventory; ${binder.id} carries no ${itemId}`,
    'itemId',
  );
  const left = binder.items[itemId];
  ensure(
    left > 0,
    'ARCANA_ITEM_SPENT',
    `arcana-beast.txt: Beast Binder Commands: Use Item: ${item.name} is used up`,
    'itemId',
  );
  const target = command.targetId === undefined ? beast : known(state, command.targetId, 'targetId');
  ensure(
    !target.inVessel,
    'ARCANA_COMBATANT_OUT',
    `ruling A23: ${target.id} is back in its Wearable Vessel for this encounter`,
    'targetId',
  );
  if (!item.removesCondition)
    unused(command.condition, 'condition', `with ${item.name}, which removes no condition`);
  const condition = item.removesCondition
    ? required(command.condition, 'condition', `with ${item.name}, which removes a condition`)
    : undefined;
  if (condition)
    ensure(
      target.conditions.includes(condition),
      'ARCANA_NO_SUCH_CONDITION',
      `arcana-beast.txt: Beast Binder Commands: Use Item: ${target.id} is not ${condition}`,
      'condition',
    );
  const events: RuleEvent[] = [
    ev('BinderCommanded', {
      binderId: binder.id,
      beastId: beast.id,
      command: 'useItem',
      itemId,
      targetId: target.id,
    }),
  ];
  let works = true;
  if (item.test) {
    const { spec, spent } = poolFor(state, binder, 'item', item.test.stat, 0, [], [], []);
    const test = rollTest(spec, dieFor(binder), item.test.difficulty, dice);
    events.unshift(...spent);
    events[events.length - 1] = ev('BinderCommanded', {
      binderId: binder.id,
      beastId: beast.id,
      command: 'useItem',
      itemId,
      targetId: target.id,
      test,
      passed: test.passed,
    });
    works = test.passed;
  }
  events.push(ev('ItemUsed', { binderId: binder.id, itemId, quantityLeft: left - 1, targetId: target.id }));
  if (works) events.push(...itemEffects(item, target, condition));
  return events;
}

/** What an item that works does: Hp and Stamina back, up to the target's maxima, and its condition removed. */
function itemEffects(item: Item, target: ArcanaCombatant, condition: string | undefined): RuleEvent[] {
  const events: RuleEvent[] = [];
  const heal = Math.min(item.heal, target.sheet.maxHp - target.hp);
  if (heal > 0)
    events.push(
      ev('HpRestored', { combatantId: target.id, amount: heal, hpBefore: target.hp, hp: target.hp + heal }),
    );
  const stamina = Math.min(item.stamina, target.sheet.maxStamina - target.stamina);
  if (stamina > 0)
    events.push(
      ev('StaminaRestored', { combatantId: target.id, amount: stamina, stamina: target.stamina + stamina }),
    );
  if (condition)
    events.push(ev('ConditionRemoved', { combatantId: target.id, condition, reason: item.name }));
  return events;
}
