import { LabResult } from '../result';

const CELL = 96;
const LEFT = 120;
const TOP = 96;

export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Diverging scale: 0 red, 0.5 white, 1 blue (readable for red–green colour blindness). */
export function colour(rate: number): string {
  const t = Math.max(0, Math.min(1, rate));
  const mix = (a: number, b: number, f: number) => Math.round(a + (b - a) * f);
  const [r, g, b] =
    t < 0.5
      ? [mix(202, 247, t * 2), mix(0, 247, t * 2), mix(32, 247, t * 2)]
      : [mix(247, 5, (t - 0.5) * 2), mix(247, 113, (t - 0.5) * 2), mix(247, 176, (t - 0.5) * 2)];
  return `#${[r, g, b].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** A standalone SVG heatmap of the row side's win rate with its 95% interval in each cell. */
export function toSvg(result: LabResult): string {
  const n = result.strategies.length;
  const width = LEFT + n * CELL + 20;
  const height = TOP + n * CELL + 60;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`Combat Lab ${result.system}: row win rate, ${result.fightsPerCell} fights per cell, seed ${result.seed}`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="24" font-size="14" font-weight="bold">${escapeXml(`${result.system}: row strategy win rate`)}</text>`,
    `<text x="${LEFT}" y="42">${escapeXml(`${result.fightsPerCell} fights per cell, seed ${result.seed}, 95% Wilson interval`)}</text>`,
  ];
  result.strategies.forEach((s, i) => {
    out.push(
      `<text x="${LEFT + i * CELL + CELL / 2}" y="${TOP - 10}" text-anchor="middle">${escapeXml(s)}</text>`,
    );
    out.push(
      `<text x="${LEFT - 8}" y="${TOP + i * CELL + CELL / 2 + 4}" text-anchor="end">${escapeXml(s)}</text>`,
    );
  });
  result.cells.forEach((row, r) =>
    row.forEach((c, k) => {
      const x = LEFT + k * CELL;
      const y = TOP + r * CELL;
      const tip = `${c.row} vs ${c.col}: ${pct(c.rowWin.rate)} [${pct(c.rowWin.low)}–${pct(c.rowWin.high)}], draws ${pct(c.draw.rate)}, ${c.averageRounds} rounds`;
      out.push(`<g><title>${escapeXml(tip)}</title>`);
      out.push(
        `<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${colour(c.rowWin.rate)}" stroke="#ffffff"/>`,
      );
      out.push(
        `<text x="${x + CELL / 2}" y="${y + CELL / 2}" text-anchor="middle" font-size="16" font-weight="bold">${pct(c.rowWin.rate)}</text>`,
      );
      out.push(
        `<text x="${x + CELL / 2}" y="${y + CELL / 2 + 18}" text-anchor="middle" font-size="10">${pct(c.rowWin.low)}–${pct(c.rowWin.high)}</text>`,
      );
      out.push('</g>');
    }),
  );
  out.push(
    `<text x="${LEFT}" y="${TOP + n * CELL + 30}">${escapeXml('rows: first sheet; columns: second sheet; red = row loses, blue = row wins')}</text>`,
  );
  out.push('</svg>');
  return out.join('\n') + '\n';
}
