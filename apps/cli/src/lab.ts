import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { RuleViolation } from '@app/rules';
import { formatTable, LAB_SYSTEMS, LabInputError, LabResult, runLab, writeReports } from '@app/lab';

export interface LabFlags {
  system: string;
  fights: string;
  seed: string;
  sheets?: string;
  strategies?: string;
  roundCap?: string;
  workers?: string;
  out: string;
  progress?: boolean;
}

/** `lab`: the Combat Lab strategy matrix (docs/lab.md), the same runner as POST /lab/runs. */
export function registerLab(program: Command): void {
  program
    .command('lab')
    .description(
      'play every pair of strategies many times and report win rates with 95% intervals (table, CSV, JSON, SVG)',
    )
    .option('--system <id>', `rule system: ${Object.keys(LAB_SYSTEMS).join(', ')}`, 'narateer')
    .option('--fights <n>', 'fights per cell (at most 100000)', '1000')
    .option('--seed <seed>', 'seed every fight’s dice derive from', 'lab')
    .option(
      '--sheets <file>',
      'JSON file: an array of two sheet entries (row side, column side; see docs/lab.md for each system); default the system’s bundled pair',
    )
    .option('--strategies <ids>', 'comma-separated strategy ids (default: all of the system’s)')
    .option('--round-cap <n>', 'rounds before a fight is a draw (default 30)')
    .option('--workers <n>', 'worker threads (default: one per core; 0 = this thread)')
    .option('--out <dir>', 'directory for lab.json, lab.csv, lab.svg', './lab-results')
    .option('--no-progress', 'do not print progress to stderr')
    .action(async (flags: LabFlags) => {
      await labCommand(flags, (text) => process.stdout.write(text));
    });
}

/** Runs the lab, prints the table and writes the files; bad input becomes one readable error. */
export async function labCommand(flags: LabFlags, print: (text: string) => void): Promise<LabResult> {
  const started = Date.now();
  const showProgress = flags.progress !== false && process.stderr.isTTY === true;
  let result: LabResult;
  try {
    result = await runLab(
      {
        system: flags.system,
        fights: whole(flags.fights, 'fights'),
        seed: flags.seed,
        sheets: flags.sheets === undefined ? undefined : readSheets(flags.sheets),
        strategies: flags.strategies
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        roundCap: flags.roundCap === undefined ? undefined : whole(flags.roundCap, 'roundCap'),
      },
      {
        workers: flags.workers === undefined ? undefined : whole(flags.workers, 'workers'),
        onProgress: showProgress
          ? ({ done, total }) => process.stderr.write(`\r${done}/${total} fights`)
          : undefined,
      },
    );
  } catch (e) {
    if (e instanceof LabInputError || e instanceof RuleViolation)
      throw new Error(`${e.field ?? 'input'}: ${e.message} (${e.code})`, { cause: e });
    throw e;
  }
  if (showProgress) process.stderr.write('\n');
  const files = writeReports(result, flags.out);
  print(formatTable(result));
  print(`\nWrote ${files.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

function whole(raw: string, field: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n))
    throw new Error(`${field}: must be a whole number; got ${raw}`);
  return n;
}

function readSheets(file: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`sheets: cannot read ${file} as JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(parsed)) throw new Error(`sheets: ${file} must hold a JSON array of two sheets`);
  return parsed as Record<string, unknown>[];
}
