import { LAB_SYSTEMS, runLab } from '@app/lab';
import { fmt, round } from './util';

/** One system's Combat Lab benchmark: a 5 × 5 matrix (the system's first five strategies) on worker threads. */
export interface LabBench {
  system: string;
  strategies: string[];
  fightsPerCell: number;
  cells: number;
  seconds: number;
  fightsPerSec: number;
  illegalProposals: number;
}

/** A row of the bench table, as bench.ts prints it. */
export interface LabBenchRow {
  benchmark: string;
  result: string;
  baseline: string;
  ratio: string;
  target: string;
  status: string;
}

/**
 * The Combat Lab: 5 × 5 strategies × `fights` per cell for every system the lab plays. Narateer has a target
 * (under 60 s at 10,000 per cell on two cores); the other systems are reported.
 */
export async function benchLab(
  fights: number,
  quick: boolean,
  log: (s: string) => void = () => undefined,
): Promise<{ results: LabBench[]; rows: LabBenchRow[] }> {
  const results: LabBench[] = [];
  const rows: LabBenchRow[] = [];
  for (const system of Object.keys(LAB_SYSTEMS)) {
    const strategies = LAB_SYSTEMS[system].strategies.slice(0, 5).map((s) => s.id);
    log(`lab ${system}: ${strategies.length} × ${strategies.length} × ${fights}…`);
    const started = performance.now();
    const result = await runLab({ system, fights, seed: '42', strategies });
    const seconds = (performance.now() - started) / 1000;
    const cells = strategies.length ** 2;
    const illegalProposals = result.cells.flat().reduce((t, c) => t + c.illegalProposals, 0);
    results.push({
      system,
      strategies,
      fightsPerCell: fights,
      cells,
      seconds: round(seconds, 1),
      fightsPerSec: Math.round((fights * cells) / seconds),
      illegalProposals,
    });
    const target = system === 'narateer';
    rows.push({
      benchmark: `Combat Lab ${system}: ${strategies.length} × ${strategies.length} matrix, ${fmt(fights)} fights per cell, worker threads`,
      result: `${seconds.toFixed(1)} s (${fmt((fights * cells) / seconds)} fights/s, ${fmt(illegalProposals)} refused proposals)`,
      baseline: '—',
      ratio: '',
      target: target ? '< 60 s at 10,000 per cell' : '',
      status: target && !quick ? (seconds < 60 ? 'met' : 'MISSED') : 'report',
    });
  }
  return { results, rows };
}
