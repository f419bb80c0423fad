import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toCsv, toSvg } from '@app/lab';
import { labCommand } from './lab';

describe('lab command', () => {
  it('the CLI prints the table and writes JSON, CSV and SVG', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    try {
      let printed = '';
      const r = await labCommand({ system: 'narateer', fights: '20', seed: '42', strategies: 'heavy,flurry', out, workers: '0', progress: false }, (t) => (printed += t));
      expect(printed).toContain('row \\ col');
      expect(printed).toMatch(/^flurry\s+\d/m);
      expect(JSON.parse(readFileSync(join(out, 'lab.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
      expect(readFileSync(join(out, 'lab.csv'), 'utf8')).toBe(toCsv(r));
      expect(readFileSync(join(out, 'lab.svg'), 'utf8')).toBe(toSvg(r));
      await expect(labCommand({ system: 'narateer', fights: '100001', seed: '42', out, progress: false }, () => undefined)).rejects.toThrow(/fights: .*100000/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
