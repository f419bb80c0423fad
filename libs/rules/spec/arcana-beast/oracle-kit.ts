import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualFaces } from '../../src/dice/manual';
import { rng } from '../seeded-random';
import { exact, then } from './helpers';

/**
 * What the Arcana Beast oracles share: the dice arithmetic of arcana-beast.txt and the rulings (A1–A4, A12, A58), the
 * bands and reach (A14, A17, A19) and the Critical Gauge thresholds (A7), worked from the texts (never from the engine);
 * how they draw from a seed, count what they met and send a command. Each oracle models its own rules on top.
 */

/**
 * One oracle’s draws from its seed and the cases it met: `seen` counts a case, `covered` (after the runs) prints them all
 * with FUZZ_REPORT and asks that each case it names came up at least once.
 */
export function explore(seed: number) {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  const roll = (n: number, sides: number) => Array.from({ length: n }, () => int(1, sides));
  /** Fisher–Yates. */
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const count: Record<string, number> = {};
  const seen = (k: string) => (count[k] = (count[k] ?? 0) + 1);
  const covered = (cases: string[] = []) => {
    if (process.env.FUZZ_REPORT) console.log(count);
    for (const k of cases) expect({ k, seen: (count[k] ?? 0) > 0 }).toEqual({ k, seen: true });
  };
  return { r, int, pick, roll, shuffle, count, seen, covered };
}
export type Explorer = ReturnType<typeof explore>;

/** A4: d6 at Stage 0–1, d8 at 2, d10 at 3, d12 at 4; a Binder (and a Stage 1 beast) rolls d6. */
export const sidesOf = (stage: number) => [6, 6, 8, 10, 12][stage];

/** A3, A12, A58: roll n (+1 with a net Boost or Setback), drop the lowest (Boost) or highest (Setback). */
export function keep(faces: number[], net: number): number[] {
  if (net === 0) return faces;
  const sorted = [...faces].sort((a, b) => a - b);
  return net > 0 ? sorted.slice(1) : sorted.slice(0, -1);
}

/** A1: a die succeeds on 4 or more. */
export const successes = (kept: number[]) => kept.filter((f) => f >= 4).length;
/** A2: a 6 is a Critical die. */
export const sixes = (kept: number[]) => kept.filter((f) => f >= 6).length;
/** A3: Boost and Setback do not stack; one of each cancels. */
export const netOf = (boost: boolean, setback: boolean) => (boost ? 1 : 0) - (setback ? 1 : 0);

/**
 * "Initiative & Turn Order": `dice` (Agility + initiativeDice, A29) on the Stage’s die (A4), one more die and the highest
 * dropped for a surprised beast (A29, A31, A3): the faces to give and the successes.
 */
export function initiative(fuzz: Explorer, dice: number, stage: number, surprised = false) {
  const net = surprised ? -1 : 0;
  const faces = fuzz.roll(dice + (net ? 1 : 0), sidesOf(stage));
  return { faces, total: successes(keep(faces, net)) };
}

/** "Critical Gauge thresholds: 3 Minor, 6 Major, 9 Climactic" (A7). */
export const TIERS: Record<number, string> = { 3: 'minor', 6: 'major', 9: 'climactic' };

/** A sheet's stats, the ones an oracle varies given. */
export const stats = (agility: number, brawn = 2, spirit = 2, endurance = 2) => ({
  brawn,
  agility,
  endurance,
  spirit,
  technique: 2,
});

/** A Binder of `beastId` with Agility 2 and Brawn 1. */
export const binderSheet = (beastId: string, hp = 10) => ({
  kind: 'binder',
  beastId,
  stats: stats(2, 1),
  hp,
  stamina: 3,
});

/** A wild beast at Stage 1 (d6, A4) whose long-range Beam on Spirit reaches every band (A6). */
export const beamer = (agility: number, spirit: number, hp: number) => ({
  kind: 'beast',
  stats: stats(agility, 2, spirit),
  hp,
  stamina: 1,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'beam', name: 'Beam', range: 'long', stat: 'spirit' }],
});

