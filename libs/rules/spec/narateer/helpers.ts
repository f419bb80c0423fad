import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { narateer, NarateerState, validateSheet } from '../../src/narateer';
import { decideExact, fightStarted, given } from '../given';
export { find, types } from '../given';

export const sword = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};
export const mace = {
  id: 'mace',
  name: 'Mace',
  kind: 'melee',
  weight: 'heavy',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Impact)',
};
export const greatsword = {
  id: 'greatsword',
  name: 'Greatsword',
  kind: 'melee',
  weight: 'heavy',
  baseAttackCost: 3,
  weaponDamage: 4,
  damageVitalCap: 4,
  harm: 'Physical (Slashing)',
};
export const spear = {
  id: 'spear',
  name: 'Spear',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 2,
  reach: 2,
  harm: 'Physical (Piercing)',
};
export const bow = {
  id: 'bow',
  name: 'Bow',
  kind: 'ranged',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  effectiveRange: 12,
  maximumRange: 30,
  ammunition: 20,
  harm: 'Physical (Piercing)',
};
export const crossbow = {
  id: 'crossbow',
  name: 'Light crossbow',
  kind: 'ranged',
  weight: 'light',
  baseAttackCost: 2,
  weaponDamage: 3,
  damageVitalCap: 2,
  effectiveRange: 10,
  maximumRange: 20,
  needsLoading: true,
  loaded: true,
  ammunition: 10,
  harm: 'Physical (Piercing)',
};

type Sheet = Record<string, unknown>;

export function sheet(overrides: Sheet = {}): Sheet {
  return {
    vitals: { strength: 2, agility: 2, resilience: 2 },
    skills: { melee: 1, ranged: 1, acrobatics: 1 },
    maxVitality: 8,
    maxAD: 5,
    maxMD: 0,
    weapons: [sword],
    armour: { soak: 1 },
    ...overrides,
  };
}

export const mira = sheet({
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
});
export const orin = sheet({
  vitals: { strength: 3, agility: 2, resilience: 2 },
  skills: { melee: 1 },
  weapons: [mace],
});
export const sera = sheet({
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 0, ranged: 2, acrobatics: 1 },
  maxVitality: 6,
  weapons: [bow],
});
export const veyr = sheet({
  vitals: { strength: 2, agility: 2, resilience: 2 },
  skills: { ranged: 1, acrobatics: 1 },
  maxVitality: 4,
  maxAD: 4,
  weapons: [crossbow],
});

export interface Fighter {
  id: string;
  sheet: Sheet;
  side?: string;
}

export function joined(f: Fighter): RuleEvent {
  return {
    type: 'CombatantJoined',
    data: { id: f.id, name: f.id, side: f.side ?? f.id, sheet: validateSheet(f.sheet, 'sheet') },
  };
}

/** A started fight in round 1 with `active`'s activation running (initiative = the listed order). */
export function fight(fighters: Fighter[], active?: string): RuleEvent[] {
  const events: RuleEvent[] = [
    fightStarted('narateer'),
    ...fighters.map(joined),
    { type: 'InitiativeSet', data: { order: fighters.map((f) => f.id) } },
    { type: 'RoundStarted', data: { round: 1 } },
  ];
  if (active) events.push({ type: 'ActivationStarted', data: { combatantId: active, round: 1 } });
  return events;
}

/** Mira against Orin (or the sheets given), Mira's activation open. */
export const duel = (a = mira, b = orin) =>
  fight(
    [
      { id: 'mira', sheet: a },
      { id: 'orin', sheet: b },
    ],
    'mira',
  );

/** Sera's bow against Veyr's crossbow, Sera's activation open. */
export const shootout = () =>
  fight(
    [
      { id: 'sera', sheet: sera },
      { id: 'veyr', sheet: veyr },
    ],
    'sera',
  );

/** Decides `command` on the folded `events` and returns the history with the new events appended. */
export function then(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  return [...events, ...exact(events, command, faces)];
}

/** The new events, checking that the command used exactly the manual faces given (C6, N22). */
export function exact(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  return decideExact(narateer, events, command, faces);
}

export function stateOf(events: RuleEvent[]): NarateerState {
  return given(narateer, events).state;
}

export const melee = (
  attackerId: string,
  targetId: string,
  boost: number,
  extra: Record<string, unknown> = {},
): RuleCommand => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'melee',
  weaponId: 'sword',
  boost,
  ...extra,
});
export const ranged = (
  attackerId: string,
  targetId: string,
  weaponId: string,
  boost: number,
  extra: Record<string, unknown> = {},
): RuleCommand => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'ranged',
  weaponId,
  boost,
  ...extra,
});
export const respond = (
  combatantId: string,
  response: string,
  boost = 0,
  extra: Record<string, unknown> = {},
): RuleCommand => ({ type: 'RespondToExchange', combatantId, response, boost, ...extra });

/** Puts `id` on Space (x, y) (the GM's SetPosition) after `events`. */
export const at = (events: RuleEvent[], id: string, x: number, y: number) =>
  then(events, { type: 'SetPosition', combatantId: id, position: { x, y } });
/** A Move of `combatantId` along `path`, Space by Space. */
export const move = (combatantId: string, path: [number, number][], extra: Record<string, unknown> = {}) => ({
  type: 'Move',
  combatantId,
  path: path.map(([x, y]) => ({ x, y })),
  ...extra,
});
/** `combatantId` takes the Opportunity Attack on offer with its sword, no Boost. */
export const take = (combatantId: string, extra: Record<string, unknown> = {}): RuleCommand => ({
  type: 'TakeOpportunityAttack',
  combatantId,
  weaponId: 'sword',
  boost: 0,
  ...extra,
});
/** A Move of `combatantId` one Space, to (x, y). */
export const step = (combatantId: string, x: number, y: number, extra: Record<string, unknown> = {}) => ({
  type: 'Move',
  combatantId,
  path: [{ x, y }],
  ...extra,
});

/** The GM's ApplyCondition of `name` to a combatant. */
export const condition = (combatantId: string, name: string): RuleCommand => ({
  type: 'ApplyCondition',
  combatantId,
  condition: name,
});

/** The rule violation `command` meets after `events`. */
export const refusal = (events: RuleEvent[], command: RuleCommand) =>
  given(narateer, events).when(command).violation();
