import { coreView } from '../core/lifecycle';
import { keptPerObject } from '../core/kept';
import type { CoreViewKey } from '../core/lifecycle-contract';
import type { ArchsoulCombatantView, ArchsoulView } from './contract';
import type { WEAPON_PROPERTIES } from './data';
import { attackPool, damageSetup } from './decide/damage';
import { EMPTY_HANDS, freeHands } from './hands';
import {
  ArchsoulCombatant,
  ArchsoulState,
  conditionTotal,
  hasFrontArc,
  isDown,
  partyOf,
  shieldBonusNow,
  speedNow,
} from './state';

/** The core's part of the view, as ARCHSOUL_VIEW declares it (coreView itself is typed loosely). */
type CoreView = Pick<ArchsoulView, CoreViewKey>;

/** What a frontend renders: map, positions, facings, AP, HP, Defense, conditions, phase, turns, pending decision, as ARCHSOUL_VIEW declares it. */
export function view(state: ArchsoulState): ArchsoulView {
  return {
    ...(coreView(state) as CoreView),
    map: state.map,
    phase: state.phase ?? null,
    openTurns: state.joined.filter((id) => state.combatants[id].inTurn),
    ambush: state.ambush ?? null,
    ground: state.ground,
    reaction: state.reaction ?? null,
    grapples: state.grapples,
    combatants: state.joined.map((id) => combatantView(state.combatants[id])),
  };
}

/** A combatant's entry depends on the combatant alone: an unchanged one keeps its entry (keptPerObject). */
const combatantView = keptPerObject(buildCombatantView);

function buildCombatantView(c: ArchsoulCombatant): ArchsoulCombatantView {
  return {
    id: c.id,
    name: c.name,
    side: c.side,
    party: partyOf(c.side),
    state: isDown(c) ? 'Down' : 'Active',
    hp: c.hp,
    maxHp: c.sheet.maxHp,
    defense: Math.max(0, c.sheet.defense - conditionTotal(c, 'defenseDown')),
    baseDefense: c.sheet.defense,
    // What the engine enforces (decide/damage.ts, decide/movement.ts), not the sheet's numbers.
    shieldBonus: shieldBonusNow(c),
    speed: speedNow(c),
    baseSpeed: c.sheet.speed,
    attributes: c.sheet.attributes,
    skills: c.sheet.skills,
    initiative: c.initiative ?? null,
    position: c.position ?? null,
    facing: c.facing,
    hasFrontArc: hasFrontArc(c),
    ap: c.ap,
    inTurn: c.inTurn,
    moves: c.moves,
    moveDistance: c.moveDistance,
    freeMove: c.freeMove,
    held: c.held,
    hands: c.hands ?? EMPTY_HANDS,
    freeHands: freeHands(c.hands),
    awkwardDraw: c.awkward ?? null,
    conditions: c.conditions,
    weapons: c.sheet.weapons.map((w) => ({
      id: w.id,
      name: w.name,
      type: w.type,
      held: c.held.includes(w.id),
      damage: w.damage,
      reach: w.reach,
      accurateRange: w.accurateRange ?? null,
      maximumRange: w.maximumRange ?? null,
      // validateSheet reads them through ARCHSOUL_SHEET’s enum; the sheet type keeps them as strings.
      properties: w.properties as (typeof WEAPON_PROPERTIES)[number][],
      handling: w.handling,
      twoHanded: w.twoHanded,
      armourPiercing: w.armourPiercing,
      strongAgainst: w.strongAgainst,
      weakAgainst: w.weakAgainst,
      // The decider's own counts (an Attack's roll, its damage roll before a Charge's bonus dice): no target, no input.
      attackPool: attackPool(c, w),
      damagePool: damageSetup(c, w, undefined, {}).pool ?? null,
      ...c.weapons[w.id],
    })),
    drain: c.drain,
    soulpowerLoss: c.soulpowerLoss,
    attackedWith: c.attackedWith,
    quickAttacked: c.quickAttacked,
    study: c.study ?? null,
    stolen: c.stolen,
    size: c.sheet.size,
    mounted: c.mounted,
    mount: c.sheet.mount ?? null,
  };
}