export const BANDS = ['close', 'near', 'far'] as const;
export type Band = (typeof BANDS)[number];
export const RANGES = ['melee', 'ranged', 'long'] as const;
/** "Attack: Melee (Close) or ranged (Close/Near)"; "Far: Only long-range abilities reach". */
export const reaches = (range: (typeof RANGES)[number], band: Band) =>
  range === 'melee' ? band === 'close' : range === 'ranged' ? band !== 'far' : true;

/**
 * The bands between three beasts m0, m1 and m2 and the difficult terrain on each pair (A17, A19), m0’s Binder m0x (when
 * `bound`) sharing m0’s place (A14, A17): a pair the GM has not set is Near, one place is Close to itself.
 */
export function bandMap(fuzz: Explorer, bound: boolean) {
  const ids = ['m0', 'm1', 'm2'];
  const key = (a: string, b: string) => [a, b].sort().join('|');
  const place = (id: string) => (id === 'm0x' ? 'm0' : id);
  const band: Record<string, Band> = {};
  const terrain: Record<string, number> = {};
  const bandOf = (a: string, b: string): Band =>
    place(a) === place(b) ? 'close' : (band[key(place(a), place(b))] ?? 'near');
  return {
    pairs: [
      ['m0', 'm1'],
      ['m0', 'm2'],
      ['m1', 'm2'],
    ],
    /** Where a combatant stands: m0x where m0 does. */
    place,
    band,
    terrain,
    bandOf,
    /** The Difficulty of the difficult terrain between two places, 0 for none. */
    terrainOf: (a: string, b: string) => terrain[key(place(a), place(b))] ?? 0,
    /** The GM’s SetBand on a pair, with its difficult terrain. */
    set(e: RuleEvent[], a: string, b: string, to: Band, dt: number) {
      e = then(e, { type: 'SetBand', aId: a, bId: b, band: to, ...(dt ? { difficultTerrain: dt } : {}) });
      band[key(a, b)] = to;
      if (dt) terrain[key(a, b)] = dt;
      return e;
    },
    /** A move between two places that reached its band. */
    moved(a: string, b: string, to: Band) {
      band[key(place(a), place(b))] = to;
    },
    /** A step of `me`: toward one of the others (m0x too, but not for m0), from the band they are at, to another. */
    aim(me: string) {
      const others = [...ids.filter((id) => id !== me), ...(bound && me !== 'm0' ? ['m0x'] : [])];
      const toward = fuzz.pick(others);
      const from = bandOf(me, toward);
      const to = fuzz.pick(BANDS.filter((b) => b !== from));
      return { toward, from, to, dist: Math.abs(BANDS.indexOf(to) - BANDS.indexOf(from)) };
    },
  };
}

/**
 * After the wild beast w’s turn, the rest of the round: each beast in the fight Passes; a Binder whose beast is out
 * (`out`) has Commands only (A21), and the last turn ends the round (A68).
 */
export function passRound(e: RuleEvent[], out: Set<string>): RuleEvent[] {
  e = then(e, { type: 'EndActivation' });
  while (!e.some((x, i) => i > e.length - 3 && x.type === 'RoundEnded')) {
    e = then(e, { type: 'StartActivation' });
    const turn = [...e].reverse().find((x) => x.type === 'TurnStarted')!.data as { combatantId: string };
    if (!out.has(turn.combatantId)) e = then(e, { type: 'Pass', combatantId: turn.combatantId });
    e = then(e, { type: 'EndActivation' });
  }
  return e;
}

/** A group of ids in one order, to compare groups. */
export const sortIds = (g: string[]) => [...g].sort();

export type Ev = Record<string, any>;
/** The data of the first event of `type`. */
export function find(got: RuleEvent[], type: string): Ev | undefined {
  const data: unknown = got.find((x) => x.type === type)?.data;
  return data as Ev | undefined;
}

/** The events `command` appends with exactly `faces`, or the rule it breaks. */
export function decide(
  events: RuleEvent[],
  command: RuleCommand,
  faces: ManualFaces = {},
): RuleEvent[] | RuleViolation {
  try {
    return exact(events, command, faces);
  } catch (err) {
    if (err instanceof RuleViolation) return err;
    throw err;
  }
}
