import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toCsv, toSvg } from '@app/lab';
import { labCommand } from '../src/lab';

describe('lab command', () => {
  it('the CLI prints the table and writes JSON, CSV and SVG', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    try {
      let printed = '';
      const r = await labCommand(
        {
          system: 'narateer',
          fights: '20',
          seed: '42',
          strategies: 'heavy,flurry',
          out,
          workers: '0',
          progress: false,
        },
        (t) => (printed += t),
      );
      expect(printed).toContain('row \\ col');
      expect(printed).toMatch(/^flurry\s+\d/m);
      expect(JSON.parse(readFileSync(join(out, 'lab.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
      expect(readFileSync(join(out, 'lab.csv'), 'utf8')).toBe(toCsv(r));
      expect(readFileSync(join(out, 'lab.svg'), 'utf8')).toBe(toSvg(r));
      await expect(
        labCommand(
          { system: 'narateer', fights: '100001', seed: '42', out, progress: false },
          () => undefined,
        ),
      ).rejects.toThrow(/fights: .*100000/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it.each(['arcana-beast', 'archsoul'])(
    '`lab --system %s` prints its matrix with 95% intervals and writes the same files',
    async (system) => {
      const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
      try {
        let printed = '';
        const r = await labCommand(
          { system, fights: '3', seed: '7', out, workers: '0', progress: false },
          (t) => (printed += t),
        );
        expect(printed).toContain(`Combat Lab: ${system}, 3 fights per cell`);
        for (const s of r.strategies)
          expect(printed).toMatch(new RegExp(`^${s}\\s+\\d+\\.\\d% \\[\\d+\\.\\d%–\\d+\\.\\d%\\]`, 'm'));
        expect(readFileSync(join(out, 'lab.json'), 'utf8')).toBe(JSON.stringify(r, null, 2) + '\n');
        expect(readFileSync(join(out, 'lab.csv'), 'utf8')).toBe(toCsv(r));
        expect(readFileSync(join(out, 'lab.svg'), 'utf8')).toBe(toSvg(r));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
  );
});
