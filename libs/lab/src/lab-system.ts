/** What one fight of a Combat Lab run ends in; side 0 plays the row strategy, side 1 the column strategy. */
export interface FightOutcome {
  /** 0 = row side won, 1 = column side won, undefined = draw. */
  winner: 0 | 1 | undefined;
  ending: FightEnding;
  rounds: number;
  /** Wounds dealt by each side (the Wounds its foe suffered). */
  wounds: [number, number];
  /** Proposals the decider refused (a strategy bug): each was replaced by the safe default. */
  illegal: number;
}

/** collapsed / withdrawn: the loser's state (N10); roundCap and stalemate are draws. */
export type FightEnding = 'collapsed' | 'withdrawn' | 'roundCap' | 'stalemate';

/** The strategy every rule system's policies share: a name a designer can pick from a list. */
export interface LabStrategy {
  id: string;
  description: string;
}

/**
 * A rule system the lab can play (Narateer now; Arcana Beast and Archsoul implement the same).
 * `prepare` validates the sheets through the system's own decider once per run; `play` runs one
 * whole fight and must depend only on its arguments, so any split of the work gives the same sums.
 */
export interface LabSystem<Match = unknown> {
  id: string;
  strategies: readonly LabStrategy[];
  defaultSheets: readonly Record<string, unknown>[];
  prepare(sheets: readonly Record<string, unknown>[], seed: string, roundCap: number): Match;
  play(match: Match, row: string, col: string, fightIndex: number): FightOutcome;
}
