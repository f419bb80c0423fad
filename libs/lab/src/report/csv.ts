import { LabResult } from '../result';

const HEADER = [
  'row',
  'col',
  'fights',
  'rowWins',
  'colWins',
  'draws',
  'rowWinRate',
  'rowWinLow',
  'rowWinHigh',
  'colWinRate',
  'colWinLow',
  'colWinHigh',
  'drawRate',
  'averageRounds',
  'averageWoundsRow',
  'averageWoundsCol',
  'collapsed',
  'withdrawn',
  'roundCap',
  'stalemate',
  'illegalProposals',
];

function field(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line per cell (long format), RFC 4180. */
export function toCsv(result: LabResult): string {
  const rows = result.cells
    .flat()
    .map((c) => [
      c.row,
      c.col,
      c.fights,
      c.rowWins,
      c.colWins,
      c.draws,
      c.rowWin.rate,
      c.rowWin.low,
      c.rowWin.high,
      c.colWin.rate,
      c.colWin.low,
      c.colWin.high,
      c.draw.rate,
      c.averageRounds,
      c.averageWounds.row,
      c.averageWounds.col,
      c.endings.collapsed,
      c.endings.withdrawn,
      c.endings.roundCap,
      c.endings.stalemate,
      c.illegalProposals,
    ]);
  return [HEADER, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
