import { bad } from '../../core/fields';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ActionKind, Band, BANDS, DEFAULT_BAND, Stat } from '../data';
import { DiceBonus, ev } from '../events';
import { PoolSpec } from '../rolls';
import {
  ArcanaBeastState,
  ArcanaCombatant,
  binderIdOf,
  combatantOf,
  isBeast,
  isBinder,
  out,
  TagState,
} from '../state';

/** A14/A17: a Binder shares its beast's bands. */
export function anchor(state: ArcanaBeastState, id: string): string {
  const c = combatantOf(state, id);
  return c && isBinder(c) && binderIdOf(state, c.sheet.beastId) === id ? c.sheet.beastId : id;
}

/**
 * A72: a tag naming an opponent holds while someone in the fight stands in that opponent's place (the opponent, or the
 * Binder of a beast that has left, A47, A51); against a combatant who has left and left no one there, it holds against
 * no one. A tag naming no one always holds.
 */
export function tagInForce(state: ArcanaBeastState, tag: TagState): boolean {
  if (tag.againstId === undefined || combatantOf(state, tag.againstId)) return true;
  const place = anchor(state, tag.againstId);
  return state.joined.some((id) => anchor(state, id) === place);
}

export function pairKey(state: ArcanaBeastState, a: string, b: string): string {
  const [x, y] = [anchor(state, a), anchor(state, b)].sort();
  return `${x}|${y}`;
}

export function bandBetween(state: ArcanaBeastState, a: string, b: string): Band {
  if (anchor(state, a) === anchor(state, b)) return 'close';
  return state.bands[pairKey(state, a, b)] ?? DEFAULT_BAND;
}

/**
 * bandBetween for many pairs of one state: each combatant's anchor looked up once, not four times a
 * pair (a view asks for every pair: n² lookups).
 */
export function bandsOf(state: ArcanaBeastState): (a: string, b: string) => Band {
  const anchors = new Map(state.joined.map((id) => [id, anchor(state, id)]));
  return (a, b) => {
    const x = anchors.get(a) ?? anchor(state, a);
    const y = anchors.get(b) ?? anchor(state, b);
    if (x === y) return 'close';
    return state.bands[x < y ? `${x}|${y}` : `${y}|${x}`] ?? DEFAULT_BAND;
  };
}

export function bandSteps(from: Band, to: Band): number {
  return Math.abs(BANDS.indexOf(from) - BANDS.indexOf(to));
}

/** The combatant a command names (its id already checked by the contract): an own entry of the fight, or refused. */
export function known(state: ArcanaBeastState, id: string, field: string): ArcanaCombatant {
  const c = combatantOf(state, id);
  ensure(c, 'COMBATANT_NOT_FOUND', `no combatant ${id} in this fight`, field);
  return c;
}

/** A field the contract leaves optional that this use of the command needs. */
export function required<T>(value: T | undefined, field: string, when: string): T {
  if (value === undefined) bad(field, `is required ${when}`);
  return value;
}

/** A field the contract declares that this use of the command would ignore: refused, so a mistake is seen. */
export function unused(value: unknown, field: string, why: string): void {
  if (value !== undefined) bad(field, `is not used ${why}`);
}

export function present(state: ArcanaBeastState, id: string, field: string): ArcanaCombatant {
  const c = known(state, id, field);
  ensure(
    !out(c),
    'ARCANA_COMBATANT_OUT',
    `ruling A13/A23: ${c.id} is ${c.knockedOut ? 'Knocked Out' : 'back in its Wearable Vessel'} for this encounter`,
    field,
  );
  return c;
}

