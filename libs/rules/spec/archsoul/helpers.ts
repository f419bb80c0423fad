import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import { archsoul, ArchsoulState, validateSheet } from '../../src/archsoul';
import { decideExact, fightStarted, given } from '../given';
export { find, types } from '../given';

export const sword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
export const bow = {
  id: 'bow',
  name: 'Longbow',
  type: 'ranged',
  damage: 2,
  accurateRange: 5,
  maximumRange: 10,
  ammunition: { kind: 'arrow', count: 5 },
};
/** A bomb: thrown, radius 2 m (its space and the adjacent ones), accurate range 3, maximum range 6. */
export const bomb = {
  id: 'bomb',
  name: 'Bomb',
  type: 'thrown',
  damage: 3,
  accurateRange: 3,
  maximumRange: 6,
  areaRadius: 2,
};
export const pistol = {
  id: 'pistol',
  name: 'Pistol',
  type: 'ranged',
  damage: 3,
  accurateRange: 4,
  maximumRange: 8,
  criticalTable: 'firearm',
  ammunition: { kind: 'bullet', count: 6 },
};
export const javelin = {
  id: 'javelin',
  name: 'Javelin',
  type: 'thrown',
  damage: 2,
  accurateRange: 3,
  maximumRange: 6,
};

/** A sheet before its weapons: attributes 2 but Soulpower and Intellect 1, 10 HP, Defense 1. */
export const unarmed = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: {
    awareness: 1,
    meleeWeapons: 2,
    rangedWeapons: 2,
    primitiveAttacks: 1,
    weaponMastery: 1,
    resolve: 1,
  },
  maxHp: 10,
  defense: 1,
};

export function sheet(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...unarmed, weapons: [sword], ...overrides };
}

/** A hero at `at` on the heroes' side, facing north unless told, with a sheet() and `extra`. */
export const hero = (
  id: string,
  at: [number, number],
  facing = 'N',
  extra: Record<string, unknown> = {},
) => ({
  id,
  at,
  facing,
  sheet: sheet(extra),
});
/** An enemy at `at`, facing south unless told, with a sheet() and `extra`. */
/** a attacks v with its sword; `extra` adds or replaces fields. */
export const attack = (extra: Record<string, unknown> = {}) => ({
  type: 'Attack',
  attackerId: 'a',
  targetId: 'v',
  weaponId: 'sword',
  ...extra,
});

export const foe = (id: string, at: [number, number], facing = 'S', extra: Record<string, unknown> = {}) => ({
  id,
  at,
  facing,
  side: 'enemies',
  sheet: sheet(extra),
});
/** A rider with a sword on a large horse (speed 3, Trample 3). */
export const rider = {
  weapons: [sword],
  mount: { name: 'Horse', speed: 3, size: 'large', trampleDamage: 3 },
};

export interface Fighter {
  id: string;
  sheet?: Record<string, unknown>;
  side?: string;
  at?: [number, number];
  facing?: string;
}

export function joined(f: Fighter): RuleEvent {
  return {
    type: 'CombatantJoined',
    data: {
      id: f.id,
      name: f.id,
      side: f.side ?? 'heroes',
      sheet: validateSheet(f.sheet ?? sheet(), 'sheet'),
    },
  };
}

/** A started fight with the fighters placed, initiative = listed order, round 1 open (phases from the order). */
export function fight(
  fighters: Fighter[],
  opts: { map?: Record<string, unknown>; round?: boolean; options?: Record<string, unknown> } = {},
): RuleEvent[] {
  const started = fightStarted('archsoul');
  (started.data as any).options = opts.options ?? {};
  let events: RuleEvent[] = [started, ...fighters.map(joined)];
  if (opts.map) events = then(events, { type: 'SetMap', ...opts.map });
  for (const f of fighters)
    if (f.at)
      events = then(events, {
        type: 'PlaceCombatant',
        combatantId: f.id,
        position: { x: f.at[0], y: f.at[1] },
        facing: f.facing ?? 'N',
      });
  events.push({ type: 'InitiativeSet', data: { order: fighters.map((f) => f.id) } });
  if (opts.round !== false) events = then(events, { type: 'StartRound' });
  return events;
}

export function exact(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  return decideExact(archsoul, events, command, faces);
}

export function then(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  return [...events, ...exact(events, command, faces)];
}

export function refused(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}) {
  return given(archsoul, events).when(command, faces).violation();
}

export function stateOf(events: RuleEvent[]): ArchsoulState {
  return given(archsoul, events).state;
}
