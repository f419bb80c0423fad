import type { z } from 'zod';
import { CombatantCore, FightCore } from '../core/types';
import type { HeldActionSchema, TRIGGERS } from './contract';
import { Condition } from './data';
import { Facing, Space } from './grid';
import type { Hands } from './hands';
import { BattleMap } from './map';
import { ArchsoulSheet } from './sheet';

/** S16: the GM's party is side "enemies"; every other side is a hero. */
export type Party = 'heroes' | 'enemies';

export function partyOf(side: string): Party {
  return side === 'enemies' ? 'enemies' : 'heroes';
}

export interface ActiveCondition {
  condition: Condition;
  amount: number;
  /** C7: "for one round" ends at the combatant's next turn. */
  untilNextTurn: boolean;
  /** Whose next turn ends it (a Soul Shield lasts until its caster's next turn); the holder when absent. */
  sourceId?: string;
}

export interface WeaponState {
  broken: boolean;
  destroyed: boolean;
  jammed: boolean;
  hp?: number;
  ammunition?: number;
}

export interface ArchsoulCombatant extends CombatantCore<ArchsoulSheet> {
  hp: number;
  position?: Space;
  facing: Facing;
  initiative?: number;
  ap: number;
  /** S12: the combatant's turn in the running phase is open. */
  inTurn: boolean;
  /** Move actions and the distance they covered this turn (S6, S14). */
  moves: number;
  moveDistance: number;
  /** archsoul.txt: Ambushes: free movement left in the first round of combat (turns.ts). */
  freeMove: number;
  /** Item ids in hand (and unarmed weapons worn). */
  held: string[];
  /** S51: what each of the two hands holds; absent in a state folded before hands were kept. */
  hands: Hands;
  /** Item ids no longer carried (on the ground, thrown, broken). */
  away: string[];
  /** S25: an awkward draw in progress. */
  awkward?: string;
  conditions: ActiveCondition[];
  weapons: Record<string, WeaponState>;
  /** S13: reactors whose leave-reach trigger this combatant has used this turn. */
  triggeredBy: string[];
  drain: number;
  soulpowerLoss: number;
  /** archsoul.txt: Quick Attack: weapons attacked with this round (C7: until the own next turn). */
  attackedWith: string[];
  /** archsoul.txt: Quick Attack: no other attacks but reactive ones for the rest of the turn. */
  quickAttacked: boolean;
  /** archsoul.txt: Sneak Attack: consecutive studying actions against one target (S30). */
  study?: { targetId: string; count: number };
  /** S35: items taken with Steal: the GM moves them onto the thief's sheet. */
  stolen: { itemId: string; fromId: string; name: string }[];
  /** archsoul.txt: Mounted Maneuvers: riding the sheet's mount (S35). */
  mounted: boolean;
  /** S42: where the mount waits while its rider is off it. */
  mountAt?: Space;
}

/** archsoul.txt: Grappling: two participants; one has control (S33). */
export interface Grapple {
  grappleId: string;
  memberIds: [string, string];
  controlId: string;
}

export interface GroundItem {
  groundId: string;
  itemId: string;
  ownerId: string;
  name: string;
  space: Space;
  /** A recoverable projectile (arrow, bolt…) rather than the item itself. */
  ammunition?: string;
}

/** S18: an action held while reactive attacks are answered; the payload is the command's, minus dice (contract.ts). */
export type HeldAction = z.infer<typeof HeldActionSchema>;
export type HeldActionType = HeldAction['type'];

export type Trigger = (typeof TRIGGERS)[number];

/** One sequence of reactive attacks (S18): the actor, what triggered it, its held action, the reactors offered and to come. */
export interface ReactionSequence {
  actorId: string;
  trigger: Trigger;
  action?: HeldAction;
  current?: string;
  remaining: string[];
  prevented: boolean;
}

/**
 * The sequence being answered now. S20: a reactive attack that critically fails and leaves its attacker open opens a
 * sequence of its own inside the one it answered; `interrupted` holds the sequences waiting for it, outermost first,
 * each resuming where it was when the one inside it finishes. Absent when none waits.
 */
export interface ReactionQueue extends ReactionSequence {
  interrupted?: ReactionSequence[];
}

/** The innermost action held by the sequence being answered or by one it interrupted (S18, S20), with its actor. */
export function heldBy(q: ReactionQueue | undefined): { actorId: string; action: HeldAction } | undefined {
  if (!q) return undefined;
  const chain: ReactionSequence[] = [...(q.interrupted ?? []), q];
  const holding = chain.reverse().find((x) => x.action !== undefined);
  return holding ? { actorId: holding.actorId, action: holding.action! } : undefined;
}

export interface Phase {
  round: number;
  index: number;
  party: Party;
  combatantIds: string[];
}

export interface ArchsoulState extends FightCore<ArchsoulCombatant> {
  map: BattleMap;
  phase?: Phase;
  ambush?: Party;
  /** Ruling S77: the surprising party's members present as round 1 started who have had no turn yet (their free move). */
  ambushOwed?: string[];
  ground: GroundItem[];
  groundCount: number;
  reaction?: ReactionQueue;
  grapples: Grapple[];
  grappleCount: number;
}

export function isDown(c: ArchsoulCombatant): boolean {
  return c.hp <= 0;
}

export function hasCondition(c: ArchsoulCombatant, k: Condition): boolean {
  return c.conditions.some((x) => x.condition === k);
}

export function conditionTotal(c: ArchsoulCombatant, k: Condition): number {
  return c.conditions.filter((x) => x.condition === k).reduce((t, x) => t + x.amount, 0);
}

/** archsoul.txt: Being Grappled ("you do not have a front arc"), S11 (Down: no front arc). */
export function hasFrontArc(c: ArchsoulCombatant): boolean {
  return !isDown(c) && !hasCondition(c, 'grappled');
}

/**
 * Spaces per Move now: the mount's speed while mounted (S35), which the rider's own slowed condition does not lessen
 * (S86: archsoul.txt: Charge counts "your mount's base speed"); on foot, the sheet's speed less any slowed condition
 * (S20: an ankle sprain).
 */
export function speedNow(c: ArchsoulCombatant): number {
  if (c.mounted && c.sheet.mount) return c.sheet.mount.speed;
  return Math.max(0, c.sheet.speed - conditionTotal(c, 'slowed'));
}

/**
 * archsoul.txt: Ambushes: "their base movement speed": the speed before any condition, as "base weapon damage" is the
 * weapon's before what is added to it (S101): the sheet's on foot, the mount's while mounted (S35, S86).
 */
export function baseSpeed(c: ArchsoulCombatant): number {
  return c.mounted && c.sheet.mount ? c.sheet.mount.speed : c.sheet.speed;
}

/**
 * The Shield Bonus the combatant has now (S10): its held, undestroyed shield's, only while it has a front arc
 * (archsoul.txt: Being Grappled: "cannot ... benefit from using a shield"; S11: Down). An attack adds it only against
 * ranged, thrown and elemental attacks into that front arc (decide/damage.ts).
 */
export function shieldBonusNow(c: ArchsoulCombatant): number {
  const sh = c.sheet.shield;
  return sh && c.held.includes(sh.id) && !c.weapons[sh.id]?.destroyed && hasFrontArc(c) ? sh.bonus : 0;
}

/** The grapples a combatant takes part in. */
export function grapplesOf(state: ArchsoulState, id: string): Grapple[] {
  return state.grapples.filter((g) => g.memberIds.includes(id));
}

export function partnerOf(g: Grapple, id: string): string {
  return g.memberIds[0] === id ? g.memberIds[1] : g.memberIds[0];
}