/** A15: the beast acting in its own shared turn. */
export function beastInTurn(state: ArcanaBeastState, id: string, field: string): ArcanaCombatant {
  const c = known(state, id, field);
  ensure(
    isBeast(c),
    'ARCANA_NOT_A_BEAST',
    `arcana-beast.txt: Actions in Combat: only an Arcana Beast takes Actions; ${c.id} is a Beast Binder (use a Command)`,
    field,
  );
  ensure(
    state.turn?.beastId === c.id,
    'ARCANA_NOT_YOUR_TURN',
    `arcana-beast.txt: Initiative & Turn Order: it is ${state.turn ? `${state.turn.beastId}'s` : 'nobody’s'} turn, not ${c.id}'s`,
    field,
  );
  ensure(
    !out(c),
    'ARCANA_COMBATANT_OUT',
    `ruling A13/A23: ${c.id} is ${c.knockedOut ? 'Knocked Out' : 'back in its Wearable Vessel'} for this encounter`,
    field,
  );
  return c;
}

/** arcana-beast.txt: Actions in Combat: one Action per turn (A15). */
export function beastWithAction(state: ArcanaBeastState, id: string, field: string): ArcanaCombatant {
  const c = beastInTurn(state, id, field);
  const used = state.turn!.action;
  ensure(
    used === undefined,
    'ARCANA_ACTION_USED',
    used === 'forfeited'
      ? `RULINGS.md A15: ${c.id} intercepted an attack and spent this turn's Action`
      : `arcana-beast.txt: Actions in Combat: perform one Action per turn; ${c.id} already took ${used}`,
    'type',
  );
  return c;
}

/**
 * An Action, and A10: a target that takes its own Action resets the combos against it. A54: the Action is its
 * Binder's turn's Action too ("Shares turn with Arcana Beast"), so it resets the combo on that Binder as well.
 */
export function actionTaken(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  action: ActionKind,
  extra: { targetId?: string; allyId?: string; note?: string } = {},
): RuleEvent[] {
  const events = [ev('ActionTaken', { combatantId: c.id, action, ...extra })];
  if (action === 'pass') return events;
  if (Object.hasOwn(state.combos, c.id))
    events.push(ev('ComboReset', { targetId: c.id, reason: 'the target acted (RULINGS.md A10)' }));
  const binderId = binderIdOf(state, c.id);
  if (binderId !== undefined && combatantOf(state, binderId) && Object.hasOwn(state.combos, binderId))
    events.push(
      ev('ComboReset', { targetId: binderId, reason: 'its beast acted in their shared turn (ruling A54)' }),
    );
  return events;
}

export function sameSide(a: ArcanaCombatant, b: ArcanaCombatant): boolean {
  return a.side === b.side;
}

/** A30: the GM's situational dice (their range is the contract's). */
export function bonusDice(n = 0): DiceBonus[] {
  return n > 0 ? [{ source: 'bonusDice (RULINGS.md A30)', dice: n }] : [];
}

/**
 * A combatant's pool with the dice waiting for it: Assist (+1 on the next roll), Encourage (+1 on the next
 * Dodge) and Bond Surge (Boost on every roll of the shared turn, its Binder's while it shares it, A74) — A26. Returns
 * the events that spend the waiting dice.
 */
export function poolFor(
  state: ArcanaBeastState,
  c: ArcanaCombatant,
  purpose: string,
  stat: Stat,
  ranks: number,
  bonuses: DiceBonus[],
  boost: string[],
  setback: string[],
  dodge = false,
): { spec: PoolSpec; spent: RuleEvent[] } {
  const all = [...bonuses];
  const spent: RuleEvent[] = [];
  if (c.assistDice > 0) {
    all.push({ source: 'Assist', dice: c.assistDice });
    spent.push(ev('BonusDiceUsed', { combatantId: c.id, source: 'Assist', dice: c.assistDice }));
  }
  if (dodge && c.encourageDodge > 0) {
    all.push({ source: 'Encourage', dice: c.encourageDodge });
    spent.push(ev('BonusDiceUsed', { combatantId: c.id, source: 'Encourage', dice: c.encourageDodge }));
  }
  const t = state.turn;
  // A74: a Binder Knocked Out in the turn no longer shares it (A21): Bond Surge's Boost stops for its rolls.
  const surged = t?.bondSurge && (t.beastId === c.id || (t.binderId === c.id && !c.knockedOut));
  const boosts = surged ? [...boost, 'Bond Surge'] : boost;
  return {
    spec: {
      combatantId: c.id,
      purpose,
      stat,
      statValue: c.sheet.stats[stat],
      ranks,
      bonuses: all,
      boost: boosts,
      setback,
    },
    spent,
  };
}
