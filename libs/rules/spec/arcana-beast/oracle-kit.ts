import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualFaces } from '../../src/dice/manual';
import { exact } from './helpers';

/**
 * What the Arcana Beast oracles share: the dice arithmetic of arcana-beast.txt and the rulings (A1–A4, A12, A58), worked
 * from the texts (never from the engine), and how they send a command. Each oracle models its own rules on top.
 */

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

/** A sheet's stats, the ones an oracle varies given. */
export const stats = (agility: number, brawn = 2, spirit = 2) => ({
  brawn,
  agility,
  endurance: 2,
  spirit,
  technique: 2,
});

/** A Binder of `beastId` with Agility 2 and Brawn 1. */
export const binderSheet = (beastId: string) => ({
  kind: 'binder',
  beastId,
  stats: stats(2, 1),
  hp: 10,
  stamina: 3,
});

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
