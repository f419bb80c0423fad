import { colour, escapeXml, formatTable, runLab, toCsv, toSvg, LabResult } from '../src';

/** Well-formed enough for a browser: one root, every tag closed in order, attributes quoted, no bare '&' or '<'. */
function checkXml(svg: string): void {
  const stack: string[] = [];
  const body = svg.replace(/<([^>]+)>/g, (_all, inner: string) => {
    if (inner.startsWith('/')) expect(stack.pop()).toBe(inner.slice(1));
    else {
      expect(inner).toMatch(/^[a-zA-Z]+(\s+[a-zA-Z:-]+="[^"<]*")*\s*\/?$/);
      if (!inner.endsWith('/')) stack.push(inner.split(/\s/)[0]);
    }
    return '';
  });
  expect(stack).toEqual([]);
  expect(body).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
}

describe('lab reports', () => {
  let result: LabResult;
  beforeAll(async () => {
    result = await runLab(
      { system: 'narateer', fights: 30, seed: 'reports', strategies: ['heavy', 'guard', 'clash'] },
      { workers: 0 },
    );
  });

  it('the SVG heatmap is well-formed XML with one coloured cell per matchup', () => {
    const svg = toSvg({ ...result, seed: 'a<b>&"c"' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    checkXml(svg);
    expect(svg.match(/<rect x=/g)).toHaveLength(9);
    expect(escapeXml('<&>')).toBe('&lt;&amp;&gt;');
    expect([colour(0), colour(0.5), colour(1)]).toEqual(['#ca0020', '#f7f7f7', '#0571b0']);
  });

  it('the CSV has a header and one line per cell', () => {
    const lines = toCsv(result).trimEnd().split('\r\n');
    expect(lines[0].split(',').slice(0, 3)).toEqual(['row', 'col', 'fights']);
    expect(lines).toHaveLength(1 + 9);
    expect(lines[1].startsWith('heavy,heavy,30,')).toBe(true);
  });

  it('the table names every strategy in rows and columns with intervals', () => {
    const table = formatTable(result);
    const header = table.split('\n').find((l) => l.startsWith('row \\ col'))!;
    expect(header.split(/\s{2,}/).slice(1)).toEqual(['heavy', 'guard', 'clash']);
    expect(table).toMatch(/^guard\s+\d+\.\d% \[\d+\.\d%–\d+\.\d%\]/m);
    expect(table).toContain('avg rounds');
  });
});
