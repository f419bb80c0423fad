import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHSOUL_RULINGS } from '../../src/archsoul/data';

/** House rule: every ruling is tested; docs/rulings-archsoul.md names the tests under each ruling ("Tests:"). */
const ROOT = join(__dirname, '..', '..', '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'rulings-archsoul.md'), 'utf8');
const SPECS = [
  ...readdirSync(__dirname)
    .filter((f) => f.endsWith('.spec.ts'))
    .map((f) => join(__dirname, f)),
  ...readdirSync(join(ROOT, 'test'))
    .filter((f) => f.startsWith('archsoul') && f.endsWith('.spec.ts'))
    .map((f) => join(ROOT, 'test', f)),
];
const TITLE = /\b(?:it|test|describe)(?:\.each\([^)]*\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
const titles = SPECS.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(TITLE)].map((m) => m[2].replace(/\\(.)/g, '$1')),
);

const rulings = DOC.split(/\n\s*\n/)
  .map((para) => /^\*\*(S\d+) /.exec(para) && { id: /^\*\*(S\d+) /.exec(para)![1], para })
  .filter((r): r is { id: string; para: string } => r !== null);

function covered(name: string): boolean {
  return name.endsWith('…') ? titles.some((t) => t.startsWith(name.slice(0, -1))) : titles.includes(name);
}

describe('docs/rulings-archsoul.md: every ruling names the tests that cover it', () => {
  it('every engine ruling in ARCHSOUL_RULINGS (S15 and later) has its paragraph in the doc, and no other', () => {
    const engine = ARCHSOUL_RULINGS.map((r) => r.id).filter(
      (id) => /^S\d+$/.test(id) && Number(id.slice(1)) >= 15,
    );
    expect(rulings.map((r) => r.id)).toEqual(engine);
  });

  it.each(rulings.map((r) => [r.id, r.para]))(
    '%s has a "Tests:" line whose names are real test titles',
    (_id, para) => {
      const line = para.split('\n').find((l) => l.startsWith('Tests: '));
      expect(line).toBeDefined();
      const names = [...line!.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !covered(n))).toEqual([]);
    },
  );

  it('RULINGS.md S1–S14 each have a "- Sn Tests:" line whose names are real test titles', () => {
    const lines = DOC.split('\n')
      .map((l) => /^- (S\d+) Tests: (.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(lines.map((m) => m[1])).toEqual(Array.from({ length: 14 }, (_, i) => `S${i + 1}`));
    const missing = lines.flatMap((m) =>
      [...m[2].matchAll(/"([^"]+)"/g)]
        .map((q) => q[1])
        .filter((n) => !covered(n))
        .map((n) => `${m[1]}: ${n}`),
    );
    expect(missing).toEqual([]);
  });
});
