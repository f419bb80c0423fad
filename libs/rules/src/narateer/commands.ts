import { arr, bad, bool, int, obj, oneOf, str } from '../core/fields';
import { RuleCommand } from '../core/types';
import { DieKind, EdgeKind, EDGES, Harm, RESPONSES, ResponseKind, Vital, VITALS } from './data';
import { Space } from './events';
import { readHarm } from './sheet';

export type NarateerCommandType =
  | 'DeclareExchange'
  | 'RespondToExchange'
  | 'AllocateWounds'
  | 'ApplyWounds'
  | 'ReloadWeapon'
  | 'SpendDice'
  | 'ApplyLingeringHarm'
  | 'TreatLingeringHarm'
  | 'ApplyCondition'
  | 'RemoveCondition'
  | 'SetPosition'
  | 'Move'
  | 'TakeOpportunityAttack'
  | 'DeclineOpportunity';

/** Every Narateer command beyond the shared lifecycle, with one line each (GET /systems/narateer). */
export const NARATEER_COMMANDS: Record<NarateerCommandType, string> = {
  DeclareExchange: 'The tempo-holder declares a Melee or Ranged Exchange: attackerId, targetId, kind, weaponId, boost, damageVital?, response?, edge?, responderEdge?, distance?, attackerUnseen?, attackerCannotSeeTarget?, targetCannotSeeAttacker?, targetUnaware?, harm?, allocation?.',
  RespondToExchange: 'The responder answers the pending exchange: combatantId, response (none | fullGuard | clash), boost, weaponId?, damageVital?, harm?, allocation?.',
  AllocateWounds: 'The wounded combatant chooses AD or MD for each Wound that takes a die: combatantId, allocation.',
  ApplyWounds: 'GM: a spell or effect deals Wounds (or a Wound Margin) as one resolution: combatantId, wounds | woundMargin, harm, effect?, allocation?.',
  ReloadWeapon: 'Load a weapon that needs Loading during the own activation: combatantId, weaponId.',
  SpendDice: 'Commit Ready AD/MD to another action; proactiveUse (melee | ranged) counts a shove, trip, feint…: combatantId, ad?, md?, proactiveUse?, reason?.',
  ApplyLingeringHarm: 'GM: start one source of Lingering Harm: combatantId, form, harm?, wounds?, source?.',
  TreatLingeringHarm: 'GM: end one Lingering Harm instance: combatantId, lingeringHarmId.',
  ApplyCondition: 'GM: apply a Close-Enough condition (no stacking: worst intensity/duration): combatantId, condition, intensity?, rounds?.',
  RemoveCondition: 'GM: remove a condition: combatantId, condition.',
  SetPosition: 'GM: place a combatant on a map Space or take it off the map: combatantId, position ({x, y} | null).',
  Move: 'Move Space by Space: combatantId, path [{x, y}…], noReactions?, forced?; stops at a step that opens Opportunity Attacks.',
  TakeOpportunityAttack: 'The offered reactor initiates a Melee Exchange against the mover: combatantId, weaponId, boost, damageVital?, response?, edge?, harm?, allocation?.',
  DeclineOpportunity: 'The offered reactor lets the opportunity pass: combatantId.',
};

export interface ResponseInput {
  response: ResponseKind;
  boost: number;
  weaponId?: string;
  damageVital?: Vital;
  harm?: Harm;
  allocation?: DieKind[];
}

/** Situational inputs of an attack (narateer.txt: Combat Modifiers, Hidden and Unseen Creatures). */
export interface AttackInput {
  weaponId: string;
  boost: number;
  damageVital?: Vital;
  edge?: EdgeKind;
  responderEdge?: EdgeKind;
  distance?: number;
  attackerUnseen: boolean;
  attackerCannotSeeTarget: boolean;
  targetCannotSeeAttacker: boolean;
  targetUnaware: boolean;
  harm?: Harm;
  response?: ResponseInput;
  allocation?: DieKind[];
}

export function readAttack(c: RuleCommand): AttackInput {
  return {
    weaponId: str(c.weaponId, 'weaponId', { max: 64 }),
    boost: int(c.boost ?? 0, 'boost', { min: 0, max: 30 }),
    damageVital: c.damageVital === undefined ? undefined : oneOf(c.damageVital, 'damageVital', VITALS),
    edge: c.edge === undefined ? undefined : oneOf(c.edge, 'edge', EDGES),
    responderEdge: c.responderEdge === undefined ? undefined : oneOf(c.responderEdge, 'responderEdge', EDGES),
    distance: c.distance === undefined ? undefined : int(c.distance, 'distance', { min: 0, max: 1000 }),
    attackerUnseen: bool(c.attackerUnseen, 'attackerUnseen', false),
    attackerCannotSeeTarget: bool(c.attackerCannotSeeTarget, 'attackerCannotSeeTarget', false),
    targetCannotSeeAttacker: bool(c.targetCannotSeeAttacker, 'targetCannotSeeAttacker', false),
    targetUnaware: bool(c.targetUnaware, 'targetUnaware', false),
    harm: c.harm === undefined ? undefined : readHarm(c.harm, 'harm'),
    response: c.response === undefined ? undefined : readResponse(c.response, 'response'),
    allocation: readAllocation(c.allocation, 'allocation', true),
  };
}

/** A response: `RespondToExchange`'s payload (prefix '') or an advance answer (prefix 'response'); a bare string means no Boost. */
export function readResponse(raw: unknown, prefix: string): ResponseInput {
  const p = prefix ? `${prefix}.` : '';
  const r = typeof raw === 'string' && prefix ? { response: raw } : obj(raw, prefix || 'command');
  const input: ResponseInput = {
    response: oneOf(r.response, `${p}response`, RESPONSES),
    boost: int(r.boost ?? 0, `${p}boost`, { min: 0, max: 30 }),
  };
  if (r.weaponId !== undefined) input.weaponId = str(r.weaponId, `${p}weaponId`, { max: 64 });
  if (r.damageVital !== undefined) input.damageVital = oneOf(r.damageVital, `${p}damageVital`, VITALS);
  if (r.harm !== undefined) input.harm = readHarm(r.harm, `${p}harm`);
  if (r.allocation !== undefined) input.allocation = readAllocation(r.allocation, `${p}allocation`, true);
  return input;
}

export function readAllocation(raw: unknown, field: string, optional: boolean): DieKind[] | undefined {
  if (raw === undefined && optional) return undefined;
  return arr(raw, field, { max: 200 }).map((k, i) => oneOf<DieKind>(k, `${field}[${i}]`, ['AD', 'MD']));
}

export function readSpace(raw: unknown, field: string): Space {
  const s = obj(raw, field);
  return { x: int(s.x, `${field}.x`, { min: -10000, max: 10000 }), y: int(s.y, `${field}.y`, { min: -10000, max: 10000 }) };
}

export function readPath(raw: unknown, field: string): Space[] {
  const list = arr(raw, field, { max: 200 });
  if (list.length === 0) bad(field, 'must name at least one Space');
  return list.map((s, i) => readSpace(s, `${field}[${i}]`));
}
