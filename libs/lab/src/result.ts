import { FightEnding } from './lab-system';
import { LabPlan } from './plan';
import { round, wilson } from './stats';
import { Tally } from './tally';

export interface RateWithInterval {
  rate: number;
  /** 95% Wilson score interval. */
  low: number;
  high: number;
}

/** One matchup: the row strategy (first sheet) against the column strategy (second sheet). */
export interface LabCell {
  row: string;
  col: string;
  fights: number;
  rowWins: number;
  colWins: number;
  draws: number;
  rowWin: RateWithInterval;
  colWin: RateWithInterval;
  draw: RateWithInterval;
  averageRounds: number;
  /** Average Wounds dealt per fight by each side. */
  averageWounds: { row: number; col: number };
  endings: Record<FightEnding, number>;
  illegalProposals: number;
}

/** The whole run; `JSON.stringify` of it is the lab's JSON file, the same bytes for the same input. */
export interface LabResult {
  format: 'combat-lab/1';
  system: string;
  seed: string;
  fightsPerCell: number;
  roundCap: number;
  strategies: string[];
  sheets: Record<string, unknown>[];
  /** cells[r][c]: strategies[r] (row side) against strategies[c] (column side). */
  cells: LabCell[][];
}

function rate(successes: number, n: number): RateWithInterval {
  const { low, high } = wilson(successes, n);
  return { rate: round(n === 0 ? 0 : successes / n), low: round(low), high: round(high) };
}

export function buildResult(plan: LabPlan, tallies: Tally[]): LabResult {
  const n = plan.strategies.length;
  const cells = plan.strategies.map((row, r) =>
    plan.strategies.map((col, c): LabCell => {
      const t = tallies[r * n + c];
      const per = (x: number) => round(t.fights === 0 ? 0 : x / t.fights);
      return {
        row,
        col,
        fights: t.fights,
        rowWins: t.rowWins,
        colWins: t.colWins,
        draws: t.draws,
        rowWin: rate(t.rowWins, t.fights),
        colWin: rate(t.colWins, t.fights),
        draw: rate(t.draws, t.fights),
        averageRounds: per(t.rounds),
        averageWounds: { row: per(t.rowWounds), col: per(t.colWounds) },
        endings: { ...t.endings },
        illegalProposals: t.illegal,
      };
    }),
  );
  return {
    format: 'combat-lab/1',
    system: plan.system,
    seed: plan.seed,
    fightsPerCell: plan.fights,
    roundCap: plan.roundCap,
    strategies: plan.strategies,
    sheets: plan.sheets,
    cells,
  };
}
