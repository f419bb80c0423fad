import { LabResult } from '../result';
import { nameText } from '../sides';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The win-rate matrix as text: row strategy's win rate [95% CI] against each column, then averages. */
export function formatTable(result: LabResult): string {
  const names = result.strategies;
  const cellText = result.cells.map((row) =>
    row.map((c) => `${pct(c.rowWin.rate)} [${pct(c.rowWin.low)}–${pct(c.rowWin.high)}]`),
  );
  const first = Math.max('row \\ col'.length, ...names.map((n) => n.length));
  const width = names.map((n, c) => Math.max(n.length, ...cellText.map((r) => r[c].length)));
  const line = (head: string, cols: string[]) =>
    [head.padEnd(first), ...cols.map((t, c) => t.padStart(width[c]))].join('  ');
  const sheets = result.sheets.map((s, i) => nameText(s.name, i === 0 ? 'row side' : 'column side'));
  const out = [
    `Combat Lab: ${result.system}, ${result.fightsPerCell} fights per cell, seed ${JSON.stringify(result.seed)}, round cap ${result.roundCap}`,
    `Rows play ${sheets[0]}, columns play ${sheets[1]}. Cell = row side's win rate [95% Wilson interval].`,
    '',
    line('row \\ col', names),
    ...names.map((n, r) => line(n, cellText[r])),
    '',
    line(
      'draws',
      names.map(() => ''),
    ).trimEnd(),
    ...names.map((n, r) =>
      line(
        n,
        result.cells[r].map((c) => pct(c.draw.rate)),
      ),
    ),
    '',
    line(
      'avg rounds',
      names.map(() => ''),
    ).trimEnd(),
    ...names.map((n, r) =>
      line(
        n,
        result.cells[r].map((c) => c.averageRounds.toFixed(2)),
      ),
    ),
    '',
    line(
      'avg wounds (row/col)',
      names.map(() => ''),
    ).trimEnd(),
    ...names.map((n, r) =>
      line(
        n,
        result.cells[r].map((c) => `${c.averageWounds.row.toFixed(2)}/${c.averageWounds.col.toFixed(2)}`),
      ),
    ),
  ];
  const illegal = result.cells.flat().reduce((t, c) => t + c.illegalProposals, 0);
  if (illegal > 0)
    out.push(
      '',
      `Warning: the decider refused ${illegal} strategy proposal(s); see illegalProposals in the JSON.`,
    );
  return out.join('\n') + '\n';
}
